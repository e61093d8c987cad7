/* Compliant contact: force laws in place of complementarity rows for the
 * geometry contacts whose pair has a compliant material (LAMMPS
 * pair_style granular: doc/src/pair_granular.rst and
 * granular_tangential_models.rst; Luding, "Cohesive, frictional powders:
 * contact models for tension", Granular Matter 10, 2008; Thornton et al.,
 * "An investigation of the comparative behaviour of alternative contact
 * force models during inelastic collisions", Powder Technology 233, 2013).
 *
 *   normal   hooke  F_ne = k_n delta            hertz  F_ne = k_n a delta,
 *            a = sqrt(R delta);  F_n = max(0, F_ne - eta_n v_n)
 *   tangent  v_t = tangential relative velocity at the contact point,
 *            eta_t = x_gamma_t eta_n, F_crit = mu F_n
 *     linear_nohistory  F_t = -min(F_crit, eta_t |v_t|) v_t/|v_t|
 *     linear_history    xi: accumulated slip; each step (a) xi projected
 *                       into the current tangent plane and rescaled to its
 *                       old length (Luding eq. 17), (b) xi += v_t h,
 *                       (c) F = -k_t xi - eta_t v_t, (d) if |F| > F_crit:
 *                       F = F_crit F/|F| and xi = -(F + eta_t v_t)/k_t
 *                       (Luding eq. 20)
 *     mindlin           the same with the stiffness k_t a
 *     mindlin/force     the history is the elastic force F_te:
 *                       F_te += -k_t a v_t h, F = F_te - eta_t v_t,
 *                       truncated, F_te = F + eta_t v_t
 *     .../static        F_crit = mu_s F_n while static, mu_d F_n while
 *                       dynamic; static -> dynamic when the trial force
 *                       exceeds F_crit, dynamic -> static when it does not.
 * The forces are those of the start of the step (positions, velocities),
 * applied with the step's free velocity: v* += h M^-1 J^T f. */
#include <math.h>
#include <string.h>

#include "collision/col_data.h"
#include "constraint/constraint_impl.h"
#include "sim/compliant.h"
#include "sim/sim_internal.h"

static int is_static_variant(lk_tangential_model t) {
  return t == LK_TANGENTIAL_LINEAR_HISTORY_STATIC || t == LK_TANGENTIAL_MINDLIN_STATIC;
}

double lk_compliant_normal_energy(const lk_compliant_params *p, double delta) {
  if (!(delta > 0)) return 0;
  if (p->normal == LK_NORMAL_HERTZ)
    return isfinite(p->R) ? 0.4 * p->k_n * sqrt(p->R) * pow(delta, 2.5) : 0;
  return 0.5 * p->k_n * delta * delta;
}

/* Project a history vector into the plane normal to n, keeping its length. */
static lk_vec3 rotate_history(lk_vec3 xi, lk_vec3 n) {
  double len = lk_v3_norm(xi);
  lk_vec3 t = lk_v3_sub(xi, lk_v3_scale(n, lk_v3_dot(n, xi)));
  double lt = lk_v3_norm(t);
  if (!(lt > 1e-300) || !(len > 0)) return lk_v3_zero();
  return lk_v3_scale(t, len / lt);
}

