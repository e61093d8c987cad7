/* linkage lcp FILE [--solver lemke|dantzig|auto] [--tol X] [--max-pivots N]
 *
 * Reads a problem (YAML, or Siconos' .dat), solves it and prints the result
 * as YAML on stdout. Exit 0 when solved, 1 when the solver's answer is a
 * failure (its status is printed), 2 for bad arguments or files. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linkage/linkage.h"
#include "tools/commands.h"

void lk_cmd_lcp_usage(FILE *out) {
  fprintf(out,
          "usage: linkage lcp FILE [--solver lemke|dantzig|auto] [--tol X] [--max-pivots N]\n\n"
          "Solve the linear complementarity problem in FILE and print the result as YAML\n"
          "(status, z, w, pivots, residual).\n\n"
          "FILE is YAML (M: [[..], ..], q: [..], optional lo, hi, findex, mu) or, when it\n"
          "ends in .dat, Siconos numerics' text format.\n\n"
          "options:\n"
          "  --solver NAME     lemke, dantzig, or auto (default: Dantzig for a symmetric M,\n"
          "                    Lemke otherwise)\n"
          "  --tol X           accepted relative residual (default 1e-9)\n"
          "  --max-pivots N    pivot cap (default 1000 + 100 n)\n"
          "  -h, --help        show this help\n\n"
          "exit status: 0 solved, 1 no solution found (status printed), 2 bad usage or file\n");
}

static int symmetric(const lk_lcp *p) {
  int ld = p->ldm ? p->ldm : p->n;
  double mmax = 0;
  for (int i = 0; i < p->n * ld; i++) mmax = fmax(mmax, fabs(p->M[i]));
  for (int i = 0; i < p->n; i++)
    for (int j = 0; j < i; j++)
      if (fabs(p->M[i * ld + j] - p->M[j * ld + i]) > 1e-10 * mmax) return 0;
  return 1;
}

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

static int bad_usage(const char *msg, const char *arg) {
  fprintf(stderr, "linkage lcp: %s%s%s\n", msg, arg ? " " : "", arg ? arg : "");
  fprintf(stderr, "usage: linkage lcp FILE [--solver lemke|dantzig|auto] [--tol X] [--max-pivots N]\n");
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
      errno = 0;
      o.tol = strtod(val, &end);
      if (*end || errno || !(o.tol > 0)) return bad_usage("--tol needs a positive number, not", val);
    } else if (strcmp(opt, "--max-pivots") == 0) {
      errno = 0;
      long v = strtol(val, &end, 10);
      if (*end || errno || v < 1 || v > 1000000000L)
        return bad_usage("--max-pivots needs a positive integer, not", val);
      o.max_pivots = (int)v;
    } else {
      return bad_usage("unknown option", opt);
    }
  }
  if (!path) return bad_usage("no problem file given", NULL);
  const lk_lcp_solver *type = NULL;
  if (strcmp(solver, "auto") != 0 && !(type = lk_lcp_solver_by_name(solver)))
    return bad_usage("unknown solver (lemke, dantzig or auto):", solver);

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
  if (!type) type = symmetric(p) ? lk_lcp_dantzig : lk_lcp_lemke;
  int n = p->n;
  /* Room for Lemke's expansion of boxed and friction rows (n + b + 2 f);
   * an invalid problem gets the minimum and its status from the solve. */
  int need = lk_lcp_capacity_needed(p);
  lk_lcp_workspace *ws = lk_lcp_workspace_new(need > n ? need : n);
  double *z = calloc((size_t)(n > 0 ? n : 1), sizeof *z), *w = calloc((size_t)(n > 0 ? n : 1), sizeof *w);
  if (!ws || !z || !w) {
    fprintf(stderr, "linkage lcp: out of memory\n");
    lk_lcp_workspace_free(ws);
    free(z);
    free(w);
    lk_lcp_problem_free(prob);
    return LK_EXIT_FAILED;
  }
  lk_lcp_report r;
  s = lk_lcp_solve(type, p, &o, ws, z, w, &r);
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
  printf("solver: %s\n", lk_lcp_solver_name(type));
  printf("n: %d\n", n);
  printf("status: %s\n", word);
  printf("message: ");
  lk_tool_yaml_string(stdout, r.detail);
  printf("\n");
  if (s == LK_NO_SOLUTION) printf("infeasibility_certified: %s\n", r.ray_certified ? "true" : "false");
  if (r.fallback) printf("fallback: lemke\n");
  printf("pivots: %d\n", r.pivots);
  printf("residual: %.3g\n", r.residual);
  printf("residual_rel: %.3g\n", r.residual_rel);
  vector(stdout, "z", z, n);
  vector(stdout, "w", w, n);
  if (s != LK_OK) fprintf(stderr, "linkage lcp: %s: %s (%s)\n", path, lk_strerror(s), r.detail);
  lk_lcp_workspace_free(ws);
  free(z);
  free(w);
  lk_lcp_problem_free(prob);
  return s == LK_OK ? LK_EXIT_OK : LK_EXIT_FAILED;
}
