/* Issue 35: a failed step leaves the data as it was, and the contact
 * capacity grows: a data holds as many contacts as a step finds, unless the
 * user set a limit (options max_contacts), which a step then names. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"
#include "piles.h"


/* Every contact of the collision layer, field by field. */
static int same_contacts(const lk_data *a, const lk_data *b) {
  if (lk_data_ncontact(a) != lk_data_ncontact(b)) return 0;
  for (int i = 0; i < lk_data_ncontact(a); i++) {
    const lk_contact *x = lk_data_contact(a, i), *y = lk_data_contact(b, i);
    if (x->id != y->id || x->age != y->age || x->friction != y->friction ||
        x->geom_a != y->geom_a || x->geom_b != y->geom_b || x->depth != y->depth ||
        memcmp(x->impulse, y->impulse, sizeof x->impulse) != 0)
      return 0;
  }
  return 1;
}

static int same_state(const lk_model *m, const lk_data *a, const lk_data *b) {
  return memcmp(lk_data_q((lk_data *)a), lk_data_q((lk_data *)b),
                sizeof(double) * (size_t)lk_model_nq(m)) == 0 &&
         memcmp(lk_data_v((lk_data *)a), lk_data_v((lk_data *)b),
                sizeof(double) * (size_t)lk_model_nv(m)) == 0 &&
         lk_data_time(a) == lk_data_time(b) && same_contacts(a, b);
}

static int run(const lk_model *m, lk_data *d, int steps) {
  for (int i = 0; i < steps; i++) {
    lk_status st = lk_step(m, d);
    if (st) return st;
  }
  return LK_OK;
}

/* The layered pile of issue 35 (140 cubes in 3 layers, 2 mm apart): with
 * the default options its first step found more contacts than the
 * automatic capacity ("capacity exceeded" at step 1). Now the data grows
 * and the pile stands; its steps are bit for bit those of a data made
 * large enough from the start. */
static void test_layered_pile_grows(void) {
  const double h = 0.002;
  lk_model *m = piles_layered(140, 3, 0.002, h, 0);
  lk_model *big = piles_layered(140, 3, 0.002, h, 20000);
  LK_ASSERT_MSG(m && big, "the layered pile builds");
  if (!m || !big) return;
  lk_data *d = lk_data_new(m), *e = lk_data_new(big);
  int cap0 = lk_data_contact_capacity(d);
  LK_ASSERT_INT_EQ(lk_step(m, d), LK_OK);
  LK_ASSERT_MSG(lk_data_ncontact_found(d) > cap0, "the pile finds %d contacts, the data held %d",
                lk_data_ncontact_found(d), cap0);
  LK_ASSERT_MSG(lk_data_contact_capacity(d) >= lk_data_ncontact_found(d),
                "grown to %d for %d contacts", lk_data_contact_capacity(d),
                lk_data_ncontact_found(d));
  LK_ASSERT_INT_EQ(run(m, d, 149), LK_OK); /* 0.3 s */
  LK_ASSERT_INT_EQ(run(big, e, 150), LK_OK);
  LK_ASSERT_MSG(same_state(m, d, e), "the grown data steps as one that never grew");
  /* every cube where it was put, to a millimetre (none fell) */
  const double *q = lk_data_q(d);
  double worst = 0;
  for (int k = 0; k < 140; k++) {
    int layer = k / 47;
    double z0 = 0.05 - PILES_DEPTH0 + layer * (0.1 - PILES_DEPTH0);
    worst = fmax(worst, fabs(q[7 * k + 2] - z0));
  }
  LK_ASSERT_MSG(worst < 1e-3, "a cube moved %.3g m", worst);
  lk_data_free(d);
  lk_data_free(e);
  lk_model_free(m);
  lk_model_free(big);
}

/* A limit the user set stays a limit, and the step's report names it. */
static void test_user_limit_is_named(void) {
  lk_model *m = piles_layered(60, 2, 0.002, 0.002, 100);
  if (!m) return;
  lk_data *d = lk_data_new(m), *c = lk_data_new(m);
  LK_ASSERT_INT_EQ(lk_data_contact_capacity(d), 100);
  LK_ASSERT_OK(lk_data_copy(c, d), (lk_error *)NULL);
  LK_ASSERT_INT_EQ(lk_step(m, d), LK_CAPACITY_EXCEEDED);
  const lk_step_report *r = lk_data_step_report(d);
  LK_ASSERT_MSG(r->detail && strstr(r->detail, "max_contacts"), "the report says: %s",
                r->detail ? r->detail : "(nothing)");
  LK_ASSERT_INT_EQ(lk_data_contact_capacity(d), 100);
  LK_ASSERT_MSG(same_state(m, d, c), "the failed step left the data as it was");
  lk_data_free(d);
  lk_data_free(c);
  lk_model_free(m);
}

