/* Tiny transients are not slip (issue 31 item 1). The shipped
 * mechanisms/block_on_incline.yaml, as a user runs it with --set (the
 * incline's normal, the block's pose and the friction, all written to 6
 * digits), at 10, 20 and 35 degrees:
 *   - mu_static = 1.001 tan(theta), any mu_dynamic <= mu_static: the block
 *     holds. Its pose to 6 digits leaves it a few 1e-7 m above the slope;
 *     it drops onto it in the first step (vertically, as a block let go
 *     does: up to gap tan(theta) along the slope, below 1e-6 m), and from
 *     then on moves at most 1e-9 m along the slope in 5 s; no contact is
 *     ever dynamic. Before the fix (lib/sim/friction_state.c), the first
 *     step's slip turned the contacts dynamic and the block slid (1.3 m in
 *     0.1 s at 20 degrees with mu_dynamic = 0.8 mu_static).
 *   - mu_static = 0.999 tan(theta), mu_dynamic = 0.8 mu_static: it slides,
 *     accelerating at g (sin - mu_dynamic cos) (closed form) within 0.5 %
 *     between 1 s and 2 s. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"

typedef struct {
  double along_after_landing; /* largest |motion along the slope| after step 2 */
  double along_landing;       /* motion along the slope in the first 2 steps */
  int dynamic;                /* a contact was ever dynamic */
  double accel;               /* along-slope acceleration between 1 and 2 s */
} incline_run;

static incline_run run(double deg, double mus_over_tan, double mud_over_mus, double seconds,
                       const char *timestep) {
  incline_run out = {0, 0, 0, NAN};
  const double th = deg * M_PI / 180, mus = mus_over_tan * tan(th), mud = mud_over_mus * mus;
  char set[5][200];
  snprintf(set[0], sizeof set[0], "materials.wood.mu_static=%.6f", mus);
  snprintf(set[1], sizeof set[1], "materials.wood.mu_dynamic=%.6f", mud);
  snprintf(set[2], sizeof set[2], "world.geoms.incline.normal=[%.6f, 0, %.6f]", -sin(th),
           cos(th));
  snprintf(set[3], sizeof set[3], "initial.block.q=[%.6f, 0, %.6f, %.6f, 0, %.6f, 0]",
           -0.05 * sin(th), 0.05 * cos(th), cos(th / 2), -sin(th / 2));
  snprintf(set[4], sizeof set[4], "options.timestep=%s", timestep);
  const char *const sets[5] = {set[0], set[1], set[2], set[3], set[4]};
  lk_load_options lo;
  lk_load_options_default(&lo);
  lo.set = sets;
  lo.nset = 5;
  lk_error err;
  lk_model *m = lk_model_load_file(lk_test_srcpath("mechanisms/block_on_incline.yaml"), &lo, &err);
  LK_ASSERT_MSG(m != NULL, "load: %s", err.message);
  if (!m) return out;
  lk_data *d = lk_data_new(m);
  const double h = lk_model_options(m)->timestep;
  const double tx = cos(th), tz = sin(th); /* up the slope */
  const double x0 = lk_data_q(d)[0], z0 = lk_data_q(d)[2];
  double s2 = 0, v1 = NAN, v2 = NAN;
  int n = (int)lround(seconds / h);
  for (int i = 1; i <= n; i++) {
    lk_status st = lk_step(m, d);
    LK_ASSERT_INT_EQ(st, LK_OK);
    if (st) break;
    for (int c = 0; c < lk_data_ncontacts(d); c++)
      if (lk_data_contact_report(d, c)->state == LK_FRICTION_DYNAMIC) out.dynamic = 1;
    const double *q = lk_data_q(d), *v = lk_data_v(d);
    double s = (q[0] - x0) * tx + (q[2] - z0) * tz;
    if (i == 2) {
      out.along_landing = s;
      s2 = s;
    } else if (i > 2) {
      out.along_after_landing = fmax(out.along_after_landing, fabs(s - s2));
    }
    if (i == (int)lround(1.0 / h)) v1 = v[0] * tx + v[2] * tz;
    if (i == (int)lround(2.0 / h)) v2 = v[0] * tx + v[2] * tz;
  }
  out.accel = v2 - v1; /* over 1 s */
  lk_data_free(d);
  lk_model_free(m);
  return out;
}

/* Holding: at each angle, over mu_d = 1, 0.8 and 0.3 mu_s at
 * mu_s = 1.001 tan(theta), the worst of each figure, and the run that
 * gave the worst creep (for the message). */
