/* Smoothed (mollified) Coulomb friction: options.friction_law = smoothed.
 *
 * The friction rows of the contacts (tangents, torsion, rolling) leave the
 * complementarity problem: each friction group (a tangent pair, or a single
 * row) gets the impulse of the IPC mollified law (Li et al., "Incremental
 * Potential Contact", SIGGRAPH 2020; phys-sim-book ch. 9)
 *
 *   z = -mu lambda_n f1(|s|) s/|s|,  f1(y) = 2y/eps_v - y^2/eps_v^2 (y < eps_v),
 *                                     1 beyond,
 *
 * s the group's slip velocity after the step, lambda_n the normal impulse
 * lagged from the previous iterate (semi-implicit, book 9.2). With the
 * coefficient c = mu lambda_n f1(|s|)/|s| frozen, z = -c s is an implicit
 * viscous law: a free row whose Delassus diagonal gains 1/c, solved
 * together with the normal rows (still complementarity) in one LCP; then
 * lambda_n and c are updated from the solution and the LCP solved again
 * (fixed-point iteration, book 9.3) for smoothing_iterations passes or
 * until nothing changes. Since f1 <= 1, |z| <= mu lambda_n always, and z
 * opposes s by construction (maximal dissipation). Below eps_v the contact
 * creeps: the law has no true sticking, which is the price of smoothness.
 * Each contact keeps its groups' last slip speeds (lk_contact_mem.hist) to
 * start the next step's iteration from: in steady creep or sliding the
 * first pass is then already the fixed point. */
#include <math.h>
#include <string.h>

#include "constraint/constraint_impl.h"
#include "sim/sim_internal.h"

/* f1(y)/y, division-safe (book 9.2). */
static double f1_over_y(double y, double eps) {
  return y < eps ? 2.0 / eps - y / (eps * eps) : 1.0 / y;
}

/* The slip of a friction row's group: the pair's norm, or the row's. */
static double group_slip(const lk_sim_data *sd, int r, const double *s_of) {
  const lk_row *R = &sd->row[r];
  double a = s_of[r];
  if (R->pair >= 0) {
    double b = s_of[R->pair];
    return sqrt(a * a + b * b);
  }
  return fabs(a);
}

lk_status lk_sim_smoothed_islands(const lk_model *m, lk_data *d) {
  lk_sim_data *sd = &d->sim;
  lk_models_data *x = &sd->x;
  lk_sim_report *rep = &sd->st->report;
  const double eps = m->opt.friction_eps_v;
  const int nrow = sd->st->nrow;
  /* Slips start from the free velocity, normal impulses from the last
   * step (a new contact has none: its first pass has no friction). */
  for (int r = 0; r < nrow; r++) {
    lk_row *R = &sd->row[r];
    x->slip[r] = R->jv + R->bias;
    x->lam[r] = 0;
    x->zprev[r] = 0;
    if (R->kind == LK_ROW_FRICTION && R->ckind == LK_CONSTRAINT_CONTACT) {
      const lk_contact_mem *mem = &sd->cmem[R->cindex];
      x->lam[r] = mem->valid ? fmax(mem->z[0], 0) : 0;
      /* Warm start: the group's slip speed at the end of the last step
       * (hist[0] tangents, [1] torsion, [2] rolling), split evenly over a
       * pair's rows (only the group's norm matters). */
      if (mem->valid && mem->hist[3] == 1) {
        int slot = R->crow <= 2 ? 0 : (R->crow == 3 ? 1 : 2);
        x->slip[r] = mem->hist[slot] * (R->pair >= 0 ? M_SQRT1_2 : 1.0);
      }
    }
  }
  int passes = 0;
  for (int pass = 0; pass < m->opt.smoothing_iterations; pass++) {
    for (int r = 0; r < nrow; r++) {
      lk_row *R = &sd->row[r];
      double lo = -INFINITY, hi = INFINITY, diag = 0;
      if (R->kind == LK_ROW_UNILATERAL) {
        lo = 0;
      } else if (R->kind == LK_ROW_BOX) {
        lo = R->lo;
        hi = R->hi;
      } else if (R->kind == LK_ROW_FRICTION) {
        double c = R->mu * x->lam[r] * f1_over_y(group_slip(sd, r, x->slip), eps);
        if (c > 0)
          diag = 1.0 / c;
        else
          lo = hi = 0;
      }
      x->rlo[r] = lo;
      x->rhi[r] = hi;
      x->rdiag[r] = diag;
      x->rfn[r] = -1;
      x->rmu[r] = 0;
    }
    for (int is = 0; is < sd->st->nisland; is++) {
      lk_lcp_report lr;
      lk_status st = lk_sim_rows_lcp(m, d, is, &lr);
      rep->lcp_solves++;
      rep->lcp_pivots += lr.pivots;
      if (st) return st;
      rep->dantzig_solves++;
      if (lr.residual_rel > rep->lcp_residual) rep->lcp_residual = lr.residual_rel;
    }
    passes++;
    /* Lag update: the normal impulses and the slips of this iterate. */
    double change = 0, scale = 0;
    for (int r = 0; r < nrow; r++) {
      lk_row *R = &sd->row[r];
      change = fmax(change, fabs(R->z - x->zprev[r]));
      scale = fmax(scale, fabs(R->z));
      x->zprev[r] = R->z;
      x->slip[r] = R->w;
      if (R->kind == LK_ROW_FRICTION && R->normal >= 0)
        x->lam[r] = fmax(sd->row[R->normal].z, 0);
    }
    if (pass > 0 && change <= 1e-12 * (1 + scale)) break;
  }
  rep->friction_passes = passes;
  /* The friction of the last pass was bounded by the lagged normal
   * impulse; where the normal impulse has since fallen (the fixed point not
   * reached to the last digit), scale the group down to mu times the final
   * one, so that |f_t| <= mu f_n holds exactly, direction unchanged. */
  for (int r = 0; r < nrow; r++) {
    lk_row *R = &sd->row[r];
    if (R->kind != LK_ROW_FRICTION || R->normal < 0 || (R->pair >= 0 && R->pair < r)) continue;
    double zn = fmax(sd->row[R->normal].z, 0), cap = R->mu * zn;
    double zp = R->pair >= 0 ? sd->row[R->pair].z : 0;
    double mag = sqrt(R->z * R->z + zp * zp);
    if (mag > cap) {
      double k = mag > 0 ? cap / mag : 0;
      R->z *= k;
      if (R->pair >= 0) sd->row[R->pair].z *= k;
    }
  }
  /* Friction state for the reports: sliding above eps_v. */
  for (int i = 0; i < sd->st->ncontact; i++) {
    lk_contact_mem *mem = &sd->cmem[i];
    if (mem->row[1] < 0) continue;
    double s = group_slip(sd, mem->row[1], x->slip);
    mem->hist[0] = s;
    mem->hist[1] = mem->row[3] >= 0 ? group_slip(sd, mem->row[3], x->slip) : 0;
    mem->hist[2] = mem->row[4] >= 0 ? group_slip(sd, mem->row[4], x->slip) : 0;
    mem->hist[3] = 1; /* holds smoothed-friction slips */
    lk_friction_state ns = s > eps ? LK_FRICTION_DYNAMIC : LK_FRICTION_STATIC;
    if (ns != mem->state && mem->valid) rep->state_changes++;
    mem->state = ns;
  }
  return LK_OK;
}