/* A grown data's copy grows alike and continues bit for bit; a data
 * copied back into a smaller one too. */
static void test_copy_after_growth(void) {
  const double h = 0.002;
  lk_model *m = piles_layered(60, 2, 0.002, h, 0);
  if (!m) return;
  lk_data *a = lk_data_new(m), *b = lk_data_new(m);
  int cap0 = lk_data_contact_capacity(b);
  LK_ASSERT_INT_EQ(run(m, a, 20), LK_OK);
  LK_ASSERT_MSG(lk_data_contact_capacity(a) > cap0, "the pile grew its data (%d, was %d)",
                lk_data_contact_capacity(a), cap0);
  LK_ASSERT_OK(lk_data_copy(b, a), (lk_error *)NULL);
  LK_ASSERT_INT_EQ(lk_data_contact_capacity(b), lk_data_contact_capacity(a));
  LK_ASSERT_INT_EQ(run(m, a, 30), LK_OK);
  LK_ASSERT_INT_EQ(run(m, b, 30), LK_OK);
  LK_ASSERT_MSG(same_state(m, a, b), "the copy continues bit for bit");
  lk_data_free(a);
  lk_data_free(b);
  lk_model_free(m);
}

/* Once grown, the pile's steps allocate nothing (as tests/sim/test_scale's
 * piles). */
static void test_no_allocation_once_grown(void) {
  lk_model *m = piles_layered(60, 2, 0.002, 0.002, 0);
  if (!m) return;
  lk_data *d = lk_data_new(m);
  LK_ASSERT_INT_EQ(run(m, d, 10), LK_OK);
  lk_allocator al = LK_TEST_COUNTING_ALLOCATOR;
  lk_set_allocator(&al);
  lk_test_allocs = 0;
  int st = run(m, d, 40);
  long allocs = lk_test_allocs;
  lk_set_allocator(NULL);
  LK_ASSERT_INT_EQ(st, LK_OK);
  LK_ASSERT_MSG(allocs == 0, "40 steps after growing made %ld allocations", allocs);
  lk_data_free(d);
  lk_model_free(m);
}

/* A step that fails in the islands' solve (an island beyond the
 * max_island_rows the user set: a third cube lands on a tower of two)
 * leaves the data as it was: the same state and contacts as a copy taken
 * before it, and, once the user lifts the cube off again, the same steps. */
static void test_failed_step_changes_nothing(void) {
  const double h = 0.002;
  lk_model *m = piles_tower_options(3, h, 30, 0); /* 2 cubes: 24 rows; 3: 36 */
  if (!m) return;
  lk_data *d = lk_data_new(m), *c = lk_data_new(m);
  lk_data_q(d)[7 * 2 + 2] += 0.03; /* the third cube 3 cm up */
  lk_status st = LK_OK;
  int steps = 0;
  for (; steps < 200; steps++) {
    LK_ASSERT_OK(lk_data_copy(c, d), (lk_error *)NULL);
    st = lk_step(m, d);
    if (st) break;
  }
  LK_ASSERT_INT_EQ(st, LK_CAPACITY_EXCEEDED);
  LK_ASSERT_MSG(steps > 10, "the cube fell before it landed (%d steps)", steps);
  const lk_step_report *r = lk_data_step_report(d);
  LK_ASSERT_MSG(r->detail && strstr(r->detail, "max_island_rows"), "the report says: %s",
                r->detail ? r->detail : "(nothing)");
  LK_ASSERT_MSG(same_state(m, d, c), "the failed step left state and contacts as they were");
  /* the same failure again from the same state */
  LK_ASSERT_INT_EQ(lk_step(m, d), LK_CAPACITY_EXCEEDED);
  LK_ASSERT_MSG(same_state(m, d, c), "and again");
  /* lifted off, at rest: both go on alike */
  for (lk_data *x = d; x; x = x == d ? c : NULL) {
    lk_data_q(x)[7 * 2 + 2] += 0.05;
    lk_data_v(x)[6 * 2 + 2] = 0;
  }
  LK_ASSERT_INT_EQ(run(m, d, 20), LK_OK);
  LK_ASSERT_INT_EQ(run(m, c, 20), LK_OK);
  LK_ASSERT_MSG(same_state(m, d, c), "after the failure the data steps as its copy");
  lk_data_free(d);
  lk_data_free(c);
  lk_model_free(m);
}

void lk_test_register(void) {
  static const lk_test tests[] = {
      {"the layered pile grows its data and stands", test_layered_pile_grows},
      {"a capacity the user set is a limit, named", test_user_limit_is_named},
      {"a grown data copies and continues bit for bit", test_copy_after_growth},
      {"no allocation in a step once grown", test_no_allocation_once_grown},
      {"a failed step leaves the data as it was", test_failed_step_changes_nothing},
      {NULL, NULL}};
  lk_test_suite("growth", tests);
}
