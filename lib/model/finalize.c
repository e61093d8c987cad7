/* lk_model_finalize(): validate what the builder staged, order the links
 * (parents first, depth-first so that every subtree is a contiguous range),
 * assign q/v addresses and build the flat arrays the algorithms read. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "linkage/sim.h"
#include "model/model_impl.h"

lk_status lk_model_check_options(const lk_options *o, lk_error *err) {
  if (!(isfinite(o->timestep) && o->timestep > 0))
    return lk_error_set(err, LK_INVALID_MODEL, "options: timestep %g must be positive and finite",
                        o->timestep);
  if (!lk_v3_isfinite(o->gravity))
    return lk_error_set(err, LK_INVALID_MODEL, "options: gravity must be finite");
  if ((int)o->integrator < 0 || o->integrator > LK_INTEGRATOR_RK4)
    return lk_error_set(err, LK_INVALID_MODEL, "options: unknown integrator %d", (int)o->integrator);
  if ((int)o->velocity_forces < 0 || o->velocity_forces > LK_VELOCITY_FORCES_EXPLICIT)
    return lk_error_set(err, LK_INVALID_MODEL, "options: unknown velocity_forces %d",
                        (int)o->velocity_forces);
  if ((int)o->impacts < 0 || o->impacts > LK_IMPACTS_PROPAGATING)
    return lk_error_set(err, LK_INVALID_MODEL, "options: unknown impacts %d", (int)o->impacts);
  if ((int)o->solver < 0 || o->solver > LK_SOLVER_DANTZIG)
    return lk_error_set(err, LK_INVALID_MODEL, "options: unknown solver %d", (int)o->solver);
  if ((int)o->friction_cone < 0 || o->friction_cone > LK_CONE_BOX)
    return lk_error_set(err, LK_INVALID_MODEL, "options: unknown friction cone %d",
                        (int)o->friction_cone);
  if (o->cone_edges < 3 || o->cone_edges > 64)
    return lk_error_set(err, LK_INVALID_MODEL, "options: cone_edges %d must be in 3..64",
                        o->cone_edges);
  if ((int)o->collision_filter < 0 || o->collision_filter > LK_FILTER_EITHER)
    return lk_error_set(err, LK_INVALID_MODEL, "options: unknown collision_filter %d",
                        (int)o->collision_filter);
  if ((int)o->friction_mix < 0 || o->friction_mix > LK_MIX_MEAN)
    return lk_error_set(err, LK_INVALID_MODEL, "options: unknown friction mixing rule %d",
                        (int)o->friction_mix);
  struct {
    const char *name;
    double v, lo, hi;
    int lo_open;
  } ranges[] = {
      {"contact_erp", o->contact_erp, 0, 1, 1},
      {"contact_tolerance", o->contact_tolerance, 0, INFINITY, 0},
      {"contact_margin", o->contact_margin, 0, INFINITY, 0},
      {"max_depenetration_speed", o->max_depenetration_speed, 0, INFINITY, 1},
      {"restitution_threshold", o->restitution_threshold, 0, INFINITY, 0},
      {"slip_threshold", o->slip_threshold, 0, INFINITY, 0},
      {"constraint_erp", o->constraint_erp, 0, 1, 1},
      {"cfm", o->cfm, 0, INFINITY, 0},
      {"slip_speed_threshold", o->slip_speed_threshold, 0, INFINITY, 1},
      {"utilization_threshold", o->utilization_threshold, 0, INFINITY, 1},
      {"slip_filter_tau", o->slip_filter_tau, 0, INFINITY, 0},
      {"slip_on", o->slip_on, 0, INFINITY, 0},
      {"slip_off", o->slip_off, 0, INFINITY, 0},
  };
  for (size_t k = 0; k < sizeof ranges / sizeof ranges[0]; k++) {
    double v = ranges[k].v;
    if (!isfinite(v) || v > ranges[k].hi || v < ranges[k].lo || (ranges[k].lo_open && v == ranges[k].lo))
      return lk_error_set(err, LK_INVALID_MODEL, "options: %s %g must be in %s%g, %g]", ranges[k].name,
                          v, ranges[k].lo_open ? "(" : "[", ranges[k].lo, ranges[k].hi);
  }
  if (o->slip_off > o->slip_on)
    return lk_error_set(err, LK_INVALID_MODEL, "options: slip_off %g exceeds slip_on %g", o->slip_off,
                        o->slip_on);
  if ((int)o->friction_law < 0 || o->friction_law > LK_FRICTION_SMOOTHED)
    return lk_error_set(err, LK_INVALID_MODEL, "options: unknown friction law %d",
                        (int)o->friction_law);
  if (!(isfinite(o->friction_eps_v) && o->friction_eps_v > 0) || o->smoothing_iterations < 1)
    return lk_error_set(err, LK_INVALID_MODEL,
                        "options: friction_eps_v %g must be positive and finite, "
                        "smoothing_iterations %d >= 1",
                        o->friction_eps_v, o->smoothing_iterations);
  if (o->friction_iterations < 1 || o->projection_iterations < 0 || o->max_island_rows < 0)
    return lk_error_set(err, LK_INVALID_MODEL,
                        "options: friction_iterations must be >= 1, projection_iterations and "
                        "max_island_rows >= 0");
  if (o->max_contacts < 0)
    return lk_error_set(err, LK_INVALID_MODEL, "options: max_contacts %d must be >= 0",
                        o->max_contacts);
  /* the strategies an island can start with (the others are stages of
   * them: fixed normals and the coupled check follow a failed sticking
   * trial; the sparse ones are the large islands') */
  const int s = o->island_strategy;
  if (s == LK_ISLAND_FIXED_NORMALS || s == LK_ISLAND_COUPLED)
    return lk_error_set(err, LK_INVALID_MODEL,
                        "options: island_strategy %s is a stage that follows a failed sticking "
                        "trial, not a start: planned, guess, sticking, held, lcp, nsgs or newton",
                        s == LK_ISLAND_COUPLED ? "coupled" : "fixed_normals");
  if (!(s == LK_ISLAND_NONE || s == LK_ISLAND_GUESS || s == LK_ISLAND_STICKING ||
        s == LK_ISLAND_HELD || s == LK_ISLAND_LCP || s == LK_ISLAND_NSGS ||
        s == LK_ISLAND_NEWTON))
    return lk_error_set(err, LK_INVALID_MODEL,
                        "options: island_strategy %d is not one an island starts with (planned, "
                        "guess, sticking, held, lcp, nsgs, newton)",
                        s);
  return LK_OK;
}

