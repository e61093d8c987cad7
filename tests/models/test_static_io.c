/* The static analysis from a file: supports and analysis: sections, and
 * `linkage static` run as a user would. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"
#include "proc.h"

static lk_model *load(const char *text, lk_run_settings *run, lk_error *e) {
  lk_load_options o;
  lk_load_options_default(&o);
  o.run = run;
  return lk_model_load_string(text, strlen(text), "test.yaml", &o, e);
}

static void test_file_settings(void) {
  lk_run_settings run;
  lk_run_settings_default(&run);
  lk_load_options o;
  lk_load_options_default(&o);
  o.run = &run;
  lk_error e;
  lk_model *m = lk_model_load_file(lk_test_data("statics/pipe_support.yaml"), &o, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  CU_ASSERT_EQUAL(run.analysis, LK_ANALYSIS_STATIC);
  CU_ASSERT_EQUAL(run.nload_steps, 4);
  LK_ASSERT_NEAR(run.load_steps[1], 0.5, 0);
  CU_ASSERT_EQUAL(lk_model_nsupport(m), 1);
  lk_support_spec s;
  CU_ASSERT_EQUAL(lk_model_support(m, 0, &s), LK_OK);
  LK_ASSERT_NEAR(s.normal_force, 12, 0);
  LK_ASSERT_NEAR(s.mu_static, 0.25, 0);
  LK_ASSERT_NEAR(s.mu_dynamic, 0.25, 0);
  lk_static_options so = run.statics;
  so.load_factors = run.load_steps;
  lk_data *d = lk_data_new(m);
  CU_ASSERT_EQUAL(lk_static_solve(m, d, &so, NULL, NULL, &e), LK_OK);
  LK_ASSERT_NEAR(lk_data_q(d)[0], 5e-5, 1e-17);
  lk_support_report r;
  lk_data_support_report(m, d, 0, &r);
  LK_ASSERT_NEAR(r.reaction, -3, 1e-12);
  CU_ASSERT_EQUAL(r.state, LK_FRICTION_DYNAMIC);
  lk_data_free(d);
  lk_model_free(m);
}

static const char *kBase =
    "links:\n"
    "  - name: a\n"
    "    joint: {type: prismatic, axis: [1, 0, 0], stiffness: 1000}\n"
    "    mass: 1\n"
    "    inertia: [0.1, 0.1, 0.1]\n";

static void expect_error(const char *tail, const char *needle, int line) {
  char text[2048];
  snprintf(text, sizeof text, "%s%s", kBase, tail);
  lk_error e;
  lk_run_settings run;
  lk_run_settings_default(&run);
  lk_model *m = load(text, &run, &e);
  if (m || !strstr(e.message, needle))
    lk_test_fail(line, __FILE__, "expected an error with '%s', got %s", needle,
                 m ? "a model" : e.message);
  else
    CU_PASS("error");
  lk_model_free(m);
}

static void test_schema_errors(void) {
  expect_error("supports:\n  - {normal_force: 1}\n", "neither", __LINE__);
  expect_error("supports:\n  - {joint: a, link: a, normal_force: 1}\n", "both", __LINE__);
  expect_error("supports:\n  - {joint: a}\n", "normal_force", __LINE__);
  expect_error("supports:\n  - {joint: b, normal_force: 1}\n", "unknown joint", __LINE__);
  expect_error("supports:\n  - {joint: a, normal_force: 1, mu: 0.2, mu_static: 0.3}\n",
               "either mu", __LINE__);
  expect_error("supports:\n  - {joint: a, normal_force: 1, point: [0, 0, 0]}\n",
               "does not apply", __LINE__);
  expect_error("analysis: dynamic\n", "analysis", __LINE__);
  expect_error("analysis: {type: static, steps: 2, load_steps: [1]}\n", "either load_steps",
               __LINE__);
  expect_error("analysis: {type: static, stepz: 2}\n", "steps", __LINE__);
  expect_error("materials:\n  - {name: s, k_n: 10}\n", "rigid material", __LINE__);
  expect_error("materials:\n  - {name: s, contact: compliant}\n", "k_n", __LINE__);
  expect_error("materials:\n  - {name: s, contact: compliant, k_n: 1, tangential: mindlin/forse}\n",
               "mindlin/force", __LINE__);
  expect_error("options: {friction_law: smooth}\n", "smoothed", __LINE__);
  expect_error("options: {friction_eps_v: 0}\n", "friction_eps_v", __LINE__);
}

static void test_values_loaded(void) {
  char text[2048];
  snprintf(text, sizeof text,
           "%s"
           "options: {friction_law: smoothed, friction_eps_v: 0.002, smoothing_iterations: 5}\n"
           "materials:\n"
           "  - {name: s, contact: compliant, normal: hertz, k_n: 1.0e7, damping: 3,\n"
           "     tangential: mindlin/static, k_t: 2.0e6, x_gamma_t: 0.5, mu_static: 0.6,\n"
           "     mu_dynamic: 0.4}\n"
           "supports:\n"
           "  - {link: a, point: [0, 0, -0.1], normal: [0, 0, 2], normal_force: 5,\n"
           "     mu_static: 0.3, mu_dynamic: 0.2}\n"
           "analysis: {type: static, steps: 3, gravity: false, initial_state: sliding,\n"
           "           max_iterations: 7, tolerance: 1.0e-8, regularization: 2}\n",
           kBase);
  lk_run_settings run;
  lk_run_settings_default(&run);
  lk_error e;
  lk_model *m = load(text, &run, &e);
  if (!m) lk_test_fail(__LINE__, __FILE__, "%s", e.message);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  const lk_options *o = lk_model_options(m);
  CU_ASSERT_EQUAL(o->friction_law, LK_FRICTION_SMOOTHED);
  LK_ASSERT_NEAR(o->friction_eps_v, 0.002, 0);
  CU_ASSERT_EQUAL(o->smoothing_iterations, 5);
  lk_material_spec s;
  lk_model_material(m, lk_model_material_index(m, "s"), &s);
  CU_ASSERT_EQUAL(s.contact, LK_CONTACT_COMPLIANT);
  CU_ASSERT_EQUAL(s.normal, LK_NORMAL_HERTZ);
  CU_ASSERT_EQUAL(s.tangential, LK_TANGENTIAL_MINDLIN_STATIC);
  LK_ASSERT_NEAR(s.k_n, 1e7, 0);
  LK_ASSERT_NEAR(s.damping, 3, 0);
  LK_ASSERT_NEAR(s.k_t, 2e6, 0);
  LK_ASSERT_NEAR(s.x_gamma_t, 0.5, 0);
  CU_ASSERT_EQUAL(lk_model_nwarnings(m), 0);
  lk_support_spec sp;
  lk_model_support(m, 0, &sp);
  LK_ASSERT_NEAR(sp.normal.z, 1, 1e-15); /* normalized */
  LK_ASSERT_NEAR(sp.point.z, -0.1, 0);
  CU_ASSERT_EQUAL(run.statics.nsteps, 3);
  CU_ASSERT_EQUAL(run.statics.gravity, 0);
  CU_ASSERT_EQUAL(run.statics.initial_state, LK_FRICTION_DYNAMIC);
  CU_ASSERT_EQUAL(run.statics.max_iterations, 7);
  LK_ASSERT_NEAR(run.statics.tolerance, 1e-8, 0);
  LK_ASSERT_NEAR(run.statics.regularization, 2, 0);
  lk_model_free(m);
  /* analysis: static alone, and the /static warning for equal mu. */
  snprintf(text, sizeof text,
           "%smaterials:\n  - {name: s, contact: compliant, k_n: 10, k_t: 5,\n"
           "     tangential: linear_history/static, mu: 0.5}\nanalysis: static\n",
           kBase);
  lk_run_settings_default(&run);
  m = load(text, &run, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  CU_ASSERT_EQUAL(run.analysis, LK_ANALYSIS_STATIC);
  CU_ASSERT_EQUAL(run.statics.nsteps, 1);
  CU_ASSERT_EQUAL(lk_model_nwarnings(m), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(lk_model_warning(m, 0), "mu_dynamic"));
  CU_ASSERT_PTR_NULL(lk_model_warning(m, 1));
  lk_model_free(m);
}

