/* bench/robots: every robot and object description under a directory
 * (default ../shared/data/robots: MuJoCo Menagerie's MJCF, PyBullet's and
 * ROS's URDF, the YCB objects), loaded as published (issue 29). One line a
 * file:
 *   - load: ok, ok+N warnings, or the error;
 *   - sim: 2 s of simulated time on a floor with the default options (the
 *     file's own floor, else a plane 1 cm below its lowest collision
 *     shape), from the file's pose (MuJoCo's qpos0); "ok" or the failing
 *     step; the deepest penetration after the first 0.25 s, and when it
 *     is deeper, the deepest in those 0.25 s ("at start": shapes that
 *     overlap in the file's pose, which the contact pushes apart at
 *     options.max_depenetration_speed, 0.2 m/s: 50 mm in 0.25 s);
 *   - mass: the total mass, and MuJoCo 2.2.2's from the same file where it
 *     reads it, or a copy in memory without what it refuses and the
 *     dynamics do not depend on (mj_load_stripped): the MuJoCo 3
 *     attributes ("w/o implicitfast"), a texture whose file the corpus
 *     lacks ("texture cassie"), a mesh whose file it lacks and the visual
 *     geoms showing it ("mesh trunk") (relative difference);
 *   - dM, dqacc: max |M - M_mj| / max |M_mj| and max |qacc - qacc_mj| /
 *     max(1, |qacc_mj|) at a random state inside the joint ranges (joints
 *     matched by name; only when every DoF matches);
 *   - dI, dqacc_I: the largest difference of a body's mass properties
 *     from MuJoCo's compiled ones, and dqacc again with Linkage's links
 *     given MuJoCo's (what is left once the mass properties agree);
 *   - dqacc_x: dqacc again with MuJoCo's bodies given Linkage's mass
 *     properties, its inertia tensors decomposed exactly (MuJoCo 2.2.2's
 *     compiler leaves principal axes up to 1.4e-6 rad off: mju_eig3 stops
 *     early; see --inertia): the dynamics compared on the right inertia;
 *   - load time (ms).
 * A total line counts the files loaded and simulated. ROS packages
 * (package://) are found in every directory of DIR that holds a
 * package.xml. Usage: bench/robots [DIR] (bench/models is the friction
 * models' bench);
 * bench/robots --inertia FILE: where each body's inertia differs from
 * MuJoCo's compiled one, and why (inertia_report). */
#include <config.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "linkage/linkage.h"

#ifdef HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

#define MAXF 256

static char files[MAXF][1024];
static int nfiles;
static char pkgpath[16384];

static int ends_with(const char *s, const char *t) {
  size_t a = strlen(s), b = strlen(t);
  return a >= b && strcmp(s + a - b, t) == 0;
}

/* The root element's name of an XML file: "mujoco" or "robot" to keep. */
static int is_model(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  char buf[4096];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  char *p = buf;
  while ((p = strchr(p, '<'))) {
    p++;
    if (*p == '?' || *p == '!') continue;
    return strncmp(p, "mujoco", 6) == 0 || strncmp(p, "robot", 5) == 0;
  }
  return 0;
}

static int cmp(const void *a, const void *b) { return strcmp(a, b); }

static void walk(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    struct stat s;
    if (stat(p, &s) != 0) continue;
    if (S_ISDIR(s.st_mode)) {
      walk(p);
    } else if (strcmp(e->d_name, "package.xml") == 0) {
      /* the package's parent directory holds it by name */
      char parent[1024];
      snprintf(parent, sizeof parent, "%s", dir);
      char *sl = strrchr(parent, '/');
      if (sl) *sl = 0;
      size_t l = strlen(pkgpath);
      snprintf(pkgpath + l, sizeof pkgpath - l, "%s%s", l ? ":" : "", parent);
    } else if ((ends_with(p, ".xml") || ends_with(p, ".urdf")) && nfiles < MAXF && is_model(p)) {
      snprintf(files[nfiles++], sizeof files[0], "%s", p);
    }
  }
  closedir(d);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* A conservative radius of a geom about its origin. */
static double geom_radius(const lk_geom_spec *g) {
  switch (g->type) {
    case LK_GEOM_SPHERE: return g->size[0];
    case LK_GEOM_CAPSULE: return g->size[0] + g->size[1];
    case LK_GEOM_BOX: return sqrt(g->size[0] * g->size[0] + g->size[1] * g->size[1] + g->size[2] * g->size[2]);
    case LK_GEOM_CYLINDER: return hypot(g->size[0], g->size[1]);
    case LK_GEOM_MESH: return g->mesh ? lk_mesh_radius(g->mesh) : 0;
    default: return 0;
  }
}

/* The lowest point of the colliding geoms at the initial state (and
 * whether the model has a plane of its own). */
static double lowest(const lk_model *m, int *has_plane) {
  lk_data *d = lk_data_new(m);
  double z = INFINITY;
  *has_plane = 0;
  if (!d || lk_forward_kinematics(m, d)) {
    lk_data_free(d);
    return 0;
  }
  for (int g = 0; g < lk_model_ngeom(m); g++) {
    lk_geom_spec s;
    lk_model_geom(m, g, &s);
    if (s.group == 0 && s.mask == 0) continue;
    if (s.type == LK_GEOM_PLANE) {
      *has_plane = 1;
      continue;
    }
    const lk_transform *T = lk_data_link_pose(d, lk_model_geom_link(m, g));
    lk_vec3 c = lk_tf_point(T, s.pose.p);
    z = fmin(z, c.z - geom_radius(&s));
  }
  lk_data_free(d);
  return isfinite(z) ? z : 0;
}

/* Every link's mass, the world's geoms' excluded (Linkage's world is
 * massless). */
static double total_mass(const lk_model *m) {
  double M = 0;
  for (int l = 1; l < lk_model_nlink(m); l++) {
    lk_link_spec s;
    lk_model_link(m, l, &s);
    M += s.mass;
  }
  return M;
}

