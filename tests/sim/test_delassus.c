/* The Delassus matrix of an island, A = J M~^-1 J^T, as the step assembles
 * it (tree by tree, the products of each tree's bucket of row segments in
 * blocks): every entry equals the plain sum over the trees two rows share
 * (lk_sim_delassus_entry), and A is symmetric to the bit, which the LCP's
 * fast path relies on. Checked on the rows the step built for the shipped
 * scenes, in the step's order and interleaved (rows of different trees
 * alternating, so no bucket is consecutive), and on every prefix length
 * (odd bucket sizes, partial blocks). The compressed-row assembly of large
 * islands (sparse.c) equals it to 1e-14 with exactly its nonzero pattern
 * (issue 20). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"
#include "mechanism.h"
#include "sim/sim_data.h"
#include "sim/sim_internal.h"

static lk_model *load(const char *name) { return test_mechanism(name, NULL, 0); }

/* A of rows[0..n) against the entry-by-entry sums: equal to 1e-14 of the
 * diagonal scale (the two sum the trees' products in different groupings),
 * and A[i][j] == A[j][i] bit for bit. */
static int compare(const lk_model *m, lk_data *d, const int *rows, int n, double *A) {
  lk_sim_delassus_island(m, d, rows, n, A);
  int bad = 0, asym = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double want = lk_sim_delassus_entry(d, rows[i], rows[j]);
      double scale = sqrt(fabs(lk_sim_delassus_entry(d, rows[i], rows[i]) *
                               lk_sim_delassus_entry(d, rows[j], rows[j])));
      if (!(fabs(A[i * n + j] - want) <= 1e-14 * scale + 1e-300)) bad++;
      if (memcmp(&A[i * n + j], &A[j * n + i], sizeof(double)) != 0) asym++;
    }
  CU_ASSERT_EQUAL(bad, 0);
  CU_ASSERT_EQUAL(asym, 0);
  return bad == 0 && asym == 0;
}

/* The compressed-row A of rows[0..n) (sparse.c, for islands beyond the
 * dense size) against the dense one: every entry the dense A has beyond
 * 1e-300 is stored, every stored entry equals it to 1e-14 of the diagonal
 * scale, nothing else is stored, columns strictly increase, and the
 * stored matrix is symmetric bit for bit (each entry is J of the lower row
 * by Y of the higher, as the dense assembly sums it). */
static int compare_sparse(const lk_model *m, lk_data *d, const int *rows, int n, double *A) {
  lk_sim_sparse *sp = d->sim.sparse;
  CU_ASSERT_PTR_NOT_NULL_FATAL(sp);
  lk_sim_delassus_island(m, d, rows, n, A);
  CU_ASSERT_EQUAL_FATAL(lk_sim_delassus_csr(m, d, rows, n, sp), LK_OK);
  int bad = 0, missing = 0, asym = 0, order = 0;
  size_t stored = 0;
  for (int i = 0; i < n; i++) {
    for (int e = sp->rowp[i]; e < sp->rowp[i + 1]; e++) {
      int j = sp->col[e];
      if (e > sp->rowp[i] && j <= sp->col[e - 1]) order++;
      double scale = sqrt(fabs(A[i * n + i] * A[j * n + j]));
      if (!(fabs(sp->val[e] - A[i * n + j]) <= 1e-14 * scale + 1e-300)) bad++;
      /* the mirror entry, found in row j */
      int found = 0;
      for (int f = sp->rowp[j]; f < sp->rowp[j + 1]; f++)
        if (sp->col[f] == i) found = memcmp(&sp->val[f], &sp->val[e], sizeof(double)) == 0 ? 1 : -1;
      if (found != 1) asym++;
      stored++;
    }
    for (int j = 0; j < n; j++) {
      if (!(fabs(A[i * n + j]) > 1e-300)) continue;
      int found = 0;
      for (int e = sp->rowp[i]; e < sp->rowp[i + 1]; e++) found |= sp->col[e] == j;
      if (!found) missing++;
    }
  }
  CU_ASSERT_EQUAL(bad, 0);
  CU_ASSERT_EQUAL(missing, 0);
  CU_ASSERT_EQUAL(asym, 0);
  CU_ASSERT_EQUAL(order, 0);
  CU_ASSERT_EQUAL(stored, sp->nnz);
  return bad == 0 && missing == 0 && asym == 0 && order == 0 && stored == sp->nnz;
}

