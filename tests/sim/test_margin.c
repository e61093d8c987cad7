/* Contact margins (issue 14, item 1): geometry contacts are found from a
 * gap of contact_margin (or a geom's own margin) on and are speculative
 * until they touch, so a box face resting at depth 0 +- rounding has all
 * four corners from the first step, and whether it sticks does not depend
 * on the last bit of its placement. Set-ups are written as a user would:
 * YAML text, a plane given by its normal, the box turned with it and set
 * exactly on it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"

#define DEG (LK_PI / 180.0)

static const char *kSolverNames[2] = {"lemke", "dantzig"};

typedef struct {
  double mu_s, mu_d;
  double half;   /* cube half size, m */
  double mass;   /* kg */
  const char *extra_options; /* more "key: value" pairs, or "" */
} incline;

/* A cube of the given size and mass set exactly on a plane through the
 * origin whose normal is tilted theta about y (rising along +x): the
 * cube's orientation is the plane's (-theta about y), its centre `half`
 * along the normal. */
static lk_model *incline_model(const incline *c, double theta, const char *solver) {
  double nx = -sin(theta), nz = cos(theta);
  double I = c->mass * (2 * c->half) * (2 * c->half) / 6;
  char text[2048];
  snprintf(text, sizeof text,
           "options: {timestep: 0.001, solver: %s%s}\n"
           "materials:\n  - {name: m, mu_static: %.17g, mu_dynamic: %.17g}\n"
           "world:\n  geoms:\n"
           "    - {type: plane, normal: [%.17g, 0, %.17g], point: [0, 0, 0], material: m}\n"
           "links:\n  - name: block\n    joint: {type: free}\n    mass: %.17g\n"
           "    inertia: [%.17g, %.17g, %.17g, 0, 0, 0]\n"
           "    geoms:\n      - {type: box, half_extents: [%.17g, %.17g, %.17g], material: m}\n"
           "initial:\n  - {joint: block, q: [%.17g, 0, %.17g, %.17g, 0, %.17g, 0]}\n",
           solver, c->extra_options, c->mu_s, c->mu_d, nx, nz, c->mass, I, I, I, c->half, c->half,
           c->half, c->half * nx, c->half * nz, cos(-theta / 2), sin(-theta / 2));
  lk_error err;
  lk_model *m = lk_model_load_string(text, strlen(text), "incline.yaml", NULL, &err);
  LK_ASSERT_MSG(m != NULL, "load: %s", err.message);
  return m;
}

/* Runs n steps; the largest distance of the centre from its start, the
 * speed at the end; the number of contacts after the first step. */
static lk_status run(const lk_model *m, lk_data *d, int n, double *drift, double *speed,
                     int *first_contacts) {
  double q0[3] = {lk_data_q(d)[0], lk_data_q(d)[1], lk_data_q(d)[2]};
  *drift = 0;
  for (int i = 0; i < n; i++) {
    lk_status st = lk_step(m, d);
    if (st) return st;
    if (i == 0) *first_contacts = lk_data_step_report(d)->ncontacts;
    const double *q = lk_data_q(d);
    double dx = q[0] - q0[0], dy = q[1] - q0[1], dz = q[2] - q0[2];
    *drift = fmax(*drift, sqrt(dx * dx + dy * dy + dz * dz));
  }
  const double *v = lk_data_v(d);
  *speed = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  return LK_OK;
}

/* Sticks at every angle in `stick` (degrees) for 1 s: all four corners
 * from the first step, the centre within 1e-9 m of where it was set (the
 * sticking trial's ridge creeps by ~1e-12 m/s). Slides at every angle in
 * `slide`, reaching g (sin - mu_d cos) t after 1 s within 1e-3. */
static void check_incline(const incline *c, const double *stick, int nstick, const double *slide,
                          int nslide) {
  for (int s = 0; s < 2; s++) {
    for (int k = 0; k < nstick + nslide; k++) {
      double deg = k < nstick ? stick[k] : slide[k - nstick];
      lk_model *m = incline_model(c, deg * DEG, kSolverNames[s]);
      if (!m) return;
      lk_data *d = lk_data_new(m);
      double drift = 0, speed = 0;
      int n0 = -1;
      lk_status st = run(m, d, 1000, &drift, &speed, &n0);
      LK_ASSERT_MSG(st == LK_OK, "%s, %g deg: %s", kSolverNames[s], deg, lk_strerror(st));
      LK_ASSERT_MSG(n0 == 4, "%s, %g deg: %d contacts in the first step, not the 4 corners",
                    kSolverNames[s], deg, n0);
      if (k < nstick) {
        LK_ASSERT_MSG(drift < 1e-9, "%s, %g deg (atan mu_s = %.4f): moved %.3g m in 1 s",
                      kSolverNames[s], deg, atan(c->mu_s) / DEG, drift);
      } else {
        double a = 9.81 * (sin(deg * DEG) - c->mu_d * cos(deg * DEG));
        LK_ASSERT_REL(speed, a * 1.0, 1e-3, 0);
      }
      lk_data_free(d);
      lk_model_free(m);
    }
  }
}