/* ------------------------------------------------------------ the CLI */

/* Issue 33: mechanisms/pipe_support.yaml is the recorded case as a user
 * runs it (linkage static FILE, defaults): 8 N in one increment, 2
 * iterations, sliding at -3 N, settled at 0.05 mm; the 2-D variant slips
 * along its 30-degree push to 0.05 mm with 3 N of friction against it. */
static void test_shipped_pipe_supports(void) {
  char path[4096];
  snprintf(path, sizeof path, "%s", lk_test_srcpath("mechanisms/pipe_support.yaml"));
  const lk_test_result *r = lk_test_linkage((const char *[]){"static", path, NULL});
  CU_ASSERT_EQUAL(r->status, 0);
  CU_ASSERT_PTR_NULL(strstr(r->out, "increment: 2"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "iterations: 2\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "state: sliding, reaction: -3, slip: 5e-05}"));
  const char *axial = strstr(r->out, "\"axial\": ");
  CU_ASSERT_PTR_NOT_NULL_FATAL(axial);
  LK_ASSERT_NEAR(strtod(axial + 9, NULL), 5e-05, 1e-18);
  /* the sticking variant of its comment */
  r = lk_test_linkage((const char *[]){"static", "--set", "loads.push.force=[2.9,0,0]", path, NULL});
  CU_ASSERT_EQUAL(r->status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "state: static, reaction: -2.9,"));
  snprintf(path, sizeof path, "%s", lk_test_srcpath("mechanisms/pipe_support_2d.yaml"));
  r = lk_test_linkage((const char *[]){"static", path, NULL});
  CU_ASSERT_EQUAL(r->status, 0);
  const char *ax = strstr(r->out, "\"axial\": "), *lat = strstr(r->out, "\"lateral\": ");
  const char *f = strstr(r->out, "state: sliding, force: [");
  CU_ASSERT_PTR_NOT_NULL_FATAL(ax);
  CU_ASSERT_PTR_NOT_NULL_FATAL(lat);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  LK_ASSERT_NEAR(strtod(ax + 9, NULL), 5e-05 * sqrt(3) / 2, 1e-15);
  LK_ASSERT_NEAR(strtod(lat + 11, NULL), 2.5e-05, 1e-15);
  char *end;
  double fx = strtod(f + 24, &end), fy = strtod(end + 2, NULL);
  LK_ASSERT_NEAR(fx, -3 * sqrt(3) / 2, 1e-9);
  LK_ASSERT_NEAR(fy, -1.5, 1e-9);
}

