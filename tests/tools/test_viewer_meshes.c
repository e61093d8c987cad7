/* The viewer draws mesh files as their triangles (issue 32): `linkage
 * view` pages opened in headless Chromium, whose script lists the mesh
 * geoms it built (<pre id="lk-meshes">: "link kind triangles"), compared
 * with the triangles counted in the files themselves:
 *   - a committed-in-the-test URDF hand: a non-convex L-shaped OBJ as a
 *     link's visual and collision mesh (drawn once, as its 20 triangles,
 *     the collision mesh only with collision=1), a finger with an STL
 *     collision mesh alone (drawn, its 12 facets);
 *   - the Robotiq 2F-85 of PyBullet's UR5 package with the ROS package's
 *     meshes (../shared/data/robots), when present: every link drawn by its
 *     visual Collada mesh with the file's <triangles count> summed.
 * Exit 77 (skipped) without Chromium (LK_CHROMIUM names one). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "proc.h"

static char browser[4096];

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

/* The page's list of drawn meshes after its script ran (malloc'd), or
 * NULL. */
static char *drawn_meshes(const char *page, const char *query) {
  const char *dom = lk_test_scratch("dom.html"), *log = lk_test_scratch("browser.log");
  char cmd[16384];
  snprintf(cmd, sizeof cmd,
           "timeout 180 '%s' --headless --no-sandbox --disable-gpu-sandbox "
           "--enable-unsafe-swiftshader --use-angle=swiftshader --no-first-run "
           "--disable-extensions --user-data-dir='%s' --window-size=800,600 --dump-dom "
           "'file://%s%s' >'%s' 2>'%s'",
           browser, lk_test_scratch("profile"), page, query, dom, log);
  int r = system(cmd);
  LK_ASSERT_MSG(WIFEXITED(r) && WEXITSTATUS(r) == 0, "chromium failed: %s", cmd);
  char *text = lk_test_slurp(dom, NULL);
  if (!text) return NULL;
  LK_ASSERT_MSG(strstr(text, "<pre id=\"lk-status\">ok</pre>") != NULL, "the page's status is not ok");
  char *at = strstr(text, "id=\"lk-meshes\"");
  char *open = at ? strchr(at, '>') : NULL;
  char *close = open ? strstr(open, "</pre>") : NULL;
  char *out = NULL;
  if (close) {
    *close = '\0';
    out = strdup(open + 1);
  }
  free(text);
  return out;
}

/* The triangles the page drew for link's meshes of kind ("visual",
 * "collision"): -1 when none. */
static long drawn(const char *list, const char *link, const char *kind) {
  char want[512];
  snprintf(want, sizeof want, "%s %s ", link, kind);
  long n = -1;
  for (const char *p = list; p && *p;) {
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len > strlen(want) && strncmp(p, want, strlen(want)) == 0)
      n = (n < 0 ? 0 : n) + atol(p + strlen(want));
    p = e ? e + 1 : p + len;
  }
  return n;
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs(text, f);
  fclose(f);
}

static void page_of(const char *file, const char *package_path, const char *page) {
  const char *args[8] = {"view", file, "-q", "-o", page, NULL};
  if (package_path) {
    args[5] = "--package-path";
    args[6] = package_path;
    args[7] = NULL;
  }
  const lk_test_result *r = lk_test_linkage(args);
  LK_ASSERT_MSG(r->status == 0, "linkage view: exit %d: %s", r->status, r->err ? r->err : "");
}

#define INERTIAL                                                                        \
  "<inertial><mass value=\"0.1\"/><inertia ixx=\"1e-4\" iyy=\"1e-4\" izz=\"1e-4\" "     \
  "ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>"

