/* Layout, reset and scratch of the simulation layer's data. */
#include <stdint.h>
#include <string.h>

#include "core/internal.h"
#include "lcp/lcp_layer.h" /* LK_ANDERSON_MMAX */
#include "model/model_impl.h"
#include "sim/sim_data.h"
#include "sim/sim_internal.h"

/* Whether link r roots a tree of the rows: it moves (it has DoFs, or an
 * ancestor has) and no ancestor of it moves. Links welded to the world
 * root nothing: they are part of it, and the links hung from them root
 * trees of their own (a fixed palm's fingers), whose blocks of M~ are
 * independent. The trees of DoFs of the dynamics layer (link_tree). */
static int tree_root(const lk_model *m, int r) {
  return r > 0 && m->link_tree[r] >= 0 && (m->parent[r] == 0 || m->link_tree[m->parent[r]] < 0);
}

/* DoFs of the tree rooted at r (its subtree's). */
static int tree_nv(const lk_model *m, int r) {
  int end = m->subtree_end[r];
  return (end < m->nlink ? m->vadr[end] : m->nv) - m->vadr[r];
}

/* Largest number of DoFs of one tree. */
static int max_tree_nv(const lk_model *m) {
  int best = 0;
  for (int r = 1; r < m->nlink; r++)
    if (tree_root(m, r) && tree_nv(m, r) > best) best = tree_nv(m, r);
  return best;
}

/* Rows the constraints of this model can produce in one step. */
static int row_capacity(const lk_model *m, int contact_cap) {
  int rows = 6 * contact_cap; /* a rolling contact has 6 rows */
  for (int i = 1; i < m->nlink; i++) {
    if (m->link[i].joint.limited) rows += 2;
    for (int k = 0; k < m->jnv[i]; k++)
      if (m->dof_friction[m->vadr[i] + k] > 0) rows++;
  }
  rows += 6 * m->nloop + m->ncoup + m->nteth;
  rows += 2 * m->nsup; /* supports: at most two tangent rows each */
  return rows;
}

int lk_sim_island_capacity(const lk_model *m, int row_cap);
int lk_sim_island_capacity(const lk_model *m, int row_cap) {
  int cap = m->opt.max_island_rows > 0 ? m->opt.max_island_rows : 192;
  return cap < row_cap ? cap : row_cap;
}

