/* Model builder: staging of links, geoms, materials, options and initial
 * state. Validation and freezing are in finalize.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "model/model_impl.h"

static const char *const kJointNames[LK_JOINT_TYPE_COUNT] = {"fixed", "revolute", "prismatic",
                                                             "ball", "free"};
static const int kJointNq[LK_JOINT_TYPE_COUNT] = {0, 1, 1, 4, 7};
static const int kJointNv[LK_JOINT_TYPE_COUNT] = {0, 1, 1, 3, 6};
static const char *const kGeomNames[LK_GEOM_TYPE_COUNT] = {"plane", "sphere", "capsule", "box",
                                                           "cylinder", "mesh"};

const char *lk_joint_type_name(lk_joint_type t) {
  return (int)t >= 0 && t < LK_JOINT_TYPE_COUNT ? kJointNames[t] : NULL;
}

int lk_joint_type_from_name(const char *name) {
  for (int i = 0; name && i < LK_JOINT_TYPE_COUNT; i++)
    if (strcmp(name, kJointNames[i]) == 0) return i;
  return -1;
}

int lk_joint_type_nq(lk_joint_type t) {
  return (int)t >= 0 && t < LK_JOINT_TYPE_COUNT ? kJointNq[t] : 0;
}

int lk_joint_type_nv(lk_joint_type t) {
  return (int)t >= 0 && t < LK_JOINT_TYPE_COUNT ? kJointNv[t] : 0;
}

const char *lk_geom_type_name(lk_geom_type t) {
  return (int)t >= 0 && t < LK_GEOM_TYPE_COUNT ? kGeomNames[t] : NULL;
}

int lk_geom_type_from_name(const char *name) {
  for (int i = 0; name && i < LK_GEOM_TYPE_COUNT; i++)
    if (strcmp(name, kGeomNames[i]) == 0) return i;
  return -1;
}

lk_status lk_geom_solid_inertia(lk_geom_type type, const double size[3], double mass,
                                lk_mat3 *inertia, lk_error *err) {
  if (!size || !inertia) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL argument");
  if (!isfinite(mass) || mass < 0)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "mass %g must be finite and >= 0", mass);
  switch (type) {
    case LK_GEOM_SPHERE:
      *inertia = lk_inertia_solid_sphere(mass, size[0]);
      return LK_OK;
    case LK_GEOM_CAPSULE:
      *inertia = lk_inertia_solid_capsule(mass, size[0], size[1]);
      return LK_OK;
    case LK_GEOM_BOX:
      *inertia = lk_inertia_solid_box(mass, lk_v3_from(size));
      return LK_OK;
    case LK_GEOM_CYLINDER:
      *inertia = lk_inertia_solid_cylinder(mass, size[0], size[1]);
      return LK_OK;
    default:
      return lk_error_set(err, LK_INVALID_ARGUMENT, "a %s has no solid inertia",
                          lk_geom_type_name(type) ? lk_geom_type_name(type) : "geom");
  }
}

void lk_link_spec_default(lk_link_spec *s) {
  memset(s, 0, sizeof *s);
  s->origin = lk_tf_identity();
  s->joint.type = LK_JOINT_FIXED;
  s->joint.axis = lk_v3(0, 0, 1);
  s->com = lk_v3_zero();
  s->inertia = lk_m3_zero();
}

void lk_geom_spec_default(lk_geom_spec *s) {
  memset(s, 0, sizeof *s);
  s->type = LK_GEOM_SPHERE;
  s->pose = lk_tf_identity();
  s->group = 1;
  s->mask = 1;
  s->margin = NAN; /* the options' contact_margin */
}

void lk_material_spec_default(lk_material_spec *s) {
  memset(s, 0, sizeof *s);
  s->mu_static = 0.5;
  s->mu_dynamic = 0.5;
}

