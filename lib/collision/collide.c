/* lk_collide: geom poses, broad phase, narrow phase, canonical order, and
 * the match with the previous pass's contacts; and the contact accessors. */
#include <math.h>
#include <string.h>

#include "collision/col_data.h"
#include "collision/shape.h"
#include "core/internal.h"
#include "data/data_impl.h"

typedef struct {
  const lk_model *m;
  lk_col_data *cd;
} narrow_ctx;

/* One candidate pair: b is the geom on the link of lower index. */
static void narrow(void *vctx, int g1, int g2) {
  narrow_ctx *c = vctx;
  const lk_model *m = c->m;
  lk_col_data *cd = c->cd;
  lk_col_state *st = cd->st;
  int ga = g1, gb = g2;
  if (m->geom_link[g1] < m->geom_link[g2]) {
    ga = g2;
    gb = g1;
  }
  const lk_geom_spec *sa = &m->geom[ga].spec, *sb = &m->geom[gb].spec;
  lk_shape a = {sa->type, {sa->size[0], sa->size[1], sa->size[2]}, cd->xg[ga], sa->mesh};
  lk_shape b = {sb->type, {sb->size[0], sb->size[1], sb->size[2]}, cd->xg[gb], sb->mesh};
  lk_manifold man;
  lk_col_collide(&a, &b, fmax(sa->margin, sb->margin), &man);
  st->stats.pairs++;
  for (int i = 0; i < man.n; i++) {
    if (st->nfound < cd->capacity) {
      lk_col_raw *r = &cd->raw[st->nfound];
      r->ga = ga;
      r->gb = gb;
      r->pt = man.pt[i];
    }
    st->nfound++;
  }
}

static int key_cmp(int ga, int gb, unsigned fa, int ha, int hb, unsigned fb) {
  if (ga != ha) return ga < ha ? -1 : 1;
  if (gb != hb) return gb < hb ? -1 : 1;
  if (fa != fb) return fa < fb ? -1 : 1;
  return 0;
}

static int key_less(const lk_col_key *a, const lk_col_key *b) {
  return key_cmp(a->ga, a->gb, a->feature, b->ga, b->gb, b->feature) < 0;
}

static void sort_keys(lk_col_key *k, lk_col_key *tmp, int n) {
  /* Natural merge sort: the narrow phase emits each pair's points sorted
   * and the pairs mostly in order, so the input is a few ascending runs,
   * merged pairwise until one is left (sorted input: one scan). Keys are
   * unique, so the order is canonical whatever the algorithm. */
  for (;;) {
    int runs = 0;
    for (int lo = 0; lo < n;) {
      int mid = lo + 1;
      while (mid < n && key_less(&k[mid - 1], &k[mid])) mid++;
      if (lo == 0 && mid >= n) return; /* one run: sorted */
      int hi = mid < n ? mid + 1 : n;
      while (hi < n && key_less(&k[hi - 1], &k[hi])) hi++;
      int i = lo, j = mid, o = lo;
      while (i < mid && j < hi) tmp[o++] = key_less(&k[j], &k[i]) ? k[j++] : k[i++];
      while (i < mid) tmp[o++] = k[i++];
      while (j < hi) tmp[o++] = k[j++];
      runs++;
      lo = hi;
    }
    memcpy(k, tmp, (size_t)n * sizeof *k);
    if (runs <= 1) return;
  }
}

/* A right-handed orthonormal frame (n, t1, t2) from a unit n (Duff et al.,
 * "Building an Orthonormal Basis, Revisited", JCGT 6(1), 2017). */
static void tangent_frame(lk_vec3 n, lk_vec3 *t1, lk_vec3 *t2) {
  double sign = copysign(1.0, n.z);
  double a = -1.0 / (sign + n.z), b = n.x * n.y * a;
  *t1 = lk_v3(1.0 + sign * n.x * n.x * a, sign * b, -sign * n.x);
  *t2 = lk_v3(b, sign + n.y * n.y * a, -n.y);
}

/* A contact persists when within this distance of its previous position:
 * a quarter of the smaller bounding radius (planes have none); the radii
 * are the model's, kept per geom in cd->rbound. */
static double match_tol(const lk_col_data *cd, int ga, int gb) {
  return 0.25 * fmin(cd->rbound[ga], cd->rbound[gb]);
}

/* Re-express a vector given by components x, y on (u1, u2) on (t1, t2). */
static void reproject(double *x, double *y, lk_vec3 u1, lk_vec3 u2, lk_vec3 t1, lk_vec3 t2) {
  lk_vec3 v = lk_v3_add(lk_v3_scale(u1, *x), lk_v3_scale(u2, *y));
  *x = lk_v3_dot(v, t1);
  *y = lk_v3_dot(v, t2);
}