static lk_status check_rotation(const lk_mat3 *R, const char *what, const char *name,
                                lk_error *err) {
  lk_mat3 RtR = lk_m3_tmul(R, R);
  double d = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) d = fmax(d, fabs(RtR.m[i][j] - (i == j)));
  if (d > 1e-6 || lk_m3_det(R) < 0)
    return lk_error_set(err, LK_INVALID_MODEL, "%s '%s': pose rotation is not a rotation matrix",
                        what, name);
  return LK_OK;
}

static lk_status check_inertia(const lk_link_rec *r, lk_error *err) {
  const lk_mat3 *I = &r->inertia;
  if (!lk_m3_isfinite(I))
    return lk_error_set(err, LK_INVALID_MODEL, "link '%s': inertia is not finite", r->name);
  double scale = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) scale = fmax(scale, fabs(I->m[i][j]));
  if (r->mass == 0) {
    if (scale != 0)
      return lk_error_set(err, LK_INVALID_MODEL,
                          "link '%s': a massless link cannot have rotational inertia", r->name);
    return LK_OK;
  }
  for (int i = 0; i < 3; i++)
    for (int j = i + 1; j < 3; j++)
      if (fabs(I->m[i][j] - I->m[j][i]) > 1e-9 * scale)
        return lk_error_set(err, LK_INVALID_MODEL, "link '%s': inertia tensor is not symmetric",
                            r->name);
  lk_vec3 ev;
  lk_m3_sym_eigen(I, &ev, NULL);
  if (!(ev.x > 1e-12 * fmax(ev.z, DBL_MIN)) || !(ev.x > 0))
    return lk_error_set(err, LK_INVALID_MODEL,
                        "link '%s': inertia is not positive definite (principal moments %g %g %g)",
                        r->name, ev.x, ev.y, ev.z);
  if (ev.x + ev.y < ev.z * (1 - 1e-9))
    return lk_error_set(err, LK_INVALID_MODEL,
                        "link '%s': principal moments %g %g %g violate the triangle inequality "
                        "(%g + %g < %g)",
                        r->name, ev.x, ev.y, ev.z, ev.x, ev.y, ev.z);
  return LK_OK;
}

