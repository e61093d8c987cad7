/* Analytic screening (lk_grasp_screen): fingers closed kinematically onto
 * a still object stop at its surface (closed forms for a jaw on a face, a
 * jaw on a corner, a swinging fingertip and a curling two-joint finger),
 * the contacts they make are the ones a simulation's closing makes (the
 * same force closure and epsilon), and the outcomes (collision, no
 * contact, not closed) come where they must. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"

static lk_grasp_scene *scene(const char *hand, const char *object) {
  char hpath[4096], opath[4096];
  snprintf(hpath, sizeof hpath, "%s", hand);
  snprintf(opath, sizeof opath, "%s", object);
  lk_error e;
  lk_grasp_scene *s = lk_grasp_scene_load(hpath, opath, NULL, &e);
  LK_ASSERT_MSG(s != NULL, "%s + %s: %s", hand, object, e.message);
  return s;
}

static const char *mech(const char *name) {
  static char buf[4][4096];
  static int k;
  char rel[256];
  snprintf(rel, sizeof rel, "mechanisms/%s.yaml", name);
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s", lk_test_srcpath(rel));
  return buf[k];
}

static const char *data(const char *name) {
  static char buf[4][4096];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s", lk_test_data(name));
  return buf[k];
}

/* The palm above the object's centre (approach from +z), turned by yaw. */
static lk_transform from_above(double standoff, double yaw) {
  lk_mat3 R = lk_m3_from_axis_angle(lk_v3(0, 0, 1), yaw);
  return lk_tf(&R, lk_v3(0, 0, standoff));
}

#define CAP 64

