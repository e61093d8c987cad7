/* Narrow phase: every pair of shapes, separated, touching and penetrating,
 * against hand computations; swapped arguments; rigid motions of a whole
 * configuration; GJK/EPA against the closed forms; degenerate input. */
#include <stdlib.h>
#include <string.h>

#include "collision/shape.h"
#include "harness.h"
#include "linkage/linkage.h"

#define PL LK_GEOM_PLANE
#define SP LK_GEOM_SPHERE
#define CA LK_GEOM_CAPSULE
#define BX LK_GEOM_BOX
#define CY LK_GEOM_CYLINDER

typedef struct {
  lk_geom_type t;
  double s[3];
  lk_transform X;
} shape;

static lk_transform at(double x, double y, double z) {
  lk_transform T = lk_tf_identity();
  T.p = lk_v3(x, y, z);
  return T;
}

/* Rotation by angle about axis, then translation. */
static lk_transform rot(double ax, double ay, double az, double angle, double x, double y,
                        double z) {
  lk_transform T;
  T.R = lk_m3_from_axis_angle(lk_v3_normalize(lk_v3(ax, ay, az)), angle);
  T.p = lk_v3(x, y, z);
  return T;
}

static shape mk(lk_geom_type t, double s0, double s1, double s2, lk_transform X) {
  shape r = {t, {s0, s1, s2}, X};
  return r;
}

static lk_manifold collide(shape a, shape b, double margin) {
  lk_manifold m;
  lk_error e;
  lk_status st = lk_collide_geoms(a.t, a.s, &a.X, b.t, b.s, &b.X, margin, &m, &e);
  LK_ASSERT_OK(st, &e);
  return m;
}

/* The point of m nearest to p, or -1. */
static int nearest(const lk_manifold *m, lk_vec3 p) {
  int k = -1;
  double best = INFINITY;
  for (int i = 0; i < m->n; i++) {
    double d = lk_v3_norm(lk_v3_sub(m->pt[i].pos, p));
    if (d < best) {
      best = d;
      k = i;
    }
  }
  return k;
}

/* Checks made by the helpers below, so that a test can assert that every
 * case it lists was run (a helper that returned early, or a case lost in
 * an edit, shows as a short count). */
static int g_cases;

/* Expect exactly the n given points (in any order), each with depth and
 * normal. */
static void expect(const char *what, shape a, shape b, double margin, int n, const lk_vec3 *pos,
                   const double *depth, lk_vec3 normal, double tol) {
  g_cases++;
  lk_manifold m = collide(a, b, margin);
  LK_ASSERT_MSG(m.n == n, "%s: %d points, expected %d", what, m.n, n);
  if (m.n != n) return;
  int used[LK_MANIFOLD_MAX] = {0};
  for (int i = 0; i < n; i++) {
    int k = nearest(&m, pos[i]);
    LK_ASSERT_MSG(k >= 0 && !used[k], "%s: point %d matched twice", what, i);
    if (k < 0) continue;
    used[k] = 1;
    const lk_contact_point *p = &m.pt[k];
    LK_ASSERT_MSG(lk_v3_norm(lk_v3_sub(p->pos, pos[i])) <= tol,
                  "%s: point %d at (%.9g %.9g %.9g), expected (%.9g %.9g %.9g)", what, i, p->pos.x,
                  p->pos.y, p->pos.z, pos[i].x, pos[i].y, pos[i].z);
    LK_ASSERT_MSG(fabs(p->depth - depth[i]) <= tol, "%s: point %d depth %.12g, expected %.12g",
                  what, i, p->depth, depth[i]);
    LK_ASSERT_MSG(lk_v3_norm(lk_v3_sub(p->normal, normal)) <= tol,
                  "%s: point %d normal (%.9g %.9g %.9g), expected (%.9g %.9g %.9g)", what, i,
                  p->normal.x, p->normal.y, p->normal.z, normal.x, normal.y, normal.z);
    LK_ASSERT_NEAR(lk_v3_norm(p->normal), 1.0, 1e-12);
  }
  for (int i = 1; i < m.n; i++)
    LK_ASSERT_MSG(m.pt[i - 1].feature < m.pt[i].feature, "%s: features not increasing", what);
}

static void expect1(const char *what, shape a, shape b, double margin, lk_vec3 pos, double depth,
                    lk_vec3 normal, double tol) {
  expect(what, a, b, margin, 1, &pos, &depth, normal, tol);
}

static void expect_none(const char *what, shape a, shape b, double margin) {
  g_cases++;
  lk_manifold m = collide(a, b, margin);
  LK_ASSERT_MSG(m.n == 0, "%s: %d points, expected none (depth %g)", what, m.n,
                m.n ? m.pt[0].depth : 0.0);
}

/* Swapping the shapes gives the same points with negated normals. */
static void check_swap(const char *what, shape a, shape b, double margin, double tol) {
  g_cases++;
  lk_manifold m = collide(a, b, margin), w = collide(b, a, margin);
  LK_ASSERT_MSG(m.n == w.n, "%s swapped: %d points vs %d", what, w.n, m.n);
  if (m.n != w.n) return;
  for (int i = 0; i < m.n; i++) {
    int k = nearest(&w, m.pt[i].pos);
    LK_ASSERT_MSG(lk_v3_norm(lk_v3_sub(w.pt[k].pos, m.pt[i].pos)) <= tol,
                  "%s swapped: point %d moved", what, i);
    LK_ASSERT_MSG(fabs(w.pt[k].depth - m.pt[i].depth) <= tol, "%s swapped: depth %g vs %g", what,
                  w.pt[k].depth, m.pt[i].depth);
    LK_ASSERT_MSG(lk_v3_norm(lk_v3_add(w.pt[k].normal, m.pt[i].normal)) <= tol,
                  "%s swapped: normal not negated", what);
  }
}

/* Moving both shapes rigidly moves the manifold with them. */
static void check_motion(const char *what, shape a, shape b, double margin, double tol) {
  g_cases++;
  lk_manifold m = collide(a, b, margin);
  lk_transform T = rot(0.3, -0.7, 0.5, 1.1, 2.5, -1.0, 0.75);
  shape a2 = a, b2 = b;
  a2.X = lk_tf_mul(&T, &a.X);
  b2.X = lk_tf_mul(&T, &b.X);
  lk_manifold w = collide(a2, b2, margin);
  LK_ASSERT_MSG(m.n == w.n, "%s moved: %d points vs %d", what, w.n, m.n);
  if (m.n != w.n) return;
  for (int i = 0; i < m.n; i++) {
    lk_vec3 p = lk_tf_point(&T, m.pt[i].pos), n = lk_tf_dir(&T, m.pt[i].normal);
    int k = nearest(&w, p);
    LK_ASSERT_MSG(lk_v3_norm(lk_v3_sub(w.pt[k].pos, p)) <= tol, "%s moved: point %d off by %g",
                  what, i, lk_v3_norm(lk_v3_sub(w.pt[k].pos, p)));
    LK_ASSERT_MSG(fabs(w.pt[k].depth - m.pt[i].depth) <= tol, "%s moved: depth %g vs %g", what,
                  w.pt[k].depth, m.pt[i].depth);
    LK_ASSERT_MSG(lk_v3_norm(lk_v3_sub(w.pt[k].normal, n)) <= tol, "%s moved: normal", what);
  }
}

static void both_checks_tol(const char *what, shape a, shape b, double margin, double tol) {
  check_swap(what, a, b, margin, tol);
  check_motion(what, a, b, margin, tol);
}

static void both_checks(const char *what, shape a, shape b, double margin) {
  both_checks_tol(what, a, b, margin, 1e-9);
}

/* When a polygon is reduced to 4 points, which 4 may depend on the
 * argument order: then only the depths and normals must agree. */
static void check_swap_reduced(const char *what, shape a, shape b, double margin) {
  g_cases++;
  lk_manifold m = collide(a, b, margin), w = collide(b, a, margin);
  LK_ASSERT_MSG(m.n == w.n, "%s swapped: %d points vs %d", what, w.n, m.n);
  for (int i = 0; i < m.n && i < w.n; i++) {
    LK_ASSERT_NEAR(w.pt[i].depth, m.pt[0].depth, 1e-12);
    LK_ASSERT_MSG(lk_v3_norm(lk_v3_add(w.pt[i].normal, m.pt[0].normal)) <= 1e-12,
                  "%s swapped: normal not negated", what);
  }
}

static const double Q = 0.70710678118654752440; /* 1/sqrt 2 */

/* ---------------------------------------------------------------- planes */

