/* lk_view: the viewer page's recorded data read back from the page (frame
 * times at 60 frames/s, link poses of the gripper where the set-up puts
 * them, the cube's contact forces balancing its weight), several scenes
 * with text that must not break the page, the size of 10 s of the rover,
 * errors as values, byte-identical pages from identical runs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "linkage/linkage.h"

static lk_model *load(const char *rel) {
  lk_error err;
  lk_model *m = lk_model_load_file(lk_test_srcpath(rel), NULL, &err);
  LK_ASSERT_MSG(m != NULL, "%s: %s", rel, err.message);
  return m;
}

/* The page as a string (caller frees). */
static char *page_of(const lk_view *v, size_t *len) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  lk_error err;
  LK_ASSERT_OK(lk_view_write(v, f, &err), &err);
  fclose(f);
  if (len) *len = n;
  return buf;
}

/* The text after `"key":` in scene k of the page's JSON (string: the first
 * such key whose value is a string, from its opening quote). */
static const char *field(const char *page, int k, const char *key, int string) {
  const char *p = strstr(page, "\"scenes\":[");
  for (int i = 0; p && i <= k; i++) p = strstr(p + 1, "{\"name\":");
  if (!p) return NULL;
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\":%s", key, string ? "\"" : "");
  p = strstr(p, pat);
  return p ? p + strlen(pat) - (string ? 1 : 0) : NULL;
}

static long int_field(const char *page, int k, const char *key) {
  const char *p = field(page, k, key, 0);
  return p ? strtol(p, NULL, 10) : -1;
}

/* A base64 field decoded (caller frees); *n bytes. */
static unsigned char *b64_field(const char *page, int k, const char *key, size_t *n) {
  const char *p = field(page, k, key, 1);
  *n = 0;
  if (!p || *p != '"') return NULL;
  p++;
  const char *e = strchr(p, '"');
  size_t len = (size_t)(e - p);
  unsigned char *out = malloc(len / 4 * 3 + 4);
  size_t o = 0;
  unsigned acc = 0;
  int bits = 0;
  for (size_t i = 0; i < len; i++) {
    char c = p[i];
    int v = c >= 'A' && c <= 'Z'   ? c - 'A'
            : c >= 'a' && c <= 'z' ? c - 'a' + 26
            : c >= '0' && c <= '9' ? c - '0' + 52
            : c == '+'             ? 62
            : c == '/'             ? 63
                                   : -1;
    if (v < 0) break; /* '=' */
    acc = acc << 6 | (unsigned)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (unsigned char)(acc >> bits);
    }
  }
  *n = o;
  return out;
}

static float f32(const unsigned char *b, size_t i) {
  uint32_t u = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 | (uint32_t)b[4 * i + 2] << 16 |
               (uint32_t)b[4 * i + 3] << 24;
  float x;
  memcpy(&x, &u, sizeof x);
  return x;
}

static double f64(const unsigned char *b, size_t i) {
  uint64_t u = 0;
  for (int k = 7; k >= 0; k--) u = u << 8 | b[8 * i + (size_t)k];
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}

/* Simulate `seconds` recording frames as linkage simulate does. */
static void record(lk_view *v, int scene, const lk_model *m, lk_data *d, double seconds) {
  lk_error err;
  long nsteps = lround(seconds / lk_model_options(m)->timestep);
  for (long s = 0;; s++) {
    if (s == nsteps || lk_view_frame_due(v, scene, lk_data_time(d))) {
      LK_ASSERT_OK(lk_forward_kinematics(m, d), NULL);
      LK_ASSERT_OK(lk_view_add_frame(v, scene, m, d, &err), &err);
    }
    if (s == nsteps) break;
    LK_ASSERT_OK(lk_step(m, d), NULL);
    lk_view_add_step(v, scene, d);
  }
}

