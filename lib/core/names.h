/* A hashed index of names to small integers, so that looking a name up
 * among n (links, joints, "kind:name" keys) costs O(1), not O(n): a 10 000
 * link chain was 68 % strcmp in `linkage check`. Keys are not copied: the
 * caller keeps them alive and unchanged while the index is used. Not
 * installed. */
#ifndef LK_CORE_NAMES_H
#define LK_CORE_NAMES_H

#include <stddef.h>

typedef struct {
  const char **key; /* cap slots, NULL when empty */
  int *val;
  size_t cap, n;
} lk_name_index;

/* A zeroed lk_name_index is an empty one; so is one after _free. */
void lk_name_index_free(lk_name_index *h);
/* Add key -> value unless key is there already (the first one stays, as a
 * first-match search would find it). Returns 1 added, 0 already there
 * (*existing, if given, receives its value), -1 out of memory. */
int lk_name_index_put(lk_name_index *h, const char *key, int value, int *existing);
/* The value of key, or -1 when absent. */
int lk_name_index_get(const lk_name_index *h, const char *key);

#endif
