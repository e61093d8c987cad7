/* The viewer page in a real browser: headless Chromium opens the gripper's
 * page from a file:// URL (no network), takes screenshots at two times and
 * the test reads the pixels: the cube and the fingers are drawn where the
 * trajectory puts them, the two frames differ, the page reports no script
 * error. Skipped (no tests registered) without chromium (LK_CHROMIUM names
 * another browser binary).
 *
 * The set-up: the gripper with its grip opened (both targets 0), so that
 * the fingers slide out to q = 0 and the cube drops onto the floor. The
 * pictures use the page's test view (tools/viewer/viewer.js): flat colours
 * (link l in PALETTE[(l - 1) % 8], no lighting, white background) and an
 * orthographic camera looking along -x, centred on (y, z) = (0, 0.15) with
 * 0.4 m of world in 600 pixels: world (y, z) is pixel
 * (300 + 1500 y, 300 - 1500 (z - 0.15)). Closed-form positions: at t = 0
 * the cube's centre at z = 0.25, the pads' centres at y = +-(0.06 - 0.03);
 * after 1 s the cube rests on the floor (centre z = 0.025, its half
 * size) and the pads are fully open (y = +-0.06). A copy of a lit picture
 * of the held cube is left in the build tree (tests/tools/viewer-gripper.png)
 * for the README. The grasp planner's --view page is opened too. */
#include <png.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "linkage/linkage.h"

static const unsigned kPalette[] = {0x4e79a7, 0xf28e2b, 0x76b7b2, 0xedc948,
                                    0xb07aa1, 0x9c755f, 0xff9da7, 0xbab0ac};
static char browser[4096], dir[4096];

static const char *build_path(const char *rel) {
  static char buf[4][8192];
  static int slot;
  const char *b = getenv("LK_TOP_BUILDDIR");
  char *o = buf[slot++ & 3];
  snprintf(o, sizeof buf[0], "%s/%s", b && *b ? b : ".", rel);
  return o;
}

static const char *tmp(const char *name) {
  static char buf[4][8192];
  static int slot;
  char *o = buf[slot++ & 3];
  snprintf(o, sizeof buf[0], "%s/%s", dir, name);
  return o;
}

static int find_browser(void) {
  const char *env = getenv("LK_CHROMIUM");
  if (env && *env) {
    snprintf(browser, sizeof browser, "%s", env);
    return access(browser, X_OK) == 0;
  }
  const char *path = getenv("PATH");
  char buf[8192];
  snprintf(buf, sizeof buf, "%s", path ? path : "/usr/bin:/bin");
  for (char *save, *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
    const char *names[] = {"chromium", "chromium-browser"};
    for (int i = 0; i < 2; i++) {
      snprintf(browser, sizeof browser, "%s/%s", d, names[i]);
      if (access(browser, X_OK) == 0) return 1;
    }
  }
  return 0;
}

static int run(const char *cmd) {
  int r = system(cmd);
  return WIFEXITED(r) ? WEXITSTATUS(r) : -1;
}

/* Headless Chromium on the page: a screenshot (png != NULL) or the DOM
 * after the scripts ran (into dom), the browser's log into log. */
static int chromium(const char *page, const char *query, int w, int h, const char *png,
                    const char *dom, const char *log) {
  char cmd[65536];
  snprintf(cmd, sizeof cmd,
           "timeout 120 '%s' --headless --no-sandbox --disable-gpu-sandbox --enable-unsafe-swiftshader "
           "--use-angle=swiftshader --hide-scrollbars --no-first-run --disable-extensions "
           "--user-data-dir='%s/profile' --enable-logging=stderr --v=0 --window-size=%d,%d "
           "%s%s%s 'file://%s%s' >%s 2>'%s'",
           browser, dir, w, h, png ? "--screenshot='" : "--dump-dom", png ? png : "", png ? "'" : "",
           page, query, dom ? dom : "/dev/null", log);
  return run(cmd);
}

typedef struct {
  int w, h;
  unsigned char *rgb;
} image;

static int read_png(const char *path, image *im) {
  png_image p;
  memset(&p, 0, sizeof p);
  p.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&p, path)) return 0;
  p.format = PNG_FORMAT_RGB;
  im->w = (int)p.width, im->h = (int)p.height;
  im->rgb = malloc(PNG_IMAGE_SIZE(p));
  if (!im->rgb || !png_image_finish_read(&p, NULL, im->rgb, 0, NULL)) {
    png_image_free(&p);
    free(im->rgb);
    im->rgb = NULL;
    return 0;
  }
  return 1;
}

/* Pixels of the 7 x 7 block centred on world (y, z) that have colour c
 * (within 6 per channel: flat shading, no antialiasing). */
static int matches(const image *im, double y, double z, unsigned c) {
  int u = (int)lround(300 + 1500 * y), v = (int)lround(300 - 1500 * (z - 0.15)), n = 0;
  for (int dv = -3; dv <= 3; dv++)
    for (int du = -3; du <= 3; du++) {
      int x = u + du, yy = v + dv;
      if (x < 0 || yy < 0 || x >= im->w || yy >= im->h) continue;
      const unsigned char *p = im->rgb + 3 * ((size_t)yy * (size_t)im->w + (size_t)x);
      if (abs(p[0] - (int)(c >> 16 & 255)) <= 6 && abs(p[1] - (int)(c >> 8 & 255)) <= 6 &&
          abs(p[2] - (int)(c & 255)) <= 6)
        n++;
    }
  return n;
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) n = 0;
  fclose(f);
  if (b) b[n] = '\0';
  return b;
}

/* Script errors in a browser log: uncaught exceptions and console errors
 * of the page (the software renderer's own notices are not the page's). */
