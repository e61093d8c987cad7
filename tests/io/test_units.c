/* Unit mistakes the loader catches (issue 14.8): `options: {angle:
 * degree}` converts rpy, joint limits and rest angles; a radian field that
 * holds what looks like degrees is warned about at its line and column; an
 * initial penetration deeper than the shapes is an error at the geom, a
 * large one a warning. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"

static lk_model *load(const char *text, lk_error *e) {
  return lk_model_load_string(text, strlen(text), "units.yaml", NULL, e);
}

static const double kDeg = LK_PI / 180;

/* The same arm in degrees and in radians: the specs agree. */
static const char *kArmFmt =
    "options: {angle: %s}\n"
    "links:\n"
    "  - name: upper\n"
    "    origin: {xyz: [0, 0, 1], rpy: [%s, 0, %s]}\n"
    "    joint: {name: shoulder, type: revolute, axis: [0, 1, 0], limit: [%s, %s],\n"
    "            stiffness: 5, rest: %s}\n"
    "    mass: 1\n"
    "    inertia: [0.1, 0.1, 0.1]\n"
    "    geoms: [{type: sphere, radius: 0.1, origin: {rpy: [0, %s, 0]}}]\n"
    "  - name: slide\n"
    "    parent: upper\n"
    "    joint: {name: rail, type: prismatic, axis: [1, 0, 0], limit: [-0.1, 0.2]}\n"
    "    mass: 1\n"
    "    inertia: [0.1, 0.1, 0.1]\n"
    "  - name: wrist\n"
    "    parent: slide\n"
    "    joint: {name: cone, type: ball, limit: %s}\n"
    "    mass: 1\n"
    "    inertia: [0.1, 0.1, 0.1]\n";

static lk_model *arm(const char *unit, const char *v[7], lk_error *e) {
  char text[2048];
  snprintf(text, sizeof text, kArmFmt, unit, v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
  return load(text, e);
}

static void expect_same_specs(const lk_model *a, const lk_model *b) {
  for (int i = 1; i < lk_model_nlink(a); i++) {
    lk_link_spec sa, sb;
    lk_model_link(a, i, &sa);
    lk_model_link(b, i, &sb);
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++) LK_ASSERT_NEAR(sa.origin.R.m[r][c], sb.origin.R.m[r][c], 1e-15);
    LK_ASSERT_NEAR(sa.joint.lower, sb.joint.lower, 1e-15);
    LK_ASSERT_NEAR(sa.joint.upper, sb.joint.upper, 1e-15);
    LK_ASSERT_NEAR(sa.joint.rest, sb.joint.rest, 1e-15);
  }
  lk_geom_spec ga, gb;
  lk_model_geom(a, 0, &ga);
  lk_model_geom(b, 0, &gb);
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++) LK_ASSERT_NEAR(ga.pose.R.m[r][c], gb.pose.R.m[r][c], 1e-15);
}

static void test_angle_degree(void) {
  const char *deg[7] = {"90", "-30", "-30", "60", "10", "45", "45"};
  char rad[7][32];
  const double dv[7] = {90, -30, -30, 60, 10, 45, 45};
  const char *radp[7];
  for (int k = 0; k < 7; k++) {
    snprintf(rad[k], sizeof rad[k], "%.17g", dv[k] * kDeg);
    radp[k] = rad[k];
  }
  lk_error e;
  lk_model *a = arm("degree", deg, &e);
  if (!a) lk_test_fail(__LINE__, __FILE__, "%s", e.message);
  lk_model *b = arm("radian", radp, &e);
  if (!b) lk_test_fail(__LINE__, __FILE__, "%s", e.message);
  if (!a || !b) return;
  expect_same_specs(a, b);
  CU_ASSERT_EQUAL(lk_model_nwarnings(a), 0);
  CU_ASSERT_EQUAL(lk_model_nwarnings(b), 0);
  /* The closed forms: limits -pi/6, pi/3; rest pi/18; cone pi/4; the
   * prismatic rail's limit untouched (metres). */
  int sh = lk_model_link_index(a, "upper"), rail = lk_model_link_index(a, "slide"),
      cone = lk_model_link_index(a, "wrist");
  lk_link_spec s;
  lk_model_link(a, sh, &s);
  LK_ASSERT_NEAR(s.joint.lower, -LK_PI / 6, 1e-15);
  LK_ASSERT_NEAR(s.joint.upper, LK_PI / 3, 1e-15);
  LK_ASSERT_NEAR(s.joint.rest, LK_PI / 18, 1e-15);
  /* rpy [90, 0, -30]: Rz(-30) Rx(90) maps y to (sin 30, cos 30, 0) rotated
   * into z: the matrix's (2, 1) entry is sin 90 = 1. */
  LK_ASSERT_NEAR(s.origin.R.m[2][1], 1, 1e-15);
  LK_ASSERT_NEAR(s.origin.R.m[0][0], cos(-30 * kDeg), 1e-15);
  lk_model_link(a, rail, &s);
  LK_ASSERT_NEAR(s.joint.lower, -0.1, 0);
  LK_ASSERT_NEAR(s.joint.upper, 0.2, 0);
  lk_model_link(a, cone, &s);
  LK_ASSERT_NEAR(s.joint.upper, LK_PI / 4, 1e-15);
  lk_model_free(a);
  lk_model_free(b);
  /* Not a unit. */
  const char *bad = "options: {angle: degrees}\nlinks:\n  - {name: a, joint: revolute, mass: 1}\n";
  lk_model *m = load(bad, &e);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_MSG(strstr(e.message, "degree") && e.line == 1, "%d: %s", e.line, e.message);
  lk_model_free(m);
}

