/* Contact at scale (issue 20): islands have no fixed row limit. A tower of
 * 17 cubes (204 rows, beyond the dense size of 192) and a pyramid pile of
 * 300 cubes (10 800 rows) simulate with default options, through the
 * sparse iterative path, without allocating in the step, and stand; a
 * size the user sets is a limit whose failure names the option. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"
#include "islands.h"
#include "piles.h"


/* The z coordinate of free body k (1-based, in build order). */
static double body_z(const lk_model *m, lk_data *d, int k) {
  (void)m;
  return lk_data_q(d)[7 * (k - 1) + 2];
}

/* Steps a scene of n cubes; every step must succeed without allocating
 * (the first may grow the sparse storage once: its entries and values),
 * every cube stays within tol of its starting height. Returns the largest
 * island seen; *sparse the islands the planner gave the sparse solvers. */
static int run_cubes(lk_model *m, int n, int steps, double tol, int *sparse) {
  lk_allocator al = LK_TEST_COUNTING_ALLOCATOR;
  lk_data *d = lk_data_new(m);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  double *z0 = malloc(sizeof *z0 * (size_t)n);
  CU_ASSERT_PTR_NOT_NULL_FATAL(z0);
  for (int k = 1; k <= n; k++) z0[k - 1] = body_z(m, d, k);
  lk_set_allocator(&al);
  lk_test_allocs = 0;
  int fails = 0, largest = 0;
  *sparse = 0;
  for (int s = 0; s < steps; s++) {
    lk_status st = lk_step(m, d);
    const lk_step_report *r = lk_data_step_report(d);
    if (st != LK_OK) {
      fails++;
      fprintf(stderr, "step %d: %s (%s)\n", s + 1, lk_strerror(st), r->detail);
      break;
    }
    if (r->largest_island > largest) largest = r->largest_island;
    *sparse += islands_planned(d, LK_ISLAND_SPARSE);
  }
  long allocs = lk_test_allocs;
  lk_set_allocator(NULL);
  LK_ASSERT_INT_EQ(fails, 0);
  /* the compressed rows may grow once (their entries and columns: 2), at
   * the first step that builds them (the direct trial, once the contacts
   * are static; NSGS takes the product, which is sized with the model) */
  LK_ASSERT_MSG(allocs <= 2, "the steps made %ld allocations (one growth: 2)", allocs);
  double worst = 0;
  for (int k = 1; k <= n; k++) worst = fmax(worst, fabs(body_z(m, d, k) - z0[k - 1]));
  LK_ASSERT_NEAR(worst, 0, tol);
  free(z0);
  lk_data_free(d);
  return largest;
}

/* 17 cubes: 68 contacts, 204 rows, one island (16 cubes fit the dense
 * size exactly: 192 rows). 0.3 s at 1 ms. */
static void test_tower17_default(void) {
  lk_model *m = piles_tower(17, 1e-3);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  CU_ASSERT_EQUAL(lk_model_options(m)->max_island_rows, 0);
  int sparse = 0;
  int largest = run_cubes(m, 17, 300, 1e-4, &sparse);
  LK_ASSERT_INT_EQ(largest, 17 * 4 * 3);
  LK_ASSERT_INT_EQ(sparse, 300); /* one island a step, beyond the dense size */
  lk_model_free(m);
}

/* 300 cubes in a pyramid (layers 10 x 10, 9 x 9, 8 x 8, 7 x 7 and 6 on
 * top): 400 floor contacts and 16 under each of the 200 upper cubes, 3600
 * contacts, 10 800 rows in one island. 20 steps. */
static void test_pile300_default(void) {
  lk_model *m = piles_pyramid(300, 1e-3);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  int sparse = 0;
  int largest = run_cubes(m, 300, 20, 1e-4, &sparse);
  LK_ASSERT_INT_EQ(largest, 3 * (4 * 100 + 16 * 200));
  LK_ASSERT_INT_EQ(sparse, 20);
  lk_model_free(m);
}

/* A resting pile on NSGS (the 300-cube pyramid: the direct trial's fill
 * rule leaves it to the product) is answered far below the LCP layer's
 * 1e-9: to 1e-12 (its few polishing sweeps) or by the last step's impulses
 * (the guess, 1e-13), so that the swept steps do not alternate with the
 * guessed ones (they did: 67 of 100 steps swept, each stopping as soon as
 * its check passed 1e-9, a hair off the fixed point, and then refusing
 * the next step's guess). Most steps are answered by the last impulses
 * checked from the rows, before Y or the product is formed
 * (lk_sim_iterative_guess): those answers hold the pile up (the floor's
 * load is its weight) inside every cone. Settled, then 100 steps; the top
 * cube does not move. */