static int page_errors(const char *log) {
  char *s = slurp(log);
  int n = 0;
  for (char *line = s ? strtok(s, "\n") : NULL; line; line = strtok(NULL, "\n")) {
    if (!strstr(line, "CONSOLE")) continue;
    if (strstr(line, "GL Driver Message") || strstr(line, "software WebGL") ||
        strstr(line, "swiftshader") || strstr(line, "SwiftShader"))
      continue;
    fprintf(stderr, "browser: %s\n", line);
    n++;
  }
  free(s);
  return n;
}

static const char *page;

static int link_color(const lk_model *m, const char *name, unsigned *c) {
  int l = lk_model_link_index(m, name);
  if (l < 1) return 0;
  *c = kPalette[(l - 1) % 8];
  return 1;
}

static void test_positions(void) {
  lk_error err;
  lk_model *m = lk_model_load_file(lk_test_srcpath("mechanisms/gripper.yaml"), NULL, &err);
  unsigned cube = 0, left = 0, right = 0;
  LK_ASSERT_MSG(m && link_color(m, "cube", &cube) && link_color(m, "left_finger", &left) &&
                    link_color(m, "right_finger", &right),
                "the gripper's links");
  lk_model_free(m);
  const char *q = "?flat=1&cam=x&center=0,0,0.15&height=0.4";
  char q0[256], q1[256];
  snprintf(q0, sizeof q0, "%s&t=0", q);
  snprintf(q1, sizeof q1, "%s&t=1", q);
  LK_ASSERT_INT_EQ(chromium(page, q0, 600, 600, tmp("t0.png"), NULL, tmp("t0.log")), 0);
  LK_ASSERT_INT_EQ(chromium(page, q1, 600, 600, tmp("t1.png"), NULL, tmp("t1.log")), 0);
  LK_ASSERT_INT_EQ(page_errors(tmp("t0.log")) + page_errors(tmp("t1.log")), 0);
  image a = {0}, b = {0};
  LK_ASSERT_MSG(read_png(tmp("t0.png"), &a) && read_png(tmp("t1.png"), &b), "screenshots unreadable");
  if (!a.rgb || !b.rgb) return;
  LK_ASSERT_INT_EQ(a.w, 600);
  LK_ASSERT_INT_EQ(a.h, 600);
  /* t = 0: the cube held at 0.25 m between the pads. */
  LK_ASSERT_INT_EQ(matches(&a, 0, 0.25, cube), 49);
  LK_ASSERT_INT_EQ(matches(&a, 0.03, 0.25, left), 49);
  LK_ASSERT_INT_EQ(matches(&a, -0.03, 0.25, right), 49);
  LK_ASSERT_INT_EQ(matches(&a, 0, 0.025, cube), 0);
  /* t = 1: the cube on the floor, the pads open, white where they were. */
  LK_ASSERT_INT_EQ(matches(&b, 0, 0.025, cube), 49);
  LK_ASSERT_INT_EQ(matches(&b, 0.06, 0.25, left), 49);
  LK_ASSERT_INT_EQ(matches(&b, -0.06, 0.25, right), 49);
  LK_ASSERT_INT_EQ(matches(&b, 0, 0.25, 0xffffff), 49);
  LK_ASSERT_INT_EQ(matches(&b, 0.03, 0.25, 0xffffff), 49);
  /* The frames differ: by at least the cube's area moved (37 x 37 px
   * twice, less what the pads cover). */
  long differ = 0;
  for (size_t i = 0; i < (size_t)a.w * (size_t)a.h; i++)
    differ += memcmp(a.rgb + 3 * i, b.rgb + 3 * i, 3) != 0;
  LK_ASSERT_MSG(differ > 4000, "only %ld pixels differ", differ);
  free(a.rgb);
  free(b.rgb);
}

/* The page as a user opens it: lit, perspective, panels; the page's own
 * status line says its scripts ran without an error. */
static void test_as_opened(void) {
  static char held[8192];
  snprintf(held, sizeof held, "%s", tmp("held.html"));
  char cmd[65536];
  snprintf(cmd, sizeof cmd, "'%s' simulate '%s' -q -d 1.5 -o /dev/null --view '%s'",
           build_path("tools/linkage"), lk_test_srcpath("mechanisms/gripper.yaml"), held);
  LK_ASSERT_INT_EQ(run(cmd), 0);
  LK_ASSERT_INT_EQ(chromium(held, "", 1000, 640, NULL, tmp("dom.html"), tmp("dom.log")), 0);
  char *dom = slurp(tmp("dom.html"));
  LK_ASSERT_MSG(dom && strstr(dom, "<pre id=\"lk-status\">ok</pre>"), "the page's status: %.200s",
                dom && strstr(dom, "lk-status") ? strstr(dom, "lk-status") : "(none)");
  free(dom);
  const char *shot = build_path("tests/tools/viewer-gripper.png");
  LK_ASSERT_INT_EQ(chromium(held, "?t=1", 1000, 640, shot, NULL, tmp("shot.log")), 0);
  LK_ASSERT_INT_EQ(page_errors(tmp("shot.log")) + page_errors(tmp("dom.log")), 0);
  image im = {0};
  LK_ASSERT_MSG(read_png(shot, &im), "%s unreadable", shot);
  if (!im.rgb) return;
  /* Lit, the cube is shades of its yellow: many pixels where red and
   * green are well above blue. */
  long yellow = 0;
  for (size_t i = 0; i < (size_t)im.w * (size_t)im.h; i++) {
    const unsigned char *p = im.rgb + 3 * i;
    yellow += p[0] > 120 && p[1] > 100 && p[2] + 60 < p[1];
  }
  LK_ASSERT_MSG(yellow > 2000, "%ld yellow pixels", yellow);
  free(im.rgb);
}

/* The base64 text of the first `"key":"` string (caller frees). */
static char *b64_of(const char *text, const char *key) {
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\":\"", key);
  const char *p = text ? strstr(text, pat) : NULL;
  if (!p) return NULL;
  p += strlen(pat);
  const char *e = strchr(p, '"');
  return e ? strndup(p, (size_t)(e - p)) : NULL;
}

