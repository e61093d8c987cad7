/* Rigid-body algorithms on the kinematic tree (Featherstone, "Rigid Body
 * Dynamics Algorithms", 2008): kinematics, Jacobians, mass matrix, bias
 * forces, forward and inverse dynamics, passive forces, energies and
 * momentum, integration on the configuration manifold.
 *
 * Each takes the const model and the data it reads from and writes into;
 * none allocates. All of them fail with LK_INVALID_ARGUMENT if d is not m's
 * (or m is not finalized) and with LK_NON_FINITE if the state (q, v) or an
 * input they use (tau, the external wrenches, qacc) is not finite, or if
 * the result would not be; nothing is written to the outputs then.
 *
 * The whole-mechanism functions (mass matrix, bias and passive forces,
 * forward and inverse dynamics, energies, momentum) run forward kinematics
 * on the current q and v themselves. The per-point Jacobian queries use the
 * kinematics of the last lk_forward_kinematics() call (or of one of the
 * functions above), so that many points cost one kinematics pass; after a
 * step or lk_data_reset() they recompute it, but after writing q or v
 * through lk_data_q()/lk_data_v() call lk_forward_kinematics() first.
 *
 * Generalized forces act per DoF with the velocity conventions of
 * linkage/model.h: torques/forces for 1-DoF joints, the joint-frame torque
 * for a ball, and (force, torque) in the joint frame for a free joint
 * (the torque about the link origin). External loads are the data's link
 * wrenches (lk_data_apply_force, in the world frame). */
#ifndef LINKAGE_DYNAMICS_H
#define LINKAGE_DYNAMICS_H

#include "linkage/data.h"
#include "linkage/error.h"
#include "linkage/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Link poses (lk_data_link_pose), link spatial velocities and the motion
 * subspaces from q and v. Fails with LK_NON_FINITE if q or v is not finite
 * (nothing is written then) and LK_INVALID_ARGUMENT if d is not m's. */
lk_status lk_forward_kinematics(const lk_model *m, lk_data *d);

/* ------------------------------------------------------------ Jacobians */

/* Jacobians of a point fixed on a link (point_local in link coordinates)
 * in world coordinates: its velocity is jlin v and the angular velocity of
 * the link is jang v. Each is 3 x nv, row-major; either may be NULL. */
lk_status lk_jacobian_point(const lk_model *m, lk_data *d, int link, lk_vec3 point_local,
                            double *jlin, double *jang);

/* Jdot v for the same point: its acceleration and the link's angular
 * acceleration when qacc = 0 (so acceleration = J qacc + Jdot v), world
 * coordinates. Either output may be NULL. */
lk_status lk_jacobian_point_dot_v(const lk_model *m, lk_data *d, int link, lk_vec3 point_local,
                                  lk_vec3 *lin, lk_vec3 *ang);

/* Both point Jacobians stacked, 6 x nv row-major: rows 0-2 angular, rows
 * 3-5 the linear velocity of the point (world coordinates). */
lk_status lk_jacobian_frame(const lk_model *m, lk_data *d, int link, lk_vec3 point_local,
                            double *j6);

/* ---------------------------------------------------------- mass matrix */

/* The joint-space mass matrix M(q) (CRBA), armature included on the
 * diagonal, kept in the data; read it with the functions below.
 *
 * M is block diagonal: M_ij is zero unless DoF i or j lies on the path
 * from the other to the world, so the DoFs split into trees (one per link
 * attached to the world by a moving joint, with everything below it; a
 * link welded to the world passes its moving children on as trees of their
 * own), each a contiguous range of DoFs, and M has one dense block per
 * tree. The data stores only these blocks: sum n_t^2 doubles for trees of
 * n_t DoFs, not nv^2 (1000 free bodies: 36000, not 36 million). */
lk_status lk_mass_matrix(const lk_model *m, lk_data *d);

/* The number of blocks (trees of DoFs) of M: 0 if nv is 0. */
int lk_mass_matrix_nblocks(const lk_model *m);

