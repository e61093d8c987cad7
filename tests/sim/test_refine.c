/* Scenes at rest answered by refinement: a stack and grasps, whose answers
 * move by more than the 10 ulps a guess may miss by, reach each step's
 * answer from the last impulses by iterative refinement against the factor
 * kept from their last sticking trial (solve.c: refine). Each refined step
 * gives what a fresh solve of the same step gives, and a data copied with
 * its kept factor steps exactly as the original. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"
#include "mechanism.h"
#include "data/data_impl.h"
#include "sim/sim_data.h"

static lk_model *load(const char *name) { return test_mechanism(name, NULL, 0); }

/* Forget the kept factor and make every contact wait before its next
 * guess: the next step solves its sticking trial afresh. */
static void force_fresh_solve(lk_data *d) {
  for (int s = 0; s < LK_SIM_KEPT_SLOTS; s++) d->sim.st->kept[s].n = 0;
  for (int c = 0; c < d->sim.st->ncontact; c++) d->sim.cmem[c].guess_wait = 1;
}

static double max_abs_diff(const double *a, const double *b, int n) {
  double m = 0;
  for (int i = 0; i < n; i++) m = fmax(m, fabs(a[i] - b[i]));
  return m;
}

/* steps at rest: the share answered by refinement after the first 50, and
 * every 100 steps the step compared with a fresh solve of it; then a copy
 * stepped beside the original. Returns the comparisons that agreed within
 * every tolerance below (0 if the copy diverged). */
static int check_scene(const char *file, int steps, double min_share) {
  lk_model *m = load(file);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  lk_data *d = lk_data_new(m), *fresh = lk_data_new(m);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  CU_ASSERT_PTR_NOT_NULL_FATAL(fresh);
  int nq = lk_model_nq(m), nv = lk_model_nv(m);
  int refined = 0, compared = 0, agreed = 0;
  double worst_f = 0, worst_sum = 0, worst_q = 0;
  for (int i = 0; i < steps; i++) {
    int compare = i >= 50 && i % 100 == 0;
    if (compare) {
      CU_ASSERT_EQUAL_FATAL(lk_data_copy(fresh, d), LK_OK);
      force_fresh_solve(fresh);
    }
    CU_ASSERT_EQUAL_FATAL(lk_step(m, d), LK_OK);
    const lk_step_report *r = lk_data_step_report(d);
    if (i >= 50) refined += r->refined_answers > 0;
    if (!compare || r->refined_answers == 0) continue;
    CU_ASSERT_EQUAL_FATAL(lk_step(m, fresh), LK_OK);
    CU_ASSERT_EQUAL(lk_data_step_report(fresh)->refined_answers, 0);
    CU_ASSERT_EQUAL(lk_data_step_report(fresh)->guess_answers, 0);
    int nc = lk_data_ncontacts(d);
    CU_ASSERT_EQUAL_FATAL(lk_data_ncontacts(fresh), nc);
    double fmax_n = 0, df = 0, sum_a = 0, sum_b = 0;
    for (int c = 0; c < nc; c++) {
      const lk_contact_report *a = lk_data_contact_report(d, c), *b = lk_data_contact_report(fresh, c);
      fmax_n = fmax(fmax_n, a->fn);
      df = fmax(df, fabs(a->fn - b->fn));
      df = fmax(df, fmax(fabs(a->ft.x - b->ft.x), fmax(fabs(a->ft.y - b->ft.y), fabs(a->ft.z - b->ft.z))));
      sum_a += a->fn;
      sum_b += b->fn;
    }
    double dq = fmax(max_abs_diff(lk_data_q(d), lk_data_q(fresh), nq),
                     max_abs_diff(lk_data_v(d), lk_data_v(fresh), nv));
    worst_f = fmax(worst_f, df / fmax_n);
    worst_sum = fmax(worst_sum, fabs(sum_a - sum_b) / sum_b);
    worst_q = fmax(worst_q, dq);
    agreed += df / fmax_n <= 1e-5 && fabs(sum_a - sum_b) / sum_b <= 1e-9 && dq <= 1e-12;
    compared++;
  }
  double share = (double)refined / (steps - 50);
  printf("  %s: %.1f%% of steps refined; against %d fresh solves: contact forces %.2g, their sum "
         "%.2g relative, state %.2g\n",
         file, 100 * share, compared, worst_f, worst_sum, worst_q);
  LK_ASSERT_MSG(share >= min_share, "%s: only %.3f of the steps refined", file, share);
  LK_ASSERT_MSG(compared >= (steps - 50) / 100 * 9 / 10, "%s: %d comparisons", file, compared);
  /* The split between redundant contacts is the ridge's: a fresh solve's
   * own moves by up to 3e-6 of the largest normal force on the gripper
   * when every coordinate moves by 1e-13 (measured), so a refined answer
   * may differ from it by as much; their sum, and the motion, may not. */
  LK_ASSERT_MSG(worst_f <= 1e-5, "%s: contact forces off a fresh solve's by %.3g", file, worst_f);
  LK_ASSERT_MSG(worst_sum <= 1e-9, "%s: normal forces' sum off a fresh solve's by %.3g", file,
                worst_sum);
  LK_ASSERT_MSG(worst_q <= 1e-12, "%s: state off a fresh solve's by %.3g", file, worst_q);

  /* A copy made mid-run, kept factor included, steps bit for bit alike. */
  CU_ASSERT_EQUAL_FATAL(lk_data_copy(fresh, d), LK_OK);
  CU_ASSERT(d->sim.st->kept[0].n > 0);
  int same = 1;
  for (int i = 0; i < 200; i++) {
    CU_ASSERT_EQUAL_FATAL(lk_step(m, d), LK_OK);
    CU_ASSERT_EQUAL_FATAL(lk_step(m, fresh), LK_OK);
    same &= memcmp(lk_data_q(d), lk_data_q(fresh), sizeof(double) * (size_t)nq) == 0 &&
            memcmp(lk_data_v(d), lk_data_v(fresh), sizeof(double) * (size_t)nv) == 0;
  }
  LK_ASSERT_MSG(same, "%s: a copy with the kept factor diverged", file);
  lk_data_free(fresh);
  lk_data_free(d);
  lk_model_free(m);
  return same ? agreed : 0;
}

