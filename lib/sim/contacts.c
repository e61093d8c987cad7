/* Gathering the step's contacts: explicit contacts from the model (here)
 * and geometry contacts from the collision layer (geometry.c), each turned
 * into an lk_contact_geom with mixed coefficients and its persistent
 * memory, then into rows. */
#include <math.h>
#include <string.h>

#include "constraint/constraint_impl.h"
#include "sim/sim_internal.h"

/* Explicit contacts further apart than this (beyond what the step can
 * close) produce no rows. */
#define EXPLICIT_MARGIN 0.005

lk_status lk_sim_explicit_contacts(const lk_model *m, lk_data *d) {
  lk_sim_data *sd = &d->sim;
  double h = m->opt.timestep;
  for (int i = 0; i < m->nxcon; i++) {
    const lk_xcontact_rec *x = &m->xcon[i];
    const lk_contact_spec *s = &x->spec;
    const lk_transform *Xl = &d->xw[x->link], *Xo = &d->xw[x->other];
    lk_vec3 n = lk_tf_dir(Xo, s->normal);
    lk_vec3 pb = lk_tf_point(Xo, s->other_point);
    lk_vec3 pa = lk_tf_point(Xl, s->point);
    lk_vec3 pvel = s->point;
    if (s->radius > 0) {
      /* A rolling body: its lowest point along -n, re-located every step. */
      pa = lk_v3_madd(pa, n, -s->radius);
      pvel = lk_tf_inv_point(Xl, pa);
    }
    double gap = lk_v3_dot(n, lk_v3_sub(pa, pb));
    lk_vec3 va = lk_data_point_velocity(d, x->link, pvel);
    lk_vec3 vb = lk_data_point_velocity(d, x->other, lk_tf_inv_point(Xo, pa));
    double vn = lk_v3_dot(n, lk_v3_sub(va, vb));
    lk_contact_mem *xm = &sd->xmem[i];
    if (gap > EXPLICIT_MARGIN + (vn < 0 ? -vn * h : 0)) {
      xm->valid = 0; /* separated: it starts afresh when it touches again */
      continue;
    }
    int report = sd->st->ncontact;
    if (report >= sd->contact_cap) return LK_CAPACITY_EXCEEDED;
    const lk_material_spec *mat = &m->mat[x->mat];
    lk_contact_geom g;
    memset(&g, 0, sizeof g);
    g.link = x->link;
    g.other = x->other;
    g.geom = g.other_geom = -1;
    g.explicit_index = i;
    g.id = ((unsigned long long)i << 32) | 0xffffffffu; /* stable per explicit contact */
    g.type = s->type;
    g.p = pa;
    g.n = n;
    g.depth = -gap;
    g.tolerance = s->tolerance;
    g.mu_static = mat->mu_static;
    g.mu_dynamic = mat->mu_dynamic;
    g.restitution = mat->restitution;
    g.mu_torsional = mat->mu_torsional;
    g.mu_rolling = mat->mu_rolling;
    g.patch_radius = s->patch_radius >= 0 ? s->patch_radius : mat->patch_radius;
    sd->cmem[report] = *xm;
    g.mem = &sd->cmem[report];
    g.age = xm->valid ? xm->age + 1 : 0;
    sd->st->ncontact++;
    lk_status st = lk_contact_rows(m, d, report, &g);
    if (st) return st;
  }
  return LK_OK;
}

/* After the solve: explicit contacts keep their memory by index. */
void lk_sim_explicit_contacts_done(const lk_model *m, lk_data *d) {
  lk_sim_data *sd = &d->sim;
  (void)m;
  for (int r = 0; r < sd->st->ncontact; r++) {
    const lk_contact_report *c = &sd->contact[r];
    if (c->explicit_index >= 0) sd->xmem[c->explicit_index] = sd->cmem[r];
  }
}
