/* Contact frames, the grasp matrix and the linearized contact wrench cones
 * (Murray, Li and Sastry, "A Mathematical Introduction to Robotic
 * Manipulation", 1994, sec. 5.2: contact models and the grasp map). */
#include <math.h>
#include <string.h>

#include "core/internal.h"
#include "grasp/grasp_internal.h"

void lk_grasp_contact_default(lk_grasp_contact *c) {
  if (!c) return;
  memset(c, 0, sizeof *c);
  c->normal = lk_v3(0, 0, 1);
  c->finger = -1;
}

void lk_grasp_options_default(lk_grasp_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->edges = 8;
  o->tolerance = 1e-9;
}

lk_status lk_grasp_resolve_options(const lk_grasp_options *in, lk_grasp_options *out,
                                   lk_error *err) {
  if (in)
    *out = *in;
  else
    lk_grasp_options_default(out);
  if (!lk_v3_isfinite(out->center))
    return lk_error_set(err, LK_NON_FINITE, "grasp options: center is not finite");
  if (!(out->torque_scale >= 0) || !isfinite(out->torque_scale))
    return lk_error_set(err, LK_INVALID_ARGUMENT,
                        "grasp options: torque_scale must be >= 0 (0: automatic), got %g",
                        out->torque_scale);
  if (out->edges < 3 || out->edges > 1024)
    return lk_error_set(err, LK_INVALID_ARGUMENT,
                        "grasp options: edges must be 3..1024, got %d", out->edges);
  if (!(out->tolerance > 0 && out->tolerance < 1e-2))
    return lk_error_set(err, LK_INVALID_ARGUMENT,
                        "grasp options: tolerance must be in (0, 0.01), got %g", out->tolerance);
  return LK_OK;
}

lk_status lk_grasp_check_contacts(const lk_grasp_contact *c, int nc, lk_error *err) {
  if (nc < 0 || (nc > 0 && !c))
    return lk_error_set(err, LK_INVALID_ARGUMENT, "contacts: NULL array or negative count");
  for (int i = 0; i < nc; i++) {
    if (!lk_v3_isfinite(c[i].position) || !lk_v3_isfinite(c[i].normal) ||
        !lk_v3_isfinite(c[i].tangent) || !isfinite(c[i].mu) || !isfinite(c[i].torsion))
      return lk_error_set(err, LK_NON_FINITE, "contact %d: a value is not finite", i);
    if (!(lk_v3_norm(c[i].normal) > 1e-12))
      return lk_error_set(err, LK_INVALID_ARGUMENT, "contact %d: the normal is zero", i);
    if (c[i].mu < 0 || c[i].torsion < 0)
      return lk_error_set(err, LK_INVALID_ARGUMENT,
                          "contact %d: mu (%g) and torsion (%g) must be >= 0", i, c[i].mu,
                          c[i].torsion);
  }
  return LK_OK;
}

double lk_grasp_rho(const lk_grasp_contact *c, int nc, const lk_grasp_options *o) {
  if (o->torque_scale > 0) return o->torque_scale;
  double r = 0;
  for (int i = 0; i < nc; i++) r = fmax(r, lk_v3_norm(lk_v3_sub(c[i].position, o->center)));
  return r > 0 ? r : 1.0;
}

lk_status lk_grasp_contact_frame(const lk_grasp_contact *c, lk_vec3 *n_out, lk_vec3 *t1_out,
                                 lk_vec3 *t2_out) {
  if (!c || !lk_v3_isfinite(c->normal) || !lk_v3_isfinite(c->tangent)) return LK_INVALID_ARGUMENT;
  double nn = lk_v3_norm(c->normal);
  if (!(nn > 1e-12)) return LK_INVALID_ARGUMENT;
  lk_vec3 n = lk_v3_scale(c->normal, 1.0 / nn);
  lk_vec3 t = lk_v3_madd(c->tangent, n, -lk_v3_dot(c->tangent, n));
  double tn = lk_v3_norm(t);
  if (tn > 1e-9 * (1 + lk_v3_norm(c->tangent))) {
    t = lk_v3_scale(t, 1.0 / tn);
  } else {
    /* The coordinate axis least aligned with n. */
    double ax = fabs(n.x), ay = fabs(n.y), az = fabs(n.z);
    lk_vec3 e = ax <= ay && ax <= az ? lk_v3(1, 0, 0) : (ay <= az ? lk_v3(0, 1, 0) : lk_v3(0, 0, 1));
    t = lk_v3_normalize(lk_v3_cross(n, e));
  }
  if (n_out) *n_out = n;
  if (t1_out) *t1_out = t;
  if (t2_out) *t2_out = lk_v3_cross(n, t);
  return LK_OK;
}

