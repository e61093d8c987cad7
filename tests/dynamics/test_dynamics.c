/* Rigid-body algorithms: kinematics, Jacobians, CRBA, factorization, RNEA,
 * ABA, passive forces, energy and momentum, on random trees of every joint
 * type. Every reference here is computed by a route independent of the
 * code it checks: finite differences of forward kinematics, kinetic
 * energy from link velocities, or a different algorithm. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "mech.h"

#define MAXV 200

static const lk_vec3 kGravity = {0, 0, -9.81};

static lk_model *tree(mech_rng *r, int n, int passive, int armature) {
  mech_tree_opts o = {n, 0, passive, passive, armature, kGravity, 0};
  lk_model *m = mech_random_tree(r, &o);
  LK_ASSERT_MSG(m != NULL, "random tree of %d links failed to build", n);
  return m;
}

/* Every entry of M against the kinetic energy computed from the link
 * velocities: M_ii = 2 T(e_i), M_ij = T(e_i + e_j) - T(e_i) - T(e_j). */
static void test_mass_matrix_is_the_kinetic_energy_form(void) {
  mech_rng r = {11};
  for (int n = 1; n <= 30; n += 3) {
    lk_model *m = tree(&r, n, 0, 1);
    if (!m) return;
    lk_data *d = lk_data_new(m);
    int nv = lk_model_nv(m);
    mech_random_state(&r, m, d, 1.0);
    LK_ASSERT_OK(lk_mass_matrix(m, d), (lk_error *)NULL);
    double *Mc = malloc(sizeof(double) * (size_t)(nv * nv + 1));
    LK_ASSERT_OK(lk_mass_matrix_dense(m, d, Mc), (lk_error *)NULL);
    double scale = fmax(1.0, mech_maxabs(Mc, nv * nv));
    double *v = lk_data_v(d), *Ti = malloc(sizeof(double) * (size_t)(nv + 1));
    double worst = 0;
    for (int i = 0; i < nv; i++) {
      memset(v, 0, sizeof(double) * (size_t)nv);
      v[i] = 1;
      lk_energy_kinetic(m, d, &Ti[i]);
      worst = fmax(worst, fabs(Mc[i * nv + i] - 2 * Ti[i]));
    }
    for (int i = 0; i < nv; i++)
      for (int j = 0; j < i; j++) {
        memset(v, 0, sizeof(double) * (size_t)nv);
        v[i] = v[j] = 1;
        double T;
        lk_energy_kinetic(m, d, &T);
        worst = fmax(worst, fabs(Mc[i * nv + j] - (T - Ti[i] - Ti[j])));
        worst = fmax(worst, fabs(Mc[i * nv + j] - Mc[j * nv + i]));
      }
    LK_ASSERT_MSG(worst <= 1e-12 * scale, "tree of %d links (nv %d): M vs kinetic energy off by %g",
                  n, nv, worst);
    free(Mc);
    free(Ti);
    lk_data_free(d);
    lk_model_free(m);
  }
}

/* tau_gen of a world wrench (n, f) about the world origin on a link:
 * J_ang^T n + J_lin(o)^T f, with J_lin at the body point at the origin. */
static void wrench_to_generalized(const lk_model *m, lk_data *d, int link, lk_force w, double *out,
                                  double *J6) {
  int nv = lk_model_nv(m);
  lk_vec3 o = lk_tf_inv_point(lk_data_link_pose(d, link), lk_v3_zero());
  lk_jacobian_frame(m, d, link, o, J6);
  for (int k = 0; k < nv; k++)
    out[k] += J6[0 * nv + k] * w.ang.x + J6[1 * nv + k] * w.ang.y + J6[2 * nv + k] * w.ang.z +
              J6[3 * nv + k] * w.lin.x + J6[4 * nv + k] * w.lin.y + J6[5 * nv + k] * w.lin.z;
}

/* ABA, CRBA + LTDL and RNEA on random trees of 1..30 links with every joint
 * type, armature, springs, damping, applied torques and link wrenches. */
