/* bench/motion: scenes in motion, from the drop to rest (issue 35), whole
 * runs by turns in one process: Linkage, MuJoCo (mj_step, the same MJCF
 * file) and ODE's dWorldQuickStep (the scene converted from ours by
 * bench/ode_scene.c) take blocks of steps in turn, so that load on the
 * machine falls on all of them. Not medians after settling: every step of
 * the run counts.
 *
 *   bench/motion [--short] [--block B] [--data DIR] [SCENE...]
 *
 * Scenes: heap50_box, heap50_capsule (DIR/scenes/heap50_*.xml, 2 s), spheres100
 * (tests/sim/piles.c: 100 spheres into a bin, 3 s at 1 ms), humanoid
 * (MuJoCo's humanoid.xml, 5 s), chain20 and chain50 (capsule chains
 * dropped over a box, 2 s). Per engine: total CPU time of its steps, mean,
 * p99 and worst step, Linkage's unconverged islands (circle cones that did
 * not settle plus NSGS islands left loose) and failed steps (a failed step
 * ends Linkage's run: no step on a broken state), the bodies' mean height
 * at the end; per 0.25 s window each engine's time. --short runs each
 * scene for 20 ms (make check's smoke test: no timing is judged there). */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linkage/linkage.h"
#include "piles.h"

#ifdef HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif
#ifdef HAVE_ODE
#include "ode_scene.h"
#endif

#ifndef LK_SHARED_DATA
#define LK_SHARED_DATA "../shared/data"
#endif
#define HUMANOID "/usr/share/mujoco/model/humanoid/humanoid.xml"
#define WINDOW 0.25
#define NENGINE 3

enum { LINKAGE, MUJOCO, ODEQ };
static const char *kEngine[NENGINE] = {"linkage", "mujoco", "ode-qs"};

typedef enum { FILE_MJCF, SPHERES, CHAIN } scene_kind;

typedef struct {
  const char *name;
  scene_kind kind;
  const char *file; /* FILE_MJCF: under the data folder, or absolute */
  int n;
  double h, duration;
} scene;

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef struct {
  int on;
  double total;  /* CPU s over the run */
  double *step;  /* per step, s */
  double *win;   /* per window, s */
  long steps;
  long unconverged, failures;
  double height; /* mean height of the moving bodies at the end */
  char why[200];
} engine;

static void engine_report(const engine *e, const char *name, double ref_total, double ref_height,
                          int has_ref) {
  if (!e->on) {
    printf("  %-8s %s\n", name, e->why[0] ? e->why : "-");
    return;
  }
  long n = e->steps;
  double *t = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  if (!t) return;
  memcpy(t, e->step, sizeof(double) * (size_t)n);
  qsort(t, (size_t)n, sizeof *t, cmp_double);
  double p99 = n > 0 ? t[(long)(0.99 * (n - 1) + 0.5)] : NAN, worst = n > 0 ? t[n - 1] : NAN;
  free(t);
  printf("  %-8s %9.3f %9.1f %9.1f %9.1f %6ld %6ld %9.4f", name, e->total,
         n > 0 ? 1e6 * e->total / n : NAN, 1e6 * p99, 1e6 * worst, e->unconverged, e->failures,
         e->height);
  if (has_ref) printf("   x%-6.2f %+.1f mm", e->total / ref_total, 1e3 * (e->height - ref_height));
  printf("%s%s\n", e->why[0] ? "  " : "", e->why);
}

/* Mean height of the links on free joints (the heaps' bodies, the chain's
 * root), or of link `torso` when there is one. */
static double lk_height(const lk_model *m, lk_data *d) {
  lk_forward_kinematics(m, d);
  int torso = lk_model_link_index(m, "torso");
  if (torso > 0) return lk_data_link_pose(d, torso)->p.z;
  double s = 0;
  int n = 0;
  for (int i = 1; i < lk_model_nlink(m); i++) {
    s += lk_data_link_pose(d, i)->p.z;
    n++;
  }
  return n > 0 ? s / n : NAN;
}

static lk_model *build(const scene *sc, const char *data, char *path, size_t size) {
  lk_error err;
  switch (sc->kind) {
  case FILE_MJCF: {
    if (sc->file[0] == '/')
      snprintf(path, size, "%s", sc->file);
    else
      snprintf(path, size, "%s/%s", data, sc->file);
    lk_model *m = lk_model_load_file(path, NULL, &err);
    if (!m) {
      char buf[600];
      fprintf(stderr, "bench/motion: %s\n", lk_error_format(&err, buf, sizeof buf));
    }
    return m;
  }
  case SPHERES:
    path[0] = 0;
    return piles_spheres(sc->n, sc->h);
  case CHAIN:
    path[0] = 0;
    return piles_chain(sc->n, 0.3, sc->h);
  }
  return NULL;
}

