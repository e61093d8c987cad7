/* Sticking contacts are anchored (issue 31.2): a cube on a turntable does
 * not creep. The table (a revolute joint, its speed prescribed: spun up
 * over 10 s, so that the tangential acceleration asks little of the
 * friction, then held) carries a cube at radius r; the cube sticks while
 * r w^2 <= mu_s g. Before anchoring, each step's straight-line position
 * update moved the sticking cube outward by r (h w)^2 / 2 (6 mm in 5 s at
 * half the threshold, and off the table at 0.99 of it). Measured from the
 * end of the spin-up over the next 10 s: the cube's radius moves by at
 * most 1e-9 m at 0.5 and 0.99 of the threshold (the issue asks 1e-7; the
 * projection of lib/sim/anchor.c gives 5e-11, the friction rows' bias that
 * came before it 1e-8), and at 1.01 it slides off; with the default
 * options (anchoring is on by default; with anchor_contacts: false the
 * cube creeps, the last test says). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"

/* The radius the cube has moved over the 10 s after the spin-up, with the
 * default options (anchored) or anchor_contacts: false. */
static double drift(double r, double half, double mus, double share, int anchored) {
  const double g = 9.81, w = sqrt(share * mus * g / r);
  char text[2048];
  snprintf(text, sizeof text,
           "%s"
           "materials:\n  - {name: m, mu_static: %.17g, mu_dynamic: %.17g}\n"
           "links:\n  - name: table\n    joint: {name: spin, type: revolute, axis: [0, 0, 1]}\n"
           "    mass: 5\n    inertia: [0.2, 0.2, 0.4, 0, 0, 0]\n    geoms:\n"
           "      - {type: cylinder, radius: 0.5, half_length: 0.01, origin: {xyz: [0, 0, -0.01]}, "
           "material: m}\n"
           "  - name: cube\n    joint: {type: free}\n    mass: 0.1\n    geoms:\n"
           "      - {type: box, half_extents: [%.17g, %.17g, %.17g], material: m}\n"
           "actuators:\n  - {joint: spin, type: prescribed_velocity, schedule: [[0, 0], [10, %.17g]]}\n"
           "initial:\n  - {joint: cube, q: [%.6f, 0, %.6f, 1, 0, 0, 0]}\n",
           anchored ? "" : "options: {anchor_contacts: false}\n", mus, 0.8 * mus, half, half, half, w, r, half);
  lk_error err;
  lk_model *m = lk_model_load_string(text, strlen(text), "turntable.yaml", NULL, &err);
  LK_ASSERT_MSG(m != NULL, "load: %s", err.message);
  if (!m) return NAN;
  lk_data *d = lk_data_new(m);
  double r10 = NAN;
  for (int i = 0; i < 20000; i++) {
    lk_status st = lk_step(m, d);
    LK_ASSERT_OK(st, (lk_error *)NULL);
    if (st) break;
    const double *q = lk_data_q(d) + 1; /* the cube's x, y after the table's angle */
    if (i == 9999) r10 = hypot(q[0], q[1]);
    if (i == 19999) r10 = hypot(q[0], q[1]) - r10;
  }
  lk_data_free(d);
  lk_model_free(m);
  return r10;
}

static void test_cube_holds_its_radius(void) {
  double a = drift(0.2, 0.01, 0.5, 0.5, 1), b = drift(0.2, 0.01, 0.5, 0.99, 1);
  LK_ASSERT_MSG(fabs(a) <= 1e-9, "at 0.5 of the threshold the cube moved %.3g m in 10 s", a);
  LK_ASSERT_MSG(fabs(b) <= 1e-9, "at 0.99 of the threshold the cube moved %.3g m in 10 s", b);
  double c = drift(0.2, 0.01, 0.5, 1.01, 1);
  LK_ASSERT_MSG(c > 0.1, "at 1.01 of the threshold the cube stayed (moved %.3g m)", c);
}

/* Variant: a 3 cm cube at 0.15 m, mu_s 0.4. */
static void test_variant(void) {
  double a = drift(0.15, 0.015, 0.4, 0.99, 1);
  LK_ASSERT_MSG(fabs(a) <= 1e-9, "at 0.99 of the threshold the cube moved %.3g m in 10 s", a);
  double c = drift(0.15, 0.015, 0.4, 1.01, 1);
  LK_ASSERT_MSG(c > 0.1, "at 1.01 of the threshold the cube stayed (moved %.3g m)", c);
}

/* Not anchored (anchor_contacts: false) the cube creeps as the issue
 * measured: what the option buys. */
static void test_plain_creeps(void) {
  double a = drift(0.2, 0.01, 0.5, 0.5, 0);
  LK_ASSERT_MSG(a > 1e-3, "not anchored, the cube moved only %.3g m in 10 s", a);
}

static const lk_test tests[] = {
    {"a cube on a turntable holds its radius to 1e-9 m at 0.5 and 0.99, slides at 1.01",
     test_cube_holds_its_radius},
    {"variant: other cube, radius and mu_s", test_variant},
    {"not anchored (anchor_contacts: false) it creeps", test_plain_creeps},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("turntable", tests); }
