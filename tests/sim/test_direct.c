/* The sparse direct sticking trial (issue 20; lib/sim/direct.c): an island
 * beyond the dense size whose contacts are all static is answered by one
 * sparse L D L^T solve of its sticking trial (CHOLMOD), then by refinement
 * against the kept factor, when that answer stands; else Newton (NSGS where
 * it stalls) where something slides, NSGS where A is too large to factor.
 *
 * At rest: piles answered by the trial every step, no creep (top drift
 * < 1e-9 m over 1 s), the floor's impulses equal to the weight times h,
 * one symbolic analysis for the whole rest, no allocation in the step. A
 * tower small enough for the dense path too (max_island_rows raised) gets
 * the dense trial's answer. A pile on a slope beyond atan(mu) falls back
 * to the iterative solvers and slides at g (sin a - mu cos a); inside the
 * cone it sticks. Variants: 1 kg with mu 0.5, 0.5 kg with mu 0.8. */
#include <SuiteSparse_config.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"
#include "data/data_impl.h"
#include "sim/sim_data.h"
#include "islands.h"

#define EDGE 0.1     /* cube edge, m */
#define DEPTH0 5e-5  /* each cube starts this far into what it rests on */
#define PITCH 0.115  /* centre to centre in a layer: 15 mm gaps */
#define H 1e-3       /* time step, s */
#define G 9.81

/* A scene of cubes: layers of side x side, side - 1 x side - 1, ... cubes,
 * each layer shifted by half a pitch so that an upper cube rests on four
 * (a stepped pyramid); n cubes in all (the top layer holds what is left).
 * Mass given; mu between cubes, mu_floor between a cube and the floor
 * (friction_mix min); gravity tilted by `tilt` rad about y (a slope along
 * +x); max_island_rows as given (0: default). */
static lk_model *cubes(int n, int side, double mass, double mu, double mu_floor, double tilt,
                       int max_rows) {
  lk_model *m = lk_model_new();
  if (!m) return NULL;
  lk_options o;
  lk_options_default(&o);
  o.timestep = H;
  o.max_island_rows = max_rows;
  o.gravity = lk_v3(G * sin(tilt), 0, -G * cos(tilt));
  o.friction_mix = LK_MIX_MIN;
  lk_material_spec s, sf;
  lk_material_spec_default(&s);
  s.name = "mat";
  s.mu_static = s.mu_dynamic = mu;
  lk_material_spec_default(&sf);
  sf.name = "ground";
  sf.mu_static = sf.mu_dynamic = mu_floor;
  lk_geom_spec floor;
  lk_geom_spec_default(&floor);
  floor.name = "floor";
  floor.type = LK_GEOM_PLANE;
  floor.material = "ground";
  int bad = lk_model_set_options(m, &o, NULL) || lk_model_add_material(m, &s, NULL) ||
            lk_model_add_material(m, &sf, NULL) || lk_model_add_geom(m, &floor, NULL);
  int k = 0;
  for (int layer = 0; side - layer > 0 && k < n && !bad; layer++) {
    int w = side - layer;
    double off = 0.5 * PITCH * layer, z = 0.5 * EDGE - DEPTH0 + layer * (EDGE - DEPTH0);
    for (int i = 0; i < w && k < n && !bad; i++)
      for (int j = 0; j < w && k < n && !bad; j++) {
        char name[16];
        snprintf(name, sizeof name, "c%d", ++k);
        lk_link_spec l;
        lk_link_spec_default(&l);
        l.name = name;
        l.joint.type = LK_JOINT_FREE;
        l.mass = mass;
        l.inertia = lk_inertia_solid_box(mass, lk_v3(0.5 * EDGE, 0.5 * EDGE, 0.5 * EDGE));
        lk_geom_spec g;
        lk_geom_spec_default(&g);
        g.link = name;
        g.type = LK_GEOM_BOX;
        g.size[0] = g.size[1] = g.size[2] = 0.5 * EDGE;
        g.material = "mat";
        double q[7] = {off + i * PITCH, off + j * PITCH, z, 1, 0, 0, 0};
        bad = lk_model_add_link(m, &l, NULL) || lk_model_add_geom(m, &g, NULL) ||
              lk_model_set_initial(m, name, q, 7, NULL, 0, NULL);
      }
  }
  lk_error e;
  if (bad || k != n || lk_model_finalize(m, &e) != LK_OK) {
    lk_model_free(m);
    return NULL;
  }
  return m;
}