static void run(const scene *sc, const char *data, int shortrun, int block) {
  char path[1024];
  FILE *probe = NULL;
  if (sc->kind == FILE_MJCF) {
    if (sc->file[0] == '/')
      snprintf(path, sizeof path, "%s", sc->file);
    else
      snprintf(path, sizeof path, "%s/%s", data, sc->file);
    probe = fopen(path, "r");
    if (!probe) {
      printf("%s: skipped (no %s)\n\n", sc->name, path);
      return;
    }
    fclose(probe);
  }
  lk_model *m = build(sc, data, path, sizeof path);
  if (!m) {
    printf("%s: skipped (Linkage cannot load it)\n\n", sc->name);
    return;
  }
  const double h = lk_model_options(m)->timestep;
  double duration = shortrun ? 0.02 : sc->duration;
  long nsteps = (long)(duration / h + 0.5);
  int nwin = (int)ceil(nsteps * h / WINDOW - 1e-9);
  if (nwin < 1) nwin = 1;
  engine e[NENGINE];
  memset(e, 0, sizeof e);
  for (int k = 0; k < NENGINE; k++) {
    e[k].step = calloc((size_t)nsteps + 1, sizeof(double));
    e[k].win = calloc((size_t)nwin, sizeof(double));
  }
  lk_data *d = lk_data_new(m);
  e[LINKAGE].on = d != NULL;
#ifdef HAVE_MUJOCO
  mjModel *mm = NULL;
  mjData *md = NULL;
  if (path[0]) {
    char mjerr[1000] = "";
    mm = mj_loadXML(path, NULL, mjerr, sizeof mjerr);
    md = mm ? mj_makeData(mm) : NULL;
    e[MUJOCO].on = md != NULL;
    if (!md) snprintf(e[MUJOCO].why, sizeof e[MUJOCO].why, "MuJoCo: %.180s", mjerr);
  } else {
    snprintf(e[MUJOCO].why, sizeof e[MUJOCO].why, "(a generated scene: no MJCF)");
  }
#else
  snprintf(e[MUJOCO].why, sizeof e[MUJOCO].why, "(MuJoCo not found by configure)");
#endif
#ifdef HAVE_ODE
  ode_scene os;
  memset(&os, 0, sizeof os);
  {
    lk_data *scratch = lk_data_new(m);
    ode_scene_options o;
    ode_scene_options_default(&o);
    o.quick = 1;
    o.hash_space = 1;
    char why[200] = "";
    if (scratch && ode_scene_build(&os, m, scratch, &o, why, sizeof why) == 0)
      e[ODEQ].on = 1;
    else
      snprintf(e[ODEQ].why, sizeof e[ODEQ].why, "ODE: %.180s", why);
    lk_data_free(scratch);
  }
#else
  snprintf(e[ODEQ].why, sizeof e[ODEQ].why, "(ODE not found by configure)");
#endif
  for (long s0 = 0; s0 < nsteps; s0 += block) {
    long s1 = s0 + block < nsteps ? s0 + block : nsteps;
    for (int k = 0; k < NENGINE; k++) {
      if (!e[k].on) continue;
      for (long s = s0; s < s1; s++) {
        double a = cpu_now();
        if (k == LINKAGE) {
          if (e[k].failures) break; /* a failed step ends the run */
          lk_status st = lk_step(m, d);
          double t = cpu_now() - a;
          e[k].step[e[k].steps++] = t;
          e[k].total += t;
          e[k].win[(int)(s * h / WINDOW)] += t;
          if (st) {
            e[k].failures++;
            const lk_step_report *r = lk_data_step_report(d);
            snprintf(e[k].why, sizeof e[k].why, "step %ld failed: %s%s%.120s", s + 1,
                     lk_strerror(st), r->detail && r->detail[0] ? ": " : "",
                     r->detail ? r->detail : "");
          } else {
            const lk_step_report *r = lk_data_step_report(d);
            e[k].unconverged += r->friction_unconverged + r->nsgs_loose;
          }
          continue;
        }
#ifdef HAVE_MUJOCO
        if (k == MUJOCO) mj_step(mm, md);
#endif
#ifdef HAVE_ODE
        if (k == ODEQ) ode_scene_step(&os, h);
#endif
        double t = cpu_now() - a;
        e[k].step[e[k].steps++] = t;
        e[k].total += t;
        e[k].win[(int)(s * h / WINDOW)] += t;
      }
    }
  }
  if (e[LINKAGE].on) e[LINKAGE].height = lk_height(m, d);
#ifdef HAVE_MUJOCO
  if (md) {
    int torso = mj_name2id(mm, mjOBJ_BODY, "torso");
    if (torso > 0) {
      e[MUJOCO].height = md->xpos[3 * torso + 2];
    } else {
      double s = 0;
      for (int b = 1; b < mm->nbody; b++) s += md->xpos[3 * b + 2];
      e[MUJOCO].height = mm->nbody > 1 ? s / (mm->nbody - 1) : NAN;
    }
  }
#endif
#ifdef HAVE_ODE
  if (e[ODEQ].on) {
    double s = 0;
    int n = 0, torso = lk_model_link_index(m, "torso");
    for (int i = 1; i < os.nlink; i++)
      if (os.body[i] && (torso <= 0 || i == torso)) {
        s += dBodyGetPosition(os.body[i])[2];
        n++;
      }
    e[ODEQ].height = n > 0 ? s / n : NAN;
    /* ODE's body is at the centre of mass: ours is the link frame, which
     * for these scenes' free bodies is the same point */
  }
#endif
  printf("%s: %ld steps of %g s (%g s), blocks of %d steps by turns\n", sc->name, nsteps, h,
         nsteps * h, block);
  printf("  %-8s %9s %9s %9s %9s %6s %6s %9s   %s\n", "engine", "total s", "mean us", "p99 us",
         "worst us", "unconv", "failed", "height m", "vs mujoco (time, height)");
  int ref = e[MUJOCO].on;
  for (int k = 0; k < NENGINE; k++)
    engine_report(&e[k], kEngine[k], e[MUJOCO].total, e[MUJOCO].height, ref && k != MUJOCO);
  printf("  %-13s", "window (s)");
  for (int k = 0; k < NENGINE; k++)
    if (e[k].on) printf(" %10s", kEngine[k]);
  printf("   (CPU ms)\n");
  for (int w = 0; w < nwin; w++) {
    printf("  %5.2f-%-5.2f  ", w * WINDOW, fmin((w + 1) * WINDOW, nsteps * h));
    for (int k = 0; k < NENGINE; k++)
      if (e[k].on) printf(" %10.1f", 1e3 * e[k].win[w]);
    printf("\n");
  }
  printf("\n");
#ifdef HAVE_MUJOCO
  if (md) mj_deleteData(md);
  if (mm) mj_deleteModel(mm);
#endif
#ifdef HAVE_ODE
  ode_scene_free(&os);
#endif
  for (int k = 0; k < NENGINE; k++) {
    free(e[k].step);
    free(e[k].win);
  }
  lk_data_free(d);
  lk_model_free(m);
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: bench/motion [--short] [--block B] [--data DIR] [SCENE...]\n"
          "Scenes in motion from the drop to rest, whole runs by turns (blocks of B steps,\n"
          "default 25): heap50_box heap50_capsule spheres100 humanoid chain20 chain50 (all by\n"
          "default; DIR: the shared data folder, default %s). --short: 20 ms a scene.\n",
          LK_SHARED_DATA);
}

