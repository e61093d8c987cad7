/* What a step reports: contacts, link force records, generalized
 * constraint forces, and the per-link tactile summary with its filtered,
 * hysteretic slip flag. */
#include <math.h>
#include <string.h>

#include "constraint/constraint_impl.h"
#include "sim/sim_internal.h"

const char *lk_constraint_kind_name(lk_constraint_kind k) {
  static const char *const names[LK_CONSTRAINT_KIND_COUNT] = {"contact", "limit", "friction",
                                                              "loop", "coupling", "tether",
                                                              "support", "prescribed"};
  return (int)k >= 0 && k < LK_CONSTRAINT_KIND_COUNT ? names[k] : NULL;
}

static lk_link_force *find_record(lk_sim_data *sd, lk_constraint_kind kind, int index, int link) {
  /* Rows of one constraint are consecutive, so its records are the last
   * ones written: search backwards a short way. */
  for (int i = sd->st->nlforce - 1; i >= 0 && i >= sd->st->nlforce - 4; i--) {
    lk_link_force *r = &sd->lforce[i];
    if (r->kind == kind && r->index == index && r->link == link) return r;
  }
  if (sd->st->nlforce >= sd->lforce_cap) return NULL;
  lk_link_force *r = &sd->lforce[sd->st->nlforce++];
  r->kind = kind;
  r->index = index;
  r->link = link;
  r->force = lk_v3_zero();
  r->moment = lk_v3_zero();
  return r;
}

/* A spatial force (world, about the world origin) on a link, as a force
 * and a moment about the link's origin. */
static void add_wrench(lk_link_force *r, const lk_data *d, lk_force F) {
  lk_vec3 o = d->xw[r->link].p;
  r->force = lk_v3_add(r->force, F.lin);
  r->moment = lk_v3_add(r->moment, lk_v3_sub(F.ang, lk_v3_cross(o, F.lin)));
}

void lk_sim_link_forces(const lk_model *m, lk_data *d) {
  lk_sim_data *sd = &d->sim;
  double h = m->opt.timestep;
  sd->st->nlforce = 0;
  for (int i = 0; i < sd->st->nrow; i++) {
    const lk_row *R = &sd->row[i];
    if (R->z == 0) continue;
    int links[2] = {R->link_a, R->link_b};
    /* A constraint's Cartesian rows on the same links (a contact's normal
     * and tangents) are consecutive: their impulses summed into one wrench
     * first, so each record takes one force and one moment per side. */
    lk_force F = lk_fo_scale(R->F, R->z);
    if (!R->dof_row)
      while (i + 1 < sd->st->nrow) {
        const lk_row *N = &sd->row[i + 1];
        if (N->dof_row || N->ckind != R->ckind || N->cindex != R->cindex ||
            N->link_a != R->link_a || N->link_b != R->link_b)
          break;
        F = lk_fo_add(F, lk_fo_scale(N->F, N->z));
        i++;
      }
    for (int s = 0; s < 2; s++) {
      if (links[s] <= 0) continue;
      lk_link_force *rec = find_record(sd, R->ckind, R->cindex, links[s]);
      if (!rec) return; /* capacity: the records are a report, the step is fine */
      double sign = s == 0 ? 1.0 : -1.0;
      if (!R->dof_row) {
        add_wrench(rec, d, lk_fo_scale(F, sign / h));
      } else {
        /* Joint-space rows act along the joint of link_a: a torque about
         * (or force along) its axis on the child, the reaction on the
         * parent. */
        int l = R->link_a;
        lk_vec3 ax = lk_tf_dir(&d->xw[l], m->axis[l]);
        double f = sign * R->z / h;
        if (m->jtype[l] == LK_JOINT_PRISMATIC)
          rec->force = lk_v3_madd(rec->force, ax, f);
        else
          rec->moment = lk_v3_madd(rec->moment, ax, f);
      }
    }
  }
}

void lk_sim_tactile_begin(const lk_model *m, lk_data *d) {
  lk_sim_data *sd = &d->sim;
  for (int l = 0; l < m->nlink; l++) {
    /* the sums from zero; the filtered score and the flag carry over
     * (field by field: a memset here is a rep stos a link) */
    lk_tactile *t = &sd->tactile[l];
    t->ncontacts = 0;
    t->normal_force = 0;
    t->shear_force = lk_v3_zero();
    t->slip_speed = 0;
    t->utilization = 0;
    t->pressure_centroid = lk_v3_zero();
    t->twist_moment = 0;
    t->rolling_moment = lk_v3_zero();
  }
}

