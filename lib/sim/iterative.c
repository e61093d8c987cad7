/* An island beyond the dense size (issue 20), or a large one where
 * something slides: the semismooth Newton (lk_lcp_newton, planned
 * LK_ISLAND_NEWTON, on A in compressed rows; see NEWTON_ITER below) and
 * non-smooth Gauss-Seidel
 * (lk_lcp_nsgs) on its Delassus matrix A = J M~^-1 J^T in product form,
 * G = J and H = Y = (M~^-1 J^T)^T over the model's DoFs (lk_lcp_prod,
 * the rows' tree segments as they are, copied in island order), never
 * formed: a sweep costs the rows' J and Y entries (12 a contact row
 * between two bodies) where A has k^2 entries a body of k rows (a box of
 * a pile with 20 contacts: 60 x 60), as ODE's quickstep. The dense
 * islands NSGS takes (solve.c: iterative_pays, a sliding chain) are
 * solved on A in compressed rows (sparse.c), which on one long tree is
 * no larger than the product.
 *
 * The island is one friction-contact problem: a contact's normal row with
 * [0, inf) and its tangent rows as a circle pair (the exact isotropic
 * cone, solved in closed form per contact; with the box cone two boxes;
 * a pyramid is solved on the disk it is inscribed in), its torsion row
 * bounded by its normal, its rolling pair a disk; limits [0, inf),
 * bilateral rows free, dry friction boxed. Each contact's coefficient is
 * its friction state's (mu_static while static, mu_dynamic while
 * dynamic), as in the dense path; a static contact that slides with its
 * friction at the bound becomes dynamic and, when that changes its
 * coefficient, the island is solved again from where it stood (at most
 * friction_iterations passes), and a dynamic contact whose slip fell
 * below slip_threshold is static again for the next step. The solve
 * starts from the last step's impulses. Nothing is accepted without the
 * LCP layer's residual check; an answer above the tolerance when the
 * sweeps run out is inside every cone (NSGS keeps its iterates feasible)
 * and is counted in friction_unconverged. */
#include <math.h>
#include <string.h>

#include "constraint/constraint_impl.h"
#include "linkage/lcp.h"
#include "lcp/lcp_layer.h" /* lk_lcp_project, lk_lcp_residual_given_w, lk_lcp_basis_from */
#include "sim/sim_internal.h"

#define SLIDE_EPS 1e-9 /* m/s (rad/s): a pair slides above this speed (solve.c) */

/* Sweeps of one NSGS solve at most: as many as 5e7 matrix entries' work
 * (an island of 84 rows on one chain, 7 000 entries: 7 000 sweeps; the
 * 300-cube pile, 2.2 million: the floor), between these. Warm-started from
 * the last step, a pile at rest needs a few, a chain sliding into place
 * hundreds to thousands (Gauss-Seidel through a long tree). */
#define MIN_SWEEPS 2000
#define MAX_SWEEPS 10000
#define SWEEP_WORK 5e7

/* NSGS stops at the LCP layer's tolerance (1e-9: fc3d error and relative
 * residual); when its sweeps run out above that, an answer within this is
 * accepted (counted in nsgs_loose): the accuracy target for
 * Siconos' collection, a friction direction within 1e-6 rad. Above it, the
 * solve is retried from its iterate without acceleration, plain (omega 1)
 * and then damped (0.4: sweeps that cycle between contact states), and
 * what remains is counted in friction_unconverged. On the draped 20-link
 * chain (tests/sim/test_scale) one step of 2500 needed a retry. */
#define LOOSE_TOL 1e-6

/* A product island whose contacts are all static (a resting pile) is
 * first given a few sweeps to reach POLISH_TOL, far below the LCP layer's
 * 1e-9; only if they do not suffice does the solve go on at 1e-9 with the
 * full budget, from where they left z. A resting pile answered at 1e-9 is
 * a hair off its fixed point and refuses the next step's guess (1e-13):
 * the 300-cube pile alternated between a guessed step and a swept one;
 * answered near 1e-12 its next steps take the guess more often (measured:
 * 300 steps of pyramid300 at h = 1 ms, swept steps 201 -> 86, 5.5 % fewer
 * instructions; bench/piles' median 1.09x -> 0.80x quickstep's, the top
 * cube's drift still 0). An island with a sliding contact skips it (a bin
 * of spheres settling: its solves take thousands of sweeps either way,
 * and the detour changed its trajectory for the worse in 2 of 3 windows
 * measured). */
