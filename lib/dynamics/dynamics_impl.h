/* Internal entry points of the dynamics layer, for the layers above it
 * (lib/sim, lib/constraint) and for the public wrappers in this folder.
 *
 * Unlike the public functions they check nothing: m and d must match, the
 * arrays must have the documented sizes, and every function below except
 * lk_dyn_kinematics() assumes lk_dyn_kinematics() has run on the state
 * the caller means (d->xup, xw, vl, cl and S are read). None allocates.
 *
 * Conventions shared by all of them:
 * - tau arrays have nv entries (generalized forces, per DoF);
 * - fext arrays have nlink entries: the external wrench on each link in
 *   world coordinates about the world origin, as lk_data_apply_force()
 *   accumulates them (entry 0, the world, is ignored); NULL means none;
 * - diag arrays (NULL for none) have nv entries added to the diagonal of
 *   the mass matrix on top of the armature. The step passes h * damping
 *   there to treat joint damping implicitly: (M + h B) v+ = M v + h f. */
#ifndef LK_DYNAMICS_IMPL_H
#define LK_DYNAMICS_IMPL_H

#include "data/data_impl.h"
#include "linkage/dynamics.h"

/* Forward kinematics at the configuration q (nq) and velocity v (nv), which
 * need not be d->q and d->v (the RK4 stages evaluate other states).
 * Returns LK_INVALID_ARGUMENT only for a corrupt joint type. */
lk_status lk_dyn_kinematics(const lk_model *m, lk_data *d, const double *q, const double *v);
/* World poses at the configuration q of the n links in link[] (and of
 * their ancestors, which they need), into xw (nlink), as lk_dyn_kinematics
 * would compute them, without velocities and leaving the data's
 * kinematics alone. done (nlink) marks the links already computed: zero
 * it before a new q. The anchored contacts' offsets after the position
 * update (lib/sim/anchor.c) need the poses of a few links only. */
void lk_dyn_poses(const lk_model *m, const double *q, const int *link, int n, lk_transform *xw,
                  unsigned char *done);
/* The kinematics at d->q, d->v: computed unless they already are (the end
 * of the last step left them so, and q and v are bit for bit the same). */
lk_status lk_dyn_kinematics_current(const lk_model *m, lk_data *d);

/* CRBA (Featherstone 2008, table 6.2): M(q) + diag(armature + diag) into
 * d->dyn.M, one block per tree of DoFs (dyn_data.h). Marks the factor
 * stale. */
void lk_dyn_crba(const lk_model *m, lk_data *d, const double *diag);

/* Factor d->dyn.M into d->dyn.L, block by block. LK_FACTOR_TREE is
 * Featherstone's LTDL (table 6.3), which follows the tree's sparsity and so
 * costs sum of DoF depths^2 instead of nv^3/6 on branched trees;
 * LK_FACTOR_DENSE is GSL's Cholesky of each block, kept as the reference.
 * LK_SINGULAR if M is not positive definite. */
lk_status lk_dyn_factor(const lk_model *m, lk_data *d, lk_factor_method how);

/* Solve M x = b in place for nrhs right-hand sides stored one after the
 * other (vector r at x + r * nv), with the factor of the last
 * lk_dyn_factor(). For the contact layer: the rows of J are right-hand
 * sides, and solving them gives (M^-1 J^T)^T. */
void lk_dyn_solve(const lk_model *m, const lk_data *d, double *x, int nrhs);

/* Solve M x = b in place for one right-hand side that is zero outside the
 * DoFs [v0, v1), with the factor (tree or dense) of the last
 * lk_dyn_factor(). M^-1 maps such a b to a vector that is zero there too,
 * so only x[v0] .. x[v1 - 1] are read and written (x itself is indexed by
 * DoF, nv long). [v0, v1) must be whole trees: one tree's range
 * [tree_vadr[t], tree_vadr[t + 1]) (model_impl.h; the tree of link i is
 * link_tree[i]), or several consecutive ones; v0 == v1 does nothing. Costs
 * only those trees' blocks. For the contact layer: a constraint row on
 * links of one tree is a right-hand side on that tree's range. */
