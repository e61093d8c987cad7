/* Islands: rows that share a tree are coupled through M^-1 and must be
 * solved together; rows that share none are independent LCPs. Union-find
 * over the trees the rows touch, numbered in order of first appearance so
 * the grouping is deterministic. Also Y = M^-1 J^T and J v* per row. */
#include <stdint.h>
#include <string.h>

#include "constraint/constraint_impl.h"
#include "sim/sim_internal.h"

static int find(int *uf, int x) {
  while (uf[x] != x) {
    uf[x] = uf[uf[x]];
    x = uf[x];
  }
  return x;
}

void lk_sim_islands(const lk_model *m, lk_data *d) {
  lk_sim_data *sd = &d->sim;
  int nrow = sd->st->nrow;
  for (int i = 0; i < m->nlink; i++) {
    sd->uf[i] = i;
    sd->island_of_tree[i] = -1;
  }
  for (int r = 0; r < nrow; r++) {
    const lk_row *R = &sd->row[r];
    if (R->tree[1] >= 0) {
      int a = find(sd->uf, R->tree[0]), b = find(sd->uf, R->tree[1]);
      if (a != b) {
        if (a < b)
          sd->uf[b] = a;
        else
          sd->uf[a] = b;
      }
    }
  }
  int nis = 0;
  for (int r = 0; r < nrow; r++) {
    int root = find(sd->uf, sd->row[r].tree[0]);
    if (sd->island_of_tree[root] < 0) sd->island_of_tree[root] = nis++;
    sd->row[r].island = sd->island_of_tree[root];
  }
  /* Counting sort of the rows by island, stable. */
  int *start = sd->island_start;
  memset(start, 0, (size_t)(nis + 1) * sizeof *start);
  for (int r = 0; r < nrow; r++) start[sd->row[r].island + 1]++;
  for (int i = 0; i < nis; i++) start[i + 1] += start[i];
  /* Place the rows; uf is free now and serves as per-island counters. */
  int *cursor = sd->island_rows;
  for (int i = 0; i < nis; i++) sd->uf[i] = 0;
  for (int r = 0; r < nrow; r++) {
    int is = sd->row[r].island;
    int loc = sd->uf[is]++;
    sd->rowloc[r] = loc;
    cursor[start[is] + loc] = r;
  }
  sd->st->nisland = nis;
}

/* M~^-1 of tree t (DoFs [v0, v0 + len)) into its block of minv, column by
 * column from the factor (symmetric: stored by rows or columns alike). */
static void small_tree_inverse(const lk_model *m, lk_data *d, int t, int v0, int len) {
  lk_sim_data *sd = &d->sim;
  double *Minv = sd->minv + sd->minv_ofs[t], *x = sd->xtmp;
  for (int c = 0; c < len; c++) {
    for (int i = 0; i < len; i++) x[v0 + i] = i == c ? 1.0 : 0.0;
    lk_dyn_solve_range(m, d, x, v0, v0 + len);
    for (int i = 0; i < len; i++) Minv[i * len + c] = x[v0 + i];
  }
  sd->minv_segs[t] = -1; /* computed this step */
}

/* Y = M~^-1 J^T of every row, tree segment by tree segment, and J v*. A
 * small tree (a free body: 6 DoFs) that carries at least as many row
 * segments as it has DoFs gets its inverse once (len solves) and each
 * segment a len x len product; every other segment a solve with the
 * factor. */
void lk_sim_prepare_rows(const lk_model *m, lk_data *d) {
  lk_sim_data *sd = &d->sim;
  double *x = sd->xtmp;
  for (int r = 0; r < sd->st->nrow; r++) {
    const lk_row *R = &sd->row[r];
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++) sd->minv_segs[R->tree[g]] = 0;
  }
  for (int r = 0; r < sd->st->nrow; r++) {
    const lk_row *R = &sd->row[r];
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++) sd->minv_segs[R->tree[g]]++;
  }
  for (int r = 0; r < sd->st->nrow; r++) {
    lk_row *R = &sd->row[r];
    const double *J = sd->jval + R->ofs;
    double *Y = sd->yval + R->ofs;
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++) {
      int t = R->tree[g], v0 = R->v0[g], len = R->len[g];
      if (sd->minv_ofs[t] != SIZE_MAX && sd->minv_segs[t] >= 2 * len) small_tree_inverse(m, d, t, v0, len);
      if (sd->minv_segs[t] < 0 && len == 6) {
        const double *Minv = sd->minv + sd->minv_ofs[t];
        for (int i = 0; i < 6; i++) {
          const double *row = Minv + i * 6;
          Y[i] = ((row[0] * J[0] + row[1] * J[1]) + (row[2] * J[2] + row[3] * J[3])) +
                 (row[4] * J[4] + row[5] * J[5]);
        }
      } else if (sd->minv_segs[t] < 0) {
        const double *Minv = sd->minv + sd->minv_ofs[t];
        for (int i = 0; i < len; i++) {
          const double *row = Minv + i * len;
          double s = 0;
          for (int j = 0; j < len; j++) s += row[j] * J[j];
          Y[i] = s;
        }
      } else {
        memcpy(x + v0, J, (size_t)len * sizeof *x);
        lk_dyn_solve_range(m, d, x, v0, v0 + len);
        memcpy(Y, x + v0, (size_t)len * sizeof *x);
      }
      J += len;
      Y += len;
    }
    R->jv = lk_rows_dot(d, r, sd->vstar);
  }
}

