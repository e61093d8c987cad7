/* Islands: rows that share a tree are coupled through M^-1 and must be
 * solved together; rows that share none are independent LCPs. Union-find
 * over the trees the rows touch, numbered in order of first appearance so
 * the grouping is deterministic. Also Y = M^-1 J^T and J v* per row. */
#include <stdint.h>
#include <string.h>

#include "constraint/constraint_impl.h"
#include "core/simd.h"
#include "sim/sim_internal.h"


static int find(int *uf, int x) {
  while (uf[x] != x) {
    uf[x] = uf[uf[x]];
    x = uf[x];
  }
  return x;
}

/* A gap below this share of the contact tolerance (1e-10 m by default) is
 * touching to the collision's round-off: a can rocking on a pad alternates
 * its load between two lines at gaps of 1e-11 m, which would be set aside
 * and taken back in step after step (each time solving the island again).
 * The idle corners of a tilted face pressed on a pad (bench/grasp) lie at
 * 1e-8 to 5e-5 m. */
#define ASIDE_GAP 1e-6

/* Whether the contact whose normal row is r is speculative and its gap
 * stays open: a geometry contact found within the margin (a gap beyond
 * ASIDE_GAP of the tolerance), new, with J v* + bias >= 0 on its normal
 * row (the free motion leaves it open), or one that carried nothing last
 * step and would stay open at the velocity it has. Such a contact's rows
 * are set aside: they join no island (margins merge no islands) and make
 * no rows of any solve; lk_sim_solve_islands checks after the solve that
 * each gap indeed stays open at the velocities the islands produced, and
 * takes back in any that does not. */
static int aside_candidate(const lk_model *m, lk_data *d, int r) {
  lk_sim_data *sd = &d->sim;
  lk_row *R = &sd->row[r];
  if (R->ckind != LK_CONSTRAINT_CONTACT || R->crow != 0 || R->kind != LK_ROW_UNILATERAL) return 0;
  const lk_contact_report *c = &sd->contact[R->cindex];
  if (c->geom < 0 || !(c->depth < -ASIDE_GAP * m->opt.contact_tolerance)) return 0;
  /* A contact that carried a load last step rests there: its gap is held
   * by its own impulse, which setting it aside would take away (and the
   * check give back, at the cost of a second solve: bench/motion's
   * capsule heap took 4 times longer with them). */
  const lk_contact_mem *mem = &sd->cmem[R->cindex];
  if (mem->valid && mem->z[0] != 0) return 0;
  /* A new one when the free motion leaves it open; one that carried
   * nothing last step when the velocity that step left it with does:
   * held apart by the body's other contacts (the idle corners of a face
   * pressed at a slight tilt). */
  if (mem->valid) return lk_rows_dot(d, r, d->v) + R->bias >= 0;
  R->jv = lk_rows_dot(d, r, sd->vstar);
  return R->jv + R->bias >= 0;
}

/* The islands; with prepare also lk_sim_prepare_rows's J v* and segment
 * counts, in the same pass over the rows. aside: 0 every row is grouped;
 * 1 each speculative contact that its free motion does not close is set
 * aside (R->aside = 1, aside_candidate); 2 the rows marked so stay aside.
 * Rows set aside follow the islands' rows in island_rows (from
 * island_start[nisland] to nrow), R->island -1. */
