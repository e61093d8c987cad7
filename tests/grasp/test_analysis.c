/* lib/grasp analysis: the simplex LP, contact frames and the grasp matrix,
 * wrench cones, force closure, the Ferrari-Canny epsilon and GWS volume
 * against a closed form, minimum finger forces against the two-finger
 * squeeze (../shared/REFERENCE.md, V6), the object radius. */
#include <math.h>
#include <string.h>

#include "grasp/grasp_internal.h"
#include "harness.h"
#include "linkage/linkage.h"

static lk_grasp_contact contact(lk_vec3 p, lk_vec3 n, double mu, double torsion) {
  lk_grasp_contact c;
  lk_grasp_contact_default(&c);
  c.position = p;
  c.normal = n;
  c.mu = mu;
  c.torsion = torsion;
  return c;
}

/* ------------------------------------------------------------------ LP */

/* Chvatal, "Linear Programming", ch. 2: max 5x1 + 4x2 + 3x3 subject to
 * 2x1 + 3x2 + x3 <= 5, 4x1 + x2 + 2x3 <= 11, 3x1 + 4x2 + 2x3 <= 8: the
 * optimum is 13 at (2, 0, 1), with duals (1, 0, 1) (slacks x4..x6). */
static void test_lp_textbook(void) {
  const double A[3 * 6] = {2, 3, 1, 1, 0, 0, 4, 1, 2, 0, 1, 0, 3, 4, 2, 0, 0, 1};
  const double b[3] = {5, 11, 8}, c[6] = {-5, -4, -3, 0, 0, 0};
  lk_glp p = {3, 6, A, b, c};
  lk_glp_result r;
  double x[6], y[3], obj;
  LK_ASSERT_OK(lk_glp_solve(&p, 0, &r, x, y, &obj, NULL), NULL);
  LK_ASSERT_INT_EQ(r, LK_GLP_OPTIMAL);
  LK_ASSERT_NEAR(obj, -13, 1e-12);
  LK_ASSERT_NEAR(x[0], 2, 1e-12);
  LK_ASSERT_NEAR(x[1], 0, 1e-12);
  LK_ASSERT_NEAR(x[2], 1, 1e-12);
  /* Minimizing -5x1 - ...: the duals of the <= rows are -(1, 0, 1). */
  LK_ASSERT_NEAR(y[0], -1, 1e-12);
  LK_ASSERT_NEAR(y[1], 0, 1e-12);
  LK_ASSERT_NEAR(y[2], -1, 1e-12);
}

/* Beale's example (1955): minimize -3/4 x4 + 20 x5 - 1/2 x6 + 6 x7
 * subject to x1 + x4/4 - 8 x5 - x6 + 9 x7 = 0, x2 + x4/2 - 12 x5 - x6/2 +
 * 3 x7 = 0, x3 + x6 = 1; optimum -5/4 at x4 = x6 = 1, x1 = 3/4. From the
 * basis (x1, x2, x3) the largest-coefficient rule with ratio ties to the
 * lowest index cycles forever; the switch to Bland's rule after a run of
 * degenerate pivots ends the cycle, and the default tie rule (the larger
 * pivot) finds the optimum too. */
static void test_lp_beale_does_not_cycle(void) {
  const double A[3 * 7] = {1, 0, 0, 0.25, -8, -1, 9, 0, 1, 0, 0.5, -12, -0.5, 3,
                           0, 0, 1, 0,    0,  1,  0};
  const double b[3] = {0, 0, 1}, c[7] = {0, 0, 0, -0.75, 20, -0.5, 6};
  lk_glp p = {3, 7, A, b, c};
  lk_glp_result r;
  double x[7], obj;
  int pivots;
  /* The textbook rule alone: the cycle, until the pivot cap. */
  LK_ASSERT_INT_EQ(lk_glp_solve_flags(&p, 500, LK_GLP_TEXTBOOK_TIES | LK_GLP_NO_BLAND, &r, x, NULL,
                                      &obj, &pivots),
                   LK_PIVOT_LIMIT);
  const int flags[2] = {LK_GLP_TEXTBOOK_TIES, 0};
  for (int k = 0; k < 2; k++) {
    LK_ASSERT_OK(lk_glp_solve_flags(&p, 500, flags[k], &r, x, NULL, &obj, &pivots), NULL);
    LK_ASSERT_INT_EQ(r, LK_GLP_OPTIMAL);
    LK_ASSERT_NEAR(obj, -1.25, 1e-12);
    LK_ASSERT_NEAR(x[3], 1, 1e-12);
    LK_ASSERT_NEAR(x[5], 1, 1e-12);
    LK_ASSERT_NEAR(x[0], 0.75, 1e-12);
    CU_ASSERT_TRUE(pivots < 100);
  }
}

/* x1 + x2 = 1 and x1 + x2 = 2 cannot both hold: a Farkas certificate y
 * with A^T y <= 0 and b^T y > 0 comes back. An unbounded one too. */
static void test_lp_infeasible_and_unbounded(void) {
  const double A[4] = {1, 1, 1, 1}, b[2] = {1, 2}, c[2] = {1, 1};
  lk_glp p = {2, 2, A, b, c};
  lk_glp_result r;
  double x[2], y[2];
  LK_ASSERT_OK(lk_glp_solve(&p, 0, &r, x, y, NULL, NULL), NULL);
  LK_ASSERT_INT_EQ(r, LK_GLP_INFEASIBLE);
  CU_ASSERT_TRUE(y[0] + y[1] <= 1e-12);   /* A^T y, both columns */
  CU_ASSERT_TRUE(y[0] + 2 * y[1] > 1e-9); /* b^T y */
  const double A2[2] = {1, -1}, b2[1] = {0}, c2[2] = {-1, 0};
  lk_glp p2 = {1, 2, A2, b2, c2};
  LK_ASSERT_OK(lk_glp_solve(&p2, 0, &r, x, NULL, NULL, NULL), NULL);
  LK_ASSERT_INT_EQ(r, LK_GLP_UNBOUNDED);
}

