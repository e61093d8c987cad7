/* The MJCF reader against MuJoCo on the same file (built when configure
 * finds MuJoCo): MuJoCo's humanoid (libmujoco-samples) and a chain with
 * slide, hinge and ball joints and <inertial> elements, and mesh geoms
 * (to single precision, below), at a state inside
 * every joint range and far from the floor (no constraint active in
 * MuJoCo: nefc 0): the mass matrix, the bias forces (Coriolis, centrifugal,
 * gravity) and the contact-free qacc equal mj_forward's to 1e-9, each DoF
 * matched by joint name. The free joint is compared while its body is not
 * turned (MuJoCo's angular velocity is in body axes, Linkage's in world
 * axes). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mujoco/mujoco.h>

#include "harness.h"
#include "linkage/linkage.h"

static const char *kChain =
    "<mujoco model=\"chain\">\n"
    "  <compiler angle=\"radian\"/>\n"
    "  <option timestep=\"0.001\" gravity=\"0 0.5 -9.81\"/>\n"
    "  <default><joint damping=\"0.3\" armature=\"0.02\"/>\n"
    "    <default class=\"soft\"><joint stiffness=\"4\" springref=\"0.1\"/></default></default>\n"
    "  <worldbody>\n"
    "    <body name=\"cart\" pos=\"0 0 1\">\n"
    "      <joint name=\"slide\" type=\"slide\" axis=\"1 0 0\"/>\n"
    "      <inertial pos=\"0 0 0\" mass=\"2\" diaginertia=\"0.1 0.1 0.1\"/>\n"
    "      <body name=\"arm\" pos=\"0.1 0 0\" quat=\"0.9 0.1 0.3 0\">\n"
    "        <joint name=\"hinge\" pos=\"0 0 0.05\" axis=\"0 1 0.2\" class=\"soft\"/>\n"
    "        <geom type=\"capsule\" fromto=\"0 0 0 0 0 -0.4\" size=\"0.03\"/>\n"
    "        <geom type=\"box\" pos=\"0 0 -0.4\" size=\"0.05 0.04 0.03\" density=\"500\"/>\n"
    "        <body name=\"tip\" pos=\"0 0 -0.45\">\n"
    "          <joint name=\"ball\" type=\"ball\" pos=\"0 0 0.02\"/>\n"
    "          <inertial pos=\"0.01 0 -0.1\" quat=\"0.8 0.6 0 0\" mass=\"0.7\" diaginertia=\"0.004 0.003 0.002\"/>\n"
    "        </body>\n"
    "      </body>\n"
    "    </body>\n"
    "  </worldbody>\n"
    "</mujoco>\n";

/* Every DoF of MuJoCo's model -> Linkage's v index, by joint name. */
static int dof_map(const mjModel *mm, const lk_model *m, int *map) {
  int n = 0;
  for (int j = 0; j < mm->njnt; j++) {
    const char *name = mj_id2name(mm, mjOBJ_JOINT, j);
    int li = lk_model_joint_index(m, name);
    if (li < 0) return -1;
    int nd = lk_model_joint_nv(m, li), v0 = lk_model_joint_vadr(m, li);
    for (int k = 0; k < nd; k++) map[mm->jnt_dofadr[j] + k] = v0 + k;
    n += nd;
  }
  return n;
}