/* Base64 (RFC 4648) decoded (caller frees); *n its bytes. */
static unsigned char *b64_decode(const char *s, size_t *n) {
  size_t len = s ? strlen(s) : 0;
  unsigned char *o = malloc(len / 4 * 3 + 3);
  *n = 0;
  if (!o) return NULL;
  unsigned acc = 0;
  int bits = 0;
  for (size_t i = 0; i < len && s[i] != '='; i++) {
    const char *abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char *p = strchr(abc, s[i]);
    if (!p || !*p) break;
    acc = acc << 6 | (unsigned)(p - abc);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      o[(*n)++] = (unsigned char)(acc >> bits & 255);
    }
  }
  return o;
}

/* The page's frames: times, link poses (nl * 7 floats each), contact
 * offsets and contacts (12 floats each: lib/io/view.c). */
typedef struct {
  size_t nf, nposes, ncon;
  double *t;
  float *pose, *con;
  uint32_t *coff;
} page_frames;

static int read_frames(const char *path, page_frames *pf) {
  char *text = slurp(path);
  memset(pf, 0, sizeof *pf);
  char *k[4] = {b64_of(text, "t"), b64_of(text, "pose"), b64_of(text, "coff"), b64_of(text, "contact")};
  size_t n[4] = {0, 0, 0, 0};
  void *b[4] = {NULL, NULL, NULL, NULL};
  for (int i = 0; i < 4; i++) b[i] = k[i] ? b64_decode(k[i], &n[i]) : NULL, free(k[i]);
  free(text);
  pf->t = b[0], pf->pose = b[1], pf->coff = b[2], pf->con = b[3];
  pf->nf = n[0] / 8, pf->nposes = n[1] / 4, pf->ncon = n[3] / 4 / 12;
  return b[0] && b[1] && b[2] && b[3] && n[2] == (pf->nf + 1) * 4;
}

static void free_frames(page_frames *pf) {
  free(pf->t), free(pf->pose), free(pf->coff), free(pf->con);
}

/* linkage view --trajectory puts the CSV's joint coordinates back: the
 * frames at the regular times k/60 s with bit-identical link poses as the
 * page linkage simulate --view wrote during the run (the CSV's numbers
 * read back as the same doubles). The run's page has more: a frame at the
 * first step of each change of contact between two regular ones (the cube
 * landing on the floor), which a CSV without contacts cannot know. */
static void test_view_command(void) {
  char cmd[65536], csv[8192], a[8192], b[8192];
  snprintf(csv, sizeof csv, "%s", tmp("opened.csv"));
  snprintf(a, sizeof a, "%s", tmp("sim.html"));
  snprintf(b, sizeof b, "%s", tmp("view.html"));
  const char *set = "--set actuators.left.target=0 --set actuators.right.target=0";
  snprintf(cmd, sizeof cmd, "'%s' simulate '%s' -q -d 0.5 %s -o '%s' --view '%s'",
           build_path("tools/linkage"), lk_test_srcpath("mechanisms/gripper.yaml"), set, csv, a);
  LK_ASSERT_INT_EQ(run(cmd), 0);
  snprintf(cmd, sizeof cmd, "'%s' view '%s' -q %s --trajectory '%s' -o '%s'",
           build_path("tools/linkage"), lk_test_srcpath("mechanisms/gripper.yaml"), set, csv, b);
  LK_ASSERT_INT_EQ(run(cmd), 0);
  page_frames fa, fb;
  LK_ASSERT_MSG(read_frames(a, &fa) && read_frames(b, &fb), "the pages' frames unreadable");
  LK_ASSERT_INT_EQ((long)fb.nf, 31);
  size_t per = fb.nf ? fb.nposes / fb.nf : 0, j = 0;
  LK_ASSERT_MSG(fa.nf > fb.nf && fa.nf <= 2 * fb.nf, "%zu frames in the run's page, %zu in the replay's",
                fa.nf, fb.nf);
  /* Every replayed frame is one of the run's, same time, same poses; the
   * run's others fall between two regular times. */
  for (size_t i = 0; i < fa.nf && fb.nf == 31 && fa.nposes == per * fa.nf; i++) {
    if (j < fb.nf && fa.t[i] == fb.t[j]) {
      LK_ASSERT_MSG(memcmp(fa.pose + i * per, fb.pose + j * per, per * sizeof(float)) == 0,
                    "t = %g s: the link poses differ", fa.t[i]);
      j++;
    } else {
      double k = fa.t[i] * 60;
      LK_ASSERT_MSG(fabs(k - round(k)) > 1e-6, "t = %g s: a regular time missing from the replay",
                    fa.t[i]);
    }
  }
  LK_ASSERT_MSG(j == fb.nf, "%zu of the replay's %zu frames in the run's page", j, fb.nf);
  free_frames(&fa);
  free_frames(&fb);
  /* Without a trajectory: the initial state. */
  snprintf(cmd, sizeof cmd, "'%s' view '%s' -q -o '%s'", build_path("tools/linkage"),
           lk_test_srcpath("mechanisms/gripper.yaml"), b);
  LK_ASSERT_INT_EQ(run(cmd), 0);
  char *pb = slurp(b);
  LK_ASSERT_MSG(pb && strstr(pb, "\"nframes\":0,"), "no frames: the model at rest");
  free(pb);
  /* Another mechanism's trajectory, or none asked for, are refused. */
  snprintf(cmd, sizeof cmd, "'%s' view '%s' -q --trajectory '%s' -o '%s' 2>'%s'",
           build_path("tools/linkage"), lk_test_srcpath("mechanisms/pendulum.yaml"), csv, b,
           tmp("err.txt"));
  LK_ASSERT_INT_EQ(run(cmd), 1);
  char *msg = slurp(tmp("err.txt"));
  LK_ASSERT_MSG(msg && strstr(msg, "opened.csv:1: no column '"), "message: %s", msg ? msg : "");
  free(msg);
  snprintf(cmd, sizeof cmd, "'%s' view '%s' 2>/dev/null", build_path("tools/linkage"),
           lk_test_srcpath("mechanisms/pendulum.yaml"));
  LK_ASSERT_INT_EQ(run(cmd), 2);
}