static void test_gripper_frames(void) {
  lk_model *m = load("mechanisms/gripper.yaml");
  lk_data *d = lk_data_new(m);
  lk_error err;
  lk_view *v = lk_view_new(NULL, &err);
  LK_ASSERT_INT_EQ(lk_view_add_scene(v, m, NULL, NULL, &err), 0);
  record(v, 0, m, d, 1.0);
  /* 60 frames/s over 1 s: frames at 0, 1/60, ..., 60/60 s. */
  LK_ASSERT_INT_EQ(lk_view_nframes(v, 0), 61);
  char *page = page_of(v, NULL);
  LK_ASSERT_MSG(strncmp(page, "<!DOCTYPE html>", 15) == 0, "not an HTML page");
  LK_ASSERT_MSG(strstr(page, "REVISION=\"111\"") != NULL, "three.js r111 is not inlined");
  LK_ASSERT_MSG(strstr(page, "OrbitControls") != NULL, "OrbitControls is not inlined");
  LK_ASSERT_MSG(strstr(page, "<script src") == NULL && strstr(page, "<link") == NULL,
                "the page loads something from outside");
  LK_ASSERT_INT_EQ(int_field(page, 0, "nframes"), 61);
  size_t nt, np, nc, no, nr;
  unsigned char *t = b64_field(page, 0, "t", &nt);
  unsigned char *pose = b64_field(page, 0, "pose", &np);
  unsigned char *con = b64_field(page, 0, "contact", &nc);
  unsigned char *coff = b64_field(page, 0, "coff", &no);
  unsigned char *rep = b64_field(page, 0, "report", &nr);
  LK_ASSERT_INT_EQ(nt, 61 * 8);
  int nl = lk_model_nlink(m);
  LK_ASSERT_INT_EQ(np, (size_t)61 * (size_t)nl * 7 * 4);
  /* Frame k is the first step (1 ms) at or after k / 60 s. */
  for (int k = 0; k <= 60 && nt == 61 * 8; k++)
    LK_ASSERT_NEAR(f64(t, (size_t)k), ceil(k * 1000.0 / 60 - 1e-6) / 1000, 1e-9);
  int cube = lk_model_link_index(m, "cube"), left = lk_model_link_index(m, "left_finger"),
      right = lk_model_link_index(m, "right_finger");
  if (np == (size_t)61 * (size_t)nl * 7 * 4) {
    /* At rest as placed: the cube at z = 0.25 upright, the finger frames
     * 6 cm - 3 cm either side of it, 30 - 5 cm up. */
    size_t c0 = (size_t)cube * 7, l0 = (size_t)left * 7, r0 = (size_t)right * 7;
    LK_ASSERT_NEAR(f32(pose, c0 + 0), 0, 1e-7);
    LK_ASSERT_NEAR(f32(pose, c0 + 2), 0.25, 1e-7);
    LK_ASSERT_NEAR(f32(pose, c0 + 3), 1, 1e-7);
    LK_ASSERT_NEAR(f32(pose, l0 + 1), 0.03, 1e-7);
    LK_ASSERT_NEAR(f32(pose, l0 + 2), 0.25, 1e-7);
    LK_ASSERT_NEAR(f32(pose, r0 + 1), -0.03, 1e-7);
    /* Held: after 1 s the cube has not moved by more than 0.1 mm. */
    size_t last = (size_t)60 * (size_t)nl * 7;
    LK_ASSERT_NEAR(f32(pose, last + c0 + 2), 0.25, 1e-4);
  }
  /* The last frame's contacts on the cube: the pads' squeeze of kp * 5 mm
   * = 10 N each, opposite along y, and friction carrying the weight. */
  LK_ASSERT_INT_EQ(no, 62 * 4);
  LK_ASSERT_MSG(nc > 0, "no contacts recorded");
  if (no == 62 * 4 && nc > 0) {
    uint32_t a = 0, b = 0;
    memcpy(&a, coff + 60 * 4, 4);
    memcpy(&b, coff + 61 * 4, 4);
    double fy_pos = 0, fy_neg = 0, fz = 0;
    int nstatic = 0;
    LK_ASSERT_MSG(b > a && (size_t)b * 12 * 4 == nc, "contacts %u..%u of %zu floats", a, b, nc / 4);
    for (uint32_t i = a; i < b && (size_t)b * 12 * 4 == nc; i++) {
      if ((int)f32(con, 12 * i + 10) != cube) continue;
      /* The other body: a finger (the cube is held clear of the floor). */
      int other = (int)f32(con, 12 * i + 11);
      LK_ASSERT_MSG(other > 0 && other != cube && other < lk_model_nlink(m), "contact %u: other %d", i, other);
      double fy = f32(con, 12 * i + 4);
      if (fy > 0) fy_pos += fy;
      else fy_neg += fy;
      fz += f32(con, 12 * i + 8);
      nstatic += f32(con, 12 * i + 9) == 1;
    }
    LK_ASSERT_MSG(b - a >= 8, "%u contacts in the last frame", b - a);
    LK_ASSERT_NEAR(fy_pos, 10, 0.1);
    LK_ASSERT_NEAR(fy_neg, -10, 0.1);
    LK_ASSERT_NEAR(fz, 0.1 * lk_v3_norm(lk_model_options(m)->gravity), 1e-3);
    LK_ASSERT_INT_EQ(nstatic, (int)(b - a));
  }
  /* The report's step counts add up to the 1000 steps, without failures. */
  if (nr == 61 * 8 * 4) {
    long steps = 0, failures = 0;
    for (int k = 0; k < 61; k++) {
      int32_t x;
      memcpy(&x, rep + (size_t)(k * 8 + 1) * 4, 4);
      steps += x;
      memcpy(&x, rep + (size_t)(k * 8 + 5) * 4, 4);
      failures += x;
    }
    LK_ASSERT_INT_EQ(steps, 1000);
    LK_ASSERT_INT_EQ(failures, 0);
  }
  free(t), free(pose), free(con), free(coff), free(rep), free(page);
  lk_view_free(v);
  lk_data_free(d);
  lk_model_free(m);
}