static void test_cli(void) {
  char path[4096];
  snprintf(path, sizeof path, "%s", lk_test_data("statics/pipe_support.yaml"));
  const lk_test_result *r = lk_test_linkage((const char *[]){"static", path, NULL});
  CU_ASSERT_EQUAL(r->status, 0);
  /* The last increment: 0.05 mm, -3 N, sliding. */
  const char *last = strstr(r->out, "increment: 4");
  CU_ASSERT_PTR_NOT_NULL_FATAL(last);
  /* 0.05 mm, to the rounding the exact number format shows. */
  const char *axial = strstr(last, "\"axial\": ");
  CU_ASSERT_PTR_NOT_NULL_FATAL(axial);
  LK_ASSERT_NEAR(strtod(axial + 9, NULL), 5e-05, 1e-18);
  CU_ASSERT_PTR_NOT_NULL(strstr(last, "state: sliding, reaction: -3,"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "status: converged"));
  /* The first (2 N) sticks. */
  const char *first = strstr(r->out, "increment: 1");
  CU_ASSERT_PTR_NOT_NULL_FATAL(first);
  CU_ASSERT_PTR_NOT_NULL(strstr(first, "state: static, reaction: -2,"));
  r = lk_test_linkage((const char *[]){"static", "--steps", "1", "--set",
                                       "loads.push.force=[2.9, 0, 0]", path, NULL});
  CU_ASSERT_EQUAL(r->status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "\"axial\": 0\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "reaction: -2.9,"));
  CU_ASSERT_PTR_NULL(strstr(r->out, "increment: 2"));
  r = lk_test_linkage((const char *[]){"static", "--steps", "0", path, NULL});
  CU_ASSERT_EQUAL(r->status, 2);
  r = lk_test_linkage((const char *[]){"static", NULL});
  CU_ASSERT_EQUAL(r->status, 2);
  r = lk_test_linkage((const char *[]){"static", "--help", NULL});
  CU_ASSERT_EQUAL(r->status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "usage: linkage static"));
  /* A mechanism without stiffness: the analysis fails (exit 1) and says why. */
  r = lk_test_linkage(
      (const char *[]){"static", "--set", "links.member.joint.stiffness=0", path, NULL});
  CU_ASSERT_EQUAL(r->status, 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(r->err, "no stiffness"));
}

