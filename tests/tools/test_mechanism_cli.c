/* The linkage program's mechanism commands (simulate, check, info), run as
 * a user runs them: exit codes, messages, the CSV it writes, --set and
 * --every, the plot, and the broken-file corpus through `linkage check`. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "proc.h"

/* ---------------------------------------------------------- the basics */

static void test_help_usage_and_unknown_commands(void) {
  lk_test_result r = lk_test_run(LK_TEST_LINKAGE, (const char *[]){"--help", NULL});
  LK_ASSERT_INT_EQ(r.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "simulate"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "check"));
  lk_test_result_free(&r);
  r = lk_test_run(LK_TEST_LINKAGE, (const char *[]){NULL});
  LK_ASSERT_INT_EQ(r.status, 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "usage: linkage COMMAND"));
  lk_test_result_free(&r);
  r = lk_test_run(LK_TEST_LINKAGE, (const char *[]){"simualte", NULL});
  LK_ASSERT_INT_EQ(r.status, 2);
  LK_ASSERT_MSG(strstr(r.err, "unknown command 'simualte' (did you mean 'simulate'?)"), "%s", r.err);
  lk_test_result_free(&r);
  static const char *const cmds[] = {"simulate", "check", "info"};
  for (int i = 0; i < 3; i++) {
    r = lk_test_run(LK_TEST_LINKAGE, (const char *[]){cmds[i], "--help", NULL});
    LK_ASSERT_INT_EQ(r.status, 0);
    char want[64];
    snprintf(want, sizeof want, "usage: linkage %s", cmds[i]);
    LK_ASSERT_MSG(strstr(r.out, want), "%s --help: %s", cmds[i], r.out);
    lk_test_result_free(&r);
    r = lk_test_run(LK_TEST_LINKAGE, (const char *[]){cmds[i], NULL}); /* no file */
    LK_ASSERT_INT_EQ(r.status, 2);
    LK_ASSERT_MSG(strstr(r.err, "no mechanism file given"), "%s", r.err);
    lk_test_result_free(&r);
  }
}

static void test_usage_errors_exit_2(void) {
  const char *p = lk_test_mechanism("pendulum");
  struct {
    const char *args[6];
    const char *fragment;
  } cases[] = {
      {{"simulate", p, "--every", "0", NULL}, "--every '0': expected an integer >= 1"},
      {{"simulate", p, "--every", "2x", NULL}, "--every '2x'"},
      {{"simulate", p, "--duration", "-1", NULL}, "--duration '-1'"},
      {{"simulate", p, "--duration", "nan", NULL}, "--duration 'nan'"},
      {{"simulate", p, "--evry", "2", NULL}, "unknown option '--evry' (did you mean '--every'?)"},
      {{"simulate", p, "--every", NULL}, "option '--every' needs a value"},
      {{"simulate", p, "-x", NULL}, "unknown option '-x'"},
      {{"simulate", p, p, NULL}, "one mechanism file at a time"},
      {{"simulate", p, "--plot-columns", "hinge.q", NULL}, "--plot-columns needs --plot"},
      {{"check", "--sett", "a=1", p, NULL}, "did you mean '--set'?"},
      {{"info", p, p, NULL}, "one mechanism file at a time"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    lk_test_result r = lk_test_run(LK_TEST_LINKAGE, cases[i].args);
    LK_ASSERT_MSG(r.status == 2, "case %zu: exit %d (%s)", i, r.status, r.err);
    LK_ASSERT_MSG(strstr(r.err, cases[i].fragment), "case %zu: '%s' lacks '%s'", i, r.err,
                  cases[i].fragment);
    LK_ASSERT_MSG(r.out[0] == '\0', "case %zu wrote to stdout: %s", i, r.out);
    lk_test_result_free(&r);
  }
}

/* Every broken file: exit 2, "FILE:LINE:COLUMN: error: ..." on stderr with
 * the expected fragment, nothing on stdout, never a crash. */
static void test_check_rejects_every_broken_file(void) {
  char *manifest = lk_test_slurp(lk_test_data("io/MANIFEST"), NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(manifest);
  int n = 0;
  for (char *s1, *ln = strtok_r(manifest, "\n", &s1); ln; ln = strtok_r(NULL, "\n", &s1)) {
    if (ln[0] == '#') continue;
    char *f[5];
    int k = 0;
    for (char *s2, *t = strtok_r(ln, "\t", &s2); t && k < 5; t = strtok_r(NULL, "\t", &s2)) f[k++] = t;
    if (k != 5) continue;
    char rel[256], path[4096], where[4200];
    snprintf(rel, sizeof rel, "io/%s", f[0]);
    snprintf(path, sizeof path, "%s", lk_test_data(rel));
    if (atoi(f[2]) > 0 && atoi(f[3]) == 0) /* XML: lines without columns */
      snprintf(where, sizeof where, "%s:%s: error: ", path, f[2]);
    else if (atoi(f[2]) > 0)
      snprintf(where, sizeof where, "%s:%s:%s: error: ", path, f[2], f[3]);
    else
      snprintf(where, sizeof where, "%s: error: ", path);
    lk_test_result r = lk_test_run(LK_TEST_LINKAGE, (const char *[]){"check", path, NULL});
    LK_ASSERT_MSG(r.status == 2, "%s: exit %d", f[0], r.status);
    LK_ASSERT_MSG(strncmp(r.err, where, strlen(where)) == 0, "%s: stderr '%s' does not start '%s'",
                  f[0], r.err, where);
    LK_ASSERT_MSG(strstr(r.err, f[4]), "%s: '%s' lacks '%s'", f[0], r.err, f[4]);
    LK_ASSERT_MSG(lk_test_lines(r.err) == 1 && r.out[0] == '\0', "%s: one line on stderr only",
                  f[0]);
    lk_test_result_free(&r);
    n++;
  }
  free(manifest);
  LK_ASSERT_MSG(n >= 40, "%d corpus files", n);
  /* A missing file is a bad file too. */
  lk_test_result r = lk_test_run(LK_TEST_LINKAGE,
                                 (const char *[]){"check", lk_test_scratch("nothing.yaml"), NULL});
  LK_ASSERT_INT_EQ(r.status, 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "cannot open the file"));
  lk_test_result_free(&r);
  /* Several files: all checked, the status is the worst. */
  r = lk_test_run(LK_TEST_LINKAGE, (const char *[]){"check", lk_test_mechanism("pendulum"),
                                                    lk_test_data("io/negative_mass.yaml"),
                                                    lk_test_mechanism("arm7"), NULL});
  LK_ASSERT_INT_EQ(r.status, 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "pendulum.yaml: ok"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "arm7.yaml: ok"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "negative_mass.yaml:4:11: error:"));
  lk_test_result_free(&r);
}

