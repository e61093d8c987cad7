/* Analytic screening of grasp candidates: the fingers closed kinematically
 * onto the object (no dynamics), then the contacts analysed.
 *
 * Closing one finger is a root search along a path: the active joints
 * advance together by s, and we look for the first s at which a moving
 * geom of the finger touches the object. The collision layer's depth of a
 * pair apart is minus a separation that never exceeds their distance (the
 * SAT separation of boxes, the exact distance of spheres, capsules and
 * the GJK pairs), and no point of a moving geom moves faster than vmax
 * per unit of s (1 for a prismatic joint, the geom's farthest distance
 * from a revolute joint's origin), so the step gap / vmax cannot pass
 * through the object: conservative advancement (Mirtich 1996). It is
 * exact in one step for a jaw closing on a parallel face; where the
 * separation shrinks slowly (a curling finger meeting a face at an angle)
 * a secant step on the last two separations is tried, and a secant step
 * that overshoots brackets the contact for the Illinois variant of regula
 * falsi. */
#include <math.h>
#include <string.h>

#include "core/internal.h"
#include "grasp/grasp_internal.h"
#include "grasp/grasp_scene.h"
#include "linkage/collision.h"
#include "linkage/dynamics.h"

#define MAX_FDOF (LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS)
#define LOOP_TOL 1e-12 /* m: a hand's loops closed to this */

typedef struct {
  int geom, link;
  lk_geom_type type;
  double size[3];
  lk_transform pose; /* in the link frame */
  const lk_mesh *mesh; /* LK_GEOM_MESH: the model's hull */
  int material;
} sgeom;

struct lk_grasp_screener {
  const lk_grasp_scene *s;
  lk_grasp_screen_options o;
  lk_force loads[LK_GRASP_SCREEN_MAX_LOADS]; /* o.loads points here */
  int nq;
  double *q0; /* the model's initial q: the object where it starts */
  int nobj, nhand;
  sgeom *obj;  /* the object's solid geoms */
  sgeom *hand; /* every hand geom (palm and fingers), finger geoms first
                  by finger: finger f's are hand[fbeg[f] .. fbeg[f+1]) */
  int fbeg[LK_GRASP_MAX_FINGERS + 1];
  double *mu, *torsion; /* per (hand geom, object geom): mixed coefficients */
  unsigned char *pair_ok; /* the pair may collide (lk_collide_filter) */
  /* Finger DoFs in the scene's order. */
  int dof_link[MAX_FDOF];
  int dof_prismatic[MAX_FDOF];
  /* The limit a DoF closes towards (the scene's fdof_sign: the upper one
   * for +1, the lower for -1); +-inf when unlimited. */
  double dof_limit[MAX_FDOF];
  /* Coupled joints (scene cp_*), in the scene's order. */
  int cp_prismatic[MAX_FDOF];
  int lp_prismatic[MAX_FDOF];
  /* The limit a coupled joint moves towards while its leader closes (the
   * scene's cp_sign: the ratio's sign times the leader's closing
   * direction; a mirrored jaw, URDF <mimic multiplier="-1">, moves towards
   * its lower limit); +-inf when unlimited. */
  double cp_limit[MAX_FDOF];
  /* moves[k * nhand + g]: hand geom g is below DoF k's joint; row
   * MAX_FDOF + j: below coupled joint j; row 2 MAX_FDOF + p: below the
   * scene's passive loop joint p. */
  unsigned char *moves;
  double margin; /* pairs farther apart than this count as out of reach */
  double contact_tolerance;
};

void lk_grasp_screen_options_default(lk_grasp_screen_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->tolerance = 1e-10;
  o->contact_distance = 1e-7;
  o->max_evaluations = 200;
  o->quality = 1;
  o->centre_coupled = 1;
  lk_grasp_options_default(&o->analysis);
}

const char *lk_screen_outcome_name(lk_screen_outcome o) { return lk_grasp_screen_outcome_name(o); }

const char *lk_grasp_screen_outcome_name(lk_screen_outcome o) {
  switch (o) {
    case LK_SCREEN_CLOSED:
      return "closed";
    case LK_SCREEN_COLLISION:
      return "collision";
    case LK_SCREEN_NO_CONTACT:
      return "no contact";
    case LK_SCREEN_NOT_CLOSED:
      return "not closed";
  }
  return "unknown";
}

void lk_grasp_screener_free(lk_grasp_screener *sc) {
  if (!sc) return;
  lk_free(sc->q0);
  lk_free(sc->obj);
  lk_free(sc->hand);
  lk_free(sc->mu);
  lk_free(sc->torsion);
  lk_free(sc->pair_ok);
  lk_free(sc->moves);
  lk_free(sc);
}

static int is_below(const lk_model *m, int link, int ancestor) {
  for (int l = link; l >= 0; l = lk_model_link_parent(m, l))
    if (l == ancestor) return 1;
  return 0;
}

static void geom_of(const lk_model *m, int g, sgeom *out) {
  lk_geom_spec gs;
  lk_model_geom(m, g, &gs);
  out->geom = g;
  out->link = lk_model_geom_link(m, g);
  out->type = gs.type;
  memcpy(out->size, gs.size, sizeof out->size);
  out->pose = gs.pose;
  out->mesh = gs.mesh;
  out->material = lk_model_geom_material(m, g);
}

