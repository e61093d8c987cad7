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

/* What a set of inclines measured, over both solvers and every angle. */
typedef struct {
  int runs, failed;   /* runs made, runs whose model or step failed */
  int wrong_contacts; /* runs without the 4 corners in the first step */
  double stick_drift; /* the largest drift of a sticking angle in 1 s, m */
  double slide_error; /* the largest relative error of a sliding speed */
} incline_figures;

/* Runs each angle in `stick` and `slide` (degrees) for 1 s; a sliding
 * angle's speed is compared with g (sin - mu_d cos) t. */
static incline_figures inclines(const incline *c, const double *stick, int nstick,
                                const double *slide, int nslide) {
  incline_figures f = {0, 0, 0, 0, 0};
  for (int s = 0; s < 2; s++) {
    for (int k = 0; k < nstick + nslide; k++) {
      double deg = k < nstick ? stick[k] : slide[k - nstick];
      f.runs++;
      lk_model *m = incline_model(c, deg * DEG, kSolverNames[s]);
      if (!m) {
        f.failed++;
        continue;
      }
      lk_data *d = lk_data_new(m);
      double drift = 0, speed = 0;
      int n0 = -1;
      lk_status st = run(m, d, 1000, &drift, &speed, &n0);
      LK_ASSERT_MSG(st == LK_OK, "%s, %g deg: %s", kSolverNames[s], deg, lk_strerror(st));
      f.failed += st != LK_OK;
      f.wrong_contacts += n0 != 4;
      if (k < nstick) {
        f.stick_drift = fmax(f.stick_drift, drift);
      } else {
        double a = 9.81 * (sin(deg * DEG) - c->mu_d * cos(deg * DEG));
        f.slide_error = fmax(f.slide_error, fabs(speed / a - 1));
      }
      lk_data_free(d);
      lk_model_free(m);
    }
  }
  return f;
}

/* Sticks at every angle below atan mu_s: all four corners from the first
 * step, the centre within 1e-9 m of where it was set (the sticking trial's
 * ridge creeps by ~1e-12 m/s); slides above it at g (sin - mu_d cos)
 * within 1e-3. */
#define ASSERT_INCLINES(f, nruns)                                                          \
  do {                                                                                     \
    LK_ASSERT_INT_EQ((f).runs, nruns);                                                     \
    LK_ASSERT_INT_EQ((f).failed, 0);                                                       \
    LK_ASSERT_INT_EQ((f).wrong_contacts, 0);                                               \
    LK_ASSERT_MSG((f).stick_drift < 1e-9, "a sticking cube moved %.3g m in 1 s", (f).stick_drift); \
    LK_ASSERT_MSG((f).slide_error < 1e-3, "a sliding speed off by %.3g", (f).slide_error); \
  } while (0)

/* Issue 14's case: 1 kg, 10 cm cube, mu_s 0.6 (atan = 30.96 deg), mu_d 0.4. */
static void test_cube_on_tilted_planes(void) {
  incline c = {0.6, 0.4, 0.05, 1.0, ""};
  const double stick[] = {5, 15, 25, atan(0.6) / DEG - 0.2};
  const double slide[] = {31.2, 35, 45};
  incline_figures f = inclines(&c, stick, 4, slide, 3);
  ASSERT_INCLINES(f, 14);
}

/* Other numbers: 2.5 kg, 30 cm cube, mu_s 0.3 (atan = 16.70 deg), mu_d
 * 0.2; and the same with the margin set in options instead of by default. */
