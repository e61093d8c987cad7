/* Geometry contacts: the collision layer's contacts of this step, with the
 * two geoms' materials mixed, turned into contact rows. Each contact's
 * memory (friction state, tangent bases, warm-start states) is carried
 * from the previous step's contact with the same id; the collision layer
 * also keeps the friction state and impulses on its side. */
#include <math.h>
#include <string.h>

#include "collision/col_data.h"
#include "constraint/constraint_impl.h"
#include "linkage/collision.h"
#include "sim/compliant.h"
#include "sim/sim_internal.h"

static int key_cmp(const int *a, const int *b) {
  for (int k = 0; k < 3; k++)
    if (a[k] != b[k]) return a[k] < b[k] ? -1 : 1;
  return 0;
}

lk_status lk_sim_geometry_contacts(const lk_model *m, lk_data *d) {
  lk_sim_data *sd = &d->sim;
  if (m->ngeom < 2) return LK_OK;
  lk_status st = lk_collide(m, d, NULL);
  if (st) return st;
  lk_sim_compliant_begin(m, d); /* issue 8: compliant pairs */
  const lk_options *o = &m->opt;
  double h = o->timestep, gmag = lk_v3_norm(o->gravity);
  int n = lk_data_ncontact(d), prev = 0;
  /* The mixed coefficients of the last material pair (a pile's contacts
   * are mostly of one pair: five square roots a contact otherwise) */
  int mix_a = -1, mix_b = -1;
  double mix[5] = {0, 0, 0, 0, 0}, patch = 0;
  for (int i = 0; i < n; i++) {
    const lk_contact *c = lk_data_contact(d, i);
    /* A contact found within the margin is speculative: its row may only
     * stop the approach at the surface (contact.c). One whose gap the
     * step cannot close, even at twice its approach speed plus what
     * gravity adds in a step, would carry nothing: it makes no rows (and
     * no report), so that margins cost rows only where something comes
     * close. */
    if (c->depth < -o->contact_tolerance) {
      lk_vec3 pa = lk_v3_madd(c->pos, c->normal, -0.5 * c->depth);
      lk_vec3 va = lk_data_point_velocity(d, c->link_a, lk_tf_inv_point(&d->xw[c->link_a], pa));
      lk_vec3 vb = lk_data_point_velocity(d, c->link_b, lk_tf_inv_point(&d->xw[c->link_b], pa));
      double vn = lk_v3_dot(c->normal, lk_v3_sub(va, vb));
      if (-c->depth > h * (2 * fmax(-vn, 0) + h * gmag)) continue;
    }
    int report = sd->st->ncontact;
    if (report >= sd->contact_cap) return LK_CAPACITY_EXCEEDED;
    /* A geom pair's own material, unmixed (MJCF <pair friction>) */
    int pm = m->ngpair > 0 ? lk_model_geom_pair_material(m, c->geom_a, c->geom_b) : -1;
    if (pm >= 0 ? (mix_a != -2 - pm || mix_b != -2 - pm)
                : (m->geom_mat[c->geom_a] != mix_a || m->geom_mat[c->geom_b] != mix_b)) {
      mix_a = pm >= 0 ? -2 - pm : m->geom_mat[c->geom_a];
      mix_b = pm >= 0 ? -2 - pm : m->geom_mat[c->geom_b];
      const lk_material_spec *ma = &m->mat[pm >= 0 ? pm : mix_a],
                             *mb = &m->mat[pm >= 0 ? pm : mix_b];
      mix[0] = lk_mix(ma->mu_static, mb->mu_static, o->friction_mix);
      mix[1] = lk_mix(ma->mu_dynamic, mb->mu_dynamic, o->friction_mix);
      mix[2] = lk_mix(ma->restitution, mb->restitution, o->friction_mix);
      mix[3] = lk_mix(ma->mu_torsional, mb->mu_torsional, o->friction_mix);
      mix[4] = lk_mix(ma->mu_rolling, mb->mu_rolling, o->friction_mix);
      /* The patch is the softer body's: the larger of the two. */
      patch = fmax(ma->patch_radius, mb->patch_radius);
    }
    lk_contact_geom g; /* every field assigned below (no zero fill: a rep stos a contact) */
    g.link = c->link_a;
    g.other = c->link_b;
    g.geom = c->geom_a;
    g.other_geom = c->geom_b;
    g.explicit_index = -1;
    g.id = c->id;
    g.age = c->age;
    g.p = lk_v3_madd(c->pos, c->normal, -0.5 * c->depth);
    g.n = c->normal;
    g.depth = c->depth;
    g.tolerance = o->contact_tolerance;
    g.mu_static = mix[0];
    g.mu_dynamic = mix[1];
    if (g.mu_dynamic > g.mu_static) g.mu_dynamic = g.mu_static;
    g.restitution = mix[2];
    g.mu_torsional = mix[3];
    g.mu_rolling = mix[4];
    g.patch_radius = patch;
    g.type = g.patch_radius > 0 && (g.mu_torsional > 0 || g.mu_rolling > 0) ? LK_CONTACT_ROLLING
                                                                            : LK_CONTACT_FRICTION;
    /* Memory: the previous step's contacts are in the same canonical order,
     * so a merge on (geom_a, geom_b, feature) finds the match. */
    lk_contact_mem *mem = &sd->cmem[report];
    int key[3] = {c->geom_a, c->geom_b, (int)c->feature};
    while (prev < sd->st->ngprev && key_cmp(sd->gkey_prev + 3 * prev, key) < 0) prev++;
    if (c->age > 0 && prev < sd->st->ngprev && key_cmp(sd->gkey_prev + 3 * prev, key) == 0 &&
        sd->gid_prev[prev] == c->id) {
      memcpy(mem, &sd->gmem_prev[prev], sizeof *mem);
    } else {
      memset(mem, 0, sizeof *mem);
      mem->valid = 0;
      mem->t1 = c->tangent[0];
      mem->roll_t1 = c->tangent[0];
    }
    g.mem = mem;
    sd->st->ncontact++;
    /* issue 8: a compliant pair gets a force law instead of rows. */
    if (lk_sim_compliant_pair(m, c->geom_a, c->geom_b))
      st = lk_sim_compliant_contact(m, d, report, &g);
    else
      st = lk_contact_rows(m, d, report, &g);
    if (st) return st;
  }
  return LK_OK;
}

