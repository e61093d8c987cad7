/* Every island strategy against the pivoting answer (issue 35): the same
 * scene stepped with options.island_strategy naming each strategy in turn
 * (the planner's first choice replaced where the strategy applies, its own
 * ladder after it as usual) ends where the friction LCP -- Lemke/Dantzig
 * pivoting, the reference -- takes it. A redundant support's split of the
 * loads is not unique (a box's four corners), the motion is: the bodies'
 * positions and velocities are compared, step by step. One, two and four
 * contacts: a sphere, a capsule lying down and a box, each held by
 * friction under a sideways load (gravity tilted below the friction
 * angle) and sliding (beyond it, and launched). Each strategy must also be
 * the one that answered on the steps where it applies (it is tried, not
 * only named). The circle cone's re-alignment passes get room (100, not
 * the default 24), so that the strategies' answers are compared, not the
 * pass budget: with 24, the sticking trial started on the sliding box runs
 * the passes out once, on its 7th step (docs/contact.md, known limits). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"

static const char *const kShapes[] = {
    "{type: sphere, radius: 0.05, material: m}",                   /* 1 contact */
    "{type: capsule, radius: 0.03, half_length: 0.1, material: m, " /* 2, lying along x */
    "origin: {rpy: [0, 1.5707963267948966, 0]}}",
    "{type: box, half_extents: [0.1, 0.07, 0.05], material: m}", /* 4 */
};
static const double kHeight[] = {0.05, 0.03, 0.05};
static const int kContacts[] = {1, 2, 4};

typedef struct {
  const char *name;
  double gx;  /* sideways gravity, m/s^2 (mu_s 0.5: holds below 4.9) */
  double vx0; /* launched at, m/s */
} load_case;
static const load_case kLoads[] = {
    {"held by friction under a sideways load", 2.0, 0},
    {"sliding under a sideways load", 6.5, 0},
    {"launched, sliding to rest", 0, 1.2},
};

static const char *const kStrategies[] = {"lcp",  "planned", "guess", "sticking",
                                          "held", "nsgs",    "newton"};
static const lk_island_strategy kStrategy[] = {LK_ISLAND_LCP,      LK_ISLAND_NONE, LK_ISLAND_GUESS,
                                               LK_ISLAND_STICKING, LK_ISLAND_HELD, LK_ISLAND_NSGS,
                                               LK_ISLAND_NEWTON};
enum { NSTRAT = 7, STEPS = 300 };

/* The run of one shape, load and strategy: q and v after every step into
 * q[STEPS][7], v[STEPS][6]; *answered the steps its island was answered by
 * the strategy named; *contacts the most contacts of a step. */
static int run(int shape, int load, int strat, double (*q)[7], double (*v)[6], int *answered,
               int *contacts) {
  char text[2048];
  snprintf(text, sizeof text,
           "options: {island_strategy: %s, gravity: [%.17g, 0, -9.81], friction_iterations: 100}\n"
           "materials:\n  - {name: m, mu_static: 0.5, mu_dynamic: 0.4}\n"
           "world:\n  geoms:\n    - {type: plane, material: m}\n"
           "links:\n  - name: body\n    joint: {name: j, type: free}\n    mass: 1.5\n"
           "    geoms:\n      - %s\n"
           "initial:\n  - {joint: j, q: [0, 0, %.6f, 1, 0, 0, 0], v: [%.17g, 0, 0, 0, 0, 0]}\n",
           kStrategies[strat], kLoads[load].gx, kShapes[shape], kHeight[shape], kLoads[load].vx0);
  lk_error err;
  lk_model *m = lk_model_load_string(text, strlen(text), "strategies.yaml", NULL, &err);
  LK_ASSERT_MSG(m != NULL, "load: %s", err.message);
  if (!m) return 0;
  lk_data *d = lk_data_new(m);
  int ok = d != NULL;
  *answered = 0;
  *contacts = 0;
  for (int i = 0; ok && i < STEPS; i++) {
    lk_status st = lk_step(m, d);
    LK_ASSERT_OK(st, (lk_error *)NULL);
    if (st) ok = 0;
    const lk_step_report *r = lk_data_step_report(d);
    if (r->ncontacts > *contacts) *contacts = r->ncontacts;
    for (int k = 0; k < r->nislands; k++) {
      const lk_island_report *ir = lk_data_island_report(d, k);
      LK_ASSERT_MSG(ir->settled, "%s, %s, %s: step %d unsettled (%s)", kShapes[shape],
                    kLoads[load].name, kStrategies[strat], i + 1,
                    lk_island_strategy_name(ir->answered));
      *answered += ir->answered == kStrategy[strat];
    }
    memcpy(q[i], lk_data_q(d), sizeof q[i]);
    memcpy(v[i], lk_data_v(d), sizeof v[i]);
  }
  lk_data_free(d);
  lk_model_free(m);
  return ok;
}