static void islands(const lk_model *m, lk_data *d, int prepare, int aside) {
  lk_sim_data *sd = &d->sim;
  int nrow = sd->st->nrow;
  if (prepare) memset(sd->minv_segs, 0, (size_t)m->nlink * sizeof *sd->minv_segs);
  for (int i = 0; i < m->nlink; i++) {
    sd->uf[i] = i;
    sd->island_of_tree[i] = -1;
  }
  /* A contact's rows share their trees: each pair joined once. A
   * contact's rows are consecutive, its normal row first. */
  int last0 = -1, last1 = -1, cur = -1, cur_aside = 0;
  for (int r = 0; r < nrow; r++) {
    lk_row *R = &sd->row[r];
    if (aside == 1) {
      if (R->ckind == LK_CONSTRAINT_CONTACT) {
        if (R->crow == 0 || R->cindex != cur) {
          cur = R->cindex;
          cur_aside = aside_candidate(m, d, r);
        }
        R->aside = cur_aside;
      } else {
        R->aside = 0;
      }
    }
    if (aside && R->aside == 1) continue;
    if (R->tree[0] == last0 && R->tree[1] == last1) continue;
    last0 = R->tree[0];
    last1 = R->tree[1];
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
  /* Number the islands and count their rows in one pass over the rows;
   * each row's island also goes to rowloc (compact), so that placing the
   * rows does not read the row records again. Islands are at most the
   * trees (links) and the rows. */
  int *start = sd->island_start, *isl = sd->rowloc;
  int nmax = nrow < m->nlink ? nrow : m->nlink;
  memset(start, 0, (size_t)(nmax + 1) * sizeof *start);
  int nis = 0, last = -1, last_island = -1;
  for (int r = 0; r < nrow; r++) {
    lk_row *R = &sd->row[r];
    if (aside && R->aside == 1) {
      R->island = -1;
      isl[r] = -1;
      if (prepare) R->jv = lk_rows_dot(d, r, sd->vstar);
      continue;
    }
    if (R->tree[0] != last) {
      last = R->tree[0];
      int root = find(sd->uf, last);
      if (sd->island_of_tree[root] < 0) sd->island_of_tree[root] = nis++;
      last_island = sd->island_of_tree[root];
    }
    R->island = last_island;
    isl[r] = last_island;
    start[last_island + 1]++;
    if (prepare) {
      for (int g = 0; g < 2 && R->tree[g] >= 0; g++) sd->minv_segs[R->tree[g]]++;
      R->jv = lk_rows_dot(d, r, sd->vstar);
    }
  }
  /* Counting sort of the rows by island, stable. */
  for (int i = 0; i < nis; i++) start[i + 1] += start[i];
  /* Place the rows; uf is free now and serves as per-island counters. */
  int *cursor = sd->island_rows, grouped = start[nis], k = 0;
  for (int i = 0; i < nis; i++) sd->uf[i] = 0;
  for (int r = 0; r < nrow; r++) {
    int is = isl[r];
    if (is < 0) {
      sd->rowloc[r] = k;
      cursor[grouped + k++] = r;
      continue;
    }
    int loc = sd->uf[is]++;
    sd->rowloc[r] = loc;
    cursor[start[is] + loc] = r;
  }
  sd->st->nisland = nis;
}
/* Each tree once, in order of first appearance among the rows (uf marks
 * them: free after lk_sim_islands). */
int lk_sim_island_trees(lk_sim_data *sd, const int *rows, int n) {
  int nt = 0;
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[rows[i]];
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++) sd->uf[R->tree[g]] = 0;
  }
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[rows[i]];
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++)
      if (!sd->uf[R->tree[g]]) {
        sd->uf[R->tree[g]] = 1;
        sd->gtree[2 * nt] = R->v0[g];
        sd->gtree[2 * nt + 1] = R->len[g];
        nt++;
      }
  }
  return nt;
}

void lk_sim_zero_trees(const lk_sim_data *sd, int nt, double *u) {
  for (int t = 0; t < nt; t++) memset(u + sd->gtree[2 * t], 0, (size_t)sd->gtree[2 * t + 1] * sizeof *u);
}

void lk_sim_island_velocity(const lk_model *m, lk_data *d, const int *rows, int n,
                            const double *z, int nt, double *u) {
  const lk_sim_data *sd = &d->sim;
  lk_sim_zero_trees(sd, nt, u);
  for (int i = 0; i < n; i++)
    if (z[i] != 0) lk_rows_axpy(d, rows[i], z[i], 0, u);
  for (int t = 0; t < nt; t++)
    lk_dyn_solve_range(m, d, u, sd->gtree[2 * t], sd->gtree[2 * t] + sd->gtree[2 * t + 1]);
}

void lk_sim_islands(const lk_model *m, lk_data *d) { islands(m, d, 0, 0); }

void lk_sim_islands_prepare(const lk_model *m, lk_data *d) {
  /* the smoothed law solves every row of an island as one boxed LCP */
  islands(m, d, 1, m->opt.friction_law != LK_FRICTION_SMOOTHED);
}

