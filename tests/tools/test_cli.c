/* The linkage program: runs the built binary on the example files and
 * checks its output (valid YAML with the right values) and exit codes. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml.h>

#include "harness.h"

typedef struct {
  int code;
  char out[1 << 17]; /* a 675-row answer prints about 30 KB */
  char err[4096];
} run_result;

static void slurp(const char *path, char *buf, size_t size) {
  FILE *f = fopen(path, "rb");
  size_t n = f ? fread(buf, 1, size - 1, f) : 0;
  buf[n] = '\0';
  if (f) fclose(f);
}

/* Run `linkage ARGS`, capturing stdout and stderr separately. */
static void run(const char *args, run_result *r) {
  const char *top = getenv("LK_TOP_BUILDDIR");
  char out[] = "/tmp/lk-cli-out-XXXXXX", err[] = "/tmp/lk-cli-err-XXXXXX", cmd[4096];
  int fo = mkstemp(out), fe = mkstemp(err);
  if (fo >= 0) close(fo);
  if (fe >= 0) close(fe);
  snprintf(cmd, sizeof cmd, "'%s/tools/linkage' %s >'%s' 2>'%s'", top && *top ? top : ".", args, out, err);
  int st = system(cmd);
  r->code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  slurp(out, r->out, sizeof r->out);
  slurp(err, r->err, sizeof r->err);
  unlink(out);
  unlink(err);
}

static const char *data(const char *rel) { return lk_test_data(rel); }

/* The value of a top-level key of the YAML mapping in text, checked to
 * parse as YAML at all; a sequence is joined with spaces. */
static int yaml_value(const char *text, const char *key, char *val, size_t size) {
  yaml_parser_t p;
  yaml_document_t d;
  int found = 0;
  if (!yaml_parser_initialize(&p)) return -1;
  yaml_parser_set_input_string(&p, (const unsigned char *)text, strlen(text));
  if (!yaml_parser_load(&p, &d)) {
    yaml_parser_delete(&p);
    return -1;
  }
  yaml_node_t *root = yaml_document_get_root_node(&d);
  if (root && root->type == YAML_MAPPING_NODE) {
    for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
      yaml_node_t *k = yaml_document_get_node(&d, pr->key), *v = yaml_document_get_node(&d, pr->value);
      if (!k || k->type != YAML_SCALAR_NODE || strcmp((const char *)k->data.scalar.value, key)) continue;
      val[0] = '\0';
      if (v->type == YAML_SCALAR_NODE) {
        snprintf(val, size, "%s", (const char *)v->data.scalar.value);
      } else if (v->type == YAML_SEQUENCE_NODE) {
        for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
          yaml_node_t *e = yaml_document_get_node(&d, *it);
          size_t len = strlen(val);
          snprintf(val + len, size - len, "%s%s", len ? " " : "", (const char *)e->data.scalar.value);
        }
      }
      found = 1;
    }
  }
  yaml_document_delete(&d);
  yaml_parser_delete(&p);
  return found;
}

/* Check the z printed against the expected values, to tol (1 + |z_i|). */
static void check_z_tol(const run_result *r, const double *z, int n, double tol) {
  char val[4096];
  LK_ASSERT_MSG(yaml_value(r->out, "z", val, sizeof val) == 1, "no z in: %s", r->out);
  char *s = val;
  for (int i = 0; i < n; i++) {
    char *end;
    double v = strtod(s, &end);
    LK_ASSERT_MSG(end != s, "z has fewer than %d entries: %s", n, val);
    LK_ASSERT_NEAR(v, z[i], tol * (1 + fabs(z[i])));
    s = end;
  }
}

static void check_z(const run_result *r, const double *z, int n) { check_z_tol(r, z, n, 1e-12); }

/* The value of key as a number (NAN if absent). */
static double yaml_number(const run_result *r, const char *key) {
  char val[256];
  if (yaml_value(r->out, key, val, sizeof val) != 1) return NAN;
  return strtod(val, NULL);
}

static int yaml_is(const run_result *r, const char *key, const char *want) {
  char val[256];
  return yaml_value(r->out, key, val, sizeof val) == 1 && strcmp(val, want) == 0;
}

