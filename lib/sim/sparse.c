/* The Delassus matrix of an island in compressed rows (issue 20), built
 * from the tree structure: rows couple only through the trees they share,
 * so row i's entries are the rows in the buckets of its (at most two)
 * trees, and A_ij = sum over the shared trees t of J_i,t . Y_j,t, Y = M~^-1
 * J^T (lk_sim_rows_y). Nothing dense is formed: the entries are sum over
 * trees of k_t^2 for k_t rows on tree t (a body of a pile: the contacts it
 * has), and so is the work (times the tree's DoFs). Each entry is summed
 * as the dense assembly sums it (island.c: J of the lower row, Y of the
 * higher, in index order), so A is exactly symmetric and equal to the
 * dense A to rounding of the sum over two trees.
 *
 * The storage lives outside the arena (lk_sim_sparse, pure scratch). It is
 * sized at lk_data_new for a few entries a row of the model's row capacity
 * and grows, by doubling to at least what the island needs, when an island
 * needs more: the only allocation a step may make, outside every loop that
 * solves, at most log2(final / initial) times over a run, bounded by the
 * largest island the contacts can form. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "sim/sim_internal.h"

/* Grow the entry arrays to hold at least need entries. */
static lk_status grow(lk_sim_sparse *sp, size_t need) {
  if (need <= sp->cap) return LK_OK;
  size_t cap = sp->cap > 0 ? sp->cap : 1024;
  while (cap < need) {
    if (cap > SIZE_MAX / 2 / sizeof(double)) return LK_OUT_OF_MEMORY;
    cap *= 2;
  }
  if (cap > (size_t)INT32_MAX) { /* compressed rows index entries with ints */
    if (need > (size_t)INT32_MAX) return LK_CAPACITY_EXCEEDED;
    cap = (size_t)INT32_MAX;
  }
  int *col = lk_realloc(sp->col, cap * sizeof *col);
  if (!col) return LK_OUT_OF_MEMORY;
  sp->col = col;
  double *val = lk_realloc(sp->val, cap * sizeof *val);
  if (!val) return LK_OUT_OF_MEMORY;
  sp->val = val;
  sp->cap = cap;
  sp->grown++;
  return LK_OK;
}

static inline double seg_dot(const double *restrict a, const double *restrict y, int len) {
  double s = 0;
  for (int i = 0; i < len; i++) s += a[i] * y[i];
  return s;
}

/* Rows a tree has among rows[0..n), in count[tree] (sim.uf). */
static void count_by_tree(lk_sim_data *sd, const int *rows, int n, int *count) {
  for (int k = 0; k < n; k++) {
    const lk_row *R = &sd->row[rows[k]];
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++) count[R->tree[g]] = 0;
  }
  for (int k = 0; k < n; k++) {
    const lk_row *R = &sd->row[rows[k]];
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++) count[R->tree[g]]++;
  }
}

size_t lk_sim_delassus_entries(lk_data *d, const int *rows, int n) {
  lk_sim_data *sd = &d->sim;
  int *count = sd->uf;
  count_by_tree(sd, rows, n, count);
  size_t need = 0;
  for (int k = 0; k < n; k++) {
    const lk_row *R = &sd->row[rows[k]];
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++) need += (size_t)count[R->tree[g]];
  }
  return need;
}

lk_status lk_sim_delassus_csr(const lk_model *m, lk_data *d, const int *rows, int n,
                              lk_sim_sparse *sp) {
  lk_sim_data *sd = &d->sim;
  (void)m;
  if (n > sp->ncap) return LK_CAPACITY_EXCEEDED;
  /* Buckets of row segments by tree (as lk_sim_delassus_island): count
   * (uf), allot (island_of_tree: the cursor, then one past the end). */
  int *count = sd->uf, *cursor = sd->island_of_tree;
  count_by_tree(sd, rows, n, count);
  int total = 0;
  size_t need = 0;
  for (int k = 0; k < n; k++) {
    const lk_row *R = &sd->row[rows[k]];
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++) {
      int t = R->tree[g];
      need += (size_t)(count[t] < 0 ? -count[t] - 1 : count[t]);
      if (count[t] >= 0) { /* first visit: allot the bucket */
        cursor[t] = total;
        total += count[t];
        count[t] = -count[t] - 1; /* visited; the count is -count - 1 */
      }
    }
  }
  lk_status st = grow(sp, need);
  if (st) return st;
  int *brow = sd->seg_row;
  const double **bj = sd->seg_j, **by = sd->seg_y;
  for (int k = 0; k < n; k++) {
    const lk_row *R = &sd->row[rows[k]];
    size_t ofs = R->ofs;
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++) {
      int pos = cursor[R->tree[g]]++;
      brow[pos] = k;
      bj[pos] = sd->jval + ofs;
      by[pos] = sd->yval + ofs;
      ofs += (size_t)R->len[g];
    }
  }
  /* Row by row: merge the buckets of its trees (each sorted by row). */
  int *rp = sp->rowp;
  size_t e = 0;
  rp[0] = 0;
  for (int k = 0; k < n; k++) {
    const lk_row *R = &sd->row[rows[k]];
    int b0[2] = {0, 0}, b1[2] = {0, 0}, len[2] = {0, 0}, nt = 0;
    const double *Jk[2] = {NULL, NULL}, *Yk[2] = {NULL, NULL};
    size_t ofs = R->ofs;
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++, nt++) {
      int t = R->tree[g];
      b1[g] = cursor[t];
      b0[g] = b1[g] - (-count[t] - 1);
      len[g] = R->len[g];
      Jk[g] = sd->jval + ofs;
      Yk[g] = sd->yval + ofs;
      ofs += (size_t)R->len[g];
    }
    int p0 = b0[0], p1 = nt > 1 ? b0[1] : 0, e1 = nt > 1 ? b1[1] : 0;
    while (p0 < b1[0] || p1 < e1) {
      int c0 = p0 < b1[0] ? brow[p0] : INT32_MAX, c1 = p1 < e1 ? brow[p1] : INT32_MAX;
      int j = c0 < c1 ? c0 : c1;
      double s = 0;
      /* J of the lower row, Y of the higher: as the dense assembly */
      if (c0 == j) {
        s += j >= k ? seg_dot(Jk[0], by[p0], len[0]) : seg_dot(bj[p0], Yk[0], len[0]);
        p0++;
      }
      if (c1 == j) {
        s += j >= k ? seg_dot(Jk[1], by[p1], len[1]) : seg_dot(bj[p1], Yk[1], len[1]);
        p1++;
      }
      sp->col[e] = j;
      sp->val[e] = s;
      e++;
    }
    rp[k + 1] = (int)e;
  }
  sp->nnz = e;
  return LK_OK;
}
