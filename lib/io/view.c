/* The trajectory viewer page (linkage/io.h: lk_view_*).
 *
 * The page is one HTML file: three.js and its OrbitControls (Debian's
 * libjs-three, inlined at build time by view_assets.S), the page's own
 * script and style (tools/viewer/), and the recorded scenes as one JSON
 * document. Scenes carry their geometry (per geom: link, type, size, pose
 * in the link frame) once, and per frame the time, every link's world pose
 * as 32-bit floats, the links' tactile slip flags, the contacts and the
 * solver report, each array base64-encoded little-endian: text numbers
 * would triple the size of a long run. Floats keep 7 significant digits,
 * 0.1 micrometre at 1 m: more than a screen shows. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "io/io_internal.h"
#include "linkage/collision.h"
#include "linkage/constraint.h"
#include "linkage/dynamics.h"
#include "linkage/io.h"
#include "linkage/sim.h"

/* The inlined assets (view_assets.S), each followed by a NUL. */
extern const char lk_view_asset_three[], lk_view_asset_orbit[], lk_view_asset_js[],
    lk_view_asset_css[];

/* Per frame: the report's integers (see report_names). */
enum { R_STATUS, R_STEPS, R_CONTACTS, R_SOLVES, R_PIVOTS, R_FAILURES, R_FALLBACKS, R_UNSETTLED,
       R_COUNT };
static const char *const report_names[R_COUNT] = {"status",  "steps",    "contacts",  "solves",
                                                  "pivots",  "failures", "fallbacks", "unsettled"};
/* Per contact: position (3), normal force vector (3), friction force on
 * the link (3), state (0 open, 1 static, 2 dynamic), the link touching,
 * the other link (0: the world; the page draws each arrow on the body it
 * can be seen pushing, so it needs both). */
#define CONTACT_FLOATS 12
#define POSE_FLOATS 7 /* x y z qw qx qy qz */

typedef struct {
  int type, link;
  int visual; /* collides with nothing (group or mask 0): drawn only */
  double size[3];
  float pose[POSE_FLOATS];
  char label[LK_IO_COLUMN_MAX];
  /* A mesh: its file's vertices and triangles (x y z, geom frame; three
   * vertex indices each, outward), or its hull's vertices and faces
   * fanned into triangles when it has no file surface. */
  float *vert;
  uint32_t *tri;
  int nvert, ntri;
  double radius;
} vgeom;

typedef struct {
  char *name, *caption;
  int nlink; /* including the world */
  char (*link_name)[LK_IO_NAME_MAX + 1];
  int *link_parent;
  int ngeom;
  vgeom *geom;
  double h;           /* the model's time step */
  float *rest;        /* link poses at the initial state */
  /* Frames. */
  long nframes, cap;
  double *t;
  float *pose;          /* nlink * POSE_FLOATS per frame (world included) */
  unsigned char *slip;  /* nlink per frame */
  int32_t *report;      /* R_COUNT per frame */
  float *residual;      /* worst LCP residual since the last frame */
  uint32_t *coff;       /* first contact of each frame; cap + 1 */
  long ncontact, ccap;
  float *contact;       /* CONTACT_FLOATS per contact */
  long next_due;        /* index k of the next due time k / fps */
  /* The solver reports summed since the last frame. */
  int32_t pending[R_COUNT];
  float pending_residual;
  unsigned status_seen; /* bit s: status s appeared (for the page's names) */
} vscene;

struct lk_view {
  char *title;
  double fps;
  long reserve;
  int n, cap;
  vscene *s;
};

void lk_view_options_default(lk_view_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->fps = 60;
}

