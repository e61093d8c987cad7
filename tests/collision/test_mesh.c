/* Mesh (convex hull) geoms in the narrow phase and in scenes: against a
 * plane, a sphere, a capsule, a box, a cylinder and another mesh, checked
 * against closed forms and against the primitive box's own manifolds; a
 * meshed box resting on a plane (4 corners, persistent ids, the same
 * motion as the primitive), a meshed cube on a tilted plane sticking up to
 * the primitive's angle. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "linkage/linkage.h"
#include "../../mechanisms/meshes/meshgen.h"

#define DEG (LK_PI / 180.0)

static lk_mesh *box_mesh(double hx, double hy, double hz) {
  double v[24];
  for (int c = 0; c < 8; c++) {
    v[3 * c] = c & 1 ? hx : -hx;
    v[3 * c + 1] = c & 2 ? hy : -hy;
    v[3 * c + 2] = c & 4 ? hz : -hz;
  }
  lk_mesh_spec s;
  lk_mesh_spec_default(&s);
  s.vertices = v;
  s.count = 8;
  lk_mesh *m = NULL;
  lk_error e;
  LK_ASSERT_OK(lk_mesh_new(&s, &m, &e), &e);
  return m;
}

static lk_mesh *points_mesh(const double *v, int n) {
  lk_mesh_spec s;
  lk_mesh_spec_default(&s);
  s.vertices = v;
  s.count = n;
  lk_mesh *m = NULL;
  lk_error e;
  LK_ASSERT_OK(lk_mesh_new(&s, &m, &e), &e);
  return m;
}

static lk_geom_spec spec(lk_geom_type t, double s0, double s1, double s2, const lk_mesh *mesh) {
  lk_geom_spec g;
  lk_geom_spec_default(&g);
  g.type = t;
  g.size[0] = s0;
  g.size[1] = s1;
  g.size[2] = s2;
  g.mesh = mesh;
  g.margin = 0; /* touching or overlapping only, unless a test sets one */
  return g;
}

