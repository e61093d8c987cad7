/* The closing direction of each finger joint (issue 32). A hand whose
 * fingers close towards their lower limit, as Menagerie's Panda hand
 * (hand.xml: slide joints 0 .. 0.04, open at 0.04, one tendon servo and a
 * joint equality), is planned as it is written: the scene reads each
 * finger joint's closing direction from the hand (the way that moves the
 * finger in front of the palm and in towards the approach axis), a hand
 * written closed starts open, and the screener, the trials' closing
 * controller and the antipodal sampler all close that way. What this file
 * specifies:
 *   - the hands in mechanisms/ close positive, as before (read, not given);
 *   - a Panda-like MJCF hand written here (other numbers: 0 .. 0.05, pads
 *     1 cm apart when closed) closes negative, both jaws, and starts open
 *     at 0.05; its jaws stop on the box's faces at q = 0.02 to 1e-9; off
 *     centre the coupled jaws centre the box (the one that touches first
 *     stays, the other closes on: both on the faces to 1e-9), or with
 *     centre_coupled 0 stop together, one short by twice the offset; given
 *     "+1" instead (the old assumption: closing is positive) the centred
 *     pose is a collision, the jaws starting closed inside the box;
 *   - its centred face grasp holds in a dynamic trial, jaws at 0.02;
 *   - the planner (--approach 0,0,1) ranks grasps with it on the box with
 *     most antipodal candidates closed and the best verified held;
 *   - PyBullet's Robotiq 2F-85 URDF as published (a committed copy, no
 *     actuators, four-bar fingers by mimic): two fingers (the inner
 *     knuckles join them), driven by the scene's own actuator, it closes
 *     onto the box's faces and stops at them to 1e-9,
 *     holds in a trial, and closes to its limit with nothing in between;
 *   - Menagerie's Panda hand as published (when ../shared/data/robots is
 *     there, else that case is skipped): closes negative, starts open at
 *     0.04, and the planner's verified grasps on YCB's tomato soup can hold
 *     (at least 2 of 4; before: 0 of 200 candidates closed). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "scene_fixture.h"
#include "linkage/linkage.h"
#include "proc.h"

#define CAP 64

/* A Panda-like hand: the fingers along +z of a root body turned 180
 * degrees about z, slide joints along +y of each finger (the right finger
 * turned 180 degrees about z), open at the upper limit. */
static const char *panda_like(void) {
  static const char text[] =
      "<mujoco model=\"closing to zero\">\n"
      "  <compiler angle=\"radian\" autolimits=\"true\"/>\n"
      "  <default>\n"
      "    <joint armature=\"0.1\" damping=\"1\"/>\n"
      "    <default class=\"finger\">\n"
      "      <joint type=\"slide\" axis=\"0 1 0\" range=\"0 0.05\"/>\n"
      "    </default>\n"
      "  </default>\n"
      "  <worldbody>\n"
      "    <body name=\"hand\" quat=\"0 0 0 1\">\n"
      "      <inertial mass=\"0.6\" pos=\"0 0 0.02\" diaginertia=\"0.001 0.002 0.0015\"/>\n"
      "      <geom type=\"box\" size=\"0.02 0.09 0.02\" pos=\"0 0 0.02\"/>\n"
      "      <body name=\"left_finger\" pos=\"0 0 0.06\">\n"
      "        <inertial mass=\"0.02\" pos=\"0 0.01 0.03\" diaginertia=\"3e-6 3e-6 1e-6\"/>\n"
      "        <joint name=\"j1\" class=\"finger\"/>\n"
      "        <geom type=\"box\" size=\"0.01 0.005 0.025\" pos=\"0 0.01 0.03\" friction=\"1\"/>\n"
      "      </body>\n"
      "      <body name=\"right_finger\" pos=\"0 0 0.06\" quat=\"0 0 0 1\">\n"
      "        <inertial mass=\"0.02\" pos=\"0 0.01 0.03\" diaginertia=\"3e-6 3e-6 1e-6\"/>\n"
      "        <joint name=\"j2\" class=\"finger\"/>\n"
      "        <geom type=\"box\" size=\"0.01 0.005 0.025\" pos=\"0 0.01 0.03\" friction=\"1\"/>\n"
      "      </body>\n"
      "    </body>\n"
      "  </worldbody>\n"
      "  <contact>\n"
      "    <exclude body1=\"hand\" body2=\"left_finger\"/>\n"
      "    <exclude body1=\"hand\" body2=\"right_finger\"/>\n"
      "  </contact>\n"
      "  <tendon>\n"
      "    <fixed name=\"split\">\n"
      "      <joint joint=\"j1\" coef=\"0.5\"/>\n"
      "      <joint joint=\"j2\" coef=\"0.5\"/>\n"
      "    </fixed>\n"
      "  </tendon>\n"
      "  <equality>\n"
      "    <joint joint1=\"j1\" joint2=\"j2\"/>\n"
      "  </equality>\n"
      "  <actuator>\n"
      "    <general name=\"grip\" tendon=\"split\" forcerange=\"-100 100\" ctrlrange=\"0 255\"\n"
      "      gainprm=\"0.0196078431372549 0 0\" biasprm=\"0 -100 -10\"/>\n"
      "  </actuator>\n"
      "</mujoco>\n";
  const char *path = lk_test_scratch("panda_like.xml");
  lk_test_write(path, text);
  return path;
}