static void test_every_strategy_as_pivoting(void) {
  static double q[NSTRAT][STEPS][7], v[NSTRAT][STEPS][6];
  for (int shape = 0; shape < 3; shape++)
    for (int load = 0; load < 3; load++) {
      int answered[NSTRAT], contacts[NSTRAT];
      for (int s = 0; s < NSTRAT; s++)
        if (!run(shape, load, s, q[s], v[s], &answered[s], &contacts[s])) return;
      LK_ASSERT_MSG(contacts[0] == kContacts[shape], "%s: %d contacts, expected %d",
                    kShapes[shape], contacts[0], kContacts[shape]);
      /* At rest the motions agree to the solvers' tolerances (1e-10 m/s
       * measured). Sliding on the box's four corners, the normal load's
       * split among them is not unique, nor with it the twist the friction
       * puts on the box: the sticking trial's start leads the passes to
       * another split than the last step's, and the box turns about the
       * vertical by up to 3e-7 rad/s more (1.8e-8 in its quaternion over
       * 0.3 s); the other strategies agree to 1e-10. */
      const int rest = load == 0 || (shape == 0 && load == 1); /* (the sphere rolls: it sticks) */
      const double tol_q = rest ? 1e-9 : 1e-7, tol_v = rest ? 1e-7 : 1e-6;
      for (int s = 1; s < NSTRAT; s++) {
        double dq = 0, dv = 0;
        for (int i = 0; i < STEPS; i++) {
          for (int k = 0; k < 7; k++) dq = fmax(dq, fabs(q[s][i][k] - q[0][i][k]));
          for (int k = 0; k < 6; k++) dv = fmax(dv, fabs(v[s][i][k] - v[0][i][k]));
        }
        LK_ASSERT_MSG(dq <= tol_q && dv <= tol_v,
                      "%s, %s: %s strays from pivoting's motion by %.3g m, %.3g m/s",
                      kShapes[shape], kLoads[load].name, kStrategies[s], dq, dv);
      }
      LK_ASSERT_MSG(answered[0] == STEPS, "%s, %s: pivoting answered %d of %d steps",
                    kShapes[shape], kLoads[load].name, answered[0], STEPS);
      /* each strategy answers where it applies: NSGS and Newton
       * everywhere, the sticking trial at rest, the guess from the second step at rest
       * (impulses in hand), the held trial where something slides */
      LK_ASSERT_MSG(answered[5] == STEPS, "%s, %s: NSGS answered %d steps", kShapes[shape],
                    kLoads[load].name, answered[5]);
      LK_ASSERT_MSG(answered[6] == STEPS, "%s, %s: Newton answered %d steps", kShapes[shape],
                    kLoads[load].name, answered[6]);
      if (rest) {
        LK_ASSERT_MSG(answered[3] == STEPS, "%s, %s: the sticking trial answered %d steps",
                      kShapes[shape], kLoads[load].name, answered[3]);
        if (load == 0)
          LK_ASSERT_MSG(answered[2] == STEPS - 1, "%s, %s: the guess answered %d steps",
                        kShapes[shape], kLoads[load].name, answered[2]);
      } else if (shape > 0) {
        LK_ASSERT_MSG(answered[4] >= STEPS - 2, "%s, %s: the held trial answered %d steps",
                      kShapes[shape], kLoads[load].name, answered[4]);
      }
    }
}

/* Only a strategy an island starts with is accepted; the message says which
 * are. */
static void test_bad_strategy_refused(void) {
  static const char *const bad[] = {"coupled", "fixed_normals", "fastest"};
  for (int k = 0; k < 3; k++) {
    char text[256];
    snprintf(text, sizeof text,
             "options: {island_strategy: %s}\nlinks:\n  - {name: a, joint: {type: free}, mass: 1}\n",
             bad[k]);
    lk_error err;
    lk_model *m = lk_model_load_string(text, strlen(text), "bad.yaml", NULL, &err);
    LK_ASSERT_MSG(m == NULL, "island_strategy: %s accepted", bad[k]);
    if (m) {
      lk_model_free(m);
      continue;
    }
    LK_ASSERT_MSG(strstr(err.message, "island_strategy") != NULL, "message: %s", err.message);
  }
}

static const lk_test tests[] = {
    {"only the strategies an island starts with are accepted", test_bad_strategy_refused},
    {"every strategy moves the 1-, 2- and 4-contact scenes as pivoting does",
     test_every_strategy_as_pivoting},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("strategies", tests); }
