/* bench/lcp, second part: Siconos' friction-contact collection (the .dat
 * files of numerics/src/FrictionContact/test/data that a directory holds)
 * through Linkage's solvers: NSGS on the exact cone at tolerances 1e-6 and
 * 1e-9, and Lemke and Dantzig on the box approximation of each cone (the
 * pivoting solvers take boxes only; their answers are then measured on the
 * circle by the same fc3d error), side by side with what Siconos' own
 * fc3d_nsgs measured on a machine of this kind (the table of the
 * collection's README.md, copied below) and, when configure found Siconos
 * numerics (Debian libsiconos-numerics-dev), Siconos' fc3d_nsgs run here
 * on each file by turns with ours: read by Siconos' own reader, default
 * options but the tolerance (1e-6, as ours) and 10 000 iterations (our
 * sweep cap), from zero; its error as it reports it and as
 * lk_lcp_fc3d_error measures its answer (the same definition).
 *
 * Reading is Linkage's own (lk_lcp_problem_load): nothing of Siconos is
 * needed. Times are medians of repeated solves from a cold start (z = 0),
 * excluding reading; "ok" means the solver reported success, and for NSGS
 * that its fc3d error and relative residual are both at most the
 * tolerance. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "linkage/linkage.h"

#ifdef HAVE_SICONOS
#include <siconos/numerics/FrictionContactProblem.h>
#include <siconos/numerics/Friction_cst.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/fc3d_Solvers.h>
#endif

int lk_bench_fc3d(const char *dir, int pivot_contacts);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Siconos 4.4 fc3d_nsgs, default options (tolerance 1e-4 on its error,
 * 1000 iterations), from the collection's README.md: the files a row
 * names (prefix match), NSGS info (0: converged), the error it reached
 * and its time, a range where the row covers several files. */
typedef struct {
  const char *prefix;
  int info;
  const char *error;
  double t_lo, t_hi; /* seconds */
} siconos_row;

static const siconos_row kSiconos[] = {
    {"FrictionContact3D_1c", 0, "<=2e-16", 2e-6, 2e-6},
    {"FrictionContact3D_RR_1c", 0, "<=2e-16", 2e-6, 2e-6},
    {"FC3D_Example1", 0, "<=2e-16", 3e-6, 6e-6},
    {"Confeti-ex13-4contact", 0, "<=2e-16", 3e-6, 6e-6},
    {"Rover", 0, "<=2e-7", 3e-6, 57e-6},
    {"NESpheres_10_1", 0, "1.4e-6", 55e-6, 55e-6},
    {"OneObject-i1028-138", 0, "1.5e-5", 3.1e-3, 3.1e-3},
    {"OneObject-i100000-499", 1, "9.9e-4", 15e-3, 15e-3},
    {"NESpheres_30_1", 0, "0", 66e-6, 66e-6},
    {"BoxesStack1-i100000-32", 1, "1.7e-4", 21e-3, 21e-3},
    {"Confeti-ex03", 0, "3.9e-9", 0.9e-3, 0.9e-3},
    {"Confeti-ex13-Fc3D", 0, "3.9e-9", 1.5e-3, 1.5e-3},
    {"Capsules-i101-404", 0, "5.5e-7", 219e-3, 219e-3},
    {"Capsules-i100-1090", 0, "<=1.5e-6", 28e-3, 120e-3},
    {"Capsules-i103-990", 0, "<=1.5e-6", 28e-3, 120e-3},
    {"Capsules-i100-889", 0, "<=1.5e-6", 28e-3, 120e-3},
};