/* Issue 33: an impact between two of the page's 1/60 s frames is seen.
 * A ball (radius 5 cm, restitution 0.5) dropped from rest with its centre
 * at z0 lands after t = sqrt(2 (z0 - r) / g) (0.2258 s from 0.3 m, 0.3029 s
 * from 0.5 m: both between two regular frames, 13/60 and 14/60 s, 18/60
 * and 19/60 s) and is off the floor again a few steps later. The page of
 * linkage simulate --view has a frame within 3 ms of the landing with a
 * contact carrying force; the regular frames alone have none near it. */
static void test_impact_frame(void) {
  static const double kZ0[] = {0.3, 0.5};
  for (int v = 0; v < 2; v++) {
    char yaml[8192], html[8192], cmd[65536];
    snprintf(yaml, sizeof yaml, "%s", tmp("drop.yaml"));
    snprintf(html, sizeof html, "%s", tmp("drop.html"));
    FILE *f = fopen(yaml, "w");
    LK_ASSERT_MSG(f != NULL, "cannot write %s", yaml);
    if (!f) return;
    fprintf(f,
            "name: drop\n"
            "options: {timestep: 0.001}\n"
            "materials:\n"
            "  - {name: ball, mu_static: 0.5, mu_dynamic: 0.4, restitution: 0.5}\n"
            "world:\n"
            "  geoms:\n"
            "    - {type: plane, normal: [0, 0, 1], material: ball}\n"
            "links:\n"
            "  - name: ball\n"
            "    joint: {type: free}\n"
            "    mass: 0.2\n"
            "    geoms:\n"
            "      - {type: sphere, radius: 0.05, material: ball}\n"
            "initial:\n"
            "  - {joint: ball, q: [0, 0, %g, 1, 0, 0, 0]}\n",
            kZ0[v]);
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' simulate '%s' -q -d 0.5 -o /dev/null --view '%s'",
             build_path("tools/linkage"), yaml, html);
    LK_ASSERT_INT_EQ(run(cmd), 0);
    page_frames pf;
    LK_ASSERT_MSG(read_frames(html, &pf), "z0 = %g: the page's frames unreadable", kZ0[v]);
    double land = sqrt(2 * (kZ0[v] - 0.05) / 9.81), seen = -1, regular = -1;
    for (size_t i = 0; i < pf.nf && pf.coff; i++) {
      int pressing = 0;
      for (uint32_t c = pf.coff[i]; c < pf.coff[i + 1] && c < pf.ncon; c++) pressing += pf.con[12 * c + 9] > 0;
      if (!pressing || fabs(pf.t[i] - land) > 0.003) continue;
      seen = pf.t[i];
      double k = pf.t[i] * 60;
      if (fabs(k - round(k)) < 1e-6) regular = pf.t[i];
    }
    LK_ASSERT_MSG(seen >= 0, "z0 = %g: no frame with the ball pressing within 3 ms of t = %.4f s", kZ0[v],
                  land);
    LK_ASSERT_MSG(regular < 0, "z0 = %g: the landing at %.4f s fell on a regular frame (%g): pick another z0",
                  kZ0[v], land, regular);
    free_frames(&pf);
  }
}

/* Issue 33: the README's rover command (its own duration, no -d) shows
 * what the README says, the rover over its ramp: the chassis (centre 0.15 m
 * up on the floor) rides the plateau, 2 x 0.052094 m high, so its height
 * reaches 0.15 + 0.104188 = 0.2542 m (within 5 mm), and it is back on the
 * floor (0.150 m within 2 mm) at the end. */
static void test_rover_command_crosses_ramp(void) {
  char cmd[65536], csv[8192], html[8192];
  snprintf(csv, sizeof csv, "%s", tmp("rover.csv"));
  snprintf(html, sizeof html, "%s", tmp("rover.html"));
  snprintf(cmd, sizeof cmd, "'%s' simulate '%s' -q -o '%s' --view '%s'", build_path("tools/linkage"),
           lk_test_srcpath("mechanisms/rover.yaml"), csv, html);
  LK_ASSERT_INT_EQ(run(cmd), 0);
  FILE *f = fopen(csv, "r");
  LK_ASSERT_MSG(f != NULL, "no %s", csv);
  if (!f) return;
  char line[65536];
  int zcol = -1, k = 0;
  if (fgets(line, sizeof line, f))
    for (char *save, *tok = strtok_r(line, ",\n", &save); tok; tok = strtok_r(NULL, ",\n", &save), k++)
      if (strcmp(tok, "chassis.z") == 0) zcol = k;
  LK_ASSERT_MSG(zcol > 0, "no column chassis.z");
  double zmax = -INFINITY, zlast = NAN;
  while (zcol > 0 && fgets(line, sizeof line, f)) {
    char *p = line;
    for (int i = 0; i < zcol && p; i++) p = strchr(p, ','), p = p ? p + 1 : NULL;
    if (!p) continue;
    zlast = strtod(p, NULL);
    if (zlast > zmax) zmax = zlast;
  }
  fclose(f);
  LK_ASSERT_MSG(fabs(zmax - 0.254188) < 0.005, "the chassis rose to %.4f m", zmax);
  LK_ASSERT_MSG(fabs(zlast - 0.15) < 0.002, "the chassis ends at %.4f m", zlast);
}

/* The gripper's own plot shows the grasp hold: one panel per unit, with
 * the cube's height, its slip speed, the pads' forces and the friction
 * utilization. */
