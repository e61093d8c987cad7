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
  /* optional, while measuring: each array's offset and size, in layout
   * order (lk_data_grow_contacts pairs the old block's arrays with the
   * new one's) */
  size_t *rec;
  int nrec, maxrec;
} lk_arena;

/* Reserve bytes at a 64-byte (cache line) boundary. Returns NULL while
 * measuring. */
static inline void *lk_arena_take(lk_arena *a, size_t bytes) {
  size_t off = (a->used + 63u) & ~(size_t)63u;
  a->used = off + bytes;
  if (a->rec) {
    if (a->nrec < a->maxrec) {
      a->rec[2 * a->nrec] = off;
      a->rec[2 * a->nrec + 1] = bytes;
    }
    a->nrec++;
  }
  return a->base ? (void *)(a->base + off) : NULL;
}

#define LK_ARENA_ARRAY(a, T, n) ((T *)lk_arena_take((a), sizeof(T) * (size_t)((n) > 0 ? (n) : 0)))

#endif
