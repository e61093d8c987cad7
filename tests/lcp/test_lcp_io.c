/* LCP files (YAML and Siconos' format), the residual, and the updatable
 * L D L^T factorization Dantzig's method keeps. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "lcp/lcp_internal.h"
#include "lcp_gen.h"
#include "lcp_test.h"
#include "linkage/linkage.h"

static lk_status parse(const char *text, lk_lcp_problem **p, lk_error *e) {
  lk_error_clear(e);
  return lk_lcp_problem_parse_yaml(text, strlen(text), "t.yaml", p, e);
}

static void test_yaml_files(void) {
  lk_lcp_problem *prob;
  lk_error e, *ep = &e;
  LK_ASSERT_OK(lk_lcp_problem_load(lk_test_data("lcp/murty_ex2_8.yaml"), &prob, &e), ep);
  const lk_lcp *p = lk_lcp_problem_lcp(prob);
  LK_ASSERT_INT_EQ(p->n, 4);
  LK_ASSERT_NEAR(p->M[0 * 4 + 1], -1, 0);
  LK_ASSERT_NEAR(p->M[2 * 4 + 2], 2, 0);
  LK_ASSERT_NEAR(p->q[2], -9, 0);
  LK_ASSERT_MSG(p->lo == NULL && p->hi == NULL && p->findex == NULL, "optional arrays present");
  CU_ASSERT_STRING_EQUAL(lk_lcp_problem_name(prob), "Murty example 2.8");
  lk_lcp_problem_free(prob);

  LK_ASSERT_OK(lk_lcp_problem_load(lk_test_data("lcp/friction.yaml"), &prob, &e), ep);
  p = lk_lcp_problem_lcp(prob);
  LK_ASSERT_INT_EQ(p->n, 3);
  LK_ASSERT_MSG(p->lo && p->hi && p->findex && p->mu, "bounds missing");
  LK_ASSERT_MSG(p->lo[1] == -INFINITY && p->hi[0] == INFINITY, "infinities not read");
  LK_ASSERT_INT_EQ(p->findex[2], 0);
  LK_ASSERT_NEAR(p->mu[1], 0.5, 0);
  lk_lcp_problem_free(prob);
  lk_lcp_problem_free(NULL);
}

typedef struct {
  const char *text;
  lk_status status;
  int line, column;
  const char *words; /* must appear in the message */
} bad_case;

static const bad_case kBad[] = {
    {"M: [[1, 2], [3, 4]\nq: [1, 2]\n", LK_PARSE_ERROR, 2, 1, "flow sequence"},
    {"M: [[1]]\nq: [1]\nqq: [2]\n", LK_SCHEMA_ERROR, 3, 1, "unknown key 'qq'"},
    {"M:\n  - [2, 1]\n  - [1, 2, 3]\nq: [-1, -1]\n", LK_SCHEMA_ERROR, 3, 5, "'M[1]' must be a sequence of 2 numbers"},
    {"M: [[1, x], [0, 1]]\nq: [1, 2]\n", LK_SCHEMA_ERROR, 1, 9, "M[0][1]"},
    {"M: [[\"1\"]]\nq: [1]\n", LK_SCHEMA_ERROR, 1, 6, "quoted"},
    {"M: [[1]]\nq: [.nan]\n", LK_SCHEMA_ERROR, 2, 5, "q[0]"},
    {"M: [[1]]\nq: [.inf]\n", LK_SCHEMA_ERROR, 2, 5, "finite"},
    {"M: [[1]]\nq: [1]\nlo: [2]\nhi: [1]\n", LK_SCHEMA_ERROR, 3, 6, "no value satisfies"},
    {"M: [[1, 0], [0, 1]]\nq: [1, 1]\nfindex: [-1, 7]\nmu: [0, 1]\n", LK_SCHEMA_ERROR, 3, 14, "findex[1] = 7"},
    {"M: [[1, 0], [0, 1]]\nq: [1, 1]\nfindex: [-1, 0]\nmu: [0, -1]\n", LK_SCHEMA_ERROR, 4, 9, "negative"},
    {"M: [[1, 0], [0, 1]]\nq: [1, 1]\nfindex: [-1, 0]\n", LK_SCHEMA_ERROR, 3, 9, "needs 'mu'"},
    {"M: [[1]]\n", LK_SCHEMA_ERROR, 1, 1, "missing key 'q'"},
    {"q: [1]\n", LK_SCHEMA_ERROR, 1, 1, "missing key 'M'"},
    {"", LK_SCHEMA_ERROR, 1, 1, "empty document"},
    {"- 1\n- 2\n", LK_SCHEMA_ERROR, 1, 1, "mapping"},
    {"M: [[1]]\nq: [1]\nq: [2]\n", LK_SCHEMA_ERROR, 3, 1, "duplicate key 'q'"},
    {"M: [[1], [2]]\nq: [1]\n", LK_SCHEMA_ERROR, 1, 4, "1 rows"},
    {"M: [[1]]\nq: 3\n", LK_SCHEMA_ERROR, 2, 4, "'q' must be"},
    {"M: [[1]]\nq: [1]\nlo: [a]\n", LK_SCHEMA_ERROR, 3, 6, "lo[0]"},
};