static lk_status check_link(const lk_link_rec *r, lk_error *err) {
  const lk_joint_spec *j = &r->joint;
  if (strcmp(r->name, "world") == 0)
    return lk_error_set(err, LK_INVALID_MODEL, "link name 'world' is reserved for the world");
  if ((int)j->type < 0 || j->type >= LK_JOINT_TYPE_COUNT)
    return lk_error_set(err, LK_INVALID_MODEL, "link '%s': unknown joint type %d", r->name,
                        (int)j->type);
  if (!lk_model_finite_tf(&r->origin))
    return lk_error_set(err, LK_INVALID_MODEL, "link '%s': origin is not finite", r->name);
  lk_status st = check_rotation(&r->origin.R, "link", r->name, err);
  if (st) return st;
  if (!isfinite(r->mass))
    return lk_error_set(err, LK_INVALID_MODEL, "link '%s': mass is not finite", r->name);
  if (r->mass < 0 || (r->mass == 0 && j->type != LK_JOINT_FIXED))
    return lk_error_set(err, LK_INVALID_MODEL,
                        "link '%s': mass %g must be positive (only a link on a fixed joint may be "
                        "massless)",
                        r->name, r->mass);
  /* A mass below the smallest normal double has no inertia the checks
   * below could judge (its moments underflow): say it is the mass. */
  if (r->mass > 0 && r->mass < DBL_MIN)
    return lk_error_set(err, LK_INVALID_MODEL,
                        "link '%s': mass %g kg is too small to simulate (below %g; 0 makes a "
                        "massless link on a fixed joint)",
                        r->name, r->mass, DBL_MIN);
  if (!lk_v3_isfinite(r->com))
    return lk_error_set(err, LK_INVALID_MODEL, "link '%s': centre of mass is not finite", r->name);
  st = check_inertia(r, err);
  if (st) return st;
  const char *jn = j->name;
  if (!lk_v3_isfinite(j->axis))
    return lk_error_set(err, LK_INVALID_MODEL, "joint '%s': axis is not finite", jn);
  if ((j->type == LK_JOINT_REVOLUTE || j->type == LK_JOINT_PRISMATIC) &&
      !(lk_v3_norm(j->axis) > 1e-12))
    return lk_error_set(err, LK_INVALID_MODEL, "joint '%s': axis must not be zero", jn);
  double vals[] = {j->damping, j->stiffness, j->rest, j->armature, j->friction};
  const char *names[] = {"damping", "stiffness", "rest", "armature", "friction"};
  for (int k = 0; k < 5; k++) {
    if (!isfinite(vals[k]))
      return lk_error_set(err, LK_INVALID_MODEL, "joint '%s': %s is not finite", jn, names[k]);
    if (k != 2 && vals[k] < 0)
      return lk_error_set(err, LK_INVALID_MODEL, "joint '%s': %s %g must be >= 0", jn, names[k],
                          vals[k]);
  }
  if (j->limited) {
    if (!isfinite(j->lower) || !isfinite(j->upper))
      return lk_error_set(err, LK_INVALID_MODEL, "joint '%s': limits must be finite", jn);
    if (j->lower > j->upper)
      return lk_error_set(err, LK_INVALID_MODEL, "joint '%s': lower limit %g exceeds upper %g", jn,
                          j->lower, j->upper);
    if (j->type == LK_JOINT_FIXED || j->type == LK_JOINT_FREE)
      return lk_error_set(err, LK_INVALID_MODEL, "joint '%s': a %s joint cannot have limits", jn,
                          lk_joint_type_name(j->type));
  }
  return LK_OK;
}

static lk_status check_material(const lk_material_spec *s, lk_error *err) {
  const char *n = s->name;
  double vals[] = {s->mu_static, s->mu_dynamic, s->restitution, s->mu_rolling, s->mu_torsional,
                   s->patch_radius};
  const char *names[] = {"mu_static", "mu_dynamic", "restitution", "mu_rolling", "mu_torsional",
                         "patch_radius"};
  for (int k = 0; k < 6; k++) {
    if (!isfinite(vals[k]))
      return lk_error_set(err, LK_INVALID_MODEL, "material '%s': %s is not finite", n, names[k]);
    if (vals[k] < 0)
      return lk_error_set(err, LK_INVALID_MODEL, "material '%s': %s %g must be >= 0", n, names[k],
                          vals[k]);
  }
  if (s->mu_dynamic > s->mu_static)
    return lk_error_set(err, LK_INVALID_MODEL,
                        "material '%s': mu_dynamic %g exceeds mu_static %g", n, s->mu_dynamic,
                        s->mu_static);
  if (s->restitution > 1)
    return lk_error_set(err, LK_INVALID_MODEL, "material '%s': restitution %g must be in [0, 1]",
                        n, s->restitution);
  if ((int)s->contact < 0 || s->contact > LK_CONTACT_COMPLIANT)
    return lk_error_set(err, LK_INVALID_MODEL, "material '%s': unknown contact model %d", n,
                        (int)s->contact);
  if ((int)s->normal < 0 || s->normal > LK_NORMAL_HERTZ)
    return lk_error_set(err, LK_INVALID_MODEL, "material '%s': unknown normal model %d", n,
                        (int)s->normal);
  if ((int)s->tangential < 0 || s->tangential >= LK_TANGENTIAL_COUNT)
    return lk_error_set(err, LK_INVALID_MODEL, "material '%s': unknown tangential model %d", n,
                        (int)s->tangential);
  double cv[] = {s->k_n, s->damping, s->k_t, s->x_gamma_t};
  const char *cn[] = {"k_n", "damping", "k_t", "x_gamma_t"};
  for (int k = 0; k < 4; k++)
    if (!isfinite(cv[k]) || cv[k] < 0)
      return lk_error_set(err, LK_INVALID_MODEL, "material '%s': %s %g must be finite and >= 0", n,
                          cn[k], cv[k]);
  if (s->contact == LK_CONTACT_COMPLIANT) {
    if (!(s->k_n > 0))
      return lk_error_set(err, LK_INVALID_MODEL, "material '%s': compliant contact needs k_n > 0",
                          n);
    if (s->tangential != LK_TANGENTIAL_LINEAR_NOHISTORY && !(s->k_t > 0) && s->mu_static > 0)
      return lk_error_set(err, LK_INVALID_MODEL,
                          "material '%s': tangential model %s needs k_t > 0", n,
                          lk_tangential_model_name(s->tangential));
  }
  return LK_OK;
}

static void add_warning(lk_model *m, const char *fmt, const char *a, double x, double y) {
  if (m->nwarn >= LK_MODEL_MAX_WARNINGS) return;
  snprintf(m->warn[m->nwarn++], sizeof m->warn[0], fmt, a, x, y);
}