static lk_grasp_scene *load(const char *hand, const char *object, const char *const *closing,
                            int nclosing) {
  lk_grasp_scene_options o;
  lk_grasp_scene_options_default(&o);
  o.approach = lk_v3(0, 0, 1);
  o.closing = closing;
  o.nclosing = nclosing;
  return fixture_scene(hand, object, &o);
}

/* The palm above the box's centre, the jaws along y shifted by dy. */
static lk_transform above(double standoff, double dy) {
  lk_mat3 R = lk_m3_identity();
  return lk_tf(&R, lk_v3(0, dy, standoff));
}

/* The shipped hands close positive, every joint, as read from them. */
static void test_the_shipped_hands_close_positive(void) {
  const char *hands[] = {"jaw_gripper", "three_finger_hand", "jaw_gripper_urdf", "hand3"};
  for (int i = 0; i < 4; i++) {
    char hpath[4096], opath[4096];
    snprintf(hpath, sizeof hpath, "%s", lk_test_mechanism(hands[i]));
    snprintf(opath, sizeof opath, "%s", lk_test_mechanism("object_box"));
    lk_error e;
    lk_grasp_scene *s = lk_grasp_scene_load(hpath, opath, NULL, &e);
    if (!s) { /* not every mechanism is a hand */
      printf("  [closing] %s: not a hand here (%s)\n", hands[i], e.message);
      CU_ASSERT(i == 3);
      continue;
    }
    int n = lk_grasp_scene_nfinger_dofs(s);
    CU_ASSERT(n > 0);
    for (int k = 0; k < n; k++)
      LK_ASSERT_MSG(lk_grasp_scene_closing(s, k) == 1, "%s: DoF %d closes %d", hands[i], k,
                    lk_grasp_scene_closing(s, k));
    for (int f = 0; f < lk_grasp_scene_nfinger(s); f++) {
      const lk_grasp_finger *fg = lk_grasp_scene_finger(s, f);
      for (int j = 0; j < fg->ncoupled; j++) LK_ASSERT_INT_EQ(fg->coupled_closing[j], 1);
    }
    lk_grasp_scene_free(s);
  }
}

/* The Panda-like hand closes negative and starts open; its jaws stop on
 * the box's faces. */