static void compare(const char *path, const double *qpos, const double *qvel, int expect_nv,
                    double tol) {
  char mjerr[1000] = "";
  mjModel *mm = mj_loadXML(path, NULL, mjerr, sizeof mjerr);
  LK_ASSERT_MSG(mm != NULL, "MuJoCo: %s", mjerr);
  lk_error err;
  lk_model *m = lk_model_load_file(path, NULL, &err);
  LK_ASSERT_MSG(m != NULL, "%s:%d: %s", err.path, err.line, err.message);
  if (!mm || !m) {
    if (mm) mj_deleteModel(mm);
    lk_model_free(m);
    return;
  }
  int nv = mm->nv;
  LK_ASSERT_INT_EQ(nv, expect_nv);
  LK_ASSERT_INT_EQ(lk_model_nv(m), nv);
  LK_ASSERT_NEAR(lk_model_options(m)->timestep, mm->opt.timestep, 0);
  int *map = calloc((size_t)nv, sizeof *map);
  LK_ASSERT_INT_EQ(dof_map(mm, m, map), nv);
  mjData *md = mj_makeData(mm);
  lk_data *d = lk_data_new(m);
  /* The same state: MuJoCo's qpos and qvel, joint by joint. */
  for (int j = 0; j < mm->njnt; j++) {
    int li = lk_model_joint_index(m, mj_id2name(mm, mjOBJ_JOINT, j));
    int nq = lk_model_joint_nq(m, li), q0 = lk_model_joint_qadr(m, li);
    for (int k = 0; k < nq; k++) {
      md->qpos[mm->jnt_qposadr[j] + k] = qpos[mm->jnt_qposadr[j] + k];
      lk_data_q(d)[q0 + k] = qpos[mm->jnt_qposadr[j] + k];
    }
  }
  /* Hinges and slides with a range: inside it (MuJoCo would add a limit
   * constraint otherwise), at a different fraction for each. */
  for (int j = 0; j < mm->njnt; j++) {
    if (!mm->jnt_limited[j] || (mm->jnt_type[j] != mjJNT_HINGE && mm->jnt_type[j] != mjJNT_SLIDE))
      continue;
    double lo = mm->jnt_range[2 * j], hi = mm->jnt_range[2 * j + 1];
    double x = lo + (0.2 + 0.6 * fmod(0.37 * j, 1.0)) * (hi - lo);
    int li = lk_model_joint_index(m, mj_id2name(mm, mjOBJ_JOINT, j));
    md->qpos[mm->jnt_qposadr[j]] = x;
    lk_data_q(d)[lk_model_joint_qadr(m, li)] = x;
  }
  for (int i = 0; i < nv; i++) {
    md->qvel[i] = qvel[i];
    lk_data_v(d)[map[i]] = qvel[i];
  }
  mj_forward(mm, md);
  LK_ASSERT_INT_EQ(md->nefc, 0);
  double *M = calloc((size_t)nv * nv, sizeof *M), *LM = calloc((size_t)nv * nv, sizeof *LM);
  double *c = calloc((size_t)nv, sizeof *c);
  mj_fullM(mm, M, md->qM);
  LK_ASSERT_OK(lk_forward_kinematics(m, d), NULL);
  LK_ASSERT_OK(lk_mass_matrix(m, d), NULL);
  LK_ASSERT_OK(lk_mass_matrix_dense(m, d, LM), NULL);
  LK_ASSERT_OK(lk_bias_forces(m, d, c), NULL);
  double eM = 0, ec = 0, ea = 0, scale = 0;
  for (int i = 0; i < nv; i++)
    for (int k = 0; k < nv; k++) {
      eM = fmax(eM, fabs(M[i * nv + k] - LM[map[i] * nv + map[k]]));
      scale = fmax(scale, fabs(M[i * nv + k]));
    }
  for (int i = 0; i < nv; i++) ec = fmax(ec, fabs(md->qfrc_bias[i] - c[map[i]]));
  LK_ASSERT_OK(lk_forward_dynamics(m, d, LK_FD_ABA), NULL);
  for (int i = 0; i < nv; i++) ea = fmax(ea, fabs(md->qacc[i] - lk_data_qacc(d)[map[i]]));
  printf("\n  %s: nv %d, max |dM| %.3g (max |M| %.3g), max |dbias| %.3g, max |dqacc| %.3g\n",
         mm->names, nv, eM, scale, ec, ea);
  LK_ASSERT_MSG(eM <= tol, "mass matrix differs by %.3g", eM);
  LK_ASSERT_MSG(ec <= tol, "bias forces differ by %.3g", ec);
  LK_ASSERT_MSG(ea <= tol, "qacc differs by %.3g", ea);
  free(M);
  free(LM);
  free(c);
  free(map);
  mj_deleteData(md);
  mj_deleteModel(mm);
  lk_data_free(d);
  lk_model_free(m);
}

static void test_humanoid(void) {
  const char *path = "/usr/share/mujoco/model/humanoid/humanoid.xml";
  if (access(path, R_OK) != 0) {
    printf("\n  skipped: %s is not installed (libmujoco-samples)\n", path);
    CU_PASS("skipped");
    return;
  }
  /* free: 3 m up (far from the floor), not turned; the hinges are put
   * inside their ranges by compare(). */
  double qpos[28] = {0.1, -0.2, 3.0, 1, 0, 0, 0};
  double qvel[27];
  for (int i = 0; i < 27; i++) qvel[i] = 0.3 * sin(1.7 * i + 0.4);
  compare(path, qpos, qvel, 27, 1e-9);
}

static void test_chain(void) {
  const char *b = getenv("LK_TOP_BUILDDIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/io/mjcf-chain-%d.xml", b && *b ? b : ".", (int)getpid());
  FILE *f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs(kChain, f);
  fclose(f);
  /* The ball not turned: MuJoCo's ball velocity is in the child's axes,
   * Linkage's in the parent's (equal, with their derivatives, there). */
  double qpos[6] = {0.2, -0.6, 1, 0, 0, 0};
  double qvel[5] = {0.4, -1.2, 0.8, 0.3, -0.5};
  compare(path, qpos, qvel, 5, 1e-9);
  unlink(path);
}