void lk_sim_islands_regroup(const lk_model *m, lk_data *d) { islands(m, d, 0, 2); }

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
#if LK_HAVE_V2D
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
  /* every tree's count from zero (only the rows' trees are read) */
  memset(sd->minv_segs, 0, (size_t)m->nlink * sizeof *sd->minv_segs);
  for (int r = 0; r < sd->st->nrow; r++) {
    lk_row *R = &sd->row[r];
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++) sd->minv_segs[R->tree[g]]++;
    R->jv = lk_rows_dot(d, r, sd->vstar);
  }
}

/* Y = M~^-1 J on one tree's DoFs [v0, v0 + len), one solve. */
static void solve_segment(const lk_model *m, lk_data *d, const double *J, double *Y, int v0,
                          int len) {
  double *x = d->sim.xtmp;
  memcpy(x + v0, J, (size_t)len * sizeof *x);
  lk_dyn_solve_range(m, d, x, v0, v0 + len);
  memcpy(Y, x + v0, (size_t)len * sizeof *x);
}

/* Y = M~^-1 J^T of rows rows[0..n) (all rows 0..n when rows is NULL),
 * tree segment by tree segment, after lk_sim_prepare_rows. A small tree (a
 * free body: 6 DoFs) that carries at least twice as many row segments as
 * it has DoFs gets its inverse once a step and each segment a len x len
 * product. Every other tree's segments are solved with the factor, one
 * by one, or where a tree of short branches carries at least
 * LK_SIM_YBLOCK_MIN of them (sim_data.h), LK_SIM_YBLOCK side by side a
 * pass (lk_dyn_solve_block: on such a tree, as MuJoCo's humanoid, most of
 * a single solve is the loops' overhead, which a block pays once), in the
 * order of their last non-zero DoF, so that a block's columns end near
 * each other (the solve's first half stops at the last). A tree's rows
 * are all in one island, so one call per island sees them all. */