/* A tower of n cubes, one on the other. */
static lk_model *tower(int n, double mass, double mu, int max_rows) {
  lk_model *m = lk_model_new();
  if (!m) return NULL;
  lk_options o;
  lk_options_default(&o);
  o.timestep = H;
  o.max_island_rows = max_rows;
  lk_material_spec s;
  lk_material_spec_default(&s);
  s.name = "mat";
  s.mu_static = s.mu_dynamic = mu;
  lk_geom_spec floor;
  lk_geom_spec_default(&floor);
  floor.name = "floor";
  floor.type = LK_GEOM_PLANE;
  floor.material = "mat";
  int bad = lk_model_set_options(m, &o, NULL) || lk_model_add_material(m, &s, NULL) ||
            lk_model_add_geom(m, &floor, NULL);
  for (int k = 0; k < n && !bad; k++) {
    char name[16];
    snprintf(name, sizeof name, "c%d", k + 1);
    lk_link_spec l;
    lk_link_spec_default(&l);
    l.name = name;
    l.joint.type = LK_JOINT_FREE;
    l.mass = mass;
    l.inertia = lk_inertia_solid_box(mass, lk_v3(0.5 * EDGE, 0.5 * EDGE, 0.5 * EDGE));
    lk_geom_spec g;
    lk_geom_spec_default(&g);
    g.link = name;
    g.type = LK_GEOM_BOX;
    g.size[0] = g.size[1] = g.size[2] = 0.5 * EDGE;
    g.material = "mat";
    double q[7] = {0, 0, 0.5 * EDGE - DEPTH0 + k * (EDGE - DEPTH0), 1, 0, 0, 0};
    bad = lk_model_add_link(m, &l, NULL) || lk_model_add_geom(m, &g, NULL) ||
          lk_model_set_initial(m, name, q, 7, NULL, 0, NULL);
  }
  lk_error e;
  if (bad || lk_model_finalize(m, &e) != LK_OK) {
    lk_model_free(m);
    return NULL;
  }
  return m;
}

/* Coordinate c (0 x, 2 z) of free body k (1-based). */
static double body_q(lk_data *d, int k, int c) { return lk_data_q(d)[7 * (k - 1) + c]; }

/* The impulse the floor gave over the last step: sum of f_n h over the
 * contacts with the world. */
static double floor_impulse(const lk_data *d) {
  double s = 0;
  for (int i = 0; i < lk_data_ncontacts(d); i++) {
    const lk_contact_report *c = lk_data_contact_report(d, i);
    if (c->other == 0) s += c->fn * H;
  }
  return s;
}

/* CHOLMOD's allocations (its own allocator, SuiteSparse_config) and the
 * library's (lk_set_allocator), counted. */
static long g_ss_allocs, g_lk_allocs;
static void *(*ss_malloc)(size_t), *(*ss_calloc)(size_t, size_t), *(*ss_realloc)(void *, size_t);
static void *count_ss_malloc(size_t n) {
  g_ss_allocs++;
  return ss_malloc(n);
}
static void *count_ss_calloc(size_t n, size_t s) {
  g_ss_allocs++;
  return ss_calloc(n, s);
}
static void *count_ss_realloc(void *p, size_t n) {
  g_ss_allocs++;
  return ss_realloc(p, n);
}
static void *count_alloc(size_t n, void *u) {
  (void)u;
  g_lk_allocs++;
  return malloc(n);
}
static void *count_realloc(void *p, size_t n, void *u) {
  (void)u;
  g_lk_allocs++;
  return realloc(p, n);
}
static void count_free(void *p, void *u) {
  (void)u;
  free(p);
}
static void count_begin(void) {
  ss_malloc = SuiteSparse_config.malloc_func;
  ss_calloc = SuiteSparse_config.calloc_func;
  ss_realloc = SuiteSparse_config.realloc_func;
  SuiteSparse_config.malloc_func = count_ss_malloc;
  SuiteSparse_config.calloc_func = count_ss_calloc;
  SuiteSparse_config.realloc_func = count_ss_realloc;
  static lk_allocator al = {count_alloc, count_realloc, count_free, NULL};
  lk_set_allocator(&al);
  g_ss_allocs = g_lk_allocs = 0;
}
static void count_end(void) {
  lk_set_allocator(NULL);
  SuiteSparse_config.malloc_func = ss_malloc;
  SuiteSparse_config.calloc_func = ss_calloc;
  SuiteSparse_config.realloc_func = ss_realloc;
}