static void test_sphere_plane(void) {
  int c0 = g_cases;
  shape fl = mk(PL, 0, 0, 0, at(0, 0, 0));
  expect1("penetrating", mk(SP, 0.5, 0, 0, at(1, 2, 0.4)), fl, 0, lk_v3(1, 2, -0.05), 0.1,
          lk_v3(0, 0, 1), 1e-12);
  expect1("touching", mk(SP, 0.5, 0, 0, at(0, 0, 0.5)), fl, 0, lk_v3(0, 0, 0), 0.0,
          lk_v3(0, 0, 1), 1e-12);
  expect_none("separated", mk(SP, 0.5, 0, 0, at(0, 0, 0.6)), fl, 0);
  expect1("within margin", mk(SP, 0.5, 0, 0, at(0, 0, 0.6)), fl, 0.2, lk_v3(0, 0, 0.05), -0.1,
          lk_v3(0, 0, 1), 1e-12);
  /* A plane tilted 30 degrees about x through (0, 0, 1): normal
   * (0, -sin 30, cos 30); the sphere 0.4 above a point of it. */
  lk_transform P = rot(1, 0, 0, LK_PI / 6, 0, 0, 1);
  lk_vec3 n = lk_v3(0, -0.5, sqrt(0.75));
  lk_vec3 on = lk_v3(3, 0.2, 1 + 0.2 * tan(LK_PI / 6)); /* a point of the plane */
  shape s = mk(SP, 0.5, 0, 0, at(0, 0, 0));
  s.X.p = lk_v3_madd(on, n, 0.4);
  expect1("tilted plane", s, mk(PL, 0, 0, 0, P), 0, lk_v3_madd(on, n, -0.05), 0.1, n, 1e-12);
  both_checks("sphere-plane", s, mk(PL, 0, 0, 0, P), 0);
  /* The sphere below the plane: deep, still pushed out along +n. */
  expect1("sunk", mk(SP, 0.5, 0, 0, at(0, 0, -2)), fl, 0, lk_v3(0, 0, -1.25), 2.5, lk_v3(0, 0, 1),
          1e-12);
  LK_ASSERT_INT_EQ(g_cases - c0, 8); /* every case above was checked */
}

static void test_capsule_plane(void) {
  int c0 = g_cases;
  shape fl = mk(PL, 0, 0, 0, at(0, 0, 0));
  /* Lying along x (z axis turned onto x), 0.02 deep: 2 points at the ends. */
  shape lying = mk(CA, 0.1, 0.5, 0, rot(0, 1, 0, LK_PI / 2, 0, 0, 0.08));
  lk_vec3 p2[2] = {lk_v3(-0.5, 0, -0.01), lk_v3(0.5, 0, -0.01)};
  double d2[2] = {0.02, 0.02};
  expect("lying", lying, fl, 0, 2, p2, d2, lk_v3(0, 0, 1), 1e-12);
  both_checks("capsule-plane lying", lying, fl, 0);
  /* Standing: the lower end only. */
  expect1("standing", mk(CA, 0.1, 0.5, 0, at(0, 0, 0.55)), fl, 0, lk_v3(0, 0, -0.025), 0.05,
          lk_v3(0, 0, 1), 1e-12);
  /* Tilted 30 degrees about y: lower end at z_c - 0.5 cos 30. */
  double zc = 0.5 * cos(LK_PI / 6) + 0.1 - 0.03;
  shape tilted = mk(CA, 0.1, 0.5, 0, rot(0, 1, 0, LK_PI / 6, 0, 0, zc));
  lk_vec3 end = lk_v3(-0.5 * sin(LK_PI / 6), 0, zc - 0.5 * cos(LK_PI / 6));
  expect1("tilted", tilted, fl, 0, lk_v3(end.x, 0, -0.015), 0.03, lk_v3(0, 0, 1), 1e-12);
  both_checks("capsule-plane tilted", tilted, fl, 0);
  expect_none("separated", mk(CA, 0.1, 0.5, 0, rot(0, 1, 0, LK_PI / 2, 0, 0, 0.11)), fl, 0);
  /* Half length 0: a sphere, one point. */
  expect1("zero length", mk(CA, 0.1, 0, 0, at(0, 0, 0.05)), fl, 0, lk_v3(0, 0, -0.025), 0.05,
          lk_v3(0, 0, 1), 1e-12);
  LK_ASSERT_INT_EQ(g_cases - c0, 9); /* every case above was checked */
}

static void test_box_plane(void) {
  shape fl = mk(PL, 0, 0, 0, at(0, 0, 0));
  /* Flat: exactly the 4 lower corners. */
  shape flat = mk(BX, 0.5, 0.3, 0.2, at(0, 0, 0.19));
  lk_vec3 p4[4] = {lk_v3(0.5, 0.3, -0.005), lk_v3(-0.5, 0.3, -0.005), lk_v3(0.5, -0.3, -0.005),
                   lk_v3(-0.5, -0.3, -0.005)};
  double d4[4] = {0.01, 0.01, 0.01, 0.01};
  expect("flat", flat, fl, 0, 4, p4, d4, lk_v3(0, 0, 1), 1e-12);
  both_checks("box-plane flat", flat, fl, 0);
  /* On an edge: rotated 45 degrees about x, the lowest edge (along x) is
   * (0.3 + 0.2)/sqrt 2 below the centre. */
  double he = 0.5 * Q;
  shape edge = mk(BX, 0.5, 0.3, 0.2, rot(1, 0, 0, LK_PI / 4, 0, 0, he - 0.004));
  lk_vec3 lowest = lk_tf_point(&edge.X, lk_v3(0.5, -0.3, -0.2)); /* z' = (y + z) / sqrt 2 */
  lk_vec3 p2[2] = {lk_v3(0.5, lowest.y, -0.002), lk_v3(-0.5, lowest.y, -0.002)};
  double d2[2] = {0.004, 0.004};
  expect("edge", edge, fl, 0, 2, p2, d2, lk_v3(0, 0, 1), 1e-12);
  LK_ASSERT_NEAR(lowest.z, -0.004, 1e-12); /* the corner picked is the lowest */
  both_checks("box-plane edge", edge, fl, 0);
  /* On a corner: the cube's diagonal (-1,-1,-1) turned onto -z. */
  lk_vec3 dg = lk_v3_normalize(lk_v3(-1, -1, -1)), down = lk_v3(0, 0, -1);
  double ang = acos(lk_v3_dot(dg, down));
  lk_vec3 axis = lk_v3_normalize(lk_v3_cross(dg, down));
  double hd = 0.5 * sqrt(3.0);
  shape corner = mk(BX, 0.5, 0.5, 0.5, rot(axis.x, axis.y, axis.z, ang, 0.3, 0.1, hd - 0.006));
  expect1("corner", corner, fl, 0, lk_v3(0.3, 0.1, -0.003), 0.006, lk_v3(0, 0, 1), 1e-12);
  both_checks("box-plane corner", corner, fl, 0);
  expect_none("separated", mk(BX, 0.5, 0.3, 0.2, at(0, 0, 0.2001)), fl, 0);
  /* Touching: depth exactly 0 at 4 corners. */
  lk_manifold m = collide(mk(BX, 0.5, 0.3, 0.25, at(0, 0, 0.25)), fl, 0);
  LK_ASSERT_INT_EQ(m.n, 4);
  for (int i = 0; i < m.n; i++) LK_ASSERT_NEAR(m.pt[i].depth, 0, 0);
}

