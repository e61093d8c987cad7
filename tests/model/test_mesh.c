/* Mesh geoms: hulls (qhull), mass properties against closed forms, mesh
 * files through assimp (STL binary and ASCII, OBJ), the YAML `type: mesh`
 * geom and the inertia a link gets from it, and the errors. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "linkage/linkage.h"

/* Corners of a box of half extents h centred at c, then extra points
 * that are not hull vertices (the centre, face centres, edge midpoints). */
static int box_points(double *v, const double h[3], const double c[3], int extras) {
  int n = 0;
  for (int k = 0; k < 8; k++) {
    for (int i = 0; i < 3; i++) v[3 * n + i] = c[i] + ((k >> i & 1) ? h[i] : -h[i]);
    n++;
  }
  if (extras) {
    for (int i = 0; i < 3; i++) v[3 * n + i] = c[i];
    n++;
    for (int f = 0; f < 6; f++) {
      for (int i = 0; i < 3; i++) v[3 * n + i] = c[i];
      v[3 * n + f / 2] += f % 2 ? -h[f / 2] : h[f / 2];
      n++;
    }
    /* The midpoint of an edge along x (y = +h, z = +h). */
    v[3 * n] = c[0];
    v[3 * n + 1] = c[1] + h[1];
    v[3 * n + 2] = c[2] + h[2];
    n++;
  }
  return n;
}

static lk_mesh *make(const double *v, int n, double sx, double sy, double sz) {
  lk_mesh_spec s;
  lk_mesh_spec_default(&s);
  s.vertices = v;
  s.count = n;
  s.scale[0] = sx;
  s.scale[1] = sy;
  s.scale[2] = sz;
  lk_mesh *m = NULL;
  lk_error e;
  LK_ASSERT_OK(lk_mesh_new(&s, &m, &e), &e);
  return m;
}

