/* The example mesh objects, written by program so that they can be
 * remade and checked (tests/collision/test_mesh compares the files in
 * mechanisms/meshes/ with what this writes, byte for byte):
 *
 * - mug.obj: a mug pre-decomposed into convex parts, one OBJ object each
 *   (parts 0-15 the wall, standing on 16 the bottom, which alone touches
 *   a floor, 17-22 the handle), every part a
 *   prism on a convex polygon, so that their volumes have closed forms
 *   (mkmesh_mug_volume).
 * - stone.stl: an irregular stone, the convex hull of 150 points around
 *   an ellipsoid of half axes 5, 3.5 and 2.5 cm, their radii varied by up
 *   to 25 % (a fixed linear congruential sequence), as ASCII STL.
 *
 * Coordinates are printed with 9 significant digits (assimp reads floats). */
#include "meshgen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "linkage/linkage.h"

#define MUG_N 16            /* wall segments, bottom polygon sides */
#define MUG_R 0.04          /* outer radius */
#define MUG_RI 0.035        /* inner radius */
#define MUG_HALF 0.045      /* half height */
#define MUG_BOTTOM 0.006    /* bottom thickness */
#define HANDLE_M 6          /* handle sectors over half a turn */
#define HANDLE_RC 0.025     /* handle centre-line radius about (MUG_R, 0, 0) */
#define HANDLE_T 0.004      /* handle half thickness (radial) */
#define HANDLE_W 0.006      /* handle half width (along y) */

static const double kPi = 3.14159265358979323846;

double mkmesh_mug_volume(void) {
  double s = sin(2 * kPi / MUG_N), sh = sin(kPi / HANDLE_M);
  double ro = HANDLE_RC + HANDLE_T, ri = HANDLE_RC - HANDLE_T;
  return MUG_N * 0.5 * s * (MUG_R * MUG_R - MUG_RI * MUG_RI) * (2 * MUG_HALF - MUG_BOTTOM) +
         0.5 * MUG_N * s * MUG_R * MUG_R * MUG_BOTTOM +
         HANDLE_M * 0.5 * sh * (ro * ro - ri * ri) * 2 * HANDLE_W;
}

int mkmesh_mug_parts(void) { return MUG_N + 1 + HANDLE_M; }

/* One convex part as an OBJ object: the hull's faces (vertex numbers
 * continue across objects). */
static int write_part(FILE *f, const char *name, const double *v, int n, int *base) {
  lk_mesh_spec s;
  lk_mesh_spec_default(&s);
  s.vertices = v;
  s.count = n;
  lk_mesh *m = NULL;
  lk_error e;
  if (lk_mesh_new(&s, &m, &e)) return -1;
  fprintf(f, "o %s\n", name);
  const double *hv = lk_mesh_vertices(m);
  int nv = lk_mesh_nvertex(m);
  for (int i = 0; i < nv; i++) fprintf(f, "v %.9g %.9g %.9g\n", hv[3 * i], hv[3 * i + 1], hv[3 * i + 2]);
  for (int k = 0; k < lk_mesh_nface(m); k++) {
    int idx[64];
    int c = lk_mesh_face(m, k, idx, 64);
    fprintf(f, "f");
    for (int i = 0; i < c; i++) fprintf(f, " %d", *base + idx[i] + 1);
    fprintf(f, "\n");
  }
  *base += nv;
  lk_mesh_free(m);
  return 0;
}