/* Block b (0 <= b < lk_mass_matrix_nblocks) of the last M computed by
 * lk_mass_matrix(): size x size, row-major, symmetric, entry (r, c) being
 * M_ij of the DoFs i = first + r, j = first + c. first and size (either
 * may be NULL) receive the block's DoF range. NULL if b is out of range,
 * d is not m's, or before the first lk_mass_matrix(). The block lives in
 * d: the next computation of M there overwrites it. */
const double *lk_mass_matrix_block(const lk_model *m, const lk_data *d, int b, int *first,
                                   int *size);

/* The last M computed by lk_mass_matrix() expanded into out: nv x nv,
 * row-major, zero between blocks. LK_INVALID_ARGUMENT if there is none, d
 * is not m's, or out is NULL (nv > 0). For small models and checks: it is
 * nv^2 doubles. */
lk_status lk_mass_matrix_dense(const lk_model *m, const lk_data *d, double *out);

typedef enum {
  LK_FACTOR_TREE = 0, /* Featherstone's LTDL on the tree sparsity pattern */
  LK_FACTOR_DENSE     /* GSL's dense Cholesky (reference) */
} lk_factor_method;

/* Factor the M of the last lk_mass_matrix() (LK_INVALID_ARGUMENT if there
 * is none; LK_SINGULAR if it is not positive definite). */
lk_status lk_mass_factor(const lk_model *m, lk_data *d, lk_factor_method how);

/* Solve M x = b in place for nrhs vectors of nv entries stored one after
 * another (vector r at x + r nv), with the last factor. For M^-1 J^T, pass
 * the rows of a row-major J: the result is (M^-1 J^T)^T. */
lk_status lk_mass_solve(const lk_model *m, const lk_data *d, double *x, int nrhs);

/* ------------------------------------------------------------- dynamics */

/* c(q, v): gravity, Coriolis and centrifugal generalized forces, so that a
 * free mechanism obeys M qacc + c = tau (nv entries). */
lk_status lk_bias_forces(const lk_model *m, lk_data *d, double *c);

/* Joint spring and damping forces at the current state (nv entries). */
lk_status lk_passive_forces(const lk_model *m, lk_data *d, double *tau);

/* Inverse dynamics: the generalized force tau (nv) to apply, besides the
 * passive forces and the external wrenches, for the accelerations qacc:
 * tau = M qacc + c - passive - J^T fext. The exact inverse of
 * lk_forward_dynamics(). */
lk_status lk_inverse_dynamics(const lk_model *m, lk_data *d, const double *qacc, double *tau);

typedef enum {
  LK_FD_ABA = 0, /* articulated-body algorithm, O(n) */
  LK_FD_CRBA     /* M by CRBA, c by RNEA, then the tree factorization */
} lk_fd_method;

/* Forward dynamics: qacc (into lk_data_qacc) from q, v, the applied tau,
 * the passive forces and the external wrenches:
 * M qacc = tau + passive + J^T fext - c. */
lk_status lk_forward_dynamics(const lk_model *m, lk_data *d, lk_fd_method how);

/* ----------------------------------------------------- energy, momentum */

/* 1/2 v^T M v: the links' kinetic energy plus the armature's. */
lk_status lk_energy_kinetic(const lk_model *m, lk_data *d, double *energy);

/* Gravitational (zero at the world origin) plus joint-spring energy. */
lk_status lk_energy_potential(const lk_model *m, lk_data *d, double *energy);

/* Linear momentum and angular momentum about the world origin of all
 * links, world coordinates (armature, a rotor model, has none). Either
 * output may be NULL. */
lk_status lk_momentum(const lk_model *m, lk_data *d, lk_vec3 *linear, lk_vec3 *angular);

/* Centre of mass of the mechanism in world coordinates. */
lk_status lk_center_of_mass(const lk_model *m, lk_data *d, lk_vec3 *com);

/* ---------------------------------------------------------- integration */

/* q <- q (+) h v on the configuration manifold for any q (nq) and v (nv)
 * arrays: 1-DoF joints and translations add h v; ball and free rotations
 * become exp(h omega) * quat (omega in the joint frame), renormalized.
 * LK_NON_FINITE (q untouched) if the inputs are not finite. */
lk_status lk_integrate(const lk_model *m, double *q, const double *v, double h);

#ifdef __cplusplus
}
#endif

#endif
