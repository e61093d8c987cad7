/* A URDF hand whose fingers are coupled by <mimic> (issue 15): the grasp
 * layer takes a joint that follows an actuated joint through a coupling as
 * a finger joint. mechanisms/jaw_gripper_urdf.yaml (jaw-gripper.urdf: the
 * right jaw mimics the left, one servo) screens like the two-servo
 * jaw_gripper.yaml where the two close to the same q, its coupled jaws stop
 * together when either touches (lk_grasp_screen_options.centre_coupled 0;
 * by default the other closes on: test_closing.c), the coupling holds in a
 * dynamic trial, and
 * the planner ranks grasps with it on a mesh object. */
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

/* Screening with the coupled jaws stopping together where the first
 * touches (centre_coupled 0: the object held where it is); the default
 * centres it (test_closing.c). */
static lk_grasp_screen_options together;

static void init_together(void) {
  lk_grasp_screen_options_default(&together);
  together.centre_coupled = 0;
}

static lk_grasp_scene *scene(const char *hand, const char *object) {
  return fixture_scene(lk_test_mechanism(hand), lk_test_mechanism(object), NULL);
}

/* The palm above the box's centre shifted by dy along the jaws' axis. */
static lk_transform above(double standoff, double yaw, double dy) {
  lk_mat3 R = lk_m3_from_axis_angle(lk_v3(0, 0, 1), yaw);
  return lk_tf(&R, lk_v3(-sin(yaw) * dy, cos(yaw) * dy, standoff));
}

/* Two fingers: the left on its servo, the right on the coupling only. */
static void test_the_mimic_jaw_is_a_finger(void) {
  lk_grasp_scene *s = scene("jaw_gripper_urdf", "object_box");
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  LK_ASSERT_INT_EQ(lk_grasp_scene_nfinger(s), 2);
  LK_ASSERT_INT_EQ(lk_grasp_scene_nfinger_dofs(s), 1);
  const lk_grasp_finger *l = lk_grasp_scene_finger(s, 0), *r = lk_grasp_scene_finger(s, 1);
  LK_ASSERT_INT_EQ(l->ndof, 1);
  LK_ASSERT_INT_EQ(l->ncoupled, 0);
  LK_ASSERT_INT_EQ(r->ndof, 0);
  LK_ASSERT_INT_EQ(r->ncoupled, 1);
  const lk_model *m = lk_grasp_scene_model(s);
  CU_ASSERT_STRING_EQUAL(lk_model_link_name(m, lk_model_dof_link(m, r->coupled_dof[0])),
                         "hand_right_finger");
  /* The antipodal sampler takes it for a parallel jaw. */
  lk_grasp_sample_options so;
  lk_grasp_sample_options_default(&so);
  so.kind = LK_SAMPLE_ANTIPODAL;
  lk_error e;
  lk_grasp_sampler *sp = lk_grasp_sampler_new(s, &so, &e);
  LK_ASSERT_MSG(sp != NULL, "%s", e.message);
  lk_grasp_sampler_free(sp);
  lk_grasp_scene_free(s);
}

/* From above, centred (yaw 0: the faces; yaw 0.3: the far corners) both
 * jaws stop at q = 0.055 - 0.025 (cos yaw + sin yaw), to 1e-9, like the
 * YAML gripper's. With centre_coupled 0, off centre by dy the coupled jaws
 * stop together where the
 * nearer touches, q = 0.03 - |dy| (the YAML gripper's close on to 0.03 +
 * |dy| and 0.03 - |dy|), the other 2 |dy| short of its face. Above the box
 * they close to their limit, 0.05. */
