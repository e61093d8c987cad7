/* bench/grasp: the grasp layer's throughput, parallel-jaw gripper on the
 * box (mechanisms/jaw_gripper.yaml + object_box.yaml) unless told others:
 *   - analytic screening (lk_grasp_screen: kinematic closing, force
 *     closure, epsilon) in candidates per second per thread, antipodal and
 *     uniform draws, on 1..J threads, and the speed-up;
 *   - dynamic grasp trials (lk_grasp_trial) per second, on 1..J threads;
 *   - a sweep of the shipped objects (mechanisms/objects.list) by
 *     demos/grasp-planner, 1000 candidates each, with `mpirun -np 1` and
 *     `-np 2` (oversubscribed if need be): wall times, the parallel
 *     efficiency, and whether the two CSVs are byte for byte the same.
 *
 *   bench/grasp [--trials N] [--screens N] [--rounds R] [--jobs J]
 *               [--solver lemke|dantzig] [--set KEY=VALUE]... [--no-sweep]
 *               [--explain] [HAND.yaml OBJECT.yaml]
 *
 * --solver overrides the hand file's contact LCP solver (its options are
 * the scene's); without it the file's (here Lemke, the default) is used.
 * --set (up to 8) sets any other key of the hand file, as `linkage
 * simulate --set` does (options.anchor_contacts=true, for one).
 * --explain adds the trials' islands by the planner's choice and the
 * strategy that answered, with their rows and pivots or sweeps.
 *
 * The hand poses are drawn as demos/grasp-planner draws them (approach on
 * the sphere, roll, standoff 0.5 to 1 reach; a fixed seed), so the mix of
 * outcomes (held, dropped, collision) is the planner's. Each figure is the
 * best of R rounds (the machine may be shared). */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "linkage/linkage.h"

#ifndef LK_MECHANISMS
#define LK_MECHANISMS "mechanisms"
#endif

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static double uniform(uint64_t *x) { return (double)(splitmix64(x) >> 11) * 0x1.0p-53; }

static lk_transform sample(uint64_t *x, double smin, double smax, lk_vec3 c) {
  double z = 2 * uniform(x) - 1, phi = 2 * LK_PI * uniform(x), r = sqrt(fmax(0, 1 - z * z));
  lk_vec3 a = lk_v3(r * cos(phi), r * sin(phi), z);
  double roll = 2 * LK_PI * uniform(x), s = smin + (smax - smin) * uniform(x);
  double ax = fabs(a.x), ay = fabs(a.y), az = fabs(a.z);
  lk_vec3 e = ax <= ay && ax <= az ? lk_v3(1, 0, 0) : (ay <= az ? lk_v3(0, 1, 0) : lk_v3(0, 0, 1));
  lk_vec3 x0 = lk_v3_normalize(lk_v3_cross(e, a)), y0 = lk_v3_cross(a, x0);
  lk_vec3 xx = lk_v3_add(lk_v3_scale(x0, cos(roll)), lk_v3_scale(y0, sin(roll)));
  lk_vec3 yy = lk_v3_cross(a, xx);
  lk_mat3 R = {{{xx.x, yy.x, a.x}, {xx.y, yy.y, a.y}, {xx.z, yy.z, a.z}}};
  return lk_tf(&R, lk_v3_madd(c, a, s));
}

typedef struct {
  const lk_grasp_scene *s;
  const lk_transform *poses;
  lk_grasp_trial_report *rep;
  int n;
  atomic_int next;
  atomic_long steps;
  atomic_long cpu_ns; /* CPU time of the worker threads */
} job;

static void *worker(void *arg) {
  job *j = arg;
  lk_data *d = lk_data_new(lk_grasp_scene_model(j->s));
  if (!d) return NULL;
  long steps = 0;
  struct timespec c0, c1;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
  for (int i; (i = atomic_fetch_add(&j->next, 1)) < j->n;) {
    lk_grasp_trial(j->s, d, &j->poses[i], NULL, NULL, &j->rep[i], NULL);
    steps += j->rep[i].steps;
  }
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
  atomic_fetch_add(&j->steps, steps);
  atomic_fetch_add(&j->cpu_ns, (long)((c1.tv_sec - c0.tv_sec) * 1000000000L + (c1.tv_nsec - c0.tv_nsec)));
  lk_data_free(d);
  return NULL;
}