void lk_options_default(lk_options *o) {
  memset(o, 0, sizeof *o);
  o->timestep = 0.001;
  o->gravity = lk_v3(0, 0, -9.81);
  o->integrator = LK_INTEGRATOR_EULER;
  o->velocity_forces = LK_VELOCITY_FORCES_MIDPOINT;
  o->solver = LK_SOLVER_DANTZIG;
  o->friction_cone = LK_CONE_CIRCLE;
  o->cone_edges = 8;
  o->friction_mix = LK_MIX_GEOMETRIC;
  o->max_contacts = 0;
  o->contact_erp = 0.2;
  o->contact_tolerance = 1e-4;
  o->contact_margin = 0.01;
  o->max_depenetration_speed = 0.2;
  o->restitution_threshold = 0.2;
  o->impacts = LK_IMPACTS_SIMULTANEOUS;
  o->anchor_contacts = 1;
  o->slip_threshold = 1e-4;
  o->friction_iterations = 24;
  o->constraint_erp = 0.2;
  o->projection_iterations = 3;
  o->cfm = 0;
  o->max_island_rows = 0;
  o->slip_speed_threshold = 1e-3;
  o->utilization_threshold = 1.0;
  o->slip_filter_tau = 0.02;
  o->slip_on = 1.0;
  o->slip_off = 0.58;
  o->friction_law = LK_FRICTION_COMPLEMENTARITY;
  o->friction_eps_v = 1e-3;
  o->smoothing_iterations = 8;
}

static const char *const kTangentialNames[LK_TANGENTIAL_COUNT] = {
    "linear_history", "linear_nohistory", "mindlin", "mindlin/force", "linear_history/static",
    "mindlin/static"};

const char *lk_tangential_model_name(lk_tangential_model t) {
  return (int)t >= 0 && t < LK_TANGENTIAL_COUNT ? kTangentialNames[t] : NULL;
}

int lk_tangential_model_from_name(const char *name) {
  for (int i = 0; name && i < LK_TANGENTIAL_COUNT; i++)
    if (strcmp(name, kTangentialNames[i]) == 0) return i;
  return -1;
}

int lk_model_nwarnings(const lk_model *m) { return m ? m->nwarn : 0; }
const char *lk_model_warning(const lk_model *m, int i) {
  return m && i >= 0 && i < m->nwarn ? m->warn[i] : NULL;
}

lk_model *lk_model_new(void) {
  lk_model *m = lk_calloc(1, sizeof *m);
  if (!m) return NULL;
  lk_options_default(&m->opt);
  return m;
}

static void free_link_rec(lk_link_rec *r) {
  lk_free(r->name);
  lk_free(r->parent_name);
  lk_free((char *)r->joint.name);
}

static void free_geom_rec(lk_geom_rec *g) {
  lk_free(g->name);
  lk_free(g->link_name);
  lk_free(g->material_name);
  lk_mesh_free(g->mesh);
}

void lk_model_free(lk_model *m) {
  if (!m) return;
  lk_name_index_free(&m->link_index);
  lk_name_index_free(&m->joint_index);
  for (int i = 0; i < m->nstaged; i++) free_link_rec(&m->staged[i]);
  lk_free(m->staged);
  for (int i = 0; i < m->ngeom_in; i++) free_geom_rec(&m->geoms_in[i]);
  lk_free(m->geoms_in);
  for (int i = 0; i < m->nmat_in; i++) lk_free((char *)m->mats_in[i].name);
  lk_free(m->mats_in);
  for (int i = 0; i < m->ninit; i++) lk_free(m->inits[i].joint);
  lk_free(m->inits);
  /* Finalized arrays: link records alias the staged strings, so only the
   * arrays themselves (and the world's own name) are freed here. */
  if (m->link) lk_free(m->link[0].name);
  lk_free(m->link);
  lk_free(m->parent);
  lk_free(m->jtype);
  lk_free(m->qadr);
  lk_free(m->vadr);
  lk_free(m->jnq);
  lk_free(m->jnv);
  lk_free(m->axis);
  lk_free(m->inertia);
  lk_free(m->nchild);
  if (m->child) lk_free(m->child[0]);
  lk_free(m->child);
  lk_free(m->subtree_end);
  lk_free(m->dof_link);
  lk_free(m->dof_parent);
  lk_free(m->dof_armature);
  lk_free(m->dof_damping);
  lk_free(m->dof_stiffness);
  lk_free(m->dof_friction);
  lk_free(m->dof_products);
  lk_free(m->tree_vadr);
  lk_free(m->tree_madr);
  lk_free(m->dof_tree);
  lk_free(m->link_tree);
  lk_free(m->geom);
  lk_free(m->geom_link);
  lk_free(m->geom_mat);
  if (m->mat) lk_free((char *)m->mat[0].name);
  lk_free(m->mat);
  lk_free(m->q_neutral);
  lk_free(m->q_init);
  lk_free(m->v_init);
  lk_free(m->name);
  lk_model_free_elements(m);
  lk_free(m);
}

