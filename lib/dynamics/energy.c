/* Energies, momentum and centre of mass of the whole mechanism. */
#include "core/internal.h"
#include "dynamics/dynamics_impl.h"

lk_status lk_energy_kinetic(const lk_model *m, lk_data *d, double *energy) {
  if (!energy) return LK_INVALID_ARGUMENT;
  lk_status st = lk_forward_kinematics(m, d);
  if (st) return st;
  double e = 0;
  for (int i = 1; i < m->nlink; i++) e += lk_inertia_energy(&m->inertia[i], d->vl[i]);
  for (int k = 0; k < m->nv; k++) e += 0.5 * m->dof_armature[k] * d->v[k] * d->v[k];
  if (!isfinite(e)) return LK_NON_FINITE;
  *energy = e;
  return LK_OK;
}

lk_status lk_energy_potential(const lk_model *m, lk_data *d, double *energy) {
  if (!energy) return LK_INVALID_ARGUMENT;
  lk_status st = lk_forward_kinematics(m, d);
  if (st) return st;
  /* -m g . c for each link (c its world centre of mass), plus springs. */
  double e = 0;
  for (int i = 1; i < m->nlink; i++) {
    lk_vec3 c = lk_tf_point(&d->xw[i], m->link[i].com);
    e -= m->link[i].mass * lk_v3_dot(m->opt.gravity, c);
  }
  e += lk_dyn_spring_energy(m, d->q);
  if (!isfinite(e)) return LK_NON_FINITE;
  *energy = e;
  return LK_OK;
}

lk_status lk_momentum(const lk_model *m, lk_data *d, lk_vec3 *linear, lk_vec3 *angular) {
  lk_status st = lk_forward_kinematics(m, d);
  if (st) return st;
  /* Sum of the links' spatial momenta I v, carried to the world origin. */
  lk_force h = lk_fo_zero();
  for (int i = 1; i < m->nlink; i++)
    h = lk_fo_add(h, lk_tf_force(&d->xw[i], lk_inertia_mul(&m->inertia[i], d->vl[i])));
  if (!lk_v3_isfinite(h.lin) || !lk_v3_isfinite(h.ang)) return LK_NON_FINITE;
  if (linear) *linear = h.lin;
  if (angular) *angular = h.ang;
  return LK_OK;
}

lk_status lk_center_of_mass(const lk_model *m, lk_data *d, lk_vec3 *com) {
  if (!com) return LK_INVALID_ARGUMENT;
  lk_status st = lk_forward_kinematics(m, d);
  if (st) return st;
  lk_vec3 s = lk_v3_zero();
  double mass = 0;
  for (int i = 1; i < m->nlink; i++) {
    s = lk_v3_madd(s, lk_tf_point(&d->xw[i], m->link[i].com), m->link[i].mass);
    mass += m->link[i].mass;
  }
  *com = mass > 0 ? lk_v3_scale(s, 1.0 / mass) : lk_v3_zero();
  return LK_OK;
}