static void test_cylinder_plane(void) {
  int c0 = g_cases;
  shape fl = mk(PL, 0, 0, 0, at(0, 0, 0));
  /* Flat on its cap: the 4 rim points along its own x and y. */
  shape flat = mk(CY, 0.3, 0.2, 0, at(1, 0, 0.19));
  lk_vec3 p4[4] = {lk_v3(1.3, 0, -0.005), lk_v3(0.7, 0, -0.005), lk_v3(1, 0.3, -0.005),
                   lk_v3(1, -0.3, -0.005)};
  double d4[4] = {0.01, 0.01, 0.01, 0.01};
  expect("flat", flat, fl, 0, 4, p4, d4, lk_v3(0, 0, 1), 1e-12);
  both_checks("cylinder-plane flat", flat, fl, 0);
  /* Upside down: the other cap, same points. */
  expect("flipped", mk(CY, 0.3, 0.2, 0, rot(1, 0, 0, LK_PI, 1, 0, 0.19)), fl, 0, 4, p4, d4,
         lk_v3(0, 0, 1), 1e-12);
  /* On its side (axis along x): a line contact, 2 points at the cap rims. */
  shape side = mk(CY, 0.3, 0.2, 0, rot(0, 1, 0, LK_PI / 2, 0, 0, 0.29));
  lk_vec3 p2[2] = {lk_v3(-0.2, 0, -0.005), lk_v3(0.2, 0, -0.005)};
  double d2[2] = {0.01, 0.01};
  expect("side", side, fl, 0, 2, p2, d2, lk_v3(0, 0, 1), 1e-12);
  both_checks("cylinder-plane side", side, fl, 0);
  /* Tilted 30 degrees about x: the lowest rim point of the lower cap. */
  double th = LK_PI / 6, r = 0.3, hl = 0.2;
  double low = hl * cos(th) + r * sin(th);
  shape tilt = mk(CY, r, hl, 0, rot(1, 0, 0, th, 0, 0, low - 0.02));
  /* Axis u = (0, -sin, cos); lowest point c - hl u - r (0, cos, sin). */
  lk_vec3 lp = lk_v3(0, hl * sin(th) - r * cos(th), -0.02);
  expect1("tilted", tilt, fl, 0, lk_v3(0, lp.y, -0.01), 0.02, lk_v3(0, 0, 1), 1e-12);
  both_checks("cylinder-plane tilted", tilt, fl, 0);
  expect_none("separated", mk(CY, 0.3, 0.2, 0, at(0, 0, 0.21)), fl, 0);
  LK_ASSERT_INT_EQ(g_cases - c0, 11); /* every case above was checked */
}

/* ---------------------------------------------------------------- spheres */

static void test_sphere_sphere(void) {
  int c0 = g_cases;
  shape a = mk(SP, 0.5, 0, 0, at(0, 0, 0));
  expect1("penetrating", a, mk(SP, 0.3, 0, 0, at(0.7, 0, 0)), 0, lk_v3(0.45, 0, 0), 0.1,
          lk_v3(-1, 0, 0), 1e-12);
  expect1("touching", a, mk(SP, 0.3, 0, 0, at(0, 0.8, 0)), 0, lk_v3(0, 0.5, 0), 0,
          lk_v3(0, -1, 0), 1e-12);
  expect_none("separated", a, mk(SP, 0.3, 0, 0, at(0, 0, 0.81)), 0);
  /* Diagonal, 3-4-5: centres 0.5 apart along (0.6, 0.8, 0). */
  lk_vec3 u = lk_v3(0.6, 0.8, 0);
  shape b = mk(SP, 0.1, 0, 0, lk_tf(&a.X.R, lk_v3_scale(u, 0.5)));
  expect1("diagonal", mk(SP, 0.45, 0, 0, at(0, 0, 0)), b, 0, lk_v3_scale(u, 0.425), 0.05,
          lk_v3_neg(u), 1e-12);
  both_checks("sphere-sphere", mk(SP, 0.45, 0, 0, at(0, 0, 0)), b, 0);
  LK_ASSERT_INT_EQ(g_cases - c0, 6); /* every case above was checked */
}

static void test_capsule_sphere(void) {
  int c0 = g_cases;
  shape c = mk(CA, 0.1, 0.5, 0, at(0, 0, 0));
  expect1("side", c, mk(SP, 0.2, 0, 0, at(0.25, 0, 0.3)), 0, lk_v3(0.075, 0, 0.3), 0.05,
          lk_v3(-1, 0, 0), 1e-12);
  expect1("end", c, mk(SP, 0.2, 0, 0, at(0, 0, 0.75)), 0, lk_v3(0, 0, 0.575), 0.05,
          lk_v3(0, 0, -1), 1e-12);
  expect_none("separated", c, mk(SP, 0.2, 0, 0, at(0.31, 0, 0)), 0);
  expect1("touching", c, mk(SP, 0.2, 0, 0, at(0, -0.3, -0.5)), 0, lk_v3(0, -0.1, -0.5), 0,
          lk_v3(0, 1, 0), 1e-12);
  shape tilted = mk(CA, 0.1, 0.5, 0, rot(1, 1, 0, 0.7, 0.1, 0.2, 0.3));
  both_checks("capsule-sphere", tilted, mk(SP, 0.2, 0, 0, at(0.3, 0.1, 0.2)), 0);
  LK_ASSERT_INT_EQ(g_cases - c0, 6); /* every case above was checked */
}

static void test_capsule_capsule(void) {
  int c0 = g_cases;
  /* Crossed: a along x, b along y above it. */
  shape a = mk(CA, 0.1, 0.5, 0, rot(0, 1, 0, LK_PI / 2, 0, 0, 0));
  shape b = mk(CA, 0.1, 0.5, 0, rot(1, 0, 0, LK_PI / 2, 0, 0, 0.18));
  expect1("crossed", a, b, 0, lk_v3(0, 0, 0.09), 0.02, lk_v3(0, 0, -1), 1e-12);
  both_checks("capsule-capsule crossed", a, b, 0);
  /* Side by side, parallel: the overlap [-0.1, 0.5] along x. */
  shape c = mk(CA, 0.1, 0.3, 0, rot(0, 1, 0, LK_PI / 2, 0.2, 0, 0.19));
  lk_vec3 p2[2] = {lk_v3(-0.1, 0, 0.095), lk_v3(0.5, 0, 0.095)};
  double d2[2] = {0.01, 0.01};
  expect("parallel", a, c, 0, 2, p2, d2, lk_v3(0, 0, -1), 1e-12);
  both_checks("capsule-capsule parallel", a, c, 0);
  expect_none("separated", a, mk(CA, 0.1, 0.3, 0, rot(0, 1, 0, LK_PI / 2, 0.2, 0, 0.21)), 0);
  /* End to end along the same line: one point. */
  expect1("end to end", a, mk(CA, 0.1, 0.3, 0, rot(0, 1, 0, LK_PI / 2, 0.99, 0, 0)), 0,
          lk_v3(0.595, 0, 0), 0.01, lk_v3(-1, 0, 0), 1e-12);
  both_checks("capsule-capsule skew", mk(CA, 0.1, 0.5, 0, rot(1, 2, 3, 0.5, 0, 0, 0)),
              mk(CA, 0.15, 0.4, 0, rot(3, -1, 1, 1.2, 0.1, 0.05, 0.2)), 0);
  LK_ASSERT_INT_EQ(g_cases - c0, 10); /* every case above was checked */
}

static void test_box_sphere(void) {
  int c0 = g_cases;
  shape bx = mk(BX, 0.5, 0.5, 0.5, at(0, 0, 0));
  expect1("face", bx, mk(SP, 0.2, 0, 0, at(0.1, 0, 0.65)), 0, lk_v3(0.1, 0, 0.475), 0.05,
          lk_v3(0, 0, -1), 1e-12);
  double e = 0.1 * sqrt(3.0);
  lk_vec3 dg = lk_v3_normalize(lk_v3(1, 1, 1));
  lk_vec3 cp = lk_v3(0.5, 0.5, 0.5), sp = lk_v3_madd(lk_v3(0.6, 0.6, 0.6), dg, -0.2);
  expect1("corner", bx, mk(SP, 0.2, 0, 0, at(0.6, 0.6, 0.6)), 0,
          lk_v3_scale(lk_v3_add(cp, sp), 0.5), 0.2 - e, lk_v3_neg(dg), 1e-12);
  /* Centre inside, 0.1 below the top face: out through the top. */
  expect1("inside", bx, mk(SP, 0.2, 0, 0, at(0, 0.1, 0.4)), 0, lk_v3(0, 0.1, 0.35), 0.3,
          lk_v3(0, 0, -1), 1e-12);
  expect_none("separated", bx, mk(SP, 0.2, 0, 0, at(0, -0.71, 0)), 0);
  expect1("touching", bx, mk(SP, 0.2, 0, 0, at(0, -0.7, 0)), 0, lk_v3(0, -0.5, 0), 0,
          lk_v3(0, 1, 0), 1e-12);
  both_checks("box-sphere", mk(BX, 0.5, 0.3, 0.2, rot(1, -2, 1, 0.8, 0, 0, 0)),
              mk(SP, 0.2, 0, 0, at(0.2, 0.3, 0.25)), 0);
  LK_ASSERT_INT_EQ(g_cases - c0, 7); /* every case above was checked */
}