/* ------------------------------------------- frames, matrix, generators */

static void test_contact_frame_and_grasp_matrix(void) {
  lk_grasp_contact c = contact(lk_v3(0.1, 0.2, 0.3), lk_v3(0, 0, -2), 0.5, 0);
  lk_vec3 n, t1, t2;
  LK_ASSERT_OK(lk_grasp_contact_frame(&c, &n, &t1, &t2), NULL);
  LK_ASSERT_NEAR(n.z, -1, 1e-15);
  LK_ASSERT_NEAR(lk_v3_dot(n, t1), 0, 1e-15);
  LK_ASSERT_NEAR(lk_v3_norm(t1), 1, 1e-15);
  lk_vec3 cr = lk_v3_cross(n, t1);
  LK_ASSERT_NEAR(lk_v3_norm(lk_v3_sub(cr, t2)), 0, 1e-15); /* right-handed */
  /* A given tangent is kept (its normal part dropped). */
  c.tangent = lk_v3(0, 3, 1);
  lk_grasp_contact_frame(&c, &n, &t1, &t2);
  LK_ASSERT_NEAR(t1.y, 1, 1e-15);
  LK_ASSERT_NEAR(t2.x, 1, 1e-15); /* n x t1 = -z x y = x */

  /* Grasp matrix of two contacts, the second soft: 3 + 4 columns; each
   * column the wrench of a unit force (or moment) about the center. */
  lk_grasp_contact cs[2] = {c, contact(lk_v3(-1, 0, 0), lk_v3(1, 0, 0), 0.3, 0.01)};
  LK_ASSERT_INT_EQ(lk_grasp_matrix_columns(cs, 2), 7);
  lk_grasp_options o;
  lk_grasp_options_default(&o);
  o.center = lk_v3(0.1, 0, 0);
  double G[6 * 7];
  LK_ASSERT_OK(lk_grasp_matrix(cs, 2, &o, G, 0, NULL), NULL);
  /* Column 0: force n = (0, 0, -1) at r = (0, 0.2, 0.3): torque r x n =
   * (-0.2, 0, 0). */
  double col0[6] = {0, 0, -1, -0.2, 0, 0};
  for (int k = 0; k < 6; k++) LK_ASSERT_NEAR(G[k * 7 + 0], col0[k], 1e-15);
  /* Column 1: t1 = (0, 1, 0): torque (0, 0.2, 0.3) x (0, 1, 0) = (-0.3, 0, 0). */
  LK_ASSERT_NEAR(G[3 * 7 + 1], -0.3, 1e-15);
  /* Column 6: the second contact's moment about its normal (1, 0, 0). */
  double col6[6] = {0, 0, 0, 1, 0, 0};
  for (int k = 0; k < 6; k++) LK_ASSERT_NEAR(G[k * 7 + 6], col6[k], 1e-15);
}

static void test_wrench_generators(void) {
  lk_grasp_contact c = contact(lk_v3(0, 0, 0.05), lk_v3(0, 0, -1), 0.4, 0.002);
  c.tangent = lk_v3(1, 0, 0);
  lk_grasp_options o;
  lk_grasp_options_default(&o);
  o.edges = 6;
  o.torque_scale = 0.05;
  LK_ASSERT_INT_EQ(lk_grasp_wrench_count(&c, 1, &o), 12);
  double W[12 * 6];
  int who[12];
  double rho;
  LK_ASSERT_OK(lk_grasp_wrenches(&c, 1, &o, W, who, &rho, NULL), NULL);
  LK_ASSERT_NEAR(rho, 0.05, 0);
  for (int i = 0; i < 12; i++) {
    const double *w = W + 6 * i;
    LK_ASSERT_INT_EQ(who[i], 0);
    LK_ASSERT_NEAR(w[2], -1, 1e-15); /* unit normal force */
    LK_ASSERT_NEAR(hypot(w[0], w[1]), 0.4, 1e-15);
    /* torque / rho: (r x f) / rho with r = (0, 0, 0.05) is (-f_y, f_x, 0),
     * plus +-torsion / rho about the normal. */
    LK_ASSERT_NEAR(w[3], -w[1], 1e-15);
    LK_ASSERT_NEAR(w[4], w[0], 1e-15);
    LK_ASSERT_NEAR(fabs(w[5]), 0.04, 1e-15);
  }
  /* The first edge lies along the given tangent. */
  LK_ASSERT_NEAR(W[0], 0.4, 1e-15);
  /* Circumscribed: edges out by 1 / cos(pi / 6). */
  o.circumscribed = 1;
  LK_ASSERT_OK(lk_grasp_wrenches(&c, 1, &o, W, NULL, NULL, NULL), NULL);
  LK_ASSERT_NEAR(hypot(W[0], W[1]), 0.4 / cos(LK_PI / 6), 1e-15);
  /* Bad input is refused. */
  c.normal = lk_v3(0, 0, 0);
  LK_ASSERT_INT_EQ(lk_grasp_wrenches(&c, 1, &o, W, NULL, NULL, NULL), LK_INVALID_ARGUMENT);
  c.normal = lk_v3(0, 0, 1);
  c.mu = -1;
  LK_ASSERT_INT_EQ(lk_grasp_wrenches(&c, 1, &o, W, NULL, NULL, NULL), LK_INVALID_ARGUMENT);
  c.mu = 0.4;
  o.edges = 2;
  LK_ASSERT_INT_EQ(lk_grasp_wrenches(&c, 1, &o, W, NULL, NULL, NULL), LK_INVALID_ARGUMENT);
}

