/* The step's row buffer: rows stored by tree segment (see rows.h). */
#include <math.h>
#include <string.h>

#include "constraint/constraint_impl.h"

void lk_rows_compute_cdof(const lk_model *m, lk_data *d) {
  lk_motion *cdof = d->sim.cdof;
  for (int j = 1; j < m->nlink; j++) {
    const lk_transform *X = &d->xw[j];
    for (int k = m->vadr[j]; k < m->vadr[j] + m->jnv[j]; k++) {
      /* S in world axes; its linear part moves the link origin o. A rigid
       * motion's velocity at the world origin is v_o + o x w. */
      lk_vec3 w = lk_tf_dir(X, d->S[k].ang);
      lk_vec3 vo = lk_tf_dir(X, d->S[k].lin);
      cdof[k] = lk_mo(w, lk_v3_add(vo, lk_v3_cross(X->p, w)));
    }
  }
}

void lk_rows_clear(lk_data *d) {
  d->sim.st->nrow = 0;
  d->sim.st->nval = 0;
}

/* DoF range of the tree rooted at r. */
static void tree_range(const lk_model *m, int r, int *v0, int *len) {
  int end = m->subtree_end[r];
  int v1 = end < m->nlink ? m->vadr[end] : m->nv;
  *v0 = m->vadr[r];
  *len = v1 - m->vadr[r];
}

int lk_rows_add(const lk_model *m, lk_data *d, int link_a, int link_b, lk_constraint_kind kind,
                int cindex, int crow) {
  lk_sim_data *sd = &d->sim;
  int ta = sd->tree[link_a], tb = sd->tree[link_b];
  int trees[2] = {-1, -1}, n = 0;
  if (ta > 0) trees[n++] = ta;
  if (tb > 0 && tb != ta) trees[n++] = tb;
  lk_row r;
  memset(&r, 0, sizeof r);
  r.tree[0] = r.tree[1] = -1;
  int k = 0;
  size_t need = 0;
  for (int i = 0; i < n; i++) {
    int v0, len;
    tree_range(m, trees[i], &v0, &len);
    if (len == 0) continue; /* a tree welded to the world */
    r.tree[k] = trees[i];
    r.v0[k] = v0;
    r.len[k] = len;
    need += (size_t)len;
    k++;
  }
  if (k == 0) return -2;
  if (sd->st->nrow >= sd->row_cap || sd->st->nval + need > sd->val_cap) return -1;
  r.ofs = sd->st->nval;
  r.kind = LK_ROW_UNILATERAL;
  r.normal = -1;
  r.pair = -1;
  r.hi = INFINITY;
  r.ckind = kind;
  r.cindex = cindex;
  r.crow = crow;
  r.island = -1;
  r.link_a = link_a;
  r.link_b = link_b;
  memset(sd->jval + r.ofs, 0, need * sizeof(double));
  memset(sd->yval + r.ofs, 0, need * sizeof(double));
  sd->st->nval += need;
  sd->row[sd->st->nrow] = r;
  return sd->st->nrow++;
}

/* Value slot of DoF k in a row, or NULL when the row does not span it. */
static double *slot(lk_data *d, const lk_row *r, int k) {
  size_t ofs = r->ofs;
  for (int s = 0; s < 2; s++) {
    if (r->tree[s] < 0) break;
    if (k >= r->v0[s] && k < r->v0[s] + r->len[s]) return d->sim.jval + ofs + (k - r->v0[s]);
    ofs += (size_t)r->len[s];
  }
  return NULL;
}

/* The lowest common ancestor of links a and b (0: the world). */
static int common_ancestor(const lk_model *m, int a, int b) {
  int da = 0, db = 0;
  for (int j = a; j > 0; j = m->parent[j]) da++;
  for (int j = b; j > 0; j = m->parent[j]) db++;
  for (; da > db; da--) a = m->parent[a];
  for (; db > da; db--) b = m->parent[b];
  while (a != b) {
    a = m->parent[a];
    b = m->parent[b];
  }
  return a;
}

void lk_rows_set_wrench(const lk_model *m, lk_data *d, int row, int link_a, int link_b,
                        lk_force F) {
  lk_row *r = &d->sim.row[row];
  r->F = F;
  r->dof_row = 0;
  /* Common ancestors of a and b move both points alike: skip them rather
   * than add and subtract, so that their contribution is exactly zero. */
  int common = common_ancestor(m, link_a, link_b);
  const lk_motion *cdof = d->sim.cdof;
  for (int pass = 0; pass < 2; pass++) {
    int link = pass == 0 ? link_a : link_b;
    double sign = pass == 0 ? 1.0 : -1.0;
    for (int j = link; j != common && j > 0; j = m->parent[j])
      for (int k = m->vadr[j]; k < m->vadr[j] + m->jnv[j]; k++) {
        double *v = slot(d, r, k);
        if (v) *v += sign * lk_mo_dot_fo(cdof[k], F);
      }
  }
}

/* Rows of unit forces along dirs[i] at one point p: F_i = (p x d_i, d_i),
 * so cdof . F_i = d_i . (v + w x p), the velocity of p under the DoF: one
 * walk and one point velocity a DoF for all the rows (a contact's normal
 * and tangents) instead of a wrench row each. The rows must all span the
 * same trees (made by lk_rows_add with the same links). */
