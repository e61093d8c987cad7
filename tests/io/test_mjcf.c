/* The MJCF reader on what MuJoCo Menagerie's files hold (issue 29): every
 * orientation form against MuJoCo's own poses of the same file (when
 * MuJoCo is installed), MuJoCo's collision filtering (contype/conaffinity,
 * parent and child across a body of several joints, <exclude>), ellipsoid
 * mass against the closed form and MuJoCo, actuators, <include> with two
 * <worldbody> sections, mirrored and class-scaled meshes, a missing visual
 * mesh, unnamed free joints, and MuJoCo's humanoid simulated with the
 * default options. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

#include "harness.h"
#include "linkage/linkage.h"

static lk_model *load(const char *text, lk_error *err) {
  return lk_model_load_string(text, strlen(text), "model.xml", NULL, err);
}

static int has_warning(const lk_model *m, const char *phrase) {
  for (int i = 0; i < lk_model_nwarnings(m); i++)
    if (strstr(lk_model_warning(m, i), phrase)) return 1;
  return 0;
}

/* --------------------------------------------------------- orientations */

/* Bodies turned by euler (compiler eulerseq), xyaxes, zaxis, axisangle and
 * quat, in degrees or radians; the last hinge with a ref. */
static const char *kFrames[] = {
    "<mujoco model=\"frames\">\n"
    "  <compiler angle=\"degree\"/>\n"
    "  <worldbody>\n"
    "    <body name=\"a\" pos=\"0.1 0.2 0.3\" euler=\"30 -20 45\"><joint name=\"ja\"/><geom size=\"0.05\"/>\n"
    "      <body name=\"b\" pos=\"0.2 0 0\" xyaxes=\"0 1 0 -1 0.2 0.1\"><joint name=\"jb\" axis=\"1 0 0\"/><geom size=\"0.05\"/>\n"
    "        <body name=\"c\" pos=\"0 0.3 0\" zaxis=\"1 1 0.5\"><joint name=\"jc\" type=\"slide\" ref=\"0.04\"/><geom size=\"0.05\"/>\n"
    "          <body name=\"d\" pos=\"0 0 0.1\" axisangle=\"1 2 3 40\"><joint name=\"jd\" axis=\"0 1 0\" ref=\"25\"/><geom size=\"0.05\"/>\n"
    "            <body name=\"e\" pos=\"0.1 0 0\" quat=\"0.9 0.1 -0.3 0.2\"><joint name=\"je\"/><geom size=\"0.05\"/></body>\n"
    "          </body>\n"
    "        </body>\n"
    "      </body>\n"
    "    </body>\n"
    "  </worldbody>\n"
    "</mujoco>\n",
    /* the variant: radians, an extrinsic-intrinsic mix of axes */
    "<mujoco model=\"frames2\">\n"
    "  <compiler angle=\"radian\" eulerseq=\"ZyX\"/>\n"
    "  <worldbody>\n"
    "    <body name=\"a\" pos=\"-0.1 0 0.5\" euler=\"0.7 -0.2 1.3\"><joint name=\"ja\"/><geom size=\"0.05\"/>\n"
    "      <body name=\"b\" pos=\"0 0.2 0\" euler=\"-1.1 0.4 0.25\"><joint name=\"jb\" axis=\"1 0 0\" ref=\"-0.6\"/><geom size=\"0.05\"/>\n"
    "        <body name=\"c\" pos=\"0 0 0.3\" axisangle=\"0 1 1 2.1\"><joint name=\"jc\"/><geom size=\"0.05\"/>\n"
    "          <body name=\"d\" pos=\"0.3 0 0\" xyaxes=\"1 1 0 0 0 1\"><joint name=\"jd\" axis=\"0 1 0\"/><geom size=\"0.05\"/>\n"
    "            <body name=\"e\" pos=\"0.1 0 0\" zaxis=\"0 -1 0.001\"><joint name=\"je\"/><geom size=\"0.05\"/></body>\n"
    "          </body>\n"
    "        </body>\n"
    "      </body>\n"
    "    </body>\n"
    "  </worldbody>\n"
    "</mujoco>\n"};

static void test_orientations(void) {
  for (int v = 0; v < 2; v++) {
    lk_error err;
    lk_model *m = load(kFrames[v], &err);
    LK_ASSERT_MSG(m != NULL, "%d: %s", err.line, err.message);
    if (!m) continue;
    lk_data *d = lk_data_new(m);
    LK_ASSERT_OK(lk_forward_kinematics(m, d), NULL);
#ifdef HAVE_MUJOCO
    char mjerr[1000] = "";
    char path[] = "/tmp/lk-mjcf-frames-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f) {
      fputs(kFrames[v], f);
      fclose(f);
    }
    mjModel *mm = mj_loadXML(path, NULL, mjerr, sizeof mjerr);
    unlink(path);
    LK_ASSERT_MSG(mm != NULL, "MuJoCo: %s", mjerr);
    if (mm) {
      mjData *md = mj_makeData(mm);
      mj_forward(mm, md); /* at qpos0: each joint at its ref */
      double worst = 0;
      for (int b = 1; b < mm->nbody; b++) {
        int l = lk_model_link_index(m, mj_id2name(mm, mjOBJ_BODY, b));
        LK_ASSERT_MSG(l >= 0, "body %s", mj_id2name(mm, mjOBJ_BODY, b));
        if (l < 0) continue;
        const lk_transform *T = lk_data_link_pose(d, l);
        const double p[3] = {T->p.x, T->p.y, T->p.z};
        for (int i = 0; i < 3; i++) {
          worst = fmax(worst, fabs(p[i] - md->xpos[3 * b + i]));
          for (int k = 0; k < 3; k++)
            worst = fmax(worst, fabs(T->R.m[i][k] - md->xmat[9 * b + 3 * i + k]));
        }
      }
      /* qpos0 = ref, in Linkage's initial state too */
      for (int j = 0; j < mm->njnt; j++) {
        int li = lk_model_joint_index(m, mj_id2name(mm, mjOBJ_JOINT, j));
        worst = fmax(worst, fabs(lk_data_q(d)[lk_model_joint_qadr(m, li)] -
                                 mm->qpos0[mm->jnt_qposadr[j]]));
      }
      printf("\n  %s: max |pose - MuJoCo's| %.3g", mm->names, worst);
      LK_ASSERT_MSG(worst < 1e-12, "poses differ from MuJoCo's by %.3g", worst);
      mj_deleteData(md);
      mj_deleteModel(mm);
    }
#endif
    /* Independently of MuJoCo: body a's euler (30, -20, 45) degrees in
     * MuJoCo's default sequence xyz (intrinsic) is Rx(30) Ry(-20) Rz(45). */
    if (v == 0) {
      const lk_transform *T = lk_data_link_pose(d, lk_model_link_index(m, "a"));
      double r = LK_PI / 180;
      lk_mat3 Rx = lk_m3_from_axis_angle(lk_v3(1, 0, 0), 30 * r);
      lk_mat3 Ry = lk_m3_from_axis_angle(lk_v3(0, 1, 0), -20 * r);
      lk_mat3 Rz = lk_m3_from_axis_angle(lk_v3(0, 0, 1), 45 * r);
      lk_mat3 Rxy = lk_m3_mul(&Rx, &Ry), E = lk_m3_mul(&Rxy, &Rz);
      for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) LK_ASSERT_NEAR(T->R.m[i][k], E.m[i][k], 1e-15);
    }
    lk_data_free(d);
    lk_model_free(m);
  }
}