void lk_sim_rows_y(const lk_model *m, lk_data *d, const int *rows, int n) {
  lk_sim_data *sd = &d->sim;
  int *tree_of = sd->ytree_of; /* per root link: its place among the trees */
  int ntree = 0, nseg = 0, maxlen = 0;
  int any = 0; /* a tree's segments wait for the blocks */
  for (int pass = 0; pass < 1 + any; pass++)
    for (int k = 0; k < n; k++) {
      lk_row *R = &sd->row[rows ? rows[k] : k];
      size_t ofs = R->ofs;
      for (int g = 0; g < 2 && R->tree[g] >= 0; ofs += (size_t)R->len[g], g++) {
        const int t = R->tree[g], len = R->len[g];
        const double *J = sd->jval + ofs;
        if (pass == 1) { /* a segment for the blocks: its tree, its end */
          if (!(sd->minv_segs[t] >= LK_SIM_YBLOCK_MIN && sd->yblock_ok[t])) continue;
          if (tree_of[t] < 0) {
            sd->ytree_v0[ntree] = R->v0[g];
            sd->ytree_len[ntree] = len;
            tree_of[t] = ntree++;
            if (len > maxlen) maxlen = len;
          }
          int e = len - 1;
          while (e >= 0 && J[e] == 0) e--;
          sd->yofs[nseg] = ofs;
          sd->ykey[2 * nseg] = tree_of[t];
          sd->ykey[2 * nseg + 1] = e + 1;
          nseg++;
          continue;
        }
        if (sd->minv_ofs[t] != SIZE_MAX && sd->minv_segs[t] >= 2 * len)
          small_tree_inverse(m, d, t, R->v0[g], len);
        double *Y = sd->yval + ofs;
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
        } else if (sd->minv_segs[t] >= LK_SIM_YBLOCK_MIN && sd->yblock_ok[t]) {
          tree_of[t] = -1;
          any = 1;
        } else {
          solve_segment(m, d, J, Y, R->v0[g], len);
        }
      }
      R->guessed = 0;
    }
  if (nseg == 0) return;
  /* by tree, then by end: two stable counting sorts (ends 0..maxlen) */
  int *cnt = sd->ycount, *tmp = sd->yorder + nseg, *order = sd->yorder;
  for (int key = 1; key >= 0; key--) {
    const int nk = key ? maxlen + 1 : ntree;
    memset(cnt, 0, (size_t)(nk + 1) * sizeof *cnt);
    int *from = key ? NULL : tmp, *to = key ? tmp : order;
    for (int u = 0; u < nseg; u++) cnt[sd->ykey[2 * (from ? from[u] : u) + key] + 1]++;
    for (int v = 0; v < nk; v++) cnt[v + 1] += cnt[v];
    for (int u = 0; u < nseg; u++) {
      int sg = from ? from[u] : u;
      to[cnt[sd->ykey[2 * sg + key]]++] = sg;
    }
  }
  for (int u = 0; u < nseg;) {
    const int a = sd->ykey[2 * order[u]], v0 = sd->ytree_v0[a], len = sd->ytree_len[a];
    int nr = 0, end = 0;
    while (u + nr < nseg && nr < LK_SIM_YBLOCK && sd->ykey[2 * order[u + nr]] == a) nr++;
    if (nr < LK_SIM_YBLOCK_MIN) { /* a last few: one by one */
      for (int r = 0; r < nr; r++)
        solve_segment(m, d, sd->jval + sd->yofs[order[u + r]], sd->yval + sd->yofs[order[u + r]],
                      v0, len);
      u += nr;
      continue;
    }
    double *X = sd->yblock;
    for (int r = 0; r < nr; r++) {
      const int sg = order[u + r];
      const double *J = sd->jval + sd->yofs[sg];
      for (int i = 0; i < len; i++) X[(size_t)i * (size_t)nr + r] = J[i];
      if (sd->ykey[2 * sg + 1] > end) end = sd->ykey[2 * sg + 1];
    }
    lk_dyn_solve_block(m, d, X, nr, v0, v0 + len, v0 + end - 1, sd->yacc);
    for (int r = 0; r < nr; r++) {
      double *Y = sd->yval + sd->yofs[order[u + r]];
      for (int i = 0; i < len; i++) Y[i] = X[(size_t)i * (size_t)nr + r];
    }
    u += nr;
  }
  /* (tree_of is -1 again for the next call's trees: set in its first pass) */
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

/* A[i][j] and A[j][i] += s (once on the diagonal). */
static inline void add_sym(double *A, int n, int i, int j, double s) {
  A[(size_t)i * (size_t)n + j] += s;
  if (i != j) A[(size_t)j * (size_t)n + i] += s;
}

/* Width of a bucket's Y panel for cnt segments: even, with two columns of
 * zeros past the last so that a block of 4 columns from any even column
 * below cnt stays inside. */
static inline int panel_width(int cnt) { return ((cnt + 1) & ~1) + 2; }

#if LK_HAVE_V2D
#define LK_ALWAYS_INLINE inline __attribute__((always_inline))
/* A row-major += of two lanes, A[0..2) += v. */
static inline void add2(double *A, v2d v) {
  v2d a;
  memcpy(&a, A, sizeof a);
  a += v;
  memcpy(A, &a, sizeof a);
}

/* The products of a small tree's bucket (len <= LK_SIM_SMALL_TREE: free
 * bodies, fingers) as a small matrix product: Y packed by DoF into a panel
 * P (P[k w + b] = Y_b[k]), then blocks of 2 rows by 4 columns, the 8 sums
 * held in 4 registers of two lanes while k runs. A bucket of consecutive
 * rows (a contact's rows, the contacts of one body: the usual case) adds
 * each block and its transpose two lanes at a time; any other bucket entry
 * by entry. Inlined with len a constant for free bodies, so that the loop
 * over k unrolls. */