typedef struct {
  int bad, swept, loose, unconverged, direct, by_rows;
  long allocs;
  double worst, worst_floor, worst_use, top_moved;
} pile_rest;

static pile_rest pile_at_rest(double h, int settle, int steps) {
  pile_rest f = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, INFINITY};
  lk_model *m = piles_pyramid(300, h);
  if (!m) return f;
  lk_data *d = lk_data_new(m);
  if (!d) {
    lk_model_free(m);
    return f;
  }
  int bad = 0;
  for (int k = 0; k < settle && !bad; k++) bad = lk_step(m, d) != LK_OK;
  double top0 = body_z(m, d, 300), worst = 0, worst_floor = 0, worst_use = 0;
  int swept = 0, loose = 0, unconverged = 0, direct = 0, by_rows = 0;
  long allocs = 0;
  lk_allocator al = LK_TEST_COUNTING_ALLOCATOR;
  for (int k = 0; k < steps && !bad; k++) {
    /* the steps themselves allocate nothing (the reports read below do not
     * count) */
    lk_set_allocator(&al);
    lk_test_allocs = 0;
    bad = lk_step(m, d) != LK_OK;
    lk_set_allocator(NULL);
    allocs += lk_test_allocs;
    const lk_step_report *r = lk_data_step_report(d);
    worst = fmax(worst, r->lcp_residual);
    swept += r->nsgs_sweeps > 0;
    loose += r->nsgs_loose;
    unconverged += r->friction_unconverged;
    direct += r->direct_solves;
    /* Answered by the last impulses from the rows, before the LCP layer
     * saw a product: the floor carries the pile's weight, every friction
     * force is inside its cone. */
    if (r->guess_answers == 1 && r->nsgs_solves == 0) {
      by_rows++;
      double floor = 0;
      for (int c = 0; c < lk_data_ncontacts(d); c++) {
        const lk_contact_report *cr = lk_data_contact_report(d, c);
        if (cr->other == 0) floor += cr->fn;
        worst_use = fmax(worst_use, cr->utilization);
      }
      worst_floor = fmax(worst_floor, fabs(floor - 300 * 9.81) / (300 * 9.81));
    }
  }
  f = (pile_rest){bad, swept, loose, unconverged, direct, by_rows, allocs,
                  worst, worst_floor, worst_use, fabs(body_z(m, d, 300) - top0)};
  printf("  h %g: %d of %d steps swept, %d answered from the rows, worst residual %.2g, "
         "top moved %.2g m\n",
         h, swept, steps, by_rows, worst, f.top_moved);
  lk_data_free(d);
  lk_model_free(m);
  return f;
}

#define ASSERT_PILE_AT_REST(f, steps)                                                      \
  do {                                                                                     \
    LK_ASSERT_INT_EQ((f).bad, 0);                                                          \
    LK_ASSERT_MSG((f).allocs == 0, "the steps at rest made %ld allocations", (f).allocs);  \
    LK_ASSERT_INT_EQ((f).direct, 0); /* NSGS's case */                                     \
    LK_ASSERT_INT_EQ((f).loose + (f).unconverged, 0);                                      \
    LK_ASSERT_MSG((f).worst <= 1e-12, "worst relative residual %g", (f).worst);           \
    LK_ASSERT_MSG(2 * (f).swept <= (steps), "%d of %d steps swept", (f).swept, (steps));   \
    LK_ASSERT_MSG(3 * (f).by_rows >= (steps), "%d of %d steps answered from the rows",     \
                  (f).by_rows, (steps));                                                   \
    LK_ASSERT_MSG((f).worst_floor <= 1e-9, "floor load off the weight by %g", (f).worst_floor); \
    LK_ASSERT_MSG((f).worst_use <= 1 + 1e-12, "a friction force beyond its cone: %g",      \
                  (f).worst_use);                                                          \
    LK_ASSERT_NEAR((f).top_moved, 0, 1e-12);                                               \
  } while (0)

static void test_pile300_at_rest(void) {
  pile_rest f = pile_at_rest(1e-3, 200, 100);
  ASSERT_PILE_AT_REST(f, 100);
}
static void test_pile300_at_rest_2ms(void) {
  pile_rest f = pile_at_rest(2e-3, 100, 100);
  ASSERT_PILE_AT_REST(f, 100);
}

/* The 5-cube tower stays dense (islands up to 192 rows): the planner
 * gives no island to the sparse solvers. */