/* ------------------------------------------------------------ filtering */

/* The geom named name. */
static int geom(const lk_model *m, const char *name) {
  int g = lk_model_geom_index(m, name);
  LK_ASSERT_MSG(g >= 0, "no geom %s", name);
  return g;
}

/* MuJoCo's rules: (contype1 & conaffinity2) || (contype2 & conaffinity1);
 * a body never collides with its parent body (unless that is the world),
 * whatever the number of joints between them; <exclude> pairs never. */
static void test_filtering(void) {
  const char *text =
      "<mujoco>\n"
      "  <worldbody>\n"
      "    <geom name=\"floor\" type=\"plane\" size=\"1 1 0.1\"/>\n"
      "    <geom name=\"pad\" type=\"box\" size=\"0.1 0.1 0.01\" pos=\"3 0 0\" contype=\"0\" conaffinity=\"2\"/>\n"
      "    <body name=\"pelvis\" pos=\"0 0 1\"><freejoint/>\n"
      "      <geom name=\"pelvis\" size=\"0.1\" contype=\"1\" conaffinity=\"0\"/>\n"
      "      <body name=\"thigh\" pos=\"0 0 -0.1\">\n"
      "        <joint name=\"hx\" axis=\"1 0 0\"/><joint name=\"hy\" axis=\"0 1 0\"/><joint name=\"hz\"/>\n"
      "        <geom name=\"thigh\" size=\"0.08\"/>\n"
      "        <body name=\"shin\" pos=\"0 0 -0.1\"><joint name=\"knee\" axis=\"0 1 0\"/>\n"
      "          <geom name=\"shin\" size=\"0.06\"/>\n"
      "          <body name=\"foot\" pos=\"0 0 -0.1\"><joint name=\"ax\" axis=\"1 0 0\"/><joint name=\"ay\" axis=\"0 1 0\"/>\n"
      "            <geom name=\"foot\" size=\"0.05\" contype=\"2\" conaffinity=\"0\"/>\n"
      "            <geom name=\"sole\" size=\"0.05\" contype=\"0\" conaffinity=\"2\"/>\n"
      "          </body>\n"
      "        </body>\n"
      "      </body>\n"
      "      <body name=\"arm\" pos=\"0.1 0 0\"><joint name=\"sh\"/><geom name=\"arm\" size=\"0.05\" contype=\"1\" conaffinity=\"0\"/></body>\n"
      "    </body>\n"
      "  </worldbody>\n"
      "  %s\n"
      "</mujoco>\n";
  for (int v = 0; v < 2; v++) {
    char buf[4096];
    snprintf(buf, sizeof buf, text,
             v ? "<contact><exclude body1=\"shin\" body2=\"pelvis\"/><exclude body1=\"foot\" "
                 "body2=\"floor_is_not_a_body\"/></contact>"
               : "");
    lk_error err;
    lk_model *m = load(buf, &err);
    if (v == 1) {
      /* an unknown body in <exclude> is refused at its line */
      LK_ASSERT_MSG(m == NULL && err.line == 21 && strstr(err.message, "floor_is_not_a_body"),
                    "%d: %s", err.line, err.message);
      lk_model_free(m);
      snprintf(buf, sizeof buf, text,
               "<contact><exclude body1=\"shin\" body2=\"pelvis\"/></contact>");
      m = load(buf, &err);
    }
    LK_ASSERT_MSG(m != NULL, "%d: %s", err.line, err.message);
    if (!m) continue;
    int F = geom(m, "floor"), P = geom(m, "pelvis"), T = geom(m, "thigh"), S = geom(m, "shin"),
        Fo = geom(m, "foot"), So = geom(m, "sole"), A = geom(m, "arm"), Pa = geom(m, "pad");
    /* contype 1 conaffinity 0 against the floor (1, 1): 1 & 1, collides
     * (Cassie's geoms); against each other (pelvis, arm): never */
    LK_ASSERT_INT_EQ(lk_collide_filter(m, P, F), 1);
    LK_ASSERT_INT_EQ(lk_collide_filter(m, A, F), 1);
    /* parent and child: pelvis-thigh (three hinges between) and thigh-shin,
     * shin-foot (two); pelvis-arm also by contype/conaffinity */
    LK_ASSERT_INT_EQ(lk_collide_filter(m, P, T), 0);
    LK_ASSERT_INT_EQ(lk_collide_filter(m, T, S), 0);
    LK_ASSERT_INT_EQ(lk_collide_filter(m, S, Fo), 0);
    LK_ASSERT_INT_EQ(lk_collide_filter(m, P, A), 0);
    /* not parent and child: thigh-arm collide; thigh (1, 1) and foot
     * (2, 0) do not, by their bits (1 & 0, 2 & 1) */
    LK_ASSERT_INT_EQ(lk_collide_filter(m, T, A), 1);
    LK_ASSERT_INT_EQ(lk_collide_filter(m, T, Fo), 0);
    /* other bits: foot (2, 0) against pelvis (1, 0): neither 2 & 0 nor
     * 1 & 0; against the floor (1, 1): 2 & 1 = 0 and 1 & 0 = 0; against the
     * pad (0, 2): 2 & 2, one way only, collides; sole (0, 2) against arm
     * (1, 0): 0 & 0 and 1 & 2 = 0; pelvis (1, 0) against pad: 1 & 2 = 0 */
    LK_ASSERT_INT_EQ(lk_collide_filter(m, Fo, P), 0);
    LK_ASSERT_INT_EQ(lk_collide_filter(m, Fo, F), 0);
    LK_ASSERT_INT_EQ(lk_collide_filter(m, Fo, Pa), 1);
    LK_ASSERT_INT_EQ(lk_collide_filter(m, So, A), 0);
    LK_ASSERT_INT_EQ(lk_collide_filter(m, P, Pa), 0);
    /* <exclude>: shin-pelvis only in the variant (pelvis 1 0, shin 1 1:
     * 1 & 1 collides otherwise) */
    LK_ASSERT_INT_EQ(lk_collide_filter(m, S, P), v ? 0 : 1);
    /* thigh and foot (several joints each) against their parents, and the
     * variant's own */
    LK_ASSERT_INT_EQ(lk_model_nexclude(m), v ? 3 : 2);
    lk_model_free(m);
  }
}