static lk_status check_geom(const lk_geom_spec *g, int index, lk_error *err) {
  char label[96];
  if (g->name)
    snprintf(label, sizeof label, "geom '%s'", g->name);
  else
    snprintf(label, sizeof label, "geom #%d (on '%s')", index, g->link);
  if ((int)g->type < 0 || g->type >= LK_GEOM_TYPE_COUNT)
    return lk_error_set(err, LK_INVALID_MODEL, "%s: unknown geom type %d", label, (int)g->type);
  if (!lk_model_finite_tf(&g->pose))
    return lk_error_set(err, LK_INVALID_MODEL, "%s: pose is not finite", label);
  lk_status st = check_rotation(&g->pose.R, "geom", g->name ? g->name : label, err);
  if (st) return st;
  if (g->type == LK_GEOM_MESH && !g->mesh)
    return lk_error_set(err, LK_INVALID_MODEL, "%s: a mesh geom needs its mesh", label);
  int nsize = g->type == LK_GEOM_PLANE || g->type == LK_GEOM_MESH ? 0
              : g->type == LK_GEOM_SPHERE ? 1
              : g->type == LK_GEOM_BOX    ? 3
                                          : 2;
  for (int k = 0; k < 3; k++)
    if (!isfinite(g->size[k]))
      return lk_error_set(err, LK_INVALID_MODEL, "%s: size is not finite", label);
  if (!isnan(g->margin) && (!isfinite(g->margin) || g->margin < 0))
    return lk_error_set(err, LK_INVALID_MODEL, "%s: margin %g must be finite and >= 0", label,
                        g->margin);
  for (int k = 0; k < nsize; k++) {
    /* A capsule's half length may be zero (a sphere); every other size > 0. */
    int may_be_zero = g->type == LK_GEOM_CAPSULE && k == 1;
    if (g->size[k] < 0 || (!may_be_zero && !(g->size[k] > 0)))
      return lk_error_set(err, LK_INVALID_MODEL, "%s: %s size[%d] = %g must be positive", label,
                          lk_geom_type_name(g->type), k, g->size[k]);
  }
  return LK_OK;
}

/* Index of a staged link by name, -1 if none (the staged names' index,
 * built by the duplicate check). */
static int staged_index(const lk_name_index *names, const char *name) {
  return lk_name_index_get(names, name);
}

#define ALLOC(ptr, n)                                    \
  do {                                                   \
    (ptr) = lk_calloc((size_t)((n) > 0 ? (n) : 1), sizeof *(ptr)); \
    if (!(ptr)) goto oom;                                \
  } while (0)

/* Whether link i's velocity products vanish identically (model_impl.h:
 * dof_products): a free joint on the world, no children, its centre at
 * its origin (h = 0) and its inertia there c 1, to 1e-14 of c (equal
 * computations of a cube's or a sphere's moments agree to the bit). */
static int products_vanish(const lk_model *m, int i) {
  if (m->jtype[i] != LK_JOINT_FREE || m->parent[i] != 0 || m->nchild[i] != 0) return 0;
  const lk_inertia *I = &m->inertia[i];
  if (I->h.x != 0 || I->h.y != 0 || I->h.z != 0) return 0;
  double c = (I->I.m[0][0] + I->I.m[1][1] + I->I.m[2][2]) / 3;
  if (!(c > 0)) return 0;
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++)
      if (!(fabs(I->I.m[r][k] - (r == k ? c : 0)) <= 1e-14 * c)) return 0;
  return 1;
}