/* -------------------------------------------------------- force closure */

/* Two contacts on a sphere of radius r, at its poles, pressing inwards. */
static void antipodal(lk_grasp_contact c[2], double r, double mu, double torsion) {
  c[0] = contact(lk_v3(0, 0, r), lk_v3(0, 0, -1), mu, torsion);
  c[1] = contact(lk_v3(0, 0, -r), lk_v3(0, 0, 1), mu, torsion);
  c[0].tangent = c[1].tangent = lk_v3(1, 0, 0);
}

static void test_force_closure_cases(void) {
  lk_grasp_contact c[3];
  lk_grasp_closure_report r;
  lk_error e;
  /* Two frictionless antipodal contacts: forces along one line only. */
  antipodal(c, 0.05, 0, 0);
  LK_ASSERT_OK(lk_grasp_force_closure(c, 2, NULL, &r, &e), &e);
  CU_ASSERT_FALSE(r.closed);
  LK_ASSERT_INT_EQ(r.reason, LK_GRASP_DEGENERATE);
  LK_ASSERT_INT_EQ(r.rank, 1);
  LK_ASSERT_NEAR(r.unresisted[2], 0, 1e-12); /* orthogonal to the z force */
  LK_ASSERT_MSG(strstr(r.detail, "1 of 6") != NULL, "%s", r.detail);
  /* With friction but hard fingers: nothing resists a twist about the
   * axis through the contacts. */
  antipodal(c, 0.05, 0.5, 0);
  LK_ASSERT_OK(lk_grasp_force_closure(c, 2, NULL, &r, &e), &e);
  CU_ASSERT_FALSE(r.closed);
  LK_ASSERT_INT_EQ(r.rank, 5);
  LK_ASSERT_NEAR(fabs(r.unresisted[5]), 1, 1e-9);
  LK_ASSERT_MSG(strstr(r.detail, "torque about (0, 0, 1)") != NULL, "%s", r.detail);
  /* With torsion (soft fingers): force closure. */
  antipodal(c, 0.05, 0.5, 0.002);
  LK_ASSERT_OK(lk_grasp_force_closure(c, 2, NULL, &r, &e), &e);
  CU_ASSERT_TRUE(r.closed);
  LK_ASSERT_INT_EQ(r.reason, LK_GRASP_CLOSED);
  /* Symmetric: equal weights on all 32 generators sum to zero. */
  LK_ASSERT_NEAR(r.margin, 1, 1e-9);
  /* Three contacts 120 degrees apart on a disk's rim, normals to the
   * centre: closed with any friction, not without. */
  for (int pass = 0; pass < 2; pass++) {
    double mu = pass ? 0.2 : 0;
    for (int k = 0; k < 3; k++) {
      double a = 2 * LK_PI * k / 3;
      c[k] = contact(lk_v3(0.04 * cos(a), 0.04 * sin(a), 0), lk_v3(-cos(a), -sin(a), 0), mu, 0);
    }
    LK_ASSERT_OK(lk_grasp_force_closure(c, 3, NULL, &r, &e), &e);
    LK_ASSERT_INT_EQ(r.closed, pass);
    if (!pass) LK_ASSERT_INT_EQ(r.rank, 2); /* in-plane forces through the centre */
  }
  /* No contacts. */
  LK_ASSERT_OK(lk_grasp_force_closure(NULL, 0, NULL, &r, &e), &e);
  LK_ASSERT_INT_EQ(r.reason, LK_GRASP_NO_CONTACTS);
}

/* A box standing on three frictional feet: every wrench but a pull away
 * from the feet is resisted; the LP says one-sided and names a wrench u
 * that the generators cannot oppose (u . w_i >= 0 for all of them). */
static void test_force_closure_one_sided(void) {
  lk_grasp_contact c[3];
  for (int k = 0; k < 3; k++) {
    double a = 2 * LK_PI * k / 3;
    c[k] = contact(lk_v3(0.05 * cos(a), 0.05 * sin(a), -0.02), lk_v3(0, 0, 1), 0.6, 0);
  }
  lk_grasp_options o;
  lk_grasp_options_default(&o);
  lk_grasp_closure_report r;
  LK_ASSERT_OK(lk_grasp_force_closure(c, 3, &o, &r, NULL), NULL);
  CU_ASSERT_FALSE(r.closed);
  LK_ASSERT_INT_EQ(r.rank, 6);
  LK_ASSERT_INT_EQ(r.reason, LK_GRASP_ONE_SIDED);
  int N = lk_grasp_wrench_count(c, 3, &o);
  double W[3 * 8 * 6];
  lk_grasp_wrenches(c, 3, &o, W, NULL, NULL, NULL);
  double worst = INFINITY, norm = 0;
  for (int k = 0; k < 6; k++) norm += r.unresisted[k] * r.unresisted[k];
  for (int i = 0; i < N; i++) {
    double dot = 0;
    for (int k = 0; k < 6; k++) dot += r.unresisted[k] * W[6 * i + k];
    worst = fmin(worst, dot);
  }
  LK_ASSERT_NEAR(norm, 1, 1e-12);
  LK_ASSERT_MSG(worst > 0, "u . w_i >= 0 fails: min %.3g", worst);
  LK_ASSERT_MSG(r.unresisted[2] > 0.5, "unresisted wrench (%.3g, %.3g, %.3g, ...) is not a lift",
                r.unresisted[0], r.unresisted[1], r.unresisted[2]);
  LK_ASSERT_MSG(strstr(r.detail, "outside") != NULL, "%s", r.detail);
}

