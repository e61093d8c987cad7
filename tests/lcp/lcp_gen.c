/* Random LCP families: see lcp_gen.h. */
#include "lcp_gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void lk_rng_seed(lk_rng *r, uint64_t seed) { r->s = seed ^ 0x9E3779B97F4A7C15ull; }

/* splitmix64 */
uint64_t lk_rng_next(lk_rng *r) {
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double lk_rng_uniform(lk_rng *r, double lo, double hi) {
  return lo + (hi - lo) * (double)(lk_rng_next(r) >> 11) / 9007199254740992.0;
}

double lk_rng_normal(lk_rng *r) {
  /* Box–Muller; one value per call keeps the stream simple. */
  double u = lk_rng_uniform(r, 1e-300, 1.0), v = lk_rng_uniform(r, 0.0, 1.0);
  return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

int lk_rng_int(lk_rng *r, int n) { return (int)(lk_rng_next(r) % (uint64_t)n); }

/* M = A A^T / s + ridge I for A (n x m, row-major, leading dim m). */
static void gram(const double *A, int n, int m, double s, double ridge, double *M, int ld) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      double t = 0.0;
      for (int k = 0; k < m; k++) t += A[i * m + k] * A[j * m + k];
      t /= s;
      if (i == j) t += ridge;
      M[(size_t)i * ld + j] = t;
      M[(size_t)j * ld + i] = t;
    }
}

void lk_gen_spd(lk_rng *r, int n, double ridge, double *M, int ld) {
  double *A = malloc(sizeof *A * (size_t)n * (size_t)n);
  for (int i = 0; i < n * n; i++) A[i] = lk_rng_normal(r);
  gram(A, n, n, n, ridge, M, ld);
  free(A);
}

void lk_gen_psd(lk_rng *r, int n, int rank, double *M, int ld) {
  if (rank < 1) rank = 1;
  double *A = malloc(sizeof *A * (size_t)n * (size_t)rank);
  for (int i = 0; i < n * rank; i++) A[i] = lk_rng_normal(r);
  gram(A, n, rank, rank, 0.0, M, ld);
  free(A);
}

void lk_gen_nonsym_pd(lk_rng *r, int n, double *M, int ld) {
  lk_gen_spd(r, n, 0.05, M, ld);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++) {
      double s = lk_rng_normal(r) / sqrt((double)n);
      M[(size_t)i * ld + j] += s;
      M[(size_t)j * ld + i] -= s;
    }
}

void lk_gen_pmatrix(lk_rng *r, int n, double *M, int ld) {
  int *perm = malloc(sizeof *perm * (size_t)n);
  double *t = malloc(sizeof *t * (size_t)n);
  for (int i = 0; i < n; i++) perm[i] = i;
  for (int i = n - 1; i > 0; i--) {
    int j = lk_rng_int(r, i + 1), s = perm[i];
    perm[i] = perm[j];
    perm[j] = s;
  }
  /* Row i of T: diagonal d, off-diagonal entries summing in size to 0.95 d,
   * most of it on one of a few "hub" columns: T is strictly diagonally
   * dominant by rows, so every principal submatrix has eigenvalues of
   * positive real part and a positive determinant (a P-matrix, well
   * conditioned), while the hub columns, summed over many rows, make
   * T + T^T indefinite. */
  int hubs = n / 8 > 1 ? n / 8 : 1;
  for (int i = 0; i < n; i++) {
    double d = lk_rng_uniform(r, 1.0, 2.0), sum = 0.0;
    int h = i == 0 ? -1 : lk_rng_int(r, i < hubs ? i : hubs);
    for (int j = 0; j < n; j++) {
      t[j] = j == i ? 0.0 : lk_rng_uniform(r, 0.0, 1.0);
      sum += t[j];
    }
    for (int j = 0; j < n; j++) {
      double v = j == i ? d : (sum > 0 ? 0.95 * d * (h >= 0 ? 0.3 : 1.0) * t[j] / sum : 0.0);
      if (j == h) v += 0.95 * d * 0.7;
      if (j != i && j != h && lk_rng_uniform(r, 0, 1) < 0.5) v = -v;
      M[(size_t)perm[i] * ld + perm[j]] = v;
    }
  }
  free(perm);
  free(t);
}

void lk_gen_q_solvable(lk_rng *r, int n, const double *M, int ld, double active, double *q,
                       double *zstar) {
  for (int i = 0; i < n; i++) zstar[i] = lk_rng_uniform(r, 0, 1) < active ? lk_rng_uniform(r, 0.1, 2.0) : 0.0;
  for (int i = 0; i < n; i++) {
    double w = zstar[i] > 0 ? 0.0 : lk_rng_uniform(r, 0.1, 2.0);
    double s = 0.0;
    for (int j = 0; j < n; j++) s += M[(size_t)i * ld + j] * zstar[j];
    q[i] = w - s;
  }
}

void lk_gen_q_uniform(lk_rng *r, int n, double *q) {
  for (int i = 0; i < n; i++) q[i] = lk_rng_uniform(r, -1.0, 1.0);
}

static void unit(double *v) {
  double s = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  for (int k = 0; k < 3; k++) v[k] /= s;
}

static void cross(const double *a, const double *b, double *c) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

