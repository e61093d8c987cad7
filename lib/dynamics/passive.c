/* Passive joint forces: springs towards the rest position and viscous
 * damping, per DoF.
 *
 * A ball joint's spring acts on the rotation vector phi = log(quat) of the
 * joint rotation: tau = -k phi, from the energy 1/2 k |phi|^2. With the
 * joint-frame angular velocity omega as the velocity, d/dt (1/2 |phi|^2) =
 * phi . omega (the SO(3) Jacobians leave phi fixed), so -k phi is exactly
 * the conservative force of that energy. A free joint has the same
 * rotational spring plus a translational one towards the joint frame's
 * origin, tau_lin = -k p. */
#include <string.h>

#include "core/internal.h"
#include "dynamics/dynamics_impl.h"

static lk_vec3 rotation_vector(const double *q) {
  return lk_q_log(lk_q_normalize(lk_q(q[0], q[1], q[2], q[3])));
}

void lk_dyn_passive(const lk_model *m, const double *qall, const double *vall, int springs,
                    int damping, double *out) {
  for (int i = 1; i < m->nlink; i++) {
    const int k0 = m->vadr[i], n = m->jnv[i];
    if (n == 0) continue;
    const double *q = qall + m->qadr[i];
    const double k = springs ? m->dof_stiffness[k0] : 0.0;
    switch (m->jtype[i]) {
      case LK_JOINT_REVOLUTE:
      case LK_JOINT_PRISMATIC:
        out[k0] = k != 0 ? -k * (q[0] - m->link[i].joint.rest) : 0.0;
        break;
      case LK_JOINT_BALL: {
        lk_vec3 phi = k != 0 ? rotation_vector(q) : lk_v3_zero();
        lk_v3_to(lk_v3_scale(phi, -k), out + k0);
        break;
      }
      case LK_JOINT_FREE: {
        lk_vec3 phi = k != 0 ? rotation_vector(q + 3) : lk_v3_zero();
        lk_v3_to(lk_v3_scale(lk_v3_from(q), -k), out + k0);
        lk_v3_to(lk_v3_scale(phi, -k), out + k0 + 3);
        break;
      }
      default:
        break;
    }
    if (damping)
      for (int c = 0; c < n; c++) out[k0 + c] -= m->dof_damping[k0 + c] * vall[k0 + c];
  }
}

double lk_dyn_spring_energy(const lk_model *m, const double *qall) {
  double e = 0;
  for (int i = 1; i < m->nlink; i++) {
    if (m->jnv[i] == 0) continue;
    const double k = m->dof_stiffness[m->vadr[i]];
    if (k == 0) continue;
    const double *q = qall + m->qadr[i];
    switch (m->jtype[i]) {
      case LK_JOINT_REVOLUTE:
      case LK_JOINT_PRISMATIC: {
        double dq = q[0] - m->link[i].joint.rest;
        e += 0.5 * k * dq * dq;
        break;
      }
      case LK_JOINT_BALL:
        e += 0.5 * k * lk_v3_norm2(rotation_vector(q));
        break;
      case LK_JOINT_FREE:
        e += 0.5 * k * (lk_v3_norm2(lk_v3_from(q)) + lk_v3_norm2(rotation_vector(q + 3)));
        break;
      default:
        break;
    }
  }
  return e;
}

lk_status lk_passive_forces(const lk_model *m, lk_data *d, double *tau) {
  if (!lk_data_matches(m, d) || !tau) return LK_INVALID_ARGUMENT;
  if (!lk_all_finite(d->q, (size_t)m->nq) || !lk_all_finite(d->v, (size_t)m->nv))
    return LK_NON_FINITE;
  double *t = d->dyn.tmp;
  lk_dyn_passive(m, d->q, d->v, 1, 1, t);
  if (!lk_all_finite(t, (size_t)m->nv)) return LK_NON_FINITE;
  memcpy(tau, t, sizeof(double) * (size_t)m->nv);
  return LK_OK;
}
