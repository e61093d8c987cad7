/* main() for every test program: see harness.h. */
#include "harness.h"

#include "linkage/error.h"

#include <CUnit/Basic.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void lk_test_suite(const char *suite_name, const lk_test *tests) {
  CU_pSuite s = CU_add_suite(suite_name, NULL, NULL);
  if (!s) {
    fprintf(stderr, "harness: cannot add suite %s: %s\n", suite_name, CU_get_error_msg());
    exit(2);
  }
  for (const lk_test *t = tests; t->name; t++) {
    if (!CU_add_test(s, t->name, t->fn)) {
      fprintf(stderr, "harness: cannot add test %s: %s\n", t->name, CU_get_error_msg());
      exit(2);
    }
  }
}

static const char *path_under(const char *env, const char *fallback, const char *rel) {
  static char buf[4][4096];
  static int slot;
  const char *base = getenv(env);
  if (!base || !*base) base = fallback;
  char *out = buf[slot++ & 3];
  snprintf(out, sizeof buf[0], "%s/%s", base, rel);
  return out;
}

const char *lk_test_data(const char *relative) {
  return path_under("LK_TEST_DATA", "tests/data", relative);
}

const char *lk_test_srcpath(const char *relative) {
  return path_under("LK_TOP_SRCDIR", ".", relative);
}

const char *lk_test_errmsg(const void *err) {
  return err ? ((const lk_error *)err)->message : "";
}

void lk_test_fail(int line, const char *file, const char *fmt, ...) {
  /* CUnit keeps the condition string of a failure and prints it in the
   * report, so format it into storage that outlives the test. */
  char *msg = malloc(1024);
  if (!msg) {
    CU_assertImplementation(CU_FALSE, (unsigned)line, "check failed (no memory for message)",
                            file, "", CU_FALSE);
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, 1024, fmt, ap);
  va_end(ap);
  fprintf(stderr, "%s:%d: FAILED: %s\n", file, line, msg);
  CU_assertImplementation(CU_FALSE, (unsigned)line, msg, file, "", CU_FALSE);
  /* msg is deliberately kept: CUnit may reference it until the report. */
}

int main(int argc, char **argv) {
  if (CU_initialize_registry() != CUE_SUCCESS) {
    fprintf(stderr, "harness: %s\n", CU_get_error_msg());
    return 2;
  }
  lk_test_register();
  CU_basic_set_mode(argc > 1 && strcmp(argv[1], "-q") == 0 ? CU_BRM_SILENT : CU_BRM_VERBOSE);
  CU_basic_run_tests();
  unsigned run = CU_get_number_of_tests_run();
  unsigned failed = CU_get_number_of_tests_failed();
  unsigned asserts_failed = CU_get_number_of_failures();
  CU_basic_show_failures(CU_get_failure_list());
  printf("\nlk-result: %u passed, %u failed\n", run - failed, failed);
  CU_cleanup_registry();
  return (failed || asserts_failed) ? 1 : 0;
}

long lk_test_allocs;

void *lk_test_count_alloc(size_t n, void *u) {
  (void)u;
  lk_test_allocs++;
  return malloc(n);
}

void *lk_test_count_realloc(void *p, size_t n, void *u) {
  (void)u;
  lk_test_allocs++;
  return realloc(p, n);
}

void lk_test_count_free(void *p, void *u) {
  (void)u;
  free(p);
}