static void test_yaml_errors_point_at_the_node(void) {
  int n = (int)(sizeof kBad / sizeof kBad[0]);
  for (int k = 0; k < n; k++) {
    lk_lcp_problem *p = (lk_lcp_problem *)1;
    lk_error e;
    lk_status s = parse(kBad[k].text, &p, &e);
    LK_ASSERT_MSG(s == kBad[k].status, "case %d: %s, expected %s (%s)", k, lk_status_name(s),
                  lk_status_name(kBad[k].status), e.message);
    LK_ASSERT_MSG(p == NULL, "case %d: output not cleared", k);
    LK_ASSERT_MSG(e.line == kBad[k].line && e.column == kBad[k].column, "case %d: at %d:%d, expected %d:%d (%s)",
                  k, e.line, e.column, kBad[k].line, kBad[k].column, e.message);
    LK_ASSERT_MSG(strstr(e.message, kBad[k].words) != NULL, "case %d: message '%s' lacks '%s'", k,
                  e.message, kBad[k].words);
    CU_ASSERT_STRING_EQUAL(e.path, "t.yaml");
  }
  /* Files too: the path is in the error. */
  lk_lcp_problem *p;
  lk_error e;
  LK_ASSERT_INT_EQ(lk_lcp_problem_load(lk_test_data("lcp/bad_row.yaml"), &p, &e), LK_SCHEMA_ERROR);
  LK_ASSERT_MSG(strstr(e.path, "bad_row.yaml") && e.line == 3 && e.column == 5, "at %s:%d:%d", e.path,
                e.line, e.column);
  LK_ASSERT_INT_EQ(lk_lcp_problem_load(lk_test_data("lcp/no_such_file.yaml"), &p, &e), LK_IO_ERROR);
  LK_ASSERT_MSG(strstr(e.path, "no_such_file.yaml") != NULL, "path missing: %s", e.path);
}

static void test_siconos_format(void) {
  lk_lcp_problem *prob;
  lk_error e, *ep = &e;
  /* Column-major: the first line of numbers is the first column. */
  const char *text = "2\n0\n2\n2\n2\t2\n1 3\n2 4\n-1 -2\n\nsome remark 1e5\n";
  LK_ASSERT_OK(lk_lcp_problem_parse_siconos(text, strlen(text), "x.dat", &prob, &e), ep);
  const lk_lcp *p = lk_lcp_problem_lcp(prob);
  LK_ASSERT_INT_EQ(p->n, 2);
  LK_ASSERT_NEAR(p->M[0 * 2 + 1], 2, 0); /* row 0, column 1 */
  LK_ASSERT_NEAR(p->M[1 * 2 + 0], 3, 0);
  LK_ASSERT_NEAR(p->q[1], -2, 0);
  lk_lcp_problem_free(prob);
  LK_ASSERT_INT_EQ(lk_lcp_problem_load(lk_test_data("lcp/bad_storage.dat"), &prob, &e), LK_SCHEMA_ERROR);
  LK_ASSERT_MSG(e.line == 2 && e.column == 1 && strstr(e.message, "storage type 5"), "%d:%d %s", e.line, e.column,
                e.message);
  const char *trunc = "2\n0\n2\n2\n2 2\n1 0\n0 1\n-1\n";
  LK_ASSERT_INT_EQ(lk_lcp_problem_parse_siconos(trunc, strlen(trunc), "x.dat", &prob, &e), LK_PARSE_ERROR);
  LK_ASSERT_MSG(strstr(e.message, "end of file") && e.line == 9, "%d:%d %s", e.line, e.column, e.message);
  const char *bad = "2\n0\n2\n2\n2 2\n1 0\n0 zz\n-1 -1\n";
  LK_ASSERT_INT_EQ(lk_lcp_problem_parse_siconos(bad, strlen(bad), "x.dat", &prob, &e), LK_PARSE_ERROR);
  LK_ASSERT_MSG(e.line == 7 && e.column == 3 && strstr(e.message, "'zz'"), "%d:%d %s", e.line, e.column,
                e.message);
  const char *huge = "100000000\n0\n";
  LK_ASSERT_INT_EQ(lk_lcp_problem_parse_siconos(huge, strlen(huge), "x.dat", &prob, &e), LK_SCHEMA_ERROR);
  const char *nonsq = "2\n0\n2\n3\n2 2\n";
  LK_ASSERT_INT_EQ(lk_lcp_problem_parse_siconos(nonsq, strlen(nonsq), "x.dat", &prob, &e), LK_SCHEMA_ERROR);
  LK_ASSERT_MSG(e.line == 4, "line %d", e.line);
}