/* Another rate and duration: 25 frames/s over 0.5 s, plus the last state. */
static void test_other_rate(void) {
  lk_model *m = load("mechanisms/pendulum.yaml");
  lk_data *d = lk_data_new(m);
  lk_view_options o;
  lk_view_options_default(&o);
  o.fps = 25;
  o.frames = 4; /* grows past it */
  lk_error err;
  lk_view *v = lk_view_new(&o, &err);
  LK_ASSERT_INT_EQ(lk_view_add_scene(v, m, "swing", NULL, &err), 0);
  record(v, 0, m, d, 0.5);
  /* 0, 0.04, ..., 0.48 and the last state at 0.5. */
  LK_ASSERT_INT_EQ(lk_view_nframes(v, 0), 14);
  lk_view_free(v);
  lk_data_free(d);
  lk_model_free(m);
}

static int count(const char *s, const char *what) {
  int n = 0;
  for (const char *p = strstr(s, what); p; p = strstr(p + 1, what)) n++;
  return n;
}

static void test_scenes_and_text(void) {
  lk_model *g = load("mechanisms/gripper.yaml"), *p = load("mechanisms/pendulum.yaml");
  lk_error err;
  lk_view_options o;
  lk_view_options_default(&o);
  o.title = "grasps <best> & \"worst\"";
  lk_view *v = lk_view_new(&o, &err);
  LK_ASSERT_INT_EQ(lk_view_add_scene(v, g, "grasp 1", "epsilon 0.12 </script><script>x()", &err), 0);
  LK_ASSERT_INT_EQ(lk_view_add_scene(v, p, NULL, NULL, &err), 1);
  LK_ASSERT_INT_EQ(lk_view_nscenes(v), 2);
  char *page = page_of(v, NULL);
  /* Only the page's own script elements: the caption cannot close one. */
  LK_ASSERT_INT_EQ(count(page, "</script>"), count(page, "<script"));
  LK_ASSERT_MSG(strstr(page, "epsilon 0.12 \\u003c/script\\u003e") != NULL, "caption not escaped");
  LK_ASSERT_MSG(strstr(page, "<title>grasps &lt;best&gt; &amp; \"worst\" - Linkage viewer</title>"),
                "title not escaped");
  LK_ASSERT_MSG(strstr(page, "{\"name\":\"pendulum\"") != NULL, "the model's name is the default");
  LK_ASSERT_INT_EQ(int_field(page, 0, "nframes"), 0);
  /* A scene without frames carries the model at rest. */
  size_t n;
  unsigned char *rest = b64_field(page, 0, "rest", &n);
  int cube = lk_model_link_index(g, "cube");
  LK_ASSERT_INT_EQ(n, (size_t)lk_model_nlink(g) * 7 * 4);
  if (n == (size_t)lk_model_nlink(g) * 7 * 4) LK_ASSERT_NEAR(f32(rest, (size_t)cube * 7 + 2), 0.25, 1e-7);
  /* A frame from the other scene's data is refused. */
  lk_data *dp = lk_data_new(p);
  lk_forward_kinematics(p, dp);
  LK_ASSERT_INT_EQ(lk_view_add_frame(v, 0, g, dp, &err), LK_INVALID_ARGUMENT);
  LK_ASSERT_INT_EQ(lk_view_add_frame(v, 0, p, dp, &err), LK_INVALID_ARGUMENT);
  LK_ASSERT_INT_EQ(lk_view_add_frame(v, 5, p, dp, &err), LK_INVALID_ARGUMENT);
  LK_ASSERT_INT_EQ(lk_view_add_frame(v, 1, p, dp, &err), LK_OK);
  /* A page that cannot be written leaves nothing. */
  LK_ASSERT_INT_EQ(lk_view_write_file(v, "/nonexistent-dir/page.html", &err), LK_IO_ERROR);
  struct stat sb;
  LK_ASSERT_MSG(stat("/nonexistent-dir/page.html", &sb) != 0, "a page appeared");
  lk_view_options bad;
  lk_view_options_default(&bad);
  bad.fps = NAN;
  LK_ASSERT_MSG(lk_view_new(&bad, &err) == NULL && err.status == LK_INVALID_ARGUMENT, "NaN fps");
  free(rest);
  free(page);
  lk_data_free(dp);
  lk_view_free(v);
  lk_model_free(g);
  lk_model_free(p);
}