static void test_box_hull_has_the_box_faces_and_mass_properties(void) {
  double v[3 * 16];
  const double h[3] = {0.1, 0.2, 0.3}, c[3] = {0, 0, 0};
  int n = box_points(v, h, c, 1);
  lk_mesh *m = make(v, n, 1, 1, 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  LK_ASSERT_INT_EQ(lk_mesh_ninput(m), 16);
  LK_ASSERT_INT_EQ(lk_mesh_nvertex(m), 8);
  LK_ASSERT_INT_EQ(lk_mesh_nface(m), 6);
  for (int f = 0; f < 6; f++) {
    int idx[8];
    LK_ASSERT_INT_EQ(lk_mesh_face(m, f, idx, 8), 4);
  }
  double V = 8 * 0.1 * 0.2 * 0.3;
  LK_ASSERT_REL(lk_mesh_volume(m), V, 1e-12, 0);
  lk_vec3 g = lk_mesh_centroid(m);
  LK_ASSERT_NEAR(g.x, 0, 1e-15);
  LK_ASSERT_NEAR(g.y, 0, 1e-15);
  LK_ASSERT_NEAR(g.z, 0, 1e-15);
  /* Solid box of mass V: I_xx = V (b^2 + c^2) / 3 with half extents. */
  lk_mat3 I = lk_mesh_inertia(m);
  LK_ASSERT_REL(I.m[0][0], V * (0.04 + 0.09) / 3, 1e-6, 0);
  LK_ASSERT_REL(I.m[1][1], V * (0.01 + 0.09) / 3, 1e-6, 0);
  LK_ASSERT_REL(I.m[2][2], V * (0.01 + 0.04) / 3, 1e-6, 0);
  LK_ASSERT_NEAR(I.m[0][1], 0, 1e-15);
  LK_ASSERT_NEAR(I.m[0][2], 0, 1e-15);
  LK_ASSERT_NEAR(I.m[1][2], 0, 1e-15);
  LK_ASSERT_NEAR(lk_mesh_radius(m), sqrt(0.01 + 0.04 + 0.09), 1e-15);
  lk_mesh_free(m);
}

/* Other numbers: an offset unit cube scaled to 2 x 1 x 0.5 about the
 * origin, so the centroid and the extents both scale. */
static void test_scaled_offset_box(void) {
  double v[3 * 16];
  const double h[3] = {0.5, 0.5, 0.5}, c[3] = {1, 2, 3};
  int n = box_points(v, h, c, 0);
  lk_mesh *m = make(v, n, 2, 1, 0.5);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  LK_ASSERT_INT_EQ(lk_mesh_nvertex(m), 8);
  LK_ASSERT_REL(lk_mesh_volume(m), 2 * 1 * 0.5, 1e-12, 0);
  lk_vec3 g = lk_mesh_centroid(m);
  LK_ASSERT_NEAR(g.x, 2, 1e-12);
  LK_ASSERT_NEAR(g.y, 2, 1e-12);
  LK_ASSERT_NEAR(g.z, 1.5, 1e-12);
  lk_mat3 I = lk_mesh_inertia(m);
  double V = 1; /* sides 2, 1, 0.5: I_xx = V (1 + 0.25) / 12 */
  LK_ASSERT_REL(I.m[0][0], V * (1 + 0.25) / 12, 1e-9, 0);
  LK_ASSERT_REL(I.m[1][1], V * (4 + 0.25) / 12, 1e-9, 0);
  LK_ASSERT_REL(I.m[2][2], V * (4 + 1) / 12, 1e-9, 0);
  lk_vec3 lo, hi;
  lk_mesh_bounds(m, &lo, &hi);
  LK_ASSERT_NEAR(lo.x, 1, 1e-15);
  LK_ASSERT_NEAR(hi.x, 3, 1e-15);
  LK_ASSERT_NEAR(lo.z, 1.25, 1e-15);
  LK_ASSERT_NEAR(hi.z, 1.75, 1e-15);
  /* A copy is the same hull. */
  lk_mesh *c2 = lk_mesh_copy(m);
  CU_ASSERT_PTR_NOT_NULL_FATAL(c2);
  LK_ASSERT_INT_EQ(lk_mesh_nface(c2), 6);
  CU_ASSERT_EQUAL(memcmp(lk_mesh_vertices(c2), lk_mesh_vertices(m), 8 * 3 * sizeof(double)), 0);
  lk_mesh_free(m);
  int idx[4];
  LK_ASSERT_INT_EQ(lk_mesh_face(c2, 5, idx, 4), 4);
  lk_mesh_free(c2);
}

/* A regular N-gon prism (circumradius r, half length hl) along z. */
static int prism_points(double *v, int N, double r, double hl) {
  int n = 0;
  for (int s = -1; s <= 1; s += 2)
    for (int i = 0; i < N; i++) {
      double a = 2 * LK_PI * i / N;
      v[3 * n] = r * cos(a);
      v[3 * n + 1] = r * sin(a);
      v[3 * n + 2] = s * hl;
      n++;
    }
  return n;
}

static void test_tessellated_cylinder(void) {
  const int N = 256;
  const double r = 0.05, hl = 0.1;
  double *v = malloc(sizeof(double) * 3 * 2 * N);
  int n = prism_points(v, N, r, hl);
  lk_mesh *m = make(v, n, 1, 1, 1);
  free(v);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  LK_ASSERT_INT_EQ(lk_mesh_nvertex(m), 2 * N);
  /* N sides and two caps, each cap cut into fans of at most 64 vertices. */
  int caps = lk_mesh_nface(m) - N;
  CU_ASSERT_TRUE(caps >= 2 && caps <= 2 * (N / 62 + 1));
  /* The prism exactly: area A = N r^2 sin(2 pi / N) / 2, polar moment
   * J = A r^2 (1 + 2 cos^2(pi / N)) / 6; I_zz = 2 hl J, I_xx = hl J + A (2 hl)^3 / 12. */
  double A = 0.5 * N * r * r * sin(2 * LK_PI / N), J = A * r * r * (1 + 2 * pow(cos(LK_PI / N), 2)) / 6;
  double V = A * 2 * hl;
  LK_ASSERT_REL(lk_mesh_volume(m), V, 1e-12, 0);
  lk_mat3 I = lk_mesh_inertia(m);
  LK_ASSERT_REL(I.m[2][2], 2 * hl * J, 1e-9, 0);
  LK_ASSERT_REL(I.m[0][0], hl * J + A * pow(2 * hl, 3) / 12, 1e-9, 0);
  LK_ASSERT_REL(I.m[1][1], hl * J + A * pow(2 * hl, 3) / 12, 1e-9, 0);
  /* And the cylinder it approximates, per unit mass, to 1e-3. */
  double Vc = LK_PI * r * r * 2 * hl;
  LK_ASSERT_REL(lk_mesh_volume(m), Vc, 1e-3, 0);
  LK_ASSERT_REL(I.m[2][2] / V, r * r / 2, 1e-3, 0);
  LK_ASSERT_REL(I.m[0][0] / V, (3 * r * r + 4 * hl * hl) / 12, 1e-3, 0);
  lk_mesh_free(m);
}

/* Points of a UV sphere (rings x segments, plus the poles), radius r,
 * centred at c. */
static int sphere_points(double *v, int rings, int segs, double r, const double c[3]) {
  int n = 0;
  for (int i = 1; i < rings; i++) {
    double th = LK_PI * i / rings;
    for (int j = 0; j < segs; j++) {
      double ph = 2 * LK_PI * j / segs;
      v[3 * n] = c[0] + r * sin(th) * cos(ph);
      v[3 * n + 1] = c[1] + r * sin(th) * sin(ph);
      v[3 * n + 2] = c[2] + r * cos(th);
      n++;
    }
  }
  for (int s = -1; s <= 1; s += 2) {
    v[3 * n] = c[0];
    v[3 * n + 1] = c[1];
    v[3 * n + 2] = c[2] + s * r;
    n++;
  }
  return n;
}

static void test_tessellated_sphere(void) {
  const int rings = 96, segs = 192;
  const double r = 0.04, c[3] = {0.3, -0.2, 0.1};
  double *v = malloc(sizeof(double) * 3 * (size_t)(rings * segs + 2));
  int n = sphere_points(v, rings, segs, r, c);
  lk_mesh *m = make(v, n, 1, 1, 1);
  free(v);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  LK_ASSERT_INT_EQ(lk_mesh_nvertex(m), n);
  double V = lk_mesh_volume(m);
  LK_ASSERT_REL(V, 4.0 / 3.0 * LK_PI * r * r * r, 1e-3, 0);
  lk_vec3 g = lk_mesh_centroid(m);
  LK_ASSERT_NEAR(g.x, c[0], 1e-12);
  LK_ASSERT_NEAR(g.y, c[1], 1e-12);
  LK_ASSERT_NEAR(g.z, c[2], 1e-12);
  lk_mat3 I = lk_mesh_inertia(m);
  for (int k = 0; k < 3; k++) LK_ASSERT_REL(I.m[k][k] / V, 0.4 * r * r, 1e-3, 0);
  LK_ASSERT_NEAR(I.m[0][1] / V, 0, 1e-12 * r * r);
  lk_mesh_free(m);
}

static void test_bad_vertex_sets_are_errors(void) {
  lk_mesh_spec s;
  lk_mesh_spec_default(&s);
  lk_mesh *m = (lk_mesh *)1;
  lk_error e;
  double tri[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  s.vertices = tri;
  s.count = 3;
  LK_ASSERT_INT_EQ(lk_mesh_new(&s, &m, &e), LK_INVALID_ARGUMENT);
  CU_ASSERT_PTR_NULL(m);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "at least 4"));
  /* Five points on the plane z = 0.2. */
  double flat[15] = {0, 0, 0.2, 1, 0, 0.2, 0, 1, 0.2, 1, 1, 0.2, 0.5, 0.3, 0.2};
  s.vertices = flat;
  s.count = 5;
  LK_ASSERT_INT_EQ(lk_mesh_new(&s, &m, &e), LK_INVALID_ARGUMENT);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "plane"));
  double v[3 * 8];
  const double h[3] = {1, 1, 1}, c[3] = {0, 0, 0};
  s.count = box_points(v, h, c, 0);
  s.vertices = v;
  s.scale[1] = 0;
  LK_ASSERT_INT_EQ(lk_mesh_new(&s, &m, &e), LK_INVALID_ARGUMENT);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "scale[1]"));
  s.scale[1] = 1;
  v[4] = NAN;
  LK_ASSERT_INT_EQ(lk_mesh_new(&s, &m, &e), LK_NON_FINITE);
}

