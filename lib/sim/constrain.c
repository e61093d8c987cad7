/* The constraint part of the step, between the free velocity and the
 * integration: contacts -> rows -> islands -> LCPs -> v+ = v* + M^-1 J^T z,
 * then the reports. The mass matrix must be factored at the current q and
 * the kinematics current. */
#include <math.h>
#include <string.h>

#include "constraint/constraint_impl.h"
#include "sim/sim_internal.h"

int lk_sim_has_constraints(const lk_model *m) {
  if (m->ngeom > 1 || m->nxcon > 0 || m->nloop > 0 || m->ncoup > 0 || m->nteth > 0 ||
      m->nsup > 0 || m->nprescribed > 0)
    return 1;
  for (int i = 1; i < m->nlink; i++)
    if (m->link[i].joint.limited) return 1;
  for (int k = 0; k < m->nv; k++)
    if (m->dof_friction[k] > 0) return 1;
  return 0;
}

static void reset_report(lk_sim_data *sd) {
  memset(&sd->st->report, 0, sizeof sd->st->report);
  sd->st->report.detail = "";
}

/* Rows, islands and their solves from v = v* (sim.vstar), v+ into v. Run
 * again by impact.c with the restitution targets scaled down. */
static lk_status constrain_once(const lk_model *m, lk_data *d, double *v) {
  lk_sim_data *sd = &d->sim;
  lk_sim_report *rep = &sd->st->report;
  memcpy(v, sd->vstar, (size_t)m->nv * sizeof *v);
  sd->st->ncontact = 0;
  sd->st->nimpact = 0;
  rep->max_penetration = 0;
  lk_rows_compute_cdof(m, d);
  lk_rows_clear(d);

  lk_status st = lk_sim_geometry_contacts(m, d);
  if (!st) st = lk_sim_explicit_contacts(m, d);
  if (!st) st = lk_limit_rows(m, d);
  if (!st) st = lk_dry_friction_rows(m, d);
  if (!st) st = lk_loop_rows(m, d);
  if (!st) st = lk_coupling_rows(m, d, d->q);
  if (!st) st = lk_tether_rows(m, d);
  if (!st) st = lk_support_rows(m, d); /* issue 8: supports with a given normal force */
  if (!st) st = lk_sim_prescribed_rows(m, d); /* issue 31.8: prescribed.c */
  if (st == LK_CAPACITY_EXCEEDED)
    rep->detail = m->opt.max_contacts > 0 ? "more contacts than options.max_contacts allows"
                                          : "more contacts than the contact capacity";
  if (st) return rep->status = st;
  lk_sim_compliant_apply(m, d, v); /* issue 8: compliant contact forces into v* */
  rep->nrows = sd->st->nrow;
  rep->ncontacts = sd->st->ncontact;
  for (int i = 0; i < sd->st->ncontact; i++)
    if (sd->contact[i].depth > rep->max_penetration) rep->max_penetration = sd->contact[i].depth;

  if (sd->st->nrow > 0) {
    lk_sim_islands_prepare(m, d); /* islands, J v*, segment counts */
    rep->nislands = sd->st->nisland;
    if (m->opt.impacts == LK_IMPACTS_PROPAGATING) { /* impact.c */
      rep->impacts_propagated = lk_sim_impact_propagate(m, d);
      if (rep->impacts_propagated) memcpy(v, sd->vstar, (size_t)m->nv * sizeof *v);
    }
    /* The friction LCPs form Y island by island, when they need it (an
     * island answered by its last impulses does not: solve.c) */
    sd->jr->solving = 1; /* journal.c: the sparse trial's factor may change */
    if (m->opt.friction_law == LK_FRICTION_SMOOTHED) {
      lk_sim_rows_y(m, d, NULL, sd->st->nrow);
      lk_sim_island_notes(d, "options.friction_law: smoothed (its own solver, not planned)", 1);
      st = lk_sim_smoothed_islands(m, d); /* issue 8 */
    } else {
      st = lk_sim_solve_islands(m, d);
    }
    if (st) return rep->status = st;
    /* v+ = v* + M~^-1 J^T z: row by row through Y, or for an island
     * answered by its last impulses the sum it formed (in sim.dvg, taken
     * once a tree: zeroed as it is added) */
    int last0 = -1, last1 = -1; /* a contact's rows share their trees */
    for (int r = 0; r < sd->st->nrow; r++) {
      const lk_row *R = &sd->row[r];
      if (!R->guessed) {
        lk_rows_axpy(d, r, R->z, 1, v);
        continue;
      }
      if (R->tree[0] == last0 && R->tree[1] == last1) continue; /* added: dvg is zero there */
      last0 = R->tree[0];
      last1 = R->tree[1];
      for (int g = 0; g < 2 && R->tree[g] >= 0; g++)
        for (int k = R->v0[g], e = k + R->len[g]; k < e; k++) {
          v[k] += sd->dvg[k];
          sd->dvg[k] = 0;
        }
    }
    if (!lk_all_finite(v, (size_t)m->nv)) return rep->status = LK_NON_FINITE;
    /* the impacts' impulses (already in v* and so in v) count in the
     * contacts' reports */
    if (rep->impacts_propagated)
      for (int i = 0; i < sd->st->ncontact; i++)
        if (sd->cmem[i].z_impact > 0) sd->row[sd->cmem[i].row[0]].z += sd->cmem[i].z_impact;
  }
  return LK_OK;
}