#define POLISH_TOL 1e-12
#define POLISH_SWEEPS 8

/* Newton first (the planner's LK_ISLAND_NEWTON: something slides in a
 * large island) on A in compressed rows -- a product island's too, when A
 * has at most LK_NEWTON_ENTRIES entries -- at most NEWTON_ITER iterations
 * (lk_lcp_newton: Alart-Curnier, KLU), then the NSGS ladder below from
 * its best iterate where it stalls. Why: on 347 islands saved from a drop
 * of 50 boxes (48-384 rows, each warm-started as the step starts it),
 * NSGS's ladder alone answered 291 at 1e-9 in 8.9 s; Newton first 312 in
 * 0.32 s, and with NSGS after it 322 in 3.1 s (the rest stop between
 * 1e-9 and 4e-6, by either method: degenerate contacts, docs/contact.md).
 * Those islands reach 1.1e4 entries; a 300-cube pile at rest has 2.2e6
 * and stays on the product (it is not planned Newton, and KLU's fill there
 * would cost more than sweeps). */
#define NEWTON_ITER 50
/* A product island's A must also be sparse, at most a quarter full: the
 * heap's large islands are 8-14 % full; a 50-link chain's (one tree, every
 * row coupled to every other) is full, and Newton there took 49 ms an
 * island (KLU on a dense 300 x 300) where NSGS on the product takes 31:
 * the chain's 2 s went from 13.7 s to 24.7 s before this rule. */

static inline double norm2(double a, double b) { return sqrt(a * a + b * b); }

/* Row i's bounds, coefficient and pair; its start (z0, else the last
 * step's impulse); and, for a contact's first tangent, its place in the
 * list of contacts (sp->t1: island row, contact, pair's row). */
static void setup_row(const lk_sim_data *sd, const lk_row *R, int i, const double *z0, int circle,
                      lk_sim_sparse *sp) {
  sp->q[i] = R->jv + R->bias;
  sp->findex[i] = -1;
  sp->cone[i] = -1;
  sp->mu[i] = 0;
  switch (R->kind) {
    case LK_ROW_FREE:
      sp->lo[i] = -INFINITY;
      sp->hi[i] = INFINITY;
      break;
    case LK_ROW_BOX:
      sp->lo[i] = R->lo;
      sp->hi[i] = R->hi;
      break;
    case LK_ROW_FRICTION: {
      sp->lo[i] = 0;
      sp->hi[i] = 0;
      sp->findex[i] = sd->rowloc[R->normal];
      sp->mu[i] = R->mu;
      if (circle && R->pair >= 0) {
        /* a pair shares its first row's coefficient (the dense path
         * may have locked the second row to zero last step) */
        const lk_row *R1 = R->crow == 2 || R->crow == 5 ? &sd->row[R->pair] : R;
        sp->cone[i] = sd->rowloc[R->pair];
        sp->mu[i] = R1->mu;
      }
      break;
    }
    default:
      sp->lo[i] = 0;
      sp->hi[i] = INFINITY;
      break;
  }
  sp->z[i] = 0;
  if (z0)
    sp->z[i] = z0[i];
  else if (R->ckind == LK_CONSTRAINT_CONTACT && sd->cmem[R->cindex].valid)
    sp->z[i] = sd->cmem[R->cindex].z[R->crow];
  if (R->ckind == LK_CONSTRAINT_CONTACT && R->kind == LK_ROW_FRICTION && R->crow == 1) {
    int *t = sp->t1 + 3 * (size_t)sp->nt1++;
    t[0] = i;
    t[1] = R->cindex;
    t[2] = R->pair >= 0 ? sd->rowloc[R->pair] : -1;
  }
}

/* Row i of the product form (G = J, H = Y) from entry e on: its tree
 * segments at their DoFs (the model's numbering), in column order, and
 * J_i . Y_i summed in that order as they pass (sp->pdiag, for the finish).
 * Returns the next entry. */