static void test_box_capsule(void) {
  int c0 = g_cases;
  shape bx = mk(BX, 1, 1, 0.5, at(0, 0, 0));
  /* Lying on the top face along x: both ends. */
  shape lying = mk(CA, 0.1, 0.5, 0, rot(0, 1, 0, LK_PI / 2, 0, 0.2, 0.59));
  lk_vec3 p2[2] = {lk_v3(-0.5, 0.2, 0.495), lk_v3(0.5, 0.2, 0.495)};
  double d2[2] = {0.01, 0.01};
  expect("lying", bx, lying, 0, 2, p2, d2, lk_v3(0, 0, -1), 1e-12);
  both_checks("box-capsule lying", bx, lying, 0);
  /* Overhanging the +x edge: clipped at x = 1. */
  shape over = mk(CA, 0.1, 0.5, 0, rot(0, 1, 0, LK_PI / 2, 0.8, 0, 0.59));
  lk_vec3 q2[2] = {lk_v3(0.3, 0, 0.495), lk_v3(1, 0, 0.495)};
  expect("overhanging", bx, over, 0, 2, q2, d2, lk_v3(0, 0, -1), 1e-12);
  /* Standing on the face: one point. */
  expect1("standing", bx, mk(CA, 0.1, 0.5, 0, at(0.3, 0.3, 1.09)), 0, lk_v3(0.3, 0.3, 0.495),
          0.01, lk_v3(0, 0, -1), 1e-12);
  /* Along y above the edge x = 1, z = 0.5: closest to the edge. */
  double dist = 0.05 * sqrt(2.0);
  lk_vec3 nn = lk_v3(Q, 0, Q);
  lk_vec3 edge_p = lk_v3(1, 0, 0.5), axis_p = lk_v3(1.05, 0, 0.55);
  expect1("edge", bx, mk(CA, 0.1, 0.4, 0, rot(1, 0, 0, LK_PI / 2, 1.05, 0, 0.55)), 0,
          lk_v3_scale(lk_v3_add(edge_p, lk_v3_madd(axis_p, nn, -0.1)), 0.5), 0.1 - dist,
          lk_v3_neg(nn), 1e-12);
  expect_none("separated", bx, mk(CA, 0.1, 0.4, 0, rot(1, 0, 0, LK_PI / 2, 1.1, 0, 0.6)), 0);
  /* The segment pierces the box near its +x side: the least penetration is
   * sideways, 0.2, through the +x face; the part of the segment inside
   * the prism over that face (z in [0.2, 0.5]) gives the two points. */
  shape pierce = mk(CA, 0.1, 0.4, 0, at(0.9, 0, 0.6));
  lk_vec3 r2[2] = {lk_v3(0.9, 0, 0.2), lk_v3(0.9, 0, 0.5)};
  double e2[2] = {0.2, 0.2};
  expect("pierced", bx, pierce, 0, 2, r2, e2, lk_v3(-1, 0, 0), 1e-12);
  both_checks("box-capsule pierced", bx, pierce, 0);
  both_checks("box-capsule skew", mk(BX, 0.4, 0.3, 0.2, rot(1, 1, 1, 0.4, 0, 0, 0)),
              mk(CA, 0.1, 0.3, 0, rot(1, -1, 0, 1.0, 0.2, 0.1, 0.35)), 0);
  LK_ASSERT_INT_EQ(g_cases - c0, 12); /* every case above was checked */
}

static void test_box_box(void) {
  shape big = mk(BX, 1, 1, 0.5, at(0, 0, 0));
  /* A smaller cube on a larger box: its 4 lower corners. */
  shape small = mk(BX, 0.25, 0.25, 0.25, at(0.1, 0.2, 0.74));
  lk_vec3 p4[4];
  double d4[4];
  for (int i = 0; i < 4; i++) {
    p4[i] = lk_v3(0.1 + (i & 1 ? 0.25 : -0.25), 0.2 + (i & 2 ? 0.25 : -0.25), 0.495);
    d4[i] = 0.01;
  }
  expect("stacked", small, big, 0, 4, p4, d4, lk_v3(0, 0, 1), 1e-12);
  both_checks("box-box stacked", small, big, 0);
  /* Two equal cubes, aligned: 4 points at the shared corners. */
  shape lo = mk(BX, 0.5, 0.5, 0.5, at(0, 0, 0)), hi = mk(BX, 0.5, 0.5, 0.5, at(0, 0, 0.98));
  for (int i = 0; i < 4; i++) {
    p4[i] = lk_v3(i & 1 ? 0.5 : -0.5, i & 2 ? 0.5 : -0.5, 0.49);
    d4[i] = 0.02;
  }
  expect("equal aligned", hi, lo, 0, 4, p4, d4, lk_v3(0, 0, 1), 1e-12);
  both_checks("box-box equal", hi, lo, 0);
  /* Offset by half a side along x: the overlap rectangle's corners. */
  shape off = mk(BX, 0.5, 0.5, 0.5, at(0.5, 0, 0.98));
  for (int i = 0; i < 4; i++) p4[i] = lk_v3(i & 1 ? 0.5 : 0, i & 2 ? 0.5 : -0.5, 0.49);
  expect("offset", off, lo, 0, 4, p4, d4, lk_v3(0, 0, 1), 1e-12);
  both_checks("box-box offset", off, lo, 0);
  /* Turned 45 degrees about z on an equal cube: the overlap is an octagon
   * (vertices at distance 0.5 / cos 22.5 from the centre); 4 of them. */
  shape turned = mk(BX, 0.5, 0.5, 0.5, rot(0, 0, 1, LK_PI / 4, 0, 0, 0.98));
  lk_manifold m = collide(turned, lo, 0);
  LK_ASSERT_INT_EQ(m.n, 4);
  double rv = 0.5 / cos(LK_PI / 8);
  for (int i = 0; i < m.n; i++) {
    LK_ASSERT_NEAR(m.pt[i].depth, 0.02, 1e-12);
    LK_ASSERT_NEAR(m.pt[i].pos.z, 0.49, 1e-12);
    LK_ASSERT_NEAR(hypot(m.pt[i].pos.x, m.pt[i].pos.y), rv, 1e-12);
    LK_ASSERT_NEAR(m.pt[i].normal.z, 1, 1e-12);
  }
  /* Area spanned: at least half the octagon's (a square on 4 of its 8
   * vertices, not all bunched on one side). */
  if (m.n == 4) {
    double cx = 0, cy = 0;
    for (int i = 0; i < 4; i++) {
      cx += m.pt[i].pos.x / 4;
      cy += m.pt[i].pos.y / 4;
    }
    LK_ASSERT_MSG(hypot(cx, cy) < 0.2, "reduced points bunched: centroid (%g %g)", cx, cy);
  }
  check_swap_reduced("box-box turned", turned, lo, 0);
  check_motion("box-box turned", turned, lo, 0, 1e-9);
  /* Tilted 45 degrees about x on the big box: the lower edge, 2 points. */
  double he = 0.25 * sqrt(2.0);
  shape edge = mk(BX, 0.25, 0.25, 0.25, rot(1, 0, 0, LK_PI / 4, 0, 0, 0.5 + he - 0.01));
  lk_vec3 p2[2] = {lk_v3(-0.25, 0, 0.495), lk_v3(0.25, 0, 0.495)};
  double d2[2] = {0.01, 0.01};
  expect("edge on face", edge, big, 0, 2, p2, d2, lk_v3(0, 0, 1), 1e-9);
  /* Edge on edge: a's lowest edge along x, b's highest along y. */
  shape ea = mk(BX, 0.5, 0.5, 0.5, rot(1, 0, 0, LK_PI / 4, 0, 0, 2 * 0.5 * sqrt(2.0) - 0.03));
  shape eb = mk(BX, 0.5, 0.5, 0.5, rot(0, 1, 0, LK_PI / 4, 0, 0, 0));
  double hz = 0.5 * sqrt(2.0) - 0.03 / 2;
  expect1("edge on edge", ea, eb, 0, lk_v3(0, 0, hz), 0.03, lk_v3(0, 0, 1), 1e-12);
  both_checks("box-box edges", ea, eb, 0);
  expect_none("separated", mk(BX, 0.25, 0.25, 0.25, at(0.1, 0.2, 0.7501)), big, 0);
  /* Within the margin: negative depth, same 4 corners. */
  shape above = mk(BX, 0.25, 0.25, 0.25, at(0, 0, 0.76));
  m = collide(above, big, 0.05);
  LK_ASSERT_INT_EQ(m.n, 4);
  for (int i = 0; i < m.n; i++) LK_ASSERT_NEAR(m.pt[i].depth, -0.01, 1e-12);
  expect_none("beyond margin", above, big, 0.005);
  both_checks("box-box skew", mk(BX, 0.5, 0.3, 0.2, rot(1, 2, 0.5, 0.6, 0, 0, 0)),
              mk(BX, 0.4, 0.25, 0.3, rot(-1, 0.5, 2, 1.3, 0.3, 0.2, 0.55)), 0);
}

