/* The product storage of M (lk_lcp_prod: M = G H^T + diag(d), never
 * formed): its entries, residual and fc3d error against the same M dense
 * and in compressed rows, NSGS's answers and sweeps on it against theirs
 * (contact problems between free bodies, circle cones and boxes, with and
 * without a diagonal, below and above the direct finish's size, and a
 * frictionless SPD LCP), the input checks, the workspace's column room and
 * no allocation in a solve. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lcp_gen.h"
#include "lcp/lcp_internal.h" /* lk_lcp_residual_scaled: the residual and its scale */
#include "lcp_test.h"
#include "linkage/linkage.h"

/* Contacts between free bodies (6 DoF each, a random SPD 6 x 6 inverse
 * mass a body), each contact between two bodies or a body and the ground:
 * J (n x m dense, n = 3 nc rows normal, t1, t2; m = 6 nb) and the product
 * G = J, H = J W (W = M^-1 block diagonal) in compressed rows over each
 * row's bodies' columns, M = J W J^T + diag(d) dense and compressed, q =
 * J v* with v* closing the contacts on average. */
typedef struct {
  int n, m, nb, nc;
  double *J, *W, *M, *q, *lo, *hi, *mu, *d, *csrval, *gval, *hval;
  int *findex, *cone, *grow, *gcol, *csrrow, *csrcol;
} prob;

static void cross3(const double *a, const double *b, double *c) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static void unit3(double *a) {
  double s = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  for (int k = 0; k < 3; k++) a[k] /= s;
}

