/* Actuators and scheduled loads: the forces they apply. */
#include <string.h>

#include "data/data_impl.h"
#include "harness.h"
#include "linkage/linkage.h"
#include "sim/sim_data.h"

static lk_model *arm(void) {
  lk_model *m = lk_model_new();
  lk_link_spec a;
  lk_link_spec_default(&a);
  a.name = "arm";
  a.joint.type = LK_JOINT_REVOLUTE;
  a.joint.name = "hinge";
  a.mass = 1;
  a.inertia = lk_m3_diag(0.1, 0.1, 0.1);
  lk_model_add_link(m, &a, NULL);
  lk_link_spec s = a;
  s.name = "slider";
  s.parent = "arm";
  s.joint.type = LK_JOINT_PRISMATIC;
  s.joint.name = "slide";
  s.joint.axis = lk_v3(1, 0, 0);
  lk_model_add_link(m, &s, NULL);
  lk_actuator_spec p;
  lk_actuator_spec_default(&p);
  p.name = "servo";
  p.joint = "hinge";
  p.type = LK_ACTUATOR_POSITION;
  p.kp = 200;
  p.kv = 20;
  p.target = 0.5;
  p.max_effort = 10;
  lk_model_add_actuator(m, &p, NULL);
  lk_actuator_spec v;
  lk_actuator_spec_default(&v);
  v.name = "drive";
  v.joint = "slide";
  v.type = LK_ACTUATOR_VELOCITY;
  v.kv = 3;
  v.target = 2;
  lk_model_add_actuator(m, &v, NULL);
  lk_actuator_spec e;
  lk_actuator_spec_default(&e);
  e.name = "ramp";
  e.joint = "slide";
  double t[3] = {0, 1, 3}, y[3] = {0, 4, -2};
  e.schedule_t = t;
  e.schedule_effort = y;
  e.nschedule = 3;
  lk_model_add_actuator(m, &e, NULL);
  lk_load_spec l;
  lk_load_spec_default(&l);
  l.link = "slider";
  l.point = lk_v3(0, 1, 0);
  l.force = lk_v3(0, 0, 2);
  l.frame = LK_FRAME_LINK;
  l.start = 0.5;
  l.end = 1.5;
  lk_model_add_load(m, &l, NULL);
  lk_error err;
  if (lk_model_finalize(m, &err) != LK_OK) {
    fprintf(stderr, "%s\n", err.message);
    lk_model_free(m);
    return NULL;
  }
  return m;
}

static void test_servo_velocity_and_schedule(void) {
  lk_model *m = arm();
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  lk_data *d = lk_data_new(m);
  lk_data_q(d)[0] = 0.48;
  lk_data_v(d)[0] = 0.1;
  lk_data_v(d)[1] = 1.5;
  LK_ASSERT_OK(lk_forward_kinematics(m, d), (lk_error *)NULL);
  double tau[2] = {0, 0};
  lk_force f[3];
  memset(f, 0, sizeof f);
  lk_sim_applied_forces(m, d, lk_data_q(d), lk_data_v(d), 0.5, tau, f);
  /* servo: 200 (0.5 - 0.48) - 20 (0.1) = 2; drive: 3 (2 - 1.5) = 1.5;
   * ramp at t = 0.5: halfway from 0 to 4 = 2. */
  LK_ASSERT_NEAR(lk_data_actuator_force(d, 0), 2, 1e-12);
  LK_ASSERT_NEAR(lk_data_actuator_force(d, 1), 1.5, 1e-12);
  LK_ASSERT_NEAR(lk_data_actuator_force(d, 2), 2, 1e-12);
  LK_ASSERT_NEAR(tau[0], 2, 1e-12);
  LK_ASSERT_NEAR(tau[1], 3.5, 1e-12);
  /* Saturation at max_effort, and a changed target. */
  LK_ASSERT_OK(lk_data_actuator_set_target(d, 0, 3.0), (lk_error *)NULL);
  tau[0] = tau[1] = 0;
  lk_sim_applied_forces(m, d, lk_data_q(d), lk_data_v(d), 2.0, tau, f);
  LK_ASSERT_NEAR(tau[0], 10, 0);
  LK_ASSERT_NEAR(lk_data_actuator_force(d, 2), 1, 1e-12); /* 4 + (2-1)/2 * (-6) */
  lk_sim_applied_forces(m, d, lk_data_q(d), lk_data_v(d), 9.0, tau, f);
  LK_ASSERT_NEAR(lk_data_actuator_force(d, 2), -2, 0); /* held after the end */
  LK_ASSERT_INT_EQ(lk_data_actuator_set_target(d, 5, 1), LK_INVALID_ARGUMENT);
  LK_ASSERT_INT_EQ(lk_data_actuator_set_target(d, 0, NAN), LK_NON_FINITE);
  /* A reset restores the model's targets. */
  lk_data_reset(d);
  LK_ASSERT_NEAR(lk_data_actuator_target(d, 0), 0.5, 0);
  lk_data_free(d);
  lk_model_free(m);
}

static void test_loads_follow_frame_and_window(void) {
  lk_model *m = arm();
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  lk_data *d = lk_data_new(m);
  /* Rotate the arm by 90 degrees about z: the slider's link-frame +z force
   * stays +z (rotation about z), its point (0,1,0) goes to (-1,0,0) + slide. */
  lk_data_q(d)[0] = LK_PI / 2;
  lk_data_q(d)[1] = 0.25;
  LK_ASSERT_OK(lk_forward_kinematics(m, d), (lk_error *)NULL);
  double tau[2];
  lk_force f[3];
  for (int pass = 0; pass < 3; pass++) {
    double t = pass == 0 ? 0.4 : (pass == 1 ? 1.0 : 1.5);
    memset(f, 0, sizeof f);
    tau[0] = tau[1] = 0;
    lk_sim_applied_forces(m, d, lk_data_q(d), lk_data_v(d), t, tau, f);
    if (pass == 1) {
      lk_vec3 p = lk_v3(0, 0.25, 0); /* slide along the rotated x axis */
      p = lk_v3_add(p, lk_v3(-1, 0, 0));
      lk_vec3 moment = lk_v3_cross(p, lk_v3(0, 0, 2));
      LK_ASSERT_NEAR(f[2].lin.z, 2, 1e-12);
      LK_ASSERT_NEAR(f[2].ang.x, moment.x, 1e-12);
      LK_ASSERT_NEAR(f[2].ang.y, moment.y, 1e-12);
    } else {
      /* outside [start, end) the load is off */
      LK_ASSERT_NEAR(lk_v3_norm(f[2].lin) + lk_v3_norm(f[2].ang), 0, 0);
    }
  }
  lk_data_free(d);
  lk_model_free(m);
}

static const lk_test tests[] = {
    {"servo, velocity and scheduled actuators", test_servo_velocity_and_schedule},
    {"loads follow their frame and time window", test_loads_follow_frame_and_window},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("applied", tests); }