lk_status lk_sim_constrain(const lk_model *m, lk_data *d, double *v) {
  lk_sim_data *sd = &d->sim;
  reset_report(sd);
  memcpy(sd->vstar, v, (size_t)m->nv * sizeof *v);
  sd->st->restitution_cut = 0;
  sd->st->impact_gain = 0;
  lk_status st = constrain_once(m, d, v);
  /* Impacts never add energy (issue 31.5, impact.c) */
  if (!st && sd->st->nimpact > 0) st = lk_sim_impact_limit(m, d, v, constrain_once);
  if (st) return st;
  if (sd->st->nimpact > 0) {
    double scale;
    sd->st->report.impact_work = lk_sim_impact_work(d, v, &scale);
    /* the energy watch (step.c) reports an impact that still adds energy
     * (position correction's share: impact.c) */
    sd->st->impact_gain = sd->st->report.impact_work > 1e-9 * scale;
    sd->st->report.restitution_scale = 1 - sd->st->restitution_cut;
  }
  /* The contacts' reports from the solved rows (at this step's
   * kinematics: link forces are about the link origins) and the link
   * force records; what carries to the next step is written by
   * lk_sim_constrain_commit once the step cannot fail. */
  for (int i = 0; i < sd->st->ncontact; i++)
    if (!(m->ncompliant_mat > 0 && sd->x.compliant[i])) /* issue 8: reported already */
      lk_contact_finish(m, d, i);
  lk_sim_link_forces(m, d);
  lk_sim_prescribed_report(m, d);
  return LK_OK;
}

void lk_sim_constrain_commit(const lk_model *m, lk_data *d) {
  lk_sim_data *sd = &d->sim;
  /* One pass over the contacts while each is in cache: its memory kept
   * for the next step, its share of the tactile sums (each contact's own
   * computations, in report order: the results are those of one pass
   * after another). */
  lk_sim_tactile_begin(m, d);
  lk_sim_gdone gdone = {0, 0};
  for (int i = 0; i < sd->st->ncontact; i++) {
    lk_sim_geometry_contact_done(d, i, &gdone);
    lk_sim_tactile_add(d, i);
  }
  lk_sim_geometry_contacts_done_end(d, &gdone);
  lk_sim_explicit_contacts_done(m, d);
  lk_sim_tactile_end(m, d);
}
