/* linkage lcp FILE [--solver lemke|dantzig|nsgs|newton|auto] [--tol X]
 *                  [--max-pivots N] [--max-sweeps N]
 *
 * Reads a problem (YAML, or Siconos' .dat: LCPs and friction-contact
 * problems, dense or sparse), solves it and prints the result as YAML on
 * stdout, Siconos' fc3d error beside the residual. Exit 0 when solved, 1
 * when the solver's answer is a failure (its status is printed), 2 for bad
 * arguments or files.
 *
 * The pivoting solvers take a dense M and box friction: a sparse M is
 * expanded for them (n^2 doubles, refused above LCP_DENSE_MAX rows) and a
 * circle cone is solved as its square (the output says so; the fc3d error
 * then measures the answer on the circle). NSGS takes everything as read,
 * in O(n + entries) memory: no limit on n but the file's. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linkage/linkage.h"
#include "tools/commands.h"

#define USAGE \
  "usage: linkage lcp FILE [--solver lemke|dantzig|nsgs|newton|auto] [--tol X]\n" \
  "                        [--max-pivots N] [--max-sweeps N]\n"

/* The pivoting solvers' dense copy of a sparse M: 20 000 rows is 3.2 GB. */
#define LCP_DENSE_MAX 20000

void lk_cmd_lcp_usage(FILE *out) {
  fprintf(out,
          USAGE "\n"
          "Solve the linear complementarity or friction-contact problem in FILE and print\n"
          "the result as YAML (status, z, w, pivots or sweeps, residual, fc3d error).\n\n"
          "FILE is YAML (M: [[..], ..], q: [..], optional lo, hi, findex, mu) or, when it\n"
          "ends in .dat, Siconos numerics' text format: an LCP or a FrictionContactProblem,\n"
          "M dense (storage 0), sparse-block (1) or sparse (2).\n\n"
          "options:\n"
          "  --solver NAME     lemke, dantzig, nsgs, newton, or auto (default: NSGS for a\n"
          "                    friction-contact problem or a sparse M, then Newton from\n"
          "                    zero if its sweeps end above the tolerance; Dantzig\n"
          "                    for a symmetric M, Lemke otherwise). Lemke and Dantzig solve a\n"
          "                    circle cone as its square (cone: box in the output);\n"
          "                    newton is a semismooth Newton method (sparse LU)\n"
          "  --tol X           the accepted error: the relative residual for Lemke and\n"
          "                    Dantzig; for NSGS and Newton the fc3d error printed, which\n"
          "                    alone decides their status (default 1e-9; a finite\n"
          "                    positive number)\n"
          "  --max-pivots N    pivot cap (default 1000 + 100 n)\n"
          "  --max-sweeps N    NSGS sweep cap (default 10000), Newton iteration cap\n"
          "                    (default 5000)\n"
          "  -h, --help        show this help\n\n"
          "exit status: 0 solved, 1 no solution found (status printed), 2 bad usage or file\n");
}

/* Symmetric to the tolerance Dantzig itself applies (1e-10 of max |M|). */
static int symmetric(const lk_lcp *p) { return lk_lcp_asymmetry(p) <= 1e-10; }

/* "LK_NO_SOLUTION" -> "no_solution", LK_OK -> "ok". */
static void status_word(lk_status s, char *buf, size_t size) {
  const char *name = lk_status_name(s);
  if (strncmp(name, "LK_", 3) == 0) name += 3;
  size_t i = 0;
  for (; name[i] && i + 1 < size; i++) buf[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] - 'A' + 'a' : name[i]);
  buf[i] = '\0';
}

static void vector(FILE *out, const char *key, const double *x, int n) {
  fprintf(out, "%s: [", key);
  char b[LK_FORMAT_DOUBLE_MAX];
  for (int i = 0; i < n; i++) fprintf(out, "%s%s", i ? ", " : "", lk_format_double(x[i], b));
  fprintf(out, "]\n");
}

/* NSGS and Newton: the status is decided on the measure printed, the fc3d
 * error of the answer on the problem as read, against --tol: a solver that
 * stopped at its cap with the error within tol has solved the problem,
 * and one that stopped on a measure of its own with the printed error
 * above tol has not. Other statuses (invalid, non-finite) stand. */
static lk_status judge(lk_status s, double fc3d, double tol, lk_lcp_report *r) {
  if (s != LK_OK && s != LK_NOT_CONVERGED) return s;
  lk_status j = isfinite(fc3d) && fc3d <= tol ? LK_OK : LK_NOT_CONVERGED;
  if (j != s) {
    r->detail = j == LK_OK ? "the fc3d error is within --tol (the solver had stopped at its cap)"
                           : "the fc3d error is above --tol (the solver had stopped on its own "
                             "measure)";
    r->status = j;
  }
  return j;
}