static void test_help_and_usage(void) {
  run_result r;
  run("--help", &r);
  LK_ASSERT_INT_EQ(r.code, 0);
  LK_ASSERT_MSG(strstr(r.out, "lcp") && strstr(r.out, "usage:"), "help: %s", r.out);
  run("", &r);
  LK_ASSERT_INT_EQ(r.code, 2);
  LK_ASSERT_MSG(strstr(r.err, "usage:") != NULL, "no usage on stderr: %s", r.err);
  run("frobnicate", &r);
  LK_ASSERT_INT_EQ(r.code, 2);
  LK_ASSERT_MSG(strstr(r.err, "unknown command 'frobnicate'") != NULL, "%s", r.err);
  run("lcp --help", &r);
  LK_ASSERT_INT_EQ(r.code, 0);
  LK_ASSERT_MSG(strstr(r.out, "--solver") != NULL, "%s", r.out);
  run("help lcp", &r);
  LK_ASSERT_INT_EQ(r.code, 0);
  run("--version", &r);
  LK_ASSERT_INT_EQ(r.code, 0);
  LK_ASSERT_MSG(strncmp(r.out, "linkage ", 8) == 0, "%s", r.out);
}

static void test_lcp_solves_the_examples(void) {
  run_result r;
  char args[1024], val[256];
  snprintf(args, sizeof args, "lcp '%s'", data("lcp/murty_ex2_8.yaml"));
  run(args, &r);
  LK_ASSERT_INT_EQ(r.code, 0);
  LK_ASSERT_MSG(yaml_value(r.out, "status", val, sizeof val) == 1 && !strcmp(val, "ok"), "%s", r.out);
  LK_ASSERT_MSG(yaml_value(r.out, "solver", val, sizeof val) == 1 && !strcmp(val, "lemke"), "auto: %s", val);
  double z1[] = {2, 1, 3, 1};
  check_z(&r, z1, 4);
  LK_ASSERT_MSG(yaml_value(r.out, "pivots", val, sizeof val) == 1 && atoi(val) > 0, "pivots: %s", val);
  LK_ASSERT_MSG(yaml_value(r.out, "residual", val, sizeof val) == 1 && strtod(val, NULL) < 1e-12, "residual %s",
                val);
  LK_ASSERT_MSG(r.err[0] == '\0', "stderr not empty: %s", r.err);

  double z2[] = {4.0 / 3, -2.0 / 3, 0};
  for (int s = 0; s < 2; s++) {
    snprintf(args, sizeof args, "lcp '%s' --solver %s", data("lcp/friction.yaml"), s ? "dantzig" : "lemke");
    run(args, &r);
    LK_ASSERT_INT_EQ(r.code, 0);
    check_z(&r, z2, 3);
  }
  snprintf(args, sizeof args, "lcp --solver=lemke '%s'", data("lcp/mixed.yaml"));
  run(args, &r);
  LK_ASSERT_INT_EQ(r.code, 0);
  double z3[] = {1, 0};
  check_z(&r, z3, 2);
  /* Siconos' format, the problem its own Lemke fails. */
  snprintf(args, sizeof args, "lcp '%s'", data("lcp/siconos/lcp_CPS_3.dat"));
  run(args, &r);
  LK_ASSERT_INT_EQ(r.code, 0);
  double z4[] = {1.0 / 90, 2.0 / 45, 1.0 / 90, 2.0 / 45};
  check_z(&r, z4, 4);
}

