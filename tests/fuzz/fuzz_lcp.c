/* The LCP and friction-contact problem readers under fuzzing (fuzz_load.c's
 * "lcp" target): Siconos' .dat text, or YAML when the bytes start with
 * '{', '#' or a letter; a problem that reads is solved by NSGS for a few sweeps
 * and measured (residual, fc3d error), as `linkage lcp` does: a result or
 * an error, never a crash, a leak, undefined behaviour or a hang. */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "linkage/linkage.h"

int lk_fuzz_lcp(const uint8_t *data, size_t size) {
  lk_lcp_problem *p = NULL;
  lk_error err;
  int yaml = size > 0 && (data[0] == '{' || data[0] == '#' || isalpha(data[0]));
  lk_status st = yaml ? lk_lcp_problem_parse_yaml((const char *)data, size, "fuzz", &p, &err)
                      : lk_lcp_problem_parse_siconos((const char *)data, size, "fuzz", &p, &err);
  if (st) {
    if (p || err.message[0] == '\0') abort();
    return 0;
  }
  if (!p) abort();
  const lk_lcp *q = lk_lcp_problem_lcp(p);
  if (q->n > 0 && q->n <= 64) {
    lk_lcp_workspace *ws = lk_lcp_workspace_new_for(lk_lcp_nsgs, q->n);
    double *z = calloc((size_t)q->n, sizeof *z), *w = calloc((size_t)q->n, sizeof *w);
    if (ws && z && w) {
      lk_lcp_options o;
      lk_lcp_options_default(&o);
      o.max_sweeps = 20;
      lk_lcp_report r;
      lk_lcp_solve(lk_lcp_nsgs, q, &o, ws, z, w, &r);
      if (!r.detail) abort();
      (void)lk_lcp_fc3d_error(q, z);
      (void)lk_lcp_residual(q, z, w);
    }
    free(z);
    free(w);
    lk_lcp_workspace_free(ws);
  }
  lk_lcp_problem_free(p);
  return 0;
}
