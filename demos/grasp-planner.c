/* grasp-planner: sample hand poses around an object, run a grasp trial for
 * each (close, release, lift, shake: linkage/grasp.h), rank them.
 *
 *   grasp-planner --hand mechanisms/jaw_gripper.yaml \
 *                 --object mechanisms/object_box.yaml -n 64 --jobs 2
 *
 * Candidates: the palm's approach axis (-z of the palm frame, along which
 * the fingers reach) points at the object's centre of mass from a direction
 * drawn uniformly on the sphere, the palm rolled about it by an angle drawn
 * uniformly in [0, 2 pi), at a standoff (palm origin to centre of mass)
 * drawn uniformly in the given range. Candidate i draws from its own random
 * stream (SplitMix64 of the seed and i), so the candidates, the trials (each
 * deterministic) and therefore the ranking do not depend on --jobs.
 *
 * Ranking: held grasps first; then the larger Ferrari-Canny epsilon; then
 * the smaller slip, the object's translation plus its rotation times its
 * radius (how far a point of its surface moved in the hand: a sphere that
 * turns 80 degrees between two pads has slipped, however still its centre
 * stays); then candidate order.
 *
 * Uses only the public API (linkage/linkage.h). */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "linkage/linkage.h"

typedef struct {
  int index;
  lk_vec3 approach; /* unit, object frame: from the object towards the palm */
  double roll, standoff;
  lk_transform pose; /* palm frame in the object frame */
  lk_quat q;          /* its orientation, exactly as the CSV prints it */
  lk_grasp_trial_report r;
  lk_status st;
  char error[LK_ERROR_MESSAGE_MAX];
} candidate;

/* --------------------------------------------------------------- random */

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Uniform in [0, 1) with 53 random bits. */
static double uniform(uint64_t *x) { return (double)(splitmix64(x) >> 11) * 0x1.0p-53; }

/* The palm frame for approach direction a (unit), roll and standoff about
 * the point c (object frame): z along a, x from the coordinate axis least
 * aligned with a, turned by roll about a. */
static lk_transform palm_pose(lk_vec3 a, double roll, double standoff, lk_vec3 c) {
  double ax = fabs(a.x), ay = fabs(a.y), az = fabs(a.z);
  lk_vec3 e = ax <= ay && ax <= az ? lk_v3(1, 0, 0) : (ay <= az ? lk_v3(0, 1, 0) : lk_v3(0, 0, 1));
  lk_vec3 x0 = lk_v3_normalize(lk_v3_cross(e, a));
  lk_vec3 y0 = lk_v3_cross(a, x0);
  lk_vec3 x = lk_v3_add(lk_v3_scale(x0, cos(roll)), lk_v3_scale(y0, sin(roll)));
  lk_vec3 y = lk_v3_cross(a, x);
  lk_mat3 R = {{{x.x, y.x, a.x}, {x.y, y.y, a.y}, {x.z, y.z, a.z}}};
  return lk_tf(&R, lk_v3_madd(c, a, standoff));
}

static void sample(candidate *c, int i, uint64_t seed, double smin, double smax, lk_vec3 com) {
  uint64_t x = seed ^ (0xD1B54A32D192ED03ull * (uint64_t)(i + 1));
  splitmix64(&x);
  double z = 2 * uniform(&x) - 1, phi = 2 * LK_PI * uniform(&x);
  double rxy = sqrt(fmax(0.0, 1 - z * z));
  c->index = i;
  c->approach = lk_v3(rxy * cos(phi), rxy * sin(phi), z);
  c->roll = 2 * LK_PI * uniform(&x);
  c->standoff = smin + (smax - smin) * uniform(&x);
  c->pose = palm_pose(c->approach, c->roll, c->standoff, com);
  /* Keep the orientation as the unit quaternion the CSV prints (and its
   * matrix): a pose read back from the CSV then repeats the trial bit for
   * bit. */
  c->q = lk_q_from_mat3(&c->pose.R);
  c->pose.R = lk_q_to_mat3(c->q);
}

/* -------------------------------------------------------------- workers */

typedef struct {
  const lk_grasp_scene *scene;
  const lk_grasp_trial_options *opts;
  candidate *cand;
  int n;
  atomic_int next, done;
  atomic_int failed;
} shared;

