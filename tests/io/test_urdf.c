/* The URDF reader (lib/io/urdf.c): each element as the model sees it
 * (links' inertials, a tensor in a rotated frame, collision and visual
 * shapes, the joint types with origin, axis, limit, dynamics and mimic),
 * the physics of a pendulum read from URDF against its closed form, the
 * reader picked by content, package:// and relative mesh names, and every
 * error at its line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "linkage/linkage.h"

static lk_model *load(const char *text, lk_error *err) {
  return lk_model_load_string(text, strlen(text), "robot.urdf", NULL, err);
}

/* The load fails with status at line, and the message holds each of the
 * NULL-terminated phrases. */
static int expect_error(const char *text, lk_status status, int line, const char *const *phrases) {
  const unsigned failures0 = lk_test_failures();
  lk_error err;
  lk_model *m = load(text, &err);
  LK_ASSERT_MSG(m == NULL, "the URDF loaded; expected: %s", phrases[0]);
  lk_model_free(m);
  LK_ASSERT_MSG(err.status == status, "status %s, expected %s: %s", lk_status_name(err.status),
                lk_status_name(status), err.message);
  LK_ASSERT_MSG(err.line == line, "line %d, expected %d: %s", err.line, line, err.message);
  CU_ASSERT_STRING_EQUAL(err.path, "robot.urdf");
  for (int i = 0; phrases[i]; i++)
    LK_ASSERT_MSG(strstr(err.message, phrases[i]) != NULL, "'%s' not in: %s", phrases[i],
                  err.message);
  return lk_test_failures() == failures0;
}
#define EXPECT(text, status, line, ...) \
  expect_error(text, status, line, (const char *const[]){__VA_ARGS__, NULL})

/* ------------------------------------------------------------ elements */

/* An arm as a user writes one: a massless base on the world, a shoulder
 * (continuous, about y), an elbow (revolute, limited), a wrist slide
 * (prismatic along the default axis x) and a fixed tool. */
static const char *kArm =
    "<?xml version=\"1.0\"?>\n"
    "<robot name=\"arm\">\n"
    "  <link name=\"base\">\n"
    "    <collision><geometry><box size=\"0.4 0.3 0.1\"/></geometry></collision>\n"
    "  </link>\n"
    "  <joint name=\"shoulder\" type=\"continuous\">\n"
    "    <parent link=\"base\"/><child link=\"upper\"/>\n"
    "    <origin xyz=\"0 0 0.1\" rpy=\"0 0 1.5707963267948966\"/>\n"
    "    <axis xyz=\"0 2 0\"/>\n"
    "    <dynamics damping=\"0.25\" friction=\"0.5\"/>\n"
    "  </joint>\n"
    "  <link name=\"upper\">\n"
    "    <inertial>\n"
    "      <origin xyz=\"0 0 0.25\" rpy=\"0.3 0 0\"/>\n"
    "      <mass value=\"2\"/>\n"
    "      <inertia ixx=\"0.05\" ixy=\"0\" ixz=\"0\" iyy=\"0.04\" iyz=\"0\" izz=\"0.02\"/>\n"
    "    </inertial>\n"
    "    <collision><origin xyz=\"0 0 0.25\"/>\n"
    "      <geometry><cylinder radius=\"0.03\" length=\"0.5\"/></geometry></collision>\n"
    "    <collision><origin xyz=\"0 0 0.5\" rpy=\"1.5707963267948966 0 0\"/>\n"
    "      <geometry><cylinder radius=\"0.04\" length=\"0.1\"/></geometry></collision>\n"
    "    <visual><origin xyz=\"0 0 0.25\"/>\n"
    "      <geometry><sphere radius=\"0.06\"/></geometry>\n"
    "      <material name=\"grey\"><color rgba=\"0.5 0.5 0.5 1\"/></material></visual>\n"
    "  </link>\n"
    "  <joint name=\"elbow\" type=\"revolute\">\n"
    "    <parent link=\"upper\"/><child link=\"fore\"/>\n"
    "    <origin xyz=\"0 0 0.5\"/>\n"
    "    <axis xyz=\"0 1 0\"/>\n"
    "    <limit lower=\"-2\" upper=\"1.5\" effort=\"10\" velocity=\"3\"/>\n"
    "  </joint>\n"
    "  <link name=\"fore\">\n"
    "    <inertial><origin xyz=\"0 0 0.2\"/><mass value=\"1\"/>\n"
    "      <inertia ixx=\"0.02\" ixy=\"0.001\" ixz=\"0\" iyy=\"0.03\" iyz=\"0\" izz=\"0.015\"/>\n"
    "    </inertial>\n"
    "    <collision><origin xyz=\"0 0 0.2\"/><geometry><capsule radius=\"0.02\" length=\"0.3\"/>"
    "</geometry></collision>\n"
    "  </link>\n"
    "  <joint name=\"slide\" type=\"prismatic\">\n"
    "    <parent link=\"fore\"/><child link=\"hand\"/>\n"
    "    <origin xyz=\"0 0 0.4\"/>\n"
    "    <limit lower=\"0\" upper=\"0.1\" effort=\"5\" velocity=\"0.2\"/>\n"
    "    <safety_controller soft_lower_limit=\"0\" soft_upper_limit=\"0.1\" k_velocity=\"1\"/>\n"
    "  </joint>\n"
    "  <link name=\"hand\">\n"
    "    <inertial><mass value=\"0.5\"/>\n"
    "      <inertia ixx=\"0.001\" ixy=\"0\" ixz=\"0\" iyy=\"0.001\" iyz=\"0\" izz=\"0.001\"/>\n"
    "    </inertial>\n"
    "  </link>\n"
    "  <joint name=\"tool_mount\" type=\"fixed\">\n"
    "    <parent link=\"hand\"/><child link=\"tool\"/>\n"
    "    <origin xyz=\"0.05 0 0\"/>\n"
    "  </joint>\n"
    "  <link name=\"tool\"/>\n"
    "  <transmission name=\"t1\"><type>SimpleTransmission</type></transmission>\n"
    "  <gazebo reference=\"tool\"/>\n"
    "</robot>\n";

static lk_model *arm(void) {
  lk_error err;
  lk_model *m = load(kArm, &err);
  LK_ASSERT_MSG(m != NULL, "%s:%d: %s", err.path, err.line, err.message);
  return m;
}

static void test_links_and_joints(void) {
  lk_model *m = arm();
  if (!m) return;
  CU_ASSERT_STRING_EQUAL(lk_model_name(m), "arm");
  LK_ASSERT_INT_EQ(lk_model_nlink(m), 6);
  LK_ASSERT_INT_EQ(lk_model_nq(m), 3);
  LK_ASSERT_NEAR(lk_model_total_mass(m), 3.5, 0);
  lk_link_spec s;
  /* The root is fixed to the world at its origin, its joint named after it. */
  int base = lk_model_link_index(m, "base");
  LK_ASSERT_OK(lk_model_link(m, base, &s), NULL);
  LK_ASSERT_INT_EQ(s.joint.type, LK_JOINT_FIXED);
  CU_ASSERT_STRING_EQUAL(s.parent, "world");
  CU_ASSERT_STRING_EQUAL(lk_model_joint_name(m, base), "base");
  LK_ASSERT_NEAR(s.mass, 0, 0);
  /* continuous: an unlimited revolute joint; the axis normalized. */
  int up = lk_model_joint_index(m, "shoulder");
  CU_ASSERT_STRING_EQUAL(lk_model_link_name(m, up), "upper");
  LK_ASSERT_OK(lk_model_link(m, up, &s), NULL);
  LK_ASSERT_INT_EQ(s.joint.type, LK_JOINT_REVOLUTE);
  LK_ASSERT_INT_EQ(s.joint.limited, 0);
  LK_ASSERT_NEAR(s.joint.axis.x, 0, 0);
  LK_ASSERT_NEAR(s.joint.axis.y, 1, 0);
  LK_ASSERT_NEAR(s.joint.damping, 0.25, 0);
  LK_ASSERT_NEAR(s.joint.friction, 0.5, 0);
  CU_ASSERT_STRING_EQUAL(s.parent, "base");
  /* origin: xyz and a quarter turn about z (URDF's rpy is about fixed
   * x, y, z: R = Rz Ry Rx). */
  LK_ASSERT_NEAR(s.origin.p.z, 0.1, 0);
  LK_ASSERT_NEAR(s.origin.R.m[0][1], -1, 1e-15);
  LK_ASSERT_NEAR(s.origin.R.m[1][0], 1, 1e-15);
  LK_ASSERT_NEAR(s.origin.R.m[2][2], 1, 1e-15);
  /* revolute with its limits */
  LK_ASSERT_OK(lk_model_link(m, lk_model_joint_index(m, "elbow"), &s), NULL);
  LK_ASSERT_INT_EQ(s.joint.type, LK_JOINT_REVOLUTE);
  LK_ASSERT_INT_EQ(s.joint.limited, 1);
  LK_ASSERT_NEAR(s.joint.lower, -2, 0);
  LK_ASSERT_NEAR(s.joint.upper, 1.5, 0);
  LK_ASSERT_NEAR(s.joint.damping, 0, 0);
  /* prismatic along URDF's default axis, +x */
  LK_ASSERT_OK(lk_model_link(m, lk_model_joint_index(m, "slide"), &s), NULL);
  LK_ASSERT_INT_EQ(s.joint.type, LK_JOINT_PRISMATIC);
  LK_ASSERT_NEAR(s.joint.axis.x, 1, 0);
  LK_ASSERT_NEAR(s.joint.upper, 0.1, 0);
  LK_ASSERT_NEAR(s.origin.p.z, 0.4, 0);
  /* fixed, massless: a frame */
  LK_ASSERT_OK(lk_model_link(m, lk_model_link_index(m, "tool"), &s), NULL);
  LK_ASSERT_INT_EQ(s.joint.type, LK_JOINT_FIXED);
  CU_ASSERT_STRING_EQUAL(lk_model_joint_name(m, lk_model_link_index(m, "tool")), "tool_mount");
  LK_ASSERT_NEAR(s.origin.p.x, 0.05, 0);
  lk_model_free(m);
}

/* <inertial>: the centre of mass is the origin's xyz; the tensor, given
 * about it in axes turned by rpy = (0.3, 0, 0) (about x), is R I R^T in
 * link axes: xx stays, yy and zz mix, yz = cos sin (Iyy - Izz). */
static void test_inertia_in_a_rotated_frame(void) {
  lk_model *m = arm();
  if (!m) return;
  lk_link_spec s;
  LK_ASSERT_OK(lk_model_link(m, lk_model_link_index(m, "upper"), &s), NULL);
  double c = cos(0.3), sn = sin(0.3), a = 0.04, b = 0.02;
  LK_ASSERT_NEAR(s.mass, 2, 0);
  LK_ASSERT_NEAR(s.com.z, 0.25, 0);
  LK_ASSERT_NEAR(s.inertia.m[0][0], 0.05, 1e-17);
  LK_ASSERT_NEAR(s.inertia.m[1][1], a * c * c + b * sn * sn, 1e-17);
  LK_ASSERT_NEAR(s.inertia.m[2][2], a * sn * sn + b * c * c, 1e-17);
  LK_ASSERT_NEAR(s.inertia.m[1][2], c * sn * (a - b), 1e-17);
  LK_ASSERT_NEAR(s.inertia.m[2][1], c * sn * (a - b), 1e-17);
  LK_ASSERT_NEAR(s.inertia.m[0][1], 0, 1e-17);
  /* Products of inertia are read as they are (ixy on the fore arm). */
  LK_ASSERT_OK(lk_model_link(m, lk_model_link_index(m, "fore"), &s), NULL);
  LK_ASSERT_NEAR(s.inertia.m[0][1], 0.001, 0);
  LK_ASSERT_NEAR(s.inertia.m[1][0], 0.001, 0);
  LK_ASSERT_NEAR(s.inertia.m[1][1], 0.03, 0);
  lk_model_free(m);
}

/* Two shapes on a link, in file order, collision before visual: box size
 * and cylinder length are full, halved; the visual collides with nothing. */