#ifdef HAVE_MUJOCO
/* max |qacc - qacc_mj| / max(1, |qacc_mj|) at md's state (mj_forward run);
 * qacc in MuJoCo's DoFs (to_mujoco). */
static double qacc_diff(const mjModel *mm, const mjData *md, const double *qacc) {
  double ea = 0;
  for (int i = 0; i < mm->nv; i++)
    ea = fmax(ea, fabs(md->qacc[i] - qacc[i]) / fmax(1, fabs(md->qacc[i])));
  return ea;
}

/* Each MuJoCo body's link (same name) and the shift from its link frame to
 * the body frame (the last joint's anchor, see mjcf.c); -1 when a body has
 * no link of its name. */
static int body_links(const mjModel *mm, const lk_model *m, int *link, double (*shift)[3]) {
  for (int b = 1; b < mm->nbody; b++) {
    const char *name = mj_id2name(mm, mjOBJ_BODY, b);
    link[b] = name ? lk_model_link_index(m, name) : -1;
    if (link[b] < 0) return -1;
    int j = mm->body_jntadr[b] + mm->body_jntnum[b] - 1;
    for (int a = 0; a < 3; a++) shift[b][a] = mm->body_jntnum[b] > 0 ? mm->jnt_pos[3 * j + a] : 0;
  }
  return 0;
}

/* A copy of m's links and joints (no geoms) with each MuJoCo body's mass,
 * centre and inertia as MuJoCo compiled them; NULL when a body has no
 * link of its name. */
static lk_model *with_mujoco_inertia(const mjModel *mm, const lk_model *m, double *dI) {
  int *link = calloc((size_t)mm->nbody, sizeof *link);
  double(*shift)[3] = calloc((size_t)mm->nbody, sizeof *shift);
  int *body = calloc((size_t)lk_model_nlink(m), sizeof *body);
  lk_model *c = NULL;
  if (body_links(mm, m, link, shift) == 0) {
    c = lk_model_new();
    lk_error err;
    lk_status st = lk_model_set_options(c, lk_model_options(m), &err);
    for (int b = 1; b < mm->nbody; b++) body[link[b]] = b;
    *dI = 0;
    for (int l = 1; l < lk_model_nlink(m) && !st; l++) {
      lk_link_spec ls;
      lk_model_link(m, l, &ls);
      int b = body[l];
      if (b > 0) {
        double R[9], t[9], I[9];
        mju_quat2Mat(R, mm->body_iquat + 4 * b);
        for (int r = 0; r < 3; r++)
          for (int k = 0; k < 3; k++) t[3 * r + k] = R[3 * r + k] * mm->body_inertia[3 * b + k];
        mju_mulMatMatT(I, t, R, 3, 3, 3);
        double mb = mm->body_mass[b], imax = 0, ei = 0, ec = 0;
        lk_vec3 com = {mm->body_ipos[3 * b] - shift[b][0], mm->body_ipos[3 * b + 1] - shift[b][1],
                       mm->body_ipos[3 * b + 2] - shift[b][2]};
        for (int r = 0; r < 3; r++)
          for (int k = 0; k < 3; k++) {
            imax = fmax(imax, fabs(I[3 * r + k]));
            ei = fmax(ei, fabs(I[3 * r + k] - ls.inertia.m[r][k]));
          }
        ec = fmax(fabs(com.x - ls.com.x), fmax(fabs(com.y - ls.com.y), fabs(com.z - ls.com.z)));
        if (mb > 1e-9) {
          double gyr = sqrt((I[0] + I[4] + I[8]) / mb);
          *dI = fmax(*dI, fmax(fabs(ls.mass - mb) / mb, fmax(ei / imax, ec / gyr)));
        }
        ls.mass = mb;
        ls.com = com;
        for (int r = 0; r < 3; r++)
          for (int k = 0; k < 3; k++) ls.inertia.m[r][k] = 0.5 * (I[3 * r + k] + I[3 * k + r]);
      }
      st = lk_model_add_link(c, &ls, &err);
    }
    if (st || lk_model_finalize(c, &err)) {
      lk_model_free(c);
      c = NULL;
    }
  }
  free(link);
  free(shift);
  free(body);
  return c;
}

/* A model file and the files it includes, as text, for a copy of them
 * that MuJoCo reads from memory (mjVFS: by name without directory; meshes
 * and textures still from disk, relative to the model file). */
typedef struct {
  char name[256];
  char *text;
} vfile;

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *t = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (t && fread(t, 1, (size_t)n, f) != (size_t)n) {
    free(t);
    t = NULL;
  }
  if (t) t[n] = 0;
  fclose(f);
  return t;
}

/* Takes out of every file each attribute NAME="VALUE" that matches (name,
 * value or both given, a NULL matching any); 1 when any was there. */
static int strip_attr(vfile *v, int nv, const char *name, const char *value) {
  int any = 0;
  for (int i = 0; i < nv; i++) {
    char *p = v[i].text;
    while ((p = strchr(p, '='))) {
      /* the attribute's name before '=', its value after */
      char *ne = p, *nb = p;
      while (nb > v[i].text && (nb[-1] == '_' || nb[-1] == '-' || nb[-1] == ':' ||
                                (nb[-1] >= 'a' && nb[-1] <= 'z') || (nb[-1] >= 'A' && nb[-1] <= 'Z') ||
                                (nb[-1] >= '0' && nb[-1] <= '9')))
        nb--;
      char q = p[1];
      char *ve = (q == '"' || q == '\'') ? strchr(p + 2, q) : NULL;
      if (!ve || nb == ne || nb == v[i].text || !(nb[-1] == ' ' || nb[-1] == '\t' || nb[-1] == '\n')) {
        p++;
        continue;
      }
      int match =
          (!name || ((size_t)(ne - nb) == strlen(name) && !strncmp(nb, name, (size_t)(ne - nb)))) &&
          (!value ||
           ((size_t)(ve - p - 2) == strlen(value) && !strncmp(p + 2, value, (size_t)(ve - p - 2))));
      if (!match) {
        p = ve + 1;
        continue;
      }
      memmove(nb - 1, ve + 1, strlen(ve + 1) + 1);
      p = nb - 1;
      any = 1;
    }
  }
  return any;
}

