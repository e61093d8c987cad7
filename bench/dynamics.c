/* bench/dynamics: nanoseconds per call (median of many batches) of the
 * rigid-body algorithms and the contact-free step on three reference
 * mechanisms, and, when MuJoCo is installed, of mj_forward and mj_step on
 * the same mechanisms loaded from MJCF in memory, with our ratio.
 *
 * "forward dynamics" is the whole public call lk_forward_dynamics():
 * kinematics, passive forces and ABA (or CRBA + RNEA + LTDL) from q, v,
 * tau, which is what mj_forward computes for a contact-free model (it also
 * forms M and its factor, which our ABA path does not need). Before timing,
 * the bench checks that both engines compute the same accelerations.
 *
 * A second table times the mass-matrix path on scenes of n loose free
 * bodies (n trees of 6 DoFs), with the memory of one lk_data. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "dynamics/dynamics_impl.h"
#include "testbeds.h"

#ifdef HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

#define SAMPLES 41

typedef struct {
  const lk_model *m;
  lk_data *d;
  double *buf, *qacc;
#ifdef HAVE_MUJOCO
  mjModel *mm;
  mjData *md;
#endif
} ctx;

typedef void (*bench_fn)(ctx *c);

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* A batch size long enough (>= 0.2 ms) for the clock to be negligible. */
static long calibrate(bench_fn f, ctx *c) {
  long batch = 1;
  for (;;) {
    double t0 = now_ns();
    for (long i = 0; i < batch; i++) f(c);
    if (now_ns() - t0 > 2e5 || batch > (1L << 24)) return batch;
    batch *= 2;
  }
}

static double batch_ns(bench_fn f, ctx *c, long batch) {
  double t0 = now_ns();
  for (long i = 0; i < batch; i++) f(c);
  return (now_ns() - t0) / (double)batch;
}

static double median(double *s) {
  qsort(s, SAMPLES, sizeof s[0], cmp_double);
  return s[SAMPLES / 2];
}

/* The median over SAMPLES batches of the time per call. */
static double median_ns(bench_fn f, ctx *c) {
  long batch = calibrate(f, c);
  double s[SAMPLES];
  for (int r = 0; r < SAMPLES; r++) s[r] = batch_ns(f, c, batch);
  return median(s);
}

#ifdef HAVE_MUJOCO
/* Two functions timed in alternating batches, so that a ratio of the two
 * medians is not skewed by a change in machine load between them. */
static void median_pair(bench_fn f, bench_fn g, ctx *c, double *tf, double *tg) {
  long bf = calibrate(f, c), bg = calibrate(g, c);
  double sf[SAMPLES], sg[SAMPLES];
  for (int r = 0; r < SAMPLES; r++) {
    sf[r] = batch_ns(f, c, bf);
    sg[r] = batch_ns(g, c, bg);
  }
  *tf = median(sf);
  *tg = median(sg);
}
#endif

static void b_fk(ctx *c) { lk_forward_kinematics(c->m, c->d); }
static void b_crba(ctx *c) { lk_dyn_crba(c->m, c->d, NULL); }
static void b_ltdl(ctx *c) { lk_dyn_factor(c->m, c->d, LK_FACTOR_TREE); }
static void b_dense(ctx *c) { lk_dyn_factor(c->m, c->d, LK_FACTOR_DENSE); }
static void b_rnea(ctx *c) { lk_dyn_rnea(c->m, c->d, c->qacc, NULL, 1, c->buf); }
static void b_aba(ctx *c) { lk_dyn_aba(c->m, c->d, lk_data_tau(c->d), NULL, NULL, c->buf); }
static void b_fd_aba(ctx *c) { lk_forward_dynamics(c->m, c->d, LK_FD_ABA); }
static void b_fd_crba(ctx *c) { lk_forward_dynamics(c->m, c->d, LK_FD_CRBA); }
static void b_step(ctx *c) { lk_step(c->m, c->d); }
/* One solve with the last factor, on a fresh right-hand side each time. */
static void b_solve(ctx *c) {
  memcpy(c->buf, c->qacc, sizeof(double) * (size_t)lk_model_nv(c->m));
  lk_dyn_solve(c->m, c->d, c->buf, 1);
}
static void p_tree(ctx *c) { lk_dyn_factor(c->m, c->d, LK_FACTOR_TREE); }
static void p_dense(ctx *c) { lk_dyn_factor(c->m, c->d, LK_FACTOR_DENSE); }
#ifdef HAVE_MUJOCO
static void b_mj_forward(ctx *c) { mj_forward(c->mm, c->md); }
static void b_mj_step(ctx *c) { mj_step(c->mm, c->md); }