static void test_a_hand_that_closes_towards_zero(void) {
  char box[4096];
  snprintf(box, sizeof box, "%s", lk_test_mechanism("object_box"));
  lk_grasp_scene *s = load(panda_like(), box, NULL, 0);
  CU_ASSERT_FATAL(s != NULL);
  LK_ASSERT_INT_EQ(lk_grasp_scene_nfinger(s), 2);
  LK_ASSERT_INT_EQ(lk_grasp_scene_nfinger_dofs(s), 1);
  LK_ASSERT_INT_EQ(lk_grasp_scene_closing(s, 0), -1);
  const lk_grasp_finger *r = lk_grasp_scene_finger(s, 1);
  LK_ASSERT_INT_EQ(r->ncoupled, 1);
  LK_ASSERT_INT_EQ(r->coupled_closing[0], -1);
  LK_ASSERT_INT_EQ(lk_grasp_scene_finger(s, 0)->closing[0], -1);
  /* Written closed (q = 0), it starts open. */
  LK_ASSERT_NEAR(lk_grasp_scene_preshape(s)[0], 0.05, 0);
  lk_data *d = lk_data_new(lk_grasp_scene_model(s));
  lk_grasp_screener *sc = lk_grasp_screener_new(s, NULL, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
  /* The antipodal sampler takes it for a parallel jaw (the jaws' closing
   * directions, opposite). */
  lk_grasp_sampler *sp = lk_grasp_sampler_new(s, NULL, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sp);
  LK_ASSERT_INT_EQ(lk_grasp_sampler_kind(sp), LK_SAMPLE_ANTIPODAL);
  lk_grasp_sampler_free(sp);
  /* Centred: both on the faces (y = +-0.025, the pads' inner faces at
   * 0.005 + q): q = 0.02. Off centre by dy: closing in from outside, the
   * jaw facing the farther face touches first, at q = 0.02 + |dy|; the
   * coupled jaws centre the box (centre_coupled, the default): the other
   * closes on to its face, at 0.02 - |dy|, and both touch. With
   * centre_coupled 0 they stop together, the other 2 |dy| short. */
  lk_grasp_screen_options together;
  lk_grasp_screen_options_default(&together);
  together.centre_coupled = 0;
  lk_grasp_screener *st = lk_grasp_screener_new(s, &together, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(st);
  const double dy[] = {0, 0.004, -0.007};
  for (int i = 0; i < 3; i++) {
    lk_transform pose = above(0.09, dy[i]);
    lk_grasp_screen_report rep;
    lk_grasp_contact c[CAP];
    lk_error e;
    LK_ASSERT_OK(lk_grasp_screen(sc, d, &pose, NULL, &rep, c, CAP, &e), &e);
    double q1 = fixture_joint_q(s, d, "j1"), q2 = fixture_joint_q(s, d, "j2");
    LK_ASSERT_NEAR(fmax(q1, q2), 0.02 + fabs(dy[i]), 1e-9);
    LK_ASSERT_NEAR(fmin(q1, q2), 0.02 - fabs(dy[i]), 1e-9);
    LK_ASSERT_INT_EQ(rep.fingers_in_contact, 2);
    LK_ASSERT_INT_EQ(rep.outcome, LK_SCREEN_CLOSED);
    CU_ASSERT(rep.epsilon > 0);
    LK_ASSERT_OK(lk_grasp_screen(st, d, &pose, NULL, &rep, c, CAP, &e), &e);
    q1 = fixture_joint_q(s, d, "j1");
    q2 = fixture_joint_q(s, d, "j2");
    LK_ASSERT_NEAR(q2, q1, 1e-15);
    LK_ASSERT_NEAR(q1, 0.02 + fabs(dy[i]), 1e-9);
    if (dy[i] != 0) {
      LK_ASSERT_INT_EQ(rep.fingers_in_contact, 1);
      LK_ASSERT_INT_EQ(rep.outcome, LK_SCREEN_NOT_CLOSED);
      LK_ASSERT_NEAR(fmax(rep.gap[0], rep.gap[1]), 2 * fabs(dy[i]), 1e-9);
    }
  }
  lk_grasp_screener_free(st);
  /* High above the box: the jaws close to their lower limit, 0. */
  lk_transform high = above(0.09 + 0.2, 0);
  lk_grasp_screen_report rep;
  lk_grasp_contact c[CAP];
  lk_error e;
  LK_ASSERT_OK(lk_grasp_screen(sc, d, &high, NULL, &rep, c, CAP, &e), &e);
  LK_ASSERT_NEAR(fixture_joint_q(s, d, "j1"), 0, 0);
  LK_ASSERT_NEAR(fixture_joint_q(s, d, "j2"), 0, 0);
  LK_ASSERT_INT_EQ(rep.outcome, LK_SCREEN_NO_CONTACT);
  lk_grasp_screener_free(sc);
  lk_data_free(d);
  lk_grasp_scene_free(s);

  /* Told it closes positive (what the grasp layer assumed before): it
   * starts where the file has it, closed, inside the box. */
  const char *plus[] = {"j1=+1"};
  s = load(panda_like(), box, plus, 1);
  CU_ASSERT_FATAL(s != NULL);
  LK_ASSERT_INT_EQ(lk_grasp_scene_closing(s, 0), 1);
  LK_ASSERT_INT_EQ(lk_grasp_scene_finger(s, 1)->coupled_closing[0], 1);
  LK_ASSERT_NEAR(lk_grasp_scene_preshape(s)[0], 0, 0);
  d = lk_data_new(lk_grasp_scene_model(s));
  sc = lk_grasp_screener_new(s, NULL, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
  lk_transform pose = above(0.09, 0);
  LK_ASSERT_OK(lk_grasp_screen(sc, d, &pose, NULL, &rep, c, CAP, &e), &e);
  LK_ASSERT_INT_EQ(rep.outcome, LK_SCREEN_COLLISION);
  lk_grasp_screener_free(sc);
  lk_data_free(d);
  lk_grasp_scene_free(s);
  /* A closing direction naming no finger joint is an error. */
  const char *bad[] = {"hand=-1"};
  char hpath[4096];
  snprintf(hpath, sizeof hpath, "%s", panda_like());
  lk_grasp_scene_options o;
  lk_grasp_scene_options_default(&o);
  o.closing = bad;
  o.nclosing = 1;
  CU_ASSERT(lk_grasp_scene_load(hpath, box, &o, &e) == NULL);
  LK_ASSERT_INT_EQ(e.status, LK_INVALID_ARGUMENT);
}

/* The centred face grasp held in a dynamic trial: the servo closes the
 * jaws towards 0 onto the faces. */
static void test_the_trial_closes_towards_zero(void) {
  char box[4096];
  snprintf(box, sizeof box, "%s", lk_test_mechanism("object_box"));
  lk_grasp_scene *s = load(panda_like(), box, NULL, 0);
  CU_ASSERT_FATAL(s != NULL);
  lk_data *d = lk_data_new(lk_grasp_scene_model(s));
  lk_transform pose = above(0.09, 0);
  lk_grasp_trial_report r;
  lk_error e;
  LK_ASSERT_OK(lk_grasp_trial(s, d, &pose, NULL, NULL, &r, &e), &e);
  double q1 = fixture_joint_q(s, d, "j1"), q2 = fixture_joint_q(s, d, "j2");
  printf("  [closing] trial: %s, q %.6f %.6f, epsilon %g\n", lk_grasp_outcome_name(r.outcome), q1,
         q2, r.epsilon);
  LK_ASSERT_MSG(r.held, "outcome %s", lk_grasp_outcome_name(r.outcome));
  LK_ASSERT_INT_EQ(r.fingers_in_contact, 2);
  CU_ASSERT(q1 > 0.019 && q1 < 0.021); /* on the box's faces */
  LK_ASSERT_NEAR(q2, q1, 1e-4);
  lk_data_free(d);
  lk_grasp_scene_free(s);
}

/* The Panda-like hand with light jaws (2 g, no armature) on stiff
 * dampers (5 N s/m each): the closing loop's gain is bounded by the jaw's
 * inertia (k <= M / 2h = 0.5 N s/m), so without the damping fed forward
 * the jaws crept at 0.15 k / (k + 10) = 0.007 m/s and were still at q =
 * 0.0443 (of 0.05) at the 0.8 s timeout (Menagerie's Allegro hand:
 * damping 0.1 on its light distal links, closing at 0.03 rad/s). With
 * nothing between them they close to their limit, 0 (the coupled jaw's
 * damping is not fed forward: 0.7 s). */
static void test_the_trial_closes_against_damping(void) {
  char *text = lk_test_slurp(panda_like(), NULL);
  CU_ASSERT_FATAL(text != NULL);
  char *a = strstr(text, "armature=\"0.1\" damping=\"1\"");
  CU_ASSERT_FATAL(a != NULL);
  memcpy(a, "armature=\"0.0\" damping=\"5\"", strlen("armature=\"0.0\" damping=\"5\""));
  for (char *m = text; (m = strstr(m, "mass=\"0.02\"")); m++) memcpy(m, "mass=\"2e-3\"", 11);
  const char *path = lk_test_scratch("damped.xml");
  lk_test_write(path, text);
  free(text);
  char box[4096];
  snprintf(box, sizeof box, "%s", lk_test_mechanism("object_box"));
  lk_grasp_scene *s = load(path, box, NULL, 0);
  CU_ASSERT_FATAL(s != NULL);
  lk_data *d = lk_data_new(lk_grasp_scene_model(s));
  lk_transform high = above(0.4, 0);
  lk_grasp_trial_report r;
  lk_error e;
  LK_ASSERT_OK(lk_grasp_trial(s, d, &high, NULL, NULL, &r, &e), &e);
  printf("  [closing] damped jaws: %s, q %.5f after %.3f s of closing\n",
         lk_grasp_outcome_name(r.outcome), fixture_joint_q(s, d, "j1"), r.close_time);
  LK_ASSERT_INT_EQ(r.outcome, LK_GRASP_NO_CONTACT);
  LK_ASSERT_NEAR(fixture_joint_q(s, d, "j1"), 0, 1e-3);
  LK_ASSERT_NEAR(fixture_joint_q(s, d, "j2"), 0, 1e-3);
  lk_data_free(d);
  lk_grasp_scene_free(s);
}

/* Field i of a CSV line (no quoting: the planner writes none), into buf. */
static const char *field(const char *line, int i, char *buf, size_t n) {
  for (int k = 0; k < i && line; k++) {
    line = strchr(line, ',');
    if (line) line++;
  }
  if (!line) return "";
  size_t len = strcspn(line, ",");
  if (len >= n) len = n - 1;
  memcpy(buf, line, len);
  buf[len] = '\0';
  return buf;
}

/* The rows of a planner CSV: screened closed, verified, held. */
static void count_rows(const char *csv, int *closed, int *verified, int *held) {
  char *text = lk_test_slurp(csv, NULL);
  CU_ASSERT_FATAL(text != NULL);
  *closed = *verified = *held = 0;
  char *save = NULL, buf[64];
  int cscreen = -1, cverified = -1, cheld = -1;
  for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    if (cscreen < 0) { /* the header */
      for (int i = 0; *field(line, i, buf, sizeof buf); i++) {
        if (!strcmp(buf, "screen")) cscreen = i;
        if (!strcmp(buf, "verified")) cverified = i;
        if (!strcmp(buf, "held")) cheld = i;
      }
      CU_ASSERT_FATAL(cscreen >= 0 && cverified >= 0 && cheld >= 0);
      continue;
    }
    *closed += !strcmp(field(line, cscreen, buf, sizeof buf), "closed");
    *verified += !strcmp(field(line, cverified, buf, sizeof buf), "1");
    *held += !strcmp(field(line, cheld, buf, sizeof buf), "1");
  }
  free(text);
}

static void run_planner(const char *hand, const char *object, const char *n, const char *verify,
                        const char *out) {
  const char *argv[] = {"--hand",   hand,   "--object", object, "--approach", "0,0,1", "-n", n,
                        "--verify", verify, "-q",       "-o",   out,          NULL};
  lk_test_result r = lk_test_run(LK_TEST_PLANNER, argv);
  LK_ASSERT_MSG(r.status == 0, "exit %d: %s", r.status, r.err ? r.err : "");
  lk_test_result_free(&r);
}

/* The planner with the Panda-like hand on the box. */
static void test_planner_with_a_hand_that_closes_towards_zero(void) {
  char hand[4096], box[4096], out[4096];
  snprintf(hand, sizeof hand, "%s", panda_like());
  snprintf(box, sizeof box, "%s", lk_test_mechanism("object_box"));
  snprintf(out, sizeof out, "%s", lk_test_scratch("closing.csv"));
  run_planner(hand, box, "60", "2", out);
  int closed, verified, held;
  count_rows(out, &closed, &verified, &held);
  printf("  [closing] panda-like on the box: %d of 60 closed, %d of %d verified held\n", closed,
         held, verified);
  CU_ASSERT(closed >= 30);
  LK_ASSERT_INT_EQ(verified, 2);
  CU_ASSERT(held >= 1);
  unlink(out);
}

/* Menagerie's Panda hand as published on YCB's tomato soup can. */
static void test_planner_with_the_published_panda_hand(void) {
  char hand[4096], can[4096], out[4096];
  snprintf(hand, sizeof hand, "%s",
           lk_test_srcpath("../shared/data/robots/menagerie/franka_emika_panda/hand.xml"));
  snprintf(can, sizeof can, "%s",
           lk_test_srcpath("../shared/data/robots/ycb/ycb_objects/YcbTomatoSoupCan/model.urdf"));
  if (!lk_test_exists(hand) || !lk_test_exists(can)) {
    printf("  [closing] ../shared/data/robots not there: the published Panda hand skipped\n");
    return;
  }
  lk_grasp_scene *s = load(hand, can, NULL, 0);
  CU_ASSERT_FATAL(s != NULL);
  LK_ASSERT_INT_EQ(lk_grasp_scene_nfinger(s), 2);
  LK_ASSERT_INT_EQ(lk_grasp_scene_closing(s, 0), -1);
  LK_ASSERT_NEAR(lk_grasp_scene_preshape(s)[0], 0.04, 0);
  lk_grasp_scene_free(s);
  snprintf(out, sizeof out, "%s", lk_test_scratch("panda.csv"));
  run_planner(hand, can, "100", "4", out);
  int closed, verified, held;
  count_rows(out, &closed, &verified, &held);
  printf("  [closing] Panda hand on the soup can: %d of 100 closed, %d of %d verified held\n",
         closed, held, verified);
  /* The can is a V-HACD hull of a scan: a jaw touches it at one point (a
   * two-point pinch is not force closure, so few candidates count as
   * closed), but the pinch holds in the trials. */
  LK_ASSERT_INT_EQ(verified, 4);
  CU_ASSERT(held >= 2);
  unlink(out);
}


/* PyBullet's Robotiq 2F-85 URDF as published (tests/data/grasp/robotiq_2f85:
 * the URDF unmodified, the ROS package's collision meshes): no actuators,
 * its four-bar fingers as mimic joints of finger_joint (inner knuckles +1,
 * inner fingers -1, the right side +1). */
static lk_grasp_scene *robotiq(void) {
  char hand[4096], box[4096], pkg[4096];
  snprintf(hand, sizeof hand, "%s", lk_test_data("grasp/robotiq_2f85/robotiq_85.urdf"));
  snprintf(pkg, sizeof pkg, "%s", lk_test_data("grasp/robotiq_2f85"));
  snprintf(box, sizeof box, "%s", lk_test_mechanism("object_box"));
  lk_grasp_scene_options o;
  lk_grasp_scene_options_default(&o);
  o.approach = lk_v3(0, 0, 1); /* fingers along +z of its base link */
  o.package_path = pkg;
  lk_error e;
  lk_grasp_scene *s = lk_grasp_scene_load(hand, box, &o, &e);
  LK_ASSERT_MSG(s != NULL, "%s", e.message);
  return s;
}

/* The file has no actuators: the scene drives finger_joint (the one moving
 * joint that mimics none) with an effort actuator of its own, closing
 * positive; the screener closes the fingers onto the box's faces and stops
 * them there: every contact on y = +-0.025 to 1e-9, both outer fingers
 * within 1e-9 of the box, the two sides at the same q. In a trial the
 * closing loop drives the joint onto the faces (held), and with nothing
 * between the fingers closes them to the joint's upper limit, 0.8 rad: the
 * finger links moved by one joint do not collide with each other (the
 * four-bar's halves overlap at their pin: it stalled at 0.412 before). */
static void test_the_robotiq_urdf_closes_onto_a_face(void) {
  lk_grasp_scene *s = robotiq();
  CU_ASSERT_FATAL(s != NULL);
  const lk_model *m = lk_grasp_scene_model(s);
  LK_ASSERT_INT_EQ(lk_grasp_scene_nfinger_dofs(s), 1);
  LK_ASSERT_INT_EQ(lk_grasp_scene_closing(s, 0), 1);
  /* Two fingers: each inner knuckle (the short half of a four-bar, a
   * subtree of the palm of its own) joins the finger beside it. */
  LK_ASSERT_INT_EQ(lk_grasp_scene_nfinger(s), 2);
  const lk_grasp_finger *f0 = lk_grasp_scene_finger(s, 0);
  const lk_grasp_finger *f1 = lk_grasp_scene_finger(s, 1);
  LK_ASSERT_INT_EQ(f0->ndof, 1);
  LK_ASSERT_INT_EQ(f0->ncoupled, 2); /* left inner finger, left inner knuckle */
  LK_ASSERT_INT_EQ(f1->ndof, 0);
  LK_ASSERT_INT_EQ(f1->ncoupled, 3); /* right outer knuckle, inner finger, inner knuckle */
  const int *fol = lk_grasp_scene_finger_of_link(s);
  LK_ASSERT_INT_EQ(fol[lk_model_link_index(m, "hand_left_inner_knuckle")], 0);
  LK_ASSERT_INT_EQ(fol[lk_model_link_index(m, "hand_right_inner_knuckle")], 1);
  CU_ASSERT_STRING_EQUAL(lk_model_joint_name(m, lk_model_dof_link(m, f0->dof[0])),
                         "hand_finger_joint");
  lk_data *d = lk_data_new(m);
  lk_grasp_screener *sc = lk_grasp_screener_new(s, NULL, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
  lk_transform pose = above(0.17, 0);
  lk_grasp_screen_report r;
  lk_grasp_contact c[256];
  lk_error e;
  LK_ASSERT_OK(lk_grasp_screen(sc, d, &pose, NULL, &r, c, 256, &e), &e);
  double q = fixture_joint_q(s, d, "finger_joint");
  printf("  [closing] 2F-85 on the box: %s, q %.9f, %d contacts\n",
         lk_grasp_screen_outcome_name(r.outcome), q, r.ncontacts);
  LK_ASSERT_INT_EQ(r.outcome, LK_SCREEN_CLOSED);
  CU_ASSERT(q > 0.1 && q < 0.7);
  LK_ASSERT_NEAR(fixture_joint_q(s, d, "right_outer_knuckle_joint"), q, 1e-9);
  LK_ASSERT_NEAR(fixture_joint_q(s, d, "left_inner_finger_joint"), -q, 1e-9);
  CU_ASSERT(r.ncontacts >= 4);
  int left = 0, right = 0;
  for (int i = 0; i < r.ncontacts; i++) {
    LK_ASSERT_NEAR(fabs(c[i].position.y), 0.025, 1e-9);
    left += c[i].position.y > 0;
    right += c[i].position.y < 0;
  }
  CU_ASSERT(left > 0 && right > 0);
  int touching = 0;
  for (int f = 0; f < 2; f++) touching += r.gap[f] <= 1e-9;
  LK_ASSERT_INT_EQ(touching, 2);
  LK_ASSERT_INT_EQ(r.fingers_in_contact, 2);
  /* The trial: onto the faces, held. */
  lk_grasp_trial_report tr;
  LK_ASSERT_OK(lk_grasp_trial(s, d, &pose, NULL, NULL, &tr, &e), &e);
  double qt = fixture_joint_q(s, d, "finger_joint");
  printf("  [closing] 2F-85 trial: %s, q %.6f\n", lk_grasp_outcome_name(tr.outcome), qt);
  LK_ASSERT_MSG(tr.held, "outcome %s", lk_grasp_outcome_name(tr.outcome));
  LK_ASSERT_NEAR(qt, q, 2e-3);
  /* Nothing between the fingers: closed to the limit. */
  lk_transform high = above(0.4, 0);
  LK_ASSERT_OK(lk_grasp_trial(s, d, &high, NULL, NULL, &tr, &e), &e);
  LK_ASSERT_INT_EQ(tr.outcome, LK_GRASP_NO_CONTACT);
  LK_ASSERT_NEAR(fixture_joint_q(s, d, "finger_joint"), 0.8, 1e-3);
  lk_grasp_screener_free(sc);
  lk_data_free(d);
  lk_grasp_scene_free(s);
}

/* The 2F-85 URDF has one actuated joint, finger_joint, which moves both
 * jaws through its mimic joints: pressing the box, the closing loop must
 * give it the torque that presses each pad with the grip force (virtual
 * work over the leader and its mimics). The pads' normal forces, read from
 * the contacts on the box, are the grip force to the trial's tolerance,
 * and closing ends because they are (report.closed). Before, the press
 * took the leader's own column only (the pad's motion with its mimics held
 * still): here the pads pressed 17 N of the 20 asked, and on the YCB soup
 * can (bench/real_hands) 0.2 to 0.5 N of 10. */
static void test_the_robotiq_urdf_presses_both_pads(void) {
  lk_grasp_scene *s = robotiq();
  CU_ASSERT_FATAL(s != NULL);
  lk_data *d = lk_data_new(lk_grasp_scene_model(s));
  lk_grasp_trial_options o;
  lk_grasp_trial_options_default(&o);
  o.grip_force = 20;
  lk_transform pose = above(0.17, 0);
  lk_grasp_trial_report tr;
  lk_error e;
  LK_ASSERT_OK(lk_grasp_place(s, d, &pose, NULL, &e), &e);
  memset(&tr, 0, sizeof tr);
  LK_ASSERT_OK(lk_grasp_close(s, d, &o, &tr, &e), &e);
  printf("  [closing] 2F-85 presses %.3f and %.3f N (asked %g)\n", tr.finger_force[0],
         tr.finger_force[1], o.grip_force);
  LK_ASSERT_INT_EQ(tr.fingers_in_contact, 2);
  CU_ASSERT(tr.closed);
  for (int f = 0; f < 2; f++)
    LK_ASSERT_NEAR(tr.finger_force[f], o.grip_force, o.force_tolerance * o.grip_force);
  lk_data_free(d);
  lk_grasp_scene_free(s);
}

/* The 2F-85's fingertips are a parallel jaw on revolute four-bars: the
 * default sampler is antipodal (it was the surface sampler, which placed
 * most candidates in the YCB objects). Each draw on the 5 x 5 x 8 cm box
 * puts the open hand so that the line between the two pads (their links'
 * origins, from the placed model) lies along the drawn face's normal and
 * their mid-point on the box's mid-plane across that face (through the
 * box's centre, the object frame's origin): the mirror-symmetric jaw
 * straddles the box. */
static void test_the_robotiq_tips_are_an_antipodal_jaw(void) {
  lk_grasp_scene *s = robotiq();
  CU_ASSERT_FATAL(s != NULL);
  const lk_model *m = lk_grasp_scene_model(s);
  lk_error e;
  lk_grasp_sampler *sp = lk_grasp_sampler_new(s, NULL, &e);
  LK_ASSERT_MSG(sp != NULL, "%s", e.message);
  CU_ASSERT_FATAL(sp != NULL);
  LK_ASSERT_INT_EQ(lk_grasp_sampler_kind(sp), LK_SAMPLE_ANTIPODAL);
  lk_data *d = lk_data_new(m);
  int pl = lk_model_link_index(m, "hand_left_inner_finger_pad");
  int pr = lk_model_link_index(m, "hand_right_inner_finger_pad");
  int ob = lk_grasp_scene_object(s);
  CU_ASSERT_FATAL(pl > 0 && pr > 0);
  for (int i = 0; i < 20; i++) {
    lk_grasp_candidate c;
    LK_ASSERT_OK(lk_grasp_sampler_draw(sp, i, &c, &e), &e);
    LK_ASSERT_OK(lk_grasp_place(s, d, &c.pose, NULL, &e), &e);
    const lk_transform *X = lk_data_link_pose(d, ob);
    lk_vec3 a = lk_tf_inv_point(X, lk_data_link_pose(d, pl)->p);
    lk_vec3 b = lk_tf_inv_point(X, lk_data_link_pose(d, pr)->p);
    lk_vec3 u = lk_v3_normalize(lk_v3_sub(b, a));
    lk_vec3 n = c.surface_normal;
    LK_ASSERT_NEAR(fabs(lk_v3_dot(u, n)), 1, 1e-9);
    LK_ASSERT_NEAR(lk_v3_dot(lk_v3_scale(lk_v3_add(a, b), 0.5), n), 0, 1e-9);
  }
  lk_data_free(d);
  lk_grasp_sampler_free(sp);
  lk_grasp_scene_free(s);
}

static const lk_test tests[] = {
    {"the shipped hands close positive", test_the_shipped_hands_close_positive},
    {"a hand that closes towards zero", test_a_hand_that_closes_towards_zero},
    {"the trial closes towards zero", test_the_trial_closes_towards_zero},
    {"the trial closes against damping", test_the_trial_closes_against_damping},
    {"planner with a hand that closes towards zero",
     test_planner_with_a_hand_that_closes_towards_zero},
    {"planner with the published Panda hand", test_planner_with_the_published_panda_hand},
    {"the Robotiq 2F-85 URDF closes onto a box face", test_the_robotiq_urdf_closes_onto_a_face},
    {"the Robotiq 2F-85 URDF presses both pads", test_the_robotiq_urdf_presses_both_pads},
    {"the Robotiq 2F-85's tips are an antipodal jaw", test_the_robotiq_tips_are_an_antipodal_jaw},
    {NULL, NULL}};

void lk_test_register(void) { lk_test_suite("grasp closing", tests); }