/* The attribute NAME="..." of the element starting at e (up to its '>'),
 * copied to out; 0 when it has none. */
static int elem_attr(const char *e, const char *name, char *out, size_t n) {
  const char *end = strchr(e, '>');
  size_t l = strlen(name);
  for (const char *p = e; end && (p = strstr(p, name)) && p < end; p++) {
    if ((p[-1] != ' ' && p[-1] != '\t' && p[-1] != '\n') || p[l] != '=' || p[l + 1] != '"')
      continue;
    const char *q = strchr(p + l + 2, '"');
    if (!q || q > end) return 0;
    snprintf(out, n, "%.*s", (int)(q - p - l - 2), p + l + 2);
    return 1;
  }
  return 0;
}

/* Takes out every self-closing <TAG .../> element whose attribute ATTR is
 * VALUE, or (MuJoCo's default name of an asset) whose file's base name
 * without extension is VALUE when by_file; the count. */
static int drop_elements(vfile *v, int nv, const char *tag, const char *attr, const char *value,
                         int by_file) {
  int n = 0;
  size_t tl = strlen(tag);
  for (int i = 0; i < nv; i++)
    for (char *p = v[i].text; (p = strchr(p, '<'));) {
      char *end = strchr(p, '>'), a[512];
      if (!end || strncmp(p + 1, tag, tl) || !strchr(" \t\n", p[1 + tl]) || end[-1] != '/') {
        p++;
        continue;
      }
      int match = elem_attr(p, attr, a, sizeof a) && !strcmp(a, value);
      if (!match && by_file && !elem_attr(p, "name", a, sizeof a) &&
          elem_attr(p, "file", a, sizeof a)) {
        char *b = strrchr(a, '/'), *x;
        b = b ? b + 1 : a;
        if ((x = strrchr(b, '.'))) *x = 0;
        match = !strcmp(b, value);
      }
      if (!match) {
        p = end;
        continue;
      }
      memmove(p, end + 1, strlen(end + 1) + 1);
      n++;
    }
  return n;
}

/* Whether the file MuJoCo 2.2.2's error quotes ('PATH') is absent. */
static int missing_file(const char *mjerr) {
  const char *q = strchr(mjerr, '\'');
  char f[1024];
  struct stat s;
  if (!q) return 0;
  snprintf(f, sizeof f, "%.*s", (int)strcspn(q + 1, "'"), q + 1);
  return stat(f, &s) != 0;
}

/* What MuJoCo 2.2.2's error names: "Object name = NAME". */
static int error_object(const char *mjerr, char *name, size_t n) {
  const char *o = strstr(mjerr, "Object name = ");
  if (!o) return 0;
  snprintf(name, n, "%.*s", (int)strcspn(o + 14, ",\n"), o + 14);
  return name[0] != 0;
}

/* MuJoCo 2.2.2 on path; when it refuses the file, again on a copy in
 * memory changed for what it refused, up to 12 times: removed says what
 * changed ("" when the file was read as it is):
 *   - a MuJoCo 3 attribute (an "invalid keyword" value or an
 *     "unrecognized attribute"): taken out ("implicitfast", "gravcomp=");
 *   - a texture file not in the corpus: the texture and every
 *     texture="NAME" taken out ("texture NAME"; textures do not touch the
 *     dynamics);
 *   - a mesh file not in the corpus (MuJoCo 2.2.2 says "could not open
 *     STL file", or for an OBJ "could not parse OBJ file"): the mesh and
 *     the geoms that show it taken out ("mesh NAME"; Linkage leaves such
 *     a visual out too, and the body's <inertial> gives its mass).
 * mjerr: the last refusal. */
static mjModel *mj_load_stripped(const char *path, char *mjerr, int nerr, char *removed,
                                 size_t nremoved) {
  removed[0] = 0;
  mjModel *mm = mj_loadXML(path, NULL, mjerr, nerr);
  if (mm) return mm;
  vfile *v = calloc(16, sizeof *v);
  int nv = 0;
  const char *sl = strrchr(path, '/');
  char dir[1024];
  snprintf(dir, sizeof dir, "%s", sl ? path : ".");
  if (sl && (size_t)(sl - path) < sizeof dir) dir[sl - path] = 0;
  if (v) {
    snprintf(v[0].name, sizeof v[0].name, "%s", sl ? sl + 1 : path);
    v[0].text = slurp(path);
    nv = v[0].text != NULL;
  }
  for (int i = 0; i < nv; i++) /* the includes, by name, beside it */
    for (char *p = v[i].text; (p = strstr(p, "<include")) && nv < 16; p++) {
      char *f = strstr(p, "file=\""), *e = f ? strchr(f + 6, '"') : NULL;
      if (!e) continue;
      char inc[2200];
      snprintf(inc, sizeof inc, "%s/%.*s", dir, (int)(e - f - 6 < 1000 ? e - f - 6 : 1000), f + 6);
      const char *is = strrchr(inc, '/');
      snprintf(v[nv].name, sizeof v[nv].name, "%s", is + 1);
      if ((v[nv].text = slurp(inc))) nv++;
    }
  mjVFS *vfs = malloc(sizeof *vfs);
  for (int round = 0; round < 12 && vfs && nv > 0 && !mm; round++) {
    char word[256] = "", what[300] = "";
    const char *k = strstr(mjerr, "invalid keyword: '"),
               *a = strstr(mjerr, "unrecognized attribute: '");
    const char *w = k ? k + 18 : a ? a + 25 : NULL;
    if (w) {
      snprintf(word, sizeof word, "%.*s", (int)strcspn(w, "'"), w);
      if (!strip_attr(v, nv, k ? NULL : word, k ? word : NULL)) break;
      snprintf(what, sizeof what, "%s%s", word, k ? "" : "=");
    } else if (strstr(mjerr, "in texture id") && error_object(mjerr, word, sizeof word)) {
      if (!drop_elements(v, nv, "texture", "name", word, 1)) break;
      strip_attr(v, nv, "texture", word);
      snprintf(what, sizeof what, "texture %s", word);
    } else if ((strstr(mjerr, "could not open STL file") ||
                strstr(mjerr, "could not parse OBJ file")) &&
               missing_file(mjerr) && error_object(mjerr, word, sizeof word)) {
      if (!drop_elements(v, nv, "mesh", "name", word, 1)) break;
      drop_elements(v, nv, "geom", "mesh", word, 0);
      snprintf(what, sizeof what, "mesh %s", word);
    } else {
      break;
    }
    size_t l = strlen(removed);
    snprintf(removed + l, nremoved - l, "%s%s", l ? ", " : "", what);
    mj_defaultVFS(vfs);
    for (int i = 0; i < nv; i++) {
      int n = (int)strlen(v[i].text);
      mj_makeEmptyFileVFS(vfs, v[i].name, n);
      int id = mj_findFileVFS(vfs, v[i].name);
      if (id >= 0) memcpy(vfs->filedata[id], v[i].text, (size_t)n);
    }
    mm = mj_loadXML(path, vfs, mjerr, nerr);
    mj_deleteVFS(vfs);
  }
  free(vfs);
  for (int i = 0; i < nv; i++) free(v[i].text);
  free(v);
  return mm;
}