static void test_aba_crba_rnea_agree_on_random_trees(void) {
  mech_rng r = {2024};
  static double qa[MAXV], qc[MAXV], tau0[MAXV], tau2[MAXV], c[MAXV], pas[MAXV], res[MAXV];
  static double J6[6 * MAXV];
  double worst_fd = 0, worst_id = 0, worst_sum = 0;
  int cases = 0;
  for (int n = 1; n <= 30; n++) {
    lk_model *m = tree(&r, n, 1, 1);
    if (!m) return;
    lk_data *d = lk_data_new(m);
    int nv = lk_model_nv(m);
    for (int s = 0; s < 3; s++) {
      lk_data_clear_loads(d);
      mech_random_state(&r, m, d, 2.0);
      mech_random_loads(&r, m, d);
      memcpy(tau0, lk_data_tau(d), sizeof(double) * (size_t)nv);
      LK_ASSERT_OK(lk_forward_dynamics(m, d, LK_FD_ABA), (lk_error *)NULL);
      memcpy(qa, lk_data_qacc(d), sizeof(double) * (size_t)nv);
      LK_ASSERT_OK(lk_forward_dynamics(m, d, LK_FD_CRBA), (lk_error *)NULL);
      memcpy(qc, lk_data_qacc(d), sizeof(double) * (size_t)nv);
      double ascale = fmax(1.0, mech_maxabs(qa, nv));
      worst_fd = fmax(worst_fd, mech_maxdiff(qa, qc, nv) / ascale);

      /* Inverse dynamics of the ABA accelerations returns the applied tau. */
      LK_ASSERT_OK(lk_inverse_dynamics(m, d, qa, tau2), (lk_error *)NULL);
      /* The force scale: the largest term that enters the balance. */
      LK_ASSERT_OK(lk_bias_forces(m, d, c), (lk_error *)NULL);
      double fscale = fmax(1.0, fmax(mech_maxabs(c, nv), mech_maxabs(tau0, nv)));
      worst_id = fmax(worst_id, mech_maxdiff(tau2, tau0, nv) / fscale);

      /* The same balance assembled from the separate pieces: M qacc + c -
       * passive - J^T fext = tau, with J^T fext from the Jacobians. */
      LK_ASSERT_OK(lk_mass_matrix(m, d), (lk_error *)NULL);
      LK_ASSERT_OK(lk_passive_forces(m, d, pas), (lk_error *)NULL);
      static double M[MAXV * MAXV];
      LK_ASSERT_OK(lk_mass_matrix_dense(m, d, M), (lk_error *)NULL);
      for (int i = 0; i < nv; i++) {
        res[i] = c[i] - pas[i] - tau0[i];
        for (int j = 0; j < nv; j++) res[i] += M[i * nv + j] * qa[j];
      }
      static double gen[MAXV];
      memset(gen, 0, sizeof gen);
      for (int i = 1; i < lk_model_nlink(m); i++)
        wrench_to_generalized(m, d, i, lk_data_external_wrench(d, i), gen, J6);
      for (int i = 0; i < nv; i++) res[i] -= gen[i];
      worst_sum = fmax(worst_sum, mech_maxabs(res, nv) / fmax(fscale, mech_maxabs(gen, nv)));
      cases++;
    }
    lk_data_free(d);
    lk_model_free(m);
  }
  LK_ASSERT_INT_EQ(cases, 90);
  LK_ASSERT_MSG(worst_fd <= 1e-9, "ABA vs CRBA+LTDL: worst relative difference %g", worst_fd);
  LK_ASSERT_MSG(worst_id <= 1e-9, "RNEA(ABA qacc) vs tau: worst relative difference %g", worst_id);
  LK_ASSERT_MSG(worst_sum <= 1e-9, "M qacc + c - passive - J^T f - tau: worst relative %g",
                worst_sum);
}

/* The tree factorization solves what GSL's dense Cholesky solves, for many
 * right-hand sides at once, and both leave a tiny residual M x - b. */
