/* The mass matrix stored per tree of DoFs: the model's tree table, the
 * memory of a data with many free bodies, the block and dense accessors,
 * and lk_dyn_solve_range() against lk_dyn_solve() and against M itself,
 * on random forests (many roots, some welded to the world) with both
 * factorizations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dynamics/dynamics_impl.h"
#include "harness.h"
#include "mech.h"

static const lk_vec3 kGravity = {0, 0, -9.81};

/* A random forest of n links: about one link in three hangs from the world
 * (with any joint type, fixed included, so some roots are welded). */
static lk_model *forest(mech_rng *r, int n, int armature) {
  mech_tree_opts o = {n, 0, 1, 1, armature, kGravity, 0.3};
  lk_model *m = mech_random_tree(r, &o);
  LK_ASSERT_MSG(m != NULL, "random forest of %d links failed to build", n);
  return m;
}

/* The first DoF on the path from DoF k to the world. */
static int root_dof(const lk_model *m, int k) {
  while (m->dof_parent[k] >= 0) k = m->dof_parent[k];
  return k;
}

/* The trees are the components of the dof_parent forest, each a
 * contiguous range that starts at its root DoF, with blocks of n_t^2 one
 * after another; each link's tree is that of the nearest moving link on
 * its path to the world. */
static void test_tree_table_partitions_the_dofs(void) {
  mech_rng r = {123};
  int trees_seen = 0, welded_roots = 0;
  for (int n = 1; n <= 40; n++) {
    lk_model *m = forest(&r, n, 0);
    if (!m) return;
    const int nv = m->nv, nt = m->ntree;
    LK_ASSERT_INT_EQ(m->tree_vadr[0], 0);
    LK_ASSERT_INT_EQ(m->tree_vadr[nt], nv);
    LK_ASSERT_MSG(m->tree_madr[0] == 0, "first block at %zu", m->tree_madr[0]);
    for (int t = 0; t < nt; t++) {
      int v0 = m->tree_vadr[t], v1 = m->tree_vadr[t + 1];
      LK_ASSERT_MSG(v1 > v0, "n %d: tree %d is empty [%d, %d)", n, t, v0, v1);
      LK_ASSERT_MSG(m->tree_madr[t + 1] - m->tree_madr[t] == (size_t)(v1 - v0) * (size_t)(v1 - v0),
                    "n %d: block %d is not %d^2", n, t, v1 - v0);
      for (int k = v0; k < v1; k++) {
        LK_ASSERT_INT_EQ(m->dof_tree[k], t);
        LK_ASSERT_INT_EQ(root_dof(m, k), v0);
        LK_ASSERT_MSG((m->dof_parent[k] < 0) == (k == v0), "n %d: DoF %d", n, k);
      }
    }
    for (int i = 1; i < m->nlink; i++) {
      int a = i;
      while (a > 0 && m->jnv[a] == 0) a = m->parent[a];
      int want = a > 0 ? m->dof_tree[m->vadr[a]] : -1;
      LK_ASSERT_INT_EQ(m->link_tree[i], want);
      if (m->parent[i] == 0 && m->jnv[i] == 0 && m->subtree_end[i] > i + 1) welded_roots++;
    }
    LK_ASSERT_INT_EQ(lk_mass_matrix_nblocks(m), nt);
    trees_seen += nt;
    lk_model_free(m);
  }
  LK_ASSERT_MSG(trees_seen > 200 && welded_roots > 5, "%d trees, %d welded roots: weak sample",
                trees_seen, welded_roots);
}

/* 2000 free bodies: 12000 DoFs, where two dense nv x nv arrays would take
 * 2.3 GB. Per tree it is 2 x 2000 x 36 doubles (1.2 MB), and the whole
 * data stays well under 50 MB; the mass-matrix path still works on it. */