/* 10 s of the rover at 60 frames/s, with the contacts of its wheels on the
 * ground in every frame (the run itself is too slow for make check: the
 * same frames of one state carry the same amount of data). */
static void test_rover_size(void) {
  lk_model *m = load("mechanisms/rover.yaml");
  lk_data *d = lk_data_new(m);
  lk_error err;
  for (int s = 0; s < 300; s++) LK_ASSERT_OK(lk_step(m, d), NULL);
  LK_ASSERT_OK(lk_forward_kinematics(m, d), NULL);
  LK_ASSERT_MSG(lk_data_ncontacts(d) >= 4, "the rover stands on %d contacts", lk_data_ncontacts(d));
  lk_view *v = lk_view_new(NULL, &err);
  lk_view_add_scene(v, m, NULL, NULL, &err);
  for (int f = 0; f <= 600; f++) LK_ASSERT_OK(lk_view_add_frame(v, 0, m, d, &err), &err);
  size_t n;
  char *page = page_of(v, &n);
  fprintf(stderr, "rover, 601 frames with %d contacts each: %.2f MB\n", lk_data_ncontacts(d),
          (double)n / 1e6);
  LK_ASSERT_MSG(n < 5000000, "the page is %zu bytes", n);
  free(page);
  lk_view_free(v);
  lk_data_free(d);
  lk_model_free(m);
}

static void test_deterministic(void) {
  lk_model *m = load("mechanisms/gripper.yaml");
  char *pages[2];
  size_t len[2];
  for (int r = 0; r < 2; r++) {
    lk_data *d = lk_data_new(m);
    lk_error err;
    lk_view *v = lk_view_new(NULL, &err);
    lk_view_add_scene(v, m, NULL, NULL, &err);
    record(v, 0, m, d, 0.2);
    pages[r] = page_of(v, &len[r]);
    lk_view_free(v);
    lk_data_free(d);
  }
  LK_ASSERT_INT_EQ(len[0], len[1]);
  LK_ASSERT_MSG(len[0] == len[1] && memcmp(pages[0], pages[1], len[0]) == 0, "pages differ");
  free(pages[0]);
  free(pages[1]);
  lk_model_free(m);
}