static void test_lcp_failures_and_bad_files(void) {
  run_result r;
  char args[1024], val[256];
  /* Unsolvable: exit 1, the status in the YAML and a line on stderr. */
  snprintf(args, sizeof args, "lcp '%s' --solver lemke", data("lcp/infeasible.yaml"));
  run(args, &r);
  LK_ASSERT_INT_EQ(r.code, 1);
  LK_ASSERT_MSG(yaml_value(r.out, "status", val, sizeof val) == 1 && !strcmp(val, "no_solution"), "%s", r.out);
  LK_ASSERT_MSG(yaml_value(r.out, "infeasibility_certified", val, sizeof val) == 1 && !strcmp(val, "true"), "%s",
                r.out);
  LK_ASSERT_MSG(strstr(r.err, "infeasible.yaml") != NULL, "%s", r.err);
  /* Dantzig on a non-symmetric M: handed to Lemke, and said so (issue
   * 18.15: it answered "unsupported"). */
  snprintf(args, sizeof args, "lcp '%s' --solver dantzig", data("lcp/murty_ex2_8.yaml"));
  run(args, &r);
  LK_ASSERT_INT_EQ(r.code, 0);
  LK_ASSERT_MSG(yaml_value(r.out, "status", val, sizeof val) == 1 && !strcmp(val, "ok"), "%s", r.out);
  LK_ASSERT_MSG(yaml_value(r.out, "fallback", val, sizeof val) == 1 && !strcmp(val, "lemke"), "%s", r.out);
  double z1[] = {2, 1, 3, 1};
  check_z(&r, z1, 4);
  /* A device is no problem file: refused at once, exit 2. */
  run("lcp /dev/zero", &r);
  LK_ASSERT_MSG(r.code == 2 && strstr(r.err, "/dev/zero: is a device") != NULL, "exit %d: %s", r.code, r.err);
  /* Bad files: exit 2 with file:line:column. */
  const char *cases[][2] = {{"lcp/bad_syntax.yaml", "bad_syntax.yaml:2:1: "},
                            {"lcp/bad_row.yaml", "bad_row.yaml:3:5: "},
                            {"lcp/bad_bounds.yaml", "bad_bounds.yaml:3:6: "},
                            {"lcp/bad_storage.dat", "bad_storage.dat:2:1: "}};
  for (int k = 0; k < 4; k++) {
    snprintf(args, sizeof args, "lcp '%s'", data(cases[k][0]));
    run(args, &r);
    LK_ASSERT_INT_EQ(r.code, 2);
    LK_ASSERT_MSG(strstr(r.err, cases[k][1]) != NULL, "expected '%s' in: %s", cases[k][1], r.err);
    LK_ASSERT_MSG(r.out[0] == '\0', "stdout not empty on a bad file: %s", r.out);
  }
  run("lcp /nonexistent/problem.yaml", &r);
  LK_ASSERT_INT_EQ(r.code, 2);
  LK_ASSERT_MSG(strstr(r.err, "cannot open") != NULL, "%s", r.err);
  /* Bad usage. */
  const char *usage[] = {"lcp", "lcp a.yaml b.yaml", "lcp x.yaml --solver pgs", "lcp x.yaml --tol -1",
                         "lcp x.yaml --max-pivots", "lcp x.yaml --bogus 1"};
  for (int k = 0; k < 6; k++) {
    run(usage[k], &r);
    LK_ASSERT_MSG(r.code == 2, "'%s' exited %d", usage[k], r.code);
  }
}

/* Siconos' sparse storage, and a friction-contact problem on the exact
 * cone, by every solver. */
