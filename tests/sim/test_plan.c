/* The island planner (lib/sim/plan.c; docs/contact.md, "The island
 * planner"): its decisions on islands described by hand, each rule where
 * it should apply and not where it should not; and, from outside, the
 * step's island reports on scenes a user writes (a box set down, a box
 * launched, a pile too large for the dense solvers, a row limit). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"
#include "sim/plan.h"

/* Facts written as a user of the planner reads them: a dense island of
 * 12 rows (a box on four corners), friction, the circle cone, the sparse
 * solvers available, every contact static and nothing remembered, then
 * the words of the case ("sliding", "turning=2", "rows=193", "circle=0"). */
static const struct {
  const char *name;
  size_t at;
} kFacts[] = {
    {"rows", offsetof(lk_island_facts, rows)},
    {"row_limit", offsetof(lk_island_facts, row_limit)},
    {"sparse", offsetof(lk_island_facts, sparse)},
    {"guessable", offsetof(lk_island_facts, guessable)},
    {"guess_wait", offsetof(lk_island_facts, guess_wait)},
    {"impulses", offsetof(lk_island_facts, impulses)},
    {"has_friction", offsetof(lk_island_facts, has_friction)},
    {"sliding", offsetof(lk_island_facts, sliding)},
    {"coupled_last", offsetof(lk_island_facts, coupled_last)},
    {"saturated_last", offsetof(lk_island_facts, saturated_last)},
    {"large", offsetof(lk_island_facts, large)},
    {"circle", offsetof(lk_island_facts, circle)},
    {"turning", offsetof(lk_island_facts, turning)},
    {"slipping", offsetof(lk_island_facts, slipping)},
};

/* 0 on a word the table does not know. */
static int facts_of(const char *words, lk_island_facts *f) {
  memset(f, 0, sizeof *f);
  f->rows = 12;
  f->dense_cap = 192;
  f->sparse = 1;
  f->has_friction = 1;
  f->circle = 1;
  char buf[256];
  snprintf(buf, sizeof buf, "%s", words);
  for (char *w = strtok(buf, " "); w; w = strtok(NULL, " ")) {
    char *eq = strchr(w, '=');
    int value = eq ? atoi(eq + 1) : 1;
    if (eq) *eq = 0;
    size_t k = 0, n = sizeof kFacts / sizeof kFacts[0];
    while (k < n && strcmp(kFacts[k].name, w)) k++;
    if (k == n) return 0;
    *(int *)((char *)f + kFacts[k].at) = value;
  }
  return 1;
}

/* The planner's decisions, case by case: the facts, the strategy first,
 * the one after it when its answer does not stand (none: its own ladder
 * decides), and whether it is an error. */
