/* lk_data: one arena per data, laid out by every layer in turn. */
#include <string.h>

#include "core/internal.h"
#include "data/data_impl.h"

/* Lay out the whole data at contact capacity cap: model-sized arrays
 * into a, capacity-sized into c; with NULL bases this only measures. */
static void layout(const lk_model *m, lk_data *d, lk_arena *a, lk_arena *c, int cap) {
  d->s = LK_ARENA_ARRAY(a, lk_data_scalars, 1);
  d->q = LK_ARENA_ARRAY(a, double, m->nq);
  d->v = LK_ARENA_ARRAY(a, double, m->nv);
  d->qacc = LK_ARENA_ARRAY(a, double, m->nv);
  d->tau = LK_ARENA_ARRAY(a, double, m->nv);
  d->fext = LK_ARENA_ARRAY(a, lk_force, m->nlink);
  d->xup = LK_ARENA_ARRAY(a, lk_transform, m->nlink);
  d->xw = LK_ARENA_ARRAY(a, lk_transform, m->nlink);
  d->vl = LK_ARENA_ARRAY(a, lk_motion, m->nlink);
  d->cl = LK_ARENA_ARRAY(a, lk_motion, m->nlink);
  d->S = LK_ARENA_ARRAY(a, lk_motion, m->nv);
  lk_dyn_data_layout(m, &d->dyn, a);
  lk_col_data_layout(m, &d->col, a, c, cap);
  lk_sim_data_layout(m, &d->sim, a, c, cap);
}

/* A block of size bytes at a 64-byte (cache line) boundary, so that the
 * arena's offsets are cache-line aligned: over-allocate and keep the raw
 * pointer in front. Zeroed. */
static char *block_new(size_t size) {
  char *raw = lk_malloc(size + 64 + sizeof(void *));
  if (!raw) return NULL;
  uintptr_t p = ((uintptr_t)(raw + sizeof(void *)) + 63u) & ~(uintptr_t)63u;
  char *b = (char *)p;
  ((void **)b)[-1] = raw;
  memset(b, 0, size);
  return b;
}

static void block_free(char *b) {
  if (b) lk_free(((void **)b)[-1]);
}

lk_data *lk_data_new(const lk_model *m) {
  if (!lk_model_ok(m)) return NULL;
  lk_data *d = lk_calloc(1, sizeof *d);
  if (!d) return NULL;
  int cap = m->contact_capacity;
  lk_arena a = {0}, c = {0};
  layout(m, d, &a, &c, cap);
  d->arena_size = a.used;
  d->carena_size = c.used;
  d->cap = cap;
  d->arena = block_new(a.used);
  d->carena = block_new(c.used);
  if (!d->arena || !d->carena) {
    lk_data_free(d);
    return NULL;
  }
  d->model = m;
  lk_arena real = {d->arena, 0, NULL, 0, 0}, creal = {d->carena, 0, NULL, 0, 0};
  layout(m, d, &real, &creal, cap);
  if (lk_sim_data_init(m, &d->sim) != LK_OK) {
    lk_data_free(d);
    return NULL;
  }
  lk_data_reset(d);
  return d;
}

void lk_data_free(lk_data *d) {
  if (!d) return;
  lk_sim_data_free(&d->sim);
  block_free(d->arena);
  block_free(d->carena);
  lk_free(d);
}

/* Lay out the contact block at capacity cap, recording each array's
 * offset and size (rec: 2 * maxrec entries); returns the block's size
 * and the number of arrays. The model block's pointers are measured too
 * (set to NULL): the caller lays out again. */
static size_t measure(const lk_model *m, lk_data *d, int cap, size_t *rec, int maxrec, int *nrec) {
  lk_arena a = {0}, c = {NULL, 0, rec, 0, maxrec};
  layout(m, d, &a, &c, cap);
  *nrec = c.nrec;
  return c.used;
}

lk_status lk_data_grow_contacts(lk_data *d, int cap) {
  if (!d || cap < 1) return LK_INVALID_ARGUMENT;
  const lk_model *m = d->model;
  if (cap == d->cap) return LK_OK;
  /* The contact block's arrays, old and new, in layout order: the same
   * arrays, larger or smaller. */
  int nold = 0, nnew = 0;
  size_t none[2];
  measure(m, d, d->cap, none, 0, &nold); /* counts them */
  size_t *rec = LK_NEW_ARRAY(size_t, 4 * (size_t)nold);
  if (!rec) return LK_OUT_OF_MEMORY;
  measure(m, d, d->cap, rec, nold, &nold);
  size_t size = measure(m, d, cap, rec + 2 * nold, nold, &nnew);
  char *nb = nnew == nold ? block_new(size) : NULL;
  lk_status st = nb ? LK_OK : nnew == nold ? LK_OUT_OF_MEMORY : LK_INVALID_ARGUMENT;
  if (!st) {
    for (int i = 0; i < nold; i++) {
      size_t oo = rec[2 * i], os = rec[2 * i + 1];
      size_t no = rec[2 * (nold + i)], ns = rec[2 * (nold + i) + 1];
      memcpy(nb + no, d->carena + oo, os < ns ? os : ns);
    }
  }
  lk_free(rec);
  /* the pointers again: into the new block, or the old one */
  int keep = st ? d->cap : cap;
  lk_arena real = {d->arena, 0, NULL, 0, 0}, creal = {st ? d->carena : nb, 0, NULL, 0, 0};
  layout(m, d, &real, &creal, keep);
  if (st) return st;
  st = lk_sim_data_regrow(m, &d->sim);
  if (st) { /* back to the old block */
    block_free(nb);
    lk_arena r2 = {d->arena, 0, NULL, 0, 0}, c2 = {d->carena, 0, NULL, 0, 0};
    layout(m, d, &r2, &c2, d->cap);
    return st;
  }
  block_free(d->carena);
  d->carena = nb;
  d->carena_size = size;
  d->cap = cap;
  return LK_OK;
}

