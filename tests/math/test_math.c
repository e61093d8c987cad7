/* Math identities: rotations, quaternions, transforms, spatial algebra. */
#include <stdlib.h>

#include "harness.h"
#include "linkage/linkage.h"

/* Deterministic pseudo-random numbers (xorshift) so failures reproduce. */
static unsigned long long g_rng = 0x9E3779B97F4A7C15ull;
static double urand(double lo, double hi) {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return lo + (hi - lo) * (double)(g_rng >> 11) / 9007199254740992.0;
}
static lk_vec3 rvec(double s) { return lk_v3(urand(-s, s), urand(-s, s), urand(-s, s)); }
static lk_quat rquat(void) {
  return lk_q_normalize(lk_q(urand(-1, 1), urand(-1, 1), urand(-1, 1), urand(-1, 1)));
}
static double m3_maxdiff(const lk_mat3 *a, const lk_mat3 *b) {
  double d = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) d = fmax(d, fabs(a->m[i][j] - b->m[i][j]));
  return d;
}
static double v3_diff(lk_vec3 a, lk_vec3 b) { return lk_v3_norm(lk_v3_sub(a, b)); }

static void test_rotation_matrices_are_orthonormal(void) {
  for (int k = 0; k < 200; k++) {
    lk_quat q = rquat();
    lk_mat3 R = lk_q_to_mat3(q);
    lk_mat3 RtR = lk_m3_tmul(&R, &R), I = lk_m3_identity();
    LK_ASSERT_NEAR(m3_maxdiff(&RtR, &I), 0, 1e-14);
    LK_ASSERT_NEAR(lk_m3_det(&R), 1, 1e-14);
    lk_vec3 v = rvec(3);
    LK_ASSERT_NEAR(v3_diff(lk_m3_mulv(&R, v), lk_q_rotate(q, v)), 0, 1e-14);
    lk_mat3 A = lk_m3_from_axis_angle(rvec(1), urand(-4, 4));
    lk_mat3 AtA = lk_m3_tmul(&A, &A);
    LK_ASSERT_NEAR(m3_maxdiff(&AtA, &I), 0, 1e-14);
  }
}

static void test_quaternion_matrix_round_trip(void) {
  for (int k = 0; k < 500; k++) {
    lk_quat q = rquat();
    if (q.w < 0) q = lk_q(-q.w, -q.x, -q.y, -q.z);
    lk_mat3 R = lk_q_to_mat3(q);
    lk_quat p = lk_q_from_mat3(&R);
    LK_ASSERT_NEAR(fabs(p.w - q.w) + fabs(p.x - q.x) + fabs(p.y - q.y) + fabs(p.z - q.z), 0, 1e-13);
  }
  /* Rotations by pi exercise every branch of Shepperd's method. */
  lk_vec3 axes[4] = {lk_v3(1, 0, 0), lk_v3(0, 1, 0), lk_v3(0, 0, 1), lk_v3(1, 1, 1)};
  for (int a = 0; a < 4; a++) {
    lk_mat3 R = lk_m3_from_axis_angle(axes[a], LK_PI);
    lk_quat q = lk_q_from_mat3(&R);
    lk_mat3 R2 = lk_q_to_mat3(q);
    LK_ASSERT_NEAR(m3_maxdiff(&R, &R2), 0, 1e-14);
  }
}

static void test_quaternion_product_composes_rotations(void) {
  for (int k = 0; k < 200; k++) {
    lk_quat a = rquat(), b = rquat();
    lk_mat3 Ra = lk_q_to_mat3(a), Rb = lk_q_to_mat3(b);
    lk_mat3 Rab = lk_m3_mul(&Ra, &Rb), Rq = lk_q_to_mat3(lk_q_mul(a, b));
    LK_ASSERT_NEAR(m3_maxdiff(&Rab, &Rq), 0, 1e-14);
    lk_quat e = lk_q_mul(a, lk_q_conj(a));
    LK_ASSERT_NEAR(e.w, 1, 1e-15);
  }
}