static void test_check_and_info_summarize(void) {
  lk_test_result r =
      lk_test_run(LK_TEST_LINKAGE, (const char *[]){"check", lk_test_mechanism("arm7"), NULL});
  LK_ASSERT_INT_EQ(r.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "arm7.yaml: ok"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "links:      8 (and the world)"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "joints:     8 (7 revolute, 1 fixed)"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "nq, nv:     7, 7"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "geoms:      8"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "actuators:  7"));
  lk_test_result_free(&r);
  r = lk_test_run(LK_TEST_LINKAGE, (const char *[]){"check", lk_test_mechanism("rover"), NULL});
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "nq, nv:     11, 10"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "materials:  4 (default, rubber, concrete, steel)"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "contacts:   4 explicit"));
  lk_test_result_free(&r);
  r = lk_test_run(LK_TEST_LINKAGE, (const char *[]){"check", "--set", "options.timestep=0",
                                                    lk_test_mechanism("pendulum"), NULL});
  LK_ASSERT_INT_EQ(r.status, 2);
  LK_ASSERT_MSG(strstr(r.err, "in --set options.timestep=0: options: timestep must be positive"), "%s", r.err);
  lk_test_result_free(&r);
  r = lk_test_run(LK_TEST_LINKAGE,
                  (const char *[]){"info", lk_test_mechanism("double_pendulum"), NULL});
  LK_ASSERT_INT_EQ(r.status, 0);
  /* The tree: world, the upper bar below it, the lower bar below that. */
  LK_ASSERT_MSG(strstr(r.out, "world\n`-- upper  [revolute 'shoulder' axis (0, 1, 0)]"), "%s", r.out);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "    `-- lower  [revolute 'elbow'"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "double-pendulum: two hinged"));
  lk_test_result_free(&r);
  /* A URDF <visual> beside its <collision>: the second box is marked as
   * drawn only, not listed as another solid (issue 33). */
  r = lk_test_run(LK_TEST_LINKAGE,
                  (const char *[]){"info", lk_test_srcpath("mechanisms/jaw-gripper.urdf"), NULL});
  LK_ASSERT_INT_EQ(r.status, 0);
  LK_ASSERT_MSG(strstr(r.out, "|-- geom box half_extents=(0.03, 0.08, 0.015) at (0, 0, 0.015) material "
                              "default\n    |-- geom box half_extents=(0.03, 0.08, 0.015) at (0, 0, "
                              "0.015) visual only (collides with nothing)\n"),
                "%s", r.out);
  lk_test_result_free(&r);
}