/* Mesh geoms (<asset><mesh file scale>, geom type="mesh"): a box whose
 * centroid is off its file origin, scaled unevenly, placed by pos and quat
 * with a density, on a hinge, and another (its file in the compiler's
 * meshdir, named after the file) on a slide below it: the geoms where
 * MuJoCo puts them, mass properties as MuJoCo makes them from the same
 * files. Boxes, because MuJoCo 2.2.2's mesh volume (its "legacy" rule) is
 * exact for them only: measured, a tetrahedron 0.2 x 0.3 x 0.4 m at 700
 * kg/m^3 is 3.904 kg there, 2.8 kg exactly (Linkage's, whose volume
 * integrals tests/model/test_mesh checks against closed forms). */
/* A box's 12 triangles, outward, after its corners (bit 0: x, 1: y, 2: z). */
static const char *const kQuads =
    "f 1 3 4\nf 1 4 2\nf 5 6 8\nf 5 8 7\nf 1 2 6\nf 1 6 5\n"
    "f 3 7 8\nf 3 8 4\nf 1 5 7\nf 1 7 3\nf 2 4 8\nf 2 8 6\n";

static void test_meshes(void) {
  const char *b = getenv("LK_TOP_BUILDDIR");
  char wedge[4096], path[4096], dir[4096], octa[4096 + 64];
  snprintf(wedge, sizeof wedge, "%s/tests/io/mjcf-wedge-%d.obj", b && *b ? b : ".", (int)getpid());
  snprintf(path, sizeof path, "%s/tests/io/mjcf-mesh-%d.xml", b && *b ? b : ".", (int)getpid());
  snprintf(dir, sizeof dir, "%s/tests/io", b && *b ? b : ".");
  snprintf(octa, sizeof octa, "%s/mjcf-octa-%d.obj", dir, (int)getpid());
  FILE *o = fopen(octa, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(o);
  /* [-0.01, 0.03] x [0.01, 0.03] x [-0.01, 0.07] */
  fputs("v -0.01 0.01 -0.01\nv 0.03 0.01 -0.01\nv -0.01 0.03 -0.01\nv 0.03 0.03 -0.01\n"
        "v -0.01 0.01 0.07\nv 0.03 0.01 0.07\nv -0.01 0.03 0.07\nv 0.03 0.03 0.07\n",
        o);
  fputs(kQuads, o);
  fclose(o);
  FILE *f = fopen(wedge, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  /* the corners of [0.07, 0.13] x [0.15, 0.25] x [0.03, 0.07] */
  fputs("v 0.07 0.15 0.03\nv 0.13 0.15 0.03\nv 0.07 0.25 0.03\nv 0.13 0.25 0.03\n"
        "v 0.07 0.15 0.07\nv 0.13 0.15 0.07\nv 0.07 0.25 0.07\nv 0.13 0.25 0.07\n",
        f);
  fputs(kQuads, f);
  fclose(f);
  f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fprintf(f,
          "<mujoco model=\"meshed\">\n"
          "  <compiler angle=\"radian\" meshdir=\"%s\"/>\n"
          "  <asset>\n"
          "    <mesh name=\"wedge\" file=\"%s\" scale=\"1 2 0.5\"/>\n"
          "    <mesh file=\"mjcf-octa-%d.obj\"/>\n"
          "  </asset>\n"
          "  <worldbody>\n"
          "    <body name=\"arm\" pos=\"0 0 1\">\n"
          "      <joint name=\"hinge\" axis=\"0 1 0.3\"/>\n"
          "      <geom type=\"mesh\" mesh=\"wedge\" pos=\"0.1 0 -0.2\" quat=\"0.9 0.1 0.3 0\" "
          "density=\"700\"/>\n"
          "      <geom type=\"capsule\" fromto=\"0 0 0 0 0 -0.3\" size=\"0.02\"/>\n"
          "      <body name=\"lump\" pos=\"0 0 -0.4\">\n"
          "        <joint name=\"slide\" type=\"slide\" axis=\"1 0 0\"/>\n"
          "        <geom type=\"mesh\" mesh=\"mjcf-octa-%d\" pos=\"0 0.05 0\" density=\"2600\"/>\n"
          "      </body>\n"
          "    </body>\n"
          "  </worldbody>\n"
          "</mujoco>\n",
          dir, wedge, (int)getpid(), (int)getpid());
  fclose(f);
  double qpos[2] = {0.4, -0.1}, qvel[2] = {0.7, -0.3};
  /* MuJoCo keeps mesh vertices in single precision and computes their
   * volume from them (measured: 1.5e-7 of M); Linkage has the same floats
   * from the file and integrates in double. */
  compare(path, qpos, qvel, 2, 2e-6);
  unlink(path);
  unlink(wedge);
  unlink(octa);
}

void lk_test_register(void) {
  static const lk_test tests[] = {{"humanoid vs mj_forward", test_humanoid},
                                  {"chain vs mj_forward", test_chain},
                                  {"mesh geoms vs mj_forward", test_meshes},
                                  {NULL, NULL}};
  lk_test_suite("mjcf-mujoco", tests);
}
