/* lib/io: the mechanism loader (broken-file corpus, every example, unit
 * checks of what the loader computes), --set overrides, and the CSV and
 * SVG writers. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "io/ydoc.h"
#include "linkage/collision.h"
#include "linkage/linkage.h"
#include "linkage/sim.h"

/* ------------------------------------------------------------ helpers */

static char tmpdir[4096];

/* A scratch directory under the build tree (removed at the end). */
static const char *scratch(const char *name) {
  static char buf[4][8192];
  static int slot;
  if (!tmpdir[0]) {
    const char *b = getenv("LK_TOP_BUILDDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/tests/io/scratch.XXXXXX", b && *b ? b : ".");
    if (!mkdtemp(tmpdir)) {
      snprintf(tmpdir, sizeof tmpdir, "/tmp/lk-io-XXXXXX");
      if (!mkdtemp(tmpdir)) abort();
    }
  }
  char *out = buf[slot++ & 3];
  snprintf(out, sizeof buf[0], "%s/%s", tmpdir, name);
  return out;
}

static void remove_scratch(void) {
  if (!tmpdir[0]) return;
  DIR *d = opendir(tmpdir);
  if (d) {
    struct dirent *e;
    while ((e = readdir(d))) {
      if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
        continue;
      char p[8192];
      snprintf(p, sizeof p, "%s/%s", tmpdir, e->d_name);
      unlink(p);
    }
    closedir(d);
  }
  rmdir(tmpdir);
}

static int file_exists(const char *p) {
  struct stat sb;
  return stat(p, &sb) == 0;
}

