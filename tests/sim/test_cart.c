/* Indeterminate supports (issue 14, item 6): a four-wheeled cart rolling
 * freely down a 10 degree ramp, set on it exactly as a user would (the
 * plane by its normal, the cart turned with it), has all four wheels
 * rolling alike from the first step and the loads of the closed form,
 * left and right equal, with both solvers: without rolling resistance (its
 * four contacts stick: the sticking trial's least-norm split) and with it
 * (each wheel's rolling rows at their bound: the held trial's, where the
 * friction LCP's pivoting gave 0.17 / 77.3 / 77.1 / 0 N and two wheels
 * that did not turn). Likewise the least-norm split of a table's four
 * feet under an off-centre load, and of a box sliding on its four
 * corners (left = right, front and rear by the moment of the friction;
 * the friction LCP's pivoting gave 0 / 9.81 / 5.89 / 3.92 N). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"

#define DEG (LK_PI / 180.0)

static const char *kSolverNames[2] = {"lemke", "dantzig"};
static const char *kWheels[4] = {"fl", "fr", "rl", "rr"};
#define RP 0.01 /* the wheels' patch radius, m */

/* Chassis 10 kg (0.6 x 0.4 x 0.1 m box, centre 0.15 above the ramp),
 * four 1.5 kg solid sphere wheels of radius r at (+-0.22, +-0.26, -0.05)
 * on axles along y; mu 0.9 / 0.8. The ramp rises along +x: downhill is
 * -x of the cart, so the "r" wheels lead. */
static lk_model *cart(double theta, double r, double mu_rolling, const char *solver) {
  double nx = -sin(theta), nz = cos(theta), h = 0.05 + r;
  char wheels[1024] = "";
  for (int k = 0; k < 4; k++) {
    char w[256];
    snprintf(w, sizeof w,
             "  - {name: %s, parent: chassis, origin: {xyz: [%g, %g, -0.05]}, "
             "joint: {type: revolute, axis: [0, 1, 0]}, mass: 1.5, "
             "geoms: [{type: sphere, radius: %.17g, material: rubber}]}\n",
             kWheels[k], k < 2 ? 0.22 : -0.22, k % 2 ? -0.26 : 0.26, r);
    strcat(wheels, w);
  }
  char text[4096];
  snprintf(text, sizeof text,
           "options: {solver: %s}\n"
           "materials:\n  - {name: rubber, mu_static: 0.9, mu_dynamic: 0.8, mu_rolling: %.17g,"
           " patch_radius: %.17g}\n"
           "world:\n  geoms:\n"
           "    - {type: plane, normal: [%.17g, 0, %.17g], point: [0, 0, 0], material: rubber}\n"
           "links:\n  - name: chassis\n    joint: {type: free}\n    mass: 10\n"
           "    geoms:\n      - {type: box, half_extents: [0.3, 0.2, 0.05], material: rubber,"
           " group: 2, mask: 2}\n%s"
           "initial:\n  - {joint: chassis, q: [%.17g, 0, %.17g, %.17g, 0, %.17g, 0]}\n",
           solver, mu_rolling, RP, nx, nz, wheels, h * nx, h * nz, cos(-theta / 2), sin(-theta / 2));
  lk_error err;
  lk_model *m = lk_model_load_string(text, strlen(text), "cart.yaml", NULL, &err);
  LK_ASSERT_MSG(m != NULL, "load: %s", err.message);
  return m;
}

/* The cart's errors against the closed form below, the worst over both
 * solvers after 0.5 s. */
typedef struct {
  int ok;            /* loaded, every step ran, 4 contacts throughout the checks */
  double speed;      /* relative error of the speed, a t */
  double spin;       /* relative error of a wheel's spin against v / r */
  double load;       /* relative error of a wheel's normal load */
  double resistance; /* a rolling moment's error against mu_rolling r_p f_n, in units of
                        1e-9 of it plus 1e-15 N m */
} cart_errors;