/* ------------------------------------------------------ epsilon, volume */

/* The closed form. Two soft contacts at the poles (0, 0, +-r) of a sphere,
 * inward normals, friction mu with `edges` inscribed edges starting along
 * x at both contacts, torsion gamma; torque scale rho = r. The top
 * contact's generators are (mu e, -1 | -mu e^perp, +-g) and the bottom's
 * (mu e, 1 | mu e^perp, +-g), e = (cos a, sin a), e^perp = (-sin a, cos a),
 * g = gamma / r. In the orthonormal coordinates p = (f_xy + b) / sqrt 2,
 * q = (f_xy - b) / sqrt 2 with b = (tau_y, -tau_x) they are
 *   top (sqrt2 mu e, 0, -1, +-g),   bottom (0, sqrt2 mu e, 1, +-g),
 * so the support function in a unit direction u = (u_p, u_q, z, t) is
 *   h(u) = max(K H(u_p) - z, K H(u_q) + z) + g |t|,  K = sqrt2 mu,
 * where H is the support function of the unit regular polygon's vertices,
 * H(v) >= cos(pi / edges) |v| with equality between two vertices. The
 * inradius, min h over unit u, is reached with t = 0 or |t| = 1 (h is
 * concave in t along sqrt(1 - t^2) (...) + g t); at t = 0 the max of the
 * two terms is smallest when they are equal, z = K c (|u_p| - |u_q|) / 2,
 * and minimizing K c (|u_p| + |u_q|) / 2 on the resulting ellipse puts
 * u_q = 0: h = K c / sqrt(4 + K^2 c^2), c = cos(pi / edges). Hence
 *   epsilon = min(sqrt2 mu c / sqrt(4 + 2 mu^2 c^2), gamma / r).
 * The hull is conv(X) x [-g, g] (every point of X appears with both signs
 * of the torsion), so its volume is proportional to gamma. */
static double sphere_epsilon(double mu, int edges, double gamma, double r) {
  double c = cos(LK_PI / edges), K = sqrt(2.0) * mu * c;
  return fmin(K / sqrt(4 + K * K), gamma / r);
}

static void test_epsilon_closed_form(void) {
  const struct {
    double mu, gamma;
    int edges;
  } cases[] = {{0.5, 0.02, 8}, {0.5, 0.005, 8}, {0.3, 0.05, 6}, {1.0, 0.04, 12}};
  const double r = 0.05;
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    lk_grasp_contact c[2];
    antipodal(c, r, cases[k].mu, cases[k].gamma);
    lk_grasp_options o;
    lk_grasp_options_default(&o);
    o.edges = cases[k].edges;
    o.torque_scale = r;
    lk_grasp_quality q;
    lk_error e;
    LK_ASSERT_OK(lk_grasp_quality_compute(c, 2, &o, &q, &e), &e);
    double want = sphere_epsilon(cases[k].mu, cases[k].edges, cases[k].gamma, r);
    LK_ASSERT_NEAR(q.epsilon, want, 1e-6);
    CU_ASSERT_TRUE(q.force_closure);
    LK_ASSERT_INT_EQ(q.nwrenches, 4 * cases[k].edges);
    /* Half the torsion: half the volume. */
    double v = q.volume;
    antipodal(c, r, cases[k].mu, cases[k].gamma / 2);
    LK_ASSERT_OK(lk_grasp_quality_compute(c, 2, &o, &q, &e), &e);
    LK_ASSERT_REL(q.volume, v / 2, 1e-9, 0);
  }
  /* Hard fingers: a flat hull, epsilon and volume 0. */
  lk_grasp_contact c[2];
  antipodal(c, r, 0.5, 0);
  lk_grasp_quality q;
  LK_ASSERT_OK(lk_grasp_quality_compute(c, 2, NULL, &q, NULL), NULL);
  LK_ASSERT_NEAR(q.epsilon, 0, 0);
  LK_ASSERT_NEAR(q.volume, 0, 0);
  CU_ASSERT_FALSE(q.force_closure);
  LK_ASSERT_INT_EQ(q.rank, 5);
}

/* A rotation and a translation of the whole grasp (points, normals,
 * tangents and the centre) change neither epsilon nor volume: the GWS is
 * only rotated (diag(R, R) is orthogonal). */
static void test_epsilon_rotation_invariance(void) {
  lk_grasp_contact c[5];
  /* An irregular five-finger grasp of a 4 cm ball, some fingers soft. */
  const double dirs[5][3] = {{1, 0.2, 0.1}, {-0.7, 0.8, -0.3}, {-0.4, -0.9, 0.2},
                             {0.1, -0.2, 1}, {0.3, 0.4, -1}};
  for (int k = 0; k < 5; k++) {
    lk_vec3 u = lk_v3_normalize(lk_v3(dirs[k][0], dirs[k][1], dirs[k][2]));
    c[k] = contact(lk_v3_scale(u, 0.04), lk_v3_neg(u), 0.3 + 0.1 * k, k % 2 ? 0.003 : 0);
    c[k].tangent = lk_v3_cross(u, lk_v3(0.3, 1, 0.2));
  }
  lk_grasp_options o;
  lk_grasp_options_default(&o);
  o.torque_scale = 0.04;
  lk_grasp_quality q0, q1;
  LK_ASSERT_OK(lk_grasp_quality_compute(c, 5, &o, &q0, NULL), NULL);
  CU_ASSERT_TRUE(q0.force_closure);
  CU_ASSERT_TRUE(q0.epsilon > 0.05);
  const double axes[3][3] = {{1, 2, 3}, {-1, 0.5, 0}, {0, 0, 1}};
  const double angles[3] = {0.7, 2.9, -1.3};
  for (int t = 0; t < 3; t++) {
    lk_mat3 R = lk_m3_from_axis_angle(lk_v3_normalize(lk_v3(axes[t][0], axes[t][1], axes[t][2])),
                                      angles[t]);
    lk_vec3 shift = lk_v3(0.3 * t, -0.1, 2.0);
    lk_grasp_contact cr[5];
    for (int k = 0; k < 5; k++) {
      cr[k] = c[k];
      cr[k].position = lk_v3_add(lk_m3_mulv(&R, c[k].position), shift);
      cr[k].normal = lk_m3_mulv(&R, c[k].normal);
      cr[k].tangent = lk_m3_mulv(&R, c[k].tangent);
    }
    lk_grasp_options orot = o;
    orot.center = shift;
    LK_ASSERT_OK(lk_grasp_quality_compute(cr, 5, &orot, &q1, NULL), NULL);
    LK_ASSERT_NEAR(q1.epsilon, q0.epsilon, 1e-9);
    LK_ASSERT_REL(q1.volume, q0.volume, 1e-9, 0);
    lk_grasp_closure_report fc;
    LK_ASSERT_OK(lk_grasp_force_closure(cr, 5, &orot, &fc, NULL), NULL);
    CU_ASSERT_TRUE(fc.closed);
  }
}