/* ------------------------------------------------------------- files */

static char g_dir[64];

static const char *tmp_path(const char *name) {
  static char buf[4][128];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s/%s", g_dir, name);
  return buf[k];
}

/* The 12 triangles of a box (corner bits as in box_points), outward. */
static const int kBoxTris[12][3] = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                                    {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};

static void write_box_stl_ascii(const char *path, const double h[3]) {
  FILE *f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  double v[3 * 8];
  const double c[3] = {0, 0, 0};
  box_points(v, h, c, 0);
  fprintf(f, "solid box\n");
  for (int t = 0; t < 12; t++) {
    fprintf(f, " facet normal 0 0 0\n  outer loop\n");
    for (int i = 0; i < 3; i++) {
      const double *p = v + 3 * kBoxTris[t][i];
      fprintf(f, "   vertex %.17g %.17g %.17g\n", p[0], p[1], p[2]);
    }
    fprintf(f, "  endloop\n endfacet\n");
  }
  fprintf(f, "endsolid box\n");
  fclose(f);
}

static void write_box_stl_binary(const char *path, const double h[3]) {
  FILE *f = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  char header[80];
  memset(header, 0, sizeof header);
  memcpy(header, "binary box", 10);
  fwrite(header, 1, 80, f);
  unsigned int nt = 12;
  fwrite(&nt, 4, 1, f);
  double v[3 * 8];
  const double c[3] = {0, 0, 0};
  box_points(v, h, c, 0);
  for (int t = 0; t < 12; t++) {
    float rec[12] = {0};
    for (int i = 0; i < 3; i++)
      for (int k = 0; k < 3; k++) rec[3 + 3 * i + k] = (float)v[3 * kBoxTris[t][i] + k];
    fwrite(rec, 4, 12, f);
    unsigned short attr = 0;
    fwrite(&attr, 2, 1, f);
  }
  fclose(f);
}

