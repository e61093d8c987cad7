/* bench/lcp: median time and pivots per solve of Linkage's LCP solvers on
 * the random families of the tests, at n = 10, 50, 100, 200, next to one
 * dense Cholesky factorization of the same size (a yardstick of what O(n^3)
 * costs on this machine) and, when Siconos numerics is installed, its
 * lexicographic Lemke (lcp_lexicolemke) on the same problems in the same
 * run. Machines are noisy: every figure is a median, the ratio is Siconos'
 * median over ours. Success means a residual under 1e-9 (relative, as
 * max|min(z, w)| / (1 + max|q|), for Siconos' answers checked by us).
 * Then, given a directory of Siconos' friction-contact files, the
 * collection (fc3d.c).
 *
 *   bench/lcp [--quick] [--fc3d DIR | --fc3d-only DIR] [--pivot-contacts N]
 *
 * --quick: fewer problems, for a smoke run; --fc3d DIR (or the environment
 * variable LK_FC3D_DIR): the collection too, --fc3d-only DIR: the
 * collection alone; --pivot-contacts N: Lemke and Dantzig on problems of
 * at most N contacts (default 60: beyond, a pivoting solve of the box
 * cone takes minutes, issue 20). */
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "lcp_gen.h"
#include "linkage/linkage.h"

#ifdef HAVE_SICONOS
#include <siconos/numerics/LinearComplementarityProblem.h>
#include <siconos/numerics/LCP_Solvers.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/lcp_cst.h>
#endif

