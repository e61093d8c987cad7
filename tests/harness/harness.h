/* Test harness shared by every CUnit test program in tests/.
 *
 * A test program defines lk_test_register(), which adds its suites with
 * lk_test_suite(); harness.c provides main(), runs everything and ends the
 * output with "lk-result: P passed, F failed" (tests, not assertions), which
 * tests/summary.sh adds up over all programs. */
#ifndef LK_TEST_HARNESS_H
#define LK_TEST_HARNESS_H

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>

typedef struct {
  const char *name;
  void (*fn)(void);
} lk_test;

/* Defined by each test program. */
void lk_test_register(void);

/* Add a suite; tests is terminated by {NULL, NULL}. */
void lk_test_suite(const char *suite_name, const lk_test *tests);

/* Path of a file under tests/data (from $LK_TEST_DATA, set by make check, or
 * the source tree default). Returns a static buffer. */
const char *lk_test_data(const char *relative);

/* Path of a file under the source tree top (from $LK_TOP_SRCDIR). */
const char *lk_test_srcpath(const char *relative);

/* Counting the library's allocations (linkage/error.h, lk_set_allocator):
 *   lk_allocator a = LK_TEST_COUNTING_ALLOCATOR;
 *   lk_set_allocator(&a); lk_test_allocs = 0; ...steps...; lk_set_allocator(NULL);
 * then lk_test_allocs is how many mallocs and reallocs the steps made. */
extern long lk_test_allocs;
void *lk_test_count_alloc(size_t n, void *u);
void *lk_test_count_realloc(void *p, size_t n, void *u);
void lk_test_count_free(void *p, void *u);
#define LK_TEST_COUNTING_ALLOCATOR \
  { lk_test_count_alloc, lk_test_count_realloc, lk_test_count_free, NULL }

/* Report a failed check with the values that made it fail. */
void lk_test_fail(int line, const char *file, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The message of an error, "" for NULL (keeps -Waddress quiet in macros). */
const char *lk_test_errmsg(const void *err);

/* |a - b| <= tol, printing both values when it fails. */
/* A checking helper's verdict: the helper notes lk_test_failures() on
 * entry and returns whether no assertion failed since; the test function
 * asserts it (CU_ASSERT_TRUE(helper(...))), so the claim stands where the
 * test states it and the helper's own messages say what broke. */
static inline unsigned lk_test_failures(void) { return CU_get_number_of_failures(); }

#define LK_ASSERT_NEAR(a, b, tol)                                              \
  do {                                                                         \
    double lk_a_ = (double)(a), lk_b_ = (double)(b), lk_t_ = (double)(tol);    \
    if (!(fabs(lk_a_ - lk_b_) <= lk_t_))                                       \
      lk_test_fail(__LINE__, __FILE__, "%s = %.17g, %s = %.17g, |diff| %.3g > %.3g", \
                   #a, lk_a_, #b, lk_b_, fabs(lk_a_ - lk_b_), lk_t_);          \
    else                                                                       \
      CU_PASS(#a " near " #b);                                                 \
  } while (0)

/* |a - b| <= rtol * max(|a|, |b|, floor). */
#define LK_ASSERT_REL(a, b, rtol, floor)                                       \
  do {                                                                         \
    double lk_a_ = (double)(a), lk_b_ = (double)(b);                           \
    double lk_s_ = fmax(fmax(fabs(lk_a_), fabs(lk_b_)), (double)(floor));      \
    if (!(fabs(lk_a_ - lk_b_) <= (double)(rtol) * lk_s_))                      \
      lk_test_fail(__LINE__, __FILE__, "%s = %.17g, %s = %.17g, rel diff %.3g > %.3g", \
                   #a, lk_a_, #b, lk_b_, fabs(lk_a_ - lk_b_) / lk_s_, (double)(rtol)); \
    else                                                                       \
      CU_PASS(#a " rel-near " #b);                                             \
  } while (0)

/* Integer equality with both values shown. */
#define LK_ASSERT_INT_EQ(a, b)                                                 \
  do {                                                                         \
    long lk_a_ = (long)(a), lk_b_ = (long)(b);                                 \
    if (lk_a_ != lk_b_)                                                        \
      lk_test_fail(__LINE__, __FILE__, "%s = %ld, expected %s = %ld", #a, lk_a_, #b, lk_b_); \
    else                                                                       \
      CU_PASS(#a " == " #b);                                                   \
  } while (0)

/* A library call returned LK_OK; otherwise show the status name and message. */
#define LK_ASSERT_OK(call, errp)                                               \
  do {                                                                         \
    lk_status lk_s_ = (call);                                                  \
    if (lk_s_ != LK_OK)                                                        \
      lk_test_fail(__LINE__, __FILE__, "%s -> %s: %s", #call, lk_strerror(lk_s_), \
                   lk_test_errmsg(errp));                             \
    else                                                                       \
      CU_PASS(#call);                                                          \
  } while (0)

/* A condition, with a formatted explanation when it fails. */
#define LK_ASSERT_MSG(cond, ...)                                               \
  do {                                                                         \
    if (!(cond))                                                               \
      lk_test_fail(__LINE__, __FILE__, __VA_ARGS__);                           \
    else                                                                       \
      CU_PASS(#cond);                                                          \
  } while (0)

#endif