static lk_status oom(lk_error *err) { return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory"); }

lk_view *lk_view_new(const lk_view_options *opts, lk_error *err) {
  lk_view_options o;
  lk_view_options_default(&o);
  if (opts) o = *opts;
  if (!isfinite(o.fps) || o.frames < 0) {
    lk_error_set(err, LK_INVALID_ARGUMENT, "view options: fps must be finite and frames >= 0");
    return NULL;
  }
  lk_view *v = lk_calloc(1, sizeof *v);
  if (!v) return oom(err), NULL;
  v->fps = o.fps;
  v->reserve = o.frames;
  if (o.title && !(v->title = lk_strdup(o.title))) {
    lk_free(v);
    return oom(err), NULL;
  }
  return v;
}

static void scene_free(vscene *s) {
  for (int g = 0; s->geom && g < s->ngeom; g++) lk_free(s->geom[g].vert), lk_free(s->geom[g].tri);
  lk_free(s->name);
  lk_free(s->caption);
  lk_free(s->link_name);
  lk_free(s->link_parent);
  lk_free(s->geom);
  lk_free(s->rest);
  lk_free(s->t);
  lk_free(s->pose);
  lk_free(s->slip);
  lk_free(s->report);
  lk_free(s->residual);
  lk_free(s->coff);
  lk_free(s->contact);
}

void lk_view_free(lk_view *v) {
  if (!v) return;
  for (int i = 0; i < v->n; i++) scene_free(&v->s[i]);
  lk_free(v->s);
  lk_free(v->title);
  lk_free(v);
}

int lk_view_nscenes(const lk_view *v) { return v ? v->n : 0; }

static void pose_floats(const lk_transform *T, float *out) {
  lk_quat q = lk_q_from_mat3(&T->R);
  out[0] = (float)T->p.x, out[1] = (float)T->p.y, out[2] = (float)T->p.z;
  out[3] = (float)q.w, out[4] = (float)q.x, out[5] = (float)q.y, out[6] = (float)q.z;
}

/* Room for `frames` frames (and their offsets). */
static int reserve_frames(vscene *s, long frames) {
  if (frames <= s->cap) return 1;
  size_t n = (size_t)frames, nl = (size_t)s->nlink;
  double *t = lk_realloc(s->t, n * sizeof *t);
  if (!t) return 0;
  s->t = t;
  float *p = lk_realloc(s->pose, n * nl * POSE_FLOATS * sizeof *p);
  if (!p) return 0;
  s->pose = p;
  unsigned char *sl = lk_realloc(s->slip, n * nl);
  if (!sl) return 0;
  s->slip = sl;
  int32_t *r = lk_realloc(s->report, n * R_COUNT * sizeof *r);
  if (!r) return 0;
  s->report = r;
  float *res = lk_realloc(s->residual, n * sizeof *res);
  if (!res) return 0;
  s->residual = res;
  uint32_t *c = lk_realloc(s->coff, (n + 1) * sizeof *c);
  if (!c) return 0;
  s->coff = c;
  s->cap = frames;
  return 1;
}

/* A mesh geom for the page to draw: the file's triangles when the mesh
 * kept them (lk_mesh_surface: a mesh from a file), else its hull. */
static int copy_mesh(vgeom *o, const lk_mesh *mesh) {
  const double *sv;
  const int *st;
  int nsv, nst = lk_mesh_surface(mesh, &sv, &nsv, &st);
  if (nst > 0) {
    o->vert = lk_malloc((size_t)(3 * nsv + 1) * sizeof *o->vert);
    o->tri = lk_malloc((size_t)(3 * nst + 1) * sizeof *o->tri);
    if (!o->vert || !o->tri) return 0;
    for (int i = 0; i < 3 * nsv; i++) o->vert[i] = (float)sv[i];
    for (int i = 0; i < 3 * nst; i++) o->tri[i] = (uint32_t)st[i];
    o->nvert = nsv;
    o->ntri = nst;
    o->radius = lk_mesh_radius(mesh);
    return 1;
  }
  int nv = lk_mesh_nvertex(mesh), nf = lk_mesh_nface(mesh), nt = 0;
  const double *x = lk_mesh_vertices(mesh);
  for (int f = 0; f < nf; f++) {
    int k = lk_mesh_face(mesh, f, NULL, 0);
    if (k >= 3) nt += k - 2;
  }
  o->vert = lk_malloc((size_t)(3 * nv + 1) * sizeof *o->vert);
  o->tri = lk_malloc((size_t)(3 * nt + 1) * sizeof *o->tri);
  int *idx = lk_malloc((size_t)(nv + 1) * sizeof *idx);
  if (!o->vert || !o->tri || !idx) {
    lk_free(idx);
    return 0;
  }
  for (int i = 0; i < 3 * nv; i++) o->vert[i] = (float)x[i];
  int t = 0;
  for (int f = 0; f < nf; f++) {
    int k = lk_mesh_face(mesh, f, idx, nv);
    for (int j = 1; j + 1 < k && k <= nv; j++) {
      o->tri[3 * t] = (uint32_t)idx[0];
      o->tri[3 * t + 1] = (uint32_t)idx[j];
      o->tri[3 * t + 2] = (uint32_t)idx[j + 1];
      t++;
    }
  }
  lk_free(idx);
  o->nvert = nv;
  o->ntri = t;
  o->radius = lk_mesh_radius(mesh);
  return 1;
}

int lk_view_add_scene(lk_view *v, const lk_model *m, const char *name, const char *caption,
                      lk_error *err) {
  if (!v || !m || !lk_model_is_finalized(m)) {
    lk_error_set(err, LK_INVALID_ARGUMENT, "a view scene needs a view and a finalized model");
    return -1;
  }
  if (v->n == v->cap) {
    int nc = v->cap ? 2 * v->cap : 4;
    vscene *ns = lk_realloc(v->s, (size_t)nc * sizeof *ns);
    if (!ns) return oom(err), -1;
    v->s = ns;
    v->cap = nc;
  }
  vscene *s = &v->s[v->n];
  memset(s, 0, sizeof *s);
  const char *nm = name ? name : (lk_model_name(m) ? lk_model_name(m) : "mechanism");
  s->name = lk_strdup(nm);
  s->caption = caption ? lk_strdup(caption) : NULL;
  s->nlink = lk_model_nlink(m);
  s->ngeom = lk_model_ngeom(m);
  s->h = lk_model_options(m)->timestep;
  s->link_name = lk_calloc((size_t)s->nlink, sizeof *s->link_name);
  s->link_parent = lk_calloc((size_t)s->nlink, sizeof *s->link_parent);
  s->geom = lk_calloc((size_t)s->ngeom + 1, sizeof *s->geom);
  s->rest = lk_calloc((size_t)s->nlink * POSE_FLOATS, sizeof *s->rest);
  lk_data *d = lk_data_new(m);
  int ok = s->name && (!caption || s->caption) && s->link_name && s->link_parent && s->geom &&
           s->rest && d;
  if (ok && v->reserve > 0) ok = reserve_frames(s, v->reserve);
  if (!ok) {
    lk_data_free(d);
    scene_free(s);
    return oom(err), -1;
  }
  for (int l = 0; l < s->nlink; l++) {
    snprintf(s->link_name[l], sizeof s->link_name[l], "%s", lk_model_link_name(m, l));
    s->link_parent[l] = lk_model_link_parent(m, l);
  }
  for (int g = 0; g < s->ngeom; g++) {
    lk_geom_spec gs;
    lk_model_geom(m, g, &gs);
    vgeom *o = &s->geom[g];
    o->type = (int)gs.type;
    o->link = lk_model_geom_link(m, g);
    o->visual = gs.group == 0 || gs.mask == 0;
    memcpy(o->size, gs.size, sizeof o->size);
    pose_floats(&gs.pose, o->pose);
    lk_model_geom_label(m, g, o->label, sizeof o->label);
    if (gs.type == LK_GEOM_MESH && gs.mesh && !copy_mesh(o, gs.mesh)) {
      lk_data_free(d);
      scene_free(s);
      return oom(err), -1;
    }
  }
  /* The model at rest, for a scene without frames and for the camera. */
  lk_status st = lk_forward_kinematics(m, d);
  for (int l = 0; l < s->nlink; l++) {
    lk_transform T = l > 0 && st == LK_OK ? *lk_data_link_pose(d, l) : lk_tf_identity();
    pose_floats(&T, s->rest + (size_t)l * POSE_FLOATS);
  }
  lk_data_free(d);
  return v->n++;
}

static vscene *scene_of(const lk_view *v, int scene) {
  return v && scene >= 0 && scene < v->n ? &v->s[scene] : NULL;
}

long lk_view_nframes(const lk_view *v, int scene) {
  const vscene *s = scene_of(v, scene);
  return s ? s->nframes : 0;
}

int lk_view_frame_due(const lk_view *v, int scene, double t) {
  const vscene *s = scene_of(v, scene);
  if (!s) return 0;
  if (s->nframes == 0 || v->fps <= 0) return 1;
  /* Due times are k / fps, counted from zero so that they do not drift
   * with the step; a relative hair lets 1.0 s reach 60 / 60. */
  return t * v->fps >= (double)s->next_due * (1 - 1e-12) - 1e-9;
}

static void sum_report(vscene *s, const lk_step_report *r) {
  s->pending[R_STEPS]++;
  if (r->status != LK_OK) s->pending[R_STATUS] = (int32_t)r->status;
  s->pending[R_SOLVES] += r->lcp_solves;
  s->pending[R_PIVOTS] += r->lcp_pivots;
  s->pending[R_FAILURES] += r->solver_failures;
  s->pending[R_FALLBACKS] += r->fallbacks;
  s->pending[R_UNSETTLED] += r->friction_unconverged;
  if (r->lcp_residual > s->pending_residual) s->pending_residual = (float)r->lcp_residual;
  if ((unsigned)r->status < 32) s->status_seen |= 1u << (unsigned)r->status;
}

void lk_view_add_step(lk_view *v, int scene, const lk_data *d) {
  vscene *s = scene_of(v, scene);
  const lk_step_report *r = d ? lk_data_step_report(d) : NULL;
  if (s && r) sum_report(s, r);
}

lk_status lk_view_add_frame(lk_view *v, int scene, const lk_model *m, const lk_data *d,
                            lk_error *err) {
  vscene *s = scene_of(v, scene);
  if (!s || !m || !d || lk_data_model(d) != m)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "view frame: bad scene, or the data is not the model's");
  if (lk_model_nlink(m) != s->nlink || lk_model_ngeom(m) != s->ngeom)
    return lk_error_set(err, LK_INVALID_ARGUMENT,
                        "view frame: the model is not the one scene %d was made for", scene);
  if (s->nframes == s->cap && !reserve_frames(s, s->cap ? 2 * s->cap : 256)) return oom(err);
  int nc = lk_data_ncontacts(d);
  if (s->ncontact + nc > s->ccap) {
    long need = s->ncontact + nc, nc2 = s->ccap ? 2 * s->ccap : 1024;
    while (nc2 < need) nc2 *= 2;
    if (nc2 > (long)UINT32_MAX)
      return lk_error_set(err, LK_CAPACITY_EXCEEDED, "view: more than 2^32 contacts recorded");
    float *c = lk_realloc(s->contact, (size_t)nc2 * CONTACT_FLOATS * sizeof *c);
    if (!c) return oom(err);
    s->contact = c;
    s->ccap = nc2;
  }
  long f = s->nframes;
  double t = lk_data_time(d);
  s->t[f] = t;
  float *pose = s->pose + (size_t)f * (size_t)s->nlink * POSE_FLOATS;
  unsigned char *slip = s->slip + (size_t)f * (size_t)s->nlink;
  for (int l = 0; l < s->nlink; l++) {
    lk_transform T = l > 0 ? *lk_data_link_pose(d, l) : lk_tf_identity();
    pose_floats(&T, pose + (size_t)l * POSE_FLOATS);
    lk_tactile tac;
    slip[l] = (unsigned char)(l > 0 && lk_data_tactile(d, l, &tac) == LK_OK && tac.slip);
  }
  /* A frame recorded without lk_view_add_step still shows its step. */
  if (s->pending[R_STEPS] == 0 && t > 0) sum_report(s, lk_data_step_report(d));
  int32_t *rep = s->report + (size_t)f * R_COUNT;
  memcpy(rep, s->pending, sizeof s->pending);
  rep[R_CONTACTS] = nc;
  s->residual[f] = s->pending_residual;
  memset(s->pending, 0, sizeof s->pending);
  s->pending_residual = 0;
  s->coff[f] = (uint32_t)s->ncontact;
  for (int i = 0; i < nc; i++) {
    const lk_contact_report *c = lk_data_contact_report(d, i);
    float *o = s->contact + (size_t)s->ncontact * CONTACT_FLOATS;
    lk_vec3 fnv = lk_v3_scale(c->normal, c->fn);
    double vals[CONTACT_FLOATS] = {c->position.x, c->position.y, c->position.z, fnv.x, fnv.y,
                                   fnv.z, c->ft.x, c->ft.y, c->ft.z,
                                   c->fn > 0 ? (c->state == LK_FRICTION_DYNAMIC ? 2 : 1) : 0,
                                   c->link, c->other};
    for (int k = 0; k < CONTACT_FLOATS; k++) o[k] = (float)vals[k];
    s->ncontact++;
  }
  s->coff[f + 1] = (uint32_t)s->ncontact;
  s->nframes++;
  if (v->fps > 0) s->next_due = (long)floor(t * v->fps * (1 + 1e-12) + 1e-9) + 1;
  return LK_OK;
}

