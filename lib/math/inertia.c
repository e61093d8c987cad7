/* Inertia tensors of solid primitives about their centre of mass. */
#include "linkage/math.h"

lk_mat3 lk_inertia_solid_box(double m, lk_vec3 he) {
  double x2 = 4 * he.x * he.x, y2 = 4 * he.y * he.y, z2 = 4 * he.z * he.z;
  return lk_m3_diag(m * (y2 + z2) / 12.0, m * (x2 + z2) / 12.0, m * (x2 + y2) / 12.0);
}

lk_mat3 lk_inertia_solid_sphere(double m, double r) {
  double i = 0.4 * m * r * r;
  return lk_m3_diag(i, i, i);
}

lk_mat3 lk_inertia_solid_cylinder(double m, double r, double L) {
  double H = 2 * L;
  double ixx = m * (3 * r * r + H * H) / 12.0;
  return lk_m3_diag(ixx, ixx, 0.5 * m * r * r);
}

lk_mat3 lk_inertia_solid_capsule(double m, double r, double L) {
  /* Mass split by volume between the cylinder and the two hemispheres; each
   * hemisphere's centre of mass sits 3r/8 from its flat face. */
  double H = 2 * L;
  double vc = LK_PI * r * r * H, vh = 4.0 / 3.0 * LK_PI * r * r * r;
  double mc = (vc + vh) > 0 ? m * vc / (vc + vh) : 0, mh = m - mc;
  double izz = mc * r * r / 2.0 + mh * 2.0 * r * r / 5.0;
  double ixx = mc * (r * r / 4.0 + H * H / 12.0) + mh * (2.0 * r * r / 5.0 + H * H / 4.0 + 3.0 * H * r / 8.0);
  return lk_m3_diag(ixx, ixx, izz);
}