void lk_sim_data_layout(const lk_model *m, lk_sim_data *sd, lk_arena *a, lk_arena *c, int cap) {
  sd->st = LK_ARENA_ARRAY(a, lk_sim_scalars, 1);
  sd->act_target = LK_ARENA_ARRAY(a, double, m->nact);
  sd->act_force = LK_ARENA_ARRAY(a, double, m->nact);
  sd->act_on = LK_ARENA_ARRAY(a, int, m->nact);
  sd->cdof = LK_ARENA_ARRAY(a, lk_motion, m->nv);
  sd->vstar = LK_ARENA_ARRAY(a, double, m->nv);
  sd->tree = LK_ARENA_ARRAY(a, int, m->nlink);

  sd->contact_cap = cap + m->nxcon;
  sd->contact = LK_ARENA_ARRAY(c, lk_contact_report, sd->contact_cap);
  sd->cmem = LK_ARENA_ARRAY(c, lk_contact_mem, sd->contact_cap);
  sd->xmem = LK_ARENA_ARRAY(a, lk_contact_mem, m->nxcon);
  sd->limmem = LK_ARENA_ARRAY(a, lk_contact_mem, m->nlink);
  sd->gprev_cap = cap;
  sd->gmem_prev = LK_ARENA_ARRAY(c, lk_contact_mem, sd->gprev_cap);
  sd->gid_prev = LK_ARENA_ARRAY(c, unsigned long long, sd->gprev_cap);
  sd->gkey_prev = LK_ARENA_ARRAY(c, int, 3 * sd->gprev_cap);

  sd->row_cap = row_capacity(m, sd->contact_cap);
  sd->row = LK_ARENA_ARRAY(c, lk_row, sd->row_cap);
  int tn = max_tree_nv(m);
  sd->val_cap = (size_t)sd->row_cap * (size_t)(2 * (tn > 0 ? tn : 1));
  sd->jval = LK_ARENA_ARRAY(c, double, sd->val_cap);
  sd->yval = LK_ARENA_ARRAY(c, double, sd->val_cap);

  sd->uf = LK_ARENA_ARRAY(a, int, m->nlink);
  sd->island_of_tree = LK_ARENA_ARRAY(a, int, m->nlink);
  sd->island_start = LK_ARENA_ARRAY(c, int, sd->row_cap + 1);
  sd->island_rows = LK_ARENA_ARRAY(c, int, sd->row_cap);
  sd->rowloc = LK_ARENA_ARRAY(c, int, sd->row_cap);
  sd->island_note = LK_ARENA_ARRAY(c, lk_island_report, sd->row_cap);
  sd->seg_row = LK_ARENA_ARRAY(c, int, 2 * sd->row_cap);
  sd->seg_j = LK_ARENA_ARRAY(c, const double *, 2 * sd->row_cap);
  sd->seg_y = LK_ARENA_ARRAY(c, const double *, 2 * sd->row_cap);
  sd->ypanel = LK_ARENA_ARRAY(c, double, (size_t)(sd->row_cap + 3) * LK_SIM_SMALL_TREE);
  sd->xtmp = LK_ARENA_ARRAY(a, double, m->nv);
  sd->yofs = LK_ARENA_ARRAY(c, size_t, 2 * (size_t)sd->row_cap);
  sd->ykey = LK_ARENA_ARRAY(c, int, 4 * (size_t)sd->row_cap);
  sd->yorder = LK_ARENA_ARRAY(c, int, 4 * (size_t)sd->row_cap);
  sd->ytree_of = LK_ARENA_ARRAY(a, int, m->nlink);
  sd->ytree_v0 = LK_ARENA_ARRAY(a, int, m->nlink);
  sd->ytree_len = LK_ARENA_ARRAY(a, int, m->nlink);
  sd->ycount = LK_ARENA_ARRAY(a, int, (size_t)m->nlink + (size_t)tn + 2);
  sd->yblock_ok = LK_ARENA_ARRAY(a, unsigned char, m->nlink);
  sd->yblock = LK_ARENA_ARRAY(a, double, (size_t)LK_SIM_YBLOCK * (size_t)(tn > 0 ? tn : 1));
  sd->yacc = LK_ARENA_ARRAY(a, double, 4 * LK_SIM_YBLOCK);
  sd->dvg = LK_ARENA_ARRAY(a, double, m->nv);
  sd->gtree = LK_ARENA_ARRAY(a, int, 2 * m->nlink);
  size_t nminv = 0;
  for (int r = 1; r < m->nlink; r++) {
    int len = tree_root(m, r) ? tree_nv(m, r) : 0;
    if (len > 0 && len <= LK_SIM_SMALL_TREE) nminv += (size_t)(len * len);
  }
  sd->minv = LK_ARENA_ARRAY(a, double, nminv);
  sd->minv_ofs = LK_ARENA_ARRAY(a, size_t, m->nlink);
  sd->minv_segs = LK_ARENA_ARRAY(a, int, m->nlink);

  /* The dense islands' size comes from the model's initial capacity, not
   * the grown one: a grown data lays out the same island arrays, so its
   * kept factors (and its answers) are those of a data that never grew. */
  int ic = lk_sim_island_capacity(m, row_capacity(m, m->contact_capacity + m->nxcon));
  /* Lemke's expansion: a box row becomes (beta+, beta-, slack); a pyramid
   * tangent pair becomes cone_edges edges and one slack. */
  int per_row = 3;
  int pyr = (m->opt.cone_edges + 2) / 2 + 1;
  if (pyr > per_row) per_row = pyr;
  sd->island_cap = ic;
  /* Expanded problems (Lemke's pyramid form, the fixed-normal stage's
   * polygons) beyond this size fall back to the boxed form: capping it
   * keeps a data to a few MB instead of tens. */
  sd->xcap = ic * per_row;
  int xmax = ic * (per_row < 4 ? per_row : 4);
  if (xmax < 512) xmax = 512;
  if (sd->xcap > xmax) sd->xcap = xmax;
  sd->A = LK_ARENA_ARRAY(a, double, (size_t)ic * (size_t)ic);
  sd->anchor_rows = LK_ARENA_ARRAY(a, int, ic);
  sd->anchor_xw = LK_ARENA_ARRAY(a, lk_transform, m->nlink);
  sd->anchor_done = LK_ARENA_ARRAY(a, unsigned char, m->nlink);
  const size_t kic = (size_t)LK_SIM_KEPT_SLOTS * (size_t)ic; /* a slot's rows at s ic */
  sd->fc_L = LK_ARENA_ARRAY(a, double, (size_t)ic * (size_t)ic);
  sd->fc_d = LK_ARENA_ARRAY(a, double, kic);
  sd->fc_x = LK_ARENA_ARRAY(a, double, ic);
  sd->fc_y = LK_ARENA_ARRAY(a, double, ic);
  sd->fc_last = LK_ARENA_ARRAY(a, int, kic);
  sd->fc_col = LK_ARENA_ARRAY(a, int, kic);
  sd->fc_key = LK_ARENA_ARRAY(a, unsigned long long, kic);
  sd->fc_in = LK_ARENA_ARRAY(a, unsigned char, kic);
  sd->b = LK_ARENA_ARRAY(a, double, ic);
  sd->lo = LK_ARENA_ARRAY(a, double, ic);
  sd->hi = LK_ARENA_ARRAY(a, double, ic);
  sd->mu = LK_ARENA_ARRAY(a, double, ic);
  sd->z = LK_ARENA_ARRAY(a, double, ic);
  sd->w = LK_ARENA_ARRAY(a, double, ic);
  sd->zfix = LK_ARENA_ARRAY(a, double, ic);
  sd->adiag = LK_ARENA_ARRAY(a, double, ic);
  sd->rw = LK_ARENA_ARRAY(a, double, ic);
  sd->findex = LK_ARENA_ARRAY(a, int, ic);
  sd->basis = LK_ARENA_ARRAY(a, unsigned char, ic);
  sd->zref = LK_ARENA_ARRAY(a, double, ic);
  sd->wref = LK_ARENA_ARRAY(a, double, ic);
  sd->bref = LK_ARENA_ARRAY(a, unsigned char, ic);
  sd->hold = LK_ARENA_ARRAY(a, unsigned char, ic);
  sd->hdir = LK_ARENA_ARRAY(a, double, ic);
  sd->hval = LK_ARENA_ARRAY(a, double, ic);
  sd->cut = LK_ARENA_ARRAY(a, unsigned char, ic);
  sd->hzn = LK_ARENA_ARRAY(a, double, ic);
  sd->hmem = LK_ARENA_ARRAY(a, double, (2 * LK_ANDERSON_MMAX + 4) * (size_t)ic);
  sd->hnorm = LK_ARENA_ARRAY(a, int, ic);
  sd->Ax = LK_ARENA_ARRAY(a, double, (size_t)sd->xcap * (size_t)sd->xcap);
  sd->qx = LK_ARENA_ARRAY(a, double, sd->xcap);
  sd->lox = LK_ARENA_ARRAY(a, double, sd->xcap);
  sd->hix = LK_ARENA_ARRAY(a, double, sd->xcap);
  sd->zx = LK_ARENA_ARRAY(a, double, sd->xcap);
  sd->wx = LK_ARENA_ARRAY(a, double, sd->xcap);
  sd->basisx = LK_ARENA_ARRAY(a, unsigned char, sd->xcap);
  sd->xr1 = LK_ARENA_ARRAY(a, int, sd->xcap);
  sd->xr2 = LK_ARENA_ARRAY(a, int, sd->xcap);
  sd->xc1 = LK_ARENA_ARRAY(a, double, sd->xcap);
  sd->xc2 = LK_ARENA_ARRAY(a, double, sd->xcap);
  sd->xslack = LK_ARENA_ARRAY(a, int, sd->xcap);
  sd->xbase = LK_ARENA_ARRAY(a, int, ic + 1);
  sd->cut_r1 = LK_ARENA_ARRAY(a, int, sd->xcap);
  sd->cut_r2 = LK_ARENA_ARRAY(a, int, sd->xcap);
  sd->cut_u1 = LK_ARENA_ARRAY(a, double, sd->xcap);
  sd->cut_u2 = LK_ARENA_ARRAY(a, double, sd->xcap);
  sd->cut_c = LK_ARENA_ARRAY(a, double, sd->xcap);

  sd->jr = LK_ARENA_ARRAY(a, lk_sim_journal, 1);
  int limits = 0;
  for (int i = 1; i < m->nlink; i++) limits |= m->link[i].joint.limited;
  sd->limmem_save = LK_ARENA_ARRAY(a, lk_contact_mem, limits ? m->nlink : 0);
  sd->act_force_save = LK_ARENA_ARRAY(a, double, m->nact);
  sd->fc_L_save = LK_ARENA_ARRAY(a, double, (size_t)ic * (size_t)ic);
  sd->fc_d_save = LK_ARENA_ARRAY(a, double, kic);
  sd->fc_last_save = LK_ARENA_ARRAY(a, int, kic);
  sd->fc_col_save = LK_ARENA_ARRAY(a, int, kic);
  sd->fc_key_save = LK_ARENA_ARRAY(a, unsigned long long, kic);
  sd->fc_in_save = LK_ARENA_ARRAY(a, unsigned char, kic);

  sd->lforce_cap = 2 * sd->row_cap;
  sd->lforce = LK_ARENA_ARRAY(c, lk_link_force, sd->lforce_cap);
  sd->tactile = LK_ARENA_ARRAY(a, lk_tactile, m->nlink);
  lk_models_data_layout(m, &sd->x, sd->row_cap, sd->contact_cap, a, c);
}