static void test_tree_factor_matches_dense_cholesky(void) {
  mech_rng r = {7};
  static double x1[3 * MAXV], x2[3 * MAXV], b[3 * MAXV];
  for (int n = 1; n <= 30; n += 2) {
    lk_model *m = tree(&r, n, 0, n % 2);
    if (!m) return;
    lk_data *d = lk_data_new(m);
    int nv = lk_model_nv(m);
    mech_random_state(&r, m, d, 1.0);
    LK_ASSERT_INT_EQ(lk_mass_factor(m, d, LK_FACTOR_TREE), LK_INVALID_ARGUMENT); /* no M yet */
    LK_ASSERT_INT_EQ(lk_mass_solve(m, d, x1, 1), LK_INVALID_ARGUMENT);           /* no factor */
    LK_ASSERT_OK(lk_mass_matrix(m, d), (lk_error *)NULL);
    static double M[MAXV * MAXV];
    LK_ASSERT_OK(lk_mass_matrix_dense(m, d, M), (lk_error *)NULL);
    for (int i = 0; i < 3 * nv; i++) b[i] = mech_uniform(&r, -1, 1);
    memcpy(x1, b, sizeof(double) * (size_t)(3 * nv));
    memcpy(x2, b, sizeof(double) * (size_t)(3 * nv));
    LK_ASSERT_OK(lk_mass_factor(m, d, LK_FACTOR_TREE), (lk_error *)NULL);
    LK_ASSERT_OK(lk_mass_solve(m, d, x1, 3), (lk_error *)NULL);
    LK_ASSERT_OK(lk_mass_factor(m, d, LK_FACTOR_DENSE), (lk_error *)NULL);
    LK_ASSERT_OK(lk_mass_solve(m, d, x2, 3), (lk_error *)NULL);
    double xs = fmax(1.0, mech_maxabs(x2, 3 * nv));
    LK_ASSERT_MSG(mech_maxdiff(x1, x2, 3 * nv) <= 1e-10 * xs, "n %d: tree vs dense differ by %g", n,
                  mech_maxdiff(x1, x2, 3 * nv));
    double mscale = fmax(1.0, mech_maxabs(M, nv * nv));
    double worst = 0;
    for (int rhs = 0; rhs < 3; rhs++)
      for (int i = 0; i < nv; i++) {
        double s = -b[rhs * nv + i];
        for (int j = 0; j < nv; j++) s += M[i * nv + j] * x1[rhs * nv + j];
        worst = fmax(worst, fabs(s));
      }
    LK_ASSERT_MSG(worst <= 1e-11 * mscale * xs, "n %d: residual |M x - b| = %g", n, worst);
    lk_data_free(d);
    lk_model_free(m);
  }
}

/* Right-hand sides whose last entries are zero (a contact's J on a chain
 * is zero beyond its link: the tree solve's first pass starts at the last
 * nonzero): the same answer as GSL's dense Cholesky, for every cut. */
static void test_tree_solve_trailing_zeros(void) {
  mech_rng r = {11};
  static double x1[MAXV], x2[MAXV], M[MAXV * MAXV];
  int cases = 0;
  for (int n = 2; n <= 30; n += 4) {
    lk_model *m = tree(&r, n, 0, n % 2);
    if (!m) return;
    lk_data *d = lk_data_new(m);
    int nv = lk_model_nv(m);
    mech_random_state(&r, m, d, 1.0);
    LK_ASSERT_OK(lk_mass_matrix(m, d), (lk_error *)NULL);
    LK_ASSERT_OK(lk_mass_matrix_dense(m, d, M), (lk_error *)NULL);
    const int cuts[4] = {1, 2, nv / 2, nv - 1};
    for (int k = 0; k < 4; k++) {
      int keep = nv - cuts[k];
      if (keep < 1) continue;
      for (int i = 0; i < nv; i++) x1[i] = i < keep ? mech_uniform(&r, -1, 1) : 0.0;
      memcpy(x2, x1, sizeof(double) * (size_t)nv);
      LK_ASSERT_OK(lk_mass_factor(m, d, LK_FACTOR_TREE), (lk_error *)NULL);
      LK_ASSERT_OK(lk_mass_solve(m, d, x1, 1), (lk_error *)NULL);
      LK_ASSERT_OK(lk_mass_factor(m, d, LK_FACTOR_DENSE), (lk_error *)NULL);
      LK_ASSERT_OK(lk_mass_solve(m, d, x2, 1), (lk_error *)NULL);
      double xs = fmax(1.0, mech_maxabs(x2, nv));
      LK_ASSERT_MSG(mech_maxdiff(x1, x2, nv) <= 1e-10 * xs, "n %d keep %d: tree vs dense %g", n,
                    keep, mech_maxdiff(x1, x2, nv));
      cases++;
    }
    lk_data_free(d);
    lk_model_free(m);
  }
  LK_ASSERT_MSG(cases >= 25, "%d cases", cases);
}