/* ------------------------------------------------------------ simulate */

static void test_csv_header_and_initial_row(void) {
  const char *out = lk_test_scratch("p.csv");
  lk_test_result r =
      lk_test_run(LK_TEST_LINKAGE, (const char *[]){"simulate", lk_test_mechanism("pendulum"),
                                                    "--duration", "0", "--output", out, NULL});
  LK_ASSERT_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
  char *csv = lk_test_slurp(out, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
  /* The bob hangs from (0, 0, 1): at 1.0472 rad its frame is still the
   * joint's origin; the joint starts at 1.0472 rad at rest. */
  CU_ASSERT_STRING_EQUAL(csv, "t,bob.x,bob.y,bob.z,hinge.q,hinge.v\n0,0,0,1,1.0472,0\n");
  free(csv);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "1 rows x 6 columns"));
  lk_test_result_free(&r);
  /* Ball and free joints: component columns. */
  r = lk_test_run(
      NULL, (const char *[]){"simulate", lk_test_mechanism("ball_board"), "--duration", "0", NULL});
  LK_ASSERT_INT_EQ(r.status, 0);
  const char *hdr =
      "t,board.x,board.y,board.z,ball.x,ball.y,ball.z,board.q0,board.q1,board.q2,board.q3,"
      "board.q4,board.q5,board.q6,board.v0,board.v1,board.v2,board.v3,board.v4,board.v5,ball.q0,"
      "ball.q1,ball.q2,ball.q3,ball.q4,ball.q5,ball.q6,ball.v0,ball.v1,ball.v2,ball.v3,ball.v4,"
      "ball.v5\n";
  LK_ASSERT_MSG(strncmp(r.out, hdr, strlen(hdr)) == 0, "stdout: %s", r.out);
  LK_ASSERT_INT_EQ(lk_test_lines(r.out), 2);
  lk_test_result_free(&r);
}

static void test_contacts_file_has_its_header(void) {
  const char *c = lk_test_scratch("contacts.csv");
  lk_test_result r = lk_test_run(
      NULL, (const char *[]){"simulate", lk_test_mechanism("box_stack"), "--duration", "0",
                             "--output", lk_test_scratch("b.csv"), "--contacts", c, NULL});
  LK_ASSERT_INT_EQ(r.status, 0);
  char *csv = lk_test_slurp(c, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
  CU_ASSERT_TRUE(strncmp(csv, "t,link,other,x,y,z,nx,ny,nz,fn,ft,slip,state,utilization,depth,geom,other_geom\n",
                      79) == 0);
  free(csv);
  lk_test_result_free(&r);
  unlink(c);
  unlink(lk_test_scratch("b.csv"));
}

static void test_set_reaches_the_output(void) {
  lk_test_result r = lk_test_run(
      LK_TEST_LINKAGE,
      (const char *[]){"simulate", lk_test_mechanism("pendulum"), "--duration", "0", "--set",
                       "initial.hinge.q=0.5", "--set", "links.bob.origin.xyz=[0, 0, 2]", NULL});
  LK_ASSERT_INT_EQ(r.status, 0);
  LK_ASSERT_MSG(strstr(r.out, "\n0,0,0,2,0.5,0\n"), "%s", r.out);
  lk_test_result_free(&r);
  /* A bad override: exit 2, nothing written. */
  const char *out = lk_test_scratch("never.csv");
  r = lk_test_run(LK_TEST_LINKAGE,
                  (const char *[]){"simulate", lk_test_mechanism("pendulum"), "--output", out,
                                   "--set", "materials.stel.mu_static=1", NULL});
  LK_ASSERT_INT_EQ(r.status, 2);
  LK_ASSERT_MSG(strstr(r.err, "no item named 'stel' (did you mean 'steel'?)"), "%s", r.err);
  CU_ASSERT_FALSE(lk_test_exists(out));
  lk_test_result_free(&r);
}

static void test_plot(void) {
  const char *svg = lk_test_scratch("p.svg"), *out = lk_test_scratch("p2.csv");
  lk_test_result r =
      lk_test_run(LK_TEST_LINKAGE, (const char *[]){"simulate", lk_test_mechanism("pendulum"),
                                                    "--duration", "0", "--output", out, "--plot",
                                                    svg, "--plot-columns", "hinge.q,bob.z", NULL});
  LK_ASSERT_MSG(r.status == 0, "%s", r.err);
  char *s = lk_test_slurp(svg, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  CU_ASSERT_PTR_NOT_NULL(strstr(s, ">hinge.q</text>"));
  CU_ASSERT_PTR_NOT_NULL(strstr(s, ">bob.z</text>"));
  CU_ASSERT_PTR_NOT_NULL(strstr(s, ">pendulum</text>"));
  free(s);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "wrote "));
  lk_test_result_free(&r);
  unlink(svg);
  /* Unknown column: a usage error with a suggestion, no files. */
  r = lk_test_run(LK_TEST_LINKAGE,
                  (const char *[]){"simulate", lk_test_mechanism("pendulum"), "--output", out,
                                   "--plot", svg, "--plot-columns", "hinge.qq", NULL});
  LK_ASSERT_INT_EQ(r.status, 2);
  LK_ASSERT_MSG(strstr(r.err, "no column 'hinge.qq' (did you mean 'hinge.q'?)"), "%s", r.err);
  CU_ASSERT_FALSE(lk_test_exists(svg));
  lk_test_result_free(&r);
  unlink(out);
}