/* ----------------------------------------------------------- ellipsoids */

static void test_ellipsoid(void) {
  /* An ellipsoid of semi-axes a, b, c and density rho: m = rho 4/3 pi a b
   * c, I = m/5 diag(b^2 + c^2, a^2 + c^2, a^2 + b^2). Two sets. */
  const double cases[2][4] = {{0.1, 0.2, 0.3, 500}, {0.15, 0.12, 0.13, 1000}};
  for (int v = 0; v < 2; v++) {
    const double *k = cases[v];
    char text[1024];
    snprintf(text, sizeof text,
             "<mujoco><worldbody><geom type=\"plane\" size=\"1 1 0.1\"/>\n"
             "<body name=\"e\" pos=\"0 0 1\"><freejoint/>"
             "<geom type=\"ellipsoid\" size=\"%g %g %g\" density=\"%g\"/></body>\n"
             "</worldbody></mujoco>\n",
             k[0], k[1], k[2], k[3]);
    lk_error err;
    lk_model *m = load(text, &err);
    LK_ASSERT_MSG(m != NULL, "%d: %s", err.line, err.message);
    if (!m) continue;
    lk_link_spec s;
    lk_model_link(m, lk_model_link_index(m, "e"), &s);
    double mass = k[3] * 4.0 / 3 * LK_PI * k[0] * k[1] * k[2];
    double a2 = k[0] * k[0], b2 = k[1] * k[1], c2 = k[2] * k[2];
    LK_ASSERT_REL(s.mass, mass, 1e-14, 0);
    LK_ASSERT_REL(s.inertia.m[0][0], mass / 5 * (b2 + c2), 1e-14, 0);
    LK_ASSERT_REL(s.inertia.m[1][1], mass / 5 * (a2 + c2), 1e-14, 0);
    LK_ASSERT_REL(s.inertia.m[2][2], mass / 5 * (a2 + b2), 1e-14, 0);
    /* its collision shape: inside the ellipsoid, touching it at the poles */
    lk_geom_spec g;
    lk_model_geom(m, 1, &g);
    lk_vec3 lo, hi;
    lk_mesh_bounds(g.mesh, &lo, &hi);
    LK_ASSERT_NEAR(hi.z, k[2], 1e-15);
    LK_ASSERT_MSG(hi.x <= k[0] && hi.x > 0.98 * k[0], "x extent %g of %g", hi.x, k[0]);
    lk_model_free(m);
  }
}

/* ------------------------------------------------------------ actuators */

static void test_actuators(void) {
  const char *text =
      "<mujoco>\n"
      "  <default><general biastype=\"affine\" gainprm=\"40\" biasprm=\"0 -40 -3\"/>\n"
      "    <default class=\"motor\"><general biastype=\"none\" gainprm=\"2\" ctrlrange=\"-1 1\"/></default>\n"
      "  </default>\n"
      "  <worldbody><body name=\"b\"><joint name=\"j1\"/><geom size=\"0.1\"/>\n"
      "    <body name=\"c\" pos=\"0.3 0 0\"><joint name=\"j2\"/><geom size=\"0.1\"/>\n"
      "      <body name=\"e\" pos=\"0.3 0 0\"><joint name=\"j3\"/><geom size=\"0.1\"/>\n"
      "        <body name=\"f\" pos=\"0.3 0 0\"><joint name=\"j4\"/><geom size=\"0.1\"/></body>\n"
      "      </body></body></body></worldbody>\n"
      "  <tendon><fixed name=\"t\"><joint joint=\"j3\" coef=\"1\"/><joint joint=\"j4\" coef=\"1\"/></fixed></tendon>\n"
      "  <actuator>\n"
      "    <general name=\"servo\" joint=\"j1\" gear=\"2\"/>\n"
      "    <general name=\"torque\" joint=\"j2\" class=\"motor\" gear=\"3\"/>\n"
      "    <velocity name=\"vel\" joint=\"j3\" kv=\"5\"/>\n"
      "    <motor name=\"mot\" joint=\"j4\" gear=\"10\" ctrlrange=\"-2 2\" forcerange=\"-15 15\"/>\n"
      "    <position name=\"ten\" tendon=\"t\" kp=\"1\"/>\n"
      "  </actuator>\n"
      "</mujoco>\n";
  lk_error err;
  lk_model *m = load(text, &err);
  LK_ASSERT_MSG(m != NULL, "%d: %s", err.line, err.message);
  if (!m) return;
  LK_ASSERT_INT_EQ(lk_model_nactuator(m), 4);
  lk_actuator_spec a;
  /* affine bias 0 -kp -kv with gain kp: a servo, gains times gear^2 */
  lk_model_actuator(m, 0, &a);
  LK_ASSERT_INT_EQ(a.type, LK_ACTUATOR_POSITION);
  LK_ASSERT_NEAR(a.kp, 40 * 4, 0);
  LK_ASSERT_NEAR(a.kv, 3 * 4, 0);
  /* biastype none: force gain x ctrl, |tau| <= gear gain max|ctrl| */
  lk_model_actuator(m, 1, &a);
  LK_ASSERT_INT_EQ(a.type, LK_ACTUATOR_EFFORT);
  LK_ASSERT_NEAR(a.max_effort, 3 * 2 * 1, 0);
  lk_model_actuator(m, 2, &a);
  LK_ASSERT_INT_EQ(a.type, LK_ACTUATOR_VELOCITY);
  LK_ASSERT_NEAR(a.kv, 5, 0);
  /* motor: min(gear max|ctrl|, gear max|force|) = min(20, 150) */
  lk_model_actuator(m, 3, &a);
  LK_ASSERT_NEAR(a.max_effort, 20, 0);
  /* on a tendon of joints no equality ties: listed by name */
  LK_ASSERT_MSG(has_warning(m, "'ten' (on tendon 't'"), "the tendon actuator is not in a warning");
  lk_model_free(m);
}

