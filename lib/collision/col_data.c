/* Layout and reset of the collision layer's data. */
#include <math.h>
#include <string.h>

#include "collision/col_data.h"
#include "collision/shape.h"
#include "model/model_impl.h"

/* Bounding radius of geom g grown by its margin (INFINITY for a plane). */
static double geom_rho(const lk_model *m, int g) {
  const lk_geom_spec *s = &m->geom[g].spec;
  return lk_col_bound_radius(s->type, s->size, s->mesh) + s->margin;
}

/* The slab height: 4 times the geometric mean of the bounded geoms' radii,
 * so a typical geom spans one or two slabs. A geometric mean is hardly
 * moved by a few huge geoms (a floor box), which go to the "big" list. */
static double slab_height(const lk_model *m) {
  double s = 0;
  int n = 0;
  for (int g = 0; g < m->ngeom; g++) {
    double r = geom_rho(m, g);
    if (isfinite(r) && r > 0) {
      s += log(r);
      n++;
    }
  }
  return n > 0 ? 4 * exp(s / n) : 1.0;
}

/* Slabs a small geom's box can span: its extent is at most 2 rho, so at
 * most floor(2 rho / h) + 2, plus one for rounding. */
static int max_slabs(double rho, double h) { return (int)floor(2 * rho / h) + 3; }

static int is_big(double rho, double h) { return rho > 2 * h; }

void lk_col_data_layout(const lk_model *m, lk_col_data *cd, lk_arena *a, lk_arena *c, int cap) {
  int ng = m->ngeom;
  double h = slab_height(m);
  int nplane = 0, nbig = 0, nsmall = 0, ecap = 0;
  for (int g = 0; g < ng; g++) {
    double rho = geom_rho(m, g);
    if (!isfinite(rho)) {
      nplane++;
    } else if (is_big(rho, h)) {
      nbig++;
    } else {
      nsmall++;
      ecap += max_slabs(rho, h);
    }
  }
  cd->ngeom = ng;
  cd->capacity = cap;
  cd->entry_cap = ecap;
  cd->nplane = nplane;
  cd->nbig = nbig;
  cd->nsmall = nsmall;
  cd->slab_h = h;
  cd->st = LK_ARENA_ARRAY(a, lk_col_state, 1);
  cd->buf[0] = LK_ARENA_ARRAY(c, lk_contact, cap);
  cd->buf[1] = LK_ARENA_ARRAY(c, lk_contact, cap);
  cd->raw = LK_ARENA_ARRAY(c, lk_col_raw, cap);
  cd->key = LK_ARENA_ARRAY(c, lk_col_key, cap);
  cd->key_tmp = LK_ARENA_ARRAY(c, lk_col_key, cap);
  cd->xg = LK_ARENA_ARRAY(a, lk_transform, ng);
  cd->aabb = LK_ARENA_ARRAY(a, double, 6 * ng);
  cd->rbound = LK_ARENA_ARRAY(a, double, ng);
  cd->body = LK_ARENA_ARRAY(a, int, ng);
  cd->pbody = LK_ARENA_ARRAY(a, int, ng);
  cd->plane = LK_ARENA_ARRAY(a, int, nplane);
  cd->big = LK_ARENA_ARRAY(a, int, nbig);
  cd->small = LK_ARENA_ARRAY(a, int, nsmall);
  cd->slab0 = LK_ARENA_ARRAY(a, int64_t, ng);
  cd->slab1 = LK_ARENA_ARRAY(a, int64_t, ng);
  cd->mask = LK_ARENA_ARRAY(a, unsigned char, ng);
  cd->entry = LK_ARENA_ARRAY(a, lk_col_entry, ecap);
  cd->entry_new = LK_ARENA_ARRAY(a, lk_col_entry, ecap);
  cd->entry_tmp = LK_ARENA_ARRAY(a, lk_col_entry, ecap);
}

/* The link a link is welded to through fixed joints (0: the world). */
static int weld_root(const lk_model *m, int link) {
  while (link != 0 && m->jtype[link] == LK_JOINT_FIXED) link = m->parent[link];
  return link;
}

