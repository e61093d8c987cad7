/* The guess: an island answered by the impulses in hand, refined against
 * the factor kept from its last sticking trial (no matrix formed). */
#include <math.h>
#include <string.h>

#include "constraint/constraint_impl.h"
#include "lcp/lcp_layer.h"
#include "sim/island_solve.h"

/* A miss after u (sim.dvg) was formed on the island's DoFs: zero again. */
static int guess_missed(island *is, double *u) {
  lk_sim_zero_trees(is->sd, is->ntree, u);
  return lk_island_guess_outcome(is, 0);
}

/* The sticking trial answered by the impulses in hand, before any matrix
 * is formed: on an island of persisting, static contacts only (nothing
 * new, nothing sliding, no other rows), the last step's impulses z,
 * normals clamped to >= 0, with w = J M~^-1 J^T z + (ridge + cfm) z + b
 * from the rows (J^T z, one solve with the factor a tree, then J: no Y,
 * no n x n Delassus matrix), are the trial's answer when every row meets
 * its condition as
 * exactly as a fresh solve meets it -- within 10 ulps of 1 + max(|b_i|,
 * |(A z)_i|) -- and the friction fits its cones. "As exactly" matters:
 * redundant contacts make A singular and only the ridge (eps = 3e-10 of
 * the diagonal) picks their split, so a residual r leaves the split free
 * by r / eps; at the rounding floor that is what a fresh solve's own
 * rounding leaves (about 1e-7 of the impulses), where a tolerance of
 * 1e-13 would leave 0.3% on the 5-box stack. (The ridge's own scale is
 * the rows' diagonal from the last step that formed their Y.) A body at
 * rest on flat ground passes nearly every step, on a ramp every other one,
 * and the step then forms neither Y nor A and factors nothing; a stack or
 * a servoed grasp, whose answers move by 1e-13 a step, does not. Counted
 * as a solve (lcp_solves) and in guess_answers. */
#define GUESS_ULPS 10.0

/* The island's contacts after a try (hit 1, miss 0) or a wait (-1);
 * returns hit. */
int lk_island_guess_outcome(island *is, int hit) {
  lk_sim_data *sd = is->sd;
  for (int i = 0; i < is->n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    if (R->crow != 0) continue;
    lk_contact_mem *mem = &sd->cmem[R->cindex];
    if (hit < 0) {
      if (mem->guess_wait > 0) mem->guess_wait--;
    } else if (hit) {
      mem->guess_wait = mem->guess_backoff = 0;
    } else {
      mem->guess_backoff = (unsigned char)(mem->guess_backoff < 32 ? 2 * mem->guess_backoff + 1 : 63);
      mem->guess_wait = mem->guess_backoff;
    }
  }
  return hit > 0;
}

/* w = J M~^-1 J^T z + (ridge rw + cfm) z + b of the island's rows, from
 * the rows: u = M~^-1 J^T z (J^T z on the island's DoFs, zeroed first,
 * then one solve a tree; uf marks the trees done: free after
 * lk_sim_islands) into u, w into sd->w; *res the largest row residual
 * (friction rows: equalities), *scale the largest |b_i|, |(A z)_i|.
 * Returns 0 on a NaN. */
static int guess_w(island *is, double *u, double ridge, double *res, double *scale) {
  lk_sim_data *sd = is->sd;
  lk_data *d = is->d;
  const lk_model *m = is->m;
  const int n = is->n;
  lk_sim_island_velocity(m, d, is->rows, n, sd->z, is->ntree, u);
  double r_max = 0, s_max = 0;
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    double az = lk_rows_dot(d, is->rows[i], u), b = R->jv + R->bias;
    double w = az + (ridge * sd->rw[i] + m->opt.cfm) * sd->z[i] + b;
    sd->w[i] = w;
    double r = R->kind == LK_ROW_UNILATERAL ? lk_lcp_row_residual(sd->z[i], w, 0, INFINITY)
                                            : fabs(w); /* friction rows: equalities here */
    if (!(r <= INFINITY)) return 0;
    r_max = lk_maxd(r_max, r);
    s_max = lk_maxd(s_max, lk_maxd(fabs(b), fabs(az)));
  }
  *res = r_max;
  *scale = s_max;
  return 1;
}

