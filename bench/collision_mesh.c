/* bench/collision, mesh pairs: time per narrow-phase query between convex
 * hulls of 50, 500 and 5000 vertices (points on a sphere of radius 5 cm,
 * all of them hull vertices), overlapping along 64 random directions at
 * random orientations; and a hull on a plane and on a box (half 4 cm).
 *
 * Ours: lk_collide_specs, the whole manifold (GJK/EPA with hill-climbing
 * support over the hull's vertex graph, then face clipping). The peer,
 * when configure found it: libccd's ccdMPRPenetration and
 * ccdGJKPenetration (GJK + EPA) on the same pairs, with the support
 * function a libccd user writes for a point set (a scan of the vertices:
 * libccd has no hull structure), tolerances 1e-8 m (its defaults are
 * 1e-4). Ratios are peer time / our time (above 1: we are faster). The
 * largest difference of depth between ours and libccd's EPA is libccd's
 * error: ours equalled an exhaustive separating-axis computation (every
 * face normal and edge pair) to 1e-17 on such pairs. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "linkage/linkage.h"
#ifdef HAVE_CCD
#include <ccd/ccd.h>
#endif

int lk_bench_mesh_pairs(void);

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static unsigned long long g_seed = 12345;
static double urand(void) {
  g_seed = g_seed * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(g_seed >> 11) / 9007199254740992.0;
}

static lk_vec3 random_dir(void) {
  double z = 2 * urand() - 1, ph = 2 * LK_PI * urand(), s = sqrt(1 - z * z);
  return lk_v3(s * cos(ph), s * sin(ph), z);
}

static lk_mat3 random_rot(void) {
  return lk_m3_from_axis_angle(random_dir(), 2 * LK_PI * urand());
}

#define NCONF 64

/* The hull's extent along the world direction d when turned by R. */
static double extent(const double *v, int n, const lk_mat3 *R, lk_vec3 d) {
  lk_vec3 dl = lk_m3_tmulv(R, d);
  double h = -INFINITY;
  for (int i = 0; i < n; i++) h = fmax(h, v[3 * i] * dl.x + v[3 * i + 1] * dl.y + v[3 * i + 2] * dl.z);
  return h;
}

typedef struct {
  const double *v; /* local vertices */
  int n;
  lk_transform X;
} cloud;

#ifdef HAVE_CCD
/* What a libccd user writes for a point set: the direction into the local
 * frame, a scan, the vertex back to the world. */
static void ccd_support(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *out) {
  const cloud *c = obj;
  lk_vec3 d = lk_tf_inv_dir(&c->X, lk_v3(dir->v[0], dir->v[1], dir->v[2]));
  int best = 0;
  double bd = -INFINITY;
  for (int i = 0; i < c->n; i++) {
    double x = c->v[3 * i] * d.x + c->v[3 * i + 1] * d.y + c->v[3 * i + 2] * d.z;
    if (x > bd) {
      bd = x;
      best = i;
    }
  }
  lk_vec3 p = lk_tf_point(&c->X, lk_v3(c->v[3 * best], c->v[3 * best + 1], c->v[3 * best + 2]));
  out->v[0] = p.x;
  out->v[1] = p.y;
  out->v[2] = p.z;
}

static void ccd_center(const void *obj, ccd_vec3_t *out) {
  const cloud *c = obj;
  out->v[0] = c->X.p.x;
  out->v[1] = c->X.p.y;
  out->v[2] = c->X.p.z;
}
#endif

static double per_query_us(double t, int reps) { return 1e6 * t / (reps * (double)NCONF); }