static lk_transform at(double x, double y, double z) { return lk_tf(&(lk_mat3){{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}, lk_v3(x, y, z)); }

static lk_transform rot(lk_vec3 axis, double angle, double x, double y, double z) {
  lk_mat3 R = lk_m3_from_axis_angle(lk_v3_normalize(axis), angle);
  return lk_tf(&R, lk_v3(x, y, z));
}

static lk_manifold collide(const lk_geom_spec *a, lk_transform Xa, const lk_geom_spec *b,
                           lk_transform Xb) {
  lk_manifold m;
  lk_error e;
  LK_ASSERT_OK(lk_collide_specs(a, &Xa, b, &Xb, &m, &e), &e);
  return m;
}

/* Every point of p has a point of q at the same place, depth and normal. */
static void same_points(const lk_manifold *p, const lk_manifold *q, double tol) {
  LK_ASSERT_INT_EQ(p->n, q->n);
  for (int i = 0; i < p->n; i++) {
    double best = INFINITY;
    int k = -1;
    for (int j = 0; j < q->n; j++) {
      double d = lk_v3_norm(lk_v3_sub(p->pt[i].pos, q->pt[j].pos));
      if (d < best) {
        best = d;
        k = j;
      }
    }
    LK_ASSERT_NEAR(best, 0, tol);
    if (k < 0) continue;
    LK_ASSERT_NEAR(p->pt[i].depth, q->pt[k].depth, tol);
    LK_ASSERT_NEAR(lk_v3_dot(p->pt[i].normal, q->pt[k].normal), 1, tol);
  }
}

static void test_meshed_box_on_a_plane_gets_its_four_corners(void) {
  lk_mesh *mb = box_mesh(0.1, 0.2, 0.3);
  lk_geom_spec a = spec(LK_GEOM_MESH, 0, 0, 0, mb), box = spec(LK_GEOM_BOX, 0.1, 0.2, 0.3, NULL),
               pl = spec(LK_GEOM_PLANE, 0, 0, 0, NULL);
  /* Sunk 1 mm into the floor z = 0, turned 30 degrees about z. */
  lk_transform Xa = rot(lk_v3(0, 0, 1), 30 * DEG, 0.4, -0.2, 0.299);
  lk_manifold m = collide(&a, Xa, &pl, at(0, 0, 0));
  LK_ASSERT_INT_EQ(m.n, 4);
  for (int i = 0; i < m.n; i++) {
    LK_ASSERT_NEAR(m.pt[i].depth, 0.001, 1e-15);
    LK_ASSERT_NEAR(m.pt[i].normal.z, 1, 0);
    LK_ASSERT_NEAR(m.pt[i].pos.z, -0.0005, 1e-15);
  }
  lk_manifold mp = collide(&box, Xa, &pl, at(0, 0, 0));
  same_points(&m, &mp, 1e-15);
  /* A tilted plane (normal 20 degrees off z) and a box tilted with it. */
  lk_transform Xp = rot(lk_v3(1, 0, 0), 20 * DEG, 0, 0, 0.1);
  lk_transform Xb = lk_tf_mul(&Xp, &(lk_transform){lk_m3_identity(), lk_v3(0.3, 0.1, 0.2995)});
  m = collide(&a, Xb, &pl, Xp);
  mp = collide(&box, Xb, &pl, Xp);
  LK_ASSERT_INT_EQ(m.n, 4);
  same_points(&m, &mp, 1e-12);
  for (int i = 0; i < m.n; i++) LK_ASSERT_NEAR(m.pt[i].depth, 0.0005, 1e-12);
  /* Standing on an edge (45 degrees about y): the 2 corners of that edge. */
  double h = (0.1 + 0.3) * sqrt(0.5) - 0.002; /* half height of the tilted box, less 2 mm */
  m = collide(&a, rot(lk_v3(0, 1, 0), 45 * DEG, 0, 0, h), &pl, at(0, 0, 0));
  LK_ASSERT_INT_EQ(m.n, 2);
  for (int i = 0; i < m.n; i++) LK_ASSERT_NEAR(m.pt[i].depth, 0.002, 1e-12);
  /* Lifted 1 cm with a 2 cm margin: 4 near contacts at depth -0.01. */
  a.margin = 0.02;
  m = collide(&a, at(0, 0, 0.31), &pl, at(0, 0, 0));
  LK_ASSERT_INT_EQ(m.n, 4);
  for (int i = 0; i < m.n; i++) LK_ASSERT_NEAR(m.pt[i].depth, -0.01, 1e-15);
  a.margin = 0;
  m = collide(&a, at(0, 0, 0.31), &pl, at(0, 0, 0));
  LK_ASSERT_INT_EQ(m.n, 0);
  lk_mesh_free(mb);
}

/* A tetrahedron face-down gives its 3 corners; a fine sphere hull (2 562
 * vertices) its one lowest vertex, at the closed-form depth. */
static void test_other_hulls_on_a_plane(void) {
  double t[12] = {0, 0, 0, 0.2, 0, 0, 0, 0.2, 0, 0, 0, 0.2};
  lk_mesh *mt = points_mesh(t, 4);
  lk_geom_spec a = spec(LK_GEOM_MESH, 0, 0, 0, mt), pl = spec(LK_GEOM_PLANE, 0, 0, 0, NULL);
  lk_manifold m = collide(&a, at(1, 1, -0.003), &pl, at(0, 0, 0));
  LK_ASSERT_INT_EQ(m.n, 3);
  for (int i = 0; i < m.n; i++) LK_ASSERT_NEAR(m.pt[i].depth, 0.003, 1e-15);
  /* With the apex within the margin too: the 3 resting corners stay, the
   * apex is the 4th, a near contact (the touching layer goes first). */
  a.margin = 0.3;
  m = collide(&a, at(1, 1, -0.003), &pl, at(0, 0, 0));
  LK_ASSERT_INT_EQ(m.n, 4);
  int resting = 0;
  for (int i = 0; i < m.n; i++) resting += fabs(m.pt[i].depth - 0.003) < 1e-15;
  LK_ASSERT_INT_EQ(resting, 3);
  a.margin = 0;
  lk_mesh_free(mt);
  /* A box whose top corners are within the margin keeps its 4 bottom
   * corners, as the primitive does. */
  lk_mesh *mb = box_mesh(0.3, 0.2, 0.1);
  lk_geom_spec gb = spec(LK_GEOM_MESH, 0, 0, 0, mb), pb = spec(LK_GEOM_BOX, 0.3, 0.2, 0.1, NULL);
  gb.margin = pb.margin = 0.5;
  lk_transform Xt = rot(lk_v3(1, 2, 0), 0.0005, 0, 0, 0.0995);
  m = collide(&gb, Xt, &pl, at(0, 0, 0));
  lk_manifold mp = collide(&pb, Xt, &pl, at(0, 0, 0));
  LK_ASSERT_INT_EQ(m.n, 4);
  same_points(&m, &mp, 1e-15);
  for (int i = 0; i < m.n; i++) CU_ASSERT_TRUE(m.pt[i].depth > 0);
  lk_mesh_free(mb);
  /* UV sphere of radius 0.05: the south pole 0.1 mm into the floor (the
   * next ring is 0.31 mm above the pole). */
  const int rings = 40, segs = 64;
  double *v = malloc(sizeof(double) * 3 * (rings * segs + 2));
  int n = 0;
  for (int i = 1; i < rings; i++)
    for (int j = 0; j < segs; j++) {
      double th = LK_PI * i / rings, ph = 2 * LK_PI * j / segs;
      v[3 * n] = 0.05 * sin(th) * cos(ph);
      v[3 * n + 1] = 0.05 * sin(th) * sin(ph);
      v[3 * n + 2] = 0.05 * cos(th);
      n++;
    }
  double poles[6] = {0, 0, 0.05, 0, 0, -0.05};
  memcpy(v + 3 * n, poles, sizeof poles);
  n += 2;
  lk_mesh *ms = points_mesh(v, n);
  free(v);
  LK_ASSERT_INT_EQ(lk_mesh_nvertex(ms), n);
  a = spec(LK_GEOM_MESH, 0, 0, 0, ms);
  m = collide(&a, at(0.2, 0.3, 0.0499), &pl, at(0, 0, 0));
  LK_ASSERT_INT_EQ(m.n, 1);
  LK_ASSERT_NEAR(m.pt[0].depth, 0.0001, 1e-15);
  LK_ASSERT_NEAR(m.pt[0].pos.x, 0.2, 1e-15);
  /* Sunk 3 cm: hundreds of vertices below the floor, more than the walk
   * keeps, so the scan: 4 points spanning the widest, the pole deepest. */
  m = collide(&a, at(0.2, 0.3, 0.02), &pl, at(0, 0, 0));
  LK_ASSERT_INT_EQ(m.n, 4);
  double deepest = 0;
  for (int i = 0; i < m.n; i++) deepest = fmax(deepest, m.pt[i].depth);
  LK_ASSERT_NEAR(deepest, 0.03, 1e-15);
  for (int i = 0; i < m.n; i++) CU_ASSERT_TRUE(m.pt[i].depth > 0);
  /* Against a sphere above it: the north pole, by GJK over the hull. */
  lk_geom_spec s = spec(LK_GEOM_SPHERE, 0.02, 0, 0, NULL);
  m = collide(&a, at(0, 0, 0), &s, at(0, 0, 0.069));
  LK_ASSERT_INT_EQ(m.n, 1);
  LK_ASSERT_NEAR(m.pt[0].depth, 0.001, 1e-12);
  LK_ASSERT_NEAR(m.pt[0].normal.z, -1, 1e-9);
  lk_mesh_free(ms);
}

static void test_mesh_sphere(void) {
  lk_mesh *mb = box_mesh(0.1, 0.2, 0.3);
  lk_geom_spec a = spec(LK_GEOM_MESH, 0, 0, 0, mb), box = spec(LK_GEOM_BOX, 0.1, 0.2, 0.3, NULL);
  lk_geom_spec s = spec(LK_GEOM_SPHERE, 0.05, 0, 0, NULL);
  /* Above the top face, 2 mm deep; the normal from the sphere (b) to the
   * mesh (a) points down. */
  lk_manifold m = collide(&a, at(0, 0, 0), &s, at(0.03, -0.05, 0.348));
  LK_ASSERT_INT_EQ(m.n, 1);
  LK_ASSERT_NEAR(m.pt[0].depth, 0.002, 1e-12);
  LK_ASSERT_NEAR(m.pt[0].normal.z, -1, 1e-12);
  lk_manifold mp = collide(&box, at(0, 0, 0), &s, at(0.03, -0.05, 0.348));
  same_points(&m, &mp, 1e-12);
  /* Near a corner: distance to the corner (0.1, 0.2, 0.3). */
  lk_vec3 c = lk_v3(0.12, 0.22, 0.31);
  double dist = lk_v3_norm(lk_v3_sub(c, lk_v3(0.1, 0.2, 0.3)));
  m = collide(&a, at(0, 0, 0), &s, at(c.x, c.y, c.z));
  LK_ASSERT_INT_EQ(m.n, 1);
  LK_ASSERT_NEAR(m.pt[0].depth, 0.05 - dist, 1e-12);
  /* The centre inside, nearest the +x face (0.02 from it). */
  m = collide(&a, at(0, 0, 0), &s, at(0.08, 0.0, 0.1));
  LK_ASSERT_INT_EQ(m.n, 1);
  LK_ASSERT_NEAR(m.pt[0].depth, 0.07, 1e-12);
  LK_ASSERT_NEAR(m.pt[0].normal.x, -1, 1e-12);
  /* The swapped order negates the normal. */
  lk_manifold sw = collide(&s, at(0.08, 0.0, 0.1), &a, at(0, 0, 0));
  LK_ASSERT_INT_EQ(sw.n, 1);
  LK_ASSERT_NEAR(sw.pt[0].normal.x, 1, 1e-12);
  lk_mesh_free(mb);
}

static void test_mesh_capsule(void) {
  lk_mesh *mb = box_mesh(0.2, 0.2, 0.1);
  lk_geom_spec a = spec(LK_GEOM_MESH, 0, 0, 0, mb);
  lk_geom_spec c = spec(LK_GEOM_CAPSULE, 0.02, 0.1, 0, NULL);
  /* Lying along x on the top face, 1 mm deep: a 2-point line contact at
   * the segment's ends. */
  lk_transform Xc = rot(lk_v3(0, 1, 0), 90 * DEG, 0.05, 0.03, 0.119);
  lk_manifold m = collide(&a, at(0, 0, 0), &c, Xc);
  LK_ASSERT_INT_EQ(m.n, 2);
  double xs[2];
  for (int i = 0; i < 2; i++) {
    LK_ASSERT_NEAR(m.pt[i].depth, 0.001, 1e-12);
    LK_ASSERT_NEAR(m.pt[i].normal.z, -1, 1e-12);
    xs[i] = m.pt[i].pos.x;
  }
  LK_ASSERT_NEAR(fmin(xs[0], xs[1]), -0.05, 1e-12);
  LK_ASSERT_NEAR(fmax(xs[0], xs[1]), 0.15, 1e-12);
  /* Hanging over the +x edge by 0.05: clipped there. */
  m = collide(&a, at(0, 0, 0), &c, rot(lk_v3(0, 1, 0), 90 * DEG, 0.15, 0, 0.119));
  LK_ASSERT_INT_EQ(m.n, 2);
  LK_ASSERT_NEAR(fmax(m.pt[0].pos.x, m.pt[1].pos.x), 0.2, 1e-12);
  /* Upright on the face: one point under its lower cap. */
  m = collide(&a, at(0, 0, 0), &c, at(0, 0, 0.219));
  LK_ASSERT_INT_EQ(m.n, 1);
  LK_ASSERT_NEAR(m.pt[0].depth, 0.001, 1e-12);
  /* The same against the primitive box. */
  lk_geom_spec box = spec(LK_GEOM_BOX, 0.2, 0.2, 0.1, NULL);
  lk_manifold mp = collide(&box, at(0, 0, 0), &c, Xc);
  m = collide(&a, at(0, 0, 0), &c, Xc);
  same_points(&m, &mp, 1e-12);
  lk_mesh_free(mb);
}

static void test_mesh_box_and_mesh_mesh(void) {
  lk_mesh *m1 = box_mesh(0.1, 0.1, 0.1), *m2 = box_mesh(0.3, 0.3, 0.05);
  lk_geom_spec a = spec(LK_GEOM_MESH, 0, 0, 0, m1), b = spec(LK_GEOM_MESH, 0, 0, 0, m2);
  lk_geom_spec pa = spec(LK_GEOM_BOX, 0.1, 0.1, 0.1, NULL), pb = spec(LK_GEOM_BOX, 0.3, 0.3, 0.05, NULL);
  /* A cube resting on a slab, 1 mm deep, turned 20 degrees: 4 corners. */
  lk_transform Xa = rot(lk_v3(0, 0, 1), 20 * DEG, 0.05, -0.02, 0.149), Xb = at(0, 0, 0);
  lk_manifold mm = collide(&a, Xa, &b, Xb);
  lk_manifold mbx = collide(&a, Xa, &pb, Xb);
  lk_manifold bb = collide(&pa, Xa, &pb, Xb);
  LK_ASSERT_INT_EQ(bb.n, 4);
  same_points(&mm, &bb, 1e-12);
  same_points(&mbx, &bb, 1e-12);
  for (int i = 0; i < mm.n; i++) {
    LK_ASSERT_NEAR(mm.pt[i].depth, 0.001, 1e-12);
    LK_ASSERT_NEAR(mm.pt[i].normal.z, 1, 1e-12);
  }
  /* Feature ids are unique and the same on a second call. */
  lk_manifold again = collide(&a, Xa, &b, Xb);
  for (int i = 0; i < mm.n; i++) {
    LK_ASSERT_INT_EQ(again.pt[i].feature, mm.pt[i].feature);
    for (int j = 0; j < i; j++) CU_ASSERT_NOT_EQUAL(mm.pt[i].feature, mm.pt[j].feature);
  }
  /* Over the slab's corner: the clipped square (corners of both). */
  lk_transform Xc = at(0.28, 0.28, 0.1495);
  mm = collide(&a, Xc, &b, Xb);
  bb = collide(&pa, Xc, &pb, Xb);
  same_points(&mm, &bb, 1e-12);
  /* The cube on an edge (45 degrees about x), 2 mm into the slab: the
   * edge's 2 ends, as for the primitive boxes. */
  lk_transform Xe = rot(lk_v3(1, 0, 0), 45 * DEG, 0, 0, 0.05 + 0.1 * sqrt(2.0) - 0.002);
  mm = collide(&a, Xe, &b, Xb);
  bb = collide(&pa, Xe, &pb, Xb);
  same_points(&mm, &bb, 1e-9);
  LK_ASSERT_INT_EQ(mm.n, 2);
  /* Two cubes edge to edge (one turned 45 degrees about x, one about y). */
  lk_transform Ya = rot(lk_v3(1, 0, 0), 45 * DEG, 0, 0, 0.2 * sqrt(2.0) - 0.003),
               Yb = rot(lk_v3(0, 1, 0), 45 * DEG, 0, 0, 0);
  lk_geom_spec c = spec(LK_GEOM_MESH, 0, 0, 0, m1);
  mm = collide(&a, Ya, &c, Yb);
  LK_ASSERT_INT_EQ(mm.n, 1);
  LK_ASSERT_NEAR(mm.pt[0].depth, 0.003, 1e-9);
  LK_ASSERT_NEAR(fabs(mm.pt[0].normal.z), 1, 1e-9);
  lk_mesh_free(m1);
  lk_mesh_free(m2);
}

static void test_mesh_cylinder(void) {
  lk_mesh *mb = box_mesh(0.2, 0.2, 0.1);
  lk_geom_spec a = spec(LK_GEOM_MESH, 0, 0, 0, mb), c = spec(LK_GEOM_CYLINDER, 0.05, 0.08, 0, NULL);
  lk_geom_spec box = spec(LK_GEOM_BOX, 0.2, 0.2, 0.1, NULL);
  /* Standing on the top face 1 mm deep: 4 rim points, as on the box. */
  lk_manifold m = collide(&a, at(0, 0, 0), &c, at(0.01, 0.02, 0.179));
  lk_manifold mp = collide(&box, at(0, 0, 0), &c, at(0.01, 0.02, 0.179));
  LK_ASSERT_INT_EQ(m.n, 4);
  same_points(&m, &mp, 1e-12);
  for (int i = 0; i < m.n; i++) LK_ASSERT_NEAR(m.pt[i].depth, 0.001, 1e-12);
  /* Lying on its side: a line contact of 2 points. */
  lk_transform Xs = rot(lk_v3(1, 0, 0), 90 * DEG, 0, 0, 0.149);
  m = collide(&a, at(0, 0, 0), &c, Xs);
  LK_ASSERT_INT_EQ(m.n, 2);
  for (int i = 0; i < m.n; i++) LK_ASSERT_NEAR(m.pt[i].depth, 0.001, 1e-9);
  lk_mesh_free(mb);
}

static void test_mesh_needs_its_mesh(void) {
  lk_geom_spec a = spec(LK_GEOM_MESH, 0, 0, 0, NULL), pl = spec(LK_GEOM_PLANE, 0, 0, 0, NULL);
  lk_transform X = at(0, 0, 0);
  lk_manifold m;
  lk_error e;
  LK_ASSERT_INT_EQ(lk_collide_specs(&a, &X, &pl, &X, &m, &e), LK_INVALID_ARGUMENT);
  double sz[3] = {0, 0, 0};
  LK_ASSERT_INT_EQ(lk_collide_geoms(LK_GEOM_MESH, sz, &X, LK_GEOM_PLANE, sz, &X, 0, &m, &e),
                   LK_INVALID_ARGUMENT);
}

/* ------------------------------------------------------------ scenes */

/* A free 1 kg cube (half 0.05) on a floor plane tilted theta about y,
 * as a box or as a mesh; mu_s 0.6, mu_d 0.45. */
static lk_model *cube_scene(const lk_mesh *mesh, double theta, lk_solver_kind solver) {
  lk_model *m = lk_model_new();
  lk_error e;
  lk_options o;
  lk_options_default(&o);
  o.solver = solver;
  lk_model_set_options(m, &o, NULL);
  lk_material_spec mat;
  lk_material_spec_default(&mat);
  mat.name = "wood";
  mat.mu_static = 0.6;
  mat.mu_dynamic = 0.45;
  LK_ASSERT_OK(lk_model_add_material(m, &mat, &e), &e);
  lk_link_spec b;
  lk_link_spec_default(&b);
  b.name = "cube";
  b.joint.type = LK_JOINT_FREE;
  b.mass = 1;
  b.inertia = lk_inertia_solid_box(1, lk_v3(0.05, 0.05, 0.05));
  LK_ASSERT_OK(lk_model_add_link(m, &b, &e), &e);
  lk_geom_spec g;
  lk_geom_spec_default(&g);
  g.link = "cube";
  g.material = "wood";
  if (mesh) {
    g.type = LK_GEOM_MESH;
    g.mesh = mesh;
  } else {
    g.type = LK_GEOM_BOX;
    g.size[0] = g.size[1] = g.size[2] = 0.05;
  }
  LK_ASSERT_OK(lk_model_add_geom(m, &g, &e), &e);
  lk_geom_spec f;
  lk_geom_spec_default(&f);
  f.type = LK_GEOM_PLANE;
  f.material = "wood";
  f.pose = rot(lk_v3(0, 1, 0), theta, 0, 0, 0);
  LK_ASSERT_OK(lk_model_add_geom(m, &f, &e), &e);
  /* Resting on the plane, its faces along the plane's. */
  lk_quat qr = lk_q_from_axis_angle(lk_v3(0, 1, 0), theta);
  lk_vec3 p = lk_m3_mulv(&f.pose.R, lk_v3(0, 0, 0.05 - 1e-5)); /* 10 um in: 4 contacts */
  double q[7] = {p.x, p.y, p.z, qr.w, qr.x, qr.y, qr.z};
  LK_ASSERT_OK(lk_model_set_initial(m, "cube", q, 7, NULL, 0, &e), &e);
  LK_ASSERT_OK(lk_model_finalize(m, &e), &e);
  return m;
}

static double run_drift(const lk_model *m, lk_data *d, int n, double *traj) {
  double q0[3] = {lk_data_q(d)[0], lk_data_q(d)[1], lk_data_q(d)[2]}, worst = 0;
  for (int i = 0; i < n; i++) {
    lk_status st = lk_step(m, d);
    LK_ASSERT_MSG(st == LK_OK, "step %d: %s", i, lk_strerror(st));
    if (st) break;
    const double *q = lk_data_q(d);
    if (traj) memcpy(traj + 7 * i, q, 7 * sizeof(double));
    worst = fmax(worst, sqrt(pow(q[0] - q0[0], 2) + pow(q[1] - q0[1], 2) + pow(q[2] - q0[2], 2)));
  }
  return worst;
}

/* On a level floor the meshed cube has 4 contacts whose ids persist, and
 * moves exactly as the primitive cube. */
static void test_meshed_cube_stands_like_the_box(void) {
  lk_mesh *mesh = box_mesh(0.05, 0.05, 0.05);
  lk_model *mm = cube_scene(mesh, 0, LK_SOLVER_DANTZIG), *mp = cube_scene(NULL, 0, LK_SOLVER_DANTZIG);
  lk_mesh_free(mesh); /* the model has its copy */
  lk_data *dm = lk_data_new(mm), *dp = lk_data_new(mp);
  double *tm = malloc(sizeof(double) * 7 * 500), *tp = malloc(sizeof(double) * 7 * 500);
  double drift = run_drift(mm, dm, 500, tm);
  run_drift(mp, dp, 500, tp);
  LK_ASSERT_INT_EQ(lk_data_ncontact(dm), 4);
  uint64_t ids[4];
  for (int i = 0; i < 4; i++) ids[i] = lk_data_contact(dm, i)->id;
  run_drift(mm, dm, 100, NULL);
  LK_ASSERT_INT_EQ(lk_data_ncontact(dm), 4);
  for (int i = 0; i < 4; i++) {
    LK_ASSERT_INT_EQ(lk_data_contact(dm, i)->id, ids[i]);
    CU_ASSERT_TRUE(lk_data_contact(dm, i)->age >= 500);
  }
  double diff = 0;
  for (int i = 0; i < 7 * 500; i++) diff = fmax(diff, fabs(tm[i] - tp[i]));
  LK_ASSERT_NEAR(diff, 0, 1e-12);
  /* It stays where it was put: within the contact tolerance (1e-4). */
  CU_ASSERT_TRUE(drift < 1.5e-4);
  free(tm);
  free(tp);
  lk_data_free(dm);
  lk_data_free(dp);
  lk_model_free(mm);
  lk_model_free(mp);
}

/* atan(0.6) = 30.9638 degrees: both cubes stick 0.01 degrees below it and
 * slide 0.01 degrees above it, on a plane tilted for real, and slide
 * alike. */
static void test_meshed_cube_sticks_to_the_same_angle(void) {
  lk_mesh *mesh = box_mesh(0.05, 0.05, 0.05);
  double crit = atan(0.6);
  for (int s = 0; s < 2; s++) {
    lk_solver_kind solver = s ? LK_SOLVER_LEMKE : LK_SOLVER_DANTZIG;
    for (int k = 0; k < 2; k++) {
      double theta = crit + (k ? 0.01 : -0.01) * DEG;
      double drift[2];
      for (int w = 0; w < 2; w++) {
        lk_model *m = cube_scene(w ? mesh : NULL, theta, solver);
        lk_data *d = lk_data_new(m);
        run_drift(m, d, 50, NULL); /* settle */
        double q0 = lk_data_q(d)[0];
        run_drift(m, d, 1000, NULL);
        drift[w] = fabs(lk_data_q(d)[0] - q0);
        lk_data_free(d);
        lk_model_free(m);
      }
      if (k == 0) {
        LK_ASSERT_MSG(drift[0] < 1e-6 && drift[1] < 1e-6, "%.4f deg: box moved %.3g, mesh %.3g",
                      theta / DEG, drift[0], drift[1]);
      } else {
        /* Sliding at g (sin - mu_d cos) ~ 1.3 m/s^2: 0.6 m in 1 s. */
        LK_ASSERT_MSG(drift[0] > 0.1 && drift[1] > 0.1, "%.4f deg: box moved %.3g, mesh %.3g",
                      theta / DEG, drift[0], drift[1]);
        LK_ASSERT_REL(drift[1], drift[0], 1e-9, 0);
      }
    }
  }
  lk_mesh_free(mesh);
}

/* ------------------------------------------------------- the examples */

static int same_file(const char *a, const char *b) {
  FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
  int same = fa && fb;
  while (same) {
    int ca = fgetc(fa), cb = fgetc(fb);
    if (ca != cb) same = 0;
    if (ca == EOF || cb == EOF) break;
  }
  if (fa) fclose(fa);
  if (fb) fclose(fb);
  return same;
}

/* The committed mesh files are what meshgen.c writes. */
static void test_example_meshes_are_the_generators(void) {
  char dir[] = "/tmp/lk-test-meshgen-XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  char mug[64], stone[64];
  snprintf(mug, sizeof mug, "%s/mug.obj", dir);
  snprintf(stone, sizeof stone, "%s/stone.stl", dir);
  LK_ASSERT_INT_EQ(mkmesh_write_mug(mug), 0);
  LK_ASSERT_INT_EQ(mkmesh_write_stone(stone), 0);
  LK_ASSERT_MSG(same_file(mug, lk_test_srcpath("mechanisms/meshes/mug.obj")),
                "mechanisms/meshes/mug.obj differs from what meshgen.c writes");
  LK_ASSERT_MSG(same_file(stone, lk_test_srcpath("mechanisms/meshes/stone.stl")),
                "mechanisms/meshes/stone.stl differs from what meshgen.c writes");
  unlink(mug);
  unlink(stone);
  rmdir(dir);
}

static lk_model *load_example(const char *rel) {
  lk_error e;
  char buf[700];
  lk_model *m = lk_model_load_file(lk_test_srcpath(rel), NULL, &e);
  LK_ASSERT_MSG(m != NULL, "%s", lk_error_format(&e, buf, sizeof buf));
  return m;
}

/* The mug's 23 parts hold the closed-form volume of the prisms they are
 * (1e-6: the file's coordinates are floats); it stands on its bottom for
 * 1 s without moving or tipping, on the bottom's 4 contacts. */
static void test_mug_mesh_stands(void) {
  lk_model *m = load_example("mechanisms/object_mug_mesh.yaml");
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  LK_ASSERT_INT_EQ(lk_model_ngeom(m), 1 + mkmesh_mug_parts());
  double V = 0;
  for (int g = 0; g < lk_model_ngeom(m); g++) {
    lk_geom_spec s;
    lk_model_geom(m, g, &s);
    if (s.type == LK_GEOM_MESH) V += lk_mesh_volume(s.mesh);
  }
  LK_ASSERT_REL(V, mkmesh_mug_volume(), 1e-6, 0);
  /* The handle puts the centre of mass on its side (+x), the bottom below
   * the middle. */
  lk_link_spec l;
  lk_model_link(m, 1, &l);
  CU_ASSERT_TRUE(l.com.x > 0.001 && fabs(l.com.y) < 1e-9 && l.com.z < 0);
  lk_data *d = lk_data_new(m);
  for (int i = 0; i < 1000; i++) LK_ASSERT_INT_EQ(lk_step(m, d), LK_OK);
  const double *q = lk_data_q(d);
  LK_ASSERT_NEAR(q[2], 0.045, 1e-4);
  LK_ASSERT_NEAR(q[0], 0, 1e-6);
  LK_ASSERT_NEAR(q[4], 0, 1e-6);
  LK_ASSERT_NEAR(q[5], 0, 1e-6);
  /* The bottom's 4 touch; the wall parts 6 mm up are near contacts
   * within the contact margin. */
  int touching = 0;
  for (int i = 0; i < lk_data_ncontact(d); i++) touching += lk_data_contact(d, i)->depth > -1e-6;
  LK_ASSERT_INT_EQ(touching, 4);
  lk_data_free(d);
  lk_model_free(m);
}

/* The stone, dropped tilted, comes to rest on a face of its hull: at
 * least 3 contacts, still, its centre of mass at that face plane's
 * distance from the centroid above the floor (to the contact tolerance),
 * and above the triangle of its contacts. */
static void test_stone_settles_on_a_face(void) {
  lk_model *m = load_example("mechanisms/object_stone.yaml");
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  lk_data *d = lk_data_new(m);
  for (int i = 0; i < 2500; i++) LK_ASSERT_INT_EQ(lk_step(m, d), LK_OK);
  const double *q = lk_data_q(d), *v = lk_data_v(d);
  double speed = 0;
  for (int k = 0; k < 6; k++) speed = fmax(speed, fabs(v[k]));
  LK_ASSERT_MSG(speed < 1e-3, "still moving: %.3g", speed);
  int nc = lk_data_ncontact(d);
  CU_ASSERT_TRUE(nc >= 3);
  lk_geom_spec g;
  lk_model_geom(m, 1, &g);
  lk_mat3 R = lk_q_to_mat3(lk_q(q[3], q[4], q[5], q[6]));
  /* The face whose normal points down. */
  lk_vec3 c = lk_mesh_centroid(g.mesh);
  const double *hv = lk_mesh_vertices(g.mesh);
  int best = -1;
  double bestdot = -2, h = 0;
  for (int f = 0; f < lk_mesh_nface(g.mesh); f++) {
    int idx[64];
    int k = lk_mesh_face(g.mesh, f, idx, 64);
    lk_vec3 a = lk_v3(hv[3 * idx[0]], hv[3 * idx[0] + 1], hv[3 * idx[0] + 2]);
    lk_vec3 b = lk_v3(hv[3 * idx[1]], hv[3 * idx[1] + 1], hv[3 * idx[1] + 2]);
    lk_vec3 e = lk_v3(hv[3 * idx[k - 1]], hv[3 * idx[k - 1] + 1], hv[3 * idx[k - 1] + 2]);
    lk_vec3 n = lk_v3_normalize(lk_v3_cross(lk_v3_sub(b, a), lk_v3_sub(e, a)));
    double dn = -lk_m3_mulv(&R, n).z;
    if (dn > bestdot) {
      bestdot = dn;
      best = f;
      h = lk_v3_dot(n, lk_v3_sub(a, c));
    }
  }
  CU_ASSERT_TRUE_FATAL(best >= 0);
  LK_ASSERT_NEAR(bestdot, 1, 1e-6);
  lk_link_spec l;
  lk_model_link(m, 1, &l);
  lk_vec3 com = lk_v3_add(lk_v3(q[0], q[1], q[2]), lk_m3_mulv(&R, l.com));
  LK_ASSERT_NEAR(com.z, h, 2e-4);
  /* Static equilibrium: the centre of mass over the contacts' hull (a
   * point inside some triangle of contact points). */
  int inside = 0;
  for (int i = 0; i < nc && !inside; i++)
    for (int j = i + 1; j < nc && !inside; j++)
      for (int k = j + 1; k < nc && !inside; k++) {
        lk_vec3 P[3] = {lk_data_contact(d, i)->pos, lk_data_contact(d, j)->pos,
                        lk_data_contact(d, k)->pos};
        double s[3];
        for (int t = 0; t < 3; t++) {
          lk_vec3 A = P[t], B = P[(t + 1) % 3];
          s[t] = (B.x - A.x) * (com.y - A.y) - (B.y - A.y) * (com.x - A.x);
        }
        inside = (s[0] > 0 && s[1] > 0 && s[2] > 0) || (s[0] < 0 && s[1] < 0 && s[2] < 0);
      }
  CU_ASSERT_TRUE(inside);
  lk_data_free(d);
  lk_model_free(m);
}

void lk_test_register(void) {
  static const lk_test pairs[] = {
      {"meshed box on a plane: 4 corners", test_meshed_box_on_a_plane_gets_its_four_corners},
      {"tetrahedron and sphere hulls on a plane", test_other_hulls_on_a_plane},
      {"mesh-sphere", test_mesh_sphere},
      {"mesh-capsule", test_mesh_capsule},
      {"mesh-box and mesh-mesh", test_mesh_box_and_mesh_mesh},
      {"mesh-cylinder", test_mesh_cylinder},
      {"a mesh needs its mesh", test_mesh_needs_its_mesh},
      {NULL, NULL}};
  static const lk_test scenes[] = {
      {"meshed cube stands like the box", test_meshed_cube_stands_like_the_box},
      {"meshed cube sticks to the same angle", test_meshed_cube_sticks_to_the_same_angle},
      {"example meshes are the generator's", test_example_meshes_are_the_generators},
      {"the mug from 23 mesh parts stands", test_mug_mesh_stands},
      {"the stone settles on a face", test_stone_settles_on_a_face},
      {NULL, NULL}};
  lk_test_suite("mesh pairs", pairs);
  lk_test_suite("mesh scenes", scenes);
}