/* 20 steps compared with a fresh solve in each (steps 100 .. 2000), every
 * one refined and agreeing. */
static void test_box_stack(void) { LK_ASSERT_INT_EQ(check_scene("box_stack.yaml", 2050, 0.95), 20); }
static void test_gripper(void) { LK_ASSERT_INT_EQ(check_scene("gripper.yaml", 2050, 0.95), 20); }
static void test_hand(void) { LK_ASSERT_INT_EQ(check_scene("hand3.yaml", 2050, 0.95), 20); }

/* Two islands at rest (tests/data/sim/two_stacks.yaml): each keeps its own
 * factor, so both are answered by the impulses in hand on every step
 * (with one factor between them, each would evict the other's and solve). */
static void test_two_islands(void) {
  lk_load_options o;
  lk_load_options_default(&o);
  lk_error e;
  lk_model *m = lk_model_load_file(lk_test_data("sim/two_stacks.yaml"), &o, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  lk_data *d = lk_data_new(m);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  int both = 0, refined = 0, steps = 2000;
  for (int i = 0; i < steps; i++) {
    CU_ASSERT_EQUAL_FATAL(lk_step(m, d), LK_OK);
    const lk_step_report *r = lk_data_step_report(d);
    if (i == 0) LK_ASSERT_INT_EQ(r->nislands, 2);
    if (i < 50) continue;
    both += r->guess_answers == 2 && r->lcp_solves == 2;
    refined += r->refined_answers;
  }
  printf("  two stacks: both islands answered without a solve on %d of %d steps, %d refined "
         "answers\n",
         both, steps - 50, refined);
  LK_ASSERT_MSG(both >= (steps - 50) * 95 / 100, "only %d of %d steps", both, steps - 50);
  LK_ASSERT_MSG(refined >= steps - 50, "only %d refined answers", refined);
  lk_data_free(d);
  lk_model_free(m);
}

static const lk_test tests[] = {{"a stack of crates at rest", test_box_stack},
                                {"a gripper holding a cube", test_gripper},
                                {"a three-finger hand holding a cylinder", test_hand},
                                {"two stacks: two islands, each its factor", test_two_islands},
                                {NULL, NULL}};

void lk_test_register(void) { lk_test_suite("refine", tests); }
