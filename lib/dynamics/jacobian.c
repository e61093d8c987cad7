/* Jacobians of a point fixed on a link, and Jdot v for it.
 *
 * Column k of the Jacobian is the motion subspace column S_k of a DoF on
 * the path from the link to the root, expressed in world coordinates:
 * (w_k, v_k) with v_k the velocity of the point at the world origin, so the
 * point x moves at v_k + w_k x x. Only the ancestors' columns are non-zero. */
#include <string.h>

#include "core/internal.h"
#include "dynamics/dynamics_impl.h"

static lk_status prepare(const lk_model *m, lk_data *d, int link) {
  if (!lk_data_matches(m, d) || link < 0 || link >= m->nlink) return LK_INVALID_ARGUMENT;
  if (!d->s->kinematics_valid) return lk_forward_kinematics(m, d);
  return LK_OK;
}

/* Write the columns into rows-major 3 x nv blocks (either may be NULL),
 * with row stride ld between rows of one block. */
static void point_columns(const lk_model *m, const lk_data *d, int link, lk_vec3 x, double *jlin,
                          double *jang, size_t ld) {
  for (int a = link; a > 0; a = m->parent[a]) {
    const lk_transform *X = &d->xw[a];
    for (int k = m->vadr[a], e = k + m->jnv[a]; k < e; k++) {
      lk_motion s = lk_tf_motion(X, d->S[k]);
      if (jang) {
        jang[k] = s.ang.x;
        jang[ld + k] = s.ang.y;
        jang[2 * ld + k] = s.ang.z;
      }
      if (jlin) {
        lk_vec3 vp = lk_v3_add(s.lin, lk_v3_cross(s.ang, x));
        jlin[k] = vp.x;
        jlin[ld + k] = vp.y;
        jlin[2 * ld + k] = vp.z;
      }
    }
  }
}

lk_status lk_jacobian_point(const lk_model *m, lk_data *d, int link, lk_vec3 point_local,
                            double *jlin, double *jang) {
  lk_status st = prepare(m, d, link);
  if (st) return st;
  if (!lk_v3_isfinite(point_local)) return LK_NON_FINITE;
  size_t n = 3 * (size_t)m->nv;
  if (jlin) memset(jlin, 0, n * sizeof(double));
  if (jang) memset(jang, 0, n * sizeof(double));
  lk_vec3 x = lk_tf_point(&d->xw[link], point_local);
  point_columns(m, d, link, x, jlin, jang, (size_t)m->nv);
  return LK_OK;
}

lk_status lk_jacobian_frame(const lk_model *m, lk_data *d, int link, lk_vec3 point_local,
                            double *j6) {
  if (!j6) return LK_INVALID_ARGUMENT;
  lk_status st = prepare(m, d, link);
  if (st) return st;
  if (!lk_v3_isfinite(point_local)) return LK_NON_FINITE;
  size_t nv = (size_t)m->nv;
  memset(j6, 0, 6 * nv * sizeof(double));
  lk_vec3 x = lk_tf_point(&d->xw[link], point_local);
  point_columns(m, d, link, x, j6 + 3 * nv, j6, nv);
  return LK_OK;
}

lk_status lk_jacobian_point_dot_v(const lk_model *m, lk_data *d, int link, lk_vec3 point_local,
                                  lk_vec3 *lin, lk_vec3 *ang) {
  lk_status st = prepare(m, d, link);
  if (st) return st;
  if (!lk_v3_isfinite(point_local)) return LK_NON_FINITE;
  /* The link's spatial acceleration at qacc = 0 (no gravity) is the sum of
   * the velocity-product terms c_j of the link and its ancestors, each
   * carried to the link; in world coordinates each c_j is simply
   * transformed from its own link frame. */
  lk_motion acc = lk_mo_zero();
  for (int a = link; a > 0; a = m->parent[a])
    acc = lk_mo_add(acc, lk_tf_motion(&d->xw[a], d->cl[a]));
  lk_motion vel = lk_tf_motion(&d->xw[link], d->vl[link]);
  lk_vec3 x = lk_tf_point(&d->xw[link], point_local);
  /* Spatial (field) quantities at the world origin to the classical
   * acceleration of the body point x: a_o + wdot x x + w x (v_o + w x x). */
  lk_vec3 vx = lk_v3_add(vel.lin, lk_v3_cross(vel.ang, x));
  lk_vec3 ax = lk_v3_add(lk_v3_add(acc.lin, lk_v3_cross(acc.ang, x)), lk_v3_cross(vel.ang, vx));
  if (!lk_v3_isfinite(ax) || !lk_v3_isfinite(acc.ang)) return LK_NON_FINITE;
  if (lin) *lin = ax;
  if (ang) *ang = acc.ang;
  return LK_OK;
}
