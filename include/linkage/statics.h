/* Quasi-static analysis: equilibrium under load increments with frictional
 * supports, no inertia.
 *
 * lk_static_solve() applies the loads in increments (load factors), each
 * increment solved as a sequence of LCPs on the displacement increment du
 * (nv, the velocity coordinates): the joint stiffness K (diag of the joint
 * springs, lk_joint_spec.stiffness, plus options.regularization) stands
 * where the step has M/h^2, and the constraint rows of the step stand as
 * they are (reused: lib/constraint):
 *
 *   K du = r(q) + J^T f,   r = lambda (gravity + loads + tau + fext) + springs
 *   normal rows      gap after the increment = J du - depth >= 0 _|_ f_n >= 0
 *   friction rows    the increment's slip s = J (Delta + du) (Delta: what this
 *                    increment moved before this iteration) opposed by the
 *                    friction: |f_t| <= mu f_n (contacts), <= mu N (supports
 *                    with a given normal force), f_t = -mu N s/|s| if s != 0
 *
 * mu is the state's: mu_static while a support sticks, mu_dynamic while it
 * slides; after each LCP every support's state is set from its slip (a
 * slip above slip_tolerance: sliding; none: static; an isotropic point
 * support whose box friction left the disk |f| <= mu N: sliding), a sliding
 * point support's first tangent turned along its slip, and the LCP solved
 * again (from the new configuration) until no support changes state, the
 * basis stays, and the out-of-balance force max_k |r_k + (J^T f)_k| is
 * within tolerance. The state carries over to the next increment.
 *
 * Contacts come from the geometry (lk_collide) and the explicit contacts;
 * supports (lk_model_add_support) have a given N; joint dry friction is a
 * boxed row |f| <= friction. Loops, couplings, tethers and joint limits are
 * not part of the static analysis. Every DoF needs stiffness (a spring or
 * the regularization) or a constraint that holds it: K must be positive
 * definite (LK_SINGULAR otherwise).
 *
 * The data's q is the configuration (it starts from the data's q, with v
 * set to zero); the reports below describe the last increment. */
#ifndef LINKAGE_STATICS_H
#define LINKAGE_STATICS_H

#include "linkage/collision.h" /* lk_friction_state */
#include "linkage/data.h"
#include "linkage/error.h"
#include "linkage/math.h"
#include "linkage/model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int nsteps;                 /* load increments, >= 1; default 1 */
  const double *load_factors; /* nsteps load factors (total, not added);
                                 NULL: (k + 1) / nsteps */
  int gravity;                /* gravity is a load (scaled too); default 1 */
  int max_iterations;         /* LCP solves per increment; default 50 */
  double tolerance;           /* out of balance accepted, relative to
                                 1 + the largest applied generalized force;
                                 default 1e-9 */
  double slip_tolerance;      /* an increment's slip up to this (m or rad)
                                 is sticking; default 1e-12 */
  double regularization;      /* stiffness added to every DoF; default 0 */
  lk_friction_state initial_state; /* of every support and contact before
                                      the first increment; default static */
} lk_static_options;

void lk_static_options_default(lk_static_options *o);

/* One increment. */
typedef struct {
  lk_status status;       /* LK_OK, or why it failed */
  int increment;          /* 0-based */
  double load_factor;
  int converged;          /* 1: no state change, out of balance in tolerance */
  int iterations;         /* LCP solves (one per iteration) */
  int state_changes;      /* static <-> sliding switches over the iterations */
  int nsliding;           /* supports and contacts sliding at the end */
  double out_of_balance;  /* max_k |r_k + (J^T f)_k|, N or N m */
  double max_displacement;/* max_k |du_k| of the whole increment */
  int lcp_pivots;
} lk_static_report;

/* What the last increment left at support i. */
typedef struct {
  lk_friction_state state;
  double reaction;   /* joint support: friction force (N) or torque (N m) on
                        its DoF, opposing the slip */
  lk_vec3 force;     /* point support: friction force on the link (world) */
  double slip;       /* the increment's slip, signed along the DoF for a
                        joint support, |slip| for a point support */
  lk_vec3 slip_vec;  /* point support: the increment's slip (world) */
} lk_support_report;

/* Called after every increment (NULL: none); a non-zero return stops the
 * analysis (lk_static_solve then returns LK_OK). */
typedef int (*lk_static_callback)(void *ctx, const lk_model *m, const lk_data *d,
                                  const lk_static_report *r);

/* All increments. Returns the first failing increment's status (its report
 * says which), LK_NOT_CONVERGED when an increment ran out of iterations
 * (the analysis stops there). o may be NULL (defaults). */
lk_status lk_static_solve(const lk_model *m, lk_data *d, const lk_static_options *o,
                          lk_static_callback cb, void *ctx, lk_error *err);

/* One increment to the given load factor from the data's configuration. */
lk_status lk_static_increment(const lk_model *m, lk_data *d, const lk_static_options *o,
                              int index, double load_factor, lk_static_report *r,
                              lk_error *err);

/* Reset every support's and contact's state to `state` and the
 * accumulated displacement to zero (lk_static_solve does this first). */
void lk_static_reset(const lk_model *m, lk_data *d, lk_friction_state state);

const lk_static_report *lk_data_static_report(const lk_data *d);
lk_status lk_data_support_report(const lk_model *m, const lk_data *d, int i,
                                 lk_support_report *out);
/* The generalized displacement accumulated since lk_static_reset (nv). */
lk_status lk_data_static_displacement(const lk_model *m, const lk_data *d, double *du);

#ifdef __cplusplus
}
#endif

#endif