static mjModel *load_mjcf(const char *xml) {
  mjVFS *vfs = malloc(sizeof *vfs);
  if (!vfs) return NULL;
  mj_defaultVFS(vfs);
  int len = (int)strlen(xml);
  mjModel *mm = NULL;
  if (mj_makeEmptyFileVFS(vfs, "testbed.xml", len) == 0) {
    int i = mj_findFileVFS(vfs, "testbed.xml");
    memcpy(vfs->filedata[i], xml, (size_t)len);
    char err[1000] = "";
    mm = mj_loadXML("testbed.xml", vfs, err, sizeof err);
    if (!mm) fprintf(stderr, "bench: MuJoCo rejected the MJCF: %s\n", err);
  }
  mj_deleteVFS(vfs);
  free(vfs);
  return mm;
}

/* MuJoCo expresses ball and free angular velocities in the child frame,
 * we in the joint (parent) frame: w_mj = R^T w, and the same for the
 * accelerations (d/dt (R^T w) = R^T w' since R' = [w] R). */
static void to_mujoco_velocity(const lk_model *m, const double *q, const double *v, double *out) {
  memcpy(out, v, sizeof(double) * (size_t)lk_model_nv(m));
  for (int i = 1; i < lk_model_nlink(m); i++) {
    lk_joint_type t = lk_model_joint_type(m, i);
    if (t != LK_JOINT_BALL && t != LK_JOINT_FREE) continue;
    int qa = lk_model_joint_qadr(m, i) + (t == LK_JOINT_FREE ? 3 : 0);
    int va = lk_model_joint_vadr(m, i) + (t == LK_JOINT_FREE ? 3 : 0);
    lk_mat3 R = lk_q_to_mat3(lk_q_normalize(lk_q(q[qa], q[qa + 1], q[qa + 2], q[qa + 3])));
    lk_v3_to(lk_m3_tmulv(&R, lk_v3_from(v + va)), out + va);
  }
}
#endif

typedef struct {
  const char *label;
  bench_fn fn;
  bench_fn prep; /* run once before timing (NULL: none) */
  int explicit_forces; /* the step with velocity_forces: explicit */
} row;

/* The mass-matrix path on n loose free bodies: the size of one data, and
 * CRBA, the factorizations and a solve (M is stored per tree, so even the
 * dense factorization costs n small blocks, not one nv x nv matrix). */
