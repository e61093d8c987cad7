/* The palm and the approach of a hand as its file has them (issue 32):
 * mechanisms/jaw_gripper.yaml's palm put under a root link of its own and
 * turned (fingers along -x or -y of the root instead of -z) is the same hand
 * when the scene is told its palm (lk_grasp_scene_options.palm) or its
 * approach direction (.approach): the sampler draws the same poses, the
 * screener closes the jaws to the same q with the same epsilon, and the
 * centred face grasp holds. Without either, the turned hand still has its
 * two fingers (the palm's body is everything welded to the root). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "scene_fixture.h"
#include "linkage/linkage.h"
#include "proc.h"

#define CAP 64

/* jaw_gripper.yaml with its palm on a massless root link "plate",
 * turned by rpy (radians, written to 17 digits) on it. */
static const char *turned_hand(const char *name, double roll, double pitch, double yaw) {
  char *text = lk_test_slurp(lk_test_mechanism("jaw_gripper"), NULL);
  CU_ASSERT_FATAL(text != NULL);
  const char *palm = "  - name: palm\n    origin: {xyz: [0, 0, 0.3]}\n    joint: fixed\n";
  char *at = strstr(text, palm);
  CU_ASSERT_FATAL(at != NULL);
  static char out[16384];
  snprintf(out, sizeof out,
           "%.*s  - name: plate\n    origin: {xyz: [0, 0, 0.3]}\n    joint: fixed\n    mass: 0\n"
           "  - name: palm\n    parent: plate\n    origin: {xyz: [0, 0, 0], rpy: [%.17g, %.17g, "
           "%.17g]}\n    joint: fixed\n%s",
           (int)(at - text), text, roll, pitch, yaw, at + strlen(palm));
  free(text);
  const char *path = lk_test_scratch(name);
  lk_test_write(path, out);
  return path;
}

static lk_grasp_scene *load(const char *hand, const char *palm, lk_vec3 approach) {
  lk_grasp_scene_options o;
  lk_grasp_scene_options_default(&o);
  o.palm = palm;
  o.approach = approach;
  return fixture_scene(hand, lk_test_mechanism("object_box"), &o);
}

/* 100 antipodal candidates with both hands: the same poses (1e-12), the
 * same outcomes and contacts, jaws at the same q and epsilon (1e-9); the
 * centred face grasp (palm 6 cm above the box's centre) held by the turned
 * hand with its jaws on the faces. */
