/* Grasping mesh objects (issue 15): an object made of a mesh file
 * (lk_grasp_add_mesh_object) has the closed-form mass properties of the
 * solid it meshes, one part or two; the sampler draws points on a hull's
 * faces by area with the face normals, deterministically; a meshed box
 * screens as the primitive box does, candidate by candidate; and
 * demos/grasp-planner ranks grasps on the shipped stone and mug mesh
 * files given with --mass (a best grasp holds, --jobs 1 and 2 write the
 * same CSV), alone and in an --objects sweep with a YAML object. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "linkage/linkage.h"
#include "proc.h"

#define scratch lk_test_scratch

/* The 8 corners and 12 triangles (outward) of the box [c - h, c + h] as
 * OBJ text: "o NAME", its vertices, its faces (indices from base + 1). */
static void obj_box(FILE *f, const char *name, const double c[3], const double h[3], int base) {
  fprintf(f, "o %s\n", name);
  for (int k = 0; k < 8; k++)
    fprintf(f, "v %.17g %.17g %.17g\n", c[0] + (k & 1 ? h[0] : -h[0]),
            c[1] + (k & 2 ? h[1] : -h[1]), c[2] + (k & 4 ? h[2] : -h[2]));
  /* quads as corner bits, counter-clockwise seen from outside */
  static const int q[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                              {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (int i = 0; i < 6; i++) {
    int a = base + 1 + q[i][0], b = base + 1 + q[i][1], cc = base + 1 + q[i][2],
        d = base + 1 + q[i][3];
    fprintf(f, "f %d %d %d\nf %d %d %d\n", a, b, cc, a, cc, d);
  }
}

static void put_boxes(const char *path, int n, const double (*c)[3], const double (*h)[3]) {
  FILE *f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  for (int i = 0; i < n; i++) {
    char name[16];
    snprintf(name, sizeof name, "part%d", i);
    obj_box(f, name, c[i], h[i], 8 * i);
  }
  fclose(f);
}

/* Closed form: a solid box of half extents h about its centre. */
static lk_mat3 box_inertia(double m, const double h[3]) {
  return lk_m3_diag(m / 3 * (h[1] * h[1] + h[2] * h[2]), m / 3 * (h[0] * h[0] + h[2] * h[2]),
                    m / 3 * (h[0] * h[0] + h[1] * h[1]));
}

static void expect_mat_near(const lk_mat3 *a, const lk_mat3 *b, double tol) {
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++) LK_ASSERT_NEAR(a->m[r][c], b->m[r][c], tol);
}

/* A mesh object of n boxes whose union is the box of half extents H
 * centred at C (file frame): mass, centre of mass and inertia as the
 * closed form of that box, one geom a part, standing at the origin. */
static void check_object(int n, const double (*c)[3], const double (*h)[3], const double C[3],
                         const double H[3], double mass) {
  const char *path = scratch("boxes.obj");
  put_boxes(path, n, c, h);
  lk_model *m = lk_model_new();
  lk_grasp_mesh_object o;
  lk_grasp_mesh_object_default(&o);
  o.mass = mass;
  lk_error err;
  LK_ASSERT_OK(lk_grasp_add_mesh_object(m, "thing", path, &o, &err), &err);
  LK_ASSERT_OK(lk_model_finalize(m, &err), &err);
  unlink(path);
  LK_ASSERT_INT_EQ(lk_model_ngeom(m), n);
  int l = lk_model_link_index(m, "thing");
  LK_ASSERT_INT_EQ(lk_model_joint_type(m, l), LK_JOINT_FREE);
  lk_link_spec ls;
  LK_ASSERT_OK(lk_model_link(m, l, &ls), NULL);
  LK_ASSERT_NEAR(ls.mass, mass, 0);
  /* The file's coordinates are floats (assimp): 1e-7 relative. */
  LK_ASSERT_NEAR(ls.com.x, C[0], 1e-8);
  LK_ASSERT_NEAR(ls.com.y, C[1], 1e-8);
  LK_ASSERT_NEAR(ls.com.z, C[2], 1e-8);
  lk_mat3 I = box_inertia(mass, H);
  expect_mat_near(&ls.inertia, &I, 1e-6 * I.m[0][0]);
  /* Standing at the origin: the centre of mass over (0, 0), the bottom
   * face at z = 0. */
  lk_data *d = lk_data_new(m);
  LK_ASSERT_OK(lk_forward_kinematics(m, d), NULL);
  lk_vec3 w = lk_tf_point(lk_data_link_pose(d, l), ls.com);
  LK_ASSERT_NEAR(w.x, 0, 1e-8);
  LK_ASSERT_NEAR(w.y, 0, 1e-8);
  LK_ASSERT_NEAR(w.z, H[2], 1e-8);
  lk_material_spec ma;
  lk_model_material(m, lk_model_geom_material(m, 0), &ma);
  CU_ASSERT_STRING_EQUAL(ma.name, "thing_material");
  LK_ASSERT_NEAR(ma.mu_static, 0.5, 0);
  LK_ASSERT_NEAR(ma.mu_dynamic, 0.4, 0);
  lk_data_free(d);
  lk_model_free(m);
}

static void test_mass_properties(void) {
  /* one part: a 6 x 10 x 16 cm box off the file's origin */
  const double c1[1][3] = {{0.25, -0.5, 0.125}}, h1[1][3] = {{0.03, 0.05, 0.08}};
  check_object(1, c1, h1, c1[0], h1[0], 0.3);
  /* two parts stacked (a 4 x 8 cm base under a 12 cm top, 2 x 4 cm
   * across): their union is one 2 x 4 x 20 cm box, by the parallel axes */
  const double c2[2][3] = {{0, 0, 0.04}, {0, 0, 0.14}}, h2[2][3] = {{0.01, 0.02, 0.04}, {0.01, 0.02, 0.06}};
  const double C[3] = {0, 0, 0.1}, H[3] = {0.01, 0.02, 0.1};
  check_object(2, c2, h2, C, H, 0.7);
  /* errors: no mass, a missing file (named) */
  lk_model *m = lk_model_new();
  int nl = lk_model_nlink(m);
  lk_grasp_mesh_object o;
  lk_grasp_mesh_object_default(&o);
  lk_error err;
  LK_ASSERT_INT_EQ(lk_grasp_add_mesh_object(m, "a", "x.stl", &o, &err), LK_INVALID_ARGUMENT);
  o.mass = 1;
  LK_ASSERT_INT_EQ(lk_grasp_add_mesh_object(m, "a", "/nonexistent/x.stl", &o, &err), LK_IO_ERROR);
  LK_ASSERT_MSG(strstr(err.path, "/nonexistent/x.stl") != NULL, "%s: %s", err.path, err.message);
  LK_ASSERT_INT_EQ(lk_model_nlink(m), nl); /* nothing added */
  lk_model_free(m);
}

/* An L-shaped prism as one OBJ part: the profile (0,0) (2a,0) (2a,b)
 * (a,b) (a,2b) (0,2b) in x-z, counter-clockwise, extruded over y in
 * [0, w]; caps fanned from (0,0) (the L is star-shaped from there). */
static void put_l(const char *path, double a, double b, double w) {
  const double P[6][2] = {{0, 0}, {2 * a, 0}, {2 * a, b}, {a, b}, {a, 2 * b}, {0, 2 * b}};
  FILE *f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fprintf(f, "o L\n");
  for (int s = 0; s < 2; s++)
    for (int i = 0; i < 6; i++) fprintf(f, "v %.17g %.17g %.17g\n", P[i][0], s * w, P[i][1]);
  /* x cross z = -y: counter-clockwise in (x, z) faces -y (the y = 0 cap). */
  for (int i = 1; i + 1 < 6; i++) {
    fprintf(f, "f 1 %d %d\n", i + 1, i + 2);
    fprintf(f, "f 7 %d %d\n", i + 8, i + 7);
  }
  for (int i = 0; i < 6; i++) {
    int j = (i + 1) % 6;
    fprintf(f, "f %d %d %d\nf %d %d %d\n", i + 1, i + 7, j + 7, i + 1, j + 7, j + 1);
  }
  fclose(f);
}

/* A single-part non-convex object is decomposed by default, with a
 * warning giving what its hull would add (the L's hull: +1/6, 16.7 %), and
 * gets the L's own mass properties; keep_hull keeps its hull; a convex
 * part stays one geom without a warning. */
static void test_single_part_decomposed(void) {
  const double a = 0.0625, b = 0.125, w = 0.03125, V = 3 * a * b * w;
  const char *path = scratch("l.obj");
  put_l(path, a, b, w);
  lk_grasp_mesh_object_report rep;
  lk_grasp_mesh_object o;
  lk_grasp_mesh_object_default(&o);
  o.mass = 0.2;
  o.report = &rep;
  lk_error err;
  lk_model *m = lk_model_new();
  LK_ASSERT_OK(lk_grasp_add_mesh_object(m, "l", path, &o, &err), &err);
  LK_ASSERT_OK(lk_model_finalize(m, &err), &err);
  LK_ASSERT_INT_EQ(rep.file_parts, 1);
  LK_ASSERT_INT_EQ(rep.decomposed, 1);
  LK_ASSERT_INT_EQ(rep.parts, 2);
  LK_ASSERT_INT_EQ(lk_model_ngeom(m), 2);
  LK_ASSERT_REL(rep.volume, V, 1e-12, 0);
  LK_ASSERT_REL(rep.hull_volume, 3.5 * a * b * w, 1e-12, 0);
  LK_ASSERT_REL(rep.parts_volume, V, 1e-12, 0);
  LK_ASSERT_MSG(strstr(rep.warning, "16.7 %") && strstr(rep.warning, "2 convex parts"), "%s",
                rep.warning);
  /* The L's centre of mass: (2ab (a, b/2) + ab (a/2, 3b/2)) / 3ab. */
  lk_link_spec ls;
  LK_ASSERT_OK(lk_model_link(m, lk_model_link_index(m, "l"), &ls), NULL);
  LK_ASSERT_NEAR(ls.com.x, 5 * a / 6, 1e-12);
  LK_ASSERT_NEAR(ls.com.y, w / 2, 1e-12);
  LK_ASSERT_NEAR(ls.com.z, 5 * b / 6, 1e-12);
  lk_model_free(m);
  /* keep_hull: one geom, the hull's volume, the warning says so. */
  o.keep_hull = 1;
  m = lk_model_new();
  LK_ASSERT_OK(lk_grasp_add_mesh_object(m, "l", path, &o, &err), &err);
  LK_ASSERT_OK(lk_model_finalize(m, &err), &err);
  LK_ASSERT_INT_EQ(lk_model_ngeom(m), 1);
  LK_ASSERT_INT_EQ(rep.decomposed, 0);
  LK_ASSERT_REL(rep.parts_volume, 3.5 * a * b * w, 1e-12, 0);
  LK_ASSERT_MSG(strstr(rep.warning, "16.7 %") && strstr(rep.warning, "keep_hull"), "%s",
                rep.warning);
  lk_model_free(m);
  /* A hull_tolerance above the L's 1/6: its hull, with the warning. */
  o.keep_hull = 0;
  o.hull_tolerance = 0.2;
  m = lk_model_new();
  LK_ASSERT_OK(lk_grasp_add_mesh_object(m, "l", path, &o, &err), &err);
  LK_ASSERT_INT_EQ(rep.parts, 1);
  LK_ASSERT_MSG(strstr(rep.warning, "16.7 %") && strstr(rep.warning, "within hull_tolerance"),
                "%s", rep.warning);
  lk_model_free(m);
  o.hull_tolerance = 0.05;
  /* A convex part (a box): one geom, no warning. */
  const double c1[1][3] = {{0, 0, 0}}, h1[1][3] = {{0.03, 0.05, 0.08}};
  put_boxes(path, 1, c1, h1);
  o.keep_hull = 0;
  m = lk_model_new();
  LK_ASSERT_OK(lk_grasp_add_mesh_object(m, "box", path, &o, &err), &err);
  LK_ASSERT_INT_EQ(rep.parts, 1);
  LK_ASSERT_INT_EQ(rep.decomposed, 0);
  CU_ASSERT_STRING_EQUAL(rep.warning, "");
  lk_model_free(m);
  unlink(path);
}

static const char *mech(const char *rel) {
  static char buf[4][4096];
  static int slot;
  char *o = buf[slot++ & 3];
  snprintf(o, sizeof buf[0], "%s", lk_test_srcpath(rel));
  return o;
}

/* The shipped box object's shape (mechanisms/object_box.yaml: 5 x 5 x 8 cm,
 * 0.2 kg, wood 0.5/0.4) as an OBJ file centred on its origin. */
static const double kBoxH[3] = {0.025, 0.025, 0.04};

/* The box in one part, or in two (a 3 cm base under a 5 cm top): the same
 * solid. */
static lk_grasp_scene *mesh_box_scene_parts(int parts, lk_error *err) {
  const double c1[1][3] = {{0, 0, 0}};
  const double h1[1][3] = {{kBoxH[0], kBoxH[1], kBoxH[2]}};
  const double c2[2][3] = {{0, 0, -0.025}, {0, 0, 0.015}};
  const double h2[2][3] = {{kBoxH[0], kBoxH[1], 0.015}, {kBoxH[0], kBoxH[1], 0.025}};
  if (parts == 1)
    put_boxes(scratch("box.obj"), 1, c1, h1);
  else
    put_boxes(scratch("box.obj"), 2, c2, h2);
  lk_grasp_mesh_object mo;
  lk_grasp_mesh_object_default(&mo);
  mo.mass = 0.2;
  lk_grasp_scene_options so;
  lk_grasp_scene_options_default(&so);
  so.object_mesh = &mo;
  lk_grasp_scene *s =
      lk_grasp_scene_load(mech("mechanisms/jaw_gripper.yaml"), scratch("box.obj"), &so, err);
  unlink(scratch("box.obj"));
  return s;
}

static lk_grasp_scene *mesh_box_scene(lk_error *err) { return mesh_box_scene_parts(1, err); }

/* Surface draws on the meshed box: on a face, with that face's normal, the
 * faces by area; the same draw twice is the same to the bit; antipodal
 * draws centre the jaws on the box's mid-plane. The same for the box in
 * two parts, whose faces against each other (z = -0.01) are inside the
 * object and never drawn, and whose antipodal width along z is the whole
 * box's. */
/* Returns how many draws fell off the box's faces (0). */
static int sampler_on_box(int parts) {
  lk_error err;
  lk_grasp_scene *s = mesh_box_scene_parts(parts, &err);
  LK_ASSERT_MSG(s != NULL, "%s", err.message);
  if (!s) return -1;
  LK_ASSERT_NEAR(lk_grasp_scene_object_radius(s),
                 sqrt(kBoxH[0] * kBoxH[0] + kBoxH[1] * kBoxH[1] + kBoxH[2] * kBoxH[2]), 1e-8);
  lk_grasp_sample_options o;
  lk_grasp_sample_options_default(&o);
  o.kind = LK_SAMPLE_SURFACE;
  lk_grasp_sampler *sp = lk_grasp_sampler_new(s, &o, &err);
  LK_ASSERT_MSG(sp != NULL, "%s", err.message);
  const int n = 4000;
  int per_axis[3] = {0, 0, 0}, off = 0;
  for (int i = 0; sp && i < n; i++) {
    lk_grasp_candidate c, again;
    LK_ASSERT_OK(lk_grasp_sampler_draw(sp, i, &c, &err), &err);
    LK_ASSERT_OK(lk_grasp_sampler_draw(sp, i, &again, &err), &err);
    if (memcmp(&c, &again, sizeof c) != 0) off++;
    double p[3] = {c.surface_point.x, c.surface_point.y, c.surface_point.z};
    double nn[3] = {c.surface_normal.x, c.surface_normal.y, c.surface_normal.z};
    int k = 0;
    for (int j = 1; j < 3; j++)
      if (fabs(nn[j]) > fabs(nn[k])) k = j;
    per_axis[k]++;
    /* the normal is the face's axis, pointing out through the point */
    LK_ASSERT_NEAR(fabs(nn[k]), 1, 1e-12);
    LK_ASSERT_NEAR(p[k], copysign(kBoxH[k], nn[k]), 1e-8);
    for (int j = 0; j < 3; j++)
      if (j != k) LK_ASSERT_MSG(fabs(p[j]) <= kBoxH[j] + 1e-8, "draw %d off the face", i);
    if (parts == 2) LK_ASSERT_MSG(fabs(p[2] + 0.01) > 1e-6 || k != 2, "draw %d inside", i);
  }
  /* areas: x and y faces 2 x 5 x 8 cm^2 each, z faces 2 x 5 x 5 cm^2 */
  double A[3] = {kBoxH[1] * kBoxH[2], kBoxH[0] * kBoxH[2], kBoxH[0] * kBoxH[1]};
  double tot = A[0] + A[1] + A[2];
  for (int k = 0; k < 3; k++) {
    double f = (double)per_axis[k] / n, p = A[k] / tot;
    /* five standard deviations of a binomial fraction */
    LK_ASSERT_NEAR(f, p, 5 * sqrt(p * (1 - p) / n));
  }
  lk_grasp_sampler_free(sp);
  sp = lk_grasp_sampler_new(s, NULL, &err); /* auto: antipodal for the jaw */
  LK_ASSERT_INT_EQ(lk_grasp_sampler_kind(sp), LK_SAMPLE_ANTIPODAL);
  for (int i = 0; sp && i < 200; i++) {
    lk_grasp_candidate c;
    LK_ASSERT_OK(lk_grasp_sampler_draw(sp, i, &c, &err), &err);
    /* the centre is the box's centre along the closing axis (the normal),
     * in two parts too: the jaws straddle the whole box, not the part the
     * point is on */
    LK_ASSERT_NEAR(lk_v3_dot(c.center, c.surface_normal), 0, 1e-8);
  }
  lk_grasp_sampler_free(sp);
  lk_grasp_scene_free(s);
  return off;
}

static void test_sampler_on_a_hull(void) {
  LK_ASSERT_INT_EQ(sampler_on_box(1), 0);
  LK_ASSERT_INT_EQ(sampler_on_box(2), 0);
}

/* The jaw gripper on the meshed box and on the primitive box (the same
 * solid, frame, mass and friction): every candidate screens to the same
 * outcome, the jaws stop at the same opening, and a closed grasp has the
 * same epsilon within 3%: the pads' patch on a face is the same polygon,
 * but the manifold keeps at most 4 of its corners and the box-box and the
 * hull-box clipping may keep different ones (measured: up to 2%). */
static void test_screen_like_the_primitive(void) {
  lk_error err;
  lk_grasp_scene *sm = mesh_box_scene(&err);
  LK_ASSERT_MSG(sm != NULL, "%s", err.message);
  lk_grasp_scene *sb = lk_grasp_scene_load(mech("mechanisms/jaw_gripper.yaml"),
                                           mech("mechanisms/object_box.yaml"), NULL, &err);
  LK_ASSERT_MSG(sb != NULL, "%s", err.message);
  if (!sm || !sb) {
    lk_grasp_scene_free(sm);
    lk_grasp_scene_free(sb);
    return;
  }
  lk_transform Pm = lk_grasp_scene_object_pose(sm), Pb = lk_grasp_scene_object_pose(sb);
  LK_ASSERT_NEAR(Pm.p.z, Pb.p.z, 1e-9);
  LK_ASSERT_NEAR(lk_grasp_scene_reach(sm), lk_grasp_scene_reach(sb), 0);
  lk_grasp_sampler *sp = lk_grasp_sampler_new(sb, NULL, &err);
  lk_grasp_screener *cm = lk_grasp_screener_new(sm, NULL, &err);
  lk_grasp_screener *cb = lk_grasp_screener_new(sb, NULL, &err);
  lk_data *dm = lk_data_new(lk_grasp_scene_model(sm)), *db = lk_data_new(lk_grasp_scene_model(sb));
  lk_grasp_contact con[64];
  int closed = 0, differ = 0;
  for (int i = 0; sp && cm && cb && i < 100; i++) {
    lk_grasp_candidate c;
    LK_ASSERT_OK(lk_grasp_sampler_draw(sp, i, &c, &err), &err);
    lk_grasp_screen_report rm, rb;
    LK_ASSERT_OK(lk_grasp_screen(cm, dm, &c.pose, NULL, &rm, con, 64, &err), &err);
    LK_ASSERT_OK(lk_grasp_screen(cb, db, &c.pose, NULL, &rb, con, 64, &err), &err);
    if (rm.outcome != rb.outcome) {
      differ++;
      continue;
    }
    if (rb.outcome != LK_SCREEN_CLOSED) continue;
    closed++;
    LK_ASSERT_NEAR(rm.epsilon, rb.epsilon, 0.03 * rb.epsilon);
    for (int k = 0; k < lk_grasp_scene_nfinger_dofs(sb); k++) LK_ASSERT_NEAR(rm.q[k], rb.q[k], 1e-8);
  }
  LK_ASSERT_INT_EQ(differ, 0);
  LK_ASSERT_MSG(closed >= 30, "only %d of 100 closed", closed);
  lk_data_free(dm);
  lk_data_free(db);
  lk_grasp_screener_free(cm);
  lk_grasp_screener_free(cb);
  lk_grasp_sampler_free(sp);
  lk_grasp_scene_free(sm);
  lk_grasp_scene_free(sb);
}

/* ---------------------------------------------------------- the planner */

/* The planner with args and -o out: its exit status, its stderr in *err
 * (free it). */
static int run(const char *const *args, const char *out, char **err) {
  const char *argv[64];
  int n = 0;
  for (int i = 0; args[i] && n < 60; i++) argv[n++] = args[i];
  argv[n++] = "-o";
  argv[n++] = out;
  argv[n] = NULL;
  lk_test_result r = lk_test_run(LK_TEST_PLANNER, argv);
  int st = r.status;
  if (err) {
    *err = r.err;
    r.err = NULL;
  }
  lk_test_result_free(&r);
  return st;
}

/* The CSV's rows of one object: how many, and whether its first (the
 * best verified) held. */
static void rows_of(const char *csv, const char *object, int *n, int *best_held) {
  *n = 0;
  *best_held = -1;
  const char *hdr_end = strchr(csv, '\n');
  if (!hdr_end) return;
  /* the "held" column */
  int col = -1, k = 0;
  for (const char *p = csv; p < hdr_end; k++) {
    const char *e = strpbrk(p, ",\n");
    if ((size_t)(e - p) == 4 && strncmp(p, "held", 4) == 0) col = k;
    p = e + 1;
    if (*e == '\n') break;
  }
  size_t ol = strlen(object);
  for (const char *line = hdr_end + 1; *line; line = strchr(line, '\n') + 1) {
    if (strncmp(line, object, ol) == 0 && line[ol] == ',') {
      if (++*n == 1 && col >= 0) {
        const char *p = line;
        for (int i = 0; i < col && p; i++) p = strchr(p, ',') + 1;
        *best_held = atoi(p);
      }
    }
    if (!strchr(line, '\n')) break;
  }
}

static void test_planner_on_shipped_meshes(void) {
  const char *hand = mech("mechanisms/jaw_gripper.yaml");
  char stone[4096], mug[4096];
  snprintf(stone, sizeof stone, "%s", mech("mechanisms/meshes/stone.stl"));
  snprintf(mug, sizeof mug, "%s", mech("mechanisms/meshes/mug.obj"));
  /* A sweep: the stone, the mug and a YAML object, --jobs 1 and 2. */
  char list[4096];
  snprintf(list, sizeof list, "%s", scratch("objects.list"));
  FILE *f = fopen(list, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fprintf(f, "%s\n%s\n%s\n", stone, mug, mech("mechanisms/object_sphere.yaml"));
  fclose(f);
  char out1[4096], out2[4096];
  snprintf(out1, sizeof out1, "%s", scratch("j1.csv"));
  snprintf(out2, sizeof out2, "%s", scratch("j2.csv"));
  char *err = NULL;
  const char *common[] = {"--hand", hand, "--objects", list, "--mass", "0.25", "-n", "200",
                          "--verify", "2", "--refine", "2", "--rounds", "4", "-q"};
  const char *a1[32], *a2[32];
  int nc = (int)(sizeof common / sizeof common[0]);
  for (int i = 0; i < nc; i++) a1[i] = a2[i] = common[i];
  a1[nc] = "--jobs";
  a1[nc + 1] = "1";
  a1[nc + 2] = NULL;
  a2[nc] = "--jobs";
  a2[nc + 1] = "2";
  a2[nc + 2] = NULL;
  int st = run(a1, out1, &err);
  LK_ASSERT_MSG(st == 0, "exit %d: %s", st, err ? err : "");
  free(err);
  st = run(a2, out2, &err);
  LK_ASSERT_MSG(st == 0, "exit %d: %s", st, err ? err : "");
  free(err);
  char *t1 = lk_test_slurp(out1, NULL), *t2 = lk_test_slurp(out2, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(t1);
  CU_ASSERT_PTR_NOT_NULL_FATAL(t2);
  LK_ASSERT_MSG(strcmp(t1, t2) == 0, "the CSVs of --jobs 1 and 2 differ");
  const char *names[] = {"stone", "mug", "object_sphere"};
  for (int i = 0; i < 3; i++) {
    int n, held;
    rows_of(t1, names[i], &n, &held);
    LK_ASSERT_MSG(n == 200, "%s: %d rows (one a candidate)", names[i], n);
    LK_ASSERT_MSG(held == 1, "%s: the best verified grasp did not hold", names[i]);
  }
  free(t1);
  free(t2);
  unlink(out1);
  unlink(out2);
  unlink(list);
  /* A mesh object needs --mass; a mass must be positive. */
  st = run((const char *[]){"--hand", hand, "--object", stone, "-n", "5", NULL}, out1, &err);
  LK_ASSERT_INT_EQ(st, 2);
  LK_ASSERT_MSG(err && strstr(err, "--mass"), "%s", err ? err : "");
  free(err);
  st = run((const char *[]){"--hand", hand, "--object", stone, "--mass", "0", NULL}, out1, &err);
  LK_ASSERT_INT_EQ(st, 2);
  free(err);
  /* A file that is not a mesh: exit 2, naming it. */
  const char *bad = scratch("bad.stl");
  f = fopen(bad, "w");
  fputs("solid x\nendsolid x\n", f);
  fclose(f);
  st = run((const char *[]){"--hand", hand, "--object", bad, "--mass", "1", "-n", "5", NULL}, out1,
           &err);
  LK_ASSERT_INT_EQ(st, 2);
  LK_ASSERT_MSG(err && strstr(err, "bad.stl"), "%s", err ? err : "");
  free(err);
  unlink(bad);
  unlink(out1);
}

/* mechanisms/object_box.yaml written as a URDF object the way YCB's
 * model.urdf files are (issue 32): one link, a PyBullet <contact> friction,
 * in a folder named for the object. Its root is welded to the world by
 * the URDF convention; as a grasp object it floats. */
static const char *urdf_box(void) {
  mkdir(lk_test_scratch("Box"), 0755);
  const char *path = lk_test_scratch("Box/model.urdf");
  lk_test_write(path,
                "<?xml version=\"1.0\"?>\n<robot name=\"model.urdf\">\n  <link name=\"baseLink\">\n"
                "    <contact><lateral_friction value=\"0.5\"/></contact>\n"
                "    <inertial><mass value=\"0.2\"/>\n"
                "      <inertia ixx=\"1.48333e-4\" iyy=\"1.48333e-4\" izz=\"8.33333e-5\" ixy=\"0\" "
                "ixz=\"0\" iyz=\"0\"/></inertial>\n"
                "    <collision><geometry><box size=\"0.05 0.05 0.08\"/></geometry></collision>\n"
                "  </link>\n</robot>\n");
  return path;
}

/* The URDF box screens as the YAML box (the same 60 antipodal poses,
 * outcomes, q and epsilon to 1e-9: friction 0.5 both), and the planner
 * names it by its folder and holds it. */
static void test_a_urdf_object_floats(void) {
  lk_test_scratch_clear();
  char hand[4096], yb[4096], ub[4096];
  snprintf(hand, sizeof hand, "%s", lk_test_mechanism("jaw_gripper"));
  snprintf(yb, sizeof yb, "%s", lk_test_mechanism("object_box"));
  snprintf(ub, sizeof ub, "%s", urdf_box());
  lk_error e;
  lk_grasp_scene *su = lk_grasp_scene_load(hand, ub, NULL, &e);
  LK_ASSERT_MSG(su != NULL, "%s", e.message);
  lk_grasp_scene *sy = lk_grasp_scene_load(hand, yb, NULL, &e);
  CU_ASSERT_FATAL(su && sy);
  LK_ASSERT_NEAR(lk_grasp_scene_object_mass(su), 0.2, 1e-12);
  lk_data *du = lk_data_new(lk_grasp_scene_model(su)), *dy = lk_data_new(lk_grasp_scene_model(sy));
  lk_grasp_screener *cu = lk_grasp_screener_new(su, NULL, NULL);
  lk_grasp_screener *cy = lk_grasp_screener_new(sy, NULL, NULL);
  lk_grasp_sampler *pu = lk_grasp_sampler_new(su, NULL, NULL);
  lk_grasp_sampler *py = lk_grasp_sampler_new(sy, NULL, NULL);
  CU_ASSERT_FATAL(du && dy && cu && cy && pu && py);
  int closed = 0;
  for (int i = 0; i < 60; i++) {
    lk_grasp_candidate a, b;
    LK_ASSERT_OK(lk_grasp_sampler_draw(pu, i, &a, &e), &e);
    LK_ASSERT_OK(lk_grasp_sampler_draw(py, i, &b, &e), &e);
    LK_ASSERT_NEAR(lk_v3_norm(lk_v3_sub(a.pose.p, b.pose.p)), 0, 1e-12);
    lk_grasp_screen_report ru, ry;
    lk_grasp_contact c[64];
    LK_ASSERT_OK(lk_grasp_screen(cu, du, &a.pose, NULL, &ru, c, 64, &e), &e);
    LK_ASSERT_OK(lk_grasp_screen(cy, dy, &b.pose, NULL, &ry, c, 64, &e), &e);
    LK_ASSERT_INT_EQ(ru.outcome, ry.outcome);
    if (ry.outcome != LK_SCREEN_CLOSED) continue;
    LK_ASSERT_NEAR(ru.q[0], ry.q[0], 1e-9);
    LK_ASSERT_NEAR(ru.epsilon, ry.epsilon, 1e-9);
    closed++;
  }
  CU_ASSERT(closed >= 20);
  lk_grasp_sampler_free(pu);
  lk_grasp_sampler_free(py);
  lk_grasp_screener_free(cu);
  lk_grasp_screener_free(cy);
  lk_data_free(du);
  lk_data_free(dy);
  lk_grasp_scene_free(su);
  lk_grasp_scene_free(sy);
  const char *out = lk_test_scratch("urdf.csv");
  const char *argv[] = {"--hand", hand, "--object", ub, "-n", "40", "--verify", "2", "-q", "-o",
                        out, NULL};
  lk_test_result r = lk_test_run(LK_TEST_PLANNER, argv);
  LK_ASSERT_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
  lk_test_result_free(&r);
  char *csv = lk_test_slurp(out, NULL);
  CU_ASSERT_FATAL(csv != NULL);
  const char *row = strchr(csv, '\n');
  CU_ASSERT_FATAL(row != NULL);
  LK_ASSERT_MSG(strncmp(row + 1, "Box,1,", 6) == 0, "first row: %.80s", row + 1);
  LK_ASSERT_MSG(strstr(row, ",held,") != NULL, "no verified grasp held: %.300s", row + 1);
  free(csv);
}

/* grasp-planner says what it did with a single non-convex part, and
 * --keep-hull keeps the hull. */
static void test_planner_warns_of_the_hull(void) {
  const char *l = scratch("lcli.obj"), *out = scratch("lcli.csv");
  put_l(l, 0.0625, 0.125, 0.03125);
  const char *hand = lk_test_mechanism("jaw_gripper");
  char *err = NULL;
  int st = run((const char *[]){"--hand", hand, "--object", l, "--mass", "0.2", "-n", "20",
                                "--verify", "1", "--refine", "1", "--rounds", "1", "-q", NULL},
               out, &err);
  LK_ASSERT_MSG(st == 0, "exit %d: %s", st, err ? err : "");
  LK_ASSERT_MSG(err && strstr(err, "warning") && strstr(err, "16.7 %") &&
                    strstr(err, "decomposed into 2 convex parts"),
                "%s", err ? err : "");
  free(err);
  st = run((const char *[]){"--hand", hand, "--object", l, "--mass", "0.2", "-n", "20",
                            "--verify", "1", "--refine", "1", "--rounds", "1", "-q",
                            "--keep-hull", NULL},
           out, &err);
  LK_ASSERT_MSG(st == 0, "exit %d: %s", st, err ? err : "");
  LK_ASSERT_MSG(err && strstr(err, "16.7 %") && strstr(err, "is its convex hull (keep_hull)"),
                "%s", err ? err : "");
  free(err);
  unlink(l);
  unlink(out);
}

void lk_test_register(void) {
  static const lk_test tests[] = {
      {"mass properties of a mesh object", test_mass_properties},
      {"a single non-convex part is decomposed, with a warning", test_single_part_decomposed},
      {"the sampler on a hull", test_sampler_on_a_hull},
      {"a meshed box screens like the box", test_screen_like_the_primitive},
      {"the planner on the shipped meshes", test_planner_on_shipped_meshes},
      {"a URDF object (YCB style) floats and is named by its folder", test_a_urdf_object_floats},
      {"grasp-planner warns of a non-convex part's hull; --keep-hull", test_planner_warns_of_the_hull},
      {NULL, NULL}};
  lk_test_suite("mesh_objects", tests);
}