/* An output that cannot be written: exit 1, and nothing half-written. */
static void test_unwritable_output_exits_1(void) {
  lk_test_result r = lk_test_run(
      NULL, (const char *[]){"simulate", lk_test_mechanism("pendulum"), "--duration", "0",
                             "--output", lk_test_scratch("missing-dir/traj.csv"), NULL});
  LK_ASSERT_INT_EQ(r.status, 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "cannot create the output file"));
  lk_test_result_free(&r);
}

/* A step that fails (a velocity so large the state overflows; without the
 * dynamics work every step fails): exit 1, and neither the trajectory nor
 * the plot appears, and no temporary file stays behind. */
static void test_failed_run_leaves_no_files(void) {
  const char *out = lk_test_scratch("fail.csv"), *svg = lk_test_scratch("fail.svg");
  int before = lk_test_scratch_entries();
  lk_test_result r = lk_test_run(
      LK_TEST_LINKAGE,
      (const char *[]){"simulate", lk_test_mechanism("pendulum"), "--output", out, "--plot", svg,
                       "--set", "initial.hinge.v=1e308", NULL}); /* a timestep of 1e10 s is refused now (issue 18.9) */
  LK_ASSERT_MSG(r.status == 1, "exit %d: %s", r.status, r.err);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "failed"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "no output file was written"));
  CU_ASSERT_FALSE(lk_test_exists(out));
  CU_ASSERT_FALSE(lk_test_exists(svg));
  LK_ASSERT_INT_EQ(lk_test_scratch_entries(), before);
  lk_test_result_free(&r);
}

/* Rows: the initial state and every N-th of the duration / timestep steps. */
static void test_row_count_every_and_timestep(void) {
  struct {
    const char *duration, *every, *timestep;
    int rows;
  } cases[] = {
      {"0.1", "1", "0.001", 101}, {"0.1", "10", "0.001", 11}, {"0.1", "7", "0.001", 15},
      {"0.1", "10", "0.002", 6},  {"0.0995", "1", "0.001", 101},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char set[64];
    snprintf(set, sizeof set, "options.timestep=%s", cases[i].timestep);
    lk_test_result r = lk_test_run(
        NULL, (const char *[]){"simulate", lk_test_mechanism("double_pendulum"), "--duration",
                               cases[i].duration, "--every", cases[i].every, "--set", set, NULL});
    LK_ASSERT_MSG(r.status == 0, "case %zu: %s", i, r.err);
    LK_ASSERT_MSG(lk_test_lines(r.out) == cases[i].rows + 1,
                  "case %zu: %d lines, expected %d rows + header", i, lk_test_lines(r.out),
                  cases[i].rows);
    lk_test_result_free(&r);
  }
  /* The file's own simulate: section (5 s, every 10 at 0.5 ms: 1001 rows). */
  lk_test_result r = lk_test_run(
      LK_TEST_LINKAGE, (const char *[]){"simulate", lk_test_mechanism("double_pendulum"), NULL});
  LK_ASSERT_INT_EQ(r.status, 0);
  LK_ASSERT_INT_EQ(lk_test_lines(r.out), 1002);
  /* The last row is at t = 5 s (10 000 steps of 0.5 ms added up: to
   * rounding, which the exact number format shows). */
  char *last = r.out + strlen(r.out) - 1;
  while (last > r.out && last[-1] != '\n') last--;
  LK_ASSERT_NEAR(strtod(last, NULL), 5.0, 1e-9);
  lk_test_result_free(&r);
}

