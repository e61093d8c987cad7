/* bench/piles: contact at scale (issue 20), Linkage against MuJoCo's
 * mj_step on the same scenes (tests/sim/piles.h), timed by turns in one
 * run (blocks of steps alternating between the engines, so both see the
 * same drift of the machine's speed), after a settling time.
 *
 *   chainN   N capsules on ball joints (0.1 kg, r 0.02, 0.12 m a link,
 *            mu 0.5, h 2 ms) dropped 0.1 m over a 0.2 m box onto the floor
 *   towerN   N cubes (0.1 m, 1 kg, mu 0.5, h 1 ms) stacked
 *   pyramidN N cubes in a stepped pyramid (every upper cube on four)
 *
 * Columns: median and 90th percentile us a step for each engine over the
 * timed steps, their ratio (ours / MuJoCo), Linkage's rows and islands
 * solved by NSGS, solver failures, fallbacks and unsettled steps over the
 * whole run, and how far the top body moved over the timed part. MuJoCo
 * runs its defaults (Newton solver, pyramidal cones, soft contacts) with
 * the same time step, masses, sizes and friction.
 *
 * Usage: bench/piles [--quick] [--scene NAME] [--settle SECONDS] [--timed STEPS] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "linkage/linkage.h"
#include "piles.h"

#ifdef HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef struct {
  char name[32];
  int kind; /* 0 chain, 1 tower, 2 pyramid */
  int n;
  double h;
} scene;

static lk_model *build_ours(const scene *s) {
  if (s->kind == 0) return piles_chain(s->n, 0.1, s->h);
  if (s->kind == 1) return piles_tower(s->n, s->h);
  return piles_pyramid(s->n, s->h);
}

#ifdef HAVE_MUJOCO
/* The same scene as MJCF, into a temporary file; its path in path. */
static int write_mjcf(const scene *s, char *path, size_t size) {
  snprintf(path, size, "/tmp/lk-bench-piles-XXXXXX");
  int fd = mkstemp(path);
  if (fd < 0) return -1;
  FILE *f = fdopen(fd, "w");
  if (!f) return -1;
  /* MuJoCo 2.2 preallocates 100 contacts by default: room for the pile's */
  int ncon = 12 * s->n + 100;
  fprintf(f, "<mujoco>\n <option timestep=\"%g\"/>\n <size nconmax=\"%d\" njmax=\"%d\"/>\n <worldbody>\n",
          s->h, ncon, 4 * ncon);
  fprintf(f, "  <geom type=\"plane\" size=\"0 0 1\" friction=\"0.5 0.005 0.0001\"/>\n");
  if (s->kind == 0) {
    const double r = 0.02, seg = 0.12;
    fprintf(f, "  <geom type=\"box\" size=\"0.1 0.1 0.1\" pos=\"%g 0 0.1\" friction=\"0.5 0.005 0.0001\"/>\n",
            0.5 * s->n * seg);
    fprintf(f, "  <body pos=\"0 0 %g\">\n   <freejoint/>\n", 0.2 + r + 0.1);
    for (int k = 0; k < s->n; k++) {
      if (k > 0) fprintf(f, "   <body pos=\"%g 0 0\">\n   <joint type=\"ball\"/>\n", seg);
      fprintf(f,
              "   <geom type=\"capsule\" fromto=\"%g 0 0 %g 0 0\" size=\"%g\" mass=\"0.1\" "
              "friction=\"0.5 0.005 0.0001\"/>\n",
              r, seg - r, r);
    }
    for (int k = 0; k < s->n; k++) fprintf(f, "   </body>\n");
  } else {
    /* the cubes where piles.c puts them */
    lk_model *m = build_ours(s);
    if (!m) {
      fclose(f);
      return -1;
    }
    lk_data *d = lk_data_new(m);
    const double *q = lk_data_q(d);
    for (int k = 0; k < s->n; k++)
      fprintf(f,
              "  <body pos=\"%.17g %.17g %.17g\"><freejoint/><geom type=\"box\" size=\"0.05 0.05 "
              "0.05\" mass=\"1\" friction=\"0.5 0.005 0.0001\"/></body>\n",
              q[7 * k], q[7 * k + 1], q[7 * k + 2]);
    lk_data_free(d);
    lk_model_free(m);
  }
  fprintf(f, " </worldbody>\n</mujoco>\n");
  return fclose(f);
}
#endif

typedef struct {
  double med, p90;
} timing;

static timing summarize(double *t, int n) {
  qsort(t, (size_t)n, sizeof *t, cmp_double);
  timing r = {1e6 * t[n / 2], 1e6 * t[(9 * n) / 10]};
  return r;
}

