/* The mutable state of one simulation of a model.
 *
 * lk_data_new() sizes every workspace the library will need for that model
 * once; nothing in the step allocates afterwards. A data's numbers live
 * in one block (and a large resting island's kept sparse factor beside
 * it), so lk_data_copy() is a copy of that block and a copied data
 * continues bit-identically (friction states, warm starts and kept
 * factors included). One model may drive any number of datas, from any threads. */
#ifndef LINKAGE_DATA_H
#define LINKAGE_DATA_H

#include <stddef.h>

#include "linkage/error.h"
#include "linkage/math.h"
#include "linkage/model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lk_data lk_data;

/* A data for a finalized model, at the model's initial state; NULL when the
 * model is not finalized or memory is short. */
lk_data *lk_data_new(const lk_model *m);
void lk_data_free(lk_data *d);

/* Copy the complete state of src into dst; both must belong to the same
 * model (LK_INVALID_ARGUMENT otherwise). The copy continues
 * bit-identically. It allocates only to copy the kept sparse factor of a
 * large resting island (docs/contact.md); LK_OUT_OF_MEMORY if that fails,
 * dst then unchanged but without its own kept factor. */
lk_status lk_data_copy(lk_data *dst, const lk_data *src);

/* Back to the model's initial state: time 0, q and v from the model, loads
 * and all history (contacts, friction states, warm starts) cleared. */
void lk_data_reset(lk_data *d);

const lk_model *lk_data_model(const lk_data *d);
/* Bytes of state and workspace held. */
size_t lk_data_size(const lk_data *d);

double lk_data_time(const lk_data *d);
void lk_data_set_time(lk_data *d, double t);

/* Generalized positions (nq), velocities (nv), the accelerations of the last
 * forward-dynamics evaluation (nv), and applied generalized forces (nv,
 * an input: it persists until changed). Writable views into the state. */
double *lk_data_q(lk_data *d);
double *lk_data_v(lk_data *d);
double *lk_data_qacc(lk_data *d);
double *lk_data_tau(lk_data *d);

/* External loads on links, accumulated until cleared: a force applied at a
 * world point, a pure torque; both in world coordinates. */
lk_status lk_data_apply_force(lk_data *d, int link, lk_vec3 point_world, lk_vec3 force_world);
lk_status lk_data_apply_torque(lk_data *d, int link, lk_vec3 torque_world);
/* The accumulated external wrench of a link, about the world origin, in world
 * coordinates. */
lk_force lk_data_external_wrench(const lk_data *d, int link);
/* Zero tau and every external wrench. */
void lk_data_clear_loads(lk_data *d);

/* Sensor i's value (lk_sensor_dim values into out) at the data's state:
 * positions from the last lk_forward_kinematics() (lk_step runs it),
 * touch from the last step's contacts. */
lk_status lk_data_sensor(const lk_model *m, const lk_data *d, int i, double *out);

/* Actuators (by index, see lk_model_actuator_index): the target a servo
 * tracks (or the constant effort), and the force it applied in the last
 * step (after clamping to max_effort). A servo with a schedule
 * (lk_actuator_spec) has its target set from it at the start of every
 * step, over whatever was set here. tau (lk_data_tau) adds to an
 * actuator's force; docs/control.md. */
lk_status lk_data_actuator_set_target(lk_data *d, int actuator, double target);
double lk_data_actuator_target(const lk_data *d, int actuator);
double lk_data_actuator_force(const lk_data *d, int actuator);
/* Switch an actuator off (enabled 0: from the next step it applies no force
 * at all, its max_effort clamp included, so tau alone drives its joint) or
 * on again (1, tracking its target as before). lk_data_reset switches every
 * actuator on. LK_INVALID_ARGUMENT for a bad index. */
lk_status lk_data_actuator_set_enabled(lk_data *d, int actuator, int enabled);
/* 1 when the actuator is on, 0 when off or the index is bad. */
int lk_data_actuator_enabled(const lk_data *d, int actuator);
/* The same as arrays of lk_model_nactuator() entries in the data's memory,
 * for bindings that view it without copying (the Python package,
 * docs/python.md). A target written through the pointer is not checked
 * and the energy watch (linkage/sim.h) does not learn of it: check it is
 * finite and call lk_data_actuator_targets_changed() before the next step,
 * as lk_data_actuator_set_target does. NULL for a NULL data. */
double *lk_data_actuator_targets(lk_data *d);
const double *lk_data_actuator_forces(const lk_data *d);
void lk_data_actuator_targets_changed(lk_data *d);

/* Results of lk_forward_kinematics() (linkage/dynamics.h), which lk_step()
 * also leaves at its end: after a step they describe the new q and v. After
 * writing q or v yourself, call lk_forward_kinematics() before reading them
 * (the next lk_step() sees the written state either way). */
/* World pose of a link frame. */
const lk_transform *lk_data_link_pose(const lk_data *d, int link);
/* Spatial velocity of a link in world coordinates: angular velocity and the
 * velocity of the link origin. */
lk_motion lk_data_link_velocity(const lk_data *d, int link);
/* World position and velocity of a point fixed on a link (link coords). */
lk_vec3 lk_data_point_position(const lk_data *d, int link, lk_vec3 point_local);
lk_vec3 lk_data_point_velocity(const lk_data *d, int link, lk_vec3 point_local);

#ifdef __cplusplus
}
#endif

#endif