/* Whether a guess's residual is as small as a fresh solve leaves it. */
static int guess_ok(double res, double scale) {
  return res <= GUESS_ULPS * LK_LCP_EPS * (1 + scale);
}

/* Kept factors of blocks up to this order also keep their inverse. */
#define KEPT_DENSE 32

/* The slot whose island has is's first row and row count (the rest of the
 * keys is refine's to check), or -1. */
static int kept_slot(const island *is) {
  const lk_sim_data *sd = is->sd;
  unsigned long long key0 = lk_sim_row_key(sd, &sd->row[is->rows[0]]);
  for (int s = 0; s < LK_SIM_KEPT_SLOTS; s++)
    if (sd->st->kept[s].n == is->n && sd->st->kept[s].key0 == key0) return s;
  return -1;
}

/* x <- (L D L^T)^-1 x with slot s's factor (lk_ldlt_solve's loops, D^-1
 * kept as such: a preconditioner need not divide). */
static void kept_solve(const lk_sim_data *sd, int s, double *x) {
  const lk_sim_kept *K = &sd->st->kept[s];
  const int k = K->k;
  const size_t ld = (size_t)k, o = (size_t)s * (size_t)sd->island_cap;
  const double *L = sd->fc_L + K->ofs, *dinv = sd->fc_d + o;
  const int *last = sd->fc_last + o;
  for (int j = 0; j < k; j++) {
    double xj = x[j];
    if (xj != 0.0) lk_lcp_axpy(x + j + 1, -xj, L + (size_t)j * ld + j + 1, last[j] - j);
  }
  for (int j = 0; j < k; j++) x[j] *= dinv[j];
  for (int j = k - 1; j >= 0; j--) x[j] -= lk_lcp_dot(L + (size_t)j * ld + j + 1, x + j + 1, last[j] - j);
}

/* Every slot given up, and all of fc_L free again; returns slot 0. */
static int kept_forget_all(lk_sim_scalars *st) {
  for (int t = 0; t < LK_SIM_KEPT_SLOTS; t++) st->kept[t] = (lk_sim_kept){0, 0, 0, 0, 0, 0};
  st->kept_top = 0;
  return 0;
}

/* After a sticking trial whose answer stands: its factor (the LCP layer's
 * last, when that was Dantzig's first try) into the island's slot, for
 * the next steps' refinement; else the island keeps none. Slots and their
 * room in fc_L are handed out in turn; when either runs out, every slot is
 * given up (the islands at rest each solve once more and keep again). */