/* J_i . Y_j over the trees they share. */
double lk_sim_delassus_entry(const lk_data *d, int i, int j) {
  const lk_sim_data *sd = &d->sim;
  const lk_row *Ri = &sd->row[i], *Rj = &sd->row[j];
  double s = 0;
  size_t oi = Ri->ofs;
  for (int a = 0; a < 2 && Ri->tree[a] >= 0; a++) {
    size_t oj = Rj->ofs;
    for (int b = 0; b < 2 && Rj->tree[b] >= 0; b++) {
      if (Ri->tree[a] == Rj->tree[b]) {
        const double *Ji = sd->jval + oi, *Yj = sd->yval + oj;
        for (int k = 0; k < Ri->len[a]; k++) s += Ji[k] * Yj[k];
      }
      oj += (size_t)Rj->len[b];
    }
    oi += (size_t)Ri->len[a];
  }
  return s;
}

/* The island's Delassus matrix A (n x n, row-major) from its rows: tree by
 * tree, every pair of rows that touch a tree adds the dot product of their
 * segments there (J_a . Y_b). Costs sum over trees of k_t^2 n_t for k_t rows
 * on a tree of n_t DoFs, instead of n^2 segment matchings. */
void lk_sim_delassus_island(const lk_model *m, lk_data *d, const int *rows, int n, double *A) {
  lk_sim_data *sd = &d->sim;
  (void)m;
  memset(A, 0, (size_t)n * (size_t)n * sizeof *A);
  /* Bucket the row segments by tree: count, prefix, fill. */
  int *count = sd->uf; /* per link (tree roots), free at this point */
  int *start = sd->island_of_tree;
  for (int k = 0; k < n; k++) {
    const lk_row *R = &sd->row[rows[k]];
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++) count[R->tree[g]] = 0;
  }
  for (int k = 0; k < n; k++) {
    const lk_row *R = &sd->row[rows[k]];
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++) count[R->tree[g]]++;
  }
  int total = 0;
  for (int k = 0; k < n; k++) {
    const lk_row *R = &sd->row[rows[k]];
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++) {
      int t = R->tree[g];
      if (count[t] >= 0) { /* first visit: allot the bucket */
        start[t] = total;
        total += count[t];
        count[t] = -1;
      }
    }
  }
  int *bucket_row = sd->seg_row;
  const double **bucket_j = sd->seg_j, **bucket_y = sd->seg_y;
  for (int k = 0; k < n; k++) {
    const lk_row *R = &sd->row[rows[k]];
    size_t ofs = R->ofs;
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++) {
      int t = R->tree[g], pos = start[t]++;
      bucket_row[pos] = k;
      bucket_j[pos] = sd->jval + ofs;
      bucket_y[pos] = sd->yval + ofs;
      ofs += (size_t)R->len[g];
    }
  }
  /* start[t] now points one past its bucket; walk the buckets in order. */
  int pos = 0;
  while (pos < total) {
    const lk_row *R0 = &sd->row[rows[bucket_row[pos]]];
    int t = -1, len = 0;
    /* the tree of this bucket entry: the segment whose values start here */
    for (int g = 0; g < 2 && R0->tree[g] >= 0; g++) {
      size_t o = R0->ofs + (g == 1 ? (size_t)R0->len[0] : 0);
      if (sd->jval + o == bucket_j[pos]) {
        t = R0->tree[g];
        len = R0->len[g];
      }
    }
    int end = start[t];
    for (int a = pos; a < end; a++) {
      const double *Ja = bucket_j[a];
      int ia = bucket_row[a];
      /* Two dot products at a time (independent sums, each in index order
       * as one at a time would add it: the same bits, twice the
       * instruction-level parallelism). */
      int b = a;
      for (; b + 1 < end; b += 2) {
        const double *Y0 = bucket_y[b], *Y1 = bucket_y[b + 1];
        double s0 = 0, s1 = 0;
        if (len == 6) { /* a free body: the loop unrolled, same order */
          for (int i = 0; i < 6; i++) {
            s0 += Ja[i] * Y0[i];
            s1 += Ja[i] * Y1[i];
          }
        } else {
          for (int i = 0; i < len; i++) {
            s0 += Ja[i] * Y0[i];
            s1 += Ja[i] * Y1[i];
          }
        }
        int i0 = bucket_row[b], i1 = bucket_row[b + 1];
        A[ia * n + i0] += s0;
        if (i0 != ia) A[i0 * n + ia] += s0;
        A[ia * n + i1] += s1;
        if (i1 != ia) A[i1 * n + ia] += s1;
      }
      for (; b < end; b++) {
        const double *Yb = bucket_y[b];
        double s = 0;
        for (int i = 0; i < len; i++) s += Ja[i] * Yb[i];
        int ib = bucket_row[b];
        A[ia * n + ib] += s;
        if (ib != ia) A[ib * n + ia] += s;
      }
    }
    pos = end;
  }
}