void lk_dyn_solve_range(const lk_model *m, const lk_data *d, double *x, int v0, int v1);
/* The same on nr right-hand sides at once, stored by DoF: X[(i - v0) nr +
 * r] for DoF i of [v0, v1) (whole trees), every column zero past DoF last
 * (v1 - 1: no such bound); each column as lk_dyn_solve_range would give
 * it, for less than nr of its calls. acc: 4 nr doubles of scratch. */
void lk_dyn_solve_block(const lk_model *m, const lk_data *d, double *X, int nr, int v0, int v1,
                        int last, double *acc);
/* out (len x len, row-major, symmetric) <- M^-1 on the DoFs [v0, v0 + len),
 * which must be whole trees, len <= LK_DYN_INVERSE_MAX, from the current
 * factor: explicitly from the tree factor, else by len solves. */
#define LK_DYN_INVERSE_MAX 16
void lk_dyn_inverse_range(const lk_model *m, const lk_data *d, int v0, int len, double *out);

/* RNEA (Featherstone 2008, table 5.1): tau = M qacc + c(q, v) - J^T fext
 * (M with its armature),
 * with gravity in c when gravity != 0 and qacc == NULL meaning zero. With
 * qacc == NULL and fext == NULL this is the bias force c(q, v). Uses the
 * link accelerations and forces of d->dyn as workspace. */
void lk_dyn_rnea(const lk_model *m, lk_data *d, const double *qacc, const lk_force *fext,
                 int gravity, double *tau);

/* The bias forces c(q, v) - the velocity products (Coriolis, centripetal,
 * gyroscopic), gravity and, when fext is not NULL, the external link
 * wrenches (world frame, subtracted as lk_dyn_rnea does) - at the
 * positions of the current kinematics and another velocity v (nv): the
 * link velocities are formed from v (d->dyn.vlm), so that the kinematics
 * at the data's state are left alone. The step evaluates c at a midpoint
 * velocity with it (step.c). With h > 0 each link's own rotation term
 * (w x I w about its joint, or its centre for a free joint) is scaled by
 * tan(a/2) / (a/2), a = h |w| its turn in a step of h (rnea.c says why);
 * h = 0 gives the plain forces, lk_dyn_rnea's at v on the DoFs written. Links
 * without velocity products (model_impl.h: dof_products; each a tree of
 * its own) are left out: their tau entries are not written (the passes
 * keep their explicit accelerations). */
void lk_dyn_bias_at(const lk_model *m, lk_data *d, const double *v, double h,
                    const lk_force *fext, double *tau);

/* ABA (Featherstone 2008, table 7.1): qacc = (M + diag)^-1 (tau + J^T fext
 * - c(q, v)), gravity included, in O(nlink). tau must not be NULL. */
void lk_dyn_aba(const lk_model *m, lk_data *d, const double *tau, const lk_force *fext,
                const double *diag, double *qacc);

/* Joint springs (to the rest position; ball and free joints on the
 * rotation vector of the joint quaternion, free joints also on the
 * translation) and/or viscous damping at (q, v), written to out (nv). Reads
 * only the model, q and v (no kinematics needed). */
void lk_dyn_passive(const lk_model *m, const double *q, const double *v, int springs, int damping,
                    double *out);

/* q <- q (+) h v on the configuration manifold: 1-DoF joints add, ball and
 * free rotations are multiplied on the left by exp(h omega) (omega in the
 * joint frame) and renormalized. */
void lk_dyn_integrate(const lk_model *m, double *q, const double *v, double h);

/* The time derivative of q for velocity v: v for 1-DoF joints and
 * translations, 1/2 [0, omega] * quat for rotations (nq entries). */
void lk_dyn_position_rate(const lk_model *m, const double *q, const double *v, double *qdot);

/* Renormalize every joint quaternion in q. */
void lk_dyn_normalize(const lk_model *m, double *q);

/* Spring potential energy at q. */
double lk_dyn_spring_energy(const lk_model *m, const double *q);

/* Is every external wrench finite? */
int lk_dyn_fext_finite(const lk_model *m, const lk_force *fext);

#endif
