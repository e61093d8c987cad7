/* One LCP per island, with static/dynamic friction and the isotropic cone.
 *
 * Island rows are the unknown impulses z of w = A z + b, A = J M^-1 J^T the
 * Delassus matrix, b = J v* + bias. Two ways to solve it:
 *
 *  Dantzig  the boxed LCP directly: unilateral rows [0, inf), bilateral
 *           rows free, dry friction [-F h, F h], friction rows with
 *           friction-index bounds |z| <= mu z_normal (ODE's findex).
 *  Lemke    a standard (mixed) LCP in the Stewart-Trinkle form (Stewart &
 *           Trinkle 1996; Anitescu & Potra 1997): each friction row z is
 *           split into z = b+ - b- with a slip slack s,
 *              0 <= b+  _|_  w_z + s >= 0
 *              0 <= b-  _|_ -w_z + s >= 0
 *              0 <= s   _|_  mu z_n - b+ - b- >= 0
 *           (a dry-friction row the same with the constant bound F h), and
 *           a pyramid tangent pair becomes cone_edges edges d_j with one
 *           slack: 0 <= b_j _|_ d_j . w_t + s, 0 <= s _|_ mu z_n - sum b_j.
 *
 * Friction, each solve followed by two checks, re-solving until neither
 * changes anything (friction_iterations passes at most):
 *  - a static contact that slips switches to dynamic (mu_dynamic) at once;
 *  - with the circle cone, each tangent pair (and rolling pair) must obey
 *    the isotropic law: a sticking pair |f| <= mu f_n, a sliding pair
 *    f = -mu f_n v/|v|. If not, the pair's tangent basis is rotated so that
 *    its first axis lies along the friction (or against the slip) and the
 *    island is solved again. At the fixed point the box bound on the first
 *    axis is exactly the disk bound, so the result is Coulomb's isotropic
 *    law with maximal dissipation, not the box's sqrt(2) corner grip.
 * After the loop a dynamic contact whose slip fell below slip_threshold
 * returns to static for the next step.
 *
 * If the chosen solver fails, the other is tried, then both with a growing
 * regularization (CFM) on the diagonal, as GraspIt does; each fallback is
 * counted in the step report. Nothing is accepted without the LCP layer's
 * residual check. */
#include <math.h>
#include <string.h>

#include "constraint/constraint_impl.h"
#include "lcp/lcp_layer.h" /* lk_lcp_row_residual, kernels, the kept factor */
#include "linkage/lcp.h"
#include "sim/plan.h"
#include "sim/sim_internal.h"

/* |(a, b)| for impulses and velocities, far from overflow: sqrt is several
 * times faster than hypot's scaling, on every contact pair every step. */
static inline double norm2(double a, double b) { return sqrt(a * a + b * b); }

#define SLIDE_EPS 1e-9 /* m/s (rad/s): a pair slides above this speed */

enum { ROLE_ROW, ROLE_PLUS, ROLE_MINUS, ROLE_SLACK, ROLE_EDGE };

typedef struct {
  const lk_model *m;
  lk_data *d;
  lk_sim_data *sd;
  const int *rows; /* the island's rows (global indices) */
  int n;
  double cfm;
  int nx;
  int sticking; /* the sticking trial: friction and boxed rows free */
  int fixed;    /* friction bounds from the trial's normal impulses (zfix),
                   constant: a convex box-constrained problem */
  int over;     /* a pair lies beyond its disk by the solver's tolerance
                   only: brought onto it at the end, not re-solved */
  int weighted; /* rw holds the trial's first weights (trial_by_guess) */
  int plain;    /* the last successful solve_once was Dantzig's first try */
  int ntree;    /* trial_by_guess: the island's trees, in sim.gtree */
  int iterative;/* trial_and_passes handed the island to NSGS (iterative.c) */
  int held;     /* the held trial: rows marked in sd->hold are fixed at
                   sd->hval (their friction bound along sd->hdir) */
  lk_island_strategy answer; /* whose answer stands (the island report) */
} island;

/* Friction pairs from which an island whose contacts slip is solved by
 * NSGS (iterative.c) rather than by the pivoting passes: an articulated
 * chain draped over an edge (issue 20: 21 contacts, 63 rows) took 6 554
 * pivots and 170 ms a step, with failures, fallbacks and unsettled passes
 * on most steps, where NSGS on the exact cones needs tens of sweeps. Below
 * it (every shipped mechanism's sliding islands) the pivoting passes stay,
 * as before to the bit. */
#define ITERATIVE_MIN_PAIRS 16

/* Or when they touch ITERATIVE_MIN_LINKS links of one tree: the 10-link
 * chain (7-15 contacts on its 10 links) failed the pivoting passes on most
 * sliding steps (26 ms a step, 3 failures, 102 unsettled steps of 200); a
 * gripper's or a hand's islands span the object's tree too. */
#define ITERATIVE_MIN_LINKS 7
/* ... or from a quarter as many on one tree of this many DoF: the 10-link
 * chain at rest on the box's edge (12 contacts on 5-6 links of its 33
 * DoF) left 160 of 200 steps unsettled on the passes. */
#define ITERATIVE_MIN_DOF 24

static int iterative_pays(const island *is) {
  if (!is->sd->sparse || is->m->opt.friction_cone == LK_CONE_PYRAMID) return 0;
  int pairs = 0, nl = 0, tree = -1, one_tree = 1, dof = 0, links[ITERATIVE_MIN_LINKS];
  for (int i = 0; i < is->n; i++) {
    const lk_row *R = &is->sd->row[is->rows[i]];
    if (!(R->kind == LK_ROW_FRICTION && R->crow == 1 && R->pair >= 0)) continue;
    pairs++;
    for (int g = 0; g < 2; g++) {
      int l = g ? R->link_b : R->link_a, t = R->tree[g];
      if (l <= 0 || t < 0) continue;
      if (tree < 0) tree = t;
      if (t != tree) one_tree = 0;
      if (R->len[g] > dof) dof = R->len[g];
      int k = 0;
      while (k < nl && links[k] != l) k++;
      if (k == nl && nl < ITERATIVE_MIN_LINKS) links[nl++] = l;
    }
  }
  if (pairs >= ITERATIVE_MIN_PAIRS) return 1;
  return one_tree && (nl >= ITERATIVE_MIN_LINKS ||
                      (dof >= ITERATIVE_MIN_DOF && pairs >= ITERATIVE_MIN_PAIRS / 4));
}

/* Whether a persisting contact of the island ended the last step with
 * its friction on its cone's edge (a bound state remembered for its first
 * tangent row) under a positive normal impulse. */
static int saturated_last(const island *is) {
  for (int i = 0; i < is->n; i++) {
    const lk_row *R = &is->sd->row[is->rows[i]];
    if (R->ckind != LK_CONSTRAINT_CONTACT || R->kind != LK_ROW_FRICTION || R->crow != 1) continue;
    const lk_contact_mem *mem = &is->sd->cmem[R->cindex];
    if (mem->valid && mem->basis[1] != LK_LCP_BASIC && mem->z[0] > 0) return 1;
  }
  return 0;
}

/* A row's kind in the problem being solved: in the sticking trial every
 * friction and boxed row is a free (equality) row. */
static lk_row_kind kind_of(const island *is, const lk_row *R) {
  if (is->sticking && (R->kind == LK_ROW_FRICTION || R->kind == LK_ROW_BOX)) return LK_ROW_FREE;
  return R->kind;
}

/* Where a row's LCP state persists across steps (NULL: nowhere), and
 * whether it holds a state from an earlier step. */
static unsigned char *row_slot(lk_data *d, const lk_row *R, int *valid) {
  if (R->ckind == LK_CONSTRAINT_CONTACT) {
    lk_contact_mem *mem = &d->sim.cmem[R->cindex];
    *valid = mem->valid;
    return &mem->basis[R->crow];
  }
  if (R->ckind == LK_CONSTRAINT_LIMIT) {
    lk_contact_mem *mem = &d->sim.limmem[R->cindex];
    *valid = mem->valid;
    return &mem->basis[R->crow];
  }
  *valid = 0;
  return NULL;
}

static unsigned char row_guess(const lk_row *R) {
  if (R->kind == LK_ROW_FREE) return LK_LCP_BASIC;
  if (R->kind == LK_ROW_UNILATERAL) return R->bias <= 0 ? LK_LCP_BASIC : LK_LCP_LOWER;
  return LK_LCP_BASIC;
}

/* The state a solved row is in (LOWER / BASIC / UPPER, Dantzig's sense). */
static unsigned char row_state(const lk_row *R, double z, double w, double znormal) {
  if (R->kind == LK_ROW_FREE) return LK_LCP_BASIC;
  double lo = 0, hi = INFINITY;
  if (R->kind == LK_ROW_BOX) {
    lo = R->lo;
    hi = R->hi;
  } else if (R->kind == LK_ROW_FRICTION) {
    hi = R->mu * fabs(znormal);
    lo = -hi;
  }
  double tol = 1e-12 * (1 + fabs(hi < INFINITY ? hi : 0) + fabs(z));
  if (z <= lo + tol && w >= 0) return LK_LCP_LOWER;
  if (hi < INFINITY && z >= hi - tol && w <= 0) return LK_LCP_UPPER;
  return LK_LCP_BASIC;
}

/* Relative regularization of every island: redundant contacts (four
 * corners of a box, internal friction that cancels between contacts) make
 * the Delassus matrix singular and the impulses non-unique; a ridge of
 * 3e-10 of the largest diagonal entry picks the least-norm distribution
 * (as the ridge goes to zero, the solution of the regularized convex
 * problem tends to the least-norm one), which is unique, deterministic and
 * physical (equal shares at rest, no internal friction), at a creep of
 * order 3e-10 of the impulse per step (below 1e-9 m in 10^4 steps for the
 * validation scenes). */
#define RIDGE 3e-10

/* The island's Delassus matrix A = J M^-1 J^T, computed once per step
 * (re-aligned pairs rotate it in place, see rotate_pair); its diagonal is
 * kept apart so that each solve can add its own ridge and CFM. */
static void build_base(island *is) {
  lk_sim_data *sd = is->sd;
  int n = is->n;
  lk_sim_delassus_island(is->m, is->d, is->rows, n, sd->A);
  for (int i = 0; i < n; i++) sd->adiag[i] = sd->A[i * n + i];
}

/* Weights of the ridge that pick the trial's friction distribution. A
 * friction row's weight is inversely proportional to its contact's normal
 * impulse, so that the least-norm answer minimizes sum |f_i|^2 / f_n,i: on
 * a flat contact set the friction is then shared in proportion to the
 * normal forces, every contact at the same utilization, which is what
 * sticks whenever the whole body can. The normal impulses are the last
 * step's for persisting contacts (use_current: this solve's). */