/* World position and rotation of a link point at configuration q. */
static void pose_at(const lk_model *m, lk_data *d, const double *q, int link, lk_vec3 pl,
                    lk_vec3 *x, lk_mat3 *R) {
  memcpy(lk_data_q(d), q, sizeof(double) * (size_t)lk_model_nq(m));
  lk_forward_kinematics(m, d);
  *x = lk_data_point_position(d, link, pl);
  *R = lk_data_link_pose(d, link)->R;
}

/* The rotation vector of Ra Rb^T (for a small rotation, the angle axis). */
static lk_vec3 rot_diff(const lk_mat3 *Ra, const lk_mat3 *Rb) {
  lk_mat3 D = lk_m3_mult(Ra, Rb);
  return lk_q_log(lk_q_from_mat3(&D));
}

/* Point and angular Jacobians against central differences of forward
 * kinematics along q (+) eps e_k, and J v against the point velocity. */
static void test_jacobians_match_finite_differences(void) {
  mech_rng r = {99};
  static double q0[7 * 64], qp[7 * 64], qm[7 * 64], ek[MAXV], Jl[3 * MAXV], Ja[3 * MAXV];
  const double eps = 1e-6;
  double worst = 0, worst_jv = 0;
  for (int n = 1; n <= 14; n++) {
    lk_model *m = tree(&r, n, 0, 0);
    if (!m) return;
    lk_data *d = lk_data_new(m);
    int nv = lk_model_nv(m), nq = lk_model_nq(m);
    mech_random_state(&r, m, d, 1.5);
    memcpy(q0, lk_data_q(d), sizeof(double) * (size_t)nq);
    for (int link = 1; link < lk_model_nlink(m); link++) {
      lk_vec3 pl = mech_vec(&r, 0.5);
      memcpy(lk_data_q(d), q0, sizeof(double) * (size_t)nq);
      LK_ASSERT_OK(lk_forward_kinematics(m, d), (lk_error *)NULL);
      LK_ASSERT_OK(lk_jacobian_point(m, d, link, pl, Jl, Ja), (lk_error *)NULL);
      /* J v is the point's velocity and the link's angular velocity. */
      const double *v = lk_data_v(d);
      lk_vec3 pv = lk_data_point_velocity(d, link, pl), w = lk_data_link_velocity(d, link).ang;
      double jv[6] = {0};
      for (int k = 0; k < nv; k++)
        for (int a = 0; a < 3; a++) {
          jv[a] += Jl[a * nv + k] * v[k];
          jv[3 + a] += Ja[a * nv + k] * v[k];
        }
      double want[6] = {pv.x, pv.y, pv.z, w.x, w.y, w.z};
      worst_jv = fmax(worst_jv, mech_maxdiff(jv, want, 6));
      for (int k = 0; k < nv; k++) {
        memset(ek, 0, sizeof(double) * (size_t)nv);
        ek[k] = 1;
        memcpy(qp, q0, sizeof(double) * (size_t)nq);
        memcpy(qm, q0, sizeof(double) * (size_t)nq);
        lk_integrate(m, qp, ek, eps);
        lk_integrate(m, qm, ek, -eps);
        lk_vec3 xp, xm;
        lk_mat3 Rp, Rm;
        pose_at(m, d, qp, link, pl, &xp, &Rp);
        pose_at(m, d, qm, link, pl, &xm, &Rm);
        lk_vec3 dl = lk_v3_scale(lk_v3_sub(xp, xm), 0.5 / eps);
        lk_vec3 da = lk_v3_scale(rot_diff(&Rp, &Rm), 0.5 / eps);
        double fd[6] = {dl.x, dl.y, dl.z, da.x, da.y, da.z};
        double jc[6] = {Jl[k], Jl[nv + k], Jl[2 * nv + k], Ja[k], Ja[nv + k], Ja[2 * nv + k]};
        worst = fmax(worst, mech_maxdiff(fd, jc, 6));
      }
    }
    lk_data_free(d);
    lk_model_free(m);
  }
  LK_ASSERT_MSG(worst <= 1e-7, "Jacobian columns vs finite differences: worst %g", worst);
  LK_ASSERT_MSG(worst_jv <= 1e-12, "J v vs point velocity: worst %g", worst_jv);
}