/* The manifold of object geom a and hand geom b at their world poses
 * (lk_collide_specs, which takes meshes; the margin given). */
static lk_status collide(const sgeom *a, const lk_transform *Xa, const sgeom *b,
                         const lk_transform *Xb, double margin, lk_manifold *man) {
  lk_geom_spec sa, sb;
  lk_geom_spec_default(&sa);
  lk_geom_spec_default(&sb);
  sa.type = a->type;
  sb.type = b->type;
  memcpy(sa.size, a->size, sizeof sa.size);
  memcpy(sb.size, b->size, sizeof sb.size);
  sa.mesh = a->mesh;
  sb.mesh = b->mesh;
  sa.margin = margin;
  sb.margin = 0;
  return lk_collide_specs(&sa, Xa, &sb, Xb, man, NULL);
}

static lk_status check_options(const lk_grasp_screen_options *o, lk_error *err) {
  if (!(o->tolerance > 0) || !isfinite(o->tolerance))
    return lk_error_set(err, LK_INVALID_ARGUMENT, "grasp screen: tolerance %g must be > 0",
                        o->tolerance);
  if (!(o->contact_distance >= o->tolerance) || !isfinite(o->contact_distance))
    return lk_error_set(err, LK_INVALID_ARGUMENT,
                        "grasp screen: contact_distance %g must be finite and >= tolerance %g",
                        o->contact_distance, o->tolerance);
  if (o->max_evaluations < 2)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "grasp screen: max_evaluations %d must be >= 2",
                        o->max_evaluations);
  if (o->nloads < 0 || o->nloads > LK_GRASP_SCREEN_MAX_LOADS || (o->nloads > 0 && !o->loads))
    return lk_error_set(err, LK_INVALID_ARGUMENT,
                        "grasp screen: nloads %d must be 0 to %d, with loads", o->nloads,
                        LK_GRASP_SCREEN_MAX_LOADS);
  for (int k = 0; k < o->nloads; k++)
    if (!lk_v3_isfinite(o->loads[k].lin) || !lk_v3_isfinite(o->loads[k].ang))
      return lk_error_set(err, LK_NON_FINITE, "grasp screen: load %d is not finite", k);
  return LK_OK;
}

