/* Unit quaternions: conversions, exponential and logarithm maps, and
 * integration on the manifold. */
#include "linkage/math.h"

lk_quat lk_q_from_mat3(const lk_mat3 *R) {
  /* Shepperd (1978): pick the largest of w, x, y, z to divide by. */
  const double(*m)[3] = R->m;
  double tr = m[0][0] + m[1][1] + m[2][2];
  lk_quat q;
  if (tr >= m[0][0] && tr >= m[1][1] && tr >= m[2][2]) {
    double s = 2.0 * sqrt(fmax(1.0 + tr, 0.0));
    q = lk_q(0.25 * s, (m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s);
  } else if (m[0][0] >= m[1][1] && m[0][0] >= m[2][2]) {
    double s = 2.0 * sqrt(fmax(1.0 + m[0][0] - m[1][1] - m[2][2], 0.0));
    q = lk_q((m[2][1] - m[1][2]) / s, 0.25 * s, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s);
  } else if (m[1][1] >= m[2][2]) {
    double s = 2.0 * sqrt(fmax(1.0 + m[1][1] - m[0][0] - m[2][2], 0.0));
    q = lk_q((m[0][2] - m[2][0]) / s, (m[0][1] + m[1][0]) / s, 0.25 * s, (m[1][2] + m[2][1]) / s);
  } else {
    double s = 2.0 * sqrt(fmax(1.0 + m[2][2] - m[0][0] - m[1][1], 0.0));
    q = lk_q((m[1][0] - m[0][1]) / s, (m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, 0.25 * s);
  }
  if (q.w < 0) q = lk_q(-q.w, -q.x, -q.y, -q.z);
  return lk_q_normalize(q);
}

lk_quat lk_q_from_axis_angle(lk_vec3 axis, double angle) {
  lk_vec3 u = lk_v3_normalize(axis);
  double s = sin(0.5 * angle);
  return lk_q(cos(0.5 * angle), u.x * s, u.y * s, u.z * s);
}

lk_quat lk_q_from_rpy(double roll, double pitch, double yaw) {
  lk_quat qx = lk_q_from_axis_angle(lk_v3(1, 0, 0), roll);
  lk_quat qy = lk_q_from_axis_angle(lk_v3(0, 1, 0), pitch);
  lk_quat qz = lk_q_from_axis_angle(lk_v3(0, 0, 1), yaw);
  return lk_q_mul(qz, lk_q_mul(qy, qx));
}

lk_quat lk_q_exp(lk_vec3 phi) {
  double th = lk_v3_norm(phi);
  double half = 0.5 * th;
  /* sin(th/2)/th, with its Taylor series where th is tiny. */
  double k = th < 1e-6 ? 0.5 - th * th / 48.0 : sin(half) / th;
  return lk_q(cos(half), phi.x * k, phi.y * k, phi.z * k);
}

lk_vec3 lk_q_log(lk_quat q) {
  if (q.w < 0) q = lk_q(-q.w, -q.x, -q.y, -q.z); /* angle in [0, pi] */
  lk_vec3 u = lk_q_vec(q);
  double s = lk_v3_norm(u);
  /* angle = 2 atan2(s, w); phi = angle * u / s, series for small s. */
  double k = s < 1e-8 ? 2.0 / q.w * (1.0 - s * s / (3.0 * q.w * q.w)) : 2.0 * atan2(s, q.w) / s;
  return lk_v3_scale(u, k);
}

lk_quat lk_q_integrate_world(lk_quat q, lk_vec3 omega, double h) {
  return lk_q_normalize(lk_q_mul(lk_q_exp(lk_v3_scale(omega, h)), q));
}

lk_quat lk_q_integrate_body(lk_quat q, lk_vec3 omega, double h) {
  return lk_q_normalize(lk_q_mul(q, lk_q_exp(lk_v3_scale(omega, h))));
}