static void test_small_stays_dense(void) {
  lk_model *m = piles_tower(5, 1e-3);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  int sparse = 0;
  int largest = run_cubes(m, 5, 100, 1e-6, &sparse);
  LK_ASSERT_INT_EQ(largest, 60);
  LK_ASSERT_INT_EQ(sparse, 0);
  lk_model_free(m);
}

/* A size the user sets is a limit: the step fails with
 * LK_CAPACITY_EXCEEDED and the report names the option; likewise the
 * contact capacity (max_contacts). The data is left as it was. */
static void check_limit(lk_model *m, const char *option) {
  lk_data *d = lk_data_new(m);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  double q0 = lk_data_q(d)[2];
  lk_status st = lk_step(m, d);
  LK_ASSERT_INT_EQ(st, LK_CAPACITY_EXCEEDED);
  const lk_step_report *r = lk_data_step_report(d);
  CU_ASSERT_PTR_NOT_NULL_FATAL(r->detail);
  LK_ASSERT_MSG(strstr(r->detail, option) != NULL, "detail '%s' names %s", r->detail, option);
  CU_ASSERT_EQUAL(lk_data_q(d)[2], q0);
  CU_ASSERT_EQUAL(lk_data_time(d), 0.0);
  lk_data_free(d);
}

static void test_user_limits_named(void) {
  lk_model *m = piles_tower_options(17, 1e-3, 100, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  check_limit(m, "max_island_rows");
  lk_model_free(m);
  m = piles_tower_options(3, 1e-3, 0, 5); /* 12 contacts found */
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  check_limit(m, "max_contacts");
  lk_model_free(m);
}

/* Counts of a chain run. */
typedef struct {
  long failures, fallbacks, unconverged, bad;
  double ke;    /* kinetic energy at the end, J */
  double moved; /* largest move of a joint (link origin) over the last 100 steps */
  double zmin;  /* lowest joint height at the end */
} chain_run;

static chain_run run_chain(lk_model *m, int steps) {
  chain_run c = {.zmin = INFINITY};
  lk_data *d = lk_data_new(m);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  const int nl = lk_model_nlink(m);
  lk_vec3 *p0 = malloc(sizeof *p0 * (size_t)nl);
  CU_ASSERT_PTR_NOT_NULL_FATAL(p0);
  for (int s = 0; s < steps; s++) {
    if (s == steps - 100) {
      lk_forward_kinematics(m, d);
      for (int i = 1; i < nl; i++) p0[i] = lk_data_link_pose(d, i)->p;
    }
    if (lk_step(m, d) != LK_OK) {
      c.bad++;
      break;
    }
    const lk_step_report *r = lk_data_step_report(d);
    c.failures += r->solver_failures;
    c.fallbacks += r->fallbacks;
    c.unconverged += r->friction_unconverged;
  }
  lk_forward_kinematics(m, d);
  lk_energy_kinetic(m, d, &c.ke);
  for (int i = 1; i < nl; i++) {
    lk_vec3 p = lk_data_link_pose(d, i)->p;
    c.zmin = fmin(c.zmin, p.z);
    c.moved = fmax(c.moved, lk_v3_norm(lk_v3_sub(p, p0[i])));
  }
  free(p0);
  lk_data_free(d);
  return c;
}

/* A draped chain's run: no bad step, failure, fallback or unconverged
 * friction (which solver answers is the planner's business, not the
 * claim: tests/sim/test_plan.c); kinetic energy at
 * the end within ke_tol of 0 (and no joint moving more than moved_tol over
 * the last 100 steps when moved_tol > 0); the lowest joint above the floor
 * by the capsules' radius. */
#define ASSERT_CHAIN_DRAPED(c, ke_tol, moved_tol)                                          \
  do {                                                                                     \
    LK_ASSERT_INT_EQ((c).bad, 0);                                                          \
    LK_ASSERT_INT_EQ((c).failures, 0);                                                     \
    LK_ASSERT_INT_EQ((c).fallbacks, 0);                                                    \
    LK_ASSERT_INT_EQ((c).unconverged, 0);                                                  \
    LK_ASSERT_NEAR((c).ke, 0, ke_tol);                                                     \
    if ((moved_tol) > 0) LK_ASSERT_NEAR((c).moved, 0, moved_tol);                         \
    LK_ASSERT_MSG((c).zmin > 0.02 - 1e-3, "lowest joint at %g m", (c).zmin);               \
  } while (0)

static chain_run chain_drape(int n, double h, int steps) {
  chain_run none = {.bad = 1};
  lk_model *m = piles_chain(n, 0.1, h);
  if (!m) return none;
  chain_run c = run_chain(m, steps);
  lk_model_free(m);
  return c;
}

/* The chain: 20 capsules on ball joints (0.1 kg, mu 0.5, 2 ms)
 * dropped 0.1 m over a box onto the floor: one island of 20-30 contacts
 * on one 63-DoF tree, sliding as it drapes. Before: 3 108 solver failures,
 * 1 733 fallbacks and 1 713 unsettled steps in 2 500, 170 ms a step. Now
 * the iterative solvers take the island whenever a contact slips
 * (iterative_pays; Newton first, NSGS where it stalls): no failure and no
 * fallback. With the contact margins of 7d90af9 the
 * Gauss-Seidel sweeps alone left 12 of these 400 steps above the accepted
 * 1e-6 (88 between 1e-9 and 1e-6): nearly dependent contacts (two
 * capsules' ends at a joint) make the sweeps slow. NSGS's direct finish
 * (lib/lcp/nsgs.c: the contact states read off the iterate, solved for
 * exactly) ends them: none unconverged. The chain lands on the floor and
 * the box (no joint below the capsules' radius, 0.02, by more than the
 * contact tolerance) and loses most of the 6 J it fell with (kinetic
 * energy below 0.05 J). */
static void test_chain_drape(void) {
  chain_run c = chain_drape(20, 2e-3, 400);
  ASSERT_CHAIN_DRAPED(c, 5e-2, 0);
}

/* The 10-link chain: its islands (7-15 contacts) are below the 16 pairs
 * from which NSGS pays, and on the pivoting passes 243 of 400 steps ended
 * unsettled (and, at rest on the box's edge with contacts on 5-6 links,
 * 160 of 200). Contacts on 7 links of one tree, or 4 pairs on a tree of 24
 * DoF or more, now go to NSGS too (iterative_pays): over the drop, the
 * drape and the rest (3 s) no failure, no fallback, none unconverged,
 * nearly at rest (kinetic energy below 1e-6 J, no joint moving 0.1 mm
 * over the last 0.2 s; 3.4e-5 m measured). */
static void test_chain10_drape(void) {
  chain_run c = chain_drape(10, 2e-3, 1500);
  ASSERT_CHAIN_DRAPED(c, 1e-6, 1e-4);
}

/* The 20-link chain at 1 ms (other numbers): 400 steps, 0.4 s of the
 * drop and the drape; the direct finish once read contacts at the edge of
 * taking off wrongly here (13 unconverged before its pivots): none now,
 * and most of the 6 J gone (kinetic energy below 0.1 J, still draping). */
static void test_chain_drape_1ms(void) {
  chain_run c = chain_drape(20, 1e-3, 400);
  ASSERT_CHAIN_DRAPED(c, 0.1, 0);
}

/* The 10-link chain draped over the box, at rest as an earlier build's
 * settling left it (bench/piles' chain10 at 2 ms, after 1 s): links 1-2 and
 * 9-10 on the floor, 5-6 on the box, the rest hanging, one contact's
 * friction at its cone's edge (utilization 1 to 6 digits). A sticking
 * answer there must stick: the coupled check's Lemke answer had left
 * loaded friction rows moving at 6e-9 m/s, which it called sticking; the
 * chain crept, the creep grew 60-fold each half second, and the chain was
 * sliding 4 s later. For the first second every static loaded contact's
 * slip stays below the slide threshold (1e-9 m/s), and no rate grows past
 * 1e-8. (Not beyond: from about 2.5 s its rates grow again, no contact
 * slipping faster than 4e-11 m/s; docs/contact.md, "The coupled sticking
 * check".) */
static const double kChainRestQ[43] = {
    0.14493588659409723, 0, 0.019999795272398122, 0.9999999999994762, 0,
    -1.0236372340437198e-06, 0, 0.99999999999790445, 0, 2.0472746225937628e-06, 0,
    0.93764340538391777, 0, -0.3475986828802004, 0, 0.91708277073911271, 0,
    -0.39869686682173999, 0, 0.75140631148411197, 0, 0.65983979499712042, 0,
    0.99604499756306109, 0, 0.088850226953012992, 0, 0.73854527429011119, 0,
    0.67420388446207025, 0, 0.90903499068731186, 0, -0.41671979279381344, 0,
    0.93780713050153608, 0, -0.34715671674400145, 0, 0.99999999952419927, 0,
    3.0848038672173137e-05, 0};

/* What a run from that state measures: its failed steps, the largest
 * utilization, slip speed of a static loaded contact, and DoF rate. */
typedef struct {
  int bad;
  double util, slip, rate;
} edge_run;

static edge_run chain_at_cone_edge(double h, double seconds) {
  edge_run e = {.bad = 1};
  lk_model *m = piles_chain(10, 0.1, h);
  lk_data *d = m ? lk_data_new(m) : NULL;
  if (!d || lk_model_nq(m) != 43) {
    lk_data_free(d);
    lk_model_free(m);
    return e;
  }
  memcpy(lk_data_q(d), kChainRestQ, sizeof kChainRestQ);
  e.bad = 0;
  for (int s = 0, steps = (int)(seconds / h + 0.5); s < steps; s++) {
    e.bad += lk_step(m, d) != LK_OK;
    for (int c = 0; c < lk_data_ncontacts(d); c++) {
      const lk_contact_report *r = lk_data_contact_report(d, c);
      if (r->state != LK_FRICTION_STATIC || !(r->fn > 0)) continue;
      e.slip = fmax(e.slip, r->slip_speed);
      e.util = fmax(e.util, r->utilization);
    }
    for (int k = 0; k < lk_model_nv(m); k++) e.rate = fmax(e.rate, fabs(lk_data_v(d)[k]));
  }
  lk_data_free(d);
  lk_model_free(m);
  return e;
}

#define ASSERT_CHAIN_STUCK(e)                                                            \
  do {                                                                                   \
    LK_ASSERT_INT_EQ((e).bad, 0);                                                        \
    LK_ASSERT_MSG((e).util > 0.999, "the friction was not at its cone's edge (%.9f)",    \
                  (e).util);                                                             \
    LK_ASSERT_MSG((e).slip <= 1e-9, "a static contact slipped at %.3g m/s", (e).slip);   \
    LK_ASSERT_MSG((e).rate <= 1e-8, "the chain moved at %.3g (m/s or rad/s)", (e).rate); \
  } while (0)

static void test_chain_at_cone_edge(void) {
  edge_run e = chain_at_cone_edge(2e-3, 1.0);
  ASSERT_CHAIN_STUCK(e);
}
static void test_chain_at_cone_edge_1ms(void) {
  edge_run e = chain_at_cone_edge(1e-3, 1.0);
  ASSERT_CHAIN_STUCK(e);
}

/* The same chain laid straight on the floor: 40 contacts (2 a capsule),
 * all sticking: the dense path's exact sticking trial answers every step
 * (no NSGS), and the chain does not move (1e-9 m). */
static void test_chain_on_floor(void) {
  lk_model *m = piles_chain(20, 0, 2e-3);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  lk_data *d = lk_data_new(m);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  double q0[7];
  for (int k = 0; k < 7; k++) q0[k] = lk_data_q(d)[k];
  long bad = 0, failures = 0, unconverged = 0, iterative = 0, rows = 0;
  for (int s = 0; s < 250; s++) {
    bad += lk_step(m, d) != LK_OK;
    const lk_step_report *r = lk_data_step_report(d);
    failures += r->solver_failures + r->fallbacks;
    unconverged += r->friction_unconverged;
    iterative += islands_answered(d, LK_ISLAND_NSGS);
    rows = r->nrows;
  }
  LK_ASSERT_INT_EQ(bad, 0);
  LK_ASSERT_INT_EQ(failures, 0);
  LK_ASSERT_INT_EQ(unconverged, 0);
  LK_ASSERT_INT_EQ(iterative, 0);
  LK_ASSERT_INT_EQ(rows, 120);
  for (int k = 0; k < 3; k++) LK_ASSERT_NEAR(lk_data_q(d)[k], q0[k], 1e-9);
  lk_data_free(d);
  lk_model_free(m);
}

void lk_test_register(void) {
  static const lk_test tests[] = {
      {"tower of 17 cubes with default options", test_tower17_default},
      {"pile of 300 cubes with default options", test_pile300_default},
      {"a resting 300-cube pile on NSGS is answered to 1e-12", test_pile300_at_rest},
      {"... and at h = 2 ms", test_pile300_at_rest_2ms},
      {"small islands stay on the dense path", test_small_stays_dense},
      {"a limit the user sets names its option", test_user_limits_named},
      {"20-link chain draped over a box", test_chain_drape},
      {"10-link chain draped over a box", test_chain10_drape},
      {"20-link chain draped at 1 ms", test_chain_drape_1ms},
      {"20-link chain lying on the floor", test_chain_on_floor},
      {"a chain held at a cone's edge: no static contact slips for 1 s", test_chain_at_cone_edge},
      {"... and at h = 1 ms", test_chain_at_cone_edge_1ms},
      {NULL, NULL}};
  lk_test_suite("scale", tests);
}