/* The body a geom's body must not collide with: its parent body, unless
 * the body floats on a free joint (which connects nothing). */
static int parent_body(const lk_model *m, int body) {
  if (body == 0 || m->jtype[body] == LK_JOINT_FREE) return -1;
  return weld_root(m, m->parent[body]);
}

/* Whether two bodies are joined by a loop closure: like a joint, the
 * closure makes them neighbours, whose geoms overlap at the joint by
 * design. */
static int loop_joined(const lk_model *m, int b1, int b2) {
  for (int i = 0; i < m->nloop; i++) {
    int a = weld_root(m, m->loop[i].link_a), b = weld_root(m, m->loop[i].link_b);
    if ((a == b1 && b == b2) || (a == b2 && b == b1)) return 1;
  }
  return 0;
}

/* The rule, given both geoms' bodies and parent bodies. */
static int allowed(const lk_model *m, int g1, int b1, int p1, int g2, int b2, int p2) {
  const lk_geom_spec *s1 = &m->geom[g1].spec, *s2 = &m->geom[g2].spec;
  if (b1 == b2) return 0;
  /* A geom pair (MJCF <contact><pair>) collides whatever the rest says. */
  if (m->ngpair > 0 && lk_model_is_geom_pair(m, g1, g2)) return 1;
  if (s1->type == LK_GEOM_PLANE && s2->type == LK_GEOM_PLANE) return 0;
  if (m->opt.collision_filter == LK_FILTER_EITHER) {
    if (!(s1->group & s2->mask) && !(s2->group & s1->mask)) return 0;
  } else if (!(s1->group & s2->mask) || !(s2->group & s1->mask)) {
    return 0;
  }
  /* Excluded pairs (MJCF <contact><exclude>), by the bodies they weld to. */
  for (int i = 0; i < m->nexcl; i++) {
    int a = weld_root(m, m->excl[i].a), b = weld_root(m, m->excl[i].b);
    if ((a == b1 && b == b2) || (a == b2 && b == b1)) return 0;
  }
  if (p1 == b2 && !s1->collide_parent) return 0;
  if (p2 == b1 && !s2->collide_parent) return 0;
  if (m->nloop > 0 && loop_joined(m, b1, b2) && !s1->collide_parent && !s2->collide_parent)
    return 0;
  return 1;
}

int lk_col_pair_allowed(const lk_model *m, const lk_col_data *cd, int g1, int g2) {
  return allowed(m, g1, cd->body[g1], cd->pbody[g1], g2, cd->body[g2], cd->pbody[g2]);
}

int lk_collide_filter(const lk_model *m, int g1, int g2) {
  if (!lk_model_ok(m) || g1 < 0 || g2 < 0 || g1 >= m->ngeom || g2 >= m->ngeom || g1 == g2)
    return 0;
  int b1 = weld_root(m, m->geom_link[g1]), b2 = weld_root(m, m->geom_link[g2]);
  return allowed(m, g1, b1, parent_body(m, b1), g2, b2, parent_body(m, b2));
}

void lk_col_data_reset(const lk_model *m, lk_col_data *cd) {
  double h = cd->slab_h;
  int np = 0, nb = 0, ns = 0;
  for (int g = 0; g < m->ngeom; g++) {
    cd->body[g] = weld_root(m, m->geom_link[g]);
    cd->pbody[g] = parent_body(m, cd->body[g]);
    cd->xg[g] = m->geom[g].spec.pose;
    cd->rbound[g] = lk_col_bound_radius(m->geom[g].spec.type, m->geom[g].spec.size,
                                        m->geom[g].spec.mesh);
    double rho = geom_rho(m, g);
    if (!isfinite(rho))
      cd->plane[np++] = g;
    else if (is_big(rho, h))
      cd->big[nb++] = g;
    else
      cd->small[ns++] = g;
  }
  lk_col_state *st = cd->st;
  memset(st, 0, sizeof *st);
  st->next_id = 1;
}
