/* Broad phase: axis-aligned boxes, sorted and swept in slabs.
 *
 * Plain sort-and-sweep along one axis (Baraff, "Dynamic Simulation of
 * Non-penetrating Rigid Bodies", 1992; Ericson 7.5) costs O(n sqrt n) on
 * the scenes that matter here: n bodies spread over a floor overlap, on any
 * single axis, with the whole row of bodies sharing that coordinate. So the
 * space is first cut into slabs along a second axis, of height a few times
 * a typical geom size (a model constant), and every slab is swept on its
 * own: each geom enters every slab its box touches (at most a handful), a
 * pair is reported only in the first slab both share, and the sweep inside
 * a slab meets O(1) neighbours per geom. The sweep axis and the slab axis
 * are the two of widest spread of the geoms' centres, kept from pass to
 * pass unless another axis becomes clearly wider.
 *
 * The entries are sorted by (slab, low end of the box on the sweep axis,
 * geom), a total order, so the result does not depend on the previous
 * order, only the cost does: the entries stay in the arena in last pass's
 * order, and an insertion sort brings them up to date in about O(n) when
 * bodies moved little (new entries, from geoms that crossed into another
 * slab, are sorted apart and merged). When the insertion sort would move
 * too much (the first pass, after a jump or an axis change), a merge sort
 * does it in O(n log n) instead.
 *
 * Geoms much larger than the slab height are tested against every geom
 * directly, planes against every geom's box; both lists are short in
 * practice. */
#include <math.h>
#include <string.h>

#include "collision/col_data.h"
#include "collision/shape.h"
#include "model/model_impl.h"

static int entry_less(const lk_col_entry *a, const lk_col_entry *b) {
  if (a->slab != b->slab) return a->slab < b->slab;
  if (a->lo != b->lo) return a->lo < b->lo;
  return a->geom < b->geom;
}

/* Bottom-up merge sort of e[0..n-1] with scratch tmp[n]. */
static void merge_sort(lk_col_entry *e, lk_col_entry *tmp, int n) {
  for (int w = 1; w < n; w *= 2) {
    for (int lo = 0; lo < n; lo += 2 * w) {
      int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      int i = lo, j = mid, k = lo;
      while (i < mid && j < hi) tmp[k++] = entry_less(&e[j], &e[i]) ? e[j++] : e[i++];
      while (i < mid) tmp[k++] = e[i++];
      while (j < hi) tmp[k++] = e[j++];
    }
    memcpy(e, tmp, (size_t)n * sizeof *e);
  }
}

/* Insertion sort that gives up after `budget` moves; returns the moves
 * made, or -1 when it gave up (e is then a permutation, unsorted). */
static long insertion_sort(lk_col_entry *e, int n, long budget) {
  long moves = 0;
  for (int i = 1; i < n; i++) {
    lk_col_entry x = e[i];
    int j = i;
    while (j > 0 && entry_less(&x, &e[j - 1])) {
      e[j] = e[j - 1];
      j--;
      if (++moves > budget) {
        e[j] = x;
        return -1;
      }
    }
    e[j] = x;
  }
  return moves;
}

static int64_t slab_of(double x, double h) {
  double s = floor(x / h);
  if (s > 1e18) s = 1e18;
  if (s < -1e18) s = -1e18;
  return (int64_t)s;
}

static int boxes_overlap(const double *a, const double *b) {
  return a[0] <= b[3] && b[0] <= a[3] && a[1] <= b[4] && b[1] <= a[4] && a[2] <= b[5] &&
         b[2] <= a[5];
}

/* The box below the plane's margin? (lowest point of the box along the
 * plane normal within the plane's margin of the plane). */
static int plane_box(const lk_transform *P, double margin, const double *box) {
  lk_vec3 n = lk_m3_col(&P->R, 2);
  double nn[3] = {n.x, n.y, n.z}, d = -lk_v3_dot(n, P->p);
  for (int k = 0; k < 3; k++) {
    double c = 0.5 * (box[k] + box[k + 3]), e = 0.5 * (box[k + 3] - box[k]);
    d += nn[k] * c - fabs(nn[k]) * e;
  }
  return d <= margin;
}