void lk_sim_ridge_weights(const lk_sim_data *sd, const int *rows, int n, const double *z,
                          double *rw, double *load) {
  int cnt = 0;
  double mean = 0;
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[rows[i]];
    rw[i] = 1;
    if (R->kind != LK_ROW_FRICTION) continue;
    double zn =
        z ? z[sd->rowloc[R->normal]] : (sd->cmem[R->cindex].valid ? sd->cmem[R->cindex].z[0] : -1);
    load[i] = zn;
    if (zn > 0) {
      mean += zn;
      cnt++;
    }
  }
  if (cnt == 0) return;
  mean /= cnt;
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[rows[i]];
    if (R->kind != LK_ROW_FRICTION) continue;
    double zn = load[i];
    /* An idle contact (it carried nothing: zn 0) weighs as the least
     * loaded; one without a history (-1) as the mean. */
    rw[i] = zn >= 0 ? mean / lk_maxd(zn, 1e-3 * mean) : 1;
  }
}

static void set_ridge_weights(island *is, int use_current) {
  lk_sim_data *sd = is->sd;
  lk_sim_ridge_weights(sd, is->rows, is->n, use_current ? sd->z : NULL, sd->rw, sd->zfix);
}

/* The problem of one solve: A with this solve's diagonal, b = J v* + bias. */
static void build_matrix(island *is) {
  lk_sim_data *sd = is->sd;
  int n = is->n;
  double dmax = 0;
  for (int i = 0; i < n; i++) dmax = fmax(dmax, sd->adiag[i]);
  /* The ridge selects among the many answers of the trial and the
   * fixed-normal pass (both convex); the full friction LCP is solved as
   * posed, where pivoting resolves degeneracy and accuracy matters. */
  double ridge = is->sticking || is->fixed ? RIDGE * dmax : 0;
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    sd->A[i * n + i] = sd->adiag[i] + ridge * sd->rw[i] + is->cfm;
    sd->b[i] = R->jv + R->bias;
  }
}

/* ---------------------------------------------------------- Dantzig */

static lk_status solve_boxed(island *is, const lk_lcp_solver *solver, lk_lcp_report *rep);

static lk_status solve_dantzig(island *is, lk_lcp_report *rep) {
  return solve_boxed(is, lk_lcp_dantzig, rep);
}

/* Whether the LCP layer's own Lemke takes the island's boxed form: every
 * normal row carries at most 3 friction rows (not a rolling contact's 5). */
static int lemke_takes_boxed(const island *is) {
  const lk_sim_data *sd = is->sd;
  for (int i = 0; i < is->n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    if (R->kind == LK_ROW_FRICTION && (R->crow > 2 || R->ckind != LK_CONSTRAINT_CONTACT)) return 0;
  }
  return 1;
}

static lk_status solve_boxed(island *is, const lk_lcp_solver *solver, lk_lcp_report *rep) {
  lk_sim_data *sd = is->sd;
  int n = is->n;
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    sd->findex[i] = -1;
    sd->mu[i] = 0;
    if (is->held && sd->hold[i]) {
      sd->lo[i] = sd->hi[i] = sd->hval[i];
      continue;
    }
    switch (kind_of(is, R)) {
      case LK_ROW_FREE:
        sd->lo[i] = -INFINITY;
        sd->hi[i] = INFINITY;
        break;
      case LK_ROW_BOX:
        sd->lo[i] = R->lo;
        sd->hi[i] = R->hi;
        break;
      case LK_ROW_FRICTION:
        if (is->fixed) {
          double b = R->mu * fmax(sd->zfix[sd->rowloc[R->normal]], 0);
          sd->lo[i] = -b;
          sd->hi[i] = b;
          break;
        }
        sd->lo[i] = 0;
        sd->hi[i] = 0;
        sd->findex[i] = sd->rowloc[R->normal];
        sd->mu[i] = R->mu;
        break;
      default:
        sd->lo[i] = 0;
        sd->hi[i] = INFINITY;
        break;
    }
  }
  lk_lcp p = {.n = n, .M = sd->A, .ldm = n, .q = sd->b, .lo = sd->lo, .hi = sd->hi,
              .findex = sd->findex, .mu = sd->mu};
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  o.basis_in = sd->basis;
  o.basis_out = sd->basis;
  o.symmetric = 1; /* A = J M~^-1 J^T (rotate_pair keeps it so, to rounding) */
  /* The friction LCP proper (no ridge picks among its answers: pivoting
   * does) is offered the impulses in hand (the last step's at the first
   * solve of a step, the last pass's after): when nothing has moved they
   * are already an answer, verified like any other. The sticking trial and
   * the fixed-normal pass are not: their ridge picks the split between
   * redundant contacts, which the residual cannot see (trial_by_guess). */
  if (!is->sticking && !is->fixed) o.z_guess = sd->z;
  lk_status st = lk_lcp_solve(solver, &p, &o, sd->lcp, sd->z, sd->w, rep);
  return st;
}

/* ------------------------------------------------------------ Lemke */

static int add_var(island *is, int r1, double c1, int r2, double c2, int slack) {
  lk_sim_data *sd = is->sd;
  int v = is->nx++;
  sd->xr1[v] = r1;
  sd->xc1[v] = c1;
  sd->xr2[v] = r2;
  sd->xc2[v] = c2;
  sd->xslack[v] = slack;
  return v;
}

/* Lay out the expanded variables; returns 0 or LK_CAPACITY_EXCEEDED. */
static lk_status expand(island *is, int pyramid) {
  lk_sim_data *sd = is->sd;
  const lk_model *m = is->m;
  int n = is->n, ne = m->opt.cone_edges;
  is->nx = 0;
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    sd->xbase[i] = is->nx;
    lk_row_kind kind = kind_of(is, R);
    int need = 1;
    if (kind == LK_ROW_FRICTION || kind == LK_ROW_BOX) need = 3;
    int partner = R->pair >= 0 ? sd->rowloc[R->pair] : -1;
    int pyr_pair = pyramid && kind == LK_ROW_FRICTION && partner >= 0 && R->crow == 1;
    if (pyr_pair) need = ne + 1;
    if (pyramid && kind == LK_ROW_FRICTION && partner >= 0 && R->crow == 2) need = 0;
    if (is->nx + need > sd->xcap) return LK_CAPACITY_EXCEEDED;
    if (need == 1) {
      add_var(is, i, 1, -1, 0, -1);
    } else if (pyr_pair) {
      int slack = is->nx + ne;
      for (int j = 0; j < ne; j++) {
        double th = 2.0 * LK_PI * j / ne;
        add_var(is, i, cos(th), partner, sin(th), slack);
      }
      add_var(is, -1, 0, -1, 0, -1); /* the pair's slack */
    } else if (need == 3) {
      int slack = is->nx + 2;
      add_var(is, i, 1, -1, 0, slack);
      add_var(is, i, -1, -1, 0, slack);
      add_var(is, -1, 0, -1, 0, -1);
    }
  }
  sd->xbase[n] = is->nx;
  return LK_OK;
}

static lk_status solve_lemke(island *is, int pyramid, lk_lcp_report *rep) {
  lk_sim_data *sd = is->sd;
  int n = is->n;
  lk_status st = expand(is, pyramid);
  if (st) return st;
  int nx = is->nx;
  const double *A = sd->A;
  double *Ax = sd->Ax;
  /* P^T A P: each expanded variable maps to at most two rows. (The maps
   * in restrict locals, so that the loop keeps them in registers; the sums
   * are those of the plain loop, term for term.) */
  const int *restrict xr1 = sd->xr1, *restrict xr2 = sd->xr2;
  const double *restrict xc1 = sd->xc1, *restrict xc2 = sd->xc2;
  for (int u = 0; u < nx; u++) {
    int ur[2] = {xr1[u], xr2[u]};
    double uc[2] = {xc1[u], xc2[u]};
    double *restrict Au = Ax + (size_t)u * nx;
    const double *A0 = ur[0] >= 0 ? A + (size_t)ur[0] * n : NULL;
    const double *A1 = ur[1] >= 0 ? A + (size_t)ur[1] * n : NULL;
    for (int v = 0; v < nx; v++) {
      int r1 = xr1[v], r2 = xr2[v];
      double s = 0;
      if (A0) {
        if (r1 >= 0) s += uc[0] * xc1[v] * A0[r1];
        if (r2 >= 0) s += uc[0] * xc2[v] * A0[r2];
      }
      if (A1) {
        if (r1 >= 0) s += uc[1] * xc1[v] * A1[r1];
        if (r2 >= 0) s += uc[1] * xc2[v] * A1[r2];
      }
      Au[v] = s;
    }
    double q = 0;
    for (int a = 0; a < 2; a++)
      if (ur[a] >= 0) q += uc[a] * sd->b[ur[a]];
    sd->qx[u] = q;
    sd->lox[u] = 0;
    sd->hix[u] = INFINITY;
    sd->basisx[u] = LK_LCP_LOWER;
  }
  /* Slack couplings and bounds. */
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    int x0 = sd->xbase[i], x1 = sd->xbase[i + 1];
    if (x1 - x0 == 1) {
      if (kind_of(is, R) == LK_ROW_FREE) {
        sd->lox[x0] = -INFINITY;
        sd->basisx[x0] = LK_LCP_BASIC;
      } else {
        sd->basisx[x0] = sd->basis[i] == LK_LCP_BASIC ? LK_LCP_BASIC : LK_LCP_LOWER;
      }
      continue;
    }
    if (x1 == x0) continue;
    int slack = x1 - 1;
    for (int v = x0; v < slack; v++) {
      Ax[(size_t)v * nx + slack] += 1.0;
      Ax[(size_t)slack * nx + v] -= 1.0;
    }
    if (kind_of(is, R) == LK_ROW_FRICTION && is->fixed) {
      sd->qx[slack] = R->mu * fmax(sd->zfix[sd->rowloc[R->normal]], 0);
    } else if (kind_of(is, R) == LK_ROW_FRICTION) {
      int nrm = sd->xbase[sd->rowloc[R->normal]];
      Ax[(size_t)slack * nx + nrm] += R->mu;
      sd->qx[slack] = 0;
    } else { /* symmetric box: |z| <= hi */
      sd->qx[slack] = R->hi;
    }
    /* Warm start from the row's state (box expansion only). */
    if (x1 - x0 == 3) {
      unsigned char s = sd->basis[i];
      double zprev = sd->z[i];
      if (s == LK_LCP_BASIC) {
        sd->basisx[zprev >= 0 ? x0 : x0 + 1] = LK_LCP_BASIC;
      } else if (s == LK_LCP_UPPER) {
        sd->basisx[x0] = LK_LCP_BASIC;
        sd->basisx[slack] = LK_LCP_BASIC;
      } else {
        sd->basisx[x0 + 1] = LK_LCP_BASIC;
        sd->basisx[slack] = LK_LCP_BASIC;
      }
    }
  }
  lk_lcp p = {.n = nx, .M = Ax, .ldm = nx, .q = sd->qx, .lo = sd->lox, .hi = sd->hix};
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  o.basis_in = sd->basisx;
  o.basis_out = sd->basisx;
  st = lk_lcp_solve(lk_lcp_lemke, &p, &o, sd->lcp, sd->zx, sd->wx, rep);
  /* Row impulses z = P x, velocities w = A z + b. */
  for (int i = 0; i < n; i++) sd->z[i] = 0;
  for (int v = 0; v < nx; v++) {
    if (sd->xr1[v] >= 0) sd->z[sd->xr1[v]] += sd->xc1[v] * sd->zx[v];
    if (sd->xr2[v] >= 0) sd->z[sd->xr2[v]] += sd->xc2[v] * sd->zx[v];
  }
  for (int i = 0; i < n; i++) {
    double s = sd->b[i];
    for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * sd->z[j];
    sd->w[i] = s;
  }
  /* Row states for the next warm start. */
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    double zn = R->kind == LK_ROW_FRICTION ? sd->z[sd->rowloc[R->normal]] : 0;
    sd->basis[i] = row_state(R, sd->z[i], sd->w[i], zn);
  }
  return st;
}

