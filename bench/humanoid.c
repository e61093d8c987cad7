/* bench/humanoid: MuJoCo's humanoid.xml (Debian's libmujoco-samples)
 * through Linkage and MuJoCo from the same file (issue 15): the model's
 * own timestep (0.005 s) and integrators (Linkage: the MJCF reader's
 * choice, Euler; MuJoCo: its default Euler), no control, the body falling
 * from its standing pose onto the floor and lying there, so most steps
 * have floor contacts. Timed by turns in one run: blocks of steps of one
 * engine then the other, so that load on the machine falls on both.
 *
 *   bench/humanoid [--steps N] [--block B] [FILE]
 *
 * Prints µs a step for each engine (the mean over all steps; the median,
 * 90th percentile and slowest block), the ratio Linkage / MuJoCo, the mean number of contacts
 * a step, and where each engine's torso ends (both should lie on the
 * floor: the same scene, not the same trajectory - the contact models
 * differ). Without MuJoCo (configure found none), Linkage alone. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linkage/linkage.h"

#ifdef HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

#define DEFAULT_FILE "/usr/share/mujoco/model/humanoid/humanoid.xml"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The q-quantile of t (sorted in place). */
static double quantile(double *t, int n, double q) {
  if (n < 1) return NAN;
  qsort(t, (size_t)n, sizeof *t, cmp_double);
  int k = (int)(q * (n - 1) + 0.5);
  return t[k];
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: bench/humanoid [--steps N] [--block B] [FILE]\n"
          "MuJoCo's humanoid (default %s) falling onto its floor, through Linkage and\n"
          "MuJoCo from the same file: us a step by turns (blocks of B steps, default 50;\n"
          "N steps in all, default 2000), the ratio, contacts a step.\n",
          DEFAULT_FILE);
}

int main(int argc, char **argv) {
  const char *path = DEFAULT_FILE;
  int steps = 2000, block = 50;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--steps") && i + 1 < argc) {
      steps = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--block") && i + 1 < argc) {
      block = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      usage(stdout);
      return 0;
    } else if (argv[i][0] == '-') {
      usage(stderr);
      return 2;
    } else {
      path = argv[i];
    }
  }
  if (steps < 1 || block < 1) {
    usage(stderr);
    return 2;
  }
  lk_error err;
  lk_model *m = lk_model_load_file(path, NULL, &err);
  if (!m) {
    char buf[1024];
    fprintf(stderr, "bench/humanoid: %s\n", lk_error_format(&err, buf, sizeof buf));
    return 2;
  }
  lk_data *d = lk_data_new(m);
  int torso = lk_model_link_index(m, "torso");
  if (!d || torso < 0) {
    fprintf(stderr, "bench/humanoid: %s: no link 'torso' (not the humanoid?)\n", path);
    return 2;
  }
#ifdef HAVE_MUJOCO
  char mjerr[1000] = "";
  mjModel *mm = mj_loadXML(path, NULL, mjerr, sizeof mjerr);
  mjData *md = mm ? mj_makeData(mm) : NULL;
  if (!md) {
    fprintf(stderr, "bench/humanoid: MuJoCo: %s\n", mjerr);
    return 2;
  }
  int mj_torso = mj_name2id(mm, mjOBJ_BODY, "torso");
  if (fabs(mm->opt.timestep - lk_model_options(m)->timestep) > 0)
    fprintf(stderr, "bench/humanoid: the timesteps differ (%g, %g)\n", mm->opt.timestep,
            lk_model_options(m)->timestep);
#endif
  int nb = (steps + block - 1) / block;
  double *tl = malloc(sizeof(double) * (size_t)nb), *tm = malloc(sizeof(double) * (size_t)nb);
  if (!tl || !tm) return 1;
  double sum_l = 0, sum_m = 0;
  long contacts_l = 0, contacts_m = 0, done = 0;
  (void)sum_m; /* MuJoCo's, when built with it */
  (void)contacts_m;
  int failed = 0;
  for (int b = 0; b < nb; b++) {
    int n = b == nb - 1 ? steps - b * block : block;
    double a = now();
    for (int k = 0; k < n; k++) {
      lk_status st = lk_step(m, d);
      if (st && !failed) {
        fprintf(stderr, "bench/humanoid: step %ld: %s\n", done + k, lk_strerror(st));
        failed = 1;
      }
      contacts_l += lk_data_ncontact(d);
    }
    double t = now() - a;
    tl[b] = t / n;
    sum_l += t;
#ifdef HAVE_MUJOCO
    a = now();
    for (int k = 0; k < n; k++) {
      mj_step(mm, md);
      contacts_m += md->ncon;
    }
    t = now() - a;
    tm[b] = t / n;
    sum_m += t;
#endif
    done += n;
  }
  lk_forward_kinematics(m, d);
  const lk_transform *T = lk_data_link_pose(d, torso);
  printf("bench/humanoid: %s, timestep %g s, %d steps by turns (blocks of %d)\n", path,
         lk_model_options(m)->timestep, steps, block);
  printf("  %-8s %10s %8s %8s %10s %10s %s\n", "engine", "us/step", "median", "p90", "max block",
         "contacts", "torso z at the end");
  printf("  %-8s %10.1f %8.1f %8.1f %10.1f %10.2f %.3f m\n", "linkage", 1e6 * sum_l / steps,
         1e6 * quantile(tl, nb, 0.5), 1e6 * quantile(tl, nb, 0.9), 1e6 * quantile(tl, nb, 1),
         (double)contacts_l / steps, T->p.z);
#ifdef HAVE_MUJOCO
  printf("  %-8s %10.1f %8.1f %8.1f %10.1f %10.2f %.3f m\n", "mujoco", 1e6 * sum_m / steps,
         1e6 * quantile(tm, nb, 0.5), 1e6 * quantile(tm, nb, 0.9), 1e6 * quantile(tm, nb, 1),
         (double)contacts_m / steps, md->xpos[3 * mj_torso + 2]);
  printf("  ratio linkage / mujoco: %.2f (means), %.2f (median blocks)\n", sum_l / sum_m,
         quantile(tl, nb, 0.5) / quantile(tm, nb, 0.5));
  mj_deleteData(md);
  mj_deleteModel(mm);
#else
  printf("  (MuJoCo not found by configure: Linkage alone)\n");
#endif
  free(tl);
  free(tm);
  lk_data_free(d);
  lk_model_free(m);
  return failed;
}
