/* Mesh files (STL binary or ASCII, OBJ, and whatever else assimp reads)
 * -> lk_mesh: every mesh of the file's scene (or one of them, a "part":
 * an OBJ file's objects `o name` are its parts, in order), with its node
 * transforms, contributes its vertices; the shape is their convex hull
 * (model/mesh.c). The file's faces (polygons fanned into triangles, in
 * the order of the file, turned over under a mirroring node transform)
 * are kept with the hull as its surface (lk_mesh_surface): the viewer
 * draws them, and lk_mesh_decompose cuts them. lk_mesh_load_solid also
 * sums the file's triangles into the solid they bound (model/mesh_solid.c:
 * MJCF's mesh mass). Normals and materials are not read. */
#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/scene.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <assimp/postprocess.h>

#include "core/internal.h"
#include "io/io_internal.h"
#include "linkage/io.h"
#include "model/mesh_solid.h"

typedef struct {
  double *v;
  int n, cap;
  int *t; /* 3 per triangle */
  int nt, tcap;
} vbuf;

/* Triangles of the scene's meshes (part < 0) or of mesh `part` alone. */
static int count_triangles(const struct aiScene *sc, const struct aiNode *nd, int part) {
  int n = 0;
  for (unsigned i = 0; i < nd->mNumMeshes; i++)
    if (part < 0 || (int)nd->mMeshes[i] == part) {
      const struct aiMesh *me = sc->mMeshes[nd->mMeshes[i]];
      for (unsigned f = 0; f < me->mNumFaces; f++)
        if (me->mFaces[f].mNumIndices >= 3) n += (int)me->mFaces[f].mNumIndices - 2;
    }
  for (unsigned c = 0; c < nd->mNumChildren; c++) n += count_triangles(sc, nd->mChildren[c], part);
  return n;
}

/* Vertices of the scene's meshes (part < 0) or of mesh `part` alone. */
static int count_vertices(const struct aiScene *sc, const struct aiNode *nd, int part) {
  int n = 0;
  for (unsigned i = 0; i < nd->mNumMeshes; i++)
    if (part < 0 || (int)nd->mMeshes[i] == part) n += (int)sc->mMeshes[nd->mMeshes[i]]->mNumVertices;
  for (unsigned c = 0; c < nd->mNumChildren; c++) n += count_vertices(sc, nd->mChildren[c], part);
  return n;
}

/* The node's transform composed with its parents' T (assimp's matrices
 * are row-major, acting on column vectors), in double. */
static void node_transform(const struct aiNode *nd, const double T[4][4], double M[4][4]) {
  const ai_real *local = &nd->mTransformation.a1;
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 4; c++) {
      double s = 0;
      for (int k = 0; k < 4; k++) s += T[r][k] * (double)local[4 * k + c];
      M[r][c] = s;
    }
}

static void collect(const struct aiScene *sc, const struct aiNode *nd, const double T[4][4],
                    int part, vbuf *b) {
  double M[4][4];
  node_transform(nd, T, M);
  for (unsigned i = 0; i < nd->mNumMeshes; i++) {
    if (part >= 0 && (int)nd->mMeshes[i] != part) continue;
    const struct aiMesh *me = sc->mMeshes[nd->mMeshes[i]];
    int base = b->n;
    double det = M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) -
                 M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
                 M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0]);
    for (unsigned f = 0; f < me->mNumFaces; f++) {
      const struct aiFace *fc = &me->mFaces[f];
      for (unsigned j = 1; j + 1 < fc->mNumIndices; j++) {
        int a = (int)fc->mIndices[0], p = (int)fc->mIndices[j], q = (int)fc->mIndices[j + 1];
        if (a >= (int)me->mNumVertices || p >= (int)me->mNumVertices ||
            q >= (int)me->mNumVertices || b->nt >= b->tcap)
          continue;
        int *o = b->t + 3 * b->nt++;
        o[0] = base + a;
        o[1] = base + (det < 0 ? q : p);
        o[2] = base + (det < 0 ? p : q);
      }
    }
    for (unsigned j = 0; j < me->mNumVertices; j++) {
      double p[3] = {me->mVertices[j].x, me->mVertices[j].y, me->mVertices[j].z};
      double *o = b->v + 3 * b->n++;
      for (int r = 0; r < 3; r++) o[r] = M[r][0] * p[0] + M[r][1] * p[1] + M[r][2] * p[2] + M[r][3];
    }
  }
  for (unsigned c = 0; c < nd->mNumChildren; c++) collect(sc, nd->mChildren[c], M, part, b);
}

