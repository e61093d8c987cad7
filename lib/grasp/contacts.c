/* Grasp contacts from a simulation state, and the object's radius. */
#include <math.h>
#include <string.h>

#include "core/internal.h"
#include "grasp/grasp_internal.h"
#include "linkage/collision.h"
#include "linkage/constraint.h"

void lk_grasp_extract_options_default(lk_grasp_extract_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->object = -1;
}

/* The mixing rules of lk_options.friction_mix (as the simulator mixes). */
static double mix(double a, double b, lk_mix_rule r) {
  switch (r) {
    case LK_MIX_MIN:
      return fmin(a, b);
    case LK_MIX_MAX:
      return fmax(a, b);
    case LK_MIX_MEAN:
      return 0.5 * (a + b);
    default:
      return sqrt(a * b);
  }
}

/* mu_torsional * patch_radius of a rolling contact, as the simulator
 * forms it: geometry contacts mix the two materials' coefficients and take
 * the larger patch; explicit contacts use their material and patch. */
static double torsion_of(const lk_model *m, const lk_contact_report *r) {
  if (r->type != LK_CONTACT_ROLLING) return 0;
  lk_material_spec a, b;
  if (r->geom >= 0 && r->other_geom >= 0) {
    if (lk_model_material(m, lk_model_geom_material(m, r->geom), &a) ||
        lk_model_material(m, lk_model_geom_material(m, r->other_geom), &b))
      return 0;
    double mt = mix(a.mu_torsional, b.mu_torsional, lk_model_options(m)->friction_mix);
    return mt * fmax(a.patch_radius, b.patch_radius);
  }
  if (r->explicit_index >= 0) {
    lk_contact_spec s;
    if (lk_model_contact(m, r->explicit_index, &s)) return 0;
    int mi = s.material ? lk_model_material_index(m, s.material) : 0;
    if (mi < 0 || lk_model_material(m, mi, &a)) return 0;
    double rp = s.patch_radius >= 0 ? s.patch_radius : a.patch_radius;
    return a.mu_torsional * rp;
  }
  return 0;
}

int lk_grasp_contacts_from_data(const lk_model *m, const lk_data *d,
                                const lk_grasp_extract_options *o, lk_grasp_contact *out,
                                double *fn, int cap) {
  if (!m || !d || !o || lk_data_model(d) != m || o->object <= 0 ||
      o->object >= lk_model_nlink(m) || cap < 0 || (cap > 0 && !out && !fn))
    return -1;
  int n = 0, nr = lk_data_ncontacts(d);
  for (int i = 0; i < nr; i++) {
    const lk_contact_report *r = lk_data_contact_report(d, i);
    int finger_link;
    lk_vec3 normal;
    if (r->link == o->object && r->other != o->object) {
      finger_link = r->other;
      normal = r->normal; /* from other to link: into the object */
    } else if (r->other == o->object && r->link != o->object) {
      finger_link = r->link;
      normal = lk_v3_neg(r->normal);
    } else {
      continue;
    }
    if (finger_link == 0 && !o->world) continue;
    if (!(r->fn > o->min_force)) continue;
    if (n < cap) {
      if (out) {
        lk_grasp_contact *c = &out[n];
        lk_grasp_contact_default(c);
        c->position = r->position;
        c->normal = normal;
        c->mu = r->mu_static;
        c->torsion = torsion_of(m, r);
        c->finger = o->finger_of_link ? o->finger_of_link[finger_link] : finger_link;
      }
      if (fn) fn[n] = r->fn;
    }
    n++;
  }
  return n;
}