/* ------------------------------------------------------------ writing */

/* A JSON string, with '<' and '>' escaped so that nothing inside can end
 * the <script> element the document sits in. */
static void json_string(lk_outfile *o, const char *s) {
  lk_outfile_puts(o, "\"");
  char buf[8];
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    if (*p == '"' || *p == '\\') {
      buf[0] = '\\', buf[1] = (char)*p, buf[2] = '\0';
      lk_outfile_puts(o, buf);
    } else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&') {
      snprintf(buf, sizeof buf, "\\u%04x", *p);
      lk_outfile_puts(o, buf);
    } else {
      buf[0] = (char)*p, buf[1] = '\0';
      lk_outfile_puts(o, buf);
    }
  }
  lk_outfile_puts(o, "\"");
}

/* Bytes as base64 (RFC 4648), in a JSON string. */
static void json_base64(lk_outfile *o, const unsigned char *b, size_t n) {
  static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  char buf[4097];
  size_t k = 0;
  lk_outfile_puts(o, "\"");
  for (size_t i = 0; i < n; i += 3) {
    unsigned x = (unsigned)b[i] << 16 | (i + 1 < n ? (unsigned)b[i + 1] << 8 : 0) |
                 (i + 2 < n ? b[i + 2] : 0);
    buf[k++] = abc[x >> 18 & 63];
    buf[k++] = abc[x >> 12 & 63];
    buf[k++] = i + 1 < n ? abc[x >> 6 & 63] : '=';
    buf[k++] = i + 2 < n ? abc[x & 63] : '=';
    if (k >= sizeof buf - 5) {
      buf[k] = '\0';
      lk_outfile_puts(o, buf);
      k = 0;
    }
  }
  buf[k] = '\0';
  lk_outfile_puts(o, buf);
  lk_outfile_puts(o, "\"");
}