/* Steps the scene, then compares A for the last step's rows (Y formed for
 * all of them) as one list: whole, by prefixes, and interleaved. Returns
 * the lists that agreed (of the n + 2 compared). */
static int check_scene(const char *file, double seconds, int min_rows) {
  lk_model *m = load(file);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  lk_data *d = lk_data_new(m);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  int steps = (int)(seconds / lk_model_options(m)->timestep + 0.5);
  for (int s = 0; s < steps; s++) CU_ASSERT_EQUAL_FATAL(lk_step(m, d), LK_OK);
  lk_sim_data *sd = &d->sim;
  int n = sd->st->nrow;
  if (n < min_rows) fprintf(stderr, "%s: %d rows\n", file, n);
  CU_ASSERT(n >= min_rows);
  lk_sim_prepare_rows(m, d);
  lk_sim_rows_y(m, d, NULL, n);
  int agreed = 0;
  int *rows = malloc(sizeof *rows * (size_t)(n > 0 ? n : 1));
  double *A = malloc(sizeof *A * (size_t)(n > 0 ? n * n : 1));
  CU_ASSERT_PTR_NOT_NULL_FATAL(rows);
  CU_ASSERT_PTR_NOT_NULL_FATAL(A);
  for (int len = 1; len <= n; len++) {
    for (int i = 0; i < len; i++) rows[i] = i;
    agreed += compare(m, d, rows, len, A);
  }
  /* interleaved: even rows then odd rows, then from both ends inwards */
  int k = 0;
  for (int i = 0; i < n; i += 2) rows[k++] = i;
  for (int i = 1; i < n; i += 2) rows[k++] = i;
  agreed += compare(m, d, rows, n, A);
  for (int i = 0; i < n; i++) rows[i] = i % 2 ? n - 1 - i / 2 : i / 2;
  agreed += compare(m, d, rows, n, A);
  CU_ASSERT_EQUAL(agreed, n + 2); /* every list above was compared and agreed */
  /* the sparse assembly on the same lists: whole, interleaved, reversed */
  int sparse_ok = 0;
  for (int i = 0; i < n; i++) rows[i] = i;
  sparse_ok += compare_sparse(m, d, rows, n, A);
  k = 0;
  for (int i = 0; i < n; i += 2) rows[k++] = i;
  for (int i = 1; i < n; i += 2) rows[k++] = i;
  sparse_ok += compare_sparse(m, d, rows, n, A);
  for (int i = 0; i < n; i++) rows[i] = n - 1 - i;
  sparse_ok += compare_sparse(m, d, rows, n, A);
  CU_ASSERT_EQUAL(sparse_ok, 3);
  free(rows);
  free(A);
  lk_data_free(d);
  lk_model_free(m);
  return agreed;
}

/* Each scene: at least its minimum rows + 2 lists agree (whole, by
 * prefixes, interleaved). Free bodies stacked: buckets of 12 and 24
 * segments of 6 DoFs. */
static void test_box_stack(void) { LK_ASSERT_MSG(check_scene("box_stack.yaml", 0.05, 24) >= 26, "lists"); }

/* A gripper's fingers (short trees) against a free box. */
static void test_gripper(void) { LK_ASSERT_MSG(check_scene("gripper.yaml", 0.3, 12) >= 14, "lists"); }

/* A rover: a free chassis with wheels, one tree longer than the small
 * trees' explicit inverse and the blocked product take. */
static void test_rover(void) { LK_ASSERT_MSG(check_scene("rover.yaml", 0.2, 12) >= 14, "lists"); }

/* A three-finger hand holding a cylinder: two-DoF fingers. */
static void test_hand(void) { LK_ASSERT_MSG(check_scene("hand3.yaml", 0.3, 6) >= 8, "lists"); }

/* A four-bar linkage: loop-closure rows, all on one tree. */
static void test_four_bar(void) { LK_ASSERT_MSG(check_scene("four_bar.yaml", 0.05, 2) >= 4, "lists"); }

static const lk_test tests[] = {{"box stack", test_box_stack},
                                {"gripper", test_gripper},
                                {"rover", test_rover},
                                {"three-finger hand", test_hand},
                                {"four-bar", test_four_bar},
                                {NULL, NULL}};

void lk_test_register(void) { lk_test_suite("delassus", tests); }