static uint64_t splitmix(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static double unit(uint64_t *x) { return (double)(splitmix(x) >> 11) * 0x1.0p-53; }

/* The jaw gripper's pads (inner faces 55 mm from the palm's centre at
 * q = 0, closing along the palm's y axis) close on the 5 x 5 x 8 cm box
 * from above: each stops where its face meets the box's, q = 0.055 - 0.025,
 * to 1e-9; turned by yaw, where it meets the box's farthest corner,
 * q = 0.055 - 0.025 (cos yaw + sin yaw) (for yaws whose corner lands on
 * the 4 cm wide pad). Both pads touch, with four points each on the face
 * or two along the box's vertical edge, and the face grasp is in force
 * closure. */
static void test_jaw_stops_at_the_face_and_at_the_corner(void) {
  lk_grasp_scene *s = scene(mech("jaw_gripper"), mech("object_box"));
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  lk_data *d = lk_data_new(lk_grasp_scene_model(s));
  lk_grasp_screener *sc = lk_grasp_screener_new(s, NULL, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
  const double yaws[] = {0, 0.3, -0.5, -0.35};
  const double standoffs[] = {0.06, 0.05, 0.07, 0.065};
  int cases = 0;
  for (int i = 0; i < 4; i++) {
    lk_transform pose = from_above(standoffs[i], yaws[i]);
    lk_grasp_screen_report r;
    lk_grasp_contact c[CAP];
    lk_error e;
    LK_ASSERT_OK(lk_grasp_screen(sc, d, &pose, NULL, &r, c, CAP, &e), &e);
    double a = fabs(yaws[i]);
    double want = 0.055 - 0.025 * (cos(a) + sin(a));
    LK_ASSERT_INT_EQ(r.fingers_in_contact, 2);
    LK_ASSERT_NEAR(r.q[0], want, 1e-9);
    LK_ASSERT_NEAR(r.q[1], want, 1e-9);
    LK_ASSERT_MSG(r.gap[0] <= 1e-10 && r.gap[1] <= 1e-10, "gaps %g %g", r.gap[0], r.gap[1]);
    if (yaws[i] == 0) {
      LK_ASSERT_INT_EQ(r.ncontacts, 8);
      LK_ASSERT_INT_EQ(r.outcome, LK_SCREEN_CLOSED);
      CU_ASSERT(r.epsilon > 0);
    } else {
      LK_ASSERT_INT_EQ(r.ncontacts, 4);
    }
    /* Each contact's normal points into the box, from its pad's side. */
    for (int k = 0; k < r.ncontacts; k++) {
      lk_vec3 toward = lk_v3_scale(c[k].position, -1); /* to the box's centre */
      CU_ASSERT(lk_v3_dot(c[k].normal, toward) > 0);
      CU_ASSERT(c[k].finger == 0 || c[k].finger == 1);
      LK_ASSERT_NEAR(c[k].mu, sqrt(1.0 * 0.5), 1e-15); /* rubber on wood, geometric mean */
    }
    cases++;
  }
  LK_ASSERT_INT_EQ(cases, 4);
  lk_grasp_screener_free(sc);
  lk_data_free(d);
  lk_grasp_scene_free(s);
}

/* The trial's loads, screened: the jaw gripper on the box face (the
 * grasp of the test above) with the default trial's loads. There are 13:
 * the weight with the lift's peak acceleration (minimum jerk over 0.1 m in
 * 0.4 s: (10 / sqrt 3) 0.1 / 0.4^2 = 3.61 m/s^2 up), then the weight with
 * a shake force of m g along +x, -x, +y, -y, +z, -z, then with a torque of
 * m g r / 2 about the same axes. The closed face grasp reports the grip
 * that carries them all, as lk_grasp_load_force of its contacts says, and
 * at least the lift's friction bound m (g + a) / (2 mu) (two pads, each
 * carrying at most mu of its normal force up); without loads, 0. */
static void test_screen_reports_the_grip_the_trial_loads_need(void) {
  lk_grasp_scene *s = scene(mech("jaw_gripper"), mech("object_box"));
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  const lk_model *m = lk_grasp_scene_model(s);
  lk_link_spec ls;
  lk_model_link(m, lk_grasp_scene_object(s), &ls);
  const double g = 9.81, mass = ls.mass, a = 10.0 / sqrt(3.0) * 0.1 / (0.4 * 0.4);
  LK_ASSERT_NEAR(lk_v3_norm(lk_model_options(m)->gravity), g, 1e-12);
  lk_force loads[LK_GRASP_TRIAL_LOADS];
  LK_ASSERT_INT_EQ(lk_grasp_trial_loads(s, NULL, loads, LK_GRASP_TRIAL_LOADS), 13);
  LK_ASSERT_NEAR(loads[0].lin.z, -mass * (g + a), 1e-12);
  LK_ASSERT_NEAR(lk_v3_norm(loads[0].ang), 0, 0);
  LK_ASSERT_NEAR(loads[1].lin.x, mass * g, 1e-12); /* + x push */
  LK_ASSERT_NEAR(loads[1].lin.z, -mass * g, 1e-12);
  LK_ASSERT_NEAR(lk_v3_norm(loads[7].lin), mass * g, 1e-12); /* weight, and a torque */
  LK_ASSERT_NEAR(loads[7].ang.x, 0.5 * mass * g * lk_grasp_scene_object_radius(s), 1e-12);
  LK_ASSERT_INT_EQ(lk_grasp_trial_loads(s, NULL, NULL, 1), -1);
  lk_grasp_screen_options so;
  lk_grasp_screen_options_default(&so);
  so.loads = loads;
  so.nloads = 13;
  lk_grasp_screener *sc = lk_grasp_screener_new(s, &so, NULL);
  lk_grasp_screener *plain = lk_grasp_screener_new(s, NULL, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
  CU_ASSERT_PTR_NOT_NULL_FATAL(plain);
  memset(loads, 0, sizeof loads); /* the screener keeps its own copy */
  lk_data *d = lk_data_new(m);
  lk_transform pose = from_above(0.06, 0);
  lk_grasp_screen_report r;
  lk_grasp_contact c[CAP];
  lk_error e;
  LK_ASSERT_OK(lk_grasp_screen(plain, d, &pose, NULL, &r, c, CAP, &e), &e);
  LK_ASSERT_INT_EQ(r.outcome, LK_SCREEN_CLOSED);
  LK_ASSERT_NEAR(r.load_force, 0, 0);
  LK_ASSERT_INT_EQ(r.load_worst, -1);
  LK_ASSERT_OK(lk_grasp_screen(sc, d, &pose, NULL, &r, c, CAP, &e), &e);
  LK_ASSERT_INT_EQ(r.outcome, LK_SCREEN_CLOSED);
  printf("  [screen] face grasp: the trial's loads need %.4f N a pad (load %d)\n", r.load_force,
         r.load_worst);
  CU_ASSERT(r.load_force >= mass * (g + a) / (2 * c[0].mu) * (1 - 1e-12));
  CU_ASSERT(isfinite(r.load_force));
  lk_grasp_trial_loads(s, NULL, loads, LK_GRASP_TRIAL_LOADS);
  lk_grasp_options ao;
  lk_grasp_options_default(&ao);
  ao.center = lk_tf_point(lk_data_link_pose(d, lk_grasp_scene_object(s)), ls.com);
  ao.torque_scale = lk_grasp_scene_object_radius(s);
  double f;
  int worst;
  LK_ASSERT_OK(lk_grasp_load_force(c, r.ncontacts, &ao, loads, 13, &f, &worst, &e), &e);
  LK_ASSERT_NEAR(r.load_force, f, 1e-12 * f);
  LK_ASSERT_INT_EQ(r.load_worst, worst);
  so.nloads = LK_GRASP_SCREEN_MAX_LOADS + 1;
  CU_ASSERT_PTR_NULL(lk_grasp_screener_new(s, &so, &e));
  lk_data_free(d);
  lk_grasp_screener_free(sc);
  lk_grasp_screener_free(plain);
  lk_grasp_scene_free(s);
}

/* A fingertip sphere (radius 5 mm, 20 mm from the pivot) swinging down
 * onto the box's top face from a pivot H above the box's centre stops at
 * sin q = (H - 0.04 - 0.005) / 0.02: within 1e-10 m of the face, so q
 * within 1e-10 / (0.02 cos q) of the closed form. */
static void test_swinging_tip_stops_on_the_top_face(void) {
  lk_grasp_scene *s = scene(data("grasp/pivot_finger.yaml"), mech("object_box"));
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  lk_data *d = lk_data_new(lk_grasp_scene_model(s));
  lk_grasp_screener *sc = lk_grasp_screener_new(s, NULL, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
  const double H[] = {0.055, 0.05, 0.06, 0.0625};
  for (int i = 0; i < 4; i++) {
    lk_transform pose = from_above(H[i], 0);
    lk_grasp_screen_report r;
    lk_grasp_contact c[CAP];
    lk_error e;
    LK_ASSERT_OK(lk_grasp_screen(sc, d, &pose, NULL, &r, c, CAP, &e), &e);
    double want = asin((H[i] - 0.045) / 0.02);
    CU_ASSERT(r.gap[0] <= 1e-10);
    LK_ASSERT_NEAR(r.q[0], want, 1.01e-10 / (0.02 * cos(want)));
    LK_ASSERT_INT_EQ(r.ncontacts, 1);
    LK_ASSERT_NEAR(c[0].normal.z, -1, 1e-12); /* pressing down on the top face */
    /* One point contact cannot hold anything. */
    LK_ASSERT_INT_EQ(r.outcome, LK_SCREEN_NOT_CLOSED);
    CU_ASSERT(r.evaluations < 60);
  }
  lk_grasp_screener_free(sc);
  lk_data_free(d);
  lk_grasp_scene_free(s);
}

/* The two-joint finger curls: both joints close together until its
 * knuckle comes down on the top face (the single-joint closed form; the
 * knuckle joint stops there), then the tip joint closes on alone until the
 * fingertip (radius 4 mm, at (12, 9) mm from the knuckle) meets the box's
 * side face y = 0.025: the angle phi of the tip's offset from the palm's
 * y axis obeys y_knuckle + 0.015 cos(phi - alpha) = 0.025 + 0.004,
 * alpha = atan2(9, 12). When the fingertip touches first (a pivot higher
 * up), the whole finger stops there, knuckle and tip at the same angle. */
static void test_two_joint_finger_curls_around_the_edge(void) {
  lk_grasp_scene *s = scene(data("grasp/curl_finger.yaml"), mech("object_box"));
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  lk_data *d = lk_data_new(lk_grasp_scene_model(s));
  lk_grasp_screener *sc = lk_grasp_screener_new(s, NULL, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
  const double H[] = {0.055, 0.052};
  for (int i = 0; i < 2; i++) {
    lk_transform pose = from_above(H[i], 0);
    lk_grasp_screen_report r;
    lk_grasp_contact c[CAP];
    lk_error e;
    LK_ASSERT_OK(lk_grasp_screen(sc, d, &pose, NULL, &r, c, CAP, &e), &e);
    double t1 = asin((H[i] - 0.045) / 0.02);
    double alpha = atan2(0.009, 0.012);
    double phi = alpha + acos((0.029 - 0.02 * cos(t1)) / 0.015);
    LK_ASSERT_NEAR(r.q[0], t1, 1.01e-10 / (0.02 * cos(t1)));
    LK_ASSERT_NEAR(r.q[1], phi - t1, 1.01e-10 / (0.015 * sin(phi - alpha)));
    LK_ASSERT_INT_EQ(r.ncontacts, 2);
    LK_ASSERT_INT_EQ(r.fingers_in_contact, 1);
  }
  lk_transform high = from_above(0.058, 0);
  lk_grasp_screen_report r;
  lk_grasp_contact c[CAP];
  lk_error e;
  LK_ASSERT_OK(lk_grasp_screen(sc, d, &high, NULL, &r, c, CAP, &e), &e);
  LK_ASSERT_INT_EQ(r.ncontacts, 1);
  LK_ASSERT_NEAR(r.q[0], r.q[1], 0);
  CU_ASSERT(r.q[0] < asin((0.058 - 0.045) / 0.02));
  lk_grasp_screener_free(sc);
  lk_data_free(d);
  lk_grasp_scene_free(s);
}

/* Screening's contacts are the ones a simulated closing ends with: on the
 * jaw gripper squeezing the box (and the cylinder) from above, the same
 * force closure and, from the same points, the same epsilon to 1e-3 (the
 * simulated pads sink into the box by up to the contact tolerance, which
 * moves the contact points by as much). */
static void test_screening_agrees_with_the_closed_trial(void) {
  const char *objects[] = {"object_box", "object_cylinder"};
  int compared = 0;
  for (int o = 0; o < 2; o++) {
    /* At the default margins (issue 14, item 6): each pad's line contact on
     * the can keeps two points, 5 N each. (The can's top touches the palm
     * within the margin, idle; its friction rows weighed as those of a
     * loaded contact, the trial's round-off gave them 1e-9 N s of friction
     * on no load, the trial failed, and the friction LCP loaded one point
     * a pad with 10 N and the other with none: one point a pad, no force
     * closure.) */
    lk_grasp_scene *s = scene(mech("jaw_gripper"), mech(objects[o]));
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    lk_data *d = lk_data_new(lk_grasp_scene_model(s));
    lk_grasp_screener *sc = lk_grasp_screener_new(s, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    for (int k = 0; k < 2; k++) {
      lk_transform pose = from_above(0.06, k ? 0.4 : 0);
      lk_grasp_screen_report r;
      lk_grasp_contact c[CAP];
      lk_error e;
      LK_ASSERT_OK(lk_grasp_screen(sc, d, &pose, NULL, &r, c, CAP, &e), &e);
      lk_grasp_trial_options to;
      lk_grasp_trial_options_default(&to);
      lk_grasp_trial_report tr;
      LK_ASSERT_OK(lk_grasp_place(s, d, &pose, NULL, &e), &e);
      LK_ASSERT_OK(lk_grasp_close(s, d, &to, &tr, &e), &e);
      lk_grasp_extract_options xo;
      lk_grasp_extract_options_default(&xo);
      xo.object = lk_grasp_scene_object(s);
      xo.finger_of_link = lk_grasp_scene_finger_of_link(s);
      lk_grasp_contact tc[CAP];
      int n = lk_grasp_contacts_from_data(lk_grasp_scene_model(s), d, &xo, tc, NULL, CAP);
      CU_ASSERT(n > 0 && n <= CAP);
      lk_grasp_options ao;
      lk_grasp_options_default(&ao);
      ao.center = lk_tf_point(lk_data_link_pose(d, lk_grasp_scene_object(s)), lk_v3(0, 0, 0));
      ao.torque_scale = lk_grasp_scene_object_radius(s);
      lk_grasp_quality q;
      LK_ASSERT_OK(lk_grasp_quality_compute(tc, n, &ao, &q, &e), &e);
      LK_ASSERT_INT_EQ(r.force_closure, q.force_closure);
      LK_ASSERT_REL(r.epsilon, q.epsilon, 1e-3, 1e-6);
      compared++;
    }
    lk_grasp_screener_free(sc);
    lk_data_free(d);
    lk_grasp_scene_free(s);
  }
  LK_ASSERT_INT_EQ(compared, 4);
}

/* The palm in the box is a collision; the hand far away touches nothing;
 * too little room for the contacts is an error, not a silent cut. */
static void test_outcomes_collision_no_contact_and_capacity(void) {
  lk_grasp_scene *s = scene(mech("jaw_gripper"), mech("object_box"));
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  lk_data *d = lk_data_new(lk_grasp_scene_model(s));
  lk_grasp_screener *sc = lk_grasp_screener_new(s, NULL, NULL);
  lk_grasp_screen_report r;
  lk_grasp_contact c[CAP];
  lk_error e;
  lk_transform inside = from_above(0.02, 0);
  LK_ASSERT_OK(lk_grasp_screen(sc, d, &inside, NULL, &r, c, CAP, &e), &e);
  LK_ASSERT_INT_EQ(r.outcome, LK_SCREEN_COLLISION);
  lk_transform away = from_above(0.5, 0);
  LK_ASSERT_OK(lk_grasp_screen(sc, d, &away, NULL, &r, c, CAP, &e), &e);
  LK_ASSERT_INT_EQ(r.outcome, LK_SCREEN_NO_CONTACT);
  LK_ASSERT_INT_EQ(r.fingers_in_contact, 0);
  /* The jaws closed to their limit (q = 0.05). */
  LK_ASSERT_NEAR(r.q[0], 0.05, 1e-15);
  lk_transform good = from_above(0.06, 0);
  CU_ASSERT_EQUAL(lk_grasp_screen(sc, d, &good, NULL, &r, c, 3, &e), LK_CAPACITY_EXCEEDED);
  LK_ASSERT_INT_EQ(r.ncontacts, 8);
  lk_grasp_screener_free(sc);
  lk_data_free(d);
  lk_grasp_scene_free(s);
}

/* The same candidate screened twice, with other candidates in between and
 * in another data, gives the same report to the bit. */
static void test_screening_is_deterministic(void) {
  lk_grasp_scene *s = scene(mech("three_finger_hand"), mech("object_cylinder"));
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  lk_data *d1 = lk_data_new(lk_grasp_scene_model(s)), *d2 = lk_data_new(lk_grasp_scene_model(s));
  lk_grasp_screener *sc = lk_grasp_screener_new(s, NULL, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
  lk_transform p1 = from_above(0.09, 0.2), p2 = from_above(0.08, 1.0);
  lk_grasp_screen_report a, b, x;
  lk_grasp_contact c[CAP];
  lk_error e;
  LK_ASSERT_OK(lk_grasp_screen(sc, d1, &p1, NULL, &a, c, CAP, &e), &e);
  LK_ASSERT_OK(lk_grasp_screen(sc, d1, &p2, NULL, &x, c, CAP, &e), &e);
  LK_ASSERT_OK(lk_grasp_screen(sc, d2, &p1, NULL, &b, c, CAP, &e), &e);
  CU_ASSERT(memcmp(&a, &b, sizeof a) == 0);
  CU_ASSERT(a.fingers_in_contact > 0);
  lk_grasp_screener_free(sc);
  lk_data_free(d1);
  lk_data_free(d2);
  lk_grasp_scene_free(s);
}

/* lk_grasp_epsilon (the expanding polytope, only the facets near the
 * origin) equals lk_grasp_quality_compute's epsilon (qhull's whole hull)
 * on random grasps of 2 to 5 contacts (points on a sphere, normals inward,
 * mu 0.3..1, half of them soft fingers), closed or not, to 1e-12; and on
 * the face-to-face squeeze of a box (64 generators, thousands of facets),
 * without qhull. */
static void test_epsilon_equals_the_whole_hulls(void) {
  uint64_t x = 7;
  int closed = 0, open = 0, qhull = 0;
  lk_grasp_options o;
  lk_grasp_options_default(&o);
  o.torque_scale = 0.03;
  for (int t = 0; t < 60; t++) {
    int nc = 2 + (int)(splitmix(&x) % 4);
    lk_grasp_contact c[8];
    for (int i = 0; i < nc; i++) {
      lk_grasp_contact_default(&c[i]);
      double th = 2 * LK_PI * unit(&x), z = 2 * unit(&x) - 1, r = sqrt(1 - z * z);
      c[i].position = lk_v3(0.03 * r * cos(th), 0.03 * r * sin(th), 0.03 * z);
      c[i].normal = lk_v3(-r * cos(th), -r * sin(th), -z);
      c[i].mu = 0.3 + 0.7 * unit(&x);
      c[i].torsion = splitmix(&x) % 2 ? 0.002 : 0;
    }
    lk_grasp_quality q;
    double eps;
    int uq;
    lk_error e;
    LK_ASSERT_OK(lk_grasp_quality_compute(c, nc, &o, &q, &e), &e);
    LK_ASSERT_OK(lk_grasp_epsilon(c, nc, &o, &eps, &uq, &e), &e);
    LK_ASSERT_NEAR(eps, q.epsilon, 1e-12);
    qhull += uq;
    if (q.epsilon > 0)
      closed++;
    else
      open++;
  }
  /* Both kinds were met, and none needed qhull. */
  CU_ASSERT(closed >= 10 && open >= 10);
  LK_ASSERT_INT_EQ(qhull, 0);
  lk_grasp_contact c[8];
  int k = 0;
  for (int side = -1; side <= 1; side += 2)
    for (int i = 0; i < 4; i++, k++) {
      lk_grasp_contact_default(&c[k]);
      c[k].position = lk_v3(i & 1 ? 0.02 : -0.02, 0.025 * side, i & 2 ? 0.03 : -0.03);
      c[k].normal = lk_v3(0, -side, 0);
      c[k].mu = 0.7;
      c[k].finger = side > 0;
    }
  o.torque_scale = 0.05;
  lk_grasp_quality q;
  double eps;
  int uq;
  lk_error e;
  LK_ASSERT_OK(lk_grasp_quality_compute(c, 8, &o, &q, &e), &e);
  LK_ASSERT_OK(lk_grasp_epsilon(c, 8, &o, &eps, &uq, &e), &e);
  LK_ASSERT_NEAR(eps, q.epsilon, 1e-12);
  LK_ASSERT_INT_EQ(uq, 0);
  CU_ASSERT(q.nfacets > 1000);
}

/* Soft fingers (lk_grasp_scene_options.soft_fingers): the jaw gripper's
 * flat pads pinch the 35 mm ball at one point each (q = 0.055 - 0.035).
 * Rigid, two points resist no twist about the line between them: not
 * force closure (degenerate), in the screen and in the simulated closing
 * alike. With a 5 mm patch each contact resists a twist up to
 * (3 pi / 16) mu a f_n, mu = sqrt(1.0 * 0.6) (rubber on plastic, mixed
 * geometrically), and the pinch is force closure in both (two soft
 * contacts whose line lies inside both friction cones: Murray, Li and
 * Sastry 1994, sec. 5.5). A negative patch is refused. */
static void test_soft_fingers_pinch_a_ball(void) {
  const double a = 0.005, k = 3 * LK_PI / 16 * sqrt(1.0 * 0.6);
  for (int soft = 0; soft < 2; soft++) {
    lk_grasp_scene_options so;
    lk_grasp_scene_options_default(&so);
    so.soft_fingers = soft ? a : 0;
    char hpath[4096], opath[4096];
    snprintf(hpath, sizeof hpath, "%s", mech("jaw_gripper"));
    snprintf(opath, sizeof opath, "%s", mech("object_sphere"));
    lk_error e;
    lk_grasp_scene *s = lk_grasp_scene_load(hpath, opath, &so, &e);
    LK_ASSERT_MSG(s != NULL, "%s", e.message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    lk_data *d = lk_data_new(lk_grasp_scene_model(s));
    lk_grasp_screener *sc = lk_grasp_screener_new(s, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    lk_transform pose = from_above(0.05, 0);
    lk_grasp_screen_report r;
    lk_grasp_contact c[CAP];
    LK_ASSERT_OK(lk_grasp_screen(sc, d, &pose, NULL, &r, c, CAP, &e), &e);
    LK_ASSERT_INT_EQ(r.ncontacts, 2);
    LK_ASSERT_INT_EQ(r.fingers_in_contact, 2);
    for (int f = 0; f < 2; f++) LK_ASSERT_NEAR(r.q[f], 0.055 - 0.035, 1e-9);
    for (int i = 0; i < r.ncontacts && i < CAP; i++)
      LK_ASSERT_NEAR(c[i].torsion, soft ? k * a : 0, 1e-15);
    LK_ASSERT_INT_EQ(r.force_closure, soft);
    LK_ASSERT_INT_EQ(r.outcome, soft ? LK_SCREEN_CLOSED : LK_SCREEN_NOT_CLOSED);
    if (!soft) LK_ASSERT_INT_EQ(r.reason, LK_GRASP_DEGENERATE);
    /* The simulated closing's contacts, as the trials analyse them. */
    lk_grasp_trial_options to;
    lk_grasp_trial_options_default(&to);
    lk_grasp_trial_report tr;
    LK_ASSERT_OK(lk_grasp_place(s, d, &pose, NULL, &e), &e);
    LK_ASSERT_OK(lk_grasp_close(s, d, &to, &tr, &e), &e);
    lk_grasp_extract_options xo;
    lk_grasp_extract_options_default(&xo);
    xo.object = lk_grasp_scene_object(s);
    xo.finger_of_link = lk_grasp_scene_finger_of_link(s);
    lk_grasp_contact tc[CAP];
    int n = lk_grasp_contacts_from_data(lk_grasp_scene_model(s), d, &xo, tc, NULL, CAP);
    LK_ASSERT_INT_EQ(n, 2);
    for (int i = 0; i < n && i < CAP; i++) LK_ASSERT_NEAR(tc[i].torsion, soft ? k * a : 0, 1e-15);
    lk_grasp_options ao;
    lk_grasp_options_default(&ao);
    ao.center = lk_tf_point(lk_data_link_pose(d, lk_grasp_scene_object(s)), lk_v3(0, 0, 0));
    ao.torque_scale = lk_grasp_scene_object_radius(s);
    lk_grasp_closure_report cr;
    LK_ASSERT_OK(lk_grasp_force_closure(tc, n, &ao, &cr, &e), &e);
    LK_ASSERT_INT_EQ(cr.closed, soft);
    lk_grasp_screener_free(sc);
    lk_data_free(d);
    lk_grasp_scene_free(s);
  }
  lk_grasp_scene_options so;
  lk_grasp_scene_options_default(&so);
  so.soft_fingers = -0.001;
  char hpath[4096], opath[4096];
  snprintf(hpath, sizeof hpath, "%s", mech("jaw_gripper"));
  snprintf(opath, sizeof opath, "%s", mech("object_sphere"));
  lk_error e;
  CU_ASSERT_PTR_NULL(lk_grasp_scene_load(hpath, opath, &so, &e));
  LK_ASSERT_INT_EQ(e.status, LK_INVALID_ARGUMENT);
}

void lk_test_register(void) {
  static const lk_test tests[] = {
      {"the screen reports the grip the trial's loads need",
       test_screen_reports_the_grip_the_trial_loads_need},
      {"a jaw stops at a face and at a corner to 1e-9", test_jaw_stops_at_the_face_and_at_the_corner},
      {"a swinging fingertip stops on the top face", test_swinging_tip_stops_on_the_top_face},
      {"a two-joint finger curls around the edge", test_two_joint_finger_curls_around_the_edge},
      {"screening agrees with the simulated closing", test_screening_agrees_with_the_closed_trial},
      {"collision, no contact, too little room", test_outcomes_collision_no_contact_and_capacity},
      {"screening is deterministic", test_screening_is_deterministic},
      {"epsilon equals the whole hull's", test_epsilon_equals_the_whole_hulls},
      {"soft fingers: a pinch of a ball is force closure", test_soft_fingers_pinch_a_ball},
      {NULL, NULL}};
  lk_test_suite("grasp screening", tests);
}
