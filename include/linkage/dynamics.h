/* Rigid-body algorithms on the kinematic tree (Featherstone, "Rigid Body
 * Dynamics Algorithms", 2008): kinematics, Jacobians, mass matrix, bias
 * forces, forward dynamics, energies, and the contact-free time step.
 *
 * Each takes the const model and the data it reads from and writes into;
 * none allocates. */
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

#ifdef __cplusplus
}
#endif

#endif