static void write_box_obj(const char *path, const double h[3], const double c[3]) {
  FILE *f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  double v[3 * 8];
  box_points(v, h, c, 0);
  for (int i = 0; i < 8; i++) fprintf(f, "v %.17g %.17g %.17g\n", v[3 * i], v[3 * i + 1], v[3 * i + 2]);
  for (int t = 0; t < 12; t++)
    fprintf(f, "f %d %d %d\n", kBoxTris[t][0] + 1, kBoxTris[t][1] + 1, kBoxTris[t][2] + 1);
  fclose(f);
}

static void setup_dir(void) {
  if (g_dir[0]) return;
  snprintf(g_dir, sizeof g_dir, "/tmp/lk-test-mesh-XXXXXX");
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(g_dir));
}

/* The volume the mesh's kept surface encloses (signed tetrahedra from
 * the origin), and its triangle count in *nt. */
static double surface_volume(const lk_mesh *m, int *nt) {
  const double *v;
  const int *t;
  int nv;
  *nt = lk_mesh_surface(m, &v, &nv, &t);
  double V = 0;
  for (int i = 0; i < *nt; i++) {
    const double *a = v + 3 * t[3 * i], *b = v + 3 * t[3 * i + 1], *c = v + 3 * t[3 * i + 2];
    V += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
          a[2] * (b[0] * c[1] - b[1] * c[0])) / 6;
  }
  return V;
}

static void check_box(lk_mesh *m, const double h[3], double tol) {
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  /* The file's 12 triangles are kept, outward: they enclose the box. */
  int nt;
  double V = surface_volume(m, &nt);
  LK_ASSERT_INT_EQ(nt, 12);
  LK_ASSERT_REL(V, 8 * h[0] * h[1] * h[2], tol > 1e-9 ? tol : 1e-9, 0);
  LK_ASSERT_INT_EQ(lk_mesh_nvertex(m), 8);
  LK_ASSERT_INT_EQ(lk_mesh_nface(m), 6);
  LK_ASSERT_REL(lk_mesh_volume(m), 8 * h[0] * h[1] * h[2], tol, 0);
}