/* A Siconos problem file, loaded. */
static lk_lcp_problem *load(const char *rel) {
  lk_lcp_problem *p = NULL;
  lk_error e;
  lk_status s = lk_lcp_problem_load(lk_test_data(rel), &p, &e);
  LK_ASSERT_MSG(s == LK_OK, "%s: %s", rel, e.message);
  return p;
}

/* max |A_ij - B_ij| / max |A_ij| over the two problems' matrices. */
static double matrix_gap(const lk_lcp *a, const lk_lcp *b) {
  int n = a->n;
  double *A = calloc((size_t)n * n, sizeof *A), *B = calloc((size_t)n * n, sizeof *B);
  lk_lcp_densify(a, A, n);
  lk_lcp_densify(b, B, n);
  double d = 0, m = 0;
  for (int i = 0; i < n * n; i++) {
    d = fmax(d, fabs(A[i] - B[i]));
    m = fmax(m, fabs(A[i]));
  }
  free(A);
  free(B);
  return m > 0 ? d / m : d;
}

/* The same problems in Siconos' three storages (dense, sparse block,
 * sparse written by Siconos' own writer) read alike; friction-contact
 * files give their contacts' rows, mu and circle pairs. */
static void test_siconos_storages(void) {
  static const struct {
    const char *a, *b;
    double tol; /* the sparse writer prints 6 digits */
  } same[] = {
      {"lcp/siconos/lcp_deudeu.dat", "lcp/siconos-sparse/lcp_deudeu_block.dat", 0},
      {"lcp/siconos/lcp_ortiz.dat", "lcp/siconos-sparse/lcp_ortiz_block.dat", 0},
      {"lcp/siconos/lcp_trivial.dat", "lcp/siconos-sparse/lcp_trivial_block.dat", 0},
      {"lcp/siconos/lcp_ortiz.dat", "lcp/siconos-sparse/lcp_ortiz_sparse_csc.dat", 0},
      {"lcp/siconos/lcp_ortiz.dat", "lcp/siconos-sparse/lcp_ortiz_sparse_triplet.dat", 0},
      {"lcp/siconos-fc/FC3D_Example1.dat", "lcp/siconos-fc/FC3D_Example1_SBM.dat", 0},
      {"lcp/siconos-fc/FC3D_Example1.dat", "lcp/siconos-fc/FC3D_Example1-sparse-triplet.dat", 0},
      {"lcp/siconos-fc/Confeti-ex13-4contact-Fc3D-SBM.dat",
       "lcp/siconos-fc/Confeti-ex13-4contact-sparse-csc.dat", 1e-5},
  };
  for (size_t k = 0; k < sizeof same / sizeof *same; k++) {
    lk_lcp_problem *pa = load(same[k].a), *pb = load(same[k].b);
    if (!pa || !pb) continue;
    const lk_lcp *a = lk_lcp_problem_lcp(pa), *b = lk_lcp_problem_lcp(pb);
    LK_ASSERT_INT_EQ(a->n, b->n);
    LK_ASSERT_MSG(b->csr.row != NULL, "%s is read as compressed rows", same[k].b);
    LK_ASSERT_MSG(matrix_gap(a, b) <= same[k].tol, "%s: M differs by %g", same[k].b, matrix_gap(a, b));
    for (int i = 0; i < a->n; i++) LK_ASSERT_NEAR(a->q[i], b->q[i], 0);
    int da, db;
    LK_ASSERT_INT_EQ(lk_lcp_problem_contacts(pa, &da), lk_lcp_problem_contacts(pb, &db));
    LK_ASSERT_INT_EQ(da, db);
    lk_lcp_problem_free(pa);
    lk_lcp_problem_free(pb);
  }
  /* a friction-contact file: 3 rows a contact, normal first */
  lk_lcp_problem *pf = load("lcp/siconos-fc/Confeti-ex13-4contact-Fc3D-SBM.dat");
  if (!pf) return;
  int d, nc = lk_lcp_problem_contacts(pf, &d);
  const lk_lcp *p = lk_lcp_problem_lcp(pf);
  LK_ASSERT_INT_EQ(nc, 4);
  LK_ASSERT_INT_EQ(d, 3);
  LK_ASSERT_INT_EQ(p->n, 12);
  for (int c = 0; c < nc; c++) {
    LK_ASSERT_INT_EQ(p->findex[3 * c], -1);
    LK_ASSERT_INT_EQ(p->findex[3 * c + 1], 3 * c);
    LK_ASSERT_INT_EQ(p->findex[3 * c + 2], 3 * c);
    LK_ASSERT_INT_EQ(p->cone[3 * c + 1], 3 * c + 2);
    LK_ASSERT_INT_EQ(p->cone[3 * c + 2], 3 * c + 1);
    LK_ASSERT_NEAR(p->mu[3 * c + 1], p->mu[3 * c + 2], 0);
  }
  LK_ASSERT_OK(lk_lcp_check(p, NULL), lk_no_error);
  lk_lcp_problem_free(pf);
}