/* Jdot v against the central difference of J(q(t)) v along the constant-
 * velocity path q(t) = q (+) t v, and the FK link velocities against the
 * difference of the poses along the same path. */
static void test_jdot_v_and_fk_velocity_match_finite_differences(void) {
  mech_rng r = {4242};
  static double q0[7 * 64], qp[7 * 64], qm[7 * 64];
  const double eps = 1e-5;
  double worst_jd = 0, worst_v = 0;
  for (int n = 1; n <= 14; n++) {
    lk_model *m = tree(&r, n, 0, 0);
    if (!m) return;
    lk_data *d = lk_data_new(m);
    int nq = lk_model_nq(m);
    mech_random_state(&r, m, d, 1.5);
    memcpy(q0, lk_data_q(d), sizeof(double) * (size_t)nq);
    const double *v = lk_data_v(d);
    memcpy(qp, q0, sizeof(double) * (size_t)nq);
    memcpy(qm, q0, sizeof(double) * (size_t)nq);
    lk_integrate(m, qp, v, eps);
    lk_integrate(m, qm, v, -eps);
    for (int link = 1; link < lk_model_nlink(m); link++) {
      lk_vec3 pl = mech_vec(&r, 0.5);
      memcpy(lk_data_q(d), q0, sizeof(double) * (size_t)nq);
      LK_ASSERT_OK(lk_forward_kinematics(m, d), (lk_error *)NULL);
      lk_vec3 al, aa;
      LK_ASSERT_OK(lk_jacobian_point_dot_v(m, d, link, pl, &al, &aa), (lk_error *)NULL);
      lk_vec3 v0 = lk_data_point_velocity(d, link, pl);
      lk_vec3 w0 = lk_data_link_velocity(d, link).ang;
      memcpy(lk_data_q(d), qp, sizeof(double) * (size_t)nq);
      lk_forward_kinematics(m, d);
      lk_vec3 vp = lk_data_point_velocity(d, link, pl), wp = lk_data_link_velocity(d, link).ang;
      lk_vec3 xp = lk_data_point_position(d, link, pl);
      lk_mat3 Rp = lk_data_link_pose(d, link)->R;
      memcpy(lk_data_q(d), qm, sizeof(double) * (size_t)nq);
      lk_forward_kinematics(m, d);
      lk_vec3 vm = lk_data_point_velocity(d, link, pl), wm = lk_data_link_velocity(d, link).ang;
      lk_vec3 xm = lk_data_point_position(d, link, pl);
      lk_mat3 Rm = lk_data_link_pose(d, link)->R;
      lk_vec3 fl = lk_v3_scale(lk_v3_sub(vp, vm), 0.5 / eps);
      lk_vec3 fa = lk_v3_scale(lk_v3_sub(wp, wm), 0.5 / eps);
      double s = fmax(1.0, fmax(lk_v3_norm(al), lk_v3_norm(aa)));
      worst_jd =
          fmax(worst_jd, fmax(lk_v3_norm(lk_v3_sub(fl, al)), lk_v3_norm(lk_v3_sub(fa, aa))) / s);
      lk_vec3 dx = lk_v3_scale(lk_v3_sub(xp, xm), 0.5 / eps);
      lk_vec3 dr = lk_v3_scale(rot_diff(&Rp, &Rm), 0.5 / eps);
      double vs = fmax(1.0, lk_v3_norm(v0));
      worst_v =
          fmax(worst_v, fmax(lk_v3_norm(lk_v3_sub(dx, v0)), lk_v3_norm(lk_v3_sub(dr, w0))) / vs);
    }
    lk_data_free(d);
    lk_model_free(m);
  }
  LK_ASSERT_MSG(worst_jd <= 1e-7, "Jdot v vs finite differences: worst relative %g", worst_jd);
  LK_ASSERT_MSG(worst_v <= 1e-8, "FK velocities vs pose differences: worst relative %g", worst_v);
}