static void prob_make(prob *P, uint64_t seed, int nb, int nc, double mu, double dg) {
  lk_rng r;
  lk_rng_seed(&r, seed);
  memset(P, 0, sizeof *P);
  int n = 3 * nc, m = 6 * nb;
  P->n = n, P->m = m, P->nb = nb, P->nc = nc;
  P->J = calloc((size_t)n * m, sizeof(double));
  P->W = calloc((size_t)nb * 36, sizeof(double));
  P->M = calloc((size_t)n * n, sizeof(double));
  P->q = calloc((size_t)n, sizeof(double));
  P->lo = calloc((size_t)n, sizeof(double));
  P->hi = calloc((size_t)n, sizeof(double));
  P->mu = calloc((size_t)n, sizeof(double));
  P->d = calloc((size_t)n, sizeof(double));
  P->findex = calloc((size_t)n, sizeof(int));
  P->cone = calloc((size_t)n, sizeof(int));
  P->grow = calloc((size_t)n + 1, sizeof(int));
  P->gcol = calloc((size_t)n * 12, sizeof(int));
  P->gval = calloc((size_t)n * 12, sizeof(double));
  P->hval = calloc((size_t)n * 12, sizeof(double));
  P->csrrow = calloc((size_t)n + 1, sizeof(int));
  P->csrcol = calloc((size_t)n * n, sizeof(int));
  P->csrval = calloc((size_t)n * n, sizeof(double));
  /* W of a body: A A^T / 6 + diag(1 / mass, 1 / inertia) */
  for (int b = 0; b < nb; b++) {
    double A[36], *Wb = P->W + 36 * b, mass = lk_rng_uniform(&r, 0.5, 5.0);
    for (int k = 0; k < 36; k++) A[k] = 0.3 * lk_rng_normal(&r);
    for (int i = 0; i < 6; i++)
      for (int j = 0; j < 6; j++) {
        double s = 0;
        for (int k = 0; k < 6; k++) s += A[6 * i + k] * A[6 * j + k];
        Wb[6 * i + j] = s / 6 + (i == j ? (i < 3 ? 1 / mass : 1 / (0.1 * mass)) : 0);
      }
  }
  double *v = calloc((size_t)m, sizeof(double));
  for (int k = 0; k < m; k++) v[k] = 0.3 * lk_rng_normal(&r);
  for (int b = 0; b < nb; b++) v[6 * b + 2] -= 1.0;
  int bodies[2 * 4096];
  for (int c = 0; c < nc; c++) {
    int a = c < nb ? c : lk_rng_int(&r, nb), b = lk_rng_int(&r, nb + nb / 2);
    if (b >= nb || b == a) b = -1; /* the ground */
    bodies[2 * c] = a, bodies[2 * c + 1] = b;
    double nn[3] = {0.3 * lk_rng_normal(&r), 0.3 * lk_rng_normal(&r), 1}, t1[3], t2[3], p[3],
           x[3] = {1, 0, 0};
    unit3(nn);
    cross3(nn, x, t1);
    unit3(t1);
    cross3(nn, t1, t2);
    for (int k = 0; k < 3; k++) p[k] = lk_rng_uniform(&r, -0.5, 0.5);
    const double *dirs[3] = {nn, t1, t2};
    for (int dd = 0; dd < 3; dd++) {
      int i = 3 * c + dd;
      double rxu[3];
      cross3(p, dirs[dd], rxu);
      for (int s = 0; s < 2; s++) {
        int body = s ? b : a;
        if (body < 0) continue;
        double sg = s ? -1 : 1;
        double *row = P->J + (size_t)i * m + 6 * body;
        for (int k = 0; k < 3; k++) row[k] = sg * dirs[dd][k], row[3 + k] = sg * rxu[k];
      }
      P->findex[i] = dd ? 3 * c : -1;
      P->cone[i] = dd == 0 ? -1 : (dd == 1 ? i + 1 : i - 1);
      P->mu[i] = dd ? mu : 0;
      P->lo[i] = 0, P->hi[i] = INFINITY;
      P->d[i] = dg;
    }
  }
  /* q = J v*, G and H over the rows' bodies (lower body first) */
  int e = 0;
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int k = 0; k < m; k++) s += P->J[(size_t)i * m + k] * v[k];
    P->q[i] = s;
    int c = i / 3, bs[2] = {bodies[2 * c], bodies[2 * c + 1]};
    if (bs[1] >= 0 && bs[1] < bs[0]) {
      int t = bs[0];
      bs[0] = bs[1], bs[1] = t;
    }
    P->grow[i] = e;
    for (int s2 = 0; s2 < 2; s2++) {
      int body = bs[s2];
      if (body < 0) continue;
      const double *Wb = P->W + 36 * body, *Jb = P->J + (size_t)i * m + 6 * body;
      for (int k = 0; k < 6; k++) {
        double h = 0;
        for (int l = 0; l < 6; l++) h += Jb[l] * Wb[6 * l + k];
        P->gcol[e] = 6 * body + k;
        P->gval[e] = Jb[k];
        P->hval[e] = h;
        e++;
      }
    }
  }
  P->grow[n] = e;
  /* M = J W J^T + d, summed as the product's entries are: G_i . H_j */
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      int a = P->grow[i], ae = P->grow[i + 1], b = P->grow[j], be = P->grow[j + 1];
      while (a < ae && b < be) {
        if (P->gcol[a] == P->gcol[b])
          s += P->gval[a++] * P->hval[b++];
        else if (P->gcol[a] < P->gcol[b])
          a++;
        else
          b++;
      }
      P->M[(size_t)i * n + j] = s + (i == j ? dg : 0);
    }
  int k = 0;
  for (int i = 0; i < n; i++) {
    P->csrrow[i] = k;
    for (int j = 0; j < n; j++)
      if (P->M[(size_t)i * n + j] != 0.0) P->csrcol[k] = j, P->csrval[k++] = P->M[(size_t)i * n + j];
  }
  P->csrrow[n] = k;
  free(v);
}

static void prob_free(prob *P) {
  free(P->J), free(P->W), free(P->M), free(P->q), free(P->lo), free(P->hi), free(P->mu);
  free(P->d), free(P->findex), free(P->cone), free(P->grow), free(P->gcol), free(P->gval);
  free(P->hval), free(P->csrrow), free(P->csrcol), free(P->csrval);
}

/* The three storages of one problem; cone 0: box friction. */
static void views(const prob *P, int cone, int diag, lk_lcp *dn, lk_lcp *cs, lk_lcp *pr) {
  memset(dn, 0, sizeof *dn);
  dn->n = P->n, dn->M = P->M, dn->q = P->q, dn->lo = P->lo, dn->hi = P->hi;
  dn->findex = P->findex, dn->mu = P->mu, dn->cone = cone ? P->cone : NULL;
  *cs = *dn;
  cs->M = NULL;
  cs->csr.row = P->csrrow, cs->csr.col = P->csrcol, cs->csr.val = P->csrval;
  *pr = *dn;
  pr->M = NULL;
  pr->prod.m = P->m;
  pr->prod.g.row = pr->prod.h.row = P->grow;
  pr->prod.g.col = pr->prod.h.col = P->gcol;
  pr->prod.g.val = P->gval, pr->prod.h.val = P->hval;
  pr->prod.d = diag ? P->d : NULL;
}

