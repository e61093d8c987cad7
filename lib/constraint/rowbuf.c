/* The step's row buffer: rows stored by tree segment (see rows.h). */
#include <math.h>
#include <stdint.h>
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

/* The segments a row between links a and b spans (r->tree, v0, len; the
 * rest untouched) and their total length; 0 segments when neither moves. */
static int row_layout(const lk_model *m, const lk_data *d, int link_a, int link_b, lk_row *r,
                      size_t *need) {
  const int *tree = d->sim.tree;
  int ta = tree[link_a], tb = tree[link_b];
  int trees[2] = {ta, tb != ta ? tb : 0};
  int k = 0;
  size_t n = 0;
  r->tree[0] = r->tree[1] = -1;
  for (int i = 0; i < 2; i++) {
    if (trees[i] <= 0) continue;
    int v0, len;
    tree_range(m, trees[i], &v0, &len);
    if (len == 0) continue; /* a tree welded to the world */
    r->tree[k] = trees[i];
    r->v0[k] = v0;
    r->len[k] = len;
    n += (size_t)len;
    k++;
  }
  *need = n;
  return k;
}

/* Header fields of a new row (values not touched), every field assigned
 * one by one: a compound literal zero-fills the struct first, which GCC
 * does with a `rep stos` whose start-up cost was a third of a contact's
 * row building. */
static void row_init(lk_row *r, const lk_row *layout, size_t ofs, int link_a, int link_b,
                     lk_constraint_kind kind, int cindex, int crow) {
#if SIZE_MAX == 0xffffffffffffffffu /* LP64: the layout whose size is checked */
  _Static_assert(sizeof(lk_row) == 264, "row_init assigns every field of lk_row: update it");
#endif
  r->kind = LK_ROW_UNILATERAL;
  r->lo = 0;
  r->hi = INFINITY;
  r->normal = -1;
  r->mu = 0;
  r->pair = -1;
  r->bias = 0;
  r->perr = 0;
  for (int g = 0; g < 2; g++) {
    r->tree[g] = layout->tree[g];
    r->v0[g] = layout->v0[g];
    r->len[g] = layout->len[g];
  }
  r->ofs = ofs;
  r->ckind = kind;
  r->cindex = cindex;
  r->crow = crow;
  r->island = -1;
  r->jv = 0;
  r->link_a = link_a;
  r->link_b = link_b;
  r->dof_row = 0;
  r->F = lk_fo(lk_v3_zero(), lk_v3_zero());
  r->z = 0;
  r->w = 0;
  r->realigned = 0;
  r->turn_valid = 0;
  r->unlocked = 0;
  r->turn_prop = 0;
  r->turn_step = 0;
  r->guessed = 0;
  r->turn_gain = 0;
  r->aside = 0;
  r->state0 = 0;
  r->mu0 = 0;
  r->basis0 = 0;
  r->unconv[0] = r->unconv[1] = 0;
}

/* Only the Jacobian values are zeroed: Y (yval) is written whole by
 * whoever computes M^-1 J^T (the row preparation, the projection, the
 * static solve) before anything reads it. */