/* A pile at rest: settle steps, then 1 s. Over the second: every step
 * answered by the direct trial (no NSGS island), no symbolic analysis and
 * no allocation (the library's or CHOLMOD's), every contact static; over
 * the settling: one analysis in all, from the second step on answered by
 * the trial (asserted here). What the tests assert, over the second: */
typedef struct {
  double creep;       /* how far the top cube moved, m */
  double weight;      /* |floor impulse - n m g h| / (n m g h), worst step */
  double utilization; /* the highest contact utilization */
} rest_run;

static rest_run check_rest(lk_model *m, int n, double mass, int settle) {
  rest_run out = {INFINITY, INFINITY, INFINITY};
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  lk_data *d = lk_data_new(m);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  long analyses = 0, solves = 0, nsgs = 0, bad = 0;
  for (int s = 0; s < settle; s++) {
    bad += lk_step(m, d) != LK_OK;
    const lk_step_report *r = lk_data_step_report(d);
    analyses += r->direct_analyses;
    solves += islands_answered(d, LK_ISLAND_SPARSE_TRIAL);
    nsgs += islands_iterative(d);
  }
  LK_ASSERT_INT_EQ(bad, 0);
  LK_ASSERT_INT_EQ(analyses, 1);
  LK_ASSERT_INT_EQ(nsgs, 1); /* the first step: no contact has a state yet */
  LK_ASSERT_INT_EQ(solves, settle - 1);
  double z0 = body_q(d, n, 2), x0 = body_q(d, n, 0), worst_w = 0, worst_u = 0;
  long refined = 0;
  solves = nsgs = analyses = 0;
  count_begin();
  for (int s = 0; s < 1000; s++) {
    bad += lk_step(m, d) != LK_OK;
    const lk_step_report *r = lk_data_step_report(d);
    analyses += r->direct_analyses;
    solves += islands_answered(d, LK_ISLAND_SPARSE_TRIAL);
    refined += r->direct_refined;
    nsgs += islands_iterative(d);
    double wh = n * mass * G * H;
    worst_w = fmax(worst_w, fabs(floor_impulse(d) - wh) / wh);
    for (int i = 0; i < lk_data_ncontacts(d); i++) {
      const lk_contact_report *c = lk_data_contact_report(d, i);
      if (c->state != LK_FRICTION_STATIC) bad++;
      worst_u = fmax(worst_u, c->utilization);
    }
  }
  count_end();
  LK_ASSERT_INT_EQ(bad, 0);
  LK_ASSERT_INT_EQ(solves, 1000);
  LK_ASSERT_INT_EQ(nsgs, 0);
  LK_ASSERT_INT_EQ(analyses, 0);
  LK_ASSERT_MSG(refined >= 990, "%ld of 1000 steps refined", refined);
  LK_ASSERT_INT_EQ(g_lk_allocs, 0);
  LK_ASSERT_INT_EQ(g_ss_allocs, 0);
  out.weight = worst_w;
  out.utilization = worst_u;
  out.creep = fmax(fabs(body_q(d, n, 2) - z0), fabs(body_q(d, n, 0) - x0));
  lk_data_free(d);
  lk_model_free(m);
  return out;
}

/* The pyramid of 30 cubes (5 x 5, 2 x 2, one on top: 100 floor contacts,
 * 16 under each upper cube, 864 rows), 1 kg, mu 0.5. */
static void test_pyramid30_rest(void) {
  rest_run r = check_rest(cubes(30, 5, 1.0, 0.5, 0.5, 0, 0), 30, 1.0, 200);
  LK_ASSERT_MSG(r.creep < 1e-9, "the top cube moved %.3g m", r.creep);
  LK_ASSERT_MSG(r.weight <= 1e-9, "the floor carries n m g to %.3g", r.weight);
  LK_ASSERT_MSG(r.utilization <= 1 + 1e-9, "utilization %.17g", r.utilization);
}