/* Springs are minus the gradient of the spring energy (ball and free joints
 * on the rotation vector), damping is -b v, per DoF. */
static void test_passive_forces_are_the_spring_energy_gradient(void) {
  mech_rng r = {5};
  static double q0[7 * 64], qp[7 * 64], ek[MAXV], pas[MAXV], pas0[MAXV];
  const double eps = 1e-6;
  mech_tree_opts o = {12, 0, 1, 1, 0, {0, 0, 0}, 0};
  double worst = 0, worst_b = 0;
  for (int t = 0; t < 6; t++) {
    lk_model *m = mech_random_tree(&r, &o);
    LK_ASSERT_MSG(m != NULL, "tree");
    if (!m) return;
    lk_data *d = lk_data_new(m);
    int nv = lk_model_nv(m), nq = lk_model_nq(m);
    mech_random_state(&r, m, d, 1.0);
    LK_ASSERT_OK(lk_passive_forces(m, d, pas), (lk_error *)NULL);
    double *v = lk_data_v(d);
    double vkeep[MAXV];
    memcpy(vkeep, v, sizeof(double) * (size_t)nv);
    memset(v, 0, sizeof(double) * (size_t)nv);
    LK_ASSERT_OK(lk_passive_forces(m, d, pas0), (lk_error *)NULL);
    for (int k = 0; k < nv; k++) {
      lk_link_spec s;
      lk_model_link(m, lk_model_dof_link(m, k), &s);
      worst_b = fmax(worst_b, fabs(pas[k] - pas0[k] + s.joint.damping * vkeep[k]));
    }
    memcpy(q0, lk_data_q(d), sizeof(double) * (size_t)nq);
    for (int k = 0; k < nv; k++) {
      double e[2];
      for (int sgn = 0; sgn < 2; sgn++) {
        memset(ek, 0, sizeof(double) * (size_t)nv);
        ek[k] = 1;
        memcpy(qp, q0, sizeof(double) * (size_t)nq);
        lk_integrate(m, qp, ek, sgn ? -eps : eps);
        memcpy(lk_data_q(d), qp, sizeof(double) * (size_t)nq);
        lk_energy_potential(m, d, &e[sgn]);
      }
      double g = -(e[0] - e[1]) / (2 * eps);
      worst = fmax(worst, fabs(g - pas0[k]) / fmax(1.0, fabs(g)));
    }
    lk_data_free(d);
    lk_model_free(m);
  }
  LK_ASSERT_MSG(worst <= 1e-7, "spring force vs -dV/dq: worst relative %g", worst);
  LK_ASSERT_MSG(worst_b <= 1e-14, "damping force vs -b v: worst %g", worst_b);
}

/* Linear momentum is the total mass times the velocity of the centre of
 * mass (differenced along q (+) t v); gravitational energy is -m g . c. */