static void test_stl_and_obj_files(void) {
  setup_dir();
  /* assimp keeps coordinates as floats: half extents a float holds
   * exactly give the exact volume, others agree to ~1e-7. */
  const double h[3] = {0.0625, 0.125, 0.25}, c[3] = {0, 0, 0.5};
  write_box_stl_ascii(tmp_path("a.stl"), h);
  write_box_stl_binary(tmp_path("b.stl"), h);
  write_box_obj(tmp_path("c.obj"), h, c);
  lk_mesh *m = NULL;
  lk_error e;
  LK_ASSERT_OK(lk_mesh_load_file(tmp_path("a.stl"), NULL, &m, &e), &e);
  check_box(m, h, 1e-15);
  lk_mesh_free(m);
  LK_ASSERT_OK(lk_mesh_load_file(tmp_path("b.stl"), NULL, &m, &e), &e);
  check_box(m, h, 1e-15);
  lk_mesh_free(m);
  const double sc[3] = {2, 2, 2}, h2[3] = {0.125, 0.25, 0.5};
  LK_ASSERT_OK(lk_mesh_load_file(tmp_path("c.obj"), sc, &m, &e), &e);
  check_box(m, h2, 1e-15);
  LK_ASSERT_NEAR(lk_mesh_centroid(m).z, 1.0, 1e-15);
  lk_mesh_free(m);
  /* Other numbers, not floats: 1e-6. */
  const double h3[3] = {0.05, 0.1, 0.15};
  write_box_stl_ascii(tmp_path("a.stl"), h3);
  LK_ASSERT_OK(lk_mesh_load_file(tmp_path("a.stl"), NULL, &m, &e), &e);
  check_box(m, h3, 1e-6);
  lk_mesh_free(m);
  /* Quadrilateral faces are kept as two triangles each. */
  FILE *f = fopen(tmp_path("q.obj"), "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
        "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n", f);
  fclose(f);
  LK_ASSERT_OK(lk_mesh_load_file(tmp_path("q.obj"), NULL, &m, &e), &e);
  const double hq[3] = {0.5, 0.5, 0.5};
  check_box(m, hq, 1e-15);
  lk_mesh_free(m);
  /* A mesh made from vertices alone has no surface. */
  double v[3 * 8];
  box_points(v, hq, hq, 0);
  m = make(v, 8, 1, 1, 1);
  int nt;
  LK_ASSERT_NEAR(surface_volume(m, &nt), 0, 0);
  LK_ASSERT_INT_EQ(nt, 0);
  lk_mesh_free(m);
}

/* A Collada file's <up_axis> is not applied (as ROS tools do): a Z_UP
 * tetrahedron with legs 1, 2, 3 along x, y, z keeps them. */
static void test_collada_up_axis_ignored(void) {
  setup_dir();
  FILE *f = fopen(tmp_path("t.dae"), "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs("<?xml version=\"1.0\"?>\n"
        "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
        "<asset><up_axis>Z_UP</up_axis></asset>\n"
        "<library_geometries><geometry id=\"g\" name=\"g\"><mesh>\n"
        "<source id=\"p\"><float_array id=\"pa\" count=\"12\">0 0 0 1 0 0 0 2 0 0 0 3</float_array>\n"
        "<technique_common><accessor source=\"#pa\" count=\"4\" stride=\"3\">"
        "<param name=\"X\" type=\"float\"/><param name=\"Y\" type=\"float\"/>"
        "<param name=\"Z\" type=\"float\"/></accessor></technique_common></source>\n"
        "<vertices id=\"v\"><input semantic=\"POSITION\" source=\"#p\"/></vertices>\n"
        "<triangles count=\"4\"><input semantic=\"VERTEX\" source=\"#v\" offset=\"0\"/>"
        "<p>0 2 1 0 1 3 0 3 2 1 2 3</p></triangles>\n"
        "</mesh></geometry></library_geometries>\n"
        "<library_visual_scenes><visual_scene id=\"s\"><node id=\"n\">"
        "<instance_geometry url=\"#g\"/></node></visual_scene></library_visual_scenes>\n"
        "<scene><instance_visual_scene url=\"#s\"/></scene>\n"
        "</COLLADA>\n",
        f);
  fclose(f);
  lk_mesh *m = NULL;
  lk_error e;
  LK_ASSERT_OK(lk_mesh_load_file(tmp_path("t.dae"), NULL, &m, &e), &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  lk_vec3 lo, hi;
  lk_mesh_bounds(m, &lo, &hi);
  LK_ASSERT_NEAR(lo.x, 0, 0);
  LK_ASSERT_NEAR(lo.y, 0, 0);
  LK_ASSERT_NEAR(lo.z, 0, 0);
  LK_ASSERT_NEAR(hi.x, 1, 0);
  LK_ASSERT_NEAR(hi.y, 2, 0);
  LK_ASSERT_NEAR(hi.z, 3, 0);
  /* Its 4 triangles, outward: they enclose 1 * 2 * 3 / 6. */
  int nt;
  LK_ASSERT_NEAR(surface_volume(m, &nt), 1.0, 1e-12);
  LK_ASSERT_INT_EQ(nt, 4);
  lk_mesh_free(m);
}

static void test_file_errors_name_the_file(void) {
  setup_dir();
  lk_mesh *m = NULL;
  lk_error e;
  LK_ASSERT_INT_EQ(lk_mesh_load_file(tmp_path("missing.stl"), NULL, &m, &e), LK_IO_ERROR);
  CU_ASSERT_PTR_NULL(m);
  CU_ASSERT_STRING_EQUAL(e.path, tmp_path("missing.stl"));
  FILE *f = fopen(tmp_path("junk.stl"), "w");
  fprintf(f, "this is not a mesh\n");
  fclose(f);
  LK_ASSERT_INT_EQ(lk_mesh_load_file(tmp_path("junk.stl"), NULL, &m, &e), LK_PARSE_ERROR);
  CU_ASSERT_STRING_EQUAL(e.path, tmp_path("junk.stl"));
  /* A flat mesh: one square of two triangles. */
  f = fopen(tmp_path("flat.obj"), "w");
  fprintf(f, "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 3 4\n");
  fclose(f);
  LK_ASSERT_INT_EQ(lk_mesh_load_file(tmp_path("flat.obj"), NULL, &m, &e), LK_INVALID_ARGUMENT);
  CU_ASSERT_STRING_EQUAL(e.path, tmp_path("flat.obj"));
  CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "plane"));
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs(text, f);
  fclose(f);
}