/* MuJoCo 2.2.2's mesh rule (tetrahedra counted positive, from the
 * surface's centroid for the centre, then from that centre) on a mesh as
 * MuJoCo keeps it (mesh_vert: float, in the mesh's inertial frame), in
 * double: the inertia per unit mass in the geom's frame (the box rule
 * scales mass and inertia alike, so it drops out), and the centre. */
static void mesh_rule(const mjModel *mm, int mesh, double I[9], double c[3]) {
  const float *vert = mm->mesh_vert + 3 * mm->mesh_vertadr[mesh];
  const int *face = mm->mesh_face + 3 * mm->mesh_faceadr[mesh];
  double ap[3] = {0, 0, 0}, area = 0;
  for (int f = 0; f < mm->mesh_facenum[mesh]; f++) {
    const float *a = vert + 3 * face[3 * f], *b = vert + 3 * face[3 * f + 1], *d = vert + 3 * face[3 * f + 2];
    double u[3], w[3], n[3];
    for (int k = 0; k < 3; k++) u[k] = (double)b[k] - a[k], w[k] = (double)d[k] - a[k];
    mju_cross(n, u, w);
    double ar = mju_norm3(n) / 2;
    area += ar;
    for (int k = 0; k < 3; k++) ap[k] += ar * ((double)a[k] + b[k] + d[k]) / 3;
  }
  for (int k = 0; k < 3; k++) ap[k] /= area;
  for (int pass = 0; pass < 2; pass++) {
    double V = 0, s1[3] = {0, 0, 0}, C[9] = {0};
    for (int f = 0; f < mm->mesh_facenum[mesh]; f++) {
      double p[3][3];
      for (int v = 0; v < 3; v++)
        for (int k = 0; k < 3; k++) p[v][k] = (double)vert[3 * face[3 * f + v] + k] - ap[k];
      double x[3];
      mju_cross(x, p[1], p[2]);
      double vol = fabs(mju_dot3(p[0], x)) / 6, sum[3];
      for (int k = 0; k < 3; k++) sum[k] = p[0][k] + p[1][k] + p[2][k];
      V += vol;
      for (int k = 0; k < 3; k++) s1[k] += vol * sum[k] / 4;
      for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++)
          C[3 * r + k] += vol / 20 * (sum[r] * sum[k] + p[0][r] * p[0][k] + p[1][r] * p[1][k] + p[2][r] * p[2][k]);
    }
    if (pass == 0) {
      for (int k = 0; k < 3; k++) ap[k] += s1[k] / V;
      continue;
    }
    double tr = C[0] + C[4] + C[8];
    for (int r = 0; r < 3; r++)
      for (int k = 0; k < 3; k++) I[3 * r + k] = ((r == k ? tr : 0) - C[3 * r + k]) / V;
    for (int k = 0; k < 3; k++) c[k] = ap[k];
  }
}

/* R diag(d) R' with R the rotation of quaternion q (a compiled body's
 * inertia tensor about its centre, in the body frame). */
static void from_axes(const double d[3], const double q[4], double I[9]) {
  double R[9], t[9];
  mju_quat2Mat(R, q);
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) t[3 * r + k] = R[3 * r + k] * d[k];
  mju_mulMatMatT(I, t, R, 3, 3, 3);
}

/* max |A - B| over the entries. */
static double max_diff9(const double *A, const double *B) {
  double e = 0;
  for (int k = 0; k < 9; k++) e = fmax(e, fabs(A[k] - B[k]));
  return e;
}

/* The principal moments and axes of a symmetric I (body_inertia and
 * body_iquat, as from_axes takes them) to double precision: cyclic Jacobi
 * rotations until the off-diagonal entries are rounding. mju_eig3, which
 * MuJoCo 2.2.2's compiler runs, stops earlier: when the largest
 * off-diagonal entry is below an absolute 1e-12 (eigEPS, mjMINVAL * 1000),
 * or when the next rotation's cosine is within 1e-12 of 1 (an angle below
 * 1.4e-6 rad), which leaves the axes up to 1.4e-6 rad off. */
