/* Approximate convex decomposition (lk_mesh_decompose) of solids made of
 * boxes (cells of a grid, sx x sy x sz each), whose volumes and hulls are
 * known in closed form: the parts' hulls add up to the solid's volume
 * within 2 %, no point lies inside two parts, a convex solid stays one
 * part, and bad surfaces are errors. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"

/* A solid of grid cells: the faces between a filled and an empty cell,
 * two triangles each, counter-clockwise seen from outside. */
typedef struct {
  int nx, ny, nz;
  const char *fill; /* nx*ny*nz, x fastest: '#' filled */
  double s[3];      /* a cell's size */
} cells;

static int filled(const cells *c, int i, int j, int k) {
  if (i < 0 || j < 0 || k < 0 || i >= c->nx || j >= c->ny || k >= c->nz) return 0;
  return c->fill[i + c->nx * (j + c->ny * k)] == '#';
}

static int ncells(const cells *c) {
  int n = 0;
  for (int i = 0; i < c->nx * c->ny * c->nz; i++) n += c->fill[i] == '#';
  return n;
}

/* The surface as a mesh (its hull, with the surface kept), turned by
 * turn_deg about y; drop_one: one triangle left out (an open surface);
 * flip: every triangle turned over (inside out). */
static lk_mesh *cells_mesh_ex(const cells *c, int drop_one, double turn_deg, int flip) {
  int cap = 6 * ncells(c) * 4;
  double *v = calloc((size_t)cap * 3, sizeof *v);
  int *t = calloc((size_t)cap / 4 * 6, sizeof *t);
  int nv = 0, nt = 0;
  for (int k = 0; k < c->nz; k++)
    for (int j = 0; j < c->ny; j++)
      for (int i = 0; i < c->nx; i++) {
        if (!filled(c, i, j, k)) continue;
        for (int a = 0; a < 3; a++)
          for (int sg = -1; sg <= 1; sg += 2) {
            int d[3] = {0, 0, 0};
            d[a] = sg;
            if (filled(c, i + d[0], j + d[1], k + d[2])) continue;
            /* The face's corners: axis a fixed, the other two (b, e)
             * running so that (b x e) points along sg * a. */
            int b = (a + 1) % 3, e = (a + 2) % 3;
            int lo[3] = {i, j, k};
            double q[4][3];
            int uv[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
            for (int m = 0; m < 4; m++) {
              int g[3] = {lo[0], lo[1], lo[2]};
              g[a] += sg > 0;
              g[b] += uv[m][0];
              g[e] += uv[m][1];
              for (int x = 0; x < 3; x++) q[m][x] = g[x] * c->s[x];
            }
            for (int m = 0; m < 4; m++) memcpy(v + 3 * (nv + m), q[m], sizeof q[m]);
            int o[6] = {0, 1, 2, 0, 2, 3};
            if (sg < 0) o[1] = 2, o[2] = 1, o[4] = 3, o[5] = 2;
            for (int x = 0; x < 6; x++) t[3 * nt + x] = nv + o[x];
            nv += 4;
            nt += 2;
          }
      }
  double ca = cos(turn_deg * M_PI / 180), sa = sin(turn_deg * M_PI / 180);
  for (int i = 0; i < nv; i++) {
    double x = v[3 * i], z = v[3 * i + 2];
    v[3 * i] = ca * x + sa * z;
    v[3 * i + 2] = -sa * x + ca * z;
  }
  for (int i = 0; flip && i < nt; i++) {
    int k = t[3 * i + 1];
    t[3 * i + 1] = t[3 * i + 2];
    t[3 * i + 2] = k;
  }
  lk_mesh_spec sp;
  lk_mesh_spec_default(&sp);
  sp.vertices = v;
  sp.count = nv;
  sp.triangles = t;
  sp.ntriangles = nt - (drop_one ? 1 : 0);
  lk_mesh *m = NULL;
  lk_error err;
  LK_ASSERT_OK(lk_mesh_new(&sp, &m, &err), &err);
  free(v);
  free(t);
  return m;
}

static lk_mesh *cells_mesh(const cells *c, int drop_one) { return cells_mesh_ex(c, drop_one, 0, 0); }

/* x strictly inside hull m (by more than tol from every face's plane). */
static int inside(const lk_mesh *m, const double *x, double tol) {
  const double *v = lk_mesh_vertices(m);
  int idx[256];
  for (int f = 0; f < lk_mesh_nface(m); f++) {
    int k = lk_mesh_face(m, f, idx, 256);
    const double *a = v + 3 * idx[0], *b = v + 3 * idx[1], *c = v + 3 * idx[2];
    double u[3], w[3], n[3];
    for (int i = 0; i < 3; i++) u[i] = b[i] - a[i], w[i] = c[i] - a[i];
    n[0] = u[1] * w[2] - u[2] * w[1];
    n[1] = u[2] * w[0] - u[0] * w[2];
    n[2] = u[0] * w[1] - u[1] * w[0];
    double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    (void)k;
    if ((n[0] * (x[0] - a[0]) + n[1] * (x[1] - a[1]) + n[2] * (x[2] - a[2])) / l > -tol) return 0;
  }
  return 1;
}

/* Points of a 40^3 grid over the solid's box inside two parts or more,
 * as a volume. */
static double overlap_volume(const cells *c, lk_mesh **p, int n) {
  int N = 40, hits = 0;
  double L[3] = {c->nx * c->s[0], c->ny * c->s[1], c->nz * c->s[2]};
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++) {
        double x[3] = {(i + 0.5) * L[0] / N, (j + 0.5) * L[1] / N, (k + 0.5) * L[2] / N};
        int in = 0;
        for (int q = 0; q < n; q++) in += inside(p[q], x, 1e-9);
        hits += in > 1;
      }
  return hits * L[0] * L[1] * L[2] / ((double)N * N * N);
}

