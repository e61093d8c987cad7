/* A URDF arm's contact-free motion in Linkage equals MuJoCo's integration
 * of the same file (MuJoCo reads URDF itself, mj_loadXML): the same
 * timestep (1 ms) and integrator (semi-implicit Euler, velocity forces
 * explicit as MuJoCo's), from the same
 * initial state, q and v agree to 1e-9 over 0.5 s. Built only when
 * configure finds MuJoCo.
 *
 * The arm: a base on the world, three continuous joints about different
 * axes, inertials given off the link origin in rotated frames (off-diagonal
 * tensors in link axes), and a heavy tool on a fixed joint (MuJoCo fuses it
 * into its parent; Linkage keeps it as a link on a fixed joint: the same
 * dynamics). No collision shapes, no damping, no limits: MuJoCo's soft
 * constraints and implicit damping would be a different method, not a
 * different reading of the file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mujoco/mujoco.h>

#include "harness.h"
#include "linkage/linkage.h"

static const char *kArm =
    "<?xml version=\"1.0\"?>\n"
    "<robot name=\"arm3\">\n"
    "  <link name=\"base\"/>\n"
    "  <joint name=\"j1\" type=\"continuous\"><parent link=\"base\"/><child link=\"l1\"/>\n"
    "    <origin xyz=\"0 0 0.5\" rpy=\"0 0 0.3\"/><axis xyz=\"0 0 1\"/></joint>\n"
    "  <link name=\"l1\"><inertial><origin xyz=\"0.05 0 0.1\" rpy=\"0.2 0.1 0\"/>\n"
    "    <mass value=\"1.5\"/>\n"
    "    <inertia ixx=\"0.02\" iyy=\"0.025\" izz=\"0.01\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>\n"
    "  </inertial></link>\n"
    "  <joint name=\"j2\" type=\"continuous\"><parent link=\"l1\"/><child link=\"l2\"/>\n"
    "    <origin xyz=\"0.1 0 0.2\" rpy=\"0.4 0 0\"/><axis xyz=\"0 1 0\"/></joint>\n"
    "  <link name=\"l2\"><inertial><origin xyz=\"0 0.02 0.25\" rpy=\"0 0.3 -0.2\"/>\n"
    "    <mass value=\"1.0\"/>\n"
    "    <inertia ixx=\"0.03\" iyy=\"0.028\" izz=\"0.004\" ixy=\"0.001\" ixz=\"0\" iyz=\"0\"/>\n"
    "  </inertial></link>\n"
    "  <joint name=\"j3\" type=\"continuous\"><parent link=\"l2\"/><child link=\"l3\"/>\n"
    "    <origin xyz=\"0 0 0.5\"/><axis xyz=\"1 0 0\"/></joint>\n"
    "  <link name=\"l3\"><inertial><origin xyz=\"0 0 0.2\"/><mass value=\"0.6\"/>\n"
    "    <inertia ixx=\"0.008\" iyy=\"0.008\" izz=\"0.001\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>\n"
    "  </inertial></link>\n"
    "  <joint name=\"tool_mount\" type=\"fixed\"><parent link=\"l3\"/><child link=\"tool\"/>\n"
    "    <origin xyz=\"0 0 0.4\" rpy=\"0 0.5 0\"/></joint>\n"
    "  <link name=\"tool\"><inertial><origin xyz=\"0.03 0 0\"/><mass value=\"0.8\"/>\n"
    "    <inertia ixx=\"0.002\" iyy=\"0.003\" izz=\"0.004\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>\n"
    "  </inertial></link>\n"
    "</robot>\n";

static void test_arm_motion_equals_mujoco(void) {
  const char *b = getenv("LK_TOP_BUILDDIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/io/mujoco-arm-%d.urdf", b && *b ? b : ".", (int)getpid());
  FILE *f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs(kArm, f);
  fclose(f);

  char mjerr[1000] = "";
  mjModel *mm = mj_loadXML(path, NULL, mjerr, sizeof mjerr);
  LK_ASSERT_MSG(mm != NULL, "MuJoCo: %s", mjerr);
  lk_error err;
  lk_model *m = lk_model_load_file(path, NULL, &err);
  LK_ASSERT_MSG(m != NULL, "%s", err.message);
  unlink(path);
  if (!mm || !m) {
    if (mm) mj_deleteModel(mm);
    lk_model_free(m);
    return;
  }
  LK_ASSERT_INT_EQ(mm->nq, 3);
  LK_ASSERT_INT_EQ(lk_model_nq(m), 3);
  /* MuJoCo's Euler takes the velocity forces at the step's start: the
   * same method is Linkage's velocity_forces: explicit (its default,
   * midpoint, differs by O(h) a step: 4e-3 rad over these 0.5 s). */
  lk_options lo = *lk_model_options(m);
  lo.velocity_forces = LK_VELOCITY_FORCES_EXPLICIT;
  LK_ASSERT_OK(lk_model_set_options(m, &lo, &err), &err);
  mm->opt.timestep = lk_model_options(m)->timestep;
  mm->opt.integrator = mjINT_EULER;
  LK_ASSERT_NEAR(mm->opt.gravity[2], lk_model_options(m)->gravity.z, 0);
  mjData *md = mj_makeData(mm);
  lk_data *d = lk_data_new(m);

  /* MuJoCo's joints in its order, by name; Linkage's by name too. */
  static const char *const joints[] = {"j1", "j2", "j3"};
  int mq[3], lq[3];
  for (int i = 0; i < 3; i++) {
    int jid = mj_name2id(mm, mjOBJ_JOINT, joints[i]);
    CU_ASSERT_FATAL(jid >= 0);
    mq[i] = mm->jnt_qposadr[jid];
    lq[i] = lk_model_joint_qadr(m, lk_model_joint_index(m, joints[i]));
  }
  const double q0[3] = {0.3, 1.1, -0.7}, v0[3] = {0.5, -1.0, 2.0};
  for (int i = 0; i < 3; i++) {
    md->qpos[mq[i]] = q0[i];
    md->qvel[mq[i]] = v0[i];
    lk_data_q(d)[lq[i]] = q0[i];
    lk_data_v(d)[lq[i]] = v0[i];
  }
  /* The accelerations at the start. */
  mj_forward(mm, md);
  LK_ASSERT_OK(lk_forward_kinematics(m, d), NULL);
  LK_ASSERT_OK(lk_forward_dynamics(m, d, LK_FD_ABA), NULL);
  for (int i = 0; i < 3; i++) LK_ASSERT_NEAR(lk_data_qacc(d)[lq[i]], md->qacc[mq[i]], 1e-11);
  LK_ASSERT_INT_EQ(md->ncon, 0);

  double worst_q = 0, worst_v = 0, moved = 0;
  for (int k = 0; k < 500; k++) {
    mj_step(mm, md);
    LK_ASSERT_OK(lk_step(m, d), NULL);
    for (int i = 0; i < 3; i++) {
      worst_q = fmax(worst_q, fabs(lk_data_q(d)[lq[i]] - md->qpos[mq[i]]));
      worst_v = fmax(worst_v, fabs(lk_data_v(d)[lq[i]] - md->qvel[mq[i]]));
      moved = fmax(moved, fabs(md->qpos[mq[i]] - q0[i]));
    }
  }
  LK_ASSERT_MSG(worst_q <= 1e-9, "max |q - q_mujoco| = %.3g over 0.5 s", worst_q);
  LK_ASSERT_MSG(worst_v <= 1e-9, "max |v - v_mujoco| = %.3g over 0.5 s", worst_v);
  LK_ASSERT_MSG(moved > 0.5, "the arm hardly moved (%g rad)", moved);
  printf("\n  URDF arm vs MuJoCo over 500 steps: max |dq| %.3g, max |dv| %.3g\n", worst_q, worst_v);
  mj_deleteData(md);
  mj_deleteModel(mm);
  lk_data_free(d);
  lk_model_free(m);
}

void lk_test_register(void) {
  static const lk_test tests[] = {{"arm motion equals MuJoCo", test_arm_motion_equals_mujoco},
                                  {NULL, NULL}};
  lk_test_suite("urdf-mujoco", tests);
}