/* --------------------------------------------- include, meshes, names */

static void test_include(void) {
  lk_error err;
  lk_model *m = lk_model_load_file(lk_test_data("mjcf/include_main.xml"), NULL, &err);
  LK_ASSERT_MSG(m != NULL, "%s:%d: %s", err.path, err.line, err.message);
  if (!m) return;
  /* the world, arm (from the include), ball, ball2 (second worldbody) */
  LK_ASSERT_INT_EQ(lk_model_nlink(m), 4);
  /* unnamed free joints: distinct names, each starting at its body's pose */
  lk_data *d = lk_data_new(m);
  LK_ASSERT_OK(lk_forward_kinematics(m, d), NULL);
  LK_ASSERT_NEAR(lk_data_link_pose(d, lk_model_link_index(m, "ball"))->p.z, 1, 0);
  LK_ASSERT_NEAR(lk_data_link_pose(d, lk_model_link_index(m, "ball2"))->p.x, 1, 0);
  LK_ASSERT_NEAR(lk_data_link_pose(d, lk_model_link_index(m, "ball2"))->p.z, 0.5, 0);
  lk_data_free(d);
  /* arm: the wedge (volume 1/2) mirrored in x, and at scale 0.5 (volume
   * 1/16), at 1000 kg/m^3, by MuJoCo 2.2.2's rule: the mass of the box of
   * the same inertia. The wedge's principal moments at unit density are
   * 1/12, 1/18, 1/18, the box's sides sqrt(6 (J2 + J3 - J1) / V): 1/sqrt(3),
   * 1, 1 (docs/format.md, "Mesh mass"); at scale 0.5 1/8 of it. The
   * visual geom whose file is missing left out with a warning. */
  lk_link_spec s;
  lk_model_link(m, lk_model_link_index(m, "arm"), &s);
  LK_ASSERT_REL(s.mass, 1000 / sqrt(3.0) * (1 + 0.125), 1e-12, 0);
  int n = 0;
  for (int g = 0; g < lk_model_ngeom(m); g++) {
    if (lk_model_geom_link(m, g) != lk_model_link_index(m, "arm")) continue;
    lk_geom_spec gs;
    lk_model_geom(m, g, &gs);
    lk_vec3 lo, hi;
    lk_mesh_bounds(gs.mesh, &lo, &hi);
    if (n == 0) {
      LK_ASSERT_NEAR(lo.x, -1, 1e-12);
      LK_ASSERT_NEAR(hi.x, 0, 1e-12);
    } else {
      LK_ASSERT_NEAR(hi.y, 0.5, 1e-12);
    }
    n++;
  }
  LK_ASSERT_INT_EQ(n, 2);
  LK_ASSERT_MSG(has_warning(m, "mesh file missing"), "no warning for the missing mesh");
  lk_model_free(m);
}

/* ------------------------------------------------------------ keyframes */

/* A free base, a body of a hinge and a ball, a slide; two keys. */
static const char *const kKeys =
      "<mujoco model=\"keys\"><compiler angle=\"radian\"/>\n"
      "  <worldbody>\n"
      "    <body name=\"base\" pos=\"0 0 1\"><freejoint/><geom size=\"0.1\"/>\n"
      "      <body name=\"arm\" pos=\"0.2 0 0\"><joint name=\"h\" axis=\"0 1 0\"/>"
      "<joint name=\"b\" type=\"ball\" pos=\"0 0 0.05\"/><geom size=\"0.05\"/>\n"
      "        <body name=\"tip\" pos=\"0.2 0 0\"><joint name=\"s\" type=\"slide\"/><geom size=\"0.05\"/></body>\n"
      "      </body>\n"
      "    </body>\n"
      "  </worldbody>\n"
      "  <keyframe>\n"
      "    <key name=\"up\" qpos=\"0.5 -0.25 2 0.9 0.1 0.3 -0.2 0.7 0.8 0.2 -0.4 0.3 0.15\"/>\n"
      "    <key qpos=\"0 0 0.5 1 0 0 0 -1.1 1 0 0 0 -0.05\"/>\n"
      "  </keyframe>\n"
      "</mujoco>\n";

/* <keyframe>: qpos in the file's joint order (a free joint, a ball inside
 * a body of two joints, a slide), the pose it gives against MuJoCo's
 * mj_resetDataKeyframe (and by hand: the free body's position). */
static void test_keyframes(void) {
  const char *text = kKeys;
  lk_error err;
  lk_model *m = load(text, &err);
  LK_ASSERT_MSG(m != NULL, "%d: %s", err.line, err.message);
  if (!m) return;
  LK_ASSERT_INT_EQ(lk_model_nkeyframe(m), 2);
  LK_ASSERT_INT_EQ(lk_model_keyframe_index(m, "up"), 0);
  LK_ASSERT_INT_EQ(lk_model_keyframe_index(m, "1"), 1); /* unnamed: its index */
  lk_data *d = lk_data_new(m);
  for (int k = 0; k < 2; k++) {
    LK_ASSERT_OK(lk_model_keyframe_q(m, k, lk_data_q(d)), NULL);
    LK_ASSERT_OK(lk_forward_kinematics(m, d), NULL);
    const lk_transform *T = lk_data_link_pose(d, lk_model_link_index(m, "base"));
    LK_ASSERT_NEAR(T->p.x, k ? 0 : 0.5, 0);
    LK_ASSERT_NEAR(T->p.z, k ? 0.5 : 2, 0);
#ifdef HAVE_MUJOCO
    char path[] = "/tmp/lk-mjcf-keys-XXXXXX", mjerr[1000] = "";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f) {
      fputs(text, f);
      fclose(f);
    }
    mjModel *mm = mj_loadXML(path, NULL, mjerr, sizeof mjerr);
    unlink(path);
    LK_ASSERT_MSG(mm != NULL, "MuJoCo: %s", mjerr);
    if (!mm) continue;
    mjData *md = mj_makeData(mm);
    mj_resetDataKeyframe(mm, md, k);
    mj_forward(mm, md);
    double worst = 0;
    for (int b = 1; b < mm->nbody; b++) {
      const lk_transform *L = lk_data_link_pose(d, lk_model_link_index(m, mj_id2name(mm, mjOBJ_BODY, b)));
      /* arm's link frame sits at its last joint's anchor (0 0 0.05 in the
       * body, mjcf.c): its position is not the body's; tip's, after the
       * anchor, is */
      if (strcmp(mj_id2name(mm, mjOBJ_BODY, b), "arm") != 0)
        worst = fmax(worst, fabs(L->p.x - md->xpos[3 * b]) + fabs(L->p.y - md->xpos[3 * b + 1]) +
                                fabs(L->p.z - md->xpos[3 * b + 2]));
      for (int i = 0; i < 9; i++) worst = fmax(worst, fabs(L->R.m[i / 3][i % 3] - md->xmat[9 * b + i]));
    }
    printf("\n  keyframe %d: max |pose - MuJoCo's| %.3g", k, worst);
    LK_ASSERT_MSG(worst < 1e-12, "keyframe %d: poses differ from MuJoCo's by %.3g", k, worst);
    mj_deleteData(md);
    mj_deleteModel(mm);
#endif
  }
  lk_data_free(d);
  lk_model_free(m);
  /* a key whose qpos does not fit the joints: refused at its line */
  const char *bad = "<mujoco><worldbody><body><joint/><geom size=\"0.1\"/></body></worldbody>\n"
                    "<keyframe><key qpos=\"1 2\"/></keyframe></mujoco>\n";
  m = load(bad, &err);
  LK_ASSERT_MSG(m == NULL && err.line == 2 && strstr(err.message, "qpos"), "%d: %s", err.line,
                err.message);
  lk_model_free(m);
}