static void test_demo_plot(void) {
  char cmd[65536], svg[8192];
  snprintf(svg, sizeof svg, "%s", tmp("gripper.svg"));
  snprintf(cmd, sizeof cmd, "'%s' simulate '%s' -q -d 0.2 -o /dev/null --plot '%s'",
           build_path("tools/linkage"), lk_test_srcpath("mechanisms/gripper.yaml"), svg);
  LK_ASSERT_INT_EQ(run(cmd), 0);
  char *s = slurp(svg);
  const char *want[] = {">position (m)</text>", ">velocity (m/s)</text>", ">force (N)</text>",
                        ">ratio</text>",        ">cube.z</text>",         ">cube.slip_speed</text>",
                        ">left_finger.fn</text>", ">right_finger.fn</text>", ">cube.utilization</text>"};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
    LK_ASSERT_MSG(s && strstr(s, want[i]), "the plot has no %s", want[i]);
  free(s);
}

static int near_color(const unsigned char *p, unsigned c);

/* The y pixel coordinates of the points of every <polyline> of an SVG,
 * per line: the number of lines with a vertical extent of at least
 * min_px, and in *nlines every line. */
static int lines_spanning(const char *svg, double min_px, int *nlines) {
  int n = 0, spanning = 0;
  for (const char *p = svg; p && (p = strstr(p, "<polyline")); n++) {
    const char *pts = strstr(p, "points=\"");
    if (!pts) break;
    pts += 8;
    const char *end = strchr(pts, '"');
    double lo = 1e300, hi = -1e300;
    for (const char *q = pts; q && q < end;) {
      char *e;
      strtod(q, &e); /* x */
      if (e == q || *e != ',') break;
      double y = strtod(e + 1, &e);
      lo = fmin(lo, y), hi = fmax(hi, y);
      q = e;
      while (q < end && (*q == ' ' || *q == '\n')) q++;
    }
    spanning += hi - lo >= min_px;
    p = end;
  }
  *nlines = n;
  return spanning;
}

/* Issue 33: the demo's plot (quickstart demo, mechanisms/pick_and_shake.yaml
 * with the file's own plot columns) tells its story: every series moves
 * visibly (a line spanning at least 20 of its panel's 174 pixels: the
 * cube's height, both fingers' forces, the slip speed, the utilization),
 * the second finger's line dashed so that it shows over the equal first,
 * and the seven phases marked. */
static void test_pick_and_shake_plot(void) {
  char cmd[65536], svg[8192];
  snprintf(svg, sizeof svg, "%s", tmp("pick_and_shake.svg"));
  snprintf(cmd, sizeof cmd, "'%s' simulate '%s' -q -o /dev/null --plot '%s'",
           build_path("tools/linkage"), lk_test_srcpath("mechanisms/pick_and_shake.yaml"), svg);
  LK_ASSERT_INT_EQ(run(cmd), 0);
  char *s = slurp(svg);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  const char *want[] = {">cube.z</text>", ">left_finger.fn</text>", ">right_finger.fn</text>",
                        ">cube.slip_speed</text>", ">cube.utilization</text>", ">approach</text>",
                        ">close</text>", ">lift</text>", ">shake</text>", ">set down</text>",
                        ">open</text>", ">retreat</text>"};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
    LK_ASSERT_MSG(strstr(s, want[i]), "the plot has no %s", want[i]);
  int n = 0, moving = lines_spanning(s, 20, &n);
  LK_ASSERT_INT_EQ(n, 5);
  LK_ASSERT_INT_EQ(moving, 5);
  /* the right finger's line (the second of its panel) is dashed */
  const char *f = strstr(s, "<polyline");
  int k = 0;
  while (f && k < 2) f = strstr(f + 1, "<polyline"), k++;
  LK_ASSERT_MSG(f && strstr(f, "stroke-dasharray") && strstr(f, "stroke-dasharray") < strchr(f, '>'),
                "the third line (right_finger.fn) is not dashed");
  free(s);
  /* The file's plot with a series that does not move has a flat line:
   * the count above can fail. */
  snprintf(cmd, sizeof cmd, "'%s' simulate '%s' -q -d 0.25 -o /dev/null --plot '%s'",
           build_path("tools/linkage"), lk_test_srcpath("mechanisms/pick_and_shake.yaml"), svg);
  LK_ASSERT_INT_EQ(run(cmd), 0);
  s = slurp(svg);
  moving = lines_spanning(s, 20, &n);
  LK_ASSERT_MSG(n == 5 && moving == 0, "before anything happens, %d of %d lines move", moving, n);
  free(s);
}

/* The pixels of colour c in a screenshot: how many, and their bounding
 * box (rows top..bottom, columns left..right). */
typedef struct {
  long n;
  int top, bottom, left, right;
} extent;

static extent color_extent(const image *im, unsigned c) {
  extent e = {0, im->h, -1, im->w, -1};
  for (int y = 0; y < im->h; y++)
    for (int x = 0; x < im->w; x++)
      if (near_color(im->rgb + 3 * ((size_t)y * (size_t)im->w + (size_t)x), c)) {
        e.n++;
        if (y < e.top) e.top = y;
        if (y > e.bottom) e.bottom = y;
        if (x < e.left) e.left = x;
        if (x > e.right) e.right = x;
      }
  return e;
}

/* The default camera keeps what moves in the part of a 1000 x 640 window
 * that the panels leave free: below the top panels (a quarter of the
 * height) and above the control bar (the bottom 8 %), inside the sides. */
static int in_free_band(const extent *e, const image *im) {
  return e->n > 0 && e->top >= im->h / 4 && e->bottom <= im->h * 92 / 100 && e->left >= im->w / 50 &&
         e->right <= im->w * 98 / 100;
}

