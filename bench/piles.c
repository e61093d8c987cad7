/* bench/piles: contact at scale (issue 20), Linkage against MuJoCo's
 * mj_step and ODE's dWorldStep and dWorldQuickStep on the same scenes
 * (tests/sim/piles.h), timed by turns in one run (blocks of steps
 * alternating between the engines, so all see the same drift of the
 * machine's speed), after a settling time.
 *
 *   chainN   N capsules on ball joints (0.1 kg, r 0.02, 0.12 m a link,
 *            mu 0.5, h 2 ms) dropped 0.1 m over a 0.2 m box onto the floor
 *   towerN   N cubes (0.1 m, 1 kg, mu 0.5, h 1 ms) stacked
 *   pyramidN N cubes in a stepped pyramid (every upper cube on four)
 *   spheresN N spheres (r 0.05, 0.1 kg, mu 0.5, h 1 ms) dropped into a bin
 *
 * Columns: median us a step for each engine over the timed steps (and, at
 * the end, the mean of ours and its ratio to quickstep's median: a resting
 * pile's steps are of two costs, guessed and swept), the
 * ratios ours / MuJoCo, ours / ODE quickstep and ours / ODE dWorldStep,
 * Linkage's rows, islands solved by NSGS and by the sparse direct sticking
 * trial (dir: lib/sim/direct.c), solver failures, fallbacks
 * and unsettled steps over the whole run, how far the top body moved over
 * the timed part (drift) in ours and in each peer, and memory: the heap
 * each engine holds after settling (malloc'd and mmap'd bytes in use, from
 * mallinfo2, measured around each engine's creation and settling in turn)
 * and the time to create our data. After the table, the growth exponent of
 * each engine's step time in N between consecutive sizes of a family.
 *
 * MuJoCo runs its defaults (Newton solver, pyramidal cones, soft contacts)
 * with the same time step, masses, sizes and friction. ODE's scene is
 * converted from ours by bench/ode_scene.c (hash space, approx1 cone, soft
 * CFM 1e-10, ODE's default 20 quickstep iterations). dWorldStep is a dense
 * LCP a step, O(rows^3): its world is not settled by itself above
 * --ode-step-max bodies (100) but starts from the settled quickstep
 * world's state, and is timed over at most 20 steps there; above twice
 * that it is not run.
 *
 * Usage: bench/piles [--quick] [--large] [--scene NAME] [--settle SECONDS]
 *                    [--timed STEPS] [--no-ode] [--no-mujoco] [--ode-step-max N] */
