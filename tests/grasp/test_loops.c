/* Fingers closed by a kinematic loop (issue 32): a four-bar finger whose
 * pad hangs from the driven link and is tied to a passive rocker on the
 * palm by an MJCF equality <connect>, as Menagerie's Robotiq 2F-85 is
 * written (its follower links move only through the loop). What this
 * file specifies, on a parallelogram jaw written here (driver and rocker
 * 5 cm long, pivots 1.5 cm apart, a pad pinned to the driver's tip; the
 * left jaw a mirror of the right, tied to it by a joint equality):
 *   - the rocker's subtree belongs to its jaw's finger;
 *   - the screener closes the jaws onto the box's faces: the drive angle
 *     is the parallelogram's closed form, asin((0.0445 - 0.025) / 0.05),
 *     to 3e-9 (the 1e-10 m stop tolerance), the rocker turns with it and
 *     the pad against it (q_rocker = theta, q_pad = -theta, to 1e-10),
 *     every contact on the faces to 1e-9;
 *   - off centre the coupled jaws centre the box (the left jaw, its loop
 *     with it, closes on alone): each at its own closed form to 1e-9;
 *   - the centred grasp holds in a dynamic trial;
 *   - Menagerie's 2F-85 as published (when ../shared/data/robots is
 *     there): its pads join the fingers, close parallel (the follower
 *     turning against the driver), and the planner verifies held grasps on
 *     YCB's foam brick (before: its pads never moved, 0 closed). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "scene_fixture.h"
#include "linkage/linkage.h"
#include "proc.h"

#define CAP 64

static const char *fourbar_jaw(void) {
  static const char text[] =
      "<mujoco model=\"four-bar jaw\">\n"
      "  <compiler angle=\"radian\" autolimits=\"true\"/>\n"
      "  <default>\n"
      "    <joint type=\"hinge\" axis=\"0 -1 0\" damping=\"0.05\" armature=\"0.001\"/>\n"
      "    <default class=\"pad\">\n"
      "      <geom type=\"box\" size=\"0.003 0.01 0.02\" pos=\"0.0075 0 0.02\" friction=\"1\"/>\n"
      "    </default>\n"
      "  </default>\n"
      "  <worldbody>\n"
      "    <body name=\"palm\">\n"
      "      <inertial mass=\"0.3\" pos=\"0 0 0\" diaginertia=\"0.0005 0.0005 0.0005\"/>\n"
      "      <geom type=\"box\" size=\"0.065 0.015 0.01\"/>\n"
      "      <body name=\"r_driver\" pos=\"0.04 0 0.015\">\n"
      "        <inertial mass=\"0.01\" pos=\"0 0 0.025\" diaginertia=\"2e-6 2e-6 1e-7\"/>\n"
      "        <joint name=\"r_drive\" range=\"0 0.8\"/>\n"
      "        <body name=\"r_pad\" pos=\"0 0 0.05\">\n"
      "          <inertial mass=\"0.01\" pos=\"0.0075 0 0.02\" diaginertia=\"2e-6 2e-6 1e-6\"/>\n"
      "          <joint name=\"r_tilt\" range=\"-1 1\"/>\n"
      "          <geom class=\"pad\"/>\n"
      "        </body>\n"
      "      </body>\n"
      "      <body name=\"r_rocker\" pos=\"0.055 0 0.015\">\n"
      "        <inertial mass=\"0.01\" pos=\"0 0 0.025\" diaginertia=\"2e-6 2e-6 1e-7\"/>\n"
      "        <joint name=\"r_rock\" range=\"-1 1\"/>\n"
      "      </body>\n"
      "      <body name=\"l_driver\" pos=\"-0.04 0 0.015\" quat=\"0 0 0 1\">\n"
      "        <inertial mass=\"0.01\" pos=\"0 0 0.025\" diaginertia=\"2e-6 2e-6 1e-7\"/>\n"
      "        <joint name=\"l_drive\" range=\"0 0.8\"/>\n"
      "        <body name=\"l_pad\" pos=\"0 0 0.05\">\n"
      "          <inertial mass=\"0.01\" pos=\"0.0075 0 0.02\" diaginertia=\"2e-6 2e-6 1e-6\"/>\n"
      "          <joint name=\"l_tilt\" range=\"-1 1\"/>\n"
      "          <geom class=\"pad\"/>\n"
      "        </body>\n"
      "      </body>\n"
      "      <body name=\"l_rocker\" pos=\"-0.055 0 0.015\" quat=\"0 0 0 1\">\n"
      "        <inertial mass=\"0.01\" pos=\"0 0 0.025\" diaginertia=\"2e-6 2e-6 1e-7\"/>\n"
      "        <joint name=\"l_rock\" range=\"-1 1\"/>\n"
      "      </body>\n"
      "    </body>\n"
      "  </worldbody>\n"
      "  <equality>\n"
      "    <connect body1=\"r_rocker\" body2=\"r_pad\" anchor=\"0 0 0.05\"/>\n"
      "    <connect body1=\"l_rocker\" body2=\"l_pad\" anchor=\"0 0 0.05\"/>\n"
      "    <joint joint1=\"l_drive\" joint2=\"r_drive\"/>\n"
      "  </equality>\n"
      "  <actuator>\n"
      "    <position name=\"grip\" joint=\"r_drive\" kp=\"5\" ctrlrange=\"0 0.8\"/>\n"
      "  </actuator>\n"
      "</mujoco>\n";
  const char *path = lk_test_scratch("fourbar_jaw.xml");
  lk_test_write(path, text);
  return path;
}

static lk_grasp_scene *load(const char *hand, const char *object) {
  lk_grasp_scene_options o;
  lk_grasp_scene_options_default(&o);
  o.approach = lk_v3(0, 0, 1);
  return fixture_scene(hand, object, &o);
}

static int link_of(const lk_grasp_scene *s, const char *link) {
  char name[64];
  snprintf(name, sizeof name, "hand_%s", link);
  int l = lk_model_link_index(lk_grasp_scene_model(s), name);
  CU_ASSERT_FATAL(l > 0);
  return l;
}

/* The palm 9 cm above the box's centre, fingers down, shifted by dx. */
static lk_transform above(double standoff, double dx) {
  lk_mat3 R = lk_m3_identity();
  return lk_tf(&R, lk_v3(dx, 0, standoff));
}

