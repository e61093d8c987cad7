/* Allocation through a replaceable hook, so tests (and embedders) can count
 * or redirect every allocation the library makes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"

static void *default_alloc(size_t size, void *user) {
  (void)user;
  return malloc(size);
}
static void *default_realloc(void *p, size_t size, void *user) {
  (void)user;
  return realloc(p, size);
}
static void default_free(void *p, void *user) {
  (void)user;
  free(p);
}

static lk_allocator g_alloc = {default_alloc, default_realloc, default_free, NULL};

void lk_set_allocator(const lk_allocator *a) {
  if (a && a->alloc && a->realloc && a->free) {
    g_alloc = *a;
  } else {
    g_alloc.alloc = default_alloc;
    g_alloc.realloc = default_realloc;
    g_alloc.free = default_free;
    g_alloc.user = NULL;
  }
}

void *lk_malloc(size_t size) { return g_alloc.alloc(size ? size : 1, g_alloc.user); }

void *lk_calloc(size_t n, size_t size) {
  if (size && n > SIZE_MAX / size) return NULL;
  size_t bytes = n * size;
  void *p = lk_malloc(bytes);
  if (p) memset(p, 0, bytes ? bytes : 1);
  return p;
}

void *lk_realloc(void *ptr, size_t size) {
  return g_alloc.realloc(ptr, size ? size : 1, g_alloc.user);
}

void lk_free(void *ptr) {
  if (ptr) g_alloc.free(ptr, g_alloc.user);
}

char *lk_strdup(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *d = lk_malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}