static const struct {
  const char *facts;
  lk_island_strategy first, then;
  lk_status status;
} kCases[] = {
    /* size decides first, whatever the rows remember */
    {"rows=193", LK_ISLAND_SPARSE, LK_ISLAND_NONE, LK_OK},
    {"rows=193 guessable impulses sliding", LK_ISLAND_SPARSE, LK_ISLAND_NONE, LK_OK},
    {"rows=193 row_limit", LK_ISLAND_NONE, LK_ISLAND_NONE, LK_CAPACITY_EXCEEDED},
    {"rows=193 sparse=0", LK_ISLAND_NONE, LK_ISLAND_NONE, LK_CAPACITY_EXCEEDED},
    {"rows=192", LK_ISLAND_STICKING, LK_ISLAND_NONE, LK_OK},
    /* the impulses in hand, when there and not waiting after misses; a
     * miss goes on as if there were none */
    {"guessable impulses", LK_ISLAND_GUESS, LK_ISLAND_STICKING, LK_OK},
    {"guessable impulses guess_wait=3", LK_ISLAND_STICKING, LK_ISLAND_NONE, LK_OK},
    {"guessable", LK_ISLAND_STICKING, LK_ISLAND_NONE, LK_OK},
    {"guessable impulses turning=2", LK_ISLAND_GUESS, LK_ISLAND_HELD, LK_OK},
    /* no friction rows: one LCP */
    {"has_friction=0", LK_ISLAND_LCP, LK_ISLAND_NONE, LK_OK},
    {"has_friction=0 sliding large", LK_ISLAND_LCP, LK_ISLAND_NONE, LK_OK},
    /* at rest: the sticking trial; a turning wheel held first (circle cone,
     * not large); Newton after a cone's edge on a large island, unless the
     * coupled check answered last */
    {"", LK_ISLAND_STICKING, LK_ISLAND_NONE, LK_OK},
    {"turning=2", LK_ISLAND_HELD, LK_ISLAND_STICKING, LK_OK},
    {"turning=2 circle=0", LK_ISLAND_STICKING, LK_ISLAND_NONE, LK_OK},
    {"turning=2 large", LK_ISLAND_STICKING, LK_ISLAND_NONE, LK_OK},
    {"saturated_last large", LK_ISLAND_NEWTON, LK_ISLAND_NONE, LK_OK},
    {"saturated_last large coupled_last", LK_ISLAND_STICKING, LK_ISLAND_NONE, LK_OK},
    {"saturated_last", LK_ISLAND_STICKING, LK_ISLAND_NONE, LK_OK},
    /* sliding: the friction LCP; a sliding pair held first (circle cone);
     * Newton when large; never a guess */
    {"sliding", LK_ISLAND_LCP, LK_ISLAND_NONE, LK_OK},
    {"sliding slipping=2", LK_ISLAND_HELD, LK_ISLAND_LCP, LK_OK},
    {"sliding slipping=2 circle=0", LK_ISLAND_LCP, LK_ISLAND_NONE, LK_OK},
    {"sliding slipping=2 large", LK_ISLAND_NEWTON, LK_ISLAND_NONE, LK_OK},
    {"sliding slipping=2 impulses", LK_ISLAND_HELD, LK_ISLAND_LCP, LK_OK},
};

static void test_planner_cases(void) {
  for (size_t k = 0; k < sizeof kCases / sizeof kCases[0]; k++) {
    lk_island_facts f;
    LK_ASSERT_MSG(facts_of(kCases[k].facts, &f), "case '%s': a word not known", kCases[k].facts);
    lk_island_plan p = lk_island_plan_choose(&f);
    LK_ASSERT_MSG(p.first == kCases[k].first && p.then == kCases[k].then &&
                      p.status == kCases[k].status,
                  "'%s': planned %s then %s (%s), expected %s then %s", kCases[k].facts,
                  lk_island_strategy_name(p.first), lk_island_strategy_name(p.then),
                  lk_status_name(p.status), lk_island_strategy_name(kCases[k].first),
                  lk_island_strategy_name(kCases[k].then));
    LK_ASSERT_MSG(p.reason && p.reason[0], "'%s': no reason given", kCases[k].facts);
    if (p.status == LK_CAPACITY_EXCEEDED)
      LK_ASSERT_MSG(strstr(p.reason, "max_island_rows") != NULL, "the reason names the option: %s",
                    p.reason);
  }
}

/* Every strategy has its own name; each rule its own reason. */
static void test_names_and_reasons(void) {
  for (int s = 0; s < LK_ISLAND_STRATEGIES; s++)
    for (int t = s + 1; t < LK_ISLAND_STRATEGIES; t++)
      LK_ASSERT_MSG(strcmp(lk_island_strategy_name((lk_island_strategy)s),
                           lk_island_strategy_name((lk_island_strategy)t)),
                    "strategies %d and %d share a name", s, t);
  static const char *const words[] = {"",        "sliding",      "sliding slipping",
                                      "turning", "sliding large", "saturated_last large"};
  lk_island_facts f[6];
  for (int k = 0; k < 6; k++) LK_ASSERT_INT_EQ(facts_of(words[k], &f[k]), 1);
  for (int a = 0; a < 6; a++)
    for (int b = a + 1; b < 6; b++)
      LK_ASSERT_MSG(strcmp(lk_island_plan_choose(&f[a]).reason, lk_island_plan_choose(&f[b]).reason),
                    "cases %d and %d give one reason", a, b);
}

/* options.island_strategy: the named strategy first where it applies,
 * then what the planner would have chosen; where it does not apply (a
 * guess with nothing in hand, the held trial off the circle cone, an
 * island beyond the dense size), the planner's own plan. */
