/* Status names, error formatting and the allocator hook. */
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "harness.h"
#include "linkage/linkage.h"

static void test_every_status_has_a_distinct_name(void) {
  for (int s = 0; s < LK_STATUS_COUNT; s++) {
    const char *msg = lk_strerror((lk_status)s);
    const char *name = lk_status_name((lk_status)s);
    LK_ASSERT_MSG(msg && *msg && strcmp(msg, "unknown status") != 0, "status %d has no message", s);
    LK_ASSERT_MSG(name && strncmp(name, "LK_", 3) == 0, "status %d has no name", s);
    for (int t = 0; t < s; t++)
      LK_ASSERT_MSG(strcmp(msg, lk_strerror((lk_status)t)) != 0, "statuses %d and %d share a message", s, t);
  }
  CU_ASSERT_STRING_EQUAL(lk_strerror((lk_status)999), "unknown status");
  CU_ASSERT_STRING_EQUAL(lk_strerror((lk_status)-1), "unknown status");
  CU_ASSERT_STRING_EQUAL(lk_status_name(LK_SINGULAR), "LK_SINGULAR");
}

static void test_error_set_and_format(void) {
  lk_error e;
  lk_error_clear(&e);
  CU_ASSERT_EQUAL(e.status, LK_OK);
  CU_ASSERT_EQUAL(lk_error_set(&e, LK_INVALID_ARGUMENT, "mass %g must be positive", -1.0),
                  LK_INVALID_ARGUMENT);
  char buf[256];
  CU_ASSERT_STRING_EQUAL(lk_error_format(&e, buf, sizeof buf), "mass -1 must be positive");
  lk_error_set_at(&e, LK_SCHEMA_ERROR, "arm.yaml", 12, 7, "unknown key '%s'", "mas");
  CU_ASSERT_STRING_EQUAL(lk_error_format(&e, buf, sizeof buf), "arm.yaml:12:7: unknown key 'mas'");
  /* NULL error pointers are accepted everywhere. */
  CU_ASSERT_EQUAL(lk_error_set(NULL, LK_IO_ERROR, "x"), LK_IO_ERROR);
  /* Overlong messages are truncated, never overflow. */
  char big[2000];
  memset(big, 'a', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  lk_error_set(&e, LK_PARSE_ERROR, "%s", big);
  CU_ASSERT_EQUAL(strlen(e.message), LK_ERROR_MESSAGE_MAX - 1);
}

static size_t g_allocs, g_frees;
static void *count_alloc(size_t n, void *u) {
  (void)u;
  g_allocs++;
  return malloc(n);
}
static void *count_realloc(void *p, size_t n, void *u) {
  (void)u;
  g_allocs++;
  return realloc(p, n);
}
static void count_free(void *p, void *u) {
  (void)u;
  g_frees++;
  free(p);
}

static void test_allocator_hook_sees_every_allocation(void) {
  lk_allocator a = {count_alloc, count_realloc, count_free, NULL};
  lk_set_allocator(&a);
  g_allocs = g_frees = 0;
  char *s = lk_strdup("linkage");
  double *x = lk_calloc(10, sizeof *x);
  CU_ASSERT_PTR_NOT_NULL_FATAL(x);
  for (int i = 0; i < 10; i++) CU_ASSERT_EQUAL(x[i], 0.0);
  CU_ASSERT_PTR_NULL(lk_calloc((size_t)-1, 16)); /* overflow is refused, not wrapped */
  lk_free(s);
  lk_free(x);
  lk_free(NULL);
  LK_ASSERT_INT_EQ(g_allocs, 2);
  LK_ASSERT_INT_EQ(g_frees, 2);
  lk_set_allocator(NULL);
}

static const lk_test tests[] = {
    {"every status has a distinct name", test_every_status_has_a_distinct_name},
    {"error set and format", test_error_set_and_format},
    {"allocator hook sees every allocation", test_allocator_hook_sees_every_allocation},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("core", tests); }