static void test_cylinder_sphere(void) {
  int c0 = g_cases;
  shape cy = mk(CY, 0.3, 0.5, 0, at(0, 0, 0));
  expect1("side", cy, mk(SP, 0.1, 0, 0, at(0.35, 0, 0.1)), 0, lk_v3(0.275, 0, 0.1), 0.05,
          lk_v3(-1, 0, 0), 1e-12);
  expect1("cap", cy, mk(SP, 0.1, 0, 0, at(0.1, 0, 0.55)), 0, lk_v3(0.1, 0, 0.475), 0.05,
          lk_v3(0, 0, -1), 1e-12);
  double dist = 0.05 * sqrt(2.0);
  lk_vec3 nn = lk_v3(Q, 0, Q);
  expect1("rim", cy, mk(SP, 0.1, 0, 0, at(0.35, 0, 0.55)), 0,
          lk_v3_scale(lk_v3_add(lk_v3(0.3, 0, 0.5), lk_v3_madd(lk_v3(0.35, 0, 0.55), nn, -0.1)),
                      0.5),
          0.1 - dist, lk_v3_neg(nn), 1e-12);
  expect1("inside", cy, mk(SP, 0.1, 0, 0, at(0, 0.25, 0)), 0, lk_v3(0, 0.225, 0), 0.15,
          lk_v3(0, -1, 0), 1e-12);
  expect_none("separated", cy, mk(SP, 0.1, 0, 0, at(0, 0, 0.61)), 0);
  both_checks("cylinder-sphere", mk(CY, 0.3, 0.5, 0, rot(1, 1, 0, 0.9, 0, 0, 0)),
              mk(SP, 0.2, 0, 0, at(0.3, 0.2, 0.1)), 0);
  LK_ASSERT_INT_EQ(g_cases - c0, 7); /* every case above was checked */
}

/* ---------------------------------------------------- GJK/EPA pairs */

static void test_cylinder_capsule(void) {
  int c0 = g_cases;
  shape cy = mk(CY, 0.3, 0.5, 0, at(0, 0, 0));
  /* Lying across the cap: 2 points. */
  shape lying = mk(CA, 0.1, 0.2, 0, rot(0, 1, 0, LK_PI / 2, 0, 0.05, 0.59));
  lk_vec3 p2[2] = {lk_v3(-0.2, 0.05, 0.495), lk_v3(0.2, 0.05, 0.495)};
  double d2[2] = {0.01, 0.01};
  expect("on the cap", cy, lying, 0, 2, p2, d2, lk_v3(0, 0, -1), 1e-7);
  both_checks("cylinder-capsule cap", cy, lying, 0);
  /* Upright alongside, parallel axes: the side line, 2 points. */
  shape along = mk(CA, 0.1, 0.2, 0, at(0.39, 0, 0.1));
  lk_vec3 q2[2] = {lk_v3(0.295, 0, -0.1), lk_v3(0.295, 0, 0.3)};
  expect("alongside", cy, along, 0, 2, q2, d2, lk_v3(-1, 0, 0), 1e-7);
  /* Crossing the side horizontally: one point. */
  shape across = mk(CA, 0.1, 0.2, 0, rot(1, 0, 0, LK_PI / 2, 0.39, 0, 0.1));
  expect1("across", cy, across, 0, lk_v3(0.295, 0, 0.1), 0.01, lk_v3(-1, 0, 0), 1e-7);
  both_checks("cylinder-capsule across", cy, across, 0);
  expect_none("separated", cy, mk(CA, 0.1, 0.2, 0, at(0.41, 0, 0.1)), 0);
  /* Within the margin: a gap of 0.01 is depth -0.01 (GJK distance). */
  shape gap = mk(CA, 0.1, 0.2, 0, rot(1, 0, 0, LK_PI / 2, 0.41, 0, 0.1));
  expect1("near", cy, gap, 0.02, lk_v3(0.305, 0, 0.1), -0.01, lk_v3(-1, 0, 0), 1e-7);
  LK_ASSERT_INT_EQ(g_cases - c0, 9); /* every case above was checked */
}

static void test_cylinder_box(void) {
  shape bx = mk(BX, 1, 1, 0.5, at(0, 0, 0));
  /* Standing on the box: the 4 rim points. */
  shape up = mk(CY, 0.3, 0.2, 0, at(0.2, 0.1, 0.69));
  lk_vec3 p4[4] = {lk_v3(0.5, 0.1, 0.495), lk_v3(-0.1, 0.1, 0.495), lk_v3(0.2, 0.4, 0.495),
                   lk_v3(0.2, -0.2, 0.495)};
  double d4[4] = {0.01, 0.01, 0.01, 0.01};
  expect("standing", up, bx, 0, 4, p4, d4, lk_v3(0, 0, 1), 1e-9);
  both_checks("cylinder-box standing", up, bx, 0);
  /* Lying on the box (axis along x): 2 points. */
  shape lying = mk(CY, 0.3, 0.2, 0, rot(0, 1, 0, LK_PI / 2, 0, 0, 0.79));
  lk_vec3 p2[2] = {lk_v3(-0.2, 0, 0.495), lk_v3(0.2, 0, 0.495)};
  double d2[2] = {0.01, 0.01};
  expect("lying", lying, bx, 0, 2, p2, d2, lk_v3(0, 0, 1), 1e-7);
  both_checks("cylinder-box lying", lying, bx, 0);
  /* A small box on a large cap: the box's 4 corners (the disk is the
   * reference). */
  shape coin = mk(CY, 0.5, 0.2, 0, at(0, 0, 0));
  shape cube = mk(BX, 0.1, 0.1, 0.1, at(0.05, 0, 0.29));
  for (int i = 0; i < 4; i++) p4[i] = lk_v3(0.05 + (i & 1 ? 0.1 : -0.1), i & 2 ? 0.1 : -0.1, 0.195);
  expect("box on cap", coin, cube, 0, 4, p4, d4, lk_v3(0, 0, -1), 1e-9);
  both_checks("cylinder-box cap", coin, cube, 0);
  /* Tilted 30 degrees: one point, depth of the lowest rim point. */
  double th = LK_PI / 6, low = 0.2 * cos(th) + 0.3 * sin(th);
  shape tilt = mk(CY, 0.3, 0.2, 0, rot(1, 0, 0, th, 0, 0, 0.5 + low - 0.02));
  lk_manifold m = collide(tilt, bx, 0);
  LK_ASSERT_INT_EQ(m.n, 1);
  if (m.n == 1) {
    LK_ASSERT_NEAR(m.pt[0].depth, 0.02, 1e-7);
    LK_ASSERT_NEAR(m.pt[0].normal.z, 1, 1e-7);
    LK_ASSERT_NEAR(m.pt[0].pos.y, 0.2 * sin(th) - 0.3 * cos(th), 1e-6);
  }
  expect_none("separated", up, mk(BX, 1, 1, 0.5, at(0, 0, -0.02)), 0);
}

static void test_cylinder_cylinder(void) {
  int c0 = g_cases;
  /* Coins: a smaller one on a larger one, 4 rim points of the smaller. */
  shape lo = mk(CY, 0.5, 0.1, 0, at(0, 0, 0)), hi = mk(CY, 0.3, 0.1, 0, at(0.1, 0, 0.19));
  lk_vec3 p4[4] = {lk_v3(0.4, 0, 0.095), lk_v3(-0.2, 0, 0.095), lk_v3(0.1, 0.3, 0.095),
                   lk_v3(0.1, -0.3, 0.095)};
  double d4[4] = {0.01, 0.01, 0.01, 0.01};
  expect("coins", hi, lo, 0, 4, p4, d4, lk_v3(0, 0, 1), 1e-9);
  both_checks("cylinder-cylinder coins", hi, lo, 0);
  /* Logs side by side (axes along x), 0.01 deep: 2 points. */
  shape la = mk(CY, 0.3, 0.5, 0, rot(0, 1, 0, LK_PI / 2, 0, 0, 0));
  shape lb = mk(CY, 0.3, 0.4, 0, rot(0, 1, 0, LK_PI / 2, 0.2, 0.59, 0));
  lk_vec3 p2[2] = {lk_v3(-0.2, 0.295, 0), lk_v3(0.5, 0.295, 0)};
  double d2[2] = {0.01, 0.01};
  expect("logs", la, lb, 0, 2, p2, d2, lk_v3(0, -1, 0), 1e-7);
  both_checks("cylinder-cylinder logs", la, lb, 0);
  /* Crossed logs: one point between the axes. */
  shape lc = mk(CY, 0.3, 0.4, 0, rot(1, 0, 0, LK_PI / 2, 0, 0, 0.59));
  expect1("crossed logs", la, lc, 0, lk_v3(0, 0, 0.295), 0.01, lk_v3(0, 0, -1), 1e-7);
  both_checks("cylinder-cylinder crossed", la, lc, 0);
  expect_none("separated", la, mk(CY, 0.3, 0.4, 0, rot(1, 0, 0, LK_PI / 2, 0, 0, 0.61)), 0);
  /* Skew and penetrating: symmetric under swap and rigid motion. */
  /* (EPA on curved surfaces: directions to ~1e-5, depths to ~1e-9.) */
  both_checks_tol("cylinder-cylinder skew", mk(CY, 0.3, 0.4, 0, rot(1, 2, 3, 0.7, 0, 0, 0)),
                  mk(CY, 0.2, 0.5, 0, rot(-2, 1, 1, 1.9, 0.25, 0.1, 0.3)), 0, 1e-4);
  LK_ASSERT_INT_EQ(g_cases - c0, 12); /* every case above was checked */
}