static int free_bodies_table(void) {
  static const int sizes[] = {10, 100, 1000, 10000};
  printf("\nn free bodies (n trees of 6 DoFs): ns per call, data size\n\n");
  printf("%-6s %6s %10s %12s %12s %12s %12s %12s %12s\n", "n", "nv", "data MB", "CRBA (M)",
         "LTDL", "solve tree", "dense GSL", "solve dense", "fwd CRBA");
  for (int s = 0; s < 4; s++) {
    int n = sizes[s];
    lk_model *m = testbed_free_bodies(n);
    lk_data *d = m ? lk_data_new(m) : NULL;
    lk_data *start = m ? lk_data_new(m) : NULL;
    int nv = m ? lk_model_nv(m) : 0;
    double *buf = calloc((size_t)nv + 1, sizeof(double)),
           *rhs = calloc((size_t)nv + 1, sizeof(double));
    if (!d || !start || !buf || !rhs) {
      fprintf(stderr, "bench: cannot build %d free bodies\n", n);
      return 1;
    }
    testbed_state(m, d, 7u);
    for (int i = 0; i < nv; i++) rhs[i] = 0.1 * (i % 5) - 0.2;
    lk_forward_kinematics(m, d);
    lk_dyn_crba(m, d, NULL);
    lk_data_copy(start, d);
    ctx c = {m, d, buf, rhs
#ifdef HAVE_MUJOCO
             ,
             NULL, NULL
#endif
    };
    const row rows[] = {
        {"CRBA", b_crba, NULL, 0},         {"LTDL", b_ltdl, NULL, 0},
        {"solve tree", b_solve, p_tree, 0}, {"dense", b_dense, NULL, 0},
        {"solve dense", b_solve, p_dense, 0}, {"fwd CRBA", b_fd_crba, NULL, 0},
    };
    double t[6];
    for (int r = 0; r < 6; r++) {
      lk_data_copy(d, start);
      if (rows[r].prep) rows[r].prep(&c);
      t[r] = median_ns(rows[r].fn, &c);
    }
    printf("%-6d %6d %10.2f", n, nv, (double)lk_data_size(d) / 1048576.0);
    for (int r = 0; r < 6; r++) printf(" %12.0f", t[r]);
    printf("\n");
    free(buf);
    free(rhs);
    lk_data_free(start);
    lk_data_free(d);
    lk_model_free(m);
  }
  return 0;
}