static void test_coupled_jaws_stop_together(void) {
  init_together();
  lk_grasp_scene *s = scene("jaw_gripper_urdf", "object_box");
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  lk_data *d = lk_data_new(lk_grasp_scene_model(s));
  lk_grasp_screener *sc = lk_grasp_screener_new(s, &together, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
  const double yaw[] = {0, 0.3, 0, 0, 0.2};
  const double dy[] = {0, 0, 0.01, -0.004, 0.007};
  for (int i = 0; i < 5; i++) {
    lk_transform pose = above(0.06, yaw[i], dy[i]);
    lk_grasp_screen_report r;
    lk_grasp_contact c[CAP];
    lk_error e;
    LK_ASSERT_OK(lk_grasp_screen(sc, d, &pose, NULL, &r, c, CAP, &e), &e);
    double ql = fixture_joint_q(s, d, "left"), qr = fixture_joint_q(s, d, "right");
    LK_ASSERT_NEAR(r.q[0], ql, 0);
    LK_ASSERT_NEAR(qr, ql, 1e-15);
    if (dy[i] == 0) {
      double want = 0.055 - 0.025 * (cos(yaw[i]) + sin(yaw[i]));
      LK_ASSERT_NEAR(ql, want, 1e-9);
      LK_ASSERT_INT_EQ(r.fingers_in_contact, 2);
      LK_ASSERT_MSG(r.gap[0] <= 1e-10 && r.gap[1] <= 1e-10, "gaps %g %g", r.gap[0], r.gap[1]);
      if (yaw[i] == 0) {
        LK_ASSERT_INT_EQ(r.ncontacts, 8);
        LK_ASSERT_INT_EQ(r.outcome, LK_SCREEN_CLOSED);
      }
    } else if (yaw[i] == 0) {
      LK_ASSERT_NEAR(ql, 0.03 - fabs(dy[i]), 1e-9);
      LK_ASSERT_INT_EQ(r.fingers_in_contact, 1);
      int near = dy[i] > 0; /* +dy: the right jaw is nearer its face */
      CU_ASSERT(r.gap[near] <= 1e-10);
      LK_ASSERT_NEAR(r.gap[1 - near], 2 * fabs(dy[i]), 1e-9);
      LK_ASSERT_INT_EQ(r.outcome, LK_SCREEN_NOT_CLOSED);
    } else { /* turned and off centre: the nearer corner */
      double want = 0.055 - 0.025 * (cos(yaw[i]) + sin(yaw[i])) - fabs(dy[i]);
      LK_ASSERT_NEAR(ql, want, 1e-9);
      LK_ASSERT_INT_EQ(r.fingers_in_contact, 1);
    }
  }
  /* Above the box (pads 2 cm over its top): both jaws to their limit. */
  lk_transform high = above(0.14 + 0.04, 0, 0);
  lk_grasp_screen_report r;
  lk_grasp_contact c[CAP];
  lk_error e;
  LK_ASSERT_OK(lk_grasp_screen(sc, d, &high, NULL, &r, c, CAP, &e), &e);
  LK_ASSERT_NEAR(fixture_joint_q(s, d, "left"), 0.05, 0);
  LK_ASSERT_NEAR(fixture_joint_q(s, d, "right"), 0.05, 1e-15);
  LK_ASSERT_INT_EQ(r.outcome, LK_SCREEN_NO_CONTACT);
  lk_grasp_screener_free(sc);
  lk_data_free(d);
  lk_grasp_scene_free(s);
}

/* 100 antipodal candidates on the box, screened with both grippers: the
 * same poses (the same geometry), and wherever the YAML gripper's jaws
 * close to the same q (a centred candidate) the URDF one's close to it too
 * (1e-9) with the same outcome and epsilon (1e-9). */
static void test_screens_like_the_yaml_gripper(void) {
  lk_grasp_scene *su = scene("jaw_gripper_urdf", "object_box");
  lk_grasp_scene *sy = scene("jaw_gripper", "object_box");
  CU_ASSERT_PTR_NOT_NULL_FATAL(su);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sy);
  lk_data *du = lk_data_new(lk_grasp_scene_model(su));
  lk_data *dy = lk_data_new(lk_grasp_scene_model(sy));
  lk_grasp_screener *cu = lk_grasp_screener_new(su, NULL, NULL);
  lk_grasp_screener *cy = lk_grasp_screener_new(sy, NULL, NULL);
  lk_grasp_sampler *pu = lk_grasp_sampler_new(su, NULL, NULL);
  lk_grasp_sampler *py = lk_grasp_sampler_new(sy, NULL, NULL);
  CU_ASSERT_FATAL(du && dy && cu && cy && pu && py);
  LK_ASSERT_INT_EQ(lk_grasp_sampler_kind(pu), LK_SAMPLE_ANTIPODAL);
  int same = 0, closed = 0, nonsym = 0;
  for (int i = 0; i < 100; i++) {
    lk_grasp_candidate a, b;
    lk_error e;
    LK_ASSERT_OK(lk_grasp_sampler_draw(pu, i, &a, &e), &e);
    LK_ASSERT_OK(lk_grasp_sampler_draw(py, i, &b, &e), &e);
    LK_ASSERT_NEAR(lk_v3_norm(lk_v3_sub(a.pose.p, b.pose.p)), 0, 1e-15);
    lk_grasp_screen_report ru, ry;
    lk_grasp_contact c[CAP];
    LK_ASSERT_OK(lk_grasp_screen(cu, du, &a.pose, NULL, &ru, c, CAP, &e), &e);
    LK_ASSERT_OK(lk_grasp_screen(cy, dy, &b.pose, NULL, &ry, c, CAP, &e), &e);
    if (ry.outcome == LK_SCREEN_COLLISION) {
      LK_ASSERT_INT_EQ(ru.outcome, LK_SCREEN_COLLISION);
      continue;
    }
    if (fabs(ry.q[0] - ry.q[1]) > 1e-9) {
      nonsym++;
      /* coupled: both at the smaller of the two */
      LK_ASSERT_NEAR(fixture_joint_q(su, du, "left"), fmin(ry.q[0], ry.q[1]), 1e-9);
      continue;
    }
    LK_ASSERT_INT_EQ(ru.outcome, ry.outcome);
    LK_ASSERT_NEAR(fixture_joint_q(su, du, "left"), ry.q[0], 1e-9);
    LK_ASSERT_NEAR(fixture_joint_q(su, du, "right"), ry.q[1], 1e-9);
    LK_ASSERT_INT_EQ(ru.ncontacts, ry.ncontacts);
    if (ry.outcome == LK_SCREEN_CLOSED) {
      LK_ASSERT_NEAR(ru.epsilon, ry.epsilon, 1e-9);
      closed++;
    }
    same++;
  }
  printf("  [mimic] %d of 100 the same (%d closed), %d off centre\n", same, closed, nonsym);
  CU_ASSERT(same >= 50);
  CU_ASSERT(closed >= 30);
  lk_grasp_sampler_free(pu);
  lk_grasp_sampler_free(py);
  lk_grasp_screener_free(cu);
  lk_grasp_screener_free(cy);
  lk_data_free(du);
  lk_data_free(dy);
  lk_grasp_scene_free(su);
  lk_grasp_scene_free(sy);
}