static size_t product_row(const lk_sim_data *sd, const lk_row *R, int i, size_t e,
                          lk_sim_sparse *sp) {
  double a = 0;
  int nt = R->tree[0] < 0 ? 0 : R->tree[1] < 0 ? 1 : 2;
  size_t src[2] = {R->ofs, R->ofs + (size_t)R->len[0]};
  int first = nt > 1 && R->v0[1] < R->v0[0] ? 1 : 0;
  for (int s = 0; s < nt; s++) {
    int g = s == 0 ? first : 1 - first, c0 = R->v0[g], len = R->len[g];
    const double *J = sd->jval + src[g], *Y = sd->yval + src[g];
    for (int c = 0; c < len; c++, e++) {
      sp->pcol[e] = c0 + c;
      sp->pg[e] = J[c];
      sp->ph[e] = Y[c];
      a += J[c] * Y[c];
    }
  }
  sp->pdiag[i] = a;
  return e;
}

/* A static contact sliding at its bound becomes dynamic; returns whether a
 * coefficient changed (the island must be solved again). */
static int switch_states(lk_data *d, const int *rows, lk_sim_sparse *sp, lk_step_report *report) {
  lk_sim_data *sd = &d->sim;
  int changed = 0;
  for (int k = 0; k < sp->nt1; k++) {
    const int *t = sp->t1 + 3 * (size_t)k;
    int i = t[0], i2 = t[2];
    lk_contact_mem *mem = &sd->cmem[t[1]];
    if (mem->state != LK_FRICTION_STATIC) continue;
    double z2 = i2 >= 0 ? sp->z[i2] : 0, w2 = i2 >= 0 ? sp->w[i2] : 0;
    double bound = sp->mu[i] * fabs(sp->z[sp->findex[i]]);
    double f = norm2(sp->z[i], z2), speed = norm2(sp->w[i], w2);
    if (!(bound > 0 && f >= bound * (1 - 1e-6) && speed > SLIDE_EPS)) continue;
    if (!lk_sim_slip_sustained(d->model, mem, speed)) continue; /* a transient */
    mem->state = LK_FRICTION_DYNAMIC;
    report->state_changes++;
    const lk_contact_report *c = &sd->contact[t[1]];
    if (c->mu_dynamic != sp->mu[i]) {
      sp->mu[i] = c->mu_dynamic;
      if (i2 >= 0) sp->mu[i2] = c->mu_dynamic;
      changed = 1;
    }
    sd->row[rows[i]].mu = c->mu_dynamic;
    if (i2 >= 0) sd->row[rows[i2]].mu = c->mu_dynamic;
  }
  return changed;
}