int main(void) {
  lk_model *models[3] = {testbed_arm7(), testbed_chain(30), testbed_floating20()};
  const char *names[3] = {"arm7", "chain30", "floating20"};
  for (int k = 0; k < 3; k++)
    if (!models[k]) {
      fprintf(stderr, "bench: cannot build %s\n", names[k]);
      return 1;
    }
  const row rows[] = {
      {"forward kinematics", b_fk, NULL, 0},
      {"CRBA (M)", b_crba, NULL, 0},
      {"factor M, tree LTDL", b_ltdl, NULL, 0},
      {"factor M, dense GSL", b_dense, NULL, 0},
      {"solve M x = b, tree", b_solve, p_tree, 0},
      {"solve M x = b, dense", b_solve, p_dense, 0},
      {"RNEA (inverse dynamics)", b_rnea, NULL, 0},
      {"ABA (qacc)", b_aba, NULL, 0},
      {"forward dynamics, ABA", b_fd_aba, NULL, 0},
      {"forward dynamics, CRBA", b_fd_crba, NULL, 0},
      {"step (Euler)", b_step, NULL, 0},
      /* what the default midpoint velocity forces cost (issue 31) */
      {"step, explicit vel. forces", b_step, NULL, 1},
  };
  const int nrows = (int)(sizeof rows / sizeof rows[0]);
  double t[16][3];
  double fwd[3] = {0}, stp[3] = {0};
#ifdef HAVE_MUJOCO
  double mjf[3] = {0}, mjs[3] = {0}, agree[3] = {0};
#endif
  for (int k = 0; k < 3; k++) {
    const lk_model *m = models[k];
    lk_data *d = lk_data_new(m);
    int nv = lk_model_nv(m), nq = lk_model_nq(m);
    (void)nq; /* read only against MuJoCo's model */
    double *buf = calloc((size_t)nv + 1, sizeof(double)),
           *qacc = calloc((size_t)nv + 1, sizeof(double));
    testbed_state(m, d, 1u + (unsigned)k);
    for (int i = 0; i < nv; i++) qacc[i] = 0.1 * (i % 5) - 0.2;
    lk_forward_kinematics(m, d);
    lk_dyn_crba(m, d, NULL);
    ctx c = {m,
             d,
             buf,
             qacc
#ifdef HAVE_MUJOCO
             ,
             NULL,
             NULL
#endif
    };
    lk_data *start = lk_data_new(m);
    lk_data_copy(start, d);
#ifdef HAVE_MUJOCO
    static char xml[1 << 17];
    if (testbed_to_mjcf(m, xml, sizeof xml) > 0 && (c.mm = load_mjcf(xml)) != NULL) {
      c.md = mj_makeData(c.mm);
      if (c.mm->nq != nq || c.mm->nv != nv) {
        fprintf(stderr, "bench: MuJoCo's %s has nq %d nv %d, ours %d %d\n", names[k], c.mm->nq,
                c.mm->nv, nq, nv);
        return 1;
      }
      /* Same state, same accelerations? */
      memcpy(c.md->qpos, lk_data_q(d), sizeof(double) * (size_t)nq);
      to_mujoco_velocity(m, lk_data_q(d), lk_data_v(d), c.md->qvel);
      mj_forward(c.mm, c.md);
      lk_forward_dynamics(m, d, LK_FD_ABA);
      to_mujoco_velocity(m, lk_data_q(d), lk_data_qacc(d), buf);
      double e = 0, s = 1;
      for (int i = 0; i < nv; i++) {
        e = fmax(e, fabs(buf[i] - c.md->qacc[i]));
        s = fmax(s, fabs(c.md->qacc[i]));
      }
      agree[k] = e / s;
    }
#endif
    for (int r = 0; r < nrows; r++) {
      lk_data_copy(d, start); /* every row from the same state */
      if (rows[r].prep) rows[r].prep(&c);
      lk_options saved = *lk_model_options(m), o = saved;
      if (rows[r].explicit_forces) {
        o.velocity_forces = LK_VELOCITY_FORCES_EXPLICIT;
        lk_model_set_options(models[k], &o, NULL);
      }
      t[r][k] = median_ns(rows[r].fn, &c);
      lk_model_set_options(models[k], &saved, NULL);
    }
    fwd[k] = t[8][k];
    stp[k] = t[10][k];
#ifdef HAVE_MUJOCO
    if (c.md) {
      /* The compared rows again, interleaved with MuJoCo's. */
      lk_data_copy(d, start);
      median_pair(b_fd_aba, b_mj_forward, &c, &fwd[k], &mjf[k]);
      lk_data_copy(d, start);
      median_pair(b_step, b_mj_step, &c, &stp[k], &mjs[k]);
      t[8][k] = fwd[k];
      t[10][k] = stp[k];
      mj_deleteData(c.md);
      mj_deleteModel(c.mm);
    }
#endif
    lk_data_free(start);
    lk_data_free(d);
    free(buf);
    free(qacc);
  }
  printf("Linkage dynamics benchmark: ns per call, median of %d batches\n\n", SAMPLES);
  printf("%-28s %12s %12s %12s\n", "", names[0], names[1], names[2]);
  printf("%-28s %12d %12d %12d\n", "DoFs (nv)", lk_model_nv(models[0]), lk_model_nv(models[1]),
         lk_model_nv(models[2]));
  for (int r = 0; r < nrows; r++)
    printf("%-28s %12.0f %12.0f %12.0f\n", rows[r].label, t[r][0], t[r][1], t[r][2]);
#ifdef HAVE_MUJOCO
  printf("%-28s %12.0f %12.0f %12.0f\n", "MuJoCo mj_forward", mjf[0], mjf[1], mjf[2]);
  printf("%-28s %12.0f %12.0f %12.0f\n", "MuJoCo mj_step", mjs[0], mjs[1], mjs[2]);
  printf("%-28s %12.2f %12.2f %12.2f\n", "ratio fwd dyn / mj_forward", fwd[0] / mjf[0],
         fwd[1] / mjf[1], fwd[2] / mjf[2]);
  printf("%-28s %12.2f %12.2f %12.2f\n", "ratio step / mj_step", stp[0] / mjs[0], stp[1] / mjs[1],
         stp[2] / mjs[2]);
  printf("%-28s %12.1e %12.1e %12.1e\n", "qacc vs MuJoCo (relative)", agree[0], agree[1], agree[2]);
  printf("\nMuJoCo %s, same mechanisms from MJCF (contacts disabled, Euler).\n",
         mj_versionString());
#else
  (void)fwd;
  (void)stp;
  printf("\nMuJoCo not found at configure time: no comparison.\n");
#endif
  for (int k = 0; k < 3; k++) lk_model_free(models[k]);
  return free_bodies_table();
}