/* The triangles of the scene's meshes, placed as collect() places their
 * vertices and scaled by scale (signed), into the solid's sums. */
static void solid_faces(const struct aiScene *sc, const struct aiNode *nd, const double T[4][4],
                        const double scale[3], lk_mesh_solid_acc *acc, lk_mesh_area_acc *area) {
  double M[4][4];
  node_transform(nd, T, M);
  for (unsigned i = 0; i < nd->mNumMeshes; i++) {
    const struct aiMesh *me = sc->mMeshes[nd->mMeshes[i]];
    for (unsigned f = 0; f < me->mNumFaces; f++) {
      const struct aiFace *fa = &me->mFaces[f];
      if (fa->mNumIndices != 3) continue; /* points and lines bound nothing */
      lk_vec3 p[3];
      for (int k = 0; k < 3; k++) {
        unsigned vi = fa->mIndices[k];
        if (vi >= me->mNumVertices) return;
        double x[3] = {me->mVertices[vi].x, me->mVertices[vi].y, me->mVertices[vi].z}, y[3];
        for (int r = 0; r < 3; r++)
          y[r] = (M[r][0] * x[0] + M[r][1] * x[1] + M[r][2] * x[2] + M[r][3]) * scale[r];
        p[k] = lk_v3(y[0], y[1], y[2]);
      }
      if (area)
        lk_mesh_area_add(area, p[0], p[1], p[2]);
      else
        lk_mesh_solid_add(acc, p[0], p[1], p[2]);
    }
  }
  for (unsigned c = 0; c < nd->mNumChildren; c++)
    solid_faces(sc, nd->mChildren[c], M, scale, acc, area);
}

static lk_status load(const char *path, int part, const double scale[3], lk_mesh **out,
                      lk_mesh_solid *solid, int legacy, int *solid_ok, lk_error *err);

lk_status lk_mesh_mirror(lk_mesh **mesh, const double scale[3], lk_error *err) {
  if (!(scale[0] < 0 || scale[1] < 0 || scale[2] < 0)) return LK_OK;
  int nv = lk_mesh_nvertex(*mesh);
  double *v = LK_NEW_ARRAY(double, 3 * nv);
  if (!v) {
    lk_mesh_free(*mesh);
    *mesh = NULL;
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  }
  memcpy(v, lk_mesh_vertices(*mesh), (size_t)(3 * nv) * sizeof *v);
  for (int k = 0; k < nv; k++)
    for (int a = 0; a < 3; a++)
      if (scale[a] < 0) v[3 * k + a] = -v[3 * k + a];
  lk_mesh_free(*mesh);
  *mesh = NULL;
  lk_mesh_spec ms;
  lk_mesh_spec_default(&ms);
  ms.vertices = v;
  ms.count = nv;
  lk_status st = lk_mesh_new(&ms, mesh, err);
  lk_free(v);
  return st;
}

lk_status lk_mesh_load_file(const char *path, const double scale[3], lk_mesh **out,
                            lk_error *err) {
  return load(path, -1, scale, out, NULL, 0, NULL, err);
}

lk_status lk_mesh_load_part(const char *path, int part, const double scale[3], lk_mesh **out,
                            lk_error *err) {
  return load(path, part, scale, out, NULL, 0, NULL, err);
}

lk_status lk_mesh_load_solid(const char *path, const double scale[3], int legacy, lk_mesh **out,
                             lk_mesh_solid *solid, int *solid_ok, lk_error *err) {
  return load(path, -1, scale, out, solid, legacy, solid_ok, err);
}

