/* bench/collision: time per collision pass (lk_collide: broad phase,
 * narrow phase, sorting, persistence) for n spheres and n boxes resting on
 * a plane, n = 10, 100, 1000 (and 10000), and the growth exponent between
 * sizes: 1 is linear, 2 quadratic; n log n reads as a little above 1.
 *
 * Each geom is on its own free body (n trees of 6 DoFs: the data stores
 * the mass matrix per tree, so that stays small). Bodies sit on a jittered
 * square grid, 1e-4 deep in the floor and apart from each other; between
 * passes every body drifts by up to 0.1 mm (as in a simulation), so the
 * broad phase re-sorts a little each time. Each figure is the median of
 * many passes (machines are noisy); forward kinematics runs between passes
 * and is not timed.
 *
 * Then the mesh pairs (collision_mesh.c): hulls of 50, 500 and 5000
 * vertices, with ratios against libccd when configure found it.
 *
 * Usage: bench/collision [max_n]   (default 10000; 0: the mesh pairs only) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linkage/linkage.h"

int lk_bench_mesh_pairs(void); /* collision_mesh.c */

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static unsigned lcg(unsigned *s) {
  *s = *s * 1664525u + 1013904223u;
  return *s >> 8;
}

static double urand(unsigned *s, double lo, double hi) {
  return lo + (hi - lo) * (lcg(s) & 0xffffff) / (double)0x1000000;
}

typedef struct {
  double median_us, p10_us, p90_us;
  int contacts, pairs;
  long long checks;
} result;

static int build(int n, lk_geom_type type, lk_model **mo, lk_data **da) {
  lk_model *m = lk_model_new();
  lk_error e;
  lk_error_clear(&e);
  lk_geom_spec g;
  lk_geom_spec_default(&g);
  g.type = LK_GEOM_PLANE;
  if (lk_model_add_geom(m, &g, &e)) goto fail;
  char name[32];
  for (int i = 0; i < n; i++) {
    lk_link_spec l;
    lk_link_spec_default(&l);
    snprintf(name, sizeof name, "b%d", i);
    l.name = name;
    l.joint.type = LK_JOINT_FREE;
    l.mass = 1;
    l.inertia = lk_inertia_solid_box(1, lk_v3(0.05, 0.05, 0.05));
    if (lk_model_add_link(m, &l, &e)) goto fail;
    lk_geom_spec_default(&g);
    g.link = name;
    g.type = type;
    g.size[0] = g.size[1] = g.size[2] = 0.05;
    if (lk_model_add_geom(m, &g, &e)) goto fail;
  }
  if (lk_model_finalize(m, &e)) goto fail;
  lk_data *d = lk_data_new(m);
  if (!d) {
    snprintf(e.message, sizeof e.message, "out of memory for the data");
    goto fail;
  }
  int side = (int)ceil(sqrt((double)n));
  unsigned seed = 17;
  for (int i = 0; i < n; i++) {
    double *q = lk_data_q(d) + lk_model_joint_qadr(m, i + 1);
    q[0] = 0.14 * (i % side) + urand(&seed, -0.01, 0.01);
    q[1] = 0.14 * (i / side) + urand(&seed, -0.01, 0.01);
    q[2] = 0.05 - 1e-4;
    /* Boxes turned about z at random (corners still on the floor). */
    double yaw = type == LK_GEOM_BOX ? urand(&seed, 0, LK_PI) : 0;
    q[3] = cos(yaw / 2);
    q[4] = q[5] = 0;
    q[6] = sin(yaw / 2);
  }
  *mo = m;
  *da = d;
  return 0;
fail:
  fprintf(stderr, "bench/collision: cannot build the scene: %s\n", e.message);
  lk_model_free(m);
  return -1;
}

static int measure(int n, lk_geom_type type, result *r) {
  lk_model *m;
  lk_data *d;
  if (build(n, type, &m, &d)) return -1;
  /* Enough passes for a stable median, about a second per case. */
  int reps = n >= 10000 ? 60 : (n >= 1000 ? 300 : (n >= 100 ? 2000 : 10000));
  double *t = malloc(sizeof(double) * (size_t)reps);
  unsigned seed = 3;
  lk_error e;
  int rc = 0;
  for (int k = -5; k < reps && !rc; k++) { /* 5 untimed warm-up passes */
    for (int b = 1; b < lk_model_nlink(m); b++) {
      double *q = lk_data_q(d) + lk_model_joint_qadr(m, b);
      q[0] += urand(&seed, -1e-4, 1e-4);
      q[1] += urand(&seed, -1e-4, 1e-4);
    }
    lk_forward_kinematics(m, d);
    double t0 = now();
    lk_status st = lk_collide(m, d, &e);
    double t1 = now();
    if (st != LK_OK) {
      fprintf(stderr, "bench/collision: %s\n", e.message);
      rc = -1;
    }
    if (k >= 0) t[k] = t1 - t0;
  }
  qsort(t, (size_t)reps, sizeof *t, cmp_double);
  r->median_us = 1e6 * t[reps / 2];
  r->p10_us = 1e6 * t[reps / 10];
  r->p90_us = 1e6 * t[(9 * reps) / 10];
  r->contacts = lk_data_ncontact(d);
  lk_collision_stats s;
  lk_data_collision_stats(d, &s);
  r->pairs = s.pairs;
  r->checks = s.sweep_checks;
  free(t);
  lk_data_free(d);
  lk_model_free(m);
  return rc;
}

int main(int argc, char **argv) {
  int max_n = argc > 1 ? atoi(argv[1]) : 10000;
  const int sizes[4] = {10, 100, 1000, 10000};
  const lk_geom_type types[2] = {LK_GEOM_SPHERE, LK_GEOM_BOX};
  const char *names[2] = {"spheres", "boxes"};
  printf("lk_collide on a plane: median time per pass (10th-90th percentile)\n\n");
  printf("%-8s %6s %9s %12s %20s %10s %8s %10s\n", "shape", "n", "contacts", "median us",
         "p10-p90 us", "ns/geom", "pairs", "exponent");
  for (int ti = 0; ti < 2; ti++) {
    double prev = 0;
    int prev_n = 0;
    for (int si = 0; si < 4 && sizes[si] <= max_n; si++) {
      int n = sizes[si];
      result r;
      if (measure(n, types[ti], &r)) return 1;
      char expo[16] = "";
      if (prev > 0) snprintf(expo, sizeof expo, "%.2f", log(r.median_us / prev) / log((double)n / prev_n));
      char range[32];
      snprintf(range, sizeof range, "%.1f-%.1f", r.p10_us, r.p90_us);
      printf("%-8s %6d %9d %12.1f %20s %10.0f %8d %10s\n", names[ti], n, r.contacts, r.median_us,
             range, 1e3 * r.median_us / n, r.pairs, expo);
      prev = r.median_us;
      prev_n = n;
    }
  }
  printf("\nexponent: log(t_n / t_prev) / log(n / n_prev); 1.0 linear, 2.0 quadratic.\n");
  return lk_bench_mesh_pairs() ? 1 : 0;
}