/* The pendulum swings: after a quarter period from 60 degrees it has
 * passed the bottom, the joint velocity is negative, energy is roughly
 * conserved (checked by the dynamics tests; here only that the CSV moves). */
static void test_simulated_values_change(void) {
  lk_test_result r =
      lk_test_run(LK_TEST_LINKAGE, (const char *[]){"simulate", lk_test_mechanism("pendulum"),
                                                    "--duration", "0.2", "--every", "200", NULL});
  LK_ASSERT_INT_EQ(r.status, 0);
  LK_ASSERT_INT_EQ(lk_test_lines(r.out), 3);
  char *row = strchr(strchr(r.out, '\n') + 1, '\n') + 1;
  double t, x, y, z, q, v;
  LK_ASSERT_INT_EQ(sscanf(row, "%lf,%lf,%lf,%lf,%lf,%lf", &t, &x, &y, &z, &q, &v), 6);
  LK_ASSERT_NEAR(t, 0.2, 1e-12);
  CU_ASSERT_TRUE(q < 1.0472 && v < 0);
  lk_test_result_free(&r);
}

/* ------------------------------------------ URDF load options (issue 29) */

/* Two sibling fingers overlapping by 10 mm with their joints at 0, and a
 * collision mesh whose file is not there. */
static const char *kFingers =
    "<robot name=\"fingers\">\n"
    "  <link name=\"palm\"/>\n"
    "  <joint name=\"ja\" type=\"continuous\"><parent link=\"palm\"/><child link=\"fa\"/>\n"
    "    <axis xyz=\"0 0 1\"/></joint>\n"
    "  <link name=\"fa\"><inertial><mass value=\"0.1\"/>\n"
    "    <inertia ixx=\"1e-4\" iyy=\"1e-4\" izz=\"1e-4\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>\n"
    "    <collision><geometry><box size=\"0.1 0.1 0.1\"/></geometry></collision></link>\n"
    "  <joint name=\"jb\" type=\"continuous\"><parent link=\"palm\"/><child link=\"fb\"/>\n"
    "    <origin xyz=\"0.09 0 0\"/><axis xyz=\"0 0 1\"/></joint>\n"
    "  <link name=\"fb\"><inertial><mass value=\"0.1\"/>\n"
    "    <inertia ixx=\"1e-4\" iyy=\"1e-4\" izz=\"1e-4\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>\n"
    "    <collision><geometry><box size=\"0.1 0.1 0.1\"/></geometry></collision>\n"
    "    <collision><geometry><mesh filename=\"not_there.stl\"/></geometry></collision></link>\n"
    "</robot>\n";

/* --strict-meshes: the missing mesh is an error at its line in check, info,
 * simulate, convert and grasp-planner; without it a warning. */
static void test_strict_meshes(void) {
  const char *f = lk_test_scratch("fingers.urdf");
  lk_test_write(f, kFingers);
  lk_test_result r = lk_test_run(LK_TEST_LINKAGE, (const char *[]){"check", f, NULL});
  LK_ASSERT_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
  LK_ASSERT_MSG(strstr(r.err, "warning") && strstr(r.err, "not_there.stl"), "%s", r.err);
  lk_test_result_free(&r);
  char where[4200];
  snprintf(where, sizeof where, "%s:13: error:", f);
  static const char *const cmds[] = {"check", "info", "simulate", "convert", "static", NULL};
  for (int i = 0; cmds[i]; i++) {
    r = lk_test_run(LK_TEST_LINKAGE, (const char *[]){cmds[i], "--strict-meshes", f, NULL});
    LK_ASSERT_MSG(r.status == 2, "%s: exit %d: %s", cmds[i], r.status, r.err);
    LK_ASSERT_MSG(strstr(r.err, where) && strstr(r.err, "not_there.stl"), "%s: %s", cmds[i],
                  r.err);
    lk_test_result_free(&r);
    r = lk_test_run(LK_TEST_LINKAGE, (const char *[]){cmds[i], "--help", NULL});
    LK_ASSERT_MSG(strstr(r.out, "--strict-meshes") && strstr(r.out, "--keep-rest-overlaps"),
                  "%s --help: %s", cmds[i], r.out);
    lk_test_result_free(&r);
  }
  r = lk_test_run(LK_TEST_LINKAGE, (const char *[]){"view", "--strict-meshes", f, "-o",
                                                    lk_test_scratch("fingers.html"), NULL});
  LK_ASSERT_MSG(r.status == 2 && strstr(r.err, where), "view: exit %d: %s", r.status, r.err);
  LK_ASSERT_INT_EQ(lk_test_exists(lk_test_scratch("fingers.html")), 0);
  lk_test_result_free(&r);
  r = lk_test_run(LK_TEST_PLANNER,
                  (const char *[]){"--hand", f, "--object", lk_test_mechanism("object_box"),
                                   "--strict-meshes", "--quiet", "-o",
                                   lk_test_scratch("fingers.csv"), NULL});
  LK_ASSERT_MSG(r.status == 2 && strstr(r.err, "not_there.stl"), "grasp-planner: exit %d: %s",
                r.status, r.err);
  lk_test_result_free(&r);
  r = lk_test_run(LK_TEST_PLANNER, (const char *[]){"--help", NULL});
  LK_ASSERT_MSG(strstr(r.out, "--strict-meshes") && strstr(r.out, "--keep-rest-overlaps"), "%s",
                r.out);
  lk_test_result_free(&r);
  unlink(f);
}