lk_status lk_sim_iterative_solve(const lk_model *m, lk_data *d, const int *rows, int n,
                                 const double *z0, int have_y, lk_island_strategy method,
                                 lk_step_report *report, int *converged) {
  lk_sim_data *sd = &d->sim;
  lk_sim_sparse *sp = sd->sparse;
  *converged = 0;
  if (!sp || n > sp->ncap) return LK_CAPACITY_EXCEEDED;
  if (!have_y) lk_sim_rows_y(m, d, rows, n);
  /* Beyond the dense size: the product. A dense-size island handed over
   * by the trial (solve.c) brings its matrix: no second build (the 10-link
   * chain spent a quarter of its step building the compressed rows again).
   * Otherwise A in compressed rows. One pass over the rows (their records
   * are the largest reads here). */
  lk_status st = LK_OK;
  sp->prod = n > sd->island_cap;
  /* Newton takes A in compressed rows, a product island's too where A is
   * sparse and small enough to factor; NSGS after it keeps the product
   * (its sweeps cost the rows' J and Y entries, far fewer than A's) */
  int newton = method == LK_ISLAND_NEWTON;
  if (newton && sp->prod) {
    size_t entries = lk_sim_delassus_entries(d, rows, n);
    newton = entries <= LK_NEWTON_ENTRIES && 4 * entries <= (size_t)n * (size_t)n;
  }
  sp->answered = LK_ISLAND_NSGS;
  if ((newton || !sp->prod) && !sp->dense) st = lk_sim_delassus_csr(m, d, rows, n, sp);
  if (st) return st;
  const int circle = m->opt.friction_cone != LK_CONE_BOX;
  /* The rows as lk_sim_iterative_guess set them up just now, their
   * impulses in their cones, when it found those no answer: not again. */
  const int prepared = sp->guess_missed == n && !z0;
  sp->guess_missed = 0;
  size_t e = 0;
  if (!prepared) sp->nt1 = 0;
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[rows[i]];
    if (!prepared) setup_row(sd, R, i, z0, circle, sp);
    if (sp->prod) {
      sp->prow[i] = (int)e;
      e = product_row(sd, R, i, e, sp);
    }
  }
  lk_lcp p = {.n = n, .q = sp->q, .lo = sp->lo, .hi = sp->hi, .findex = sp->findex,
              .mu = sp->mu, .cone = sp->cone};
  lk_lcp pn = p; /* Newton's view: A dense or in compressed rows */
  /* cfm on the diagonal, as the dense path's first attempt */
  if (sp->prod) {
    sp->prow[n] = (int)e;
    sp->pnnz = e;
    p.prod.m = m->nv;
    p.prod.g = (lk_lcp_csr){sp->prow, sp->pcol, sp->pg};
    p.prod.h = (lk_lcp_csr){sp->prow, sp->pcol, sp->ph};
    if (m->opt.cfm > 0) {
      for (int i = 0; i < n; i++) sp->pd[i] = m->opt.cfm;
      p.prod.d = sp->pd;
    }
  }
  if (sp->dense) {
    if (m->opt.cfm > 0)
      for (int i = 0; i < n; i++) sp->dense[(size_t)i * n + i] += m->opt.cfm;
    pn.M = sp->dense;
    pn.ldm = n;
  } else if (newton || !sp->prod) {
    if (m->opt.cfm > 0)
      for (int i = 0; i < n; i++)
        for (int k = sp->rowp[i]; k < sp->rowp[i + 1]; k++)
          if (sp->col[k] == i) sp->val[k] += m->opt.cfm;
    pn.csr = (lk_lcp_csr){sp->rowp, sp->col, sp->val};
  }
  if (!sp->prod) p = pn;
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  /* a sweep's work: A's entries, or the product's J and Y entries three
   * times (G_i . u, u += H_i dz, u formed again after Anderson's step) */
  double work = sp->prod ? 3.0 * (double)sp->pnnz : sp->dense ? (double)n * n : (double)sp->nnz;
  double sweeps = SWEEP_WORK / (work > 0 ? work : 1);
  o.max_sweeps = sweeps < MIN_SWEEPS ? MIN_SWEEPS : sweeps > MAX_SWEEPS ? MAX_SWEEPS : (int)sweeps;
  o.z_guess = sp->z;
  o.basis_out = sp->basis;
  int pass = 0, changed = 1, unconverged = 0, loose = 0;
  while (changed && pass < m->opt.friction_iterations) {
    pass++;
    lk_lcp_report rep;
    /* the default relaxation; then plain Gauss-Seidel; then damped */
    static const double omegas[3] = {0, 1.0, 0.4};
    int polish = sp->prod;
    for (int k = 0; k < sp->nt1 && polish; k++)
      polish = sd->cmem[sp->t1[3 * (size_t)k + 1]].state == LK_FRICTION_STATIC;
    if (polish) {
      lk_lcp_options op = o;
      op.tol = POLISH_TOL;
      op.max_sweeps = POLISH_SWEEPS;
      op.guess_untested = prepared; /* the guess's test was the rows' */
      st = lk_lcp_solve(lk_lcp_nsgs, &p, &op, sp->ws, sp->z, sp->w, &rep);
      report->lcp_solves++;
      report->nsgs_solves++;
      report->nsgs_sweeps += rep.sweeps;
      if (st != LK_OK && st != LK_NOT_CONVERGED) {
        report->solver_failures++;
        return st;
      }
    }
    int answered = polish && st == LK_OK;
    if (newton && !answered) {
      lk_lcp_options on = o;
      on.max_sweeps = NEWTON_ITER;
      on.basis_out = NULL;
      st = lk_lcp_solve(lk_lcp_newton, &pn, &on, sp->ws, sp->z, sp->w, &rep);
      report->lcp_solves++;
      report->newton_solves++;
      report->newton_iterations += rep.sweeps;
      if (st == LK_OK) {
        answered = 1;
        report->newton_answers++;
        lk_lcp_basis_from(&pn, sp->z, sp->w, sp->basis);
      } else if (!lk_all_finite(sp->z, (size_t)n)) {
        for (int i = 0; i < n; i++) sp->z[i] = 0; /* NSGS from nothing */
      }
      /* else NSGS from Newton's best iterate */
    }
    sp->answered = answered && newton ? LK_ISLAND_NEWTON : LK_ISLAND_NSGS;
    /* (a budget from solve.c: one attempt of that many sweeps) */
    const int budget = newton ? sp->fallback_sweeps : 0;
    for (int attempt = 0; attempt < (budget > 0 ? 1 : 3) && !answered; attempt++) {
      lk_lcp_options oa = o;
      if (budget > 0 && budget < oa.max_sweeps) oa.max_sweeps = budget;
      if (attempt > 0) {
        oa.omega = omegas[attempt];
        oa.anderson = 0;
      }
      st = lk_lcp_solve(lk_lcp_nsgs, &p, &oa, sp->ws, sp->z, sp->w, &rep);
      report->lcp_solves++;
      report->nsgs_solves++;
      report->nsgs_sweeps += rep.sweeps;
      if (st != LK_NOT_CONVERGED || !lk_all_finite(sp->z, (size_t)n)) break;
      if (rep.error <= LOOSE_TOL && rep.residual_rel <= LOOSE_TOL) break;
    }
    unconverged = loose = 0;
    if (st == LK_NOT_CONVERGED && lk_all_finite(sp->z, (size_t)n)) {
      /* feasible (inside every cone), above the tolerance */
      if (rep.error <= LOOSE_TOL && rep.residual_rel <= LOOSE_TOL)
        loose = 1;
      else
        unconverged = 1;
    } else if (st) {
      report->solver_failures++;
      return st;
    }
    if (rep.residual_rel > report->lcp_residual) report->lcp_residual = rep.residual_rel;
    if (sp->prod && rep.residual_rel > 0 && isfinite(rep.residual / rep.residual_rel)) {
      sd->st->prod_scale = rep.residual / rep.residual_rel;
      sd->st->prod_n = n;
      sd->st->prod_key0 = lk_sim_row_key(sd, &sd->row[rows[0]]);
    }
    changed = switch_states(d, rows, sp, report);
  }
  report->nsgs_loose += loose;
  if (pass > report->friction_passes) report->friction_passes = pass;
  *converged = !unconverged && !changed;
  return LK_OK;
}