static void test_forced(void) {
  static const struct {
    const char *facts;
    lk_island_strategy forced, first, then;
    int named; /* the reason names the option */
  } kForced[] = {
      {"", LK_ISLAND_LCP, LK_ISLAND_LCP, LK_ISLAND_STICKING, 1},
      {"", LK_ISLAND_NSGS, LK_ISLAND_NSGS, LK_ISLAND_STICKING, 1},
      {"", LK_ISLAND_NEWTON, LK_ISLAND_NEWTON, LK_ISLAND_STICKING, 1},
      {"sliding slipping=2", LK_ISLAND_NEWTON, LK_ISLAND_NEWTON, LK_ISLAND_HELD, 1},
      {"sliding slipping=2", LK_ISLAND_STICKING, LK_ISLAND_STICKING, LK_ISLAND_HELD, 1},
      {"guessable impulses", LK_ISLAND_GUESS, LK_ISLAND_GUESS, LK_ISLAND_STICKING, 1},
      {"guessable impulses guess_wait=3", LK_ISLAND_GUESS, LK_ISLAND_GUESS, LK_ISLAND_STICKING, 1},
      {"", LK_ISLAND_GUESS, LK_ISLAND_STICKING, LK_ISLAND_NONE, 0},
      {"sliding slipping=2 circle=0", LK_ISLAND_HELD, LK_ISLAND_LCP, LK_ISLAND_NONE, 0},
      {"rows=193", LK_ISLAND_NSGS, LK_ISLAND_SPARSE, LK_ISLAND_NONE, 0},
  };
  for (size_t k = 0; k < sizeof kForced / sizeof kForced[0]; k++) {
    lk_island_facts f;
    LK_ASSERT_INT_EQ(facts_of(kForced[k].facts, &f), 1);
    f.forced = kForced[k].forced;
    lk_island_plan p = lk_island_plan_choose(&f);
    LK_ASSERT_MSG(p.first == kForced[k].first && p.then == kForced[k].then && p.status == LK_OK,
                  "'%s', %s named: planned %s then %s, expected %s then %s", kForced[k].facts,
                  lk_island_strategy_name(kForced[k].forced), lk_island_strategy_name(p.first),
                  lk_island_strategy_name(p.then), lk_island_strategy_name(kForced[k].first),
                  lk_island_strategy_name(kForced[k].then));
    LK_ASSERT_MSG((strstr(p.reason, "island_strategy") != NULL) == kForced[k].named,
                  "'%s', %s named: reason '%s'", kForced[k].facts,
                  lk_island_strategy_name(kForced[k].forced), p.reason);
  }
}

/* ------------------------------------------------ the reports of a step */

static lk_model *load(const char *text) {
  lk_error err;
  lk_model *m = lk_model_load_string(text, strlen(text), "plan.yaml", NULL, &err);
  LK_ASSERT_MSG(m != NULL, "load: %s", err.message);
  return m;
}

/* A box set on the floor to 6 digits: the first step plans the sticking
 * trial (nothing in hand); once at rest, steps are answered by the
 * impulses in hand; every island settled; rows and contacts as the box's
 * four corners give them. */