/* ------------------------------------------- GJK/EPA vs the closed forms */

static double urand(unsigned *s, double lo, double hi) {
  *s = *s * 1103515245u + 12345u;
  return lo + (hi - lo) * ((*s >> 8) & 0xffffff) / (double)0x1000000;
}

static lk_transform rand_pose(unsigned *s, double spread) {
  lk_vec3 ax = lk_v3(urand(s, -1, 1), urand(s, -1, 1), urand(s, -1, 1));
  if (lk_v3_norm(ax) < 1e-3) ax = lk_v3(0, 0, 1);
  return rot(ax.x, ax.y, ax.z, urand(s, 0, LK_PI), urand(s, -spread, spread),
             urand(s, -spread, spread), urand(s, -spread, spread));
}

static shape rand_shape(unsigned *s, lk_geom_type t, double spread) {
  return mk(t, urand(s, 0.1, 0.4), urand(s, 0.1, 0.4), urand(s, 0.1, 0.4), rand_pose(s, spread));
}

/* The deepest point of a manifold. */
static const lk_contact_point *deepest(const lk_manifold *m) {
  const lk_contact_point *p = NULL;
  for (int i = 0; i < m->n; i++)
    if (!p || m->pt[i].depth > p->depth) p = &m->pt[i];
  return p;
}

static void test_gjk_matches_closed_forms(void) {
  /* For sphere, capsule and box pairs and cylinder-sphere, the minimum
   * distance / minimum penetration from GJK/EPA must agree with the closed
   * forms (SAT for boxes, within its face bias). */
  const lk_geom_type types[4] = {SP, CA, BX, CY};
  unsigned seed = 12345;
  int compared = 0, penetrating = 0, separated = 0;
  for (int ia = 0; ia < 4; ia++)
    for (int ib = 0; ib <= ia; ib++)
      for (int trial = 0; trial < 300; trial++) {
        /* Among cylinder pairs only cylinder-sphere has a closed form. */
        if (types[ia] == CY && types[ib] != SP) break;
        shape a = rand_shape(&seed, types[ia], 0.35), b = rand_shape(&seed, types[ib], 0.35);
        lk_shape sa = {.type = a.t, .size = {a.s[0], a.s[1], a.s[2]}, .X = a.X},
                 sb = {.type = b.t, .size = {b.s[0], b.s[1], b.s[2]}, .X = b.X};
        lk_manifold mc, mg;
        mc.n = mg.n = 0;
        double margin = 0.3;
        lk_col_collide(&sa, &sb, margin, &mc);
        lk_col_convex(&sa, &sb, margin, &mg);
        const lk_contact_point *pc = deepest(&mc), *pg = deepest(&mg);
        LK_ASSERT_MSG((pc != NULL) == (pg != NULL), "types %d %d trial %d: closed %d points, GJK %d",
                      a.t, b.t, trial, mc.n, mg.n);
        if (!pc || !pg) continue;
        double tol = 1e-6;
        double smin = fmin(fmin(fmin(a.s[0], a.s[1]), a.s[2]), fmin(fmin(b.s[0], b.s[1]), b.s[2]));
        if (a.t == BX && b.t == BX && pc->depth < 0) {
          /* Boxes apart: the face manifold gives the heights of the
           * incident points above the reference face, the edge case the
           * separating-axis gap; exact for face-on-face approach only. */
          tol = 0.1 * fabs(pc->depth) + 1e-3 * smin;
        } else if (a.t == BX && b.t == BX) {
          /* SAT keeps a face axis unless an edge axis is clearly better. */
          tol = 1e-3 * smin + 0.05 * pc->depth + 1e-6;
          LK_ASSERT_MSG(pc->depth >= pg->depth - 1e-6, "box-box %d: SAT depth %.9g < EPA %.9g",
                        trial, pc->depth, pg->depth);
        } else if (pc->depth > 0 && (a.t == BX || b.t == BX) && mc.n > 1) {
          /* A face manifold's deepest clipped point is the penetration along
           * the face normal, which can only exceed the minimum. */
          tol = 1e-6 + 0.05 * pc->depth;
        }
        LK_ASSERT_MSG(fabs(pc->depth - pg->depth) <= tol,
                      "types %d %d trial %d: depth closed %.12g vs GJK %.12g", a.t, b.t, trial,
                      pc->depth, pg->depth);
        if (pc->depth < 0 && !(a.t == BX && b.t == BX)) {
          separated++;
          /* Apart: the distance is unique, and so is the direction. */
          LK_ASSERT_MSG(lk_v3_norm(lk_v3_sub(pc->normal, pg->normal)) < 1e-4,
                        "types %d %d trial %d: normals differ", a.t, b.t, trial);
        } else {
          penetrating++;
        }
        compared++;
      }
  LK_ASSERT_MSG(compared > 600 && penetrating > 100 && separated > 100,
                "too few cases: %d compared, %d penetrating, %d separated", compared, penetrating,
                separated);
}

static void test_epa_accuracy_on_curved_shapes(void) {
  /* Two parallel cylinders, axes 0.55 apart, radii 0.3: depth 0.05 exactly,
   * through EPA on curved Minkowski sums. */
  lk_shape a = {CY, {0.3, 0.5, 0}, rot(0, 1, 0, LK_PI / 2, 0, 0, 0), NULL};
  lk_shape b = {CY, {0.3, 0.5, 0}, rot(0, 1, 0, LK_PI / 2, 0.1, 0.55 * 0.6, 0.55 * 0.8), NULL};
  lk_gjk_result g;
  lk_col_gjk_epa(&a, &b, &g);
  LK_ASSERT_INT_EQ(g.intersect, 1);
  LK_ASSERT_INT_EQ(g.ok, 1);
  LK_ASSERT_NEAR(g.depth, 0.05, 1e-7);
  LK_ASSERT_NEAR(g.normal.y, -0.6, 1e-4);
  LK_ASSERT_NEAR(g.normal.z, -0.8, 1e-4);
  /* Separated by 0.02: GJK distance. */
  b.X.p = lk_v3(0.1, 0.62 * 0.6, 0.62 * 0.8);
  lk_col_gjk_epa(&a, &b, &g);
  LK_ASSERT_INT_EQ(g.intersect, 0);
  LK_ASSERT_NEAR(g.dist, 0.02, 1e-8);
  /* Deep: a box whose centre is inside a cylinder. */
  lk_shape c = {.type = CY, .size = {0.5, 0.5, 0}, .X = at(0, 0, 0)};
  lk_shape d = {.type = BX, .size = {0.1, 0.1, 0.1}, .X = at(0, 0, 0.45)};
  lk_col_gjk_epa(&c, &d, &g);
  LK_ASSERT_INT_EQ(g.intersect, 1);
  LK_ASSERT_NEAR(g.depth, 0.15, 1e-8); /* out through the cap: 0.5 - 0.45 + 0.1 */
  LK_ASSERT_NEAR(g.normal.z, -1, 1e-8);
}

/* A cylinder's side a hair above a box's edge (the rover's wheel at the
 * ramp's crest): the separated cores' normal is the edge-to-axis direction
 * u, not the short witness difference's (which was 6 degrees off, and the
 * face clipping along it reported 6 cm of depth: a step refused as
 * unphysical). Edge along y at x 0.3, z 0.05; u from the top face's normal
 * towards the end face's. */