static void exact_axes(const double I[9], double d[3], double q[4]) {
  double A[9], V[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  memcpy(A, I, sizeof A);
  for (int sweep = 0; sweep < 50; sweep++) {
    double off = fabs(A[1]) + fabs(A[2]) + fabs(A[5]);
    if (!(off > 1e-18 * (fabs(A[0]) + fabs(A[4]) + fabs(A[8])))) break;
    for (int p = 0; p < 2; p++)
      for (int r = p + 1; r < 3; r++) {
        double apr = A[3 * p + r];
        if (apr == 0) continue;
        /* the rotation in the (p, r) plane that zeroes A[p][r] */
        double th = (A[4 * r] - A[4 * p]) / (2 * apr);
        double t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1));
        double c = 1 / sqrt(t * t + 1), sn = t * c;
        for (int k = 0; k < 3; k++) { /* A J */
          double x = A[3 * k + p], y = A[3 * k + r];
          A[3 * k + p] = c * x - sn * y, A[3 * k + r] = sn * x + c * y;
        }
        for (int k = 0; k < 3; k++) { /* J' A J */
          double x = A[3 * p + k], y = A[3 * r + k];
          A[3 * p + k] = c * x - sn * y, A[3 * r + k] = sn * x + c * y;
        }
        for (int k = 0; k < 3; k++) { /* V J: the axes as columns */
          double x = V[3 * k + p], y = V[3 * k + r];
          V[3 * k + p] = c * x - sn * y, V[3 * k + r] = sn * x + c * y;
        }
      }
  }
  for (int k = 0; k < 3; k++) d[k] = A[4 * k];
  mju_mat2Quat(q, V);
}

/* bench/robots --inertia FILE: where each body's inertia differs from
 * MuJoCo's compiled one (body_inertia rotated by body_iquat) and why.
 * Per body with mass, differences relative to the largest entry of the
 * body's tensor: lk-mj, Linkage's tensor against MuJoCo's, and absolute
 * (kg m2); eig3, mju_eig3's own round trip of Linkage's tensor in kg m2,
 * as MuJoCo's compiler runs it on a body (it stops early, exact_axes);
 * exact, the round trip through exact_axes's moments and quaternion;
 * moments, the principal moments alone (sorted: the axes left out);
 * f32-lk, for a body whose only mass is one mesh geom, MuJoCo 2.2.2's
 * mesh rule recomputed in double from MuJoCo's float vertices against
 * Linkage's (what the vertices' float storage accounts for; "-" for other
 * bodies). A body with an <inertial fullinertia> (Cassie's) has the file's
 * tensor as the exact one: Linkage's is it. */
static void sort3(double *x) {
  for (int i = 0; i < 3; i++)
    for (int j = i + 1; j < 3; j++)
      if (x[j] < x[i]) {
        double t = x[i];
        x[i] = x[j];
        x[j] = t;
      }
}

static int inertia_report(const char *path) {
  lk_load_options o;
  lk_load_options_default(&o);
  o.package_path = pkgpath;
  lk_error err;
  lk_model *m = lk_model_load_file(path, &o, &err);
  char mjerr[300] = "", removed[256];
  mjModel *mm = mj_load_stripped(path, mjerr, sizeof mjerr, removed, sizeof removed);
  if (!m || !mm) {
    printf("%s: %s\n", path, m ? mjerr : err.message);
    lk_model_free(m);
    if (mm) mj_deleteModel(mm);
    return 1;
  }
  int *link = calloc((size_t)mm->nbody, sizeof *link);
  double(*shift)[3] = calloc((size_t)mm->nbody, sizeof *shift);
  if (removed[0]) printf("MuJoCo 2.2.2 on a copy w/o %s\n", removed);
  printf("%-18s %-10s %-9s %-10s %-9s %-9s %-9s %-9s\n", "body", "mass kg", "lk-mj", "kg m2",
         "eig3", "exact", "moments", "f32-lk");
  int bad = body_links(mm, m, link, shift);
  double worst[6] = {0};
  for (int b = 1; b < mm->nbody && !bad; b++) {
    if (mm->body_mass[b] <= 0) continue;
    lk_link_spec ls;
    lk_model_link(m, link[b], &ls);
    double Imj[9], Il[9], back[9], d[3], V[9], q[4], mj3[3];
    from_axes(mm->body_inertia + 3 * b, mm->body_iquat + 4 * b, Imj);
    double imax = 0;
    for (int r = 0; r < 3; r++)
      for (int k = 0; k < 3; k++)
        Il[3 * r + k] = ls.inertia.m[r][k], imax = fmax(imax, fabs(Il[3 * r + k]));
    double fig[6] = {max_diff9(Il, Imj) / imax, max_diff9(Il, Imj), 0, 0, 0, -1};
    mju_eig3(d, V, q, Il); /* as the compiler runs it: kg m2 */
    from_axes(d, q, back);
    fig[2] = max_diff9(back, Il) / imax;
    exact_axes(Il, d, q);
    from_axes(d, q, back);
    fig[3] = max_diff9(back, Il) / imax;
    sort3(d);
    for (int k = 0; k < 3; k++) mj3[k] = mm->body_inertia[3 * b + k];
    sort3(mj3);
    for (int k = 0; k < 3; k++) fig[4] = fmax(fig[4], fabs(d[k] - mj3[k]) / imax);
    int g = -1, nmesh = 0;
    for (int k = 0; k < mm->body_geomnum[b]; k++)
      if (mm->geom_type[mm->body_geomadr[b] + k] == mjGEOM_MESH)
        g = mm->body_geomadr[b] + k, nmesh++;
    char f32[16] = "-";
    if (nmesh == 1) {
      /* per unit mass in the geom's frame, rotated into the body's */
      double Im[9], c[3], Rg[9], t[9], Gf[9], at[3];
      mesh_rule(mm, mm->geom_dataid[g], Im, c);
      mju_quat2Mat(Rg, mm->geom_quat + 4 * g);
      mju_mulMatVec(at, Rg, c, 3, 3);
      mju_addTo3(at, mm->geom_pos + 3 * g);
      mju_mulMatMat(t, Rg, Im, 3, 3, 3);
      mju_mulMatMatT(Gf, t, Rg, 3, 3, 3);
      for (int k = 0; k < 9; k++) Gf[k] *= ls.mass;
      /* only where the mesh is the body's mass (its centre the body's) */
      if (mju_dist3(at, mm->body_ipos + 3 * b) < 1e-6) {
        fig[5] = max_diff9(Gf, Il) / imax;
        snprintf(f32, sizeof f32, "%.1e", fig[5]);
      }
    }
    for (int k = 0; k < 6; k++) worst[k] = fmax(worst[k], fig[k]);
    printf("%-18s %-10.4g %-9.1e %-10.1e %-9.1e %-9.1e %-9.1e %-9s\n",
           mj_id2name(mm, mjOBJ_BODY, b), mm->body_mass[b], fig[0], fig[1], fig[2], fig[3], fig[4],
           f32);
  }
  if (!bad)
    printf("%-18s %-10s %-9.1e %-10.1e %-9.1e %-9.1e %-9.1e %-9.1e\n", "max", "", worst[0],
           worst[1], worst[2], worst[3], worst[4], worst[5]);
  free(link);
  free(shift);
  mj_deleteModel(mm);
  lk_model_free(m);
  return bad;
}