void lk_sim_iterative_finish(const lk_model *m, lk_data *d, const int *rows, int n,
                             lk_step_report *report) {
  lk_sim_data *sd = &d->sim;
  lk_sim_sparse *sp = sd->sparse;
  /* Impulses, velocities, remembered states; back to static once the slip
   * has died out. */
  for (int i = 0; i < n; i++) {
    lk_row *R = &sd->row[rows[i]];
    R->z = sp->z[i];
    R->w = sp->w[i];
    if (R->ckind == LK_CONSTRAINT_CONTACT) {
      lk_contact_mem *mem = &sd->cmem[R->cindex];
      mem->basis[R->crow] = sp->basis[i];
      if (sp->prod) { /* A_ii = J_i . Y_i (+ cfm) */
        mem->adiag[R->crow] = sp->pdiag[i] + (m->opt.cfm > 0 ? m->opt.cfm : 0);
      } else if (sp->dense) {
        mem->adiag[R->crow] = sp->dense[(size_t)i * n + i];
      } else {
        for (int e = sp->rowp[i]; e < sp->rowp[i + 1]; e++)
          if (sp->col[e] == i) mem->adiag[R->crow] = sp->val[e];
      }
    } else if (R->ckind == LK_CONSTRAINT_LIMIT) {
      sd->limmem[R->cindex].basis[R->crow] = sp->basis[i];
      sd->limmem[R->cindex].valid = 1;
    }
  }
  for (int k = 0; k < sp->nt1; k++) {
    const int *t = sp->t1 + 3 * (size_t)k;
    lk_contact_mem *mem = &sd->cmem[t[1]];
    double speed = norm2(sp->w[t[0]], t[2] >= 0 ? sp->w[t[2]] : 0);
    if (mem->state == LK_FRICTION_DYNAMIC && speed < m->opt.slip_threshold) {
      mem->state = LK_FRICTION_STATIC;
      report->state_changes++;
    }
    mem->locked = 0;
  }
  report->iterative_islands++;
}

/* A product island at rest, answered by the impulses in hand before
 * anything is formed: on an island of persisting static contacts only,
 * the last step's impulses (into their cones, as the LCP layer clamps a
 * guess) with w = J M~^-1 J^T z + cfm z + b from the rows (J^T z, one
 * solve a tree, then J: no Y, no product copied) are the answer when
 * their residual is within the LCP layer's guess tolerance (1e-13 of the
 * scale below), the test lk_lcp_solve puts to the same guess after
 * forming both (w here differs from the product's in its last bits: the
 * same sums in another order). On the resting 1000-cube pile
 * about six steps in ten are answered so, each in about 10 ms where the
 * LCP layer's test of the same guess, after Y and the product's copy,
 * took 14 (docs/contact.md). A miss leaves the rows set up for the solve
 * that follows (lk_sim_iterative_solve, which does not test the same
 * impulses again) and sim.dvg zeroed. */