/* 14 cubes (3 x 3, 2 x 2, one: 100 contacts, 300 rows), 0.5 kg, mu 0.8. */
static void test_pyramid14_rest_light(void) {
  rest_run r = check_rest(cubes(14, 3, 0.5, 0.8, 0.8, 0, 0), 14, 0.5, 200);
  LK_ASSERT_MSG(r.creep < 1e-9, "the top cube moved %.3g m", r.creep);
  LK_ASSERT_MSG(r.weight <= 1e-9, "the floor carries n m g to %.3g", r.weight);
  LK_ASSERT_MSG(r.utilization <= 1 + 1e-9, "utilization %.17g", r.utilization);
}

/* The same island by both paths: a tower of n cubes (4 n contacts, 12 n
 * rows: beyond the dense size from 17) stepped with default options (the
 * direct trial) and with max_island_rows = 12 n (the dense path's sticking
 * trial). After `steps` steps at rest, the dense data is given the direct
 * one's state -- q, v and the contacts' memory (impulses, friction states,
 * tangent bases) -- and both make the next step from it: every contact's
 * force agrees to 1e-9 of the largest (the two paths pose the same
 * ridge-regularized trial and answer it to their rounding), and the
 * floor carries n m g. */
static double check_dense_parity(int n, double mass, double mu, int steps) {
  lk_model *ms = tower(n, mass, mu, 0), *md = tower(n, mass, mu, 12 * n);
  CU_ASSERT_PTR_NOT_NULL_FATAL(ms);
  CU_ASSERT_PTR_NOT_NULL_FATAL(md);
  lk_data *ds = lk_data_new(ms), *dd = lk_data_new(md);
  CU_ASSERT_PTR_NOT_NULL_FATAL(ds);
  CU_ASSERT_PTR_NOT_NULL_FATAL(dd);
  long direct = 0, dense_direct = 0, dense_nsgs = 0, bad = 0;
  for (int s = 0; s <= steps; s++) {
    if (s == steps) { /* the direct data's state into the dense one */
      memcpy(lk_data_q(dd), lk_data_q(ds), sizeof(double) * (size_t)lk_model_nq(ms));
      memcpy(lk_data_v(dd), lk_data_v(ds), sizeof(double) * (size_t)lk_model_nv(ms));
      lk_sim_data *a = &ds->sim, *b = &dd->sim;
      LK_ASSERT_INT_EQ(b->st->ngprev, a->st->ngprev);
      CU_ASSERT_EQUAL_FATAL(b->st->ngprev, a->st->ngprev);
      for (int k = 0; k < a->st->ngprev; k++) {
        CU_ASSERT_EQUAL(b->gid_prev[k], a->gid_prev[k]);
        lk_contact_mem keep = b->gmem_prev[k];
        b->gmem_prev[k] = a->gmem_prev[k];
        /* the path's own bookkeeping stays the dense one's */
        b->gmem_prev[k].guess_wait = keep.guess_wait;
        b->gmem_prev[k].guess_backoff = keep.guess_backoff;
      }
    }
    bad += lk_step(ms, ds) != LK_OK;
    bad += lk_step(md, dd) != LK_OK;
    direct += islands_answered(ds, LK_ISLAND_SPARSE_TRIAL);
    dense_direct += islands_planned(dd, LK_ISLAND_SPARSE);
    dense_nsgs += islands_iterative(dd);
  }
  LK_ASSERT_INT_EQ(bad, 0);
  LK_ASSERT_INT_EQ(direct, steps);
  LK_ASSERT_INT_EQ(dense_direct, 0);
  LK_ASSERT_INT_EQ(dense_nsgs, 0);
  LK_ASSERT_INT_EQ(islands_answered(ds, LK_ISLAND_SPARSE_TRIAL), 1);
  int nc = lk_data_ncontacts(ds);
  LK_ASSERT_INT_EQ(lk_data_ncontacts(dd), 4 * n);
  CU_ASSERT_EQUAL_FATAL(nc, lk_data_ncontacts(dd));
  double fbig = 0, dfn = 0, dft = 0;
  for (int i = 0; i < nc; i++) {
    const lk_contact_report *a = lk_data_contact_report(ds, i), *b = lk_data_contact_report(dd, i);
    CU_ASSERT_EQUAL(a->geom, b->geom);
    CU_ASSERT_EQUAL(a->other_geom, b->other_geom);
    fbig = fmax(fbig, b->fn);
    dfn = fmax(dfn, fabs(a->fn - b->fn));
    dft = fmax(dft, lk_v3_norm(lk_v3_sub(a->ft, b->ft)));
  }
  /* the bottom cube carries the tower: its floor contacts n m g */
  LK_ASSERT_REL(floor_impulse(ds) / H, n * mass * G, 1e-9, 0);
  LK_ASSERT_REL(floor_impulse(dd) / H, n * mass * G, 1e-9, 0);
  lk_data_free(ds);
  lk_data_free(dd);
  lk_model_free(ms);
  lk_model_free(md);
  return fbig > 0 ? fmax(dfn, dft) / fbig : INFINITY;
}