int lk_rows_add(const lk_model *m, lk_data *d, int link_a, int link_b, lk_constraint_kind kind,
                int cindex, int crow) {
  lk_sim_data *sd = &d->sim;
  lk_row layout;
  size_t need;
  if (row_layout(m, d, link_a, link_b, &layout, &need) == 0) return -2;
  if (sd->st->nrow >= sd->row_cap || sd->st->nval + need > sd->val_cap) return -1;
  size_t ofs = sd->st->nval;
  row_init(&sd->row[sd->st->nrow], &layout, ofs, link_a, link_b, kind, cindex, crow);
  memset(sd->jval + ofs, 0, need * sizeof(double));
  sd->st->nval += need;
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
  if (a == 0 || b == 0) return 0; /* against the world: no walk */
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

/* Values k0..k1 of the point rows' segments at base (row i at base + i
 * need): the velocity of p under each DoF along dirs[i], negated (neg: a
 * constant at each call, so no multiply by a sign) on link b's side. */
static inline void point_values(double *base, size_t need, const lk_motion *S, int k0, int k1,
                                lk_vec3 p, const lk_vec3 *dirs, int nrows, int neg) {
  for (int k = k0; k < k1; k++) {
    lk_vec3 v = lk_v3_add(S[k].lin, lk_v3_cross(S[k].ang, p));
    if (nrows == 3) { /* a contact's normal and tangents */
      double x0 = lk_v3_dot(dirs[0], v), x1 = lk_v3_dot(dirs[1], v), x2 = lk_v3_dot(dirs[2], v);
      base[k] = neg ? 0.0 - x0 : 0.0 + x0;
      base[need + k] = neg ? 0.0 - x1 : 0.0 + x1;
      base[2 * need + k] = neg ? 0.0 - x2 : 0.0 + x2;
    } else {
      for (int i = 0; i < nrows; i++) {
        double x = lk_v3_dot(dirs[i], v);
        base[(size_t)i * need + k] = neg ? 0.0 - x : 0.0 + x;
      }
    }
  }
}

/* Rows of unit forces along dirs[i] at one point p: F_i = (p x d_i, d_i),
 * so cdof . F_i = d_i . (v + w x p), the velocity of p under the DoF. One
 * layout, one capacity check and one walk of the paths for all the rows (a
 * contact's normal and tangents) instead of a wrench row each. Each DoF's
 * value is written once, as 0 + x or 0 - x (what accumulating into zeroed
 * values gives, bit for bit), so only the DoFs off the paths need zeroing
 * (none for a free body). */
int lk_rows_add_point(const lk_model *m, lk_data *d, int link_a, int link_b,
                      lk_constraint_kind kind, int cindex, int crow0, const lk_vec3 *dirs,
                      int nrows, lk_vec3 p, int *rows) {
  lk_sim_data *sd = &d->sim;
  lk_row layout;
  size_t need;
  if (row_layout(m, d, link_a, link_b, &layout, &need) == 0) return -2;
  if (sd->st->nrow + nrows > sd->row_cap || sd->st->nval + (size_t)nrows * need > sd->val_cap)
    return -1;
  size_t ofs0 = sd->st->nval;
  for (int i = 0; i < nrows; i++) {
    rows[i] = sd->st->nrow + i;
    lk_row *R = &sd->row[rows[i]];
    row_init(R, &layout, ofs0 + (size_t)i * need, link_a, link_b, kind, cindex, crow0 + i);
    R->F = lk_fo(lk_v3_cross(p, dirs[i]), dirs[i]);
  }
  sd->st->nrow += nrows;
  sd->st->nval += (size_t)nrows * need;

  const int common = common_ancestor(m, link_a, link_b); /* as in lk_rows_set_wrench */
  const lk_motion *cdof = sd->cdof;
  size_t seg_ofs = 0;
  for (int g = 0; g < 2 && layout.tree[g] >= 0; g++) {
    /* The segment's tree holds link_a's path or link_b's (trees differ,
     * or the row has one segment holding both). */
    int v0 = layout.v0[g], len = layout.len[g];
    double *base = sd->jval + ofs0 + seg_ofs; /* row 0's segment */
    int covered = 0;
    for (int pass = 0; pass < 2; pass++) {
      int link = pass == 0 ? link_a : link_b;
      if (sd->tree[link] != layout.tree[g]) continue;
      for (int j = link; j != common && j > 0; j = m->parent[j]) covered += m->jnv[j];
    }
    if (covered < len)
      for (int i = 0; i < nrows; i++) memset(base + (size_t)i * need, 0, (size_t)len * sizeof *base);
    for (int pass = 0; pass < 2; pass++) {
      int link = pass == 0 ? link_a : link_b;
      if (sd->tree[link] != layout.tree[g]) continue;
      const lk_motion *S = cdof + v0; /* k: DoF v0 + k, value k of a segment */
      for (int j = link; j != common && j > 0; j = m->parent[j]) {
        int k0 = m->vadr[j] - v0, k1 = k0 + m->jnv[j];
        if (pass == 0)
          point_values(base, need, S, k0, k1, p, dirs, nrows, 0);
        else
          point_values(base, need, S, k0, k1, p, dirs, nrows, 1);
      }
    }
    seg_ofs += (size_t)len;
  }
  return 0;
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