lk_grasp_screener *lk_grasp_screener_new(const lk_grasp_scene *s,
                                         const lk_grasp_screen_options *o, lk_error *err) {
  lk_error local;
  if (!err) err = &local;
  lk_error_clear(err);
  if (!s) {
    lk_error_set(err, LK_INVALID_ARGUMENT, "grasp screen: NULL scene");
    return NULL;
  }
  lk_grasp_screener *sc = lk_calloc(1, sizeof *sc);
  if (!sc) {
    lk_error_set(err, LK_OUT_OF_MEMORY, "grasp screen: out of memory");
    return NULL;
  }
  sc->s = s;
  if (o)
    sc->o = *o;
  else
    lk_grasp_screen_options_default(&sc->o);
  if (check_options(&sc->o, err)) {
    lk_grasp_screener_free(sc);
    return NULL;
  }
  for (int k = 0; k < sc->o.nloads; k++) sc->loads[k] = sc->o.loads[k];
  sc->o.loads = sc->o.nloads > 0 ? sc->loads : NULL;
  const lk_model *m = s->m;
  int ng = lk_model_ngeom(m), nl = lk_model_nlink(m);
  sc->nq = lk_model_nq(m);
  sc->q0 = LK_NEW_ARRAY(double, sc->nq > 0 ? sc->nq : 1);
  double *v0 = LK_NEW_ARRAY(double, lk_model_nv(m) > 0 ? lk_model_nv(m) : 1);
  sc->obj = LK_NEW_ARRAY(sgeom, ng > 0 ? ng : 1);
  sc->hand = LK_NEW_ARRAY(sgeom, ng > 0 ? ng : 1);
  if (!sc->q0 || !v0 || !sc->obj || !sc->hand) goto oom;
  lk_model_initial_state(m, sc->q0, v0);
  lk_free(v0);
  v0 = NULL;
  for (int g = 0; g < ng; g++) {
    int l = lk_model_geom_link(m, g);
    lk_geom_spec gs;
    lk_model_geom(m, g, &gs);
    if (gs.type == LK_GEOM_PLANE) continue;
    if (l == s->object) geom_of(m, g, &sc->obj[sc->nobj++]);
  }
  /* Finger geoms by finger, then the rest of the hand (palm, mount). */
  for (int f = 0; f <= s->nfinger; f++) {
    sc->fbeg[f] = sc->nhand;
    for (int g = 0; g < ng; g++) {
      int l = lk_model_geom_link(m, g);
      if (l <= 0 || l >= nl || !s->hand_link[l]) continue;
      lk_geom_spec gs;
      lk_model_geom(m, g, &gs);
      if (gs.type == LK_GEOM_PLANE) continue;
      int fl = s->finger_of_link[l];
      if ((f < s->nfinger && fl == f) || (f == s->nfinger && fl < 0))
        geom_of(m, g, &sc->hand[sc->nhand++]);
    }
  }
  if (sc->nobj == 0) {
    lk_error_set(err, LK_INVALID_MODEL, "grasp screen: the object has no solid geoms");
    lk_grasp_screener_free(sc);
    return NULL;
  }
  size_t np = (size_t)sc->nhand * (size_t)sc->nobj;
  sc->mu = LK_NEW_ARRAY(double, np > 0 ? np : 1);
  sc->torsion = LK_NEW_ARRAY(double, np > 0 ? np : 1);
  sc->pair_ok = lk_calloc(np > 0 ? np : 1, 1);
  sc->moves = lk_calloc((size_t)(3 * MAX_FDOF) * (size_t)(sc->nhand > 0 ? sc->nhand : 1), 1);
  if (!sc->mu || !sc->torsion || !sc->pair_ok || !sc->moves) goto oom;
  lk_mix_rule mix = lk_model_options(m)->friction_mix;
  for (int h = 0; h < sc->nhand; h++)
    for (int b = 0; b < sc->nobj; b++) {
      size_t i = (size_t)h * sc->nobj + b;
      lk_material_spec ma, mb;
      lk_model_material(m, sc->hand[h].material, &ma);
      lk_model_material(m, sc->obj[b].material, &mb);
      sc->mu[i] = lk_mix_rule_apply(mix, ma.mu_static, mb.mu_static);
      /* A rolling contact's torsion capacity, as the simulator forms it
       * (lib/sim/geometry.c): mixed coefficient times the larger patch. */
      double patch = fmax(ma.patch_radius, mb.patch_radius);
      double mt = lk_mix_rule_apply(mix, ma.mu_torsional, mb.mu_torsional);
      double mr = lk_mix_rule_apply(mix, ma.mu_rolling, mb.mu_rolling);
      sc->torsion[i] = patch > 0 && (mt > 0 || mr > 0) ? mt * patch : 0;
      sc->pair_ok[i] = (unsigned char)lk_collide_filter(m, sc->hand[h].geom, sc->obj[b].geom);
    }
  for (int k = 0; k < s->nfdof; k++) {
    int link = -1;
    for (int l = 1; l < nl; l++)
      if (lk_model_joint_qadr(m, l) == s->fdof_qadr[k] && lk_model_joint_nq(m, l) == 1) link = l;
    lk_link_spec ls;
    lk_model_link(m, link, &ls);
    sc->dof_link[k] = link;
    sc->dof_prismatic[k] = s->fdof_prismatic[k];
    int up = s->fdof_sign[k] > 0;
    sc->dof_limit[k] = ls.joint.limited ? (up ? ls.joint.upper : ls.joint.lower)
                                        : (up ? INFINITY : -INFINITY);
    for (int h = 0; h < sc->nhand; h++)
      sc->moves[k * sc->nhand + h] = (unsigned char)is_below(m, sc->hand[h].link, link);
  }
  for (int j = 0; j < s->ncoupled; j++) {
    lk_link_spec ls;
    lk_model_link(m, s->cp_link[j], &ls);
    sc->cp_prismatic[j] = lk_model_joint_type(m, s->cp_link[j]) == LK_JOINT_PRISMATIC;
    int up = s->cp_sign[j] > 0;
    sc->cp_limit[j] = ls.joint.limited ? (up ? ls.joint.upper : ls.joint.lower)
                                       : (up ? INFINITY : -INFINITY);
    for (int h = 0; h < sc->nhand; h++)
      sc->moves[(MAX_FDOF + j) * sc->nhand + h] =
          (unsigned char)is_below(m, sc->hand[h].link, s->cp_link[j]);
  }
  for (int p = 0; p < s->nlp; p++) {
    sc->lp_prismatic[p] = lk_model_joint_type(m, s->lp_link[p]) == LK_JOINT_PRISMATIC;
    for (int h = 0; h < sc->nhand; h++)
      sc->moves[(2 * MAX_FDOF + p) * sc->nhand + h] =
          (unsigned char)is_below(m, sc->hand[h].link, s->lp_link[p]);
  }
  /* Out of reach: farther than the hand and the object together span. */
  sc->margin = 4 * (s->reach + s->object_radius) + 1.0;
  sc->contact_tolerance = lk_model_options(m)->contact_tolerance;
  return sc;
oom:
  lk_free(v0);
  lk_grasp_screener_free(sc);
  lk_error_set(err, LK_OUT_OF_MEMORY, "grasp screen: out of memory");
  return NULL;
}

static lk_transform world_pose(const lk_data *d, const sgeom *g) {
  return lk_tf_mul(lk_data_link_pose(d, g->link), &g->pose);
}

/* The largest depth of hand geom h against the object (-margin and beyond
 * when out of reach). */
static double pair_depth(const lk_grasp_screener *sc, const lk_data *d, int h) {
  double best = -INFINITY;
  lk_transform Xh = world_pose(d, &sc->hand[h]);
  for (int b = 0; b < sc->nobj; b++) {
    if (!sc->pair_ok[(size_t)h * sc->nobj + b]) continue;
    lk_transform Xb = world_pose(d, &sc->obj[b]);
    lk_manifold man;
    if (collide(&sc->obj[b], &Xb, &sc->hand[h], &Xh, sc->margin, &man) != LK_OK) continue;
    for (int i = 0; i < man.n; i++) best = fmax(best, man.pt[i].depth);
  }
  return best;
}

