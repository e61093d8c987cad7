/* Mass properties of the solid bounded by a closed, consistently wound
 * triangle mesh, by the divergence theorem: the solid is the signed sum of
 * the tetrahedra (r, a, b, c) that the triangles make with any point r,
 * tetrahedra seen from behind counting negative, so that a non-convex
 * solid comes out exact (not its hull). For a tetrahedron with vertices
 * p0..p3 relative to r (p0 = 0) and signed volume V = det[p1 p2 p3] / 6:
 *   volume V, centroid (p1 + p2 + p3) / 4,
 *   second moment  int x x^T dV = V / 20 (sum_k p_k p_k^T + s s^T),
 *   s = p1 + p2 + p3
 * (Tonon, "Explicit exact formulas for the 3-D tetrahedron inertia
 * tensor in terms of its vertex coordinates", J. Math. Stat. 1(1), 2005;
 * the surface-integral form is Mirtich, "Fast and accurate computation of
 * polyhedral mass properties", JGT 1(2), 1996). The inertia about the
 * centroid c is then tr(C) I - C with C = sum of second moments - V c c^T.
 * MuJoCo's compiler too gives a mesh the mass of the volume it bounds,
 * not its hull's (MJCF reference, <mesh>); docs/format.md says where
 * MuJoCo 2.2.2's figure differs from this exact one. */
#include <math.h>

#include "linkage/error.h"
#include "model/mesh_solid.h"

void lk_mesh_solid_begin(lk_mesh_solid_acc *acc, const lk_vec3 *apex, int absolute) {
  acc->started = apex != NULL;
  acc->absolute = absolute;
  acc->ref = apex ? *apex : lk_v3_zero();
  acc->v = 0;
  acc->s = lk_v3_zero();
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) acc->c[i][j] = 0;
  acc->ntri = 0;
}

void lk_mesh_solid_add(lk_mesh_solid_acc *acc, lk_vec3 a, lk_vec3 b, lk_vec3 c) {
  if (!acc->started) {
    acc->ref = a;
    acc->started = 1;
  }
  lk_vec3 p[3] = {lk_v3_sub(a, acc->ref), lk_v3_sub(b, acc->ref), lk_v3_sub(c, acc->ref)};
  double V = lk_v3_dot(p[0], lk_v3_cross(p[1], p[2])) / 6;
  if (acc->absolute) V = fabs(V);
  lk_vec3 s = lk_v3_add(lk_v3_add(p[0], p[1]), p[2]);
  acc->v += V;
  acc->s = lk_v3_madd(acc->s, s, V / 4);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      double m = lk_v3_get(s, i) * lk_v3_get(s, j);
      for (int k = 0; k < 3; k++) m += lk_v3_get(p[k], i) * lk_v3_get(p[k], j);
      acc->c[i][j] += V / 20 * m;
    }
  acc->ntri++;
}

static lk_status finish(const lk_mesh_solid_acc *acc, int at_apex, lk_mesh_solid *out) {
  double sign = acc->v < 0 ? -1 : 1, V = sign * acc->v;
  if (!(V > 0) || !isfinite(V)) return LK_INVALID_MODEL;
  lk_vec3 c = at_apex ? lk_v3_zero() : lk_v3_scale(acc->s, sign / V); /* relative to ref */
  double C[3][3], tr = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) C[i][j] = sign * acc->c[i][j] - V * lk_v3_get(c, i) * lk_v3_get(c, j);
  for (int i = 0; i < 3; i++) tr += C[i][i];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) out->inertia.m[i][j] = (i == j ? tr : 0) - 0.5 * (C[i][j] + C[j][i]);
  out->volume = V;
  out->centroid = lk_v3_add(acc->ref, c);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      if (!isfinite(out->inertia.m[i][j])) return LK_INVALID_MODEL;
  return LK_OK;
}

lk_status lk_mesh_solid_end(const lk_mesh_solid_acc *acc, lk_mesh_solid *out) {
  return finish(acc, 0, out);
}

lk_status lk_mesh_solid_end_at_apex(const lk_mesh_solid_acc *acc, lk_mesh_solid *out) {
  return finish(acc, 1, out);
}

void lk_mesh_area_add(lk_mesh_area_acc *acc, lk_vec3 a, lk_vec3 b, lk_vec3 c) {
  double A = 0.5 * lk_v3_norm(lk_v3_cross(lk_v3_sub(b, a), lk_v3_sub(c, a)));
  acc->area += A;
  acc->sum = lk_v3_madd(acc->sum, lk_v3_add(lk_v3_add(a, b), c), A / 3);
}

double lk_mesh_solid_box_volume(const lk_mesh_solid *s) {
  lk_vec3 e;
  lk_mat3 V;
  lk_m3_sym_eigen(&s->inertia, &e, &V);
  double J[3] = {e.x, e.y, e.z}, v = 1;
  for (int i = 0; i < 3; i++) {
    double d = J[(i + 1) % 3] + J[(i + 2) % 3] - J[i];
    v *= sqrt(fmax(d, 0) * 6 / s->volume);
  }
  return v;
}