void lk_sim_tactile_add(lk_data *d, int report) {
  lk_sim_data *sd = &d->sim;
  const lk_contact_report *c = &sd->contact[report];
  int links[2] = {c->link, c->other};
  for (int s = 0; s < 2; s++) {
    int l = links[s];
    if (l <= 0) continue;
    double sign = s == 0 ? 1.0 : -1.0;
    lk_tactile *t = &sd->tactile[l];
    t->ncontacts++;
    t->normal_force += c->fn;
    t->shear_force = lk_v3_madd(t->shear_force, c->ft, sign);
    if (c->slip_speed > t->slip_speed) t->slip_speed = c->slip_speed;
    t->utilization += c->mu_static * c->fn; /* the grip available, for now */
    t->pressure_centroid = lk_v3_madd(t->pressure_centroid, c->position, c->fn);
    t->twist_moment += sign * c->torsion;
    t->rolling_moment = lk_v3_madd(t->rolling_moment, c->rolling_moment, sign);
  }
}

void lk_sim_tactile_end(const lk_model *m, lk_data *d) {
  lk_sim_data *sd = &d->sim;
  const lk_options *o = &m->opt;
  double h = o->timestep;
  double alpha = h / (o->slip_filter_tau + h);
  for (int l = 1; l < m->nlink; l++) {
    lk_tactile *t = &sd->tactile[l];
    if (t->normal_force > 0)
      t->pressure_centroid = lk_v3_scale(t->pressure_centroid, 1.0 / t->normal_force);
    /* What a sensor of the whole pad measures: its shear over the grip its
     * load gives, |sum f_t| / sum mu_s f_n (unloaded contacts weigh
     * nothing, unlike a maximum over contacts). */
    double grip = t->utilization;
    t->utilization = grip > 1e-9 ? lk_v3_norm(t->shear_force) / grip : 0;
    double raw = 0;
    if (t->ncontacts > 0)
      raw = fmax(t->slip_speed / o->slip_speed_threshold, t->utilization / o->utilization_threshold);
    t->slip_score += alpha * (raw - t->slip_score);
    if (!t->slip && t->slip_score > o->slip_on) t->slip = 1;
    if (t->slip && t->slip_score < o->slip_off) t->slip = 0;
  }
  sd->st->tactile_valid = 1;
}

void lk_sim_tactile(const lk_model *m, lk_data *d) {
  lk_sim_tactile_begin(m, d);
  for (int i = 0; i < d->sim.st->ncontact; i++) lk_sim_tactile_add(d, i);
  lk_sim_tactile_end(m, d);
}

const lk_step_report *lk_data_step_report(const lk_data *d) {
  return d ? &d->sim.st->report : NULL;
}

const lk_island_report *lk_data_island_report(const lk_data *d, int k) {
  /* (a failed step keeps its islands' reports: the journal leaves the
   * arrays and the step report's count) */
  if (!d || k < 0 || k >= d->sim.st->report.nislands) return NULL;
  return &d->sim.island_note[d->sim.island_rows[d->sim.island_start[k]]];
}

int lk_data_ncontacts(const lk_data *d) { return d ? d->sim.st->ncontact : 0; }

const lk_contact_report *lk_data_contact_report(const lk_data *d, int i) {
  return d && i >= 0 && i < d->sim.st->ncontact ? &d->sim.contact[i] : NULL;
}

int lk_data_nlink_forces(const lk_data *d) { return d ? d->sim.st->nlforce : 0; }

const lk_link_force *lk_data_link_force(const lk_data *d, int i) {
  return d && i >= 0 && i < d->sim.st->nlforce ? &d->sim.lforce[i] : NULL;
}

lk_status lk_data_constraint_generalized_force(const lk_model *m, const lk_data *d,
                                               lk_constraint_kind kind, int index, double *out) {
  if (!lk_data_matches(m, d) || !out) return LK_INVALID_ARGUMENT;
  memset(out, 0, (size_t)m->nv * sizeof *out);
  int found = 0;
  double h = m->opt.timestep;
  for (int i = 0; i < d->sim.st->nrow; i++) {
    const lk_row *R = &d->sim.row[i];
    if (R->ckind != kind || R->cindex != index) continue;
    found = 1;
    lk_rows_axpy(d, i, R->z / h, 0, out);
  }
  return found ? LK_OK : LK_NOT_FOUND;
}

lk_status lk_data_tactile(const lk_data *d, int link, lk_tactile *out) {
  if (!d || !out || link < 0 || link >= d->model->nlink) return LK_INVALID_ARGUMENT;
  *out = d->sim.tactile[link];
  return LK_OK;
}