static void test_lcp_sparse_and_friction_contact(void) {
  run_result r;
  char args[1024];
  /* Ortiz's LCP in compressed columns (type 2): its published answer
   * z = (2/3, 0, 1/3, 0); NSGS by default for a sparse M, the pivoting
   * solvers on its dense expansion. */
  const char *solvers[] = {"auto", "nsgs", "lemke"};
  double zo[] = {2.0 / 3, 0, 1.0 / 3, 0};
  for (int k = 0; k < 3; k++) {
    snprintf(args, sizeof args, "lcp '%s' --solver %s", data("lcp/siconos-sparse/lcp_ortiz_sparse_csc.dat"),
             solvers[k]);
    run(args, &r);
    LK_ASSERT_MSG(r.code == 0, "%s: exit %d: %s", solvers[k], r.code, r.err);
    LK_ASSERT_MSG(yaml_is(&r, "solver", k == 2 ? "lemke" : "nsgs"), "%s", r.out);
    LK_ASSERT_MSG(yaml_is(&r, "storage", k == 2 ? "sparse, expanded dense" : "sparse"), "%s", r.out);
    check_z_tol(&r, zo, 4, 1e-9);
    LK_ASSERT_MSG(yaml_number(&r, "fc3d_error") <= 1e-9, "%s", r.out);
    LK_ASSERT_MSG(!isnan(yaml_number(&r, k == 2 ? "pivots" : "sweeps")), "%s", r.out);
  }
  /* FrictionContact3D_1c: one contact, W = [15 -1 -2; -1 14 1; -2 1 16],
   * q = (-1, 2, 3), mu = 0.1. It slides: computed independently (mpmath,
   * 50 digits: the sliding angle where u_T is antiparallel to r_T, the
   * only root; sticking gives |r_T| = 0.217 > mu r_n),
   * r = (0.065695682897738311, -0.0036786149068067590, -0.0054430708135592872),
   * u = (0, 1.8773606375934078, 2.7778408862807680). */
  snprintf(args, sizeof args, "lcp '%s'", data("lcp/siconos-fc/FrictionContact3D_1c.dat"));
  run(args, &r);
  LK_ASSERT_MSG(r.code == 0, "exit %d: %s", r.code, r.err);
  LK_ASSERT_MSG(yaml_is(&r, "solver", "nsgs") && yaml_is(&r, "cone", "circle"), "%s", r.out);
  LK_ASSERT_MSG(yaml_number(&r, "contacts") == 1 && yaml_number(&r, "dimension") == 3, "%s", r.out);
  double zc[] = {0.065695682897738311, -0.0036786149068067590, -0.0054430708135592872};
  check_z_tol(&r, zc, 3, 1e-12);
  LK_ASSERT_MSG(yaml_number(&r, "fc3d_error") <= 1e-12, "%s", r.out);
  /* Lemke and Dantzig on its square: both tangents at -mu r_n, so
   * r_n (15 + 0.1 + 0.2) = 1, r = (10, -1, -1) / 153; exact on the box, off
   * the circle by what the fc3d error then says (well above rounding). */
  double zb[] = {10.0 / 153, -1.0 / 153, -1.0 / 153};
  for (int k = 0; k < 2; k++) {
    snprintf(args, sizeof args, "lcp '%s' --solver %s", data("lcp/siconos-fc/FrictionContact3D_1c.dat"),
             k ? "dantzig" : "lemke");
    run(args, &r);
    LK_ASSERT_MSG(r.code == 0, "exit %d: %s", r.code, r.err);
    LK_ASSERT_MSG(yaml_is(&r, "cone", "box"), "%s", r.out);
    check_z(&r, zb, 3);
    double e = yaml_number(&r, "fc3d_error");
    LK_ASSERT_MSG(e > 1e-4 && e < 1e-2, "the square's answer on the circle: %g", e);
  }
  /* Four contacts in compressed columns (6-digit entries): NSGS to 1e-9. */
  snprintf(args, sizeof args, "lcp '%s' --solver nsgs --tol 1e-10",
           data("lcp/siconos-fc/Confeti-ex13-4contact-sparse-csc.dat"));
  run(args, &r);
  LK_ASSERT_MSG(r.code == 0, "exit %d: %s", r.code, r.err);
  LK_ASSERT_MSG(yaml_number(&r, "fc3d_error") <= 1e-10 && yaml_number(&r, "residual_rel") <= 1e-10, "%s",
                r.out);
  /* Options NSGS reads, and tolerances that are no tolerance. */
  snprintf(args, sizeof args, "lcp '%s' --max-sweeps 1", data("lcp/siconos-fc/Rover4396.dat"));
  run(args, &r);
  LK_ASSERT_MSG(r.code == 1 && yaml_is(&r, "status", "not_converged") && yaml_number(&r, "sweeps") == 1 &&
                    yaml_is(&r, "solver", "nsgs") && yaml_is(&r, "newton_after_nsgs", "failed"),
                "exit %d: %s", r.code, r.out);
  /* auto: NSGS's sweeps run out (100; Capsules-i101-404 needs 1274 at the
   * default 1e-9), Newton from zero answers (32 iterations) and says so;
   * with one sweep and one iteration neither does, and NSGS's result stands
   * (above). --solver nsgs alone never goes on to Newton. */
  snprintf(args, sizeof args, "lcp '%s' --max-sweeps 100", data("lcp/siconos-fc/Capsules-i101-404.dat"));
  run(args, &r);
  LK_ASSERT_MSG(r.code == 0 && yaml_is(&r, "solver", "newton") && yaml_is(&r, "after", "nsgs") &&
                    yaml_number(&r, "nsgs_sweeps") == 100 && yaml_number(&r, "nsgs_fc3d_error") > 1e-9,
                "exit %d: %.400s", r.code, r.out);
  LK_ASSERT_MSG(yaml_number(&r, "fc3d_error") <= 1e-9 && yaml_number(&r, "residual_rel") <= 1e-9, "%.400s",
                r.out);
  snprintf(args, sizeof args, "lcp '%s' --max-sweeps 100 --solver nsgs",
           data("lcp/siconos-fc/Capsules-i101-404.dat"));
  run(args, &r);
  LK_ASSERT_MSG(r.code == 1 && yaml_is(&r, "solver", "nsgs") && !strstr(r.out, "after:"), "exit %d: %.300s",
                r.code, r.out);
  const char *bad[] = {"--tol inf", "--tol nan", "--tol 0", "--tol 1e-9x", "--max-sweeps 0",
                       "--solver pgs"};
  for (int k = 0; k < 6; k++) {
    snprintf(args, sizeof args, "lcp '%s' %s", data("lcp/siconos-fc/Rover4396.dat"), bad[k]);
    run(args, &r);
    LK_ASSERT_MSG(r.code == 2 && r.out[0] == '\0', "'%s' exited %d", bad[k], r.code);
  }
}

static const lk_test tests[] = {
    {"help and usage", test_help_and_usage},
    {"lcp solves the examples", test_lcp_solves_the_examples},
    {"lcp failures and bad files", test_lcp_failures_and_bad_files},
    {"lcp sparse and friction-contact files", test_lcp_sparse_and_friction_contact},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("linkage program", tests); }
