/* The depenetration cap (issue 18, item 10): a body placed deep inside
 * another is pushed out at no more than max_depenetration_speed, so that
 * position correction adds at most m v_max^2 / 2 of kinetic energy and the
 * body does not fly (a box half sunk into the floor left at 9.98 m/s and
 * rose 5 m with contact_erp's 0.2 of 5 cm a millisecond). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"

static const char *kSolverNames[2] = {"lemke", "dantzig"};

/* A cube of half size `half` and mass `mass` whose centre is `sink` below
 * where it would rest on the floor. */
/* Returns the largest kinetic energy over both solvers as a share of the
 * cap m vmax^2 / 2 (<= 1); INFINITY when a model does not load. */
static double check_sunk_box(double half, double mass, double sink, const char *options,
                             double vmax) {
  double worst = 0;
  for (int s = 0; s < 2; s++) {
    double I = mass * (2 * half) * (2 * half) / 6;
    char text[1536];
    snprintf(text, sizeof text,
             "options: {solver: %s%s}\n"
             "materials:\n  - {name: m, mu_static: 0.6, mu_dynamic: 0.5}\n"
             "world:\n  geoms:\n    - {type: plane, material: m}\n"
             "links:\n  - name: box\n    joint: {type: free}\n    mass: %.17g\n"
             "    inertia: [%.17g, %.17g, %.17g, 0, 0, 0]\n"
             "    geoms:\n      - {type: box, half_extents: [%.17g, %.17g, %.17g], material: m}\n"
             "initial:\n  - {joint: box, q: [0, 0, %.17g, 1, 0, 0, 0]}\n",
             kSolverNames[s], options, mass, I, I, I, half, half, half, half - sink);
    lk_error err;
    lk_model *m = lk_model_load_string(text, strlen(text), "sunk.yaml", NULL, &err);
    LK_ASSERT_MSG(m != NULL, "load: %s", err.message);
    if (!m) return INFINITY;
    lk_data *d = lk_data_new(m);
    double ke_max = 0, top = -INFINITY;
    for (int i = 0; i < 2000; i++) {
      lk_status st = lk_step(m, d);
      LK_ASSERT_MSG(st == LK_OK, "step %d: %s", i, lk_strerror(st));
      if (st) break;
      const double *v = lk_data_v(d);
      double ke = 0.5 * mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) +
                  0.5 * I * (v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
      ke_max = fmax(ke_max, ke);
      top = fmax(top, lk_data_q(d)[2] - half);
    }
    double cap = 0.5 * mass * vmax * vmax;
    /* the correction's energy, and the flight it allows: v_max^2 / 2g
     * above the floor at most */
    worst = fmax(worst, ke_max / cap);
    LK_ASSERT_MSG(top <= vmax * vmax / (2 * 9.81) + 1e-4, "%s: rose %.4g m above the floor",
                  kSolverNames[s], top);
    /* and it is out, resting on the floor within the tolerance, after 2 s */
    double z = lk_data_q(d)[2] - half;
    LK_ASSERT_MSG(z > -1.5e-4 && z < 1e-6, "%s: ends at %.3g m", kSolverNames[s], z);
    LK_ASSERT_NEAR(lk_data_v(d)[2], 0, 1e-6);
    lk_data_free(d);
    lk_model_free(m);
  }
  return worst;
}

/* The box: 1 kg, 10 cm, the default cap 0.2 m/s; sunk 4.5 cm, just
 * short of half: a box sunk as deep as its half size is refused at load
 * since issue 14.8 (an overlap as deep as the shapes is an error). */
static void test_half_sunk_box(void) {
  double ke = check_sunk_box(0.05, 1.0, 0.045, "", 0.2);
  LK_ASSERT_MSG(ke <= 1 + 1e-6, "kinetic energy reached %.6g of the cap", ke);
}
/* Other numbers: 2 kg, 20 cm, 8 cm deep, a cap of 1 m/s. */
static void test_other_box_other_cap(void) {
  double ke = check_sunk_box(0.1, 2.0, 0.08, ", max_depenetration_speed: 1", 1.0);
  LK_ASSERT_MSG(ke <= 1 + 1e-6, "kinetic energy reached %.6g of the cap", ke);
}

static const lk_test tests[] = {
    {"a box nearly half sunk into the floor comes out at <= 0.2 m/s", test_half_sunk_box},
    {"variant: 2 kg, 8 cm deep, cap 1 m/s", test_other_box_other_cap},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("depenetration", tests); }