typedef struct {
  const lk_grasp_scene *s;
  const lk_grasp_screener *sc;
  const lk_grasp_candidate *cand;
  lk_grasp_screen_report *rep;
  int n;
  atomic_int next;
  atomic_long cpu_ns; /* CPU time of the screens, all threads */
} screen_job;

static void *screen_worker(void *arg) {
  screen_job *j = arg;
  lk_data *d = lk_data_new(lk_grasp_scene_model(j->s));
  lk_grasp_contact *c = malloc(512 * sizeof *c);
  struct timespec c0, c1;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
  if (d && c)
    for (int i; (i = atomic_fetch_add(&j->next, 1)) < j->n;)
      lk_grasp_screen(j->sc, d, &j->cand[i].pose, NULL, &j->rep[i], c, 512, NULL);
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
  atomic_fetch_add(&j->cpu_ns, (long)(c1.tv_sec - c0.tv_sec) * 1000000000L + (c1.tv_nsec - c0.tv_nsec));
  free(c);
  lk_data_free(d);
  return NULL;
}

/* --explain: the trials' islands tallied by the planner's choice and the
 * answering strategy (as `linkage simulate --explain` prints a run's), to
 * see where a trial's time goes. */
typedef struct {
  long islands[LK_ISLAND_STRATEGIES][LK_ISLAND_STRATEGIES];
  long unsettled[LK_ISLAND_STRATEGIES][LK_ISLAND_STRATEGIES];
  long rows[LK_ISLAND_STRATEGIES][LK_ISLAND_STRATEGIES];
  long iterations[LK_ISLAND_STRATEGIES][LK_ISLAND_STRATEGIES];
} tally;

static void observe(void *user, const lk_data *d, int phase) {
  (void)phase;
  tally *t = user;
  const lk_step_report *sr = lk_data_step_report(d);
  for (int k = 0; k < sr->nislands; k++) {
    const lk_island_report *r = lk_data_island_report(d, k);
    if (!r || r->planned == LK_ISLAND_NONE) continue;
    t->islands[r->planned][r->answered]++;
    t->unsettled[r->planned][r->answered] += !r->settled;
    t->rows[r->planned][r->answered] += r->rows;
    t->iterations[r->planned][r->answered] += r->iterations;
  }
}

