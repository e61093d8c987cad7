/* Physical plausibility (issue 18, item 9): parameters far outside what the
 * step can resolve are refused or warned about at finalize, and a step
 * whose state is clearly unphysical says so in its report; linkage check
 * and simulate show both. Thresholds: docs/format.md, "Physical
 * plausibility". */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "linkage/linkage.h"

static lk_model *load(const char *text, lk_error *err) {
  return lk_model_load_string(text, strlen(text), "t.yaml", NULL, err);
}

/* Loading text fails with a message containing want. */
static void expect_error(const char *text, const char *want) {
  lk_error err;
  lk_model *m = load(text, &err);
  LK_ASSERT_MSG(m == NULL, "expected an error containing '%s', the file loaded", want);
  if (m) {
    lk_model_free(m);
    return;
  }
  LK_ASSERT_MSG(strstr(err.message, want) != NULL, "message '%s' lacks '%s'", err.message, want);
  LK_ASSERT_MSG(err.line > 0 && err.column > 0, "error not located: '%s'", err.message);
}

/* Loading text succeeds; the number of warnings containing want is n. */
static lk_model *expect_warnings(const char *text, const char *want, int n) {
  lk_error err;
  lk_model *m = load(text, &err);
  LK_ASSERT_MSG(m != NULL, "expected the file to load: %s", err.message);
  if (!m) return NULL;
  int found = 0;
  for (int i = 0; i < lk_model_nwarnings(m); i++)
    found += strstr(lk_model_warning(m, i), want) != NULL;
  LK_ASSERT_MSG(found == n, "%d warnings with '%s', expected %d (first: '%s')", found, want, n,
                lk_model_nwarnings(m) ? lk_model_warning(m, 0) : "");
  return m;
}

/* A free box of half extents he and mass on the floor; inertia, options
 * text (may be ""). */
static const char *box_text(double mass, double he, const char *inertia, const char *options) {
  static char buf[1024];
  snprintf(buf, sizeof buf,
           "%s"
           "world:\n"
           "  geoms:\n"
           "    - {type: plane, normal: [0, 0, 1]}\n"
           "links:\n"
           "  - name: box\n"
           "    joint: {type: free}\n"
           "    mass: %.17g\n"
           "%s%s%s"
           "    geoms:\n"
           "      - {type: box, half_extents: [%.17g, %.17g, %.17g]}\n"
           "initial:\n"
           "  - {joint: box, q: [0, 0, %.17g, 1, 0, 0, 0]}\n",
           options, mass, *inertia ? "    inertia: " : "", inertia, *inertia ? "\n" : "", he, he,
           he, he);
  return buf;
}

/* ---------------------------------------------------------- inertia */

static void test_inertia_far_below_the_geoms(void) {
  /* The box: 1 kg, 0.2 m cube (uniform: 6.67e-3 kg m^2), 1e-16. */
  expect_error(box_text(1, 0.1, "[1e-16, 1e-16, 1e-16]", ""), "6.67e+13 times below");
  /* 2 kg, 0.1 m cube (uniform 3.33e-3), 1e-12. */
  expect_error(box_text(2, 0.05, "[1e-12, 1e-12, 1e-12]", ""), "3.33e+09 times below");
  /* Either side of the error threshold (1e6): 2e6 and 5e5 times below. */
  double J = 0.08 / 12; /* 1 kg, half extent 0.1 */
  char in[128];
  snprintf(in, sizeof in, "[%.17g, %.17g, %.17g]", J / 2e6, J / 2e6, J / 2e6);
  expect_error(box_text(1, 0.1, in, ""), "2e+06 times below");
  snprintf(in, sizeof in, "[%.17g, %.17g, %.17g]", J / 5e5, J / 5e5, J / 5e5);
  lk_model_free(expect_warnings(box_text(1, 0.1, in, ""), "5e+05 times below", 1));
  /* Either side of the warning threshold (1e2); one axis only counts. */
  snprintf(in, sizeof in, "[%.17g, %.17g, %.17g]", J, J, J / 150);
  lk_model_free(expect_warnings(box_text(1, 0.1, in, ""), "150 times below", 1));
  snprintf(in, sizeof in, "[%.17g, %.17g, %.17g]", J / 50, J / 50, J / 50);
  lk_model_free(expect_warnings(box_text(1, 0.1, in, ""), "times below", 0));
  /* A hollow shell (more than the solid) and the computed inertia. */
  snprintf(in, sizeof in, "[%.17g, %.17g, %.17g]", 3 * J, 3 * J, 3 * J);
  lk_model_free(expect_warnings(box_text(1, 0.1, in, ""), "times below", 0));
  lk_model *m = expect_warnings(box_text(1, 0.1, "", ""), "", 0);
  lk_model_free(m);
}