static void test_fixture_hand(void) {
  /* An L-shaped prism: 2 caps of 4 triangles (fans of the hexagon), 6
   * sides of 2: 20 triangles. */
  write_text(lk_test_scratch("l.obj"),
             "o L\n"
             "v 0 0 0\nv 0.1 0 0\nv 0.1 0 0.05\nv 0.05 0 0.05\nv 0.05 0 0.1\nv 0 0 0.1\n"
             "v 0 0.04 0\nv 0.1 0.04 0\nv 0.1 0.04 0.05\nv 0.05 0.04 0.05\nv 0.05 0.04 0.1\n"
             "v 0 0.04 0.1\n"
             "f 1 2 3\nf 1 3 4\nf 1 4 5\nf 1 5 6\n"
             "f 7 9 8\nf 7 10 9\nf 7 11 10\nf 7 12 11\n"
             "f 1 7 8\nf 1 8 2\nf 2 8 9\nf 2 9 3\nf 3 9 10\nf 3 10 4\n"
             "f 4 10 11\nf 4 11 5\nf 5 11 12\nf 5 12 6\nf 6 12 7\nf 6 7 1\n");
  /* A box as an ASCII STL: 12 facets. */
  FILE *f = fopen(lk_test_scratch("box.stl"), "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  static const int q[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                              {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  fprintf(f, "solid box\n");
  for (int i = 0; i < 6; i++)
    for (int t = 0; t < 2; t++) {
      int c[3] = {q[i][0], q[i][t + 1], q[i][t + 2]};
      fprintf(f, "facet normal 0 0 0\nouter loop\n");
      for (int k = 0; k < 3; k++)
        fprintf(f, "vertex %g %g %g\n", c[k] & 1 ? 0.01 : -0.01, c[k] & 2 ? 0.01 : -0.01,
                c[k] & 4 ? 0.03 : -0.03);
      fprintf(f, "endloop\nendfacet\n");
    }
  fprintf(f, "endsolid box\n");
  fclose(f);
  write_text(lk_test_scratch("lhand.urdf"),
             "<robot name=\"lhand\">\n"
             "<link name=\"palm\">" INERTIAL
             "<visual><geometry><mesh filename=\"l.obj\"/></geometry></visual>"
             "<collision><geometry><mesh filename=\"l.obj\"/></geometry></collision></link>\n"
             "<link name=\"finger\">" INERTIAL
             "<collision><geometry><mesh filename=\"box.stl\"/></geometry></collision></link>\n"
             "<joint name=\"j\" type=\"revolute\"><parent link=\"palm\"/><child link=\"finger\"/>"
             "<origin xyz=\"0.02 0.02 0.15\"/><axis xyz=\"0 1 0\"/>"
             "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>\n"
             "</robot>\n");
  const char *page = lk_test_scratch("lhand.html");
  page_of(lk_test_scratch("lhand.urdf"), NULL, page);
  char *list = drawn_meshes(page, "?t=0");
  CU_ASSERT_PTR_NOT_NULL_FATAL(list);
  LK_ASSERT_INT_EQ(drawn(list, "palm", "visual"), 20);
  LK_ASSERT_INT_EQ(drawn(list, "palm", "collision"), -1); /* hidden by its visual */
  LK_ASSERT_INT_EQ(drawn(list, "finger", "collision"), 12);
  free(list);
  list = drawn_meshes(page, "?t=0&collision=1");
  CU_ASSERT_PTR_NOT_NULL_FATAL(list);
  LK_ASSERT_INT_EQ(drawn(list, "palm", "visual"), 20);
  LK_ASSERT_INT_EQ(drawn(list, "palm", "collision"), 20);
  free(list);
}

/* The triangles of a Collada file: its <triangles count="N"> summed (-1:
 * it has polygons of another kind, or a geometry instanced twice). */
static long dae_triangles(const char *path) {
  char *s = lk_test_slurp(path, NULL);
  if (!s) return -1;
  long n = 0, geoms = 0, inst = 0;
  for (char *p = s; (p = strstr(p, "<triangles")); p++) {
    char *end = strchr(p, '>'), *c = strstr(p, "count=\"");
    if (c && end && c < end) n += atol(c + 7);
  }
  for (char *p = s; (p = strstr(p, "<geometry ")); p++) geoms++;
  for (char *p = s; (p = strstr(p, "<instance_geometry")); p++) inst++;
  if (strstr(s, "<polylist") || strstr(s, "<polygons") || geoms != inst) n = -1;
  free(s);
  return n;
}

static void test_robotiq_2f85(void) {
  char root[2048], urdf[4096], pkg[4096];
  snprintf(root, sizeof root, "%s", lk_test_srcpath("../shared/data/robots"));
  snprintf(urdf, sizeof urdf, "%s/pybullet_ur5_robotiq/urdf/robotiq_85.urdf", root);
  snprintf(pkg, sizeof pkg, "%s/ros_robotiq", root);
  if (access(urdf, R_OK) != 0 || access(pkg, R_OK) != 0) {
    fprintf(stderr, "test_viewer_meshes: Robotiq 2F-85 skipped: %s is not there\n", urdf);
    CU_PASS("skipped");
    return;
  }
  const char *page = lk_test_scratch("robotiq.html");
  page_of(urdf, pkg, page);
  char *list = drawn_meshes(page, "?t=0");
  CU_ASSERT_PTR_NOT_NULL_FATAL(list);
  /* Each link's visual mesh, from the URDF's text. */
  char *text = lk_test_slurp(urdf, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  int links = 0;
  long total = 0;
  for (char *p = text; (p = strstr(p, "<link name=\"")); p++) {
    char name[256];
    sscanf(p + 12, "%255[^\"]", name);
    char *end = strstr(p, "</link>"), *vis = strstr(p, "<visual>");
    if (!end || !vis || vis > end) continue;
    char *fn = strstr(vis, "filename=\"package://");
    if (!fn || fn > end) continue;
    char rel[1024], file[8192];
    sscanf(fn + 20, "%1023[^\"]", rel);
    snprintf(file, sizeof file, "%s/%s", pkg, rel);
    long want = dae_triangles(file);
    LK_ASSERT_MSG(want > 0, "%s: cannot count its triangles", file);
    LK_ASSERT_MSG(drawn(list, name, "visual") == want, "%s: %ld triangles drawn, %s has %ld",
                  name, drawn(list, name, "visual"), rel, want);
    LK_ASSERT_INT_EQ(drawn(list, name, "collision"), -1);
    links++;
    total += want;
  }
  fprintf(stderr, "Robotiq 2F-85: %d links drawn by their visual meshes, %ld triangles\n", links,
          total);
  LK_ASSERT_INT_EQ(links, 9);
  free(text);
  free(list);
}

void lk_test_register(void) {
  if (!find_browser()) {
    printf("test_viewer_meshes: skipped: no chromium on PATH (LK_CHROMIUM names one)\n"
           "lk-result: 0 passed, 0 failed\n");
    exit(77);
  }
  static const lk_test tests[] = {
      {"a URDF hand's OBJ and STL meshes drawn as their triangles", test_fixture_hand},
      {"the Robotiq 2F-85's Collada meshes drawn as their triangles", test_robotiq_2f85},
      {NULL, NULL}};
  lk_test_suite("viewer meshes", tests);
}
