/* Frictional supports with a given normal reaction (lk_support_spec): rows.
 *
 * A joint support is one boxed row on its DoF, |f| <= bound; a point
 * support two boxed rows along the tangents t1 and t2 = n x t1 of its
 * plane. The
 * time step uses bound = mu_static N h on both tangents (a box, as joint
 * dry friction); the static solve (lib/sim/static.c) chooses the bounds
 * and the tangent basis itself: mu N of the support's state, the first
 * tangent along the slip of a sliding support, whose second row then has
 * bound 0 (it is kept: its w is the slip across the first tangent). */
#include <math.h>

#include "constraint/constraint_impl.h"

lk_vec3 lk_support_point(const lk_model *m, const lk_data *d, int i) {
  const lk_support_rec *r = &m->sup[i];
  return lk_tf_point(&d->xw[r->link], r->spec.point);
}

lk_status lk_support_add_rows(const lk_model *m, lk_data *d, int i, lk_vec3 t1, double bound1,
                              double bound2, int rows[2]) {
  const lk_support_rec *r = &m->sup[i];
  rows[0] = rows[1] = -1;
  if (r->dof >= 0) {
    int row = lk_rows_add(m, d, r->link, 0, LK_CONSTRAINT_SUPPORT, i, 0);
    if (row == -2) return LK_OK;
    if (row < 0) return LK_CAPACITY_EXCEEDED;
    lk_rows_set_dofs(m, d, row, r->dof, 1.0, -1, 0);
    lk_row *R = &d->sim.row[row];
    R->kind = LK_ROW_BOX;
    R->lo = -bound1;
    R->hi = bound1;
    R->bias = 0;
    rows[0] = row;
    return LK_OK;
  }
  lk_vec3 p = lk_support_point(m, d, i), n = r->spec.normal;
  lk_vec3 t[2] = {t1, lk_v3_cross(n, t1)};
  double b[2] = {bound1, bound2};
  for (int k = 0; k < 2; k++) {
    int row = lk_rows_add(m, d, r->link, 0, LK_CONSTRAINT_SUPPORT, i, k);
    if (row == -2) return LK_OK;
    if (row < 0) return LK_CAPACITY_EXCEEDED;
    lk_rows_set_wrench(m, d, row, r->link, 0, lk_row_force(p, t[k], lk_v3_zero()));
    lk_row *R = &d->sim.row[row];
    R->kind = LK_ROW_BOX;
    R->lo = -b[k];
    R->hi = b[k];
    R->bias = 0;
    rows[k] = row;
  }
  return LK_OK;
}

lk_status lk_support_rows(const lk_model *m, lk_data *d) {
  double h = m->opt.timestep;
  for (int i = 0; i < m->nsup; i++) {
    const lk_support_spec *s = &m->sup[i].spec;
    double bound = s->mu_static * s->normal_force * h;
    if (!(bound > 0)) continue;
    int rows[2];
    lk_status st = lk_support_add_rows(m, d, i, lk_any_tangent(s->normal), bound, bound, rows);
    if (st) return st;
  }
  return LK_OK;
}
