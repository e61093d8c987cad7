/* Mechanisms and random states shared by the dynamics tests. */
#include "mech.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static uint64_t next(mech_rng *r) {
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double mech_uniform(mech_rng *r, double lo, double hi) {
  return lo + (hi - lo) * ((double)(next(r) >> 11) * 0x1.0p-53);
}

lk_vec3 mech_vec(mech_rng *r, double h) {
  return lk_v3(mech_uniform(r, -h, h), mech_uniform(r, -h, h), mech_uniform(r, -h, h));
}

lk_quat mech_quat(mech_rng *r) {
  /* Shoemake's uniform rotation from three uniforms. */
  double u1 = mech_uniform(r, 0, 1), u2 = mech_uniform(r, 0, 2 * LK_PI),
         u3 = mech_uniform(r, 0, 2 * LK_PI);
  double a = sqrt(1 - u1), b = sqrt(u1);
  return lk_q_normalize(lk_q(a * sin(u2), a * cos(u2), b * sin(u3), b * cos(u3)));
}

lk_model *mech_random_tree(mech_rng *r, const mech_tree_opts *o) {
  lk_model *m = lk_model_new();
  if (!m) return NULL;
  char names[64][16];
  for (int i = 0; i < o->nlinks && i < 64; i++) {
    lk_link_spec s;
    lk_link_spec_default(&s);
    snprintf(names[i], sizeof names[i], "l%d", i);
    s.name = names[i];
    /* Parent: the world for the first, then often the previous link (deep
     * chains) and otherwise any earlier link or the world (branches). */
    int parent = -1;
    if (i > 0) {
      double u = mech_uniform(r, 0, 1);
      parent = u < 0.5 ? i - 1 : (int)floor(mech_uniform(r, -1, i));
      if (parent >= i) parent = i - 1;
      if (o->forest > 0 && mech_uniform(r, 0, 1) < o->forest) parent = -1;
    }
    s.parent = parent < 0 ? NULL : names[parent];
    if (o->floating && parent < 0) {
      s.joint.type = LK_JOINT_FREE;
    } else {
      s.joint.type = (lk_joint_type)(int)mech_uniform(r, 0, 5);
      if ((int)s.joint.type > 4) s.joint.type = LK_JOINT_FREE;
    }
    lk_quat qo = mech_quat(r);
    s.origin.R = lk_q_to_mat3(qo);
    s.origin.p = mech_vec(r, 0.5);
    s.joint.axis = lk_v3_normalize(mech_vec(r, 1));
    s.mass = mech_uniform(r, 0.5, 2.0);
    s.com = mech_vec(r, 0.2);
    lk_mat3 Ib = lk_inertia_solid_box(
        s.mass,
        lk_v3(mech_uniform(r, 0.05, 0.3), mech_uniform(r, 0.05, 0.3), mech_uniform(r, 0.05, 0.3)));
    lk_mat3 Rr = lk_q_to_mat3(mech_quat(r));
    s.inertia = lk_m3_rotate_tensor(&Rr, &Ib);
    /* Exactly symmetric, as the validator requires. */
    for (int a = 0; a < 3; a++)
      for (int b = a + 1; b < 3; b++) s.inertia.m[b][a] = s.inertia.m[a][b];
    int root_free = parent < 0 && s.joint.type == LK_JOINT_FREE;
    if (o->springs && !root_free) {
      s.joint.stiffness = mech_uniform(r, 0, 5);
      s.joint.rest = mech_uniform(r, -0.5, 0.5);
    }
    if (o->damping && !root_free) s.joint.damping = mech_uniform(r, 0, 0.5);
    if (o->armature) s.joint.armature = mech_uniform(r, 0, 0.2);
    if (lk_model_add_link(m, &s, NULL) != LK_OK) {
      lk_model_free(m);
      return NULL;
    }
  }
  lk_options opt;
  lk_options_default(&opt);
  opt.gravity = o->gravity;
  if (lk_model_set_options(m, &opt, NULL) != LK_OK || lk_model_finalize(m, NULL) != LK_OK) {
    lk_model_free(m);
    return NULL;
  }
  return m;
}

void mech_random_state(mech_rng *r, const lk_model *m, lk_data *d, double vmax) {
  double *q = lk_data_q(d), *v = lk_data_v(d);
  for (int i = 1; i < lk_model_nlink(m); i++) {
    double *qi = q + lk_model_joint_qadr(m, i);
    lk_quat u = mech_quat(r);
    switch (lk_model_joint_type(m, i)) {
      case LK_JOINT_REVOLUTE:
        qi[0] = mech_uniform(r, -LK_PI, LK_PI);
        break;
      case LK_JOINT_PRISMATIC:
        qi[0] = mech_uniform(r, -0.5, 0.5);
        break;
      case LK_JOINT_BALL:
        qi[0] = u.w, qi[1] = u.x, qi[2] = u.y, qi[3] = u.z;
        break;
      case LK_JOINT_FREE:
        lk_v3_to(mech_vec(r, 1.0), qi);
        qi[3] = u.w, qi[4] = u.x, qi[5] = u.y, qi[6] = u.z;
        break;
      default:
        break;
    }
  }
  for (int k = 0; k < lk_model_nv(m); k++) v[k] = mech_uniform(r, -vmax, vmax);
}

void mech_random_loads(mech_rng *r, const lk_model *m, lk_data *d) {
  double *tau = lk_data_tau(d);
  for (int k = 0; k < lk_model_nv(m); k++) tau[k] = mech_uniform(r, -3, 3);
  for (int i = 1; i < lk_model_nlink(m); i++) {
    lk_data_apply_force(d, i, mech_vec(r, 1.0), mech_vec(r, 5.0));
    lk_data_apply_torque(d, i, mech_vec(r, 2.0));
  }
}

double mech_maxdiff(const double *a, const double *b, int n) {
  double e = 0;
  for (int i = 0; i < n; i++) e = fmax(e, fabs(a[i] - b[i]));
  return e;
}

double mech_maxabs(const double *a, int n) {
  double e = 0;
  for (int i = 0; i < n; i++) e = fmax(e, fabs(a[i]));
  return e;
}