/* A link of mass 2 with two mesh geoms (a pre-decomposed object: two
 * boxes side by side) and no inertia: the inertia of the two solids. */
static void test_yaml_mesh_geoms_give_the_link_inertia(void) {
  setup_dir();
  const double h[3] = {0.05, 0.1, 0.15};
  write_box_stl_ascii(tmp_path("part.stl"), h);
  write_text(tmp_path("two.yaml"),
             "links:\n"
             "  - name: body\n"
             "    joint: {type: free}\n"
             "    mass: 2\n"
             "    geoms:\n"
             "      - {type: mesh, file: part.stl, origin: {xyz: [-0.05, 0, 0]}}\n"
             "      - {type: mesh, file: part.stl, scale: [1, 1, 1], origin: {xyz: [0.05, 0, 0]}}\n");
  lk_error e;
  lk_model *m = lk_model_load_file(tmp_path("two.yaml"), NULL, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  LK_ASSERT_INT_EQ(lk_model_ngeom(m), 2);
  lk_geom_spec g;
  LK_ASSERT_OK(lk_model_geom(m, 1, &g), NULL);
  LK_ASSERT_INT_EQ(g.type, LK_GEOM_MESH);
  CU_ASSERT_PTR_NOT_NULL_FATAL(g.mesh);
  LK_ASSERT_INT_EQ(lk_mesh_nvertex(g.mesh), 8);
  /* Together a box of half extents 0.1, 0.1, 0.15 of mass 2. */
  lk_link_spec l;
  LK_ASSERT_OK(lk_model_link(m, 1, &l), NULL);
  LK_ASSERT_REL(l.mass, 2, 1e-15, 0);
  LK_ASSERT_NEAR(l.com.x, 0, 1e-15);
  /* The file's coordinates are floats (assimp): 1e-6. */
  LK_ASSERT_REL(l.inertia.m[0][0], 2 * (0.01 + 0.0225) / 3, 1e-6, 0);
  LK_ASSERT_REL(l.inertia.m[1][1], 2 * (0.01 + 0.0225) / 3, 1e-6, 0);
  LK_ASSERT_REL(l.inertia.m[2][2], 2 * (0.01 + 0.01) / 3, 1e-6, 0);
  lk_model_free(m);

  /* A uniform scale as one number, and an offset mesh: the centre of mass
   * is the mesh's centroid, not the geom origin. */
  const double c[3] = {0, 0, 0.5};
  write_box_obj(tmp_path("up.obj"), h, c);
  write_text(tmp_path("up.yaml"),
             "links:\n"
             "  - name: body\n"
             "    joint: {type: free}\n"
             "    mass: 3\n"
             "    geoms: [{type: mesh, file: up.obj, scale: 2}]\n");
  m = lk_model_load_file(tmp_path("up.yaml"), NULL, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  LK_ASSERT_OK(lk_model_link(m, 1, &l), NULL);
  LK_ASSERT_NEAR(l.com.z, 1.0, 1e-6);
  LK_ASSERT_REL(l.inertia.m[2][2], 3 * (0.01 + 0.04) / 3, 1e-6, 0);
  lk_model_free(m);
}

/* density instead of mass: mass = density x the hulls' volume; the
 * inertia follows. Given with mass, or without solids: errors. */
static void test_yaml_density(void) {
  setup_dir();
  const double h[3] = {0.0625, 0.125, 0.25}, c[3] = {0, 0, 0};
  write_box_obj(tmp_path("d.obj"), h, c);
  write_text(tmp_path("dens.yaml"),
             "links:\n"
             "  - name: body\n"
             "    joint: {type: free}\n"
             "    density: 2500\n"
             "    geoms:\n"
             "      - {type: mesh, file: d.obj}\n"
             "      - {type: sphere, radius: 0.1, origin: {xyz: [0, 0, 1]}}\n");
  lk_error e;
  char buf[600];
  lk_model *m = lk_model_load_file(tmp_path("dens.yaml"), NULL, &e);
  LK_ASSERT_MSG(m != NULL, "%s", lk_error_format(&e, buf, sizeof buf));
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  lk_link_spec l;
  LK_ASSERT_OK(lk_model_link(m, 1, &l), NULL);
  double vb = 8 * h[0] * h[1] * h[2], vs = 4.0 / 3.0 * LK_PI * 0.001;
  LK_ASSERT_REL(l.mass, 2500 * (vb + vs), 1e-12, 0);
  LK_ASSERT_REL(l.com.z, vs / (vb + vs), 1e-12, 0);
  lk_model_free(m);
  write_text(tmp_path("both.yaml"),
             "links:\n"
             "  - name: body\n"
             "    joint: {type: free}\n"
             "    density: 2500\n"
             "    mass: 1\n"
             "    geoms: [{type: mesh, file: d.obj}]\n");
  m = lk_model_load_file(tmp_path("both.yaml"), NULL, &e);
  CU_ASSERT_PTR_NULL(m);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "mass or density, not both"));
  write_text(tmp_path("nosolid.yaml"),
             "links:\n"
             "  - name: body\n"
             "    joint: {type: free}\n"
             "    density: 2500\n"
             "    inertia: [1, 1, 1]\n");
  m = lk_model_load_file(tmp_path("nosolid.yaml"), NULL, &e);
  CU_ASSERT_PTR_NULL(m);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "density needs solid geoms"));
  LK_ASSERT_INT_EQ(e.line, 4);
}