/* A pinch from a real screen that qhull's facet merging could not hull
 * ("wide merge", a precision error; the screen reported the candidate as
 * an error): the PyBullet 2F-85's pads on the YCB foam brick, three
 * contacts on one pad and four on the other, soft (4 mm patches), as the
 * screen found them (bench/real_hands, candidate 1 in 200 of seed 1). The
 * grasp is a force closure; its epsilon is what the same grasp turned and
 * moved elsewhere gives, and what lk_grasp_epsilon (the screen's call)
 * gives. */
static void test_epsilon_of_a_flat_pinch(void) {
  static const double pinch[7][11] = {
      {0.0080654100031672012, -0.031946184753535119, 0.032686907811376328, -0.057158635901411015,
       0.020806897938885918, -0.99814826721286787},
      {-0.002992850943251431, -0.026071374846381123, 0.033442619095138508, -0.057158635901411015,
       0.020806897938885918, -0.99814826721286787},
      {0.0021422542640947536, -0.048217687756162447, 0.032686907814329549, -0.057158635901411015,
       0.020806897938885918, -0.99814826721286787},
      {-0.012161677317811041, -0.02169523449128196, -0.017808123179297426, 0.057158671294551017,
       -0.020806909897563917, 0.99814826493680597},
      {-0.00081690540554383846, -0.047140493988928361, -0.018988197672380927,
       0.057158671294551017, -0.020806909897563917, 0.99814826493680597},
      {-0.021640930801664359, -0.039560127401410891, -0.017637699288930817, 0.057158671294551017,
       -0.020806909897563917, 0.99814826493680597},
      {-0.0059520107735256565, -0.024994180928249312, -0.018232486154657751,
       0.057158671294551017, -0.020806909897563917, 0.99814826493680597}};
  lk_grasp_contact c[7];
  for (int k = 0; k < 7; k++) {
    c[k] = contact(lk_v3(pinch[k][0], pinch[k][1], pinch[k][2]),
                   lk_v3(pinch[k][3], pinch[k][4], pinch[k][5]), 0.5, 0.0011780972450961724);
    c[k].finger = k < 3 ? 0 : 1;
  }
  lk_grasp_options o;
  lk_grasp_options_default(&o);
  o.torque_scale = 0.060931903107888034;
  o.center = lk_v3(-0.013, -0.005, 0);
  lk_grasp_quality q;
  lk_error e;
  LK_ASSERT_OK(lk_grasp_quality_compute(c, 7, &o, &q, &e), &e);
  CU_ASSERT_TRUE(q.force_closure);
  LK_ASSERT_MSG(q.epsilon > 0.01, "epsilon %.6g", q.epsilon);
  double eps = -1;
  LK_ASSERT_OK(lk_grasp_epsilon(c, 7, &o, &eps, NULL, &e), &e);
  LK_ASSERT_REL(eps, q.epsilon, 1e-9, 0);
  lk_mat3 R = lk_m3_from_axis_angle(lk_v3_normalize(lk_v3(0.3, -1, 2)), 0.9);
  lk_vec3 shift = lk_v3(0.2, 0.7, -0.4);
  lk_grasp_contact cr[7];
  for (int k = 0; k < 7; k++) {
    /* the cone's edges turned with it: the tangent the screen's frame had */
    lk_vec3 n, t1, t2;
    LK_ASSERT_OK(lk_grasp_contact_frame(&c[k], &n, &t1, &t2), NULL);
    cr[k] = c[k];
    cr[k].position = lk_v3_add(lk_m3_mulv(&R, c[k].position), shift);
    cr[k].normal = lk_m3_mulv(&R, c[k].normal);
    cr[k].tangent = lk_m3_mulv(&R, t1);
  }
  lk_grasp_options orot = o;
  orot.center = lk_v3_add(lk_m3_mulv(&R, o.center), shift);
  lk_grasp_quality qr;
  LK_ASSERT_OK(lk_grasp_quality_compute(cr, 7, &orot, &qr, &e), &e);
  LK_ASSERT_REL(qr.epsilon, q.epsilon, 1e-9, 0);
  LK_ASSERT_REL(qr.volume, q.volume, 1e-9, 0);
}

/* ---------------------------------------------------------- min force */

/* V6: a box of mass m squeezed by two opposed pads (normals along y),
 * gravity along -z in their plane. With a cone edge along gravity the
 * smallest finger force is m g / (2 mu); with gravity midway between two
 * edges of the inscribed pyramid, m g / (2 mu cos(pi / k)); the
 * circumscribed pyramid gives m g / (2 mu) again. Each pad touches at the
 * four corners of a 2 x 2 cm square (one finger per pad). */