static double maxabs(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s = fmax(s, fabs(x[i]));
  return s;
}

/* Entries, residual, fc3d error and the NSGS answer agree across the three
 * storages; densify gives M back. */
static void check_agree(uint64_t seed, int nb, int nc, double mu, double dg, int cone) {
  prob P;
  prob_make(&P, seed, nb, nc, mu, dg);
  int n = P.n;
  lk_lcp dn, cs, pr;
  views(&P, cone, dg != 0, &dn, &cs, &pr);
  LK_ASSERT_OK(lk_lcp_check(&pr, NULL), lk_no_error);
  double *back = calloc((size_t)n * n, sizeof *back);
  LK_ASSERT_OK(lk_lcp_densify(&pr, back, n), lk_no_error);
  double mmax = maxabs(P.M, n * n), dmax = 0;
  for (size_t k = 0; k < (size_t)n * n; k++) dmax = fmax(dmax, fabs(back[k] - P.M[k]));
  LK_ASSERT_MSG(dmax <= 1e-15 * mmax, "densify differs by %g of %g", dmax, mmax);
  LK_ASSERT_MSG(lk_lcp_asymmetry(&pr) <= 1e-14, "asymmetry %g", lk_lcp_asymmetry(&pr));
  free(back);
  /* the measures on a point off the answer */
  lk_rng r;
  lk_rng_seed(&r, seed + 1);
  double *z = calloc((size_t)n, sizeof *z), *zd = calloc((size_t)n, sizeof *zd),
         *zp = calloc((size_t)n, sizeof *zp), *w = calloc((size_t)n, sizeof *w);
  for (int i = 0; i < n; i++) z[i] = lk_rng_uniform(&r, -0.2, 1);
  double rd = lk_lcp_residual(&dn, z, NULL), rs = lk_lcp_residual(&cs, z, NULL),
         rp = lk_lcp_residual(&pr, z, NULL);
  LK_ASSERT_REL(rp, rd, 1e-13, 1e-300);
  LK_ASSERT_REL(rs, rd, 1e-13, 1e-300);
  LK_ASSERT_REL(lk_lcp_fc3d_error(&pr, z), lk_lcp_fc3d_error(&dn, z), 1e-13, 1e-300);
  /* NSGS: the same answer, the same sweeps */
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  o.tol = 1e-12;
  lk_lcp_report Rd, Rs, Rp;
  lk_lcp_workspace *wsd = lk_lcp_workspace_new_for(lk_lcp_nsgs, n),
                   *wsp = lk_lcp_workspace_new_nsgs(n, P.m);
  lk_status sd = lk_lcp_solve(lk_lcp_nsgs, &dn, &o, wsd, zd, w, &Rd);
  lk_status ss = lk_lcp_solve(lk_lcp_nsgs, &cs, &o, wsd, z, w, &Rs);
  lk_status sp = lk_lcp_solve(lk_lcp_nsgs, &pr, &o, wsp, zp, w, &Rp);
  LK_ASSERT_OK(sd, lk_no_error);
  LK_ASSERT_OK(ss, lk_no_error);
  LK_ASSERT_OK(sp, lk_no_error);
  double zmax = maxabs(zd, n), dz = 0;
  for (int i = 0; i < n; i++) dz = fmax(dz, fabs(zp[i] - zd[i]));
  printf("  %d rows (%s%s): sweeps dense %d, csr %d, product %d; |z_p - z_d| %.1e of %.2g; "
         "error %.1e %.1e\n",
         n, cone ? "cones" : "boxes", dg ? ", diagonal" : "", Rd.sweeps, Rs.sweeps, Rp.sweeps,
         dz, zmax, Rd.error, Rp.error);
  LK_ASSERT_MSG(dz <= 1e-10 * zmax, "answers differ by %g of %g", dz, zmax);
  /* a workspace that trusts the pattern (the contact layer's): the same
   * answer to the bit, in the same sweeps */
  {
    double *zt = calloc((size_t)n, sizeof *zt), *wt = calloc((size_t)n, sizeof *wt);
    lk_lcp_workspace *wst = lk_lcp_workspace_new_nsgs(n, P.m);
    lk_lcp_workspace_trust_pattern(wst, 1);
    lk_lcp_report Rt;
    LK_ASSERT_OK(lk_lcp_solve(lk_lcp_nsgs, &pr, &o, wst, zt, wt, &Rt), lk_no_error);
    LK_ASSERT_INT_EQ(Rt.sweeps, Rp.sweeps);
    LK_ASSERT_MSG(memcmp(zt, zp, (size_t)n * sizeof *zt) == 0, "a trusted pattern changed z");
    lk_lcp_workspace_free(wst);
    free(zt), free(wt);
  }
  /* the same sweeps but for rounding (compressed rows sum in another
   * order too): within the full check's period of 16 and 2 % */
  LK_ASSERT_MSG(abs(Rp.sweeps - Rd.sweeps) <= 16 + Rd.sweeps / 50, "sweeps %d, dense %d",
                Rp.sweeps, Rd.sweeps);
  LK_ASSERT_MSG(Rp.error <= o.tol && Rp.residual_rel <= o.tol, "error %g, residual %g", Rp.error,
                Rp.residual_rel);
  /* the product's residual on its answer is the dense one's, to rounding;
   * its scale at least the dense one's */
  double rpd = lk_lcp_residual(&dn, zp, NULL), rpp = lk_lcp_residual(&pr, zp, NULL);
  LK_ASSERT_MSG(fabs(rpp - rpd) <= 1e-14 * (1 + maxabs(P.q, n)), "residuals %g %g", rpp, rpd);
  LK_ASSERT_MSG(Rp.residual_rel <= Rp.residual, "scale below 1");
  lk_lcp_workspace_free(wsd);
  lk_lcp_workspace_free(wsp);
  free(z), free(zd), free(zp), free(w);
  prob_free(&P);
}