/* ----------------------------------------------- keyframes through convert */

/* The MJCF file xml loaded (*a) and converted to YAML, loaded (*b);
 * 1 with both, else 0 with neither (each failure asserted). */
static int converted_pair(const char *xml, lk_model **a, lk_model **b) {
  *a = *b = NULL;
  char yp[] = "/tmp/lk-mjcf-convert-XXXXXX";
  int fd = mkstemp(yp);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  lk_error err;
  lk_status st = lk_model_convert_file(xml, NULL, f, &err);
  fclose(f);
  LK_ASSERT_MSG(st == LK_OK, "%s: %s", xml, err.message);
  *a = lk_model_load_file(xml, NULL, &err);
  LK_ASSERT_MSG(*a != NULL, "%s: %s", xml, err.message);
  *b = st ? NULL : lk_model_load_file(yp, NULL, &err);
  LK_ASSERT_MSG(st || *b != NULL, "%s's YAML: %d: %s", xml, err.line, err.message);
  unlink(yp);
  if (*a && *b) return 1;
  lk_model_free(*a);
  lk_model_free(*b);
  *a = *b = NULL;
  return 0;
}

/* include_main.xml's ball starts 0.1 m deep in the arm's half-size wedge
 * (as deep as the ball's radius): the MJCF loads (MuJoCo pushes them
 * apart), and so does its converted YAML, which says the overlap is meant
 * (options initial_overlaps: allowed, where YAML's plausibility check
 * refused it): the same links and geoms, mass and inertia to the bit, no
 * warning of the overlap, and 100 steps end in the same state (1e-12). */
static void test_convert_keeps_initial_overlaps(void) {
  lk_model *a, *b;
  if (!converted_pair(lk_test_data("mjcf/include_main.xml"), &a, &b)) return;
  LK_ASSERT_INT_EQ(lk_model_nlink(b), lk_model_nlink(a));
  LK_ASSERT_INT_EQ(lk_model_ngeom(b), lk_model_ngeom(a));
  LK_ASSERT_INT_EQ(lk_model_nq(b), lk_model_nq(a));
  for (int i = 0; i < lk_model_nwarnings(b); i++)
    LK_ASSERT_MSG(!strstr(lk_model_warning(b, i), "overlaps"), "%s", lk_model_warning(b, i));
  if (lk_model_nlink(b) == lk_model_nlink(a) && lk_model_nq(b) == lk_model_nq(a)) {
    for (int l = 1; l < lk_model_nlink(a); l++) {
      lk_link_spec x, y;
      lk_model_link(a, l, &x);
      lk_model_link(b, l, &y);
      CU_ASSERT_STRING_EQUAL(x.name, y.name);
      CU_ASSERT(x.mass == y.mass && memcmp(&x.inertia, &y.inertia, sizeof x.inertia) == 0 &&
                memcmp(&x.com, &y.com, sizeof x.com) == 0);
    }
    lk_data *da = lk_data_new(a), *db = lk_data_new(b);
    /* the overlap is there: the first step's contacts are that deep */
    LK_ASSERT_OK(lk_step(a, da), NULL);
    LK_ASSERT_OK(lk_step(b, db), NULL);
    double deepest = 0;
    for (int c = 0; c < lk_data_ncontacts(db); c++)
      deepest = fmax(deepest, lk_data_contact_report(db, c)->depth);
    LK_ASSERT_MSG(deepest >= 0.09, "deepest contact %g m", deepest);
    for (int s = 1; s < 100; s++) {
      LK_ASSERT_OK(lk_step(a, da), NULL);
      LK_ASSERT_OK(lk_step(b, db), NULL);
    }
    double worst = 0;
    for (int i = 0; i < lk_model_nq(a); i++)
      worst = fmax(worst, fabs(lk_data_q(da)[i] - lk_data_q(db)[i]));
    LK_ASSERT_MSG(worst <= 1e-12, "100 steps apart by %g", worst);
    lk_data_free(da);
    lk_data_free(db);
  }
  lk_model_free(a);
  lk_model_free(b);
}

/* An MJCF file with keyframes -> `linkage convert` (lk_model_convert_file)
 * -> YAML: the YAML loads as the same model (links, joints, geoms, options,
 * materials) with the same named keyframes, each the same q (a quaternion
 * normalized again may move by an ulp: 1e-15), and 100 steps from each
 * keyframe end where the MJCF's do (1e-12); where MuJoCo is installed, its
 * mj_resetDataKeyframe gives the same qpos. */
