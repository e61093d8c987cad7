/* Impacts that never add energy (issue 31.5).
 *
 * Newton's restitution sets a target for each normal row's separating
 * speed; friction then takes the impulse that dissipates most on its own
 * rows. On a single body that pair cannot gain energy, but on a chain it
 * can: the tangential impulse changes the contact point's normal velocity
 * through the links' coupling, the normal impulse grows to meet the
 * restitution target anyway, and the impact returns more kinetic energy
 * than it took (Kane and Levinson's double pendulum striking a rough floor;
 * Stronge, "Rigid body collisions with friction", Proc. R. Soc. A 431,
 * 1990, who shows that the energetic coefficient of restitution is the one
 * that cannot do this). Here the check is on the outcome, as the issue
 * asks: the work of all impulses of an impact's island over the step,
 *   W = z . J (v* + v+) / 2  =  1/2 v+^T M~ v+ - 1/2 v*^T M~ v*
 * (M~ = M + h B, v+ = v* + M~^-1 J^T z), must not be positive. When it is,
 * the solve is made again with every restitution target of the step
 * computed from e s instead of e, s in [0, 1): first s = 0 (a plastic
 * impact: each normal row then ends with z_n (J v+)_n = 0 or a closing
 * speed, and maximal dissipation makes each friction row's z_t (J v+)_t <=
 * 0, so z . J v+ <= 0 and W = z . J v+ - 1/2 z . A z <= 0, position
 * correction aside), then bisection for the largest s whose work is not
 * positive. A frictionless impact, or one whose friction does not couple
 * into the normal, keeps its e (W <= 0 already) and is solved once. */
#include <math.h>

#include "constraint/constraint_impl.h"
#include "sim/sim_internal.h"

/* Bisection steps on the scale after the plastic solve: s within 1/64. */
#define LK_IMPACT_BISECTIONS 6

double lk_sim_impact_work(const lk_data *d, const double *v, double *scale) {
  const lk_sim_data *sd = &d->sim;
  const lk_sim_scalars *sc = sd->st;
  const int all = sc->nimpact > LK_SIM_IMPACT_ROWS;
  double w = 0, s = 0;
  for (int r = 0; r < sc->nrow; r++) {
    const lk_row *R = &sd->row[r];
    if (R->z == 0) continue;
    if (!all) {
      int in = 0;
      for (int k = 0; k < sc->nimpact && !in; k++)
        in = sd->row[sc->impact_row[k]].island == R->island;
      if (!in) continue;
    }
    double jp = lk_rows_dot(d, r, v);
    w += 0.5 * R->z * (R->jv + jp);
    s += 0.5 * fabs(R->z) * (fabs(R->jv) + fabs(jp));
  }
  *scale = s;
  return w;
}

/* Is the work of this solve positive beyond rounding? */
static int adds_energy(const lk_data *d, const double *v, double *work) {
  double scale;
  *work = lk_sim_impact_work(d, v, &scale);
  return *work > 1e-9 * scale;
}

lk_status lk_sim_impact_limit(const lk_model *m, lk_data *d, double *v, lk_sim_solve_fn once) {
  lk_sim_scalars *sc = d->sim.st;
  double work;
  /* Compliant contacts add their forces into v* inside the solve
   * (compliant.c), so that solve cannot be made twice: left as it is. */
  if (m->ncompliant_mat > 0 || !adds_energy(d, v, &work)) return LK_OK;
  double lo = 0, hi = 1, at = 0;
  sc->restitution_cut = 1;
  lk_status st = once(m, d, v);
  if (st || adds_energy(d, v, &work)) return st; /* position correction's: nothing to scale */
  for (int k = 0; k < LK_IMPACT_BISECTIONS; k++) {
    double s = 0.5 * (lo + hi);
    sc->restitution_cut = 1 - s;
    if ((st = once(m, d, v))) return st;
    at = s;
    if (adds_energy(d, v, &work))
      hi = s;
    else
      lo = s;
  }
  if (at != lo) {
    sc->restitution_cut = 1 - lo;
    st = once(m, d, v);
  }
  return st;
}