/* --keep-rest-overlaps: the overlapping fingers collide (contacts from the
 * first step, no exclusion in convert's YAML); by default they never do. */
static void test_keep_rest_overlaps(void) {
  const char *f = lk_test_scratch("fingers.urdf"), *c = lk_test_scratch("fingers_c.csv");
  lk_test_write(f, kFingers);
  int lines[2] = {0, 0};
  for (int keep = 0; keep < 2; keep++) {
    const char *args[] = {"simulate", f, "--duration", "0.01", "--output",
                          lk_test_scratch("fingers_s.csv"), "--contacts", c, "--quiet",
                          keep ? "--keep-rest-overlaps" : NULL, NULL};
    lk_test_result r = lk_test_run(LK_TEST_LINKAGE, args);
    LK_ASSERT_MSG(r.status == 0, "keep %d: exit %d: %s", keep, r.status, r.err);
    LK_ASSERT_INT_EQ(strstr(r.err, "never collide") != NULL, !keep);
    lk_test_result_free(&r);
    char *text = lk_test_slurp(c, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    lines[keep] = lk_test_lines(text);
    free(text);
    r = lk_test_run(LK_TEST_LINKAGE, (const char *[]){"convert", f,
                                                      keep ? "--keep-rest-overlaps" : NULL, NULL});
    LK_ASSERT_MSG(r.status == 0, "convert keep %d: exit %d: %s", keep, r.status, r.err);
    LK_ASSERT_MSG((strstr(r.out, "exclude:") != NULL) == !keep, "keep %d: %s", keep, r.out);
    lk_test_result_free(&r);
  }
  LK_ASSERT_MSG(lines[0] == 1 && lines[1] > 1, "contact rows: %d without, %d with", lines[0],
                lines[1]);
  unlink(f);
  unlink(c);
  unlink(lk_test_scratch("fingers_s.csv"));
}

void lk_test_register(void) {
  static const lk_test basics[] = {
      {"help, usage and unknown commands", test_help_usage_and_unknown_commands},
      {"usage errors exit 2", test_usage_errors_exit_2},
      {"check rejects every broken file", test_check_rejects_every_broken_file},
      {"check and info summarize", test_check_and_info_summarize},
      {NULL, NULL}};
  static const lk_test simulate[] = {
      {"CSV header and initial row", test_csv_header_and_initial_row},
      {"contacts file has its header", test_contacts_file_has_its_header},
      {"--set reaches the output", test_set_reaches_the_output},
      {"plot", test_plot},
      {"unwritable output exits 1", test_unwritable_output_exits_1},
      {"a failed run leaves no files", test_failed_run_leaves_no_files},
      {"row count, --every and the timestep", test_row_count_every_and_timestep},
      {"simulated values change", test_simulated_values_change},
      {NULL, NULL}};
  static const lk_test urdf[] = {{"--strict-meshes", test_strict_meshes},
                                 {"--keep-rest-overlaps", test_keep_rest_overlaps},
                                 {NULL, NULL}};
  lk_test_suite("linkage", basics);
  lk_test_suite("linkage URDF load options", urdf);
  lk_test_suite("linkage simulate", simulate);
}