typedef struct {
  int dynamic_runs;          /* runs in which a contact was ever dynamic */
  double landing;            /* largest |motion along the slope| in the first 2 steps */
  double creep;              /* largest motion along the slope after landing */
  double creep_deg, creep_mud; /* the run that crept most */
} holding;

static holding holds(const double *deg, int ndeg, const char *timestep) {
  static const double mud[3] = {1.0, 0.8, 0.3};
  holding h = {0, 0, 0, 0, 0};
  for (int a = 0; a < ndeg; a++)
    for (int k = 0; k < 3; k++) {
      incline_run r = run(deg[a], 1.001, mud[k], 5, timestep);
      h.dynamic_runs += r.dynamic;
      h.landing = fmax(h.landing, fabs(r.along_landing));
      if (r.along_after_landing >= h.creep) {
        h.creep = r.along_after_landing;
        h.creep_deg = deg[a];
        h.creep_mud = mud[k];
      }
    }
  return h;
}

/* Sliding at mu_s = 0.999 tan(theta), mu_d = 0.8 mu_s: the largest
 * |acceleration between 1 and 2 s / the closed form's - 1| over the
 * angles (infinite if a run never turned a contact dynamic). */
static double slide_error(const double *deg, int ndeg, const char *timestep) {
  double worst = 0;
  for (int a = 0; a < ndeg; a++) {
    const double th = deg[a] * M_PI / 180, g = 9.81;
    /* the coefficients as the file gets them, to 6 digits */
    double mud = round(0.8 * 0.999 * tan(th) * 1e6) / 1e6;
    incline_run r = run(deg[a], 0.999, 0.8, 2, timestep);
    double want = -g * (sin(th) - mud * cos(th)); /* up the slope is + */
    worst = fmax(worst, r.dynamic ? fabs(r.accel / want - 1) : INFINITY);
  }
  return worst;
}

static const double k20[1] = {20}, k10_35[2] = {10, 35};

static void test_holds_20(void) {
  holding h = holds(k20, 1, "0.001");
  LK_ASSERT_INT_EQ(h.dynamic_runs, 0);
  LK_ASSERT_MSG(h.landing < 1e-6, "the landing moved %.3g m along the slope", h.landing);
  LK_ASSERT_MSG(h.creep <= 1e-9, "mu_d %g mu_s: moved %.3g m after landing", h.creep_mud, h.creep);
}
static void test_slides_20(void) {
  double e = slide_error(k20, 1, "0.001");
  LK_ASSERT_MSG(e < 5e-3, "acceleration off the closed form by %.3g", e);
}
/* Variants: 10 and 35 degrees, and 20 degrees at h = 2 ms. */
static void test_holds_10_35(void) {
  holding h = holds(k10_35, 2, "0.001");
  LK_ASSERT_INT_EQ(h.dynamic_runs, 0);
  LK_ASSERT_MSG(h.landing < 1e-6, "a landing moved %.3g m along the slope", h.landing);
  LK_ASSERT_MSG(h.creep <= 1e-9, "%g deg, mu_d %g mu_s: moved %.3g m after landing", h.creep_deg,
                h.creep_mud, h.creep);
}
static void test_slides_10_35(void) {
  double e = slide_error(k10_35, 2, "0.001");
  LK_ASSERT_MSG(e < 5e-3, "acceleration off the closed form by %.3g", e);
}
static void test_coarse_timestep(void) {
  holding h = holds(k20, 1, "0.002");
  LK_ASSERT_INT_EQ(h.dynamic_runs, 0);
  LK_ASSERT_MSG(h.landing < 1e-6, "the landing moved %.3g m along the slope", h.landing);
  LK_ASSERT_MSG(h.creep <= 1e-9, "mu_d %g mu_s: moved %.3g m after landing", h.creep_mud, h.creep);
  double e = slide_error(k20, 1, "0.002");
  LK_ASSERT_MSG(e < 5e-3, "acceleration off the closed form by %.3g", e);
}

static const lk_test tests[] = {
    {"20 deg, mu_s 1.001 tan, mu_d 1/0.8/0.3 mu_s: holds to 1e-9 m over 5 s", test_holds_20},
    {"20 deg, mu_s 0.999 tan: slides at g (sin - mu_d cos)", test_slides_20},
    {"variant: 10 and 35 deg hold", test_holds_10_35},
    {"variant: 10 and 35 deg slide", test_slides_10_35},
    {"variant: 20 deg at h = 2 ms", test_coarse_timestep},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("incline transients", tests); }