void lk_island_keep_factor(island *is) {
  lk_sim_data *sd = is->sd;
  lk_sim_scalars *st = sd->st;
  lk_ldlt F;
  const int *cidx;
  lk_sim_journal_kept(sd); /* a failed step puts them back (journal.c) */
  const int n = is->n;
  int s = kept_slot(is);
  if (s >= 0) st->kept[s].n = 0; /* the island's old factor: replaced or gone */
  if (!is->plain || !lk_lcp_last_factor(sd->lcp, &F, &cidx) || F.k == 0) return;
  for (int i = 0; i < n; i++)
    if (sd->row[is->rows[i]].ckind != LK_CONSTRAINT_CONTACT) return;
  const size_t pool = (size_t)sd->island_cap * (size_t)sd->island_cap;
  const int k = F.k;
  const int dense = k <= KEPT_DENSE && 2 * (size_t)k * (size_t)k <= pool;
  const size_t need = (size_t)k * (size_t)k * (dense ? 2u : 1u);
  for (int t = 0; t < LK_SIM_KEPT_SLOTS && s < 0; t++)
    if (st->kept[t].n == 0) s = t;
  if (s < 0) s = kept_forget_all(st); /* out of slots: start over */
  if (st->kept[s].size < need) {      /* the slot's room is too small: new room */
    if (st->kept_top + need > pool) s = kept_forget_all(st); /* out of room */
    st->kept[s].ofs = st->kept_top;
    st->kept[s].size = need;
    st->kept_top += need;
  }
  const size_t ofs = st->kept[s].ofs;
  lk_sim_kept *K = &st->kept[s];
  const size_t o = (size_t)s * (size_t)sd->island_cap;
  for (int i = 0; i < n; i++) {
    sd->fc_key[o + i] = lk_sim_row_key(sd, &sd->row[is->rows[i]]);
    sd->fc_in[o + i] = 0;
  }
  double *L = sd->fc_L + ofs;
  for (int c = 0; c < k; c++) {
    int e = F.has_last ? F.last[c] : k - 1; /* column c's last nonzero */
    memcpy(L + (size_t)c * (size_t)k + c, F.L + (size_t)c * (size_t)F.ld + c,
           (size_t)(e - c + 1) * sizeof(double));
    sd->fc_last[o + c] = e;
    sd->fc_d[o + c] = 1.0 / F.d[c]; /* D^-1: refinement multiplies */
    sd->fc_col[o + c] = cidx[c];
    sd->fc_in[o + cidx[c]] = 1;
  }
  K->n = n;
  K->k = k;
  K->dense = 0;
  K->key0 = sd->fc_key[o];
  /* A small block's inverse, after the factor, column by column: each
   * refinement round is then one product of contiguous rows instead of
   * two triangular sweeps, each entry waiting on the last. */
  if (dense) {
    double *inv = L + (size_t)k * (size_t)k;
    for (int c = 0; c < k; c++) {
      double *x = sd->fc_x;
      for (int i = 0; i < k; i++) x[i] = i == c ? 1.0 : 0.0;
      kept_solve(sd, s, x);
      for (int i = 0; i < k; i++) inv[(size_t)i * (size_t)k + c] = x[i];
    }
    K->dense = 1;
  }
}

/* Iterative refinement of the impulses in hand (whose w guess_w just
 * formed) against the factor kept from the island's last sticking trial:
 * z_C -= F^-1 w_C on its clamped rows, w again from the rows, until the
 * residual is what a fresh solve leaves (at most REFINE_MAX rounds, each
 * a tenth of the last at least). The kept factor is of an earlier step's
 * matrix; a stack or a grasp at rest changes it by far less than its
 * conditioning amplifies, so each round gains digits, and nothing is
 * accepted but by guess_ok and trial_feasible. Requires the same rows
 * (contacts and their rows, in order) and the same clamped set: the
 * friction rows and the loaded normals. */
#define REFINE_MAX 4

static int refine(island *is, double *u, double ridge, double *res, double *scale) {
  lk_sim_data *sd = is->sd;
  const int n = is->n, s = kept_slot(is);
  if (s < 0) return 0;
  const lk_sim_kept *K = &sd->st->kept[s];
  const int k = K->k;
  const size_t o = (size_t)s * (size_t)sd->island_cap;
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    if (sd->fc_key[o + i] != lk_sim_row_key(sd, R)) return 0;
    int clamped = R->kind != LK_ROW_UNILATERAL || sd->z[i] > 0;
    if (clamped != sd->fc_in[o + i]) return 0;
  }
  const int *col = sd->fc_col + o;
  double *x = sd->fc_x;
  double prev = *res;
  for (int round = 0; round < REFINE_MAX; round++) {
    if (K->dense) {
      const double *inv = sd->fc_L + K->ofs + (size_t)k * (size_t)k;
      double *y = sd->fc_y;
      for (int c = 0; c < k; c++) y[c] = sd->w[col[c]];
      for (int c = 0; c < k; c++) x[c] = lk_lcp_dot(inv + (size_t)c * (size_t)k, y, k);
    } else {
      for (int c = 0; c < k; c++) x[c] = sd->w[col[c]];
      kept_solve(sd, s, x);
    }
    for (int c = 0; c < k; c++) sd->z[col[c]] -= x[c];
    if (!guess_w(is, u, ridge, res, scale)) break;
    if (guess_ok(*res, *scale)) return 1;
    if (!(*res <= 0.1 * prev)) break;
    prev = *res;
  }
  /* a miss: the impulses in hand again, as the solves expect them */
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    const lk_contact_mem *mem = &sd->cmem[R->cindex];
    sd->z[i] = mem->z[R->crow];
    if (R->kind == LK_ROW_UNILATERAL && !(sd->z[i] >= 0)) sd->z[i] = 0;
  }
  return 0;
}