/* Number of entries in the scratch directory (temporary files included). */
static int scratch_entries(void) {
  scratch("x");
  DIR *d = opendir(tmpdir);
  int n = 0;
  struct dirent *e;
  while (d && (e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
  if (d) closedir(d);
  return n;
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *b = malloc(cap);
  size_t got;
  while (b && (got = fread(b + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (n + 1 >= cap) b = realloc(b, cap *= 2);
  }
  fclose(f);
  if (b) b[n] = '\0';
  if (len) *len = n;
  return b;
}

static lk_model *load_text(const char *text, lk_error *e) {
  return lk_model_load_string(text, strlen(text), "test.yaml", NULL, e);
}

static lk_model *load_set(const char *text, const char *const *set, int nset, lk_error *e) {
  lk_load_options o;
  lk_load_options_default(&o);
  o.set = set;
  o.nset = nset;
  return lk_model_load_string(text, strlen(text), "test.yaml", &o, e);
}

static void expect_failure(const char *text, const char *const *set, int nset, lk_status st,
                           int line, int col, const char *fragment) {
  lk_error e;
  lk_model *m = load_set(text, set, nset, &e);
  LK_ASSERT_MSG(m == NULL, "loaded although '%s' was expected", fragment);
  lk_model_free(m);
  LK_ASSERT_MSG(e.status == st, "status %s, expected %s (%s)", lk_status_name(e.status),
                lk_status_name(st), e.message);
  LK_ASSERT_MSG(e.line == line && e.column == col, "at %d:%d, expected %d:%d (%s)", e.line,
                e.column, line, col, e.message);
  LK_ASSERT_MSG(strstr(e.message, fragment) != NULL, "message '%s' lacks '%s'", e.message,
                fragment);
}

static const char *kStatusNames[] = {"LK_PARSE_ERROR", "LK_SCHEMA_ERROR", "LK_INVALID_MODEL",
                                     "LK_IO_ERROR"};
static const lk_status kStatuses[] = {LK_PARSE_ERROR, LK_SCHEMA_ERROR, LK_INVALID_MODEL,
                                      LK_IO_ERROR};

/* ------------------------------------------------------------- corpus */

typedef struct {
  char file[128];
  lk_status status;
  int line, col;
  char fragment[256];
} expectation;

static int read_manifest(expectation *ex, int max) {
  char *text = slurp(lk_test_data("io/MANIFEST"), NULL);
  if (!text) return -1;
  int n = 0;
  for (char *save, *ln = strtok_r(text, "\n", &save); ln && n < max; ln = strtok_r(NULL, "\n", &save)) {
    if (ln[0] == '#') continue;
    char *f[5];
    int k = 0;
    for (char *s2, *t = strtok_r(ln, "\t", &s2); t && k < 5; t = strtok_r(NULL, "\t", &s2)) f[k++] = t;
    if (k != 5) continue;
    snprintf(ex[n].file, sizeof ex[n].file, "%s", f[0]);
    ex[n].status = LK_OK;
    for (int s = 0; s < 4; s++)
      if (strcmp(f[1], kStatusNames[s]) == 0) ex[n].status = kStatuses[s];
    ex[n].line = atoi(f[2]);
    ex[n].col = atoi(f[3]);
    snprintf(ex[n].fragment, sizeof ex[n].fragment, "%s", f[4]);
    n++;
  }
  free(text);
  return n;
}

static void test_corpus_each_file_gives_its_message_and_position(void) {
  static expectation ex[256];
  int n = read_manifest(ex, 256);
  LK_ASSERT_MSG(n >= 40, "the corpus has %d cases, at least 40 expected", n);
  for (int i = 0; i < n; i++) {
    lk_error e;
    char path[300];
    snprintf(path, sizeof path, "io/%.127s", ex[i].file);
    lk_model *m = lk_model_load_file(lk_test_data(path), NULL, &e);
    LK_ASSERT_MSG(m == NULL, "%s loaded", ex[i].file);
    lk_model_free(m);
    LK_ASSERT_MSG(e.status == ex[i].status, "%s: status %s, expected %s (%s)", ex[i].file,
                  lk_status_name(e.status), lk_status_name(ex[i].status), e.message);
    LK_ASSERT_MSG(e.line == ex[i].line && e.column == ex[i].col, "%s: at %d:%d, expected %d:%d (%s)",
                  ex[i].file, e.line, e.column, ex[i].line, ex[i].col, e.message);
    LK_ASSERT_MSG(strstr(e.message, ex[i].fragment) != NULL, "%s: message '%s' lacks '%s'",
                  ex[i].file, e.message, ex[i].fragment);
    LK_ASSERT_MSG(strstr(e.path, ex[i].file) != NULL, "%s: path '%s'", ex[i].file, e.path);
  }
}

/* Every file in the corpus directory is in the manifest (a new broken file
 * without an expectation would otherwise test nothing). */
static void test_corpus_manifest_covers_every_file(void) {
  static expectation ex[256];
  int n = read_manifest(ex, 256);
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", lk_test_data("io"));
  DIR *d = opendir(dir);
  LK_ASSERT_MSG(d != NULL, "cannot open %s", dir);
  if (!d) return;
  struct dirent *e;
  int files = 0;
  while ((e = readdir(d))) {
    const char *nm = e->d_name;
    if (nm[0] == '.' || strcmp(nm, "MANIFEST") == 0 || strcmp(nm, "make_corpus.py") == 0) continue;
    files++;
    int found = 0;
    for (int i = 0; i < n && !found; i++) found = strcmp(ex[i].file, nm) == 0;
    LK_ASSERT_MSG(found, "%s has no line in MANIFEST", nm);
  }
  closedir(d);
  LK_ASSERT_INT_EQ(files, n);
}

static void write_file(const char *path, const char *head, size_t fill, char c, const char *tail) {
  FILE *f = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs(head, f);
  char block[4096];
  memset(block, c, sizeof block);
  while (fill > 0) {
    size_t k = fill < sizeof block ? fill : sizeof block;
    fwrite(block, 1, k, f);
    fill -= k;
  }
  fputs(tail, f);
  fclose(f);
}

/* 10 MB of name: refused by its length, at its position, quickly. */
static void test_ten_megabyte_name(void) {
  const char *p = scratch("big_name.yaml");
  write_file(p, "links:\n  - name: ", 10u << 20, 'a', "\n    mass: 1\n    inertia: [1, 1, 1]\n");
  lk_error e;
  lk_model *m = lk_model_load_file(p, NULL, &e);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_INT_EQ(e.status, LK_SCHEMA_ERROR);
  LK_ASSERT_INT_EQ(e.line, 2);
  LK_ASSERT_INT_EQ(e.column, 11);
  LK_ASSERT_MSG(strstr(e.message, "is 10485760 characters long, at most 64"), "%s", e.message);
  unlink(p);
}

/* 10 MB of comments, then a syntax error: the line number is still right. */
static void test_ten_megabyte_file_with_late_error(void) {
  const char *p = scratch("big_comments.yaml");
  FILE *f = fopen(p, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  /* 160000 lines of 64 bytes: 10 240 000 bytes. */
  char line[65];
  memset(line, 'x', 64);
  line[0] = '#';
  line[63] = '\n';
  line[64] = '\0';
  for (int i = 0; i < 160000; i++) fputs(line, f);
  fputs("links: [\n", f);
  fclose(f);
  lk_error e;
  lk_model *m = lk_model_load_file(p, NULL, &e);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_INT_EQ(e.status, LK_PARSE_ERROR);
  LK_ASSERT_INT_EQ(e.line, 160002);
  LK_ASSERT_INT_EQ(e.column, 1);
  unlink(p);
}

/* 100000 levels of nesting: refused at once, no recursion runs out of
 * stack. */
static void test_very_deep_nesting(void) {
  enum { DEPTH = 100000 };
  char *t = malloc(2 * DEPTH + 16);
  CU_ASSERT_PTR_NOT_NULL_FATAL(t);
  strcpy(t, "links: ");
  memset(t + 7, '[', DEPTH);
  memset(t + 7 + DEPTH, ']', DEPTH);
  t[7 + 2 * DEPTH] = '\0';
  lk_error e;
  lk_model *m = lk_model_load_string(t, strlen(t), NULL, NULL, &e);
  CU_ASSERT_PTR_NULL(m);
  /* Refused before parsing (issue 18 item 13), at the 257th '['. */
  LK_ASSERT_INT_EQ(e.status, LK_PARSE_ERROR);
  LK_ASSERT_INT_EQ(e.column, 8 + LK_IO_MAX_FLOW_DEPTH);
  LK_ASSERT_MSG(strstr(e.message, "nested more than 256 deep"), "%s", e.message);
  free(t);
}

static void test_size_limit_and_unreadable_files(void) {
  lk_load_options o;
  lk_load_options_default(&o);
  o.max_bytes = 100;
  lk_error e;
  lk_model *m = lk_model_load_file(lk_test_srcpath("mechanisms/arm7.yaml"), &o, &e);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_INT_EQ(e.status, LK_IO_ERROR);
  LK_ASSERT_MSG(strstr(e.message, "more than the 100 this loader accepts"), "%s", e.message);
  m = lk_model_load_string("links: []", 9, NULL, &o, &e);
  CU_ASSERT_PTR_NULL(m); /* within the limit; fails for being empty */
  LK_ASSERT_MSG(strstr(e.message, "the list is empty") && strcmp(e.path, "<string>") == 0, "%s: %s",
                e.path, e.message);
  m = lk_model_load_file(scratch("does-not-exist.yaml"), NULL, &e);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_INT_EQ(e.status, LK_IO_ERROR);
  LK_ASSERT_MSG(strstr(e.message, "cannot open the file: No such file"), "%s", e.message);
  m = lk_model_load_file(lk_test_data("io"), NULL, &e);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_MSG(e.status == LK_IO_ERROR && strstr(e.message, "directory"), "%s", e.message);
}

/* --------------------------------------------------------- mechanisms */

static const char *const kMechanisms[] = {
    "pendulum",    "double_pendulum", "block_on_incline", "pushed_block", "rolling_sphere",
    "bowling_ball", "box_stack",      "four_bar",         "arm7",         "gripper",
    "hand3",       "ball_board",      "rover",            "pick_and_shake",
    "pipe_support", "pipe_support_2d",
    /* the grasp planner's hands and objects */
    "jaw_gripper", "three_finger_hand", "object_box", "object_sphere", "object_cylinder",
    "object_mug",  "object_mug_mesh", "object_stone",
    /* a URDF hand included in a scene (mechanisms/jaw-gripper.urdf) */
    "jaw_gripper_urdf", NULL};

/* Example i (mechanisms/NAME.yaml, its path in rel) with its run settings. */
static lk_model *load_example(int i, char *rel, size_t size, lk_run_settings *run, lk_error *e) {
  snprintf(rel, size, "mechanisms/%s.yaml", kMechanisms[i]);
  lk_load_options o;
  lk_load_options_default(&o);
  o.run = run;
  return lk_model_load_file(lk_test_srcpath(rel), &o, e);
}

static void test_every_example_loads_and_validates(void) {
  int n = 0;
  for (int i = 0; kMechanisms[i]; i++) {
    char rel[128];
    lk_error e;
    lk_run_settings run;
    lk_model *m = load_example(i, rel, sizeof rel, &run, &e);
    char buf[700];
    LK_ASSERT_MSG(m != NULL, "%s", lk_error_format(&e, buf, sizeof buf));
    if (!m) continue;
    n++;
    CU_ASSERT_TRUE(lk_model_is_finalized(m));
    CU_ASSERT_TRUE(lk_model_total_mass(m) > 0);
    /* Each example says what it is and how to look at it. */
    LK_ASSERT_MSG(run.description[0] && run.nplot > 0 && run.duration > 0, "%s: run settings", rel);
    lk_model_free(m);
  }
  LK_ASSERT_INT_EQ(n, 25);
  /* And nothing else sits in mechanisms/ untested. */
  DIR *d = opendir(lk_test_srcpath("mechanisms"));
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name);
    if (l < 6 || strcmp(e->d_name + l - 5, ".yaml") != 0) continue;
    int known = 0;
    for (int i = 0; kMechanisms[i] && !known; i++)
      known = strncmp(e->d_name, kMechanisms[i], l - 5) == 0 && strlen(kMechanisms[i]) == l - 5;
    LK_ASSERT_MSG(known, "mechanisms/%s is not in the round-trip list", e->d_name);
  }
  closedir(d);
}

/* Each example runs its own simulate.duration (what `linkage simulate FILE`
 * does) with no failed step and no state the step reports unphysical: the
 * rover once stopped at t = 4.93 s of its 9, a wheel reported 6 cm deep in
 * the ramp's crest by a wrong GJK normal. */
static void test_every_example_runs_its_duration(void) {
  for (int i = 0; kMechanisms[i]; i++) {
    char rel[128];
    lk_error e;
    lk_run_settings run;
    lk_model *m = load_example(i, rel, sizeof rel, &run, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    lk_data *d = lk_data_new(m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    long steps = lround(run.duration / lk_model_options(m)->timestep);
    for (long k = 0; k < steps; k++) {
      lk_status st = lk_step(m, d);
      const lk_step_report *r = lk_data_step_report(d);
      if (st || r->unphysical) {
        LK_ASSERT_MSG(0, "%s: step %ld of %ld: %s", rel, k + 1, steps,
                      st ? lk_strerror(st) : r->message);
        break;
      }
    }
    lk_data_free(d);
    lk_model_free(m);
  }
}

/* Round trip: each example runs 1 s from its initial state without error
 * (the contact examples fall freely until the contact work lands). */
static void test_every_example_runs_one_second(void) {
  for (int i = 0; kMechanisms[i]; i++) {
    char rel[128];
    snprintf(rel, sizeof rel, "mechanisms/%s.yaml", kMechanisms[i]);
    lk_error e;
    lk_model *m = lk_model_load_file(lk_test_srcpath(rel), NULL, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    lk_data *d = lk_data_new(m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    double h = lk_model_options(m)->timestep;
    long steps = (long)(1.0 / h + 0.5);
    lk_status st = LK_OK;
    long k = 0;
    for (; k < steps && st == LK_OK; k++) st = lk_step(m, d);
    LK_ASSERT_MSG(st == LK_OK, "%s: step %ld: %s", rel, k, lk_strerror(st));
    LK_ASSERT_NEAR(lk_data_time(d), 1.0, 1e-9);
    const double *q = lk_data_q(d);
    for (int j = 0; j < lk_model_nq(m); j++) LK_ASSERT_MSG(isfinite(q[j]), "%s: q[%d]", rel, j);
    lk_data_free(d);
    lk_model_free(m);
  }
}

/* ------------------------------------------------ what the loader builds */

static void test_inertia_from_a_box_geom(void) {
  lk_error e;
  lk_model *m = load_text(
      "links:\n  - name: b\n    joint: free\n    mass: 2\n"
      "    geoms: [{type: box, half_extents: [0.1, 0.2, 0.3], origin: {xyz: [0.5, 0, 0]}}]\n",
      &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  lk_link_spec s;
  LK_ASSERT_OK(lk_model_link(m, 1, &s), NULL);
  /* com at the box centre; solid box: m/3 (b^2 + c^2) with half extents. */
  LK_ASSERT_NEAR(s.com.x, 0.5, 1e-15);
  LK_ASSERT_NEAR(s.inertia.m[0][0], 2.0 / 3.0 * (0.04 + 0.09), 1e-14);
  LK_ASSERT_NEAR(s.inertia.m[1][1], 2.0 / 3.0 * (0.01 + 0.09), 1e-14);
  LK_ASSERT_NEAR(s.inertia.m[2][2], 2.0 / 3.0 * (0.01 + 0.04), 1e-14);
  LK_ASSERT_NEAR(s.inertia.m[0][1], 0, 1e-15);
  lk_model_free(m);
}

static void test_inertia_from_two_spheres_splits_mass_by_volume(void) {
  lk_error e;
  /* Radii 1 and 2: volumes 1 : 8, so 1 kg and 8 kg of a 9 kg link. */
  lk_model *m = load_text(
      "links:\n  - name: b\n    joint: free\n    mass: 9\n    geoms:\n"
      "      - {type: sphere, radius: 1, origin: {xyz: [0, 0, 0]}}\n"
      "      - {type: sphere, radius: 2, origin: {xyz: [3, 0, 0]}}\n",
      &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  lk_link_spec s;
  lk_model_link(m, 1, &s);
  LK_ASSERT_NEAR(s.com.x, 8.0 * 3 / 9, 1e-14); /* volume centroid */
  double c = 8.0 / 3;
  double ixx = 0.4 * 1 * 1 + 0.4 * 8 * 4;        /* about the x axis, no offset */
  double iyy = ixx + 1 * c * c + 8 * (3 - c) * (3 - c); /* parallel axes */
  LK_ASSERT_NEAR(s.inertia.m[0][0], ixx, 1e-12);
  LK_ASSERT_NEAR(s.inertia.m[1][1], iyy, 1e-12);
  LK_ASSERT_NEAR(s.inertia.m[2][2], iyy, 1e-12);
  lk_model_free(m);
  /* A com given in the file is kept, and the inertia taken about it. */
  m = load_text(
      "links:\n  - name: b\n    joint: free\n    mass: 1\n    com: [0, 0, 1]\n"
      "    geoms: [{type: sphere, radius: 0.5}]\n",
      &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  lk_model_link(m, 1, &s);
  LK_ASSERT_NEAR(s.com.z, 1, 0);
  LK_ASSERT_NEAR(s.inertia.m[0][0], 0.4 * 0.25 + 1.0, 1e-14);
  LK_ASSERT_NEAR(s.inertia.m[2][2], 0.4 * 0.25, 1e-14);
  lk_model_free(m);
}

static void test_rotated_cylinder_inertia(void) {
  lk_error e;
  /* A cylinder turned onto the y axis: its axial moment lands on Iyy. */
  lk_model *m = load_text(
      "links:\n  - name: w\n    joint: revolute\n    mass: 1.5\n"
      "    geoms: [{type: cylinder, radius: 0.1, half_length: 0.03, origin: {rpy: [1.5707963267948966, 0, 0]}}]\n",
      &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  lk_link_spec s;
  lk_model_link(m, 1, &s);
  LK_ASSERT_NEAR(s.inertia.m[1][1], 0.5 * 1.5 * 0.01, 1e-14);
  LK_ASSERT_NEAR(s.inertia.m[0][0], 1.5 * (3 * 0.01 + 4 * 0.0009) / 12, 1e-14);
  LK_ASSERT_NEAR(s.inertia.m[2][2], 1.5 * (3 * 0.01 + 4 * 0.0009) / 12, 1e-14);
  lk_model_free(m);
}

static void test_plane_normal_point_and_quat_origins(void) {
  lk_error e;
  lk_model *m = load_text(
      "world:\n  geoms:\n"
      "    - {type: plane, normal: [0, 2, 0], point: [1, 2, 3]}\n"
      "    - {type: plane, normal: [0, 0, -1]}\n"
      "links:\n  - name: a\n    joint: revolute\n    mass: 1\n    inertia: [1, 1, 1]\n"
      "    origin: {xyz: [1, 2, 3], quat: [0.70710678, 0, 0, 0.70710678]}\n"
      "  - name: b\n    joint: revolute\n    mass: 1\n    inertia: [1, 1, 1]\n"
      "    origin: {xyz: [1, 2, 3], rpy: [0, 0, 1.5707963267948966]}\n",
      &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  lk_geom_spec g;
  lk_model_geom(m, 0, &g);
  lk_vec3 z = lk_m3_col(&g.pose.R, 2);
  LK_ASSERT_NEAR(z.x, 0, 1e-15);
  LK_ASSERT_NEAR(z.y, 1, 1e-15);
  LK_ASSERT_NEAR(z.z, 0, 1e-15);
  LK_ASSERT_NEAR(g.pose.p.y, 2, 0);
  LK_ASSERT_NEAR(lk_m3_det(&g.pose.R), 1, 1e-12);
  lk_model_geom(m, 1, &g);
  z = lk_m3_col(&g.pose.R, 2);
  LK_ASSERT_NEAR(z.z, -1, 1e-15);
  LK_ASSERT_NEAR(lk_m3_det(&g.pose.R), 1, 1e-12);
  lk_link_spec a, b;
  lk_model_link(m, lk_model_link_index(m, "a"), &a);
  lk_model_link(m, lk_model_link_index(m, "b"), &b);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) LK_ASSERT_NEAR(a.origin.R.m[i][j], b.origin.R.m[i][j], 1e-8);
  LK_ASSERT_NEAR(a.origin.p.z, 3, 0);
  lk_model_free(m);
}

static void test_defaults_and_shorthands(void) {
  lk_error e;
  lk_model *m = load_text(
      "materials:\n  - {name: a, mu_static: 0.3}\n  - {name: b, mu: 0.7}\n  - {name: c}\n"
      "world:\n  geoms: [{type: plane, group: 0x10, mask: 0o17}]\n"
      "links:\n  - name: l\n    joint: revolute\n    mass: 1\n    inertia: [2, 3, 4, 0.1, 0.2, 0.3]\n",
      &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  lk_material_spec s;
  lk_model_material(m, lk_model_material_index(m, "a"), &s);
  LK_ASSERT_NEAR(s.mu_dynamic, 0.3, 0); /* slides with its only coefficient */
  lk_model_material(m, lk_model_material_index(m, "b"), &s);
  LK_ASSERT_NEAR(s.mu_static, 0.7, 0);
  LK_ASSERT_NEAR(s.mu_dynamic, 0.7, 0);
  lk_model_material(m, lk_model_material_index(m, "c"), &s);
  LK_ASSERT_NEAR(s.mu_static, 0.5, 0);
  lk_geom_spec g;
  lk_model_geom(m, 0, &g);
  LK_ASSERT_INT_EQ(g.group, 16);
  LK_ASSERT_INT_EQ(g.mask, 15);
  lk_link_spec l;
  lk_model_link(m, 1, &l);
  LK_ASSERT_INT_EQ(l.joint.type, LK_JOINT_REVOLUTE);
  CU_ASSERT_STRING_EQUAL(l.joint.name, "l");
  LK_ASSERT_NEAR(l.joint.axis.z, 1, 0);
  /* [ixx iyy izz ixy ixz iyz] */
  LK_ASSERT_NEAR(l.inertia.m[0][1], 0.1, 0);
  LK_ASSERT_NEAR(l.inertia.m[2][0], 0.2, 0);
  LK_ASSERT_NEAR(l.inertia.m[1][2], 0.3, 0);
  LK_ASSERT_NEAR(l.inertia.m[1][1], 3, 0);
  const lk_options *o = lk_model_options(m);
  LK_ASSERT_NEAR(o->timestep, 0.001, 0);
  LK_ASSERT_NEAR(o->gravity.z, -9.81, 0);
  lk_model_free(m);
}

static void test_every_section_reaches_the_model(void) {
  lk_error e;
  lk_model *m = load_text(
      "name: all\n"
      "options: {timestep: 0.002, gravity: [0, 0, -1.62], integrator: rk4, solver: dantzig,\n"
      "          friction_cone: pyramid, cone_edges: 6, friction_mix: max, max_contacts: 40}\n"
      "materials: [{name: m1, mu_static: 0.8, mu_dynamic: 0.6, restitution: 0.2, mu_rolling: 0.01,\n"
      "             mu_torsional: 0.02, patch_radius: 0.003}]\n"
      "links:\n"
      "  - {name: a, joint: {name: ja, type: revolute, axis: [1, 0, 0], limit: [-1, 2], damping: 0.1,\n"
      "     stiffness: 2, rest: 0.5, armature: 0.01, friction: 0.3}, mass: 1, inertia: [1, 1, 1]}\n"
      "  - {name: b, parent: a, joint: {name: jb, type: prismatic}, mass: 1, inertia: [1, 1, 1]}\n"
      "  - {name: c, joint: {type: ball, limit: 0.5}, mass: 1, inertia: [1, 1, 1]}\n"
      "actuators:\n"
      "  - {name: s, joint: ja, type: position, kp: 10, kv: 1, target: 0.2, max_effort: 5}\n"
      "  - {joint: jb, type: effort, schedule: [[0, 1], [1, 3]]}\n"
      "loads: [{name: w, link: b, force: [1, 2, 3], torque: [0, 0, 1], point: [0, 0, 0.1],\n"
      "         frame: link, start: 0.5, end: .inf}]\n"
      "contacts: [{name: k, type: rolling, link: a, point: [0, 0, -0.1], other: world,\n"
      "            other_point: [0, 0, 0], normal: [0, 0, 2], radius: 0.1, tolerance: 0.001,\n"
      "            material: m1, patch_radius: 0.01}]\n"
      "constraints:\n"
      "  loops: [{name: lp, type: pin, link_a: b, link_b: c, frame_a: {xyz: [0, 0, 1]}}]\n"
      "  couplings: [{name: cp, joint_a: jb, joint_b: ja, ratio: 2, offset: 0.1}]\n"
      "  tethers: [{name: t, link: c, point: [0, 0, 0], other: world, other_point: [0, 0, 2], length: 1.5}]\n"
      "initial:\n  - {joint: ja, q: 0.3, v: [0.1]}\n  - {joint: c, q: [0, 1, 0, 0], v: [0, 0, 1]}\n",
      &e);
  char buf[700];
  LK_ASSERT_MSG(m != NULL, "%s", lk_error_format(&e, buf, sizeof buf));
  if (!m) return;
  CU_ASSERT_STRING_EQUAL(lk_model_name(m), "all");
  const lk_options *o = lk_model_options(m);
  LK_ASSERT_NEAR(o->timestep, 0.002, 0);
  LK_ASSERT_NEAR(o->gravity.z, -1.62, 0);
  LK_ASSERT_INT_EQ(o->integrator, LK_INTEGRATOR_RK4);
  LK_ASSERT_INT_EQ(o->solver, LK_SOLVER_DANTZIG);
  LK_ASSERT_INT_EQ(o->friction_cone, LK_CONE_PYRAMID);
  LK_ASSERT_INT_EQ(o->cone_edges, 6);
  LK_ASSERT_INT_EQ(o->friction_mix, LK_MIX_MAX);
  LK_ASSERT_INT_EQ(o->max_contacts, 40);
  lk_material_spec ms;
  lk_model_material(m, lk_model_material_index(m, "m1"), &ms);
  LK_ASSERT_NEAR(ms.mu_torsional + ms.patch_radius + ms.restitution, 0.223, 1e-15);
  lk_link_spec a;
  lk_model_link(m, lk_model_link_index(m, "a"), &a);
  CU_ASSERT_TRUE(a.joint.limited);
  LK_ASSERT_NEAR(a.joint.lower + a.joint.upper + a.joint.rest + a.joint.friction, 1.8, 1e-15);
  LK_ASSERT_NEAR(a.joint.armature + a.joint.damping + a.joint.stiffness, 2.11, 1e-15);
  lk_link_spec c;
  lk_model_link(m, lk_model_link_index(m, "c"), &c);
  LK_ASSERT_NEAR(c.joint.upper, 0.5, 0);
  lk_actuator_spec as;
  lk_model_actuator(m, lk_model_actuator_index(m, "jb"), &as); /* named after its joint */
  LK_ASSERT_INT_EQ(as.nschedule, 2);
  LK_ASSERT_NEAR(as.schedule_effort[1], 3, 0);
  CU_ASSERT_TRUE(isinf(as.max_effort));
  lk_model_actuator(m, lk_model_actuator_index(m, "s"), &as);
  LK_ASSERT_NEAR(as.kp + as.kv + as.target + as.max_effort, 16.2, 1e-14);
  lk_load_spec ls;
  lk_model_load_spec(m, 0, &ls);
  LK_ASSERT_INT_EQ(ls.frame, LK_FRAME_LINK);
  CU_ASSERT_TRUE(isinf(ls.end));
  LK_ASSERT_NEAR(ls.force.y + ls.torque.z + ls.point.z + ls.start, 3.6, 1e-15);
  lk_contact_spec cs;
  lk_model_contact(m, 0, &cs);
  LK_ASSERT_INT_EQ(cs.type, LK_CONTACT_ROLLING);
  LK_ASSERT_NEAR(cs.normal.z, 1, 1e-15); /* normalized */
  LK_ASSERT_NEAR(cs.radius + cs.tolerance + cs.patch_radius, 0.111, 1e-15);
  CU_ASSERT_STRING_EQUAL(cs.material, "m1");
  lk_loop_spec lp;
  lk_model_loop(m, 0, &lp);
  LK_ASSERT_INT_EQ(lp.type, LK_LOOP_PIN);
  LK_ASSERT_NEAR(lp.frame_a.p.z, 1, 0);
  lk_coupling_spec cp;
  lk_model_coupling(m, 0, &cp);
  LK_ASSERT_NEAR(cp.ratio + cp.offset, 2.1, 1e-15);
  lk_tether_spec ts;
  lk_model_tether(m, 0, &ts);
  LK_ASSERT_NEAR(ts.length + ts.other_point.z, 3.5, 0);
  double q[16], v[16];
  lk_model_initial_state(m, q, v);
  LK_ASSERT_NEAR(q[lk_model_joint_qadr(m, lk_model_link_index(m, "a"))], 0.3, 0);
  LK_ASSERT_NEAR(v[lk_model_joint_vadr(m, lk_model_link_index(m, "a"))], 0.1, 0);
  LK_ASSERT_NEAR(q[lk_model_joint_qadr(m, lk_model_link_index(m, "c")) + 1], 1, 0);
  lk_model_free(m);
}

static void test_run_settings_and_empty_sections(void) {
  const char *plain = "contacts:\nloads:\nlinks: [{name: a, joint: revolute, mass: 1, inertia: [1, 1, 1]}]\n";
  char text[512];
  snprintf(text, sizeof text, "%s%s",
           "description: a test\nsimulate: {duration: 2.5, every: 4, plot_columns: [a.q, a.z, t]}\n",
           plain);
  lk_run_settings run;
  lk_load_options o;
  lk_load_options_default(&o);
  o.run = &run;
  lk_error e;
  lk_model *m = lk_model_load_string(text, strlen(text), NULL, &o, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  LK_ASSERT_NEAR(run.duration, 2.5, 0);
  LK_ASSERT_INT_EQ(run.every, 4);
  LK_ASSERT_INT_EQ(run.nplot, 3);
  CU_ASSERT_STRING_EQUAL(run.plot_columns[1], "a.z");
  CU_ASSERT_STRING_EQUAL(run.description, "a test");
  lk_model_free(m);
  /* Without a simulate section nothing is said. */
  m = lk_model_load_string(plain, strlen(plain), NULL, &o, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  LK_ASSERT_MSG(run.duration < 0 && run.every == 0 && run.nplot == 0 && !run.description[0],
                "run settings not cleared");
  lk_model_free(m);
}

/* The text need not end with a NUL: only len bytes are read. */
static void test_load_from_a_buffer_without_terminator(void) {
  char buf[128];
  const char *t = "links: [{name: a, joint: revolute, mass: 1, inertia: [1, 1, 1]}]\n";
  size_t n = strlen(t);
  memcpy(buf, t, n);
  memset(buf + n, '@', sizeof buf - n); /* '@' cannot start a YAML token */
  lk_error e;
  lk_model *m = lk_model_load_string(buf, n, NULL, NULL, &e);
  LK_ASSERT_MSG(m != NULL, "%s", e.message);
  lk_model_free(m);
  /* And the same text one byte longer reaches the '@'. */
  m = lk_model_load_string(buf, n + 1, NULL, NULL, &e);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_INT_EQ(e.status, LK_PARSE_ERROR);
  LK_ASSERT_INT_EQ(e.line, 2);
}

/* An alias reuses a node; names in a reused geom would clash. (b hangs
 * from a: two sibling spheres in one place would be an initial overlap as
 * deep as the spheres, an error of its own.) */
/* options: {initial_overlaps: allowed} says the file's overlaps at its
 * initial state are meant (what linkage convert writes where its MJCF or
 * URDF source has them): a ball of radius 0.1 sunk 0.1 m in the floor is
 * refused by default and with "checked", loads with "allowed"; sunk 0.05 m
 * it is a warning, none with "allowed". Another value is refused, the
 * key named. */
static void test_initial_overlaps_allowed(void) {
  static const char *const opt[] = {"", "options: {initial_overlaps: checked}\n",
                                    "options: {initial_overlaps: allowed}\n"};
  for (int sunk = 0; sunk < 2; sunk++)
    for (int k = 0; k < 3; k++) {
      char text[512];
      snprintf(text, sizeof text,
               "%s"
               "world:\n"
               "  geoms: [{name: floor, type: plane}]\n"
               "links:\n"
               "  - name: ball\n"
               "    joint: {type: free}\n"
               "    origin: {xyz: [0, 0, %s]}\n"
               "    mass: 1\n"
               "    geoms: [{name: shell, type: sphere, radius: 0.1}]\n",
               opt[k], sunk == 0 ? "0" : "0.05");
      lk_error e;
      lk_model *m = load_text(text, &e);
      int refused = sunk == 0 && k < 2, warned = sunk == 1 && k < 2;
      LK_ASSERT_MSG((m == NULL) == refused, "sunk %d, options %d: %s", sunk, k,
                    m ? "loaded" : e.message);
      if (refused) CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "overlaps geom 'floor' by 0.1 m"));
      int has = 0;
      for (int i = 0; m && i < lk_model_nwarnings(m); i++)
        has |= strstr(lk_model_warning(m, i), "overlaps geom 'floor'") != NULL;
      LK_ASSERT_INT_EQ(has, warned);
      lk_model_free(m);
    }
  lk_error e;
  lk_model *m = load_text("options: {initial_overlaps: yes}\n"
                          "links: [{name: a, joint: {type: free}, mass: 1}]\n",
                          &e);
  LK_ASSERT_MSG(m == NULL && strstr(e.message, "initial_overlaps"), "%s",
                m ? "loaded" : e.message);
  lk_model_free(m);
}

static void test_aliases_share_geoms(void) {
  lk_error e;
  lk_model *m = load_text(
      "links:\n"
      "  - {name: a, joint: revolute, mass: 1, geoms: &g [{type: sphere, radius: 0.1}]}\n"
      "  - {name: b, parent: a, joint: revolute, mass: 1, geoms: *g}\n",
      &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  LK_ASSERT_INT_EQ(lk_model_ngeom(m), 2);
  lk_model_free(m);
  expect_failure("links:\n"
                 "  - {name: a, joint: revolute, mass: 1, geoms: &g [{name: s, type: sphere, radius: 0.1}]}\n"
                 "  - {name: b, joint: revolute, mass: 1, geoms: *g}\n",
                 NULL, 0, LK_SCHEMA_ERROR, 2, 59, "geom 's' is defined twice");
}

static void test_finalize_errors_point_at_the_element(void) {
  /* Everything the loader cannot check alone still gets a line: here an
   * inertia computed from geoms (so no key to point at) that is fine, and
   * a joint limit on a free joint, which the loader refuses first. */
  expect_failure("links:\n  - name: a\n    joint: {type: free, limit: [0, 1]}\n    mass: 1\n"
                 "    inertia: [1, 1, 1]\n",
                 NULL, 0, LK_SCHEMA_ERROR, 3, 25, "'limit' does not apply to a free joint");
  expect_failure("links:\n  - name: a\n    joint: revolute\n    mass: 1\n    inertia: [1, 1, 1, 2, 0, 0]\n",
                 NULL, 0, LK_INVALID_MODEL, 5, 14, "not positive definite");
}

/* ----------------------------------------------------------- overrides */

static const char *kBase =
    "options:\n  timestep: 0.001\n"
    "materials:\n  - {name: wood, mu_static: 0.6, mu_dynamic: 0.4}\n"
    "links:\n"
    "  - name: arm\n    joint: {name: shoulder, type: revolute}\n    mass: 1\n    inertia: [1, 1, 1]\n"
    "    geoms: [{type: sphere, radius: 0.1, material: wood}]\n"
    "initial:\n  - {joint: shoulder, q: 0.1}\n";

static void test_overrides_change_values_by_path(void) {
  const char *set[] = {"options.timestep=0.0005", "materials.wood.mu_static=0.9",
                       "links.arm.mass=2.5",      "initial.shoulder.q=0.25",
                       "options.gravity=[0, 0, -1.62]", "links.0.joint.type=prismatic",
                       "materials.0.mu_dynamic=0.7"};
  lk_error e;
  lk_model *m = load_set(kBase, set, 7, &e);
  char buf[700];
  LK_ASSERT_MSG(m != NULL, "%s", lk_error_format(&e, buf, sizeof buf));
  if (!m) return;
  LK_ASSERT_NEAR(lk_model_options(m)->timestep, 0.0005, 0);
  LK_ASSERT_NEAR(lk_model_options(m)->gravity.z, -1.62, 0);
  lk_material_spec ms;
  lk_model_material(m, lk_model_material_index(m, "wood"), &ms);
  LK_ASSERT_NEAR(ms.mu_static, 0.9, 0);
  LK_ASSERT_NEAR(ms.mu_dynamic, 0.7, 0);
  LK_ASSERT_NEAR(lk_model_total_mass(m), 2.5, 0);
  LK_ASSERT_INT_EQ(lk_model_joint_type(m, 1), LK_JOINT_PRISMATIC);
  double q[1];
  lk_model_initial_state(m, q, NULL);
  LK_ASSERT_NEAR(q[0], 0.25, 0);
  lk_model_free(m);
}

static void test_overrides_create_missing_keys_and_sections(void) {
  const char *text = "links: [{name: a, joint: revolute, mass: 1, inertia: [1, 1, 1]}]\noptions:\n";
  const char *set[] = {"options.timestep=0.004", "simulate.duration=3", "links.a.com=[0, 0, 1]",
                       "name=renamed"};
  lk_run_settings run;
  lk_load_options o;
  lk_load_options_default(&o);
  o.set = set;
  o.nset = 4;
  o.run = &run;
  lk_error e;
  lk_model *m = lk_model_load_string(text, strlen(text), NULL, &o, &e);
  LK_ASSERT_MSG(m != NULL, "%s", e.message);
  if (!m) return;
  LK_ASSERT_NEAR(lk_model_options(m)->timestep, 0.004, 0);
  LK_ASSERT_NEAR(run.duration, 3, 0);
  CU_ASSERT_STRING_EQUAL(lk_model_name(m), "renamed");
  lk_link_spec s;
  lk_model_link(m, 1, &s);
  LK_ASSERT_NEAR(s.com.z, 1, 0);
  lk_model_free(m);
}

static void test_override_errors(void) {
  const char *s1[] = {"options.timestep"};
  expect_failure(kBase, s1, 1, LK_SCHEMA_ERROR, 0, 0, "expected KEY=VALUE");
  const char *s2[] = {"materials.wod.mu_static=1"};
  expect_failure(kBase, s2, 1, LK_SCHEMA_ERROR, 0, 0, "no item named 'wod' (did you mean 'wood'?)");
  const char *s3[] = {"options.timestep=fast"};
  expect_failure(kBase, s3, 1, LK_SCHEMA_ERROR, 0, 0,
                 "in --set options.timestep=fast: options: timestep: expected a number, got 'fast'");
  const char *s4[] = {"options.timestepp=0.1"};
  expect_failure(kBase, s4, 1, LK_SCHEMA_ERROR, 0, 0, "unknown key 'timestepp' (did you mean 'timestep'?)");
  const char *s5[] = {"options.timestep.x=1"};
  expect_failure(kBase, s5, 1, LK_SCHEMA_ERROR, 0, 0, "'options.timestep' is a single value");
  const char *s6[] = {"options..timestep=1"};
  expect_failure(kBase, s6, 1, LK_SCHEMA_ERROR, 0, 0, "empty part between dots");
  const char *s7[] = {"options.gravity=[0, 0"};
  expect_failure(kBase, s7, 1, LK_SCHEMA_ERROR, 0, 0, "the value is not valid YAML");
  const char *s8[] = {"materials.wood.mu_dynamic=0.9"};
  expect_failure(kBase, s8, 1, LK_INVALID_MODEL, 0, 0,
                 "in --set materials.wood.mu_dynamic=0.9: material 'wood': mu_dynamic 0.9 exceeds");
  /* A value built from aliases far larger than its text is refused. */
  char big[600] = "links.arm.geoms=[&a [&b [&c [&d [1,1,1,1,1,1,1,1], *d, *d, *d, *d, *d, *d, *d],"
                  " *c, *c, *c, *c, *c, *c, *c], *b, *b, *b, *b, *b, *b, *b], *a, *a, *a, *a, *a, *a, *a]";
  const char *s9[] = {big};
  expect_failure(kBase, s9, 1, LK_SCHEMA_ERROR, 0, 0, "too large");
  /* The file is untouched by a failed override: a good one after it works. */
  const char *s10[] = {"options.timestep=0.002"};
  lk_error e;
  lk_model *m = load_set(kBase, s10, 1, &e);
  CU_ASSERT_PTR_NOT_NULL(m);
  lk_model_free(m);
}

/* --------------------------------------------------------- suggestions */

static void test_edit_distance_and_suggestions(void) {
  LK_ASSERT_INT_EQ(lk_edit_distance("mass", "mass", 3), 0);
  LK_ASSERT_INT_EQ(lk_edit_distance("masss", "mass", 3), 1);
  LK_ASSERT_INT_EQ(lk_edit_distance("lemek", "lemke", 3), 1); /* a swap */
  LK_ASSERT_INT_EQ(lk_edit_distance("kitten", "sitting", 5), 3);
  LK_ASSERT_INT_EQ(lk_edit_distance("a", "abcdefgh", 3), 4); /* capped */
  LK_ASSERT_INT_EQ(lk_edit_distance("", "abc", 5), 3);
  const char *keys[] = {"name", "parent", "joint", "mass", "inertia"};
  CU_ASSERT_STRING_EQUAL(lk_suggest("paernt", keys, 5), "parent");
  CU_ASSERT_STRING_EQUAL(lk_suggest("MASS", keys, 5), "mass");
  CU_ASSERT_PTR_NULL(lk_suggest("colour", keys, 5));
  CU_ASSERT_PTR_NULL(lk_suggest("x", keys, 5));
  double v;
  CU_ASSERT_TRUE(lk_ydoc_parse_double("-.5e+2", 6, &v) && v == -50);
  CU_ASSERT_TRUE(lk_ydoc_parse_double("-.INF", 5, &v) && isinf(v) && v < 0);
  CU_ASSERT_FALSE(lk_ydoc_parse_double("0x10", 4, &v));
  CU_ASSERT_FALSE(lk_ydoc_parse_double(" 1", 2, &v));
  CU_ASSERT_FALSE(lk_ydoc_parse_double("1.", 1, &v) && v != 1);
  CU_ASSERT_FALSE(lk_ydoc_parse_double("e5", 2, &v));
  CU_ASSERT_FALSE(lk_ydoc_parse_double("-.nan", 5, &v));
  long l;
  CU_ASSERT_TRUE(lk_ydoc_parse_long("0xFF", 4, &l) && l == 255);
  CU_ASSERT_TRUE(lk_ydoc_parse_long("-12", 3, &l) && l == -12);
  CU_ASSERT_FALSE(lk_ydoc_parse_long("0x", 2, &l));
  CU_ASSERT_FALSE(lk_ydoc_parse_long("99999999999999999999", 20, &l));
}

/* ------------------------------------------------------------- writers */

static lk_model *columns_model(void) {
  lk_error e;
  lk_model *m = load_text(
      "links:\n"
      "  - {name: base, joint: fixed}\n"
      "  - {name: hinge, parent: base, joint: {name: h, type: revolute}, mass: 1, inertia: [1, 1, 1]}\n"
      "  - {name: ball, joint: ball, mass: 1, inertia: [1, 1, 1]}\n"
      "  - {name: body, joint: {name: fb, type: free}, mass: 1, inertia: [1, 1, 1]}\n"
      "initial:\n  - {joint: h, q: 0.5, v: -0.25}\n"
      "  - {joint: fb, q: [1, 2, 3, 1, 0, 0, 0], v: [4, 5, 6, 7, 8, 9]}\n",
      &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  return m;
}

static void test_trajectory_columns(void) {
  lk_model *m = columns_model();
  static const char *const want[] = {
      "t",      "base.x", "base.y", "base.z", "hinge.x", "hinge.y", "hinge.z", "ball.x", "ball.y",
      "ball.z", "body.x", "body.y", "body.z", "h.q",     "h.v",     "ball.q0", "ball.q1", "ball.q2",
      "ball.q3", "ball.v0", "ball.v1", "ball.v2", "fb.q0", "fb.q1",  "fb.q2",   "fb.q3",  "fb.q4",
      "fb.q5",  "fb.q6",  "fb.v0",  "fb.v1",  "fb.v2",   "fb.v3",   "fb.v4",   "fb.v5"};
  int n = (int)(sizeof want / sizeof want[0]);
  LK_ASSERT_INT_EQ(lk_trajectory_ncolumns(m), n);
  char buf[80];
  for (int i = 0; i < n; i++) {
    const char *got = lk_trajectory_column_name(m, i, buf, sizeof buf);
    LK_ASSERT_MSG(got && strcmp(got, want[i]) == 0, "column %d is '%s', expected '%s'", i,
                  got ? got : "(null)", want[i]);
    LK_ASSERT_INT_EQ(lk_trajectory_column_index(m, want[i]), i);
  }
  CU_ASSERT_PTR_NULL(lk_trajectory_column_name(m, n, buf, sizeof buf));
  LK_ASSERT_INT_EQ(lk_trajectory_column_index(m, "world.x"), -1);
  lk_model_free(m);
}

static void test_trajectory_file_is_complete_or_absent(void) {
  lk_model *m = columns_model();
  lk_data *d = lk_data_new(m);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  LK_ASSERT_OK(lk_forward_kinematics(m, d), NULL);
  const char *p = scratch("traj.csv");
  int before = scratch_entries();
  lk_error e;
  lk_trajectory_writer *w = lk_trajectory_writer_open(p, m, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(w);
  LK_ASSERT_OK(lk_trajectory_writer_add(w, d, &e), &e);
  lk_data_set_time(d, 0.125);
  LK_ASSERT_OK(lk_trajectory_writer_add(w, d, &e), &e);
  LK_ASSERT_INT_EQ(lk_trajectory_writer_rows(w), 2);
  CU_ASSERT_FALSE(file_exists(p)); /* not there until closed */
  LK_ASSERT_OK(lk_trajectory_writer_close(w, &e), &e);
  CU_ASSERT_TRUE(file_exists(p));
  LK_ASSERT_INT_EQ(scratch_entries(), before + 1); /* no temporary left */
  char *text = slurp(p, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  char *l1 = strtok(text, "\n"), *l2 = strtok(NULL, "\n"), *l3 = strtok(NULL, "\n");
  CU_ASSERT_PTR_NULL(strtok(NULL, "\n"));
  CU_ASSERT_TRUE(strncmp(l1, "t,base.x,base.y,base.z,hinge.x", 30) == 0);
  /* Row 1 at t = 0: the hinge at 0.5 (-0.25), the free body at (1, 2, 3). */
  CU_ASSERT_TRUE(l2 && strncmp(l2, "0,0,0,0,0,0,0,0,0,0,1,2,3,0.5,-0.25,1,0,0,0,0,0,0,1,2,3,1,0,0,0,4,5,6,7,8,9", 200) == 0);
  CU_ASSERT_TRUE(l3 && strncmp(l3, "0.125,", 6) == 0);
  free(text);
  /* Discarded: nothing appears. */
  const char *p2 = scratch("discarded.csv");
  w = lk_trajectory_writer_open(p2, m, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(w);
  lk_trajectory_writer_add(w, d, &e);
  lk_trajectory_writer_discard(w);
  CU_ASSERT_FALSE(file_exists(p2));
  LK_ASSERT_INT_EQ(scratch_entries(), before + 1);
  /* A directory that does not exist: an error, not a crash. */
  w = lk_trajectory_writer_open(scratch("no/such/dir.csv"), m, &e);
  CU_ASSERT_PTR_NULL(w);
  LK_ASSERT_INT_EQ(e.status, LK_IO_ERROR);
  unlink(p);
  lk_data_free(d);
  lk_model_free(m);
}

static void test_contact_csv(void) {
  const char *p = scratch("contacts.csv");
  lk_error e;
  lk_contact_writer *w = lk_contact_writer_open(p, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(w);
  lk_contact_row r = {.t = 0.5, .link = "cube", .position = {1, 2, 3}, .normal = {0, 0, 1},
                      .fn = 9.81, .ft = 0.5, .state = "static", .utilization = 0.25};
  LK_ASSERT_OK(lk_contact_writer_add(w, &r, &e), &e);
  LK_ASSERT_INT_EQ(lk_contact_writer_rows(w), 1);
  LK_ASSERT_OK(lk_contact_writer_close(w, &e), &e);
  char *text = slurp(p, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  CU_ASSERT_STRING_EQUAL(text,
                         "t,link,other,x,y,z,nx,ny,nz,fn,ft,slip,state,utilization,depth,geom,"
                         "other_geom\n"
                         "0.5,cube,world,1,2,3,0,0,1,9.81,0.5,0,static,0.25,0,,\n");
  free(text);
  unlink(p);
}

static int count(const char *hay, const char *needle);

/* Contact rows from a data's contacts after a real step: a box sliding at
 * 0.3 m/s on a plane, materials mixed by min (mu_s 0.2, mu_d 0.15). One
 * step of friction mu_d g slows it to 0.3 - 0.15 * 9.81 * 0.001 m/s; the
 * normal forces carry the weight; each loaded contact slides with
 * f_t = mu_d f_n, so its utilization is mu_d / mu_s = 0.75. */
static void test_contact_rows_from_a_data(void) {
  lk_error e;
  lk_model *m = load_text(
      "options: {timestep: 0.001, friction_mix: min}\n"
      "materials:\n  - {name: floor, mu_static: 0.8, mu_dynamic: 0.6}\n"
      "  - {name: crate, mu_static: 0.2, mu_dynamic: 0.15}\n"
      "world: {geoms: [{type: plane, material: floor}]}\n"
      "links:\n  - {name: box, joint: free, mass: 1,\n"
      "     geoms: [{type: box, half_extents: [0.1, 0.1, 0.1], material: crate}]}\n"
      "initial: [{joint: box, q: [0, 0, 0.1, 1, 0, 0, 0], v: [0.3, 0, 0, 0, 0, 0]}]\n",
      &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  lk_data *d = lk_data_new(m);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  LK_ASSERT_OK(lk_step(m, d), NULL);
  LK_ASSERT_INT_EQ(lk_data_ncontacts(d), 4); /* a face on a plane */
  double fn = 0;
  for (int i = 0; i < 4; i++) {
    lk_contact_row r;
    LK_ASSERT_OK(lk_contact_row_of(m, d, i, &r), NULL);
    CU_ASSERT_STRING_EQUAL(r.link, "box");
    CU_ASSERT_STRING_EQUAL(r.other, "world");
    LK_ASSERT_NEAR(r.normal.z, 1, 1e-12);
    LK_ASSERT_NEAR(r.slip, 0.3 - 0.15 * 9.81 * 0.001, 1e-9);
    fn += r.fn;
    if (r.fn > 1e-6) {
      CU_ASSERT_STRING_EQUAL(r.state, "dynamic");
      LK_ASSERT_REL(r.ft, 0.15 * r.fn, 1e-9, 0);
      LK_ASSERT_NEAR(r.utilization, 0.75, 1e-9);
    }
  }
  LK_ASSERT_REL(fn, 9.81, 1e-9, 0);
  lk_contact_row r;
  LK_ASSERT_INT_EQ(lk_contact_row_of(m, d, 4, &r), LK_INVALID_ARGUMENT);
  const char *p = scratch("rows.csv");
  lk_contact_writer *w = lk_contact_writer_open(p, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(w);
  double depth = -1;
  LK_ASSERT_OK(lk_contact_writer_add_data(w, m, d, &depth, &e), &e);
  LK_ASSERT_INT_EQ(lk_contact_writer_rows(w), 4);
  LK_ASSERT_NEAR(depth, 0, 1e-6); /* resting on the surface */
  LK_ASSERT_OK(lk_contact_writer_close(w, &e), &e);
  char *text = slurp(p, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  CU_ASSERT_EQUAL(count(text, ",box,world,"), 4);
  free(text);
  unlink(p);
  lk_data_free(d);
  lk_model_free(m);
}

static int count(const char *hay, const char *needle) {
  int n = 0;
  for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
  return n;
}

static void test_svg_plot(void) {
  enum { N = 101 };
  double t[N], a[N], b[N];
  for (int i = 0; i < N; i++) {
    t[i] = 0.01 * i;
    a[i] = sin(6.0 * t[i]);
    b[i] = i == 50 ? NAN : 0.5 * t[i]; /* a gap in the middle */
  }
  const double *y[] = {a, b};
  const char *names[] = {"hinge.q", "x<&>y"};
  lk_plot_options o;
  lk_plot_options_default(&o);
  o.title = "pendulum";
  const char *p = scratch("plot.svg");
  lk_error e;
  LK_ASSERT_OK(lk_plot_svg(p, &o, t, N, y, names, 2, &e), &e);
  char *svg = slurp(p, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
  CU_ASSERT_TRUE(strncmp(svg, "<?xml", 5) == 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
  CU_ASSERT_PTR_NOT_NULL(strstr(svg, "</svg>\n"));
  LK_ASSERT_INT_EQ(count(svg, "<polyline"), 3); /* one series, one broken in two */
  CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">hinge.q</text>"));
  CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">x&lt;&amp;&gt;y</text>"));
  CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">pendulum</text>"));
  CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">t (s)</text>"));
  /* Ticks on round numbers: y spans [-1, 1] in steps of 0.2 (about six
   * ticks), t spans [0, 1] in steps of 0.1, written without rounding noise
   * (0.30000000000000004). */
  CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">-1.0</text>"));
  CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">0.4</text>"));
  CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">1.0</text>"));
  CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">0.3</text>"));
  CU_ASSERT_PTR_NULL(strstr(svg, "0000001"));
  LK_ASSERT_INT_EQ(count(svg, "<script"), 0);
  LK_ASSERT_INT_EQ(count(svg, "href"), 0); /* self-contained */
  free(svg);
  /* A million samples are thinned to what 800 pixels can show. */
  enum { BIG = 1000000 };
  double *bt = malloc(BIG * sizeof *bt), *by = malloc(BIG * sizeof *by);
  CU_ASSERT_PTR_NOT_NULL_FATAL(bt);
  CU_ASSERT_PTR_NOT_NULL_FATAL(by);
  for (int i = 0; i < BIG; i++) {
    bt[i] = i * 1e-6;
    by[i] = i == 654321 ? 100.0 : sin(bt[i] * 20);
  }
  const double *ys[] = {by};
  const char *bn[] = {"spike"};
  LK_ASSERT_OK(lk_plot_svg(p, NULL, bt, BIG, ys, bn, 1, &e), &e);
  size_t len;
  svg = slurp(p, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
  LK_ASSERT_MSG(len < 200000, "%zu bytes", len);
  /* The single-sample spike survives thinning: the y axis reaches 100. */
  CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">100</text>"));
  free(svg);
  free(bt);
  free(by);
  LK_ASSERT_INT_EQ(lk_plot_svg(p, NULL, t, 0, y, names, 2, &e), LK_INVALID_ARGUMENT);
  unlink(p);
}

/* -------------------------------------------- loading into a model */

/* A small "hand": a palm on the file's world with a sliding finger, its own
 * material and a floor; and an "object" file with a free body, a material
 * named "default" and an explicit contact on the world. */
static const char kHandText[] =
    "name: hand\n"
    "options: {timestep: 0.002}\n"
    "materials: [{name: rubber, mu: 0.9}]\n"
    "world:\n  geoms: [{name: floor, type: plane, normal: [0, 0, 1]}]\n"
    "links:\n"
    "  - name: palm\n    origin: {xyz: [0, 0, 0.3]}\n    joint: fixed\n"
    "    geoms: [{name: palm_box, type: box, half_extents: [0.02, 0.05, 0.01]}]\n"
    "  - name: finger\n    parent: palm\n    origin: {xyz: [0, 0.04, -0.04]}\n"
    "    joint: {name: slide, type: prismatic, axis: [0, -1, 0], limit: [0, 0.04]}\n"
    "    mass: 0.05\n"
    "    geoms: [{type: box, half_extents: [0.01, 0.005, 0.02], material: rubber}]\n"
    "actuators: [{joint: slide, type: position, kp: 100, kv: 1}]\n"
    "supports: [{name: brake, link: finger, normal: [1, 0, 0], normal_force: 0.5}]\n"
    "initial: [{joint: slide, q: 0.01}]\n";

static const char kObjectText[] =
    "name: object\n"
    "materials: [{name: default, mu: 0.2}, {name: wood, mu: 0.4}]\n"
    "links:\n"
    "  - name: body\n    joint: free\n    mass: 0.1\n"
    "    geoms:\n"
    "      - {type: box, half_extents: [0.02, 0.02, 0.02]}\n"
    "      - {type: sphere, radius: 0.01, origin: {xyz: [0, 0, 0.03]}, material: wood}\n"
    "contacts:\n"
    "  - {name: foot, link: body, point: [0, 0, -0.02], other_point: [0, 0, 0], normal: [0, 0, 1]}\n"
    "constraints:\n"
    "  tethers: [{name: leash, link: body, other_point: [0.5, 0, 0], length: 2}]\n"
    "  loops: [{name: pin, type: ball, link_a: body, frame_b: {xyz: [0, 0.5, 0]}}]\n"
    "initial: [{joint: body, q: [0.1, 0, 0.02, 1, 0, 0, 0]}]\n";

static lk_status into(lk_model *m, const char *text, const lk_merge_options *mo, lk_error *e) {
  return lk_model_load_string_into(m, text, strlen(text), "into.yaml", NULL, mo, e);
}

static void test_into_prefixes_and_places(void) {
  lk_error e;
  lk_model *m = lk_model_new();
  /* A mount the hand hangs from, turned a quarter turn about z. */
  lk_link_spec mount;
  lk_link_spec_default(&mount);
  mount.name = "mount";
  mount.joint.type = LK_JOINT_FREE;
  mount.mass = 1;
  mount.inertia = lk_m3_diag(0.01, 0.01, 0.01);
  LK_ASSERT_OK(lk_model_add_link(m, &mount, &e), &e);
  lk_merge_options mo;
  lk_merge_options_default(&mo);
  mo.prefix = "hand_";
  mo.parent = "mount";
  lk_mat3 Rz = lk_m3_from_axis_angle(lk_v3(0, 0, 1), LK_PI / 2);
  mo.pose = lk_tf(&Rz, lk_v3(1, 2, 3));
  mo.world_geoms = 0;
  LK_ASSERT_OK(into(m, kHandText, &mo, &e), &e);
  lk_merge_options_default(&mo);
  mo.prefix = "obj_";
  mo.pose.p = lk_v3(0, 0, 1);
  LK_ASSERT_OK(into(m, kObjectText, &mo, &e), &e);
  LK_ASSERT_OK(lk_model_finalize(m, &e), &e);

  /* Names: every element prefixed; nothing of the files unprefixed. */
  CU_ASSERT_TRUE(lk_model_link_index(m, "hand_palm") > 0);
  CU_ASSERT_TRUE(lk_model_link_index(m, "hand_finger") > 0);
  CU_ASSERT_TRUE(lk_model_joint_index(m, "hand_slide") > 0);
  CU_ASSERT_TRUE(lk_model_link_index(m, "obj_body") > 0);
  CU_ASSERT_EQUAL(lk_model_link_index(m, "palm"), -1);
  CU_ASSERT_TRUE(lk_model_geom_index(m, "hand_palm_box") >= 0);
  CU_ASSERT_EQUAL(lk_model_geom_index(m, "hand_floor"), -1); /* world geoms left out */
  CU_ASSERT_EQUAL(lk_model_geom_index(m, "floor"), -1);
  CU_ASSERT_TRUE(lk_model_material_index(m, "hand_rubber") > 0);
  CU_ASSERT_TRUE(lk_model_material_index(m, "obj_wood") > 0);
  CU_ASSERT_TRUE(lk_model_actuator_index(m, "hand_slide") >= 0);
  LK_ASSERT_INT_EQ(lk_model_ngeom(m), 4);
  /* The model's options are the builder's, not the hand file's. */
  LK_ASSERT_NEAR(lk_model_options(m)->timestep, 0.001, 0);

  /* The palm hangs from the mount at pose * (file origin). */
  int palm = lk_model_link_index(m, "hand_palm");
  LK_ASSERT_INT_EQ(lk_model_link_parent(m, palm), lk_model_link_index(m, "mount"));
  lk_link_spec ls;
  LK_ASSERT_OK(lk_model_link(m, palm, &ls), NULL);
  LK_ASSERT_NEAR(ls.origin.p.x, 1, 1e-15);
  LK_ASSERT_NEAR(ls.origin.p.y, 2, 1e-15);
  LK_ASSERT_NEAR(ls.origin.p.z, 3.3, 1e-15);
  LK_ASSERT_NEAR(ls.origin.R.m[1][0], 1, 1e-15); /* x axis turned onto y */
  /* A support on the finger: prefixed, its world normal turned with the
   * hand. */
  LK_ASSERT_INT_EQ(lk_model_nsupport(m), 1);
  lk_support_spec sp;
  LK_ASSERT_OK(lk_model_support(m, 0, &sp), NULL);
  CU_ASSERT_STRING_EQUAL(sp.name, "hand_brake");
  CU_ASSERT_STRING_EQUAL(sp.link, "hand_finger");
  LK_ASSERT_NEAR(sp.normal.y, 1, 1e-15);
  /* Children keep their origins relative to their (prefixed) parent. */
  LK_ASSERT_OK(lk_model_link(m, lk_model_link_index(m, "hand_finger"), &ls), NULL);
  LK_ASSERT_NEAR(ls.origin.p.y, 0.04, 1e-15);
  CU_ASSERT_STRING_EQUAL(ls.parent, "hand_palm");

  /* Materials: the object's own "default" is its geoms' material, and the
   * model's default material is untouched. */
  int g0 = -1, g1 = -1;
  for (int g = 0; g < lk_model_ngeom(m); g++)
    if (lk_model_geom_link(m, g) == lk_model_link_index(m, "obj_body")) {
      if (g0 < 0) g0 = g; else g1 = g;
    }
  CU_ASSERT_FATAL(g0 >= 0 && g1 >= 0);
  lk_material_spec ms;
  LK_ASSERT_OK(lk_model_material(m, lk_model_geom_material(m, g0), &ms), NULL);
  CU_ASSERT_STRING_EQUAL(ms.name, "obj_default");
  LK_ASSERT_NEAR(ms.mu_static, 0.2, 0);
  LK_ASSERT_OK(lk_model_material(m, lk_model_geom_material(m, g1), &ms), NULL);
  CU_ASSERT_STRING_EQUAL(ms.name, "obj_wood");
  LK_ASSERT_OK(lk_model_material(m, 0, &ms), NULL);
  LK_ASSERT_NEAR(ms.mu_static, 0.5, 0);

  /* The object's explicit contact on its world: on the world, its point
   * moved by the pose; it uses the object's default material too. */
  LK_ASSERT_INT_EQ(lk_model_ncontact(m), 1);
  lk_contact_spec cs;
  LK_ASSERT_OK(lk_model_contact(m, 0, &cs), NULL);
  CU_ASSERT_STRING_EQUAL(cs.name, "obj_foot");
  CU_ASSERT_STRING_EQUAL(cs.link, "obj_body");
  LK_ASSERT_NEAR(cs.other_point.z, 1, 1e-15);
  CU_ASSERT_STRING_EQUAL(cs.material, "obj_default");
  /* So do a tether and a loop that name the world. */
  lk_tether_spec ts;
  LK_ASSERT_OK(lk_model_tether(m, 0, &ts), NULL);
  CU_ASSERT_STRING_EQUAL(ts.name, "obj_leash");
  LK_ASSERT_NEAR(ts.other_point.x, 0.5, 1e-15);
  LK_ASSERT_NEAR(ts.other_point.z, 1, 1e-15);
  lk_loop_spec lp;
  LK_ASSERT_OK(lk_model_loop(m, 0, &lp), NULL);
  CU_ASSERT_STRING_EQUAL(lp.link_a, "obj_body");
  LK_ASSERT_NEAR(lp.frame_b.p.y, 0.5, 1e-15);
  LK_ASSERT_NEAR(lp.frame_b.p.z, 1, 1e-15);

  /* Initial states reach the prefixed joints: the finger at 0.01, the body
   * at its file position, on the world frame moved up by 1. */
  double q[32], v[32];
  CU_ASSERT_FATAL(lk_model_nq(m) <= 32);
  lk_model_initial_state(m, q, v);
  LK_ASSERT_NEAR(q[lk_model_joint_qadr(m, lk_model_joint_index(m, "hand_slide"))], 0.01, 0);
  lk_data *d = lk_data_new(m);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  LK_ASSERT_OK(lk_forward_kinematics(m, d), NULL);
  const lk_transform *X = lk_data_link_pose(d, lk_model_link_index(m, "obj_body"));
  LK_ASSERT_NEAR(X->p.x, 0.1, 1e-15);
  LK_ASSERT_NEAR(X->p.z, 1.02, 1e-15);
  lk_data_free(d);
  lk_model_free(m);
}

/* With an identity placement, the file's options and name, loading into an
 * empty model and finalizing gives the model lk_model_load_string() gives:
 * the same layout and, stepped, bit-identical states. */
static void test_into_identity_is_an_ordinary_load(void) {
  lk_error e;
  const char *path = lk_test_srcpath("mechanisms/gripper.yaml");
  lk_model *a = lk_model_load_file(path, NULL, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(a);
  lk_model *b = lk_model_new();
  lk_merge_options mo;
  lk_merge_options_default(&mo);
  mo.options = 1;
  mo.name = 1;
  LK_ASSERT_OK(lk_model_load_file_into(b, path, NULL, &mo, &e), &e);
  LK_ASSERT_OK(lk_model_finalize(b, &e), &e);
  CU_ASSERT_STRING_EQUAL(lk_model_name(a), lk_model_name(b));
  LK_ASSERT_INT_EQ(lk_model_nq(a), lk_model_nq(b));
  LK_ASSERT_INT_EQ(lk_model_ngeom(a), lk_model_ngeom(b));
  LK_ASSERT_INT_EQ(lk_model_nactuator(a), lk_model_nactuator(b));
  LK_ASSERT_NEAR(lk_model_options(a)->timestep, lk_model_options(b)->timestep, 0);
  lk_data *da = lk_data_new(a), *db = lk_data_new(b);
  CU_ASSERT_FATAL(da && db);
  for (int i = 0; i < 300; i++) {
    LK_ASSERT_OK(lk_step(a, da), NULL);
    LK_ASSERT_OK(lk_step(b, db), NULL);
  }
  CU_ASSERT_EQUAL(memcmp(lk_data_q(da), lk_data_q(db), sizeof(double) * (size_t)lk_model_nq(a)), 0);
  lk_data_free(da);
  lk_data_free(db);
  lk_model_free(a);
  lk_model_free(b);
}

static void test_into_twice_needs_prefixes(void) {
  lk_error e;
  /* Two copies under different prefixes: fine. */
  lk_model *m = lk_model_new();
  lk_merge_options mo;
  lk_merge_options_default(&mo);
  mo.prefix = "a_";
  LK_ASSERT_OK(into(m, kObjectText, &mo, &e), &e);
  mo.prefix = "b_";
  LK_ASSERT_OK(into(m, kObjectText, &mo, &e), &e);
  LK_ASSERT_OK(lk_model_finalize(m, &e), &e);
  LK_ASSERT_INT_EQ(lk_model_nlink(m), 3);
  lk_model_free(m);
  /* Without: finalize names the clash. */
  m = lk_model_new();
  LK_ASSERT_OK(into(m, kObjectText, NULL, &e), &e);
  LK_ASSERT_OK(into(m, kObjectText, NULL, &e), &e);
  CU_ASSERT_NOT_EQUAL(lk_model_finalize(m, &e), LK_OK);
  LK_ASSERT_MSG(strstr(e.message, "body") != NULL, "%s", e.message);
  lk_model_free(m);
}

static void test_into_errors(void) {
  lk_error e;
  lk_merge_options mo;
  lk_merge_options_default(&mo);
  lk_model *m = lk_model_new();
  /* A file mistake keeps its position. */
  const char bad[] = "links:\n  - name: b\n    joint: free\n    mass: -1\n";
  LK_ASSERT_INT_EQ(lk_model_load_string_into(m, bad, strlen(bad), "bad.yaml", NULL, &mo, &e),
                   LK_SCHEMA_ERROR);
  LK_ASSERT_INT_EQ(e.line, 4);
  CU_ASSERT_STRING_EQUAL(e.path, "bad.yaml");
  lk_model_free(m);
  m = lk_model_new();
  mo.prefix = "a.b";
  LK_ASSERT_INT_EQ(into(m, kObjectText, &mo, &e), LK_INVALID_ARGUMENT);
  mo.prefix = NULL;
  mo.pose.R = lk_m3_diag(1, 1, -1);
  LK_ASSERT_INT_EQ(into(m, kObjectText, &mo, &e), LK_INVALID_ARGUMENT);
  mo.pose.R = lk_m3_identity();
  mo.pose.p.x = NAN;
  LK_ASSERT_INT_EQ(into(m, kObjectText, &mo, &e), LK_NON_FINITE);
  mo.pose.p.x = 0;
  LK_ASSERT_OK(into(m, kObjectText, &mo, &e), &e);
  LK_ASSERT_OK(lk_model_finalize(m, &e), &e);
  LK_ASSERT_INT_EQ(lk_model_nlink(m), 2); /* the refused loads added nothing */
  LK_ASSERT_INT_EQ(into(m, kObjectText, &mo, &e), LK_INVALID_MODEL);
  LK_ASSERT_INT_EQ(lk_model_load_string_into(NULL, "x", 1, NULL, NULL, NULL, &e),
                   LK_INVALID_ARGUMENT);
  LK_ASSERT_INT_EQ(lk_model_load_file_into(m, NULL, NULL, NULL, &e), LK_INVALID_ARGUMENT);
  lk_model_free(m);
}

void lk_test_register(void) {
  static const lk_test corpus[] = {
      {"each broken file gives its message and position", test_corpus_each_file_gives_its_message_and_position},
      {"the manifest covers every file", test_corpus_manifest_covers_every_file},
      {"a 10 MB name", test_ten_megabyte_name},
      {"a 10 MB file with a late error", test_ten_megabyte_file_with_late_error},
      {"very deep nesting", test_very_deep_nesting},
      {"size limit and unreadable files", test_size_limit_and_unreadable_files},
      {NULL, NULL}};
  static const lk_test examples[] = {
      {"every example loads and validates", test_every_example_loads_and_validates},
      {"every example runs its simulate.duration", test_every_example_runs_its_duration},
      {"every example runs one second", test_every_example_runs_one_second},
      {NULL, NULL}};
  static const lk_test loader[] = {
      {"initial overlaps allowed", test_initial_overlaps_allowed},
      {"inertia from a box", test_inertia_from_a_box_geom},
      {"inertia from two spheres", test_inertia_from_two_spheres_splits_mass_by_volume},
      {"rotated cylinder inertia", test_rotated_cylinder_inertia},
      {"plane normal/point and quat origins", test_plane_normal_point_and_quat_origins},
      {"defaults and shorthands", test_defaults_and_shorthands},
      {"every section reaches the model", test_every_section_reaches_the_model},
      {"run settings and empty sections", test_run_settings_and_empty_sections},
      {"a buffer without terminator", test_load_from_a_buffer_without_terminator},
      {"aliases share geoms", test_aliases_share_geoms},
      {"finalize errors point at the element", test_finalize_errors_point_at_the_element},
      {"edit distance and suggestions", test_edit_distance_and_suggestions},
      {NULL, NULL}};
  static const lk_test overrides[] = {
      {"overrides change values by path", test_overrides_change_values_by_path},
      {"overrides create missing keys", test_overrides_create_missing_keys_and_sections},
      {"override errors", test_override_errors},
      {NULL, NULL}};
  static const lk_test writers[] = {
      {"trajectory columns", test_trajectory_columns},
      {"trajectory file is complete or absent", test_trajectory_file_is_complete_or_absent},
      {"contact CSV", test_contact_csv},
      {"contact rows from a data", test_contact_rows_from_a_data},
      {"SVG plot", test_svg_plot},
      {NULL, NULL}};
  lk_test_suite("io corpus", corpus);
  lk_test_suite("io examples", examples);
  lk_test_suite("io loader", loader);
  lk_test_suite("io overrides", overrides);
  lk_test_suite("io writers", writers);
  static const lk_test compose[] = {
      {"into: prefixes names and places the file's world", test_into_prefixes_and_places},
      {"into: identity placement is an ordinary load", test_into_identity_is_an_ordinary_load},
      {"into: the same file twice needs prefixes", test_into_twice_needs_prefixes},
      {"into: errors", test_into_errors},
      {NULL, NULL}};
  lk_test_suite("io compose", compose);
  atexit(remove_scratch);
}