static const siconos_row *siconos_for(const char *name) {
  const siconos_row *best = NULL;
  for (size_t k = 0; k < sizeof kSiconos / sizeof *kSiconos; k++)
    if (strncmp(name, kSiconos[k].prefix, strlen(kSiconos[k].prefix)) == 0 &&
        (!best || strlen(kSiconos[k].prefix) > strlen(best->prefix)))
      best = &kSiconos[k];
  return best;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int cmp_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct {
  int ok, iters;
  double error, time;
} outcome;

/* Median time of solves of p from z = 0, repeated to about 20 ms (at least
 * 3, at most 101 solves; one when a solve takes over a second). */
static outcome solve(const lk_lcp_solver *type, const lk_lcp *p, const lk_lcp *measured, double tol,
                     lk_lcp_workspace *ws, double *z, double *w) {
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  o.tol = tol;
  lk_lcp_report r;
  double t[101];
  int reps = 0;
  double t0 = now();
  lk_status s = lk_lcp_solve(type, p, &o, ws, z, w, &r);
  t[reps++] = now() - t0;
  int want = t[0] > 1.0 ? 1 : (int)fmin(101, fmax(3, 20e-3 / fmax(t[0], 1e-9)));
  while (reps < want) {
    t0 = now();
    lk_lcp_solve(type, p, &o, ws, z, w, &r);
    t[reps++] = now() - t0;
  }
  qsort(t, (size_t)reps, sizeof *t, cmp_double);
  outcome out = {s == LK_OK, type == lk_lcp_nsgs || type == lk_lcp_newton ? r.sweeps : r.pivots,
                 lk_lcp_fc3d_error(measured, z), t[reps / 2]};
  return out;
}

#ifdef HAVE_SICONOS
/* Siconos' fc3d_nsgs on the file at tol, timed as solve() times ours; the
 * error is Siconos' own (iters: its iterations), *ours_err
 * lk_lcp_fc3d_error of its reaction on our reading of the file. ran 0
 * when Siconos could not read it. */
static outcome siconos_nsgs(const char *path, const lk_lcp *p, double tol, double *ours_err,
                            int *ran) {
  outcome out = {0, 0, NAN, NAN};
  *ran = 0;
  *ours_err = NAN;
  FrictionContactProblem *fp = frictionContact_new_from_filename(path);
  if (!fp || fp->dimension != 3 || 3 * fp->numberOfContacts != p->n) {
    if (fp) frictionContactProblem_free(fp);
    return out;
  }
  *ran = 1;
  int n = p->n;
  double *r = calloc((size_t)n, sizeof *r), *u = calloc((size_t)n, sizeof *u), t[101];
  /* fresh options and a zero start every solve (a second fc3d_nsgs with
   * the same options returns at once), the outcome the first solve's */
  int reps = 0, want = 1;
  while (reps < want) {
    for (int i = 0; i < n; i++) r[i] = u[i] = 0.0;
    SolverOptions *so = solver_options_create(SICONOS_FRICTION_3D_NSGS);
    so->dparam[SICONOS_DPARAM_TOL] = tol;
    so->iparam[SICONOS_IPARAM_MAX_ITER] = 10000;
    int info = 1;
    double t0 = now();
    fc3d_nsgs(fp, r, u, &info, so);
    t[reps++] = now() - t0;
    if (reps == 1) {
      want = t[0] > 1.0 ? 1 : (int)fmin(101, fmax(3, 20e-3 / fmax(t[0], 1e-9)));
      out.ok = info == 0;
      out.iters = so->iparam[SICONOS_IPARAM_ITER_DONE];
      out.error = so->dparam[SICONOS_DPARAM_RESIDU];
      *ours_err = lk_lcp_fc3d_error(p, r);
    }
    solver_options_delete(so);
  }
  qsort(t, (size_t)reps, sizeof *t, cmp_double);
  out.time = t[reps / 2];
  frictionContactProblem_free(fp);
  free(r);
  free(u);
  return out;
}
#endif

static void cell(char *buf, size_t size, const outcome *o, int ran) {
  if (!ran) {
    snprintf(buf, size, "%-29s", "-");
    return;
  }
  snprintf(buf, size, "%-3s %8.1e %6d %9.1f", o->ok ? "ok" : "NO", o->error, o->iters, o->time * 1e6);
}

/* 2 us, 57 us, 3.1 ms, 219 ms */
static const char *span(char *buf, size_t size, double t) {
  if (t < 1e-3)
    snprintf(buf, size, "%.0f us", t * 1e6);
  else
    snprintf(buf, size, "%.3g ms", t * 1e3);
  return buf;
}

int lk_bench_fc3d(const char *dir, int pivot_contacts) {
  DIR *d = opendir(dir);
  if (!d) {
    printf("\nfriction-contact collection: cannot open %s\n", dir);
    return 1;
  }
  char *names[512];
  int nn = 0;
  struct dirent *e;
  while ((e = readdir(d)) && nn < 512) {
    size_t l = strlen(e->d_name);
    if (l > 4 && strcmp(e->d_name + l - 4, ".dat") == 0) names[nn++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, (size_t)nn, sizeof *names, cmp_name);
  printf("\nSiconos' friction-contact collection in %s: %d files\n", dir, nn);
  printf("NSGS and Newton (lk_lcp_newton: iterations in place of sweeps) on the exact cone at tol\n"
         "1e-6 and 1e-9, one file's solvers by turns; Lemke and Dantzig on the box cone (problems\n"
         "of at most %d contacts), their answers measured on the circle. Siconos fc3d_nsgs (tol\n"
         "1e-4): its measured table; ratio = Siconos' time / NSGS 1e-6's.\n\n",
         pivot_contacts);
#ifdef HAVE_SICONOS
  printf("Siconos numerics found: its fc3d_nsgs (tol 1e-6, 10 000 iterations) runs here too, in\n"
         "the second table, by turns with NSGS 1e-6 on each file.\n\n");
  char live[512][160];
  int nlive = 0, live_ok = 0, live_ran = 0;
  double live_t = 0, live_ours = 0;
#endif
  printf("%-34s %4s | %-29s | %-29s | %-29s | %-29s | %-29s | %-29s | %-4s %8s %-15s %s\n",
         "file", "nc", "nsgs 1e-6: err sweeps us", "nsgs 1e-9: err sweeps us",
         "newton 1e-6: err iters us", "newton 1e-9: err iters us", "lemke box: err pivots us",
         "dantzig box: err pivots us", "info", "error", "siconos time", "ratio");
  int files = 0, ok6 = 0, ok9 = 0, okl = 0, okd = 0, ranp = 0, sic_ok = 0, in_table = 0;
  int okn6 = 0, okn9 = 0;
  double tn6 = 0, tn9 = 0, worstn6 = 0;
  double t6 = 0, t9 = 0, sic_lo = 0, sic_hi = 0, t6_table = 0, worst6 = 0;
  for (int k = 0; k < nn; k++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, names[k]);
    lk_lcp_problem *pr = NULL;
    lk_error err;
    lk_error_clear(&err);
    if (lk_lcp_problem_load(path, &pr, &err) != LK_OK) {
      printf("%-34s not read: %s\n", names[k], err.message);
      continue;
    }
    int dim, nc = lk_lcp_problem_contacts(pr, &dim);
    if (nc == 0 || dim != 3) {
      lk_lcp_problem_free(pr);
      continue;
    }
    files++;
    const lk_lcp *p = lk_lcp_problem_lcp(pr);
    int n = p->n;
    double *z = calloc((size_t)n, sizeof *z), *w = calloc((size_t)n, sizeof *w);
    lk_lcp_workspace *ws = lk_lcp_workspace_new_for(lk_lcp_nsgs, n);
    outcome a = solve(lk_lcp_nsgs, p, p, 1e-6, ws, z, w);
    outcome b = solve(lk_lcp_nsgs, p, p, 1e-9, ws, z, w);
    lk_lcp_workspace_free(ws);
    ws = lk_lcp_workspace_new_newton(n);
    outcome na = solve(lk_lcp_newton, p, p, 1e-6, ws, z, w);
    outcome nb = solve(lk_lcp_newton, p, p, 1e-9, ws, z, w);
    lk_lcp_workspace_free(ws);
    okn6 += na.ok;
    okn9 += nb.ok;
    tn6 += na.time;
    tn9 += nb.time;
    if (na.ok) worstn6 = fmax(worstn6, na.error);
    ok6 += a.ok;
    ok9 += b.ok;
    t6 += a.time;
    t9 += b.time;
    if (a.ok) worst6 = fmax(worst6, a.error);
    outcome l = {0, 0, 0, 0}, dz = {0, 0, 0, 0};
    int pivot = nc <= pivot_contacts;
    if (pivot) {
      /* the box cone, M dense */
      lk_lcp q = *p;
      double *M = malloc((size_t)n * (size_t)n * sizeof *M);
      lk_lcp_densify(p, M, n);
      q.M = M;
      q.ldm = n;
      q.csr.row = NULL;
      q.csr.col = NULL;
      q.csr.val = NULL;
      q.cone = NULL;
      lk_lcp_workspace *pw = lk_lcp_workspace_new(lk_lcp_capacity_needed(&q));
      l = solve(lk_lcp_lemke, &q, p, 1e-9, pw, z, w);
      dz = solve(lk_lcp_dantzig, &q, p, 1e-9, pw, z, w);
      lk_lcp_workspace_free(pw);
      free(M);
      okl += l.ok;
      okd += dz.ok;
      ranp++;
    }
#ifdef HAVE_SICONOS
    {
      double oe;
      int ran;
      outcome so = siconos_nsgs(path, p, 1e-6, &oe, &ran);
      if (ran && nlive < 512) {
        char sc[64];
        cell(sc, sizeof sc, &so, 1);
        live_ran++;
        live_ok += so.ok;
        live_t += so.time;
        live_ours += a.time;
        snprintf(live[nlive++], sizeof live[0], "%-34s %4d | %s | %8.1e | %-3s %9.1f | %.3g",
                 names[k], nc, sc, oe, a.ok ? "ok" : "NO", a.time * 1e6, so.time / a.time);
      }
    }
#endif
    const siconos_row *s = siconos_for(names[k]);
    char c6[64], c9[64], n6[64], n9[64], cl[64], cd[64], st[32] = "-", ra[32] = "-";
    cell(c6, sizeof c6, &a, 1);
    cell(c9, sizeof c9, &b, 1);
    cell(n6, sizeof n6, &na, 1);
    cell(n9, sizeof n9, &nb, 1);
    cell(cl, sizeof cl, &l, pivot);
    cell(cd, sizeof cd, &dz, pivot);
    if (s) {
      in_table++;
      sic_ok += s->info == 0;
      sic_lo += s->t_lo;
      sic_hi += s->t_hi;
      t6_table += a.time;
      char b1[16], b2[16];
      if (s->t_lo == s->t_hi) {
        snprintf(st, sizeof st, "%s", span(b1, sizeof b1, s->t_lo));
        snprintf(ra, sizeof ra, "%.2g", s->t_lo / a.time);
      } else {
        snprintf(st, sizeof st, "%s-%s", span(b1, sizeof b1, s->t_lo), span(b2, sizeof b2, s->t_hi));
        snprintf(ra, sizeof ra, "%.2g-%.2g", s->t_lo / a.time, s->t_hi / a.time);
      }
    }
    printf("%-34s %4d | %s | %s | %s | %s | %s | %s | %-4s %8s %-15s %s\n", names[k], nc, c6, c9,
           n6, n9, cl, cd,
           s ? (s->info == 0 ? "0" : "1") : "-", s ? s->error : "-", st, ra);
    fflush(stdout);
    free(z);
    free(w);
    lk_lcp_problem_free(pr);
  }
  for (int k = 0; k < nn; k++) free(names[k]);
  printf("\nsolved: NSGS 1e-6 %d/%d (worst fc3d error %.2g), NSGS 1e-9 %d/%d, Lemke (box) %d/%d, "
         "Dantzig (box) %d/%d; Siconos NSGS (its table) converged on %d of the %d files it lists\n",
         ok6, files, worst6, ok9, files, okl, ranp, okd, ranp, sic_ok, in_table);
  printf("time in all: NSGS 1e-6 %.3g ms, 1e-9 %.3g ms; on the %d files of Siconos' table NSGS 1e-6 "
         "%.3g ms against its %.3g-%.3g ms (ratio %.2g-%.2g)\n",
         t6 * 1e3, t9 * 1e3, in_table, t6_table * 1e3, sic_lo * 1e3, sic_hi * 1e3,
         t6_table > 0 ? sic_lo / t6_table : NAN, t6_table > 0 ? sic_hi / t6_table : NAN);
  printf("newton: 1e-6 %d/%d (worst fc3d error %.2g), 1e-9 %d/%d; time in all 1e-6 %.3g ms, "
         "1e-9 %.3g ms\n",
         okn6, files, worstn6, okn9, files, tn6 * 1e3, tn9 * 1e3);
#ifdef HAVE_SICONOS
  printf("\nSiconos fc3d_nsgs run here (tol 1e-6, 10 000 iterations), by turns with NSGS 1e-6:\n");
  printf("%-34s %4s | %-29s | %-8s | %-13s | %s\n", "file", "nc", "siconos: err iters us",
         "our err", "nsgs 1e-6 us", "ratio");
  for (int k = 0; k < nlive; k++) printf("%s\n", live[k]);
  printf("Siconos fc3d_nsgs: converged %d/%d, time in all %.3g ms; NSGS 1e-6 on the same files "
         "%.3g ms (ratio %.2g)\n",
         live_ok, live_ran, live_t * 1e3, live_ours * 1e3, live_ours > 0 ? live_t / live_ours : NAN);
#endif
  return 0;
}