static void test_memory_is_per_tree(void) {
  const int nb = 2000;
  lk_model *m = lk_model_new();
  char name[16];
  for (int i = 0; i < nb; i++) {
    lk_link_spec s;
    lk_link_spec_default(&s);
    snprintf(name, sizeof name, "b%d", i);
    s.name = name;
    s.joint.type = LK_JOINT_FREE;
    s.origin.p = lk_v3(0.3 * (i % 50), 0.3 * (i / 50), 1);
    s.mass = 1;
    s.inertia = lk_inertia_solid_box(1, lk_v3(0.05, 0.1, 0.15));
    LK_ASSERT_OK(lk_model_add_link(m, &s, NULL), (lk_error *)NULL);
  }
  LK_ASSERT_OK(lk_model_finalize(m, NULL), (lk_error *)NULL);
  LK_ASSERT_INT_EQ(lk_model_nv(m), 6 * nb);
  LK_ASSERT_INT_EQ(lk_mass_matrix_nblocks(m), nb);
  lk_data *d = lk_data_new(m);
  LK_ASSERT_MSG(d != NULL, "lk_data_new failed for %d free bodies", nb);
  if (!d) return;
  size_t bytes = lk_data_size(d);
  LK_ASSERT_MSG(bytes < (size_t)50 << 20, "data of %d free bodies takes %zu bytes", nb, bytes);
  mech_rng r = {77};
  mech_random_state(&r, m, d, 1.0);
  mech_random_loads(&r, m, d);
  LK_ASSERT_OK(lk_mass_matrix(m, d), (lk_error *)NULL);
  for (int b = 0; b < nb; b += 397) {
    int first = -1, size = -1;
    const double *B = lk_mass_matrix_block(m, d, b, &first, &size);
    LK_ASSERT_MSG(B != NULL && first == 6 * b && size == 6, "block %d: first %d size %d", b, first,
                  size);
    if (!B) continue;
    /* A free body's (linear, angular) block: m 1 in the linear corner. */
    for (int k = 0; k < 3; k++) LK_ASSERT_NEAR(B[k * 6 + k], 1.0, 1e-12);
  }
  /* ABA and CRBA + the tree factor agree on all 12000 DoFs. */
  int nv = lk_model_nv(m);
  double *qa = malloc(sizeof(double) * (size_t)nv);
  LK_ASSERT_OK(lk_forward_dynamics(m, d, LK_FD_ABA), (lk_error *)NULL);
  memcpy(qa, lk_data_qacc(d), sizeof(double) * (size_t)nv);
  LK_ASSERT_OK(lk_forward_dynamics(m, d, LK_FD_CRBA), (lk_error *)NULL);
  double diff = mech_maxdiff(qa, lk_data_qacc(d), nv), scale = fmax(1.0, mech_maxabs(qa, nv));
  LK_ASSERT_MSG(diff <= 1e-10 * scale, "ABA vs CRBA on %d free bodies: %g", nb, diff);
  LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
  free(qa);
  lk_data_free(d);
  lk_model_free(m);
}

/* The blocks are M's diagonal blocks in DoF order, and the dense expansion
 * is zero between them; both refuse what they cannot answer. */