/* The farthest point of a geom (its pose in the link frame) from c. */
static double farthest(const lk_geom_spec *g, lk_vec3 c) {
  const lk_transform *T = &g->pose;
  const double *s = g->size;
  switch (g->type) {
    case LK_GEOM_SPHERE:
      return lk_v3_norm(lk_v3_sub(T->p, c)) + s[0];
    case LK_GEOM_CAPSULE: {
      lk_vec3 ax = lk_tf_dir(T, lk_v3(0, 0, s[1]));
      double a = lk_v3_norm(lk_v3_sub(lk_v3_add(T->p, ax), c));
      double b = lk_v3_norm(lk_v3_sub(lk_v3_sub(T->p, ax), c));
      return fmax(a, b) + s[0];
    }
    case LK_GEOM_BOX: {
      double best = 0;
      for (int k = 0; k < 8; k++) {
        lk_vec3 corner = lk_v3(k & 1 ? s[0] : -s[0], k & 2 ? s[1] : -s[1], k & 4 ? s[2] : -s[2]);
        best = fmax(best, lk_v3_norm(lk_v3_sub(lk_tf_point(T, corner), c)));
      }
      return best;
    }
    case LK_GEOM_CYLINDER: {
      /* The farthest point of a rim circle (centre o, axis a, radius R)
       * from c: sqrt(h^2 + (|d_perp| + R)^2) with d = c - o. */
      lk_vec3 a = lk_tf_dir(T, lk_v3(0, 0, 1));
      double best = 0;
      for (int e = -1; e <= 1; e += 2) {
        lk_vec3 o = lk_v3_madd(T->p, a, e * s[1]);
        lk_vec3 d = lk_v3_sub(c, o);
        double h = lk_v3_dot(d, a);
        double perp = lk_v3_norm(lk_v3_madd(d, a, -h));
        best = fmax(best, sqrt(h * h + (perp + s[0]) * (perp + s[0])));
      }
      return best;
    }
    case LK_GEOM_MESH: {
      /* The farthest hull vertex. */
      int nv = lk_mesh_nvertex(g->mesh);
      const double *v = lk_mesh_vertices(g->mesh);
      double best = -1;
      for (int i = 0; i < nv; i++)
        best = fmax(best, lk_v3_norm(lk_v3_sub(lk_tf_point(T, lk_v3(v[3 * i], v[3 * i + 1],
                                                                     v[3 * i + 2])),
                                               c)));
      return best;
    }
    default:
      return -1;
  }
}

lk_status lk_grasp_shape_aabb(lk_geom_type type, const double size[3], const lk_mesh *mesh,
                              const lk_transform *pose, lk_vec3 *lo, lk_vec3 *hi) {
  if (type != LK_GEOM_MESH) return lk_geom_aabb(type, size, pose, 0, lo, hi);
  int nv = lk_mesh_nvertex(mesh);
  if (nv == 0) return LK_INVALID_ARGUMENT;
  const double *v = lk_mesh_vertices(mesh);
  /* Plain comparisons, not fmin / fmax (library calls here, a fifth of a
   * screen's time on meshes; the same values for finite vertices). */
  lk_vec3 l = lk_v3(INFINITY, INFINITY, INFINITY), h = lk_v3(-INFINITY, -INFINITY, -INFINITY);
  for (int i = 0; i < nv; i++) {
    lk_vec3 w = lk_tf_point(pose, lk_v3(v[3 * i], v[3 * i + 1], v[3 * i + 2]));
    if (w.x < l.x) l.x = w.x;
    if (w.y < l.y) l.y = w.y;
    if (w.z < l.z) l.z = w.z;
    if (w.x > h.x) h.x = w.x;
    if (w.y > h.y) h.y = w.y;
    if (w.z > h.z) h.z = w.z;
  }
  *lo = l;
  *hi = h;
  return LK_OK;
}

lk_status lk_grasp_object_radius(const lk_model *m, int link, double *radius, lk_error *err) {
  if (!m || !radius || !lk_model_is_finalized(m) || link <= 0 || link >= lk_model_nlink(m))
    return lk_error_set(err, LK_INVALID_ARGUMENT, "object radius: bad model or link %d", link);
  lk_link_spec ls;
  lk_model_link(m, link, &ls);
  double r = -1;
  for (int g = 0; g < lk_model_ngeom(m); g++) {
    if (lk_model_geom_link(m, g) != link) continue;
    lk_geom_spec gs;
    lk_model_geom(m, g, &gs);
    r = fmax(r, farthest(&gs, ls.com));
  }
  if (!(r > 0))
    return lk_error_set(err, LK_INVALID_ARGUMENT, "object radius: link '%s' has no solid geoms",
                        lk_model_link_name(m, link));
  *radius = r;
  return LK_OK;
}