/* Little-endian bytes of 32-bit words (floats by their bit patterns) and
 * of doubles, whatever the host's order: the page reads them as typed
 * arrays, little-endian on every machine a browser runs on. */
typedef struct {
  unsigned char *b;
  size_t n;
} bytes;

static int le_words(bytes *out, const void *words, size_t count) {
  out->n = 4 * count;
  out->b = lk_malloc(out->n ? out->n : 1);
  if (!out->b) return 0;
  const uint32_t *w = words;
  for (size_t i = 0; i < count; i++) {
    uint32_t x = w[i];
    for (int k = 0; k < 4; k++) out->b[4 * i + (size_t)k] = (unsigned char)(x >> (8 * k));
  }
  return 1;
}

static int le_doubles(bytes *out, const double *x, size_t count) {
  out->n = 8 * count;
  out->b = lk_malloc(out->n ? out->n : 1);
  if (!out->b) return 0;
  for (size_t i = 0; i < count; i++) {
    uint64_t u;
    memcpy(&u, &x[i], sizeof u);
    for (int k = 0; k < 8; k++) out->b[8 * i + (size_t)k] = (unsigned char)(u >> (8 * k));
  }
  return 1;
}

static int put_words(lk_outfile *o, const char *key, const void *w, size_t count) {
  bytes b;
  if (!le_words(&b, w, count)) return 0;
  lk_outfile_printf(o, ",\"%s\":", key);
  json_base64(o, b.b, b.n);
  lk_free(b.b);
  return 1;
}