static lk_status load(const char *path, int part, const double scale[3], lk_mesh **out,
                      lk_mesh_solid *solid, int legacy, int *solid_ok, lk_error *err) {
  if (!out) return lk_error_set(err, LK_INVALID_ARGUMENT, "mesh: NULL output");
  *out = NULL;
  if (!path) return lk_error_set(err, LK_INVALID_ARGUMENT, "mesh: NULL path");
  /* assimp's messages for a missing file are vague, and its open of a
   * FIFO never returns: the guard says what the path is first. */
  lk_status g = lk_io_regular_file(path, err);
  if (g) return g;
  /* A Collada file's <up_axis> is not applied: assimp would turn a Z_UP
   * file to Y_UP by a root rotation, and ROS (the URDF files' world) does
   * not (RViz drops that rotation, ros-visualization/rviz#1045 and #1689;
   * MoveIt's geometric_shapes#52 does as RViz), so a URDF's DAE meshes sit
   * where their authors saw them. Other formats are not affected. The
   * solid needs triangles (an OBJ's polygons cut into them). */
  struct aiPropertyStore *props = aiCreatePropertyStore();
  if (!props) return lk_error_set(err, LK_OUT_OF_MEMORY, "mesh %s: out of memory", path);
  aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, 1);
  const struct aiScene *sc =
      aiImportFileExWithProperties(path, solid ? aiProcess_Triangulate : 0, NULL, props);
  aiReleasePropertyStore(props);
  if (!sc || !sc->mRootNode) {
    const char *why = aiGetErrorString();
    if (sc) aiReleaseImport(sc);
    return lk_error_set_at(err, LK_PARSE_ERROR, path, 0, 0, "cannot read mesh: %s",
                           why && *why ? why : "unknown format");
  }
  if (part >= (int)sc->mNumMeshes) {
    int nm = (int)sc->mNumMeshes;
    aiReleaseImport(sc);
    return lk_error_set_at(err, LK_INVALID_ARGUMENT, path, 0, 0,
                           "part %d does not exist: the file has %d part%s (0 to %d)", part, nm,
                           nm == 1 ? "" : "s", nm - 1);
  }
  int n = count_vertices(sc, sc->mRootNode, part);
  if (n == 0) {
    aiReleaseImport(sc);
    return lk_error_set_at(err, LK_PARSE_ERROR, path, 0, 0, "the file has no mesh vertices");
  }
  int nt = count_triangles(sc, sc->mRootNode, part);
  vbuf b = {LK_NEW_ARRAY(double, 3 * (size_t)n), 0, n, LK_NEW_ARRAY(int, 3 * (size_t)nt + 1), 0, nt};
  if (!b.v || !b.t) {
    lk_free(b.v);
    lk_free(b.t);
    aiReleaseImport(sc);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "mesh %s: out of memory", path);
  }
  static const double I[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
  collect(sc, sc->mRootNode, I, part, &b);
  if (solid) {
    lk_mesh_solid_acc acc;
    static const double one[3] = {1, 1, 1};
    const double *sc3 = scale ? scale : one;
    if (legacy) {
      /* MuJoCo's legacy rule: tetrahedra counted positive, from the
       * surface's centroid for the centre of mass, then from that centre
       * for the volume and the inertia (about that centre) */
      lk_mesh_area_acc area = {0, lk_v3_zero()};
      solid_faces(sc, sc->mRootNode, I, sc3, NULL, &area);
      lk_vec3 apex = lk_v3_scale(area.sum, area.area > 0 ? 1 / area.area : 0);
      lk_mesh_solid first;
      lk_mesh_solid_begin(&acc, &apex, 1);
      solid_faces(sc, sc->mRootNode, I, sc3, &acc, NULL);
      *solid_ok = lk_mesh_solid_end(&acc, &first) == LK_OK;
      if (*solid_ok) {
        lk_mesh_solid_begin(&acc, &first.centroid, 1);
        solid_faces(sc, sc->mRootNode, I, sc3, &acc, NULL);
        *solid_ok = lk_mesh_solid_end_at_apex(&acc, solid) == LK_OK;
      }
    } else {
      lk_mesh_solid_begin(&acc, NULL, 0);
      solid_faces(sc, sc->mRootNode, I, sc3, &acc, NULL);
      *solid_ok = lk_mesh_solid_end(&acc, solid) == LK_OK;
    }
  }
  aiReleaseImport(sc);
  lk_mesh_spec s;
  lk_mesh_spec_default(&s);
  s.vertices = b.v;
  s.count = b.n;
  s.triangles = b.t;
  s.ntriangles = b.nt;
  if (scale)
    for (int k = 0; k < 3; k++) s.scale[k] = scale[k];
  lk_error e2;
  lk_status st = lk_mesh_new(&s, out, &e2);
  lk_free(b.v);
  lk_free(b.t);
  if (st) {
    /* lk_mesh_new's messages start "mesh: ": name the file instead. */
    const char *msg = e2.message;
    if (strncmp(msg, "mesh: ", 6) == 0) msg += 6;
    return lk_error_set_at(err, st, path, 0, 0, "%s", msg);
  }
  return LK_OK;
}