static void test_block_and_dense_accessors(void) {
  mech_rng r = {9};
  static double M[200 * 200];
  for (int n = 1; n <= 30; n += 2) {
    lk_model *m = forest(&r, n, 1);
    if (!m) return;
    lk_data *d = lk_data_new(m);
    int nv = lk_model_nv(m), nb = lk_mass_matrix_nblocks(m);
    mech_random_state(&r, m, d, 1.0);
    LK_ASSERT_INT_EQ(lk_mass_matrix_dense(m, d, M), LK_INVALID_ARGUMENT); /* no M yet */
    LK_ASSERT_MSG(lk_mass_matrix_block(m, d, 0, NULL, NULL) == NULL, "a block before any M");
    LK_ASSERT_OK(lk_mass_matrix(m, d), (lk_error *)NULL);
    LK_ASSERT_OK(lk_mass_matrix_dense(m, d, M), (lk_error *)NULL);
    if (nv > 0) LK_ASSERT_INT_EQ(lk_mass_matrix_dense(m, d, NULL), LK_INVALID_ARGUMENT);
    LK_ASSERT_MSG(lk_mass_matrix_block(m, d, -1, NULL, NULL) == NULL, "block -1");
    LK_ASSERT_MSG(lk_mass_matrix_block(m, d, nb, NULL, NULL) == NULL, "block %d of %d", nb, nb);
    int next = 0;
    for (int b = 0; b < nb; b++) {
      int first, size;
      const double *B = lk_mass_matrix_block(m, d, b, &first, &size);
      LK_ASSERT_MSG(B != NULL && first == next && size > 0, "n %d block %d: first %d size %d", n,
                    b, first, size);
      if (!B) break;
      next = first + size;
      for (int i = 0; i < nv; i++)
        for (int j = first; j < first + size; j++) {
          int in = i >= first && i < first + size;
          double want = in ? B[(i - first) * size + (j - first)] : 0.0;
          LK_ASSERT_MSG(M[i * nv + j] == want && M[j * nv + i] == want,
                        "n %d: M_%d,%d is %g, block says %g", n, i, j, M[i * nv + j], want);
        }
    }
    LK_ASSERT_INT_EQ(next, nv);
    /* Another model's data. */
    lk_model *m2 = forest(&r, 3, 0);
    lk_data *d2 = lk_data_new(m2);
    LK_ASSERT_INT_EQ(lk_mass_matrix_dense(m, d2, M), LK_INVALID_ARGUMENT);
    LK_ASSERT_MSG(lk_mass_matrix_block(m, d2, 0, NULL, NULL) == NULL, "block of another data");
    lk_data_free(d2);
    lk_model_free(m2);
    lk_data_free(d);
    lk_model_free(m);
  }
  LK_ASSERT_INT_EQ(lk_mass_matrix_nblocks(NULL), 0);
}

/* For every tree, and for runs of consecutive trees, a right-hand side on
 * their DoFs solved by lk_dyn_solve_range() equals the full lk_dyn_solve()
 * of the same vector (which is zero outside those DoFs), leaves every
 * other entry alone (NaN there would spread into the result if it were
 * read), and solves M x = b with M from the dense expansion. Both factor
 * methods; ABA agrees with CRBA + LTDL on the same forests. */
static void test_solve_range_matches_full_solve(void) {
  mech_rng r = {2718};
  static double M[200 * 200], b[200], x1[200], x2[200], qa[200];
  double worst_range = 0, worst_res = 0, worst_fd = 0;
  int ranges = 0;
  for (int n = 2; n <= 40; n++) {
    lk_model *m = forest(&r, n, n % 2);
    if (!m) return;
    lk_data *d = lk_data_new(m);
    const int nv = lk_model_nv(m), nt = m->ntree;
    mech_random_state(&r, m, d, 1.0);
    mech_random_loads(&r, m, d);
    LK_ASSERT_OK(lk_forward_dynamics(m, d, LK_FD_ABA), (lk_error *)NULL);
    memcpy(qa, lk_data_qacc(d), sizeof(double) * (size_t)nv);
    LK_ASSERT_OK(lk_forward_dynamics(m, d, LK_FD_CRBA), (lk_error *)NULL);
    worst_fd = fmax(worst_fd, mech_maxdiff(qa, lk_data_qacc(d), nv) / fmax(1.0, mech_maxabs(qa, nv)));
    LK_ASSERT_OK(lk_mass_matrix(m, d), (lk_error *)NULL);
    LK_ASSERT_OK(lk_mass_matrix_dense(m, d, M), (lk_error *)NULL);
    double mscale = fmax(1.0, mech_maxabs(M, nv * nv));
    for (int how = 0; how < 2; how++) {
      LK_ASSERT_OK(lk_mass_factor(m, d, how ? LK_FACTOR_DENSE : LK_FACTOR_TREE), (lk_error *)NULL);
      for (int t0 = 0; t0 < nt; t0++)
        for (int t1 = t0 + 1; t1 <= nt && t1 <= t0 + 3; t1++) {
          const int v0 = m->tree_vadr[t0], v1 = m->tree_vadr[t1];
          for (int k = 0; k < nv; k++) {
            b[k] = k >= v0 && k < v1 ? mech_uniform(&r, -1, 1) : 0.0;
            x1[k] = b[k];
            x2[k] = k >= v0 && k < v1 ? b[k] : NAN;
          }
          lk_dyn_solve(m, d, x1, 1);
          lk_dyn_solve_range(m, d, x2, v0, v1);
          for (int k = 0; k < nv; k++) {
            if (k >= v0 && k < v1) {
              double e = fabs(x1[k] - x2[k]);
              worst_range = fmax(worst_range, isnan(e) ? INFINITY : e);
            } else {
              LK_ASSERT_MSG(isnan(x2[k]), "n %d: entry %d outside [%d, %d) written", n, k, v0, v1);
              LK_ASSERT_MSG(x1[k] == 0, "n %d: full solve non-zero (%g) outside the trees", n,
                            x1[k]);
            }
          }
          double xs = fmax(1.0, mech_maxabs(x1, nv));
          for (int i = v0; i < v1; i++) {
            double s = -b[i];
            for (int j = v0; j < v1; j++) s += M[i * nv + j] * x2[j];
            worst_res = fmax(worst_res, fabs(s) / (mscale * xs));
          }
          ranges++;
        }
      /* The empty range does nothing. */
      for (int k = 0; k < nv; k++) x2[k] = NAN;
      lk_dyn_solve_range(m, d, x2, nv, nv);
      for (int k = 0; k < nv; k++) LK_ASSERT_MSG(isnan(x2[k]), "empty range wrote entry %d", k);
    }
    lk_data_free(d);
    lk_model_free(m);
  }
  LK_ASSERT_MSG(ranges > 300, "only %d ranges solved", ranges);
  LK_ASSERT_MSG(worst_range <= 1e-14, "solve_range vs solve: worst %g", worst_range);
  LK_ASSERT_MSG(worst_res <= 1e-12, "|M x - b| / (|M| |x|) after solve_range: worst %g", worst_res);
  LK_ASSERT_MSG(worst_fd <= 1e-9, "ABA vs CRBA+LTDL on forests: worst relative %g", worst_fd);
}