/* Returns how many of the 100 closed. */
static int same_hand(lk_grasp_scene *t, lk_grasp_scene *p) {
  CU_ASSERT_FATAL(t && p);
  LK_ASSERT_INT_EQ(lk_grasp_scene_nfinger(t), 2);
  lk_data *dt = lk_data_new(lk_grasp_scene_model(t));
  lk_data *dp = lk_data_new(lk_grasp_scene_model(p));
  lk_grasp_screener *ct = lk_grasp_screener_new(t, NULL, NULL);
  lk_grasp_screener *cp = lk_grasp_screener_new(p, NULL, NULL);
  lk_grasp_sampler *st = lk_grasp_sampler_new(t, NULL, NULL);
  lk_grasp_sampler *sp = lk_grasp_sampler_new(p, NULL, NULL);
  CU_ASSERT_FATAL(dt && dp && ct && cp && st && sp);
  LK_ASSERT_INT_EQ(lk_grasp_sampler_kind(st), LK_SAMPLE_ANTIPODAL);
  int closed = 0;
  for (int i = 0; i < 100; i++) {
    lk_grasp_candidate a, b;
    lk_error e;
    LK_ASSERT_OK(lk_grasp_sampler_draw(st, i, &a, &e), &e);
    LK_ASSERT_OK(lk_grasp_sampler_draw(sp, i, &b, &e), &e);
    LK_ASSERT_NEAR(lk_v3_norm(lk_v3_sub(a.pose.p, b.pose.p)), 0, 1e-12);
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++) LK_ASSERT_NEAR(a.pose.R.m[r][c], b.pose.R.m[r][c], 1e-12);
    lk_grasp_screen_report rt, rp;
    lk_grasp_contact ct_c[CAP];
    LK_ASSERT_OK(lk_grasp_screen(ct, dt, &a.pose, NULL, &rt, ct_c, CAP, &e), &e);
    LK_ASSERT_OK(lk_grasp_screen(cp, dp, &b.pose, NULL, &rp, ct_c, CAP, &e), &e);
    LK_ASSERT_INT_EQ(rt.outcome, rp.outcome);
    if (rp.outcome == LK_SCREEN_COLLISION) continue;
    LK_ASSERT_NEAR(fixture_joint_q(t, dt, "left"), fixture_joint_q(p, dp, "left"), 1e-9);
    LK_ASSERT_NEAR(fixture_joint_q(t, dt, "right"), fixture_joint_q(p, dp, "right"), 1e-9);
    LK_ASSERT_INT_EQ(rt.ncontacts, rp.ncontacts);
    if (rp.outcome == LK_SCREEN_CLOSED) {
      LK_ASSERT_NEAR(rt.epsilon, rp.epsilon, 1e-9);
      closed++;
    }
  }
  printf("  [palm] %d of 100 closed as the published hand's\n", closed);
  lk_mat3 I = lk_m3_identity();
  lk_transform pose = lk_tf(&I, lk_v3(0, 0, 0.06));
  lk_grasp_trial_report r;
  lk_error e;
  LK_ASSERT_OK(lk_grasp_trial(t, dt, &pose, NULL, NULL, &r, &e), &e);
  LK_ASSERT_MSG(r.held, "outcome %d", (int)r.outcome);
  double ql = fixture_joint_q(t, dt, "left");
  CU_ASSERT(ql > 0.029 && ql < 0.031); /* on the box's faces */
  lk_grasp_sampler_free(st);
  lk_grasp_sampler_free(sp);
  lk_grasp_screener_free(ct);
  lk_grasp_screener_free(cp);
  lk_data_free(dt);
  lk_data_free(dp);
  lk_grasp_scene_free(t);
  lk_grasp_scene_free(p);
  return closed;
}

static lk_grasp_scene *published(void) {
  char path[4096];
  snprintf(path, sizeof path, "%s", lk_test_mechanism("jaw_gripper"));
  return load(path, NULL, lk_v3_zero());
}

/* Pitched 90 degrees on the plate: the fingers point along -x of the
 * plate, the root; the approach said in the root's frame. */
static void test_approach_along_minus_x(void) {
  lk_test_scratch_clear();
  const char *h = turned_hand("pitched.yaml", 0, M_PI / 2, 0);
  CU_ASSERT(same_hand(load(h, NULL, lk_v3(-1, 0, 0)), published()) >= 30);
}

/* Other numbers: rolled -90 degrees, the fingers along -y. */
static void test_approach_along_minus_y(void) {
  lk_test_scratch_clear();
  const char *h = turned_hand("rolled.yaml", -M_PI / 2, 0, 0);
  CU_ASSERT(same_hand(load(h, NULL, lk_v3(0, -1, 0)), published()) >= 30);
}

/* The palm named instead: its own -z is the approach. */
static void test_the_palm_named(void) {
  lk_test_scratch_clear();
  const char *h = turned_hand("pitched.yaml", 0, M_PI / 2, 0);
  CU_ASSERT(same_hand(load(h, "palm", lk_v3_zero()), published()) >= 30);
  h = turned_hand("turned.yaml", 0.3, -0.7, 1.1);
  CU_ASSERT(same_hand(load(h, "palm", lk_v3_zero()), published()) >= 30);
}

/* Turned and told nothing: still two fingers (a root link above the palm
 * no longer makes the whole gripper one finger); a palm that is not there,
 * a palm that moves and a non-finite approach are refused, naming them. */
