/* The island planner: which strategy solves an island first, and why.
 *
 * One pure function of what the island is and what it remembers from the
 * last step (the facts below, gathered by solve.c). It decides; the
 * strategies (solve.c, direct.c, iterative.c) only carry the decision out.
 * The rules, as a table: docs/contact.md, "The island planner". */
#ifndef LK_SIM_PLAN_H
#define LK_SIM_PLAN_H

#include "linkage/sim.h"

typedef struct {
  /* size */
  int rows;       /* the island's rows */
  int dense_cap;  /* the most rows a dense island has (max_island_rows, or 192) */
  int row_limit;  /* 1: the user set max_island_rows, so beyond it is an error */
  int sparse;     /* the sparse solvers are available */
  /* the rows and their memory (dense islands only) */
  int guessable;      /* every row a persisting static contact's, friction
                         among them, impulses in hand */
  int guess_wait;     /* steps its guesses still wait (they missed before) */
  int impulses;       /* the impulses in hand are not all zero */
  int has_friction;   /* friction or dry-friction (box) rows */
  int sliding;        /* a contact ended the last step dynamic */
  int coupled_last;   /* the last answer came from the coupled check */
  int saturated_last; /* a loaded contact's friction ended the last step
                         on its cone's edge */
  int large;          /* NSGS pays for it when something slips: many
                         friction pairs, or a long chain's links */
  int circle;         /* the circle cone (held trials need it) */
  int turning;        /* rows the held trial would hold at rest: rolling
                         or twist rows of contacts that turn */
  int slipping;       /* tangent pairs the held trial would hold where
                         something slides: dynamic contacts' against
                         their slip */
  lk_island_strategy forced; /* options.island_strategy (NONE: planned) */
} lk_island_facts;

typedef struct {
  lk_status status;            /* LK_OK, or LK_CAPACITY_EXCEEDED */
  lk_island_strategy first;    /* tried first */
  const char *reason;          /* why */
  lk_island_strategy then;     /* if first's answer does not stand (a guess
                                  that misses, a held trial that fails), or
                                  LK_ISLAND_NONE: first's own ladder decides */
} lk_island_plan;

lk_island_plan lk_island_plan_choose(const lk_island_facts *f);

#endif
