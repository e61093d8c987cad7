/* Shared by the files of the tests/lcp program. */
#ifndef LK_TESTS_LCP_TEST_H
#define LK_TESTS_LCP_TEST_H

#include <math.h>

#include "linkage/error.h"

void lk_test_register_lcp_io(void);
void lk_test_register_nsgs(void);
void lk_test_register_prod(void);
void lk_test_register_newton(void);

static lk_error *const lk_no_error = NULL;

static inline int lk_all_finite_test(const double *x, int n) {
  for (int i = 0; i < n; i++)
    if (!isfinite(x[i])) return 0;
  return 1;
}

#endif