static void choose_axes(lk_col_data *cd) {
  lk_col_state *st = cd->st;
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (int i = 0; i < cd->nsmall; i++) {
    const double *b = cd->aabb + 6 * cd->small[i];
    for (int k = 0; k < 3; k++) {
      double c = 0.5 * (b[k] + b[k + 3]);
      lo[k] = fmin(lo[k], c);
      hi[k] = fmax(hi[k], c);
    }
  }
  double spread[3];
  for (int k = 0; k < 3; k++) spread[k] = cd->nsmall > 0 ? hi[k] - lo[k] : 0;
  int order[3] = {0, 1, 2};
  for (int i = 0; i < 3; i++) /* widest first, lower axis on ties */
    for (int j = i + 1; j < 3; j++)
      if (spread[order[j]] > spread[order[i]]) {
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
  int keep = st->axes_valid;
  if (keep) {
    /* Hysteresis: a factor 1.5 before switching. */
    int other = 3 - st->sweep - st->slab;
    if (spread[other] > 1.5 * spread[st->slab] || spread[st->slab] > 1.5 * spread[st->sweep] ||
        spread[other] > 1.5 * spread[st->sweep])
      keep = 0;
  }
  if (!keep) {
    st->sweep = order[0];
    st->slab = order[1];
    st->axes_valid = 1;
    st->nentry = 0; /* the old order means nothing on other axes */
  }
}

void lk_col_broadphase(const lk_model *m, lk_col_data *cd, lk_col_pair_fn pair, void *ctx) {
  lk_col_state *st = cd->st;
  const lk_geom_rec *G = m->geom;
  long long checks = 0;

  /* Boxes of every bounded geom. */
  for (int pass = 0; pass < 2; pass++) {
    int n = pass ? cd->nbig : cd->nsmall;
    const int *list = pass ? cd->big : cd->small;
    for (int i = 0; i < n; i++) {
      int g = list[i];
      lk_shape s = {G[g].spec.type, {G[g].spec.size[0], G[g].spec.size[1], G[g].spec.size[2]},
                    cd->xg[g], G[g].spec.mesh};
      lk_col_aabb(&s, G[g].spec.margin, cd->aabb + 6 * g, cd->aabb + 6 * g + 3);
    }
  }
  choose_axes(cd);
  int ax = st->sweep, sx = st->slab;
  double h = cd->slab_h;

  /* Bring last pass's entries up to date: keep those whose slab the geom
   * still covers, add the slabs it newly covers. */
  for (int i = 0; i < cd->nsmall; i++) {
    int g = cd->small[i];
    const double *b = cd->aabb + 6 * g;
    cd->slab0[g] = slab_of(b[sx], h);
    cd->slab1[g] = slab_of(b[sx + 3], h);
    cd->mask[g] = 0;
  }
  lk_col_entry *E = cd->entry;
  int nkept = 0;
  for (int i = 0; i < st->nentry; i++) {
    int g = E[i].geom;
    int64_t s = E[i].slab;
    if (s < cd->slab0[g] || s > cd->slab1[g] || s - cd->slab0[g] >= 8) continue;
    unsigned bit = 1u << (unsigned)(s - cd->slab0[g]);
    if (cd->mask[g] & bit) continue;
    cd->mask[g] |= (unsigned char)bit;
    E[nkept].slab = s;
    E[nkept].lo = cd->aabb[6 * g + ax];
    E[nkept].geom = g;
    nkept++;
  }
  int nnew = 0;
  for (int i = 0; i < cd->nsmall; i++) {
    int g = cd->small[i];
    for (int64_t s = cd->slab0[g]; s <= cd->slab1[g] && s - cd->slab0[g] < 8; s++) {
      if (cd->mask[g] & (1u << (unsigned)(s - cd->slab0[g]))) continue;
      if (nkept + nnew >= cd->entry_cap) break; /* cannot happen: see max_slabs */
      cd->entry_new[nnew].slab = s;
      cd->entry_new[nnew].lo = cd->aabb[6 * g + ax];
      cd->entry_new[nnew].geom = g;
      nnew++;
    }
  }
  long moves = insertion_sort(E, nkept, 8L * nkept + 64);
  st->stats.full_sorts = 0;
  if (moves < 0) {
    merge_sort(E, cd->entry_tmp, nkept);
    st->stats.full_sorts = 1;
    moves = 0;
  }
  st->stats.sort_moves = (int)moves;
  st->stats.new_entries = nnew;
  merge_sort(cd->entry_new, cd->entry_tmp, nnew);
  { /* merge the two sorted runs */
    int i = 0, j = 0, k = 0;
    lk_col_entry *T = cd->entry_tmp;
    while (i < nkept && j < nnew) T[k++] = entry_less(&cd->entry_new[j], &E[i]) ? cd->entry_new[j++] : E[i++];
    while (i < nkept) T[k++] = E[i++];
    while (j < nnew) T[k++] = cd->entry_new[j++];
    memcpy(E, T, (size_t)k * sizeof *E);
    st->nentry = k;
  }

  /* Sweep every slab. */
  int n = st->nentry;
  int oy = (ax + 1) % 3 == sx ? (ax + 2) % 3 : (ax + 1) % 3; /* the third axis */
  for (int i = 0; i < n; i++) {
    int gi = E[i].geom;
    const double *bi = cd->aabb + 6 * gi;
    double hi_i = bi[ax + 3];
    for (int j = i + 1; j < n && E[j].slab == E[i].slab && E[j].lo <= hi_i; j++) {
      int gj = E[j].geom;
      const double *bj = cd->aabb + 6 * gj;
      checks++;
      if (bi[sx] > bj[sx + 3] || bj[sx] > bi[sx + 3] || bi[oy] > bj[oy + 3] || bj[oy] > bi[oy + 3])
        continue;
      /* Report each pair in the first slab both boxes cover. */
      int64_t first = cd->slab0[gi] > cd->slab0[gj] ? cd->slab0[gi] : cd->slab0[gj];
      if (E[i].slab != first) continue;
      if (lk_col_pair_allowed(m, cd, gi, gj)) pair(ctx, gi, gj);
    }
  }
  /* Big geoms against every bounded geom (each big-big pair once). */
  for (int i = 0; i < cd->nbig; i++) {
    int g = cd->big[i];
    const double *bg = cd->aabb + 6 * g;
    for (int k = 0; k < cd->nsmall; k++) {
      int o = cd->small[k];
      checks++;
      if (boxes_overlap(bg, cd->aabb + 6 * o) && lk_col_pair_allowed(m, cd, g, o)) pair(ctx, g, o);
    }
    for (int k = i + 1; k < cd->nbig; k++) {
      int o = cd->big[k];
      checks++;
      if (boxes_overlap(bg, cd->aabb + 6 * o) && lk_col_pair_allowed(m, cd, g, o)) pair(ctx, g, o);
    }
  }
  /* Planes against every bounded geom. */
  for (int i = 0; i < cd->nplane; i++) {
    int p = cd->plane[i];
    double mp = G[p].spec.margin;
    for (int pass = 0; pass < 2; pass++) {
      int nl = pass ? cd->nbig : cd->nsmall;
      const int *list = pass ? cd->big : cd->small;
      for (int k = 0; k < nl; k++) {
        int o = list[k];
        checks++;
        if (plane_box(&cd->xg[p], mp, cd->aabb + 6 * o) && lk_col_pair_allowed(m, cd, p, o))
          pair(ctx, p, o);
      }
    }
  }
  st->stats.sweep_checks = checks;
}
