/* Integration on the configuration manifold: q (+) h v, the position rate
 * used by RK4, and quaternion renormalization. */
#include <string.h>

#include "core/internal.h"
#include "dynamics/dynamics_impl.h"

static lk_quat get_quat(const double *p) { return lk_q(p[0], p[1], p[2], p[3]); }
static void put_quat(lk_quat q, double *p) {
  p[0] = q.w;
  p[1] = q.x;
  p[2] = q.y;
  p[3] = q.z;
}

/* Joint i's part of q (+) h v into out (may alias q). */
static void integrate_joint(const lk_model *m, int i, const double *q, const double *v, double h,
                            double *out) {
  switch (m->jtype[i]) {
    case LK_JOINT_REVOLUTE:
    case LK_JOINT_PRISMATIC:
      out[0] = q[0] + h * v[0];
      break;
    case LK_JOINT_BALL:
      /* Joint-frame omega: quat' = 1/2 [0, omega] quat, whose exact solution
       * for constant omega is exp(h omega) quat. */
      put_quat(lk_q_integrate_world(get_quat(q), lk_v3_from(v), h), out);
      break;
    case LK_JOINT_FREE:
      for (int c = 0; c < 3; c++) out[c] = q[c] + h * v[c];
      put_quat(lk_q_integrate_world(get_quat(q + 3), lk_v3_from(v + 3), h), out + 3);
      break;
    default:
      break;
  }
}

void lk_dyn_integrate(const lk_model *m, double *q, const double *v, double h) {
  for (int i = 1; i < m->nlink; i++)
    integrate_joint(m, i, q + m->qadr[i], v + m->vadr[i], h, q + m->qadr[i]);
}

/* 1/2 [0, w] * q (Hamilton product). */
static void quat_rate(const double *q, const double *w, double *out) {
  lk_quat r = lk_q_mul(lk_q(0, w[0], w[1], w[2]), get_quat(q));
  put_quat(lk_q(0.5 * r.w, 0.5 * r.x, 0.5 * r.y, 0.5 * r.z), out);
}

void lk_dyn_position_rate(const lk_model *m, const double *qall, const double *vall, double *qdot) {
  for (int i = 1; i < m->nlink; i++) {
    const double *q = qall + m->qadr[i];
    const double *v = vall + m->vadr[i];
    double *o = qdot + m->qadr[i];
    switch (m->jtype[i]) {
      case LK_JOINT_REVOLUTE:
      case LK_JOINT_PRISMATIC:
        o[0] = v[0];
        break;
      case LK_JOINT_BALL:
        quat_rate(q, v, o);
        break;
      case LK_JOINT_FREE:
        o[0] = v[0];
        o[1] = v[1];
        o[2] = v[2];
        quat_rate(q + 3, v + 3, o + 3);
        break;
      default:
        break;
    }
  }
}

void lk_dyn_normalize(const lk_model *m, double *qall) {
  for (int i = 1; i < m->nlink; i++) {
    double *q = qall + m->qadr[i];
    if (m->jtype[i] == LK_JOINT_BALL)
      put_quat(lk_q_normalize(get_quat(q)), q);
    else if (m->jtype[i] == LK_JOINT_FREE)
      put_quat(lk_q_normalize(get_quat(q + 3)), q + 3);
  }
}

lk_status lk_integrate(const lk_model *m, double *q, const double *v, double h) {
  if (!lk_model_ok(m) || (!q && m->nq > 0) || (!v && m->nv > 0)) return LK_INVALID_ARGUMENT;
  if (!isfinite(h) || !lk_all_finite(q, (size_t)m->nq) || !lk_all_finite(v, (size_t)m->nv))
    return LK_NON_FINITE;
  /* Check every joint's result before writing any, so that an overflow
   * leaves q untouched (this public helper has no workspace). */
  for (int i = 1; i < m->nlink; i++) {
    double t[7];
    integrate_joint(m, i, q + m->qadr[i], v + m->vadr[i], h, t);
    if (!lk_all_finite(t, (size_t)m->jnq[i])) return LK_NON_FINITE;
  }
  lk_dyn_integrate(m, q, v, h);
  return LK_OK;
}