static void test_exp_log_maps(void) {
  for (int k = 0; k < 300; k++) {
    lk_vec3 phi = rvec(k < 100 ? 1e-7 : 3.0 / sqrt(3.0));
    if (lk_v3_norm(phi) >= LK_PI) continue;
    lk_quat q = lk_q_exp(phi);
    LK_ASSERT_NEAR(lk_q_norm(q), 1, 1e-15);
    lk_vec3 back = lk_q_log(q);
    LK_ASSERT_NEAR(v3_diff(back, phi), 0, 1e-14 + 1e-13 * lk_v3_norm(phi));
    /* exp agrees with the axis-angle construction */
    double th = lk_v3_norm(phi);
    if (th > 1e-3) {
      lk_mat3 R = lk_m3_from_axis_angle(phi, th), Rq = lk_q_to_mat3(q);
      LK_ASSERT_NEAR(m3_maxdiff(&R, &Rq), 0, 1e-14);
    }
  }
  lk_vec3 z = lk_q_log(lk_q_identity());
  LK_ASSERT_NEAR(lk_v3_norm(z), 0, 0);
}

static void test_quaternion_integration_matches_constant_rotation(void) {
  /* Spinning at a constant body rate w for time T about a fixed axis gives a
   * rotation by |w| T, however many steps it is split into. */
  lk_vec3 w = lk_v3(0.3, -1.2, 0.7);
  lk_quat q = lk_q_identity();
  int n = 1000;
  double T = 2.0;
  for (int i = 0; i < n; i++) q = lk_q_integrate_body(q, w, T / n);
  lk_quat ref = lk_q_exp(lk_v3_scale(w, T));
  LK_ASSERT_NEAR(fabs(lk_q_mul(q, lk_q_conj(ref)).w), 1, 1e-13);
  /* World-frame integration of a world rate on a rotated start. */
  lk_quat q0 = rquat(), qw = q0;
  for (int i = 0; i < n; i++) qw = lk_q_integrate_world(qw, w, T / n);
  lk_quat refw = lk_q_mul(lk_q_exp(lk_v3_scale(w, T)), q0);
  LK_ASSERT_NEAR(fabs(lk_q_mul(qw, lk_q_conj(refw)).w), 1, 1e-13);
}

static void test_rpy_round_trip_and_convention(void) {
  /* URDF: R = Rz(yaw) Ry(pitch) Rx(roll). */
  double r = 0.3, p = -0.4, y = 1.1;
  lk_mat3 R = lk_m3_from_rpy(r, p, y);
  lk_mat3 Rz = lk_m3_from_axis_angle(lk_v3(0, 0, 1), y), Ry = lk_m3_from_axis_angle(lk_v3(0, 1, 0), p),
          Rx = lk_m3_from_axis_angle(lk_v3(1, 0, 0), r);
  lk_mat3 t = lk_m3_mul(&Ry, &Rx), ref = lk_m3_mul(&Rz, &t);
  LK_ASSERT_NEAR(m3_maxdiff(&R, &ref), 0, 1e-15);
  lk_mat3 Rq = lk_q_to_mat3(lk_q_from_rpy(r, p, y));
  LK_ASSERT_NEAR(m3_maxdiff(&R, &Rq), 0, 1e-15);
  double r2, p2, y2;
  lk_m3_to_rpy(&R, &r2, &p2, &y2);
  LK_ASSERT_NEAR(r2, r, 1e-14);
  LK_ASSERT_NEAR(p2, p, 1e-14);
  LK_ASSERT_NEAR(y2, y, 1e-14);
}

static lk_transform rtf(void) {
  lk_mat3 R = lk_q_to_mat3(rquat());
  return lk_tf(&R, rvec(2));
}

static void test_transform_composition_and_inverse(void) {
  for (int k = 0; k < 200; k++) {
    lk_transform a = rtf(), b = rtf();
    lk_vec3 x = rvec(5);
    lk_transform ab = lk_tf_mul(&a, &b);
    LK_ASSERT_NEAR(v3_diff(lk_tf_point(&ab, x), lk_tf_point(&a, lk_tf_point(&b, x))), 0, 1e-13);
    lk_transform ai = lk_tf_inverse(&a), id = lk_tf_mul(&ai, &a), I = lk_tf_identity();
    LK_ASSERT_NEAR(m3_maxdiff(&id.R, &I.R) + lk_v3_norm(id.p), 0, 1e-14);
    LK_ASSERT_NEAR(v3_diff(lk_tf_inv_point(&a, lk_tf_point(&a, x)), x), 0, 1e-13);
    lk_transform aib = lk_tf_inv_mul(&a, &b), ref = lk_tf_mul(&ai, &b);
    LK_ASSERT_NEAR(m3_maxdiff(&aib.R, &ref.R) + v3_diff(aib.p, ref.p), 0, 1e-13);
  }
}

static lk_motion rmo(void) { return lk_mo(rvec(2), rvec(2)); }
static lk_force rfo(void) { return lk_fo(rvec(2), rvec(2)); }