/* Linkage's qacc at (q, v); 0 when it is computed. */
static int lk_qacc(const lk_model *m, const double *q, const double *v, double *qacc) {
  lk_data *d = lk_data_new(m);
  int st = !d;
  if (!st) {
    memcpy(lk_data_q(d), q, (size_t)lk_model_nq(m) * sizeof *q);
    memcpy(lk_data_v(d), v, (size_t)lk_model_nv(m) * sizeof *v);
    st = lk_forward_kinematics(m, d) || lk_forward_dynamics(m, d, LK_FD_ABA);
    if (!st) memcpy(qacc, lk_data_qacc(d), (size_t)lk_model_nv(m) * sizeof *qacc);
  }
  lk_data_free(d);
  return st;
}

/* MuJoCo's joint j as Linkage's (the link that carries it): by name, or
 * an unnamed one (Linkage names it jointN in its own count) by its body's
 * name when it is the body's only joint; -1 when there is none. */
static int joint_link(const mjModel *mm, const lk_model *m, int j) {
  const char *name = mj_id2name(mm, mjOBJ_JOINT, j);
  if (name) return lk_model_joint_index(m, name);
  int b = mm->jnt_bodyid[j];
  const char *body = mj_id2name(mm, mjOBJ_BODY, b);
  return body && mm->body_jntnum[b] == 1 ? lk_model_link_index(m, body) : -1;
}

/* A copy of mm with each body's mass, centre and inertia Linkage's, the
 * inertia given to MuJoCo as exact_axes decomposes it (MuJoCo's compiler
 * would leave its axes up to 1.4e-6 rad off); NULL when a body has no link
 * of its name. */
static mjModel *with_linkage_inertia(const mjModel *mm, const lk_model *m) {
  int *link = calloc((size_t)mm->nbody, sizeof *link);
  double(*shift)[3] = calloc((size_t)mm->nbody, sizeof *shift);
  mjModel *x = NULL;
  if (link && shift && body_links(mm, m, link, shift) == 0 && (x = mj_copyModel(NULL, mm)))
    for (int b = 1; b < mm->nbody; b++) {
      lk_link_spec ls;
      lk_model_link(m, link[b], &ls);
      double I[9];
      for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++) I[3 * r + k] = 0.5 * (ls.inertia.m[r][k] + ls.inertia.m[k][r]);
      x->body_mass[b] = ls.mass;
      x->body_ipos[3 * b] = ls.com.x + shift[b][0];
      x->body_ipos[3 * b + 1] = ls.com.y + shift[b][1];
      x->body_ipos[3 * b + 2] = ls.com.z + shift[b][2];
      exact_axes(I, x->body_inertia + 3 * b, x->body_iquat + 4 * b);
    }
  free(link);
  free(shift);
  return x;
}

/* MuJoCo's angular velocity of a free or ball joint is in the body's
 * frame, Linkage's in the joint's (the world for a root link): the same
 * where the joint's rotation is identity (a body at qpos0 not turned),
 * else v_lk = R v_mj with R the joint's rotation. to_mujoco takes a vector
 * of Linkage's (its order) to MuJoCo's DoFs; rotate_blocks applies
 * P' M P (P: v_mj to v_lk) to a matrix in MuJoCo's order. */
static void joint_rotation(const mjModel *mm, const double *qpos, int j, double R[9], int *adr) {
  int free = mm->jnt_type[j] == mjJNT_FREE;
  mju_quat2Mat(R, qpos + mm->jnt_qposadr[j] + (free ? 3 : 0));
  *adr = mm->jnt_dofadr[j] + (free ? 3 : 0);
}

static void to_mujoco(const mjModel *mm, const double *qpos, const double *lk, const int *map,
                      double *out) {
  for (int i = 0; i < mm->nv; i++) out[i] = lk[map[i]];
  for (int j = 0; j < mm->njnt; j++) {
    if (mm->jnt_type[j] != mjJNT_FREE && mm->jnt_type[j] != mjJNT_BALL) continue;
    double R[9], w[3];
    int a;
    joint_rotation(mm, qpos, j, R, &a);
    mju_mulMatTVec(w, R, out + a, 3, 3);
    mju_copy3(out + a, w);
  }
}

static void rotate_blocks(const mjModel *mm, const double *qpos, double *M) {
  int nv = mm->nv;
  for (int j = 0; j < mm->njnt; j++) {
    if (mm->jnt_type[j] != mjJNT_FREE && mm->jnt_type[j] != mjJNT_BALL) continue;
    double R[9], x[3], y[3];
    int a;
    joint_rotation(mm, qpos, j, R, &a);
    for (int i = 0; i < nv; i++) { /* columns: M P */
      for (int k = 0; k < 3; k++) x[k] = M[i * nv + a + k];
      mju_mulMatTVec(y, R, x, 3, 3);
      for (int k = 0; k < 3; k++) M[i * nv + a + k] = y[k];
    }
    for (int i = 0; i < nv; i++) { /* rows: P' (M P) */
      for (int k = 0; k < 3; k++) x[k] = M[(a + k) * nv + i];
      mju_mulMatTVec(y, R, x, 3, 3);
      for (int k = 0; k < 3; k++) M[(a + k) * nv + i] = y[k];
    }
  }
}