static void *worker(void *arg) {
  shared *sh = arg;
  lk_data *d = lk_data_new(lk_grasp_scene_model(sh->scene));
  if (!d) {
    atomic_store(&sh->failed, 1);
    return NULL;
  }
  for (;;) {
    int i = atomic_fetch_add(&sh->next, 1);
    if (i >= sh->n) break;
    candidate *c = &sh->cand[i];
    lk_error e;
    c->st = lk_grasp_trial(sh->scene, d, &c->pose, NULL, sh->opts, &c->r, &e);
    if (c->st) snprintf(c->error, sizeof c->error, "%s", e.message);
    atomic_fetch_add(&sh->done, 1);
  }
  lk_data_free(d);
  return NULL;
}

/* The object's radius, for the slip measure of the ranking (set before the
 * sort, which runs on one thread). */
static double g_object_radius;

static double slip_measure(const candidate *c) {
  return c->r.slip_translation + g_object_radius * c->r.slip_rotation;
}

static int better(const candidate *a, const candidate *b) {
  if (a->r.held != b->r.held) return a->r.held > b->r.held;
  if (a->r.epsilon != b->r.epsilon) return a->r.epsilon > b->r.epsilon;
  double sa = slip_measure(a), sb = slip_measure(b);
  if (sa != sb) return sa < sb;
  return a->index < b->index;
}

static int compare(const void *pa, const void *pb) {
  const candidate *a = pa, *b = pb;
  if (better(a, b)) return -1;
  if (better(b, a)) return 1;
  return 0;
}

static void progress(int done, int n, int final) {
  const int width = 40;
  int fill = n > 0 ? (int)((long)width * done / n) : width;
  char bar[64];
  for (int i = 0; i < width; i++) bar[i] = i < fill ? '=' : (i == fill ? '>' : ' ');
  bar[width] = 0;
  fprintf(stderr, "\r[%s] %d/%d trials", bar, done, n);
  if (final) fputc('\n', stderr);
  fflush(stderr);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* ----------------------------------------------------------------- CSV */

static int write_csv(const char *path, const candidate *c, int n) {
  FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
  if (!f) {
    fprintf(stderr, "grasp-planner: cannot write %s: %s\n", path, strerror(errno));
    return 0;
  }
  fprintf(f,
          "rank,candidate,held,outcome,lost_in,approach_x,approach_y,approach_z,roll,standoff,"
          "px,py,pz,qw,qx,qy,qz,fingers_in_contact,contacts,force_closure,epsilon,volume,"
          "min_force,slip_translation,slip_rotation,peak_utilization,slip_flags,close_time\n");
  for (int k = 0; k < n; k++) {
    const candidate *a = &c[k];
    const lk_grasp_trial_report *r = &a->r;
    lk_quat q = a->q;
    static const char *const phases[] = {"close", "release", "lift", "shake", "-"};
    fprintf(f, "%d,%d,%d,%s,%s,", k + 1, a->index, r->held,
            a->st ? "error" : lk_grasp_outcome_name(r->outcome), phases[r->lost_in]);
    fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g,", a->approach.x, a->approach.y, a->approach.z,
            a->roll, a->standoff);
    fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,", a->pose.p.x, a->pose.p.y, a->pose.p.z,
            q.w, q.x, q.y, q.z);
    fprintf(f, "%d,%d,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%u,%.6g\n", r->fingers_in_contact,
            r->ncontacts, r->force_closure, r->epsilon, r->volume, r->min_force,
            r->slip_translation, r->slip_rotation, r->peak_utilization, r->slip_flags,
            r->close_time);
  }
  int ok = !ferror(f);
  if (f != stdout) ok &= fclose(f) == 0;
  if (!ok) fprintf(stderr, "grasp-planner: writing %s failed\n", path);
  return ok;
}

/* ----------------------------------------------------------------- main */

static void usage(FILE *f) {
  fprintf(f,
          "usage: grasp-planner --hand HAND.yaml --object OBJECT.yaml [options]\n"
          "  -n, --candidates N    hand poses to try (default 64)\n"
          "  -j, --jobs J          trials run in parallel (default 1)\n"
          "  -s, --seed S          random seed (default 1)\n"
          "  -o, --output FILE     ranked CSV (default grasps.csv; - for stdout)\n"
          "  --standoff MIN:MAX    palm-to-object distance range, m (default: 0.5 to 1.0\n"
          "                        times the fingers' reach)\n"
          "  --grip-force F        finger force, N (default 10)\n"
          "  --lift H              lift height, m (default 0.1)\n"
          "  --shake-force F       disturbance force, N (default: the object's weight)\n"
          "  --shake-torque T      disturbance torque, N m (default: weight x radius / 2)\n"
          "  --edges K             friction cone edges of the analysis (default 8)\n"
          "  --set-hand KEY=VALUE  override in the hand file (repeatable)\n"
          "  --set-object KEY=VALUE  override in the object file (repeatable)\n"
          "  --quiet               no progress bar\n");
}