/* ------------------------------------------------ solve with fallbacks */

static lk_status solve_once(island *is, lk_sim_report *report) {
  const lk_options *o = &is->m->opt;
  int pyramid = o->friction_cone == LK_CONE_PYRAMID;
  double scale = 0;
  for (int i = 0; i < is->n; i++)
    scale = fmax(scale, fabs(is->sd->adiag[i]));
  /* Attempts in order: the chosen solver, the other one, then both with a
   * growing CFM. Dantzig cannot express a pyramid; Lemke takes anything. */
  int chosen = (o->solver == LK_SOLVER_DANTZIG && !pyramid) ? 1 : 0;
  /* The sticking trial and the fixed-normal pass are convex quadratic
   * programs (symmetric, no friction coupling): Dantzig's principal
   * pivoting with its L D L^T updates is the method made for them, and
   * takes them whatever the option (Lemke if it fails); options.solver
   * chooses the solver of the friction LCP proper. */
  if ((is->sticking || is->fixed) && !(pyramid && is->fixed)) chosen = 1;
  if (is->held) chosen = 1;
  struct {
    int dantzig;
    double cfm;
  } plan[8];
  int np = 0;
  /* GraspIt's escalation, one step further: a regularized answer beats a
   * failed step (each use is counted in the report). */
  double cfms[4] = {o->cfm, o->cfm + 1e-10 * (1 + scale), o->cfm + 1e-7 * (1 + scale),
                    o->cfm + 1e-5 * (1 + scale)};
  for (int k = 0; k < 4; k++) {
    plan[np].dantzig = chosen;
    plan[np++].cfm = cfms[k];
    /* The held trial's fixed rows are boxes lo = hi, which only the boxed
     * form expresses: Dantzig's, with CFM if need be. */
    if (!pyramid && !is->held) {
      plan[np].dantzig = !chosen;
      plan[np++].cfm = cfms[k];
    }
  }
  lk_status last = LK_NOT_CONVERGED;
  for (int attempt = 0; attempt < np; attempt++) {
    int dantzig = plan[attempt].dantzig;
    is->cfm = plan[attempt].cfm;
    build_matrix(is);
    lk_lcp_report rep;
    /* Lemke: the LCP layer's own Stewart-Trinkle form of the boxed problem
     * (with its reinversions and end-of-path repair) where it applies; this
     * layer's expansion for pyramids and rolling contacts. */
    lk_status st = dantzig ? solve_dantzig(is, &rep)
                   : (!pyramid && lemke_takes_boxed(is)) ? solve_boxed(is, lk_lcp_lemke, &rep)
                                                         : solve_lemke(is, pyramid, &rep);
    report->lcp_solves++;
    report->lcp_pivots += rep.pivots;
    if (st == LK_OK) {
      is->plain = dantzig && attempt == 0;
      if (rep.residual_rel > report->lcp_residual) report->lcp_residual = rep.residual_rel;
      if (rep.warm == LK_LCP_WARM_GUESS) report->guess_answers++;
      if (attempt > 0) report->fallbacks++;
      if (dantzig)
        report->dantzig_solves++;
      else
        report->lemke_solves++;
      return LK_OK;
    }
    report->solver_failures++;
    last = st;
    /* A failed warm start must not poison the next attempt. */
    for (int i = 0; i < is->n; i++) is->sd->basis[i] = row_guess(&is->sd->row[is->rows[i]]);
  }
  return last;
}

/* Rotate the tangent pair (i1, i2) of the island by (c, s): new first axis
 * c t1 + s t2, second -s t1 + c t2. Rows, Y, J v*, A, z rotate together. */
static void rotate_pair(island *is, int i1, int i2, double c, double s) {
  lk_sim_data *sd = is->sd;
  lk_row *R1 = &sd->row[is->rows[i1]], *R2 = &sd->row[is->rows[i2]];
  size_t len = 0;
  for (int g = 0; g < 2 && R1->tree[g] >= 0; g++) len += (size_t)R1->len[g];
  double *vals[2] = {sd->jval, sd->yval};
  for (int k = 0; k < 2; k++) {
    double *a = vals[k] + R1->ofs, *b = vals[k] + R2->ofs;
    for (size_t t = 0; t < len; t++) {
      double x = a[t], y = b[t];
      a[t] = c * x + s * y;
      b[t] = -s * x + c * y;
    }
  }
  lk_force F1 = R1->F, F2 = R2->F;
  R1->F = lk_fo_add(lk_fo_scale(F1, c), lk_fo_scale(F2, s));
  R2->F = lk_fo_sub(lk_fo_scale(F2, c), lk_fo_scale(F1, s));
  double j1 = R1->jv, j2 = R2->jv;
  R1->jv = c * j1 + s * j2;
  R2->jv = -s * j1 + c * j2;
  double z1 = sd->z[i1], z2 = sd->z[i2];
  sd->z[i1] = c * z1 + s * z2;
  sd->z[i2] = -s * z1 + c * z2;
  /* A <- G A G^T on rows and columns i1, i2 (from its base diagonal). */
  int n = is->n;
  double *A = sd->A;
  A[i1 * n + i1] = sd->adiag[i1];
  A[i2 * n + i2] = sd->adiag[i2];
  for (int j = 0; j < n; j++) {
    double x = A[i1 * n + j], y = A[i2 * n + j];
    A[i1 * n + j] = c * x + s * y;
    A[i2 * n + j] = -s * x + c * y;
  }
  for (int j = 0; j < n; j++) {
    double x = A[j * n + i1], y = A[j * n + i2];
    A[j * n + i1] = c * x + s * y;
    A[j * n + i2] = -s * x + c * y;
  }
  sd->adiag[i1] = A[i1 * n + i1];
  sd->adiag[i2] = A[i2 * n + i2];
  /* The contact's basis vectors. */
  lk_contact_mem *mem = &sd->cmem[R1->cindex];
  lk_vec3 nrm = sd->contact[R1->cindex].normal;
  lk_vec3 *t = R1->crow == 1 ? &mem->t1 : &mem->roll_t1;
  lk_vec3 t2 = lk_v3_cross(nrm, *t);
  *t = lk_v3_normalize(lk_v3_add(lk_v3_scale(*t, c), lk_v3_scale(t2, s)));
}

/* Check the friction law of every pair after a solve; switch slipping
 * static contacts to dynamic and re-align circle pairs. Returns whether
 * anything changed (so the island must be solved again).
 *
 * A circle pair is solved as a box in its own tangent basis. A pair found
 * sticking with more than mu f_n (the box's corner) has its basis turned so
 * that the first axis carries the force. A pair found sliding has its first
 * axis turned against the slip and its second row's bound set to zero: it
 * is then a one-dimensional friction of bound mu f_n along that axis (the
 * sliding law f = -mu f_n v/|v|), and the second row's velocity shows
 * whether the slip direction is still right. At the fixed point every pair
 * obeys the disk law exactly. */