/* Grow a staging array by one element. */
int lk_model_grow(void **arr, int *cap, int n, size_t elem) {
  if (n < *cap) return 1;
  int nc = *cap ? 2 * *cap : 8;
  void *p = lk_realloc(*arr, (size_t)nc * elem);
  if (!p) return 0;
  *arr = p;
  *cap = nc;
  return 1;
}

static int finite_tf(const lk_transform *t) {
  return lk_m3_isfinite(&t->R) && lk_v3_isfinite(t->p);
}

static lk_status check_builder(lk_model *m, const void *spec, lk_error *err) {
  if (!m || !spec) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL model or spec");
  if (m->finalized)
    return lk_error_set(err, LK_INVALID_MODEL, "the model is finalized: it cannot be changed");
  return LK_OK;
}

lk_status lk_model_add_link(lk_model *m, const lk_link_spec *s, lk_error *err) {
  lk_status st = check_builder(m, s, err);
  if (st) return st;
  if (!s->name || !*s->name) return lk_error_set(err, LK_INVALID_MODEL, "a link needs a name");
  if (!lk_model_grow((void **)&m->staged, &m->cap_staged, m->nstaged, sizeof *m->staged))
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory adding link '%s'", s->name);
  lk_link_rec r;
  memset(&r, 0, sizeof r);
  r.origin = s->origin;
  r.joint = s->joint;
  r.mass = s->mass;
  r.com = s->com;
  r.inertia = s->inertia;
  r.name = lk_strdup(s->name);
  r.parent_name = (s->parent && *s->parent) ? lk_strdup(s->parent) : NULL;
  r.joint.name = lk_strdup(s->joint.name && *s->joint.name ? s->joint.name : s->name);
  if (!r.name || !r.joint.name || (s->parent && *s->parent && !r.parent_name)) {
    free_link_rec(&r);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory adding link '%s'", s->name);
  }
  m->staged[m->nstaged++] = r;
  return LK_OK;
}

lk_status lk_model_add_geom(lk_model *m, const lk_geom_spec *s, lk_error *err) {
  lk_status st = check_builder(m, s, err);
  if (st) return st;
  if (!lk_model_grow((void **)&m->geoms_in, &m->cap_geom, m->ngeom_in, sizeof *m->geoms_in))
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory adding a geom");
  lk_geom_rec g;
  memset(&g, 0, sizeof g);
  g.spec = *s;
  g.name = s->name && *s->name ? lk_strdup(s->name) : NULL;
  g.link_name = lk_strdup(s->link && *s->link ? s->link : "world");
  g.material_name = s->material && *s->material ? lk_strdup(s->material) : NULL;
  /* The model keeps its own copy of a mesh, so the caller's may go. */
  g.mesh = s->type == LK_GEOM_MESH && s->mesh ? lk_mesh_copy(s->mesh) : NULL;
  if (!g.link_name || (s->name && *s->name && !g.name) ||
      (s->material && *s->material && !g.material_name) ||
      (s->type == LK_GEOM_MESH && s->mesh && !g.mesh)) {
    free_geom_rec(&g);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory adding a geom");
  }
  g.spec.name = g.name;
  g.spec.link = g.link_name;
  g.spec.material = g.material_name;
  g.spec.mesh = g.mesh;
  m->geoms_in[m->ngeom_in++] = g;
  return LK_OK;
}