lk_status lk_sim_data_copy(lk_sim_data *dst, const lk_sim_data *src) {
  return lk_sim_direct_copy(dst->direct, src->direct);
}

void lk_sim_data_reset(const lk_model *m, lk_sim_data *sd) {
  for (int i = 0; i < m->nact; i++) {
    sd->act_target[i] = lk_sim_actuator_target_at(&m->act[i].spec, 0);
    sd->act_force[i] = 0;
    sd->act_on[i] = 1;
  }
  for (int i = 0; i < m->nlink; i++) {
    int r = i;
    while (r > 0 && !tree_root(m, r)) r = m->parent[r];
    sd->tree[i] = r; /* 0 for the world and what is welded to it */
  }
  /* Small trees' blocks of minv, in root order (as laid out). */
  size_t ofs = 0;
  for (int r = 0; r < m->nlink; r++) {
    sd->minv_ofs[r] = SIZE_MAX;
    sd->minv_segs[r] = 0;
    int len = tree_root(m, r) ? tree_nv(m, r) : 0;
    if (len > 0 && len <= LK_SIM_SMALL_TREE) {
      sd->minv_ofs[r] = ofs;
      ofs += (size_t)(len * len);
    }
    /* the factor's entries below the diagonal: each DoF's ancestors */
    long fill = 0;
    for (int k = len > 0 ? m->vadr[r] : 0, e = k + len; k < e; k++)
      for (int p = m->dof_parent[k]; p >= 0; p = m->dof_parent[p]) fill++;
    sd->yblock_ok[r] = len > 0 && fill <= (long)LK_SIM_YBLOCK_FILL * len;
  }
  sd->st->next_contact_id = 1;
  lk_sim_direct_reset(sd->direct);
}