static void keyframe_round_trip(const char *xml) {
  lk_model *a, *b;
  if (!converted_pair(xml, &a, &b)) return;
  LK_ASSERT_INT_EQ(lk_model_nlink(b), lk_model_nlink(a));
  LK_ASSERT_INT_EQ(lk_model_ngeom(b), lk_model_ngeom(a));
  LK_ASSERT_INT_EQ(lk_model_nmaterial(b), lk_model_nmaterial(a));
  LK_ASSERT_INT_EQ(lk_model_nq(b), lk_model_nq(a));
  LK_ASSERT_INT_EQ(lk_model_nkeyframe(b), lk_model_nkeyframe(a));
  const lk_options *oa = lk_model_options(a), *ob = lk_model_options(b);
  LK_ASSERT_NEAR(ob->timestep, oa->timestep, 0);
  LK_ASSERT_NEAR(ob->gravity.z, oa->gravity.z, 0);
  LK_ASSERT_INT_EQ(ob->collision_filter, oa->collision_filter);
  if (lk_model_nlink(b) != lk_model_nlink(a) || lk_model_ngeom(b) != lk_model_ngeom(a) ||
      lk_model_nq(b) != lk_model_nq(a) || lk_model_nkeyframe(b) != lk_model_nkeyframe(a)) {
    lk_model_free(a);
    lk_model_free(b);
    return;
  }
  for (int l = 1; l < lk_model_nlink(a); l++) {
    lk_link_spec x, y;
    lk_model_link(a, l, &x);
    lk_model_link(b, l, &y);
    CU_ASSERT_STRING_EQUAL(x.name, y.name);
    CU_ASSERT_STRING_EQUAL(x.joint.name, y.joint.name);
    LK_ASSERT_INT_EQ(y.joint.type, x.joint.type);
    CU_ASSERT(memcmp(&x.origin, &y.origin, sizeof x.origin) == 0);
    CU_ASSERT(x.mass == y.mass && memcmp(&x.inertia, &y.inertia, sizeof x.inertia) == 0);
    CU_ASSERT(x.joint.damping == y.joint.damping && x.joint.armature == y.joint.armature &&
              x.joint.limited == y.joint.limited && x.joint.lower == y.joint.lower &&
              x.joint.upper == y.joint.upper);
  }
  for (int g = 0; g < lk_model_ngeom(a); g++) {
    lk_geom_spec x, y;
    lk_model_geom(a, g, &x);
    lk_model_geom(b, g, &y);
    LK_ASSERT_INT_EQ(y.type, x.type);
    CU_ASSERT(memcmp(x.size, y.size, sizeof x.size) == 0);
    CU_ASSERT(memcmp(&x.pose, &y.pose, sizeof x.pose) == 0);
    LK_ASSERT_INT_EQ(y.group, x.group);
    LK_ASSERT_INT_EQ(y.mask, x.mask);
    lk_material_spec ma, mb;
    lk_model_material(a, lk_model_geom_material(a, g), &ma);
    lk_model_material(b, lk_model_geom_material(b, g), &mb);
    LK_ASSERT_NEAR(mb.mu_static, ma.mu_static, 0);
  }
  int nq = lk_model_nq(a);
  double *qa = calloc((size_t)nq, sizeof *qa), *qb = calloc((size_t)nq, sizeof *qb);
  lk_data *da = lk_data_new(a), *db = lk_data_new(b);
  for (int i = 0; i < nq; i++) LK_ASSERT_NEAR(lk_data_q(db)[i], lk_data_q(da)[i], 0);
  for (int k = 0; k < lk_model_nkeyframe(a); k++) {
    const char *name = lk_model_keyframe_name(a, k);
    int kb = lk_model_keyframe_index(b, name);
    LK_ASSERT_MSG(kb >= 0, "keyframe '%s' lost", name);
    if (kb < 0) continue;
    LK_ASSERT_OK(lk_model_keyframe_q(a, k, qa), NULL);
    LK_ASSERT_OK(lk_model_keyframe_q(b, kb, qb), NULL);
    for (int i = 0; i < nq; i++) LK_ASSERT_NEAR(qb[i], qa[i], 1e-15);
    lk_data_reset(da);
    lk_data_reset(db);
    memcpy(lk_data_q(da), qa, (size_t)nq * sizeof *qa);
    memcpy(lk_data_q(db), qb, (size_t)nq * sizeof *qb);
    for (int s = 0; s < 100; s++) {
      LK_ASSERT_OK(lk_step(a, da), NULL);
      LK_ASSERT_OK(lk_step(b, db), NULL);
    }
    double worst = 0;
    for (int i = 0; i < nq; i++) worst = fmax(worst, fabs(lk_data_q(da)[i] - lk_data_q(db)[i]));
    LK_ASSERT_MSG(worst <= 1e-12, "keyframe '%s': 100 steps apart by %g", name, worst);
#ifdef HAVE_MUJOCO
    char mjerr[1000] = "";
    mjModel *mm = mj_loadXML(xml, NULL, mjerr, sizeof mjerr);
    LK_ASSERT_MSG(mm != NULL, "MuJoCo: %s", mjerr);
    if (mm && mm->nq == nq) {
      mjData *md = mj_makeData(mm);
      mj_resetDataKeyframe(mm, md, k);
      double dq = 0;
      /* the same joints in the same order (one body, one joint, here) */
      for (int j = 0; j < mm->njnt; j++) {
        int lj = lk_model_joint_index(b, mj_id2name(mm, mjOBJ_JOINT, j));
        int n = mm->jnt_type[j] == mjJNT_FREE ? 7 : mm->jnt_type[j] == mjJNT_BALL ? 4 : 1;
        for (int i = 0; i < n && lj >= 0; i++)
          dq = fmax(dq, fabs(md->qpos[mm->jnt_qposadr[j] + i] - qb[lk_model_joint_qadr(b, lj) + i]));
      }
      LK_ASSERT_MSG(dq <= 1e-15, "keyframe '%s': |q - MuJoCo's qpos| %g", name, dq);
      mj_deleteData(md);
    }
    if (mm) mj_deleteModel(mm);
#endif
  }
  lk_data_free(da);
  lk_data_free(db);
  free(qa);
  free(qb);
  lk_model_free(a);
  lk_model_free(b);
}

static void test_keyframe_convert(void) {
  /* a floor, a free box, an arm of two hinges and a slide, three keys */
  keyframe_round_trip(lk_test_data("mjcf/keyframes.xml"));
  /* other numbers: a free base, a body of a hinge and a ball, a slide */
  const char *text = kKeys;
  char xp[] = "/tmp/lk-mjcf-keys-XXXXXX";
  int fd = mkstemp(xp);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs(text, f);
  fclose(f);
  keyframe_round_trip(xp);
  unlink(xp);
  /* what YAML cannot say yet is refused, not dropped: a sensor */
  lk_error err;
  FILE *out = tmpfile();
  LK_ASSERT_INT_EQ(lk_model_convert_file(lk_test_data("mjcf/sensors.xml"), NULL, out, &err),
                   LK_UNSUPPORTED);
  if (out) fclose(out);
}

/* ------------------------------------------------------------- humanoid */