static int friction_update(island *is, lk_sim_report *report, int lock) {
  lk_sim_data *sd = is->sd;
  const lk_options *o = &is->m->opt;
  int changed = 0;
  for (int i = 0; i < is->n; i++) {
    lk_row *R = &sd->row[is->rows[i]];
    if (R->kind != LK_ROW_FRICTION || R->pair < 0 || R->ckind != LK_CONSTRAINT_CONTACT) continue;
    if (!(R->crow == 1 || R->crow == 4)) continue;
    int i2 = sd->rowloc[R->pair];
    lk_row *R2 = &sd->row[R->pair];
    double z1 = sd->z[i], z2 = sd->z[i2], w1 = sd->w[i], w2 = sd->w[i2];
    double speed = norm2(w1, w2);
    int aligned = R2->mu == 0 && R->mu > 0;
    lk_contact_mem *mem = &sd->cmem[R->cindex];
    /* Complementarity: a pair slides only with its friction at the bound.
     * A speed without that is the solver's round-off or a regularization's
     * creep, not slip. */
    double bound0 = R->mu * fabs(sd->z[sd->rowloc[R->normal]]);
    double fmag = fmax(norm2(z1, z2), fmax(fabs(z1), fabs(z2)));
    /* A pyramid pair's bound is its polygon: a force on a facet, away from
     * the vertices, is at the bound with |f| short of mu f_n (by up to
     * cos(pi / n)); measure it by the polygon's gauge, so that a contact
     * that slips is dynamic whatever the cone. */
    if (o->friction_cone == LK_CONE_PYRAMID && R->crow == 1) {
      int ne = o->cone_edges;
      double g = 0;
      for (int j = 0; j < ne; j++) {
        double a = (2 * j + 1) * LK_PI / ne;
        g = fmax(g, z1 * cos(a) + z2 * sin(a));
      }
      fmag = fmax(fmag, g / cos(LK_PI / ne));
    }
    int at_bound = bound0 > 0 && fmag >= bound0 * (1 - 1e-6);
    /* A pair locked to one direction (second bound zero) that moves along
     * its second row slides with its friction along the wrong line, if
     * its friction is at the bound. Below the bound it grips along its
     * first axis and was only held off the second by the lock: the lock
     * goes (both rows bounded again) and the next solve says how the
     * pair's friction lies -- once a step, as a pair whose answer lies
     * between its box's axes would come straight back to the lock; the
     * next time it re-aligns against the slip. */
    if (aligned && fabs(w2) > SLIDE_EPS) {
      if (o->friction_cone == LK_CONE_CIRCLE && !at_bound && !R->unlocked) {
        R->unlocked = 1;
        R2->mu = R->mu;
        R->turn_valid = 0;
        changed = 1;
        continue;
      }
      at_bound = 1;
    }
    int sliding = speed > SLIDE_EPS && at_bound;
    /* the slip itself is J v+, without an anchored contact's correction
     * (contact.c): a correction the cone cannot give is not a slip */
    double slip = norm2(w1 - R->bias, w2 - R2->bias);
    if (R->crow == 1 && mem->state == LK_FRICTION_STATIC && sliding && slip > SLIDE_EPS &&
        lk_sim_slip_sustained(is->m, mem, slip)) {
      const lk_contact_report *c = &sd->contact[R->cindex];
      mem->state = LK_FRICTION_DYNAMIC;
      R->mu = c->mu_dynamic;
      if (!aligned) R2->mu = c->mu_dynamic;
      report->state_changes++;
      changed = 1;
      continue; /* re-solve with the new bound before judging the cone */
    }
    if (o->friction_cone != LK_CONE_CIRCLE || R->mu == 0) continue;
    double bound = bound0;
    double f = norm2(z1, z2);
    if (sliding) {
      double tx = -w1 / speed, ty = -w2 / speed;
      if (fabs(ty) > 1e-7 || tx < 0) {
        /* The slip of a friction along t1 need not point along -t1: the
         * island's other contacts answer, and turning t1 onto -v at every
         * pass can circle the answer (a rover's driven wheels: friction
         * along one axis makes the wheel slip along the other, and back).
         * From its third turn in a step, a pair turns by the secant
         * estimate of the angle that zeroes the sideways slip, from its
         * last two turns (between a twentieth and all of the proposed
         * turn; half when the estimate is out of that range): the same
         * fixed point (no turn once t1 is against the slip), reached
         * instead of circled. */
        double th = atan2(ty, tx), turn = th;
        if (R->realigned == 0) R->turn_gain = 1;
        if (R->realigned >= 2) {
          double r = 0.5, dth = th - R->turn_prop;
          if (R->turn_valid && fabs(dth) > 1e-12) {
            double rs = -R->turn_step / dth;
            if (rs >= 0.05 && rs <= 1) r = rs;
          }
          /* A proposed turn of the other sign than the last one: the pair
           * (with the island's other contacts answering) overshot. Each
           * such flip halves the largest share applied from then on, so
           * coupled pairs that amplify each other's turns settle instead
           * of diverging (bench/contact's arm scene, whose sliding box has
           * an indeterminate floor load: with its free velocity computed by
           * RNEA and the factor instead of ABA, equal to rounding, 155 of
           * 1250 steps spent their passes; 21 with the halving). */
          if (R->turn_valid && (th > 0) != (R->turn_prop > 0)) R->turn_gain *= 0.5;
          if (r > R->turn_gain) r = R->turn_gain;
          turn = r * th;
          tx = cos(turn);
          ty = sin(turn);
        }
        R->realigned++;
        R->turn_valid = 1;
        R->turn_prop = th;
        R->turn_step = turn;
        rotate_pair(is, i, i2, tx, ty);
        R2->mu = 0;
        changed = 1;
      } else if (!aligned && fabs(z2) > 1e-12 * (1 + bound)) {
        R2->mu = 0;
        changed = 1;
      }
    } else if (f > bound * (1 + 1e-9) + 1e-15 && z1 > 0 && fabs(z2) <= 1e-9 * f) {
      /* Already along its force: turning changes nothing and another
       * solve would return the same excess, the solver's tolerance on a
       * bound (a friction impulse of 5e-13 on a normal impulse of 0). */
      is->over = 1;
    } else if (f > bound * (1 + 1e-9) + 1e-15) {
      /* Sticking in the box's corner: turn the box so that its first axis
       * carries the force, and let the island redistribute. A sticking pair
       * keeps both bounds (its force direction is free) until the passes
       * run long (redundant contacts can trade corner grip between them
       * forever); then its direction is locked as well, which the next
       * solve either accepts or turns into a slip to re-align against. */
      rotate_pair(is, i, i2, z1 / f, z2 / f);
      R->turn_valid = 0; /* turned for another reason: no secant across it */
      if (lock) R2->mu = 0;
      changed = 1;
    }
  }
  return changed;
}

/* Whether the trial's impulses lie inside every friction bound, with the
 * cone in use (a pair: disk, box or inscribed polygon). */
static int trial_feasible(const island *is) {
  const lk_sim_data *sd = is->sd;
  const lk_options *o = &is->m->opt;
  const double slack = 1 + 1e-9;
  /* The least-norm answer leaves friction of the order of the velocities'
   * round-off over the ridge (1e-10 of the load) on contacts that need
   * none; on a contact that touches but carries nothing (a resting
   * object's idle contacts, which margins find) that is no grip. */
  double zmax = 0;
  for (int i = 0; i < is->n; i++)
    if (sd->row[is->rows[i]].kind == LK_ROW_UNILATERAL) zmax = fmax(zmax, sd->z[i]);
  const double idle = 1e-15 + 1e-9 * zmax;
  for (int i = 0; i < is->n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    double z = sd->z[i];
    if (R->kind == LK_ROW_BOX) {
      if (z < R->lo * slack - 1e-15 || z > R->hi * slack + 1e-15) return 0;
      continue;
    }
    if (R->kind != LK_ROW_FRICTION || (is->held && sd->hold[i])) continue;
    double bound = R->mu * lk_maxd(sd->z[sd->rowloc[R->normal]], 0) * slack + idle;
    if (R->pair < 0) {
      if (fabs(z) > bound) return 0;
      continue;
    }
    if (!(R->crow == 1 || R->crow == 4)) continue; /* judged with its partner */
    double z2 = sd->z[sd->rowloc[R->pair]];
    int pyramid = o->friction_cone == LK_CONE_PYRAMID && R->crow == 1;
    if (pyramid) {
      int ne = o->cone_edges;
      for (int j = 0; j < ne; j++) {
        double a = (2 * j + 1) * LK_PI / ne;
        if (z * cos(a) + z2 * sin(a) > bound * cos(LK_PI / ne)) return 0;
      }
    } else if (o->friction_cone == LK_CONE_BOX) {
      if (fabs(z) > bound || fabs(z2) > bound) return 0;
    } else if (norm2(z, z2) > bound) {
      return 0;
    }
  }
  return 1;
}

/* The fixed-normal stage: with the normal impulses of the trial held, the
 * friction distribution minimizes 1/2 z^T A z + b^T z over each pair's
 * admissible set, a convex problem whose KKT conditions are a mixed LCP
 *     [ A   U ] [ z ]   [ b ]      friction rows free (w = 0),
 *     [-U^T 0 ] [ l ] + [ c ] _|_  0 <= l (one multiplier per facet
 *                                  u . z_pair <= c),
 * the multiplier l of an active facet being a slip speed along -u
 * (maximal dissipation). For the circle cone each pair's set is a regular
 * 16-gon inscribed in its disk with a vertex on the pair's current
 * friction direction (from the trial, then from the last solve): every
 * answer is inside the disk -- never more grip than Coulomb's -- and exact
 * along the direction the friction actually takes. The box and pyramid
 * cones use their own polygon. Returns 1 when the island sticks everywhere
 * (z, w set), 0 otherwise. */
#define FIXED_EDGES 16
#define FIXED_PASSES 3
/* The coupled check's polygons: octagons with a vertex on the friction's
 * direction, turned there by the passes (exact along it; what it finds
 * sticks inside the disk whatever the direction; squares gave answers
 * that cost the shipped pick_and_shake 19 failed solves later). Its
 * largest problem: a dense Lemke solve costs about N^3 / 3; beyond this
 * many rows and facets (a 24-link chain round a capstan takes 264) the
 * island keeps the earlier answer (slip). */
#define COUPLED_EDGES 8
#define COUPLED_MAX 300

static int add_cut(island *is, int *ncut, int r1, int r2, double u1, double u2, double c) {
  lk_sim_data *sd = is->sd;
  if (*ncut >= sd->xcap - is->n) return 0;
  int k = (*ncut)++;
  sd->cut_r1[k] = r1;
  sd->cut_r2[k] = r2;
  sd->cut_u1[k] = u1;
  sd->cut_u2[k] = u2;
  sd->cut_c[k] = c;
  return 1;
}

/* Facets of a regular polygon of ne edges inscribed in the circle of
 * radius bound, with a vertex at angle a0. */
static void add_polygon(island *is, int *ncut, int r1, int r2, int ne, double a0, double bound) {
  for (int j = 0; j < ne; j++) {
    double a = a0 + (2 * j + 1) * LK_PI / ne;
    add_cut(is, ncut, r1, r2, cos(a), sin(a), bound * cos(LK_PI / ne));
  }
}