/* One finger being closed. */
typedef struct {
  const lk_grasp_screener *sc;
  lk_data *d;
  double *q;
  int f;
  int active[LK_GRASP_MAX_FINGER_DOFS], nactive; /* scene DoF indices */
  double base[LK_GRASP_MAX_FINGER_DOFS];         /* their q at s = 0 */
  /* follow[j]: coupled joint j's leader is active (1 + its active index). */
  int follow[MAX_FDOF];
  /* released[j]: coupled joint j (of another finger) touched first and
   * stays; its leader closes on alone (centre_coupled). */
  unsigned char released[MAX_FDOF];
  /* solo >= 0: the coupled joints in solo_set close on without their
   * leader, the finger DoF solo, which touched first and stays at
   * solo_base (centre_coupled): they move as it would, no active DoF. */
  int solo;
  double solo_base;
  unsigned char solo_set[MAX_FDOF];
  int evals, max_evals;
} closer;

/* The coupled joints that move with the active joints. */
static void set_followers(closer *c) {
  const lk_grasp_scene *s = c->sc->s;
  for (int j = 0; j < s->ncoupled; j++) {
    c->follow[j] = 0;
    for (int i = 0; i < c->nactive && !c->released[j]; i++)
      if (c->active[i] == s->cp_leader[j]) c->follow[j] = 1 + i;
  }
}

/* The finger DoFs and coupled joints that move, as bit sets. */
static void driving(const closer *c, unsigned long long *dofs, unsigned long long *cps) {
  *dofs = *cps = 0;
  for (int i = 0; i < c->nactive; i++) *dofs |= 1ull << c->active[i];
  for (int j = 0; j < c->sc->s->ncoupled; j++)
    if (c->follow[j] || (c->solo >= 0 && c->solo_set[j])) *cps |= 1ull << j;
}

static int moving(const closer *c, int h) {
  const lk_grasp_scene *s = c->sc->s;
  if (s->nlp > 0) { /* through a loop */
    unsigned long long dofs, cps;
    driving(c, &dofs, &cps);
    for (int p = 0; p < s->nlp; p++)
      if (((s->lp_dofs[p] & dofs) || (s->lp_cps[p] & cps)) &&
          c->sc->moves[(2 * MAX_FDOF + p) * c->sc->nhand + h])
        return 1;
  }
  for (int j = 0; c->solo >= 0 && j < c->sc->s->ncoupled; j++)
    if (c->solo_set[j] && c->sc->moves[(MAX_FDOF + j) * c->sc->nhand + h]) return 1;
  for (int i = 0; i < c->nactive; i++)
    if (c->sc->moves[c->active[i] * c->sc->nhand + h]) return 1;
  for (int j = 0; j < c->sc->s->ncoupled; j++)
    if (c->follow[j] && c->sc->moves[(MAX_FDOF + j) * c->sc->nhand + h]) return 1;
  return 0;
}

/* Coupled joint j at (or within rounding of) its limit. */
static int coupled_at_limit(const lk_grasp_screener *sc, const double *q, int j) {
  double u = sc->cp_limit[j], qj = q[sc->s->cp_qadr[j]], eps = 1e-12 * (1 + fabs(u));
  return sc->s->cp_sign[j] > 0 ? qj >= u - eps : qj <= u + eps;
}

/* DoF k's q moved by s in its closing direction from base, stopped at its
 * limit. */
static double dof_closed_by(const lk_grasp_screener *sc, int k, double base, double s) {
  return sc->s->fdof_sign[k] > 0 ? fmin(base + s, sc->dof_limit[k])
                                 : fmax(base - s, sc->dof_limit[k]);
}

/* DoF k at (or beyond) the limit it closes towards. */
static int dof_at_limit(const lk_grasp_screener *sc, int k, double q) {
  return sc->s->fdof_sign[k] > 0 ? q >= sc->dof_limit[k] : q <= sc->dof_limit[k];
}

/* The active joints at s (clamped at their limits), the kinematics, and
 * the largest depth of the finger's moving geoms; *link the geom's link. */
static lk_status eval_at(closer *c, double s, double *depth, int *link) {
  const lk_grasp_screener *sc = c->sc;
  for (int i = 0; i < c->nactive; i++) {
    int k = c->active[i];
    c->q[sc->s->fdof_qadr[k]] = dof_closed_by(sc, k, c->base[i], s);
  }
  const lk_grasp_scene *sn = sc->s;
  for (int j = 0; c->solo >= 0 && j < sn->ncoupled; j++)
    if (c->solo_set[j]) {
      double ql = c->solo_base + sn->fdof_sign[c->solo] * s;
      double qj = sn->cp_ratio[j] * ql + sn->cp_offset[j];
      c->q[sn->cp_qadr[j]] = sn->cp_sign[j] > 0 ? fmin(qj, sc->cp_limit[j]) : fmax(qj, sc->cp_limit[j]);
    }
  for (int j = 0; j < sn->ncoupled; j++)
    if (c->follow[j]) {
      double qj = sn->cp_ratio[j] * c->q[sn->fdof_qadr[sn->cp_leader[j]]] + sn->cp_offset[j];
      c->q[sn->cp_qadr[j]] = sn->cp_sign[j] > 0 ? fmin(qj, sc->cp_limit[j]) : fmax(qj, sc->cp_limit[j]);
    }
  lk_status st = lk_grasp_scene_close_loops(sn, c->d, LOOP_TOL);
  if (st) return st;
  c->evals++;
  *depth = -INFINITY;
  *link = -1;
  /* Every finger's geoms: a coupled joint moves another finger's. */
  for (int h = sc->fbeg[0]; h < sc->fbeg[sn->nfinger]; h++) {
    if (!moving(c, h)) continue;
    double dh = pair_depth(sc, c->d, h);
    if (dh > *depth) {
      *depth = dh;
      *link = sc->hand[h].link;
    }
  }
  return LK_OK;
}

