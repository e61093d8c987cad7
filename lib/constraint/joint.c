/* Joint constraints: position limits (unilateral rows) and dry friction
 * (boxed rows with the joint's friction bound). */
#include <math.h>

#include "constraint/constraint_impl.h"

/* Include a limit row when the joint is within reach of its limit in this
 * step; the speculative bias keeps it from braking early. */
static int near(double phi, double v, double h) { return phi < fabs(v) * h + 1e-4; }

static double unilateral_bias(double phi, double erp, double h) {
  return phi < 0 ? -erp * (-phi) / h : phi / h;
}

static lk_status limit_row(const lk_model *m, lk_data *d, int link, int side, double phi,
                           const double *dir, int ndir) {
  int r = lk_rows_add(m, d, link, 0, LK_CONSTRAINT_LIMIT, link, side);
  if (r == -2) return LK_OK;
  if (r < 0) return LK_CAPACITY_EXCEEDED;
  int v0 = m->vadr[link];
  for (int k = 0; k < ndir; k++) lk_rows_set_dofs(m, d, r, v0 + k, dir[k], -1, 0);
  lk_row *R = &d->sim.row[r];
  R->kind = LK_ROW_UNILATERAL;
  R->bias = unilateral_bias(phi, m->opt.constraint_erp, m->opt.timestep);
  return LK_OK;
}

lk_status lk_limit_rows(const lk_model *m, lk_data *d) {
  double h = m->opt.timestep;
  for (int i = 1; i < m->nlink; i++) {
    const lk_joint_spec *j = &m->link[i].joint;
    if (!j->limited) continue;
    const double *q = d->q + m->qadr[i];
    const double *v = d->v + m->vadr[i];
    lk_status st = LK_OK;
    if (m->jtype[i] == LK_JOINT_REVOLUTE || m->jtype[i] == LK_JOINT_PRISMATIC) {
      double plus = 1, minus = -1;
      if (near(q[0] - j->lower, v[0], h)) st = limit_row(m, d, i, 0, q[0] - j->lower, &plus, 1);
      if (!st && near(j->upper - q[0], v[0], h))
        st = limit_row(m, d, i, 1, j->upper - q[0], &minus, 1);
    } else if (m->jtype[i] == LK_JOINT_BALL) {
      /* A cone limit on the rotation angle: theta = |log(q)| <= upper, and
       * theta' = u . omega with u the rotation axis (the joint-frame omega
       * is the velocity, so the row is -u on the three DoFs). */
      lk_vec3 phi = lk_q_log(lk_q_normalize(lk_q(q[0], q[1], q[2], q[3])));
      double th = lk_v3_norm(phi);
      if (th > 1e-9) {
        lk_vec3 u = lk_v3_scale(phi, 1.0 / th);
        double rate = lk_v3_dot(u, lk_v3_from(v));
        if (near(j->upper - th, rate, h)) {
          double dir[3] = {-u.x, -u.y, -u.z};
          st = limit_row(m, d, i, 1, j->upper - th, dir, 3);
        }
      }
    }
    if (st) return st;
  }
  return LK_OK;
}

lk_status lk_dry_friction_rows(const lk_model *m, lk_data *d) {
  double h = m->opt.timestep;
  for (int k = 0; k < m->nv; k++) {
    double f = m->dof_friction[k];
    if (!(f > 0)) continue;
    int link = m->dof_link[k];
    int r = lk_rows_add(m, d, link, 0, LK_CONSTRAINT_FRICTION, k, 0);
    if (r == -2) continue;
    if (r < 0) return LK_CAPACITY_EXCEEDED;
    lk_rows_set_dofs(m, d, r, k, 1.0, -1, 0);
    lk_row *R = &d->sim.row[r];
    R->kind = LK_ROW_BOX;
    R->lo = -f * h;
    R->hi = f * h;
    R->bias = 0;
  }
  return LK_OK;
}
