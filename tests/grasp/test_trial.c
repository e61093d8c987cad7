/* Grasp trials in simulation: the two-finger squeeze threshold (V6 of
 * ../shared/REFERENCE.md) in the simulator and by the analysis, closing
 * until contact with a torque limit, the trial outcomes, determinism, soft
 * fingers. Scenes are the hand and object files of mechanisms/. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"

static lk_grasp_scene *scene(const char *hand, const char *object, const char *const *hset,
                             int nh, const char *const *oset, int no) {
  char hp[256], op[256];
  snprintf(hp, sizeof hp, "mechanisms/%s.yaml", hand);
  snprintf(op, sizeof op, "mechanisms/%s.yaml", object);
  char hpath[4096];
  snprintf(hpath, sizeof hpath, "%s", lk_test_srcpath(hp));
  lk_grasp_scene_options so;
  lk_grasp_scene_options_default(&so);
  so.hand_set = hset;
  so.nhand_set = nh;
  so.object_set = oset;
  so.nobject_set = no;
  lk_error e;
  lk_grasp_scene *s = lk_grasp_scene_load(hpath, lk_test_srcpath(op), &so, &e);
  LK_ASSERT_MSG(s != NULL, "%s + %s: %s", hand, object, e.message);
  return s;
}

/* The palm above the object's centre (approach from +z), turned by yaw,
 * at the given standoff. */
static lk_transform from_above(double standoff, double yaw) {
  lk_mat3 R = lk_m3_from_axis_angle(lk_v3(0, 0, 1), yaw);
  return lk_tf(&R, lk_v3(0, 0, standoff));
}

/* ------------------------------------------------ the squeeze threshold */

/* The jaw gripper squeezes the 0.2 kg box from above, pads along y, so
 * that gravity lies in the pads' plane; pads and box get mu_s = mu (and
 * mu_d = 0.9 mu), hence the mixed pair too. The grip force is F per pad.
 * Let go (no lift, no shake), the box must stay put when 2 mu_s F >= m g
 * and slide out when not: at F = 1.01 and 0.99 times m g / (2 mu_s). And
 * the analysis of the closed grasp (lk_grasp_min_force on its contacts,
 * a cone edge along gravity) must give that same threshold. */
