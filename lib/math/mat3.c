/* 3x3 matrix operations that are too large to inline. */
#include <float.h>

#include "linkage/math.h"

int lk_m3_inverse(const lk_mat3 *A, lk_mat3 *out) {
  const double(*m)[3] = A->m;
  lk_mat3 c; /* cofactors, transposed (the adjugate) */
  c.m[0][0] = m[1][1] * m[2][2] - m[1][2] * m[2][1];
  c.m[0][1] = m[0][2] * m[2][1] - m[0][1] * m[2][2];
  c.m[0][2] = m[0][1] * m[1][2] - m[0][2] * m[1][1];
  c.m[1][0] = m[1][2] * m[2][0] - m[1][0] * m[2][2];
  c.m[1][1] = m[0][0] * m[2][2] - m[0][2] * m[2][0];
  c.m[1][2] = m[0][2] * m[1][0] - m[0][0] * m[1][2];
  c.m[2][0] = m[1][0] * m[2][1] - m[1][1] * m[2][0];
  c.m[2][1] = m[0][1] * m[2][0] - m[0][0] * m[2][1];
  c.m[2][2] = m[0][0] * m[1][1] - m[0][1] * m[1][0];
  double det = m[0][0] * c.m[0][0] + m[0][1] * c.m[1][0] + m[0][2] * c.m[2][0];
  double scale = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) scale = fmax(scale, fabs(m[i][j]));
  if (!(fabs(det) > 1e3 * DBL_EPSILON * scale * scale * scale) || !isfinite(det)) return 0;
  *out = lk_m3_scale(&c, 1.0 / det);
  return 1;
}

/* Cyclic Jacobi: converges quadratically; a 3x3 needs a handful of sweeps. */
void lk_m3_sym_eigen(const lk_mat3 *A, lk_vec3 *evals, lk_mat3 *Vout) {
  double a[3][3], v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) a[i][j] = 0.5 * (A->m[i][j] + A->m[j][i]);
  for (int sweep = 0; sweep < 50; sweep++) {
    double off = fabs(a[0][1]) + fabs(a[0][2]) + fabs(a[1][2]);
    double diag = fabs(a[0][0]) + fabs(a[1][1]) + fabs(a[2][2]);
    if (off <= 1e-300 || off <= DBL_EPSILON * 1e-3 * diag) break;
    for (int p = 0; p < 2; p++) {
      for (int q = p + 1; q < 3; q++) {
        if (a[p][q] == 0.0) continue;
        double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
        double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
        double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
        for (int k = 0; k < 3; k++) { /* A <- A J */
          double akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (int k = 0; k < 3; k++) { /* A <- J^T A */
          double apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (int k = 0; k < 3; k++) { /* V <- V J */
          double vkp = v[k][p], vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
  double e[3] = {a[0][0], a[1][1], a[2][2]};
  int idx[3] = {0, 1, 2};
  for (int i = 0; i < 2; i++) /* sort ascending */
    for (int j = 0; j < 2 - i; j++)
      if (e[idx[j]] > e[idx[j + 1]]) {
        int t = idx[j];
        idx[j] = idx[j + 1];
        idx[j + 1] = t;
      }
  lk_mat3 V;
  for (int j = 0; j < 3; j++)
    for (int i = 0; i < 3; i++) V.m[i][j] = v[i][idx[j]];
  if (lk_m3_det(&V) < 0)
    for (int i = 0; i < 3; i++) V.m[i][2] = -V.m[i][2];
  if (evals) *evals = lk_v3(e[idx[0]], e[idx[1]], e[idx[2]]);
  if (Vout) *Vout = V;
}

lk_mat3 lk_m3_orthonormalize(const lk_mat3 *A) {
  /* Via the quaternion of the matrix: robust and always a proper rotation. */
  lk_quat q = lk_q_from_mat3(A);
  return lk_q_to_mat3(lk_q_normalize(q));
}

lk_mat3 lk_m3_from_axis_angle(lk_vec3 axis, double angle) {
  lk_vec3 u = lk_v3_normalize(axis);
  double c = cos(angle), s = sin(angle), t = 1.0 - c;
  lk_mat3 r = {{{t * u.x * u.x + c, t * u.x * u.y - s * u.z, t * u.x * u.z + s * u.y},
                {t * u.x * u.y + s * u.z, t * u.y * u.y + c, t * u.y * u.z - s * u.x},
                {t * u.x * u.z - s * u.y, t * u.y * u.z + s * u.x, t * u.z * u.z + c}}};
  return r;
}

lk_mat3 lk_m3_from_rpy(double roll, double pitch, double yaw) {
  double cr = cos(roll), sr = sin(roll), cp = cos(pitch), sp = sin(pitch);
  double cy = cos(yaw), sy = sin(yaw);
  lk_mat3 r = {{{cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr},
                {sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr},
                {-sp, cp * sr, cp * cr}}};
  return r;
}

void lk_m3_to_rpy(const lk_mat3 *R, double *roll, double *pitch, double *yaw) {
  double sp = -R->m[2][0];
  if (sp > 1) sp = 1;
  if (sp < -1) sp = -1;
  double p = asin(sp), r, y;
  if (fabs(sp) < 1.0 - 1e-12) {
    r = atan2(R->m[2][1], R->m[2][2]);
    y = atan2(R->m[1][0], R->m[0][0]);
  } else { /* gimbal lock: put everything in yaw */
    r = 0;
    y = atan2(-R->m[0][1], R->m[1][1]);
  }
  if (roll) *roll = r;
  if (pitch) *pitch = p;
  if (yaw) *yaw = y;
}