/* --------------------------------------------------------- timestep */

static void test_timestep_against_gravity(void) {
  /* The 1e9 s: g h^2 = 9.8e18 m against a 0.17 m box. */
  expect_error(box_text(1, 0.1, "", "options: {timestep: 1e9}\n"), "timestep 1e+09 s is far too large");
  /* 5 s: 245 m, over 100 times the box's reach (0.173 m): refused. */
  expect_error(box_text(1, 0.1, "", "options: {timestep: 5}\n"), "more than 100 times");
  /* 0.15 s: 0.22 m, more than the box's 0.1 m half extent: a warning. */
  lk_model_free(expect_warnings(box_text(1, 0.1, "", "options: {timestep: 0.15}\n"),
                                "timestep 0.15 s", 1));
  /* 0.05 s: 0.025 m, nothing said; without gravity 1e9 s is fine too. */
  lk_model_free(expect_warnings(box_text(1, 0.1, "", "options: {timestep: 0.05}\n"), "", 0));
  lk_model_free(expect_warnings(
      box_text(1, 0.1, "", "options: {timestep: 1e9, gravity: [0, 0, 0]}\n"), "", 0));
}

/* A finalized model's options changed through the API meet the errors
 * (not the warnings) too; a refused change leaves the options as they were. */
static void test_options_set_after_finalize(void) {
  lk_error err;
  lk_model *m = load(box_text(1, 0.1, "", ""), &err);
  LK_ASSERT_MSG(m != NULL, "%s", err.message);
  if (!m) return;
  int nw = lk_model_nwarnings(m);
  lk_options o = *lk_model_options(m);
  o.timestep = 1e9;
  LK_ASSERT_INT_EQ(lk_model_set_options(m, &o, &err), LK_INVALID_MODEL);
  LK_ASSERT_MSG(strstr(err.message, "timestep 1e+09 s is far too large"), "'%s'", err.message);
  LK_ASSERT_NEAR(lk_model_options(m)->timestep, 0.001, 0);
  o.timestep = 0.15; /* a warning at finalize: accepted, the list unchanged */
  LK_ASSERT_OK(lk_model_set_options(m, &o, &err), &err);
  LK_ASSERT_NEAR(lk_model_options(m)->timestep, 0.15, 0);
  LK_ASSERT_INT_EQ(lk_model_nwarnings(m), nw);
  lk_model_free(m);
}

/* ---------------------------------------------------------- springs */

/* A 1 kg ball on a prismatic joint along x (no gravity along it): its DoF
 * inertia is exactly the mass. */
static const char *slider_text(double k, double kp, double h) {
  static char buf[1024];
  char act[160] = "";
  if (kp > 0) snprintf(act, sizeof act, "actuators:\n  - {joint: s, type: position, kp: %.17g}\n", kp);
  snprintf(buf, sizeof buf,
           "options: {timestep: %.17g}\n"
           "links:\n"
           "  - name: slider\n"
           "    joint: {name: s, type: prismatic, axis: [1, 0, 0], stiffness: %.17g}\n"
           "    mass: 1\n"
           "    geoms:\n"
           "      - {type: sphere, radius: 0.05}\n"
           "%s"
           "initial:\n"
           "  - {joint: s, q: 0.01}\n",
           h, k, act);
  return buf;
}