/* Siconos files with errors: each at its line and column, never a crash. */
static void test_siconos_errors(void) {
  static const struct {
    const char *text;
    int line;
    const char *words;
  } bad[] = {
      /* sparse block: the block's number is not the next */
      {"2\n1\n2\n2\n1\n1\n1\n2\n2\n2\n1\n0 1\n0\n5\n2 1 1 2\n-5 -6\n", 14, "block number"},
      /* sparse block: block rows that do not add up */
      {"2\n1\n2\n2\n1\n1\n1\n3\n2\n2\n1\n0 1\n0\n0\n2 1 1 2\n-5 -6\n", 8, "add up"},
      /* sparse block cut short */
      {"2\n1\n2\n2\n1\n1\n1\n2\n2\n2\n1\n0 1\n0\n0\n2 1\n", 16, "end of file"},
      /* sparse: the half-triplet form is not Siconos' file form */
      {"2\n2\n2\n2\n4\nCSparse\n", 5, "half triplet"},
      /* sparse: an index outside the matrix */
      {"2\n2\n2\n2\n1\nCSparse v\ntriplet: 2-by-2, nzmax: 2 nnz: 2\n 0 0 : 1\n 5 1 : 1\n-1 -1\n", 9,
       "outside"},
      /* friction contact: a negative mu */
      {"3\n1\n0\n3\n3\n3 3\n1 0 0\n0 1 0\n0 0 1\n-1 0 0\n-0.5\n", 11, "negative"},
      /* more rows than the file could hold */
      {"3\n100000\n0\n300000\n300000\n", 2, "too short"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
    lk_lcp_problem *p = NULL;
    lk_error e;
    lk_status s = lk_lcp_problem_parse_siconos(bad[k].text, strlen(bad[k].text), "x.dat", &p, &e);
    LK_ASSERT_MSG(s == LK_PARSE_ERROR || s == LK_SCHEMA_ERROR, "case %zu: %s", k, lk_status_name(s));
    LK_ASSERT_MSG(p == NULL, "case %zu: a problem came back", k);
    LK_ASSERT_MSG(e.line == bad[k].line && strstr(e.message, bad[k].words), "case %zu: %d:%d %s", k,
                  e.line, e.column, e.message);
  }
}

/* The limits of every problem file (issue 18.14): a device that never
 * ends, a file past the size limit, YAML aliases that would multiply M,
 * all refused at once. */
static void test_file_limits(void) {
  lk_lcp_problem *p = NULL;
  lk_error e;
  /* a device is refused before a byte is read (it used to be read up to
   * the 16 MiB limit) */
  LK_ASSERT_INT_EQ(lk_lcp_problem_load("/dev/zero", &p, &e), LK_IO_ERROR);
  LK_ASSERT_MSG(strstr(e.message, "a device") != NULL, "%s", e.message);
  LK_ASSERT_INT_EQ(lk_lcp_problem_load("/dev/null", &p, &e), LK_IO_ERROR);
  LK_ASSERT_MSG(strstr(e.message, "a device") != NULL, "%s", e.message);
  const char *dir = getenv("LK_TOP_BUILDDIR");
  LK_ASSERT_INT_EQ(lk_lcp_problem_load(dir && *dir ? dir : ".", &p, &e), LK_IO_ERROR);
  LK_ASSERT_MSG(strstr(e.message, "a directory") != NULL, "%s", e.message);
  /* a regular file past the limit, by its size: a sparse file of 17 MiB */
  char big[] = "/tmp/lk-lcp-big-XXXXXX";
  int fd = mkstemp(big);
  LK_ASSERT_MSG(fd >= 0 && ftruncate(fd, (off_t)LK_LCP_FILE_MAX_BYTES + 1) == 0, "%s", "temp file");
  if (fd >= 0) close(fd);
  LK_ASSERT_INT_EQ(lk_lcp_problem_load(big, &p, &e), LK_IO_ERROR);
  LK_ASSERT_MSG(strstr(e.message, "larger than the limit") != NULL, "%s", e.message);
  unlink(big);
  /* Flow collections nested 100 000 deep (200 KB): libyaml's scanner is
   * quadratic in the depth (a minute to reject); refused at depth 9. */
  {
    enum { D = 100000 };
    char *t = malloc(2 * D + 32);
    size_t len = 0;
    len += (size_t)sprintf(t, "M: ");
    for (int i = 0; i < D; i++) t[len++] = '[';
    for (int i = 0; i < D; i++) t[len++] = ']';
    len += (size_t)sprintf(t + len, "\nq: [1]\n");
    LK_ASSERT_INT_EQ(lk_lcp_problem_parse_yaml(t, len, "deep.yaml", &p, &e), LK_SCHEMA_ERROR);
    LK_ASSERT_MSG(strstr(e.message, "nested more than 8") != NULL && e.line == 1 && e.column == 11,
                  "%d:%d %s", e.line, e.column, e.message);
    free(t);
    /* the deepest a problem goes (3) is fine, and so is 8 */
    const char *ok = "M: [[2]]\nq: [-1]\nname: {a: {b: {c: {d: {e: {f: x}}}}}}\n";
    LK_ASSERT_INT_EQ(lk_lcp_problem_parse_yaml(ok, strlen(ok), "ok.yaml", &p, &e), LK_SCHEMA_ERROR);
    LK_ASSERT_MSG(strstr(e.message, "'name' must be a string") != NULL, "%s", e.message);
  }
  /* 2000 rows of M, each an alias of the first: 24 KB of text for 4e6
   * entries */
  enum { N = 2000 };
  size_t cap = 64 * N + 64, len = 0;
  char *t = malloc(cap);
  len += (size_t)snprintf(t + len, cap - len, "M: [&r [");
  for (int j = 0; j < N; j++) len += (size_t)snprintf(t + len, cap - len, "%s1", j ? "," : "");
  len += (size_t)snprintf(t + len, cap - len, "]");
  for (int i = 1; i < N; i++) len += (size_t)snprintf(t + len, cap - len, ",*r");
  len += (size_t)snprintf(t + len, cap - len, "]\nq: [");
  for (int j = 0; j < N; j++) len += (size_t)snprintf(t + len, cap - len, "%s-1", j ? "," : "");
  len += (size_t)snprintf(t + len, cap - len, "]\n");
  LK_ASSERT_INT_EQ(lk_lcp_problem_parse_yaml(t, len, "alias.yaml", &p, &e), LK_SCHEMA_ERROR);
  LK_ASSERT_MSG(strstr(e.message, "aliases") != NULL && e.line == 2, "%d: %s", e.line, e.message);
  free(t);
}

static void test_residual(void) {
  double M[4] = {2, 1, 1, 2}, q[2] = {-1, -1}, z[2] = {1.0 / 3, 1.0 / 3}, w[2] = {0, 0};
  lk_lcp p;
  memset(&p, 0, sizeof p);
  p.n = 2, p.M = M, p.q = q;
  LK_ASSERT_NEAR(lk_lcp_residual(&p, z, w), 0, 4e-16);
  LK_ASSERT_NEAR(lk_lcp_residual(&p, z, NULL), 0, 4e-16);
  /* |min(z, w)| of a wrong point: z = (1, 0), w = (1, 0): min 0, 0; then
   * z = (0.5, 0): w = (0, -0.5): residual 0.5. */
  double zb[2] = {0.5, 0};
  LK_ASSERT_NEAR(lk_lcp_residual(&p, zb, NULL), 0.5, 1e-16);
  /* A w that is not M z + q is caught. */
  double wb[2] = {0.25, 0};
  LK_ASSERT_NEAR(lk_lcp_residual(&p, z, wb), 0.25, 4e-16);
  /* Boxed: z = hi with w < 0 is fine, z = hi with w > 0 is not. */
  double lo[2] = {-1, -1}, hi[2] = {0.1, 0.1}, zh[2] = {0.1, 0.1};
  p.lo = lo, p.hi = hi;
  LK_ASSERT_NEAR(lk_lcp_residual(&p, zh, NULL), 0, 0); /* w = (-0.7, -0.7) */
  double q2[2] = {1, 1};
  p.q = q2; /* w = (1.3, 1.3) > 0 at the upper bound: distance to lo side */
  LK_ASSERT_NEAR(lk_lcp_residual(&p, zh, NULL), 1.1, 1e-15);
  /* Free rows: |w|. */
  double lf[2] = {-INFINITY, -INFINITY};
  p.lo = lf, p.hi = NULL, p.q = q;
  LK_ASSERT_NEAR(lk_lcp_residual(&p, zb, NULL), 0.5, 1e-16);
  /* Invalid input never yields NaN or 0. */
  double zn[2] = {NAN, 0};
  LK_ASSERT_MSG(lk_lcp_residual(&p, zn, NULL) == INFINITY, "NaN z");
  LK_ASSERT_MSG(lk_lcp_residual(NULL, z, NULL) == INFINITY, "NULL problem");
  p.n = 0;
  LK_ASSERT_NEAR(lk_lcp_residual(&p, NULL, NULL), 0, 0);
  p.n = 2;
  lk_error e;
  p.lo = NULL;
  double mu[2] = {0, 1};
  int fi[2] = {-1, 3};
  p.findex = fi, p.mu = mu;
  LK_ASSERT_INT_EQ(lk_lcp_check(&p, &e), LK_INVALID_ARGUMENT);
  LK_ASSERT_MSG(strstr(e.message, "findex[1]") != NULL, "%s", e.message);
  /* The finiteness of M: finite entries whose sum overflows are finite;
   * a non-finite entry is named by its row, with a leading dimension
   * above n too. */
  double Mb[6] = {1e308, 1e308, 0, 1e308, 1e308, 0}, qb[2] = {0, 0};
  lk_lcp pb = {.n = 2, .M = Mb, .ldm = 3, .q = qb};
  LK_ASSERT_INT_EQ(lk_lcp_check(&pb, &e), LK_OK);
  Mb[2] = NAN; /* past n: not part of M */
  LK_ASSERT_INT_EQ(lk_lcp_check(&pb, &e), LK_OK);
  Mb[4] = -INFINITY;
  LK_ASSERT_INT_EQ(lk_lcp_check(&pb, &e), LK_NON_FINITE);
  LK_ASSERT_MSG(strstr(e.message, "row 1 of M") != NULL, "%s", e.message);
  pb.ldm = 2; /* contiguous: rows (1e308, 1e308), (NaN, 1e308) */
  LK_ASSERT_INT_EQ(lk_lcp_check(&pb, &e), LK_NON_FINITE);
  LK_ASSERT_MSG(strstr(e.message, "row 1 of M") != NULL, "%s", e.message);
}

/* The factorization against a direct solve of the same principal block,
 * through random appends and removals. */
static void test_ldlt_updates(void) {
  enum { N = 40 };
  static double A[N * N], L[N * N], d[N], tmp[N], b[N], x[N];
  int idx[N], k = 0, in[N] = {0};
  lk_rng rng;
  lk_rng_seed(&rng, 17);
  lk_gen_spd(&rng, N, 0.1, A, N);
  lk_ldlt f = {0, N, L, d, tmp, NULL, 0};
  double worst = 0;
  for (int step = 0; step < 400; step++) {
    int j = lk_rng_int(&rng, N);
    if (!in[j]) {
      for (int c = 0; c < k; c++) b[c] = A[j * N + idx[c]];
      LK_ASSERT_INT_EQ(lk_ldlt_append(&f, b, A[j * N + j], 1e-12), 1);
      idx[k++] = j;
      in[j] = 1;
    } else {
      int p = 0;
      while (idx[p] != j) p++;
      lk_ldlt_remove(&f, p);
      for (int c = p; c < k - 1; c++) idx[c] = idx[c + 1];
      k--;
      in[j] = 0;
    }
    LK_ASSERT_INT_EQ(f.k, k);
    /* Check (A_kk) x = b for a random b. */
    for (int c = 0; c < k; c++) x[c] = b[c] = lk_rng_uniform(&rng, -1, 1);
    lk_ldlt_solve(&f, x);
    for (int a = 0; a < k; a++) {
      double s = 0;
      for (int c = 0; c < k; c++) s += A[idx[a] * N + idx[c]] * x[c];
      worst = fmax(worst, fabs(s - b[a]));
    }
  }
  LK_ASSERT_NEAR(worst, 0, 1e-11);
  /* A dependent row is refused and leaves the factor as it was: the
   * rank-one matrix of ones. */
  f.k = 0;
  b[0] = 1;
  LK_ASSERT_INT_EQ(lk_ldlt_append(&f, b, 1.0, 0), 1);
  LK_ASSERT_INT_EQ(lk_ldlt_append(&f, b, 1.0, 1e-12), 0);
  LK_ASSERT_INT_EQ(f.k, 1);
}

/* The factor of a principal block in one elimination against the one n
 * appends build, on banded and block-structured matrices (where the
 * elimination follows the profile) and dense ones, contiguous and
 * scattered row sets; then appends and removals on top of it; and the
 * first dependent row of a rank-deficient block. */
static void test_ldlt_block_factor(void) {
  enum { N = 64 };
  static double A[N * N], L1[N * N], L2[N * N], d1[N], d2[N], t1[N], t2[N], b[N], x1[N], x2[N];
  static int last[N];
  int idx[N];
  lk_rng rng;
  lk_rng_seed(&rng, 23);
  double worst_d = 0, worst_x = 0, worst_r = 0;
  for (int t = 0; t < 60; t++) {
    int n = 8 + t % 57, band = t % 3 == 0 ? n : 1 + t % 13;
    /* A = B B^T + I/10 with B banded (band 0: dense): banded SPD. */
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        double v = 0;
        for (int m = 0; m < n; m++) {
          if (abs(i - m) > band || abs(j - m) > band) continue;
          double bi = sin(1.0 + i * 7.0 + m * 3.0 + t), bj = sin(1.0 + j * 7.0 + m * 3.0 + t);
          v += bi * bj;
        }
        A[i * N + j] = v + (i == j ? 0.1 : 0.0);
      }
    int k = 0;
    for (int i = 0; i < n; i++)
      if (t % 2 == 0 || lk_rng_uniform(&rng, 0, 1) < 0.7) idx[k++] = i;
    lk_ldlt f1 = {0, N, L1, d1, t1, last, 0}, f2 = {0, N, L2, d2, t2, NULL, 0};
    LK_ASSERT_INT_EQ(lk_ldlt_factor(&f1, A, N, idx, k, 1e-11, 1.0), k);
    LK_ASSERT_INT_EQ(f1.k, k);
    for (int j = 0; j < k; j++) {
      for (int c = 0; c < j; c++) b[c] = A[idx[j] * N + idx[c]];
      LK_ASSERT_INT_EQ(lk_ldlt_append(&f2, b, A[idx[j] * N + idx[j]], 1e-11), 1);
    }
    for (int j = 0; j < k; j++) {
      worst_d = fmax(worst_d, fabs(d1[j] - d2[j]) / d2[j]);
      for (int i = j + 1; i < k; i++) {
        double l1 = L1[j * N + i], l2 = L2[j * N + i];
        LK_ASSERT_MSG(i <= last[j] || l1 == 0.0, "t=%d: L(%d,%d) = %g below the column's last", t, i, j,
                      l1);
        worst_d = fmax(worst_d, fabs(l1 - l2) / (1 + fabs(l2)));
      }
    }
    for (int c = 0; c < k; c++) x1[c] = x2[c] = b[c] = lk_rng_uniform(&rng, -1, 1);
    lk_ldlt_solve(&f1, x1); /* stops at each column's last */
    lk_ldlt_solve(&f2, x2);
    for (int c = 0; c < k; c++) worst_x = fmax(worst_x, fabs(x1[c] - x2[c]) / (1 + fabs(x2[c])));
    /* Appends and removals keep working on the block factor. */
    for (int step = 0; step < 10 && k > 1; step++) {
      int p = lk_rng_int(&rng, k);
      lk_ldlt_remove(&f1, p);
      for (int c = p; c < k - 1; c++) idx[c] = idx[c + 1];
      k--;
      if (step % 2) {
        int j = -1;
        for (int i = 0; i < n && j < 0; i++) {
          int in = 0;
          for (int c = 0; c < k; c++) in |= idx[c] == i;
          if (!in) j = i;
        }
        if (j < 0) continue;
        for (int c = 0; c < k; c++) b[c] = A[j * N + idx[c]];
        LK_ASSERT_INT_EQ(lk_ldlt_append(&f1, b, A[j * N + j], 1e-11), 1);
        idx[k++] = j;
      }
      for (int c = 0; c < k; c++) x1[c] = b[c] = lk_rng_uniform(&rng, -1, 1);
      lk_ldlt_solve(&f1, x1);
      for (int a = 0; a < k; a++) {
        double sum = 0;
        for (int c = 0; c < k; c++) sum += A[idx[a] * N + idx[c]] * x1[c];
        worst_r = fmax(worst_r, fabs(sum - b[a]));
      }
    }
  }
  LK_ASSERT_NEAR(worst_d, 0, 1e-11);
  LK_ASSERT_NEAR(worst_x, 0, 1e-10);
  LK_ASSERT_NEAR(worst_r, 0, 1e-10);
  /* Rank 3 of 6: rows 0-2 independent, row 3 depends on them; the factor
   * stops there, as the appends refuse it. */
  lk_gen_psd(&rng, 6, 3, A, N);
  for (int i = 0; i < 6; i++) idx[i] = i;
  lk_ldlt f = {0, N, L1, d1, t1, last, 0};
  LK_ASSERT_INT_EQ(lk_ldlt_factor(&f, A, N, idx, 6, 1e-11, 1.0), 3);
  LK_ASSERT_INT_EQ(f.k, 3);
  for (int c = 0; c < 3; c++) x1[c] = b[c] = 1.0 + c;
  lk_ldlt_solve(&f, x1);
  for (int a = 0; a < 3; a++) {
    double sum = 0;
    for (int c = 0; c < 3; c++) sum += A[a * N + c] * x1[c];
    LK_ASSERT_NEAR(sum, b[a], 1e-9);
  }
  LK_ASSERT_INT_EQ(lk_ldlt_factor(&f, A, N, idx, 0, 1e-11, 1.0), 0);
}

static const lk_test tests[] = {
    {"YAML files", test_yaml_files},
    {"YAML errors point at the node", test_yaml_errors_point_at_the_node},
    {"Siconos' format, column-major", test_siconos_format},
    {"Siconos' storages 0, 1, 2 and friction-contact files", test_siconos_storages},
    {"Siconos files with errors", test_siconos_errors},
    {"file limits: devices, size, YAML aliases", test_file_limits},
    {"residual and checks", test_residual},
    {"L D L^T appends and removals", test_ldlt_updates},
    {"L D L^T of a principal block in one elimination", test_ldlt_block_factor},
    {NULL, NULL},
};

void lk_test_register_lcp_io(void) { lk_test_suite("lcp files and internals", tests); }
