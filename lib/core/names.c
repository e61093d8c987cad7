/* lk_name_index: open addressing with linear probing over a power-of-two
 * table kept at most half full; FNV-1a hashes. */
#include "core/names.h"

#include <stdint.h>
#include <string.h>

#include "core/internal.h"

static uint64_t hash(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

void lk_name_index_free(lk_name_index *h) {
  if (!h) return;
  lk_free(h->key);
  lk_free(h->val);
  memset(h, 0, sizeof *h);
}

/* The slot holding key, or the empty slot where it would go. */
static size_t slot(const lk_name_index *h, const char *key) {
  size_t mask = h->cap - 1, i = (size_t)hash(key) & mask;
  while (h->key[i] && strcmp(h->key[i], key) != 0) i = (i + 1) & mask;
  return i;
}

static int grow(lk_name_index *h) {
  size_t cap = h->cap ? 2 * h->cap : 16;
  lk_name_index g = {lk_calloc(cap, sizeof *g.key), lk_calloc(cap, sizeof *g.val), cap, 0};
  if (!g.key || !g.val) {
    lk_free(g.key);
    lk_free(g.val);
    return 0;
  }
  for (size_t i = 0; i < h->cap; i++)
    if (h->key[i]) {
      size_t j = slot(&g, h->key[i]);
      g.key[j] = h->key[i];
      g.val[j] = h->val[i];
      g.n++;
    }
  lk_free(h->key);
  lk_free(h->val);
  *h = g;
  return 1;
}

int lk_name_index_put(lk_name_index *h, const char *key, int value, int *existing) {
  if (2 * (h->n + 1) > h->cap && !grow(h)) return -1;
  size_t i = slot(h, key);
  if (h->key[i]) {
    if (existing) *existing = h->val[i];
    return 0;
  }
  h->key[i] = key;
  h->val[i] = value;
  h->n++;
  return 1;
}

int lk_name_index_get(const lk_name_index *h, const char *key) {
  if (!h || !h->cap || !key) return -1;
  size_t i = slot(h, key);
  return h->key[i] ? h->val[i] : -1;
}