static void test_box_set_down(void) {
  lk_model *m = load("world:\n  geoms:\n    - {type: plane}\n"
                     "links:\n  - name: box\n    joint: {type: free}\n    mass: 1.3\n"
                     "    geoms:\n      - {type: box, half_extents: [0.1, 0.07, 0.05]}\n"
                     "initial:\n  - {joint: box, q: [0.2, -0.1, 0.050000, 1, 0, 0, 0]}\n");
  if (!m) return;
  lk_data *d = lk_data_new(m);
  LK_ASSERT_OK(lk_step(m, d), NULL);
  LK_ASSERT_INT_EQ(lk_data_step_report(d)->nislands, 1);
  const lk_island_report *ir = lk_data_island_report(d, 0);
  LK_ASSERT_MSG(ir != NULL, "no island report");
  if (!ir) goto out;
  LK_ASSERT_INT_EQ(ir->contacts, 4);
  LK_ASSERT_INT_EQ(ir->rows, lk_data_step_report(d)->nrows);
  LK_ASSERT_INT_EQ(ir->planned, LK_ISLAND_STICKING);
  LK_ASSERT_MSG(ir->answered != LK_ISLAND_NONE && ir->answered != LK_ISLAND_LCP,
                "the first step answered by %s", lk_island_strategy_name(ir->answered));
  int guessed = 0, unsettled = 0;
  for (int i = 0; i < 200; i++) {
    LK_ASSERT_OK(lk_step(m, d), NULL);
    ir = lk_data_island_report(d, 0);
    guessed += ir->answered == LK_ISLAND_GUESS;
    unsettled += !ir->settled;
    LK_ASSERT_MSG(ir->answered == LK_ISLAND_GUESS || ir->planned != LK_ISLAND_GUESS ||
                      ir->answered == LK_ISLAND_STICKING,
                  "a missed guess on a box at rest answered by %s",
                  lk_island_strategy_name(ir->answered));
  }
  LK_ASSERT_MSG(guessed > 100, "only %d of 200 steps at rest answered by the impulses in hand",
                guessed);
  LK_ASSERT_INT_EQ(unsettled, 0);
  LK_ASSERT_MSG(lk_data_island_report(d, 1) == NULL, "a second island reported");
  LK_ASSERT_MSG(lk_data_island_report(d, -1) == NULL, "island -1 reported");
out:
  lk_data_free(d);
  lk_model_free(m);
}

/* A box launched along the floor at 2 m/s (mu_d 0.3): while it slides the
 * plan says so (never a guess or the sticking trial) and the answer is a
 * sliding one; once stopped, the sticking strategies again. */
static void test_box_launched(void) {
  lk_model *m = load("materials:\n  - {name: m, mu_static: 0.4, mu_dynamic: 0.3}\n"
                     "world:\n  geoms:\n    - {type: plane, material: m}\n"
                     "links:\n  - name: box\n    joint: {type: free}\n    mass: 2\n"
                     "    geoms:\n      - {type: box, half_extents: [0.1, 0.1, 0.05], material: m}\n"
                     "initial:\n  - {joint: box, q: [0, 0, 0.05, 1, 0, 0, 0], v: [2, 0, 0, 0, 0, 0]}\n");
  if (!m) return;
  lk_data *d = lk_data_new(m);
  int sliding_steps = 0, rest_steps = 0;
  for (int i = 0; i < 1000; i++) {
    LK_ASSERT_OK(lk_step(m, d), NULL);
    if (lk_data_step_report(d)->nislands != 1) continue;
    const lk_island_report *ir = lk_data_island_report(d, 0);
    double speed = fabs(lk_data_v(d)[0]);
    if (i > 5 && speed > 0.1) {
      sliding_steps++;
      LK_ASSERT_MSG(ir->planned == LK_ISLAND_HELD || ir->planned == LK_ISLAND_LCP,
                    "t = %g s, sliding at %.3g m/s: planned %s", lk_data_time(d), speed,
                    lk_island_strategy_name(ir->planned));
      LK_ASSERT_MSG(ir->answered == LK_ISLAND_HELD || ir->answered == LK_ISLAND_LCP,
                    "t = %g s, sliding: answered by %s", lk_data_time(d),
                    lk_island_strategy_name(ir->answered));
    }
    if (i > 900) {
      rest_steps++;
      LK_ASSERT_MSG(speed < 1e-6, "t = %g s: still moving at %.3g m/s", lk_data_time(d), speed);
      LK_ASSERT_MSG(ir->planned == LK_ISLAND_GUESS || ir->planned == LK_ISLAND_STICKING,
                    "t = %g s, at rest: planned %s", lk_data_time(d),
                    lk_island_strategy_name(ir->planned));
    }
  }
  /* 2 m/s at 0.3 g stops after 0.68 s */
  LK_ASSERT_MSG(sliding_steps > 500, "only %d sliding steps", sliding_steps);
  LK_ASSERT_INT_EQ(rest_steps, 99);
  lk_data_free(d);
  lk_model_free(m);
}