/* k for a 1 kg spring of period T. */
static double k_of_period(double T) { return pow(2 * M_PI / T, 2); }

static void test_spring_periods(void) {
  /* The 1e308, and 1e12 (h^2 k / M = 1e6: a 1e6-fold growth a step). */
  expect_error(slider_text(1e308, 0, 1e-3), "stiffness 1e+308 or damping 0 overflows");
  expect_error(slider_text(1e306, 0, 1e-3), "stiffness 1e+306 is far too high");
  expect_error(slider_text(1e12, 0, 1e-3), "overflowing within 100 steps");
  /* A period of 1.5 steps is warned about (and unstable); 2 ms steps too. */
  lk_model_free(expect_warnings(slider_text(k_of_period(1.5e-3), 0, 1e-3), "1.5 timesteps", 1));
  lk_model_free(expect_warnings(slider_text(k_of_period(3e-3), 0, 2e-3), "1.5 timesteps", 1));
  lk_model_free(expect_warnings(slider_text(k_of_period(3.9e-3), 0, 1e-3), "3.9 timesteps", 1));
  /* Ten steps (and 4.1) are not. */
  lk_model_free(expect_warnings(slider_text(k_of_period(1e-2), 0, 1e-3), "", 0));
  lk_model_free(expect_warnings(slider_text(k_of_period(4.1e-3), 0, 1e-3), "", 0));
  /* A position servo of period 2 steps is warned about; 20 is not. */
  lk_model_free(expect_warnings(slider_text(0, k_of_period(2e-3), 1e-3), "servo period", 1));
  lk_model_free(expect_warnings(slider_text(0, k_of_period(2e-2), 1e-3), "", 0));
  expect_error(slider_text(0, 1e308, 1e-3), "kp 1e+308 or kv 0 overflows");
}

/* One step of the growth formula against the step itself: the spring of
 * period 1.5 h grows by |lambda| = 15.5 a step (a = (2 pi / 1.5)^2). */
static void test_spring_growth_is_the_steps(void) {
  lk_error err;
  lk_model *m = load(slider_text(k_of_period(1.5e-3), 0, 1e-3), &err);
  LK_ASSERT_MSG(m != NULL, "%s", err.message);
  if (!m) return;
  lk_data *d = lk_data_new(m);
  double a = pow(2 * M_PI / 1.5, 2);
  double lam = 0.5 * (fabs(2 - a) + sqrt((2 - a) * (2 - a) - 4));
  /* After many steps the dominant mode rules: q_{n+1} / q_n -> -lam. */
  double q0 = 0;
  for (int s = 0; s < 40; s++) {
    q0 = lk_data_q(d)[0];
    LK_ASSERT_OK(lk_step(m, d), NULL);
  }
  LK_ASSERT_REL(lk_data_q(d)[0] / q0, -lam, 1e-6, 0);
  lk_data_free(d);
  lk_model_free(m);
}

/* --------------------------------------------------------- contacts */

static const char *compliant_text2(double kn, double kt) {
  static char buf[1024];
  snprintf(buf, sizeof buf,
           "materials:\n"
           "  - {name: soft, contact: compliant, k_n: %.17g, k_t: %.17g}\n"
           "world:\n"
           "  geoms:\n"
           "    - {type: plane, normal: [0, 0, 1], material: soft}\n"
           "links:\n"
           "  - name: ball\n"
           "    joint: {type: free}\n"
           "    mass: 2\n"
           "    geoms:\n"
           "      - {type: sphere, radius: 0.1, material: soft}\n"
           "initial:\n"
           "  - {joint: ball, q: [0, 0, 0.2, 1, 0, 0, 0]}\n",
           kn, kt);
  return buf;
}