int lk_grasp_matrix_columns(const lk_grasp_contact *c, int nc) {
  if (nc < 0 || (nc > 0 && !c)) return -1;
  int k = 0;
  for (int i = 0; i < nc; i++) k += c[i].torsion > 0 ? 4 : 3;
  return k;
}

lk_status lk_grasp_matrix(const lk_grasp_contact *c, int nc, const lk_grasp_options *o,
                          double *G, int ldg, lk_error *err) {
  lk_grasp_options opt;
  lk_status st = lk_grasp_resolve_options(o, &opt, err);
  if (st) return st;
  if ((st = lk_grasp_check_contacts(c, nc, err))) return st;
  int cols = lk_grasp_matrix_columns(c, nc);
  if (ldg == 0) ldg = cols;
  if (!G && cols > 0) return lk_error_set(err, LK_INVALID_ARGUMENT, "grasp matrix: NULL G");
  if (ldg < cols)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "grasp matrix: ldg %d < %d columns", ldg, cols);
  for (int r = 0; r < 6; r++)
    for (int j = 0; j < cols; j++) G[(size_t)r * ldg + j] = 0;
  int col = 0;
  for (int i = 0; i < nc; i++) {
    lk_vec3 d[3];
    lk_grasp_contact_frame(&c[i], &d[0], &d[1], &d[2]);
    lk_vec3 r = lk_v3_sub(c[i].position, opt.center);
    for (int k = 0; k < 3; k++, col++) {
      lk_vec3 tq = lk_v3_cross(r, d[k]);
      double w[6] = {d[k].x, d[k].y, d[k].z, tq.x, tq.y, tq.z};
      for (int q = 0; q < 6; q++) G[(size_t)q * ldg + col] = w[q];
    }
    if (c[i].torsion > 0) {
      double w[6] = {0, 0, 0, d[0].x, d[0].y, d[0].z};
      for (int q = 0; q < 6; q++) G[(size_t)q * ldg + col] = w[q];
      col++;
    }
  }
  return LK_OK;
}

static int contact_generators(const lk_grasp_contact *c, int edges) {
  return (c->mu > 0 ? edges : 1) * (c->torsion > 0 ? 2 : 1);
}

int lk_grasp_wrench_count(const lk_grasp_contact *c, int nc, const lk_grasp_options *o) {
  if (nc < 0 || (nc > 0 && !c)) return -1;
  int edges = o ? o->edges : 8;
  if (edges < 3) return -1;
  int k = 0;
  for (int i = 0; i < nc; i++) k += contact_generators(&c[i], edges);
  return k;
}

lk_status lk_grasp_wrenches(const lk_grasp_contact *c, int nc, const lk_grasp_options *o,
                            double *W, int *contact, double *rho_out, lk_error *err) {
  lk_grasp_options opt;
  lk_status st = lk_grasp_resolve_options(o, &opt, err);
  if (st) return st;
  if ((st = lk_grasp_check_contacts(c, nc, err))) return st;
  if (!W && nc > 0) return lk_error_set(err, LK_INVALID_ARGUMENT, "wrenches: NULL output");
  double rho = lk_grasp_rho(c, nc, &opt);
  if (rho_out) *rho_out = rho;
  const int E = opt.edges;
  double grow = opt.circumscribed ? 1.0 / cos(LK_PI / E) : 1.0;
  int row = 0;
  for (int i = 0; i < nc; i++) {
    lk_vec3 n, t1, t2;
    lk_grasp_contact_frame(&c[i], &n, &t1, &t2);
    lk_vec3 r = lk_v3_sub(c[i].position, opt.center);
    int ne = c[i].mu > 0 ? E : 1;
    double mu = c[i].mu * grow;
    for (int k = 0; k < ne; k++) {
      lk_vec3 f = n;
      if (c[i].mu > 0) {
        double a = 2.0 * LK_PI * k / E;
        f = lk_v3_add(n, lk_v3_add(lk_v3_scale(t1, mu * cos(a)), lk_v3_scale(t2, mu * sin(a))));
      }
      lk_vec3 tq = lk_v3_scale(lk_v3_cross(r, f), 1.0 / rho);
      for (int s = 0; s < (c[i].torsion > 0 ? 2 : 1); s++) {
        lk_vec3 t = tq;
        if (c[i].torsion > 0) t = lk_v3_madd(tq, n, (s == 0 ? 1.0 : -1.0) * c[i].torsion / rho);
        double *w = W + (size_t)row * 6;
        w[0] = f.x;
        w[1] = f.y;
        w[2] = f.z;
        w[3] = t.x;
        w[4] = t.y;
        w[5] = t.z;
        if (contact) contact[row] = i;
        row++;
      }
    }
  }
  return LK_OK;
}

