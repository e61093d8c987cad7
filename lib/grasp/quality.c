/* Grasp quality: the Ferrari-Canny epsilon metric and the volume of the
 * grasp wrench space (Ferrari and Canny, "Planning optimal grasps", ICRA
 * 1992; Miller and Allen's GraspIt, gws.cpp and quality.cpp: the L1 GWS is
 * the hull of the union of the contacts' unit-normal-force wrench sets,
 * epsilon its smallest facet distance from the origin, volume its
 * 6-volume). The hull is computed by qhull's re-entrant library (Barber,
 * Dobkin and Huhdanpaa, "The Quickhull algorithm for convex hulls", ACM
 * TOMS 1996). qhull writes its messages to a FILE; it gets an in-memory
 * stream, so that its text ends up in the lk_error and nothing is printed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libqhull_r/qhull_ra.h>

#include "core/internal.h"
#include "grasp/grasp_internal.h"

/* The first line of qhull's message, without its "QH6154 " style code. */
static void qhull_message(const char *text, char *out, size_t size) {
  const char *p = text ? text : "";
  while (*p == '\n' || *p == ' ') p++;
  size_t n = strcspn(p, "\n");
  if (n >= size) n = size - 1;
  memcpy(out, p, n);
  out[n] = 0;
}

/* The hull of the N wrenches W by qhull with these flags: its facets'
 * distances from the origin give epsilon and force closure, and
 * qh_getarea (a determinant per facet) the volume when asked. Returns
 * qhull's code (its first message line in msg), -1 when no stream for
 * its messages could be opened. */