static void test_momentum_and_potential_against_the_centre_of_mass(void) {
  mech_rng r = {31};
  static double q0[7 * 64], qp[7 * 64], qm[7 * 64];
  const double eps = 1e-6;
  for (int n = 1; n <= 20; n += 4) {
    lk_model *m = tree(&r, n, 0, 0);
    if (!m) return;
    lk_data *d = lk_data_new(m);
    int nq = lk_model_nq(m);
    mech_random_state(&r, m, d, 2.0);
    memcpy(q0, lk_data_q(d), sizeof(double) * (size_t)nq);
    lk_vec3 lin, c0, cp, cm;
    LK_ASSERT_OK(lk_momentum(m, d, &lin, NULL), (lk_error *)NULL);
    LK_ASSERT_OK(lk_center_of_mass(m, d, &c0), (lk_error *)NULL);
    double pe;
    LK_ASSERT_OK(lk_energy_potential(m, d, &pe), (lk_error *)NULL);
    double M = lk_model_total_mass(m);
    LK_ASSERT_NEAR(pe, -M * lk_v3_dot(kGravity, c0), 1e-12 * fmax(1.0, fabs(pe)));
    memcpy(qp, q0, sizeof(double) * (size_t)nq);
    memcpy(qm, q0, sizeof(double) * (size_t)nq);
    lk_integrate(m, qp, lk_data_v(d), eps);
    lk_integrate(m, qm, lk_data_v(d), -eps);
    memcpy(lk_data_q(d), qp, sizeof(double) * (size_t)nq);
    lk_center_of_mass(m, d, &cp);
    memcpy(lk_data_q(d), qm, sizeof(double) * (size_t)nq);
    lk_center_of_mass(m, d, &cm);
    lk_vec3 vc = lk_v3_scale(lk_v3_sub(cp, cm), 0.5 / eps);
    double err = lk_v3_norm(lk_v3_sub(lin, lk_v3_scale(vc, M)));
    LK_ASSERT_MSG(err <= 1e-7 * fmax(1.0, lk_v3_norm(lin)), "n %d: momentum vs M v_com off by %g",
                  n, err);
    lk_data_free(d);
    lk_model_free(m);
  }
}

/* Bad input is refused with a status and leaves the outputs alone. */
static void test_non_finite_and_bad_arguments_are_refused(void) {
  mech_rng r = {8};
  lk_model *m = tree(&r, 6, 1, 1);
  if (!m) return;
  lk_data *d = lk_data_new(m);
  lk_data *other = lk_data_new(m);
  int nv = lk_model_nv(m);
  mech_random_state(&r, m, d, 1.0);
  double out[MAXV], J[3 * MAXV];
  for (int k = 0; k < nv; k++) out[k] = 12345;
  lk_data_qacc(d)[0] = 777;
  lk_data_tau(d)[0] = NAN;
  LK_ASSERT_INT_EQ(lk_forward_dynamics(m, d, LK_FD_ABA), LK_NON_FINITE);
  LK_ASSERT_INT_EQ(lk_forward_dynamics(m, d, LK_FD_CRBA), LK_NON_FINITE);
  LK_ASSERT_NEAR(lk_data_qacc(d)[0], 777, 0);
  lk_data_tau(d)[0] = 0;
  LK_ASSERT_OK(lk_data_apply_torque(d, 1, lk_v3(1, 0, 0)), (lk_error *)NULL);
  lk_data_q(d)[0] = INFINITY;
  LK_ASSERT_INT_EQ(lk_bias_forces(m, d, out), LK_NON_FINITE);
  LK_ASSERT_INT_EQ(lk_mass_matrix(m, d), LK_NON_FINITE);
  LK_ASSERT_INT_EQ(lk_passive_forces(m, d, out), LK_NON_FINITE);
  double e;
  LK_ASSERT_INT_EQ(lk_energy_kinetic(m, d, &e), LK_NON_FINITE);
  LK_ASSERT_NEAR(out[0], 12345, 0);
  lk_data_q(d)[0] = 0;
  double qacc[MAXV];
  for (int k = 0; k < nv; k++) qacc[k] = k == 1 ? NAN : 0;
  LK_ASSERT_INT_EQ(lk_inverse_dynamics(m, d, qacc, out), LK_NON_FINITE);
  LK_ASSERT_NEAR(out[0], 12345, 0);
  LK_ASSERT_INT_EQ(lk_forward_dynamics(m, d, (lk_fd_method)7), LK_INVALID_ARGUMENT);
  LK_ASSERT_INT_EQ(lk_mass_factor(m, d, (lk_factor_method)9), LK_INVALID_ARGUMENT);
  LK_ASSERT_INT_EQ(lk_jacobian_point(m, d, lk_model_nlink(m), lk_v3_zero(), J, NULL),
                   LK_INVALID_ARGUMENT);
  LK_ASSERT_INT_EQ(lk_jacobian_point(m, d, 1, lk_v3(NAN, 0, 0), J, NULL), LK_NON_FINITE);
  /* A data of another model. */
  lk_model *m2 = tree(&r, 3, 0, 0);
  lk_data *d2 = lk_data_new(m2);
  LK_ASSERT_INT_EQ(lk_forward_dynamics(m, d2, LK_FD_ABA), LK_INVALID_ARGUMENT);
  LK_ASSERT_INT_EQ(lk_step(m, d2), LK_INVALID_ARGUMENT);
  LK_ASSERT_INT_EQ(lk_forward_kinematics(NULL, d), LK_INVALID_ARGUMENT);
  /* lk_integrate leaves q alone on a non-finite velocity. */
  double q[7 * 64];
  memcpy(q, lk_data_q(d), sizeof(double) * (size_t)lk_model_nq(m));
  double v[MAXV] = {0};
  v[0] = NAN;
  LK_ASSERT_INT_EQ(lk_integrate(m, q, v, 0.01), LK_NON_FINITE);
  LK_ASSERT_MSG(memcmp(q, lk_data_q(d), sizeof(double) * (size_t)lk_model_nq(m)) == 0,
                "q changed by a failed lk_integrate");
  lk_data_free(d2);
  lk_model_free(m2);
  lk_data_free(other);
  lk_data_free(d);
  lk_model_free(m);
}

