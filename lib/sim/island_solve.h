/* One island's friction LCP, shared by its strategies (internal to
 * lib/sim): the island in hand, and what solve.c (the flow, the LCP
 * solves, the friction passes), guess.c (the impulses in hand and the
 * kept factor), held.c (the held trial) and cuts.c (sticking with the
 * normals fixed or free) give each other. The planner that decides which
 * runs first is plan.c. */
#ifndef LK_SIM_ISLAND_SOLVE_H
#define LK_SIM_ISLAND_SOLVE_H

#include <math.h>

#include "linkage/lcp.h"
#include "sim/plan.h"
#include "sim/sim_internal.h"

/* |(a, b)| for impulses and velocities, far from overflow: sqrt is several
 * times faster than hypot's scaling, on every contact pair every step. */
static inline double lk_island_norm2(double a, double b) { return sqrt(a * a + b * b); }

#define SLIDE_EPS 1e-9 /* m/s (rad/s): a pair slides above this speed */

/* Relative regularization of every island: redundant contacts (four
 * corners of a box, internal friction that cancels between contacts) make
 * the Delassus matrix singular and the impulses non-unique; a ridge of
 * 3e-10 of the largest diagonal entry picks the least-norm distribution
 * (as the ridge goes to zero, the solution of the regularized convex
 * problem tends to the least-norm one), which is unique, deterministic and
 * physical (equal shares at rest, no internal friction), at a creep of
 * order 3e-10 of the impulse per step (below 1e-9 m in 10^4 steps for the
 * validation scenes). */
#define RIDGE 3e-10
/* The friction LCP proper's ridge on its normal rows, for the same
 * least-norm split of a sliding face's load, then refined away once the
 * passes end (lk_island_refine, solve.c). On the friction rows too it
 * turned a box sliding on its four corners at 1e-7 rad/s under Lemke.
 * Its size from the solves that failed (each rescued by the other solver
 * or CFM, but counted): pick_and_shake.yaml at six timesteps from 0.98 to
 * 1.02 ms anchored and not, 8 at 1e-9, 14 at 3e-9, 2 at 1e-8, none at
 * 3e-8 to 3e-7; bench/motion's heap of 50 boxes (1 000 steps, 0 without
 * the ridge) 2 at 1e-8, none at 3e-8, 9 at 1e-7, none at 3e-7, 7 at 1e-6;
 * at 3e-8 none on the capsule heap and six shipped mechanisms either
 * (3e-7: one on the rover). */
#define RIDGE_FULL 3e-8
#define REFINE_STEPS 2

typedef struct {
  const lk_model *m;
  lk_data *d;
  lk_sim_data *sd;
  const int *rows; /* the island's rows (global indices) */
  int n;
  double cfm;
  int nx;
  int sticking; /* the sticking trial: friction and boxed rows free */
  int fixed;    /* friction bounds from the trial's normal impulses (zfix),
                   constant: a convex box-constrained problem */
  int over;     /* a pair lies beyond its disk by the solver's tolerance
                   only: brought onto it at the end, not re-solved */
  int weighted; /* rw holds the trial's first weights (trial_by_guess) */
  int plain;    /* the last successful solve_once was Dantzig's first try */
  int ntree;    /* trial_by_guess: the island's trees, in sim.gtree */
  int iterative;/* 0, or the strategy (LK_ISLAND_NSGS, LK_ISLAND_NEWTON) to
                   which trial_and_passes handed the island (iterative.c) */
  int refining; /* lk_island_refine's solves: no guess, the last basis */
  int ridged;   /* the impulses in hand are the ridged friction LCP's, by
                   Dantzig (ridged_dantzig) or Lemke */
  int ridged_dantzig;
  int held;     /* the held trial: rows marked in sd->hold are fixed at
                   sd->hval (their friction bound along sd->hdir) */
  lk_island_strategy answer; /* whose answer stands (the island report) */
} island;

/* solve.c */
unsigned char lk_island_row_state(const lk_row *R, double z, double w, double znormal);
void lk_island_ridge_weights(island *is, int use_current);
int lk_island_feasible(const island *is);
lk_status lk_island_solve_once(island *is, lk_sim_report *report);
void lk_island_refine(island *is, lk_sim_report *report);
lk_status lk_island_lemke_expanded(lk_sim_data *sd, int n, const double *M, lk_lcp_report *rep);
/* cuts.c */
int lk_island_fixed_cuts(island *is, lk_sim_report *report, int coupled);
/* guess.c */
int lk_island_guessable(const island *is, int *wait, int *nonzero);
int lk_island_guess(island *is, lk_sim_report *report);
int lk_island_guess_outcome(island *is, int hit);
void lk_island_keep_factor(island *is);
/* held.c */
int lk_island_held_select(island *is, int from_trial, int tangents, int mark);
int lk_island_held_trial(island *is, lk_sim_report *report, int *pass);

#endif