/* dM and dqacc against MuJoCo at a random state; -1 when the DoFs do not
 * match by joint name. Then dI, the largest difference of a body's mass
 * properties (mass and inertia relative to the body's, the centre of mass
 * relative to its radius of gyration), and dqacc_I, Linkage's qacc with
 * each link's mass, centre and inertia replaced by MuJoCo's compiled ones
 * against MuJoCo's: what is left once the mass properties are the same
 * (-1 when a body has no link of its name); and dqacc_x, Linkage's qacc
 * against MuJoCo's with MuJoCo's bodies given Linkage's mass properties
 * (with_linkage_inertia: the exact tensors, where MuJoCo's compiler leaves
 * the principal axes up to 1.4e-6 rad off; bench/robots --inertia). */
static void against_mujoco(mjModel *mm, const lk_model *m, double *dM, double *dqacc, double *dI,
                           double *dqacc_I, double *dqacc_x) {
  *dM = *dqacc = *dI = *dqacc_I = *dqacc_x = -1;
  int nv = mm->nv;
  if (nv == 0 || nv != lk_model_nv(m)) return;
  int *map = calloc((size_t)nv, sizeof *map);
  for (int j = 0; j < mm->njnt; j++) {
    int li = joint_link(mm, m, j);
    if (li < 0 || lk_model_joint_nv(m, li) != (mm->jnt_type[j] == mjJNT_FREE ? 6 : mm->jnt_type[j] == mjJNT_BALL ? 3 : 1)) {
      free(map);
      return;
    }
    for (int k = 0; k < lk_model_joint_nv(m, li); k++)
      map[mm->jnt_dofadr[j] + k] = lk_model_joint_vadr(m, li) + k;
  }
  mjData *md = mj_makeData(mm);
  lk_data *d = lk_data_new(m);
  srand(29);
  for (int j = 0; j < mm->njnt; j++) {
    int li = joint_link(mm, m, j);
    int qa = mm->jnt_qposadr[j], q0 = lk_model_joint_qadr(m, li);
    int nq = mm->jnt_type[j] == mjJNT_FREE ? 7 : mm->jnt_type[j] == mjJNT_BALL ? 4 : 1;
    for (int k = 0; k < nq; k++) {
      double x = mm->qpos0[qa + k];
      if (nq == 1) {
        double lo = mm->jnt_limited[j] ? mm->jnt_range[2 * j] : -1;
        double hi = mm->jnt_limited[j] ? mm->jnt_range[2 * j + 1] : 1;
        x = lo + (0.2 + 0.6 * rand() / (double)RAND_MAX) * (hi - lo);
      }
      md->qpos[qa + k] = x;
      lk_data_q(d)[q0 + k] = x;
    }
  }
  for (int i = 0; i < nv; i++) {
    double v = (rand() / (double)RAND_MAX - 0.5);
    md->qvel[i] = v;
    lk_data_v(d)[map[i]] = v;
  }
  for (int j = 0; j < mm->njnt; j++) { /* angular velocities in Linkage's joint frame */
    if (mm->jnt_type[j] != mjJNT_FREE && mm->jnt_type[j] != mjJNT_BALL) continue;
    double R[9], w[3];
    int a;
    joint_rotation(mm, md->qpos, j, R, &a);
    mju_mulMatVec(w, R, md->qvel + a, 3, 3);
    for (int k = 0; k < 3; k++) lk_data_v(d)[map[a + k]] = w[k];
  }
  /* contact-free, limit-free: the dynamics alone; no fluid forces (Linkage
   * has none, and lists a file's density, viscosity and wind as not read:
   * the 2F-85's scene has viscosity 0.1) */
  mm->opt.disableflags |=
      mjDSBL_CONTACT | mjDSBL_LIMIT | mjDSBL_EQUALITY | mjDSBL_ACTUATION | mjDSBL_FRICTIONLOSS;
  mm->opt.density = mm->opt.viscosity = 0;
  mju_zero3(mm->opt.wind);
  mj_forward(mm, md);
  double *M = calloc((size_t)nv * nv, sizeof *M), *LM = calloc((size_t)nv * nv, sizeof *LM);
  double *acc = calloc((size_t)nv, sizeof *acc);
  mj_fullM(mm, M, md->qM);
  if (!lk_forward_kinematics(m, d) && !lk_mass_matrix(m, d) && !lk_mass_matrix_dense(m, d, LM) &&
      !lk_forward_dynamics(m, d, LK_FD_ABA)) {
    double e = 0, s = 0, *Mm = calloc((size_t)nv * nv, sizeof *Mm),
           *am = calloc((size_t)nv, sizeof *am);
    for (int i = 0; i < nv; i++)
      for (int k = 0; k < nv; k++) Mm[i * nv + k] = LM[map[i] * nv + map[k]];
    rotate_blocks(mm, md->qpos, Mm);
    for (int i = 0; i < nv * nv; i++) {
      e = fmax(e, fabs(M[i] - Mm[i]));
      s = fmax(s, fabs(M[i]));
    }
    *dM = e / fmax(s, 1e-300);
    to_mujoco(mm, md->qpos, lk_data_qacc(d), map, am);
    *dqacc = qacc_diff(mm, md, am);
    double di;
    lk_model *c = with_mujoco_inertia(mm, m, &di);
    if (c && !lk_qacc(c, lk_data_q(d), lk_data_v(d), acc)) {
      *dI = di;
      double *ai = calloc((size_t)nv, sizeof *ai);
      to_mujoco(mm, md->qpos, acc, map, ai);
      *dqacc_I = qacc_diff(mm, md, ai);
      free(ai);
    }
    lk_model_free(c);
    mjModel *mx = with_linkage_inertia(mm, m);
    mjData *dx = mx ? mj_makeData(mx) : NULL;
    if (dx) {
      memcpy(dx->qpos, md->qpos, (size_t)mm->nq * sizeof *dx->qpos);
      memcpy(dx->qvel, md->qvel, (size_t)nv * sizeof *dx->qvel);
      mj_forward(mx, dx);
      *dqacc_x = qacc_diff(mx, dx, am);
    }
    if (dx) mj_deleteData(dx);
    if (mx) mj_deleteModel(mx);
    free(Mm);
    free(am);
  }
  free(acc);
  free(M);
  free(LM);
  free(map);
  mj_deleteData(md);
  lk_data_free(d);
}
#endif