/* 25 boxes side by side in one row on the floor, touching: one island beyond
 * the dense size, planned sparse and settled; with max_island_rows below
 * its size, the step fails naming the option and the island report says
 * no strategy was tried. */
static void test_large_island(void) {
  char text[8192];
  int len = snprintf(text, sizeof text,
                     "materials:\n  - {name: m, mu_static: 0.6, mu_dynamic: 0.5}\n"
                     "world:\n  geoms:\n    - {type: plane, material: m}\n"
                     "links:\n");
  for (int i = 0; i < 25; i++)
    len += snprintf(text + len, sizeof text - (size_t)len,
                    "  - name: b%d\n    joint: {name: j%d, type: free}\n    mass: 1\n"
                    "    geoms:\n      - {type: box, half_extents: [0.05, 0.05, 0.05], "
                    "material: m}\n",
                    i, i);
  len += snprintf(text + len, sizeof text - (size_t)len, "initial:\n");
  for (int i = 0; i < 25; i++)
    len += snprintf(text + len, sizeof text - (size_t)len,
                    "  - {joint: j%d, q: [%.6f, 0, 0.050000, 1, 0, 0, 0]}\n", i, 0.1 * i);
  lk_model *m = load(text);
  if (!m) return;
  lk_data *d = lk_data_new(m);
  int sparse = 0;
  for (int i = 0; i < 20; i++) {
    LK_ASSERT_OK(lk_step(m, d), NULL);
    const lk_step_report *r = lk_data_step_report(d);
    for (int k = 0; k < r->nislands; k++) {
      const lk_island_report *ir = lk_data_island_report(d, k);
      LK_ASSERT_MSG(ir->settled, "step %d island %d (%s -> %s) unsettled", i + 1, k,
                    lk_island_strategy_name(ir->planned), lk_island_strategy_name(ir->answered));
      if (ir->rows > 192) {
        sparse++;
        LK_ASSERT_INT_EQ(ir->planned, LK_ISLAND_SPARSE);
      } else {
        LK_ASSERT_MSG(ir->planned != LK_ISLAND_SPARSE, "a %d-row island planned sparse", ir->rows);
      }
    }
  }
  LK_ASSERT_MSG(sparse > 0, "no island beyond 192 rows: the scene did not test the sparse plan");
  lk_data_free(d);
  lk_model_free(m);
  /* the same with a limit of 60 rows */
  char limited[8300];
  snprintf(limited, sizeof limited, "options: {max_island_rows: 60}\n%s", text);
  m = load(limited);
  if (!m) return;
  d = lk_data_new(m);
  lk_status st = LK_OK;
  for (int i = 0; i < 20 && st == LK_OK; i++) st = lk_step(m, d);
  LK_ASSERT_INT_EQ(st, LK_CAPACITY_EXCEEDED);
  const lk_step_report *r = lk_data_step_report(d);
  LK_ASSERT_MSG(r->detail && strstr(r->detail, "max_island_rows"), "detail: %s",
                r->detail ? r->detail : "(none)");
  int refused = 0;
  for (int k = 0; k < r->nislands; k++) {
    const lk_island_report *ir = lk_data_island_report(d, k);
    if (ir->rows > 60) {
      refused++;
      LK_ASSERT_INT_EQ(ir->planned, LK_ISLAND_NONE);
      LK_ASSERT_MSG(strstr(ir->reason, "max_island_rows") != NULL, "reason: %s", ir->reason);
    }
  }
  LK_ASSERT_MSG(refused > 0, "no island over the limit reported");
  lk_data_free(d);
  lk_model_free(m);
}

static const lk_test tests[] = {
    {"the planner's decisions: size, guess, at rest, turning, sliding, large", test_planner_cases},
    {"each strategy its name, each rule its reason", test_names_and_reasons},
    {"options island_strategy: the strategy named first where it applies", test_forced},
    {"a box set down: the sticking trial, then the impulses in hand", test_box_set_down},
    {"a box launched: sliding strategies while it slides, sticking ones at rest",
     test_box_launched},
    {"a row of 25 boxes: planned sparse; beyond max_island_rows an error naming it",
     test_large_island},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("island planner", tests); }