static void test_defaults_and_refusals(void) {
  lk_test_scratch_clear();
  const char *h = turned_hand("pitched.yaml", 0, M_PI / 2, 0);
  lk_grasp_scene *s = load(h, NULL, lk_v3_zero());
  CU_ASSERT_FATAL(s != NULL);
  LK_ASSERT_INT_EQ(lk_grasp_scene_nfinger(s), 2);
  lk_grasp_scene_free(s);
  char hpath[4096], opath[4096];
  snprintf(hpath, sizeof hpath, "%s", h);
  snprintf(opath, sizeof opath, "%s", lk_test_mechanism("object_box"));
  struct {
    const char *palm;
    lk_vec3 approach;
    lk_status status;
    const char *says;
  } bad[] = {{"wrist", {0, 0, 0}, LK_INVALID_ARGUMENT, "no link 'wrist'"},
             {"left_finger", {0, 0, 0}, LK_INVALID_MODEL,
              "'left_finger' moves against the hand's root link 'plate' and finger "
              "'right_finger' does not hang below it"},
             {NULL, {NAN, 0, -1}, LK_NON_FINITE, "approach"}};
  for (int i = 0; i < 3; i++) {
    lk_grasp_scene_options o;
    lk_grasp_scene_options_default(&o);
    o.palm = bad[i].palm;
    o.approach = bad[i].approach;
    lk_error e;
    s = lk_grasp_scene_load(hpath, opath, &o, &e);
    CU_ASSERT_PTR_NULL(s);
    lk_grasp_scene_free(s);
    LK_ASSERT_INT_EQ(e.status, bad[i].status);
    LK_ASSERT_MSG(strstr(e.message, bad[i].says) != NULL, "%s", e.message);
  }
}

/* A Panda-like hand (slide jaws closing towards 0, pads 1 cm apart when
 * closed, one servo, a joint equality) on a wrist: a passive hinge 2 cm
 * below the palm, under a forearm, the hand file's root. */
static const char *hand_on_a_wrist(void) {
  static const char text[] =
      "<mujoco model=\"hand on a wrist\">\n"
      "  <compiler angle=\"radian\" autolimits=\"true\"/>\n"
      "  <default>\n"
      "    <joint armature=\"0.1\" damping=\"1\"/>\n"
      "    <default class=\"finger\">\n"
      "      <joint type=\"slide\" axis=\"0 1 0\" range=\"0 0.05\"/>\n"
      "    </default>\n"
      "  </default>\n"
      "  <worldbody>\n"
      "    <body name=\"forearm\">\n"
      "      <inertial mass=\"1\" pos=\"0 0 -0.12\" diaginertia=\"0.005 0.005 0.001\"/>\n"
      "      <geom type=\"cylinder\" size=\"0.02 0.05\" pos=\"0 0 -0.12\"/>\n"
      "      <body name=\"wrist\" pos=\"0 0 -0.02\">\n"
      "        <inertial mass=\"0.05\" pos=\"0 0 0\" diaginertia=\"1e-5 1e-5 1e-5\"/>\n"
      "        <joint name=\"flex\" type=\"hinge\" axis=\"1 0 0\" range=\"-1 1\" damping=\"0.01\"/>\n"
      "        <body name=\"hand\" pos=\"0 0 0.02\" quat=\"0 0 0 1\">\n"
      "          <inertial mass=\"0.6\" pos=\"0 0 0.02\" diaginertia=\"0.001 0.002 0.0015\"/>\n"
      "          <geom type=\"box\" size=\"0.02 0.09 0.02\" pos=\"0 0 0.02\"/>\n"
      "          <body name=\"left_finger\" pos=\"0 0 0.06\">\n"
      "            <inertial mass=\"0.02\" pos=\"0 0.01 0.03\" diaginertia=\"3e-6 3e-6 1e-6\"/>\n"
      "            <joint name=\"j1\" class=\"finger\"/>\n"
      "            <geom type=\"box\" size=\"0.01 0.005 0.025\" pos=\"0 0.01 0.03\" friction=\"1\"/>\n"
      "          </body>\n"
      "          <body name=\"right_finger\" pos=\"0 0 0.06\" quat=\"0 0 0 1\">\n"
      "            <inertial mass=\"0.02\" pos=\"0 0.01 0.03\" diaginertia=\"3e-6 3e-6 1e-6\"/>\n"
      "            <joint name=\"j2\" class=\"finger\"/>\n"
      "            <geom type=\"box\" size=\"0.01 0.005 0.025\" pos=\"0 0.01 0.03\" friction=\"1\"/>\n"
      "          </body>\n"
      "        </body>\n"
      "      </body>\n"
      "    </body>\n"
      "  </worldbody>\n"
      "  <contact>\n"
      "    <exclude body1=\"hand\" body2=\"left_finger\"/>\n"
      "    <exclude body1=\"hand\" body2=\"right_finger\"/>\n"
      "    <exclude body1=\"forearm\" body2=\"wrist\"/>\n"
      "    <exclude body1=\"wrist\" body2=\"hand\"/>\n"
      "  </contact>\n"
      "  <equality>\n"
      "    <joint joint1=\"j1\" joint2=\"j2\"/>\n"
      "  </equality>\n"
      "  <actuator>\n"
      "    <position name=\"grip\" joint=\"j1\" kp=\"100\" ctrlrange=\"0 0.05\"/>\n"
      "  </actuator>\n"
      "</mujoco>\n";
  const char *path = lk_test_scratch("wrist.xml");
  lk_test_write(path, text);
  return path;
}

