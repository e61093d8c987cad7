/* The island planner (plan.h): the rules, first match wins. Each rule is
 * the reason it gives; the figures behind them are in docs/contact.md,
 * "The island planner", and at the strategies they choose (solve.c). */
#include <stddef.h>

#include "sim/plan.h"

typedef struct {
  int (*applies)(const lk_island_facts *f);
  lk_island_strategy first;
  lk_island_strategy then; /* LK_ISLAND_NONE: replanned without the guess */
  const char *reason;
} rule;

static int beyond_limit(const lk_island_facts *f) {
  return f->rows > f->dense_cap && (f->row_limit || !f->sparse);
}
static int beyond_dense(const lk_island_facts *f) { return f->rows > f->dense_cap; }
static int guess_ready(const lk_island_facts *f) {
  return f->guessable && f->guess_wait == 0 && f->impulses;
}
static int frictionless(const lk_island_facts *f) { return !f->has_friction; }
static int edge_large(const lk_island_facts *f) {
  return !f->sliding && !f->coupled_last && f->saturated_last && f->large;
}
static int turning(const lk_island_facts *f) {
  return !f->sliding && f->circle && !f->large && f->turning > 0;
}
static int at_rest(const lk_island_facts *f) { return !f->sliding; }
static int slides_large(const lk_island_facts *f) { return f->sliding && f->large; }
static int slides_held(const lk_island_facts *f) { return f->sliding && f->circle && f->slipping > 0; }
static int always(const lk_island_facts *f) { (void)f; return 1; }
/* options.island_strategy, where it applies: a guess needs impulses in
 * hand on persisting contacts, the held trial the circle cone */
static int forced(const lk_island_facts *f) {
  if (f->forced == LK_ISLAND_GUESS) return f->guessable && f->impulses;
  if (f->forced == LK_ISLAND_HELD) return f->circle;
  return f->forced != LK_ISLAND_NONE;
}

/* LK_ISLAND_NONE as `first`: a capacity error. */
static const rule kRules[] = {
    {beyond_limit, LK_ISLAND_NONE, LK_ISLAND_NONE,
     "more rows than options max_island_rows (or no sparse solver)"},
    {beyond_dense, LK_ISLAND_SPARSE, LK_ISLAND_NONE,
     "more rows than a dense island holds: the sparse solvers"},
    {forced, LK_ISLAND_NONE, LK_ISLAND_NONE, "options island_strategy names it"},
    {guess_ready, LK_ISLAND_GUESS, LK_ISLAND_NONE,
     "persisting static contacts with impulses in hand: verify them before forming a matrix"},
    {frictionless, LK_ISLAND_LCP, LK_ISLAND_NONE, "no friction rows: one LCP"},
    {edge_large, LK_ISLAND_NEWTON, LK_ISLAND_NONE,
     "a large island whose friction ended the last step on a cone's edge: the sticking "
     "trial would break it again; Newton from the last step's impulses"},
    {turning, LK_ISLAND_HELD, LK_ISLAND_STICKING,
     "a contact turns: its rolling rows held at their bound, the rest sticks"},
    {at_rest, LK_ISLAND_STICKING, LK_ISLAND_NONE,
     "every contact static: the sticking trial (least-norm loads) first"},
    {slides_large, LK_ISLAND_NEWTON, LK_ISLAND_NONE,
     "a contact slides in a large island: Newton from the last step's impulses (NSGS "
     "from its iterate where it stalls)"},
    {slides_held, LK_ISLAND_HELD, LK_ISLAND_LCP,
     "a contact slides: its friction held at mu_dynamic against the slip, the rest sticks"},
    {always, LK_ISLAND_LCP, LK_ISLAND_NONE,
     "a contact slides: the friction LCP from the last step's states"},
};

lk_island_plan lk_island_plan_choose(const lk_island_facts *f) {
  const size_t nrule = sizeof kRules / sizeof kRules[0];
  size_t k = 0;
  while (k + 1 < nrule && !kRules[k].applies(f)) k++;
  const rule *r = &kRules[k];
  lk_island_plan p = {LK_OK, r->first, r->reason, r->then};
  if (r->applies == forced) {
    /* then: the plan without the option */
    lk_island_facts g = *f;
    g.forced = LK_ISLAND_NONE;
    if (f->forced == LK_ISLAND_GUESS) g.guessable = 0;
    p.first = f->forced;
    p.then = lk_island_plan_choose(&g).first;
    return p;
  }
  if (r->first == LK_ISLAND_NONE) p.status = LK_CAPACITY_EXCEEDED;
  if (r->first == LK_ISLAND_GUESS) {
    /* a miss: the island as if it had no impulses in hand */
    lk_island_facts g = *f;
    g.guessable = 0;
    p.then = lk_island_plan_choose(&g).first;
  }
  return p;
}

static const char *const kNames[LK_ISLAND_STRATEGIES] = {
    [LK_ISLAND_NONE] = "none",
    [LK_ISLAND_GUESS] = "guess",
    [LK_ISLAND_STICKING] = "sticking trial",
    [LK_ISLAND_HELD] = "held trial",
    [LK_ISLAND_FIXED_NORMALS] = "fixed normals",
    [LK_ISLAND_COUPLED] = "coupled check",
    [LK_ISLAND_LCP] = "friction LCP",
    [LK_ISLAND_NSGS] = "NSGS",
    [LK_ISLAND_NEWTON] = "Newton",
    [LK_ISLAND_SPARSE] = "sparse",
    [LK_ISLAND_SPARSE_TRIAL] = "sparse trial",
};

const char *lk_island_strategy_name(lk_island_strategy s) {
  return s >= 0 && s < LK_ISLAND_STRATEGIES ? kNames[s] : "unknown";
}