lk_status lk_model_add_material(lk_model *m, const lk_material_spec *s, lk_error *err) {
  lk_status st = check_builder(m, s, err);
  if (st) return st;
  if (!s->name || !*s->name) return lk_error_set(err, LK_INVALID_MODEL, "a material needs a name");
  if (!lk_model_grow((void **)&m->mats_in, &m->cap_mat, m->nmat_in, sizeof *m->mats_in))
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory adding material '%s'", s->name);
  lk_material_spec c = *s;
  c.name = lk_strdup(s->name);
  if (!c.name) return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory adding material");
  m->mats_in[m->nmat_in++] = c;
  return LK_OK;
}

lk_status lk_model_set_options(lk_model *m, const lk_options *o, lk_error *err) {
  if (!m || !o) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL model or options");
  lk_status st = lk_model_check_options(o, err);
  if (st) return st;
  lk_options old = m->opt;
  m->opt = *o;
  /* A finalized model's new timestep or gravity meets the plausibility
   * checks' errors (issue 18.9); refused, the options stay as they were. */
  if (m->finalized && (st = lk_model_check_plausible(m, 0, err))) m->opt = old;
  return st;
}

lk_status lk_model_set_name(lk_model *m, const char *name, lk_error *err) {
  if (!m) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL model");
  char *c = name ? lk_strdup(name) : NULL;
  if (name && !c) return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  lk_free(m->name);
  m->name = c;
  return LK_OK;
}

lk_status lk_model_set_initial(lk_model *m, const char *joint, const double *q, int nq,
                               const double *v, int nv, lk_error *err) {
  if (!m || !joint) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL model or joint name");
  if (m->finalized)
    return lk_error_set(err, LK_INVALID_MODEL, "the model is finalized: it cannot be changed");
  if ((q && (nq < 0 || nq > 7)) || (v && (nv < 0 || nv > 6)))
    return lk_error_set(err, LK_INVALID_ARGUMENT,
                        "joint '%s': initial state has %d positions and %d velocities (at most 7 and 6)",
                        joint, q ? nq : 0, v ? nv : 0);
  if (!lk_model_grow((void **)&m->inits, &m->cap_init, m->ninit, sizeof *m->inits))
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  lk_initial_rec r;
  memset(&r, 0, sizeof r);
  r.joint = lk_strdup(joint);
  if (!r.joint) return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  if (q) {
    r.has_q = 1;
    r.nq = nq;
    memcpy(r.q, q, (size_t)nq * sizeof *q);
  }
  if (v) {
    r.has_v = 1;
    r.nv = nv;
    memcpy(r.v, v, (size_t)nv * sizeof *v);
  }
  m->inits[m->ninit++] = r;
  return LK_OK;
}

/* ------------------------------------------------------------- queries */

int lk_model_is_finalized(const lk_model *m) { return m && m->finalized; }
const char *lk_model_name(const lk_model *m) { return m ? m->name : NULL; }
int lk_model_nq(const lk_model *m) { return lk_model_ok(m) ? m->nq : 0; }
int lk_model_nv(const lk_model *m) { return lk_model_ok(m) ? m->nv : 0; }
int lk_model_nlink(const lk_model *m) { return lk_model_ok(m) ? m->nlink : 0; }
int lk_model_ngeom(const lk_model *m) { return lk_model_ok(m) ? m->ngeom : 0; }
int lk_model_nmaterial(const lk_model *m) { return lk_model_ok(m) ? m->nmat : 0; }
const lk_options *lk_model_options(const lk_model *m) { return m ? &m->opt : NULL; }
double lk_model_total_mass(const lk_model *m) { return lk_model_ok(m) ? m->total_mass : 0; }

int lk_model_link_index(const lk_model *m, const char *name) {
  if (!lk_model_ok(m) || !name) return -1;
  return lk_name_index_get(&m->link_index, name);
}

int lk_model_joint_index(const lk_model *m, const char *name) {
  if (!lk_model_ok(m) || !name) return -1;
  return lk_name_index_get(&m->joint_index, name);
}

int lk_model_geom_index(const lk_model *m, const char *name) {
  if (!lk_model_ok(m) || !name) return -1;
  for (int i = 0; i < m->ngeom; i++)
    if (m->geom[i].name && strcmp(m->geom[i].name, name) == 0) return i;
  return -1;
}