static void test_squeeze_holds_iff_2muF_at_least_mg(void) {
  const double mus[] = {0.3, 0.5, 0.7, 1.0};
  for (size_t k = 0; k < sizeof mus / sizeof mus[0]; k++) {
    double mu = mus[k];
    char h1[64], h2[64], o1[64], o2[64];
    snprintf(h1, sizeof h1, "materials.rubber.mu_static=%g", mu);
    snprintf(h2, sizeof h2, "materials.rubber.mu_dynamic=%g", 0.9 * mu);
    snprintf(o1, sizeof o1, "materials.wood.mu_static=%g", mu);
    snprintf(o2, sizeof o2, "materials.wood.mu_dynamic=%g", 0.9 * mu);
    const char *hs[2] = {h1, h2}, *os[2] = {o1, o2};
    lk_grasp_scene *s = scene("jaw_gripper", "object_box", hs, 2, os, 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    const lk_model *m = lk_grasp_scene_model(s);
    double mass = lk_grasp_scene_object_mass(s), g = 9.81;
    double need = mass * g / (2 * mu);
    lk_data *d = lk_data_new(m);
    lk_transform pose = from_above(0.06, 0);
    for (int side = 0; side < 2; side++) {
      double F = (side ? 0.99 : 1.01) * need;
      lk_grasp_trial_options o;
      lk_grasp_trial_options_default(&o);
      o.grip_force = F;
      o.force_tolerance = 1e-3;
      o.lift_height = 0;
      o.shake_time = 0;
      o.hold_time = 0.3;
      lk_grasp_trial_report r;
      lk_error e;
      LK_ASSERT_OK(lk_grasp_trial(s, d, &pose, NULL, &o, &r, &e), &e);
      LK_ASSERT_MSG(r.closed && r.fingers_in_contact == 2, "mu %g: closing failed", mu);
      if (side == 0)
        LK_ASSERT_MSG(r.held && r.slip_translation < 1e-4,
                      "mu %g, F = 1.01 mg/(2mu): %s, slipped %.3g m", mu,
                      lk_grasp_outcome_name(r.outcome), r.slip_translation);
      else
        LK_ASSERT_MSG(!r.held && r.outcome == LK_GRASP_DROPPED && r.slip_translation > 0.02,
                      "mu %g, F = 0.99 mg/(2mu): %s, slipped %.3g m", mu,
                      lk_grasp_outcome_name(r.outcome), r.slip_translation);

      /* The analysis, from the contacts the simulation closed with. */
      LK_ASSERT_OK(lk_grasp_place(s, d, &pose, NULL, &e), &e);
      LK_ASSERT_OK(lk_grasp_close(s, d, &o, &r, &e), &e);
      lk_grasp_extract_options eo;
      lk_grasp_extract_options_default(&eo);
      eo.object = lk_grasp_scene_object(s);
      eo.finger_of_link = lk_grasp_scene_finger_of_link(s);
      lk_grasp_contact c[16];
      double fn[16];
      int n = lk_grasp_contacts_from_data(m, d, &eo, c, fn, 16);
      CU_ASSERT_FATAL(n >= 2 && n <= 16);
      double pad[2] = {0, 0};
      for (int i = 0; i < n; i++) {
        c[i].tangent = lk_v3(0, 0, 1);
        LK_ASSERT_NEAR(c[i].mu, mu, 1e-12);
        CU_ASSERT_FATAL(c[i].finger == 0 || c[i].finger == 1);
        pad[c[i].finger] += fn[i];
      }
      /* The simulated pads press with the grip force. */
      LK_ASSERT_REL(pad[0], F, 2e-3, 0);
      LK_ASSERT_REL(pad[1], F, 2e-3, 0);
      lk_grasp_options ao;
      lk_grasp_options_default(&ao);
      lk_transform X = *lk_data_link_pose(d, lk_grasp_scene_object(s));
      ao.center = X.p;
      lk_grasp_force_result fr;
      lk_force weight = lk_fo(lk_v3_zero(), lk_v3(0, 0, -mass * g));
      LK_ASSERT_OK(lk_grasp_min_force(c, n, &ao, weight, LK_GRASP_MIN_MAX_FINGER, &fr, NULL, NULL,
                                      &e),
                   &e);
      LK_ASSERT_REL(fr.force, need, 1e-3, 0);
      /* So the analysis agrees with the simulation on either side. */
      CU_ASSERT_EQUAL(F >= fr.force, side == 0);
    }
    lk_data_free(d);
    lk_grasp_scene_free(s);
  }
}

/* ------------------------------------------------------------- closing */

static void test_close_until_contact(void) {
  /* Three fingers on the can: each presses with the grip force. */
  lk_grasp_scene *s = scene("three_finger_hand", "object_cylinder", NULL, 0, NULL, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  LK_ASSERT_INT_EQ(lk_grasp_scene_nfinger(s), 3);
  LK_ASSERT_INT_EQ(lk_grasp_scene_nfinger_dofs(s), 6);
  lk_data *d = lk_data_new(lk_grasp_scene_model(s));
  lk_transform pose = from_above(0.08, 0);
  lk_grasp_trial_options o;
  lk_grasp_trial_options_default(&o);
  o.grip_force = 4;
  lk_grasp_trial_report r;
  memset(&r, 0, sizeof r);
  lk_error e;
  LK_ASSERT_OK(lk_grasp_place(s, d, &pose, NULL, &e), &e);
  LK_ASSERT_OK(lk_grasp_close(s, d, &o, &r, &e), &e);
  CU_ASSERT_TRUE(r.closed);
  LK_ASSERT_INT_EQ(r.fingers_in_contact, 3);
  for (int f = 0; f < 3; f++) LK_ASSERT_REL(r.finger_force[f], 4, 0.1, 0);
  CU_ASSERT_TRUE(r.close_time > 0.05 && r.close_time < o.close_timeout);
  /* Every finger touches with its fingertip, and nothing else does. */
  const lk_model *m = lk_grasp_scene_model(s);
  int obj = lk_grasp_scene_object(s);
  for (int i = 0; i < lk_data_ncontacts(d); i++) {
    const lk_contact_report *c = lk_data_contact_report(d, i);
    if (c->fn <= 0) continue;
    int other = c->link == obj ? c->other : c->link;
    const char *name = lk_model_link_name(m, other);
    LK_ASSERT_MSG(strstr(name, "distal") != NULL, "contact on %s", name);
  }
  lk_data_free(d);
  lk_grasp_scene_free(s);

  /* The jaw on the box with a 5 N torque limit below the 10 N asked: the
   * pads press as hard as the limit lets them (force = effort on a
   * prismatic joint), and closing still ends. */
  s = scene("jaw_gripper", "object_box", NULL, 0, NULL, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  d = lk_data_new(lk_grasp_scene_model(s));
  pose = from_above(0.06, 0);
  o.grip_force = 10;
  o.torque_limit = 5;
  LK_ASSERT_OK(lk_grasp_place(s, d, &pose, NULL, &e), &e);
  LK_ASSERT_OK(lk_grasp_close(s, d, &o, &r, &e), &e);
  CU_ASSERT_TRUE(r.closed);
  LK_ASSERT_INT_EQ(r.fingers_in_contact, 2);
  for (int f = 0; f < 2; f++) LK_ASSERT_REL(r.finger_force[f], 5, 0.02, 0);
  /* Nothing in the way: the fingers close to their stops and closing ends
   * with no contact. */
  pose = from_above(0.5, 0);
  o.torque_limit = 0;
  LK_ASSERT_OK(lk_grasp_place(s, d, &pose, NULL, &e), &e);
  LK_ASSERT_OK(lk_grasp_close(s, d, &o, &r, &e), &e);
  CU_ASSERT_TRUE(r.closed);
  LK_ASSERT_INT_EQ(r.fingers_in_contact, 0);
  int left = lk_model_joint_index(lk_grasp_scene_model(s), "hand_left");
  LK_ASSERT_NEAR(lk_data_q(d)[lk_model_joint_qadr(lk_grasp_scene_model(s), left)], 0.05, 1e-3);
  lk_data_free(d);
  lk_grasp_scene_free(s);
}

/* ------------------------------------------------------ guarded close */

/* How far the object moved (m) while the hand, placed off centre by dx
 * along x and dy along y, closed on it. */
static double close_displacement(const char *hand, const char *object, double dx, double dy,
                                 double standoff, double grip, double touch,
                                 lk_grasp_trial_report *r) {
  lk_grasp_scene *s = scene(hand, object, NULL, 0, NULL, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  lk_data *d = lk_data_new(lk_grasp_scene_model(s));
  lk_mat3 R = lk_m3_identity();
  lk_transform pose = lk_tf(&R, lk_v3(dx, dy, standoff));
  lk_grasp_trial_options o;
  lk_grasp_trial_options_default(&o);
  o.grip_force = grip;
  o.touch_force = touch;
  lk_error e;
  LK_ASSERT_OK(lk_grasp_place(s, d, &pose, NULL, &e), &e);
  int obj = lk_grasp_scene_object(s);
  lk_vec3 p0 = lk_data_link_pose(d, obj)->p;
  LK_ASSERT_OK(lk_grasp_close(s, d, &o, r, &e), &e);
  double moved = lk_v3_norm(lk_v3_sub(lk_data_link_pose(d, obj)->p, p0));
  lk_data_free(d);
  lk_grasp_scene_free(s);
  return moved;
}

/* A hand placed off centre touches with one finger first. Closed guarded
 * (the default), that finger presses lightly until the others arrive, and
 * the object stays where the kinematic closing of the screening assumes
 * it; pressing with the whole grip force at once (touch_force = grip
 * force, the trial before the guarded close) pushes it away. Every finger
 * ends at the grip force either way. */
static void test_guarded_close_keeps_the_object_in_place(void) {
  struct {
    const char *hand, *object;
    double dx, dy, standoff, grip;
  } k[] = {{"jaw_gripper", "object_box", 0, 0.01, 0.06, 10},
           {"jaw_gripper", "object_box", 0, -0.006, 0.05, 6},
           {"jaw_gripper", "object_cylinder", 0, 0.008, 0.06, 10},
           {"jaw_gripper", "object_mug", 0, 0.008, 0.06, 10},
           {"three_finger_hand", "object_sphere", 0.01, 0.005, 0.08, 10}};
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    lk_grasp_trial_report g, u;
    double guarded = close_displacement(k[i].hand, k[i].object, k[i].dx, k[i].dy,
                                        k[i].standoff, k[i].grip, 0, &g);
    double unguarded = close_displacement(k[i].hand, k[i].object, k[i].dx, k[i].dy,
                                          k[i].standoff, k[i].grip, k[i].grip, &u);
    /* The support's spring yields to the light touch by about 2 mm. */
    LK_ASSERT_MSG(g.closed && guarded < 2.5e-3, "%s on %s: moved %g m (closed %d)", k[i].hand,
                  k[i].object, guarded, g.closed);
    LK_ASSERT_MSG(unguarded > 4 * guarded, "%s on %s: unguarded moved only %g m", k[i].hand,
                  k[i].object, unguarded);
    LK_ASSERT_INT_EQ(g.fingers_in_contact, g.nfinger);
    for (int f = 0; f < g.nfinger; f++) LK_ASSERT_REL(g.finger_force[f], k[i].grip, 0.1, 0);
  }
}

/* ------------------------------------------------------------ outcomes */

static void test_trial_outcomes(void) {
  lk_grasp_scene *s = scene("jaw_gripper", "object_box", NULL, 0, NULL, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  lk_data *d = lk_data_new(lk_grasp_scene_model(s));
  lk_grasp_trial_options o;
  lk_grasp_trial_options_default(&o);
  lk_grasp_trial_report r;
  lk_error e;
  /* The palm inside the box. */
  lk_transform pose = from_above(0.0, 0);
  LK_ASSERT_OK(lk_grasp_trial(s, d, &pose, NULL, &o, &r, &e), &e);
  LK_ASSERT_INT_EQ(r.outcome, LK_GRASP_COLLISION);
  LK_ASSERT_INT_EQ(r.steps, 0);
  /* Far above: the fingers close on nothing. */
  pose = from_above(0.5, 0);
  LK_ASSERT_OK(lk_grasp_trial(s, d, &pose, NULL, &o, &r, &e), &e);
  LK_ASSERT_INT_EQ(r.outcome, LK_GRASP_NO_CONTACT);
  /* A good grasp holds through lift and shake: a force closure grasp, 8
   * face contacts, the analysis filled in. */
  pose = from_above(0.06, 0);
  LK_ASSERT_OK(lk_grasp_trial(s, d, &pose, NULL, &o, &r, &e), &e);
  LK_ASSERT_MSG(r.held, "%s in phase %d", lk_grasp_outcome_name(r.outcome), r.lost_in);
  LK_ASSERT_INT_EQ(r.ncontacts, 8);
  CU_ASSERT_TRUE(r.force_closure);
  CU_ASSERT_TRUE(r.epsilon > 0.1 && r.volume > 0);
  /* Pads mu 0.71 (rubber 1.0 on wood 0.5, geometric mean): m g / (2 mu). */
  LK_ASSERT_REL(r.min_force, 0.2 * 9.81 / (2 * sqrt(0.5)), 2e-3, 0);
  CU_ASSERT_TRUE(r.slip_translation < 2e-3);
  CU_ASSERT_TRUE(r.peak_utilization < 1.0);
  LK_ASSERT_INT_EQ(r.lost_at_disturbance, -1);
  /* Shaken with ten times the weight (friction can take 2 mu F = 14 N of
   * the 19.6 N): lost during the shake, at a disturbance along the pads. */
  o.shake_force = 10 * 0.2 * 9.81;
  LK_ASSERT_OK(lk_grasp_trial(s, d, &pose, NULL, &o, &r, &e), &e);
  LK_ASSERT_INT_EQ(r.outcome, LK_GRASP_DROPPED);
  LK_ASSERT_INT_EQ(r.lost_in, LK_GRASP_PHASE_SHAKE);
  LK_ASSERT_MSG(r.lost_at_disturbance == 0 || r.lost_at_disturbance == 1 ||
                    r.lost_at_disturbance == 4 || r.lost_at_disturbance == 5,
                "lost at disturbance %d (expected one along x or z)", r.lost_at_disturbance);
  CU_ASSERT_TRUE(r.slip_flags != 0);
  /* Arguments. */
  LK_ASSERT_INT_EQ(lk_grasp_trial(s, NULL, &pose, NULL, &o, &r, &e), LK_INVALID_ARGUMENT);
  o.grip_force = -1;
  LK_ASSERT_INT_EQ(lk_grasp_trial(s, d, &pose, NULL, &o, &r, &e), LK_INVALID_ARGUMENT);
  lk_data_free(d);
  lk_grasp_scene_free(s);
}

/* What the trial observer saw: calls, times, phases, the object's height. */
typedef struct {
  int calls, bad_time, bad_phase, phases_seen;
  double t0, t_last, h, z_first, z_last;
  int last_phase, object;
} watched;

static void watch_trial(void *user, const lk_data *d, int phase) {
  watched *w = user;
  double t = lk_data_time(d);
  double z = lk_data_link_pose(d, w->object)->p.z;
  if (w->calls == 0) {
    w->t0 = t;
    w->z_first = z;
  } else {
    if (fabs(t - w->t_last - w->h) > 1e-9) w->bad_time++;
    if (phase < w->last_phase) w->bad_phase++;
  }
  w->phases_seen |= 1 << phase;
  w->t_last = t;
  w->z_last = z;
  w->last_phase = phase;
  w->calls++;
}

/* The observer (lk_grasp_trial_options.observe) sees the placed state at
 * t = 0 and every step after it, one time step apart, through close,
 * release, lift and shake in that order, the object lifted by the lift
 * height at the end of a held grasp; the report is the same with and
 * without it. Variants: a grasp shaken loose (its last call in the
 * shake, 1 + steps calls), and a hand placed into the box (no call). */
static void test_trial_observer(void) {
  lk_grasp_scene *s = scene("jaw_gripper", "object_box", NULL, 0, NULL, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  lk_data *d = lk_data_new(lk_grasp_scene_model(s));
  const double h = lk_model_options(lk_grasp_scene_model(s))->timestep;
  for (int variant = 0; variant < 3; variant++) {
    lk_grasp_trial_options o;
    lk_grasp_trial_options_default(&o);
    if (variant == 1) o.shake_force = 10 * 0.2 * 9.81;
    lk_transform pose = from_above(variant == 2 ? 0.0 : 0.06, 0);
    lk_grasp_trial_report plain, seen;
    lk_error e;
    LK_ASSERT_OK(lk_grasp_trial(s, d, &pose, NULL, &o, &plain, &e), &e);
    watched w = {.h = h, .object = lk_grasp_scene_object(s)};
    o.observe = watch_trial;
    o.observe_user = &w;
    LK_ASSERT_OK(lk_grasp_trial(s, d, &pose, NULL, &o, &seen, &e), &e);
    LK_ASSERT_INT_EQ(seen.outcome, plain.outcome);
    LK_ASSERT_INT_EQ(seen.steps, plain.steps);
    CU_ASSERT_TRUE(seen.epsilon == plain.epsilon && seen.time == plain.time &&
                   seen.slip_translation == plain.slip_translation &&
                   seen.slip_rotation == plain.slip_rotation &&
                   seen.peak_utilization == plain.peak_utilization);
    if (variant == 2) {
      LK_ASSERT_INT_EQ(seen.outcome, LK_GRASP_COLLISION);
      LK_ASSERT_INT_EQ(w.calls, 0);
      continue;
    }
    LK_ASSERT_INT_EQ(w.calls, 1 + seen.steps);
    LK_ASSERT_NEAR(w.t0, 0, 0);
    LK_ASSERT_NEAR(w.t_last, seen.time, 1e-9);
    LK_ASSERT_INT_EQ(w.bad_time, 0);
    LK_ASSERT_INT_EQ(w.bad_phase, 0);
    LK_ASSERT_INT_EQ(w.phases_seen, 1 << LK_GRASP_PHASE_CLOSE | 1 << LK_GRASP_PHASE_RELEASE |
                                        1 << LK_GRASP_PHASE_LIFT | 1 << LK_GRASP_PHASE_SHAKE);
    LK_ASSERT_INT_EQ(w.last_phase, LK_GRASP_PHASE_SHAKE);
    if (variant == 0) {
      CU_ASSERT_TRUE(seen.held);
      /* Lifted 0.1 m with the palm, less the slip (under 2 mm). */
      LK_ASSERT_NEAR(w.z_last - w.z_first, o.lift_height, 3e-3);
    } else {
      LK_ASSERT_INT_EQ(seen.outcome, LK_GRASP_DROPPED);
    }
  }
  lk_data_free(d);
  lk_grasp_scene_free(s);
}

/* The same trial in two datas, one of them used before for another trial,
 * gives the same report, to the last bit. */
static void test_trial_is_deterministic(void) {
  lk_grasp_scene *s = scene("three_finger_hand", "object_sphere", NULL, 0, NULL, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  lk_data *a = lk_data_new(lk_grasp_scene_model(s)), *b = lk_data_new(lk_grasp_scene_model(s));
  lk_grasp_trial_options o;
  lk_grasp_trial_options_default(&o);
  o.grip_force = 4;
  lk_grasp_trial_report ra, rb, rx;
  lk_transform pose = from_above(0.08, 0.3), other = from_above(0.07, 1.0);
  LK_ASSERT_OK(lk_grasp_trial(s, b, &other, NULL, &o, &rx, NULL), NULL);
  LK_ASSERT_OK(lk_grasp_trial(s, a, &pose, NULL, &o, &ra, NULL), NULL);
  LK_ASSERT_OK(lk_grasp_trial(s, b, &pose, NULL, &o, &rb, NULL), NULL);
  CU_ASSERT_TRUE(ra.steps > 1000);
  LK_ASSERT_INT_EQ(ra.outcome, rb.outcome);
  LK_ASSERT_INT_EQ(ra.steps, rb.steps);
  CU_ASSERT_TRUE(ra.epsilon == rb.epsilon && ra.volume == rb.volume);
  CU_ASSERT_TRUE(ra.slip_translation == rb.slip_translation &&
                 ra.slip_rotation == rb.slip_rotation);
  CU_ASSERT_TRUE(ra.peak_utilization == rb.peak_utilization);
  CU_ASSERT_TRUE(memcmp(ra.finger_force, rb.finger_force, sizeof ra.finger_force) == 0);
  lk_data_free(a);
  lk_data_free(b);
  lk_grasp_scene_free(s);
}

/* The jaw on the ball touches at two points: with hard rubber pads nothing
 * resists a twist about the line through them (not force closure), and the
 * shake's torques spin the ball in the grip; pads and ball with torsional
 * friction (soft fingers) make it force closure and stop the spin. */
static void test_soft_fingers_stop_the_spin(void) {
  for (int soft = 0; soft < 2; soft++) {
    const char *hs[2] = {"materials.rubber.mu_torsional=1", "materials.rubber.patch_radius=0.005"};
    const char *os[1] = {"materials.plastic.mu_torsional=1"};
    lk_grasp_scene *s =
        scene("jaw_gripper", "object_sphere", hs, soft ? 2 : 0, os, soft ? 1 : 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    lk_data *d = lk_data_new(lk_grasp_scene_model(s));
    lk_grasp_trial_options o;
    lk_grasp_trial_options_default(&o);
    lk_grasp_trial_report r;
    lk_transform pose = from_above(0.05, 0);
    LK_ASSERT_OK(lk_grasp_trial(s, d, &pose, NULL, &o, &r, NULL), NULL);
    LK_ASSERT_INT_EQ(r.ncontacts, 2);
    LK_ASSERT_INT_EQ(r.force_closure, soft);
    CU_ASSERT_TRUE(r.held);
    if (soft) {
      LK_ASSERT_MSG(r.slip_rotation < 0.02, "soft: turned %.3g rad", r.slip_rotation);
      CU_ASSERT_TRUE(r.epsilon > 0);
    } else {
      LK_ASSERT_MSG(r.slip_rotation > 0.3, "hard: turned only %.3g rad", r.slip_rotation);
      LK_ASSERT_NEAR(r.epsilon, 0, 0);
    }
    lk_data_free(d);
    lk_grasp_scene_free(s);
  }
}

/* Both hands on every object, from above: a trial runs to an outcome
 * (never a failed step), and the jaw holds the box, can and mug. */
static void test_every_hand_and_object(void) {
  const char *hands[2] = {"jaw_gripper", "three_finger_hand"};
  const char *objects[4] = {"object_box", "object_sphere", "object_cylinder", "object_mug"};
  for (int h = 0; h < 2; h++)
    for (int k = 0; k < 4; k++) {
      lk_grasp_scene *s = scene(hands[h], objects[k], NULL, 0, NULL, 0);
      CU_ASSERT_PTR_NOT_NULL_FATAL(s);
      lk_data *d = lk_data_new(lk_grasp_scene_model(s));
      lk_grasp_trial_options o;
      lk_grasp_trial_options_default(&o);
      if (h == 1) o.grip_force = 4;
      lk_grasp_trial_report r;
      lk_transform pose = from_above(0.8 * lk_grasp_scene_reach(s), 0);
      LK_ASSERT_OK(lk_grasp_trial(s, d, &pose, NULL, &o, &r, NULL), NULL);
      LK_ASSERT_MSG(r.outcome != LK_GRASP_SIM_FAILED, "%s on %s: step failed: %s", hands[h],
                    objects[k], lk_strerror(r.status));
      if (h == 0 && k != 1)
        LK_ASSERT_MSG(r.held, "%s on %s: %s", hands[h], objects[k],
                      lk_grasp_outcome_name(r.outcome));
      lk_data_free(d);
      lk_grasp_scene_free(s);
    }
}

static void test_scene_errors(void) {
  lk_error e;
  char gp[4096];
  snprintf(gp, sizeof gp, "%s", lk_test_srcpath("mechanisms/gripper.yaml"));
  /* gripper.yaml holds its own cube: that hand file has two root links. */
  lk_grasp_scene *s = lk_grasp_scene_load(gp, lk_test_srcpath("mechanisms/object_box.yaml"), NULL,
                                          &e);
  CU_ASSERT_PTR_NULL(s);
  LK_ASSERT_MSG(strstr(e.message, "exactly one root link") != NULL, "%s", e.message);
  /* An object file whose body is welded to the world. */
  snprintf(gp, sizeof gp, "%s", lk_test_srcpath("mechanisms/jaw_gripper.yaml"));
  s = lk_grasp_scene_load(gp, lk_test_srcpath("mechanisms/pendulum.yaml"), NULL, &e);
  CU_ASSERT_PTR_NULL(s);
  LK_ASSERT_MSG(strstr(e.message, "free joint") != NULL, "%s", e.message);
  /* A "hand" whose root floats. */
  char bp[4096];
  snprintf(bp, sizeof bp, "%s", lk_test_srcpath("mechanisms/object_box.yaml"));
  s = lk_grasp_scene_load(bp, lk_test_srcpath("mechanisms/object_sphere.yaml"), NULL, &e);
  CU_ASSERT_PTR_NULL(s);
  LK_ASSERT_MSG(strstr(e.message, "fixed joint") != NULL, "%s", e.message);
  /* An override's mistake is reported with the file and the override. */
  lk_grasp_scene_options so;
  lk_grasp_scene_options_default(&so);
  const char *bad[1] = {"materials.rubber.mu_static=-1"};
  so.hand_set = bad;
  so.nhand_set = 1;
  s = lk_grasp_scene_load(gp, lk_test_srcpath("mechanisms/object_box.yaml"), &so, &e);
  CU_ASSERT_PTR_NULL(s);
  LK_ASSERT_INT_EQ(e.status, LK_SCHEMA_ERROR);
  LK_ASSERT_MSG(strstr(e.path, "jaw_gripper.yaml") && strstr(e.message, "mu_static=-1"), "%s: %s",
                e.path, e.message);
}

void lk_test_register(void) {
  static const lk_test tests[] = {
      {"squeeze holds iff 2 mu_s F >= m g (1 %), sim and analysis",
       test_squeeze_holds_iff_2muF_at_least_mg},
      {"close until contact: grip force, torque limit, stops", test_close_until_contact},
      {"the guarded close keeps the object in place", test_guarded_close_keeps_the_object_in_place},
      {"trial outcomes: collision, no contact, held, dropped", test_trial_outcomes},
      {"trials are deterministic", test_trial_is_deterministic},
      {"the trial observer sees every step", test_trial_observer},
      {"soft fingers: force closure, no spin", test_soft_fingers_stop_the_spin},
      {"both hands on every object", test_every_hand_and_object},
      {"scene errors", test_scene_errors},
      {NULL, NULL}};
  lk_test_suite("grasp trials", tests);
}