/* lk_dyn_solve_block() on nr right-hand sides side by side gives each
 * column as lk_dyn_solve_range() does, bit for bit (the same sums in the
 * same order), with both factors: columns as a contact row's J is (zero
 * beyond some DoF, and zero elsewhere at random), 1 to 33 of them, told
 * where the last of them ends or not. */
static void test_solve_block_is_the_columns_solves(void) {
  mech_rng r = {1618};
  static double X[200 * 40], x[200];
  double acc[4 * 40];
  int blocks = 0, differ = 0;
  for (int n = 2; n <= 40; n += 3) {
    lk_model *m = forest(&r, n, n % 2);
    if (!m) return;
    lk_data *d = lk_data_new(m);
    const int nt = m->ntree;
    mech_random_state(&r, m, d, 1.0);
    LK_ASSERT_OK(lk_mass_matrix(m, d), (lk_error *)NULL);
    for (int how = 0; how < 2; how++) {
      LK_ASSERT_OK(lk_mass_factor(m, d, how ? LK_FACTOR_DENSE : LK_FACTOR_TREE), (lk_error *)NULL);
      for (int t = 0; t < nt; t++) {
        const int v0 = m->tree_vadr[t], v1 = m->tree_vadr[t + 1], len = v1 - v0;
        const int nr = 1 + (int)mech_uniform(&r, 0, 33);
        int end = v0 - 1; /* the columns' last non-zero, told to the block */
        for (int c = 0; c < nr; c++) {
          int last = v0 + (int)mech_uniform(&r, 0, len);
          if (last > end) end = last;
          for (int i = 0; i < len; i++)
            X[i * nr + c] = v0 + i <= last && mech_uniform(&r, 0, 1) < 0.8 ? mech_uniform(&r, -1, 1)
                                                                            : 0.0;
        }
        double Y[200 * 40];
        memcpy(Y, X, sizeof(double) * (size_t)(len * nr));
        lk_dyn_solve_block(m, d, Y, nr, v0, v1, t % 2 ? end : v1 - 1, acc);
        for (int c = 0; c < nr; c++) {
          for (int i = 0; i < len; i++) x[v0 + i] = X[i * nr + c];
          lk_dyn_solve_range(m, d, x, v0, v1);
          for (int i = 0; i < len; i++)
            if (memcmp(&x[v0 + i], &Y[i * nr + c], sizeof(double)) != 0 &&
                !(x[v0 + i] == 0 && Y[i * nr + c] == 0))
              differ++;
        }
        blocks++;
      }
    }
    lk_data_free(d);
    lk_model_free(m);
  }
  LK_ASSERT_MSG(blocks > 100, "only %d blocks solved", blocks);
  LK_ASSERT_MSG(differ == 0, "%d entries differ from the column's own solve", differ);
}