/* How far from joint link's origin the geoms of moves row k reach. */
static double arm(const closer *c, int k, int link) {
  const lk_grasp_screener *sc = c->sc;
  lk_vec3 o = lk_data_link_pose(c->d, link)->p;
  double r = 0;
  for (int h = sc->fbeg[0]; h < sc->fbeg[sc->s->nfinger]; h++) {
    if (!sc->moves[k * sc->nhand + h]) continue;
    lk_transform X = world_pose(c->d, &sc->hand[h]);
    lk_vec3 lo, hi;
    if (lk_grasp_shape_aabb(sc->hand[h].type, sc->hand[h].size, sc->hand[h].mesh, &X, &lo, &hi) !=
        LK_OK)
      continue;
    lk_vec3 mid = lk_v3_scale(lk_v3_add(lo, hi), 0.5);
    r = fmax(r, lk_v3_norm(lk_v3_sub(mid, o)) + 0.5 * lk_v3_norm(lk_v3_sub(hi, lo)));
  }
  return r;
}

/* A bound on how fast the geoms moved through loops travel per unit of s
 * (the passive joints' rates here, times 1.5: the rates change along the
 * path), when `speed`; *rate_max (may be NULL) the largest passive joint
 * rate. */
static double loop_speed(const closer *c, double *rate_max, int speed) {
  const lk_grasp_screener *sc = c->sc;
  const lk_grasp_scene *s = sc->s;
  if (rate_max) *rate_max = 0;
  if (s->nlp == 0) return 0;
  double dof_rate[MAX_FDOF] = {0}, cp_rate[MAX_FDOF] = {0}, rate[MAX_FDOF];
  for (int i = 0; i < c->nactive; i++) dof_rate[c->active[i]] = s->fdof_sign[c->active[i]];
  for (int j = 0; j < s->ncoupled; j++) {
    if (c->follow[j])
      cp_rate[j] = s->cp_ratio[j] * s->fdof_sign[c->active[c->follow[j] - 1]];
    else if (c->solo >= 0 && c->solo_set[j])
      cp_rate[j] = s->cp_ratio[j] * s->fdof_sign[c->solo];
  }
  lk_grasp_scene_loop_rates(s, c->d, dof_rate, cp_rate, rate);
  double v = 0;
  for (int p = 0; p < s->nlp; p++) {
    if (rate[p] == 0) continue;
    if (rate_max) *rate_max = fmax(*rate_max, fabs(rate[p]));
    if (speed)
      v += 1.5 * fabs(rate[p]) * (sc->lp_prismatic[p] ? 1 : arm(c, 2 * MAX_FDOF + p, s->lp_link[p]));
  }
  return v;
}

/* The fastest any moving geom's point travels per unit of s. */
static double speed_bound(const closer *c) {
  const lk_grasp_screener *sc = c->sc;
  double v = 0;
  for (int j = 0; c->solo >= 0 && j < sc->s->ncoupled; j++)
    if (c->solo_set[j])
      v += fabs(sc->s->cp_ratio[j]) *
           (sc->cp_prismatic[j] ? 1 : arm(c, MAX_FDOF + j, sc->s->cp_link[j]));
  for (int j = 0; j < sc->s->ncoupled; j++) /* q_j moves ratio per unit of s */
    if (c->follow[j])
      v += fabs(sc->s->cp_ratio[j]) *
           (sc->cp_prismatic[j] ? 1 : arm(c, MAX_FDOF + j, sc->s->cp_link[j]));
  for (int i = 0; i < c->nactive; i++) {
    int k = c->active[i];
    if (sc->dof_prismatic[k]) {
      v += 1;
      continue;
    }
    lk_vec3 o = lk_data_link_pose(c->d, sc->dof_link[k])->p;
    double r = 0;
    for (int h = sc->fbeg[c->f]; h < sc->fbeg[c->f + 1]; h++) {
      if (!sc->moves[k * sc->nhand + h]) continue;
      lk_transform X = world_pose(c->d, &sc->hand[h]);
      lk_vec3 lo, hi;
      if (lk_grasp_shape_aabb(sc->hand[h].type, sc->hand[h].size, sc->hand[h].mesh, &X, &lo,
                              &hi) != LK_OK)
        continue;
      lk_vec3 mid = lk_v3_scale(lk_v3_add(lo, hi), 0.5);
      r = fmax(r, lk_v3_norm(lk_v3_sub(mid, o)) + 0.5 * lk_v3_norm(lk_v3_sub(hi, lo)));
    }
    v += r;
  }
  return v + loop_speed(c, NULL, 1);
}