/* In radians, rpy [90, 0, 0] and limit [-30, 60] load (they are valid
 * numbers) with a warning at each, line and column; in-range values
 * none. */
static void test_degrees_in_radian_fields_warned(void) {
  const char *text =
      "links:\n"
      "  - name: upper\n"
      "    origin: {rpy: [90, 0, 0]}\n"
      "    joint: {name: shoulder, type: revolute, axis: [0, 1, 0], limit: [-30, 60]}\n"
      "    mass: 1\n"
      "    inertia: [0.1, 0.1, 0.1]\n"
      "  - name: lower\n"
      "    parent: upper\n"
      "    origin: {rpy: [1.5708, 0, -3.1416]}\n"
      "    joint: {name: elbow, type: revolute, axis: [0, 1, 0], limit: [-2.5, 2.5]}\n"
      "    mass: 1\n"
      "    inertia: [0.1, 0.1, 0.1]\n";
  lk_error e;
  lk_model *m = load(text, &e);
  if (!m) lk_test_fail(__LINE__, __FILE__, "%s", e.message);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  CU_ASSERT_EQUAL(lk_model_nwarnings(m), 2);
  /* In reading order (the joint before the origin), each at its value. */
  const char *wl = lk_model_warning(m, 0), *wr = lk_model_warning(m, 1);
  LK_ASSERT_MSG(wl && strncmp(wl, "4:69: ", 6) == 0 && strstr(wl, "limit: -30 is beyond 2 pi") &&
                    strstr(wl, "angle: degree"),
                "warning 0: %s", wl ? wl : "(none)");
  LK_ASSERT_MSG(wr && strncmp(wr, "3:19: ", 6) == 0 && strstr(wr, "rpy [90, 0, 0]") &&
                    strstr(wr, "degrees?"),
                "warning 1: %s", wr ? wr : "(none)");
  lk_model_free(m);
}

/* Issue 33: initial q and a position servo's targets on a revolute joint
 * are radians under either unit; 90 and 45 there are warned about as rpy
 * and limits are (they passed silently), 1.2 and a prismatic joint's 0.8 m
 * not. */