/* A model of fixed joints only (nv = 0) goes through every algorithm. */
static void test_mechanism_without_dofs(void) {
  lk_model *m = lk_model_new();
  lk_link_spec s;
  lk_link_spec_default(&s);
  s.name = "base";
  s.mass = 2;
  s.inertia = lk_inertia_solid_sphere(2, 0.1);
  s.origin.p = lk_v3(0, 0, 1);
  lk_model_add_link(m, &s, NULL);
  LK_ASSERT_OK(lk_model_finalize(m, NULL), (lk_error *)NULL);
  lk_data *d = lk_data_new(m);
  LK_ASSERT_OK(lk_forward_dynamics(m, d, LK_FD_ABA), (lk_error *)NULL);
  LK_ASSERT_OK(lk_forward_dynamics(m, d, LK_FD_CRBA), (lk_error *)NULL);
  LK_ASSERT_OK(lk_mass_factor(m, d, LK_FACTOR_DENSE), (lk_error *)NULL);
  LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
  double pe;
  LK_ASSERT_OK(lk_energy_potential(m, d, &pe), (lk_error *)NULL);
  LK_ASSERT_NEAR(pe, 2 * 9.81 * 1, 1e-12);
  lk_data_free(d);
  lk_model_free(m);
}

static const lk_test tests[] = {
    {"M(q) is the kinetic-energy form, entry by entry",
     test_mass_matrix_is_the_kinetic_energy_form},
    {"ABA, CRBA+LTDL and RNEA agree on random trees of 1..30 links",
     test_aba_crba_rnea_agree_on_random_trees},
    {"tree factorization matches GSL dense Cholesky", test_tree_factor_matches_dense_cholesky},
    {"tree solve of a right-hand side ending in zeros", test_tree_solve_trailing_zeros},
    {"point Jacobians match finite differences of FK", test_jacobians_match_finite_differences},
    {"Jdot v and FK velocities match finite differences",
     test_jdot_v_and_fk_velocity_match_finite_differences},
    {"passive forces are the spring-energy gradient and -b v",
     test_passive_forces_are_the_spring_energy_gradient},
    {"momentum and potential energy against the centre of mass",
     test_momentum_and_potential_against_the_centre_of_mass},
    {"non-finite and bad arguments are refused", test_non_finite_and_bad_arguments_are_refused},
    {"a mechanism without DoFs", test_mechanism_without_dofs},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("dynamics", tests); }