void lk_gen_contacts(lk_rng *r, int nb, int nc, double mu, lk_contacts *c) {
  memset(c, 0, sizeof *c);
  c->nb = nb;
  c->nc = nc;
  c->mu = mu;
  int m = 6 * nb;
  c->J = calloc((size_t)3 * nc * m, sizeof *c->J);
  c->minv = calloc((size_t)m, sizeof *c->minv);
  c->v = calloc((size_t)m, sizeof *c->v);
  c->n = calloc((size_t)3 * nc, sizeof *c->n);
  c->t1 = calloc((size_t)3 * nc, sizeof *c->t1);
  c->t2 = calloc((size_t)3 * nc, sizeof *c->t2);
  c->body = calloc((size_t)nc, sizeof *c->body);
  for (int b = 0; b < nb; b++) {
    double mass = lk_rng_uniform(r, 0.5, 5.0);
    for (int k = 0; k < 3; k++) {
      c->minv[6 * b + k] = 1.0 / mass;
      c->minv[6 * b + 3 + k] = 1.0 / (mass * lk_rng_uniform(r, 0.05, 0.3));
      c->v[6 * b + k] = 0.3 * lk_rng_normal(r);
      c->v[6 * b + 3 + k] = 0.3 * lk_rng_normal(r);
    }
    c->v[6 * b + 2] -= 1.0; /* falling onto the contacts */
  }
  for (int i = 0; i < nc; i++) {
    int b = i < nb ? i : lk_rng_int(r, nb);
    c->body[i] = b;
    double *n = c->n + 3 * i, *t1 = c->t1 + 3 * i, *t2 = c->t2 + 3 * i, p[3], a[3];
    n[0] = 0.3 * lk_rng_normal(r);
    n[1] = 0.3 * lk_rng_normal(r);
    n[2] = 1.0;
    unit(n);
    a[0] = 1;
    a[1] = 0;
    a[2] = 0;
    cross(n, a, t1);
    unit(t1);
    cross(n, t1, t2);
    for (int k = 0; k < 3; k++) p[k] = lk_rng_uniform(r, -0.5, 0.5);
    p[2] = -0.5;
    const double *dirs[3] = {n, t1, t2};
    for (int d = 0; d < 3; d++) {
      double *row = c->J + (size_t)(3 * i + d) * m + 6 * b, rxu[3];
      cross(p, dirs[d], rxu);
      for (int k = 0; k < 3; k++) {
        row[k] = dirs[d][k];
        row[3 + k] = rxu[k];
      }
    }
  }
}

void lk_contacts_free(lk_contacts *c) {
  free(c->J);
  free(c->minv);
  free(c->v);
  free(c->n);
  free(c->t1);
  free(c->t2);
  free(c->body);
  memset(c, 0, sizeof *c);
}

int lk_gen_stewart_trinkle_size(const lk_contacts *c, int k) { return c->nc * (2 + k); }

/* a W b^T for two rows of length m. */
static double wdot(const double *a, const double *w, const double *b, int m) {
  double s = 0.0;
  for (int k = 0; k < m; k++) s += a[k] * w[k] * b[k];
  return s;
}

void lk_gen_stewart_trinkle(const lk_contacts *c, int k, double *M, int ld, double *q) {
  int nc = c->nc, m = 6 * c->nb, nr = nc * (1 + k), n = nc * (2 + k);
  /* Rows of N' and D' in one matrix G (normals first, then each contact's
   * k directions). */
  double *G = calloc((size_t)nr * m, sizeof *G);
  for (int i = 0; i < nc; i++) {
    memcpy(G + (size_t)i * m, c->J + (size_t)(3 * i) * m, sizeof *G * (size_t)m);
    for (int l = 0; l < k; l++) {
      double th = 6.283185307179586 * l / k, cs = cos(th), sn = sin(th);
      double *g = G + (size_t)(nc + i * k + l) * m;
      const double *j1 = c->J + (size_t)(3 * i + 1) * m, *j2 = c->J + (size_t)(3 * i + 2) * m;
      for (int d = 0; d < m; d++) g[d] = cs * j1[d] + sn * j2[d];
    }
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) M[(size_t)i * ld + j] = 0.0;
  for (int i = 0; i < nr; i++)
    for (int j = 0; j <= i; j++) {
      double t = wdot(G + (size_t)i * m, c->minv, G + (size_t)j * m, m);
      M[(size_t)i * ld + j] = M[(size_t)j * ld + i] = t;
    }
  for (int i = 0; i < nc; i++) {
    int lam = nr + i;
    for (int l = 0; l < k; l++) {
      int beta = nc + i * k + l;
      M[(size_t)beta * ld + lam] = 1.0;  /* E */
      M[(size_t)lam * ld + beta] = -1.0; /* -E' */
    }
    M[(size_t)lam * ld + i] = c->mu; /* mu c_n */
  }
  for (int i = 0; i < nr; i++) {
    double s = 0.0;
    for (int d = 0; d < m; d++) s += G[(size_t)i * m + d] * c->v[d];
    q[i] = s;
  }
  for (int i = nr; i < n; i++) q[i] = 0.0;
  free(G);
}

void lk_gen_contacts_boxed(const lk_contacts *c, double eps, double *M, int ld, double *q,
                           double *lo, double *hi, int *findex, double *mu) {
  int n = 3 * c->nc, m = 6 * c->nb;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= i; j++) {
      double t = wdot(c->J + (size_t)i * m, c->minv, c->J + (size_t)j * m, m);
      if (i == j) t += eps;
      M[(size_t)i * ld + j] = M[(size_t)j * ld + i] = t;
    }
    double s = 0.0;
    for (int d = 0; d < m; d++) s += c->J[(size_t)i * m + d] * c->v[d];
    q[i] = s;
    int normal = i % 3 == 0;
    lo[i] = normal ? 0.0 : -INFINITY;
    hi[i] = INFINITY;
    findex[i] = normal ? -1 : i - i % 3;
    mu[i] = normal ? 0.0 : c->mu;
  }
}