static void squeeze(lk_grasp_contact c[8], double mu, lk_vec3 tangent) {
  for (int side = 0; side < 2; side++)
    for (int k = 0; k < 4; k++) {
      double s = side ? -1 : 1;
      lk_grasp_contact *p = &c[4 * side + k];
      *p = contact(lk_v3(k & 1 ? 0.01 : -0.01, s * 0.025, k & 2 ? 0.01 : -0.01), lk_v3(0, -s, 0),
                   mu, 0);
      p->tangent = tangent;
      p->finger = side;
    }
}

static void test_min_force_two_finger_squeeze(void) {
  const double m = 1.0, g = 9.81;
  lk_force weight = lk_fo(lk_v3_zero(), lk_v3(0, 0, -m * g));
  const double mus[] = {0.3, 0.5, 0.7, 1.0};
  for (size_t k = 0; k < sizeof mus / sizeof mus[0]; k++) {
    double mu = mus[k];
    lk_grasp_contact c[8];
    lk_grasp_options o;
    lk_grasp_options_default(&o);
    lk_grasp_force_result res;
    double fn[8];
    lk_vec3 f[8];
    lk_error e;
    squeeze(c, mu, lk_v3(0, 0, 1)); /* an edge along gravity */
    LK_ASSERT_OK(lk_grasp_min_force(c, 8, &o, weight, LK_GRASP_MIN_MAX_FINGER, &res, fn, f, &e),
                 &e);
    LK_ASSERT_REL(res.force, m * g / (2 * mu), 1e-9, 0);
    /* The forces balance the weight. */
    lk_vec3 sum = lk_v3_zero();
    double pad0 = 0;
    for (int i = 0; i < 8; i++) {
      sum = lk_v3_add(sum, f[i]);
      if (i < 4) pad0 += fn[i];
    }
    LK_ASSERT_NEAR(sum.z, m * g, 1e-9);
    LK_ASSERT_NEAR(sum.y, 0, 1e-9);
    LK_ASSERT_REL(pad0, m * g / (2 * mu), 1e-9, 0);
    /* Gravity between two edges of the 8-edge pyramid. */
    lk_vec3 t = lk_v3(sin(LK_PI / 8), 0, cos(LK_PI / 8));
    squeeze(c, mu, t);
    LK_ASSERT_OK(lk_grasp_min_force(c, 8, &o, weight, LK_GRASP_MIN_MAX_FINGER, &res, NULL, NULL,
                                    &e),
                 &e);
    LK_ASSERT_REL(res.force, m * g / (2 * mu * cos(LK_PI / 8)), 1e-9, 0);
    o.circumscribed = 1;
    LK_ASSERT_OK(lk_grasp_min_force(c, 8, &o, weight, LK_GRASP_MIN_MAX_FINGER, &res, NULL, NULL,
                                    &e),
                 &e);
    LK_ASSERT_REL(res.force, m * g / (2 * mu), 1e-9, 0);
    /* The total normal force, minimized: m g / mu. */
    o.circumscribed = 0;
    squeeze(c, mu, lk_v3(0, 0, 1));
    LK_ASSERT_OK(lk_grasp_min_force(c, 8, &o, weight, LK_GRASP_MIN_TOTAL, &res, NULL, NULL, &e),
                 &e);
    LK_ASSERT_REL(res.total, m * g / mu, 1e-9, 0);
  }
  /* V6's number: mu 0.5, 8 edges, gravity between edges: 10.618 N. */
  lk_grasp_contact c[8];
  squeeze(c, 0.5, lk_v3(sin(LK_PI / 8), 0, cos(LK_PI / 8)));
  lk_grasp_force_result res;
  LK_ASSERT_OK(lk_grasp_min_force(c, 8, NULL, weight, LK_GRASP_MIN_MAX_FINGER, &res, NULL, NULL,
                                  NULL),
               NULL);
  LK_ASSERT_NEAR(res.force, 10.618, 5e-4);
  /* Frictionless pads cannot hold it at all. */
  squeeze(c, 0, lk_v3(0, 0, 1));
  lk_error e;
  LK_ASSERT_INT_EQ(lk_grasp_min_force(c, 8, NULL, weight, LK_GRASP_MIN_MAX_FINGER, &res, NULL,
                                      NULL, &e),
                   LK_NO_SOLUTION);
  LK_ASSERT_MSG(strstr(e.message, "no contact forces") != NULL, "%s", e.message);
}

/* An arbitrary wrench (a force and a moment): the forces found balance it
 * and stay inside each contact's cone. */
static void test_min_force_balances_a_moment(void) {
  lk_grasp_contact c[8];
  squeeze(c, 0.6, lk_v3(0, 0, 1));
  lk_force w = lk_fo(lk_v3(0.05, 0.02, -0.03), lk_v3(0.5, 0, -2));
  double fn[8];
  lk_vec3 f[8];
  lk_grasp_force_result res;
  lk_error e;
  LK_ASSERT_OK(lk_grasp_min_force(c, 8, NULL, w, LK_GRASP_MIN_MAX_FINGER, &res, fn, f, &e), &e);
  lk_vec3 F = w.lin, M = w.ang;
  for (int i = 0; i < 8; i++) {
    F = lk_v3_add(F, f[i]);
    M = lk_v3_add(M, lk_v3_cross(c[i].position, f[i]));
    CU_ASSERT_TRUE(fn[i] >= 0);
    /* inside the contact's friction cone */
    double tang = lk_v3_norm(lk_v3_madd(f[i], c[i].normal, -lk_v3_dot(f[i], c[i].normal)));
    CU_ASSERT_TRUE(tang <= 0.6 * fn[i] + 1e-9);
  }
  LK_ASSERT_NEAR(lk_v3_norm(F), 0, 1e-9);
  LK_ASSERT_NEAR(lk_v3_norm(M), 0, 1e-9);
}