int lk_sim_iterative_guess(const lk_model *m, lk_data *d, const int *rows, int n,
                           lk_step_report *report) {
  lk_sim_data *sd = &d->sim;
  lk_sim_sparse *sp = sd->sparse;
  if (!sp || n > sp->ncap || n <= sd->island_cap) return 0;
  /* the rows as the solve sets them up, in the same pass as the test of
   * their contacts (a contact's memory is read once: a third of this
   * function's time was the test's own pass over them) */
  const int circle = m->opt.friction_cone != LK_CONE_BOX;
  int has_friction = 0;
  sp->nt1 = 0;
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[rows[i]];
    if (R->ckind != LK_CONSTRAINT_CONTACT) return 0;
    const lk_contact_mem *mem = &sd->cmem[R->cindex];
    if (!mem->valid || mem->state != LK_FRICTION_STATIC) return 0;
    has_friction |= R->kind == LK_ROW_FRICTION;
    setup_row(sd, R, i, NULL, circle, sp);
  }
  if (!has_friction) return 0;
  lk_lcp p = {.n = n, .q = sp->q, .lo = sp->lo, .hi = sp->hi, .findex = sp->findex,
              .mu = sp->mu, .cone = sp->cone};
  lk_lcp_project(&p, sp->z);
  const double cfm = m->opt.cfm > 0 ? m->opt.cfm : 0;
  const int nt = lk_sim_island_trees(sd, rows, n);
  double *u = sd->dvg;
  lk_sim_island_velocity(m, d, rows, n, sp->z, nt, u);
  double scale = 0;
  for (int i = 0; i < n; i++) {
    double az = lk_rows_dot(d, rows[i], u);
    sp->w[i] = az + cfm * sp->z[i] + sp->q[i];
    scale = lk_maxd(scale, lk_maxd(fabs(sp->q[i]), fabs(az)));
  }
  /* The LCP layer scales by the terms' magnitudes, sum_k |G_ik| (|H|^T
   * |z|)_k, which needs Y: the one it measured on the island's last solve
   * stands in (the same rows at rest: the same numbers to many digits;
   * 1.41 on the 300-cube pile, where 1 + max |(A z)_i| is 1.01). */
  lk_sim_scalars *st = sd->st;
  if (st->prod_n == n && st->prod_key0 == lk_sim_row_key(sd, &sd->row[rows[0]])) scale = lk_maxd(1 + scale, st->prod_scale);
  else scale = 1 + scale;
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  double res = lk_lcp_residual_given_w(&p, sp->z, sp->w), rel = res / scale;
  if (!(rel <= o.guess_tol && rel <= o.tol)) {
    lk_sim_zero_trees(sd, nt, u);
    sp->guess_missed = n; /* the solve that follows takes the rows as set up */
    return 0;
  }
  lk_lcp_basis_from(&p, sp->z, sp->w, sp->basis);
  for (int i = 0; i < n; i++) {
    lk_row *R = &sd->row[rows[i]];
    R->z = sp->z[i];
    R->w = sp->w[i];
    R->guessed = 1;
    lk_contact_mem *mem = &sd->cmem[R->cindex];
    mem->basis[R->crow] = sp->basis[i];
    mem->locked = 0;
  }
  report->lcp_solves++;
  report->guess_answers++;
  report->iterative_islands++;
  if (rel > report->lcp_residual) report->lcp_residual = rel;
  if (report->friction_passes < 1) report->friction_passes = 1;
  return 1;
}

lk_status lk_sim_solve_iterative(const lk_model *m, lk_data *d, const int *rows, int n,
                                 const double *z0, int have_y, lk_island_strategy method,
                                 lk_step_report *report) {
  int converged;
  lk_status st =
      lk_sim_iterative_solve(m, d, rows, n, z0, have_y, method, report, &converged);
  if (st) return st;
  if (!converged) report->friction_unconverged++;
  lk_sim_iterative_finish(m, d, rows, n, report);
  return LK_OK;
}