/* Close the active joints from s = 0 until a moving geom touches (returns
 * 1, *touch its link, q left there), every active joint is at its limit
 * (0), or the evaluations run out (0, q at the last separated s). *gap:
 * the final separation. */
static lk_status advance(closer *c, int *touched, int *touch, double *gap) {
  const lk_grasp_screener *sc = c->sc;
  double tol = sc->o.tolerance;
  double s_lim = INFINITY; /* where the first active joint reaches its limit */
  for (int i = 0; i < c->nactive; i++) {
    int k = c->active[i];
    s_lim = fmin(s_lim, sc->s->fdof_sign[k] * (sc->dof_limit[k] - c->base[i]));
  }
  for (int j = 0; c->solo >= 0 && j < sc->s->ncoupled; j++)
    if (c->solo_set[j])
      s_lim = fmin(s_lim, sc->s->fdof_sign[c->solo] *
                              ((sc->cp_limit[j] - sc->s->cp_offset[j]) / sc->s->cp_ratio[j] -
                               c->solo_base));
  for (int j = 0; j < sc->s->ncoupled; j++) /* where a coupled joint reaches its limit */
    if (c->follow[j]) {
      int i = c->follow[j] - 1;
      s_lim = fmin(s_lim, sc->s->fdof_sign[c->active[i]] *
                              ((sc->cp_limit[j] - sc->s->cp_offset[j]) / sc->s->cp_ratio[j] -
                               c->base[i]));
    }
  *touched = 0;
  *touch = -1;
  double s = 0, g, sp = NAN, gp = NAN;
  int link;
  lk_status st = eval_at(c, s, &g, &link);
  if (st) return st;
  while (c->evals < c->max_evals) {
    *gap = -g;
    if (g >= -tol) {
      *touched = 1;
      *touch = link;
      return LK_OK;
    }
    if (s >= s_lim) return LK_OK; /* a joint reached its limit: the caller
                                     drops it and closes on */
    double v = speed_bound(c);
    double ds = v > 0 ? -g / v : INFINITY;
    double sn = s + ds;
    /* A secant step when the separation has been shrinking. */
    if (isfinite(gp) && g > gp) {
      double sec = s - g * (s - sp) / (g - gp);
      if (sec > sn) sn = sec;
    }
    if (sc->s->nlp > 0) { /* a loop's passive joints turn at most 0.1 a step */
      double rmax;
      loop_speed(c, &rmax, 0); /* the rates alone: no geom bounds */
      if (rmax > 0 && sn > s + 0.1 / rmax) sn = s + 0.1 / rmax;
    }
    if (sn > s_lim) sn = s_lim;
    if (!(sn > s)) return LK_OK; /* no progress possible in doubles */
    double gn;
    int ln;
    if ((st = eval_at(c, sn, &gn, &ln))) return st;
    if (gn <= tol) { /* not through the surface: move on */
      sp = s;
      gp = g;
      s = sn;
      g = gn;
      link = ln;
      continue;
    }
    /* Overshot (only a secant step can): the contact lies in (s, sn). */
    double a = s, ga = g, b = sn, gb = gn;
    int side = 0;
    while (c->evals < c->max_evals) {
      double x = b - gb * (b - a) / (gb - ga);
      if (!(x > a && x < b)) x = 0.5 * (a + b);
      double gx;
      int lx;
      if ((st = eval_at(c, x, &gx, &lx))) return st;
      if (fabs(gx) <= tol) {
        *gap = -gx;
        *touched = 1;
        *touch = lx;
        return LK_OK;
      }
      if (gx < 0) {
        a = x;
        ga = gx;
        if (side == -1) gb *= 0.5; /* Illinois: the stale end's weight halved */
        side = -1;
      } else {
        b = x;
        gb = gx;
        if (side == 1) ga *= 0.5;
        side = 1;
      }
    }
    /* Out of evaluations inside the bracket: stay on the separated side. */
    if ((st = eval_at(c, a, &g, &link))) return st;
    *gap = -g;
    return LK_OK;
  }
  return LK_OK;
}

/* link moves through a loop driven by finger DoF k (dof 1) or coupled
 * joint k (dof 0). */
static int via_loop(const lk_grasp_scene *s, int link, int dof, int k) {
  for (int p = 0; p < s->nlp; p++)
    if (((dof ? s->lp_dofs[p] : s->lp_cps[p]) >> k & 1) && is_below(s->m, link, s->lp_link[p]))
      return 1;
  return 0;
}

/* Close finger f (its joints start at their preshape in q), with the
 * joints coupled to them (which may be another finger's). With
 * centre_coupled, a joint coupled to another finger (a mimic or equality
 * jaw) and its leader stop apart: the one whose finger touched stays, the
 * other closes on alone, as the coupled jaws centre the object between
 * them (they push it, or the arm gives way, until both touch). */
