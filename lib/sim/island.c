/* Islands: rows that share a tree are coupled through M^-1 and must be
 * solved together; rows that share none are independent LCPs. Union-find
 * over the trees the rows touch, numbered in order of first appearance so
 * the grouping is deterministic. Also Y = M^-1 J^T and J v* per row. */
#include <stdint.h>
#include <string.h>

#include "constraint/constraint_impl.h"
#include "sim/sim_internal.h"

/* GCC's and Clang's vector types, where the target has SSE2 (x86-64
 * always): two doubles a register. */
#if defined(__GNUC__) && defined(__SSE2__)
typedef double v2d __attribute__((vector_size(16)));
static inline v2d load2(const double *p) {
  v2d v;
  memcpy(&v, p, sizeof v);
  return v;
}
#endif

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

/* M~^-1 of tree t (DoFs [v0, v0 + len)) into its block of minv, from the
 * factor. */
static void small_tree_inverse(const lk_model *m, lk_data *d, int t, int v0, int len) {
  lk_sim_data *sd = &d->sim;
  lk_dyn_inverse_range(m, d, v0, len, sd->minv + sd->minv_ofs[t]);
  sd->minv_segs[t] = -1; /* computed this step */
}

/* Y = Minv J for a free body's 6 x 6 symmetric Minv (exactly symmetric:
 * lk_dyn_inverse_range mirrors it), Y_i = ((M_i0 J_0 + M_i1 J_1) +
 * (M_i2 J_2 + M_i3 J_3)) + (M_i4 J_4 + M_i5 J_5). With GCC's or Clang's
 * vector types Y_i and Y_i+1 are the lanes of one register, M_ij and
 * M_i+1,j read from row j (by symmetry): the same sums in the same order. */
static inline void minv6_apply(const double *restrict Minv, const double *restrict J,
                               double *restrict Y) {
#if defined(__GNUC__) && defined(__SSE2__)
  for (int i = 0; i < 6; i += 2) {
    const double *c = Minv + i; /* (M_ji, M_j,i+1) at c + 6 j */
    v2d y = ((load2(c) * J[0] + load2(c + 6) * J[1]) + (load2(c + 12) * J[2] + load2(c + 18) * J[3])) +
            (load2(c + 24) * J[4] + load2(c + 30) * J[5]);
    memcpy(Y + i, &y, sizeof y);
  }
#else
  for (int i = 0; i < 6; i++) {
    const double *row = Minv + i * 6;
    Y[i] = ((row[0] * J[0] + row[1] * J[1]) + (row[2] * J[2] + row[3] * J[3])) +
           (row[4] * J[4] + row[5] * J[5]);
  }
#endif
}

/* J v* of every row, and how many row segments each tree carries this
 * step (whether a small tree's explicit inverse pays: lk_sim_rows_y). */
void lk_sim_prepare_rows(const lk_model *m, lk_data *d) {
  lk_sim_data *sd = &d->sim;
  (void)m;
  for (int r = 0; r < sd->st->nrow; r++) {
    const lk_row *R = &sd->row[r];
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++) sd->minv_segs[R->tree[g]] = 0;
  }
  for (int r = 0; r < sd->st->nrow; r++) {
    lk_row *R = &sd->row[r];
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++) sd->minv_segs[R->tree[g]]++;
    R->jv = lk_rows_dot(d, r, sd->vstar);
  }
}

/* Y = M~^-1 J^T of rows rows[0..n) (all rows 0..n when rows is NULL),
 * tree segment by tree segment, after lk_sim_prepare_rows. A small tree (a
 * free body: 6 DoFs) that carries at least twice as many row segments as
 * it has DoFs gets its inverse once a step and each segment a len x len
 * product; every other segment a solve with the factor. A tree's rows are
 * all in one island, so one call per island sees them all. */