lk_status lk_collide(const lk_model *m, lk_data *d, lk_error *err) {
  if (!lk_data_matches(m, d))
    return lk_error_set(err, LK_INVALID_ARGUMENT, "lk_collide: the data does not belong to the model");
  if (!d->s->kinematics_valid)
    return lk_error_set(err, LK_INVALID_ARGUMENT,
                        "lk_collide: run lk_forward_kinematics first (link poses are not computed)");
  lk_col_data *cd = &d->col;
  lk_col_state *st = cd->st;
  for (int g = 0; g < m->ngeom; g++)
    cd->xg[g] = lk_tf_mul(&d->xw[m->geom_link[g]], &m->geom[g].spec.pose);

  st->nfound = 0;
  memset(&st->stats, 0, sizeof st->stats);
  narrow_ctx ctx = {m, cd};
  lk_col_broadphase(m, cd, narrow, &ctx);

  int n = st->nfound < cd->capacity ? st->nfound : cd->capacity;
  for (int i = 0; i < n; i++) {
    cd->key[i].ga = cd->raw[i].ga;
    cd->key[i].gb = cd->raw[i].gb;
    cd->key[i].feature = cd->raw[i].pt.feature;
    cd->key[i].idx = i;
  }
  sort_keys(cd->key, cd->key_tmp, n);

  /* Walk the new and the previous contacts, both in canonical order. */
  const lk_contact *prev = cd->buf[st->cur];
  int nprev = st->ncontact;
  lk_contact *out = cd->buf[1 - st->cur];
  int j = 0;
  for (int i = 0; i < n; i++) {
    const lk_col_key *k = &cd->key[i];
    const lk_col_raw *r = &cd->raw[k->idx];
    lk_contact *c = &out[i];
    c->geom_a = r->ga;
    c->geom_b = r->gb;
    c->link_a = m->geom_link[r->ga];
    c->link_b = m->geom_link[r->gb];
    c->pos = r->pt.pos;
    c->normal = r->pt.normal;
    c->depth = r->pt.depth;
    c->feature = r->pt.feature;
    while (j < nprev && key_cmp(prev[j].geom_a, prev[j].geom_b, prev[j].feature, k->ga, k->gb,
                                k->feature) < 0)
      j++;
    const lk_contact *p = NULL;
    if (j < nprev &&
        key_cmp(prev[j].geom_a, prev[j].geom_b, prev[j].feature, k->ga, k->gb, k->feature) == 0 &&
        lk_v3_norm(lk_v3_sub(prev[j].pos, c->pos)) <= match_tol(cd, k->ga, k->gb))
      p = &prev[j];
    if (p) {
      /* Keep t1 as close as possible to the previous one. */
      lk_vec3 t = lk_v3_madd(p->tangent[0], c->normal, -lk_v3_dot(p->tangent[0], c->normal));
      double tn = lk_v3_norm(t);
      if (tn > 0.5) {
        c->tangent[0] = lk_v3_scale(t, 1.0 / tn);
        c->tangent[1] = lk_v3_cross(c->normal, c->tangent[0]);
      } else {
        tangent_frame(c->normal, &c->tangent[0], &c->tangent[1]);
      }
      c->id = p->id;
      c->age = p->age + 1;
      c->friction = p->friction;
      memcpy(c->impulse, p->impulse, sizeof c->impulse);
      reproject(&c->impulse[1], &c->impulse[2], p->tangent[0], p->tangent[1], c->tangent[0],
                c->tangent[1]);
      reproject(&c->impulse[4], &c->impulse[5], p->tangent[0], p->tangent[1], c->tangent[0],
                c->tangent[1]);
      j++;
    } else {
      tangent_frame(c->normal, &c->tangent[0], &c->tangent[1]);
      c->id = st->next_id++;
      c->age = 0;
      c->friction = LK_FRICTION_STATIC;
      memset(c->impulse, 0, sizeof c->impulse);
    }
  }
  st->cur = 1 - st->cur;
  st->ncontact = n;
  if (st->nfound > cd->capacity)
    return lk_error_set(err, LK_CAPACITY_EXCEEDED,
                        "lk_collide: %d contacts found, the data holds %d (raise max_contacts)",
                        st->nfound, cd->capacity);
  return LK_OK;
}

int lk_data_ncollision(const lk_data *d) { return d ? d->col.st->ncontact : 0; }
int lk_data_ncontact_found(const lk_data *d) { return d ? d->col.st->nfound : 0; }
int lk_data_contact_capacity(const lk_data *d) { return d ? d->col.capacity : 0; }

const lk_contact *lk_data_collision(const lk_data *d, int i) {
  if (!d || i < 0 || i >= d->col.st->ncontact) return NULL;
  return &d->col.buf[d->col.st->cur][i];
}

/* The deprecated names (collision.h). */
const lk_contact *lk_data_contact(const lk_data *d, int i) { return lk_data_collision(d, i); }
int lk_data_ncontact(const lk_data *d) { return lk_data_ncollision(d); }

lk_status lk_data_contact_set_state(lk_data *d, int i, lk_friction_state friction,
                                    const double impulse[LK_CONTACT_IMPULSES]) {
  if (!d || i < 0 || i >= d->col.st->ncontact) return LK_INVALID_ARGUMENT;
  if (friction != LK_FRICTION_STATIC && friction != LK_FRICTION_DYNAMIC) return LK_INVALID_ARGUMENT;
  if (impulse && !lk_all_finite(impulse, LK_CONTACT_IMPULSES)) return LK_NON_FINITE;
  lk_contact *c = &d->col.buf[d->col.st->cur][i];
  c->friction = friction;
  if (impulse) memcpy(c->impulse, impulse, sizeof c->impulse);
  return LK_OK;
}

const lk_transform *lk_data_geom_pose(const lk_data *d, int g) {
  if (!d || g < 0 || g >= d->col.ngeom) return NULL;
  return &d->col.xg[g];
}

void lk_data_collision_stats(const lk_data *d, lk_collision_stats *out) {
  if (!out) return;
  if (!d) {
    memset(out, 0, sizeof *out);
    return;
  }
  *out = d->col.st->stats;
}