static void test_cylinder_side_on_box_edge(void) {
  static const double deg[] = {0.3, 0.5, 2, 10, 45, 80};
  static const double gaps[] = {1e-7, 3e-6, 1e-4};
  shape bx = mk(BX, 0.3, 0.6, 0.05, at(0, 0, 0));
  lk_shape core_b = {BX, {0.3, 0.6, 0.05}, at(0, 0, 0), NULL};
  for (size_t i = 0; i < sizeof deg / sizeof *deg; i++)
    for (size_t k = 0; k < sizeof gaps / sizeof *gaps; k++) {
      double be = deg[i] * LK_PI / 180, gap = gaps[k];
      lk_vec3 u = lk_v3(sin(be), 0, cos(be));
      lk_vec3 c = lk_v3_madd(lk_v3(0.3, 0.02, 0.05), u, 0.1 + gap);
      lk_transform X = rot(1, 0, 0, LK_PI / 2, c.x, c.y, c.z); /* axis along y */
      lk_shape core_a = {CY, {0.1, 0.03, 0}, X, NULL};
      lk_gjk_result g;
      lk_col_gjk_epa(&core_a, &core_b, &g);
      LK_ASSERT_MSG(!g.intersect && fabs(g.dist - gap) < 1e-9 * (1 + 1e3 * gap),
                    "%.1f deg, gap %g: separated by %.3g (intersect %d)", deg[i], gap, g.dist,
                    g.intersect);
      LK_ASSERT_MSG(lk_v3_dot(g.normal, u) > 1 - 1e-10,
                    "%.1f deg, gap %g: normal (%.6f, %.6f, %.6f), want (%.6f, 0, %.6f)", deg[i],
                    gap, g.normal.x, g.normal.y, g.normal.z, u.x, u.z);
      lk_manifold m = collide(mk(CY, 0.1, 0.03, 0, X), bx, 1e-3);
      LK_ASSERT_MSG(m.n >= 1, "%.1f deg, gap %g: no contact within the margin", deg[i], gap);
      for (int p = 0; p < m.n; p++)
        LK_ASSERT_MSG(fabs(m.pt[p].depth + gap) < 1e-8 && lk_v3_dot(m.pt[p].normal, u) > 1 - 1e-10,
                      "%.1f deg, gap %g: point %d depth %.3g normal.u %.12f", deg[i], gap, p,
                      m.pt[p].depth, lk_v3_dot(m.pt[p].normal, u));
    }
}

/* Every pair exactly touching (binary-exact sizes and positions): the
 * expected number of points at depth 0; 1e-6 apart: nothing. */
static void test_touching_every_pair(void) {
  lk_transform lying = rot(0, 1, 0, LK_PI / 2, 0, 0, 0); /* z axis onto x */
  typedef struct {
    const char *what;
    shape a, b;
    int n;
    double tol;
  } tcase;
  shape fl = mk(PL, 0, 0, 0, at(0, 0, 0)), big = mk(BX, 1, 1, 0.5, at(0, 0, 0));
  shape cyl = mk(CY, 0.5, 0.5, 0, at(0, 0, 0));
  tcase cases[] = {
      {"sphere-plane", mk(SP, 0.25, 0, 0, at(0, 0, 0.25)), fl, 1, 0},
      {"capsule-plane", mk(CA, 0.125, 0.5, 0, at(0, 0, 0.625)), fl, 1, 0},
      {"box-plane", mk(BX, 0.25, 0.25, 0.25, at(0, 0, 0.25)), fl, 4, 0},
      {"cylinder-plane", mk(CY, 0.25, 0.25, 0, at(0, 0, 0.25)), fl, 4, 0},
      {"sphere-sphere", mk(SP, 0.25, 0, 0, at(0, 0, 0.5)), mk(SP, 0.25, 0, 0, at(0, 0, 0)), 1, 0},
      {"capsule-sphere", mk(CA, 0.125, 0.5, 0, at(0, 0, 0)), mk(SP, 0.25, 0, 0, at(0.375, 0, 0)), 1, 0},
      {"capsule-capsule", mk(CA, 0.125, 0.5, 0, at(0, 0, 0)),
       mk(CA, 0.125, 0.5, 0, rot(0, 1, 0, LK_PI / 2, 0, 0, 0.75)), 1, 0},
      {"box-sphere", big, mk(SP, 0.25, 0, 0, at(0, 0, 0.75)), 1, 0},
      {"box-capsule", big, mk(CA, 0.125, 0.5, 0, (lk_transform){lying.R, {0, 0, 0.625}}), 2, 0},
      {"box-box", mk(BX, 0.25, 0.25, 0.25, at(0, 0, 0.75)), big, 4, 0},
      {"cylinder-sphere", cyl, mk(SP, 0.25, 0, 0, at(0, 0, 0.75)), 1, 0},
      {"cylinder-capsule", cyl, mk(CA, 0.125, 0.25, 0, (lk_transform){lying.R, {0, 0, 0.625}}), 2,
       1e-9},
      {"cylinder-box", mk(CY, 0.25, 0.25, 0, at(0, 0, 0.75)), big, 4, 1e-9},
      {"cylinder-cylinder", mk(CY, 0.25, 0.25, 0, at(0, 0, 0.75)), cyl, 4, 1e-9},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    tcase *c = &cases[k];
    lk_manifold m = collide(c->a, c->b, 0);
    LK_ASSERT_MSG(m.n == c->n, "%s touching: %d points, expected %d", c->what, m.n, c->n);
    for (int i = 0; i < m.n; i++)
      LK_ASSERT_MSG(fabs(m.pt[i].depth) <= c->tol, "%s touching: depth %g", c->what, m.pt[i].depth);
    /* Pull a away from b by 1e-6 along b -> a: no contact at margin 0. */
    shape a2 = c->a;
    lk_vec3 dir = lk_v3_normalize(lk_v3_sub(c->a.X.p, c->b.X.p));
    a2.X.p = lk_v3_madd(a2.X.p, dir, 1e-6);
    lk_manifold w = collide(a2, c->b, 0);
    LK_ASSERT_MSG(w.n == 0, "%s 1e-6 apart: %d points", c->what, w.n);
  }
}

/* Random pairs with a cylinder: finite, unit normals, and the same deepest
 * depth whichever way round (GJK/EPA starts from different simplices). */
static void test_cylinder_pairs_fuzz(void) {
  unsigned seed = 777;
  const lk_geom_type other[4] = {CA, BX, CY, SP};
  int contacts = 0;
  for (int trial = 0; trial < 4000; trial++) {
    shape a = mk(CY, urand(&seed, 0.05, 0.5), urand(&seed, 0.05, 0.5), 0, rand_pose(&seed, 0.4));
    shape b = mk(other[trial % 4], urand(&seed, 0.05, 0.5), urand(&seed, 0.0, 0.5) + 0.01,
                 urand(&seed, 0.05, 0.5), rand_pose(&seed, 0.4));
    lk_manifold m = collide(a, b, 0.05), w = collide(b, a, 0.05);
    LK_ASSERT_MSG((m.n > 0) == (w.n > 0), "trial %d: %d points vs %d swapped", trial, m.n, w.n);
    double dm = -INFINITY, dw = -INFINITY;
    for (int i = 0; i < m.n; i++) {
      const lk_contact_point *p = &m.pt[i];
      LK_ASSERT_MSG(isfinite(p->depth) && lk_v3_isfinite(p->pos) && fabs(lk_v3_norm(p->normal) - 1) < 1e-9,
                    "trial %d: bad point", trial);
      dm = fmax(dm, p->depth);
    }
    for (int i = 0; i < w.n; i++) dw = fmax(dw, w.pt[i].depth);
    if (m.n > 0 && w.n > 0)
      LK_ASSERT_MSG(fabs(dm - dw) <= 1e-6, "trial %d: deepest %.10g vs %.10g swapped", trial, dm, dw);
    contacts += m.n > 0;
  }
  LK_ASSERT_MSG(contacts > 1000, "only %d trials in contact", contacts);
}

/* ------------------------------------------------------- degenerate input */