void lk_compliant_law(const lk_compliant_params *p, lk_vec3 n, double delta, lk_vec3 vrel, double h,
                      double hist[4], lk_friction_state *state, double *fn_out, lk_vec3 *ft_out) {
  double a = isfinite(p->R) ? sqrt(p->R * fmax(delta, 0)) : 1.0;
  double fne = p->normal == LK_NORMAL_HERTZ ? p->k_n * a * delta : p->k_n * delta;
  double vn = lk_v3_dot(vrel, n);
  double fn = fne - p->eta_n * vn;
  if (fn < 0) fn = 0;
  *fn_out = fn;
  lk_vec3 vt = lk_v3_sub(vrel, lk_v3_scale(n, vn));
  double eta_t = p->x_gamma_t * p->eta_n;
  lk_vec3 fdamp = lk_v3_scale(vt, -eta_t);
  int stat = is_static_variant(p->tangential);
  double mu = stat && *state == LK_FRICTION_DYNAMIC ? p->mu_d : p->mu_s;
  double fcrit = mu * fn;
  lk_vec3 xi = lk_v3(hist[0], hist[1], hist[2]);
  lk_vec3 F;
  switch (p->tangential) {
    case LK_TANGENTIAL_LINEAR_NOHISTORY: {
      double nd = lk_v3_norm(fdamp);
      F = nd > fcrit && nd > 0 ? lk_v3_scale(fdamp, fcrit / nd) : fdamp;
      *ft_out = F;
      return;
    }
    case LK_TANGENTIAL_MINDLIN_FORCE: {
      xi = rotate_history(xi, n); /* here the elastic force F_te */
      xi = lk_v3_madd(xi, vt, -p->k_t * a * h);
      F = lk_v3_add(xi, fdamp);
      double nF = lk_v3_norm(F);
      if (nF > fcrit) {
        F = nF > 0 ? lk_v3_scale(F, fcrit / nF) : lk_v3_zero();
        xi = lk_v3_sub(F, fdamp);
      }
      break;
    }
    default: {
      double k = (p->tangential == LK_TANGENTIAL_MINDLIN || p->tangential == LK_TANGENTIAL_MINDLIN_STATIC)
                     ? p->k_t * a
                     : p->k_t;
      xi = rotate_history(xi, n);
      xi = lk_v3_madd(xi, vt, h);
      F = lk_v3_add(lk_v3_scale(xi, -k), fdamp);
      double nF = lk_v3_norm(F);
      if (nF > fcrit) {
        F = nF > 0 ? lk_v3_scale(F, fcrit / nF) : lk_v3_zero();
        xi = k > 0 ? lk_v3_scale(lk_v3_sub(F, fdamp), -1.0 / k) : lk_v3_zero();
        if (stat) *state = LK_FRICTION_DYNAMIC;
      } else if (stat) {
        *state = LK_FRICTION_STATIC;
      }
      break;
    }
  }
  hist[0] = xi.x;
  hist[1] = xi.y;
  hist[2] = xi.z;
  *ft_out = F;
}

/* The radius of curvature a geom offers a contact (planes are flat; a box
 * or a cylinder's flat face is treated as its smallest half size). */
static double geom_radius(const lk_model *m, int g) {
  const lk_geom_spec *s = &m->geom[g].spec;
  switch (s->type) {
    case LK_GEOM_PLANE:
      return INFINITY;
    case LK_GEOM_BOX:
      return fmin(s->size[0], fmin(s->size[1], s->size[2]));
    default:
      return s->size[0];
  }
}

int lk_sim_compliant_pair(const lk_model *m, int geom_a, int geom_b) {
  if (m->ncompliant_mat == 0) return 0;
  return m->mat[m->geom_mat[geom_a]].contact == LK_CONTACT_COMPLIANT ||
         m->mat[m->geom_mat[geom_b]].contact == LK_CONTACT_COMPLIANT;
}

void lk_sim_compliant_begin(const lk_model *m, lk_data *d) {
  lk_models_data *x = &d->sim.x;
  if (m->ncompliant_mat == 0) return;
  x->ncompliant = 0;
  memset(x->wcomp, 0, sizeof(lk_force) * (size_t)m->nlink);
  memset(x->compliant, 0, (size_t)d->sim.contact_cap);
}

static void params(const lk_model *m, const lk_contact_geom *g, lk_compliant_params *p) {
  const lk_material_spec *ma = &m->mat[m->geom_mat[g->geom]];
  const lk_material_spec *mb = &m->mat[m->geom_mat[g->other_geom]];
  int ca = ma->contact == LK_CONTACT_COMPLIANT, cb = mb->contact == LK_CONTACT_COMPLIANT;
  const lk_material_spec *lead = ca ? ma : mb;
  p->normal = lead->normal;
  p->tangential = lead->tangential;
  if (ca && cb) {
    lk_mix_rule r = m->opt.friction_mix;
    p->k_n = lk_mix(ma->k_n, mb->k_n, r);
    p->eta_n = lk_mix(ma->damping, mb->damping, r);
    p->k_t = lk_mix(ma->k_t, mb->k_t, r);
    p->x_gamma_t = lk_mix(ma->x_gamma_t, mb->x_gamma_t, r);
  } else {
    p->k_n = lead->k_n;
    p->eta_n = lead->damping;
    p->k_t = lead->k_t;
    p->x_gamma_t = lead->x_gamma_t;
  }
  p->mu_s = g->mu_static;
  p->mu_d = g->mu_dynamic;
  double ra = geom_radius(m, g->geom), rb = geom_radius(m, g->other_geom);
  p->R = isfinite(ra) && isfinite(rb) ? ra * rb / (ra + rb) : (isfinite(ra) ? ra : rb);
}