static void run(const scene *s, double settle, int timed) {
  lk_model *m = build_ours(s);
  if (!m) return;
  lk_data *d = lk_data_new(m);
  if (!d) {
    lk_model_free(m);
    return;
  }
  int nsettle = (int)(settle / s->h + 0.5);
  long fail = 0, fb = 0, unc = 0, iter = 0, bad = 0, rows = 0;
  const int top = s->kind == 0 ? 0 : 7 * (s->n - 1);
  for (int k = 0; k < nsettle && !bad; k++) bad = lk_step(m, d) != LK_OK;
#ifdef HAVE_MUJOCO
  char path[64];
  mjModel *mm = NULL;
  mjData *md = NULL;
  char err[512] = "";
  if (write_mjcf(s, path, sizeof path) == 0) {
    mm = mj_loadXML(path, NULL, err, sizeof err);
    unlink(path);
  }
  if (mm) md = mj_makeData(mm);
  if (!md) fprintf(stderr, "bench/piles: MuJoCo scene %s: %s\n", s->name, err);
  for (int k = 0; k < nsettle && md; k++) mj_step(mm, md);
  double mz0 = md ? md->qpos[2 + (s->kind == 0 ? 0 : 7 * (s->n - 1))] : 0;
#endif
  double *to = malloc(sizeof(double) * (size_t)timed), *tm = malloc(sizeof(double) * (size_t)timed);
  double z0 = lk_data_q(d)[top + 2];
  const int block = 50;
  int done = 0;
  while (done < timed && !bad) {
    int nb = timed - done < block ? timed - done : block;
    for (int k = 0; k < nb && !bad; k++) {
      double a = now();
      bad = lk_step(m, d) != LK_OK;
      to[done + k] = now() - a;
      const lk_step_report *r = lk_data_step_report(d);
      fail += r->solver_failures;
      fb += r->fallbacks;
      unc += r->friction_unconverged;
      iter += r->iterative_islands;
      rows = r->nrows;
    }
#ifdef HAVE_MUJOCO
    for (int k = 0; k < nb && md; k++) {
      double a = now();
      mj_step(mm, md);
      tm[done + k] = now() - a;
    }
#endif
    done += nb;
  }
  double drift = fabs(lk_data_q(d)[top + 2] - z0);
  timing ours = summarize(to, done > 0 ? done : 1);
  printf("%-12s %8.1f %8.1f", s->name, ours.med, ours.p90);
#ifdef HAVE_MUJOCO
  if (md) {
    timing mj = summarize(tm, done > 0 ? done : 1);
    double mdrift = fabs(md->qpos[2 + (s->kind == 0 ? 0 : 7 * (s->n - 1))] - mz0);
    printf(" %8.1f %8.1f %6.2f", mj.med, mj.p90, ours.med / mj.med);
    printf(" %6ld %5ld %4ld %4ld %4ld %9.2g %9.2g%s\n", rows, iter, fail, fb, unc, drift, mdrift,
           bad ? "  (a step failed)" : "");
  } else
#endif
    printf(" %8s %8s %6s %6ld %5ld %4ld %4ld %4ld %9.2g %9s%s\n", "-", "-", "-", rows, iter, fail,
           fb, unc, drift, "-", bad ? "  (a step failed)" : "");
#ifdef HAVE_MUJOCO
  if (md) mj_deleteData(md);
  if (mm) mj_deleteModel(mm);
#endif
  free(to);
  free(tm);
  lk_data_free(d);
  lk_model_free(m);
}

int main(int argc, char **argv) {
  int quick = 0, timed = 500;
  double settle = -1;
  const char *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick"))
      quick = 1;
    else if (!strcmp(argv[i], "--scene") && i + 1 < argc)
      only = argv[++i];
    else if (!strcmp(argv[i], "--settle") && i + 1 < argc)
      settle = atof(argv[++i]);
    else if (!strcmp(argv[i], "--timed") && i + 1 < argc)
      timed = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: bench/piles [--quick] [--scene NAME] [--settle SECONDS] [--timed STEPS]\n");
      return 2;
    }
  }
  if (timed < 1) timed = 1;
  scene all[] = {{"chain10", 0, 10, 2e-3},    {"chain20", 0, 20, 2e-3},   {"chain50", 0, 50, 2e-3},
                 {"tower17", 1, 17, 1e-3},    {"pyramid10", 2, 10, 1e-3}, {"pyramid30", 2, 30, 1e-3},
                 {"pyramid100", 2, 100, 1e-3}, {"pyramid300", 2, 300, 1e-3}};
  int nall = (int)(sizeof all / sizeof all[0]);
  printf("bench/piles: us a step after settling (%s), %d timed steps by turns\n",
         settle >= 0 ? "given" : "chains 5 s, piles 0.2 s", timed);
  printf("%-12s %8s %8s %8s %8s %6s %6s %5s %4s %4s %4s %9s %9s\n", "scene", "ours", "p90",
         "mujoco", "p90", "ratio", "rows", "nsgs", "fail", "fb", "unc", "drift", "mj drift");
  for (int k = 0; k < nall; k++) {
    if (only && strcmp(only, all[k].name)) continue;
    if (quick && all[k].n > 30) continue;
    double st = settle >= 0 ? settle : all[k].kind == 0 ? 5.0 : 0.2;
    run(&all[k], st, quick ? 100 : timed);
  }
  return 0;
}