static void put_number(lk_outfile *o, double x) {
  char buf[LK_FORMAT_DOUBLE_MAX];
  lk_format_double(isfinite(x) ? x : 0, buf);
  lk_outfile_puts(o, buf);
}

static int put_scene(lk_outfile *o, const vscene *s) {
  lk_outfile_puts(o, "{\"name\":");
  json_string(o, s->name);
  lk_outfile_puts(o, ",\"caption\":");
  json_string(o, s->caption ? s->caption : "");
  lk_outfile_puts(o, ",\"timestep\":");
  put_number(o, s->h);
  lk_outfile_puts(o, ",\"links\":[");
  for (int l = 0; l < s->nlink; l++) {
    lk_outfile_printf(o, "%s{\"name\":", l ? "," : "");
    json_string(o, s->link_name[l]);
    lk_outfile_printf(o, ",\"parent\":%d}", s->link_parent[l]);
  }
  lk_outfile_puts(o, "],\"geoms\":[");
  for (int g = 0; g < s->ngeom; g++) {
    const vgeom *G = &s->geom[g];
    lk_outfile_printf(o, "%s{\"type\":", g ? "," : "");
    json_string(o, lk_geom_type_name((lk_geom_type)G->type));
    lk_outfile_printf(o, ",\"link\":%d,%s\"label\":", G->link, G->visual ? "\"visual\":1," : "");
    json_string(o, G->label);
    lk_outfile_puts(o, ",\"size\":[");
    for (int k = 0; k < 3; k++) {
      if (k) lk_outfile_puts(o, ",");
      put_number(o, G->size[k]);
    }
    lk_outfile_puts(o, "],\"pose\":[");
    for (int k = 0; k < POSE_FLOATS; k++) {
      if (k) lk_outfile_puts(o, ",");
      put_number(o, G->pose[k]);
    }
    lk_outfile_puts(o, "]");
    if (G->type == LK_GEOM_MESH && G->vert) {
      lk_outfile_puts(o, ",\"radius\":");
      put_number(o, G->radius);
      if (!put_words(o, "vertices", G->vert, (size_t)G->nvert * 3) ||
          !put_words(o, "triangles", G->tri, (size_t)G->ntri * 3))
        return 0;
    }
    lk_outfile_puts(o, "}");
  }
  lk_outfile_puts(o, "],\"report_fields\":[");
  for (int k = 0; k < R_COUNT; k++) lk_outfile_printf(o, "%s\"%s\"", k ? "," : "", report_names[k]);
  lk_outfile_puts(o, "],\"status_names\":{");
  int first = 1;
  for (unsigned st = 0; st < LK_STATUS_COUNT && st < 32; st++)
    if (st == 0 || (s->status_seen >> st & 1)) {
      lk_outfile_printf(o, "%s\"%u\":", first ? "" : ",", st);
      json_string(o, lk_strerror((lk_status)st));
      first = 0;
    }
  lk_outfile_printf(o, "},\"nframes\":%ld,\"ncontacts\":%ld", s->nframes, s->ncontact);
  size_t nf = (size_t)s->nframes, nl = (size_t)s->nlink;
  bytes b;
  if (!put_words(o, "rest", s->rest, nl * POSE_FLOATS)) return 0;
  if (!le_doubles(&b, s->t, nf)) return 0;
  lk_outfile_puts(o, ",\"t\":");
  json_base64(o, b.b, b.n);
  lk_free(b.b);
  if (!put_words(o, "pose", s->pose, nf * nl * POSE_FLOATS)) return 0;
  lk_outfile_puts(o, ",\"slip\":");
  json_base64(o, s->slip ? s->slip : (const unsigned char *)"", nf * nl);
  if (!put_words(o, "report", s->report, nf * R_COUNT)) return 0;
  if (!put_words(o, "residual", s->residual, nf)) return 0;
  if (!put_words(o, "coff", s->coff, nf ? nf + 1 : 0)) return 0;
  if (!put_words(o, "contact", s->contact, (size_t)s->ncontact * CONTACT_FLOATS)) return 0;
  lk_outfile_puts(o, "}");
  return 1;
}