static void test_other_cube_on_tilted_planes(void) {
  incline c = {0.3, 0.2, 0.15, 2.5, ""};
  const double stick[] = {3, 8, 12.5, atan(0.3) / DEG - 0.2};
  const double slide[] = {17, 25};
  incline_figures f = inclines(&c, stick, 4, slide, 2);
  ASSERT_INCLINES(f, 12);
  incline c2 = {0.3, 0.2, 0.15, 2.5, ", contact_margin: 0.002"};
  incline_figures f2 = inclines(&c2, stick, 4, slide, 2);
  ASSERT_INCLINES(f2, 12);
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


/* ------------------------------------------- speculative contacts set aside */

/* Spheres of radius 5 cm on free joints along x, in zero gravity, given
 * their masses, centres and speeds along x (a user's YAML, h = 1 ms,
 * default margin 1 cm, no friction needed: the impacts are head-on). */
static lk_model *spheres_model(int n, const double *mass, const double *x, const double *v) {
  char text[4096];
  int len = snprintf(text, sizeof text,
                     "options: {timestep: 0.001, gravity: [0, 0, 0]}\n"
                     "materials:\n  - {name: m, mu_static: 0.5, mu_dynamic: 0.4}\n"
                     "links:\n");
  for (int i = 0; i < n; i++)
    len += snprintf(text + len, sizeof text - (size_t)len,
                    "  - name: s%d\n    joint: {name: j%d, type: free}\n    mass: %.6g\n"
                    "    geoms:\n      - {type: sphere, radius: 0.05, material: m}\n",
                    i, i, mass[i]);
  len += snprintf(text + len, sizeof text - (size_t)len, "initial:\n");
  for (int i = 0; i < n; i++)
    len += snprintf(text + len, sizeof text - (size_t)len,
                    "  - {joint: j%d, q: [%.6f, 0, 0, 1, 0, 0, 0], v: [%.6g, 0, 0, 0, 0, 0]}\n", i,
                    x[i], v[i]);
  lk_error err;
  lk_model *m = lk_model_load_string(text, (size_t)len, "spheres.yaml", NULL, &err);
  LK_ASSERT_MSG(m != NULL, "load: %s", err.message);
  return m;
}

/* What the first steps of a row of spheres did: the first step's report,
 * and the speeds along x after the step asked for. */
typedef struct {
  int ok;                          /* loaded and stepped without error */
  int ncontacts, aside, nislands, largest, solves; /* the first step's report */
  int aside2, nislands2;           /* the second step's */
  double v1[3], v2[3];             /* speeds after the first and second steps */
  double fn1;                      /* the first contact's normal force after the first step */
} row_run;

static row_run spheres_run(int n, const double *mass, const double *x, const double *v) {
  row_run r = {0};
  lk_model *m = spheres_model(n, mass, x, v);
  if (!m) return r;
  lk_data *d = lk_data_new(m);
  lk_status st1 = lk_step(m, d);
  const lk_step_report *rep = lk_data_step_report(d);
  r.ncontacts = rep->ncontacts;
  r.aside = rep->aside_contacts;
  r.nislands = rep->nislands;
  r.largest = rep->largest_island;
  r.solves = rep->lcp_solves;
  for (int i = 0; i < n; i++) r.v1[i] = lk_data_v(d)[6 * i];
  r.fn1 = r.ncontacts > 0 ? lk_data_contact_report(d, 0)->fn : NAN;
  lk_status st2 = lk_step(m, d);
  r.aside2 = rep->aside_contacts;
  r.nislands2 = rep->nislands;
  for (int i = 0; i < n; i++) r.v2[i] = lk_data_v(d)[6 * i];
  r.ok = st1 == LK_OK && st2 == LK_OK;
  lk_data_free(d);
  lk_model_free(m);
  return r;
}

/* Sphere 0 at speed v towards sphere 1 at rest, gap g with v h <= g <
 * 2 v h: the collision finds the contact (within the margin, and the gap
 * within twice the approach in a step), but the step cannot close it.
 * The first step: one contact, set aside (no island, no row of any solve),
 * both speeds unchanged. The second (gap g - v h < v h): the contact stops
 * the approach at the surface, (v0 - v1) = gap / h with momentum kept (to
 * 1e-8: the solve's ridge, 3e-10 of the diagonal, docs/contact.md):
 * u1 = m0 (v - (g - v h) / h) / (m0 + m1), u0 = u1 + (g - v h) / h. */
#define ASSERT_ASIDE_PAIR(r, m0, m1, v, g)                                                 \
  do {                                                                                     \
    const double rel_ = ((g) - (v) * 1e-3) / 1e-3;                                         \
    const double u1_ = (m0) * ((v) - rel_) / ((m0) + (m1)), u0_ = u1_ + rel_;              \
    LK_ASSERT_INT_EQ((r).ok, 1);                                                           \
    LK_ASSERT_INT_EQ((r).ncontacts, 1);                                                    \
    LK_ASSERT_INT_EQ((r).aside, 1);                                                        \
    LK_ASSERT_INT_EQ((r).nislands, 0);                                                     \
    LK_ASSERT_INT_EQ((r).largest, 0);                                                      \
    LK_ASSERT_INT_EQ((r).solves, 0);                                                       \
    LK_ASSERT_REL((r).v1[0], (v), 1e-15, 0);                                               \
    LK_ASSERT_REL((r).v1[1], 0, 0, 1e-15);                                                 \
    LK_ASSERT_REL((r).fn1, 0, 0, 1e-300);                                                  \
    LK_ASSERT_INT_EQ((r).aside2, 0);                                                       \
    LK_ASSERT_INT_EQ((r).nislands2, 1);                                                    \
    LK_ASSERT_REL((r).v2[0], u0_, 1e-8, 1e-12);                                            \
    LK_ASSERT_REL((r).v2[1], u1_, 1e-8, 1e-12);                                            \
  } while (0)

static void test_aside_pair(void) {
  double mass[2] = {1, 1}, x[2] = {0, 0.1 + 1.5e-3}, v0[2] = {1, 0};
  row_run r = spheres_run(2, mass, x, v0);
  ASSERT_ASIDE_PAIR(r, 1.0, 1.0, 1.0, 1.5e-3);
}

static void test_aside_pair_variant(void) {
  double mass[2] = {1, 3}, x[2] = {0, 0.1 + 3.2e-3}, v0[2] = {2, 0};
  row_run r = spheres_run(2, mass, x, v0);
  ASSERT_ASIDE_PAIR(r, 1.0, 3.0, 2.0, 3.2e-3);
}

/* Three spheres in a row: 0 touching 1 and faster (2.3 m/s against
 * 0.3), 1 approaching 2 (at rest) slowly across a gap g = 0.5 mm that its
 * own speed does not close in a step (0.3 mm): that contact is set aside,
 * but the impact of 0 on 1 drives 1 across the gap, so it is taken back
 * in and the three are solved as one island. Plastic contacts, equal
 * masses: z01, z12 with v0 = v1 (2.3 - z01 = 0.3 + z01 - z12) and
 * v1 - v2 = g / h (0.3 + z01 - 2 z12 = 0.5): z12 = 1.6/3, z01 = 0.2 + 2
 * z12; v0 = v1 = 2.3 - z01, v2 = z12. Without the check sphere 2 would
 * stay at rest and 1 would pass 0.8 mm into it. In general 2 z01 - z12 =
 * va - vb, z01 - 2 z12 = g / h - vb. */
#define ASSERT_TAKEN_BACK(r, va, vb, g)                                                    \
  do {                                                                                     \
    const double rel_ = (g) / 1e-3, z12_ = (((va) - (vb)) - 2 * (rel_ - (vb))) / 3;        \
    const double z01_ = rel_ - (vb) + 2 * z12_;                                            \
    LK_ASSERT_INT_EQ((r).ok, 1);                                                           \
    LK_ASSERT_INT_EQ((r).ncontacts, 2);                                                    \
    LK_ASSERT_INT_EQ((r).aside, 0);                                                        \
    LK_ASSERT_INT_EQ((r).nislands, 1);                                                     \
    LK_ASSERT_REL((r).v1[0], (va) - z01_, 1e-8, 1e-12);                                    \
    LK_ASSERT_REL((r).v1[1], (vb) + z01_ - z12_, 1e-8, 1e-12);                             \
    LK_ASSERT_REL((r).v1[2], z12_, 1e-8, 1e-12);                                           \
  } while (0)

static void test_taken_back(void) {
  double mass[3] = {1, 1, 1}, x[3] = {0, 0.1, 0.2 + 0.5e-3}, v0[3] = {2.3, 0.3, 0};
  row_run r = spheres_run(3, mass, x, v0);
  ASSERT_TAKEN_BACK(r, 2.3, 0.3, 0.5e-3);
}

static void test_taken_back_variant(void) {
  double mass[3] = {1, 1, 1}, x[3] = {0, 0.1, 0.2 + 0.7e-3}, v0[3] = {3.1, 0.45, 0};
  row_run r = spheres_run(3, mass, x, v0);
  ASSERT_TAKEN_BACK(r, 3.1, 0.45, 0.7e-3);
}

static const lk_test tests[] = {
    {"a cube set exactly on planes tilted 5..30.76 deg sticks, slides above atan mu_s",
     test_cube_on_tilted_planes},
    {"variant: 30 cm, 2.5 kg cube, mu_s 0.3, default and options margin",
     test_other_cube_on_tilted_planes},
    {"margins: options, per geom, the larger of a pair", test_margin_settings},
    {"a contact the step cannot close is set aside: no island, no solve; closes next step",
     test_aside_pair},
    {"variant: masses 1 and 3, 2 m/s, gap 3.2 mm", test_aside_pair_variant},
    {"a contact set aside that an impact closes is taken back in (three spheres)",
     test_taken_back},
    {"variant: 3.1 and 0.45 m/s, gap 0.7 mm", test_taken_back_variant},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("contact margin", tests); }