static cart_errors cart_run(double theta_deg, double r, double mur) {
  cart_errors e = {1, 0, 0, 0, 0};
  double th = theta_deg * DEG, g = 9.81, M = 16, Iw = 0.4 * 1.5 * r * r;
  /* rolling without slip against the rolling resistance, whose moments
   * sum to C = mu_rolling r_p M g cos whatever the split: a = (M g sin -
   * C / r) / (M + 4 I_w / r^2); the friction F = 4 I_w a / r^2 + C / r up
   * the ramp. Loads: the sum M g cos, and the moments about the centre of
   * mass (height zG above the ramp) with the wheels' spin-up and the
   * resistance's moments: N_lead - N_trail = (F zG - C - 4 I_w a / r) /
   * (2 * 0.22) per wheel pair. */
  double C = mur * RP * M * g * cos(th);
  double a = (M * g * sin(th) - C / r) / (M + 4 * Iw / (r * r));
  double zG = (10 * (0.05 + r) + 6 * r) / M, F = 4 * Iw * a / (r * r) + C / r;
  double diff = (F * zG - C - 4 * Iw * a / r) / 0.44;
  double lead = (M * g * cos(th) / 2 + diff) / 2, trail = (M * g * cos(th) / 2 - diff) / 2;
  for (int s = 0; s < 2; s++) {
    lk_model *m = cart(th, r, mur, kSolverNames[s]);
    if (!m) {
      e.ok = 0;
      continue;
    }
    lk_data *d = lk_data_new(m);
    for (int i = 0; i < 500 && e.ok; i++) {
      lk_status st = lk_step(m, d);
      LK_ASSERT_MSG(st == LK_OK, "step %d: %s", i, lk_strerror(st));
      if (st || (i == 0 && lk_data_ncontacts(d) != 4)) e.ok = 0;
    }
    const double *v = lk_data_v(d);
    double speed = sqrt(v[0] * v[0] + v[2] * v[2]);
    e.speed = fmax(e.speed, fabs(speed / (a * 0.5) - 1));
    for (int k = 0; k < 4; k++) e.spin = fmax(e.spin, fabs(fabs(v[6 + k]) / (speed / r) - 1));
    int n = lk_data_ncontacts(d);
    if (n != 4) e.ok = 0;
    for (int i = 0; i < n; i++) {
      const lk_contact_report *c = lk_data_contact_report(d, i);
      int lead_wheel = c->link == lk_model_link_index(m, "rl") || c->link == lk_model_link_index(m, "rr");
      double want = lead_wheel ? lead : trail;
      e.load = fmax(e.load, fabs(c->fn / want - 1));
      double bound = mur * RP * c->fn;
      e.resistance =
          fmax(e.resistance, fabs(lk_v3_norm(c->rolling_moment) - bound) / (1e-9 * bound + 1e-15));
    }
    lk_data_free(d);
    lk_model_free(m);
  }
  return e;
}

/* Four wheels roll alike at the closed form's acceleration, carry its
 * loads (not a vertex split), and a rolling wheel's resistance is at its
 * bound, mu_rolling r_p f_n. */
#define ASSERT_CART(e)                                                                     \
  do {                                                                                     \
    LK_ASSERT_INT_EQ((e).ok, 1);                                                           \
    LK_ASSERT_MSG((e).speed < 1e-3, "speed off by %.3g", (e).speed);                       \
    LK_ASSERT_MSG((e).spin < 1e-6, "a wheel's spin off v / r by %.3g", (e).spin);          \
    LK_ASSERT_MSG((e).load < 1e-4, "a wheel's load off by %.3g", (e).load);                \
    LK_ASSERT_MSG((e).resistance < 1, "a rolling moment off its bound by %.3g tolerances", (e).resistance); \
  } while (0)

static void test_cart_10_degrees(void) {
  cart_errors e = cart_run(10, 0.1, 0);
  ASSERT_CART(e);
}
/* other numbers: 20 degrees, wheels of 8 cm */
static void test_cart_20_degrees(void) {
  cart_errors e = cart_run(20, 0.08, 0);
  ASSERT_CART(e);
}
/* with rolling resistance: was 0.17 / 77.3 / 77.1 / 0 N */
static void test_cart_rolling_resistance(void) {
  cart_errors e = cart_run(10, 0.1, 0.03);
  ASSERT_CART(e);
}
static void test_cart_rolling_resistance_20(void) {
  cart_errors e = cart_run(20, 0.08, 0.05);
  ASSERT_CART(e);
}

/* A table (top and four sphere feet on one free link, mass m, its centre
 * of mass off the middle by (cx, cy)) resting on the floor: the feet at
 * (+-a, +-b) carry the least-norm split m g / 4 (1 +- cx / a +- cy / b)
 * (the three balances leave one mode, the diagonal one, which the least
 * norm sets to zero). */
static void check_table(double mass, double a, double b, double cx, double cy, const char *solver) {
  char feet[1024] = "";
  for (int k = 0; k < 4; k++) {
    char f[200];
    snprintf(f, sizeof f, "      - {type: sphere, radius: 0.02, origin: {xyz: [%g, %g, -0.4]}}\n",
             k & 1 ? -a : a, k & 2 ? -b : b);
    strcat(feet, f);
  }
  char text[2048];
  snprintf(text, sizeof text,
           "options: {solver: %s}\n"
           "world:\n  geoms:\n    - {type: plane, normal: [0, 0, 1]}\n"
           "links:\n  - name: table\n    joint: {type: free}\n    mass: %g\n"
           "    com: [%g, %g, 0]\n    inertia: [2, 3, 4]\n    geoms:\n%s"
           "initial:\n  - {joint: table, q: [0, 0, 0.42, 1, 0, 0, 0]}\n",
           solver, mass, cx, cy, feet);
  lk_error err;
  lk_model *m = lk_model_load_string(text, strlen(text), "table.yaml", NULL, &err);
  LK_ASSERT_MSG(m != NULL, "load: %s", err.message);
  if (!m) return;
  lk_data *d = lk_data_new(m);
  for (int i = 0; i < 200; i++) LK_ASSERT_OK(lk_step(m, d), NULL);
  int n = lk_data_ncontacts(d);
  LK_ASSERT_INT_EQ(n, 4);
  double W = mass * 9.81;
  for (int i = 0; i < n; i++) {
    const lk_contact_report *c = lk_data_contact_report(d, i);
    double s = c->position.x > 0 ? 1 : -1, t = c->position.y > 0 ? 1 : -1;
    LK_ASSERT_REL(c->fn, W / 4 * (1 + s * cx / a + t * cy / b), 1e-6, 0);
  }
  lk_data_free(d);
  lk_model_free(m);
}

