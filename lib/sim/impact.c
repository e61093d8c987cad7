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

/* Propagating impacts (options.impacts: propagating). The simultaneous
 * model above solves every contact of the step at once: a ball striking a
 * row of touching balls pushes them all together (the three-ball cradle
 * ends at -1/3, 2/3, 2/3). The textbook answer (0, ..., 0, 1) comes from
 * impacts taken one contact at a time, each the collision of two bodies
 * under Newton's law, the velocities it leaves passed on to the next
 * contact: the sequential model of Ivanov (1995) and of Guendelman,
 * Bridson and Fedkiw's "Nonconvex rigid bodies with stacking" (2003),
 * here on the step's free velocity v*:
 *   sweep the contact normal rows in their order; a row approaching at
 *   u = J v < -restitution_threshold whose gap closes this step (u below
 *   its plastic bound -bias) gets dz = -(1 + e) u / (J M~^-1 J^T), so that
 *   it separates at -e u (a contact already closing as the step began:
 *   at the simultaneous model's energy-consistent speed, contact.c, the
 *   first time); repeat until a sweep changes nothing.
 * Each such impulse is frictionless and takes (u^2 - sep^2) / (2 W_rr)
 * >= 0 of kinetic energy (sep <= |u|), so the sweeps never add energy; they
 * end when no contact approaches (at most LK_IMPACT_SWEEPS sweeps: an
 * elastic body caught between two others can ring; what is still closing
 * then meets the LCP's plastic rows). The step's LCP follows from the new
 * v*, every contact row plastic: friction acts there, on the velocities the
 * impacts left (an impact's own friction impulse, which the simultaneous
 * model gives a bouncing, spinning ball, is not modelled here). */
#define LK_IMPACT_SWEEPS 64

int lk_sim_impact_propagate(const lk_model *m, lk_data *d) {
  lk_sim_data *sd = &d->sim;
  const int nc = sd->st->ncontact;
  const double thr = m->opt.restitution_threshold;
  int impacts = 0;
  for (int sweep = 0; sweep < LK_IMPACT_SWEEPS; sweep++) {
    int changed = 0;
    for (int i = 0; i < nc; i++) {
      lk_contact_mem *mem = &sd->cmem[i];
      int r = mem->row[0];
      if (!(mem->restitution > 0) || r < 0 || sd->row[r].aside) continue;
      double u = lk_rows_dot(d, r, sd->vstar);
      if (!(u < -thr && u < -sd->row[r].bias)) continue;
      if (mem->z_impact == 0) lk_sim_rows_y(m, d, &r, 1); /* its Y, once */
      double w = lk_sim_delassus_entry(d, r, r);
      if (!(w > 0)) continue;
      /* a contact already closing as the step began separates at the
       * simultaneous model's energy-consistent speed (contact.c), an
       * impact passed on to it at Newton's -e u */
      double sep = mem->z_impact == 0 && mem->impact_speed > 0 ? mem->impact_speed
                                                                : -mem->restitution * u;
      if (sep > -u) sep = -u; /* (never more than it came in with) */
      double dz = (sep - u) / w;
      lk_rows_axpy(d, r, dz, 1, sd->vstar);
      mem->z_impact += dz;
      changed = 1;
      impacts++;
    }
    if (!changed) break;
  }
  if (impacts)
    for (int r = 0; r < sd->st->nrow; r++) sd->row[r].jv = lk_rows_dot(d, r, sd->vstar);
  return impacts;
}
