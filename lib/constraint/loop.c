/* Bilateral constraints: loop closures (ball, pin, rigid), joint couplings,
 * and the unilateral tether.
 *
 * Each bilateral row carries its position error c (J dq = -c corrects it):
 * the velocity step asks J v+ = -constraint_erp c / h, and after the step
 * the stepper projects q back onto the constraint manifold (post-
 * stabilization, Cline & Pai 2003) so that closed chains stay closed to
 * round-off, not to a Baumgarte lag. */
#include <math.h>

#include "constraint/constraint_impl.h"

static int bilateral(const lk_model *m, lk_data *d, int a, int b, lk_constraint_kind kind,
                     int index, int crow, lk_force F, double c) {
  int r = lk_rows_add(m, d, a, b, kind, index, crow);
  if (r < 0) return r;
  lk_rows_set_wrench(m, d, r, a, b, F);
  /* A direction no DoF can move (the out-of-plane rows of a planar
   * closure) constrains nothing: dropping its row keeps A regular. */
  if (lk_rows_drop_if_empty(d, r)) return -3;
  lk_row *R = &d->sim.row[r];
  R->kind = LK_ROW_FREE;
  R->lo = -INFINITY;
  R->perr = c;
  R->bias = m->opt.constraint_erp * c / m->opt.timestep;
  return r;
}

lk_status lk_loop_rows(const lk_model *m, lk_data *d) {
  static const lk_vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int i = 0; i < m->nloop; i++) {
    const lk_loop_rec *L = &m->loop[i];
    int a = L->link_a, b = L->link_b;
    lk_transform Fa = lk_tf_mul(&d->xw[a], &L->spec.frame_a);
    lk_transform Fb = lk_tf_mul(&d->xw[b], &L->spec.frame_b);
    lk_vec3 p = lk_v3_scale(lk_v3_add(Fa.p, Fb.p), 0.5);
    lk_vec3 err = lk_v3_sub(Fa.p, Fb.p);
    int crow = 0;
    for (int k = 0; k < 3; k++) {
      int r = bilateral(m, d, a, b, LK_CONSTRAINT_LOOP, i, crow++,
                        lk_row_force(p, axes[k], lk_v3_zero()), lk_v3_dot(err, axes[k]));
      if (r == -2) break;
      if (r == -1) return LK_CAPACITY_EXCEEDED;
    }
    if (L->spec.type == LK_LOOP_PIN) {
      /* Keep z_a along z_b: the two directions normal to z_a. */
      lk_vec3 za = lk_m3_col(&Fa.R, 2), zb = lk_m3_col(&Fb.R, 2);
      lk_vec3 e = lk_v3_cross(za, zb);
      lk_vec3 u1 = lk_any_tangent(za), u2 = lk_v3_cross(za, u1);
      lk_vec3 us[2] = {u1, u2};
      for (int k = 0; k < 2; k++) {
        int r = bilateral(m, d, a, b, LK_CONSTRAINT_LOOP, i, crow++, lk_fo(us[k], lk_v3_zero()),
                          -lk_v3_dot(e, us[k]));
        if (r == -1) return LK_CAPACITY_EXCEEDED;
      }
    } else if (L->spec.type == LK_LOOP_RIGID) {
      /* The rotation vector of R_a R_b^T, in world axes. */
      lk_mat3 Rrel = lk_m3_mult(&Fa.R, &Fb.R);
      lk_vec3 e = lk_q_log(lk_q_from_mat3(&Rrel));
      for (int k = 0; k < 3; k++) {
        int r = bilateral(m, d, a, b, LK_CONSTRAINT_LOOP, i, crow++, lk_fo(axes[k], lk_v3_zero()),
                          lk_v3_dot(e, axes[k]));
        if (r == -1) return LK_CAPACITY_EXCEEDED;
      }
    }
  }
  return LK_OK;
}

lk_status lk_coupling_rows(const lk_model *m, lk_data *d, const double *q) {
  for (int i = 0; i < m->ncoup; i++) {
    const lk_coupling_rec *C = &m->coup[i];
    int la = m->dof_link[C->dof_a], lb = m->dof_link[C->dof_b];
    int r = lk_rows_add(m, d, la, lb, LK_CONSTRAINT_COUPLING, i, 0);
    if (r == -2) continue;
    if (r < 0) return LK_CAPACITY_EXCEEDED;
    lk_rows_set_dofs(m, d, r, C->dof_a, 1.0, C->dof_b, -C->spec.ratio);
    /* The error at the configuration being built (the projection's
     * candidate, not the start of the step): else a projection that
     * starts violated corrects the same error again every pass and
     * diverges. */
    double qa = q[m->qadr[la]], qb = q[m->qadr[lb]];
    double c = qa - C->spec.ratio * qb - C->spec.offset;
    lk_row *R = &d->sim.row[r];
    R->kind = LK_ROW_FREE;
    R->lo = -INFINITY;
    R->perr = c;
    R->bias = m->opt.constraint_erp * c / m->opt.timestep;
  }
  return LK_OK;
}

lk_status lk_tether_rows(const lk_model *m, lk_data *d) {
  double h = m->opt.timestep;
  for (int i = 0; i < m->nteth; i++) {
    const lk_tether_rec *T = &m->teth[i];
    lk_vec3 pa = lk_tf_point(&d->xw[T->link], T->spec.point);
    lk_vec3 pb = lk_tf_point(&d->xw[T->other], T->spec.other_point);
    lk_vec3 dv = lk_v3_sub(pa, pb);
    double dist = lk_v3_norm(dv);
    if (dist < 1e-12) continue;
    lk_vec3 u = lk_v3_scale(dv, 1.0 / dist);
    double phi = T->spec.length - dist;
    lk_vec3 va = lk_data_point_velocity(d, T->link, T->spec.point);
    lk_vec3 vb = lk_data_point_velocity(d, T->other, T->spec.other_point);
    double rate = -lk_v3_dot(u, lk_v3_sub(va, vb));
    if (!(phi < fabs(rate) * h + 1e-4)) continue;
    int r = lk_rows_add(m, d, T->link, T->other, LK_CONSTRAINT_TETHER, i, 0);
    if (r == -2) continue;
    if (r < 0) return LK_CAPACITY_EXCEEDED;
    /* phi' = -u . v_rel: the row pulls the points together. */
    lk_rows_set_wrench(m, d, r, T->link, T->other, lk_row_force(pa, lk_v3_neg(u), lk_v3_zero()));
    lk_row *R = &d->sim.row[r];
    R->kind = LK_ROW_UNILATERAL;
    R->bias = phi < 0 ? -m->opt.constraint_erp * (-phi) / h : phi / h;
  }
  return LK_OK;
}
