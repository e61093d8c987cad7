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
#include "sim/island_solve.h"


enum { ROLE_ROW, ROLE_PLUS, ROLE_MINUS, ROLE_SLACK, ROLE_EDGE };


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

/* NSGS after Newton where the passes ran out and Newton stalled too: one
 * attempt of this many sweeps from Newton's best iterate. Two exact
 * methods have failed on such an island (a grip's or a heap's degenerate
 * contacts); NSGS's full ladder after them (up to three attempts of
 * 10 000 sweeps) made bench/grasp's trial 3.6 times slower (119.7 against
 * 33.1 ms CPU before Newton took these islands) and left as many
 * unsettled: 481 islands against 483 before Newton and 470 with this
 * budget (54 ms). */
#define PASSES_NSGS_SWEEPS 200

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
unsigned char lk_island_row_state(const lk_row *R, double z, double w, double znormal) {
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

void lk_island_ridge_weights(island *is, int use_current) {
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
   * posed, where pivoting resolves degeneracy and accuracy matters. A
   * loop's rows always have it: a loop closed by a ball joint in a plane
   * (Cassie's legs, MJCF connect) repeats rows, its Delassus block is
   * singular, and pivoting failed on it at CFM 0 every step, answered by
   * the CFM fallback (Cassie's scene: 833 of 2000 steps); the ridge
   * picks the least-norm loop forces instead, at 3e-10 of the diagonal. */
  double ridge = is->sticking || is->fixed ? RIDGE * dmax : 0;
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    /* (the friction LCP proper: its normal rows' ridge is refined away,
     * lk_island_refine) */
    double r = R->ckind == LK_CONSTRAINT_LOOP ? RIDGE * dmax
               : is->sticking || is->fixed    ? ridge * sd->rw[i]
               : R->kind == LK_ROW_UNILATERAL ? RIDGE_FULL * dmax
                                              : 0;
    sd->A[i * n + i] = sd->adiag[i] + r + is->cfm;
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
  if (!is->sticking && !is->fixed && !is->refining) o.z_guess = sd->z;
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

/* Lemke on an expanded problem of order n (matrix M, and sd->qx, lox, hix),
 * warm from and back into sd->basisx, into sd->zx, wx. */
lk_status lk_island_lemke_expanded(lk_sim_data *sd, int n, const double *M, lk_lcp_report *rep) {
  lk_lcp p = {.n = n, .M = M, .ldm = n, .q = sd->qx, .lo = sd->lox, .hi = sd->hix};
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  o.basis_in = sd->basisx;
  o.basis_out = sd->basisx;
  return lk_lcp_solve(lk_lcp_lemke, &p, &o, sd->lcp, sd->zx, sd->wx, rep);
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
  st = lk_island_lemke_expanded(sd, nx, Ax, rep);
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
    sd->basis[i] = lk_island_row_state(R, sd->z[i], sd->w[i], zn);
  }
  return st;
}

/* ------------------------------------------------ solve with fallbacks */

/* One solve of the island's problem as built: Dantzig, or Lemke -- the
 * LCP layer's own Stewart-Trinkle form of the boxed problem (with its
 * reinversions and end-of-path repair) where it applies, this layer's
 * expansion for pyramids and rolling contacts. */
static lk_status solve_by(island *is, int dantzig, int pyramid, lk_lcp_report *rep) {
  return dantzig ? solve_dantzig(is, rep)
         : (!pyramid && lemke_takes_boxed(is)) ? solve_boxed(is, lk_lcp_lemke, rep)
                                               : solve_lemke(is, pyramid, rep);
}

/* The friction LCP proper's normal rows carry a ridge r (RIDGE_FULL of the
 * largest diagonal, build_matrix) so that redundant contacts -- a face's
 * four corners, a grip's two pads -- share their normal loads as the
 * least-norm answer does, instead of pivoting's vertex answer that puts a
 * sliding face's load on one corner (its mu_d friction then turns the
 * body: a shaken cube turned 9-31 degrees in a symmetric grip). The ridge's own
 * error, r z on the velocities, is then taken out by proximal-point steps
 * (Rockafellar, "Monotone operators and the proximal point algorithm",
 * 1976): (A + R) z' + b - R z, warm from the last basis; their fixed point
 * solves the LCP as posed, the part of z in A's null space (the shares)
 * stays where the ridge put it, and the rest converges as (r / lambda)^k,
 * lambda A's smallest nonzero eigenvalue on the active set: two steps
 * bring it to rounding (REFINE_STEPS at most, until z moves by less than
 * 1e-15 of its largest). A step that fails keeps the answer in hand
 * (the first one: counted in ridge_kept). Called once the friction passes
 * end, on the answer that stands (a refinement after every pass cost
 * bench/grasp's trial 21 % of its time; once, its 96 trials took 49.2e9
 * instructions against 56.3e9 unridged). The island's matrix is left as
 * posed, without the ridge. */
void lk_island_refine(island *is, lk_sim_report *report) {
  lk_sim_data *sd = is->sd;
  int n = is->n, dantzig = is->ridged_dantzig;
  int pyramid = is->m->opt.friction_cone == LK_CONE_PYRAMID;
  if (!is->ridged) return;
  is->ridged = 0;
  for (int k = 0; k < REFINE_STEPS; k++) {
    double moved = 0, zmax = 0;
    for (int i = 0; i < n; i++) {
      const lk_row *R = &sd->row[is->rows[i]];
      double r = sd->A[(size_t)i * n + i] - sd->adiag[i] - is->cfm;
      sd->b[i] = R->jv + R->bias - r * sd->z[i];
      sd->zref[i] = sd->z[i];
      sd->wref[i] = sd->w[i];
      sd->bref[i] = sd->basis[i];
    }
    is->refining = 1;
    lk_lcp_report rep;
    lk_status st = solve_by(is, dantzig, pyramid, &rep);
    is->refining = 0;
    report->lcp_solves++;
    report->lcp_pivots += rep.pivots;
    if (st != LK_OK || !lk_all_finite(sd->z, (size_t)n)) {
      for (int i = 0; i < n; i++) {
        sd->z[i] = sd->zref[i];
        sd->w[i] = sd->wref[i];
        sd->basis[i] = sd->bref[i];
      }
      if (k == 0) report->ridge_kept++;
      break;
    }
    for (int i = 0; i < n; i++) {
      moved = fmax(moved, fabs(sd->z[i] - sd->zref[i]));
      zmax = fmax(zmax, fabs(sd->z[i]));
    }
    if (moved <= 1e-15 * zmax) break;
  }
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    sd->b[i] = R->jv + R->bias;
    sd->A[(size_t)i * n + i] = sd->adiag[i] + is->cfm;
  }
}

lk_status lk_island_solve_once(island *is, lk_sim_report *report) {
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
    lk_status st = solve_by(is, dantzig, pyramid, &rep);
    report->lcp_solves++;
    report->lcp_pivots += rep.pivots;
    if (st == LK_OK) {
      /* the friction LCP proper's answer is refined once the passes are
       * done (lk_island_refine) */
      is->ridged = !is->sticking && !is->fixed;
      is->ridged_dantzig = dantzig;
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
    double speed = lk_island_norm2(w1, w2);
    int aligned = R2->mu == 0 && R->mu > 0;
    lk_contact_mem *mem = &sd->cmem[R->cindex];
    /* Complementarity: a pair slides only with its friction at the bound.
     * A speed without that is the solver's round-off or a regularization's
     * creep, not slip. */
    double bound0 = R->mu * fabs(sd->z[sd->rowloc[R->normal]]);
    double fmag = fmax(lk_island_norm2(z1, z2), fmax(fabs(z1), fabs(z2)));
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
    /* (friction rows have no bias: an anchored contact's offset is taken
     * back by a projection after the step, lib/sim/anchor.c, so w is the
     * slip itself) */
    if (R->crow == 1 && mem->state == LK_FRICTION_STATIC && sliding &&
        lk_sim_slip_sustained(is->m, mem, speed)) {
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
    double f = lk_island_norm2(z1, z2);
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
int lk_island_feasible(const island *is) {
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
    } else if (lk_island_norm2(z, z2) > bound) {
      return 0;
    }
  }
  return 1;
}



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
    sd->basis[i] = lk_island_row_state(R, sd->z[i], sd->w[i], zn);
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
      double v1 = R->jv, v2 = sd->row[R->pair].jv, sp = lk_island_norm2(v1, v2);
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
    if (start == LK_ISLAND_HELD && lk_island_held_select(is, 0, 0, 1) > 0) {
      if (!is->weighted) lk_island_ridge_weights(is, 0);
      held = lk_island_held_trial(is, report, &hpass);
      if (!held) in_hand(is);
    }
    if (held) {
      changed = 0;
      pass = hpass;
      is->answer = LK_ISLAND_HELD;
    } else {
      if (!is->weighted) lk_island_ridge_weights(is, 0);
      is->sticking = 1;
      st = lk_island_solve_once(is, report);
      pass = 1;
      if (st == LK_OK && lk_island_feasible(is)) changed = 0;
      if (changed && st == LK_OK) {
        /* Weighted by this trial's own loads (a new contact set, or loads
         * that moved): once more. */
        lk_island_ridge_weights(is, 1);
        st = lk_island_solve_once(is, report);
        pass++;
        if (st == LK_OK && lk_island_feasible(is)) changed = 0;
      }
      if (!changed) {
        lk_island_keep_factor(is); /* the trial stands: refine from it next step */
        is->answer = LK_ISLAND_STICKING;
      }
      is->sticking = 0;
      /* Rolling rows beyond their bound in the trial: held there instead
       * (the trial's answer is kept in zx / basisx, free in a boxed solve,
       * for the stages below if that does not stand either). */
      if (changed && st == LK_OK && circle && !large && lk_island_held_select(is, 1, 0, 1) > 0) {
        memcpy(sd->zx, sd->z, (size_t)n * sizeof *sd->z);
        memcpy(sd->basisx, sd->basis, (size_t)n);
        hpass = 0;
        held = lk_island_held_trial(is, report, &hpass);
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
      if (lk_island_fixed_cuts(is, report, 1)) {
        changed = 0;
        coupled_answer(is, report);
      } else if (coupled) {
        in_hand(is); /* NSGS from the last answer, as when the trial is skipped */
      } else {
        for (int i = 0; i < n; i++) sd->z[i] = sd->zfix[i];
      }
    }
    if (changed && large) {
      is->iterative = LK_ISLAND_NEWTON; /* something slips in a large island */
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
      int ok = lk_island_fixed_cuts(is, report, 0);
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
        if (began_at_rest(is) && lk_island_fixed_cuts(is, report, 1)) {
          changed = 0;
          coupled_answer(is, report);
        }
      }
    }
  }
  if (start == LK_ISLAND_NSGS || start == LK_ISLAND_NEWTON) {
    is->iterative = start; /* from the last impulses */
    return LK_OK;
  }
  /* Some contact slides: the held trial, from the last step's impulses,
   * before the friction LCP (whose pivoting splits redundant sliding
   * supports at a vertex). */
  if (start == LK_ISLAND_HELD && f->sliding && lk_island_held_select(is, 0, 1, 1) > 0) {
    if (!is->weighted) lk_island_ridge_weights(is, 0);
    hpass = 0;
    held = lk_island_held_trial(is, report, &hpass);
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
    lk_status st = lk_island_solve_once(is, report);
    if (st) return st;
    changed = friction_update(is, report, 2 * pass > o->friction_iterations);
  }
  /* the passes decided on the ridged answers (the ridge's error in the
   * velocities is about 1e-7 of the step's change, mostly the normal
   * rows'); the answer that stands is refined to the LCP as posed */
  lk_island_refine(is, report);
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
 * hand in sd->z. The guess rule reads only the size and the guess's own
 * facts, so an island whose guess is ready gathers the rest (island_facts)
 * only when the guess misses and the plan goes on without it: a resting
 * pile's step reads its rows' memory once, not seven times. */
static void guess_facts(island *is, lk_island_facts *f) {
  f->guessable = lk_island_guessable(is, &f->guess_wait, &f->impulses);
}

static void island_facts(island *is, lk_island_facts *f) {
  const lk_sim_data *sd = is->sd;
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
  f->turning = f->circle ? lk_island_held_select(is, 0, 0, 0) : 0;
  f->slipping = f->circle ? lk_island_held_select(is, 0, 1, 0) : 0;
}

static lk_status solve_island(island *is, lk_island_facts *f, const lk_island_plan *p,
                              lk_sim_report *report) {
  lk_sim_data *sd = is->sd;
  const lk_options *o = &is->m->opt;
  int n = is->n;
  int pass = 0, changed = 1;
  lk_island_strategy start = p->first;
  if (f->guessable && f->guess_wait > 0) lk_island_guess_outcome(is, -1); /* a wait counts down */
  if (start == LK_ISLAND_GUESS) {
    if (lk_island_guess(is, report)) {
      pass = 1;
      changed = 0;
      is->answer = LK_ISLAND_GUESS;
    } else {
      /* the plan without the guess, on the whole facts (guess_facts) */
      island_facts(is, f);
      start = lk_island_plan_choose(f).then;
    }
  }
  if (start != LK_ISLAND_GUESS) {
    lk_status st = trial_and_passes(is, f, start, report, &pass, &changed);
    if (st) return st;
    if (is->iterative) {
      /* NSGS or Newton on the matrix the trial built (its base diagonal
       * back) */
      for (int i = 0; i < n; i++) sd->A[(size_t)i * n + i] = sd->adiag[i];
      sd->sparse->dense = sd->A;
      st = lk_sim_solve_iterative(is->m, is->d, is->rows, n, sd->z, 1,
                                  (lk_island_strategy)is->iterative, report);
      sd->sparse->dense = NULL;
      is->answer = (lk_island_strategy)sd->sparse->answered;
      return st;
    }
  }
  if (pass > report->friction_passes) report->friction_passes = pass;
  if (changed && o->friction_cone == LK_CONE_CIRCLE && sd->sparse) {
    /* The passes ran out (a contact's state or its circle's alignment
     * kept changing): the exact cone by Newton from their last impulses,
     * rather than an unsettled answer. On the dropped heap of 50 boxes
     * 886 of 2 916 small sliding islands ended so. Where Newton stalls
     * too, NSGS gets one attempt of PASSES_NSGS_SWEEPS from its best
     * iterate, not its full ladder. */
    for (int i = 0; i < n; i++) sd->A[(size_t)i * n + i] = sd->adiag[i];
    sd->sparse->dense = sd->A;
    sd->sparse->fallback_sweeps = PASSES_NSGS_SWEEPS;
    lk_status st =
        lk_sim_solve_iterative(is->m, is->d, is->rows, n, sd->z, 1, LK_ISLAND_NEWTON, report);
    sd->sparse->fallback_sweeps = 0;
    sd->sparse->dense = NULL;
    is->answer = (lk_island_strategy)sd->sparse->answered;
    return st;
  }
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
        double fr = lk_island_norm2(sd->z[i], sd->z[i2]);
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
    double speed = lk_island_norm2(sd->w[i], sd->w[sd->rowloc[R->pair]]);
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
  f.forced = (lk_island_strategy)m->opt.island_strategy;
  if (is.n <= sd->island_cap) {
    for (int i = 0; i < is.n; i++) sd->rw[i] = 1;
    in_hand(&is);
    guess_facts(&is, &f);
  }
  /* (a guess's plan on these facts alone has no `then` to go by:
   * solve_island plans again, on the whole facts, after a miss) */
  lk_island_plan p = lk_island_plan_choose(&f);
  if (is.n <= sd->island_cap && (p.first != LK_ISLAND_GUESS || f.forced != LK_ISLAND_NONE)) {
    island_facts(&is, &f);
    p = lk_island_plan_choose(&f);
  }
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
                : report->guess_answers > before.guess_answers
                    ? LK_ISLAND_GUESS
                    : sd->sparse ? (lk_island_strategy)sd->sparse->answered : LK_ISLAND_NSGS;
  } else {
    st = solve_island(&is, &f, &p, report);
  }
  lk_row *first = &sd->row[is.rows[0]];
  first->unconv[0] = report->friction_unconverged - before.friction_unconverged;
  first->unconv[1] = report->nsgs_loose - before.nsgs_loose;
  note->answered = is.answer;
  note->settled = st == LK_OK && first->unconv[0] == 0 && first->unconv[1] == 0;
  note->solves = report->lcp_solves - before.lcp_solves;
  note->iterations = (long)(report->lcp_pivots - before.lcp_pivots) +
                     (report->nsgs_sweeps - before.nsgs_sweeps) +
                     (report->newton_iterations - before.newton_iterations);
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
    if (slot) *slot = lk_island_row_state(R, 0, R->w, 0);
    if (R->ckind != LK_CONSTRAINT_CONTACT || R->crow != 1) continue;
    lk_contact_mem *mem = &sd->cmem[R->cindex];
    double w2 = R->pair >= 0 ? sd->row[R->pair].w : 0;
    if (mem->state == LK_FRICTION_DYNAMIC && lk_island_norm2(R->w, w2) < m->opt.slip_threshold) {
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
        (lk_island_report){n, contacts, LK_ISLAND_NONE, reason, LK_ISLAND_NONE, settled, 0, 0};
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