static void test_prod_contacts(void) {
  /* rows <= columns (a unique answer), but for the diagonal's case */
  check_agree(11, 14, 24, 0.5, 0, 1);    /* 72 rows: the direct finish */
  check_agree(12, 12, 40, 0.3, 1e-4, 1); /* 120 rows on 72 columns, a diagonal */
  check_agree(13, 16, 30, 0.6, 0, 0);    /* boxes */
  check_agree(14, 80, 150, 0.4, 0, 1);   /* 450 rows: the sweeps alone */
}

/* The product's residual and its scale (one pass over H for u and |H|^T
 * |z|, one over G for each row's two sums) against both summed here
 * entry by entry from the dense M and from G, H: w_i = q_i + sum_j M_ij
 * z_j, scale = 1 + max_i max(|q_i|, sum_c |G_ic| sum_j |H_jc| |z_j| +
 * |d_i z_i|), the residual the largest natural-map residual of a row or a
 * circle pair. */
/* Returns whether every assertion inside held. */
static int check_residual_scale(uint64_t seed, int nb, int nc, double mu, double dg) {
  const unsigned failures0 = lk_test_failures();
  prob P;
  prob_make(&P, seed, nb, nc, mu, dg);
  int n = P.n, m = P.m;
  lk_lcp dn, cs, pr;
  views(&P, 1, dg != 0, &dn, &cs, &pr);
  lk_rng r;
  lk_rng_seed(&r, seed + 7);
  double *z = calloc((size_t)n, sizeof *z), *w = calloc((size_t)n, sizeof *w),
         *wr = calloc((size_t)n, sizeof *wr), *ua = calloc((size_t)m, sizeof *ua);
  for (int i = 0; i < n; i++) z[i] = i % 5 == 0 ? 0.0 : lk_rng_uniform(&r, -0.2, 1);
  for (int i = 0; i < n; i++)
    for (int e = P.grow[i]; e < P.grow[i + 1]; e++) ua[P.gcol[e]] += fabs(P.hval[e] * z[i]);
  double sc = 0, res = 0;
  for (int i = 0; i < n; i++) {
    double s = P.q[i], mag = dg != 0 ? fabs(P.d[i] * z[i]) : 0;
    for (int j = 0; j < n; j++) s += P.M[(size_t)i * n + j] * z[j];
    for (int e = P.grow[i]; e < P.grow[i + 1]; e++) mag += fabs(P.gval[e]) * ua[P.gcol[e]];
    wr[i] = s;
    sc = fmax(sc, fmax(fabs(P.q[i]), mag));
  }
  sc += 1;
  for (int i = 0; i < n; i++) {
    if (i % 3 == 0) { /* a normal: [0, inf) */
      res = fmax(res, fabs(z[i] - fmax(0.0, z[i] - wr[i])));
    } else if (i % 3 == 1) { /* its pair onto the disk of mu |z_n| */
      double x0 = z[i] - wr[i], x1 = z[i + 1] - wr[i + 1], R = mu * fabs(z[i - 1]);
      double t = sqrt(x0 * x0 + x1 * x1);
      if (t > R) x0 *= R / t, x1 *= R / t;
      res = fmax(res, fmax(fabs(z[i] - x0), fabs(z[i + 1] - x1)));
    }
  }
  double scale, got = lk_lcp_residual_scaled(&pr, z, NULL, w, &scale, NULL);
  double wmax = maxabs(wr, n), dw = 0;
  for (int i = 0; i < n; i++) dw = fmax(dw, fabs(w[i] - wr[i]));
  printf("  %d rows%s: residual %.6g (here %.6g), scale %.6g (here %.6g), |w - w_here| %.1e\n", n,
         dg ? ", diagonal" : "", got, res, scale, sc, dw);
  LK_ASSERT_MSG(dw <= 1e-14 * (1 + wmax), "w differs by %g", dw);
  LK_ASSERT_REL(scale, sc, 1e-14, 1e-300);
  LK_ASSERT_MSG(fabs(got - res) <= 1e-14 * scale, "residual %.17g, here %.17g", got, res);
  /* the dense storage's residual is the same (its scale is its own) */
  LK_ASSERT_MSG(fabs(lk_lcp_residual(&dn, z, NULL) - res) <= 1e-14 * scale, "dense residual");
  free(z), free(w), free(wr), free(ua);
  prob_free(&P);
  return lk_test_failures() == failures0;
}