static void test_yaml_mesh_errors(void) {
  setup_dir();
  write_text(tmp_path("bad.yaml"),
             "links:\n"
             "  - name: body\n"
             "    joint: {type: free}\n"
             "    mass: 1\n"
             "    geoms:\n"
             "      - type: mesh\n"
             "        file: nowhere.stl\n");
  lk_error e;
  lk_model *m = lk_model_load_file(tmp_path("bad.yaml"), NULL, &e);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_INT_EQ(e.line, 7);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "nowhere.stl"));
  CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "cannot open"));
  write_text(tmp_path("nofile.yaml"),
             "links:\n"
             "  - name: body\n"
             "    joint: {type: free}\n"
             "    mass: 1\n"
             "    inertia: [1, 1, 1]\n"
             "    geoms: [{type: mesh, scale: [1, 2, 3]}]\n");
  m = lk_model_load_file(tmp_path("nofile.yaml"), NULL, &e);
  CU_ASSERT_PTR_NULL(m);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "missing required key 'file'"));
  write_text(tmp_path("scale.yaml"),
             "links:\n"
             "  - name: body\n"
             "    joint: {type: free}\n"
             "    mass: 1\n"
             "    geoms: [{type: mesh, file: part.stl, scale: [1, 0, 3]}]\n");
  m = lk_model_load_file(tmp_path("scale.yaml"), NULL, &e);
  CU_ASSERT_PTR_NULL(m);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "scale must be non-zero (negative: mirrored)"));
  /* A part past the file's last (an STL file is one part). */
  write_text(tmp_path("part.yaml"),
             "links:\n"
             "  - name: body\n"
             "    joint: {type: free}\n"
             "    mass: 1\n"
             "    geoms: [{type: mesh, file: part.stl, part: 3}]\n");
  m = lk_model_load_file(tmp_path("part.yaml"), NULL, &e);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_MSG(strstr(e.message, "part 3 does not exist: the file has 1 part (0 to 0)") != NULL,
                "%s", e.message);
  /* A mesh key on a box. */
  write_text(tmp_path("boxfile.yaml"),
             "links:\n"
             "  - name: body\n"
             "    joint: {type: free}\n"
             "    mass: 1\n"
             "    geoms: [{type: box, half_extents: [1, 1, 1], file: part.stl}]\n");
  m = lk_model_load_file(tmp_path("boxfile.yaml"), NULL, &e);
  CU_ASSERT_PTR_NULL(m);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "file"));
}