static void test_dense_parity(void) {
  double diff = check_dense_parity(17, 1.0, 0.5, 300);
  LK_ASSERT_MSG(diff <= 1e-9, "the paths' contact forces differ by %.3g of the largest", diff);
}
static void test_dense_parity_light(void) {
  double diff = check_dense_parity(20, 0.5, 0.8, 300);
  LK_ASSERT_MSG(diff <= 1e-9, "the paths' contact forces differ by %.3g of the largest", diff);
}

/* The pyramid of 30 cubes at rest on the floor, then the slope tilted to
 * `tilt`. Beyond atan(mu_floor) (and inside atan(mu) between the cubes)
 * the trial cannot stand (the floor would need tan(tilt) / mu_floor of its
 * cone), the island falls back to Newton once (counted), the floor contacts
 * turn dynamic and the pile slides as one down the slope at g (sin a -
 * mu_floor cos a): after 0.2 s every cube's velocity along the slope is
 * that times t to 1e-4 relative, none across it. Inside the floor's cone
 * nothing moves and every contact stays static (the trial stands on the
 * slope, or on the first step there Newton answers where the trial's
 * least-norm split of the redundant floor support put one contact over
 * its cone). Every island settles. */
typedef struct {
  long dynamic;  /* dynamic contacts at the end (100: the floor's) */
  double speed;  /* worst |v - v0 - a t| / (a t) along the slope (sliding) */
  double across; /* worst |v| across the slope, m/s */
  double travel; /* worst |x - x0 - a t^2 / 2| / (a t^2 / 2) (sliding) */
  double moved;  /* worst |x - x0|, m */
} slope_run;

