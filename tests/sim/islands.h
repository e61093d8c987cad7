/* How many islands of the last step the planner gave a strategy, or a
 * strategy answered (lk_data_island_report): what the tests ask of a
 * scene's solves, from the public reports. */
#ifndef LK_TESTS_SIM_ISLANDS_H
#define LK_TESTS_SIM_ISLANDS_H

#include "linkage/linkage.h"

static inline int islands_planned(const lk_data *d, lk_island_strategy s) {
  int k = 0, count = 0;
  for (const lk_island_report *ir; (ir = lk_data_island_report(d, k)); k++) count += ir->planned == s;
  return count;
}

static inline int islands_answered(const lk_data *d, lk_island_strategy s) {
  int k = 0, count = 0;
  for (const lk_island_report *ir; (ir = lk_data_island_report(d, k)); k++) count += ir->answered == s;
  return count;
}

/* Islands of the last step answered by an iterative solver (Newton, or
 * NSGS where Newton stalls or is not planned). */
static inline int islands_iterative(const lk_data *d) {
  return islands_answered(d, LK_ISLAND_NEWTON) + islands_answered(d, LK_ISLAND_NSGS);
}

/* Islands of the last step whose answer did not settle. */
static inline int islands_unsettled(const lk_data *d) {
  int k = 0, count = 0;
  for (const lk_island_report *ir; (ir = lk_data_island_report(d, k)); k++) count += !ir->settled;
  return count;
}

#endif