static int fixed_cuts(island *is, lk_sim_report *report, int coupled) {
  lk_sim_data *sd = is->sd;
  const lk_options *o = &is->m->opt;
  int n = is->n;
  /* The unilateral rows (contact normals, limits) keep the trial's
   * impulses: only the friction is redistributed. Their velocities are
   * checked afterwards. var[i] is row i's variable, -1 when held.
   * Coupled, they are variables too (z >= 0 against w >= 0), and each
   * facet bounds the friction by its own normal's impulse. */
  int *var = sd->findex; /* free in this stage */
  int nv = 0;
  for (int i = 0; i < n; i++)
    var[i] = !coupled && sd->row[is->rows[i]].kind == LK_ROW_UNILATERAL ? -1 : nv++;
  double dmax = 0;
  for (int i = 0; i < n; i++) dmax = fmax(dmax, sd->adiag[i]);
  double ridge = RIDGE * dmax;
  for (int pass = 0; pass < FIXED_PASSES; pass++) {
    int ncut = 0;
    for (int i = 0; i < n; i++) {
      const lk_row *R = &sd->row[is->rows[i]];
      if (R->kind != LK_ROW_FRICTION) continue;
      double bound = coupled ? R->mu : R->mu * fmax(sd->zfix[sd->rowloc[R->normal]], 0);
      if (R->pair < 0) {
        add_cut(is, &ncut, i, -1, 1, 0, bound);
        add_cut(is, &ncut, i, -1, -1, 0, bound);
        continue;
      }
      if (!(R->crow == 1 || R->crow == 4)) continue;
      int i2 = sd->rowloc[R->pair];
      if (o->friction_cone == LK_CONE_PYRAMID && R->crow == 1) {
        add_polygon(is, &ncut, i, i2, o->cone_edges, 0, bound);
      } else if (o->friction_cone == LK_CONE_BOX) {
        add_cut(is, &ncut, i, i2, 1, 0, bound);
        add_cut(is, &ncut, i, i2, -1, 0, bound);
        add_cut(is, &ncut, i, i2, 0, 1, bound);
        add_cut(is, &ncut, i, i2, 0, -1, bound);
      } else {
        double a0 = (sd->z[i] != 0 || sd->z[i2] != 0) ? atan2(sd->z[i2], sd->z[i]) : 0;
        add_polygon(is, &ncut, i, i2, coupled ? COUPLED_EDGES : FIXED_EDGES, a0, bound);
      }
    }
    int N = nv + ncut;
    if (N > sd->xcap || (coupled && N > COUPLED_MAX)) return 0;
    double *M = sd->Ax;
    memset(M, 0, (size_t)N * (size_t)N * sizeof *M);
    for (int i = 0; i < n; i++) {
      int vi = var[i];
      if (vi < 0) continue;
      const lk_row *R = &sd->row[is->rows[i]];
      double q = R->jv + R->bias;
      for (int j = 0; j < n; j++) {
        if (var[j] < 0)
          q += sd->A[i * n + j] * sd->zfix[j];
        else
          M[(size_t)vi * N + var[j]] = sd->A[i * n + j];
      }
      M[(size_t)vi * N + vi] = sd->adiag[i] + ridge;
      sd->qx[vi] = q;
      sd->lox[vi] = R->kind == LK_ROW_BOX ? R->lo : -INFINITY;
      sd->hix[vi] = R->kind == LK_ROW_BOX ? R->hi : INFINITY;
      sd->basisx[vi] = LK_LCP_BASIC;
      if (R->kind == LK_ROW_UNILATERAL) { /* coupled only */
        sd->lox[vi] = 0;
        sd->basisx[vi] = sd->zfix[i] > 0 ? LK_LCP_BASIC : LK_LCP_LOWER;
      }
    }
    for (int k = 0; k < ncut; k++) {
      int c = nv + k, r1 = var[sd->cut_r1[k]], r2 = sd->cut_r2[k] >= 0 ? var[sd->cut_r2[k]] : -1;
      M[(size_t)r1 * N + c] = sd->cut_u1[k];
      M[(size_t)c * N + r1] = -sd->cut_u1[k];
      if (r2 >= 0) {
        M[(size_t)r2 * N + c] = sd->cut_u2[k];
        M[(size_t)c * N + r2] = -sd->cut_u2[k];
      }
      sd->qx[c] = sd->cut_c[k];
      if (coupled) { /* u . z_t <= c z_n: the normal's column and row */
        int rn = var[sd->rowloc[sd->row[is->rows[sd->cut_r1[k]]].normal]];
        M[(size_t)rn * N + c] = -sd->cut_c[k];
        M[(size_t)c * N + rn] = sd->cut_c[k];
        sd->qx[c] = 0;
      }
      sd->lox[c] = 0;
      sd->hix[c] = INFINITY;
      sd->basisx[c] = LK_LCP_LOWER;
    }
    lk_lcp p = {.n = N, .M = M, .ldm = N, .q = sd->qx, .lo = sd->lox, .hi = sd->hix};
    lk_lcp_options lo;
    lk_lcp_options_default(&lo);
    lo.basis_in = sd->basisx;
    lo.basis_out = sd->basisx;
    lk_lcp_report rep;
    lk_status st = lk_lcp_solve(lk_lcp_lemke, &p, &lo, sd->lcp, sd->zx, sd->wx, &rep);
    report->lcp_solves++;
    report->lcp_pivots += rep.pivots;
    /* An optional stage: its failure only means the friction LCP decides. */
    if (st) return 0;
    report->lemke_solves++;
    /* (An unloaded contact, whose bound is 0, may move freely: it carries
     * nothing, as Coulomb allows; a resting object's touching but idle
     * contacts, which margins find, must not make it "slide".) */
    int slides = 0;
    for (int i = 0; i < n; i++) sd->z[i] = var[i] < 0 ? sd->zfix[i] : sd->zx[var[i]];
    double zmax = 0;
    for (int i = 0; i < n; i++)
      if (sd->row[is->rows[i]].kind == LK_ROW_UNILATERAL) zmax = fmax(zmax, sd->z[i]);
    for (int k = 0; k < ncut; k++) {
      double zn = coupled ? sd->z[sd->rowloc[sd->row[is->rows[sd->cut_r1[k]]].normal]] : 1;
      if (sd->zx[nv + k] > SLIDE_EPS && sd->cut_c[k] > 0 && zn > 1e-9 * zmax) slides = 1;
    }
    /* A circle pair that slides on a polygon facet may only need its
     * polygon turned: turn it to the new friction direction and retry. */
    if (slides) {
      if (o->friction_cone != LK_CONE_CIRCLE) return 0;
      continue;
    }
    /* The velocities, and the held rows' complementarity: a loaded row must
     * not move, an unloaded one must not close. */
    for (int i = 0; i < n; i++) {
      const lk_row *R = &sd->row[is->rows[i]];
      double w = R->jv + R->bias;
      for (int j = 0; j < n; j++) w += sd->A[i * n + j] * sd->z[j];
      sd->w[i] = w;
      if (var[i] >= 0) continue;
      if (sd->zfix[i] > 0 ? fabs(w) > SLIDE_EPS : w < -SLIDE_EPS) return 0;
    }
    return trial_feasible(is);
  }
  return 0;
}

static int guess_outcome(island *is, int hit);

/* Whether the island's last answer came from the coupled sticking check
 * (any of its contacts says so); with clear, the marks are cleared, to be
 * set again if this step's answer comes from it too. */
static int coupled_last(island *is, int clear) {
  int any = 0;
  for (int i = 0; i < is->n; i++) {
    const lk_row *R = &is->sd->row[is->rows[i]];
    if (R->ckind != LK_CONSTRAINT_CONTACT) continue;
    lk_contact_mem *mem = &is->sd->cmem[R->cindex];
    any |= mem->coupled;
    if (clear) mem->coupled = 0;
  }
  return any;
}

/* Whether the island began the step at rest: no row's velocity J v above
 * the slip threshold. The coupled sticking check is for such islands (a
 * loaded structure that may or may not start to slip: a rope on a
 * capstan, a grasp); where bodies land or slide, the passes and NSGS
 * decide as before (the check would cost a solve and find a sticking
 * answer rarely: 222 of 1313 tries on a heap of 50 capsules, which then
 * took 13 % longer). */
static int began_at_rest(const island *is) {
  const double vmax = is->m->opt.slip_threshold;
  for (int i = 0; i < is->n; i++)
    if (!(fabs(lk_rows_dot(is->d, is->rows[i], is->d->v)) <= vmax)) return 0;
  return 1;
}

/* The rows' states from an answer in z, w (a stage that solved the
 * island outside the friction LCP). */
static void answer_states(island *is) {
  lk_sim_data *sd = is->sd;
  for (int i = 0; i < is->n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    double zn = R->kind == LK_ROW_FRICTION ? sd->z[sd->rowloc[R->normal]] : 0;
    sd->basis[i] = row_state(R, sd->z[i], sd->w[i], zn);
  }
}

/* The coupled sticking check answered: the rows' states from the answer,
 * the island's contacts marked, the report told. */
static void coupled_answer(island *is, lk_sim_report *report) {
  lk_sim_data *sd = is->sd;
  answer_states(is);
  is->answer = LK_ISLAND_COUPLED;
  for (int i = 0; i < is->n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    if (R->ckind == LK_CONSTRAINT_CONTACT) sd->cmem[R->cindex].coupled = 1;
  }
  report->coupled_answers++;
}