/* The number after `key` in s (NAN when absent). */
static double number_after(const char *s, const char *key) {
  const char *p = s ? strstr(s, key) : NULL;
  return p ? strtod(p + strlen(key), NULL) : NAN;
}

/* Issue 14.5: an off-axis slip of a point support. The plate of
 * plate_point_support.yaml (springs 100 N/m, N 12, mu 0.25) pushed with
 * 8 N at 30 and at 19.8 degrees slips 0.05 m along the push against 3 N
 * of friction; it was the right answer called "did not converge in 50
 * iterations" (exit 1): the slip direction was iterated as a fixed point
 * converging by a factor 0.6 an iteration. */
static void test_cli_point_support_off_axis(void) {
  char path[4096];
  snprintf(path, sizeof path, "%s", lk_test_data("statics/plate_point_support.yaml"));
  static const double deg[] = {30, 19.8};
  for (int k = 0; k < 2; k++) {
    double a = deg[k] * M_PI / 180, c = cos(a), s = sin(a);
    char set[128];
    snprintf(set, sizeof set, "loads.push.force=[%.17g, %.17g, 0]", 8 * c, 8 * s);
    const lk_test_result *r = lk_test_linkage((const char *[]){"static", "--set", set, path, NULL});
    CU_ASSERT_EQUAL(r->status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "status: converged"));
    double it = number_after(r->out, "iterations: ");
    if (!(it <= 8)) lk_test_fail(__LINE__, __FILE__, "%g deg: %g iterations", deg[k], it);
    LK_ASSERT_NEAR(number_after(r->out, "\"x\": "), 0.05 * c, 1e-14);
    LK_ASSERT_NEAR(number_after(r->out, "\"y\": "), 0.05 * s, 1e-14);
    LK_ASSERT_NEAR(number_after(r->out, "force: ["), -3 * c, 1e-12);
    LK_ASSERT_NEAR(number_after(strstr(r->out, "force: ["), ", "), -3 * s, 1e-12);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "state: sliding"));
  }
}

void lk_test_register(void) {
  static const lk_test tests[] = {{"shipped pipe supports: the recorded case", test_shipped_pipe_supports},
                                  {"file settings and the pipe answer", test_file_settings},
                                  {"schema errors", test_schema_errors},
                                  {"values loaded", test_values_loaded},
                                  {"linkage static", test_cli},
                                  {"point support slipping off-axis",
                                   test_cli_point_support_off_axis},
                                  {NULL, NULL}};
  lk_test_suite("static: files and CLI", tests);
}