#include <malloc.h>
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
#ifdef HAVE_ODE
#include "ode_scene.h"
#endif

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static double heap_mb(void) {
  struct mallinfo2 mi = mallinfo2();
  return (double)(mi.uordblks + mi.hblkhd) / (1024.0 * 1024.0);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

enum { CHAIN, TOWER, PYRAMID, SPHERES };

typedef struct {
  char name[32];
  int kind;
  int n;
  double h;
  int large; /* only with --large */
} scene;

static lk_model *build_ours(const scene *s) {
  switch (s->kind) {
    case CHAIN:
      return piles_chain(s->n, 0.1, s->h);
    case TOWER:
      return piles_tower(s->n, s->h);
    case PYRAMID:
      return piles_pyramid(s->n, s->h);
    default:
      return piles_spheres(s->n, s->h);
  }
}

/* The body whose height is watched: the chain's first link, the last cube
 * or sphere (on top). */
static int top_link(const scene *s, const lk_model *m) { return s->kind == CHAIN ? 1 : lk_model_nlink(m) - 1; }

#ifdef HAVE_MUJOCO
/* The same scene as MJCF, into a temporary file; its path in path. The
 * free bodies and the world's boxes are written from our model at its
 * initial state, so MuJoCo starts where we do. */
static int write_mjcf(const scene *s, const lk_model *m, char *path, size_t size) {
  snprintf(path, size, "/tmp/lk-bench-piles-XXXXXX");
  int fd = mkstemp(path);
  if (fd < 0) return -1;
  FILE *f = fdopen(fd, "w");
  if (!f) return -1;
  /* MuJoCo 2.2 preallocates 100 contacts by default: room for the pile's
   * (4 a face resting on a face), within what mj_makeData can allocate
   * (it makes a dense njmax x njmax matrix: njmax^2 doubles under 2 GB). */
  int ncon = 5 * s->n + 100;
  if (ncon > 3900) ncon = 3900;
  fprintf(f, "<mujoco>\n <option timestep=\"%g\"/>\n <size nconmax=\"%d\" njmax=\"%d\"/>\n <worldbody>\n",
          s->h, ncon, 4 * ncon);
  const char *fr = "friction=\"0.5 0.005 0.0001\"";
  fprintf(f, "  <geom type=\"plane\" size=\"0 0 1\" %s/>\n", fr);
  for (int g = 0; g < lk_model_ngeom(m); g++) {
    lk_geom_spec gs;
    lk_model_geom(m, g, &gs);
    if (lk_model_geom_link(m, g) != 0 || gs.type != LK_GEOM_BOX) continue;
    fprintf(f, "  <geom type=\"box\" size=\"%.17g %.17g %.17g\" pos=\"%.17g %.17g %.17g\" %s/>\n",
            gs.size[0], gs.size[1], gs.size[2], gs.pose.p.x, gs.pose.p.y, gs.pose.p.z, fr);
  }
  if (s->kind == CHAIN) {
    const double r = 0.02, seg = 0.12;
    fprintf(f, "  <body pos=\"0 0 %g\">\n   <freejoint/>\n", 0.2 + r + 0.1);
    for (int k = 0; k < s->n; k++) {
      if (k > 0) fprintf(f, "   <body pos=\"%g 0 0\">\n   <joint type=\"ball\"/>\n", seg);
      fprintf(f,
              "   <geom type=\"capsule\" fromto=\"%g 0 0 %g 0 0\" size=\"%g\" mass=\"0.1\" %s/>\n",
              r, seg - r, r, fr);
    }
    for (int k = 0; k < s->n; k++) fprintf(f, "   </body>\n");
  } else {
    lk_data *d = lk_data_new(m);
    if (!d) {
      fclose(f);
      return -1;
    }
    const double *q = lk_data_q(d);
    for (int k = 0; k < s->n; k++) {
      const double *p = q + 7 * k;
      if (s->kind == SPHERES)
        fprintf(f,
                "  <body pos=\"%.17g %.17g %.17g\"><freejoint/><geom type=\"sphere\" size=\"0.05\" "
                "mass=\"0.1\" %s/></body>\n",
                p[0], p[1], p[2], fr);
      else
        fprintf(f,
                "  <body pos=\"%.17g %.17g %.17g\"><freejoint/><geom type=\"box\" size=\"0.05 0.05 "
                "0.05\" mass=\"1\" %s/></body>\n",
                p[0], p[1], p[2], fr);
    }
    lk_data_free(d);
  }
  fprintf(f, " </worldbody>\n</mujoco>\n");
  return fclose(f);
}
#endif

static double median_us(double *t, int n) {
  if (n < 1) return NAN;
  qsort(t, (size_t)n, sizeof *t, cmp_double);
  return 1e6 * t[n / 2];
}

/* One engine of the run. */
typedef struct {
  int on;          /* it runs (built, and not refused) */
  double *t;       /* per timed step, s */
  int nt;          /* timed steps */
  int max_timed;   /* at most this many timed steps */
  double mem;      /* MB held after settling */
  double z0, drift;
  double med;
} engine;

typedef struct {
  double ours, mj, quick, step; /* median us */
} row_times;

static void engine_init(engine *e, int timed) {
  memset(e, 0, sizeof *e);
  e->t = malloc(sizeof(double) * (size_t)timed);
  e->max_timed = timed;
  e->med = NAN;
}

static int ode_step_max = 100;

static row_times run(const scene *s, double settle, int timed, int use_mj, int use_ode) {
  row_times out = {NAN, NAN, NAN, NAN};
  engine ours, mj, quick, step;
  engine_init(&ours, timed);
  engine_init(&mj, timed);
  engine_init(&quick, timed);
  engine_init(&step, timed);
  int nsettle = (int)(settle / s->h + 0.5);
  double base = heap_mb(), tc = now();
  lk_model *m = build_ours(s);
  lk_data *d = m ? lk_data_new(m) : NULL;
  double create = now() - tc;
  if (!d) {
    fprintf(stderr, "bench/piles: %s: cannot build\n", s->name);
    lk_model_free(m);
    return out;
  }
  long fail = 0, fb = 0, unc = 0, iter = 0, direct = 0, bad = 0, rows = 0;
  const int top = top_link(s, m), tq = lk_model_joint_qadr(m, top);
  for (int k = 0; k < nsettle && !bad; k++) bad = lk_step(m, d) != LK_OK;
  ours.on = 1;
  ours.mem = heap_mb() - base;
  ours.z0 = lk_data_q(d)[tq + 2];
#ifdef HAVE_MUJOCO
  mjModel *mm = NULL;
  mjData *md = NULL;
  int mtop = 0;
  if (use_mj) {
    char path[64], err[512] = "";
    base = heap_mb();
    if (write_mjcf(s, m, path, sizeof path) == 0) {
      mm = mj_loadXML(path, NULL, err, sizeof err);
      unlink(path);
    }
    if (mm) md = mj_makeData(mm);
    if (!md) fprintf(stderr, "bench/piles: MuJoCo scene %s: %s\n", s->name, err);
    for (int k = 0; k < nsettle && md; k++) mj_step(mm, md);
    if (md) {
      mj.on = 1;
      mj.mem = heap_mb() - base;
      mtop = s->kind == CHAIN ? 0 : 7 * (s->n - 1);
      mj.z0 = md->qpos[mtop + 2];
    }
  }
#else
  (void)use_mj;
#endif
#ifdef HAVE_ODE
  ode_scene oq, os;
  memset(&oq, 0, sizeof oq);
  memset(&os, 0, sizeof os);
  lk_data *scratch = use_ode ? lk_data_new(m) : NULL;
  if (scratch) {
    char why[256];
    ode_scene_options o;
    ode_scene_options_default(&o);
    o.hash_space = 1;
    o.quick = 1;
    base = heap_mb();
    if (ode_scene_build(&oq, m, scratch, &o, why, sizeof why) == 0) {
      for (int k = 0; k < nsettle; k++) ode_scene_step(&oq, s->h);
      quick.on = 1;
      quick.mem = heap_mb() - base;
      quick.z0 = dBodyGetPosition(oq.body[top])[2];
    } else {
      fprintf(stderr, "bench/piles: ODE scene %s: %s\n", s->name, why);
    }
    o.quick = 0;
    base = heap_mb();
    /* Beyond twice that, not run: one dense step of a 300-cube pile's
     * 10 800 rows is some 1e12 flops. */
    if (quick.on && s->n <= 2 * ode_step_max &&
        ode_scene_build(&os, m, scratch, &o, why, sizeof why) == 0) {
      int own = s->n <= ode_step_max;
      if (own) {
        for (int k = 0; k < nsettle; k++) ode_scene_step(&os, s->h);
      } else {
        /* Start from the settled quickstep world. */
        for (int i = 1; i < oq.nlink; i++) {
          if (!oq.body[i]) continue;
          const dReal *p = dBodyGetPosition(oq.body[i]), *v = dBodyGetLinearVel(oq.body[i]),
                      *w = dBodyGetAngularVel(oq.body[i]);
          dBodySetPosition(os.body[i], p[0], p[1], p[2]);
          dBodySetRotation(os.body[i], dBodyGetRotation(oq.body[i]));
          dBodySetLinearVel(os.body[i], v[0], v[1], v[2]);
          dBodySetAngularVel(os.body[i], w[0], w[1], w[2]);
        }
        step.max_timed = timed < 20 ? timed : 20;
      }
      step.on = 1;
      step.mem = heap_mb() - base;
      step.z0 = dBodyGetPosition(os.body[top])[2];
    }
  }
#else
  (void)use_ode;
#endif
  const int block = 50;
  int done = 0;
  while (done < timed && !bad) {
    int nb = timed - done < block ? timed - done : block;
    for (int k = 0; k < nb && !bad; k++) {
      double a = now();
      bad = lk_step(m, d) != LK_OK;
      ours.t[ours.nt++] = now() - a;
      const lk_step_report *r = lk_data_step_report(d);
      fail += r->solver_failures;
      fb += r->fallbacks;
      unc += r->friction_unconverged;
      iter += r->iterative_islands;
      direct += r->direct_solves;
      rows = r->nrows;
    }
#ifdef HAVE_MUJOCO
    for (int k = 0; k < nb && mj.on; k++) {
      double a = now();
      mj_step(mm, md);
      mj.t[mj.nt++] = now() - a;
    }
#endif
#ifdef HAVE_ODE
    for (int k = 0; k < nb && quick.on; k++) {
      double a = now();
      ode_scene_step(&oq, s->h);
      quick.t[quick.nt++] = now() - a;
    }
    for (int k = 0; k < nb && step.on && step.nt < step.max_timed; k++) {
      double a = now();
      ode_scene_step(&os, s->h);
      step.t[step.nt++] = now() - a;
    }
#endif
    done += nb;
  }
  ours.drift = fabs(lk_data_q(d)[tq + 2] - ours.z0);
#ifdef HAVE_MUJOCO
  if (mj.on) mj.drift = fabs(md->qpos[mtop + 2] - mj.z0);
#endif
#ifdef HAVE_ODE
  if (quick.on) quick.drift = fabs(dBodyGetPosition(oq.body[top])[2] - quick.z0);
  if (step.on) step.drift = fabs(dBodyGetPosition(os.body[top])[2] - step.z0);
#endif
  engine *all[4] = {&ours, &mj, &quick, &step};
  for (int i = 0; i < 4; i++)
    if (all[i]->on) all[i]->med = median_us(all[i]->t, all[i]->nt);
  char ratio[3][16];
  for (int i = 0; i < 3; i++) {
    const engine *p = all[i + 1];
    if (p->on && p->nt > 0)
      snprintf(ratio[i], sizeof ratio[i], "%.2f", ours.med / p->med);
    else
      snprintf(ratio[i], sizeof ratio[i], "-");
  }
  /* ours' steps can be of two kinds (a resting pile's guessed steps and
   * swept ones): the mean beside the median, and its ratio to quickstep's */
  double mean = 0;
  for (int k = 0; k < ours.nt; k++) mean += ours.t[k];
  mean = ours.nt > 0 ? 1e6 * mean / ours.nt : NAN;
  char mean_qs[16] = "-";
  if (quick.on && quick.nt > 0) snprintf(mean_qs, sizeof mean_qs, "%.2f", mean / quick.med);
  char cell[4][2][16];
  for (int i = 0; i < 4; i++) {
    if (all[i]->on && all[i]->nt > 0) {
      snprintf(cell[i][0], sizeof cell[i][0], "%.1f", all[i]->med);
      snprintf(cell[i][1], sizeof cell[i][1], "%.2g", all[i]->drift);
    } else {
      snprintf(cell[i][0], sizeof cell[i][0], "-");
      snprintf(cell[i][1], sizeof cell[i][1], "-");
    }
  }
  printf("%-11s %9s %9s %9s %9s %6s %6s %6s %6ld %4ld %4ld %4ld %4ld %4ld %8s %8s %8s %8s %7.1f %7.1f "
         "%7.1f %7.1f %7.3f %9.1f %7s%s\n",
         s->name, cell[0][0], cell[1][0], cell[2][0], cell[3][0], ratio[0], ratio[1], ratio[2], rows,
         iter, direct, fail, fb, unc, cell[0][1], cell[1][1], cell[2][1], cell[3][1], ours.mem,
         mj.on ? mj.mem : NAN, quick.on ? quick.mem : NAN, step.on ? step.mem : NAN, create, mean,
         mean_qs, bad ? "  (a step failed)" : "");
  fflush(stdout);
  out.ours = ours.med;
  out.mj = mj.on ? mj.med : NAN;
  out.quick = quick.on ? quick.med : NAN;
  out.step = step.on && step.nt > 0 ? step.med : NAN;
#ifdef HAVE_MUJOCO
  if (md) mj_deleteData(md);
  if (mm) mj_deleteModel(mm);
#endif
#ifdef HAVE_ODE
  ode_scene_free(&oq);
  ode_scene_free(&os);
  lk_data_free(scratch);
#endif
  for (int i = 0; i < 4; i++) free(all[i]->t);
  lk_data_free(d);
  lk_model_free(m);
  return out;
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: bench/piles [--quick] [--large] [--scene NAME] [--settle SECONDS] [--timed STEPS]\n"
          "                   [--no-ode] [--no-mujoco] [--ode-step-max N]\n");
}