/* A miss after u (sim.dvg) was formed on the island's DoFs: zero again. */
static int guess_missed(island *is, double *u) {
  lk_sim_zero_trees(is->sd, is->ntree, u);
  return guess_outcome(is, 0);
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
static int guess_outcome(island *is, int hit) {
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
static void keep_trial_factor(island *is) {
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
static int guessable(const island *is, int *wait, int *nonzero) {
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
static int trial_by_guess(island *is, lk_sim_report *report) {
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
  set_ridge_weights(is, 0);
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
  if (!trial_feasible(is)) return guess_missed(is, u);
  for (int i = 0; i < n; i++) {
    lk_row *R = &sd->row[is->rows[i]];
    sd->basis[i] = R->kind == LK_ROW_UNILATERAL ? row_state(R, sd->z[i], sd->w[i], 0) : LK_LCP_BASIC;
    R->guessed = 1;
  }
  guess_outcome(is, 1);
  report->lcp_solves++;
  report->guess_answers++;
  report->refined_answers += refined;
  double rel = res / (1 + scale);
  if (rel > report->lcp_residual) report->lcp_residual = rel;
  return 1;
}

/* ------------------------------------------------------ held trial */

/* The held trial (issue 14, item 6): the sticking trial with the
 * island's turning contacts held at their bound. A rolling wheel's
 * rolling resistance (the rolling pair, and the twist row, of a contact
 * that turns relative to what it rolls on) is at its bound; the plain
 * trial, which makes every such row an equality, cannot stand, and the
 * friction LCP that decides instead resolves the redundant supports by
 * pivoting: a vertex split (a cart's four wheels on 0.17, 77.3, 77.1 and
 * 0 N, two of them not turning). Held at its bound -- a box lo = hi of
 * mu r_p f_n along the direction opposing the turning -- such a row is a
 * known impulse, and the rest is the trial's symmetric problem, whose
 * ridge picks the least-norm split of the normal loads (equal
 * utilization) as it does at rest. The bound depends on the normal
 * impulse and the direction on the answer's motion: both are iterated
 * (the normals' dependence on the held rows is weak: on the cart a
 * rolling torque moves the loads by mu_rolling r_p / L of itself), until
 * neither moves; a held row whose motion comes out along its impulse is
 * released (it sticks). The answer stands if every free friction row fits
 * its cone, as the trial's; otherwise the passes decide, as before.
 * The same for an island where something slides: its sliding contacts'
 * tangent pairs are held at mu_dynamic f_n against their slip (a box
 * sliding on four corners: the least-norm split, where pivoting gave 0 /
 * 9.81 / 5.89 / 3.92 N). Circle cone only (the box and the pyramid slide
 * by other laws). */
#define HELD_ITERS 6
/* The held impulses are iterated to 1e-6 of their bound (of the island's
 * largest normal impulse), their directions until the motion's sideways
 * part is below 1e-4 of it plus 1e-6 rad/s: the ridge's own split of
 * redundant loads moves by 1e-7 of them from solve to solve (4.5e-10 of
 * the bound on the cart), and the motion's direction with it, so that a
 * tighter test would only spend solves. The answer then holds them at
 * the bound of its own normal impulses exactly. */
#define HELD_TOL 1e-6
#define HELD_TOL_DIR 1e-4
#define HELD_TOL_SLIP 1e-6

/* Mark the rows to hold: a rolling pair or a twist row whose contact turns
 * (the current relative angular velocity along the rows, or, from_trial,
 * the plain trial's impulse beyond its bound), and, with tangents (an
 * island where something slides), the tangent pair of a dynamic contact,
 * or of one that carried nothing and slips, against its slip. Returns the
 * rows held; without mark, only counts them (the planner's facts). */
static int held_select(island *is, int from_trial, int tangents, int mark) {
  lk_sim_data *sd = is->sd;
  const lk_data *d = is->d;
  int n = is->n, count = 0;
  if (mark)
    for (int i = 0; i < n; i++) sd->hold[i] = 0;
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    if (R->kind != LK_ROW_FRICTION || R->ckind != LK_CONSTRAINT_CONTACT) continue;
    if (!(R->crow == 3 || ((R->crow == 1 || R->crow == 4) && R->pair >= 0))) continue;
    int i2 = R->crow == 3 ? -1 : sd->rowloc[R->pair];
    double d1, d2;
    if (R->crow == 1) {
      /* a dynamic contact, or one that carried nothing and slips: against
       * its slip, with mu_dynamic */
      const lk_contact_mem *mem = &sd->cmem[R->cindex];
      if (from_trial || !tangents || !mem->valid) continue;
      if (mem->state != LK_FRICTION_DYNAMIC && !(mem->z[0] <= 0)) continue;
      double v1 = lk_rows_dot(d, is->rows[i], d->v), v2 = lk_rows_dot(d, R->pair, d->v);
      double sp = norm2(v1, v2);
      if (!(sp > SLIDE_EPS)) continue;
      d1 = -v1 / sp;
      d2 = -v2 / sp;
    } else if (from_trial) {
      double z1 = sd->z[i], z2 = i2 >= 0 ? sd->z[i2] : 0, f = norm2(z1, z2);
      double bound = R->mu * fmax(sd->z[sd->rowloc[R->normal]], 0);
      if (!(f > bound * (1 + 1e-9) + 1e-15)) continue;
      d1 = z1 / f;
      d2 = z2 / f;
    } else {
      double v1 = lk_rows_dot(d, is->rows[i], d->v);
      double v2 = i2 >= 0 ? lk_rows_dot(d, R->pair, d->v) : 0, sp = norm2(v1, v2);
      if (!(sp > SLIDE_EPS)) continue;
      d1 = -v1 / sp;
      d2 = -v2 / sp;
    }
    count += i2 >= 0 ? 2 : 1;
    if (!mark) continue;
    sd->hold[i] = 1;
    sd->hdir[i] = d1;
    if (i2 >= 0) {
      sd->hold[i2] = 1;
      sd->hdir[i2] = d2;
    }
  }
  return count;
}

/* The held rows' impulses from the normal impulses in sd->z (a rolling
 * pair's bound is its first row's). */
static void held_values(island *is) {
  lk_sim_data *sd = is->sd;
  for (int i = 0; i < is->n; i++) {
    if (!sd->hold[i]) continue;
    const lk_row *R = &sd->row[is->rows[i]];
    const lk_row *F = R->crow == 2 || R->crow == 5 ? &sd->row[R->pair] : R; /* the pair's first */
    double mu = F->crow == 1 ? sd->contact[R->cindex].mu_dynamic : F->mu;
    sd->hval[i] = mu * fmax(sd->z[sd->rowloc[R->normal]], 0) * sd->hdir[i];
  }
}

/* Solve the held trial from the marks of held_select and the normal
 * impulses in sd->z; returns 1 when it stands (z, w and the row states
 * set). */
static int held_trial(island *is, lk_sim_report *report, int *pass) {
  lk_sim_data *sd = is->sd;
  int n = is->n, ok = 0;
  is->sticking = 1;
  is->held = 1;
  if (!is->weighted) set_ridge_weights(is, 0);
  for (int it = 0; it < HELD_ITERS; it++) {
    held_values(is);
    lk_status st = solve_once(is, report);
    (*pass)++;
    if (st) break;
    double zmax = 0;
    for (int i = 0; i < n; i++)
      if (sd->row[is->rows[i]].kind == LK_ROW_UNILATERAL) zmax = fmax(zmax, sd->z[i]);
    int again = 0;
    for (int i = 0; i < n; i++) {
      const lk_row *R = &sd->row[is->rows[i]];
      if (!sd->hold[i] || R->crow == 2 || R->crow == 5) continue;
      int i2 = R->crow == 3 ? -1 : sd->rowloc[R->pair];
      double mu = R->crow == 1 ? sd->contact[R->cindex].mu_dynamic : R->mu;
      double b = mu * fmax(sd->z[sd->rowloc[R->normal]], 0), tol = HELD_TOL * mu * zmax;
      double d1 = sd->hdir[i], d2 = i2 >= 0 ? sd->hdir[i2] : 0;
      if (fabs(b * d1 - sd->hval[i]) > tol || (i2 >= 0 && fabs(b * d2 - sd->hval[i2]) > tol))
        again = 1;
      double w1 = sd->w[i], w2 = i2 >= 0 ? sd->w[i2] : 0, sp = norm2(w1, w2);
      if (!(sp > SLIDE_EPS)) continue; /* held at the bound, not moving: admissible */
      if (w1 * d1 + w2 * d2 > 0) {
        /* moving along its impulse: it grips instead */
        sd->hold[i] = 0;
        if (i2 >= 0) sd->hold[i2] = 0;
        again = 1;
        continue;
      }
      double e1 = -w1 / sp, e2 = -w2 / sp;
      if (fabs(w1 * d2 - w2 * d1) > HELD_TOL_DIR * sp + HELD_TOL_SLIP) {
        sd->hdir[i] = e1;
        if (i2 >= 0) sd->hdir[i2] = e2;
        again = 1;
      }
    }
    /* Infeasible with the held values settled (a contact that should
     * slip, not only its bound in motion): the passes decide. */
    int feasible = trial_feasible(is);
    if (!again || (!feasible && it > 0)) {
      ok = feasible && !again;
      break;
    }
  }
  is->sticking = 0;
  is->held = 0;
  if (!ok) return 0;
  held_values(is);
  for (int i = 0; i < n; i++) {
    lk_row *R = &sd->row[is->rows[i]];
    if (sd->hold[i]) sd->z[i] = sd->hval[i];
    /* a held tangent pair that carries load slides: dynamic */
    if (R->crow == 1 && sd->hold[i] && sd->z[sd->rowloc[R->normal]] > 0) {
      lk_contact_mem *mem = &sd->cmem[R->cindex];
      if (mem->state != LK_FRICTION_DYNAMIC) {
        mem->state = LK_FRICTION_DYNAMIC;
        report->state_changes++;
      }
      R->mu = sd->contact[R->cindex].mu_dynamic;
      if (sd->row[R->pair].mu != 0) sd->row[R->pair].mu = R->mu;
    }
  }
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    double zn = R->kind == LK_ROW_FRICTION ? sd->z[sd->rowloc[R->normal]] : 0;
    sd->basis[i] = row_state(R, sd->z[i], sd->w[i], zn);
  }
  return 1;
}

/* The impulses and row states in hand (the last step's), as the friction
 * LCP expects them after a held trial that did not stand. */
static void in_hand(island *is) {
  lk_sim_data *sd = is->sd;
  for (int i = 0; i < is->n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    int valid;
    unsigned char *mem = row_slot(is->d, R, &valid);
    sd->basis[i] = mem && valid ? *mem : row_guess(R);
    sd->z[i] = 0;
    if (R->ckind == LK_CONSTRAINT_CONTACT && sd->cmem[R->cindex].valid)
      sd->z[i] = sd->cmem[R->cindex].z[R->crow];
  }
}

/* Stages 1 to 3 of an island (see the file's head and docs/contact.md):
 * *pass the LCP passes made, *changed whether the friction law still
 * wanted another when they ran out. */
static lk_status trial_and_passes(island *is, const lk_island_facts *f, lk_island_strategy start,
                                  lk_sim_report *report, int *pass_out, int *changed_out) {
  lk_sim_data *sd = is->sd;
  const lk_options *o = &is->m->opt;
  int n = is->n;
  lk_sim_rows_y(is->m, is->d, is->rows, n);
  build_base(is);
  /* New circle pairs start with their first axis against the free slip:
   * for one contact that is the friction direction, so usually no
   * re-alignment is needed at all. */
  if (o->friction_cone == LK_CONE_CIRCLE) {
    for (int i = 0; i < n; i++) {
      const lk_row *R = &sd->row[is->rows[i]];
      if (R->kind != LK_ROW_FRICTION || R->pair < 0 || R->ckind != LK_CONSTRAINT_CONTACT) continue;
      if (!(R->crow == 1 || R->crow == 4) || sd->cmem[R->cindex].valid) continue;
      int i2 = sd->rowloc[R->pair];
      double v1 = R->jv, v2 = sd->row[R->pair].jv, sp = norm2(v1, v2);
      if (sp > SLIDE_EPS) rotate_pair(is, i, i2, -v1 / sp, -v2 / sp);
    }
  }
  int pass = 0, changed = 1;
  /* The sticking trial: with every friction row an equality (all contacts
   * stick) the island is a symmetric positive semidefinite mixed LCP whose
   * ridge-regularized solution is unique and least-norm, so redundant
   * contacts share their loads evenly and every solver finds the same one.
   * If those impulses fit every friction bound, that is the answer; only
   * otherwise does some contact slip, and the full friction LCP decides
   * which (warm-started from the trial's basis). */
  /* The planner's start (plan.c): the sticking trial, or the held trial
   * of a turning contact before it; NSGS; the held trial of a sliding
   * contact before the friction LCP; or the friction LCP. */
  const int has_friction = f->has_friction, circle = f->circle, large = f->large;
  int held = 0, hpass = 0;
  const int coupled = coupled_last(is, 1);
  if (start == LK_ISLAND_STICKING || (start == LK_ISLAND_HELD && !f->sliding)) {
    lk_status st = LK_OK;
    /* A contact that turns (a rolling wheel): its rolling rows are at
     * their bound, so the plain trial cannot stand; straight to the held
     * trial, from the last step's impulses. */
    if (start == LK_ISLAND_HELD && held_select(is, 0, 0, 1) > 0) {
      if (!is->weighted) set_ridge_weights(is, 0);
      held = held_trial(is, report, &hpass);
      if (!held) in_hand(is);
    }
    if (held) {
      changed = 0;
      pass = hpass;
      is->answer = LK_ISLAND_HELD;
    } else {
      if (!is->weighted) set_ridge_weights(is, 0);
      is->sticking = 1;
      st = solve_once(is, report);
      pass = 1;
      if (st == LK_OK && trial_feasible(is)) changed = 0;
      if (changed && st == LK_OK) {
        /* Weighted by this trial's own loads (a new contact set, or loads
         * that moved): once more. */
        set_ridge_weights(is, 1);
        st = solve_once(is, report);
        pass++;
        if (st == LK_OK && trial_feasible(is)) changed = 0;
      }
      if (!changed) {
        keep_trial_factor(is); /* the trial stands: refine from it next step */
        is->answer = LK_ISLAND_STICKING;
      }
      is->sticking = 0;
      /* Rolling rows beyond their bound in the trial: held there instead
       * (the trial's answer is kept in zx / basisx, free in a boxed solve,
       * for the stages below if that does not stand either). */
      if (changed && st == LK_OK && circle && !large && held_select(is, 1, 0, 1) > 0) {
        memcpy(sd->zx, sd->z, (size_t)n * sizeof *sd->z);
        memcpy(sd->basisx, sd->basis, (size_t)n);
        hpass = 0;
        held = held_trial(is, report, &hpass);
        if (held) {
          changed = 0;
          pass += hpass;
          is->answer = LK_ISLAND_HELD;
        } else {
          memcpy(sd->z, sd->zx, (size_t)n * sizeof *sd->z);
          memcpy(sd->basis, sd->basisx, (size_t)n);
        }
      }
    }
    for (int i = 0; i < n; i++) sd->rw[i] = 1;
    if (!held)
      for (int i = 0; i < n; i++) {
        const lk_row *R = &sd->row[is->rows[i]];
        if (R->kind == LK_ROW_FRICTION || R->kind == LK_ROW_BOX) sd->basis[i] = LK_LCP_BASIC;
      }
    /* Some contact slips: a large island goes to NSGS from the trial's
     * impulses (solve_island). */
    if (changed && st == LK_OK && large && began_at_rest(is)) {
      for (int i = 0; i < n; i++) sd->zfix[i] = sd->z[i];
      if (fixed_cuts(is, report, 1)) {
        changed = 0;
        coupled_answer(is, report);
      } else if (coupled) {
        in_hand(is); /* NSGS from the last answer, as when the trial is skipped */
      } else {
        for (int i = 0; i < n; i++) sd->z[i] = sd->zfix[i];
      }
    }
    if (changed && large) {
      is->iterative = 1;
      return LK_OK;
    }
    /* The trial's even shares overflowed some contact's bound (the loads
     * are uneven: a push tilts them onto the front edge). With the normal
     * impulses held at the trial's, the friction distribution is a convex
     * box-constrained problem with a unique least-norm solution; if that
     * sticks everywhere and its friction fits the bounds of its own
     * normals, the body sticks with that distribution. (Circle pairs are
     * re-aligned along their force until they fit the disk.) */
    if (changed && st == LK_OK) {
      for (int i = 0; i < n; i++) sd->zfix[i] = sd->z[i];
      pass++;
      int ok = fixed_cuts(is, report, 0);
      /* Still no sticking answer: the normal impulses may have to shift
       * with the friction (a rope round a capstan, a finger wrapped round
       * an object: the tension, and so the pressure, changes along the
       * contacts). The same convex problem with the normals free finds a
       * sticking answer whenever one exists inside the polygons (its
       * optimum's A z is unique, and a sticking answer is an optimum). */
      if (ok) {
        changed = 0;
        answer_states(is);
        is->answer = LK_ISLAND_FIXED_NORMALS;
      } else {
        /* (not counted among the passes: the friction LCP keeps them all) */
        for (int i = 0; i < n; i++) sd->z[i] = sd->zfix[i];
        if (began_at_rest(is) && fixed_cuts(is, report, 1)) {
          changed = 0;
          coupled_answer(is, report);
        }
      }
    }
  }
  if (start == LK_ISLAND_NSGS) {
    is->iterative = 1; /* NSGS from the last impulses */
    return LK_OK;
  }
  /* Some contact slides: the held trial, from the last step's impulses,
   * before the friction LCP (whose pivoting splits redundant sliding
   * supports at a vertex). */
  if (start == LK_ISLAND_HELD && f->sliding && held_select(is, 0, 1, 1) > 0) {
    if (!is->weighted) set_ridge_weights(is, 0);
    hpass = 0;
    held = held_trial(is, report, &hpass);
    for (int i = 0; i < n; i++) sd->rw[i] = 1;
    if (held) {
      changed = 0;
      pass = hpass;
      is->answer = LK_ISLAND_HELD;
    } else {
      in_hand(is);
    }
  }
  while (changed && pass < o->friction_iterations + (has_friction ? 1 : 0)) {
    pass++;
    is->answer = LK_ISLAND_LCP;
    lk_status st = solve_once(is, report);
    if (st) return st;
    changed = friction_update(is, report, 2 * pass > o->friction_iterations);
  }
  /* The diagonal in the tangent basis the contacts keep (trial_by_guess's
   * ridge scale next step). */
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    if (R->ckind == LK_CONSTRAINT_CONTACT) sd->cmem[R->cindex].adiag[R->crow] = sd->adiag[i];
  }
  *pass_out = pass;
  *changed_out = changed;
  return LK_OK;
}

/* What the planner needs of a dense island (plan.h), its impulses in
 * hand in sd->z. */
static void island_facts(island *is, lk_island_facts *f) {
  const lk_sim_data *sd = is->sd;
  f->guessable = guessable(is, &f->guess_wait, &f->impulses);
  f->has_friction = f->sliding = 0;
  for (int i = 0; i < is->n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    if (R->kind == LK_ROW_FRICTION || R->kind == LK_ROW_BOX) f->has_friction = 1;
    if (R->ckind == LK_CONSTRAINT_CONTACT && R->crow == 0 && sd->cmem[R->cindex].valid &&
        sd->cmem[R->cindex].state == LK_FRICTION_DYNAMIC)
      f->sliding = 1;
  }
  f->coupled_last = coupled_last(is, 0);
  f->saturated_last = saturated_last(is);
  f->large = iterative_pays(is);
  f->circle = is->m->opt.friction_cone == LK_CONE_CIRCLE;
  f->turning = f->circle ? held_select(is, 0, 0, 0) : 0;
  f->slipping = f->circle ? held_select(is, 0, 1, 0) : 0;
}

static lk_status solve_island(island *is, const lk_island_facts *f, const lk_island_plan *p,
                              lk_sim_report *report) {
  lk_sim_data *sd = is->sd;
  const lk_options *o = &is->m->opt;
  int n = is->n;
  int pass = 0, changed = 1;
  lk_island_strategy start = p->first;
  if (f->guessable && f->guess_wait > 0) guess_outcome(is, -1); /* a wait counts down */
  if (start == LK_ISLAND_GUESS) {
    if (trial_by_guess(is, report)) {
      pass = 1;
      changed = 0;
      is->answer = LK_ISLAND_GUESS;
    } else {
      start = p->then;
    }
  }
  if (start != LK_ISLAND_GUESS) {
    lk_status st = trial_and_passes(is, f, start, report, &pass, &changed);
    if (st) return st;
    if (is->iterative) {
      /* NSGS on the matrix the trial built (its base diagonal back) */
      for (int i = 0; i < n; i++) sd->A[(size_t)i * n + i] = sd->adiag[i];
      sd->sparse->dense = sd->A;
      st = lk_sim_solve_iterative(is->m, is->d, is->rows, n, sd->z, 1, report);
      sd->sparse->dense = NULL;
      is->answer = LK_ISLAND_NSGS;
      return st;
    }
  }
  if (pass > report->friction_passes) report->friction_passes = pass;
  if (changed || is->over) {
    if (changed) report->friction_unconverged++;
    /* The passes ran out (or a pair exceeds its disk by the solver's
     * tolerance): never accept a force outside its cone. Pairs
     * beyond their disk are brought back onto it (weaker friction, never
     * stronger than Coulomb's); the velocity follows from the impulses
     * actually applied. */
    if (o->friction_cone == LK_CONE_CIRCLE) {
      for (int i = 0; i < n; i++) {
        lk_row *R = &sd->row[is->rows[i]];
        if (R->kind != LK_ROW_FRICTION || R->pair < 0 || !(R->crow == 1 || R->crow == 4)) continue;
        int i2 = sd->rowloc[R->pair];
        double bound = R->mu * fmax(sd->z[sd->rowloc[R->normal]], 0);
        if (sd->row[R->pair].mu == 0) bound = R->mu * fmax(sd->z[sd->rowloc[R->normal]], 0);
        double fr = norm2(sd->z[i], sd->z[i2]);
        if (fr > bound) {
          double k = fr > 0 ? bound / fr : 0;
          sd->z[i] *= k;
          sd->z[i2] *= k;
        }
      }
      /* w for the reports, with the impulses now in force */
      for (int i = 0; i < n; i++) {
        double w = sd->b[i];
        for (int j = 0; j < n; j++) w += sd->A[(size_t)i * n + j] * sd->z[j];
        sd->w[i] = w;
      }
    }
  }
  /* Final impulses, velocities and remembered states. */
  for (int i = 0; i < n; i++) {
    lk_row *R = &sd->row[is->rows[i]];
    R->z = sd->z[i];
    R->w = sd->w[i];
    int valid;
    unsigned char *mem = row_slot(is->d, R, &valid);
    if (mem) *mem = sd->basis[i];
    if (R->ckind == LK_CONSTRAINT_LIMIT) sd->limmem[R->cindex].valid = 1;
  }
  /* Back to static once the slip has died out (for the next step); a
   * pair still sliding along -t1 with its lock starts the next step so. */
  for (int i = 0; i < n; i++) {
    lk_row *R = &sd->row[is->rows[i]];
    if (R->ckind != LK_CONSTRAINT_CONTACT || R->crow != 1) continue;
    lk_contact_mem *mem = &sd->cmem[R->cindex];
    double speed = norm2(sd->w[i], sd->w[sd->rowloc[R->pair]]);
    if (mem->state == LK_FRICTION_DYNAMIC && speed < o->slip_threshold) {
      mem->state = LK_FRICTION_STATIC;
      report->state_changes++;
    }
    mem->locked = !changed && mem->state == LK_FRICTION_DYNAMIC && R->mu > 0 &&
                  sd->row[R->pair].mu == 0 && R->pair >= 0;
  }
  return LK_OK;
}

/* Island k of the step's grouping: planned (plan.c), solved, and its
 * report kept at its first row (sd->island_note). */
static lk_status solve_one(const lk_model *m, lk_data *d, int k) {
  lk_sim_data *sd = &d->sim;
  lk_sim_report *report = &sd->st->report;
  island is;
  memset(&is, 0, sizeof is);
  is.m = m;
  is.d = d;
  is.sd = sd;
  is.rows = sd->island_rows + sd->island_start[k];
  is.n = sd->island_start[k + 1] - sd->island_start[k];
  if (is.n > report->largest_island) report->largest_island = is.n;
  lk_island_facts f;
  memset(&f, 0, sizeof f);
  f.rows = is.n;
  f.dense_cap = sd->island_cap;
  f.row_limit = m->opt.max_island_rows > 0;
  f.sparse = sd->sparse != NULL;
  if (is.n <= sd->island_cap) {
    for (int i = 0; i < is.n; i++) sd->rw[i] = 1;
    in_hand(&is);
    island_facts(&is, &f);
  }
  const lk_island_plan p = lk_island_plan_choose(&f);
  lk_island_report *note = &sd->island_note[is.rows[0]]; /* rows, contacts: set */
  note->planned = p.first;
  note->reason = p.reason;
  note->answered = LK_ISLAND_NONE;
  note->settled = 0;
  if (p.status) {
    report->detail = "an island has more rows than options max_island_rows";
    return p.status;
  }
  const lk_sim_report before = *report;
  lk_status st;
  if (p.first == LK_ISLAND_SPARSE) {
    /* direct.c: a guess, the sparse sticking trial when its contacts are
     * static, else NSGS; which one answered, from its counts */
    st = lk_sim_solve_direct(m, d, is.rows, is.n, report);
    is.answer = report->direct_solves > before.direct_solves ? LK_ISLAND_SPARSE_TRIAL
                : report->guess_answers > before.guess_answers ? LK_ISLAND_GUESS
                                                               : LK_ISLAND_NSGS;
  } else {
    st = solve_island(&is, &f, &p, report);
  }
  lk_row *first = &sd->row[is.rows[0]];
  first->unconv[0] = report->friction_unconverged - before.friction_unconverged;
  first->unconv[1] = report->nsgs_loose - before.nsgs_loose;
  note->answered = is.answer;
  note->settled = st == LK_OK && first->unconv[0] == 0 && first->unconv[1] == 0;
  return st;
}

/* The rows set aside (island.c: speculative contacts their free motion
 * leaves open) against the islands' answer: u = M~^-1 J^T z on the trees
 * they touch, then each set-aside row's w = J v* + bias + J u, which is
 * its w at the answer with its own impulse zero. A contact whose normal
 * row would close (w < 0) is marked to be taken back in (R->aside 3);
 * returns how many were. */
static int aside_check(const lk_model *m, lk_data *d) {
  lk_sim_data *sd = &d->sim;
  int grouped = sd->island_start[sd->st->nisland], nrow = sd->st->nrow;
  const int *aside = sd->island_rows + grouped;
  int na = nrow - grouped, forced = 0;
  double *u = sd->xtmp;
  int *mark = sd->uf; /* per tree root: 1 touched by a row set aside, 2 zeroed */
  memset(mark, 0, (size_t)m->nlink * sizeof *mark);
  for (int i = 0; i < na; i++) {
    const lk_row *R = &sd->row[aside[i]];
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++)
      if (!mark[R->tree[g]]) {
        mark[R->tree[g]] = 1;
        memset(u + R->v0[g], 0, (size_t)R->len[g] * sizeof *u);
      }
  }
  for (int i = 0; i < grouped; i++) {
    int r = sd->island_rows[i];
    const lk_row *R = &sd->row[r];
    if (R->z == 0) continue;
    int touch = 0;
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++) touch |= mark[R->tree[g]];
    if (!touch) continue;
    /* J^T z over both of its trees; a tree not marked is never read */
    lk_rows_axpy(d, r, R->z, 0, u);
  }
  for (int i = 0; i < na; i++) {
    const lk_row *R = &sd->row[aside[i]];
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++)
      if (mark[R->tree[g]] == 1) {
        mark[R->tree[g]] = 2;
        lk_dyn_solve_range(m, d, u, R->v0[g], R->v0[g] + R->len[g]);
      }
  }
  for (int i = 0; i < na; i++) {
    lk_row *R = &sd->row[aside[i]];
    R->w = R->jv + R->bias + lk_rows_dot(d, aside[i], u);
    if (R->crow == 0 && R->aside == 1 && R->w < 0) {
      /* the contact's rows follow its normal row */
      for (int j = i; j < na && sd->row[aside[j]].cindex == R->cindex &&
                      sd->row[aside[j]].ckind == LK_CONSTRAINT_CONTACT;
           j++)
        sd->row[aside[j]].aside = 3;
      forced++;
    }
  }
  return forced;
}