static void test_a_fourbar_jaw_closes_to_its_closed_form(void) {
  char box[4096];
  snprintf(box, sizeof box, "%s", lk_test_mechanism("object_box"));
  lk_grasp_scene *s = load(fourbar_jaw(), box);
  CU_ASSERT_FATAL(s != NULL);
  LK_ASSERT_INT_EQ(lk_grasp_scene_nfinger(s), 2);
  LK_ASSERT_INT_EQ(lk_grasp_scene_nfinger_dofs(s), 1);
  LK_ASSERT_INT_EQ(lk_grasp_scene_closing(s, 0), 1);
  const int *fol = lk_grasp_scene_finger_of_link(s);
  int fr = fol[link_of(s, "r_driver")], fl = fol[link_of(s, "l_driver")];
  CU_ASSERT(fr >= 0 && fl >= 0 && fr != fl);
  LK_ASSERT_INT_EQ(fol[link_of(s, "r_rocker")], fr);
  LK_ASSERT_INT_EQ(fol[link_of(s, "l_rocker")], fl);
  LK_ASSERT_INT_EQ(fol[link_of(s, "r_pad")], fr);
  lk_data *d = lk_data_new(lk_grasp_scene_model(s));
  lk_grasp_screener *sc = lk_grasp_screener_new(s, NULL, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
  /* Each pad's inner face is at |x| = 0.0445 - 0.05 sin(theta) (+- dx):
   * on the box's face, |x| = 0.025, at the closed form. */
  const double dx[] = {0, 0.004, -0.006};
  for (int i = 0; i < 3; i++) {
    lk_transform pose = above(0.09, dx[i]);
    lk_grasp_screen_report r;
    lk_grasp_contact c[CAP];
    lk_error e;
    LK_ASSERT_OK(lk_grasp_screen(sc, d, &pose, NULL, &r, c, CAP, &e), &e);
    double th_r = asin((0.0445 + dx[i] - 0.025) / 0.05);
    double th_l = asin((0.0445 - dx[i] - 0.025) / 0.05);
    /* a jaw stops within 1e-10 m of the face: 1e-10 / (0.05 cos theta)
     * = 2.2e-9 rad */
    double q_r = fixture_joint_q(s, d, "r_drive"), q_l = fixture_joint_q(s, d, "l_drive");
    LK_ASSERT_NEAR(q_r, th_r, 3e-9);
    LK_ASSERT_NEAR(q_l, th_l, 3e-9);
    /* the loops closed: the parallelogram's rocker and pad */
    LK_ASSERT_NEAR(fixture_joint_q(s, d, "r_rock"), q_r, 1e-10);
    LK_ASSERT_NEAR(fixture_joint_q(s, d, "r_tilt"), -q_r, 1e-10);
    LK_ASSERT_NEAR(fixture_joint_q(s, d, "l_rock"), q_l, 1e-10);
    LK_ASSERT_NEAR(fixture_joint_q(s, d, "l_tilt"), -q_l, 1e-10);
    LK_ASSERT_INT_EQ(r.outcome, LK_SCREEN_CLOSED);
    LK_ASSERT_INT_EQ(r.fingers_in_contact, 2);
    CU_ASSERT(r.ncontacts >= 4);
    for (int k = 0; k < r.ncontacts; k++) LK_ASSERT_NEAR(fabs(c[k].position.x), 0.025, 1e-9);
  }
  /* The centred grasp in a dynamic trial. */
  lk_transform pose = above(0.09, 0);
  lk_grasp_trial_report tr;
  lk_error e;
  LK_ASSERT_OK(lk_grasp_trial(s, d, &pose, NULL, NULL, &tr, &e), &e);
  double th = asin(0.0195 / 0.05), qt = fixture_joint_q(s, d, "r_drive");
  printf("  [loops] four-bar jaw trial: %s, drive %.6f (closed form %.6f), rocker %.6f\n",
         lk_grasp_outcome_name(tr.outcome), qt, th, fixture_joint_q(s, d, "r_rock"));
  LK_ASSERT_MSG(tr.held, "outcome %s", lk_grasp_outcome_name(tr.outcome));
  LK_ASSERT_INT_EQ(tr.fingers_in_contact, 2);
  LK_ASSERT_NEAR(qt, th, 5e-3);
  LK_ASSERT_NEAR(fixture_joint_q(s, d, "r_rock"), qt, 1e-3); /* the loop held by the simulator */
  lk_grasp_screener_free(sc);
  lk_data_free(d);
  lk_grasp_scene_free(s);
}

/* Menagerie's 2F-85 as published: pads on the spring links' followers,
 * tied to the drivers' couplers by <connect>. */
static void test_the_published_robotiq_mjcf(void) {
  char hand[4096], obj[4096], out[4096];
  snprintf(hand, sizeof hand, "%s",
           lk_test_srcpath("../shared/data/robots/menagerie/robotiq_2f85/2f85.xml"));
  snprintf(obj, sizeof obj, "%s",
           lk_test_srcpath("../shared/data/robots/ycb/ycb_objects/YcbFoamBrick/model.urdf"));
  if (!lk_test_exists(hand) || !lk_test_exists(obj)) {
    printf("  [loops] ../shared/data/robots not there: the published 2F-85 skipped\n");
    return;
  }
  lk_grasp_scene *s = load(hand, obj);
  CU_ASSERT_FATAL(s != NULL);
  LK_ASSERT_INT_EQ(lk_grasp_scene_nfinger(s), 2);
  const int *fol = lk_grasp_scene_finger_of_link(s);
  int fr = fol[link_of(s, "right_driver")], fl = fol[link_of(s, "left_driver")];
  CU_ASSERT(fr >= 0 && fl >= 0 && fr != fl);
  LK_ASSERT_INT_EQ(fol[link_of(s, "right_pad")], fr);
  LK_ASSERT_INT_EQ(fol[link_of(s, "left_pad")], fl);
  /* Far above the brick the jaws close to their limit, 0.8: the pads stay
   * parallel (the follower turns back as far as the spring link turns). */
  lk_data *d = lk_data_new(lk_grasp_scene_model(s));
  lk_grasp_screener *sc = lk_grasp_screener_new(s, NULL, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
  lk_transform high = above(0.5, 0);
  lk_grasp_screen_report r;
  lk_grasp_contact c[CAP];
  lk_error e;
  LK_ASSERT_OK(lk_grasp_screen(sc, d, &high, NULL, &r, c, CAP, &e), &e);
  LK_ASSERT_INT_EQ(r.outcome, LK_SCREEN_NO_CONTACT);
  double drive = fixture_joint_q(s, d, "right_driver_joint");
  double spring = fixture_joint_q(s, d, "right_spring_link_joint");
  double follower = fixture_joint_q(s, d, "left_follower_joint");
  printf("  [loops] 2F-85 closed: driver %.4f spring link %.4f follower %.4f\n", drive, spring,
         follower);
  LK_ASSERT_NEAR(drive, 0.8, 1e-12);
  LK_ASSERT_NEAR(spring, 0.8, 0.01);
  LK_ASSERT_NEAR(follower, -0.8, 0.05);
  lk_grasp_screener_free(sc);
  lk_data_free(d);
  lk_grasp_scene_free(s);
  snprintf(out, sizeof out, "%s", lk_test_scratch("robotiq_mjcf.csv"));
  const char *argv[] = {"--hand", hand, "--object", obj, "--approach", "0,0,1", "-n", "100",
                        "--verify", "4", "-q", "-o", out, NULL};
  lk_test_result pr = lk_test_run(LK_TEST_PLANNER, argv);
  LK_ASSERT_MSG(pr.status == 0, "exit %d: %s", pr.status, pr.err ? pr.err : "");
  lk_test_result_free(&pr);
  char *text = lk_test_slurp(out, NULL);
  CU_ASSERT_FATAL(text != NULL);
  /* rows verified and held: ",1,1," right after the pose columns */
  int held = 0;
  for (char *p = text; (p = strstr(p, ",1,1,held,")); p++) held++;
  free(text);
  printf("  [loops] 2F-85 MJCF on the foam brick: %d of 4 verified held\n", held);
  CU_ASSERT(held >= 1);
}

static const lk_test tests[] = {
    {"a four-bar jaw closes to its closed form", test_a_fourbar_jaw_closes_to_its_closed_form},
    {"the published Robotiq 2F-85 MJCF", test_the_published_robotiq_mjcf},
    {NULL, NULL}};

void lk_test_register(void) { lk_test_suite("grasp loops", tests); }