/* A palm named below a wrist (Menagerie's Shadow hand hangs its palm from
 * the forearm by two): the wrist joint is held where the file starts it,
 * and the scene says so; the jaws close on the box's faces (q = 0.02, the
 * pads' inner faces at 0.005 + q, to 1e-9); in a trial the grasp holds
 * and the passive wrist stays at 0 (1e-5; 1.8e-3 not held) through the lift and the
 * shakes. */
static void test_a_palm_on_a_wrist(void) {
  lk_test_scratch_clear();
  lk_grasp_scene *s = load(hand_on_a_wrist(), "hand", lk_v3(0, 0, 1));
  CU_ASSERT_FATAL(s != NULL);
  const char *w = lk_grasp_scene_warning(s);
  printf("  [palm] %s\n", w);
  LK_ASSERT_MSG(strstr(w, "'forearm' and the palm 'hand' is held") && strstr(w, "'flex' at 0"),
                "warning: %s", w);
  LK_ASSERT_INT_EQ(lk_grasp_scene_nfinger(s), 2);
  LK_ASSERT_INT_EQ(lk_grasp_scene_closing(s, 0), -1);
  lk_data *d = lk_data_new(lk_grasp_scene_model(s));
  lk_grasp_screener *sc = lk_grasp_screener_new(s, NULL, NULL);
  CU_ASSERT_FATAL(d && sc);
  lk_mat3 I = lk_m3_identity();
  lk_transform pose = lk_tf(&I, lk_v3(0, 0, 0.09));
  lk_grasp_screen_report r;
  lk_grasp_contact c[CAP];
  lk_error e;
  LK_ASSERT_OK(lk_grasp_screen(sc, d, &pose, NULL, &r, c, CAP, &e), &e);
  LK_ASSERT_INT_EQ(r.outcome, LK_SCREEN_CLOSED);
  LK_ASSERT_NEAR(fixture_joint_q(s, d, "j1"), 0.02, 1e-9);
  LK_ASSERT_NEAR(fixture_joint_q(s, d, "j2"), 0.02, 1e-9);
  LK_ASSERT_NEAR(fixture_joint_q(s, d, "flex"), 0, 0);
  lk_grasp_trial_report tr;
  LK_ASSERT_OK(lk_grasp_trial(s, d, &pose, NULL, NULL, &tr, &e), &e);
  printf("  [palm] on a wrist: %s, j1 %.5f, wrist %.2e\n", lk_grasp_outcome_name(tr.outcome),
         fixture_joint_q(s, d, "j1"), fixture_joint_q(s, d, "flex"));
  LK_ASSERT_MSG(tr.held, "outcome %s", lk_grasp_outcome_name(tr.outcome));
  LK_ASSERT_NEAR(fixture_joint_q(s, d, "flex"), 0, 1e-5); /* 1.8e-3 when not held */
  CU_ASSERT(fabs(fixture_joint_q(s, d, "j1") - 0.02) < 1e-3);
  lk_grasp_screener_free(sc);
  lk_data_free(d);
  lk_grasp_scene_free(s);
}