/* jaw-gripper.urdf with its right jaw written mirrored (issue 32): the
 * axis flipped, <mimic multiplier="-1" offset=O>, the joint's origin moved
 * by O inwards and its limits [-0.05 + O, O], so that the pad is where the
 * published file puts it for every q_left. A YAML beside it includes it as
 * mechanisms/jaw_gripper_urdf.yaml does; the scene of both. */
static lk_grasp_scene *mirrored_scene(const char *name, double offset) {
  size_t len = 0;
  char *urdf = lk_test_slurp(lk_test_srcpath("mechanisms/jaw-gripper.urdf"), &len);
  char *yaml = lk_test_slurp(lk_test_mechanism("jaw_gripper_urdf"), NULL);
  CU_ASSERT_FATAL(urdf && yaml);
  const char *joint = "<origin xyz=\"0 -0.06 -0.05\"/>\n    <axis xyz=\"0 1 0\"/>\n"
                      "    <limit lower=\"0\" upper=\"0.05\"";
  const char *mimic = "<mimic joint=\"left\" multiplier=\"1\" offset=\"0\"/>";
  char *j = strstr(urdf, joint), *mi = strstr(urdf, mimic);
  CU_ASSERT_FATAL(j && mi && j < mi);
  char path[512], text[16384];
  snprintf(path, sizeof path, "%s.urdf", name);
  FILE *f = fopen(lk_test_scratch(path), "w");
  CU_ASSERT_FATAL(f != NULL);
  fprintf(f, "%.*s", (int)(j - urdf), urdf);
  fprintf(f, "<origin xyz=\"0 %.17g -0.05\"/>\n    <axis xyz=\"0 -1 0\"/>\n"
             "    <limit lower=\"%.17g\" upper=\"%.17g\"",
          -0.06 + offset, -0.05 + offset, offset);
  const char *after = j + strlen(joint);
  fprintf(f, "%.*s", (int)(mi - after), after);
  fprintf(f, "<mimic joint=\"left\" multiplier=\"-1\" offset=\"%.17g\"/>", offset);
  fputs(mi + strlen(mimic), f);
  fclose(f);
  const char *inc = strstr(yaml, "file: jaw-gripper.urdf");
  CU_ASSERT_FATAL(inc != NULL);
  snprintf(text, sizeof text, "%.*sfile: %s%s", (int)(inc - yaml), yaml, path,
           inc + strlen("file: jaw-gripper.urdf"));
  snprintf(path, sizeof path, "%s.yaml", name);
  f = fopen(lk_test_scratch(path), "w");
  CU_ASSERT_FATAL(f != NULL);
  fputs(text, f);
  fclose(f);
  free(urdf);
  free(yaml);
  char hpath[4096], opath[4096];
  snprintf(hpath, sizeof hpath, "%s", lk_test_scratch(path));
  snprintf(opath, sizeof opath, "%s", lk_test_mechanism("object_box"));
  lk_error e;
  lk_grasp_scene *sc = lk_grasp_scene_load(hpath, opath, NULL, &e);
  LK_ASSERT_MSG(sc != NULL, "%s: %s", name, e.message);
  return sc;
}