static int parse_double(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end || !isfinite(v)) return 0;
  *out = v;
  return 1;
}

int main(int argc, char **argv) {
  const char *hand = NULL, *object = NULL, *output = "grasps.csv";
  long n = 64, jobs = 1;
  unsigned long long seed = 1;
  double smin = -1, smax = -1;
  int quiet = 0;
  const char *hset[64], *oset[64];
  int nh = 0, no = 0;
  lk_grasp_trial_options opts;
  lk_grasp_trial_options_default(&opts);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED()                                                           \
  do {                                                                   \
    if (!v) {                                                            \
      fprintf(stderr, "grasp-planner: %s needs a value\n", a);           \
      return 2;                                                          \
    }                                                                    \
    i++;                                                                 \
  } while (0)
#define NUMBER(dst)                                                        \
  do {                                                                     \
    NEED();                                                                \
    if (!parse_double(v, &(dst))) {                                        \
      fprintf(stderr, "grasp-planner: %s: '%s' is not a number\n", a, v);  \
      return 2;                                                            \
    }                                                                      \
  } while (0)
    char *end;
    if (!strcmp(a, "--hand")) {
      NEED();
      hand = v;
    } else if (!strcmp(a, "--object")) {
      NEED();
      object = v;
    } else if (!strcmp(a, "-n") || !strcmp(a, "--candidates")) {
      NEED();
      n = strtol(v, &end, 10);
      if (*end || n < 1 || n > 1000000) {
        fprintf(stderr, "grasp-planner: %s: expected 1..1000000, got '%s'\n", a, v);
        return 2;
      }
    } else if (!strcmp(a, "-j") || !strcmp(a, "--jobs")) {
      NEED();
      jobs = strtol(v, &end, 10);
      if (*end || jobs < 1 || jobs > 256) {
        fprintf(stderr, "grasp-planner: %s: expected 1..256, got '%s'\n", a, v);
        return 2;
      }
    } else if (!strcmp(a, "-s") || !strcmp(a, "--seed")) {
      NEED();
      seed = strtoull(v, &end, 10);
      if (*end || *v == '-') {
        fprintf(stderr, "grasp-planner: %s: expected an integer >= 0, got '%s'\n", a, v);
        return 2;
      }
    } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
      NEED();
      output = v;
    } else if (!strcmp(a, "--standoff")) {
      NEED();
      if (sscanf(v, "%lf:%lf", &smin, &smax) != 2 || !(smin >= 0 && smax >= smin)) {
        fprintf(stderr, "grasp-planner: --standoff: expected MIN:MAX with 0 <= MIN <= MAX\n");
        return 2;
      }
    } else if (!strcmp(a, "--grip-force")) {
      NUMBER(opts.grip_force);
    } else if (!strcmp(a, "--lift")) {
      NUMBER(opts.lift_height);
    } else if (!strcmp(a, "--shake-force")) {
      NUMBER(opts.shake_force);
    } else if (!strcmp(a, "--shake-torque")) {
      NUMBER(opts.shake_torque);
    } else if (!strcmp(a, "--edges")) {
      double e;
      NUMBER(e);
      opts.analysis.edges = (int)e;
    } else if (!strcmp(a, "--set-hand") || !strcmp(a, "--set-object")) {
      NEED();
      int is_hand = a[6] == 'h';
      if ((is_hand ? nh : no) == 64) {
        fprintf(stderr, "grasp-planner: too many %s\n", a);
        return 2;
      }
      if (is_hand)
        hset[nh++] = v;
      else
        oset[no++] = v;
    } else if (!strcmp(a, "--quiet")) {
      quiet = 1;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else {
      fprintf(stderr, "grasp-planner: unknown argument '%s'\n", a);
      usage(stderr);
      return 2;
    }
  }
  if (!hand || !object) {
    usage(stderr);
    return 2;
  }

  lk_error err;
  lk_grasp_scene_options so;
  lk_grasp_scene_options_default(&so);
  so.hand_set = hset;
  so.nhand_set = nh;
  so.object_set = oset;
  so.nobject_set = no;
  lk_grasp_scene *scene = lk_grasp_scene_load(hand, object, &so, &err);
  if (!scene) {
    char buf[1024];
    fprintf(stderr, "grasp-planner: %s\n", lk_error_format(&err, buf, sizeof buf));
    return 1;
  }
  double reach = lk_grasp_scene_reach(scene);
  if (smin < 0) {
    smin = 0.5 * reach;
    smax = reach;
  }
  const lk_model *m = lk_grasp_scene_model(scene);
  lk_link_spec obj;
  lk_model_link(m, lk_grasp_scene_object(scene), &obj);

  candidate *cand = calloc((size_t)n, sizeof *cand);
  pthread_t *th = calloc((size_t)jobs, sizeof *th);
  if (!cand || !th) {
    fprintf(stderr, "grasp-planner: out of memory\n");
    return 1;
  }
  for (int i = 0; i < n; i++) sample(&cand[i], i, seed, smin, smax, obj.com);

  shared sh = {.scene = scene, .opts = &opts, .cand = cand, .n = (int)n};
  atomic_init(&sh.next, 0);
  atomic_init(&sh.done, 0);
  atomic_init(&sh.failed, 0);
  int bar = !quiet && isatty(STDERR_FILENO);
  double t0 = now();
  int started = 0;
  for (long j = 0; j < jobs; j++) {
    if (pthread_create(&th[j], NULL, worker, &sh) != 0) {
      fprintf(stderr, "grasp-planner: cannot start thread %ld\n", j + 1);
      break;
    }
    started++;
  }
  if (started == 0) return 1;
  if (bar) {
    while (atomic_load(&sh.done) < n && !atomic_load(&sh.failed)) {
      progress(atomic_load(&sh.done), (int)n, 0);
      struct timespec ts = {0, 100 * 1000 * 1000};
      nanosleep(&ts, NULL);
    }
  }
  for (int j = 0; j < started; j++) pthread_join(th[j], NULL);
  double wall = now() - t0;
  if (bar) progress(atomic_load(&sh.done), (int)n, 1);
  if (atomic_load(&sh.failed) || atomic_load(&sh.done) < n) {
    fprintf(stderr, "grasp-planner: out of memory in a worker\n");
    return 1;
  }

  int errors = 0, held = 0, by[8] = {0};
  for (int i = 0; i < n; i++) {
    if (cand[i].st) {
      if (errors++ == 0)
        fprintf(stderr, "grasp-planner: candidate %d: %s\n", i, cand[i].error);
      continue;
    }
    held += cand[i].r.held;
    by[cand[i].r.outcome]++;
  }
  g_object_radius = lk_grasp_scene_object_radius(scene);
  qsort(cand, (size_t)n, sizeof *cand, compare);
  if (!write_csv(output, cand, (int)n)) return 1;

  FILE *out = strcmp(output, "-") == 0 ? stderr : stdout;
  fprintf(out, "grasp-planner: %s with %s, %ld candidates (seed %llu, standoff %.3g..%.3g m)\n",
          hand, object, n, seed, smin, smax);
  fprintf(out, "  held %d; collision %d, no contact %d, dropped %d, failed steps %d", held,
          by[LK_GRASP_COLLISION], by[LK_GRASP_NO_CONTACT], by[LK_GRASP_DROPPED],
          by[LK_GRASP_SIM_FAILED]);
  if (errors) fprintf(out, ", errors %d", errors);
  fprintf(out, "\n");
  const candidate *b = &cand[0];
  fprintf(out,
          "  best: candidate %d, %s, approach (%.3f, %.3f, %.3f), roll %.3f rad, standoff %.4f m;\n"
          "        epsilon %.4g, volume %.4g, min force %.4g N, slip %.3g mm / %.3g rad\n",
          b->index, b->r.held ? "held" : lk_grasp_outcome_name(b->r.outcome), b->approach.x,
          b->approach.y, b->approach.z, b->roll, b->standoff, b->r.epsilon, b->r.volume,
          b->r.min_force, 1e3 * b->r.slip_translation, b->r.slip_rotation);
  fprintf(out, "  %ld trials in %.2f s on %d thread%s (%.1f trials/s); ranked list in %s\n", n,
          wall, started, started > 1 ? "s" : "", n / wall, output);
  free(cand);
  free(th);
  lk_grasp_scene_free(scene);
  return errors ? 1 : 0;
}