int main(int argc, char **argv) {
  static const scene all[] = {
      {"heap50_box", FILE_MJCF, "scenes/heap50_box.xml", 50, 2e-3, 2.0},
      {"heap50_capsule", FILE_MJCF, "scenes/heap50_capsule.xml", 50, 2e-3, 2.0},
      {"spheres100", SPHERES, NULL, 100, 1e-3, 3.0},
      {"humanoid", FILE_MJCF, HUMANOID, 0, 5e-3, 5.0},
      {"chain20", CHAIN, NULL, 20, 2e-3, 2.0},
      {"chain50", CHAIN, NULL, 50, 2e-3, 2.0}};
  const int nall = (int)(sizeof all / sizeof all[0]);
  const char *data = LK_SHARED_DATA;
  int shortrun = 0, block = 25, chosen[16], nchosen = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--short")) {
      shortrun = 1;
    } else if (!strcmp(argv[i], "--block") && i + 1 < argc) {
      block = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--data") && i + 1 < argc) {
      data = argv[++i];
    } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      usage(stdout);
      return 0;
    } else {
      int k = 0;
      while (k < nall && strcmp(all[k].name, argv[i])) k++;
      if (k == nall || nchosen == 16) {
        usage(stderr);
        return 2;
      }
      chosen[nchosen++] = k;
    }
  }
  if (block < 1) {
    usage(stderr);
    return 2;
  }
#ifdef HAVE_ODE
  dInitODE2(0);
  ode_scene_messages_reset();
#endif
  printf("bench/motion: whole runs from the drop, CPU time by turns%s\n\n",
         shortrun ? " (--short: 20 ms a scene)" : "");
  for (int i = 0; i < (nchosen ? nchosen : nall); i++)
    run(&all[nchosen ? chosen[i] : i], data, shortrun, block);
#ifdef HAVE_ODE
  const char *first = NULL;
  long nmsg = ode_scene_messages(&first);
  if (nmsg > 0) printf("ODE said %ld things, first: %s\n", nmsg, first ? first : "");
  dCloseODE();
#endif
  return 0;
}