lk_status lk_data_copy(lk_data *dst, const lk_data *src) {
  if (!dst || !src || dst->model != src->model || dst->arena_size != src->arena_size)
    return LK_INVALID_ARGUMENT;
  if (dst == src) return LK_OK;
  /* a grown data's copy grows alike */
  lk_status s = lk_data_grow_contacts(dst, src->cap);
  if (s != LK_OK) return s;
  /* the state the layers keep outside the arena */
  s = lk_sim_data_copy(&dst->sim, &src->sim);
  if (s != LK_OK) return s;
  memcpy(dst->arena, src->arena, src->arena_size);
  memcpy(dst->carena, src->carena, src->carena_size);
  return LK_OK;
}

void lk_data_reset(lk_data *d) {
  if (!d) return;
  const lk_model *m = d->model;
  memset(d->arena, 0, d->arena_size);
  memset(d->carena, 0, d->carena_size);
  lk_model_initial_state(m, d->q, d->v);
  for (int i = 0; i < m->nlink; i++) {
    d->xup[i] = lk_tf_identity();
    d->xw[i] = lk_tf_identity();
  }
  lk_dyn_data_reset(m, &d->dyn);
  lk_col_data_reset(m, &d->col);
  lk_sim_data_reset(m, &d->sim);
}

const lk_model *lk_data_model(const lk_data *d) { return d ? d->model : NULL; }
size_t lk_data_size(const lk_data *d) { return d ? d->arena_size + d->carena_size : 0; }
double lk_data_time(const lk_data *d) { return d ? d->s->time : 0; }
void lk_data_set_time(lk_data *d, double t) {
  if (d) d->s->time = t;
}
double *lk_data_q(lk_data *d) { return d ? d->q : NULL; }
double *lk_data_v(lk_data *d) { return d ? d->v : NULL; }
double *lk_data_qacc(lk_data *d) { return d ? d->qacc : NULL; }
double *lk_data_tau(lk_data *d) { return d ? d->tau : NULL; }

static int link_ok(const lk_data *d, int link) {
  return d && link >= 0 && link < d->model->nlink;
}

lk_status lk_data_apply_force(lk_data *d, int link, lk_vec3 point, lk_vec3 force) {
  if (!link_ok(d, link) || link == 0) return LK_INVALID_ARGUMENT;
  if (!lk_v3_isfinite(point) || !lk_v3_isfinite(force)) return LK_NON_FINITE;
  lk_force *f = &d->fext[link];
  f->lin = lk_v3_add(f->lin, force);
  f->ang = lk_v3_add(f->ang, lk_v3_cross(point, force));
  return LK_OK;
}

lk_status lk_data_apply_torque(lk_data *d, int link, lk_vec3 torque) {
  if (!link_ok(d, link) || link == 0) return LK_INVALID_ARGUMENT;
  if (!lk_v3_isfinite(torque)) return LK_NON_FINITE;
  d->fext[link].ang = lk_v3_add(d->fext[link].ang, torque);
  return LK_OK;
}

lk_force lk_data_external_wrench(const lk_data *d, int link) {
  return link_ok(d, link) ? d->fext[link] : lk_fo_zero();
}

void lk_data_clear_loads(lk_data *d) {
  if (!d) return;
  memset(d->tau, 0, (size_t)d->model->nv * sizeof *d->tau);
  memset(d->fext, 0, (size_t)d->model->nlink * sizeof *d->fext);
}

const lk_transform *lk_data_link_pose(const lk_data *d, int link) {
  return link_ok(d, link) ? &d->xw[link] : NULL;
}

lk_motion lk_data_link_velocity(const lk_data *d, int link) {
  if (!link_ok(d, link)) return lk_mo_zero();
  const lk_transform *X = &d->xw[link];
  return lk_mo(lk_tf_dir(X, d->vl[link].ang), lk_tf_dir(X, d->vl[link].lin));
}

lk_vec3 lk_data_point_position(const lk_data *d, int link, lk_vec3 p) {
  if (!link_ok(d, link)) return lk_v3_zero();
  return lk_tf_point(&d->xw[link], p);
}

lk_vec3 lk_data_point_velocity(const lk_data *d, int link, lk_vec3 p) {
  if (!link_ok(d, link)) return lk_v3_zero();
  const lk_motion *v = &d->vl[link];
  return lk_tf_dir(&d->xw[link], lk_v3_add(v->lin, lk_v3_cross(v->ang, p)));
}