/* Issue 33: the demo page as opened (default camera, no parameters but
 * flat colours) keeps the cube in the window through the whole story: many
 * pixels of its colour, none on the window's edge, before the grasp, in
 * the lift, at the top of the shake, set down. In a 1000 x 640 window the
 * cube and the palm also stay clear of the panels (in_free_band). */
static void test_pick_and_shake_page_in_frame(void) {
  char cmd[65536], html[8192];
  snprintf(html, sizeof html, "%s", tmp("pick_and_shake.html"));
  snprintf(cmd, sizeof cmd, "'%s' simulate '%s' -q -o /dev/null --view '%s'",
           build_path("tools/linkage"), lk_test_srcpath("mechanisms/pick_and_shake.yaml"), html);
  LK_ASSERT_INT_EQ(run(cmd), 0);
  lk_error err;
  lk_model *m = lk_model_load_file(lk_test_srcpath("mechanisms/pick_and_shake.yaml"), NULL, &err);
  unsigned cube = 0, palm = 0;
  LK_ASSERT_MSG(m && link_color(m, "cube", &cube) && link_color(m, "palm", &palm), "the demo's cube and palm");
  lk_model_free(m);
  static const char *const kTimes[] = {"0.5", "1.65", "1.95", "2.3", "3.2", "3.9"};
  for (size_t k = 0; k < sizeof kTimes / sizeof kTimes[0]; k++) {
    char q[64], png[64];
    snprintf(q, sizeof q, "?flat=1&t=%s", kTimes[k]);
    snprintf(png, sizeof png, "demo%zu.png", k);
    LK_ASSERT_INT_EQ(chromium(html, q, 800, 500, tmp(png), NULL, tmp("demo.log")), 0);
    LK_ASSERT_INT_EQ(page_errors(tmp("demo.log")), 0);
    image im = {0};
    LK_ASSERT_MSG(read_png(tmp(png), &im), "%s unreadable", png);
    if (!im.rgb) continue;
    long inside = 0, edge = 0;
    for (int y = 0; y < im.h; y++)
      for (int x = 0; x < im.w; x++) {
        if (!near_color(im.rgb + 3 * ((size_t)y * (size_t)im.w + (size_t)x), cube)) continue;
        if (x < 2 || y < 2 || x >= im.w - 2 || y >= im.h - 2)
          edge++;
        else
          inside++;
      }
    LK_ASSERT_MSG(inside > 1000 && edge == 0, "t = %s s: %ld cube pixels in the window, %ld on its edge",
                  kTimes[k], inside, edge);
    free(im.rgb);
    LK_ASSERT_INT_EQ(chromium(html, q, 1000, 640, tmp(png), NULL, tmp("demo.log")), 0);
    LK_ASSERT_MSG(read_png(tmp(png), &im), "%s unreadable", png);
    if (!im.rgb) continue;
    extent ec = color_extent(&im, cube), ep = color_extent(&im, palm);
    LK_ASSERT_MSG(ec.n > 1000 && in_free_band(&ec, &im) && ep.n > 1000 && in_free_band(&ep, &im),
                  "t = %s s, 1000 x 640: cube %ld px in rows %d..%d, columns %d..%d; palm %ld px in rows "
                  "%d..%d, columns %d..%d",
                  kTimes[k], ec.n, ec.top, ec.bottom, ec.left, ec.right, ep.n, ep.top, ep.bottom, ep.left,
                  ep.right);
    free(im.rgb);
  }
}

/* Issue 33: the grasp planner's page, as opened in a 1000 x 640 window
 * (default camera, flat colours), keeps the grasp in the part of the
 * window the panels leave free through its trial: closing, lifting (at
 * 1.65 s the grasp was cut off at the top edge), shaking, the end. Two
 * set-ups: the box (40 candidates, 2 verified) and the cylinder (60, 1). */