/* ---------------------------------------------------------------- rank */

void lk_grasp_eigen6(const double A_in[36], double lambda[6], double V[36]) {
  double A[36];
  memcpy(A, A_in, sizeof A);
  for (int i = 0; i < 36; i++) V[i] = (i % 7 == 0) ? 1.0 : 0.0;
  for (int sweep = 0; sweep < 60; sweep++) {
    double off = 0, diag = 0;
    for (int p = 0; p < 6; p++) {
      diag += A[p * 6 + p] * A[p * 6 + p];
      for (int q = p + 1; q < 6; q++) off += A[p * 6 + q] * A[p * 6 + q];
    }
    if (off <= 1e-32 * diag || off == 0) break;
    for (int p = 0; p < 6; p++)
      for (int q = p + 1; q < 6; q++) {
        double apq = A[p * 6 + q];
        if (apq == 0) continue;
        /* Rotation zeroing A[p][q] (Golub and Van Loan, Algorithm 8.4.1). */
        double tau = (A[q * 6 + q] - A[p * 6 + p]) / (2 * apq);
        double t = (tau >= 0 ? 1.0 : -1.0) / (fabs(tau) + sqrt(1 + tau * tau));
        double cs = 1 / sqrt(1 + t * t), sn = t * cs;
        for (int k = 0; k < 6; k++) {
          double akp = A[k * 6 + p], akq = A[k * 6 + q];
          A[k * 6 + p] = cs * akp - sn * akq;
          A[k * 6 + q] = sn * akp + cs * akq;
        }
        for (int k = 0; k < 6; k++) {
          double apk = A[p * 6 + k], aqk = A[q * 6 + k];
          A[p * 6 + k] = cs * apk - sn * aqk;
          A[q * 6 + k] = sn * apk + cs * aqk;
        }
        for (int k = 0; k < 6; k++) {
          double vkp = V[k * 6 + p], vkq = V[k * 6 + q];
          V[k * 6 + p] = cs * vkp - sn * vkq;
          V[k * 6 + q] = sn * vkp + cs * vkq;
        }
      }
  }
  /* Sort ascending (selection sort on 6 values), columns of V along. */
  for (int i = 0; i < 6; i++) lambda[i] = A[i * 6 + i];
  for (int i = 0; i < 6; i++) {
    int k = i;
    for (int j = i + 1; j < 6; j++)
      if (lambda[j] < lambda[k]) k = j;
    if (k == i) continue;
    double t = lambda[i];
    lambda[i] = lambda[k];
    lambda[k] = t;
    for (int r = 0; r < 6; r++) {
      t = V[r * 6 + i];
      V[r * 6 + i] = V[r * 6 + k];
      V[r * 6 + k] = t;
    }
  }
}

int lk_grasp_rank6(const double *W, int N, double tol, double null[6]) {
  double G[36] = {0};
  for (int r = 0; r < N; r++) {
    const double *w = W + (size_t)r * 6;
    for (int i = 0; i < 6; i++)
      for (int j = i; j < 6; j++) G[i * 6 + j] += w[i] * w[j];
  }
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < i; j++) G[i * 6 + j] = G[j * 6 + i];
  double lam[6], V[36];
  lk_grasp_eigen6(G, lam, V);
  /* Singular values sigma_i = sqrt(lambda_i); the Gram matrix squares the
   * tolerance. Its eigenvalues carry an absolute error of about eps
   * lambda_max, hence the floor. */
  double lmax = fmax(lam[5], 0.0);
  double thr = fmax(tol * tol, 1e-13) * lmax;
  int rank = 0;
  for (int i = 0; i < 6; i++)
    if (lam[i] > thr && lmax > 0) rank++;
  if (null) {
    for (int i = 0; i < 6; i++) null[i] = rank < 6 ? V[i * 6 + 0] : 0.0;
    /* A canonical sign: the largest component positive. */
    int k = 0;
    for (int i = 1; i < 6; i++)
      if (fabs(null[i]) > fabs(null[k]) + 1e-12) k = i;
    if (null[k] < 0)
      for (int i = 0; i < 6; i++) null[i] = -null[i];
  }
  return rank;
}