static void test_prod_residual_scale(void) {
  CU_ASSERT_TRUE(check_residual_scale(41, 12, 30, 0.5, 0));
  CU_ASSERT_TRUE(check_residual_scale(42, 20, 60, 0.3, 1e-3));
}

/* The measures a solve reports are those of the z and w it returns: an
 * accepted guess (w = M z + q, the fc3d error at z), a guess refused for
 * the sweeps (which start from the u = H^T z the check formed: the same
 * answer and sweeps as the dense storage from the same guess, without
 * Anderson's steps, after which u is formed again), and a converged solve
 * (its error measured once, by NSGS's last check). */
static void test_prod_guess_measures(void) {
  prob P;
  prob_make(&P, 51, 30, 80, 0.5, 0);
  int n = P.n;
  lk_lcp dn, cs, pr;
  views(&P, 1, 0, &dn, &cs, &pr);
  lk_lcp_workspace *wsp = lk_lcp_workspace_new_nsgs(n, P.m),
                   *wsd = lk_lcp_workspace_new_for(lk_lcp_nsgs, n);
  double *z = calloc((size_t)n, sizeof *z), *w = calloc((size_t)n, sizeof *w),
         *zg = calloc((size_t)n, sizeof *zg), *zd = calloc((size_t)n, sizeof *zd),
         *wd = calloc((size_t)n, sizeof *wd), *wr = calloc((size_t)n, sizeof *wr);
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  o.tol = 1e-12;
  lk_lcp_report R;
  LK_ASSERT_OK(lk_lcp_solve(lk_lcp_nsgs, &pr, &o, wsp, z, w, &R), lk_no_error);
  LK_ASSERT_REL(R.error, lk_lcp_fc3d_error(&pr, z), 1e-12, 1e-300);
  /* (the dense storage's w differs at rounding: so does an error near it) */
  LK_ASSERT_MSG(fabs(R.error - lk_lcp_fc3d_error(&dn, z)) <= 1e-14, "dense error %g",
                lk_lcp_fc3d_error(&dn, z));
  LK_ASSERT_MSG(R.error <= o.tol && R.residual_rel <= o.tol, "error %g residual %g", R.error,
                R.residual_rel);
  /* the answer as a guess: accepted, w its own M z + q */
  memcpy(zg, z, sizeof *z * (size_t)n);
  o.z_guess = zg;
  o.guess_tol = 1e-9;
  LK_ASSERT_OK(lk_lcp_solve(lk_lcp_nsgs, &pr, &o, wsp, z, w, &R), lk_no_error);
  LK_ASSERT_INT_EQ(R.warm, LK_LCP_WARM_GUESS);
  LK_ASSERT_INT_EQ(R.sweeps, 0);
  for (int i = 0; i < n; i++) {
    double s = P.q[i];
    for (int j = 0; j < n; j++) s += P.M[(size_t)i * n + j] * z[j];
    wr[i] = s;
  }
  double dw = 0;
  for (int i = 0; i < n; i++) dw = fmax(dw, fabs(w[i] - wr[i]));
  LK_ASSERT_MSG(dw <= 1e-14 * (1 + maxabs(wr, n)), "accepted guess: w off by %g", dw);
  LK_ASSERT_REL(R.error, lk_lcp_fc3d_error(&pr, z), 1e-12, 1e-300);
  /* a guess off the answer (some contacts' loads moved by a tenth): refused,
   * swept from; the product's sweeps are the dense storage's */
  for (int i = 0; i < n; i += 9) zg[i] *= 1.1;
  o.guess_tol = 1e-13;
  o.anderson = 0; /* (so that u is never formed again: a wrong start stays) */
  memcpy(zd, zg, sizeof *z * (size_t)n);
  lk_lcp_report Rd;
  LK_ASSERT_OK(lk_lcp_solve(lk_lcp_nsgs, &pr, &o, wsp, z, w, &R), lk_no_error);
  o.z_guess = zd;
  LK_ASSERT_OK(lk_lcp_solve(lk_lcp_nsgs, &dn, &o, wsd, zd, wd, &Rd), lk_no_error);
  LK_ASSERT_MSG(R.warm != LK_LCP_WARM_GUESS && R.sweeps > 0, "the guess was taken");
  double dz = 0;
  for (int i = 0; i < n; i++) dz = fmax(dz, fabs(z[i] - zd[i]));
  printf("  refused guess: sweeps product %d, dense %d; |z_p - z_d| %.1e of %.2g\n", R.sweeps,
         Rd.sweeps, dz, maxabs(zd, n));
  LK_ASSERT_MSG(dz <= 1e-10 * maxabs(zd, n), "answers differ by %g", dz);
  LK_ASSERT_MSG(abs(R.sweeps - Rd.sweeps) <= 16 + Rd.sweeps / 50, "sweeps %d, dense %d", R.sweeps,
                Rd.sweeps);
  LK_ASSERT_REL(R.error, lk_lcp_fc3d_error(&pr, z), 1e-12, 1e-300);
  lk_lcp_workspace_free(wsp);
  lk_lcp_workspace_free(wsd);
  free(z), free(w), free(zg), free(zd), free(wd), free(wr);
  prob_free(&P);
}