static slope_run check_slope(double mass, double mu, double mu_floor, double tilt) {
  slope_run out = {-1, INFINITY, INFINITY, INFINITY, INFINITY};
  const int n = 30;
  lk_model *m = cubes(n, 5, mass, mu, mu_floor, 0, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  lk_data *d = lk_data_new(m);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  long bad = 0, solves = 0;
  for (int s = 0; s < 100; s++) {
    bad += lk_step(m, d) != LK_OK;
    solves += islands_answered(d, LK_ISLAND_SPARSE_TRIAL);
  }
  LK_ASSERT_INT_EQ(bad, 0);
  LK_ASSERT_INT_EQ(solves, 99);
  lk_options o = *lk_model_options(m);
  o.gravity = lk_v3(G * sin(tilt), 0, -G * cos(tilt));
  CU_ASSERT_EQUAL_FATAL(lk_model_set_options(m, &o, NULL), LK_OK);
  int slides = tan(tilt) > mu_floor;
  long fallbacks = 0, nsgs = 0, dynamic = 0, floor_contacts = 0, unsettled = 0;
  solves = 0;
  double x0[n], v0[n];
  for (int k = 1; k <= n; k++) {
    x0[k - 1] = body_q(d, k, 0);
    v0[k - 1] = lk_data_v(d)[6 * (k - 1)];
  }
  const int steps = 200;
  for (int s = 0; s < steps; s++) {
    bad += lk_step(m, d) != LK_OK;
    const lk_step_report *r = lk_data_step_report(d);
    fallbacks += r->direct_fallbacks;
    solves += islands_answered(d, LK_ISLAND_SPARSE_TRIAL);
    nsgs += islands_iterative(d);
    unsettled += islands_unsettled(d);
  }
  for (int i = 0; i < lk_data_ncontacts(d); i++) {
    const lk_contact_report *c = lk_data_contact_report(d, i);
    floor_contacts += c->other == 0;
    dynamic += c->state == LK_FRICTION_DYNAMIC;
  }
  LK_ASSERT_INT_EQ(bad, 0);
  LK_ASSERT_INT_EQ(unsettled, 0);
  LK_ASSERT_INT_EQ(floor_contacts, 100);
  if (slides) {
    LK_ASSERT_INT_EQ(fallbacks, 1); /* the first step on the slope; then sliding: no trial */
    LK_ASSERT_INT_EQ(solves, 0);
    LK_ASSERT_INT_EQ(nsgs, steps);
  }
  out.dynamic = dynamic;
  double a = G * (sin(tilt) - mu_floor * cos(tilt)), t = steps * H;
  out.speed = out.across = out.travel = out.moved = 0;
  for (int k = 1; k <= n; k++) {
    /* the free joint's linear velocity, world frame */
    const double *v = lk_data_v(d) + 6 * (k - 1);
    double x = body_q(d, k, 0) - x0[k - 1];
    out.speed = fmax(out.speed, fabs((v[0] - v0[k - 1]) / (a * t) - 1));
    out.across = fmax(out.across, fabs(v[1]));
    out.travel = fmax(out.travel, fabs(x / (0.5 * a * t * t) - 1));
    out.moved = fmax(out.moved, fabs(x));
  }
  lk_data_free(d);
  lk_model_free(m);
  return out;
}

/* Beyond atan(mu_floor): the floor's 100 contacts dynamic (the cubes grip
 * each other), every cube at g (sin a - mu_floor cos a) t after 0.2 s to
 * 1e-4, none across the slope, the distance to 2 % (the first step's
 * start). */
static int slides_as_closed_form(slope_run r, char *why, size_t n) {
  if (r.dynamic != 100) snprintf(why, n, "%ld contacts dynamic, want the floor's 100", r.dynamic);
  else if (!(r.speed <= 1e-4)) snprintf(why, n, "speed off the closed form by %.3g", r.speed);
  else if (!(r.across <= 1e-6)) snprintf(why, n, "%.3g m/s across the slope", r.across);
  else if (!(r.travel <= 2e-2)) snprintf(why, n, "distance off the closed form by %.3g", r.travel);
  else return 1;
  return 0;
}
static void test_slope_slides(void) {
  char why[120];
  LK_ASSERT_MSG(slides_as_closed_form(check_slope(1.0, 0.5, 0.3, 20 * LK_PI / 180), why, sizeof why),
                "%s", why);
}
static void test_slope_slides_light(void) {
  char why[120];
  LK_ASSERT_MSG(slides_as_closed_form(check_slope(0.5, 0.8, 0.5, 30 * LK_PI / 180), why, sizeof why),
                "%s", why);
}
/* Inside the floor's cone nothing moves and every contact stays static
 * (the first step on the slope may find the trial's least-norm friction
 * split one contact over its cone -- the split of a redundant support is
 * not unique: Newton then answers it exactly, and the pile sticks as
 * well). */
static int sticks(slope_run r, char *why, size_t n) {
  if (r.dynamic != 0) snprintf(why, n, "%ld contacts dynamic", r.dynamic);
  else if (!(r.moved <= 1e-9)) snprintf(why, n, "a cube moved %.3g m", r.moved);
  else return 1;
  return 0;
}
static void test_slope_sticks(void) {
  char why[120];
  LK_ASSERT_MSG(sticks(check_slope(1.0, 0.5, 0.3, 12 * LK_PI / 180), why, sizeof why), "%s", why);
}
static void test_slope_sticks_light(void) {
  char why[120];
  LK_ASSERT_MSG(sticks(check_slope(0.5, 0.8, 0.5, 22 * LK_PI / 180), why, sizeof why), "%s", why);
}

/* A copy of a data at rest carries the kept CHOLMOD factor: its next step
 * refines as the original's does (no analysis), and the two continue
 * bit-identically over 100 steps. A reset data forgets the factor and
 * steps as a new data, to the bit. */
static void test_copy(void) {
  lk_model *m = cubes(30, 5, 1.0, 0.5, 0.5, 0, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  lk_data *d = lk_data_new(m), *c = lk_data_new(m), *f = lk_data_new(m);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  CU_ASSERT_PTR_NOT_NULL_FATAL(c);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  for (int s = 0; s < 100; s++) CU_ASSERT_EQUAL_FATAL(lk_step(m, d), LK_OK);
  CU_ASSERT_EQUAL_FATAL(lk_data_copy(c, d), LK_OK);
  CU_ASSERT_EQUAL_FATAL(lk_step(m, d), LK_OK);
  CU_ASSERT_EQUAL_FATAL(lk_step(m, c), LK_OK);
  LK_ASSERT_INT_EQ(lk_data_step_report(d)->direct_refined, 1);
  LK_ASSERT_INT_EQ(lk_data_step_report(c)->direct_refined, 1);
  LK_ASSERT_INT_EQ(lk_data_step_report(c)->direct_analyses, 0);
  for (int s = 0; s < 100; s++) {
    CU_ASSERT_EQUAL_FATAL(lk_step(m, d), LK_OK);
    CU_ASSERT_EQUAL_FATAL(lk_step(m, c), LK_OK);
  }
  const int nq = lk_model_nq(m), nv = lk_model_nv(m);
  LK_ASSERT_INT_EQ(memcmp(lk_data_q(d), lk_data_q(c), sizeof(double) * nq), 0);
  LK_ASSERT_INT_EQ(memcmp(lk_data_v(d), lk_data_v(c), sizeof(double) * nv), 0);
  /* reset, against a new data (f): the first 150 steps, to the bit */
  lk_data_reset(d);
  for (int s = 0; s < 150; s++) {
    CU_ASSERT_EQUAL_FATAL(lk_step(m, d), LK_OK);
    CU_ASSERT_EQUAL_FATAL(lk_step(m, f), LK_OK);
  }
  LK_ASSERT_INT_EQ(memcmp(lk_data_q(d), lk_data_q(f), sizeof(double) * nq), 0);
  LK_ASSERT_INT_EQ(memcmp(lk_data_v(d), lk_data_v(f), sizeof(double) * nv), 0);
  lk_data_free(d);
  lk_data_free(c);
  lk_data_free(f);
  lk_model_free(m);
}

/* Where the factor would not stay sparse the trial is not made: the
 * pyramid of 300 cubes (10 800 rows; L would hold 5.3 times the entries
 * of A's upper triangle, FILL_MAX 4) analyses once on its first step with
 * states and leaves the island to NSGS, factoring nothing, while its rows
 * are unchanged; it stands. */
static void test_fill_limit(void) {
  lk_model *m = cubes(300, 10, 1.0, 0.5, 0.5, 0, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  lk_data *d = lk_data_new(m);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  long bad = 0, analyses = 0, factors = 0, fallbacks = 0, trials = 0, nsgs = 0;
  double z0 = body_q(d, 300, 2);
  for (int s = 0; s < 10; s++) {
    bad += lk_step(m, d) != LK_OK;
    const lk_step_report *r = lk_data_step_report(d);
    analyses += r->direct_analyses;
    factors += r->direct_factors;
    fallbacks += r->direct_fallbacks;
    trials += r->direct_trials;
    /* NSGS's (at rest; Newton's on the first step, where the contacts
     * are new), or its check of the impulses in hand */
    nsgs += islands_iterative(d) + islands_answered(d, LK_ISLAND_GUESS);
    LK_ASSERT_INT_EQ(r->largest_island, 10800);
  }
  LK_ASSERT_INT_EQ(bad, 0);
  LK_ASSERT_INT_EQ(analyses, 1);
  LK_ASSERT_INT_EQ(factors, 0);
  LK_ASSERT_INT_EQ(trials, 1);
  LK_ASSERT_INT_EQ(fallbacks, 1);
  LK_ASSERT_INT_EQ(nsgs, 10);
  LK_ASSERT_NEAR(body_q(d, 300, 2), z0, 1e-6);
  lk_data_free(d);
  lk_model_free(m);
}

void lk_test_register(void) {
  static const lk_test tests[] = {
      {"pyramid of 30 cubes at rest: the direct trial, no creep", test_pyramid30_rest},
      {"pyramid of 14 light cubes, mu 0.8, at rest", test_pyramid14_rest_light},
      {"the direct trial gives the dense trial's answer", test_dense_parity},
      {"... with 20 light cubes, mu 0.8", test_dense_parity_light},
      {"a pile on a slope beyond atan(mu) falls back and slides", test_slope_slides},
      {"... light cubes, mu 0.8", test_slope_slides_light},
      {"a pile on a slope inside the cone sticks", test_slope_sticks},
      {"... light cubes, mu 0.8", test_slope_sticks_light},
      {"a copied data continues to the bit, a reset one steps as new", test_copy},
      {"no trial where the factor would fill in", test_fill_limit},
      {NULL, NULL}};
  lk_test_suite("direct", tests);
}
