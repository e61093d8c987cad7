/* The collision layer's part of lk_data (see data/data_impl.h).
 *
 * Everything that changes lives in the arena: the contacts of the last two
 * passes (one is the previous pass that the current one is matched
 * against; which is which is an index in the arena, so a copied data stays
 * consistent), the raw narrow-phase output, the sort keys, the geoms'
 * world poses and boxes, and the broad phase's sorted entries, kept from
 * pass to pass so that sorting them again is an insertion sort over nearly
 * sorted data. The sizes below are constants of the model. */
#ifndef LK_COL_DATA_H
#define LK_COL_DATA_H

#include <stdint.h>

#include "data/arena.h"
#include "linkage/collision.h"
#include "linkage/model.h"

/* A narrow-phase point before sorting and matching. */
typedef struct {
  int ga, gb;
  lk_contact_point pt;
} lk_col_raw;

/* Canonical sort key of a contact. */
typedef struct {
  int ga, gb;
  unsigned feature;
  int idx; /* into the raw array */
} lk_col_key;

/* One slab a geom's box covers, sorted by (slab, lo, geom). */
typedef struct {
  int64_t slab;
  double lo; /* the box's low end on the sweep axis */
  int geom;
} lk_col_entry;

typedef struct {
  uint64_t next_id;
  int cur;      /* buffer holding the last pass's contacts */
  int ncontact; /* contacts in buf[cur] */
  int nfound;   /* found by the last pass (> ncontact on overflow) */
  int sweep, slab, axes_valid;
  int nentry;   /* sorted entries kept from the last pass */
  lk_collision_stats stats;
} lk_col_state;

typedef struct {
  /* model constants */
  int ngeom, capacity, entry_cap;
  int nplane, nbig, nsmall;
  double slab_h; /* slab height */

  /* in the arena */
  lk_col_state *st;
  lk_contact *buf[2];
  lk_col_raw *raw;
  lk_col_key *key, *key_tmp;
  lk_transform *xg;  /* per geom: world pose */
  double *aabb;      /* per bounded geom: lo xyz, hi xyz */
  double *rbound;    /* per geom: bounding radius (INFINITY: plane), a model constant */
  int *body;         /* per geom: link after merging fixed joints (0 world) */
  int *pbody;        /* per geom: the parent body it must not touch, -1 */
  int *plane, *big, *small; /* geom lists: planes, large bounded geoms
                               (tested against everything), the rest (swept) */
  int64_t *slab0, *slab1;   /* per geom: slab range of its box this pass */
  unsigned char *mask;      /* per geom: slabs of its range already entered */
  lk_col_entry *entry, *entry_new, *entry_tmp;
} lk_col_data;

/* Model-sized arrays into a, those sized by the contact capacity cap
 * into c (the data's contact block, which grows: data/data_impl.h). */
void lk_col_data_layout(const lk_model *m, lk_col_data *cd, lk_arena *a, lk_arena *c, int cap);
void lk_col_data_reset(const lk_model *m, lk_col_data *cd);

/* Contacts of the last pass (internal access for the constraint layer). */
static inline lk_contact *lk_col_contacts(lk_col_data *cd) { return cd->buf[cd->st->cur]; }

/* broadphase.c: call pair(ctx, g1, g2) once for every pair of geoms whose
 * boxes (grown by their margins) overlap and that may collide. */
typedef void (*lk_col_pair_fn)(void *ctx, int g1, int g2);
void lk_col_broadphase(const lk_model *m, lk_col_data *cd, lk_col_pair_fn pair, void *ctx);

/* The filter of lk_collide_filter, from the per-geom tables. */
int lk_col_pair_allowed(const lk_model *m, const lk_col_data *cd, int g1, int g2);

#endif