/* Report r's memory for the next step (and its state and impulses for
 * the collision layer), reports taken in order; cur carries the position
 * in the remembered list (k) and in the collision contacts (j). */
void lk_sim_geometry_contact_done(lk_data *d, int r, lk_sim_gdone *cur) {
  lk_sim_data *sd = &d->sim;
  const lk_contact_report *c = &sd->contact[r];
  int k = cur->k, j = cur->j, ncol = d->col.st->ncontact;
  if (c->geom < 0 || k >= sd->gprev_cap) return;
  lk_contact *col = lk_col_contacts(&d->col);
  /* the collision contact of this report: the same order, less the
   * speculative ones that made no rows */
  while (j < ncol && col[j].id != c->id) j++;
  sd->gmem_prev[k] = sd->cmem[r];
  sd->gid_prev[k] = c->id;
  sd->gkey_prev[3 * k] = c->geom;
  sd->gkey_prev[3 * k + 1] = c->other_geom;
  /* The collision layer carries the state and impulses too (written in
   * place: the solver's impulses are finite, no need of the public
   * setter's checks). */
  if (j < ncol) {
    lk_contact *cc = &col[j++];
    sd->gkey_prev[3 * k + 2] = (int)cc->feature;
    cc->friction = sd->cmem[r].state;
    _Static_assert(sizeof cc->impulse == sizeof sd->cmem[r].z, "impulses: one layout");
    memcpy(cc->impulse, sd->cmem[r].z, sizeof cc->impulse);
  } else {
    sd->gkey_prev[3 * k + 2] = -1;
  }
  cur->k = k + 1;
  cur->j = j;
}

void lk_sim_geometry_contacts_done_end(lk_data *d, const lk_sim_gdone *cur) {
  d->sim.st->ngprev = cur->k;
}

void lk_sim_geometry_contacts_done(const lk_model *m, lk_data *d) {
  (void)m;
  lk_sim_gdone cur = {0, 0};
  for (int r = 0; r < d->sim.st->ncontact; r++) lk_sim_geometry_contact_done(d, r, &cur);
  lk_sim_geometry_contacts_done_end(d, &cur);
}