/* The rows set aside keep z = 0: w as aside_check found it, the LCP state
 * an open contact has, no velocity change (marked guessed: sim.dvg, zero
 * on their trees unless an island answered by its last impulses put its
 * change there, which constrain.c adds once a tree either way). */
static void aside_finish(const lk_model *m, lk_data *d) {
  lk_sim_data *sd = &d->sim;
  int grouped = sd->island_start[sd->st->nisland], nrow = sd->st->nrow;
  for (int i = grouped; i < nrow; i++) {
    lk_row *R = &sd->row[sd->island_rows[i]];
    R->z = 0;
    R->guessed = 1;
    int valid;
    unsigned char *slot = row_slot(d, R, &valid);
    if (slot) *slot = row_state(R, 0, R->w, 0);
    if (R->ckind != LK_CONSTRAINT_CONTACT || R->crow != 1) continue;
    lk_contact_mem *mem = &sd->cmem[R->cindex];
    double w2 = R->pair >= 0 ? sd->row[R->pair].w : 0;
    if (mem->state == LK_FRICTION_DYNAMIC && norm2(R->w, w2) < m->opt.slip_threshold) {
      mem->state = LK_FRICTION_STATIC;
      sd->st->report.state_changes++;
    }
    mem->locked = 0;
  }
}