static void html_text(lk_outfile *o, const char *s) {
  char buf[2] = {0, 0};
  for (; s && *s; s++) {
    switch (*s) {
      case '&': lk_outfile_puts(o, "&amp;"); break;
      case '<': lk_outfile_puts(o, "&lt;"); break;
      case '>': lk_outfile_puts(o, "&gt;"); break;
      default: buf[0] = *s; lk_outfile_puts(o, buf);
    }
  }
}

static lk_status write_page(const lk_view *v, lk_outfile *o, lk_error *err) {
  const char *title = v->title ? v->title : (v->n ? v->s[0].name : "Linkage");
  lk_outfile_puts(o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                     "<meta name=\"generator\" content=\"Linkage\">\n<title>");
  html_text(o, title);
  lk_outfile_puts(o, " - Linkage viewer</title>\n<style>\n");
  lk_outfile_puts(o, lk_view_asset_css);
  /* three.js is MIT-licensed; its notice travels with it. */
  /* Errors are collected from the first script on, three.js's included,
   * for the overlay and the browser test. */
  lk_outfile_puts(o, "</style>\n<script>window.lkErrors = []; window.addEventListener('error', "
                     "function (e) { window.lkErrors.push(String(e.message)); });</script>\n"
                     "</head>\n<body>\n<!-- three.js r111 (MIT licence, https://threejs.org), "
                     "from Debian's libjs-three -->\n<script>\n");
  lk_outfile_puts(o, lk_view_asset_three);
  lk_outfile_puts(o, "\n</script>\n<script>\n");
  lk_outfile_puts(o, lk_view_asset_orbit);
  lk_outfile_puts(o, "\n</script>\n<script type=\"application/json\" id=\"lk-data\">\n{\"title\":");
  json_string(o, title);
  lk_outfile_puts(o, ",\"scenes\":[");
  for (int i = 0; i < v->n; i++) {
    if (i) lk_outfile_puts(o, ",\n");
    if (!put_scene(o, &v->s[i])) return oom(err);
  }
  lk_outfile_puts(o, "]}\n</script>\n<script>\n");
  lk_outfile_puts(o, lk_view_asset_js);
  lk_outfile_puts(o, "\n</script>\n</body>\n</html>\n");
  return LK_OK;
}

lk_status lk_view_write(const lk_view *v, FILE *f, lk_error *err) {
  if (!v || !f) return lk_error_set(err, LK_INVALID_ARGUMENT, "lk_view_write: NULL view or stream");
  lk_outfile o;
  lk_outfile_stream(&o, f);
  lk_status st = write_page(v, &o, err);
  if (st) return st;
  return lk_outfile_commit(&o, err);
}

lk_status lk_view_write_file(const lk_view *v, const char *path, lk_error *err) {
  if (!v || !path)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "lk_view_write_file: NULL view or path");
  lk_outfile o;
  lk_status st = lk_outfile_open(&o, path, err);
  if (st) return st;
  if ((st = write_page(v, &o, err))) {
    lk_outfile_discard(&o);
    return st;
  }
  return lk_outfile_commit(&o, err);
}