void lk_rows_set_point(const lk_model *m, lk_data *d, const int *rows, const lk_vec3 *dirs,
                       int nrows, lk_vec3 p, int link_a, int link_b) {
  lk_row *R[LK_ROWS_POINT_MAX];
  for (int i = 0; i < nrows; i++) {
    R[i] = &d->sim.row[rows[i]];
    R[i]->F = lk_fo(lk_v3_cross(p, dirs[i]), dirs[i]);
    R[i]->dof_row = 0;
  }
  const int common = common_ancestor(m, link_a, link_b); /* as in lk_rows_set_wrench */
  const lk_motion *cdof = d->sim.cdof;
  for (int pass = 0; pass < 2; pass++) {
    int link = pass == 0 ? link_a : link_b;
    double sign = pass == 0 ? 1.0 : -1.0;
    /* The path's DoFs are all in link's tree, one segment of each row's
     * values: found once (by the path's first DoF), then indexed. */
    double *seg[LK_ROWS_POINT_MAX];
    int base = -1;
    for (int j = link; j != common && j > 0 && base < 0; j = m->parent[j])
      if (m->jnv[j] > 0) base = m->vadr[j];
    if (base < 0 || !slot(d, R[0], base)) continue; /* no DoF, or welded */
    for (int i = 0; i < nrows; i++) {
      size_t ofs = R[i]->ofs;
      int g = 0;
      while (!(base >= R[i]->v0[g] && base < R[i]->v0[g] + R[i]->len[g])) ofs += (size_t)R[i]->len[g++];
      seg[i] = d->sim.jval + ofs - R[i]->v0[g];
    }
    for (int j = link; j != common && j > 0; j = m->parent[j])
      for (int k = m->vadr[j]; k < m->vadr[j] + m->jnv[j]; k++) {
        lk_vec3 v = lk_v3_add(cdof[k].lin, lk_v3_cross(cdof[k].ang, p));
        for (int i = 0; i < nrows; i++) seg[i][k] += sign * lk_v3_dot(dirs[i], v);
      }
  }
}

void lk_rows_set_dofs(const lk_model *m, lk_data *d, int row, int dof_a, double ca, int dof_b,
                      double cb) {
  (void)m;
  lk_row *r = &d->sim.row[row];
  r->dof_row = 1;
  double *v = slot(d, r, dof_a);
  if (v) *v += ca;
  if (dof_b >= 0) {
    v = slot(d, r, dof_b);
    if (v) *v += cb;
  }
}

double lk_rows_dot(const lk_data *d, int row, const double *x) {
  const lk_row *r = &d->sim.row[row];
  const double *J = d->sim.jval + r->ofs;
  double s = 0;
  for (int g = 0; g < 2 && r->tree[g] >= 0; g++) {
    const double *xs = x + r->v0[g];
    for (int i = 0; i < r->len[g]; i++) s += J[i] * xs[i];
    J += r->len[g];
  }
  return s;
}

void lk_rows_axpy(const lk_data *d, int row, double s, int use_y, double *x) {
  const lk_row *r = &d->sim.row[row];
  const double *J = (use_y ? d->sim.yval : d->sim.jval) + r->ofs;
  for (int g = 0; g < 2 && r->tree[g] >= 0; g++) {
    double *xs = x + r->v0[g];
    for (int i = 0; i < r->len[g]; i++) xs[i] += s * J[i];
    J += r->len[g];
  }
}

double lk_mix(double a, double b, lk_mix_rule rule) {
  switch (rule) {
    case LK_MIX_MIN:
      return a < b ? a : b;
    case LK_MIX_MAX:
      return a > b ? a : b;
    case LK_MIX_MEAN:
      return 0.5 * (a + b);
    default:
      return sqrt(a * b);
  }
}

lk_vec3 lk_any_tangent(lk_vec3 n) {
  /* Cross with the world axis least aligned with n (ties broken by axis
   * order), so the choice is deterministic and well conditioned. */
  double ax = fabs(n.x), ay = fabs(n.y), az = fabs(n.z);
  lk_vec3 e = ax <= ay && ax <= az ? lk_v3(1, 0, 0) : (ay <= az ? lk_v3(0, 1, 0) : lk_v3(0, 0, 1));
  return lk_v3_normalize(lk_v3_cross(n, e));
}

int lk_rows_drop_if_empty(lk_data *d, int row) {
  lk_sim_data *sd = &d->sim;
  if (row != sd->st->nrow - 1) return 0; /* only the last row can be popped */
  const lk_row *R = &sd->row[row];
  size_t len = 0;
  for (int g = 0; g < 2 && R->tree[g] >= 0; g++) len += (size_t)R->len[g];
  double mx = 0;
  const double *J = sd->jval + R->ofs;
  for (size_t i = 0; i < len; i++) mx = fmax(mx, fabs(J[i]));
  /* Relative to the row's own scale: a unit wrench moves a DoF by O(1)
   * (or by a lever arm) when it constrains anything at all. */
  if (mx > 1e-12) return 0;
  sd->st->nrow--;
  sd->st->nval = R->ofs;
  return 1;
}