static void test_spatial_cross_operators(void) {
  for (int k = 0; k < 200; k++) {
    lk_motion a = rmo(), b = rmo();
    lk_force f = rfo();
    /* crf(a) = -crm(a)^T:  b . (a x* f) = -(a x b) . f */
    LK_ASSERT_NEAR(lk_mo_dot_fo(b, lk_mo_cross_fo(a, f)), -lk_mo_dot_fo(lk_mo_cross_mo(a, b), f), 1e-12);
    /* a x a = 0 and antisymmetry */
    lk_motion aa = lk_mo_cross_mo(a, a);
    LK_ASSERT_NEAR(lk_v3_norm(aa.ang) + lk_v3_norm(aa.lin), 0, 1e-14);
    lk_motion ab = lk_mo_cross_mo(a, b), ba = lk_mo_cross_mo(b, a);
    LK_ASSERT_NEAR(lk_v3_norm(lk_v3_add(ab.ang, ba.ang)) + lk_v3_norm(lk_v3_add(ab.lin, ba.lin)), 0, 1e-13);
  }
}

static void test_spatial_transforms_preserve_power(void) {
  for (int k = 0; k < 200; k++) {
    lk_transform T = rtf();
    lk_motion m = rmo();
    lk_force f = rfo();
    /* Power is frame independent. */
    LK_ASSERT_NEAR(lk_mo_dot_fo(lk_tf_motion(&T, m), lk_tf_force(&T, f)), lk_mo_dot_fo(m, f), 1e-12);
    lk_motion mb = lk_tf_inv_motion(&T, lk_tf_motion(&T, m));
    LK_ASSERT_NEAR(v3_diff(mb.ang, m.ang) + v3_diff(mb.lin, m.lin), 0, 1e-13);
    lk_force fb = lk_tf_inv_force(&T, lk_tf_force(&T, f));
    LK_ASSERT_NEAR(v3_diff(fb.ang, f.ang) + v3_diff(fb.lin, f.lin), 0, 1e-13);
    /* Velocity of a body point: the transformed motion gives v + w x r. */
    lk_vec3 xb = rvec(1);
    lk_vec3 vb = lk_v3_add(m.lin, lk_v3_cross(m.ang, xb));
    lk_motion ma = lk_tf_motion(&T, m);
    lk_vec3 xa = lk_tf_point(&T, xb);
    lk_vec3 va = lk_v3_add(ma.lin, lk_v3_cross(ma.ang, xa));
    LK_ASSERT_NEAR(v3_diff(va, lk_tf_dir(&T, vb)), 0, 1e-12);
  }
}

static void test_spatial_inertia(void) {
  for (int k = 0; k < 100; k++) {
    double m = urand(0.1, 5);
    lk_vec3 c = rvec(0.5);
    lk_mat3 Ic = lk_inertia_solid_box(m, lk_v3(urand(0.05, 1), urand(0.05, 1), urand(0.05, 1)));
    lk_mat3 R0 = lk_q_to_mat3(rquat());
    Ic = lk_m3_rotate_tensor(&R0, &Ic);
    lk_inertia I = lk_inertia_from_com(m, c, &Ic);
    lk_motion v = rmo();
    /* Kinetic energy equals 1/2 m |v_c|^2 + 1/2 w.Ic w. */
    lk_vec3 vc = lk_v3_add(v.lin, lk_v3_cross(v.ang, c));
    double ke = 0.5 * m * lk_v3_norm2(vc) + 0.5 * lk_v3_dot(v.ang, lk_m3_mulv(&Ic, v.ang));
    LK_ASSERT_NEAR(lk_inertia_energy(&I, v), ke, 1e-12);
    /* Transforming the inertia is consistent with transforming motion and
     * force: (X* I X^-1) (X v) = X* (I v). */
    lk_transform T = rtf();
    lk_inertia Ia = lk_tf_inertia(&T, &I);
    lk_force f1 = lk_inertia_mul(&Ia, lk_tf_motion(&T, v));
    lk_force f2 = lk_tf_force(&T, lk_inertia_mul(&I, v));
    LK_ASSERT_NEAR(v3_diff(f1.ang, f2.ang) + v3_diff(f1.lin, f2.lin), 0, 1e-11);
    LK_ASSERT_NEAR(Ia.m, m, 0);
  }
}