int main(int argc, char **argv) {
  int quick = 0, large = 0, timed = 500, use_ode = 1, use_mj = 1;
  double settle = -1;
  const char *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick"))
      quick = 1;
    else if (!strcmp(argv[i], "--large"))
      large = 1;
    else if (!strcmp(argv[i], "--no-ode"))
      use_ode = 0;
    else if (!strcmp(argv[i], "--no-mujoco"))
      use_mj = 0;
    else if (!strcmp(argv[i], "--scene") && i + 1 < argc)
      only = argv[++i];
    else if (!strcmp(argv[i], "--settle") && i + 1 < argc)
      settle = atof(argv[++i]);
    else if (!strcmp(argv[i], "--timed") && i + 1 < argc)
      timed = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--ode-step-max") && i + 1 < argc)
      ode_step_max = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    } else {
      usage(stderr);
      return 2;
    }
  }
  if (timed < 1) timed = 1;
#ifdef HAVE_ODE
  if (use_ode) {
    dInitODE2(0);
    ode_scene_messages_reset();
  }
#endif
  static const scene all[] = {
      {"chain10", CHAIN, 10, 2e-3, 0},        {"chain20", CHAIN, 20, 2e-3, 0},
      {"chain50", CHAIN, 50, 2e-3, 0},        {"tower17", TOWER, 17, 1e-3, 0},
      {"pyramid10", PYRAMID, 10, 1e-3, 0},    {"pyramid30", PYRAMID, 30, 1e-3, 0},
      {"pyramid100", PYRAMID, 100, 1e-3, 0},  {"pyramid300", PYRAMID, 300, 1e-3, 0},
      {"pyramid1000", PYRAMID, 1000, 1e-3, 1}, {"spheres100", SPHERES, 100, 1e-3, 0},
      {"spheres1000", SPHERES, 1000, 1e-3, 1}, {"spheres10000", SPHERES, 10000, 1e-3, 1}};
  const int nall = (int)(sizeof all / sizeof all[0]);
  printf("bench/piles: us a step after settling (%s), %d timed steps by turns\n",
         settle >= 0 ? "given" : "chains 5 s, piles 0.2 s, spheres 1 s", timed);
  printf("%-11s %9s %9s %9s %9s %6s %6s %6s %6s %4s %4s %4s %4s %4s %8s %8s %8s %8s %7s %7s %7s %7s %7s "
         "%9s %7s\n",
         "scene", "ours", "mujoco", "ode-qs", "ode-step", "/mj", "/qs", "/step", "rows", "nsgs",
         "dir", "fail", "fb", "unc", "drift", "mj", "qs", "step", "MB", "mj MB", "qs MB", "st MB",
         "new s", "ours mean", "mean/qs");
  row_times t[16];
  int ran[16] = {0};
  for (int k = 0; k < nall; k++) {
    if (only && strcmp(only, all[k].name)) continue;
    if (!only && all[k].large && !large) continue;
    if (quick && all[k].n > 30) continue;
    double st = settle >= 0 ? settle : all[k].kind == CHAIN ? 5.0 : all[k].kind == SPHERES ? 1.0 : 0.2;
    t[k] = run(&all[k], st, quick ? 100 : timed, use_mj, use_ode);
    ran[k] = 1;
  }
  /* Growth exponents within a family (consecutive sizes that both ran). */
  int header = 0;
  for (int k = 1; k < nall; k++) {
    int j = k - 1;
    if (!ran[k] || !ran[j] || all[j].kind != all[k].kind) continue;
    if (!header) {
      printf("\ngrowth exponent of the step time in N (log t2/t1 / log N2/N1)\n%-26s %7s %7s %7s %7s\n",
             "from - to", "ours", "mujoco", "ode-qs", "ode-step");
      header = 1;
    }
    double l = log((double)all[k].n / all[j].n);
    char span[2 * sizeof all[0].name + 4];
    snprintf(span, sizeof span, "%.31s - %.31s", all[j].name, all[k].name);
    printf("%-26s %7.2f %7.2f %7.2f %7.2f\n", span, log(t[k].ours / t[j].ours) / l,
           log(t[k].mj / t[j].mj) / l, log(t[k].quick / t[j].quick) / l,
           log(t[k].step / t[j].step) / l);
  }
#ifdef HAVE_ODE
  if (use_ode) {
    const char *first;
    long n = ode_scene_messages(&first);
    if (n) printf("ODE messages: %ld (first: %s)\n", n, first);
    dCloseODE();
  }
#endif
  return 0;
}