/* A frictionless LCP, M = G D G^T SPD on random sparse G (n > m: rank
 * deficient without the ridge d). */
static void test_prod_spd_lcp(void) {
  enum { N = 60, MC = 40, K = 4 };
  static int row[N + 1], col[N * K];
  static double g[N * K], h[N * K], dd[MC], d[N], M[N * N], q[N], z1[N], z2[N], w[N];
  lk_rng r;
  lk_rng_seed(&r, 21);
  for (int k = 0; k < MC; k++) dd[k] = lk_rng_uniform(&r, 0.5, 2);
  for (int i = 0; i < N; i++) {
    row[i] = K * i;
    int c0 = lk_rng_int(&r, MC - K + 1);
    for (int k = 0; k < K; k++) {
      col[K * i + k] = c0 + k;
      g[K * i + k] = lk_rng_normal(&r);
      h[K * i + k] = g[K * i + k] * dd[c0 + k];
    }
    d[i] = 1e-3;
    q[i] = lk_rng_uniform(&r, -1, 1);
  }
  row[N] = N * K;
  lk_lcp pr;
  memset(&pr, 0, sizeof pr);
  pr.n = N, pr.q = q;
  pr.prod.m = MC, pr.prod.g.row = pr.prod.h.row = row, pr.prod.g.col = pr.prod.h.col = col;
  pr.prod.g.val = g, pr.prod.h.val = h, pr.prod.d = d;
  LK_ASSERT_OK(lk_lcp_densify(&pr, M, N), lk_no_error);
  for (int i = 0; i < N; i++) { /* one entry against its definition */
    double s = i == 7 ? d[7] : 0;
    for (int a = row[i]; a < row[i + 1]; a++)
      for (int b = row[7]; b < row[8]; b++)
        if (col[a] == col[b]) s += g[a] * h[b];
    LK_ASSERT_NEAR(M[i * N + 7], s, 1e-15 * (1 + fabs(s)));
  }
  lk_lcp dn;
  memset(&dn, 0, sizeof dn);
  dn.n = N, dn.M = M, dn.q = q;
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  o.tol = 1e-12;
  lk_lcp_workspace *wsd = lk_lcp_workspace_new(N), *wsp = lk_lcp_workspace_new_nsgs(N, MC);
  lk_lcp_report rd, rp;
  LK_ASSERT_OK(lk_lcp_solve(lk_lcp_dantzig, &dn, NULL, wsd, z1, w, &rd), lk_no_error);
  LK_ASSERT_OK(lk_lcp_solve(lk_lcp_nsgs, &pr, &o, wsp, z2, w, &rp), lk_no_error);
  double zmax = maxabs(z1, N);
  for (int i = 0; i < N; i++) LK_ASSERT_NEAR(z2[i], z1[i], 1e-9 * zmax);
  LK_ASSERT_OK(lk_lcp_solve(lk_lcp_nsgs, &dn, &o, wsd, z1, w, &rd), lk_no_error);
  printf("  SPD LCP of %d rows on %d columns: sweeps dense %d, product %d\n", N, MC, rd.sweeps,
         rp.sweeps);
  LK_ASSERT_INT_EQ(rp.sweeps, rd.sweeps);
  lk_lcp_workspace_free(wsd);
  lk_lcp_workspace_free(wsp);
}