int main(int argc, char **argv) {
#ifdef HAVE_MUJOCO
  if (argc == 3 && strcmp(argv[1], "--inertia") == 0) return inertia_report(argv[2]);
#endif
  const char *dir = argc > 1 ? argv[1] : "../shared/data/robots";
  walk(dir);
  qsort(files, (size_t)nfiles, sizeof files[0], cmp);
  if (nfiles == 0) {
    printf("bench/robots: no description under %s\n", dir);
    return 0;
  }
  size_t skip = strlen(dir) + 1;
  int nload = 0, nsim = 0, nwarned = 0, nshallow = 0;
  printf("%-58s %-10s %-34s %-26s %-18s %-18s %-8s %8s\n", "file", "load", "sim 2 s (max depth)",
         "mass kg (MuJoCo, rel)", "dM, dqacc", "dI, dqacc_I", "dqacc_x", "load ms");
  for (int f = 0; f < nfiles; f++) {
    const char *path = files[f];
    lk_load_options o;
    lk_load_options_default(&o);
    o.package_path = pkgpath;
    lk_error err;
    double t0 = now();
    lk_model *m = lk_model_load_file(path, &o, &err);
    double tl = now() - t0;
    const char *name = path + skip;
    if (!m) {
      printf("%-58s FAIL: %s:%d: %.200s\n", name, err.path, err.line, err.message);
      continue;
    }
    nload++;
    char load[32];
    int nw = lk_model_nwarnings(m);
    nwarned += nw > 0;
    snprintf(load, sizeof load, nw ? "ok+%dw" : "ok", nw);
    /* on a floor: the model's own, else a plane under it */
    int has_plane;
    double zlow = lowest(m, &has_plane);
    lk_model *s = m;
    if (!has_plane) {
      s = lk_model_new();
      lk_geom_spec g;
      lk_geom_spec_default(&g);
      g.type = LK_GEOM_PLANE;
      g.pose = lk_tf_identity();
      g.pose.p.z = zlow - 0.01;
      lk_merge_options mo;
      lk_merge_options_default(&mo);
      mo.options = 1;
      if (lk_model_add_geom(s, &g, &err) || lk_model_load_file_into(s, path, &o, &mo, &err) ||
          lk_model_finalize(s, &err)) {
        printf("%-58s %-10s floor: %.200s\n", name, load, err.message);
        lk_model_free(s);
        lk_model_free(m);
        continue;
      }
    }
    lk_data *d = lk_data_new(s);
    double h = lk_model_options(s)->timestep;
    int steps = (int)lround(2.0 / h), start = (int)lround(0.25 / h), failed = -1;
    double depth = 0, depth0 = 0;
    for (int i = 0; i < steps && d; i++) {
      if (lk_step(s, d) != LK_OK) {
        failed = i + 1;
        break;
      }
      for (int c = 0; c < lk_data_ncontacts(d); c++) {
        double x = lk_data_contact_report(d, c)->depth;
        if (i < start)
          depth0 = fmax(depth0, x);
        else
          depth = fmax(depth, x);
      }
    }
    char sim[64];
    if (failed < 0) {
      if (depth0 > depth)
        snprintf(sim, sizeof sim, "ok (%.2g mm; %.2g at start)", 1e3 * depth, 1e3 * depth0);
      else
        snprintf(sim, sizeof sim, "ok (%.2g mm)", 1e3 * depth);
      nsim++;
      nshallow += depth <= 1e-3;
    } else {
      snprintf(sim, sizeof sim, "step %d failed", failed);
    }
    lk_data_free(d);
    if (s != m) lk_model_free(s);
    double mass = total_mass(m);
    char mj[400] = "-", dyn[64] = "-", same[64] = "-", exact[32] = "-";
#ifdef HAVE_MUJOCO
    char mjerr[300] = "", removed[256];
    mjModel *mm = mj_load_stripped(path, mjerr, sizeof mjerr, removed, sizeof removed);
    if (mm) {
      double M = 0;
      /* body 0 too: MuJoCo fuses a URDF's bodies welded to the world into it */
      for (int b = 0; b < mm->nbody; b++) M += mm->body_mass[b];
      if (M > 0)
        snprintf(mj, sizeof mj, "%.4g, %+.2g%s%s", M, (mass - M) / M, removed[0] ? "; w/o " : "",
                 removed);
      else
        snprintf(mj, sizeof mj, "MuJoCo: fixed to its world"); /* a fused static body */
      double dM, da, dI, daI, dax;
      against_mujoco(mm, m, &dM, &da, &dI, &daI, &dax);
      if (dM >= 0) snprintf(dyn, sizeof dyn, "%.1e, %.1e", dM, da);
      if (dI >= 0) snprintf(same, sizeof same, "%.1e, %.1e", dI, daI);
      if (dax >= 0) snprintf(exact, sizeof exact, "%.1e", dax);
      mj_deleteModel(mm);
    } else {
      /* MuJoCo 2.2.2's first words: the MuJoCo 3 keyword or the file missing from the corpus */
      char *nl = strchr(mjerr, '\n');
      if (nl) *nl = 0;
      snprintf(mj, sizeof mj, "MuJoCo: %.40s", mjerr);
    }
#endif
    char massbuf[512];
    snprintf(massbuf, sizeof massbuf, "%.4g (%s)", mass, mj);
    printf("%-58s %-10s %-34s %-26s %-18s %-18s %-8s %8.1f\n", name, load, sim, massbuf, dyn, same,
           exact, 1e3 * tl);
    lk_model_free(m);
  }
  printf("total: %d files, %d load (%d with warnings), %d simulate 2 s on a floor, %d of them "
         "within 1 mm after 0.25 s\n",
         nfiles, nload, nwarned, nsim, nshallow);
  return 0;
}