int lk_model_material_index(const lk_model *m, const char *name) {
  if (!lk_model_ok(m) || !name) return -1;
  for (int i = 0; i < m->nmat; i++)
    if (strcmp(m->mat[i].name, name) == 0) return i;
  return -1;
}

static int link_ok(const lk_model *m, int i) { return lk_model_ok(m) && i >= 0 && i < m->nlink; }

lk_status lk_model_link(const lk_model *m, int i, lk_link_spec *out) {
  if (!link_ok(m, i) || i == 0 || !out)
    return LK_INVALID_ARGUMENT;
  const lk_link_rec *r = &m->link[i];
  out->name = r->name;
  out->parent = m->link[m->parent[i]].name;
  out->origin = r->origin;
  out->joint = r->joint;
  out->mass = r->mass;
  out->com = r->com;
  out->inertia = r->inertia;
  return LK_OK;
}

int lk_model_link_parent(const lk_model *m, int i) { return link_ok(m, i) ? m->parent[i] : -1; }
const char *lk_model_link_name(const lk_model *m, int i) {
  return link_ok(m, i) ? m->link[i].name : NULL;
}
const char *lk_model_joint_name(const lk_model *m, int i) {
  return link_ok(m, i) && i > 0 ? m->link[i].joint.name : NULL;
}
lk_joint_type lk_model_joint_type(const lk_model *m, int i) {
  return link_ok(m, i) ? m->jtype[i] : LK_JOINT_FIXED;
}
int lk_model_joint_qadr(const lk_model *m, int i) { return link_ok(m, i) ? m->qadr[i] : -1; }
int lk_model_joint_vadr(const lk_model *m, int i) { return link_ok(m, i) ? m->vadr[i] : -1; }
int lk_model_joint_nq(const lk_model *m, int i) { return link_ok(m, i) ? m->jnq[i] : 0; }
int lk_model_joint_nv(const lk_model *m, int i) { return link_ok(m, i) ? m->jnv[i] : 0; }
int lk_model_dof_link(const lk_model *m, int k) {
  return lk_model_ok(m) && k >= 0 && k < m->nv ? m->dof_link[k] : -1;
}

lk_status lk_model_geom(const lk_model *m, int g, lk_geom_spec *out) {
  if (!lk_model_ok(m) || g < 0 || g >= m->ngeom || !out) return LK_INVALID_ARGUMENT;
  *out = m->geom[g].spec;
  return LK_OK;
}
const char *lk_model_geom_label(const lk_model *m, int g, char *buf, size_t size) {
  if (!lk_model_ok(m) || g < 0 || g >= m->ngeom || !buf || size == 0) return NULL;
  const char *name = m->geom[g].spec.name;
  if (name && *name) {
    snprintf(buf, size, "%s", name);
    return buf;
  }
  int link = m->geom_link[g], k = 0;
  for (int i = 0; i < g; i++) k += m->geom_link[i] == link;
  snprintf(buf, size, "%s#%d", lk_model_link_name(m, link), k);
  return buf;
}

int lk_model_geom_link(const lk_model *m, int g) {
  return lk_model_ok(m) && g >= 0 && g < m->ngeom ? m->geom_link[g] : -1;
}
int lk_model_geom_material(const lk_model *m, int g) {
  return lk_model_ok(m) && g >= 0 && g < m->ngeom ? m->geom_mat[g] : -1;
}
lk_status lk_model_material(const lk_model *m, int k, lk_material_spec *out) {
  if (!lk_model_ok(m) || k < 0 || k >= m->nmat || !out) return LK_INVALID_ARGUMENT;
  *out = m->mat[k];
  return LK_OK;
}

void lk_model_q_neutral(const lk_model *m, double *q) {
  if (lk_model_ok(m) && q) memcpy(q, m->q_neutral, (size_t)m->nq * sizeof *q);
}

void lk_model_initial_state(const lk_model *m, double *q, double *v) {
  if (!lk_model_ok(m)) return;
  if (q) memcpy(q, m->q_init, (size_t)m->nq * sizeof *q);
  if (v) memcpy(v, m->v_init, (size_t)m->nv * sizeof *v);
}

int lk_model_finite_tf(const lk_transform *t) { return finite_tf(t); }