/* Menagerie's Shadow hand as published (when ../shared/data/robots is
 * there): the palm named, its two wrist joints held, five fingers (the
 * thumb of five actuated joints), and 50 candidates on YCB's soup can
 * screened without an error. */
static void test_the_published_shadow_hand(void) {
  char hand[4096], can[4096];
  snprintf(hand, sizeof hand, "%s",
           lk_test_srcpath("../shared/data/robots/menagerie/shadow_hand/right_hand.xml"));
  snprintf(can, sizeof can, "%s",
           lk_test_srcpath("../shared/data/robots/ycb/ycb_objects/YcbTomatoSoupCan/model.urdf"));
  if (!lk_test_exists(hand) || !lk_test_exists(can)) {
    printf("  [palm] ../shared/data/robots not there: the published Shadow hand skipped\n");
    return;
  }
  lk_grasp_scene_options o;
  lk_grasp_scene_options_default(&o);
  o.palm = "rh_palm";
  o.approach = lk_v3(0, -1, 0);
  lk_error e;
  lk_grasp_scene *s = lk_grasp_scene_load(hand, can, &o, &e);
  LK_ASSERT_MSG(s != NULL, "%s", e.message);
  CU_ASSERT_FATAL(s != NULL);
  const char *w = lk_grasp_scene_warning(s);
  LK_ASSERT_MSG(strstr(w, "'rh_WRJ1' at 0") && strstr(w, "'rh_WRJ2' at 0"), "warning: %s", w);
  LK_ASSERT_INT_EQ(lk_grasp_scene_nfinger(s), 5);
  int thumb = 0;
  for (int f = 0; f < 5; f++) thumb = fmax(thumb, lk_grasp_scene_finger(s, f)->ndof);
  LK_ASSERT_INT_EQ(thumb, 5);
  lk_data *d = lk_data_new(lk_grasp_scene_model(s));
  lk_grasp_sampler *sp = lk_grasp_sampler_new(s, NULL, &e);
  lk_grasp_screener *sc = lk_grasp_screener_new(s, NULL, &e);
  CU_ASSERT_FATAL(d && sp && sc);
  int touched = 0;
  for (int i = 0; i < 50; i++) {
    lk_grasp_candidate cd;
    lk_grasp_screen_report r;
    lk_grasp_contact c[256];
    LK_ASSERT_OK(lk_grasp_sampler_draw(sp, i, &cd, &e), &e);
    LK_ASSERT_OK(lk_grasp_screen(sc, d, &cd.pose, NULL, &r, c, 256, &e), &e);
    touched += r.fingers_in_contact > 0;
  }
  printf("  [palm] Shadow hand on the soup can: %d of 50 candidates touch it\n", touched);
  lk_grasp_screener_free(sc);
  lk_grasp_sampler_free(sp);
  lk_data_free(d);
  lk_grasp_scene_free(s);
}

/* The first n comma-separated fields of every line. */
static void first_fields(char *text, int n) {
  char *w = text;
  for (const char *r = text; *r;) {
    int k = 0;
    while (*r && *r != '\n') {
      if (*r == ',' && ++k == n) {
        while (*r && *r != '\n') r++;
        break;
      }
      *w++ = *r++;
    }
    if (*r == '\n') *w++ = *r++;
  }
  *w = '\0';
}