static void test_degrees_in_initial_q_and_targets_warned(void) {
  const char *text =
      "options: {angle: degree}\n"
      "links:\n"
      "  - {name: arm, joint: {name: j, type: revolute, axis: [0, 1, 0]}, mass: 1,\n"
      "     inertia: [0.1, 0.1, 0.1]}\n"
      "  - {name: cart, joint: {name: s, type: prismatic, axis: [1, 0, 0]}, mass: 1,\n"
      "     inertia: [0.1, 0.1, 0.1]}\n"
      "actuators:\n"
      "  - {joint: j, type: position, kp: 10, target: 45}\n"
      "  - {joint: s, type: position, kp: 10, schedule: [[0, 0.8], [1, 9]]}\n"
      "initial:\n"
      "  - {joint: j, q: 90}\n"
      "  - {joint: s, q: 8}\n";
  lk_error e;
  lk_model *m = load(text, &e);
  if (!m) lk_test_fail(__LINE__, __FILE__, "%s", e.message);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  LK_ASSERT_INT_EQ(lk_model_nwarnings(m), 2);
  const char *wa = lk_model_warning(m, 0), *wi = lk_model_warning(m, 1);
  LK_ASSERT_MSG(wa && strncmp(wa, "8:48: ", 6) == 0 && strstr(wa, "target: 45 is beyond 2 pi"),
                "warning 0: %s", wa ? wa : "(none)");
  LK_ASSERT_MSG(wi && strncmp(wi, "11:19: ", 7) == 0 && strstr(wi, "initial q: 90 is beyond 2 pi") &&
                    strstr(wi, "also under options"),
                "warning 1: %s", wi ? wi : "(none)");
  lk_model_free(m);
  /* In range: none. */
  const char *fine =
      "links:\n"
      "  - {name: arm, joint: {name: j, type: revolute, axis: [0, 1, 0]}, mass: 1,\n"
      "     inertia: [0.1, 0.1, 0.1]}\n"
      "actuators:\n"
      "  - {joint: j, type: position, kp: 10, schedule: [[0, 0], [1, 1.2]]}\n"
      "initial:\n"
      "  - {joint: j, q: 1.2}\n";
  m = load(fine, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  LK_ASSERT_INT_EQ(lk_model_nwarnings(m), 0);
  lk_model_free(m);
}

/* A sphere on the floor: radius r, centre at height z (depth r - z). */
static lk_model *ball(double r, double z, lk_error *e) {
  char text[1024];
  snprintf(text, sizeof text,
           "world:\n"
           "  geoms: [{name: floor, type: plane}]\n"
           "links:\n"
           "  - name: ball\n"
           "    origin: {xyz: [0, 0, %.17g]}\n"
           "    joint: {type: free}\n"
           "    mass: 1\n"
           "    geoms:\n"
           "      - {name: shell, type: sphere, radius: %.17g}\n",
           z, r);
  return load(text, e);
}

/* radius 40 (meant as mm) at the floor's height: 40 m deep, an error at the
 * geom (line 9, column 9) naming both and the depth; 15 % deep, a warning;
 * 5 %, nothing. */
static void test_initial_penetration(void) {
  lk_error e;
  lk_model *m = ball(40, 0, &e);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_MSG(!m && e.line == 9 && e.column == 9 && strstr(e.message, "'shell'") &&
                    strstr(e.message, "'floor'") && strstr(e.message, "by 40 m"),
                "%d:%d: %s", e.line, e.column, e.message);
  lk_model_free(m);
  m = ball(0.1, 0.085, &e);
  if (!m) lk_test_fail(__LINE__, __FILE__, "%s", e.message);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  CU_ASSERT_EQUAL(lk_model_nwarnings(m), 1);
  const char *w = lk_model_warning(m, 0);
  LK_ASSERT_MSG(w && strncmp(w, "9:9: ", 5) == 0 && strstr(w, "15%"), "%s", w ? w : "(none)");
  lk_model_free(m);
  m = ball(0.1, 0.095, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  CU_ASSERT_EQUAL(lk_model_nwarnings(m), 0);
  lk_model_free(m);
}

/* Other numbers: a box (half extents 0.2, 0.3, 0.05) set 0.12 m into a
 * fixed box below it: deeper than its 0.05 half height, an error; the
 * same box 0.007 m in (14 %), a warning. */
static void test_initial_penetration_boxes(void) {
  for (int c = 0; c < 2; c++) {
    char text[1024];
    snprintf(text, sizeof text,
             "world:\n"
             "  geoms: [{name: table, type: box, half_extents: [1, 1, 0.5]}]\n"
             "links:\n"
             "  - name: plate\n"
             "    origin: {xyz: [0, 0, %.17g]}\n"
             "    joint: {type: free}\n"
             "    mass: 1\n"
             "    geoms: [{type: box, half_extents: [0.2, 0.3, 0.05]}]\n",
             c == 0 ? 0.55 - 0.12 : 0.55 - 0.007);
    lk_error e;
    lk_model *m = load(text, &e);
    if (c == 0) {
      LK_ASSERT_MSG(!m && e.line == 8 && strstr(e.message, "'plate#0'") &&
                        strstr(e.message, "'table'") && strstr(e.message, "more than the size"),
                    "%d: %s", e.line, m ? "(loaded)" : e.message);
    } else {
      CU_ASSERT_PTR_NOT_NULL(m);
      CU_ASSERT_EQUAL(lk_model_nwarnings(m), 1);
      if (m && lk_model_warning(m, 0))
        LK_ASSERT_MSG(strstr(lk_model_warning(m, 0), "14%"), "%s", lk_model_warning(m, 0));
    }
    lk_model_free(m);
  }
}

void lk_test_register(void) {
  static const lk_test tests[] = {
      {"angle: degree converts rpy, limits, rest", test_angle_degree},
      {"degrees in radian fields are warned about", test_degrees_in_radian_fields_warned},
      {"degrees in initial q and servo targets are warned about",
       test_degrees_in_initial_q_and_targets_warned},
      {"initial penetration: sphere in the floor", test_initial_penetration},
      {"initial penetration: box on a box", test_initial_penetration_boxes},
      {NULL, NULL}};
  lk_test_suite("units", tests);
}