static lk_status close_finger(const lk_grasp_screener *sc, lk_data *d, int f, int *evals) {
  const lk_grasp_scene *s = sc->s;
  closer c = {.sc = sc, .d = d, .q = lk_data_q(d), .f = f, .max_evals = sc->o.max_evaluations,
              .solo = -1};
  int centre = sc->o.centre_coupled;
  /* other[j]: coupled joint j is on another finger than f; member[j]: on
   * f but not below its leader (a linkage member joined to the finger: the
   * 2F-85's inner knuckle, whose touch stops it and not the fingertip, as
   * the real gripper's passive joint lets the tip close on) */
  unsigned char other[MAX_FDOF], member[MAX_FDOF], pending[MAX_FDOF];
  for (int j = 0; j < s->ncoupled; j++) {
    other[j] = (unsigned char)(s->finger_of_link[s->cp_link[j]] != f);
    member[j] = (unsigned char)(!other[j] &&
                                !is_below(s->m, s->cp_link[j], sc->dof_link[s->cp_leader[j]]));
    pending[j] = 0;
  }
  /* The finger's DoFs, in the scene's order. */
  int first = 0;
  for (int g = 0; g < f; g++) first += s->finger[g].ndof;
  for (int i = 0; i < s->finger[f].ndof; i++) {
    int k = first + i;
    if (!dof_at_limit(sc, k, c.q[s->fdof_qadr[k]])) c.active[c.nactive++] = k;
  }
  while (c.nactive > 0 && c.evals < c.max_evals) {
    for (int i = 0; i < c.nactive; i++) c.base[i] = c.q[s->fdof_qadr[c.active[i]]];
    set_followers(&c);
    int touched, touch;
    double gap;
    lk_status st = advance(&c, &touched, &touch, &gap);
    if (st) return st;
    /* Drop the joints at their limits, and on a touch the joints at and
     * above the touching link; the ones below close on. */
    int n = 0, released = 0;
    for (int i = 0; i < c.nactive; i++) {
      int k = c.active[i];
      double qk = c.q[s->fdof_qadr[k]];
      int mine = touched && (is_below(s->m, touch, sc->dof_link[k]) || via_loop(s, touch, 1, k));
      int stop = dof_at_limit(sc, k, qk) || mine;
      /* A joint stops with the joints that follow it; with centre_coupled
       * a follower on another finger that touched is let go of instead,
       * and one that did not closes on alone once its leader stops. */
      for (int j = 0; j < s->ncoupled; j++) {
        if (c.follow[j] != 1 + i) continue;
        int hit = touched && (is_below(s->m, touch, s->cp_link[j]) || via_loop(s, touch, 0, j));
        if (centre && !mine && hit && (other[j] || member[j])) {
          c.released[j] = 1;
          released = 1;
          continue;
        }
        stop |= coupled_at_limit(sc, c.q, j) || hit;
      }
      if (!stop) {
        c.active[n++] = k;
      } else if (centre && touched) {
        for (int j = 0; j < s->ncoupled; j++)
          if (c.follow[j] == 1 + i && other[j] && !coupled_at_limit(sc, c.q, j) &&
              !is_below(s->m, touch, s->cp_link[j]) && !via_loop(s, touch, 0, j))
            pending[j] = 1;
      }
    }
    if (n == c.nactive && !released) break; /* no joint stopped: out of
                                               evaluations or stuck in doubles */
    c.nactive = n;
  }
  /* The coupled joints whose leader touched first close on without it,
   * those of one finger and one leader together (a four-bar finger's). */
  for (int j = 0; j < s->ncoupled && c.evals < c.max_evals; j++) {
    if (!pending[j]) continue;
    c.nactive = 0;
    memset(c.follow, 0, sizeof c.follow);
    memset(c.solo_set, 0, sizeof c.solo_set);
    int g = s->finger_of_link[s->cp_link[j]], k = s->cp_leader[j];
    for (int i = j; i < s->ncoupled; i++)
      if (pending[i] && s->cp_leader[i] == k && s->finger_of_link[s->cp_link[i]] == g) {
        c.solo_set[i] = 1;
        pending[i] = 0;
      }
    c.solo = k;
    /* the leader's q as its followers stand (its own stays put) */
    c.solo_base = (c.q[s->cp_qadr[j]] - s->cp_offset[j]) / s->cp_ratio[j];
    int touched, touch;
    double gap;
    lk_status st = advance(&c, &touched, &touch, &gap);
    if (st) return st;
    c.solo = -1;
  }
  *evals += c.evals;
  return LK_OK;
}