int mkmesh_write_mug(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f, "# A mug in %d convex parts (wall 0-%d, bottom %d, handle %d-%d); Linkage's\n"
             "# mechanisms/meshes/meshgen.c wrote it. Metres.\n",
          mkmesh_mug_parts(), MUG_N - 1, MUG_N, MUG_N + 1, MUG_N + HANDLE_M);
  int base = 0, rc = 0;
  char name[32];
  for (int k = 0; k < MUG_N && !rc; k++) {
    double v[24];
    int n = 0;
    for (int j = 0; j < 2; j++) {
      double a = 2 * kPi * (k + j) / MUG_N;
      for (int r = 0; r < 2; r++)
        for (int z = 0; z < 2; z++) {
          double rad = r ? MUG_R : MUG_RI;
          v[3 * n] = rad * cos(a);
          v[3 * n + 1] = rad * sin(a);
          v[3 * n + 2] = z ? MUG_HALF : -MUG_HALF + MUG_BOTTOM;
          n++;
        }
    }
    snprintf(name, sizeof name, "wall%d", k);
    rc = write_part(f, name, v, n, &base);
  }
  if (!rc) {
    double v[3 * 2 * MUG_N];
    int n = 0;
    for (int k = 0; k < MUG_N; k++)
      for (int z = 0; z < 2; z++) {
        double a = 2 * kPi * k / MUG_N;
        v[3 * n] = MUG_R * cos(a);
        v[3 * n + 1] = MUG_R * sin(a);
        v[3 * n + 2] = z ? -MUG_HALF + MUG_BOTTOM : -MUG_HALF;
        n++;
      }
    rc = write_part(f, "bottom", v, n, &base);
  }
  for (int k = 0; k < HANDLE_M && !rc; k++) {
    double v[24];
    int n = 0;
    for (int j = 0; j < 2; j++) {
      double a = -kPi / 2 + kPi * (k + j) / HANDLE_M;
      for (int r = 0; r < 2; r++)
        for (int y = 0; y < 2; y++) {
          double rad = HANDLE_RC + (r ? HANDLE_T : -HANDLE_T);
          v[3 * n] = MUG_R + rad * cos(a);
          v[3 * n + 1] = y ? HANDLE_W : -HANDLE_W;
          v[3 * n + 2] = rad * sin(a);
          n++;
        }
    }
    snprintf(name, sizeof name, "handle%d", k);
    rc = write_part(f, name, v, n, &base);
  }
  if (fclose(f) != 0) rc = -1;
  return rc;
}

int mkmesh_write_stone(const char *path) {
  enum { N = 150 };
  double v[3 * N];
  unsigned long long x = 20261202ull;
  for (int i = 0; i < N; i++) {
    double u[3];
    for (int k = 0; k < 3; k++) {
      /* Knuth's MMIX LCG; the top 53 bits as a double in [0, 1). */
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      u[k] = (double)(x >> 11) / 9007199254740992.0;
    }
    double z = 2 * u[0] - 1, ph = 2 * kPi * u[1], s = sqrt(1 - z * z);
    double f = 1 + 0.25 * (2 * u[2] - 1);
    v[3 * i] = 0.05 * f * s * cos(ph);
    v[3 * i + 1] = 0.035 * f * s * sin(ph);
    v[3 * i + 2] = 0.025 * f * z;
  }
  lk_mesh_spec sp;
  lk_mesh_spec_default(&sp);
  sp.vertices = v;
  sp.count = N;
  lk_mesh *m = NULL;
  lk_error e;
  if (lk_mesh_new(&sp, &m, &e)) return -1;
  FILE *fo = fopen(path, "w");
  if (!fo) {
    lk_mesh_free(m);
    return -1;
  }
  const double *hv = lk_mesh_vertices(m);
  fprintf(fo, "solid stone\n");
  for (int k = 0; k < lk_mesh_nface(m); k++) {
    int idx[64];
    int c = lk_mesh_face(m, k, idx, 64);
    for (int i = 1; i + 1 < c; i++) {
      int t[3] = {idx[0], idx[i], idx[i + 1]};
      fprintf(fo, "  facet normal 0 0 0\n    outer loop\n");
      for (int j = 0; j < 3; j++)
        fprintf(fo, "      vertex %.9g %.9g %.9g\n", hv[3 * t[j]], hv[3 * t[j] + 1], hv[3 * t[j] + 2]);
      fprintf(fo, "    endloop\n  endfacet\n");
    }
  }
  fprintf(fo, "endsolid stone\n");
  lk_mesh_free(m);
  return fclose(fo) == 0 ? 0 : -1;
}