static void test_planner_page_in_frame(void) {
  static const char *const kObject[] = {"mechanisms/object_box.yaml", "mechanisms/object_cylinder.yaml"};
  static const char *const kN[] = {"40", "60"}, *const kV[] = {"2", "1"};
  for (int v = 0; v < 2; v++) {
    char pg[8192], hp[4096], op[4096], cmd[65536];
    snprintf(pg, sizeof pg, "%s", tmp("planner_frame.html"));
    snprintf(hp, sizeof hp, "%s", lk_test_srcpath("mechanisms/jaw_gripper.yaml"));
    snprintf(op, sizeof op, "%s", lk_test_srcpath(kObject[v]));
    snprintf(cmd, sizeof cmd, "'%s' --hand '%s' --object '%s' -n %s --verify %s --view-top 1 -q -o /dev/null --view '%s'",
             build_path("demos/grasp-planner"), hp, op, kN[v], kV[v], pg);
    LK_ASSERT_INT_EQ(run(cmd), 0);
    lk_error err;
    lk_grasp_scene *gs = lk_grasp_scene_load(hp, op, NULL, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(gs);
    unsigned oc = kPalette[(lk_grasp_scene_object(gs) - 1) % 8], pc = kPalette[(lk_grasp_scene_palm(gs) - 1) % 8];
    lk_grasp_scene_free(gs);
    static const char *const kTimes[] = {"0", "0.6", "1.2", "1.65", "99"};
    for (size_t k = 0; k < sizeof kTimes / sizeof kTimes[0]; k++) {
      char q[64];
      snprintf(q, sizeof q, "?flat=1&t=%s", kTimes[k]);
      LK_ASSERT_INT_EQ(chromium(pg, q, 1000, 640, tmp("pframe.png"), NULL, tmp("pframe.log")), 0);
      LK_ASSERT_INT_EQ(page_errors(tmp("pframe.log")), 0);
      image im = {0};
      LK_ASSERT_MSG(read_png(tmp("pframe.png"), &im), "screenshot unreadable");
      if (!im.rgb) continue;
      extent eo = color_extent(&im, oc), ep = color_extent(&im, pc);
      LK_ASSERT_MSG(eo.n > 1000 && in_free_band(&eo, &im) && ep.n > 1000 && in_free_band(&ep, &im),
                    "%s, t = %s s: object %ld px in rows %d..%d, columns %d..%d; palm %ld px in rows %d..%d, "
                    "columns %d..%d",
                    kObject[v], kTimes[k], eo.n, eo.top, eo.bottom, eo.left, eo.right, ep.n, ep.top, ep.bottom,
                    ep.left, ep.right);
      free(im.rgb);
    }
  }
}

/* Issue 33: the two pads' force arrows do not overlap. The demo page at
 * t = 1.5 s (the cube held, lifting), flat colours with the contacts and
 * forces on, an orthographic camera along -x centred on (y, z) = (0, 0.1)
 * with 0.3 m in 600 px: world y is pixel column 300 + 2000 y. The pads'
 * faces touch the cube at y = +-0.025 and are 1 cm thick. Each pad's
 * normal force is one arrow (the resultant of its contacts) pushing the
 * cube from outside: many pixels of the static contacts' green left of
 * the left pad (y < -0.035) and right of the right one (y > 0.035), none
 * in the middle of the cube (|y| < 0.015), and the two about as long (the
 * pads squeeze alike). */
static void test_pick_and_shake_arrows(void) {
  char cmd[65536], html[8192];
  snprintf(html, sizeof html, "%s", tmp("arrows.html"));
  snprintf(cmd, sizeof cmd, "'%s' simulate '%s' -q -o /dev/null --view '%s'",
           build_path("tools/linkage"), lk_test_srcpath("mechanisms/pick_and_shake.yaml"), html);
  LK_ASSERT_INT_EQ(run(cmd), 0);
  static const char *const kTimes[] = {"1.5", "1.7"};
  for (int k = 0; k < 2; k++) {
    char q[256];
    snprintf(q, sizeof q, "?flat=1&contacts=1&forces=1&t=%s&cam=x&center=0,0,0.1&height=0.3", kTimes[k]);
    LK_ASSERT_INT_EQ(chromium(html, q, 600, 600, tmp("arrows.png"), NULL, tmp("arrows.log")), 0);
    LK_ASSERT_INT_EQ(page_errors(tmp("arrows.log")), 0);
    image im = {0};
    LK_ASSERT_MSG(read_png(tmp("arrows.png"), &im), "screenshot unreadable");
    if (!im.rgb) return;
    long left = 0, right = 0, middle = 0;
    for (int y = 0; y < im.h; y++)
      for (int x = 0; x < im.w; x++) {
        if (!near_color(im.rgb + 3 * ((size_t)y * (size_t)im.w + (size_t)x), 0x2ca02c)) continue;
        if (x < 300 - 70) left++;
        else if (x > 300 + 70) right++;
        else if (abs(x - 300) < 30) middle++;
      }
    LK_ASSERT_MSG(left > 300 && right > 300 && middle == 0,
                  "t = %s s: normal-arrow pixels %ld left of the left pad, %ld right of the right, %ld "
                  "in the cube's middle",
                  kTimes[k], left, right, middle);
    LK_ASSERT_MSG(left < 1.25 * right && right < 1.25 * left, "t = %s s: arrows of %ld and %ld pixels",
                  kTimes[k], left, right);
    free(im.rgb);
  }
}

/* A page of several scenes (the planner's grasps): a list to choose from,
 * each scene opens without a script error. */
static void test_scenes(void) {
  lk_error err;
  lk_model *g = lk_model_load_file(lk_test_srcpath("mechanisms/gripper.yaml"), NULL, &err);
  lk_model *p = lk_model_load_file(lk_test_srcpath("mechanisms/double_pendulum.yaml"), NULL, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(g);
  CU_ASSERT_PTR_NOT_NULL_FATAL(p);
  lk_view *v = lk_view_new(NULL, &err);
  LK_ASSERT_INT_EQ(lk_view_add_scene(v, g, "grasp 1", "epsilon 0.12, held", &err), 0);
  LK_ASSERT_INT_EQ(lk_view_add_scene(v, p, "grasp 2", "epsilon 0.05, dropped", &err), 1);
  lk_data *d = lk_data_new(p);
  for (int s = 0; s <= 300; s++) {
    if (lk_view_frame_due(v, 1, lk_data_time(d))) {
      LK_ASSERT_OK(lk_forward_kinematics(p, d), NULL);
      LK_ASSERT_OK(lk_view_add_frame(v, 1, p, d, &err), &err);
    }
    LK_ASSERT_OK(lk_step(p, d), NULL);
    lk_view_add_step(v, 1, d);
  }
  static char two[8192];
  snprintf(two, sizeof two, "%s", tmp("two.html"));
  LK_ASSERT_OK(lk_view_write_file(v, two, &err), &err);
  lk_view_free(v);
  lk_data_free(d);
  lk_model_free(g);
  lk_model_free(p);
  for (int sc = 0; sc < 2; sc++) {
    char q[64];
    snprintf(q, sizeof q, "?scene=%d&t=0.2", sc);
    LK_ASSERT_INT_EQ(chromium(two, q, 800, 500, NULL, tmp("two.dom"), tmp("two.log")), 0);
    char *dom = slurp(tmp("two.dom"));
    LK_ASSERT_MSG(dom && strstr(dom, "<pre id=\"lk-status\">ok</pre>"), "scene %d: status", sc);
    LK_ASSERT_MSG(dom && strstr(dom, ">grasp 1</option>") && strstr(dom, ">grasp 2</option>"),
                  "scene %d: no list of the scenes", sc);
    LK_ASSERT_MSG(dom && strstr(dom, sc ? "epsilon 0.05, dropped" : "epsilon 0.12, held"),
                  "scene %d: caption", sc);
    LK_ASSERT_INT_EQ(page_errors(tmp("two.log")), 0);
    free(dom);
  }
}

/* A pixel within 6 per channel of colour c. */
static int near_color(const unsigned char *p, unsigned c) {
  return abs(p[0] - (int)(c >> 16 & 255)) <= 6 && abs(p[1] - (int)(c >> 8 & 255)) <= 6 &&
         abs(p[2] - (int)(c & 255)) <= 6;
}

/* The grasp planner's page (demos/grasp-planner --view): its two scenes
 * are listed by name, the first opens without a script error with its
 * caption, and the flat
 * picture mid-trial shows the object and the palm in their link colours
 * (many pixels each), the fingers too. */
static void test_planner_page(void) {
  static char pg[8192];
  snprintf(pg, sizeof pg, "%s", tmp("planner.html"));
  const char *hand = lk_test_srcpath("mechanisms/jaw_gripper.yaml");
  char hp[4096], cmd[65536];
  snprintf(hp, sizeof hp, "%s", hand);
  const char *object = lk_test_srcpath("mechanisms/object_box.yaml");
  snprintf(cmd, sizeof cmd,
           "'%s' --hand '%s' --object '%s' -n 40 --verify 2 --view-top 2 -q -o /dev/null "
           "--view '%s'",
           build_path("demos/grasp-planner"), hp, object, pg);
  LK_ASSERT_INT_EQ(run(cmd), 0);
  LK_ASSERT_INT_EQ(chromium(pg, "?t=0.5", 800, 500, NULL, tmp("planner.dom"), tmp("planner.log")), 0);
  char *dom = slurp(tmp("planner.dom"));
  LK_ASSERT_MSG(dom && strstr(dom, "<pre id=\"lk-status\">ok</pre>"), "the page's status");
  LK_ASSERT_MSG(dom && strstr(dom, ">object_box #1</option>") && strstr(dom, ">object_box #2</option>"),
                "no list of the scenes object_box #1 and #2");
  LK_ASSERT_MSG(dom && strstr(dom, "object_box, rank 1: candidate "), "no caption");
  free(dom);
  LK_ASSERT_INT_EQ(chromium(pg, "?flat=1&t=0.5", 600, 600, tmp("planner.png"), NULL,
                            tmp("planner2.log")),
                   0);
  LK_ASSERT_INT_EQ(page_errors(tmp("planner.log")) + page_errors(tmp("planner2.log")), 0);
  lk_error err;
  lk_grasp_scene *gs = lk_grasp_scene_load(hp, object, NULL, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(gs);
  int obj = lk_grasp_scene_object(gs), palm = lk_grasp_scene_palm(gs);
  lk_grasp_scene_free(gs);
  image im = {0};
  LK_ASSERT_MSG(read_png(tmp("planner.png"), &im), "screenshot unreadable");
  if (!im.rgb) return;
  long of = 0, pf = 0, other = 0;
  unsigned oc = kPalette[(obj - 1) % 8], pc = kPalette[(palm - 1) % 8];
  /* The 3D view: the picture above the control bar (the bottom 100 px). */
  for (int y = 0; y < im.h - 100; y++)
    for (int x = 0; x < im.w; x++) {
      const unsigned char *p = im.rgb + 3 * ((size_t)y * (size_t)im.w + (size_t)x);
      if (near_color(p, oc))
        of++;
      else if (near_color(p, pc))
        pf++;
      else if (!near_color(p, 0xffffff))
        other++;
    }
  LK_ASSERT_MSG(of > 2000 && pf > 2000 && other > 500,
                "object %ld, palm %ld, other %ld pixels of colour", of, pf, other);
  free(im.rgb);
}

static void cleanup(void) {
  char cmd[8400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (dir[0]) run(cmd);
}

void lk_test_register(void) {
  static const lk_test tests[] = {{"cube and fingers where the trajectory puts them", test_positions},
                                  {"the page as opened, no script error", test_as_opened},
                                  {"several scenes on one page", test_scenes},
                                  {"the grasp planner's page", test_planner_page},
                                  {"the demo page keeps the cube in frame", test_pick_and_shake_page_in_frame},
                                  {"the demo's pad arrows do not overlap", test_pick_and_shake_arrows},
                                  {"the planner's page keeps the grasp in frame", test_planner_page_in_frame},
                                  {NULL, NULL}};
  static const lk_test cli[] = {{"linkage view --trajectory", test_view_command},
                                {"an impact between two frames is seen", test_impact_frame},
                                {"the README's rover command crosses the ramp", test_rover_command_crosses_ramp},
                                {"the gripper's plot", test_demo_plot},
                                {"the demo's plot: every series moves, phases marked", test_pick_and_shake_plot},
                                {NULL, NULL}};
  snprintf(dir, sizeof dir, "%s", build_path("tests/tools/viewer.XXXXXX"));
  if (!mkdtemp(dir)) {
    fprintf(stderr, "test_viewer: cannot make %s\n", dir);
    abort();
  }
  atexit(cleanup);
  lk_test_suite("linkage view", cli);
  if (!find_browser()) {
    fprintf(stderr, "test_viewer: browser tests skipped: no chromium on PATH (LK_CHROMIUM names one)\n");
    return;
  }
  static char pagebuf[8192];
  snprintf(pagebuf, sizeof pagebuf, "%s/gripper.html", dir);
  page = pagebuf;
  char cmd[65536];
  snprintf(cmd, sizeof cmd,
           "'%s' simulate '%s' -q -d 1 --set actuators.left.target=0 --set actuators.right.target=0 "
           "-o /dev/null --view '%s'",
           build_path("tools/linkage"), lk_test_srcpath("mechanisms/gripper.yaml"), page);
  if (run(cmd) != 0) {
    fprintf(stderr, "test_viewer: linkage simulate failed: %s\n", cmd);
    abort();
  }
  lk_test_suite("viewer in chromium", tests);
}