lk_status lk_sim_compliant_contact(const lk_model *m, lk_data *d, int report,
                                   const lk_contact_geom *g) {
  lk_sim_data *sd = &d->sim;
  lk_models_data *x = &sd->x;
  lk_contact_mem *mem = g->mem;
  for (int k = 0; k < 6; k++) mem->row[k] = -1;
  if (!mem->valid) {
    mem->state = LK_FRICTION_STATIC;
    memset(mem->hist, 0, sizeof mem->hist);
  }
  lk_compliant_params p;
  params(m, g, &p);
  lk_vec3 pl = lk_tf_inv_point(&d->xw[g->link], g->p);
  lk_vec3 po = lk_tf_inv_point(&d->xw[g->other], g->p);
  lk_vec3 vrel = lk_v3_sub(lk_data_point_velocity(d, g->link, pl),
                           g->other > 0 ? lk_data_point_velocity(d, g->other, po) : lk_v3_zero());
  double fn = 0;
  lk_vec3 ft = lk_v3_zero();
  lk_friction_state state = mem->state;
  if (g->depth > 0) {
    lk_compliant_law(&p, g->n, g->depth, vrel, m->opt.timestep, mem->hist, &state, &fn, &ft);
  } else {
    memset(mem->hist, 0, sizeof mem->hist); /* apart: the history is lost */
    state = LK_FRICTION_STATIC;
  }
  mem->state = state;
  mem->valid = 1;
  mem->age = g->age;
  mem->nrows = 0;
  lk_vec3 F = lk_v3_add(lk_v3_scale(g->n, fn), ft);
  lk_force W = lk_fo(lk_v3_cross(g->p, F), F);
  x->wcomp[g->link] = lk_fo_add(x->wcomp[g->link], W);
  x->wcomp[g->other] = lk_fo_sub(x->wcomp[g->other], W);
  x->compliant[report] = 1;
  x->ncompliant++;
  lk_contact_report *c = &sd->contact[report];
  memset(c, 0, sizeof *c);
  c->link = g->link;
  c->other = g->other;
  c->geom = g->geom;
  c->other_geom = g->other_geom;
  c->explicit_index = -1;
  c->id = g->id;
  c->age = g->age;
  c->type = LK_CONTACT_FRICTION;
  c->position = g->p;
  c->normal = g->n;
  c->depth = g->depth;
  c->mu_static = g->mu_static;
  c->mu_dynamic = g->mu_dynamic;
  c->state = state;
  c->fn = fn;
  c->ft = ft;
  lk_vec3 vt = lk_v3_sub(vrel, lk_v3_scale(g->n, lk_v3_dot(vrel, g->n)));
  c->slip = vt;
  c->slip_speed = lk_v3_norm(vt);
  double cap = g->mu_static * fn;
  c->utilization = fn > 1e-9 && cap > 0 ? lk_v3_norm(ft) / cap : 0;
  /* The collision layer keeps the normal and tangential impulses too. */
  mem->z[0] = fn * m->opt.timestep;
  mem->z[1] = lk_v3_dot(ft, mem->t1) * m->opt.timestep;
  mem->z[2] = lk_v3_dot(ft, lk_v3_cross(g->n, mem->t1)) * m->opt.timestep;
  return LK_OK;
}

/* v += h M~^-1 J^T f of this step's compliant contacts (and v* with it). */
void lk_sim_compliant_apply(const lk_model *m, lk_data *d, double *v) {
  lk_sim_data *sd = &d->sim;
  lk_models_data *x = &sd->x;
  if (m->ncompliant_mat == 0 || x->ncompliant == 0) return;
  /* Subtree sums of the wrenches (parents come before children). */
  lk_force *w = x->wcomp;
  for (int j = m->nlink - 1; j > 0; j--) w[m->parent[j]] = lk_fo_add(w[m->parent[j]], w[j]);
  for (int k = 0; k < m->nv; k++) x->fcomp[k] = lk_mo_dot_fo(sd->cdof[k], w[m->dof_link[k]]);
  lk_dyn_solve(m, d, x->fcomp, 1);
  double h = m->opt.timestep;
  for (int k = 0; k < m->nv; k++) {
    v[k] += h * x->fcomp[k];
    sd->vstar[k] = v[k];
  }
}