static void test_table_four_feet(void) {
  for (int s = 0; s < 2; s++) {
    check_table(20, 0.5, 0.3, 0.1, 0.05, kSolverNames[s]);
    check_table(7, 0.4, 0.4, -0.15, 0.12, kSolverNames[s]); /* other numbers */
  }
}

/* A box (half extents hx, hy, hz; mass 2) launched along x or y on the
 * floor slides on its four corners at g mu_d; the moment of the friction
 * about the centre loads the leading corners: N / 4 (1 + mu_d hz / h)
 * each (h: the half extent along the motion), the trailing ones N / 4
 * (1 - mu_d hz / h), left and right alike (the least-norm split of the
 * four corners), and the box does not turn. The planner answers with the
 * held trial; the friction LCP named as the island's strategy answers the
 * same (its pivoting alone split the corners at a vertex, one corner of a
 * pair carrying both shares, and that corner's friction turned the box). */
static void check_sliding_box(double hx, double hy, double hz, double mu_d, int along_y,
                              const char *solver, const char *strategy) {
  char text[2048];
  double v0 = 1.5;
  snprintf(text, sizeof text,
           "options: {solver: %s, island_strategy: %s}\n"
           "materials:\n  - {name: m, mu_static: %g, mu_dynamic: %g}\n"
           "world:\n  geoms:\n    - {type: plane, normal: [0, 0, 1], material: m}\n"
           "links:\n  - name: box\n    joint: {type: free}\n    mass: 2\n"
           "    geoms:\n      - {type: box, half_extents: [%g, %g, %g], material: m}\n"
           "initial:\n  - {joint: box, q: [0, 0, %.17g, 1, 0, 0, 0], v: [%g, %g, 0, 0, 0, 0]}\n",
           solver, strategy, mu_d + 0.2, mu_d, hx, hy, hz, hz, along_y ? 0 : v0,
           along_y ? v0 : 0);
  lk_error err;
  lk_model *m = lk_model_load_string(text, strlen(text), "box.yaml", NULL, &err);
  LK_ASSERT_MSG(m != NULL, "load: %s", err.message);
  if (!m) return;
  lk_data *d = lk_data_new(m);
  double turn = 0;
  for (int i = 0; i < 150; i++) {
    LK_ASSERT_OK(lk_step(m, d), NULL);
    turn = fmax(turn, fabs(lk_data_v(d)[5]));
  }
  LK_ASSERT_MSG(turn < 1e-9, "%s, %s: the sliding box turned at %.3g rad/s", solver, strategy,
                turn);
  const double *v = lk_data_v(d);
  double t = 150 * 1e-3, g = 9.81;
  LK_ASSERT_REL(v[along_y ? 1 : 0], v0 - mu_d * g * t, 1e-6, 0);
  int n = lk_data_ncontacts(d);
  LK_ASSERT_INT_EQ(n, 4);
  double N = 2 * g, h = along_y ? hy : hx;
  const lk_transform *pose = lk_data_link_pose(d, lk_model_link_index(m, "box"));
  for (int i = 0; i < n; i++) {
    const lk_contact_report *c = lk_data_contact_report(d, i);
    double ahead = (along_y ? c->position.y - pose->p.y : c->position.x - pose->p.x) > 0 ? 1 : -1;
    LK_ASSERT_INT_EQ(c->state, LK_FRICTION_DYNAMIC);
    LK_ASSERT_REL(c->fn, N / 4 * (1 + ahead * mu_d * hz / h), 1e-6, 0);
  }
  lk_data_free(d);
  lk_model_free(m);
}

static void test_sliding_box_four_corners(void) {
  static const char *const strategies[] = {"planned", "lcp"};
  for (int s = 0; s < 2; s++)
    for (int k = 0; k < 2; k++) {
      check_sliding_box(0.1, 0.1, 0.1, 0.4, 0, kSolverNames[s], strategies[k]);
      check_sliding_box(0.1, 0.15, 0.05, 0.3, 1, kSolverNames[s], strategies[k]); /* other numbers */
    }
}

static const lk_test tests[] = {
    {"cart on a 10 deg ramp: four wheels roll alike, loads of the closed form", test_cart_10_degrees},
    {"variant: 20 deg, 8 cm wheels", test_cart_20_degrees},
    {"with rolling resistance 0.03: loads of the closed form, not a vertex split",
     test_cart_rolling_resistance},
    {"variant: rolling resistance 0.05, 20 deg, 8 cm wheels", test_cart_rolling_resistance_20},
    {"a table's four feet: the least-norm split of an off-centre load", test_table_four_feet},
    {"a box sliding on its four corners: left = right, front and rear by the moment",
     test_sliding_box_four_corners},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("cart", tests); }
