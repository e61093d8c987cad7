/* Scratch of the simulation layer that lives outside the arena: the LCP
 * workspace of the dense islands and, when the model's rows can form an
 * island beyond the dense size, the sparse islands' storage and NSGS
 * workspace (pure scratch: nothing in them survives a solve, so copying a
 * data need not copy them). */
#include "core/internal.h"
#include "lcp/lcp_layer.h" /* lk_lcp_workspace_trust_pattern */
#include "linkage/lcp.h"
#include "model/model_impl.h"
#include "sim/sim_data.h"
#include "sim/sim_internal.h"

static void sparse_free(lk_sim_sparse *sp) {
  if (!sp) return;
  lk_free(sp->rowp);
  lk_free(sp->col);
  lk_free(sp->val);
  lk_free(sp->q);
  lk_free(sp->lo);
  lk_free(sp->hi);
  lk_free(sp->mu);
  lk_free(sp->z);
  lk_free(sp->w);
  lk_free(sp->findex);
  lk_free(sp->cone);
  lk_free(sp->basis);
  lk_free(sp->prow);
  lk_free(sp->pcol);
  lk_free(sp->pg);
  lk_free(sp->ph);
  lk_free(sp->pd);
  lk_free(sp->pdiag);
  lk_free(sp->t1);
  lk_lcp_workspace_free(sp->ws);
  lk_free(sp);
}

/* Entries a row to start with: a body of a pile carries a few contacts of
 * three rows, each row's entries those of its two bodies' rows. */
#define LK_SPARSE_ENTRIES_PER_ROW 16

static lk_sim_sparse *sparse_new(int n, size_t pcap, int nv) {
  lk_sim_sparse *sp = lk_calloc(1, sizeof *sp);
  if (!sp) return NULL;
  sp->ncap = n;
  size_t un = (size_t)n;
  sp->rowp = LK_NEW_ARRAY(int, un + 1);
  sp->cap = un * LK_SPARSE_ENTRIES_PER_ROW;
  sp->col = LK_NEW_ARRAY(int, sp->cap);
  sp->val = LK_NEW_ARRAY(double, sp->cap);
  sp->q = LK_NEW_ARRAY(double, un);
  sp->lo = LK_NEW_ARRAY(double, un);
  sp->hi = LK_NEW_ARRAY(double, un);
  sp->mu = LK_NEW_ARRAY(double, un);
  sp->z = LK_NEW_ARRAY(double, un);
  sp->w = LK_NEW_ARRAY(double, un);
  sp->findex = LK_NEW_ARRAY(int, un);
  sp->cone = LK_NEW_ARRAY(int, un);
  sp->basis = LK_NEW_ARRAY(unsigned char, un);
  sp->pcap = pcap > 0 ? pcap : 1;
  sp->prow = LK_NEW_ARRAY(int, un + 1);
  sp->pcol = LK_NEW_ARRAY(int, sp->pcap);
  sp->pg = LK_NEW_ARRAY(double, sp->pcap);
  sp->ph = LK_NEW_ARRAY(double, sp->pcap);
  sp->pd = LK_NEW_ARRAY(double, un);
  sp->pdiag = LK_NEW_ARRAY(double, un);
  sp->t1 = LK_NEW_ARRAY(int, 3 * un);
  sp->ws = lk_lcp_workspace_new_nsgs(n, nv > 0 ? nv : 1);
  /* Newton's (iterative.c) from the start, its matrices as large as the
   * compressed rows start, up to the largest island it takes; beyond, they
   * grow by doubling */
  size_t newton_entries = sp->cap < LK_NEWTON_ENTRIES ? sp->cap : LK_NEWTON_ENTRIES;
  if (sp->ws && lk_lcp_workspace_reserve_newton(sp->ws, (int)newton_entries) != LK_OK) {
    sparse_free(sp);
    return NULL;
  }
  /* iterative.c builds the products from the rows' tree segments, sorted
   * by construction */
  lk_lcp_workspace_trust_pattern(sp->ws, 1);
  if (!sp->rowp || !sp->col || !sp->val || !sp->q || !sp->lo || !sp->hi || !sp->mu || !sp->z ||
      !sp->w || !sp->findex || !sp->cone || !sp->basis || !sp->prow || !sp->pcol || !sp->pg ||
      !sp->ph || !sp->pd || !sp->pdiag || !sp->t1 || !sp->ws) {
    sparse_free(sp);
    return NULL;
  }
  return sp;
}

lk_status lk_sim_data_init(const lk_model *m, lk_sim_data *sd) {
  int cap = sd->island_cap > sd->xcap ? sd->island_cap : sd->xcap;
  sd->lcp = lk_lcp_workspace_new(cap > 0 ? cap : 1);
  if (!sd->lcp) return LK_OUT_OF_MEMORY;
  /* Islands beyond the dense size (without a size set by the user,
   * max_island_rows: islands have no limit) and large sliding islands
   * (solve.c: iterative_pays) are solved sparse. */
  sd->sparse = NULL;
  if (sd->row_cap > 0) {
    sd->sparse = sparse_new(sd->row_cap, sd->val_cap, m->nv);
    if (!sd->sparse) return LK_OUT_OF_MEMORY;
  }
  /* ... and tried first by the sparse direct sticking trial (direct.c)
   * when their contacts are all static */
  sd->direct = NULL;
  if (sd->row_cap > sd->island_cap) {
    sd->direct = lk_sim_direct_new(sd->row_cap);
    if (!sd->direct) return LK_OUT_OF_MEMORY;
  }
  return LK_OK;
}

lk_status lk_sim_data_regrow(const lk_model *m, lk_sim_data *sd) {
  if (sd->row_cap > 0 && (!sd->sparse || sd->sparse->ncap != sd->row_cap)) {
    lk_sim_sparse *sp = sparse_new(sd->row_cap, sd->val_cap, m->nv); /* pure scratch */
    if (!sp) return LK_OUT_OF_MEMORY;
    sparse_free(sd->sparse);
    sd->sparse = sp;
  }
  if (sd->row_cap > sd->island_cap) {
    if (!sd->direct) {
      sd->direct = lk_sim_direct_new(sd->row_cap);
      if (!sd->direct) return LK_OUT_OF_MEMORY;
    } else {
      lk_status st = lk_sim_direct_resize(sd->direct, sd->row_cap);
      if (st) return st;
    }
  }
  return LK_OK;
}

void lk_sim_data_free(lk_sim_data *sd) {
  lk_lcp_workspace_free(sd->lcp);
  sd->lcp = NULL;
  sparse_free(sd->sparse);
  sd->sparse = NULL;
  lk_sim_direct_free(sd->direct);
  sd->direct = NULL;
}