lk_status lk_grasp_screen(const lk_grasp_screener *sc, lk_data *d, const lk_transform *hand_pose,
                          const double *preshape, lk_grasp_screen_report *r,
                          lk_grasp_contact *contacts, int cap, lk_error *err) {
  lk_error local;
  if (!err) err = &local;
  if (!sc || !d || !hand_pose || !r || lk_data_model(d) != sc->s->m || cap < 0 ||
      (cap > 0 && !contacts))
    return lk_error_set(err, LK_INVALID_ARGUMENT, "grasp screen: bad arguments");
  const lk_grasp_scene *s = sc->s;
  const lk_model *m = s->m;
  memset(r, 0, sizeof *r);
  r->load_worst = -1;
  double *q = lk_data_q(d);
  memcpy(q, sc->q0, (size_t)sc->nq * sizeof *q);
  lk_status st = lk_grasp_scene_pose_q(s, q, hand_pose, preshape, err);
  if (st) return st;
  if ((st = lk_grasp_scene_close_loops(s, d, LOOP_TOL)))
    return lk_error_set(err, st, "grasp screen: %s",
                        st == LK_NOT_CONVERGED ? "the hand's loops do not close at the pre-shape"
                                               : "forward kinematics failed");
  /* The hand where it is placed must not overlap the object. */
  for (int h = 0; h < sc->nhand; h++)
    if (pair_depth(sc, d, h) > sc->contact_tolerance) {
      r->outcome = LK_SCREEN_COLLISION;
      for (int k = 0; k < s->nfdof; k++) r->q[k] = q[s->fdof_qadr[k]];
      return LK_OK;
    }
  for (int f = 0; f < s->nfinger; f++) {
    if ((st = close_finger(sc, d, f, &r->evaluations)))
      return lk_error_set(err, st, "grasp screen: %s while closing",
                          st == LK_NOT_CONVERGED ? "the hand's loops do not close"
                                                 : "forward kinematics failed");
  }
  for (int k = 0; k < s->nfdof; k++) r->q[k] = q[s->fdof_qadr[k]];
  if ((st = lk_forward_kinematics(m, d)))
    return lk_error_set(err, st, "grasp screen: forward kinematics failed");
  /* Each finger's final separation over all its geoms (after all closed:
   * a coupled finger moves while another closes). */
  for (int f = 0; f < s->nfinger; f++) {
    double best = -INFINITY;
    for (int h = sc->fbeg[f]; h < sc->fbeg[f + 1]; h++) best = fmax(best, pair_depth(sc, d, h));
    r->gap[f] = best > -sc->margin ? -best : INFINITY;
  }

  /* The contacts the closed fingers make. */
  double cd = sc->o.contact_distance;
  int n = 0;
  unsigned touching = 0;
  for (int f = 0; f < s->nfinger; f++)
    for (int h = sc->fbeg[f]; h < sc->fbeg[f + 1]; h++) {
      lk_transform Xh = world_pose(d, &sc->hand[h]);
      for (int b = 0; b < sc->nobj; b++) {
        size_t pi = (size_t)h * sc->nobj + b;
        if (!sc->pair_ok[pi]) continue;
        lk_transform Xb = world_pose(d, &sc->obj[b]);
        lk_manifold man;
        if (collide(&sc->obj[b], &Xb, &sc->hand[h], &Xh, cd, &man) != LK_OK) continue;
        for (int i = 0; i < man.n; i++) {
          if (man.pt[i].depth < -cd) continue;
          touching |= 1u << f;
          if (n < cap) {
            lk_grasp_contact *c = &contacts[n];
            lk_grasp_contact_default(c);
            c->position = man.pt[i].pos;
            c->normal = man.pt[i].normal; /* from b (the finger) to a: into the object */
            c->mu = sc->mu[pi];
            c->torsion = sc->torsion[pi];
            c->finger = f;
          }
          n++;
        }
      }
    }
  r->ncontacts = n;
  for (int f = 0; f < s->nfinger; f++) r->fingers_in_contact += (touching >> f) & 1u;
  if (n == 0) {
    r->outcome = LK_SCREEN_NO_CONTACT;
    r->reason = LK_GRASP_NO_CONTACTS;
    return LK_OK;
  }
  if (n > cap)
    return lk_error_set(err, LK_CAPACITY_EXCEEDED,
                        "grasp screen: %d contacts, room for %d (report.ncontacts says how many)",
                        n, cap);
  lk_grasp_options ao = sc->o.analysis;
  ao.center = lk_tf_point(lk_data_link_pose(d, s->object), s->object_com);
  ao.torque_scale = s->object_radius;
  lk_grasp_closure_report cr;
  st = lk_grasp_force_closure(contacts, n, &ao, &cr, err);
  if (st == LK_NOT_CONVERGED) {
    /* The LP's basis was too nearly dependent to trust: decide by the
     * hull instead (closed iff the origin is strictly inside it). */
    double eps;
    if ((st = lk_grasp_epsilon(contacts, n, &ao, &eps, &r->epsilon_qhull, err))) return st;
    r->closure_by_hull = 1;
    r->force_closure = eps > 0;
    r->reason = eps > 0 ? LK_GRASP_CLOSED : LK_GRASP_ONE_SIDED;
    r->outcome = eps > 0 ? LK_SCREEN_CLOSED : LK_SCREEN_NOT_CLOSED;
    if (sc->o.quality) r->epsilon = eps;
  } else {
    if (st) return st;
    r->force_closure = cr.closed;
    r->reason = cr.reason;
    r->outcome = cr.closed ? LK_SCREEN_CLOSED : LK_SCREEN_NOT_CLOSED;
    if (cr.closed && sc->o.quality) {
      if ((st = lk_grasp_epsilon(contacts, n, &ao, &r->epsilon, &r->epsilon_qhull, err)))
        return st;
    }
  }
  if (r->force_closure && sc->o.nloads > 0)
    return lk_grasp_load_force(contacts, n, &ao, sc->o.loads, sc->o.nloads, &r->load_force,
                               &r->load_worst, err);
  return LK_OK;
}