/* Attributes that change the dynamics and are not read are named in the
 * "not read" warning, with their line: body gravcomp (when not 0, also
 * through a default class it cannot come from: it is a body attribute),
 * joint actuatorfrcrange (also from a default class), the fluid forces'
 * option density, viscosity and wind (when not 0). gravcomp="0" and
 * viscosity="0" are what MuJoCo does without them: no warning. */
static void test_unread_attributes(void) {
  static const char *const gc[] = {"1", "0.5", "0"};
  static const char *const fluid[] = {"viscosity=\"0.1\" wind=\"0 0 2\"", "density=\"1.2\"",
                                      "viscosity=\"0\" wind=\"0 0 0\" density=\"0\""};
  for (int k = 0; k < 3; k++) {
    char text[2048];
    snprintf(text, sizeof text,
             "<mujoco>\n"
             "  <option %s/><default><joint actuatorfrcrange=\"-2 2\"/></default>\n"
             "  <worldbody>\n"
             "    <body name=\"a\" gravcomp=\"%s\">\n"
             "      <joint name=\"j\" axis=\"0 1 0\"/>\n"
             "      <geom type=\"sphere\" size=\"0.1\"/>\n"
             "    </body>\n"
             "  </worldbody>\n"
             "</mujoco>\n",
             fluid[k], gc[k]);
    lk_error err;
    lk_model *m = load(text, &err);
    LK_ASSERT_MSG(m != NULL, "%d: %s", err.line, err.message);
    if (!m) continue;
    LK_ASSERT_INT_EQ(has_warning(m, "gravcomp of <body> (line 4)"), k < 2);
    LK_ASSERT_INT_EQ(has_warning(m, "viscosity of <option> (line 2)"), k == 0);
    LK_ASSERT_INT_EQ(has_warning(m, "wind of <option> (line 2)"), k == 0);
    LK_ASSERT_INT_EQ(has_warning(m, "density of <option> (line 2)"), k == 1);
    LK_ASSERT_MSG(has_warning(m, "actuatorfrcrange of <joint> (line 5)"), "%s",
                  lk_model_nwarnings(m) ? lk_model_warning(m, 0) : "no warning");
    lk_model_free(m);
  }
}

/* MuJoCo's humanoid with the default options: 2 s onto its floor without
 * a failed step or a penetration beyond 1 mm (it failed at step 1 while a
 * hip of three hinges collided with the pelvis). */
static void test_humanoid(void) {
  const char *path = "/usr/share/mujoco/model/humanoid/humanoid.xml";
  if (access(path, R_OK) != 0) {
    printf("\n  skipped: %s is not installed (libmujoco-samples)\n", path);
    return;
  }
  lk_error err;
  lk_model *m = lk_model_load_file(path, NULL, &err);
  LK_ASSERT_MSG(m != NULL, "%s:%d: %s", err.path, err.line, err.message);
  if (!m) return;
  lk_data *d = lk_data_new(m);
  double deepest = 0;
  int steps = (int)lround(2.0 / lk_model_options(m)->timestep), ok = 1;
  for (int i = 0; i < steps && ok; i++) {
    lk_status st = lk_step(m, d);
    LK_ASSERT_MSG(st == LK_OK, "step %d: %s", i + 1, lk_strerror(st));
    ok = st == LK_OK;
    for (int c = 0; c < lk_data_ncontacts(d); c++)
      deepest = fmax(deepest, lk_data_contact_report(d, c)->depth);
  }
  printf("\n  humanoid: %d steps, deepest penetration %.3g m", steps, deepest);
  LK_ASSERT_MSG(deepest < 1e-3, "penetration %.3g m", deepest);
  lk_data_free(d);
  lk_model_free(m);
}

/* ------------------------------------------ what YAML can say, through convert */

/* path (MJCF) -> lk_model_convert_file -> YAML -> load: the same model
 * (links, joints, geoms, actuators, loops, couplings, exclusions, keyframes;
 * every link's mass, centre and inertia to the bit), the same qacc at a
 * state (the first keyframe or the initial q, v = 0.1 (-1)^i) to 1e-12
 * relative, and 50 steps from it (contacts, loops, couplings, actuators)
 * ending at the same q to 1e-12. */
