/* Constraints and what they report after a step.
 *
 * Every constraint contributes rows of the constraint Jacobian J (w.r.t. the
 * generalized velocity v), a right-hand side and a row kind; the step solves
 * one LCP per island of coupled rows (linkage/sim.h). These are the kinds
 * of constraint:
 *
 *   contact    frictionContact: a normal row (0 <= f_n, v_n >= 0) and Coulomb
 *              friction with separate static and dynamic coefficients and a
 *              static/dynamic state carried across steps; from the geometry
 *              (collision) or given explicitly (lk_model_add_contact).
 *              rollingContact adds a torsional row |tau| <= mu_t r_p f_n and
 *              two rolling rows ||tau|| <= mu_r r_p f_n on a patch of radius
 *              r_p.
 *   limit      a joint at a position limit (a unilateral row)
 *   friction   a joint's dry friction (a boxed row, |tau| <= friction)
 *   loop       a loop closure between two links (3, 5 or 6 bilateral rows)
 *   coupling   two joints in a fixed ratio (1 bilateral row)
 *   tether     a maximum distance (1 unilateral row)
 *   support    friction of a support with a given normal force (boxed rows)
 *
 * All forces are reported in newtons and newton-metres (impulse / h), in
 * world coordinates. */
#ifndef LINKAGE_CONSTRAINT_H
#define LINKAGE_CONSTRAINT_H

#include "linkage/collision.h" /* lk_friction_state */
#include "linkage/data.h"
#include "linkage/error.h"
#include "linkage/math.h"
#include "linkage/model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  LK_CONSTRAINT_CONTACT = 0,
  LK_CONSTRAINT_LIMIT,
  LK_CONSTRAINT_FRICTION,
  LK_CONSTRAINT_LOOP,
  LK_CONSTRAINT_COUPLING,
  LK_CONSTRAINT_TETHER,
  LK_CONSTRAINT_SUPPORT, /* a support with a given normal force (lk_model_add_support) */
  LK_CONSTRAINT_PRESCRIBED, /* a prescribed-motion actuator's joint row */
  LK_CONSTRAINT_KIND_COUNT
} lk_constraint_kind;

const char *lk_constraint_kind_name(lk_constraint_kind k);

/* One contact after a step. `link` is the body that touches (the first geom
 * of a geometry pair, or an explicit contact's link), `other` the surface
 * (link index, 0 for the world); the normal points from other to link, so
 * f_n > 0 pushes link away from other. */
typedef struct {
  int link, other;
  int geom, other_geom;   /* geometry contact: geom indices; else -1 */
  int explicit_index;     /* explicit contact: its index in the model; else -1 */
  unsigned long long id;  /* persistent while the contact persists */
  int age;                /* steps it has persisted */
  lk_contact_type type;
  lk_vec3 position;       /* on link's surface */
  lk_vec3 normal;         /* unit, from other to link */
  double depth;           /* penetration (> 0) or gap (< 0), m */
  double mu_static, mu_dynamic; /* mixed coefficients in use */
  lk_friction_state state;
  double fn;              /* normal force, N (>= 0) */
  lk_vec3 ft;             /* tangential (friction) force on link, N */
  lk_vec3 slip;           /* tangential velocity of link relative to other at
                             the contact after the step, m/s */
  double slip_speed;      /* |slip| */
  double utilization;     /* |ft| / (mu_static fn); 0 when fn == 0 */
  double torsion;         /* twist moment about the normal on link, N m */
  lk_vec3 rolling_moment; /* rolling-resistance moment on link, N m */
} lk_contact_report;

/* Contacts of the last step, in a canonical order (geometry contacts by
 * geom pair and feature, then explicit contacts by index). */
int lk_data_ncontacts(const lk_data *d);
const lk_contact_report *lk_data_contact_report(const lk_data *d, int i);

/* A force a constraint applied to one link in the last step: the force and
 * the moment about the link's origin, world coordinates (Darwin2K's
 * linkForceRecord, for stress analysis of links). */
typedef struct {
  lk_constraint_kind kind;
  int index;  /* contact report index, or the model element's index */
  int link;
  lk_vec3 force;
  lk_vec3 moment;
} lk_link_force;

int lk_data_nlink_forces(const lk_data *d);
const lk_link_force *lk_data_link_force(const lk_data *d, int i);

/* The generalized force J^T f (nv) that constraint (kind, index) applied in
 * the last step, N or N m per DoF. LK_NOT_FOUND when it had no rows. */
lk_status lk_data_constraint_generalized_force(const lk_model *m, const lk_data *d,
                                               lk_constraint_kind kind, int index, double *out);

/* Per-link tactile summary of the last step: what a fingertip sensor would
 * report. The slip score is s = max(slip speed / slip_speed_threshold,
 * utilization / utilization_threshold), low-pass filtered with time
 * constant slip_filter_tau; the slip flag turns on when the filtered score
 * rises above slip_on and off when it falls below slip_off (options). */
typedef struct {
  int ncontacts;
  double normal_force;    /* sum of f_n, N */
  lk_vec3 shear_force;    /* sum of tangential forces, N */
  double slip_speed;      /* largest slip speed among its contacts */
  double utilization;     /* |shear| / sum of mu_s f_n: the share of the
                             static grip in use */
  double slip_score;      /* filtered score */
  int slip;               /* hysteretic slip flag */
  lk_vec3 pressure_centroid; /* f_n-weighted mean contact position */
  double twist_moment;    /* sum of torsion moments */
  lk_vec3 rolling_moment; /* sum of rolling moments */
} lk_tactile;

lk_status lk_data_tactile(const lk_data *d, int link, lk_tactile *out);

#ifdef __cplusplus
}
#endif

#endif