lk_status lk_model_finalize(lk_model *m, lk_error *err) {
  if (!m) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL model");
  if (m->finalized) return LK_OK;
  lk_status st = lk_model_check_options(&m->opt, err);
  if (st) return st;
  int ns = m->nstaged;

  /* ---- links: local checks, duplicates, parents ---- */
  /* Hashed: comparing every pair was 68 % of checking a 10 000-link chain. */
  lk_name_index names = {0}, joints = {0}, geom_names = {0};
  int *par = NULL, *order = NULL, *stack = NULL, *rank = NULL, *kids = NULL;
  for (int i = 0; i < ns; i++) {
    if ((st = check_link(&m->staged[i], err))) goto fail_names;
    int k, r = lk_name_index_put(&names, m->staged[i].name, i, &k);
    if (r < 0) goto oom;
    if (r == 0) {
      st = lk_error_set(err, LK_INVALID_MODEL, "duplicate link name '%s'", m->staged[i].name);
      goto fail_names;
    }
    if ((r = lk_name_index_put(&joints, m->staged[i].joint.name, i, &k)) < 0) goto oom;
    if (r == 0) {
      st = lk_error_set(err, LK_INVALID_MODEL, "duplicate joint name '%s' (links '%s' and '%s')",
                        m->staged[i].joint.name, m->staged[k].name, m->staged[i].name);
      goto fail_names;
    }
  }
  ALLOC(par, ns);
  ALLOC(order, ns);
  ALLOC(stack, ns + 1);
  ALLOC(rank, ns);
  ALLOC(kids, 2 * ns + 2);
  for (int i = 0; i < ns; i++) {
    const char *pn = m->staged[i].parent_name;
    if (!pn || strcmp(pn, "world") == 0) {
      par[i] = -1;
    } else {
      par[i] = staged_index(&names, pn);
      if (par[i] < 0) {
        st = lk_error_set(err, LK_INVALID_MODEL, "link '%s': unknown parent '%s'", m->staged[i].name, pn);
        goto fail;
      }
      if (par[i] == i) {
        st = lk_error_set(err, LK_INVALID_MODEL, "link '%s' is its own parent (a cycle)",
                     m->staged[i].name);
        goto fail;
      }
    }
  }
  /* Each link's children in insertion order, kid[kid0[i]] ..
   * kid[kid0[i + 1] - 1] (counting sort by parent: O(n), where a scan of
   * all links for each one's children was quadratic). */
  int *kid0 = kids, *kid = kids + ns + 1;
  for (int i = 0; i < ns; i++)
    if (par[i] >= 0) kid0[par[i] + 1]++;
  for (int i = 0; i < ns; i++) kid0[i + 1] += kid0[i];
  for (int c = 0; c < ns; c++)
    if (par[c] >= 0) kid[kid0[par[c]]++] = c;
  for (int i = ns; i > 0; i--) kid0[i] = kid0[i - 1];
  kid0[0] = 0;
  /* Depth-kid0 preorder from the world; children in insertion order. The
   * stack holds links to visit; pushing children in reverse keeps order. */
  int norder = 0, top = 0;
  for (int i = ns - 1; i >= 0; i--)
    if (par[i] == -1) stack[top++] = i;
  while (top > 0) {
    int i = stack[--top];
    rank[i] = norder;
    order[norder++] = i;
    for (int k = kid0[i + 1] - 1; k >= kid0[i]; k--) stack[top++] = kid[k];
  }
  if (norder < ns) {
    /* Some link is unreachable from the world: its ancestry loops. */
    char *reached = (char *)stack; /* reuse: ns+1 ints >= ns chars */
    memset(reached, 0, (size_t)ns);
    for (int k = 0; k < norder; k++) reached[order[k]] = 1;
    int i = 0;
    while (reached[i]) i++;
    /* Walk up until inside the loop, then start printing it at the member
     * that was added first, so the message does not depend on the walk. */
    int slow = i;
    for (int k = 0; k < ns; k++) slow = par[slow];
    int first = slow;
    for (int cur = par[slow]; cur != slow; cur = par[cur])
      if (cur < first) first = cur;
    slow = first;
    char path[256] = "";
    int start = slow, cur = slow, len = 0;
    do {
      if (len < (int)sizeof path - 1) {
        int w = snprintf(path + len, sizeof path - (size_t)len, "%s -> ", m->staged[cur].name);
        len = w < 0 ? len : (len + w < (int)sizeof path ? len + w : (int)sizeof path - 1);
      }
      cur = par[cur];
    } while (cur != start);
    st = lk_error_set(err, LK_INVALID_MODEL, "links form a cycle: %s%s", path, m->staged[start].name);
    goto fail;
  }

  /* ---- materials ---- */
  int nmat = 1;
  for (int i = 0; i < m->nmat_in; i++) {
    if ((st = check_material(&m->mats_in[i], err))) goto fail;
    for (int k = 0; k < i; k++)
      if (strcmp(m->mats_in[i].name, m->mats_in[k].name) == 0) {
        st = lk_error_set(err, LK_INVALID_MODEL, "duplicate material name '%s'", m->mats_in[i].name);
        goto fail;
      }
    if (strcmp(m->mats_in[i].name, "default") != 0) nmat++;
  }
  m->nwarn = 0;
  m->ncompliant_mat = 0;
  for (int i = 0; i < m->nmat_in; i++) {
    const lk_material_spec *ms = &m->mats_in[i];
    if (ms->contact != LK_CONTACT_COMPLIANT) continue;
    m->ncompliant_mat++;
    if ((ms->tangential == LK_TANGENTIAL_LINEAR_HISTORY_STATIC ||
         ms->tangential == LK_TANGENTIAL_MINDLIN_STATIC) &&
        ms->mu_dynamic >= ms->mu_static)
      add_warning(m,
                  "material '%s': mu_dynamic %g >= mu_static %g: the /static tangential model "
                  "has no static/dynamic drop",
                  ms->name, ms->mu_dynamic, ms->mu_static);
  }

  /* ---- geoms ---- */
  for (int g = 0; g < m->ngeom_in; g++) {
    const lk_geom_spec *gs = &m->geoms_in[g].spec;
    if ((st = check_geom(gs, g, err))) goto fail;
    if (strcmp(gs->link, "world") != 0 && staged_index(&names, gs->link) < 0) {
      st = lk_error_set(err, LK_INVALID_MODEL, "geom %s%s%son unknown link '%s'", gs->name ? "'" : "",
                   gs->name ? gs->name : "", gs->name ? "' " : "", gs->link);
      goto fail;
    }
    if (gs->material && strcmp(gs->material, "default") != 0) {
      int found = 0;
      for (int k = 0; k < m->nmat_in; k++)
        if (strcmp(m->mats_in[k].name, gs->material) == 0) found = 1;
      if (!found) {
        st = lk_error_set(err, LK_INVALID_MODEL, "geom %s%s%suses unknown material '%s'",
                     gs->name ? "'" : "", gs->name ? gs->name : "", gs->name ? "' " : "",
                     gs->material);
        goto fail;
      }
    }
    if (gs->name) {
      int r = lk_name_index_put(&geom_names, gs->name, g, NULL);
      if (r < 0) goto oom;
      if (r == 0) {
        st = lk_error_set(err, LK_INVALID_MODEL, "duplicate geom name '%s'", gs->name);
        goto fail;
      }
    }
  }

  /* ---- build the finalized arrays ---- */
  int nl = ns + 1;
  m->nlink = nl;
  ALLOC(m->link, nl);
  ALLOC(m->parent, nl);
  ALLOC(m->jtype, nl);
  ALLOC(m->qadr, nl);
  ALLOC(m->vadr, nl);
  ALLOC(m->jnq, nl);
  ALLOC(m->jnv, nl);
  ALLOC(m->axis, nl);
  ALLOC(m->inertia, nl);
  ALLOC(m->nchild, nl);
  ALLOC(m->child, nl);
  ALLOC(m->subtree_end, nl);
  m->link[0].name = lk_strdup("world");
  if (!m->link[0].name) goto oom;
  m->link[0].joint.name = m->link[0].name;
  m->link[0].origin = lk_tf_identity();
  m->parent[0] = -1;
  m->jtype[0] = LK_JOINT_FIXED;
  m->inertia[0] = lk_inertia_zero();
  int nq = 0, nv = 0;
  double total = 0;
  for (int k = 0; k < ns; k++) {
    int s = order[k], i = k + 1;
    lk_link_rec *r = &m->link[i];
    *r = m->staged[s];
    r->origin.R = lk_m3_orthonormalize(&r->origin.R);
    m->parent[i] = par[s] < 0 ? 0 : rank[par[s]] + 1;
    m->jtype[i] = r->joint.type;
    m->jnq[i] = lk_joint_type_nq(r->joint.type);
    m->jnv[i] = lk_joint_type_nv(r->joint.type);
    m->qadr[i] = nq;
    m->vadr[i] = nv;
    nq += m->jnq[i];
    nv += m->jnv[i];
    m->axis[i] = lk_v3_normalize(r->joint.axis);
    r->joint.axis = m->axis[i];
    m->inertia[i] = lk_inertia_from_com(r->mass, r->com, &r->inertia);
    total += r->mass;
  }
  m->nq = nq;
  m->nv = nv;
  m->total_mass = total;
  /* Children lists, in one block, and subtree ranges (preorder: a subtree
   * is contiguous and ends where the next link not below it starts). */
  for (int i = 1; i < nl; i++) m->nchild[m->parent[i]]++;
  int *block;
  ALLOC(block, nl);
  int off = 0;
  for (int i = 0; i < nl; i++) {
    m->child[i] = block + off;
    off += m->nchild[i];
    m->nchild[i] = 0;
  }
  for (int i = 1; i < nl; i++) {
    int p = m->parent[i];
    m->child[p][m->nchild[p]++] = i;
  }
  for (int i = nl - 1; i >= 0; i--) {
    m->subtree_end[i] = i + 1;
    for (int c = 0; c < m->nchild[i]; c++)
      if (m->subtree_end[m->child[i][c]] > m->subtree_end[i])
        m->subtree_end[i] = m->subtree_end[m->child[i][c]];
  }
  /* Per-DoF arrays. */
  ALLOC(m->dof_link, nv);
  ALLOC(m->dof_parent, nv);
  ALLOC(m->dof_armature, nv);
  ALLOC(m->dof_damping, nv);
  ALLOC(m->dof_stiffness, nv);
  ALLOC(m->dof_friction, nv);
  ALLOC(m->dof_products, nv);
  for (int i = 1; i < nl; i++) {
    for (int k = 0; k < m->jnv[i]; k++) {
      int d = m->vadr[i] + k;
      m->dof_link[d] = i;
      if (k > 0) {
        m->dof_parent[d] = d - 1;
      } else {
        int a = m->parent[i];
        while (a > 0 && m->jnv[a] == 0) a = m->parent[a];
        m->dof_parent[d] = a > 0 ? m->vadr[a] + m->jnv[a] - 1 : -1;
      }
      m->dof_armature[d] = m->link[i].joint.armature;
      m->dof_damping[d] = m->link[i].joint.damping;
      m->dof_stiffness[d] = m->link[i].joint.stiffness;
      m->dof_friction[d] = m->link[i].joint.friction;
      m->dof_products[d] = !products_vanish(m, i);
    }
  }
  /* Trees of DoFs: a DoF without a parent DoF starts one, and preorder
   * puts its descendants right after it, before the next such DoF. */
  int ntree = 0;
  for (int d = 0; d < nv; d++) ntree += m->dof_parent[d] < 0;
  m->ntree = ntree;
  ALLOC(m->tree_vadr, ntree + 1);
  ALLOC(m->tree_madr, ntree + 1);
  ALLOC(m->dof_tree, nv);
  ALLOC(m->link_tree, nl);
  for (int d = 0, t = -1; d < nv; d++) {
    if (m->dof_parent[d] < 0) m->tree_vadr[++t] = d;
    m->dof_tree[d] = t;
  }
  m->tree_vadr[ntree] = nv;
  m->tree_madr[0] = 0;
  for (int t = 0; t < ntree; t++) {
    size_t n = (size_t)(m->tree_vadr[t + 1] - m->tree_vadr[t]);
    m->tree_madr[t + 1] = m->tree_madr[t] + n * n;
  }
  m->link_tree[0] = -1;
  for (int i = 1; i < nl; i++)
    m->link_tree[i] = m->jnv[i] > 0 ? m->dof_tree[m->vadr[i]] : m->link_tree[m->parent[i]];
  /* Materials: 0 is the default (a user material named "default" replaces
   * its values), the others follow in insertion order. */
  m->nmat = nmat;
  ALLOC(m->mat, nmat);
  lk_material_spec_default(&m->mat[0]);
  m->mat[0].name = lk_strdup("default");
  if (!m->mat[0].name) goto oom;
  for (int i = 0, k = 1; i < m->nmat_in; i++) {
    if (strcmp(m->mats_in[i].name, "default") == 0) {
      const char *keep = m->mat[0].name;
      m->mat[0] = m->mats_in[i];
      m->mat[0].name = keep;
    } else {
      m->mat[k++] = m->mats_in[i];
    }
  }
  /* The built links' names, for the geoms and initial states below,
   * lk_model_link_index and the elements. */
  for (int i = 0; i < nl; i++)
    if (lk_name_index_put(&m->link_index, m->link[i].name, i, NULL) < 0 ||
        (i > 0 && lk_name_index_put(&m->joint_index, m->link[i].joint.name, i, NULL) < 0))
      goto oom;
  /* Geoms. */
  m->ngeom = m->ngeom_in;
  ALLOC(m->geom, m->ngeom);
  ALLOC(m->geom_link, m->ngeom);
  ALLOC(m->geom_mat, m->ngeom);
  for (int g = 0; g < m->ngeom; g++) {
    m->geom[g] = m->geoms_in[g];
    m->geom[g].spec.pose.R = lk_m3_orthonormalize(&m->geom[g].spec.pose.R);
    if (isnan(m->geom[g].spec.margin)) m->geom[g].spec.margin = m->opt.contact_margin;
    const char *ln = m->geom[g].spec.link;
    int li = lk_name_index_get(&m->link_index, ln);
    m->geom_link[g] = li > 0 ? li : 0;
    const char *mn = m->geom[g].spec.material;
    int mi = 0;
    for (int k = 1; mn && k < nmat; k++)
      if (strcmp(m->mat[k].name, mn) == 0) mi = k;
    m->geom_mat[g] = mi;
  }
  /* Automatic contact capacity: 8 a geom, 16 for boxes and cylinders,
   * whose face contacts have 4 points: a cube in a pile rests on four
   * below and carries four above, 32 contacts that it shares with those,
   * 16 its own. */
  m->contact_capacity = 16;
  if (m->opt.max_contacts > 0)
    m->contact_capacity = m->opt.max_contacts;
  else
    for (int g = 0; g < m->ngeom; g++) {
      lk_geom_type t = m->geom[g].spec.type;
      m->contact_capacity += t == LK_GEOM_BOX || t == LK_GEOM_CYLINDER ? 16 : 8;
    }
  /* Neutral and initial configurations. */
  ALLOC(m->q_neutral, nq);
  ALLOC(m->q_init, nq);
  ALLOC(m->v_init, nv);
  for (int i = 1; i < nl; i++) {
    if (m->jtype[i] == LK_JOINT_BALL) m->q_neutral[m->qadr[i]] = 1;
    if (m->jtype[i] == LK_JOINT_FREE) m->q_neutral[m->qadr[i] + 3] = 1;
  }
  memcpy(m->q_init, m->q_neutral, (size_t)nq * sizeof(double));
  for (int r = 0; r < m->ninit; r++) {
    const lk_initial_rec *in = &m->inits[r];
    int i = lk_name_index_get(&m->joint_index, in->joint);
    if (i <= 0) {
      st = lk_error_set(err, LK_INVALID_MODEL, "initial state for unknown joint '%s'", in->joint);
      goto fail_built;
    }
    if ((in->has_q && in->nq != m->jnq[i]) || (in->has_v && in->nv != m->jnv[i])) {
      st = lk_error_set(err, LK_INVALID_MODEL,
                   "joint '%s' (%s): initial state needs %d positions and %d velocities, got %d "
                   "and %d",
                   in->joint, lk_joint_type_name(m->jtype[i]), m->jnq[i], m->jnv[i],
                   in->has_q ? in->nq : m->jnq[i], in->has_v ? in->nv : m->jnv[i]);
      goto fail_built;
    }
    if (!lk_all_finite(in->q, 7) || !lk_all_finite(in->v, 6)) {
      st = lk_error_set(err, LK_INVALID_MODEL, "joint '%s': initial state is not finite", in->joint);
      goto fail_built;
    }
    double q[7];
    memcpy(q, in->q, sizeof q);
    int qoff = m->jtype[i] == LK_JOINT_BALL ? 0 : (m->jtype[i] == LK_JOINT_FREE ? 3 : -1);
    /* Positions (not quaternion parts) beyond LK_POSITION_MAX: a double's
     * spacing there swallows a step's increment (q + v h == q), so the
     * joint would freeze while v grew. */
    for (int k = 0; in->has_q && k < (qoff >= 0 ? qoff : m->jnq[i]); k++)
      if (fabs(q[k]) > LK_POSITION_MAX) {
        double gap = nextafter(fabs(q[k]), INFINITY) - fabs(q[k]);
        st = lk_error_set(err, LK_INVALID_MODEL,
                          "joint '%s': initial position %g is beyond the bound |q| <= %g (rad or "
                          "m): there a double's spacing is %g, so a step's increment v h below "
                          "%g would be lost (q + v h == q)",
                          in->joint, q[k], LK_POSITION_MAX, gap, gap / 2);
        goto fail_built;
      }
    if (in->has_q && qoff >= 0) {
      double n = sqrt(q[qoff] * q[qoff] + q[qoff + 1] * q[qoff + 1] + q[qoff + 2] * q[qoff + 2] +
                      q[qoff + 3] * q[qoff + 3]);
      if (fabs(n - 1) > 1e-3) {
        st = lk_error_set(err, LK_INVALID_MODEL,
                     "joint '%s': initial quaternion has norm %g, expected a unit quaternion",
                     in->joint, n);
        goto fail_built;
      }
      for (int k = 0; k < 4; k++) q[qoff + k] /= n;
    }
    if (in->has_q) memcpy(m->q_init + m->qadr[i], q, (size_t)m->jnq[i] * sizeof(double));
    if (in->has_v) memcpy(m->v_init + m->vadr[i], in->v, (size_t)m->jnv[i] * sizeof(double));
  }

  if ((st = lk_model_finalize_elements(m, err))) goto fail_built;
  if ((st = lk_model_check_plausible(m, 1, err))) goto fail_built;

  lk_name_index_free(&names);
  lk_name_index_free(&joints);
  lk_name_index_free(&geom_names);
  lk_free(par);
  lk_free(order);
  lk_free(stack);
  lk_free(rank);
  lk_free(kids);
  m->finalized = 1;
  return LK_OK;

oom:
  st = lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory finalizing the model");
fail_built:
fail:
fail_names:
  lk_name_index_free(&names);
  lk_name_index_free(&joints);
  lk_name_index_free(&geom_names);
  lk_name_index_free(&m->link_index);
  lk_name_index_free(&m->joint_index);
  lk_free(par);
  lk_free(order);
  lk_free(stack);
  lk_free(rank);
  lk_free(kids);
  /* Drop any partially built arrays so a corrected model can retry. */
  if (m->link) lk_free(m->link[0].name);
  lk_free(m->link);
  m->link = NULL;
  lk_free(m->parent);
  m->parent = NULL;
  lk_free(m->jtype);
  m->jtype = NULL;
  lk_free(m->qadr);
  m->qadr = NULL;
  lk_free(m->vadr);
  m->vadr = NULL;
  lk_free(m->jnq);
  m->jnq = NULL;
  lk_free(m->jnv);
  m->jnv = NULL;
  lk_free(m->axis);
  m->axis = NULL;
  lk_free(m->inertia);
  m->inertia = NULL;
  lk_free(m->nchild);
  m->nchild = NULL;
  if (m->child) lk_free(m->child[0]);
  lk_free(m->child);
  m->child = NULL;
  lk_free(m->subtree_end);
  m->subtree_end = NULL;
  lk_free(m->dof_link);
  m->dof_link = NULL;
  lk_free(m->dof_parent);
  m->dof_parent = NULL;
  lk_free(m->dof_armature);
  m->dof_armature = NULL;
  lk_free(m->dof_damping);
  m->dof_damping = NULL;
  lk_free(m->dof_stiffness);
  m->dof_stiffness = NULL;
  lk_free(m->dof_friction);
  m->dof_friction = NULL;
  lk_free(m->dof_products);
  m->dof_products = NULL;
  lk_free(m->tree_vadr);
  m->tree_vadr = NULL;
  lk_free(m->tree_madr);
  m->tree_madr = NULL;
  lk_free(m->dof_tree);
  m->dof_tree = NULL;
  lk_free(m->link_tree);
  m->link_tree = NULL;
  m->ntree = 0;
  lk_free(m->geom);
  m->geom = NULL;
  lk_free(m->geom_link);
  m->geom_link = NULL;
  lk_free(m->geom_mat);
  m->geom_mat = NULL;
  if (m->mat) lk_free((char *)m->mat[0].name);
  lk_free(m->mat);
  m->mat = NULL;
  lk_free(m->q_neutral);
  m->q_neutral = NULL;
  lk_free(m->q_init);
  m->q_init = NULL;
  lk_free(m->v_init);
  m->v_init = NULL;
  m->nlink = m->nq = m->nv = m->ngeom = m->nmat = 0;
  return st;
}