static const char *compliant_text(double kn) { return compliant_text2(kn, 1e3); }

static void test_contact_stiffness(void) {
  expect_error(compliant_text(1e308), "k_n 1e+308, k_t 1000 or damping 0 overflows");
  expect_error(compliant_text(1e306), "k_n 1e+306 is far too high");
  expect_error(compliant_text(1e13), "k_n 1e+13 is far too high"); /* h^2 k / m = 5e6 */
  /* 2 kg at 1e7 N/m: period 2.8 ms, 2.8 steps: warned; 1e5 N/m (28 steps) not. */
  lk_model_free(expect_warnings(compliant_text(1e7), "2.81 timesteps", 1));
  lk_model_free(expect_warnings(compliant_text(1e5), "", 0));
  /* The tangential spring (linear_history, the default) likewise. */
  expect_error(compliant_text2(1e5, 1e308), "k_t 1e+308");
  expect_error(compliant_text2(1e5, 1e13), "k_t 1e+13 is far too high");
  lk_model_free(expect_warnings(compliant_text2(1e5, 1e7), "k_t 1e+07: contact period", 1));
}

/* ------------------------------------------------------ the step */

/* The box pushed below the floor through the state (the loader refuses
 * such an initial state): deeper than its half extent is unphysical. */
static int check_depth(double he, double z, int want) {
  const unsigned failures0 = lk_test_failures();
  lk_error err;
  lk_model *m = load(box_text(1, he, "", ""), &err);
  LK_ASSERT_MSG(m != NULL, "%s", err.message);
  if (!m) return 0;
  lk_data *d = lk_data_new(m);
  lk_data_q(d)[2] = z;
  LK_ASSERT_OK(lk_step(m, d), NULL);
  const lk_step_report *r = lk_data_step_report(d);
  LK_ASSERT_INT_EQ(r->unphysical, want);
  if (want)
    LK_ASSERT_MSG(strstr(r->message, "deep in geom") != NULL, "message '%s'", r->message);
  else
    LK_ASSERT_MSG(r->message[0] == 0, "message '%s'", r->message);
  lk_data_free(d);
  lk_model_free(m);
  return lk_test_failures() == failures0;
}

static void test_deep_penetration_is_unphysical(void) {
  CU_ASSERT_TRUE(check_depth(0.1, -0.15, 1));  /* 0.25 m deep, size 0.1 */
  CU_ASSERT_TRUE(check_depth(0.05, -0.01, 1)); /* 0.06 m deep, size 0.05 */
  CU_ASSERT_TRUE(check_depth(0.1, 0.05, 0));   /* 0.05 m: deep, but within the box */
  CU_ASSERT_TRUE(check_depth(0.05, 0.002, 0)); /* 0.048 m */
}

static void test_resting_and_falling_stay_physical(void) {
  /* A box dropped from 1 m, and one resting: 2 s, never unphysical. */
  for (int k = 0; k < 2; k++) {
    lk_error err;
    lk_model *m = load(box_text(1, 0.1, "", ""), &err);
    LK_ASSERT_MSG(m != NULL, "%s", err.message);
    if (!m) return;
    lk_data *d = lk_data_new(m);
    if (k == 0) lk_data_q(d)[2] = 1;
    int bad = 0;
    for (int s = 0; s < 2000; s++) {
      LK_ASSERT_OK(lk_step(m, d), NULL);
      bad += lk_data_step_report(d)->unphysical;
    }
    LK_ASSERT_INT_EQ(bad, 0);
    LK_ASSERT_NEAR(lk_data_q(d)[2], 0.1, 2e-3);
    lk_data_free(d);
    lk_model_free(m);
  }
}