#define NMAX 210

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *x, int n) {
  if (n == 0) return NAN;
  qsort(x, (size_t)n, sizeof *x, cmp_double);
  return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

#ifdef HAVE_SICONOS
static double std_residual(int n, const double *M, const double *q, const double *z) {
  double r = 0, qm = 0;
  for (int i = 0; i < n; i++) {
    double w = q[i];
    for (int j = 0; j < n; j++) w += M[i * n + j] * z[j];
    if (!isfinite(w) || !isfinite(z[i])) return INFINITY;
    r = fmax(r, fabs(fmin(z[i], w)));
    qm = fmax(qm, fabs(q[i]));
  }
  return r / (1 + qm);
}
#endif

/* Seconds per call of f(arg), repeated until about 2 ms have passed. */
typedef int (*solve_fn)(void *arg);
static double time_per_call(solve_fn f, void *arg, int *ok) {
  double t0 = now();
  *ok = f(arg);
  double t1 = now() - t0;
  int reps = t1 > 0 ? (int)(2e-3 / t1) : 1000;
  if (reps < 1) return t1;
  if (reps > 1000) reps = 1000;
  t0 = now();
  for (int r = 0; r < reps; r++) f(arg);
  return (now() - t0) / reps;
}

typedef struct {
  const lk_lcp_solver *type;
  lk_lcp p;
  lk_lcp_workspace *ws;
  double *z, *w;
  int pivots;
} ours_arg;

static int run_ours(void *a) {
  ours_arg *o = a;
  lk_lcp_report r;
  lk_status s = lk_lcp_solve(o->type, &o->p, NULL, o->ws, o->z, o->w, &r);
  o->pivots = r.pivots;
  return s == LK_OK;
}

typedef struct {
  int n;
  const double *M;
  gsl_matrix *A;
} chol_arg;

static int run_chol(void *a) {
  chol_arg *c = a;
  for (int i = 0; i < c->n; i++) memcpy(gsl_matrix_ptr(c->A, i, 0), c->M + i * c->n, sizeof(double) * c->n);
  return gsl_linalg_cholesky_decomp1(c->A) == 0;
}

#ifdef HAVE_SICONOS
typedef struct {
  LinearComplementarityProblem lcp;
  SolverOptions *opt;
  double *z, *w;
  int info, pivots;
} siconos_arg;

static int run_siconos(void *a) {
  siconos_arg *s = a;
  memset(s->z, 0, sizeof(double) * s->lcp.size);
  memset(s->w, 0, sizeof(double) * s->lcp.size);
  lcp_lexicolemke(&s->lcp, s->z, s->w, &s->info, s->opt);
  s->pivots = s->opt->iparam[SICONOS_IPARAM_ITER_DONE];
  return s->info == 0;
}
#endif

enum { F_SPD, F_PSD, F_NONSYM, F_PMAT, F_FRICTION, F_BOXED, NFAM };
static const char *const kNames[NFAM] = {"SPD", "PSD (rank n/2)", "non-sym PD", "P-matrix",
                                         "friction (S-T)", "contact box+findex"};

int lk_bench_fc3d(const char *dir, int pivot_contacts);

int main(int argc, char **argv) {
  int quick = 0, only = 0, pivot_contacts = 60;
  const char *fc3d = getenv("LK_FC3D_DIR");
  for (int a = 1; a < argc; a++) {
    if (strcmp(argv[a], "--quick") == 0) {
      quick = 1;
    } else if ((strcmp(argv[a], "--fc3d") == 0 || strcmp(argv[a], "--fc3d-only") == 0) && a + 1 < argc) {
      only = strcmp(argv[a], "--fc3d-only") == 0;
      fc3d = argv[++a];
    } else if (strcmp(argv[a], "--pivot-contacts") == 0 && a + 1 < argc) {
      pivot_contacts = atoi(argv[++a]);
    } else {
      fprintf(stderr, "usage: bench/lcp [--quick] [--fc3d DIR | --fc3d-only DIR] [--pivot-contacts N]\n");
      return 2;
    }
  }
  if (only) return lk_bench_fc3d(fc3d, pivot_contacts);
  static double M[NMAX * NMAX], q[NMAX], lo[NMAX], hi[NMAX], mu[NMAX], z[NMAX], w[NMAX], zs[NMAX];
  static int fi[NMAX];
  const int sizes[4] = {10, 50, 100, 200};
  lk_lcp_workspace *ws = lk_lcp_workspace_new(3 * NMAX);
  gsl_set_error_handler_off();
  printf("Linkage LCP benchmark: median time per solve (microseconds) and median pivots\n");
#ifdef HAVE_SICONOS
  printf("Siconos numerics: lcp_lexicolemke, same problems, same run; ratio = Siconos / Lemke\n");
#else
  printf("Siconos numerics not found at configure time: no comparison\n");
#endif
  printf("\n%-19s %4s %5s | %9s %6s | %9s %6s | %9s | %9s %6s %6s | %9s %9s\n", "family", "n", "probs",
         "lemke us", "piv", "dantzig", "piv", "chol us", "siconos", "piv", "ratio", "ok ours", "ok sicon");
  for (int f = 0; f < NFAM; f++) {
    for (int si = 0; si < 4; si++) {
      int n0 = sizes[si];
      int count = quick ? 5 : (n0 <= 10 ? 200 : (n0 <= 50 ? 60 : (n0 <= 100 ? 30 : 20)));
      double tl[200], td[200], tc[200], ts[200], pl[200], pd[200], ps[200];
      int nl = 0, nd = 0, nc = 0, ns = 0, okl = 0, okd = 0, oks = 0, n = n0, sic_only = 0;
      lk_rng rng;
      lk_rng_seed(&rng, (uint64_t)(1000 * f + n0));
      for (int t = 0; t < count; t++) {
        lk_lcp p;
        memset(&p, 0, sizeof p);
        int symmetric = f == F_SPD || f == F_PSD || f == F_BOXED;
        switch (f) {
          case F_SPD:
            lk_gen_spd(&rng, n0, 0.01, M, n0);
            lk_gen_q_uniform(&rng, n0, q);
            n = n0;
            break;
          case F_PSD:
            lk_gen_psd(&rng, n0, n0 / 2 + 1, M, n0);
            lk_gen_q_solvable(&rng, n0, M, n0, 0.5, q, zs);
            n = n0;
            break;
          case F_NONSYM:
            lk_gen_nonsym_pd(&rng, n0, M, n0);
            lk_gen_q_uniform(&rng, n0, q);
            n = n0;
            break;
          case F_PMAT:
            lk_gen_pmatrix(&rng, n0, M, n0);
            lk_gen_q_uniform(&rng, n0, q);
            n = n0;
            break;
          case F_FRICTION: {
            lk_contacts c;
            int k = n0 / 6 > 0 ? n0 / 6 : 1;
            lk_gen_contacts(&rng, (k + 1) / 2, k, 0.6, &c);
            n = lk_gen_stewart_trinkle_size(&c, 4);
            lk_gen_stewart_trinkle(&c, 4, M, n, q);
            lk_contacts_free(&c);
            break;
          }
          default: {
            lk_contacts c;
            int k = (n0 + 1) / 3;
            lk_gen_contacts(&rng, (k + 1) / 2, k, 0.6, &c);
            n = 3 * k;
            lk_gen_contacts_boxed(&c, 0.0, M, n, q, lo, hi, fi, mu);
            lk_contacts_free(&c);
            p.lo = lo, p.hi = hi, p.findex = fi, p.mu = mu;
            break;
          }
        }
        p.n = n, p.M = M, p.q = q;
        ours_arg oa = {lk_lcp_lemke, p, ws, z, w, 0};
        int ok;
        tl[nl] = time_per_call(run_ours, &oa, &ok);
        pl[nl++] = oa.pivots;
        okl += ok;
#ifdef HAVE_SICONOS
        int ours_ok = ok;
#endif
        if (symmetric) {
          oa.type = lk_lcp_dantzig;
          td[nd] = time_per_call(run_ours, &oa, &ok);
          pd[nd++] = oa.pivots;
          okd += ok;
        }
        if (f == F_SPD) {
          gsl_matrix *A = gsl_matrix_alloc((size_t)n, (size_t)n);
          chol_arg ca = {n, M, A};
          tc[nc++] = time_per_call(run_chol, &ca, &ok);
          gsl_matrix_free(A);
        }
#ifdef HAVE_SICONOS
        if (f != F_BOXED) {
          siconos_arg sa;
          memset(&sa, 0, sizeof sa);
          sa.lcp.size = n;
          sa.lcp.M = NM_create(NM_DENSE, n, n);
          for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) sa.lcp.M->matrix0[j * n + i] = M[i * n + j]; /* column-major */
          sa.lcp.q = q;
          sa.opt = solver_options_create(SICONOS_LCP_LEMKE);
          sa.z = calloc((size_t)n, sizeof(double));
          sa.w = calloc((size_t)n, sizeof(double));
          ts[ns] = time_per_call(run_siconos, &sa, &ok);
          ps[ns++] = sa.pivots;
          /* Success is judged by the same check as ours. */
          run_siconos(&sa);
          int sok = sa.info == 0 && std_residual(n, M, q, sa.z) < 1e-9;
          oks += sok;
          sic_only += sok && !ours_ok;
          free(sa.z);
          free(sa.w);
          solver_options_delete(sa.opt);
          NM_free(sa.lcp.M);
        }
#endif
      }
      double ml = median(tl, nl) * 1e6, md = median(td, nd) * 1e6, mc = median(tc, nc) * 1e6;
      double ms = median(ts, ns) * 1e6;
      double mpl = median(pl, nl), mpd = median(pd, nd), mps = median(ps, ns);
      char dz[32] = "-", dp[16] = "-", ch[32] = "-", sc[32] = "-", sp[16] = "-", ra[16] = "-", so[32] = "-";
      if (nd) snprintf(dz, sizeof dz, "%.1f", md), snprintf(dp, sizeof dp, "%.0f", mpd);
      if (nc) snprintf(ch, sizeof ch, "%.1f", mc);
      if (ns) {
        snprintf(sc, sizeof sc, "%.1f", ms);
        snprintf(sp, sizeof sp, "%.0f", mps);
        snprintf(ra, sizeof ra, "%.2fx", ms / ml);
        snprintf(so, sizeof so, "%d/%d", oks, ns);
      }
      char ol[32];
      if (nd)
        snprintf(ol, sizeof ol, "%d+%d/%d", okl, okd, count);
      else
        snprintf(ol, sizeof ol, "%d/%d", okl, count);
      printf("%-19s %4d %5d | %9.1f %6.0f | %9s %6s | %9s | %9s %6s %6s | %9s %9s%s\n", kNames[f], n, count, ml,
             mpl, dz, dp, ch, sc, sp, ra, ol, so, sic_only ? "  (Siconos solved one we did not!)" : "");
      fflush(stdout);
    }
  }
  printf("\nok ours: Lemke (+ Dantzig where M is symmetric) solves out of problems; times exclude\n"
         "problem generation; Dantzig on the contact family includes its Lemke fallbacks.\n");
  lk_lcp_workspace_free(ws);
  if (fc3d && *fc3d) return lk_bench_fc3d(fc3d, pivot_contacts);
  printf("\nSiconos' friction-contact collection: not run (give its directory: --fc3d DIR or "
         "LK_FC3D_DIR)\n");
  return 0;
}