/* 100 antipodal candidates screened with the published hand and the
 * mirrored one: the same poses, outcomes, contacts and epsilon (1e-9),
 * q_left the same and q_right = -q_left + O; the centred face grasp holds
 * in a dynamic trial with the coupling kept (1e-6). */
/* Returns how many of the 100 closed. */
static int check_mirrored(const char *name, double offset) {
  lk_test_scratch_clear();
  lk_grasp_scene *sm = mirrored_scene(name, offset);
  lk_grasp_scene *sp = scene("jaw_gripper_urdf", "object_box");
  CU_ASSERT_FATAL(sm && sp);
  LK_ASSERT_INT_EQ(lk_grasp_scene_nfinger(sm), 2);
  lk_data *dm = lk_data_new(lk_grasp_scene_model(sm));
  lk_data *dp = lk_data_new(lk_grasp_scene_model(sp));
  lk_grasp_screener *cm = lk_grasp_screener_new(sm, NULL, NULL);
  lk_grasp_screener *cp = lk_grasp_screener_new(sp, NULL, NULL);
  lk_grasp_sampler *pm = lk_grasp_sampler_new(sm, NULL, NULL);
  lk_grasp_sampler *pp = lk_grasp_sampler_new(sp, NULL, NULL);
  CU_ASSERT_FATAL(dm && dp && cm && cp && pm && pp);
  /* The mirrored jaw still makes a parallel jaw for the sampler. */
  LK_ASSERT_INT_EQ(lk_grasp_sampler_kind(pm), LK_SAMPLE_ANTIPODAL);
  int closed = 0;
  for (int i = 0; i < 100; i++) {
    lk_grasp_candidate a, b;
    lk_error e;
    LK_ASSERT_OK(lk_grasp_sampler_draw(pm, i, &a, &e), &e);
    LK_ASSERT_OK(lk_grasp_sampler_draw(pp, i, &b, &e), &e);
    LK_ASSERT_NEAR(lk_v3_norm(lk_v3_sub(a.pose.p, b.pose.p)), 0, 1e-15);
    lk_grasp_screen_report rm, rp;
    lk_grasp_contact c[CAP];
    LK_ASSERT_OK(lk_grasp_screen(cm, dm, &a.pose, NULL, &rm, c, CAP, &e), &e);
    LK_ASSERT_OK(lk_grasp_screen(cp, dp, &b.pose, NULL, &rp, c, CAP, &e), &e);
    LK_ASSERT_INT_EQ(rm.outcome, rp.outcome);
    if (rp.outcome == LK_SCREEN_COLLISION) continue;
    double ql = fixture_joint_q(sm, dm, "left");
    LK_ASSERT_NEAR(ql, fixture_joint_q(sp, dp, "left"), 1e-9);
    LK_ASSERT_NEAR(fixture_joint_q(sm, dm, "right"), -ql + offset, 1e-12);
    LK_ASSERT_INT_EQ(rm.ncontacts, rp.ncontacts);
    if (rp.outcome == LK_SCREEN_CLOSED) {
      LK_ASSERT_NEAR(rm.epsilon, rp.epsilon, 1e-9);
      closed++;
    }
  }
  printf("  [mimic] %s: %d of 100 closed as the published hand's\n", name, closed);
  lk_transform pose = above(0.06, 0, 0);
  lk_grasp_trial_report r;
  lk_error e;
  LK_ASSERT_OK(lk_grasp_trial(sm, dm, &pose, NULL, NULL, &r, &e), &e);
  LK_ASSERT_MSG(r.held, "outcome %d", (int)r.outcome);
  double ql = fixture_joint_q(sm, dm, "left");
  LK_ASSERT_NEAR(fixture_joint_q(sm, dm, "right"), -ql + offset, 1e-6);
  CU_ASSERT(ql > 0.029 && ql < 0.031); /* on the box's faces */
  lk_grasp_sampler_free(pm);
  lk_grasp_sampler_free(pp);
  lk_grasp_screener_free(cm);
  lk_grasp_screener_free(cp);
  lk_data_free(dm);
  lk_data_free(dp);
  lk_grasp_scene_free(sm);
  lk_grasp_scene_free(sp);
  return closed;
}