/* Steps until the report says unphysical (0: never, in n steps). */
static int steps_to_unphysical(const char *text, int n) {
  lk_error err;
  lk_model *m = load(text, &err);
  LK_ASSERT_MSG(m != NULL, "%s", err.message);
  if (!m) return -1;
  lk_data *d = lk_data_new(m);
  int at = 0;
  for (int s = 1; s <= n && !at; s++) {
    if (lk_step(m, d)) break;
    if (lk_data_step_report(d)->unphysical) {
      at = s;
      LK_ASSERT_MSG(strstr(lk_data_step_report(d)->message, "energy grew") != NULL, "'%s'",
                    lk_data_step_report(d)->message);
    }
  }
  lk_data_free(d);
  lk_model_free(m);
  return at;
}

static void test_energy_growth_is_unphysical(void) {
  /* Period 1.5 steps: the energy grows 240-fold a step: unphysical within
   * a few steps (100 times the start's energy needs log(100)/log(240)). */
  int at = steps_to_unphysical(slider_text(k_of_period(1.5e-3), 0, 1e-3), 100);
  LK_ASSERT_MSG(at >= 1 && at <= 3, "unphysical at step %d", at);
  /* Period 3 steps (|lambda| 1.0: |2 - a| = 2.39): growth 3.3-fold a step. */
  at = steps_to_unphysical(slider_text(k_of_period(3e-3), 0, 1e-3), 100);
  LK_ASSERT_MSG(at >= 3 && at <= 10, "unphysical at step %d", at);
  /* Ten steps and 4.1: stable, never. */
  LK_ASSERT_INT_EQ(steps_to_unphysical(slider_text(k_of_period(1e-2), 0, 1e-3), 5000), 0);
  LK_ASSERT_INT_EQ(steps_to_unphysical(slider_text(k_of_period(4.1e-3), 0, 1e-3), 5000), 0);
}

/* ------------------------------------------------- shipped mechanisms */

static void test_shipped_mechanisms_raise_nothing(void) {
  const char *dir = lk_test_srcpath("mechanisms");
  char path[4096];
  DIR *dp = opendir(dir);
  LK_ASSERT_MSG(dp != NULL, "cannot open %s", dir);
  if (!dp) return;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(dp))) {
    size_t len = strlen(e->d_name);
    if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0) continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    lk_error err;
    lk_model *m = lk_model_load_file(path, NULL, &err);
    LK_ASSERT_MSG(m != NULL, "%s: %s", e->d_name, err.message);
    if (!m) continue;
    n++;
    LK_ASSERT_MSG(lk_model_nwarnings(m) == 0, "%s: warning '%s'", e->d_name, lk_model_warning(m, 0));
    /* 0.3 s of each: no unphysical step. */
    lk_data *d = lk_data_new(m);
    int steps = (int)(0.3 / lk_model_options(m)->timestep), bad = 0, failed = 0;
    for (int s = 0; s < steps && !failed; s++) {
      failed = lk_step(m, d) != LK_OK;
      bad += !failed && lk_data_step_report(d)->unphysical;
    }
    LK_ASSERT_MSG(!failed && bad == 0, "%s: %d unphysical steps (%s)", e->d_name, bad,
                  lk_data_step_report(d)->message);
    lk_data_free(d);
    lk_model_free(m);
  }
  closedir(dp);
  LK_ASSERT_MSG(n >= 20, "only %d mechanisms", n);
}

/* ------------------------------------------------------------- CLI */

/* linkage ARGS with stderr into a string; the exit status. */
static int run_linkage(const char *args, char *err, size_t size) {
  const char *b = getenv("LK_TOP_BUILDDIR");
  char tmp[] = "/tmp/lk-plausibility-XXXXXX";
  int fd = mkstemp(tmp);
  if (fd < 0) return -1;
  close(fd);
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "'%s/tools/linkage' %s >/dev/null 2>'%s'", b && *b ? b : ".", args, tmp);
  int st = system(cmd);
  FILE *f = fopen(tmp, "r");
  size_t n = f ? fread(err, 1, size - 1, f) : 0;
  err[n] = 0;
  if (f) fclose(f);
  unlink(tmp);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  LK_ASSERT_MSG(f != NULL, "cannot write %s", path);
  if (!f) return;
  fputs(text, f);
  fclose(f);
}