/* A mesh geom from a file carries the file's surface (lk_mesh_surface):
 * every vertex, every triangle, as the file has them, facing outwards
 * (the stone is convex: normal away from its centroid). */
static void test_mesh_geom(void) {
  lk_model *m = load("mechanisms/object_stone.yaml");
  lk_error err;
  int g = -1;
  lk_geom_spec gs;
  for (int i = 0; i < lk_model_ngeom(m); i++)
    if (lk_model_geom(m, i, &gs) == LK_OK && gs.type == LK_GEOM_MESH) g = i;
  LK_ASSERT_MSG(g >= 0, "the stone has a mesh geom");
  if (g < 0) return;
  lk_model_geom(m, g, &gs);
  const double *x;
  const int *st;
  int nv, nt = lk_mesh_surface(gs.mesh, &x, &nv, &st);
  LK_ASSERT_MSG(nt > 0, "the stone's mesh keeps its file's triangles");
  lk_view *v = lk_view_new(NULL, &err);
  lk_view_add_scene(v, m, NULL, NULL, &err);
  char *page = page_of(v, NULL);
  LK_ASSERT_MSG(strstr(page, "\"type\":\"mesh\"") != NULL, "no mesh geom in the page");
  size_t nvb, ntb;
  unsigned char *vb = b64_field(page, 0, "vertices", &nvb), *tb = b64_field(page, 0, "triangles", &ntb);
  LK_ASSERT_INT_EQ(nvb, (size_t)nv * 12);
  LK_ASSERT_INT_EQ(ntb, (size_t)nt * 12);
  lk_vec3 c = lk_mesh_centroid(gs.mesh);
  int inward = 0, bad_index = 0;
  for (int t = 0; nvb == (size_t)nv * 12 && ntb == (size_t)nt * 12 && t < nt; t++) {
    uint32_t id[3];
    memcpy(id, tb + 12 * (size_t)t, 12);
    for (int k = 0; k < 3; k++) LK_ASSERT_INT_EQ(id[k], (uint32_t)st[3 * t + k]);
    if (id[0] >= (uint32_t)nv || id[1] >= (uint32_t)nv || id[2] >= (uint32_t)nv) {
      bad_index++;
      continue;
    }
    lk_vec3 p[3];
    for (int k = 0; k < 3; k++) {
      p[k] = lk_v3(f32(vb, 3 * id[k]), f32(vb, 3 * id[k] + 1), f32(vb, 3 * id[k] + 2));
      LK_ASSERT_NEAR(p[k].x, x[3 * id[k]], 1e-7);
    }
    lk_vec3 n = lk_v3_cross(lk_v3_sub(p[1], p[0]), lk_v3_sub(p[2], p[0]));
    lk_vec3 mid = lk_v3_scale(lk_v3_add(lk_v3_add(p[0], p[1]), p[2]), 1.0 / 3);
    inward += lk_v3_dot(n, lk_v3_sub(mid, c)) <= 0;
  }
  LK_ASSERT_INT_EQ(bad_index, 0);
  LK_ASSERT_INT_EQ(inward, 0);
  free(vb), free(tb), free(page);
  lk_view_free(v);
  lk_model_free(m);
}

void lk_test_register(void) {
  static const lk_test tests[] = {{"gripper frames read back", test_gripper_frames},
                                  {"another frame rate", test_other_rate},
                                  {"several scenes, text, errors", test_scenes_and_text},
                                  {"rover 10 s under 5 MB", test_rover_size},
                                  {"identical runs, identical pages", test_deterministic},
                                  {"mesh geoms carry their hull", test_mesh_geom},
                                  {NULL, NULL}};
  lk_test_suite("view", tests);
}
