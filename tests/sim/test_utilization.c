/* One definition of utilization (issue 31 item 7): |f_t| / (mu_s f_n),
 * mu_s the contact's static coefficient whatever its state, in the
 * contact report, the contacts CSV (lk_contact_row, written from it) and
 * both docs. A block sliding down a slope steeper than mu_s has every
 * sliding contact at f_t = mu_d f_n, so it reads mu_d / mu_s; resting on a
 * slope gentler than atan(mu_s) its total friction is m g sin(theta)
 * against mu_s m g cos(theta), so the force-weighted utilization is
 * tan(theta) / mu_s. Both closed forms, not the code's numbers. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"

/* A 0.1 m cube of 1 kg on a plane tilted by deg degrees about y. Returns
 * after `steps` the force-weighted utilization sum |f_t| / sum mu_s f_n
 * and the contacts CSV rows' utilization (through lk_contact_row_of),
 * which must agree contact by contact. */
static double run(double deg, double mus, double mud, int steps, int *all_dynamic) {
  char text[1400];
  double th = deg * M_PI / 180;
  /* the cube resting on the slope: centre 0.05 m above it along the normal */
  double nx = sin(th), nz = cos(th);
  snprintf(text, sizeof text,
           "materials:\n  - {name: wood, mu_static: %.6g, mu_dynamic: %.6g}\n"
           "world:\n  geoms:\n    - {type: plane, normal: [%.6f, 0, %.6f], material: wood}\n"
           "links:\n  - name: block\n    joint: {type: free}\n    mass: 1\n"
           "    geoms:\n      - {type: box, half_extents: [0.05, 0.05, 0.05], material: wood}\n"
           "initial:\n  - {joint: block, q: [%.6f, 0, %.6f, %.6f, 0, %.6f, 0]}\n",
           mus, mud, -nx, nz, -0.05 * nx, 0.05 * nz, cos(th / 2), -sin(th / 2));
  lk_error err;
  lk_model *m = lk_model_load_string(text, strlen(text), "slope.yaml", NULL, &err);
  LK_ASSERT_MSG(m != NULL, "load: %s", err.message);
  *all_dynamic = -1;
  if (!m) return NAN;
  lk_data *d = lk_data_new(m);
  for (int i = 0; i < steps; i++) LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
  double ft = 0, cap = 0;
  *all_dynamic = 1;
  int n = lk_data_ncontacts(d);
  LK_ASSERT_MSG(n > 0, "no contacts");
  for (int i = 0; i < n; i++) {
    const lk_contact_report *c = lk_data_contact_report(d, i);
    if (!(c->fn > 1e-9)) continue;
    ft += lk_v3_norm(c->ft);
    cap += c->mu_static * c->fn;
    if (c->state != LK_FRICTION_DYNAMIC) *all_dynamic = 0;
    LK_ASSERT_NEAR(c->utilization, lk_v3_norm(c->ft) / (c->mu_static * c->fn), 1e-12);
    lk_contact_row row;
    LK_ASSERT_OK(lk_contact_row_of(m, d, i, &row), (lk_error *)NULL);
    LK_ASSERT_NEAR(row.utilization, c->utilization, 0);
  }
  lk_data_free(d);
  lk_model_free(m);
  return ft / cap;
}

/* Sliding at 30 degrees with mu 0.3 / 0.2: the 0.667. */
static void test_sliding_reads_mud_over_mus(void) {
  int dyn;
  double u = run(30, 0.3, 0.2, 300, &dyn);
  LK_ASSERT_INT_EQ(dyn, 1);
  LK_ASSERT_NEAR(u, 0.2 / 0.3, 1e-6);
}

/* Variant: 40 degrees, mu 0.6 / 0.45 (sliding); and resting at 20 degrees
 * with mu_s 0.5: tan(20) / 0.5 = 0.72794. */
static void test_variant(void) {
  int dyn;
  double u = run(40, 0.6, 0.45, 300, &dyn);
  LK_ASSERT_INT_EQ(dyn, 1);
  LK_ASSERT_NEAR(u, 0.45 / 0.6, 1e-6);
  u = run(20, 0.5, 0.4, 300, &dyn);
  LK_ASSERT_INT_EQ(dyn, 0);
  LK_ASSERT_NEAR(u, tan(20 * M_PI / 180) / 0.5, 1e-6);
}

static const lk_test tests[] = {
    {"sliding at 30 deg, mu 0.3/0.2: utilization mu_d/mu_s = 0.667", test_sliding_reads_mud_over_mus},
    {"variant: 40 deg mu 0.6/0.45 sliding; 20 deg mu_s 0.5 resting", test_variant},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("utilization", tests); }