/* The builder API: a mesh geom without its mesh is refused at finalize;
 * the model keeps its own copy of the caller's mesh. */
static void test_model_copies_the_mesh(void) {
  double v[3 * 8];
  const double h[3] = {0.1, 0.1, 0.1}, c[3] = {0, 0, 0};
  lk_mesh *mesh = make(v, box_points(v, h, c, 0), 1, 1, 1);
  lk_model *m = lk_model_new();
  lk_error e;
  lk_link_spec l;
  lk_link_spec_default(&l);
  l.name = "b";
  l.joint.type = LK_JOINT_FREE;
  l.mass = 1;
  l.inertia = lk_inertia_solid_box(1, lk_v3(0.1, 0.1, 0.1));
  LK_ASSERT_OK(lk_model_add_link(m, &l, &e), &e);
  lk_geom_spec g;
  lk_geom_spec_default(&g);
  g.link = "b";
  g.type = LK_GEOM_MESH;
  g.mesh = mesh;
  LK_ASSERT_OK(lk_model_add_geom(m, &g, &e), &e);
  lk_mesh_free(mesh);
  LK_ASSERT_OK(lk_model_finalize(m, &e), &e);
  lk_geom_spec out;
  LK_ASSERT_OK(lk_model_geom(m, 0, &out), NULL);
  LK_ASSERT_REL(lk_mesh_volume(out.mesh), 0.008, 1e-12, 0);
  lk_model_free(m);

  m = lk_model_new();
  LK_ASSERT_OK(lk_model_add_link(m, &l, &e), &e);
  g.mesh = NULL;
  LK_ASSERT_OK(lk_model_add_geom(m, &g, &e), &e);
  LK_ASSERT_INT_EQ(lk_model_finalize(m, &e), LK_INVALID_MODEL);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "needs its mesh"));
  lk_model_free(m);
}

static void cleanup(void) {
  if (!g_dir[0]) return;
  const char *names[] = {"a.stl", "b.stl", "c.obj", "junk.stl", "flat.obj", "part.stl",
                         "two.yaml", "up.obj", "up.yaml", "bad.yaml", "nofile.yaml",
                         "scale.yaml", "boxfile.yaml", "part.yaml", "d.obj", "dens.yaml", "both.yaml",
                         "nosolid.yaml", "q.obj", "t.dae"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) unlink(tmp_path(names[i]));
  rmdir(g_dir);
}

static void test_cleanup(void) {
  cleanup();
  CU_PASS("cleaned");
}

void lk_test_register(void) {
  static const lk_test hull[] = {
      {"box hull: 8 vertices, 6 faces, mass properties", test_box_hull_has_the_box_faces_and_mass_properties},
      {"scaled offset box", test_scaled_offset_box},
      {"tessellated cylinder vs prism and cylinder", test_tessellated_cylinder},
      {"tessellated sphere", test_tessellated_sphere},
      {"bad vertex sets", test_bad_vertex_sets_are_errors},
      {"model copies the mesh", test_model_copies_the_mesh},
      {NULL, NULL}};
  static const lk_test files[] = {
      {"STL ascii, STL binary, OBJ", test_stl_and_obj_files},
      {"file errors name the file", test_file_errors_name_the_file},
      {"a Collada file's up_axis is not applied", test_collada_up_axis_ignored},
      {"YAML mesh geoms give the link inertia", test_yaml_mesh_geoms_give_the_link_inertia},
      {"YAML mesh errors", test_yaml_mesh_errors},
      {"YAML density", test_yaml_density},
      {"cleanup", test_cleanup},
      {NULL, NULL}};
  lk_test_suite("mesh hulls", hull);
  lk_test_suite("mesh files", files);
}