static void test_degenerate_input_rejected(void) {
  lk_manifold m;
  lk_error e;
  double good[3] = {0.5, 0.5, 0.5}, zero_r[3] = {0, 0.5, 0}, neg[3] = {0.5, -1, 0.5};
  double nan3[3] = {NAN, 0.5, 0.5};
  lk_transform I = lk_tf_identity(), bad = lk_tf_identity(), skew = lk_tf_identity();
  bad.p.y = NAN;
  skew.R.m[0][1] = 0.5; /* not a rotation */
  m.n = 7;
  LK_ASSERT_INT_EQ(lk_collide_geoms(SP, zero_r, &I, BX, good, &I, 0, &m, &e), LK_INVALID_ARGUMENT);
  LK_ASSERT_INT_EQ(m.n, 0);
  LK_ASSERT_INT_EQ(lk_collide_geoms(BX, neg, &I, SP, good, &I, 0, &m, &e), LK_INVALID_ARGUMENT);
  LK_ASSERT_INT_EQ(lk_collide_geoms(BX, nan3, &I, SP, good, &I, 0, &m, &e), LK_NON_FINITE);
  LK_ASSERT_INT_EQ(lk_collide_geoms(BX, good, &bad, SP, good, &I, 0, &m, &e), LK_NON_FINITE);
  LK_ASSERT_INT_EQ(lk_collide_geoms(BX, good, &skew, SP, good, &I, 0, &m, &e), LK_INVALID_ARGUMENT);
  LK_ASSERT_INT_EQ(lk_collide_geoms(BX, good, &I, SP, good, &I, -1, &m, &e), LK_INVALID_ARGUMENT);
  LK_ASSERT_INT_EQ(lk_collide_geoms(BX, good, &I, SP, good, &I, NAN, &m, &e), LK_NON_FINITE);
  LK_ASSERT_INT_EQ(lk_collide_geoms((lk_geom_type)9, good, &I, SP, good, &I, 0, &m, &e),
                   LK_INVALID_ARGUMENT);
  /* A capsule may have half length 0 (and is then a sphere). */
  double cap0[3] = {0.5, 0, 0};
  lk_transform up = at(0, 0, 0.9);
  LK_ASSERT_OK(lk_collide_geoms(CA, cap0, &up, BX, good, &I, 0, &m, &e), &e);
  LK_ASSERT_INT_EQ(m.n, 1);
  lk_manifold ms;
  LK_ASSERT_OK(lk_collide_geoms(SP, cap0, &up, BX, good, &I, 0, &ms, &e), &e);
  LK_ASSERT_NEAR(m.pt[0].depth, ms.pt[0].depth, 1e-15);
  LK_ASSERT_NEAR(m.pt[0].depth, 0.1, 1e-15);
  /* Planes: no contact with each other, no box. */
  LK_ASSERT_OK(lk_collide_geoms(PL, good, &I, PL, good, &up, 0, &m, &e), &e);
  LK_ASSERT_INT_EQ(m.n, 0);
  lk_vec3 lo, hi;
  LK_ASSERT_INT_EQ(lk_geom_aabb(PL, good, &I, 0, &lo, &hi), LK_UNSUPPORTED);
}

/* The model rejects degenerate geoms before any collision code sees them. */
static void add_ball(lk_model *m) {
  lk_link_spec l;
  lk_link_spec_default(&l);
  l.name = "ball";
  l.joint.type = LK_JOINT_FREE;
  l.mass = 1;
  l.inertia = lk_inertia_solid_sphere(1, 0.1);
  lk_model_add_link(m, &l, NULL);
}

static lk_status finalize_with(lk_geom_spec g, char *msg) {
  lk_model *m = lk_model_new();
  add_ball(m);
  lk_error e;
  lk_error_clear(&e);
  g.link = "ball";
  lk_status st = lk_model_add_geom(m, &g, &e);
  if (st == LK_OK) st = lk_model_finalize(m, &e);
  strcpy(msg, e.message);
  lk_model_free(m);
  return st;
}

static void test_model_rejects_degenerate_geoms(void) {
  char msg[LK_ERROR_MESSAGE_MAX];
  lk_geom_spec g;
  lk_geom_spec_default(&g);
  g.name = "g";
  g.type = SP;
  g.size[0] = 0;
  LK_ASSERT_INT_EQ(finalize_with(g, msg), LK_INVALID_MODEL);
  LK_ASSERT_MSG(strstr(msg, "size[0]") != NULL, "message: %s", msg);
  g.type = BX;
  g.size[0] = g.size[1] = 0.1;
  g.size[2] = -0.1;
  LK_ASSERT_INT_EQ(finalize_with(g, msg), LK_INVALID_MODEL);
  g.type = CY;
  g.size[0] = 0.1;
  g.size[1] = 0;
  LK_ASSERT_INT_EQ(finalize_with(g, msg), LK_INVALID_MODEL);
  g.size[1] = 0.1;
  g.pose.p.x = NAN;
  LK_ASSERT_MSG(finalize_with(g, msg) != LK_OK, "NaN pose accepted");
  g.pose.p.x = 0;
  g.pose.R.m[2][2] = INFINITY;
  LK_ASSERT_MSG(finalize_with(g, msg) != LK_OK, "infinite rotation accepted");
  g.pose = lk_tf_identity();
  g.margin = -0.01;
  LK_ASSERT_INT_EQ(finalize_with(g, msg), LK_INVALID_MODEL);
  LK_ASSERT_MSG(strstr(msg, "margin") != NULL, "message: %s", msg);
  g.margin = INFINITY;
  LK_ASSERT_INT_EQ(finalize_with(g, msg), LK_INVALID_MODEL);
  g.margin = NAN; /* the options' contact_margin */
  LK_ASSERT_INT_EQ(finalize_with(g, msg), LK_OK);
  g.margin = 0.01;
  LK_ASSERT_INT_EQ(finalize_with(g, msg), LK_OK);
  g.type = CA;
  g.size[1] = 0; /* a capsule of length 0 is fine */
  LK_ASSERT_INT_EQ(finalize_with(g, msg), LK_OK);
}

static void test_aabb_contains_shape(void) {
  /* Every support point of a shape lies in its box, and the box is tight:
   * each face is touched by the support point along its axis. */
  unsigned seed = 99;
  const lk_geom_type types[4] = {SP, CA, BX, CY};
  for (int t = 0; t < 4; t++)
    for (int trial = 0; trial < 50; trial++) {
      shape s = rand_shape(&seed, types[t], 2.0);
      lk_vec3 lo, hi;
      LK_ASSERT_OK(lk_geom_aabb(s.t, s.s, &s.X, 0.01, &lo, &hi), NULL);
      /* Sample the surface densely through a closed-form support. */
      double l[3] = {lo.x, lo.y, lo.z}, h[3] = {hi.x, hi.y, hi.z};
      for (int k = 0; k < 3; k++) {
        double ext = 0;
        lk_vec3 u = lk_m3_col(&s.X.R, 2);
        double uk = lk_v3_get(u, k);
        switch (s.t) {
          case SP: ext = s.s[0]; break;
          case CA: ext = s.s[1] * fabs(uk) + s.s[0]; break;
          case BX:
            for (int j = 0; j < 3; j++) ext += s.s[j] * fabs(s.X.R.m[k][j]);
            break;
          default: ext = s.s[1] * fabs(uk) + s.s[0] * sqrt(1 - uk * uk); break;
        }
        double c = lk_v3_get(s.X.p, k);
        LK_ASSERT_NEAR(l[k], c - ext - 0.01, 1e-12);
        LK_ASSERT_NEAR(h[k], c + ext + 0.01, 1e-12);
      }
    }
}

void lk_test_register(void) {
  static const lk_test planes[] = {{"sphere-plane", test_sphere_plane},
                                   {"capsule-plane", test_capsule_plane},
                                   {"box-plane: flat 4, edge 2, corner 1", test_box_plane},
                                   {"cylinder-plane", test_cylinder_plane},
                                   {NULL, NULL}};
  static const lk_test closed[] = {{"sphere-sphere", test_sphere_sphere},
                                   {"capsule-sphere", test_capsule_sphere},
                                   {"capsule-capsule", test_capsule_capsule},
                                   {"box-sphere", test_box_sphere},
                                   {"box-capsule", test_box_capsule},
                                   {"box-box", test_box_box},
                                   {"cylinder-sphere", test_cylinder_sphere},
                                   {NULL, NULL}};
  static const lk_test convex[] = {
      {"cylinder-capsule", test_cylinder_capsule},
      {"cylinder-box", test_cylinder_box},
      {"cylinder-cylinder", test_cylinder_cylinder},
      {"GJK/EPA agree with the closed forms", test_gjk_matches_closed_forms},
      {"EPA accuracy on curved shapes", test_epa_accuracy_on_curved_shapes},
      {"random cylinder pairs", test_cylinder_pairs_fuzz},
      {"every pair touching", test_touching_every_pair},
      {"cylinder side a hair above a box edge", test_cylinder_side_on_box_edge},
      {NULL, NULL}};
  static const lk_test input[] = {{"degenerate shapes rejected", test_degenerate_input_rejected},
                                  {"model rejects degenerate geoms", test_model_rejects_degenerate_geoms},
                                  {"AABB", test_aabb_contains_shape},
                                  {NULL, NULL}};
  lk_test_suite("narrow phase: planes", planes);
  lk_test_suite("narrow phase: closed forms", closed);
  lk_test_suite("narrow phase: GJK/EPA", convex);
  lk_test_suite("narrow phase: input", input);
}