static void test_collision_and_visual_shapes(void) {
  lk_model *m = arm();
  if (!m) return;
  LK_ASSERT_INT_EQ(lk_model_ngeom(m), 5);
  int up = lk_model_link_index(m, "upper"), k = 0;
  lk_geom_spec g[5];
  int n = 0;
  for (int i = 0; i < lk_model_ngeom(m); i++) {
    lk_geom_spec s;
    LK_ASSERT_OK(lk_model_geom(m, i, &s), NULL);
    if (lk_model_geom_link(m, i) == up && n < 5) g[n++] = s;
    if (lk_model_geom_link(m, i) == lk_model_link_index(m, "base")) {
      LK_ASSERT_INT_EQ(s.type, LK_GEOM_BOX);
      LK_ASSERT_NEAR(s.size[0], 0.2, 0);
      LK_ASSERT_NEAR(s.size[1], 0.15, 0);
      LK_ASSERT_NEAR(s.size[2], 0.05, 0);
      k++;
    }
    if (lk_model_geom_link(m, i) == lk_model_link_index(m, "fore")) {
      LK_ASSERT_INT_EQ(s.type, LK_GEOM_CAPSULE);
      LK_ASSERT_NEAR(s.size[0], 0.02, 0);
      LK_ASSERT_NEAR(s.size[1], 0.15, 0);
      k++;
    }
  }
  LK_ASSERT_INT_EQ(k, 2);
  LK_ASSERT_INT_EQ(n, 3);
  if (n == 3) {
    LK_ASSERT_INT_EQ(g[0].type, LK_GEOM_CYLINDER);
    LK_ASSERT_NEAR(g[0].size[0], 0.03, 0);
    LK_ASSERT_NEAR(g[0].size[1], 0.25, 0);
    LK_ASSERT_NEAR(g[0].pose.p.z, 0.25, 0);
    LK_ASSERT_INT_EQ(g[0].group, 1);
    LK_ASSERT_INT_EQ(g[0].mask, 1);
    LK_ASSERT_INT_EQ(g[1].type, LK_GEOM_CYLINDER);
    LK_ASSERT_NEAR(g[1].size[1], 0.05, 0);
    /* rpy (pi/2, 0, 0): the cylinder's axis z turned onto -y */
    LK_ASSERT_NEAR(g[1].pose.R.m[1][2], -1, 1e-15);
    LK_ASSERT_INT_EQ(g[2].type, LK_GEOM_SPHERE);
    LK_ASSERT_NEAR(g[2].size[0], 0.06, 0);
    LK_ASSERT_INT_EQ(g[2].group, 0);
    LK_ASSERT_INT_EQ(g[2].mask, 0);
  }
  lk_model_free(m);
}

/* <mimic>: q_finger2 = -1 * q_finger1 + 0.01, a coupling; simulated, the
 * mimic joint follows. A floating joint is a free joint. */
static const char *kMimic =
    "<robot name=\"jaw\">\n"
    "  <link name=\"palm\"><inertial><mass value=\"1\"/>"
    "<inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n"
    "  <joint name=\"f1\" type=\"prismatic\"><parent link=\"palm\"/><child link=\"left\"/>\n"
    "    <axis xyz=\"0 1 0\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>\n"
    "  <joint name=\"f2\" type=\"prismatic\"><parent link=\"palm\"/><child link=\"right\"/>\n"
    "    <axis xyz=\"0 1 0\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>\n"
    "    <mimic joint=\"f1\" multiplier=\"-1\" offset=\"0.01\"/></joint>\n"
    "  <link name=\"left\"><inertial><mass value=\"0.1\"/>"
    "<inertia ixx=\"0.001\" iyy=\"0.001\" izz=\"0.001\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n"
    "  <link name=\"right\"><inertial><mass value=\"0.2\"/>"
    "<inertia ixx=\"0.001\" iyy=\"0.001\" izz=\"0.001\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n"
    "  <joint name=\"drop\" type=\"floating\"><parent link=\"palm\"/><child link=\"ball\"/>"
    "<origin xyz=\"0 0 -0.5\"/></joint>\n"
    "  <link name=\"ball\"><inertial><mass value=\"0.3\"/>"
    "<inertia ixx=\"0.001\" iyy=\"0.001\" izz=\"0.001\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n"
    "</robot>\n";

static void test_mimic_is_a_coupling_and_floating_is_free(void) {
  lk_error err;
  lk_model *m = load(kMimic, &err);
  LK_ASSERT_MSG(m != NULL, "%s", err.message);
  if (!m) return;
  LK_ASSERT_INT_EQ(lk_model_ncoupling(m), 1);
  lk_coupling_spec c;
  LK_ASSERT_OK(lk_model_coupling(m, 0, &c), NULL);
  CU_ASSERT_STRING_EQUAL(c.joint_a, "f2");
  CU_ASSERT_STRING_EQUAL(c.joint_b, "f1");
  LK_ASSERT_NEAR(c.ratio, -1, 0);
  LK_ASSERT_NEAR(c.offset, 0.01, 0);
  int ball = lk_model_link_index(m, "ball");
  LK_ASSERT_INT_EQ(lk_model_joint_type(m, ball), LK_JOINT_FREE);
  LK_ASSERT_INT_EQ(lk_model_nq(m), 2 + 7);
  lk_model_free(m);
  /* Gravity along +y pulls both fingers; the coupling holds q2 = -q1
   * throughout (drift corrected to well under 1e-6). Without the offset:
   * a coupling that starts violated diverges in the position projection
   * (lib/sim/project.c, reported; not the reader's). */
  char text[4096];
  snprintf(text, sizeof text, "%s", kMimic);
  char *off = strstr(text, "offset=\"0.01\"");
  CU_ASSERT_PTR_NOT_NULL_FATAL(off);
  memcpy(off, "offset=\"0000\"", 13);
  lk_model *m2 = lk_model_new();
  lk_merge_options mo;
  lk_merge_options_default(&mo);
  mo.options = 1;
  LK_ASSERT_OK(lk_model_load_string_into(m2, text, strlen(text), "robot.urdf", NULL, &mo, &err),
               &err);
  lk_options op;
  lk_options_default(&op);
  op.gravity = lk_v3(0, 9.81, 0);
  LK_ASSERT_OK(lk_model_set_options(m2, &op, &err), &err);
  LK_ASSERT_OK(lk_model_finalize(m2, &err), &err);
  lk_data *d = lk_data_new(m2);
  int q1 = lk_model_joint_qadr(m2, lk_model_joint_index(m2, "f1"));
  int q2 = lk_model_joint_qadr(m2, lk_model_joint_index(m2, "f2"));
  double worst = 0;
  for (int i = 0; i < 200; i++) {
    LK_ASSERT_OK(lk_step(m2, d), NULL);
    double *q = lk_data_q(d);
    worst = fmax(worst, fabs(q[q2] + q[q1]));
  }
  double *q = lk_data_q(d);
  LK_ASSERT_MSG(worst < 1e-6, "coupling error %g", worst);
  /* The heavier right finger wins: f2 moves +y, so f1 moves -y. */
  LK_ASSERT_MSG(q[q1] < -1e-3, "f1 = %g", q[q1]);
  lk_data_free(d);
  lk_model_free(m2);
}

/* A pendulum from URDF: mass 2 at 0.5 m below a continuous joint about y,
 * inertia Iyy = 0.01 about the centre of mass. At angle q the acceleration
 * is -m g L sin q / (Icm + m L^2) (gravity -z; q about +y moves the bob
 * towards -x... whose torque about y is -m g L sin q). */
static void test_pendulum_acceleration(void) {
  const char *u =
      "<robot name=\"pendulum\">\n"
      "  <link name=\"frame\"/>\n"
      "  <joint name=\"pivot\" type=\"continuous\"><parent link=\"frame\"/><child link=\"bob\"/>\n"
      "    <origin xyz=\"0 0 1\"/><axis xyz=\"0 1 0\"/></joint>\n"
      "  <link name=\"bob\"><inertial><origin xyz=\"0 0 -0.5\"/><mass value=\"2\"/>\n"
      "    <inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.001\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>"
      "</inertial></link>\n"
      "</robot>\n";
  lk_error err;
  lk_model *m = load(u, &err);
  LK_ASSERT_MSG(m != NULL, "%s", err.message);
  if (!m) return;
  lk_data *d = lk_data_new(m);
  lk_data_q(d)[0] = 0.7;
  LK_ASSERT_OK(lk_forward_kinematics(m, d), NULL);
  LK_ASSERT_OK(lk_forward_dynamics(m, d, LK_FD_ABA), NULL);
  double expect = -2 * 9.81 * 0.5 * sin(0.7) / (0.01 + 2 * 0.25);
  LK_ASSERT_NEAR(lk_data_qacc(d)[0], expect, 1e-12);
  lk_data_free(d);
  lk_model_free(m);
}

/* The reader is chosen by content, whatever the file is called. */
static char scratch_dir[4096];
static const char *scratch(const char *name) {
  static char buf[4][8192];
  static int slot;
  if (!scratch_dir[0]) {
    const char *b = getenv("LK_TOP_BUILDDIR");
    snprintf(scratch_dir, sizeof scratch_dir, "%s/tests/io/urdf.XXXXXX", b && *b ? b : ".");
    if (!mkdtemp(scratch_dir)) abort();
  }
  char *o = buf[slot++ & 3];
  snprintf(o, sizeof buf[0], "%s/%s", scratch_dir, name);
  return o;
}

static void put(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs(text, f);
  fclose(f);
}

static void test_reader_by_content(void) {
  lk_error err;
  const char *p = scratch("robot.yaml");
  put(p, kArm);
  lk_model *m = lk_model_load_file(p, NULL, &err);
  LK_ASSERT_MSG(m != NULL, "%s", err.message);
  if (m) LK_ASSERT_INT_EQ(lk_model_nq(m), 3);
  lk_model_free(m);
  p = scratch("pendulum.urdf");
  put(p, "links:\n  - name: bob\n    joint: revolute\n    mass: 1\n    inertia: [1, 1, 1]\n");
  m = lk_model_load_file(p, NULL, &err);
  LK_ASSERT_MSG(m != NULL, "%s", err.message);
  if (m) LK_ASSERT_INT_EQ(lk_model_nq(m), 1);
  lk_model_free(m);
  /* Other XML is neither. */
  m = load("<?xml version=\"1.0\"?>\n<!-- a comment -->\n<svg/>\n", &err);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_MSG(strstr(err.message, "<svg>") != NULL, "%s", err.message);
  /* --set is YAML's */
  const char *set[] = {"options.timestep=0.002"};
  lk_load_options o;
  lk_load_options_default(&o);
  o.set = set;
  o.nset = 1;
  m = lk_model_load_string(kArm, strlen(kArm), "robot.urdf", &o, &err);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_MSG(strstr(err.message, "--set") != NULL, "%s", err.message);
}

static lk_model *load_yaml(const char *path, const char *text, lk_error *err);