/* Whether the island may be answered by its impulses in hand: every row a
 * persisting static contact's (whose diagonal is known), friction among
 * them; *wait the steps its guesses still wait (an island whose guesses
 * keep missing -- a servoed grasp: its answer moves by 1e-12 a step --
 * waits 1, 3, 7, .. 63 steps between tries); *nonzero whether the
 * impulses in hand (normals clamped) are not all zero. */
int lk_island_guessable(const island *is, int *wait, int *nonzero) {
  const lk_sim_data *sd = is->sd;
  int has_friction = 0;
  double zmax = 0;
  *wait = 0;
  *nonzero = 0;
  for (int i = 0; i < is->n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    if (R->ckind != LK_CONSTRAINT_CONTACT) return 0;
    const lk_contact_mem *mem = &sd->cmem[R->cindex];
    if (!mem->valid || mem->state != LK_FRICTION_STATIC || !(mem->adiag[R->crow] > 0)) return 0;
    if (mem->guess_wait > *wait) *wait = mem->guess_wait;
    if (R->kind == LK_ROW_FRICTION || R->kind == LK_ROW_BOX) has_friction = 1;
    double z = R->kind == LK_ROW_UNILATERAL && !(sd->z[i] >= 0) ? 0 : sd->z[i];
    zmax = lk_maxd(zmax, fabs(z));
  }
  *nonzero = zmax > 0;
  return has_friction;
}

/* The guess (the planner chose it: guessable, not waiting, impulses in
 * hand); returns whether it stands. */
int lk_island_guess(island *is, lk_sim_report *report) {
  lk_sim_data *sd = is->sd;
  int n = is->n;
  double dmax = 0;
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    if (R->kind == LK_ROW_UNILATERAL && !(sd->z[i] >= 0)) sd->z[i] = 0;
    /* the ridge's scale: the rows' diagonal when their Y was last formed
     * (the same body at rest: the same numbers) */
    dmax = lk_maxd(dmax, sd->cmem[R->cindex].adiag[R->crow]);
  }
  is->ntree = lk_sim_island_trees(sd, is->rows, n);
  lk_island_ridge_weights(is, 0);
  is->weighted = 1;
  double ridge = RIDGE * dmax;
  double *u = sd->dvg;
  double res, scale;
  int refined = 0;
  if (!guess_w(is, u, ridge, &res, &scale)) return guess_missed(is, u); /* NaN */
  if (!guess_ok(res, scale)) {
    refined = refine(is, u, ridge, &res, &scale);
    if (!refined) return guess_missed(is, u);
  }
  if (!lk_island_feasible(is)) return guess_missed(is, u);
  for (int i = 0; i < n; i++) {
    lk_row *R = &sd->row[is->rows[i]];
    sd->basis[i] = R->kind == LK_ROW_UNILATERAL ? lk_island_row_state(R, sd->z[i], sd->w[i], 0) : LK_LCP_BASIC;
    R->guessed = 1;
  }
  lk_island_guess_outcome(is, 1);
  report->lcp_solves++;
  report->guess_answers++;
  report->refined_answers += refined;
  double rel = res / (1 + scale);
  if (rel > report->lcp_residual) report->lcp_residual = rel;
  return 1;
}