void lk_sim_rows_y(const lk_model *m, lk_data *d, const int *rows, int n) {
  lk_sim_data *sd = &d->sim;
  double *x = sd->xtmp;
  for (int k = 0; k < n; k++) {
    lk_row *R = &sd->row[rows ? rows[k] : k];
    const double *J = sd->jval + R->ofs;
    double *Y = sd->yval + R->ofs;
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++) {
      int t = R->tree[g], v0 = R->v0[g], len = R->len[g];
      if (sd->minv_ofs[t] != SIZE_MAX && sd->minv_segs[t] >= 2 * len) small_tree_inverse(m, d, t, v0, len);
      if (sd->minv_segs[t] < 0 && len == 6) {
        minv6_apply(sd->minv + sd->minv_ofs[t], J, Y);
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
    R->guessed = 0;
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

/* J_a . Y_b over a segment of length len, summed in index order (the
 * order the products have always had: the matrix does not change by a bit
 * with the kernel; the arm scene of bench/contact, whose sliding box has an
 * indeterminate floor load, is sensitive to the last bit of A). */
static inline double seg_dot(const double *restrict a, const double *restrict y, int len) {
  double s = 0;
  for (int i = 0; i < len; i++) s += a[i] * y[i];
  return s;
}

/* Four products of free-body segments (len 6) at once: out = (J0.Y0,
 * J0.Y1, J1.Y0, J1.Y1), each summed in index order. With GCC's or Clang's
 * vector types the two products of a row J share one register, a lane
 * each: the same operations as one at a time, with the loads of J and Y
 * shared by four products. */
static inline void seg_dot6_2x2(const double *restrict J0, const double *restrict J1,
                                const double *restrict Y0, const double *restrict Y1,
                                double out[4]) {
#if defined(__GNUC__) && defined(__SSE2__)
  v2d a = {0, 0}, b = {0, 0};
  for (int i = 0; i < 6; i++) {
    v2d y = {Y0[i], Y1[i]};
    a += J0[i] * y;
    b += J1[i] * y;
  }
  out[0] = a[0];
  out[1] = a[1];
  out[2] = b[0];
  out[3] = b[1];
#else
  out[0] = seg_dot(J0, Y0, 6);
  out[1] = seg_dot(J0, Y1, 6);
  out[2] = seg_dot(J1, Y0, 6);
  out[3] = seg_dot(J1, Y1, 6);
#endif
}

/* A[i][j] and A[j][i] += s (once on the diagonal). */
static inline void add_sym(double *A, int n, int i, int j, double s) {
  A[i * n + j] += s;
  if (i != j) A[j * n + i] += s;
}

/* The products of one tree's bucket of cnt row segments (island rows
 * brow[], increasing; J values bj[], Y values by[], all of length len):
 * every pair a <= b adds J_a . Y_b to A (Y_a . J_b is the same number:
 * M~^-1 is symmetric). Free bodies two rows against two at a time. */
static void bucket_products(const int *brow, const double *const *bj, const double *const *by,
                            int cnt, int len, int n, double *A) {
  if (len <= 2) { /* a one- or two-DoF tree (a gripper's fingers): unrolled, as seg_dot sums */
    for (int a = 0; a < cnt; a++) {
      const double *Ja = bj[a];
      double ja0 = Ja[0], ja1 = len == 2 ? Ja[1] : 0.0;
      int ia = brow[a];
      for (int b = a; b < cnt; b++) {
        const double *Yb = by[b];
        double x = 0.0 + ja0 * Yb[0];
        if (len == 2) x += ja1 * Yb[1];
        add_sym(A, n, ia, brow[b], x);
      }
    }
    return;
  }
  if (len != 6) {
    for (int a = 0; a < cnt; a++)
      for (int b = a; b < cnt; b++) add_sym(A, n, brow[a], brow[b], seg_dot(bj[a], by[b], len));
    return;
  }
  int a = 0;
  double s[4];
  for (; a + 2 <= cnt; a += 2) {
    const double *J0 = bj[a], *J1 = bj[a + 1];
    int i0 = brow[a], i1 = brow[a + 1];
    /* the diagonal block: (a, a), (a, a+1), (a+1, a+1); J_{a+1} . Y_a is
     * not used (its mirror J_a . Y_{a+1} is) */
    seg_dot6_2x2(J0, J1, by[a], by[a + 1], s);
    add_sym(A, n, i0, i0, s[0]);
    add_sym(A, n, i0, i1, s[1]);
    add_sym(A, n, i1, i1, s[3]);
    int b = a + 2;
    for (; b + 2 <= cnt; b += 2) {
      int k0 = brow[b], k1 = brow[b + 1];
      seg_dot6_2x2(J0, J1, by[b], by[b + 1], s);
      add_sym(A, n, i0, k0, s[0]);
      add_sym(A, n, i0, k1, s[1]);
      add_sym(A, n, i1, k0, s[2]);
      add_sym(A, n, i1, k1, s[3]);
    }
    for (; b < cnt; b++) {
      add_sym(A, n, i0, brow[b], seg_dot(J0, by[b], 6));
      add_sym(A, n, i1, brow[b], seg_dot(J1, by[b], 6));
    }
  }
  if (a < cnt) add_sym(A, n, brow[a], brow[a], seg_dot(bj[a], by[a], 6));
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
    bucket_products(bucket_row + pos, bucket_j + pos, bucket_y + pos, end - pos, len, n, A);
    pos = end;
  }
}