/* grasp-planner --approach and --palm: the turned hand ranks the box's
 * candidates as the published one does (rank, candidate, round, outcome,
 * fingers, contacts, force closure: the first 8 columns the same text; the
 * epsilons differ in the 16th digit); a malformed or zero direction and an
 * unknown palm are usage errors. */
static void test_the_planner_options(void) {
  lk_test_scratch_clear();
  const char *h = turned_hand("pitched.yaml", 0, M_PI / 2, 0);
  char hand[4096], pub[4096], box[4096];
  snprintf(hand, sizeof hand, "%s", h);
  snprintf(pub, sizeof pub, "%s", lk_test_mechanism("jaw_gripper"));
  snprintf(box, sizeof box, "%s", lk_test_mechanism("object_box"));
  const char *runs[][20] = {
      {"--hand", pub, "--object", box, "-n", "40", "--verify", "1", "-q", "-o",
       lk_test_scratch("a.csv"), NULL},
      {"--hand", hand, "--approach", "-1,0,0", "--object", box, "-n", "40", "--verify", "1", "-q",
       "-o", lk_test_scratch("b.csv"), NULL},
      {"--hand", hand, "--palm", "palm", "--object", box, "-n", "40", "--verify", "1", "-q", "-o",
       lk_test_scratch("c.csv"), NULL}};
  char *csv[3];
  for (int i = 0; i < 3; i++) {
    lk_test_result r = lk_test_run(LK_TEST_PLANNER, runs[i]);
    LK_ASSERT_MSG(r.status == 0, "run %d: exit %d: %s", i, r.status, r.err);
    lk_test_result_free(&r);
    csv[i] = lk_test_slurp(lk_test_scratch(i == 0 ? "a.csv" : i == 1 ? "b.csv" : "c.csv"), NULL);
    CU_ASSERT_FATAL(csv[i] != NULL);
    first_fields(csv[i], 8);
  }
  LK_ASSERT_INT_EQ(lk_test_lines(csv[0]), 41);
  LK_ASSERT_MSG(strstr(csv[0], ",closed,") != NULL, "nothing closed: %.300s", csv[0]);
  LK_ASSERT_MSG(strcmp(csv[0], csv[1]) == 0, "--approach ranks otherwise");
  LK_ASSERT_MSG(strcmp(csv[0], csv[2]) == 0, "--palm ranks otherwise");
  for (int i = 0; i < 3; i++) free(csv[i]);
  const char *bad[][2] = {{"--approach", "0,0,0"}, {"--approach", "1,0"}, {"--approach", "1,0,0,0"},
                          {"--approach", "x,0,-1"}, {"--palm", "wrist"}};
  for (int i = 0; i < 5; i++) {
    const char *argv[] = {"--hand", hand, bad[i][0], bad[i][1], "--object", box, "-n", "2",
                          "--verify", "0", "-q", "-o", "/dev/null", NULL};
    lk_test_result r = lk_test_run(LK_TEST_PLANNER, argv);
    LK_ASSERT_MSG(r.status == 2 && (strstr(r.err, bad[i][1]) || strstr(r.err, "wrist")),
                  "%s %s: exit %d: %s", bad[i][0], bad[i][1], r.status, r.err);
    lk_test_result_free(&r);
  }
}

void lk_test_register(void) {
  static const lk_test tests[] = {
      {"a hand turned on its root, approach -x: the same hand", test_approach_along_minus_x},
      {"same, rolled, approach -y", test_approach_along_minus_y},
      {"the palm named: the same hand", test_the_palm_named},
      {"defaults and refusals", test_defaults_and_refusals},
      {"a palm on a wrist", test_a_palm_on_a_wrist},
      {"the published Shadow hand", test_the_published_shadow_hand},
      {"the planner's --palm and --approach", test_the_planner_options},
      {NULL, NULL}};
  lk_test_suite("the palm and the approach", tests);
}