static void test_a_mirrored_mimic_jaw(void) { CU_ASSERT(check_mirrored("mirrored", 0) >= 30); }
/* Other numbers: an offset of 1 cm. */
static void test_a_mirrored_mimic_jaw_with_an_offset(void) {
  CU_ASSERT(check_mirrored("offset", 0.01) >= 30);
}

/* jaw_gripper.yaml with one servo (left) and the right jaw coupled to it
 * in YAML: "right = RATIO left" written as coupling text. */
static const char *coupled_hand(const char *name, const char *coupling) {
  char text[4096];
  snprintf(text, sizeof text,
           "name: coupled_jaw\n"
           "materials:\n  - {name: rubber, mu_static: 1.0, mu_dynamic: 0.9}\n"
           "links:\n"
           "  - name: palm\n    origin: {xyz: [0, 0, 0.3]}\n    joint: fixed\n    mass: 0.5\n"
           "    geoms:\n      - {type: box, half_extents: [0.03, 0.08, 0.015], origin: {xyz: "
           "[0, 0, 0.015]}}\n"
           "  - name: left_finger\n    parent: palm\n    origin: {xyz: [0, 0.06, -0.05]}\n"
           "    joint: {name: left, type: prismatic, axis: [0, -1, 0], limit: [0, 0.05]}\n"
           "    mass: 0.05\n    geoms:\n      - {type: box, half_extents: [0.02, 0.005, 0.03], "
           "material: rubber}\n"
           "  - name: right_finger\n    parent: palm\n    origin: {xyz: [0, -0.06, -0.05]}\n"
           "    joint: {name: right, type: prismatic, axis: [0, 1, 0], limit: [0, 0.05]}\n"
           "    mass: 0.05\n    geoms:\n      - {type: box, half_extents: [0.02, 0.005, 0.03], "
           "material: rubber}\n"
           "actuators:\n  - {joint: left, type: position, kp: 2000, kv: 40, max_effort: 20}\n"
           "constraints:\n  couplings:\n    - %s\n",
           coupling);
  const char *path = lk_test_scratch(name);
  lk_test_write(path, text);
  return path;
}

/* The coupling written the other way round (left = 2 right: the right jaw
 * at half the left's q): centred on the box the left jaw touches at 0.03,
 * the right at 0.015 is 0.015 short (centre_coupled 0). A negative ratio is
 * taken. */