/* An ASCII STL of the box [c - h, c + h] (12 triangles, outward). */
static void put_box_stl(const char *path, const double c[3], const double h[3]) {
  FILE *f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fprintf(f, "solid box\n");
  for (int ax = 0; ax < 3; ax++)
    for (int sg = -1; sg <= 1; sg += 2) {
      int u = (ax + 1) % 3, v = (ax + 2) % 3;
      /* corners of the face in (u, v), counter-clockwise seen from outside */
      double uv[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
      if (sg < 0)
        for (int k = 0; k < 4; k++) uv[k][1] = -uv[k][1];
      double p[4][3];
      for (int k = 0; k < 4; k++) {
        p[k][ax] = c[ax] + sg * h[ax];
        p[k][u] = c[u] + uv[k][0] * h[u];
        p[k][v] = c[v] + uv[k][1] * h[v];
      }
      static const int tri[2][3] = {{0, 1, 2}, {0, 2, 3}};
      for (int t = 0; t < 2; t++) {
        double n[3] = {0, 0, 0};
        n[ax] = sg;
        fprintf(f, " facet normal %g %g %g\n  outer loop\n", n[0], n[1], n[2]);
        for (int k = 0; k < 3; k++)
          fprintf(f, "   vertex %.17g %.17g %.17g\n", p[tri[t][k]][0], p[tri[t][k]][1],
                  p[tri[t][k]][2]);
        fprintf(f, "  endloop\n endfacet\n");
      }
    }
  fprintf(f, "endsolid box\n");
  fclose(f);
}

/* The model's mesh geoms of a loaded URDF, in order (at most max). */
static int mesh_geoms(const lk_model *m, lk_geom_spec *g, int max) {
  int n = 0;
  for (int i = 0; i < lk_model_ngeom(m) && n < max; i++) {
    lk_geom_spec s;
    if (lk_model_geom(m, i, &s) == LK_OK && s.type == LK_GEOM_MESH) g[n++] = s;
  }
  return n;
}

/* A hull is the box [lo, hi]: 8 vertices, 6 faces, its volume and bounds. */
static void expect_box_hull(const lk_mesh *h, const double lo[3], const double hi[3]) {
  CU_ASSERT_PTR_NOT_NULL_FATAL(h);
  LK_ASSERT_INT_EQ(lk_mesh_nvertex(h), 8);
  LK_ASSERT_INT_EQ(lk_mesh_nface(h), 6);
  double V = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
  /* Mesh files hold floats (assimp's ai_real): a relative 1e-7. */
  const double t = 1e-7 * (hi[2] - lo[2] + hi[1] - lo[1] + hi[0] - lo[0]);
  LK_ASSERT_NEAR(lk_mesh_volume(h), V, 3e-7 * V);
  lk_vec3 a, b;
  lk_mesh_bounds(h, &a, &b);
  LK_ASSERT_NEAR(a.x, lo[0], t);
  LK_ASSERT_NEAR(a.y, lo[1], t);
  LK_ASSERT_NEAR(a.z, lo[2], t);
  LK_ASSERT_NEAR(b.x, hi[0], t);
  LK_ASSERT_NEAR(b.y, hi[1], t);
  LK_ASSERT_NEAR(b.z, hi[2], t);
  lk_vec3 c = lk_mesh_centroid(h);
  LK_ASSERT_NEAR(c.x, 0.5 * (lo[0] + hi[0]), t);
  LK_ASSERT_NEAR(c.y, 0.5 * (lo[1] + hi[1]), t);
  LK_ASSERT_NEAR(c.z, 0.5 * (lo[2] + hi[2]), t);
}

static int has_warning(const lk_model *m, const char *phrase);

/* Collision meshes whose files are not there (by default): each shape is
 * left out, the others kept, the links named in a warning. A moving link
 * without <inertial> takes its mass from the shapes that are left, 1000
 * kg/m^3 times their volume (closed form: a box a x b x c); when none is
 * left it has no mass and the file is refused. up: a writable URDF path
 * whose ../meshes/finger.stl exists. */
static void missing_collision_meshes(const char *up, const lk_load_options *o) {
  static const double box[2][3] = {{0.1, 0.2, 0.3}, {0.05, 0.1, 0.4}};
  for (int k = 0; k < 2; k++) {
    char text[2048];
    snprintf(text, sizeof text,
             "<robot name=\"g\">\n<link name=\"base\"/>\n"
             "<joint name=\"j\" type=\"continuous\"><parent link=\"base\"/>"
             "<child link=\"arm\"/></joint>\n<link name=\"arm\">\n"
             "<collision><geometry><mesh filename=\"../meshes/gone.stl\"/></geometry></collision>\n"
             "<collision><geometry><box size=\"%g %g %g\"/></geometry></collision>\n"
             "<collision><geometry><mesh filename=\"../meshes/finger.stl\"/></geometry></collision>\n"
             "<collision><geometry><mesh filename=\"package://nowhere/x.stl\"/></geometry></collision>\n"
             "</link>\n</robot>\n",
             box[k][0], box[k][1], box[k][2]);
    put(up, text);
    lk_error err;
    lk_model *m = lk_model_load_file(up, o, &err);
    LK_ASSERT_MSG(m != NULL, "%s", err.message);
    if (!m) continue;
    /* the box and the finger's 2 x 1 x 4 cm hull, in file order */
    LK_ASSERT_INT_EQ(lk_model_ngeom(m), 2);
    lk_geom_spec g;
    lk_model_geom(m, 0, &g);
    LK_ASSERT_INT_EQ(g.type, LK_GEOM_BOX);
    lk_model_geom(m, 1, &g);
    LK_ASSERT_INT_EQ(g.type, LK_GEOM_MESH);
    lk_link_spec a;
    lk_model_link(m, lk_model_link_index(m, "arm"), &a);
    double V = box[k][0] * box[k][1] * box[k][2] + 0.02 * 0.01 * 0.04;
    LK_ASSERT_NEAR(a.mass, 1000 * V, 1e-9 * a.mass);
    LK_ASSERT_MSG(has_warning(m, "5: link 'arm': collision #0: mesh: mesh file") &&
                      has_warning(m, "meshes/gone.stl' not found: the shape is left out") &&
                      has_warning(m, "2 collision meshes not found, left out: these links collide "
                                     "without them: arm"),
                  "%s", lk_model_nwarnings(m) ? lk_model_warning(m, 0) : "no warning");
    lk_model_free(m);
  }
  /* nothing left to give the moving link a mass: refused, at the link */
  put(up, "<robot name=\"g\">\n<link name=\"base\"/>\n"
          "<joint name=\"j\" type=\"continuous\"><parent link=\"base\"/>"
          "<child link=\"arm\"/></joint>\n<link name=\"arm\">\n"
          "<collision><geometry><mesh filename=\"../meshes/gone.stl\"/></geometry></collision>\n"
          "</link>\n</robot>\n");
  lk_error err;
  lk_model *m = lk_model_load_file(up, o, &err);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_INT_EQ(err.line, 4);
  LK_ASSERT_MSG(strstr(err.message, "link 'arm': no <inertial>"), "%s", err.message);
  lk_model_free(m);
}

/* package://PKG/rest in --package-path (D/PKG or D being PKG), above the
 * URDF file, and names relative to the URDF file; the file found becomes a
 * mesh geom, the hull of its vertices times the scale. */
static void test_mesh_paths(void) {
  char d[8192];
  snprintf(d, sizeof d, "%s", scratch("share"));
  mkdir(d, 0755);
  snprintf(d, sizeof d, "%s", scratch("share/gripper"));
  mkdir(d, 0755);
  mkdir(scratch("share/gripper/urdf"), 0755);
  mkdir(scratch("share/gripper/meshes"), 0755);
  /* a finger pad 2 x 1 x 4 cm, its centre at (0, 0.005, 0.02) */
  const double c[3] = {0, 0.005, 0.02}, h[3] = {0.01, 0.005, 0.02};
  put_box_stl(scratch("share/gripper/meshes/finger.stl"), c, h);
  /* scaled by 2 1 0.5: [-0.02, 0.02] x [0, 0.01] x [0, 0.02] */
  const double lo[3] = {-0.02, 0, 0}, hi[3] = {0.02, 0.01, 0.02};
  const char *fmt =
      "<robot name=\"g\">\n<link name=\"a\">\n<collision><geometry>\n"
      "<mesh filename=\"%s\" scale=\"2 1 0.5\"/>\n</geometry></collision>\n</link>\n</robot>\n";
  char text[1024];
  lk_error err;
  lk_load_options o;
  lk_load_options_default(&o);
  lk_geom_spec g[2];
  /* not found anywhere: an error under strict_meshes; by default the
   * shape is left out with a warning that says why, at its line (below) */
  o.strict_meshes = 1;
  snprintf(text, sizeof text, fmt, "package://gripper/meshes/finger.stl");
  lk_model *m = lk_model_load_string(text, strlen(text), "robot.urdf", &o, &err);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_INT_EQ(err.line, 4);
  LK_ASSERT_MSG(strstr(err.message, "package 'gripper' not found") != NULL, "%s", err.message);
  o.strict_meshes = 0;
  m = lk_model_load_string(text, strlen(text), "robot.urdf", &o, &err);
  LK_ASSERT_MSG(m != NULL, "%s", err.message);
  if (m) {
    LK_ASSERT_INT_EQ(lk_model_ngeom(m), 0);
    LK_ASSERT_MSG(has_warning(m, "4: link 'a': collision #0: mesh: mesh "
                                 "'package://gripper/meshes/finger.stl': package 'gripper' not "
                                 "found") &&
                      has_warning(m, "the shape is left out") &&
                      has_warning(m, "1 collision mesh not found, left out: these links collide "
                                     "without them: a"),
                  "%s", lk_model_nwarnings(m) ? lk_model_warning(m, 0) : "no warning");
  }
  lk_model_free(m);
  o.strict_meshes = 1;
  /* in a directory of the search path, after one that does not have it */
  char pp[8192];
  snprintf(pp, sizeof pp, "/nonexistent:%s", scratch("share"));
  o.package_path = pp;
  /* the package found, the file not in it: the message names the file and
   * where the package is (issue 32), by D/PKG and by D being PKG */
  const char *missing[] = {"package://gripper/meshes/thumb.stl", "package://gripper/urdf/x.obj"};
  for (int k = 0; k < 2; k++) {
    snprintf(text, sizeof text, fmt, missing[k]);
    char pd[8192];
    snprintf(pd, sizeof pd, "%s", k ? scratch("share/gripper") : pp);
    o.package_path = pd;
    m = lk_model_load_string(text, strlen(text), "robot.urdf", &o, &err);
    CU_ASSERT_PTR_NULL(m);
    const char *rest = strchr(missing[k] + 18, '/') + 1;
    LK_ASSERT_MSG(strstr(err.message, "which has no file") && strstr(err.message, rest) &&
                      strstr(err.message, "share/gripper"),
                  "%s", err.message);
    lk_model_free(m);
  }
  o.package_path = pp;
  snprintf(text, sizeof text, fmt, "package://gripper/meshes/finger.stl");
  m = lk_model_load_string(text, strlen(text), "robot.urdf", &o, &err);
  LK_ASSERT_MSG(m != NULL, "%s", err.message);
  if (m) {
    LK_ASSERT_INT_EQ(mesh_geoms(m, g, 2), 1);
    LK_ASSERT_INT_EQ(g[0].group, 1);
    LK_ASSERT_INT_EQ(g[0].mask, 1);
    expect_box_hull(g[0].mesh, lo, hi);
  }
  lk_model_free(m);
  /* the search path entry is the package itself */
  snprintf(pp, sizeof pp, "%s", scratch("share/gripper"));
  m = lk_model_load_string(text, strlen(text), "robot.urdf", &o, &err);
  LK_ASSERT_MSG(m != NULL && mesh_geoms(m, g, 2) == 1, "%s", err.message);
  lk_model_free(m);
  /* no search path: the URDF file in gripper/urdf finds its package */
  o.package_path = NULL;
  const char *up = scratch("share/gripper/urdf/g.urdf");
  put(up, text);
  m = lk_model_load_file(up, &o, &err);
  LK_ASSERT_MSG(m != NULL && mesh_geoms(m, g, 2) == 1, "%s", err.message);
  lk_model_free(m);
  /* relative to the file, as a collision and a visual mesh (unscaled):
   * the visual one is kept for drawing and collides with nothing */
  snprintf(text, sizeof text,
           "<robot name=\"g\">\n<link name=\"a\">\n"
           "<collision><geometry><mesh filename=\"../meshes/finger.stl\"/></geometry></collision>\n"
           "<visual><geometry><mesh filename=\"../meshes/finger.stl\"/></geometry></visual>\n"
           "</link>\n</robot>\n");
  put(up, text);
  m = lk_model_load_file(up, &o, &err);
  LK_ASSERT_MSG(m != NULL, "%s", err.message);
  if (m) {
    LK_ASSERT_INT_EQ(mesh_geoms(m, g, 2), 2);
    const double lo1[3] = {-0.01, 0, 0}, hi1[3] = {0.01, 0.01, 0.04};
    expect_box_hull(g[0].mesh, lo1, hi1);
    expect_box_hull(g[1].mesh, lo1, hi1);
    LK_ASSERT_INT_EQ(g[0].mask, 1);
    LK_ASSERT_INT_EQ(g[1].group, 0);
    LK_ASSERT_INT_EQ(g[1].mask, 0);
  }
  lk_model_free(m);
  /* a missing file under strict_meshes: its element's line, the path
   * tried */
  snprintf(text, sizeof text, fmt, "meshes/finger.stl");
  put(up, text);
  m = lk_model_load_file(up, &o, &err);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_INT_EQ(err.status, LK_IO_ERROR);
  LK_ASSERT_INT_EQ(err.line, 4);
  CU_ASSERT_STRING_EQUAL(err.path, up);
  LK_ASSERT_MSG(strstr(err.message, "urdf/meshes/finger.stl") && strstr(err.message, "not found"),
                "%s", err.message);
  o.strict_meshes = 0;
  missing_collision_meshes(up, &o);
  /* a file that is not a solid (no vertices; one triangle: flat), and a
   * mirroring scale: errors at the element, naming the file */
  const char *bad = scratch("share/gripper/meshes/bad.stl");
  const char *const bodies[] = {
      "solid x\nendsolid x\n",
      "solid x\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n"
      "   vertex 0 1 0\n  endloop\n endfacet\nendsolid x\n"};
  for (int k = 0; k < 2; k++) {
    put(bad, bodies[k]);
    snprintf(text, sizeof text,
             "<robot name=\"g\">\n<link name=\"a\">\n<collision><geometry>\n\n"
             "<mesh filename=\"../meshes/bad.stl\"/>\n</geometry></collision>\n</link>\n</robot>\n");
    put(up, text);
    m = lk_model_load_file(up, &o, &err);
    CU_ASSERT_PTR_NULL(m);
    lk_model_free(m);
    LK_ASSERT_INT_EQ(err.status, LK_SCHEMA_ERROR);
    LK_ASSERT_INT_EQ(err.line, 5);
    LK_ASSERT_MSG(strstr(err.message, "meshes/bad.stl"), "%s", err.message);
  }
  snprintf(text, sizeof text, fmt, "../meshes/finger.stl");
  char *sc = strstr(text, "scale=\"2 1 0.5\"");
  memcpy(sc, "scale=\"2 -1 .5\"", 15);
  put(up, text);
  m = lk_model_load_file(up, &o, &err);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_INT_EQ(err.line, 4);
  LK_ASSERT_MSG(strstr(err.message, "scale must be positive"), "%s", err.message);
  unlink(bad);
  unlink(up);
  unlink(scratch("share/gripper/meshes/finger.stl"));
  rmdir(scratch("share/gripper/meshes"));
  rmdir(scratch("share/gripper/urdf"));
  rmdir(scratch("share/gripper"));
  rmdir(scratch("share"));
}

/* A falling link whose only shape is a URDF mesh (a meshed 4 x 6 x 2 cm
 * box, its inertial given) rests on a YAML floor at the box's half
 * height, as the primitive box does: the hull collides. */
static void test_mesh_link_rests(void) {
  const double c[3] = {0, 0, 0}, h[3] = {0.02, 0.03, 0.01};
  put_box_stl(scratch("pad.stl"), c, h);
  put(scratch("pad.urdf"),
      "<robot name=\"pad\"><link name=\"pad\">\n"
      "<inertial><mass value=\"0.1\"/>"
      "<inertia ixx=\"1e-5\" iyy=\"1e-5\" izz=\"1e-5\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>\n"
      "<collision><geometry><mesh filename=\"pad.stl\"/></geometry></collision>\n"
      "</link></robot>\n");
  lk_error err;
  lk_model *m = load_yaml(scratch("floor.yaml"),
                          "include:\n  - {file: pad.urdf, base: free, origin: {xyz: [0, 0, 0.03]}}\n"
                          "world:\n  geoms:\n    - {type: plane, normal: [0, 0, 1]}\n",
                          &err);
  LK_ASSERT_MSG(m != NULL, "%s:%d: %s", err.path, err.line, err.message);
  if (m) {
    lk_data *d = lk_data_new(m);
    for (int k = 0; k < 1000 && d; k++) LK_ASSERT_OK(lk_step(m, d), NULL);
    if (d) {
      lk_forward_kinematics(m, d);
      const lk_transform *T = lk_data_link_pose(d, lk_model_link_index(m, "pad"));
      /* the hull's corners are floats (assimp): 1e-9 of the 1 cm */
      LK_ASSERT_NEAR(T->p.z, 0.01, 2e-4);
      LK_ASSERT_NEAR(T->p.x, 0, 1e-9);
      LK_ASSERT_NEAR(T->p.y, 0, 1e-9);
      LK_ASSERT_NEAR(T->R.m[2][2], 1, 1e-9);
    }
    lk_data_free(d);
  }
  lk_model_free(m);
  unlink(scratch("pad.stl"));
  unlink(scratch("pad.urdf"));
  unlink(scratch("floor.yaml"));
}

/* ------------------------------------------------------------- include */

static lk_model *load_yaml(const char *path, const char *text, lk_error *err) {
  put(path, text);
  return lk_model_load_file(path, NULL, err);
}

/* A YAML scene includes the arm: prefixed names, its root placed at the
 * origin, a default material for its collision geoms and one link's own,
 * a YAML link hanging from a URDF link, an actuator on a URDF joint. */
static void test_yaml_include(void) {
  put(scratch("arm.urdf"), kArm);
  const char *scene =
      "materials:\n"
      "  - {name: rubber, mu_static: 1.0, mu_dynamic: 0.9}\n"
      "  - {name: steel, mu_static: 0.3, mu_dynamic: 0.2}\n"
      "include:\n"
      "  - file: arm.urdf\n"
      "    prefix: r_\n"
      "    origin: {xyz: [1, 2, 0], rpy: [0, 0, 0.5]}\n"
      "    material: steel\n"
      "    links:\n"
      "      fore: {material: rubber}\n"
      "links:\n"
      "  - name: tip\n"
      "    parent: r_hand\n"
      "    mass: 0.1\n"
      "    inertia: [0.001, 0.001, 0.001]\n"
      "actuators:\n"
      "  - {joint: r_elbow, type: position, kp: 10, kv: 1}\n";
  lk_error err;
  lk_model *m = load_yaml(scratch("scene.yaml"), scene, &err);
  LK_ASSERT_MSG(m != NULL, "%s:%d: %s", err.path, err.line, err.message);
  if (!m) return;
  LK_ASSERT_INT_EQ(lk_model_nlink(m), 7);
  LK_ASSERT_INT_EQ(lk_model_nq(m), 3);
  LK_ASSERT_INT_EQ(lk_model_nactuator(m), 1);
  CU_ASSERT(lk_model_joint_index(m, "r_shoulder") > 0);
  CU_ASSERT(lk_model_link_index(m, "upper") < 0);
  lk_link_spec s;
  LK_ASSERT_OK(lk_model_link(m, lk_model_link_index(m, "r_base"), &s), NULL);
  CU_ASSERT_STRING_EQUAL(s.parent, "world");
  LK_ASSERT_NEAR(s.origin.p.x, 1, 0);
  LK_ASSERT_NEAR(s.origin.p.y, 2, 0);
  LK_ASSERT_NEAR(s.origin.R.m[1][0], sin(0.5), 1e-15);
  LK_ASSERT_OK(lk_model_link(m, lk_model_link_index(m, "tip"), &s), NULL);
  CU_ASSERT_STRING_EQUAL(s.parent, "r_hand");
  int steel = lk_model_material_index(m, "steel"), rubber = lk_model_material_index(m, "rubber");
  int nsteel = 0, nrubber = 0, ndefault = 0;
  for (int g = 0; g < lk_model_ngeom(m); g++) {
    int mat = lk_model_geom_material(m, g);
    const char *link = lk_model_link_name(m, lk_model_geom_link(m, g));
    if (mat == rubber) {
      nrubber++;
      CU_ASSERT_STRING_EQUAL(link, "r_fore");
    }
    nsteel += mat == steel;
    ndefault += mat == 0; /* the visual sphere */
  }
  LK_ASSERT_INT_EQ(nrubber, 1);
  LK_ASSERT_INT_EQ(nsteel, 3);
  LK_ASSERT_INT_EQ(ndefault, 1);
  lk_model_free(m);

  /* base: free: the root link on a free joint at the origin. Its base has
   * no <inertial>: a moving link gets its collision box (0.4 x 0.3 x 0.1 m)
   * filled at 1000 kg/m^3, 12 kg, with a warning. */
  m = load_yaml(scratch("scene.yaml"),
                "include:\n  - file: arm.urdf\n    base: free\n    origin: {xyz: [0, 0, 2]}\n", &err);
  LK_ASSERT_MSG(m != NULL, "%s:%d: %s", err.path, err.line, err.message);
  if (m) {
    lk_link_spec ls;
    LK_ASSERT_OK(lk_model_link(m, lk_model_link_index(m, "base"), &ls), NULL);
    LK_ASSERT_NEAR(ls.mass, 12, 1e-9);
    LK_ASSERT_NEAR(ls.inertia.m[0][0], 12.0 / 12 * (0.09 + 0.01), 1e-12);
    LK_ASSERT_NEAR(ls.inertia.m[2][2], 12.0 / 12 * (0.16 + 0.09), 1e-12);
  }
  lk_model_free(m);
  put(scratch("pend.urdf"),
      "<robot name=\"p\"><link name=\"bob\"><inertial><mass value=\"2\"/>"
      "<inertia ixx=\"0.1\" iyy=\"0.1\" izz=\"0.1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>"
      "</link></robot>\n");
  m = load_yaml(scratch("scene.yaml"),
                "include:\n  - file: pend.urdf\n    base: free\n    origin: {xyz: [0, 0, 2]}\n", &err);
  LK_ASSERT_MSG(m != NULL, "%s", err.message);
  if (m) {
    LK_ASSERT_INT_EQ(lk_model_nq(m), 7);
    lk_data *d = lk_data_new(m);
    LK_ASSERT_OK(lk_forward_kinematics(m, d), NULL);
    LK_ASSERT_OK(lk_forward_dynamics(m, d, LK_FD_ABA), NULL);
    /* falls freely from z = 2 */
    LK_ASSERT_NEAR(lk_data_qacc(d)[2], -9.81, 1e-12);
    lk_data_free(d);
  }
  lk_model_free(m);

  /* Errors: at the YAML key, or in the URDF at its line. */
  m = load_yaml(scratch("scene.yaml"),
                "include:\n  - file: arm.urdf\n    links:\n      forr: {material: default}\n",
                &err);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_INT_EQ(err.line, 4);
  LK_ASSERT_MSG(strstr(err.message, "'forr' is not a link of arm.urdf (did you mean 'fore'?)"),
                "%s", err.message);
  m = load_yaml(scratch("scene.yaml"), "include:\n  - file: arm.urdf\n    material: wood\n", &err);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_INT_EQ(err.line, 3);
  LK_ASSERT_MSG(strstr(err.message, "unknown material 'wood'"), "%s", err.message);
  m = load_yaml(scratch("scene.yaml"), "include:\n  - file: arm.urdf\n    parent: tabel\n"
                "links:\n  - {name: table, mass: 1, inertia: [1, 1, 1]}\n", &err);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_INT_EQ(err.line, 3);
  LK_ASSERT_MSG(strstr(err.message, "did you mean 'table'?"), "%s", err.message);
  m = load_yaml(scratch("scene.yaml"), "include:\n  - file: scene.yaml\n", &err);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_MSG(strstr(err.message, "is not a URDF"), "%s", err.message);
  m = load_yaml(scratch("scene.yaml"), "include:\n  - file: nothere.urdf\n", &err);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_INT_EQ(err.line, 2);
  m = load_yaml(scratch("scene.yaml"),
                "include:\n  - file: arm.urdf\nlinks:\n  - {name: upper, mass: 1, inertia: [1, 1, 1]}\n"
                "  - {name: x, parent: upper, mass: 1, inertia: [1, 1, 1], joint: revolute}\n",
                &err);
  LK_ASSERT_MSG(m == NULL && strstr(err.message, "link 'upper' is defined twice"), "%s",
                err.message);
  unlink(scratch("pend.urdf"));
  unlink(scratch("arm.urdf"));
  unlink(scratch("scene.yaml"));
}


/* ------------------------------------------------------------- convert */

#define SAME(a, b) LK_ASSERT_MSG(memcmp(&(a), &(b), sizeof(a)) == 0, "%s differs", #a)

/* Two models the same to the bit: every link, joint, geom and coupling,
 * then 300 steps of motion. */
static void same_models(const lk_model *a, const lk_model *b) {
  LK_ASSERT_INT_EQ(lk_model_nlink(a), lk_model_nlink(b));
  LK_ASSERT_INT_EQ(lk_model_ngeom(a), lk_model_ngeom(b));
  LK_ASSERT_INT_EQ(lk_model_ncoupling(a), lk_model_ncoupling(b));
  LK_ASSERT_INT_EQ(lk_model_nexclude(a), lk_model_nexclude(b));
  if (lk_model_nlink(a) != lk_model_nlink(b) || lk_model_ngeom(a) != lk_model_ngeom(b)) return;
  for (int i = 0; i < lk_model_nexclude(a) && i < lk_model_nexclude(b); i++) {
    int xa, xb, ya, yb;
    LK_ASSERT_OK(lk_model_exclude(a, i, &xa, &xb), NULL);
    LK_ASSERT_OK(lk_model_exclude(b, i, &ya, &yb), NULL);
    LK_ASSERT_INT_EQ(xa, ya);
    LK_ASSERT_INT_EQ(xb, yb);
  }
  CU_ASSERT_STRING_EQUAL(lk_model_name(a), lk_model_name(b));
  for (int i = 1; i < lk_model_nlink(a); i++) {
    lk_link_spec x, y;
    lk_model_link(a, i, &x);
    lk_model_link(b, i, &y);
    CU_ASSERT_STRING_EQUAL(x.name, y.name);
    CU_ASSERT_STRING_EQUAL(x.parent, y.parent);
    CU_ASSERT_STRING_EQUAL(x.joint.name, y.joint.name);
    SAME(x.origin, y.origin);
    SAME(x.mass, y.mass);
    SAME(x.com, y.com);
    SAME(x.inertia, y.inertia);
    x.joint.name = y.joint.name = NULL;
    SAME(x.joint, y.joint);
  }
  for (int g = 0; g < lk_model_ngeom(a); g++) {
    lk_geom_spec x, y;
    lk_model_geom(a, g, &x);
    lk_model_geom(b, g, &y);
    LK_ASSERT_INT_EQ(lk_model_geom_link(a, g), lk_model_geom_link(b, g));
    LK_ASSERT_INT_EQ(lk_model_geom_material(a, g), lk_model_geom_material(b, g));
    SAME(x.type, y.type);
    SAME(x.size, y.size);
    SAME(x.pose, y.pose);
    LK_ASSERT_INT_EQ(x.group, y.group);
    LK_ASSERT_INT_EQ(x.mask, y.mask);
    if (x.type == LK_GEOM_MESH && y.type == LK_GEOM_MESH) {
      int nv = lk_mesh_nvertex(x.mesh);
      LK_ASSERT_INT_EQ(nv, lk_mesh_nvertex(y.mesh));
      if (nv == lk_mesh_nvertex(y.mesh))
        LK_ASSERT_MSG(memcmp(lk_mesh_vertices(x.mesh), lk_mesh_vertices(y.mesh),
                             3 * (size_t)nv * sizeof(double)) == 0,
                      "geom %d: the hulls differ", g);
    }
  }
  for (int i = 0; i < lk_model_ncoupling(a); i++) {
    lk_coupling_spec x, y;
    lk_model_coupling(a, i, &x);
    lk_model_coupling(b, i, &y);
    CU_ASSERT_STRING_EQUAL(x.joint_a, y.joint_a);
    CU_ASSERT_STRING_EQUAL(x.joint_b, y.joint_b);
    SAME(x.ratio, y.ratio);
    SAME(x.offset, y.offset);
  }
  SAME(*lk_model_options(a), *lk_model_options(b));
  lk_data *da = lk_data_new(a), *db = lk_data_new(b);
  for (int k = 0; k < 300; k++) {
    lk_step(a, da);
    lk_step(b, db);
  }
  LK_ASSERT_MSG(memcmp(lk_data_q(da), lk_data_q(db), (size_t)lk_model_nq(a) * sizeof(double)) == 0,
                "q differs after 300 steps");
  LK_ASSERT_MSG(memcmp(lk_data_v(da), lk_data_v(db), (size_t)lk_model_nv(a) * sizeof(double)) == 0,
                "v differs after 300 steps");
  lk_data_free(da);
  lk_data_free(db);
}

/* Odd rotations (rpy that the writer cannot give back to the bit), an
 * axis not along a coordinate axis, and a floating joint. */
static const char *kOdd =
    "<robot name=\"odd &quot;one&quot;\">\n"
    "  <link name=\"null\"/>\n"
    "  <joint name=\"j1\" type=\"revolute\"><parent link=\"null\"/><child link=\"a\"/>\n"
    "    <origin xyz=\"0.1 -0.2 0.3\" rpy=\"0.1234 -0.9876 2.5\"/><axis xyz=\"1 1 0.3\"/>\n"
    "    <limit lower=\"-1.1\" upper=\"0.7\" effort=\"1\" velocity=\"1\"/>\n"
    "    <dynamics damping=\"0.05\"/></joint>\n"
    "  <link name=\"a\"><inertial><origin xyz=\"0.01 0.02 0.15\" rpy=\"0.3 0.2 0.1\"/><mass value=\"1.3\"/>\n"
    "    <inertia ixx=\"0.013\" iyy=\"0.011\" izz=\"0.004\" ixy=\"0.0002\" ixz=\"-0.0001\" iyz=\"0.0003\"/></inertial>\n"
    "    <collision><origin xyz=\"0 0 0.15\" rpy=\"3.0 0.4 -1.2\"/><geometry><box size=\"0.05 0.06 0.3\"/></geometry></collision>\n"
    "  </link>\n"
    "  <joint name=\"j2\" type=\"prismatic\"><parent link=\"a\"/><child link=\"b\"/>\n"
    "    <origin xyz=\"0 0 0.3\" rpy=\"0 1.5707963267948966 0\"/><axis xyz=\"0 -0.6 0.8\"/>\n"
    "    <limit lower=\"-0.05\" upper=\"0.05\" effort=\"1\" velocity=\"1\"/></joint>\n"
    "  <link name=\"b\"><inertial><mass value=\"0.2\"/>\n"
    "    <inertia ixx=\"0.001\" iyy=\"0.001\" izz=\"0.001\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n"
    "  <joint name=\"f\" type=\"floating\"><parent link=\"null\"/><child link=\"c\"/>\n"
    "    <origin xyz=\"1 0 0\" rpy=\"0.7 0.1 0\"/></joint>\n"
    "  <link name=\"c\"><inertial><mass value=\"0.5\"/>\n"
    "    <inertia ixx=\"0.002\" iyy=\"0.003\" izz=\"0.004\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>\n"
    "    <visual><geometry><cylinder radius=\"0.1\" length=\"0.2\"/></geometry></visual></link>\n"
    "</robot>\n";

static void round_trip(const char *urdf, const char *label) {
  const char *up = scratch("rt.urdf"), *yp = scratch("rt.yaml");
  put(up, urdf);
  lk_error err;
  lk_model *a = lk_model_load_file(up, NULL, &err);
  LK_ASSERT_MSG(a != NULL, "%s: %s", label, err.message);
  FILE *f = fopen(yp, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  LK_ASSERT_OK(lk_model_convert_file(up, NULL, f, &err), &err);
  fclose(f);
  lk_model *b = lk_model_load_file(yp, NULL, &err);
  LK_ASSERT_MSG(b != NULL, "%s: the YAML does not load: %s:%d: %s", label, err.path, err.line,
                err.message);
  if (a && b) same_models(a, b);
  lk_model_free(a);
  lk_model_free(b);
  unlink(up);
  unlink(yp);
}

/* A swinging link with a scaled collision mesh and a visual one. */
static const char *kMeshed =
    "<robot name=\"meshed\">\n"
    "  <link name=\"base\"/>\n"
    "  <joint name=\"j\" type=\"continuous\"><parent link=\"base\"/><child link=\"pad\"/>\n"
    "    <origin xyz=\"0 0 1\"/><axis xyz=\"0 1 0\"/></joint>\n"
    "  <link name=\"pad\"><inertial><origin xyz=\"0.3 0 0\"/><mass value=\"0.4\"/>\n"
    "    <inertia ixx=\"0.001\" iyy=\"0.002\" izz=\"0.003\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>\n"
    "    <collision><origin xyz=\"0.3 0 0\" rpy=\"0.1 0.2 0.3\"/>\n"
    "      <geometry><mesh filename=\"rt_pad.stl\" scale=\"1.5 0.7 1\"/></geometry></collision>\n"
    "    <visual><geometry><mesh filename=\"rt_pad.stl\"/></geometry></visual></link>\n"
    "</robot>\n";

/* Two fingers on a palm whose boxes overlap by 10 mm with both joints at
 * 0 (siblings, not parent and child): an exclusion for the YAML to keep. */
static const char *kOverlap =
    "<robot name=\"overlap\">\n"
    "  <link name=\"palm\"/>\n"
    "  <joint name=\"ja\" type=\"continuous\"><parent link=\"palm\"/><child link=\"fa\"/>\n"
    "    <axis xyz=\"0 0 1\"/></joint>\n"
    "  <link name=\"fa\"><inertial><mass value=\"0.1\"/>\n"
    "    <inertia ixx=\"1e-4\" iyy=\"1e-4\" izz=\"1e-4\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>\n"
    "    <collision><geometry><box size=\"0.1 0.1 0.1\"/></geometry></collision></link>\n"
    "  <joint name=\"jb\" type=\"continuous\"><parent link=\"palm\"/><child link=\"fb\"/>\n"
    "    <origin xyz=\"0.09 0 0\"/><axis xyz=\"0 0 1\"/></joint>\n"
    "  <link name=\"fb\"><inertial><mass value=\"0.1\"/>\n"
    "    <inertia ixx=\"1e-4\" iyy=\"1e-4\" izz=\"1e-4\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>\n"
    "    <collision><geometry><box size=\"0.1 0.1 0.1\"/></geometry></collision></link>\n"
    "</robot>\n";

/* urdf written to up, converted to yp, and yp's text into text (a
 * failure: "" and the status). */
static lk_status converted(const char *urdf, const char *up, const char *yp, char *text,
                           size_t size) {
  text[0] = '\0';
  put(up, urdf);
  FILE *f = fopen(yp, "w");
  if (!f) return LK_IO_ERROR;
  lk_error err;
  lk_status st = lk_model_convert_file(up, NULL, f, &err);
  fclose(f);
  if (st) return st;
  f = fopen(yp, "r");
  if (!f) return LK_IO_ERROR;
  size_t n = fread(text, 1, size - 1, f);
  fclose(f);
  text[n] = '\0';
  return LK_OK;
}

static void test_convert_round_trip(void) {
  const double pc[3] = {0.01, -0.02, 0.005}, ph[3] = {0.03, 0.02, 0.01};
  put_box_stl(scratch("rt_pad.stl"), pc, ph);
  round_trip(kMeshed, "meshed");
  unlink(scratch("rt_pad.stl"));
  round_trip(kArm, "arm");
  round_trip(kMimic, "jaw");
  round_trip(kOdd, "odd");
  round_trip(kOverlap, "overlap");
  /* What it writes, read as a user reads it: full sizes halved, the
   * mimic a coupling, names YAML would misread quoted. */
  const char *up = scratch("rt.urdf"), *yp = scratch("rt.yaml");
  char text[16384];
  LK_ASSERT_INT_EQ(converted(kOdd, up, yp, text, sizeof text), LK_OK);
  LK_ASSERT_MSG(strstr(text, "half_extents: [0.025, 0.03, 0.15]"), "%s", text);
  LK_ASSERT_MSG(strstr(text, "- name: \"null\""), "%s", text);
  LK_ASSERT_MSG(strstr(text, "name: \"odd \\\"one\\\"\""), "%s", text);
  LK_ASSERT_MSG(strstr(text, "joint: {name: f, type: free}"), "%s", text);
  LK_ASSERT_INT_EQ(converted(kMimic, up, yp, text, sizeof text), LK_OK);
  LK_ASSERT_MSG(strstr(text, "couplings:\n    - {joint_a: f2, joint_b: f1, ratio: -1, offset: 0.01}"),
                "%s", text);
  /* the rest-pose overlap: an exclude section */
  LK_ASSERT_INT_EQ(converted(kOverlap, up, yp, text, sizeof text), LK_OK);
  LK_ASSERT_MSG(strstr(text, "\nexclude:\n  - [fa, fb]\n"), "%s", text);
  lk_error err;
  /* a YAML exclude naming an unknown link: an error at it, suggested */
  put(yp, "links:\n  - {name: a, joint: revolute, mass: 1, inertia: [1, 1, 1]}\n"
          "  - {name: b, joint: revolute, mass: 1, inertia: [1, 1, 1]}\n"
          "exclude:\n  - [a, bb]\n");
  lk_model *bad = lk_model_load_file(yp, NULL, &err);
  CU_ASSERT_PTR_NULL(bad);
  lk_model_free(bad);
  LK_ASSERT_INT_EQ(err.line, 5);
  LK_ASSERT_MSG(strstr(err.message, "'bb'") && strstr(err.message, "'b'"), "%s", err.message);
  /* Only URDF is converted. */
  LK_ASSERT_INT_EQ(converted("links:\n  - {name: a, joint: revolute, mass: 1, inertia: [1, 1, 1]}\n",
                             up, yp, text, sizeof text),
                   LK_UNSUPPORTED);
  unlink(up);
  unlink(yp);
}


/* ------------------------------------------------- the shipped gripper */

/* mechanisms/jaw-gripper.urdf: two prismatic fingers, the right one
 * mimicking the left (ratio 1); in mechanisms/jaw_gripper_urdf.yaml one
 * servo drives the left finger and the right follows, both to the target
 * (no load along the fingers' axis: the servo settles on it), the pads
 * symmetric about the palm. */
static int shipped_gripper(double target) {
  const unsigned failures0 = lk_test_failures();
  lk_error err;
  lk_model *u = lk_model_load_file(lk_test_srcpath("mechanisms/jaw-gripper.urdf"), NULL, &err);
  LK_ASSERT_MSG(u != NULL, "%s:%d: %s", err.path, err.line, err.message);
  if (!u) return 0;
  LK_ASSERT_INT_EQ(lk_model_ncoupling(u), 1);
  lk_coupling_spec c;
  lk_model_coupling(u, 0, &c);
  CU_ASSERT_STRING_EQUAL(c.joint_a, "right");
  CU_ASSERT_STRING_EQUAL(c.joint_b, "left");
  LK_ASSERT_NEAR(c.ratio, 1, 0);
  LK_ASSERT_NEAR(lk_model_total_mass(u), 0.6, 1e-15);
  lk_model_free(u);
  char set[64];
  snprintf(set, sizeof set, "actuators.left.target=%g", target);
  const char *sets[] = {set};
  lk_load_options o;
  lk_load_options_default(&o);
  o.set = sets;
  o.nset = 1;
  lk_model *m = lk_model_load_file(lk_test_srcpath("mechanisms/jaw_gripper_urdf.yaml"), &o, &err);
  LK_ASSERT_MSG(m != NULL, "%s:%d: %s", err.path, err.line, err.message);
  if (!m) return 0;
  lk_data *d = lk_data_new(m);
  double worst = 0;
  int ql = lk_model_joint_qadr(m, lk_model_joint_index(m, "left"));
  int qr = lk_model_joint_qadr(m, lk_model_joint_index(m, "right"));
  for (int k = 0; k < 500; k++) {
    LK_ASSERT_OK(lk_step(m, d), NULL);
    worst = fmax(worst, fabs(lk_data_q(d)[qr] - lk_data_q(d)[ql]));
  }
  LK_ASSERT_NEAR(lk_data_q(d)[ql], target, 1e-6);
  LK_ASSERT_MSG(worst < 1e-6, "|q_right - q_left| up to %g", worst);
  LK_ASSERT_OK(lk_forward_kinematics(m, d), NULL);
  lk_vec3 pl = lk_data_link_pose(d, lk_model_link_index(m, "left_finger"))->p;
  lk_vec3 pr = lk_data_link_pose(d, lk_model_link_index(m, "right_finger"))->p;
  LK_ASSERT_NEAR(pl.y, 0.06 - target, 1e-6);
  LK_ASSERT_NEAR(pr.y, -(0.06 - target), 1e-6);
  LK_ASSERT_NEAR(pl.z, 0.25, 1e-12);
  lk_data_free(d);
  lk_model_free(m);
  return lk_test_failures() == failures0;
}

static void test_shipped_gripper(void) {
  CU_ASSERT_TRUE(shipped_gripper(0.03));
  CU_ASSERT_TRUE(shipped_gripper(0.045));
}


/* ------------------------------------------------------------------ MJCF */

static lk_model *load_mjcf(const char *text, lk_error *err) {
  return lk_model_load_string(text, strlen(text), "model.xml", NULL, err);
}

/* A body with two hinges at their anchors becomes two links: the first
 * nearly massless, named after its joint; the body's mass from its capsule
 * (fromto) at density 1000, its frame at the last anchor. Defaults and
 * degrees apply. */
static void test_mjcf_bodies_and_joints(void) {
  const char *x =
      "<mujoco model=\"two\">\n"
      "  <option timestep=\"0.004\" gravity=\"0 0 -1.62\"/>\n"
      "  <default><joint damping=\"0.5\"/><default class=\"stiff\"><joint stiffness=\"3\"/></default></default>\n"
      "  <worldbody>\n"
      "    <light pos=\"0 0 3\"/>\n"
      "    <body name=\"arm\" pos=\"0 0 1\">\n"
      "      <joint name=\"a1\" axis=\"0 0 1\" pos=\"0 0 0.1\" range=\"-90 90\" class=\"stiff\"/>\n"
      "      <joint name=\"a2\" axis=\"0 1 0\" pos=\"0 0 0.2\"/>\n"
      "      <geom type=\"capsule\" fromto=\"0 0 0 0 0 -0.5\" size=\"0.05\"/>\n"
      "    </body>\n"
      "  </worldbody>\n"
      "  <actuator><motor joint=\"a2\" gear=\"10\" ctrlrange=\"-1 1\"/></actuator>\n"
      "</mujoco>\n";
  lk_error err;
  lk_model *m = load_mjcf(x, &err);
  LK_ASSERT_MSG(m != NULL, "%s:%d: %s", err.path, err.line, err.message);
  if (!m) return;
  CU_ASSERT_STRING_EQUAL(lk_model_name(m), "two");
  LK_ASSERT_NEAR(lk_model_options(m)->timestep, 0.004, 0);
  LK_ASSERT_NEAR(lk_model_options(m)->gravity.z, -1.62, 0);
  LK_ASSERT_INT_EQ(lk_model_nlink(m), 3);
  lk_link_spec s;
  LK_ASSERT_OK(lk_model_link(m, lk_model_link_index(m, "a1"), &s), NULL);
  LK_ASSERT_NEAR(s.origin.p.z, 1.1, 1e-15);
  LK_ASSERT_NEAR(s.joint.upper, LK_PI / 2, 1e-15);
  LK_ASSERT_NEAR(s.joint.stiffness, 3, 0);
  LK_ASSERT_NEAR(s.joint.damping, 0.5, 0);
  LK_ASSERT_MSG(s.mass < 1e-11, "mass %g", s.mass);
  LK_ASSERT_OK(lk_model_link(m, lk_model_link_index(m, "arm"), &s), NULL);
  CU_ASSERT_STRING_EQUAL(s.parent, "a1");
  LK_ASSERT_NEAR(s.origin.p.z, 0.1, 1e-15);
  LK_ASSERT_NEAR(s.joint.stiffness, 0, 0);
  double r = 0.05, h = 0.5, mass = 1000 * (LK_PI * r * r * h + 4.0 / 3 * LK_PI * r * r * r);
  LK_ASSERT_NEAR(s.mass, mass, 1e-12);
  LK_ASSERT_NEAR(s.com.z, -0.25 - 0.2, 1e-15);
  LK_ASSERT_INT_EQ(lk_model_nactuator(m), 1);
  lk_actuator_spec a;
  lk_model_actuator(m, 0, &a);
  LK_ASSERT_NEAR(a.max_effort, 10, 0);
  lk_model_free(m);
}

static void test_mjcf_errors(void) {
  lk_error err;
  lk_model *m = load_mjcf("<mujoco>\n<worldbody>\n<body>\n<joint/>\n<geom type=\"mesh\" mesh=\"m\"/>\n"
                          "</body>\n</worldbody>\n</mujoco>\n", &err);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_INT_EQ(err.line, 5);
  LK_ASSERT_MSG(strstr(err.message, "no <mesh name=\"m\"> in <asset>"), "%s", err.message);
  m = load_mjcf("<mujoco>\n<worldbody>\n<body>\n<joint/>\n<geom type=\"mesh\"/>\n"
                "</body>\n</worldbody>\n</mujoco>\n", &err);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_INT_EQ(err.line, 5);
  LK_ASSERT_MSG(strstr(err.message, "needs mesh="), "%s", err.message);
  /* A missing mesh file is refused where a colliding geom uses it (a
   * visual one is left out with a warning: test_mjcf.c). */
  m = load_mjcf("<mujoco>\n<asset>\n<mesh file=\"/nonexistent/m.stl\"/>\n</asset>\n"
                "<worldbody>\n<body>\n<joint/>\n<geom type=\"mesh\" mesh=\"m\"/>\n</body>\n"
                "</worldbody>\n</mujoco>\n", &err);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_INT_EQ(err.line, 8);
  LK_ASSERT_MSG(strstr(err.message, "/nonexistent/m.stl"), "%s", err.message);
  m = load_mjcf("<mujoco>\n<asset>\n<mesh vertex=\"0 0 0 1 0 0 0 1 0 0 0 1\"/>\n</asset>\n"
                "<worldbody/>\n</mujoco>\n", &err);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_INT_EQ(err.line, 3);
  LK_ASSERT_MSG(strstr(err.message, "vertex is not supported"), "%s", err.message);
  m = load_mjcf("<mujoco>\n<worldbody>\n<body>\n<joint/>\n<geom size=\"0.1\"/>\n<tendon/>\n"
                "</body>\n</worldbody>\n</mujoco>\n", &err);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_INT_EQ(err.line, 6);
  LK_ASSERT_MSG(strstr(err.message, "unknown element <tendon>"), "%s", err.message);
  /* An MJCF section this reader does not read is named in a warning; an
   * element that is not MJCF stays an error. */
  m = load_mjcf("<mujoco>\n<custom/>\n<worldbody>\n<body>\n<joint/>\n<geom size=\"0.1\"/>\n"
                "</body>\n</worldbody>\n</mujoco>\n", &err);
  LK_ASSERT_MSG(m != NULL, "%d: %s", err.line, err.message);
  if (m) {
    LK_ASSERT_INT_EQ(lk_model_nwarnings(m), 1);
    LK_ASSERT_MSG(strstr(lk_model_warning(m, 0), "not read: <custom> (line 2)"), "%s",
                  lk_model_warning(m, 0));
  }
  lk_model_free(m);
  m = load_mjcf("<mujoco>\n<equalty/>\n<worldbody/>\n</mujoco>\n", &err);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_INT_EQ(err.line, 2);
  LK_ASSERT_MSG(strstr(err.message, "unknown element <equalty>"), "%s", err.message);
  m = load_mjcf("<mujoco>\n<worldbody>\n<body>\n<joint/>\n</body>\n</worldbody>\n</mujoco>\n", &err);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_INT_EQ(err.line, 3);
  LK_ASSERT_MSG(strstr(err.message, "no mass"), "%s", err.message);
  m = load_mjcf("<mujoco>\n<worldbody>\n<body>\n<joint class=\"big\"/>\n</body>\n</worldbody>\n</mujoco>\n",
                &err);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_INT_EQ(err.line, 4);
  LK_ASSERT_MSG(strstr(err.message, "unknown class 'big'"), "%s", err.message);
}

/* ---------------------------------------------------------------- errors */

#define HEAD "<robot name=\"r\">\n"
#define LINK(n) "<link name=\"" n "\"><inertial><mass value=\"1\"/><inertia ixx=\"0.1\" iyy=\"0.1\" izz=\"0.1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n"


/* ------------------------------------------------- rest-pose overlaps */

/* Two sibling fingers (boxes 0.1 m on a side, their joints x apart on the
 * palm) overlap by 0.1 - x with both joints at 0: when x < 0.1 the pair
 * never collides (an exclusion, the depth in the warning), when x > 0.1
 * it collides as before; keep_rest_overlaps keeps every pair. A parent and
 * its child overlapping are not listed (never tested anyway). */
static void test_rest_overlaps(void) {
  static const struct {
    double x;
    int excluded;
    const char *depth;
  } cases[] = {{0.09, 1, "fa/fb 10 mm"}, {0.097, 1, "fa/fb 3 mm"}, {0.11, 0, NULL}};
  for (int k = 0; k < 3; k++)
    for (int keep = 0; keep < 2; keep++) {
      char text[4096], x[32];
      snprintf(x, sizeof x, "%g", cases[k].x);
      snprintf(text, sizeof text, "%s", kOverlap);
      char *at = strstr(text, "xyz=\"0.09 0 0\"");
      CU_ASSERT_PTR_NOT_NULL_FATAL(at);
      char rest[4096];
      snprintf(rest, sizeof rest, "%s", at + strlen("xyz=\"0.09 0 0\""));
      snprintf(at, sizeof text - (size_t)(at - text), "xyz=\"%s 0 0\"%s", x, rest);
      /* and a child box on fb that overlaps its parent by 5 mm */
      at = strstr(text, "</robot>");
      snprintf(at, sizeof text - (size_t)(at - text),
               "  <joint name=\"jc\" type=\"continuous\"><parent link=\"fb\"/>"
               "<child link=\"fc\"/><origin xyz=\"0.05 0.095 0\"/></joint>\n"
               "  <link name=\"fc\"><inertial><mass value=\"0.1\"/><inertia ixx=\"1e-4\" "
               "iyy=\"1e-4\" izz=\"1e-4\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>"
               "<collision><geometry><box size=\"0.1 0.1 0.1\"/></geometry></collision>"
               "</link>\n</robot>\n");
      lk_load_options o;
      lk_load_options_default(&o);
      o.keep_rest_overlaps = keep;
      lk_error err;
      lk_model *m = lk_model_load_string(text, strlen(text), "overlap.urdf", &o, &err);
      LK_ASSERT_MSG(m != NULL, "%d: %s", err.line, err.message);
      if (!m) continue;
      int ex = cases[k].excluded && !keep;
      LK_ASSERT_INT_EQ(lk_model_nexclude(m), ex);
      /* geoms 0, 1, 2: fa, fb, fc */
      LK_ASSERT_INT_EQ(lk_collide_filter(m, 0, 1), !ex);
      LK_ASSERT_INT_EQ(lk_collide_filter(m, 1, 2), 0); /* parent and child */
      if (ex) {
        int a, b;
        LK_ASSERT_OK(lk_model_exclude(m, 0, &a, &b), NULL);
        LK_ASSERT_INT_EQ(a, lk_model_link_index(m, "fa"));
        LK_ASSERT_INT_EQ(b, lk_model_link_index(m, "fb"));
        LK_ASSERT_MSG(has_warning(m, "1 pair of links overlapping with every joint at 0 never "
                                     "collide") &&
                          has_warning(m, cases[k].depth) && !has_warning(m, "fc"),
                      "%s", lk_model_nwarnings(m) ? lk_model_warning(m, 0) : "no warning");
      } else {
        LK_ASSERT_MSG(!has_warning(m, "overlapping"), "%s", lk_model_warning(m, 0));
      }
      /* the step: the fingers push each other apart only when they collide */
      lk_data *d = lk_data_new(m);
      LK_ASSERT_OK(lk_step(m, d), NULL);
      int pushed = 0;
      for (int c = 0; c < lk_data_ncontacts(d); c++) {
        const lk_contact_report *r = lk_data_contact_report(d, c);
        pushed |= r->geom >= 0 && r->depth > 0;
      }
      LK_ASSERT_INT_EQ(pushed, cases[k].excluded && keep);
      lk_data_free(d);
      lk_model_free(m);
    }
}

/* ------------------------------------------------ files as published */

/* A warning of m holding phrase (1) or not (0). */
static int has_warning(const lk_model *m, const char *phrase) {
  for (int i = 0; i < lk_model_nwarnings(m); i++)
    if (strstr(lk_model_warning(m, i), phrase)) return 1;
  return 0;
}

#define PB_HEAD "<?xml version=\"1.0\"?>\n<robot name=\"r\">\n"
#define PB_INERTIAL(mass, ixx, iyy, izz)                                                       \
  "<inertial><mass value=\"" mass "\"/><inertia ixx=\"" ixx "\" iyy=\"" iyy "\" izz=\"" izz \
  "\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>"
#define PB_JOINT(name, parent, child)                                                     \
  "<joint name=\"" name "\" type=\"continuous\"><parent link=\"" parent "\"/><child link=\"" \
  child "\"/><axis xyz=\"0 0 1\"/></joint>\n"

static lk_link_spec link_of(const lk_model *m, const char *name) {
  lk_link_spec s;
  memset(&s, 0, sizeof s);
  int i = lk_model_link_index(m, name);
  LK_ASSERT_MSG(i >= 0, "no link '%s'", name);
  if (i >= 0) lk_model_link(m, i, &s);
  return s;
}

/* What real URDFs (PyBullet's, ROS's, the YCB objects') hold and the
 * reader takes as they are: each against a closed form. */
static void test_urdf_as_published(void) {
  lk_error err;
  /* A moving link without <inertial>: its collision shapes filled at
   * 1000 kg/m^3, with a warning. A cylinder r 0.05, length 0.2: m = 1000
   * pi r^2 l, Izz = m r^2 / 2, Ixx = m (3 r^2 + l^2) / 12; a box 0.1 x 0.2
   * x 0.3: 6 kg, Ixx = 6 (0.2^2 + 0.3^2) / 12. */
  const char *noinertial =
      PB_HEAD "<link name=\"a\"/>\n" PB_JOINT("j", "a", "b")
      "<link name=\"b\"><collision><geometry><cylinder radius=\"0.05\" length=\"0.2\"/>"
      "</geometry></collision></link>\n" PB_JOINT("k", "b", "c")
      "<link name=\"c\"><collision><origin xyz=\"0 0 0.5\"/><geometry><box size=\"0.1 0.2 0.3\"/>"
      "</geometry></collision></link>\n</robot>\n";
  lk_model *m = load(noinertial, &err);
  LK_ASSERT_MSG(m != NULL, "%d: %s", err.line, err.message);
  if (m) {
    double mc = 1000 * M_PI * 0.05 * 0.05 * 0.2;
    lk_link_spec b = link_of(m, "b"), c = link_of(m, "c");
    LK_ASSERT_NEAR(b.mass, mc, 1e-12);
    LK_ASSERT_NEAR(b.inertia.m[2][2], mc * 0.05 * 0.05 / 2, 1e-15);
    LK_ASSERT_NEAR(b.inertia.m[0][0], mc * (3 * 0.05 * 0.05 + 0.04) / 12, 1e-15);
    LK_ASSERT_NEAR(c.mass, 6, 1e-12);
    LK_ASSERT_NEAR(c.com.z, 0.5, 1e-15);
    LK_ASSERT_NEAR(c.inertia.m[0][0], 6 * (0.04 + 0.09) / 12, 1e-14);
    LK_ASSERT_MSG(has_warning(m, "link 'b': no <inertial>"), "no warning for link b");
  }
  lk_model_free(m);

  /* Invalid inertias. Without collision shapes, the principal moments'
   * mean: (1, 1, 3) -> 5/3 each, (0.2, 0.3, 0.6) -> 11/30 each; with one,
   * the shape's inertia at the link's mass: a sphere r 0.1 of 2 kg,
   * 2/5 m r^2 = 0.008; moments (-7e-27, 0, 3e-10) as PyBullet's Robotiq
   * pads carry, over a box 0.02 x 0.01 x 0.03 of 0.5 kg: Ixx = 0.5 (0.01^2
   * + 0.03^2) / 12. */
  struct {
    const char *link_b;
    double ixx, izz;
  } cases[] = {
      {"<link name=\"b\">" PB_INERTIAL("1", "1", "1", "3") "</link>", 5.0 / 3, 5.0 / 3},
      {"<link name=\"b\">" PB_INERTIAL("1", "0.2", "0.3", "0.6") "</link>", 11.0 / 30, 11.0 / 30},
      {"<link name=\"b\">" PB_INERTIAL("2", "1", "1", "3")
       "<collision><geometry><sphere radius=\"0.1\"/></geometry></collision></link>", 0.008, 0.008},
      {"<link name=\"b\">" PB_INERTIAL("0.5", "-7.46e-27", "0", "3e-10")
       "<collision><geometry><box size=\"0.02 0.01 0.03\"/></geometry></collision></link>",
       0.5 * (1e-4 + 9e-4) / 12, 0.5 * (4e-4 + 1e-4) / 12},
  };
  for (int i = 0; i < 4; i++) {
    char text[2048];
    snprintf(text, sizeof text, PB_HEAD "<link name=\"a\"/>\n" PB_JOINT("j", "a", "b") "%s\n</robot>\n",
             cases[i].link_b);
    m = load(text, &err);
    LK_ASSERT_MSG(m != NULL, "case %d: %d: %s", i, err.line, err.message);
    if (m) {
      lk_link_spec b = link_of(m, "b");
      LK_ASSERT_REL(b.inertia.m[0][0], cases[i].ixx, 1e-12, 0);
      LK_ASSERT_REL(b.inertia.m[2][2], cases[i].izz, 1e-12, 0);
      LK_ASSERT_MSG(has_warning(m, "principal moments"), "case %d: no warning", i);
    }
    lk_model_free(m);
    /* strict_inertia: refused, the rule named, at the <inertial> (line 5) */
    lk_load_options o;
    lk_load_options_default(&o);
    o.strict_inertia = 1;
    m = lk_model_load_string(text, strlen(text), "robot.urdf", &o, &err);
    LK_ASSERT_MSG(m == NULL && strstr(err.message, "strict") && err.line == 5,
                  "case %d strict: %d: %s", i, err.line, err.message);
    lk_model_free(m);
  }
  /* A massless link with inertia (PyBullet's panda_link8): dropped. */
  m = load(PB_HEAD "<link name=\"a\"/>\n" PB_JOINT("j", "a", "b")
           "<link name=\"b\">" PB_INERTIAL("1", "0.1", "0.1", "0.1") "</link>\n"
           "<joint name=\"f\" type=\"fixed\"><parent link=\"b\"/><child link=\"c\"/></joint>\n"
           "<link name=\"c\">" PB_INERTIAL("0", "0.1", "0.1", "0.1") "</link>\n</robot>\n", &err);
  LK_ASSERT_MSG(m != NULL, "%d: %s", err.line, err.message);
  if (m) LK_ASSERT_NEAR(link_of(m, "c").inertia.m[1][1], 0, 0);
  lk_model_free(m);

  /* A link named world (ROS's fixed base): the world; the robot hangs
   * from it on the file's joint, its origin as written. XML version "0.0"
   * (the YCB objects'): read as 1.0 with a warning. <material> in
   * <collision> draws; PyBullet's <contact> gives the link's friction
   * (lateral_friction 0.7), Gazebo's <contact_coefficients mu> the
   * collision's (0.35); the rest of <contact>, <transmission> and missing
   * visual meshes are listed in warnings. */
  const char *ros =
      "<?xml version=\"0.0\" ?>\n<robot name=\"r\">\n<link name=\"world\"/>\n"
      "<joint name=\"fix\" type=\"fixed\"><parent link=\"world\"/><child link=\"base\"/>"
      "<origin xyz=\"0.25 0 1.5\"/></joint>\n"
      "<link name=\"base\">" PB_INERTIAL("3", "0.1", "0.1", "0.1")
      "<contact><lateral_friction value=\"0.7\"/><rolling_friction value=\"0.01\"/></contact>\n"
      "<collision><geometry><sphere radius=\"0.1\"/></geometry><material name=\"grey\"/></collision>\n"
      "<visual><geometry><mesh filename=\"no/such/mesh.dae\"/></geometry></visual></link>\n"
      PB_JOINT("j", "base", "tip")
      "<link name=\"tip\">" PB_INERTIAL("1", "0.01", "0.01", "0.01")
      "<collision><geometry><box size=\"0.1 0.1 0.1\"/></geometry>"
      "<contact_coefficients mu=\"0.35\"/></collision></link>\n"
      "<transmission name=\"t\"/>\n</robot>\n";
  m = load(ros, &err);
  LK_ASSERT_MSG(m != NULL, "%d: %s", err.line, err.message);
  if (m) {
    int base = lk_model_link_index(m, "base");
    LK_ASSERT_INT_EQ(lk_model_link_parent(m, base), 0); /* the world */
    lk_link_spec b = link_of(m, "base");
    LK_ASSERT_INT_EQ(b.joint.type, LK_JOINT_FIXED);
    LK_ASSERT_NEAR(b.origin.p.x, 0.25, 0);
    LK_ASSERT_NEAR(b.origin.p.z, 1.5, 0);
    LK_ASSERT_INT_EQ(lk_model_nlink(m), 3);
    double mu[2] = {0, 0};
    for (int g = 0; g < lk_model_ngeom(m); g++) {
      lk_geom_spec gs;
      lk_model_geom(m, g, &gs);
      if (gs.mask == 0) continue; /* the visual */
      lk_material_spec ms;
      LK_ASSERT_OK(lk_model_material(m, lk_model_geom_material(m, g), &ms), NULL);
      mu[lk_model_geom_link(m, g) == base ? 0 : 1] = ms.mu_static;
    }
    LK_ASSERT_NEAR(mu[0], 0.7, 0);
    LK_ASSERT_NEAR(mu[1], 0.35, 0);
    LK_ASSERT_MSG(has_warning(m, "XML version \"0.0\""), "no warning for the version");
    LK_ASSERT_MSG(has_warning(m, "no/such/mesh.dae"), "no warning for the visual mesh");
    LK_ASSERT_MSG(has_warning(m, "<rolling_friction>") && has_warning(m, "<transmission>"),
                  "no warning for what is not read");
  }
  lk_model_free(m);
  /* Variant: the world's joint is a revolute one (a pendulum hung from
   * the world); a second root besides world is refused. */
  m = load(PB_HEAD "<link name=\"world\"/>\n" PB_JOINT("j", "world", "bob")
           "<link name=\"bob\">" PB_INERTIAL("2", "0.1", "0.1", "0.1") "</link>\n</robot>\n", &err);
  LK_ASSERT_MSG(m != NULL, "%d: %s", err.line, err.message);
  if (m) LK_ASSERT_INT_EQ(link_of(m, "bob").joint.type, LK_JOINT_REVOLUTE);
  lk_model_free(m);
  CU_ASSERT_TRUE(EXPECT(PB_HEAD "<link name=\"world\"/>\n<link name=\"lost\"/>\n</robot>\n", LK_SCHEMA_ERROR, 4,
         "link 'lost'", "'world'"));
}

/* A four-bar finger as URDF writes one (PyBullet's Robotiq 85): the
 * knuckle and the finger, pinned together in the real part, are two
 * branches from the palm tied by <mimic>, and their boxes overlap by
 * 12 mm at rest (the warning says so). Started at q = +-0.3 under gravity,
 * 500 steps: the coupling holds (|q_finger + q_knuckle| < 1e-6) and the
 * pair never touches (excluded); with keep_rest_overlaps the pair is in
 * contact from the first step, more than 5 mm deep. */
static void test_rest_overlap_mimic(void) {
  const char *text =
      "<robot name=\"finger\">\n<link name=\"palm\"/>\n"
      "<joint name=\"knuckle\" type=\"revolute\"><parent link=\"palm\"/><child link=\"k\"/>"
      "<axis xyz=\"1 0 0\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>\n"
      "<link name=\"k\">" PB_INERTIAL("0.05", "1e-5", "1e-5", "1e-5")
      "<collision><origin xyz=\"0 0 0.03\"/><geometry><box size=\"0.02 0.02 0.06\"/></geometry>"
      "</collision></link>\n"
      "<joint name=\"finger\" type=\"revolute\"><parent link=\"palm\"/><child link=\"f\"/>"
      "<origin xyz=\"0 0.008 0\"/><axis xyz=\"1 0 0\"/>"
      "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>"
      "<mimic joint=\"knuckle\" multiplier=\"-1\"/></joint>\n"
      "<link name=\"f\">" PB_INERTIAL("0.05", "1e-5", "1e-5", "1e-5")
      "<collision><origin xyz=\"0 0 0.03\"/><geometry><box size=\"0.02 0.02 0.06\"/></geometry>"
      "</collision></link>\n</robot>\n";
  for (int keep = 0; keep < 2; keep++) {
    lk_load_options o;
    lk_load_options_default(&o);
    o.keep_rest_overlaps = keep;
    lk_error err;
    lk_model *m = lk_model_load_string(text, strlen(text), "finger.urdf", &o, &err);
    LK_ASSERT_MSG(m != NULL, "%d: %s", err.line, err.message);
    if (!m) continue;
    LK_ASSERT_INT_EQ(lk_model_nexclude(m), !keep);
    if (!keep)
      LK_ASSERT_MSG(has_warning(m, "f/k 12 mm") || has_warning(m, "k/f 12 mm"), "%s",
                    lk_model_nwarnings(m) ? lk_model_warning(m, 0) : "no warning");
    lk_data *d = lk_data_new(m);
    int qk = lk_model_joint_qadr(m, lk_model_joint_index(m, "knuckle"));
    int qf = lk_model_joint_qadr(m, lk_model_joint_index(m, "finger"));
    lk_data_q(d)[qk] = 0.3;
    lk_data_q(d)[qf] = -0.3;
    double worst = 0, depth0 = 0;
    int touched = 0;
    for (int s = 0; s < (keep ? 1 : 500); s++) {
      LK_ASSERT_OK(lk_step(m, d), NULL);
      worst = fmax(worst, fabs(lk_data_q(d)[qf] + lk_data_q(d)[qk]));
      for (int c = 0; c < lk_data_ncontacts(d); c++) {
        const lk_contact_report *r = lk_data_contact_report(d, c);
        if (r->geom < 0 || r->depth <= 0) continue;
        touched = 1;
        depth0 = fmax(depth0, r->depth);
      }
    }
    LK_ASSERT_INT_EQ(touched, keep);
    if (keep) LK_ASSERT_MSG(depth0 > 0.005, "depth %g", depth0);
    else LK_ASSERT_MSG(worst < 1e-6, "coupling off by %g", worst);
    lk_data_free(d);
    lk_model_free(m);
  }
}

/* Bad files, each refused with its status, at its line, in words that
 * name the element (every phrase must appear in the message). */
static const struct {
  const char *text;
  lk_status status;
  int line;
  const char *phrases[4];
} kBadFiles[] = {
    {HEAD LINK("a") "<joint name=\"j\" type=\"planar\">\n<parent link=\"a\"/><child link=\"b\"/></joint>\n" LINK("b") "</robot>\n",
     LK_UNSUPPORTED, 3, {"joint 'j'", "planar joints are unsupported"}},
    {HEAD "<link name=\"a\">\n<inertal/>\n</link>\n</robot>\n",
     LK_SCHEMA_ERROR, 3, {"link 'a': unknown element <inertal> (did you mean <inertial>?)"}},
    {HEAD "<link name=\"a\">\n</robot>\n",
     LK_PARSE_ERROR, 3, {"XML"}},
    {HEAD LINK("a") "<joint name=\"j\" type=\"revolute\">\n<parent link=\"a\"/><child link=\"b\"/>\n"
         "<limit lower=\"0\" upper=\"1\"/></joint>\n<link name=\"b\"/>\n</robot>\n",
     LK_SCHEMA_ERROR, 6, {"link 'b': no <inertial>", "revolute joint must have mass"}},
    {HEAD LINK("a") LINK("b") "</robot>\n",
     LK_SCHEMA_ERROR, 3, {"link 'b'", "one root link", "line 2"}},
    {HEAD LINK("a") "<joint name=\"j\" type=\"fixed\">\n<parent link=\"a\"/>\n<child link=\"bb\"/></joint>\n" LINK("b") "</robot>\n",
     LK_SCHEMA_ERROR, 5, {"joint 'j': child: unknown link 'bb' (did you mean 'b'?)"}},
    {HEAD LINK("a") LINK("b") "<joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>\n"
         "<joint name=\"k\" type=\"fixed\"><parent link=\"a\"/>\n<child link=\"b\"/></joint>\n</robot>\n",
     LK_SCHEMA_ERROR, 6, {"joint 'k'", "already the child of joint 'j' (line 4)"}},
    {HEAD LINK("a") LINK("b") LINK("c")
         "<joint name=\"j\" type=\"fixed\"><parent link=\"b\"/><child link=\"c\"/></joint>\n"
         "<joint name=\"k\" type=\"fixed\"><parent link=\"c\"/><child link=\"b\"/></joint>\n</robot>\n",
     LK_SCHEMA_ERROR, 6, {"joint 'k'", "cycle", "b -> c -> b"}},
    {HEAD LINK("a") "<joint name=\"j\" type=\"revolute\">\n<parent link=\"a\"/><child link=\"b\"/></joint>\n" LINK("b") "</robot>\n",
     LK_SCHEMA_ERROR, 3, {"joint 'j': a revolute joint needs <limit", "continuous"}},
    {HEAD LINK("a") "<joint name=\"j\" type=\"prismatic\"><parent link=\"a\"/><child link=\"b\"/>\n"
         "<limit lower=\"1\" upper=\"-1\" effort=\"1\" velocity=\"1\"/></joint>\n" LINK("b") "</robot>\n",
     LK_SCHEMA_ERROR, 4, {"joint 'j': limit: lower 1 is above upper -1"}},
    {HEAD LINK("a") "<joint name=\"j\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/>\n"
         "<origin xyz=\"0 0.1\"/></joint>\n" LINK("b") "</robot>\n",
     LK_SCHEMA_ERROR, 4, {"joint 'j': origin: xyz=\"0 0.1\" is not 3 finite numbers"}},
    {HEAD "<link name=\"a\">\n<inertial><mass value=\"1,5\"/></inertial></link>\n</robot>\n",
     LK_SCHEMA_ERROR, 3, {"link 'a': inertial: mass: value=\"1,5\" is not a finite number"}},
    {HEAD "<link name=\"a\">\n<inertial><mass value=\"nan\"/></inertial></link>\n</robot>\n",
     LK_SCHEMA_ERROR, 3, {"not a finite number"}},
    {HEAD "<link name=\"a\">\n<collision><geometry>\n<box size=\"0.1 -0.1 0.1\"/></geometry></collision>\n</link>\n</robot>\n",
     LK_SCHEMA_ERROR, 4, {"link 'a': collision #0: box: size must be positive, got -0.1"}},
    {HEAD "<link name=\"a\">\n<collision>\n<geometry/></collision>\n</link>\n</robot>\n",
     LK_SCHEMA_ERROR, 4, {"empty <geometry>"}},
    {HEAD "<link name=\"a\">\n<collision><geometry><sphere radius=\"1\"/>\n<box size=\"1 1 1\"/></geometry></collision>\n</link>\n</robot>\n",
     LK_SCHEMA_ERROR, 4, {"more than one shape"}},
    {HEAD "<link name=\"a\">\n<collision><geometry><cone radius=\"1\"/></geometry></collision>\n</link>\n</robot>\n",
     LK_SCHEMA_ERROR, 3, {"unknown element <cone>", "<box>, <cylinder>, <sphere>, <mesh>"}},
    {HEAD LINK("a") "<link name=\"a\"/>\n</robot>\n",
     LK_SCHEMA_ERROR, 3, {"link 'a' is defined twice (first at line 2)"}},
    {HEAD "<link name=\"arm/1\"/>\n</robot>\n",
     LK_SCHEMA_ERROR, 2, {"\"arm/1\" is not a valid name"}},
    {HEAD LINK("a") "<joint name=\"j\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/>\n"
         "<mimic joint=\"jj\"/></joint>\n" LINK("b") "</robot>\n",
     LK_SCHEMA_ERROR, 4, {"joint 'j': mimic: unknown joint 'jj' (did you mean 'j'?)"}},
    {HEAD LINK("a") "<joint name=\"j\" type=\"spherical\"><parent link=\"a\"/><child link=\"b\"/></joint>\n" LINK("b") "</robot>\n",
     LK_SCHEMA_ERROR, 3, {"joint 'j': unknown type \"spherical\""}},
    {HEAD LINK("a") "<joint name=\"j\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/>\n"
         "<axis xyz=\"0 0 0\"/></joint>\n" LINK("b") "</robot>\n",
     LK_SCHEMA_ERROR, 4, {"joint 'j': axis: the axis is zero"}},
    {HEAD LINK("a") "<joint name=\"j\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/></joint>\n"
         "<link name=\"b\"><inertial><mass value=\"0\"/>\n<inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n</robot>\n",
     LK_SCHEMA_ERROR, 4, {"link 'b': mass must be positive on a revolute joint"}},
    /* An inertia that breaks the triangle inequality is repaired with a
     * warning, or refused under strict_inertia: test_urdf_as_published. */
    {"<robot name=\"r\">\n</robot>\n",
     LK_SCHEMA_ERROR, 1, {"no <link>"}},
};

static void test_errors_at_their_line(void) {
  for (size_t k = 0; k < sizeof kBadFiles / sizeof kBadFiles[0]; k++)
    LK_ASSERT_MSG(expect_error(kBadFiles[k].text, kBadFiles[k].status, kBadFiles[k].line,
                               kBadFiles[k].phrases),
                  "bad file #%zu", k);
}

/* The program: FILE:LINE: error: and exit 2. */
static void test_program_reports_file_and_line(void) {
  const char *p = scratch("bad.urdf");
  put(p, HEAD LINK("a") "<joint name=\"j\" type=\"planar\">\n<parent link=\"a\"/><child link=\"b\"/></joint>\n" LINK("b") "</robot>\n");
  const char *b = getenv("LK_TOP_BUILDDIR");
  char cmd[16384];
  snprintf(cmd, sizeof cmd, "'%s/tools/linkage' check '%s' 2>'%s'", b && *b ? b : ".", p,
           scratch("err.txt"));
  int st = system(cmd);
  LK_ASSERT_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 2, "status %d", st);
  FILE *f = fopen(scratch("err.txt"), "r");
  char line[1024] = "";
  if (f) {
    if (!fgets(line, sizeof line, f)) line[0] = '\0';
    fclose(f);
  }
  char want[8400];
  snprintf(want, sizeof want, "%s:3: error: joint 'j': planar", p);
  LK_ASSERT_MSG(strncmp(line, want, strlen(want)) == 0, "got: %s", line);
  unlink(scratch("err.txt"));
  put(p, kArm);
  snprintf(cmd, sizeof cmd, "'%s/tools/linkage' check -q '%s'", b && *b ? b : ".", p);
  st = system(cmd);
  LK_ASSERT_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d", st);
  unlink(p);
}

static void cleanup(void) {
  unlink(scratch("robot.yaml"));
  unlink(scratch("pendulum.urdf"));
  rmdir(scratch_dir);
}

static void test_cleanup(void) { cleanup(); CU_PASS("clean"); }

void lk_test_register(void) {
  static const lk_test tests[] = {
      {"links and joints", test_links_and_joints},
      {"inertia in a rotated frame", test_inertia_in_a_rotated_frame},
      {"collision and visual shapes", test_collision_and_visual_shapes},
      {"mimic is a coupling, floating is free", test_mimic_is_a_coupling_and_floating_is_free},
      {"pendulum acceleration", test_pendulum_acceleration},
      {"reader by content", test_reader_by_content},
      {"mesh paths", test_mesh_paths},
      {"mesh link rests", test_mesh_link_rests},
      {"YAML include", test_yaml_include},
      {"convert round trip", test_convert_round_trip},
      {"shipped gripper", test_shipped_gripper},
      {"MJCF bodies and joints", test_mjcf_bodies_and_joints},
      {"MJCF errors", test_mjcf_errors},
      {"errors at their line", test_errors_at_their_line},
      {"URDF as published", test_urdf_as_published},
      {"rest-pose overlaps", test_rest_overlaps},
      {"rest-pose overlap of a mimic four-bar", test_rest_overlap_mimic},
      {"program reports file and line", test_program_reports_file_and_line},
      {"cleanup", test_cleanup},
      {NULL, NULL}};
  lk_test_suite("urdf", tests);
}