/* Bad products are refused naming the fault; pivoting solvers refuse
 * products; a workspace without the columns' room says so. */
static void test_prod_bad_input(void) {
  double q[2] = {-1, -1}, g[3] = {1, 1, 2}, gnan[3] = {1, NAN, 2}, dnan[2] = {0, NAN};
  int row[3] = {0, 2, 3}, col[3] = {0, 1, 1}, colbad[3] = {0, 3, 1}, colrev[3] = {1, 0, 1};
  struct {
    int m;
    const int *hrow, *gcol, *hcol;
    const double *gval, *hval, *d;
    lk_status s;
    const char *words;
  } bad[] = {
      {0, row, col, col, g, g, NULL, LK_INVALID_ARGUMENT, "m = 0"},
      {2, NULL, col, col, g, g, NULL, LK_INVALID_ARGUMENT, "without H"},
      {2, row, colbad, colbad, g, g, NULL, LK_INVALID_ARGUMENT, "column 3"},
      {2, row, colrev, colrev, g, g, NULL, LK_INVALID_ARGUMENT, "increasing"},
      {2, row, col, col, gnan, g, NULL, LK_NON_FINITE, "row 0 of G"},
      {2, row, col, col, g, gnan, NULL, LK_NON_FINITE, "row 0 of H"}, /* G's pattern */
      {2, row, col, colbad, g, g, NULL, LK_INVALID_ARGUMENT, "of H: column 3"}, /* its own */
      {2, row, col, col, g, g, dnan, LK_NON_FINITE, "d[1]"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
    lk_lcp p;
    memset(&p, 0, sizeof p);
    p.n = 2, p.q = q;
    p.prod.m = bad[k].m;
    p.prod.g.row = row, p.prod.g.col = bad[k].gcol, p.prod.g.val = bad[k].gval;
    p.prod.h.row = bad[k].hrow, p.prod.h.col = bad[k].hcol, p.prod.h.val = bad[k].hval;
    p.prod.d = bad[k].d;
    lk_error e;
    LK_ASSERT_INT_EQ(lk_lcp_check(&p, &e), bad[k].s);
    LK_ASSERT_MSG(strstr(e.message, bad[k].words) != NULL, "case %zu: '%s'", k, e.message);
    /* a trusted pattern (the contact layer's) still has its values and
     * shape checked: what is not finite, m, a missing H */
    if (bad[k].gcol != colbad && bad[k].gcol != colrev && bad[k].hcol != colbad)
      LK_ASSERT_INT_EQ(lk_lcp_check_trusted(&p, &e), bad[k].s);
  }
  {
    /* ... and the solve on a trusting workspace refuses them too */
    double z2[2], w2[2];
    lk_lcp p2;
    memset(&p2, 0, sizeof p2);
    p2.n = 2, p2.q = q;
    p2.prod.m = 2, p2.prod.g.row = p2.prod.h.row = row, p2.prod.g.col = p2.prod.h.col = col;
    p2.prod.g.val = g, p2.prod.h.val = gnan;
    lk_lcp_workspace *tw = lk_lcp_workspace_new_nsgs(2, 2);
    lk_lcp_workspace_trust_pattern(tw, 1);
    LK_ASSERT_INT_EQ(lk_lcp_solve(lk_lcp_nsgs, &p2, NULL, tw, z2, w2, NULL), LK_NON_FINITE);
    p2.prod.h.val = g;
    p2.prod.d = dnan;
    LK_ASSERT_INT_EQ(lk_lcp_solve(lk_lcp_nsgs, &p2, NULL, tw, z2, w2, NULL), LK_NON_FINITE);
    lk_lcp_workspace_free(tw);
  }
  /* G = H = [[1 1], [0 2]]: M = [[2 2], [2 4]] */
  lk_lcp p;
  memset(&p, 0, sizeof p);
  p.n = 2, p.q = q;
  p.prod.m = 2, p.prod.g.row = p.prod.h.row = row, p.prod.g.col = p.prod.h.col = col;
  p.prod.g.val = p.prod.h.val = g;
  double M[4], z[2], w[2];
  LK_ASSERT_OK(lk_lcp_densify(&p, M, 2), lk_no_error);
  LK_ASSERT_NEAR(M[0], 2, 0);
  LK_ASSERT_NEAR(M[1], 2, 0);
  LK_ASSERT_NEAR(M[2], 2, 0);
  LK_ASSERT_NEAR(M[3], 4, 0);
  lk_lcp_workspace *full = lk_lcp_workspace_new(2), *narrow = lk_lcp_workspace_new_nsgs(2, 1);
  LK_ASSERT_INT_EQ(lk_lcp_solve(lk_lcp_dantzig, &p, NULL, full, z, w, NULL), LK_UNSUPPORTED);
  LK_ASSERT_INT_EQ(lk_lcp_solve(lk_lcp_lemke, &p, NULL, full, z, w, NULL), LK_UNSUPPORTED);
  LK_ASSERT_INT_EQ(lk_lcp_solve(lk_lcp_nsgs, &p, NULL, narrow, z, w, NULL), LK_CAPACITY_EXCEEDED);
  /* 2 z0 + 2 z1 = 1, 2 z0 + 5 z1 = 1: z = (0.5, 0) (w1 = 0 at z1 = 0) */
  lk_lcp_report r;
  LK_ASSERT_OK(lk_lcp_solve(lk_lcp_nsgs, &p, NULL, full, z, w, &r), lk_no_error);
  LK_ASSERT_NEAR(z[0], 0.5, 1e-12);
  LK_ASSERT_NEAR(z[1], 0, 1e-12);
  LK_ASSERT_NEAR(w[1], 0, 1e-12);
  lk_lcp_workspace_free(full);
  lk_lcp_workspace_free(narrow);
}


static void test_prod_no_allocation(void) {
  prob P;
  prob_make(&P, 31, 10, 30, 0.5, 0);
  lk_lcp dn, cs, pr;
  views(&P, 1, 0, &dn, &cs, &pr);
  lk_lcp_workspace *ws = lk_lcp_workspace_new_nsgs(P.n, P.m);
  double *z = calloc((size_t)P.n, sizeof *z), *w = calloc((size_t)P.n, sizeof *w);
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  lk_allocator a = LK_TEST_COUNTING_ALLOCATOR;
  lk_set_allocator(&a);
  lk_test_allocs = 0;
  lk_status s1 = lk_lcp_solve(lk_lcp_nsgs, &pr, &o, ws, z, w, NULL);
  o.z_guess = z;
  lk_status s2 = lk_lcp_solve(lk_lcp_nsgs, &pr, &o, ws, z, w, NULL);
  size_t during = lk_test_allocs;
  lk_set_allocator(NULL);
  LK_ASSERT_OK(s1, lk_no_error);
  LK_ASSERT_OK(s2, lk_no_error);
  LK_ASSERT_INT_EQ(during, 0);
  lk_lcp_workspace_free(ws);
  free(z), free(w);
  prob_free(&P);
}

static const lk_test tests[] = {
    {"contacts: product, compressed and dense storage agree (answers, sweeps)", test_prod_contacts},
    {"a frictionless SPD LCP on a product: Dantzig's answer, dense sweeps", test_prod_spd_lcp},
    {"bad products refused; pivoting solvers and narrow workspaces refuse them", test_prod_bad_input},
    {"no allocation in a solve on a product", test_prod_no_allocation},
    {"a product's residual and scale: those summed entry by entry", test_prod_residual_scale},
    {"a solve's measures are its z's: accepted and refused guesses, the last check",
     test_prod_guess_measures},
    {NULL, NULL},
};

void lk_test_register_prod(void) { lk_test_suite("lcp product storage", tests); }
