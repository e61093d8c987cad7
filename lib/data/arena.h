/* One block per lk_data. Each layer lays out its arrays with lk_arena_take
 * twice: first with base == NULL to measure, then with the real block to
 * assign pointers. Everything mutable lives inside, nothing outside points
 * into another data, so copying a data is copying its block. */
#ifndef LK_DATA_ARENA_H
#define LK_DATA_ARENA_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  char *base;  /* NULL while measuring */
  size_t used; /* bytes laid out so far */
} lk_arena;

/* Reserve bytes at a 64-byte (cache line) boundary. Returns NULL while
 * measuring. */
static inline void *lk_arena_take(lk_arena *a, size_t bytes) {
  size_t off = (a->used + 63u) & ~(size_t)63u;
  a->used = off + bytes;
  return a->base ? (void *)(a->base + off) : NULL;
}

#define LK_ARENA_ARRAY(a, T, n) ((T *)lk_arena_take((a), sizeof(T) * (size_t)((n) > 0 ? (n) : 0)))

#endif