static void test_cli_reports(void) {
  char dir[] = "/tmp/lk-plaus-XXXXXX", path[256], args[1024], err[8192];
  if (!mkdtemp(dir)) {
    lk_test_fail(__LINE__, __FILE__, "mkdtemp failed");
    return;
  }
  snprintf(path, sizeof path, "%s/box.yaml", dir);
  /* check: an error at FILE:LINE:COLUMN (the inertia's line), exit 2. */
  write_text(path, box_text(1, 0.1, "[1e-16, 1e-16, 1e-16]", ""));
  snprintf(args, sizeof args, "check '%s'", path);
  LK_ASSERT_INT_EQ(run_linkage(args, err, sizeof err), 2);
  LK_ASSERT_MSG(strstr(err, "box.yaml:8:14: error: link 'box': inertia is 6.67e+13 times below"),
                "stderr: %s", err);
  /* check: a warning at the joint's stiffness, exit 0. */
  write_text(path, slider_text(k_of_period(1.5e-3), 0, 1e-3));
  LK_ASSERT_INT_EQ(run_linkage(args, err, sizeof err), 0);
  LK_ASSERT_MSG(strstr(err, "box.yaml:4:") && strstr(err, ": warning: joint 's': stiffness"),
                "stderr: %s", err);
  /* simulate: the growing spring fails the run at its unphysical step,
   * exit 1, no output. */
  snprintf(args, sizeof args, "simulate -d 0.1 -o '%s/out.csv' '%s'", dir, path);
  LK_ASSERT_INT_EQ(run_linkage(args, err, sizeof err), 1);
  LK_ASSERT_MSG(strstr(err, "failed: unphysical state: the energy grew"), "stderr: %s", err);
  LK_ASSERT_MSG(strstr(err, "box.yaml:4:") && strstr(err, ": warning: joint 's': stiffness"),
                "simulate prints the warning too: %s", err);
  snprintf(path, sizeof path, "%s/out.csv", dir);
  LK_ASSERT_MSG(access(path, F_OK) != 0, "out.csv written");
  /* simulate of a sound file: exit 0. */
  snprintf(path, sizeof path, "%s/box.yaml", dir);
  write_text(path, slider_text(k_of_period(1e-2), 0, 1e-3));
  LK_ASSERT_INT_EQ(run_linkage(args, err, sizeof err), 0);
  snprintf(path, sizeof path, "%s/out.csv", dir);
  unlink(path);
  snprintf(path, sizeof path, "%s/box.yaml", dir);
  unlink(path);
  rmdir(dir);
}

void lk_test_register(void) {
  static const lk_test finalize[] = {
      {"inertia far below the geoms", test_inertia_far_below_the_geoms},
      {"timestep against gravity", test_timestep_against_gravity},
      {"options set after finalize", test_options_set_after_finalize},
      {"spring periods", test_spring_periods},
      {"spring growth is the step's", test_spring_growth_is_the_steps},
      {"contact stiffness", test_contact_stiffness},
      {NULL, NULL}};
  static const lk_test step[] = {
      {"deep penetration is unphysical", test_deep_penetration_is_unphysical},
      {"resting and falling stay physical", test_resting_and_falling_stay_physical},
      {"energy growth is unphysical", test_energy_growth_is_unphysical},
      {"shipped mechanisms raise nothing", test_shipped_mechanisms_raise_nothing},
      {"linkage check and simulate", test_cli_reports},
      {NULL, NULL}};
  lk_test_suite("plausibility at finalize (item 9)", finalize);
  lk_test_suite("unphysical steps (item 9)", step);
}