static void convert_round_trip(const char *xml) {
  lk_model *a, *b;
  if (!converted_pair(xml, &a, &b)) return;
  LK_ASSERT_INT_EQ(lk_model_nlink(b), lk_model_nlink(a));
  LK_ASSERT_INT_EQ(lk_model_nq(b), lk_model_nq(a));
  LK_ASSERT_INT_EQ(lk_model_nv(b), lk_model_nv(a));
  LK_ASSERT_INT_EQ(lk_model_ngeom(b), lk_model_ngeom(a));
  LK_ASSERT_INT_EQ(lk_model_nactuator(b), lk_model_nactuator(a));
  LK_ASSERT_INT_EQ(lk_model_nloop(b), lk_model_nloop(a));
  LK_ASSERT_INT_EQ(lk_model_ncoupling(b), lk_model_ncoupling(a));
  LK_ASSERT_INT_EQ(lk_model_nexclude(b), lk_model_nexclude(a));
  LK_ASSERT_INT_EQ(lk_model_nkeyframe(b), lk_model_nkeyframe(a));
  if (lk_model_nlink(b) != lk_model_nlink(a) || lk_model_nq(b) != lk_model_nq(a) ||
      lk_model_nv(b) != lk_model_nv(a)) {
    lk_model_free(a);
    lk_model_free(b);
    return;
  }
  double ma = 0, mb = 0;
  for (int l = 1; l < lk_model_nlink(a); l++) {
    lk_link_spec x, y;
    lk_model_link(a, l, &x);
    lk_model_link(b, l, &y);
    CU_ASSERT_STRING_EQUAL(x.name, y.name);
    LK_ASSERT_INT_EQ(y.joint.type, x.joint.type);
    LK_ASSERT_MSG(x.mass == y.mass && memcmp(&x.com, &y.com, sizeof x.com) == 0 &&
                      memcmp(&x.inertia, &y.inertia, sizeof x.inertia) == 0,
                  "%s: link '%s': mass %.17g, %.17g", xml, x.name, x.mass, y.mass);
    ma += x.mass;
    mb += y.mass;
  }
  LK_ASSERT_NEAR(mb, ma, 0);
  for (int i = 0; i < lk_model_nactuator(a) && i < lk_model_nactuator(b); i++) {
    lk_actuator_spec x, y;
    lk_model_actuator(a, i, &x);
    lk_model_actuator(b, i, &y);
    CU_ASSERT_STRING_EQUAL(x.joint, y.joint);
    LK_ASSERT_INT_EQ(y.type, x.type);
    LK_ASSERT_MSG(x.kp == y.kp && x.kv == y.kv && x.target == y.target &&
                      x.max_effort == y.max_effort,
                  "%s: actuator %d", xml, i);
  }
  int nq = lk_model_nq(a), nv = lk_model_nv(a);
  lk_data *da = lk_data_new(a), *db = lk_data_new(b);
  if (lk_model_nkeyframe(a) > 0) {
    LK_ASSERT_OK(lk_model_keyframe_q(a, 0, lk_data_q(da)), NULL);
    LK_ASSERT_OK(lk_model_keyframe_q(b, 0, lk_data_q(db)), NULL);
  }
  for (int i = 0; i < nv; i++) lk_data_v(da)[i] = lk_data_v(db)[i] = i % 2 ? -0.1 : 0.1;
  for (int i = 0; i < nq; i++) LK_ASSERT_NEAR(lk_data_q(db)[i], lk_data_q(da)[i], 1e-15);
  LK_ASSERT_OK(lk_forward_kinematics(a, da), NULL);
  LK_ASSERT_OK(lk_forward_kinematics(b, db), NULL);
  LK_ASSERT_OK(lk_forward_dynamics(a, da, LK_FD_ABA), NULL);
  LK_ASSERT_OK(lk_forward_dynamics(b, db, LK_FD_ABA), NULL);
  double dacc = 0;
  for (int i = 0; i < nv; i++)
    dacc = fmax(dacc, fabs(lk_data_qacc(da)[i] - lk_data_qacc(db)[i]) /
                          fmax(1, fabs(lk_data_qacc(da)[i])));
  LK_ASSERT_MSG(dacc <= 1e-12, "%s: |dqacc| %g", xml, dacc);
  for (int s = 0; s < 50; s++) {
    LK_ASSERT_OK(lk_step(a, da), NULL);
    LK_ASSERT_OK(lk_step(b, db), NULL);
  }
  double dq = 0;
  for (int i = 0; i < nq; i++) dq = fmax(dq, fabs(lk_data_q(da)[i] - lk_data_q(db)[i]));
  LK_ASSERT_MSG(dq <= 1e-12, "%s: 50 steps apart by %g", xml, dq);
  printf("\n  %s: %d links, %.6g kg, |dqacc| %.1e, 50 steps %.1e", strrchr(xml, '/') + 1,
         lk_model_nlink(a) - 1, ma, dacc, dq);
  lk_data_free(da);
  lk_data_free(db);
  lk_model_free(a);
  lk_model_free(b);
}

/* What YAML cannot say is refused, each element named; nothing written. */
static int refused(const char *xml, const char *const *names) {
  const unsigned failures0 = lk_test_failures();
  lk_error err;
  FILE *out = tmpfile();
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  LK_ASSERT_INT_EQ(lk_model_convert_file(xml, NULL, out, &err), LK_UNSUPPORTED);
  for (int i = 0; names[i]; i++)
    LK_ASSERT_MSG(strstr(err.message, names[i]), "%s: '%s' not named in: %s", xml, names[i],
                  err.message);
  LK_ASSERT_INT_EQ(ftell(out), 0);
  fclose(out);
  return lk_test_failures() == failures0;
}

static void test_convert_mjcf(void) {
  /* meshes, actuators, a joint equality, connect and weld, exclude */
  convert_round_trip(lk_test_data("mjcf/convert.xml"));
  convert_round_trip(lk_test_data("mjcf/fourbar_connect.xml"));
  convert_round_trip(lk_test_data("mjcf/weld.xml"));
  convert_round_trip(lk_test_data("mjcf/tendon.xml"));
  /* a mirrored mesh (a negative scale) */
  convert_round_trip(lk_test_data("mjcf/lshape.xml"));
  /* Menagerie's robots as published, when ../shared/data/robots is there */
  static const char *const robots[] = {
      "robotiq_2f85/2f85.xml", "wonik_allegro/right_hand.xml", "shadow_hand/right_hand.xml",
      "shadow_hand/left_hand.xml",
      "franka_emika_panda/panda.xml", "universal_robots_ur5e/ur5e.xml", "unitree_go1/go1.xml",
      NULL};
  for (int i = 0; robots[i]; i++) {
    char rel[256];
    snprintf(rel, sizeof rel, "../shared/data/robots/menagerie/%s", robots[i]);
    const char *path = lk_test_srcpath(rel);
    if (access(path, R_OK) == 0) convert_round_trip(path);
  }
  CU_ASSERT_TRUE(refused(lk_test_data("mjcf/sensors.xml"),
          (const char *[]){"sensor 'angle'", "sensor 'rate'", "sensor 'tip_pos'",
                           "sensor 'bob_frame'", "sensor 'bob_com'", "sensor 'contact'", NULL}));
  CU_ASSERT_TRUE(refused(lk_test_data("mjcf/pair.xml"),
          (const char *[]){"contact pair 'floor'/'slider'", "contact pair 'stuck'/'floor'",
                           "contact pair 'floor'/'ice'", NULL}));
  /* an ellipsoid (a mesh the reader makes, of no file) */
  char xp[] = "/tmp/lk-mjcf-ellipsoid-XXXXXX";
  int fd = mkstemp(xp);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs("<mujoco><worldbody><body name=\"egg\"><freejoint/>"
        "<geom name=\"shell\" type=\"ellipsoid\" size=\"0.1 0.05 0.03\"/></body>"
        "</worldbody></mujoco>\n", f);
  fclose(f);
  CU_ASSERT_TRUE(refused(xp, (const char *[]){"geom 'shell' of link 'egg' (an ellipsoid", NULL}));
  unlink(xp);
}

void lk_test_register(void) {
  static const lk_test tests[] = {{"orientation forms", test_orientations},
                                  {"collision filtering", test_filtering},
                                  {"ellipsoid", test_ellipsoid},
                                  {"actuators", test_actuators},
                                  {"include and meshes", test_include},
                                  {"keyframes", test_keyframes},
                                  {"unread attributes", test_unread_attributes},
                                  {"keyframes through convert", test_keyframe_convert},
                                  {"initial overlaps through convert", test_convert_keeps_initial_overlaps},
                                  {"MJCF through convert", test_convert_mjcf},
                                  {"humanoid with default options", test_humanoid},
                                  {NULL, NULL}};
  lk_test_suite("mjcf", tests);
}