/* Decompose with the default options; check the hull, the part count,
 * the surfaces, overlap and determinism. Returns the parts' volume
 * relative to the solid's, less 1. */
static double check(const cells *c, double hull_cells, int min_parts, int max_parts) {
  lk_mesh *m = cells_mesh(c, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  double cell = c->s[0] * c->s[1] * c->s[2], V = ncells(c) * cell;
  lk_mesh **p = NULL;
  int n = 0;
  lk_mesh_decompose_report r;
  lk_error err;
  LK_ASSERT_OK(lk_mesh_decompose(m, NULL, &p, &n, &r, &err), &err);
  LK_ASSERT_REL(r.volume, V, 1e-12, 0);
  LK_ASSERT_REL(r.hull_volume, hull_cells * cell, 1e-9, 0);
  LK_ASSERT_INT_EQ(r.nparts, n);
  LK_ASSERT_MSG(n >= min_parts && n <= max_parts, "%d parts, expected %d to %d", n, min_parts,
                max_parts);
  double sum = 0;
  for (int i = 0; i < n; i++) sum += lk_mesh_volume(p[i]);
  LK_ASSERT_REL(r.parts_volume, sum, 1e-12, 0);
  /* Each part keeps the piece of the surface inside it: together they
   * are the whole surface, whose signed tetrahedra add up to the solid. */
  double sv = 0;
  for (int i = 0; i < n; i++) {
    const double *x;
    const int *t;
    int nx, nt = lk_mesh_surface(p[i], &x, &nx, &t);
    CU_ASSERT(nt > 0);
    for (int j = 0; j < nt; j++) {
      const double *a = x + 3 * t[3 * j], *b = x + 3 * t[3 * j + 1], *e = x + 3 * t[3 * j + 2];
      sv += (a[0] * (b[1] * e[2] - b[2] * e[1]) - a[1] * (b[0] * e[2] - b[2] * e[0]) +
             a[2] * (b[0] * e[1] - b[1] * e[0])) / 6;
    }
  }
  LK_ASSERT_REL(sv, V, 1e-9, 0);
  double ov = overlap_volume(c, p, n);
  LK_ASSERT_MSG(ov <= 1e-3 * V, "parts overlap over %.3g (solid %.3g)", ov, V);
  /* The same again: deterministic. */
  lk_mesh **p2 = NULL;
  int n2 = 0;
  LK_ASSERT_OK(lk_mesh_decompose(m, NULL, &p2, &n2, NULL, &err), &err);
  LK_ASSERT_INT_EQ(n2, n);
  for (int i = 0; i < n && i < n2; i++) {
    LK_ASSERT_INT_EQ(lk_mesh_nvertex(p2[i]), lk_mesh_nvertex(p[i]));
    CU_ASSERT(memcmp(lk_mesh_vertices(p2[i]), lk_mesh_vertices(p[i]),
                     sizeof(double) * 3 * (size_t)lk_mesh_nvertex(p[i])) == 0);
  }
  lk_mesh_parts_free(p2, n2);
  lk_mesh_parts_free(p, n);
  lk_mesh_free(m);
  return sum / V - 1;
}

/* An L in the x-z plane: 3 cells of 2 x 1 x 3 cm; its hull adds half a
 * cell (the triangle across the inner corner): 3.5 cells, +16.7 %. */
static void test_l_shape(void) {
  /* x fastest, then y, then z: layer z = 0 "##", layer z = 1 "# ". */
  cells c = {2, 1, 2, "##" "# ", {0.02, 0.01, 0.03}};
  double excess = check(&c, 3.5, 2, 4);
  LK_ASSERT_MSG(fabs(excess) <= 0.02, "parts off the solid's volume by %.3f %%", 100 * excess);
}

/* The L turned 17 degrees about y: no cut direction is along its faces,
 * yet a plane through its inner edge (a vertex position of the
 * refinement) leaves two convex pieces: 2 parts, its exact volume. */
static void test_turned_l(void) {
  cells c = {2, 1, 2, "##" "# ", {0.02, 0.01, 0.03}};
  double V = 3 * 0.02 * 0.01 * 0.03;
  lk_mesh *m = cells_mesh_ex(&c, 0, 17, 0);
  lk_mesh **p = NULL;
  int n = 0;
  lk_mesh_decompose_report r;
  lk_error err;
  LK_ASSERT_OK(lk_mesh_decompose(m, NULL, &p, &n, &r, &err), &err);
  LK_ASSERT_REL(r.volume, V, 1e-12, 0);
  LK_ASSERT_REL(r.hull_volume, 3.5 / 3 * V, 1e-9, 0);
  LK_ASSERT_INT_EQ(n, 2);
  LK_ASSERT_REL(r.parts_volume, V, 1e-9, 0);
  lk_mesh_parts_free(p, n);
  lk_mesh_free(m);
}

/* A U: a base of 3 cells and two arms of 2 cells each (7 cells of
 * 1 x 2 x 1.5 cm); the hull is the 3 x 3 block: 9 cells. */
static void test_u_shape(void) {
  cells c = {3, 1, 3, "###"
                      "# #"
                      "# #",
             {0.01, 0.02, 0.015}};
  double excess = check(&c, 9, 3, 8);
  LK_ASSERT_MSG(fabs(excess) <= 0.02, "parts off the solid's volume by %.3f %%", 100 * excess);
}

/* A square cup: a 3 x 3 floor and a ring of 8 cells above it (17 cells
 * of 1 cm); the hull is the 3 x 3 x 2 block: 18 cells. */
static void test_cup(void) {
  cells c = {3, 3, 2, "#########"
                      "#### ####",
             {0.01, 0.01, 0.01}};
  double excess = check(&c, 18, 2, 8);
  LK_ASSERT_MSG(fabs(excess) <= 0.02, "parts off the solid's volume by %.3f %%", 100 * excess);
}

/* A box (2 x 2 x 1 cells): convex, one part, the box itself. */
static void test_convex_stays_one_part(void) {
  cells c = {2, 2, 1, "####", {0.03, 0.02, 0.01}};
  lk_mesh *m = cells_mesh(&c, 0);
  lk_mesh **p = NULL;
  int n = 0;
  lk_mesh_decompose_report r;
  lk_error err;
  LK_ASSERT_OK(lk_mesh_decompose(m, NULL, &p, &n, &r, &err), &err);
  LK_ASSERT_INT_EQ(n, 1);
  LK_ASSERT_INT_EQ(r.cuts, 0);
  if (n == 1) LK_ASSERT_REL(lk_mesh_volume(p[0]), 4 * 0.03 * 0.02 * 0.01, 1e-12, 0);
  lk_mesh_parts_free(p, n);
  lk_mesh_free(m);
}

/* Keeping one part (max_parts 1) gives the hull and reports the excess. */
static void test_one_part_is_the_hull(void) {
  cells c = {2, 1, 2, "### ", {0.02, 0.01, 0.03}};
  lk_mesh *m = cells_mesh(&c, 0);
  lk_mesh_decompose_options o;
  lk_mesh_decompose_options_default(&o);
  o.max_parts = 1;
  lk_mesh **p = NULL;
  int n = 0;
  lk_mesh_decompose_report r;
  lk_error err;
  LK_ASSERT_OK(lk_mesh_decompose(m, &o, &p, &n, &r, &err), &err);
  LK_ASSERT_INT_EQ(n, 1);
  LK_ASSERT_REL(r.parts_volume, 3.5 * 0.02 * 0.01 * 0.03, 1e-9, 0);
  lk_mesh_parts_free(p, n);
  lk_mesh_free(m);
}

static void test_bad_input(void) {
  cells c = {2, 1, 2, "### ", {0.02, 0.01, 0.03}};
  lk_mesh **p = (lk_mesh **)&c;
  int n = 7;
  lk_error err;
  /* An open surface (one triangle missing). */
  lk_mesh *open = cells_mesh(&c, 1);
  CU_ASSERT_EQUAL(lk_mesh_decompose(open, NULL, &p, &n, NULL, &err), LK_INVALID_ARGUMENT);
  CU_ASSERT_PTR_NULL(p);
  LK_ASSERT_INT_EQ(n, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "not closed"));
  lk_mesh_free(open);
  /* Inside out: it encloses a negative volume. */
  lk_mesh *inv = cells_mesh_ex(&c, 0, 0, 1);
  CU_ASSERT_EQUAL(lk_mesh_decompose(inv, NULL, &p, &n, NULL, &err), LK_INVALID_ARGUMENT);
  CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "not closed and outward"));
  lk_mesh_free(inv);
  /* A hull made without a surface. */
  double v[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  lk_mesh_spec s;
  lk_mesh_spec_default(&s);
  s.vertices = v;
  s.count = 4;
  lk_mesh *tet = NULL;
  LK_ASSERT_OK(lk_mesh_new(&s, &tet, &err), &err);
  CU_ASSERT_EQUAL(lk_mesh_decompose(tet, NULL, &p, &n, NULL, &err), LK_INVALID_ARGUMENT);
  CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "no surface"));
  /* Bad options, NULLs. */
  lk_mesh_decompose_options o;
  lk_mesh_decompose_options_default(&o);
  o.max_parts = 0;
  CU_ASSERT_EQUAL(lk_mesh_decompose(tet, &o, &p, &n, NULL, &err), LK_INVALID_ARGUMENT);
  CU_ASSERT_EQUAL(lk_mesh_decompose(NULL, NULL, &p, &n, NULL, &err), LK_INVALID_ARGUMENT);
  CU_ASSERT_EQUAL(lk_mesh_decompose(tet, NULL, NULL, &n, NULL, &err), LK_INVALID_ARGUMENT);
  /* A triangle naming a vertex that does not exist. */
  int tri[3] = {0, 1, 4};
  s.triangles = tri;
  s.ntriangles = 1;
  lk_mesh *bad = NULL;
  CU_ASSERT_EQUAL(lk_mesh_new(&s, &bad, &err), LK_INVALID_ARGUMENT);
  CU_ASSERT_PTR_NULL(bad);
  lk_mesh_free(tet);
}

void lk_test_register(void) {
  static const lk_test tests[] = {
      {"L shape: 2 parts, volume within 2 %, no overlap", test_l_shape},
      {"an L turned 17 degrees: 2 parts, exact", test_turned_l},
      {"U shape", test_u_shape},
      {"square cup", test_cup},
      {"a convex mesh stays one part", test_convex_stays_one_part},
      {"max_parts 1 is the hull", test_one_part_is_the_hull},
      {"bad input", test_bad_input},
      {NULL, NULL}};
  lk_test_suite("convex decomposition", tests);
}