static void explain(const lk_grasp_scene *s, const lk_transform *poses, int n) {
  static tally t;
  memset(&t, 0, sizeof t);
  lk_grasp_trial_options o;
  lk_grasp_trial_options_default(&o);
  o.observe = observe;
  o.observe_user = &t;
  lk_data *d = lk_data_new(lk_grasp_scene_model(s));
  if (!d) return;
  lk_grasp_trial_report r;
  for (int i = 0; i < n; i++) lk_grasp_trial(s, d, &poses[i], NULL, &o, &r, NULL);
  lk_data_free(d);
  printf("  islands of the %d trials, by plan:\n  %-16s %-16s %9s %9s %6s %10s\n", n, "planned",
         "answered", "islands", "unsettled", "rows", "iterations");
  for (int a = 0; a < LK_ISLAND_STRATEGIES; a++)
    for (int b = 0; b < LK_ISLAND_STRATEGIES; b++)
      if (t.islands[a][b])
        printf("  %-16s %-16s %9ld %9ld %6.1f %10.1f\n", lk_island_strategy_name((lk_island_strategy)a),
               lk_island_strategy_name((lk_island_strategy)b), t.islands[a][b], t.unsettled[a][b],
               (double)t.rows[a][b] / t.islands[a][b], (double)t.iterations[a][b] / t.islands[a][b]);
  printf("  (rows and iterations -- pivots and NSGS sweeps -- are means an island)\n");
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Wall time of all trials on `threads` threads; steps summed into *steps. */
static double run(const lk_grasp_scene *s, const lk_transform *poses, lk_grasp_trial_report *rep,
                  int n, int threads, long *steps, double *cpu) {
  job j = {.s = s, .poses = poses, .rep = rep, .n = n};
  atomic_init(&j.next, 0);
  atomic_init(&j.steps, 0);
  atomic_init(&j.cpu_ns, 0);
  pthread_t th[64];
  double t0 = now();
  for (int k = 0; k < threads; k++) pthread_create(&th[k], NULL, worker, &j);
  for (int k = 0; k < threads; k++) pthread_join(th[k], NULL);
  double t = now() - t0;
  *steps = atomic_load(&j.steps);
  *cpu = 1e-9 * atomic_load(&j.cpu_ns);
  return t;
}

static double run_screens(const lk_grasp_scene *s, const lk_grasp_screener *sc,
                          const lk_grasp_candidate *cand, lk_grasp_screen_report *rep, int n,
                          int threads, double *cpu);

/* Screening: candidates per second per thread, for the scene's antipodal
 * (or surface) draws and for uniform ones. */
static void bench_screening(const lk_grasp_scene *s, int n, int rounds, int jobs) {
  lk_error e;
  lk_grasp_screener *sc = lk_grasp_screener_new(s, NULL, &e);
  lk_grasp_candidate *cand = malloc((size_t)n * sizeof *cand);
  lk_grasp_screen_report *rep = calloc((size_t)n, sizeof *rep);
  if (!sc || !cand || !rep) {
    fprintf(stderr, "bench/grasp: %s\n", sc ? "out of memory" : e.message);
    goto done;
  }
  for (int kind = 0; kind < 2; kind++) {
    lk_grasp_sample_options so;
    lk_grasp_sample_options_default(&so);
    so.seed = 12345;
    if (kind) so.kind = LK_SAMPLE_UNIFORM;
    lk_grasp_sampler *sp = lk_grasp_sampler_new(s, &so, &e);
    if (!sp) {
      fprintf(stderr, "bench/grasp: %s\n", e.message);
      continue;
    }
    for (int i = 0; i < n; i++) lk_grasp_sampler_draw(sp, i, &cand[i], NULL);
    double base = 0;
    for (int t = 1; t <= jobs; t++) {
      double best = INFINITY, cpu_best = INFINITY;
      for (int r = 0; r < rounds; r++) {
        double cpu, w = run_screens(s, sc, cand, rep, n, t, &cpu);
        if (w < best) best = w;
        if (cpu < cpu_best) cpu_best = cpu;
      }
      int closed = 0, qh = 0;
      for (int i = 0; i < n; i++) {
        closed += rep[i].outcome == LK_SCREEN_CLOSED;
        qh += rep[i].epsilon_qhull;
      }
      double rate = n / best;
      if (t == 1) base = rate;
      /* Per CPU second: what a thread does when it has a core to itself
       * (the wall rate is lower whenever the machine is shared). */
      printf("  screening, %-9s %d thread%s: %8.0f candidates/s (%7.0f per thread, %7.0f per CPU "
             "second), closed %d/%d, epsilon by qhull %d",
             lk_grasp_sample_kind_name(lk_grasp_sampler_kind(sp)), t, t > 1 ? "s" : " ", rate,
             rate / t, n / cpu_best, closed, n, qh);
      if (t > 1) printf(", speed-up %.2f", rate / base);
      printf("\n");
    }
    lk_grasp_sampler_free(sp);
  }
done:
  free(cand);
  free(rep);
  lk_grasp_screener_free(sc);
}

static double run_screens(const lk_grasp_scene *s, const lk_grasp_screener *sc,
                          const lk_grasp_candidate *cand, lk_grasp_screen_report *rep, int n,
                          int threads, double *cpu) {
  screen_job j = {.s = s, .sc = sc, .cand = cand, .rep = rep, .n = n};
  atomic_init(&j.next, 0);
  atomic_init(&j.cpu_ns, 0);
  pthread_t th[64];
  double t0 = now();
  for (int k = 0; k < threads; k++) pthread_create(&th[k], NULL, screen_worker, &j);
  for (int k = 0; k < threads; k++) pthread_join(th[k], NULL);
  *cpu = 1e-9 * (double)atomic_load(&j.cpu_ns);
  return now() - t0;
}

/* CPU time (user + system) of the waited-for children so far, s. */
static double children_cpu(void) {
  struct rusage u;
  getrusage(RUSAGE_CHILDREN, &u);
  return (double)u.ru_utime.tv_sec + 1e-6 * (double)u.ru_utime.tv_usec +
         (double)u.ru_stime.tv_sec + 1e-6 * (double)u.ru_stime.tv_usec;
}

/* Run a shell command; its wall time, or -1 if it failed; the CPU time it
 * and its children took in *cpu. */
static double timed_cpu(const char *cmd, double *cpu) {
  double t0 = now(), c0 = children_cpu();
  int rc = system(cmd);
  *cpu = children_cpu() - c0;
  return rc == 0 ? now() - t0 : -1;
}

static double load1(void) {
  double l = NAN;
  FILE *f = fopen("/proc/loadavg", "r");
  if (f) {
    if (fscanf(f, "%lf", &l) != 1) l = NAN;
    fclose(f);
  }
  return l;
}

static int same_file(const char *a, const char *b) {
  FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
  int same = fa && fb;
  while (same) {
    int ca = getc(fa), cb = getc(fb);
    if (ca != cb) same = 0;
    if (ca == EOF || cb == EOF) break;
  }
  if (fa) fclose(fa);
  if (fb) fclose(fb);
  return same;
}

/* The sweep by the planner, under mpirun with 1 and 2 ranks (one thread
 * each), by turns, best of `rounds`. `--bind-to none`: Open MPI binds each
 * of 2 ranks to a core by default, all of a rank's threads on it, and on a
 * shared machine a rank then waits behind whatever else runs on its core.
 * The machine may be loaded, so the CPU time of each run is measured too:
 * work / CPU of 2 ranks against 1 is the efficiency the CPU overhead
 * (MPI, the dispatcher, loading every object on every rank) allows, what
 * the wall times would show on two free cores if nothing waited. */
static void bench_sweep(const char *hand, int rounds) {
#if defined(LK_MPIRUN) && defined(LK_BUILDDIR)
  const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  char out[2][4096], cmd[2][16384];
  double best[2] = {INFINITY, INFINITY}, cpu[2] = {INFINITY, INFINITY}, load[2] = {0, 0};
  for (int k = 0; k < 2; k++) {
    snprintf(out[k], sizeof out[k], "%s/bench-grasp-sweep-%d-np%d.csv", tmp, (int)getpid(), k + 1);
    snprintf(cmd[k], sizeof cmd[k],
             "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 %s --oversubscribe "
             "--bind-to none -np %d "
             "%s/demos/grasp-planner --hand %s --objects %s/objects.list -n 1000 --jobs 1 "
             "--quiet -o %s",
             LK_MPIRUN, k + 1, LK_BUILDDIR, hand, LK_MECHANISMS, out[k]);
  }
  for (int r = 0; r < rounds; r++)
    for (int k = 0; k < 2; k++) {
      double l = load1(), c, w = timed_cpu(cmd[k], &c);
      if (w < 0) {
        printf("  sweep: '%s' failed\n", cmd[k]);
        return;
      }
      if (w < best[k]) best[k] = w, load[k] = l;
      if (c < cpu[k]) cpu[k] = c;
    }
  int same = same_file(out[0], out[1]);
  printf("  sweep of mechanisms/objects.list, 1000 candidates each: mpirun -np 1 %.2f s, -np 2 "
         "%.2f s (load %.1f, %.1f): speed-up %.2f, parallel efficiency %.0f%%; CPU %.2f s, "
         "%.2f s: CPU efficiency %.0f%%; CSVs %s\n",
         best[0], best[1], load[0], load[1], best[0] / best[1], 100 * best[0] / (2 * best[1]),
         cpu[0], cpu[1], 100 * cpu[0] / cpu[1], same ? "identical" : "DIFFER");
  unlink(out[0]);
  unlink(out[1]);
#else
  (void)hand;
  (void)rounds;
  printf("  sweep: not measured (this build has no MPI)\n");
#endif
}

int main(int argc, char **argv) {
  int n = 48, rounds = 2, jobs = 2, screens = 2000, sweep = 1;
  const char *hand = LK_MECHANISMS "/jaw_gripper.yaml", *object = LK_MECHANISMS "/object_box.yaml";
  int pos = 0, explained = 0;
  const char *solver = NULL;
  const char *sets[9];
  char solver_set[64];
  int nsets = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--trials") && i + 1 < argc)
      n = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
      rounds = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--jobs") && i + 1 < argc)
      jobs = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--solver") && i + 1 < argc)
      solver = argv[++i];
    else if (!strcmp(argv[i], "--set") && i + 1 < argc && nsets < 8)
      sets[nsets++] = argv[++i];
    else if (!strcmp(argv[i], "--screens") && i + 1 < argc)
      screens = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--no-sweep"))
      sweep = 0;
    else if (!strcmp(argv[i], "--explain"))
      explained = 1;
    else if (argv[i][0] != '-' && pos < 2)
      *(pos++ == 0 ? &hand : &object) = argv[i];
    else {
      fprintf(stderr, "usage: bench/grasp [--trials N] [--screens N] [--rounds R] [--jobs J] "
                      "[--solver lemke|dantzig] [--set KEY=VALUE]... [--no-sweep] [--explain] "
                      "[HAND OBJECT]\n");
      return 2;
    }
  }
  if (n < 1 || screens < 1 || rounds < 1 || jobs < 1 || jobs > 64) {
    fprintf(stderr, "bench/grasp: bad --trials, --rounds or --jobs\n");
    return 2;
  }
  lk_error e;
  lk_grasp_scene_options so;
  lk_grasp_scene_options_default(&so);
  if (solver) {
    snprintf(solver_set, sizeof solver_set, "options.solver=%s", solver);
    sets[nsets++] = solver_set;
  }
  so.hand_set = sets;
  so.nhand_set = nsets;
  lk_grasp_scene *s = lk_grasp_scene_load(hand, object, &so, &e);
  if (!s) {
    char buf[1024];
    fprintf(stderr, "bench/grasp: %s\n", lk_error_format(&e, buf, sizeof buf));
    return 1;
  }
  lk_link_spec obj;
  lk_model_link(lk_grasp_scene_model(s), lk_grasp_scene_object(s), &obj);
  double reach = lk_grasp_scene_reach(s);
  lk_transform *poses = malloc((size_t)n * sizeof *poses);
  lk_grasp_trial_report *rep = calloc((size_t)n, sizeof *rep);
  if (!poses || !rep) return 1;
  uint64_t x = 12345;
  for (int i = 0; i < n; i++) poses[i] = sample(&x, 0.5 * reach, reach, obj.com);

  printf("bench/grasp: %s + %s, %d trials (planner-style poses), %s solver, best of %d rounds\n",
         hand, object, n, lk_model_options(lk_grasp_scene_model(s))->solver == LK_SOLVER_DANTZIG
                              ? "Dantzig"
                              : "Lemke",
         rounds);
  bench_screening(s, screens, rounds, jobs);
  double base = 0;
  for (int t = 1; t <= jobs; t++) {
    double best = INFINITY, cpu_best = INFINITY;
    long steps = 0;
    for (int r = 0; r < rounds; r++) {
      double cpu, w = run(s, poses, rep, n, t, &steps, &cpu);
      if (w < best) {
        best = w;
        cpu_best = cpu;
      }
    }
    int held = 0;
    for (int i = 0; i < n; i++) held += rep[i].held;
    double rate = n / best;
    if (t == 1) base = rate;
    /* CPU per trial: if it stays flat as threads are added, the trials do
     * not slow each other down and the speed-up is what free cores give. */
    printf("  %d thread%s: %6.2f s, %7.1f trials/s, %5.0f steps/trial, %5.2f ms CPU/trial, "
           "held %d/%d",
           t, t > 1 ? "s" : " ", best, rate, (double)steps / n, 1e3 * cpu_best / n, held, n);
    if (t > 1) printf(", speed-up %.2f", rate / base);
    printf("\n");
  }
  if (explained) explain(s, poses, n);
  if (sweep) bench_sweep(hand, rounds);
  free(poses);
  free(rep);
  lk_grasp_scene_free(s);
  return 0;
}