void lk_sim_island_notes(lk_data *d, const char *reason, int settled) {
  lk_sim_data *sd = &d->sim;
  for (int k = 0; k < sd->st->nisland; k++) {
    const int *rows = sd->island_rows + sd->island_start[k];
    int n = sd->island_start[k + 1] - sd->island_start[k], contacts = 0;
    for (int i = 0; i < n; i++)
      contacts += sd->row[rows[i]].ckind == LK_CONSTRAINT_CONTACT && sd->row[rows[i]].crow == 0;
    sd->island_note[rows[0]] =
        (lk_island_report){n, contacts, LK_ISLAND_NONE, reason, LK_ISLAND_NONE, settled};
  }
}

lk_status lk_sim_solve_islands(const lk_model *m, lk_data *d) {
  lk_sim_data *sd = &d->sim;
  lk_sim_report *report = &sd->st->report;
  /* With rows set aside, what the solves change of the rows' friction
   * (states, bounds, remembered LCP states) as the step began: an island
   * that a contact taken back in joins is solved again from there, as if
   * it had been whole from the start. */
  if (sd->st->nrow > sd->island_start[sd->st->nisland])
    for (int r = 0; r < sd->st->nrow; r++) {
      lk_row *R = &sd->row[r];
      int valid;
      const unsigned char *slot = row_slot(d, R, &valid);
      R->mu0 = R->mu;
      R->basis0 = slot ? *slot : 0;
      R->state0 = R->ckind == LK_CONSTRAINT_CONTACT ? (int)sd->cmem[R->cindex].state : 0;
    }
  lk_sim_island_notes(d, "not solved: the step failed at an earlier island", 0);
  for (int k = 0; k < sd->st->nisland; k++) {
    lk_status st = solve_one(m, d, k);
    if (st) return st;
  }
  /* Rows set aside (island.c) whose gap the islands' impulses close after
   * all: taken back in, and the islands they join solved again (each
   * round takes at least one contact in: at most as many rounds). */
  while (sd->st->nrow > sd->island_start[sd->st->nisland] && aside_check(m, d) > 0) {
    lk_sim_islands_regroup(m, d);
    report->nislands = sd->st->nisland;
    for (int k = 0; k < sd->st->nisland; k++) {
      const int *rows = sd->island_rows + sd->island_start[k];
      int n = sd->island_start[k + 1] - sd->island_start[k], fresh = 0;
      for (int i = 0; i < n && !fresh; i++) fresh = sd->row[rows[i]].aside == 3;
      if (!fresh) continue; /* its rows and answer as they were */
      /* an island answered by its last impulses left its velocity change
       * in sim.dvg: forgotten before the island is solved again */
      for (int i = 0; i < n; i++) {
        lk_row *R = &sd->row[rows[i]];
        int valid;
        unsigned char *slot = row_slot(d, R, &valid);
        if (slot) *slot = (unsigned char)R->basis0;
        R->mu = R->mu0;
        if (R->ckind == LK_CONSTRAINT_CONTACT) sd->cmem[R->cindex].state = (lk_friction_state)R->state0;
        R->realigned = 0;
        R->turn_valid = 0;
        R->unlocked = 0;
        R->turn_prop = 0;
        R->turn_step = 0;
        R->turn_gain = 0;
        /* the counts of the islands it joins are this solve's to make */
        report->friction_unconverged -= R->unconv[0];
        report->nsgs_loose -= R->unconv[1];
        R->unconv[0] = R->unconv[1] = 0;
        if (!R->guessed) continue;
        for (int g = 0; g < 2 && R->tree[g] >= 0; g++)
          memset(sd->dvg + R->v0[g], 0, (size_t)R->len[g] * sizeof *sd->dvg);
        R->guessed = 0;
      }
      lk_status st = solve_one(m, d, k);
      if (st) return st;
    }
    for (int i = 0; i < sd->st->nrow; i++)
      if (sd->row[i].aside == 3) sd->row[i].aside = 2;
  }
  report->aside_contacts = 0;
  for (int i = sd->island_start[sd->st->nisland]; i < sd->st->nrow; i++)
    report->aside_contacts += sd->row[sd->island_rows[i]].crow == 0;
  aside_finish(m, d);
  return LK_OK;
}