static void test_solid_inertias(void) {
  lk_mat3 b = lk_inertia_solid_box(12, lk_v3(0.5, 1, 1.5));
  LK_ASSERT_NEAR(b.m[0][0], 12.0 / 12 * (4 + 9), 1e-13);
  LK_ASSERT_NEAR(b.m[2][2], 12.0 / 12 * (1 + 4), 1e-13);
  lk_mat3 s = lk_inertia_solid_sphere(5, 2);
  LK_ASSERT_NEAR(s.m[1][1], 0.4 * 5 * 4, 1e-13);
  lk_mat3 c = lk_inertia_solid_cylinder(3, 0.5, 1);
  LK_ASSERT_NEAR(c.m[2][2], 0.5 * 3 * 0.25, 1e-14);
  LK_ASSERT_NEAR(c.m[0][0], 3 * (3 * 0.25 + 4) / 12, 1e-14);
  /* A capsule with zero length is a sphere; a very thin one tends to a rod. */
  lk_mat3 k0 = lk_inertia_solid_capsule(5, 2, 0);
  LK_ASSERT_NEAR(k0.m[0][0], s.m[0][0], 1e-12);
  LK_ASSERT_NEAR(k0.m[2][2], s.m[2][2], 1e-12);
  lk_mat3 rod = lk_inertia_solid_capsule(1, 1e-4, 1);
  LK_ASSERT_NEAR(rod.m[0][0], 4.0 / 12, 1e-3);
}

static void test_symmetric_eigen(void) {
  for (int k = 0; k < 200; k++) {
    lk_mat3 R = lk_q_to_mat3(rquat());
    lk_vec3 e = lk_v3(urand(-2, 3), urand(-2, 3), urand(-2, 3));
    if (k % 10 == 0) e.y = e.x; /* repeated eigenvalues */
    lk_mat3 D = lk_m3_diag(e.x, e.y, e.z), A = lk_m3_rotate_tensor(&R, &D);
    lk_vec3 ev;
    lk_mat3 V;
    lk_m3_sym_eigen(&A, &ev, &V);
    double s[3] = {e.x, e.y, e.z};
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2 - i; j++)
        if (s[j] > s[j + 1]) {
          double t = s[j];
          s[j] = s[j + 1];
          s[j + 1] = t;
        }
    LK_ASSERT_NEAR(ev.x, s[0], 1e-13);
    LK_ASSERT_NEAR(ev.y, s[1], 1e-13);
    LK_ASSERT_NEAR(ev.z, s[2], 1e-13);
    LK_ASSERT_NEAR(lk_m3_det(&V), 1, 1e-13);
    lk_mat3 Dv = lk_m3_diag(ev.x, ev.y, ev.z), back = lk_m3_rotate_tensor(&V, &Dv);
    LK_ASSERT_NEAR(m3_maxdiff(&back, &A), 0, 1e-13);
  }
}

static void test_inverse(void) {
  for (int k = 0; k < 100; k++) {
    lk_mat3 A;
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) A.m[i][j] = urand(-1, 1) + (i == j ? 2 : 0);
    lk_mat3 Ai;
    CU_ASSERT_TRUE_FATAL(lk_m3_inverse(&A, &Ai));
    lk_mat3 P = lk_m3_mul(&A, &Ai), I = lk_m3_identity();
    LK_ASSERT_NEAR(m3_maxdiff(&P, &I), 0, 1e-13);
  }
  lk_mat3 S = lk_m3_outer(lk_v3(1, 2, 3), lk_v3(4, 5, 6)), out = lk_m3_identity();
  CU_ASSERT_FALSE(lk_m3_inverse(&S, &out)); /* rank one */
  LK_ASSERT_NEAR(out.m[0][0], 1, 0);         /* untouched */
}

static const lk_test tests[] = {
    {"rotation matrices are orthonormal", test_rotation_matrices_are_orthonormal},
    {"quaternion/matrix round trip", test_quaternion_matrix_round_trip},
    {"quaternion product composes rotations", test_quaternion_product_composes_rotations},
    {"exp and log maps are inverse", test_exp_log_maps},
    {"quaternion integration matches a constant rotation", test_quaternion_integration_matches_constant_rotation},
    {"rpy convention and round trip", test_rpy_round_trip_and_convention},
    {"transform composition and inverse", test_transform_composition_and_inverse},
    {"spatial cross operators: crf = -crm^T", test_spatial_cross_operators},
    {"spatial transforms preserve power", test_spatial_transforms_preserve_power},
    {"spatial inertia energy and transform", test_spatial_inertia},
    {"solid primitive inertias", test_solid_inertias},
    {"symmetric eigen-decomposition", test_symmetric_eigen},
    {"3x3 inverse", test_inverse},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("math", tests); }