static int hull(double *W, int N, const char *flags, double tolerance, lk_grasp_quality *q,
                int volume, char *msg, size_t msgsize) {
  char *text = NULL;
  size_t textlen = 0;
  FILE *errfile = open_memstream(&text, &textlen);
  if (!errfile) return -1;
  qhT qh_qh;
  qhT *qh = &qh_qh;
  qh_zero(qh, errfile);
  char command[32];
  snprintf(command, sizeof command, "%s", flags);
  int code = qh_new_qhull(qh, 6, N, W, False, command, NULL, errfile);
  if (code == 0) {
    facetT *facet;
    double eps = INFINITY;
    int inside = 1, nf = 0;
    FORALLfacets {
      nf++;
      /* qhull's hyperplane: normal . x + offset = 0, normal pointing out,
       * so the origin's signed distance is the offset (< 0 inside). */
      double dist = -facet->offset;
      if (dist <= tolerance) inside = 0;
      if (dist < eps) eps = dist;
    }
    q->nfacets = nf;
    q->force_closure = inside && nf > 0;
    q->epsilon = q->force_closure ? eps : 0.0;
    if (volume) {
      qh_getarea(qh, qh->facet_list);
      q->volume = qh->totvol;
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong, totlong;
  qh_memfreeshort(qh, &curlong, &totlong);
  fclose(errfile);
  qhull_message(text, msg, msgsize);
  free(text);
  return code;
}

/* The whole hull by qhull; its volume (qh_getarea: a determinant per
 * facet) only when asked: epsilon alone does not need it. */
static lk_status quality_hull(const lk_grasp_contact *c, int nc, const lk_grasp_options *o,
                              lk_grasp_quality *q, int volume, lk_error *err) {
  if (!q) return lk_error_set(err, LK_INVALID_ARGUMENT, "quality: NULL output");
  memset(q, 0, sizeof *q);
  lk_grasp_options opt;
  lk_status st = lk_grasp_resolve_options(o, &opt, err);
  if (st) return st;
  if ((st = lk_grasp_check_contacts(c, nc, err))) return st;
  q->torque_scale = lk_grasp_rho(c, nc, &opt);
  if (nc == 0) return LK_OK;
  const int N = lk_grasp_wrench_count(c, nc, &opt);
  q->nwrenches = N;
  double *W = LK_NEW_ARRAY(double, 6 * N);
  double *centered = LK_NEW_ARRAY(double, 6 * N);
  if (!W || !centered) {
    lk_free(W);
    lk_free(centered);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "quality: out of memory");
  }
  if ((st = lk_grasp_wrenches(c, nc, &opt, W, NULL, NULL, err))) goto done;
  q->rank = lk_grasp_rank6(W, N, opt.tolerance, NULL);
  /* A hull that is flat in R^6 (the points on a hyperplane: their affine
   * rank below 6, as when every normal points the same way) has no volume
   * and no interior; qhull would stop at its flat initial simplex. */
  double mean[6] = {0};
  for (int i = 0; i < N; i++)
    for (int k = 0; k < 6; k++) mean[k] += W[(size_t)i * 6 + k] / N;
  for (int i = 0; i < N; i++)
    for (int k = 0; k < 6; k++) centered[(size_t)i * 6 + k] = W[(size_t)i * 6 + k] - mean[k];
  if (q->rank < 6 || N < 7 || lk_grasp_rank6(centered, N, opt.tolerance, NULL) < 6) goto done;

  char m[LK_ERROR_MESSAGE_MAX - 64];
  int code = hull(W, N, "qhull Qt", opt.tolerance, q, volume, m, sizeof m);
  /* A pinch of two flat pads puts many wrenches on common hyperplanes,
   * and qhull's merging of their facets can stop on a precision error (a
   * "wide merge": the 2F-85's pads on the YCB foam brick, tests/grasp/
   * test_analysis). Then the hull is made again of the input joggled (QJ:
   * each coordinate moved by about 1e-11 of the points' size, from qhull's
   * fixed seed, so that the same input gives the same answer), whose
   * facets are all simplicial and need no merging; epsilon and the volume
   * move by about the joggle. */
  if (code == qh_ERRprec || code == qh_ERRtopology || code == qh_ERRwide)
    code = hull(W, N, "qhull QJ", opt.tolerance, q, volume, m, sizeof m);
  if (code < 0)
    st = lk_error_set(err, LK_OUT_OF_MEMORY, "quality: cannot open a stream for qhull");
  else if (code != 0)
    st = lk_error_set(err, LK_NOT_CONVERGED, "quality: qhull failed (code %d): %s", code, m);
done:
  lk_free(W);
  lk_free(centered);
  return st;
}

lk_status lk_grasp_quality_compute(const lk_grasp_contact *c, int nc, const lk_grasp_options *o,
                                   lk_grasp_quality *q, lk_error *err) {
  return quality_hull(c, nc, o, q, 1, err);
}

lk_status lk_grasp_epsilon(const lk_grasp_contact *c, int nc, const lk_grasp_options *o,
                           double *epsilon, int *used_qhull, lk_error *err) {
  if (!epsilon) return lk_error_set(err, LK_INVALID_ARGUMENT, "epsilon: NULL output");
  *epsilon = 0;
  if (used_qhull) *used_qhull = 0;
  lk_grasp_options opt;
  lk_status st = lk_grasp_resolve_options(o, &opt, err);
  if (st) return st;
  if ((st = lk_grasp_check_contacts(c, nc, err))) return st;
  if (nc == 0) return LK_OK;
  const int N = lk_grasp_wrench_count(c, nc, &opt);
  double *W = LK_NEW_ARRAY(double, 6 * N);
  if (!W) return lk_error_set(err, LK_OUT_OF_MEMORY, "epsilon: out of memory");
  if ((st = lk_grasp_wrenches(c, nc, &opt, W, NULL, NULL, err))) {
    lk_free(W);
    return st;
  }
  double scale = 0;
  for (int i = 0; i < 6 * N; i++) scale = fmax(scale, fabs(W[i]));
  if (lk_grasp_rank6(W, N, opt.tolerance, NULL) < 6) { /* flat: no interior */
    lk_free(W);
    return LK_OK;
  }
  double eps;
  /* 1e-12 of the generators' size: far below what any grasp decision
   * rests on, and what the hull's facets are accurate to. */
  int rc = lk_grasp_epsilon_epa(W, N, 1e-12 * scale, 64 * N + 1024, &eps, NULL);
  lk_free(W);
  if (rc < 0) return lk_error_set(err, LK_OUT_OF_MEMORY, "epsilon: out of memory");
  if (rc == 2) return LK_OK; /* the origin outside: not closed */
  if (rc == 0) {
    *epsilon = eps > opt.tolerance ? eps : 0.0;
    return LK_OK;
  }
  if (used_qhull) *used_qhull = 1;
  lk_grasp_quality q;
  if ((st = quality_hull(c, nc, o, &q, 0, err))) return st;
  *epsilon = q.epsilon;
  return LK_OK;
}