/* --------------------------------------------------------- object radius */

static void test_object_radius(void) {
  lk_model *m = lk_model_new();
  lk_link_spec s;
  lk_link_spec_default(&s);
  s.name = "obj";
  s.joint.type = LK_JOINT_FREE;
  s.mass = 1;
  s.com = lk_v3(0.01, 0, 0);
  s.inertia = lk_m3_diag(0.01, 0.01, 0.01);
  lk_model_add_link(m, &s, NULL);
  lk_geom_spec g;
  lk_geom_spec_default(&g);
  g.link = "obj";
  g.type = LK_GEOM_BOX;
  g.size[0] = 0.03;
  g.size[1] = 0.02;
  g.size[2] = 0.01;
  lk_model_add_geom(m, &g, NULL);
  g.type = LK_GEOM_SPHERE;
  g.size[0] = 0.01;
  g.pose.p = lk_v3(0, 0, 0.05);
  lk_model_add_geom(m, &g, NULL);
  LK_ASSERT_OK(lk_model_finalize(m, NULL), NULL);
  double r;
  LK_ASSERT_OK(lk_grasp_object_radius(m, 1, &r, NULL), NULL);
  /* Box corner (-0.03, 0.02, 0.01) from the com: sqrt(0.04^2 + 0.02^2 +
   * 0.01^2) = 0.0458; the sphere's far side: sqrt(0.01^2 + 0.05^2) + 0.01
   * = 0.0610. */
  LK_ASSERT_NEAR(r, sqrt(0.01 * 0.01 + 0.05 * 0.05) + 0.01, 1e-15);
  lk_model_free(m);
  /* A cylinder (r 0.03, half length 0.06) about its centre:
   * sqrt(0.03^2 + 0.06^2). */
  lk_model *c = lk_model_load_file(lk_test_srcpath("mechanisms/object_cylinder.yaml"), NULL, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(c);
  LK_ASSERT_OK(lk_grasp_object_radius(c, 1, &r, NULL), NULL);
  LK_ASSERT_NEAR(r, sqrt(0.03 * 0.03 + 0.06 * 0.06), 1e-15);
  LK_ASSERT_INT_EQ(lk_grasp_object_radius(c, 0, &r, NULL), LK_INVALID_ARGUMENT);
  lk_model_free(c);
}

/* Two point contacts can exert no moment about the line through them, so
 * a weight whose line of action misses that line cannot be balanced,
 * whatever the forces. The contacts of a parallel-jaw grasp of a cylinder
 * from a planner run (jaw_gripper + object_cylinder, candidate 14 of seed
 * 1; the trial's numbers), whose line misses the centre of mass by 4.6 um:
 * the simplex's basis "balanced" the weight with normal forces of 6e10 N
 * through rounding; the answer is no solution. */
static void test_min_force_beyond_the_geometry_is_no_solution(void) {
  lk_grasp_contact c[2];
  for (int i = 0; i < 2; i++) {
    lk_grasp_contact_default(&c[i]);
    c[i].mu = 0.7745966692414834;
    c[i].finger = i;
  }
  c[0].position = lk_v3(-0.021946443689890502, -0.019183840461736663, 0.08330246684882911);
  c[0].normal = lk_v3(0.75255972932457471, 0.65746447883649206, -0.037340499021607049);
  c[1].position = lk_v3(0.021954278991155776, 0.019178484430262387, 0.036698427716396725);
  c[1].normal = lk_v3(-0.75255972932723003, -0.65746447883197667, 0.037340499047596253);
  const double m = 0.3, g = 9.81;
  lk_force weight = lk_fo(lk_v3_zero(), lk_v3(0, 0, -m * g));
  lk_grasp_options o;
  lk_grasp_options_default(&o);
  o.edges = 8;
  o.center = lk_v3(3.8937903490056704e-06, -2.4777192704537918e-06, 0.060003483794013171);
  o.torque_scale = sqrt(0.03 * 0.03 + 0.06 * 0.06); /* the trial's: the cylinder's radius */
  lk_grasp_force_result res;
  lk_error e;
  memset(&res, 0, sizeof res);
  lk_status st = lk_grasp_min_force(c, 2, &o, weight, LK_GRASP_MIN_MAX_FINGER, &res, NULL, NULL, &e);
  LK_ASSERT_MSG(st == LK_NO_SOLUTION, "%s, force %.3g N", lk_status_name(st), res.force);
  if (st == LK_NO_SOLUTION)
    LK_ASSERT_MSG(strstr(e.message, "no contact forces") != NULL, "%s", e.message);
  /* The same pads with the centre of mass on their line: balanced (the
   * line is tilted against the normals, so the pads' couple takes friction
   * as well), by forces that sum to the weight. */
  o.center = lk_v3_scale(lk_v3_add(c[0].position, c[1].position), 0.5);
  lk_vec3 f[2];
  LK_ASSERT_OK(lk_grasp_min_force(c, 2, &o, weight, LK_GRASP_MIN_MAX_FINGER, &res, NULL, f, &e),
               &e);
  LK_ASSERT_MSG(res.force > m * g / (2 * c[0].mu) && res.force < 100 * m * g, "force %.6g N",
                res.force);
  lk_vec3 sum = lk_v3_add(f[0], f[1]);
  LK_ASSERT_NEAR(sum.x, 0, 1e-9);
  LK_ASSERT_NEAR(sum.y, 0, 1e-9);
  LK_ASSERT_NEAR(sum.z, m * g, 1e-9);
}

/* Two soft pads pinch an object across x (contacts at x = -w and x = +w on
 * the line y = z = 0, normals into it, t1 = +z so that a cone edge points
 * straight up), its centre of mass a distance d off that line at (0, d, 0).
 * The weight m g pulls down at the centre of mass: the pads' friction
 * carries the force, 2 mu f >= m g, and, about the pad line, only their
 * torsion carries the weight's moment m g d, 2 k f >= m g d (the pads'
 * friction forces both act at y = 0 and make no moment about it). So the
 * grip each pad needs is f = max(m g / (2 mu), m g d / (2 k)): a pinch
 * through the centre of mass needs the friction bound, one 2 cm off it
 * the torsion bound, 10 times more here. A second load, the weight with a
 * sideways push of m g along y at the centre of mass, needs
 * sqrt(2) m g / (2 mu) on the line (the cone edges of the inscribed
 * octagonal pyramid at 45 deg reach mu); the largest over both loads is
 * reported, with its index. */
static void test_load_force_of_a_pinch_off_the_centre_of_mass(void) {
  const double w = 0.03, mu = 0.8, k = 0.8 * 0.004, m = 0.5, g = 9.81;
  lk_grasp_contact c[2];
  c[0] = contact(lk_v3(-w, 0, 0), lk_v3(1, 0, 0), mu, k);
  c[1] = contact(lk_v3(w, 0, 0), lk_v3(-1, 0, 0), mu, k);
  for (int i = 0; i < 2; i++) {
    c[i].tangent = lk_v3(0, 0, 1);
    c[i].finger = i;
  }
  lk_force loads[2] = {lk_fo(lk_v3_zero(), lk_v3(0, 0, -m * g)),
                       lk_fo(lk_v3_zero(), lk_v3(0, m * g, -m * g))};
  lk_grasp_options o;
  lk_grasp_options_default(&o);
  lk_error e;
  const double ds[2] = {0, 0.02};
  for (int i = 0; i < 2; i++) {
    o.center = lk_v3(0, ds[i], 0);
    double f = -1;
    int worst = -2;
    LK_ASSERT_OK(lk_grasp_load_force(c, 2, &o, loads, 1, &f, &worst, &e), &e);
    double want = fmax(m * g / (2 * mu), m * g * ds[i] / (2 * k));
    LK_ASSERT_NEAR(f, want, 1e-9 * want);
    LK_ASSERT_INT_EQ(worst, 0);
  }
  o.center = lk_v3_zero();
  double f;
  int worst;
  LK_ASSERT_OK(lk_grasp_load_force(c, 2, &o, loads, 2, &f, &worst, &e), &e);
  LK_ASSERT_NEAR(f, sqrt(2.0) * m * g / (2 * mu), 1e-9);
  LK_ASSERT_INT_EQ(worst, 1);
  /* No loads: 0; hard pads off the centre of mass: the moment about the
   * pad line cannot be carried at all. */
  LK_ASSERT_OK(lk_grasp_load_force(c, 2, &o, loads, 0, &f, &worst, &e), &e);
  LK_ASSERT_NEAR(f, 0, 0);
  LK_ASSERT_INT_EQ(worst, -1);
  c[0].torsion = c[1].torsion = 0;
  o.center = lk_v3(0, 0.02, 0);
  LK_ASSERT_OK(lk_grasp_load_force(c, 2, &o, loads, 2, &f, &worst, &e), &e);
  CU_ASSERT(isinf(f));
  LK_ASSERT_INT_EQ(worst, 0);
  LK_ASSERT_INT_EQ(lk_grasp_load_force(c, 2, &o, NULL, 2, &f, NULL, &e), LK_INVALID_ARGUMENT);
}

void lk_test_register(void) {
  static const lk_test lp[] = {
      {"simplex: a textbook LP and its duals", test_lp_textbook},
      {"simplex: Beale's cycling example terminates", test_lp_beale_does_not_cycle},
      {"simplex: infeasible (Farkas) and unbounded", test_lp_infeasible_and_unbounded},
      {NULL, NULL}};
  static const lk_test cones[] = {
      {"contact frames and the grasp matrix", test_contact_frame_and_grasp_matrix},
      {"wrench cone generators", test_wrench_generators},
      {NULL, NULL}};
  static const lk_test closure[] = {
      {"antipodal (frictionless, hard, soft), 3 on a disk rim", test_force_closure_cases},
      {"one-sided: the unresisted wrench", test_force_closure_one_sided},
      {NULL, NULL}};
  static const lk_test quality[] = {
      {"epsilon of two soft fingers on a sphere: closed form", test_epsilon_closed_form},
      {"epsilon and volume invariant under moving the grasp", test_epsilon_rotation_invariance},
      {"epsilon of a flat pinch whose facets qhull cannot merge", test_epsilon_of_a_flat_pinch},
      {NULL, NULL}};
  static const lk_test force[] = {
      {"two-finger squeeze: m g / (2 mu), pyramid artifact", test_min_force_two_finger_squeeze},
      {"forces balance a wrench inside the cones", test_min_force_balances_a_moment},
      {"forces beyond the geometry's precision are no solution",
       test_min_force_beyond_the_geometry_is_no_solution},
      {"object radius", test_object_radius},
      {"load force: a pinch off the centre of mass (closed form)",
       test_load_force_of_a_pinch_off_the_centre_of_mass},
      {NULL, NULL}};
  lk_test_suite("grasp lp", lp);
  lk_test_suite("grasp cones", cones);
  lk_test_suite("grasp closure", closure);
  lk_test_suite("grasp quality", quality);
  lk_test_suite("grasp forces", force);
}