static void test_other_ratios(void) {
  init_together();
  char hpath[4096], opath[4096];
  snprintf(hpath, sizeof hpath, "%s",
           coupled_hand("half.yaml", "{joint_a: left, joint_b: right, ratio: 2}"));
  snprintf(opath, sizeof opath, "%s", lk_test_mechanism("object_box"));
  lk_error e;
  lk_grasp_scene *s = lk_grasp_scene_load(hpath, opath, NULL, &e);
  LK_ASSERT_MSG(s != NULL, "%s", e.message);
  CU_ASSERT_FATAL(s != NULL);
  LK_ASSERT_INT_EQ(lk_grasp_scene_finger(s, 1)->ncoupled, 1);
  lk_data *d = lk_data_new(lk_grasp_scene_model(s));
  lk_grasp_screener *sc = lk_grasp_screener_new(s, &together, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
  lk_transform pose = above(0.06, 0, 0);
  lk_grasp_screen_report r;
  lk_grasp_contact c[CAP];
  LK_ASSERT_OK(lk_grasp_screen(sc, d, &pose, NULL, &r, c, CAP, &e), &e);
  LK_ASSERT_NEAR(fixture_joint_q(s, d, "left"), 0.03, 1e-9);
  LK_ASSERT_NEAR(fixture_joint_q(s, d, "right"), 0.015, 1e-9);
  LK_ASSERT_INT_EQ(r.fingers_in_contact, 1);
  LK_ASSERT_NEAR(r.gap[1], 0.015, 1e-9);
  lk_grasp_screener_free(sc);
  lk_data_free(d);
  lk_grasp_scene_free(s);
  /* A negative ratio whose follower would open as its leader closes,
   * from its lower limit (0): the coupling and the limit lock the hand, as
   * they would the mechanism, and neither jaw moves (a mirrored jaw that
   * can move: test_a_mirrored_mimic_jaw). */
  snprintf(hpath, sizeof hpath, "%s",
           coupled_hand("negative.yaml", "{joint_a: right, joint_b: left, ratio: -1}"));
  s = lk_grasp_scene_load(hpath, opath, NULL, &e);
  LK_ASSERT_MSG(s != NULL, "%s", e.message);
  CU_ASSERT_FATAL(s != NULL);
  d = lk_data_new(lk_grasp_scene_model(s));
  sc = lk_grasp_screener_new(s, &together, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
  LK_ASSERT_OK(lk_grasp_screen(sc, d, &pose, NULL, &r, c, CAP, &e), &e);
  LK_ASSERT_NEAR(fixture_joint_q(s, d, "left"), 0, 1e-12);
  LK_ASSERT_NEAR(fixture_joint_q(s, d, "right"), 0, 1e-12);
  LK_ASSERT_INT_EQ(r.fingers_in_contact, 0);
  lk_grasp_screener_free(sc);
  lk_data_free(d);
  lk_grasp_scene_free(s);
  unlink(lk_test_scratch("half.yaml"));
  unlink(lk_test_scratch("negative.yaml"));
}

/* A dynamic trial of the centred face grasp: held, and the coupling holds
 * (|q_right - q_left| <= 1e-6 m at the end). */
static void test_the_trial_keeps_the_coupling(void) {
  lk_grasp_scene *s = scene("jaw_gripper_urdf", "object_box");
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  lk_data *d = lk_data_new(lk_grasp_scene_model(s));
  lk_transform pose = above(0.06, 0, 0);
  lk_grasp_trial_report r;
  lk_error e;
  LK_ASSERT_OK(lk_grasp_trial(s, d, &pose, NULL, NULL, &r, &e), &e);
  LK_ASSERT_MSG(r.held, "outcome %d", (int)r.outcome);
  double ql = fixture_joint_q(s, d, "left"), qr = fixture_joint_q(s, d, "right");
  printf("  [mimic] trial: q_left %.9f q_right %.9f\n", ql, qr);
  LK_ASSERT_NEAR(qr, ql, 1e-6);
  CU_ASSERT(ql > 0.029 && ql < 0.031); /* on the box's faces */
  LK_ASSERT_INT_EQ(r.fingers_in_contact, 2);
  lk_data_free(d);
  lk_grasp_scene_free(s);
}

/* The planner with the URDF hand on the shipped stone mesh: grasps ranked,
 * the best verified one held, --jobs 1 and 2 byte-identical. */
static void test_planner_with_the_urdf_hand(void) {
  char hand[4096], stone[4096], out1[4096], out2[4096];
  snprintf(hand, sizeof hand, "%s", lk_test_mechanism("jaw_gripper_urdf"));
  snprintf(stone, sizeof stone, "%s", lk_test_srcpath("mechanisms/meshes/stone.stl"));
  snprintf(out1, sizeof out1, "%s", lk_test_scratch("mimic1.csv"));
  snprintf(out2, sizeof out2, "%s", lk_test_scratch("mimic2.csv"));
  const char *jobs[] = {"1", "2"};
  const char *outs[] = {out1, out2};
  for (int j = 0; j < 2; j++) {
    const char *argv[] = {"--hand", hand,   "--object", stone,   "--mass", "0.3", "-n", "60",
                          "--verify", "2", "--jobs",  jobs[j], "-q",     "-o",  outs[j], NULL};
    lk_test_result r = lk_test_run(LK_TEST_PLANNER, argv);
    LK_ASSERT_MSG(r.status == 0, "exit %d: %s", r.status, r.err ? r.err : "");
    lk_test_result_free(&r);
  }
  char *t1 = lk_test_slurp(out1, NULL), *t2 = lk_test_slurp(out2, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(t1);
  CU_ASSERT_PTR_NOT_NULL_FATAL(t2);
  LK_ASSERT_MSG(strcmp(t1, t2) == 0, "the CSVs of --jobs 1 and 2 differ");
  /* The header's "held" and "outcome" columns; the first row is the best
   * verified grasp. */
  const char *nl = strchr(t1, '\n');
  CU_ASSERT_PTR_NOT_NULL_FATAL(nl);
  int col = -1, k = 0;
  for (const char *p = t1; p < nl; k++) {
    const char *e = strpbrk(p, ",\n");
    if ((size_t)(e - p) == 4 && strncmp(p, "held", 4) == 0) col = k;
    p = e + 1;
    if (*e == '\n') break;
  }
  CU_ASSERT_FATAL(col >= 0);
  const char *p = nl + 1;
  for (int i = 0; i < col && p; i++) p = strchr(p, ',') + 1;
  CU_ASSERT_FATAL(p != NULL);
  LK_ASSERT_MSG(atoi(p) == 1, "the best verified grasp did not hold");
  int rows = lk_test_lines(t1) - 1, closed = 0;
  for (const char *line = nl + 1; *line; line = strchr(line, '\n') + 1) {
    closed += strstr(line, ",closed,") != NULL && strstr(line, ",closed,") < strchr(line, '\n');
    if (!strchr(line, '\n')) break;
  }
  printf("  [mimic] stone: %d rows, %d closed\n", rows, closed);
  LK_ASSERT_INT_EQ(rows, 60);
  CU_ASSERT(closed >= 5); /* measured 9 (jaw_gripper.yaml: 36) */
  free(t1);
  free(t2);
  unlink(out1);
  unlink(out2);
}

void lk_test_register(void) {
  static const lk_test tests[] = {
      {"the mimic jaw is a finger", test_the_mimic_jaw_is_a_finger},
      {"a mirrored mimic jaw (multiplier -1) grasps as the published one",
       test_a_mirrored_mimic_jaw},
      {"same, with an offset of 1 cm", test_a_mirrored_mimic_jaw_with_an_offset},
      {"coupled jaws stop together", test_coupled_jaws_stop_together},
      {"screens like the YAML gripper", test_screens_like_the_yaml_gripper},
      {"other ratios", test_other_ratios},
      {"the trial keeps the coupling", test_the_trial_keeps_the_coupling},
      {"the planner with the URDF hand", test_planner_with_the_urdf_hand},
      {NULL, NULL}};
  lk_test_suite("mimic", tests);
}