/* Issue 14's case: 1 kg, 10 cm cube, mu_s 0.6 (atan = 30.96 deg), mu_d 0.4. */
static void test_cube_on_tilted_planes(void) {
  incline c = {0.6, 0.4, 0.05, 1.0, ""};
  const double stick[] = {5, 15, 25, atan(0.6) / DEG - 0.2};
  const double slide[] = {31.2, 35, 45};
  check_incline(&c, stick, 4, slide, 3);
}

/* Other numbers: 2.5 kg, 30 cm cube, mu_s 0.3 (atan = 16.70 deg), mu_d
 * 0.2; and the same with the margin set in options instead of by default. */
static void test_other_cube_on_tilted_planes(void) {
  incline c = {0.3, 0.2, 0.15, 2.5, ""};
  const double stick[] = {3, 8, 12.5, atan(0.3) / DEG - 0.2};
  const double slide[] = {17, 25};
  check_incline(&c, stick, 4, slide, 2);
  incline c2 = {0.3, 0.2, 0.15, 2.5, ", contact_margin: 0.002"};
  check_incline(&c2, stick, 4, slide, 2);
}

/* A box held 15 mm above a plane (no gravity): contacts at depth -0.015
 * exactly when a margin covers the gap, the pair taking the larger of its
 * geoms' margins, a geom without one the options'. */
static int contacts_at_gap(const char *options, const char *plane, const char *box,
                           double *depth) {
  char text[1024];
  snprintf(text, sizeof text,
           "options: {gravity: [0, 0, 0]%s}\n"
           "world:\n  geoms:\n    - {type: plane%s}\n"
           "links:\n  - name: b\n    joint: {type: free}\n    mass: 1\n"
           "    geoms:\n      - {type: box, half_extents: [0.1, 0.1, 0.1]%s}\n"
           "initial:\n  - {joint: b, q: [0, 0, 0.115, 1, 0, 0, 0]}\n",
           options, plane, box);
  lk_error err;
  lk_model *m = lk_model_load_string(text, strlen(text), "gap.yaml", NULL, &err);
  LK_ASSERT_MSG(m != NULL, "load: %s", err.message);
  if (!m) return -1;
  lk_data *d = lk_data_new(m);
  LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
  /* the collision layer's contacts (a speculative contact that the step
   * cannot close makes no rows, geometry.c) */
  int n = lk_data_ncontact(d);
  *depth = n > 0 ? lk_data_contact(d, 0)->depth : 0;
  lk_data_free(d);
  lk_model_free(m);
  return n;
}

static void test_margin_settings(void) {
  double depth = 0;
  /* the default margin, 0.01, does not reach 0.015 */
  LK_ASSERT_INT_EQ(contacts_at_gap("", "", "", &depth), 0);
  LK_ASSERT_INT_EQ(contacts_at_gap(", contact_margin: 0.02", "", "", &depth), 4);
  LK_ASSERT_NEAR(depth, -0.015, 1e-12);
  LK_ASSERT_INT_EQ(contacts_at_gap("", "", ", margin: 0.02", &depth), 4);
  LK_ASSERT_NEAR(depth, -0.015, 1e-12);
  LK_ASSERT_INT_EQ(contacts_at_gap(", contact_margin: 0", ", margin: 0.016", "", &depth), 4);
  LK_ASSERT_INT_EQ(contacts_at_gap(", contact_margin: 0.02", ", margin: 0", ", margin: 0", &depth),
                   0);
  LK_ASSERT_INT_EQ(contacts_at_gap(", contact_margin: 0.0149", "", "", &depth), 0);
}

static const lk_test tests[] = {
    {"a cube set exactly on planes tilted 5..30.76 deg sticks, slides above atan mu_s",
     test_cube_on_tilted_planes},
    {"variant: 30 cm, 2.5 kg cube, mu_s 0.3, default and options margin",
     test_other_cube_on_tilted_planes},
    {"margins: options, per geom, the larger of a pair", test_margin_settings},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("contact margin", tests); }