static LK_ALWAYS_INLINE void panel_products(const int *brow, const double *const *bj,
                                            const double *const *by, int cnt, const int len,
                                            int n, double *A, double *P) {
  static const double zero[LK_SIM_SMALL_TREE]; /* J of the row past an odd count */
  const int w = panel_width(cnt);
  for (int b = 0; b < w; b++) {
    const double *y = b < cnt ? by[b] : zero;
#pragma GCC unroll 8
    for (int k = 0; k < len; k++) P[(size_t)k * (size_t)w + b] = y[k];
  }
  const int consecutive = brow[cnt - 1] - brow[0] == cnt - 1; /* brow increases */
  for (int a = 0; a < cnt; a += 2) {
    const int two = a + 1 < cnt;
    const double *J0 = bj[a], *J1 = two ? bj[a + 1] : zero;
    const int i0 = brow[a], i1 = two ? brow[a + 1] : -1;
    for (int b = a; b < cnt; b += 4) {
      v2d c00 = {0, 0}, c01 = {0, 0}, c10 = {0, 0}, c11 = {0, 0};
      const double *p = P + b;
#pragma GCC unroll 8
      for (int k = 0; k < len; k++, p += w) {
        v2d y0 = load2(p), y1 = load2(p + 2);
        v2d j0 = {J0[k], J0[k]}, j1 = {J1[k], J1[k]};
        c00 += j0 * y0;
        c01 += j0 * y1;
        c10 += j1 * y0;
        c11 += j1 * y1;
      }
      if (consecutive && b + 4 <= cnt) { /* two, and the 4 columns inside */
        const size_t j0 = (size_t)brow[b], nn = (size_t)n;
        double *A0 = A + (size_t)i0 * nn + j0, *A1 = A0 + nn;
        add2(A0 + 2, c01);
        add2(A1 + 2, c11);
        if (b > a) {
          add2(A0, c00);
          add2(A1, c10);
          add2(A + j0 * nn + i0, (v2d){c00[0], c10[0]});
          add2(A + (j0 + 1) * nn + i0, (v2d){c00[1], c10[1]});
        } else { /* rows a, a+1 by columns a, a+1: (a+1, a) is (a, a+1) */
          add2(A0, c00);
          A1[0] += c00[1];
          A1[1] += c10[1];
        }
        add2(A + (j0 + 2) * nn + i0, (v2d){c01[0], c11[0]});
        add2(A + (j0 + 3) * nn + i0, (v2d){c01[1], c11[1]});
      } else {
        const double s0[4] = {c00[0], c00[1], c01[0], c01[1]};
        const double s1[4] = {c10[0], c10[1], c11[0], c11[1]};
        for (int q = 0; q < 4 && b + q < cnt; q++) {
          const int j = brow[b + q];
          add_sym(A, n, i0, j, s0[q]);
          if (two && b + q > a) add_sym(A, n, i1, j, s1[q]);
        }
      }
    }
  }
}
#endif

/* The products of one tree's bucket of cnt row segments (island rows
 * brow[], increasing; J values bj[], Y values by[], all of length len):
 * every pair a <= b adds J_a . Y_b to A[brow[a]][brow[b]] and to its
 * mirror (Y_a . J_b is the same number: M~^-1 is symmetric). Each product is summed in index order,
 * from 0, as seg_dot does, whatever the kernel: A does not change by a bit
 * with it (the arm scene of bench/contact, whose sliding box has an
 * indeterminate floor load, is sensitive to the last bit of A). */
static void bucket_products(const int *brow, const double *const *bj, const double *const *by,
                            int cnt, int len, int n, double *A, double *P) {
#if LK_HAVE_V2D
  if (len == 6) {
    panel_products(brow, bj, by, cnt, 6, n, A, P);
    return;
  }
  if (len <= LK_SIM_SMALL_TREE) {
    panel_products(brow, bj, by, cnt, len, n, A, P);
    return;
  }
#else
  (void)P;
#endif
  /* J_a's trailing zeros left out (a contact on a chain's middle link
   * has none on the links beyond it: the 10-link chain's products halve);
   * a sum of zero terms changes no bit of what comes before it. */
  for (int a = 0; a < cnt; a++) {
    int la = len;
    while (la > 0 && bj[a][la - 1] == 0.0) la--;
    for (int b = a; b < cnt; b++) add_sym(A, n, brow[a], brow[b], seg_dot(bj[a], by[b], la));
  }
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
    bucket_products(bucket_row + pos, bucket_j + pos, bucket_y + pos, end - pos, len, n, A, sd->ypanel);
    pos = end;
  }
}
