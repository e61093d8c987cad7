/* The simulation layer's part of lk_data: actuator state, and (with the
 * contact work) constraints, contacts, the LCP workspace, friction states
 * and reports (see data/data_impl.h). */
#ifndef LK_SIM_DATA_H
#define LK_SIM_DATA_H

#include "data/arena.h"
#include "linkage/math.h"
#include "linkage/model.h"

typedef struct {
  double *act_target; /* per actuator: current target (settable) */
  double *act_force;  /* per actuator: generalized force of the last step */
} lk_sim_data;

void lk_sim_data_layout(const lk_model *m, lk_sim_data *sd, lk_arena *a);
void lk_sim_data_reset(const lk_model *m, lk_sim_data *sd);

struct lk_data;
/* Add the actuators' generalized forces at time t (from the current q, v)
 * to tau (nv), and the loads active at t to fext (per link, world frame
 * about the world origin). Needs forward kinematics for link-frame loads. */
void lk_sim_applied_forces(const lk_model *m, struct lk_data *d, double t, double *tau,
                           lk_force *fext);

#endif