int lk_bench_mesh_pairs(void) {
  const int sizes[3] = {50, 500, 5000};
  printf("\nmesh pairs: time per query (us), %d configurations each\n\n", NCONF);
#ifdef HAVE_CCD
  printf("%-12s %6s %9s %10s %10s %10s %8s %8s %12s\n", "pair", "hull", "points", "ours",
         "ccd MPR", "ccd EPA", "MPR/us", "EPA/us", "max |ddepth|");
#else
  printf("%-12s %6s %9s %10s   (libccd not found by configure: no peer ratios)\n", "pair",
         "hull", "points", "ours");
#endif
  for (int si = 0; si < 3; si++) {
    int n = sizes[si];
    double *v = malloc(sizeof(double) * 3 * (size_t)n);
    for (int i = 0; i < n; i++) {
      lk_vec3 d = random_dir();
      v[3 * i] = 0.05 * d.x;
      v[3 * i + 1] = 0.05 * d.y;
      v[3 * i + 2] = 0.05 * d.z;
    }
    lk_mesh_spec ms;
    lk_mesh_spec_default(&ms);
    ms.vertices = v;
    ms.count = n;
    lk_mesh *mesh = NULL;
    lk_error e;
    if (lk_mesh_new(&ms, &mesh, &e)) {
      fprintf(stderr, "bench/collision: %s\n", e.message);
      free(v);
      return -1;
    }
    const double *hv = lk_mesh_vertices(mesh);
    int nv = lk_mesh_nvertex(mesh);
    lk_geom_spec a, plane, box;
    lk_geom_spec_default(&a);
    a.type = LK_GEOM_MESH;
    a.mesh = mesh;
    lk_geom_spec_default(&plane);
    plane.type = LK_GEOM_PLANE;
    lk_geom_spec_default(&box);
    box.type = LK_GEOM_BOX;
    box.size[0] = box.size[1] = box.size[2] = 0.04;
    /* Configurations: b along a random direction from a, where their
     * extents overlap by 2 mm, moved closer by 1 mm steps until the two
     * touch (the extents can overlap beside each other); on the floor 1 mm
     * deep; above the box's top face at a random offset, 2 mm deep. */
    lk_transform Xa[NCONF], Xb[NCONF], Xp[NCONF], Xq[NCONF];
    for (int k = 0; k < NCONF; k++) {
      lk_mat3 Ra = random_rot(), Rb = random_rot();
      lk_vec3 d = random_dir();
      double ea = extent(hv, nv, &Ra, d), eb = extent(hv, nv, &Rb, lk_v3_neg(d));
      Xa[k] = lk_tf(&Ra, lk_v3(0, 0, 0));
      for (double dist = ea + eb - 0.002; dist > 0; dist -= 0.001) {
        Xb[k] = lk_tf(&Rb, lk_v3_scale(d, dist));
        lk_manifold t;
        lk_collide_specs(&a, &Xa[k], &a, &Xb[k], &t, NULL);
        if (t.n > 0 && t.pt[0].depth > 0) break;
      }
      Xp[k] = lk_tf(&Ra, lk_v3(0, 0, extent(hv, nv, &Ra, lk_v3(0, 0, -1)) - 0.001));
      double ez = extent(hv, nv, &Rb, lk_v3(0, 0, -1));
      Xq[k] = lk_tf(&Rb, lk_v3(0.06 * urand() - 0.03, 0.06 * urand() - 0.03, 0.04 + ez - 0.002));
    }
    const char *names[3] = {"mesh-mesh", "mesh-plane", "mesh-box"};
    for (int pi = 0; pi < 3; pi++) {
      int reps = n >= 5000 ? 20 : (n >= 500 ? 100 : 400);
      lk_manifold man;
      long points = 0;
      double ours = 0;
      double depth_ours[NCONF];
      for (int r = -1; r < reps; r++) {
        double t0 = now();
        for (int k = 0; k < NCONF; k++) {
          lk_transform I = lk_tf_identity();
          if (pi == 0)
            lk_collide_specs(&a, &Xa[k], &a, &Xb[k], &man, NULL);
          else if (pi == 1)
            lk_collide_specs(&a, &Xp[k], &plane, &I, &man, NULL);
          else
            lk_collide_specs(&a, &Xq[k], &box, &I, &man, NULL);
          if (r == 0) {
            points += man.n;
            double dmax = 0;
            for (int i = 0; i < man.n; i++) dmax = fmax(dmax, man.pt[i].depth);
            depth_ours[k] = dmax;
          }
        }
        if (r >= 0) ours += now() - t0;
      }
#ifdef HAVE_CCD
      if (pi != 1) {
        ccd_t ccd;
        CCD_INIT(&ccd);
        ccd.support1 = ccd_support;
        ccd.support2 = ccd_support;
        ccd.center1 = ccd_center;
        ccd.center2 = ccd_center;
        ccd.epa_tolerance = 1e-8;
        ccd.mpr_tolerance = 1e-8;
        ccd.max_iterations = 1000;
        /* The box as a point set too (a user's libccd box would have its
         * own support; a scan of 8 corners costs nothing). */
        double bv[24];
        for (int c = 0; c < 8; c++)
          for (int i = 0; i < 3; i++) bv[3 * c + i] = (c >> i & 1) ? 0.04 : -0.04;
        double tm = 0, tg = 0, worst = 0;
        for (int r = -1; r < reps; r++) {
          double t0 = now();
          for (int k = 0; k < NCONF; k++) {
            cloud A = {hv, nv, pi == 0 ? Xa[k] : Xq[k]};
            cloud B = pi == 0 ? (cloud){hv, nv, Xb[k]} : (cloud){bv, 8, lk_tf_identity()};
            ccd_real_t depth;
            ccd_vec3_t dir, pos;
            ccdMPRPenetration(&A, &B, &ccd, &depth, &dir, &pos);
          }
          double t1 = now();
          for (int k = 0; k < NCONF; k++) {
            cloud A = {hv, nv, pi == 0 ? Xa[k] : Xq[k]};
            cloud B = pi == 0 ? (cloud){hv, nv, Xb[k]} : (cloud){bv, 8, lk_tf_identity()};
            ccd_real_t depth = 0;
            ccd_vec3_t dir, pos;
            if (ccdGJKPenetration(&A, &B, &ccd, &depth, &dir, &pos) != 0) depth = 0;
            if (r == 0) worst = fmax(worst, fabs(depth - depth_ours[k]));
          }
          double t2 = now();
          if (r >= 0) {
            tm += t1 - t0;
            tg += t2 - t1;
          }
        }
        printf("%-12s %6d %9.2f %10.2f %10.2f %10.2f %8.2f %8.2f %12.2g\n", names[pi], nv,
               (double)points / NCONF, per_query_us(ours, reps), per_query_us(tm, reps),
               per_query_us(tg, reps), tm / ours, tg / ours, worst);
        continue;
      }
#endif
      printf("%-12s %6d %9.2f %10.2f\n", names[pi], nv, (double)points / NCONF,
             per_query_us(ours, reps));
    }
    lk_mesh_free(mesh);
    free(v);
  }
  printf("\npoints: contact points per query (ours: the manifold); ratios: libccd time / ours.\n");
  return 0;
}