/* lk_dyn_inverse_range() of every tree small enough is M^-1 of its block:
 * M X = I to rounding, exactly symmetric, and equal to the columns the
 * factor's solves give; with both factors (the dense one by those
 * solves). */
static void test_inverse_range_is_the_block_inverse(void) {
  mech_rng r = {1618};
  static double M[200 * 200], X[LK_DYN_INVERSE_MAX * LK_DYN_INVERSE_MAX], x[200];
  double worst_id = 0, worst_sol = 0;
  int blocks = 0, asym = 0;
  for (int n = 2; n <= 40; n++) {
    lk_model *m = forest(&r, n, n % 2);
    if (!m) return;
    lk_data *d = lk_data_new(m);
    const int nv = lk_model_nv(m), nt = m->ntree;
    mech_random_state(&r, m, d, 1.0);
    LK_ASSERT_OK(lk_mass_matrix(m, d), (lk_error *)NULL);
    LK_ASSERT_OK(lk_mass_matrix_dense(m, d, M), (lk_error *)NULL);
    for (int how = 0; how < 2; how++) {
      LK_ASSERT_OK(lk_mass_factor(m, d, how ? LK_FACTOR_DENSE : LK_FACTOR_TREE), (lk_error *)NULL);
      for (int t = 0; t < nt; t++) {
        const int v0 = m->tree_vadr[t], len = m->tree_vadr[t + 1] - v0;
        if (len > LK_DYN_INVERSE_MAX) continue;
        lk_dyn_inverse_range(m, d, v0, len, X);
        for (int i = 0; i < len; i++)
          for (int j = 0; j < len; j++) {
            double s = i == j ? -1.0 : 0.0;
            for (int k = 0; k < len; k++) s += M[(v0 + i) * nv + v0 + k] * X[k * len + j];
            worst_id = fmax(worst_id, fabs(s));
            if (X[i * len + j] != X[j * len + i]) asym++;
          }
        double xs = fmax(1.0, mech_maxabs(X, len * len));
        for (int c = 0; c < len; c++) {
          for (int k = 0; k < nv; k++) x[k] = k == v0 + c ? 1.0 : 0.0;
          lk_dyn_solve_range(m, d, x, v0, v0 + len);
          for (int i = 0; i < len; i++)
            worst_sol = fmax(worst_sol, fabs(x[v0 + i] - X[i * len + c]) / xs);
        }
        blocks++;
      }
    }
    lk_data_free(d);
    lk_model_free(m);
  }
  LK_ASSERT_MSG(blocks > 100, "only %d blocks inverted", blocks);
  LK_ASSERT_MSG(asym == 0, "%d entries of the inverses are not exactly symmetric", asym);
  LK_ASSERT_MSG(worst_id <= 1e-10, "|M X - I|: worst %g", worst_id);
  LK_ASSERT_MSG(worst_sol <= 1e-12, "inverse vs the factor's solves: worst relative %g", worst_sol);
}

static const lk_test tests[] = {
    {"trees of DoFs partition the DoFs into contiguous blocks", test_tree_table_partitions_the_dofs},
    {"M is stored per tree: 2000 free bodies in well under 50 MB", test_memory_is_per_tree},
    {"block and dense accessors of M agree and refuse bad arguments",
     test_block_and_dense_accessors},
    {"lk_dyn_solve_range matches lk_dyn_solve on random forests, both factors",
     test_solve_range_matches_full_solve},
    {"lk_dyn_solve_block gives each column as lk_dyn_solve_range, bit for bit",
     test_solve_block_is_the_columns_solves},
    {"lk_dyn_inverse_range is the inverse of each small tree's block, both factors",
     test_inverse_range_is_the_block_inverse},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("mass matrix blocks", tests); }