static int bad_usage(const char *msg, const char *arg) {
  fprintf(stderr, "linkage lcp: %s%s%s\n", msg, arg ? " " : "", arg ? arg : "");
  fprintf(stderr, USAGE);
  return LK_EXIT_USAGE;
}

int lk_cmd_lcp(int argc, char **argv) {
  const char *path = NULL, *solver = "auto";
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  for (int a = 1; a < argc; a++) {
    const char *arg = argv[a], *val = NULL;
    if (lk_tool_is_help(arg)) {
      lk_cmd_lcp_usage(stdout);
      return LK_EXIT_OK;
    }
    if (strncmp(arg, "--", 2) != 0) {
      if (path) return bad_usage("more than one file:", arg);
      path = arg;
      continue;
    }
    const char *eq = strchr(arg, '=');
    char opt[32];
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    if (len >= sizeof opt) return bad_usage("unknown option", arg);
    memcpy(opt, arg, len);
    opt[len] = '\0';
    if (eq) {
      val = eq + 1;
    } else if (a + 1 < argc) {
      val = argv[++a];
    } else {
      return bad_usage("missing value for", opt);
    }
    char *end;
    if (strcmp(opt, "--solver") == 0) {
      solver = val;
    } else if (strcmp(opt, "--tol") == 0) {
      lk_error ne;
      /* the files' number rule: no hex, inf or nan */
      if (lk_parse_double(val, &o.tol, &ne) || !(o.tol > 0))
        return bad_usage("--tol needs a finite positive number, not", val);
    } else if (strcmp(opt, "--max-pivots") == 0) {
      errno = 0;
      long v = strtol(val, &end, 10);
      if (*end || errno || v < 1 || v > 1000000000L)
        return bad_usage("--max-pivots needs a positive integer, not", val);
      o.max_pivots = (int)v;
    } else if (strcmp(opt, "--max-sweeps") == 0) {
      errno = 0;
      long v = strtol(val, &end, 10);
      if (end == val || *end || errno || v < 1 || v > 1000000000L)
        return bad_usage("--max-sweeps needs a positive integer, not", val);
      o.max_sweeps = (int)v;
    } else {
      return bad_usage("unknown option", opt);
    }
  }
  if (!path) return bad_usage("no problem file given", NULL);
  const lk_lcp_solver *type = NULL;
  if (strcmp(solver, "auto") != 0 && !(type = lk_lcp_solver_by_name(solver)))
    return bad_usage("unknown solver (lemke, dantzig, nsgs, newton or auto):", solver);

  lk_lcp_problem *prob = NULL;
  lk_error err;
  lk_error_clear(&err);
  lk_status s = lk_lcp_problem_load(path, &prob, &err);
  if (s != LK_OK) {
    char buf[LK_ERROR_MESSAGE_MAX + LK_ERROR_PATH_MAX + 32];
    fprintf(stderr, "linkage lcp: %s\n", lk_error_format(&err, buf, sizeof buf));
    return LK_EXIT_USAGE;
  }
  const lk_lcp *p = lk_lcp_problem_lcp(prob);
  int n = p->n, sparse = p->csr.row != NULL;
  if (!type) type = (p->cone || sparse) ? lk_lcp_nsgs : symmetric(p) ? lk_lcp_dantzig : lk_lcp_lemke;
  int pivoting = type != lk_lcp_nsgs && type != lk_lcp_newton;
  if (pivoting && sparse && n > LCP_DENSE_MAX) {
    fprintf(stderr,
            "linkage lcp: %s: %s needs M dense, %d rows (more than %d); use --solver nsgs\n",
            path, lk_lcp_solver_name(type), n, LCP_DENSE_MAX);
    lk_lcp_problem_free(prob);
    return LK_EXIT_USAGE;
  }
  /* What the pivoting solvers take: M dense, the circle as its square. */
  lk_lcp q = *p;
  double *dense = NULL;
  if (pivoting) {
    q.cone = NULL;
    if (sparse) {
      dense = malloc((size_t)n * (size_t)n * sizeof *dense);
      if (dense && lk_lcp_densify(p, dense, n) != LK_OK) {
        free(dense);
        dense = NULL;
      }
      q.M = dense;
      q.ldm = n;
      q.csr.row = NULL;
      q.csr.col = NULL;
      q.csr.val = NULL;
    }
  }
  /* Room for Lemke's expansion of boxed and friction rows (n + b + 2 f);
   * an invalid problem gets the minimum and its status from the solve.
   * NSGS: O(n) memory, no dense matrix. */
  int need = lk_lcp_capacity_needed(&q);
  lk_lcp_workspace *ws = lk_lcp_workspace_new_for(type, need > n ? need : n);
  double *z = calloc((size_t)(n > 0 ? n : 1), sizeof *z), *w = calloc((size_t)(n > 0 ? n : 1), sizeof *w);
  if (!ws || !z || !w || (pivoting && sparse && !dense)) {
    fprintf(stderr, "linkage lcp: out of memory\n");
    lk_lcp_workspace_free(ws);
    free(z);
    free(w);
    free(dense);
    lk_lcp_problem_free(prob);
    return LK_EXIT_FAILED;
  }
  lk_lcp_report r;
  s = lk_lcp_solve(type, &q, &o, ws, z, w, &r);
  /* Siconos' measure on the problem as read (the circle, when it has one) */
  double fc3d = lk_lcp_fc3d_error(p, z);
  if (!pivoting) s = judge(s, fc3d, o.tol, &r);
  /* auto: a problem NSGS leaves above the tolerance after its sweeps is
   * solved again by Newton, from zero (RockPile_tob1 of Siconos'
   * collection: NSGS 7.4e-6 after 10 000 sweeps, Newton 1e-6 in 2356
   * iterations; from NSGS's iterate Newton does not converge there).
   * Newton's answer is kept when it succeeds, and when both fail, when its
   * error is the smaller: auto reaches every answer a named solver does. */
  int fell_back = 0, nsgs_sweeps = 0, newton_failed = 0;
  double nsgs_error = NAN;
  if (strcmp(solver, "auto") == 0 && type == lk_lcp_nsgs && s == LK_NOT_CONVERGED && n > 0) {
    lk_lcp_workspace *nw = lk_lcp_workspace_new_newton(n);
    double *zs = malloc((size_t)n * sizeof *zs), *ws2 = malloc((size_t)n * sizeof *ws2);
    if (nw && zs && ws2) {
      memcpy(zs, z, (size_t)n * sizeof *z);
      memcpy(ws2, w, (size_t)n * sizeof *w);
      lk_lcp_options on = o;
      on.z_guess = NULL; /* from zero (see above) */
      lk_lcp_report rn;
      lk_status sn = lk_lcp_solve(lk_lcp_newton, &q, &on, nw, z, w, &rn);
      double fn = lk_lcp_fc3d_error(p, z);
      sn = judge(sn, fn, o.tol, &rn);
      if (sn == LK_OK || (sn == LK_NOT_CONVERGED && fn < fc3d)) {
        fell_back = 1;
        nsgs_sweeps = r.sweeps;
        nsgs_error = fc3d;
        r = rn;
        s = sn;
        fc3d = fn;
        type = lk_lcp_newton;
      } else {
        newton_failed = 1;
        memcpy(z, zs, (size_t)n * sizeof *z);
        memcpy(w, ws2, (size_t)n * sizeof *w);
      }
    }
    lk_lcp_workspace_free(nw);
    free(zs);
    free(ws2);
  }
  char word[32];
  status_word(s, word, sizeof word);
  printf("problem: ");
  lk_tool_yaml_string(stdout, path);
  printf("\n");
  if (*lk_lcp_problem_name(prob)) {
    printf("name: ");
    lk_tool_yaml_string(stdout, lk_lcp_problem_name(prob));
    printf("\n");
  }
  int dim, nc = lk_lcp_problem_contacts(prob, &dim);
  printf("solver: %s\n", lk_lcp_solver_name(type));
  if (fell_back)
    printf("after: nsgs\nnsgs_sweeps: %d\nnsgs_fc3d_error: %.3g\n", nsgs_sweeps, nsgs_error);
  if (newton_failed) printf("newton_after_nsgs: failed\n");
  printf("n: %d\n", n);
  if (nc) printf("contacts: %d\ndimension: %d\n", nc, dim);
  if (p->cone) printf("cone: %s\n", pivoting ? "box" : "circle");
  printf("storage: %s\n", sparse ? (pivoting ? "sparse, expanded dense" : "sparse") : "dense");
  printf("status: %s\n", word);
  printf("message: ");
  lk_tool_yaml_string(stdout, r.detail);
  printf("\n");
  if (s == LK_NO_SOLUTION) printf("infeasibility_certified: %s\n", r.ray_certified ? "true" : "false");
  if (r.fallback) printf("fallback: lemke\n");
  if (pivoting)
    printf("pivots: %d\n", r.pivots);
  else if (type == lk_lcp_newton)
    printf("iterations: %d\n", r.sweeps);
  else
    printf("sweeps: %d\n", r.sweeps);
  if (r.regularized)
    printf("%s: %d\n", type == lk_lcp_newton ? "regularized_iterations" : "regularized_blocks",
           r.regularized);
  printf("residual: %.3g\n", r.residual);
  printf("residual_rel: %.3g\n", r.residual_rel);
  printf("fc3d_error: %.3g\n", fc3d);
  vector(stdout, "z", z, n);
  vector(stdout, "w", w, n);
  if (s != LK_OK) fprintf(stderr, "linkage lcp: %s: %s (%s)\n", path, lk_strerror(s), r.detail);
  lk_lcp_workspace_free(ws);
  free(z);
  free(w);
  free(dense);
  lk_lcp_problem_free(prob);
  return s == LK_OK ? LK_EXIT_OK : LK_EXIT_FAILED;
}
