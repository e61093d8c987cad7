/* Face manifolds: clipping an incident feature (segment or convex polygon)
 * against a reference rectangle (Sutherland-Hodgman, one side plane at a
 * time) or disk, with codes that name where each point came from, and the
 * reduction of a clipped polygon to 4 points. */
#include <math.h>

#include "collision/shape.h"

typedef struct {
  lk_vec3 p;
  unsigned code;
  int label; /* the edge leaving this vertex: incident edge e (0..3), or
                100 + s along reference side s */
} vtx;

static unsigned corner_code(int s1, int s2) {
  if ((s1 + 1) % 4 == s2) return 20u + (unsigned)s1;
  if ((s2 + 1) % 4 == s1) return 20u + (unsigned)s2;
  return 24u + (unsigned)s2; /* opposite sides never meet; kept unique */
}

/* Drop points within tol of the previous kept one (cyclically when the
 * polygon closes), so that a vertex lying on a side does not come out
 * twice. */
static int dedupe(vtx *v, int n, double tol, int cyclic) {
  int m = 0;
  double t2 = tol * tol;
  for (int i = 0; i < n; i++) {
    if (m > 0 && lk_v3_norm2(lk_v3_sub(v[i].p, v[m - 1].p)) <= t2) continue;
    v[m++] = v[i];
  }
  if (cyclic && m > 1 && lk_v3_norm2(lk_v3_sub(v[m - 1].p, v[0].p)) <= t2) m--;
  return m;
}

static int finish(vtx *v, int n, double tol, int cyclic, lk_vec3 *out, unsigned *codes) {
  n = dedupe(v, n, tol, cyclic);
  for (int i = 0; i < n; i++) {
    out[i] = v[i].p;
    codes[i] = v[i].code;
  }
  return n;
}

int lk_col_clip_rect(const lk_vec3 *v, int n, lk_vec3 c, lk_vec3 eu, lk_vec3 ev, double hu,
                     double hv, double tol, lk_vec3 *out, unsigned *codes) {
  lk_vec3 dirs[4] = {eu, ev, lk_v3_neg(eu), lk_v3_neg(ev)};
  double hs[4] = {hu, hv, hu, hv};
  double mtol = fmax(tol, 1e-12 * (fabs(hu) + (isfinite(hv) ? fabs(hv) : 0)));
  vtx buf[2][LK_COL_CLIP_MAX];
  if (n == 2) {
    /* A segment: Liang-Barsky on the parameter, the ends within tol of a
     * side kept as they are. */
    lk_vec3 D = lk_v3_sub(v[1], v[0]);
    double t0 = 0, t1 = 1;
    unsigned c0 = 0, c1 = 1;
    for (int s = 0; s < 4; s++) {
      if (!isfinite(hs[s])) continue;
      double d0 = lk_v3_dot(lk_v3_sub(v[0], c), dirs[s]) - hs[s];
      double dd = lk_v3_dot(D, dirs[s]);
      if (dd == 0) {
        if (d0 > tol) return 0;
        continue;
      }
      double tc = -d0 / dd; /* where the side plane is crossed */
      if (dd > 0 && d0 + t1 * dd > tol && tc < t1) {
        t1 = tc;
        c1 = 4u + (unsigned)s;
      } else if (dd < 0 && d0 + t0 * dd > tol && tc > t0) {
        t0 = tc;
        c0 = 4u + (unsigned)s;
      }
    }
    if (t0 > t1) return 0;
    buf[0][0] = (vtx){lk_v3_madd(v[0], D, t0), c0, 0};
    buf[0][1] = (vtx){lk_v3_madd(v[0], D, t1), c1, 0};
    return finish(buf[0], 2, mtol, 0, out, codes);
  }
  int m = n, cur = 0;
  for (int k = 0; k < n; k++) buf[0][k] = (vtx){v[k], (unsigned)k, k};
  for (int s = 0; s < 4 && m > 0; s++) {
    if (!isfinite(hs[s])) continue;
    vtx *in = buf[cur], *o = buf[1 - cur];
    int mo = 0;
    /* Each vertex's distance once (it is P of one edge and Q of another). */
    double dist[LK_COL_CLIP_MAX];
    for (int i = 0; i < m; i++) dist[i] = lk_v3_dot(lk_v3_sub(in[i].p, c), dirs[s]) - hs[s];
    for (int i = 0; i < m; i++) {
      const vtx *P = &in[i], *Q = &in[i + 1 < m ? i + 1 : 0];
      double dP = dist[i], dQ = dist[i + 1 < m ? i + 1 : 0];
      int inP = dP <= tol, inQ = dQ <= tol;
      if (inP) o[mo++] = *P;
      if (inP != inQ) {
        double al = fmin(fmax(dP / (dP - dQ), 0.0), 1.0);
        vtx X;
        X.p = lk_v3_add(P->p, lk_v3_scale(lk_v3_sub(Q->p, P->p), al));
        X.code = P->label < 100 ? 4u + 4u * (unsigned)P->label + (unsigned)s
                                : corner_code(P->label - 100, s);
        X.label = inP ? 100 + s : P->label;
        o[mo++] = X;
      }
    }
    m = mo;
    cur = 1 - cur;
  }
  return finish(buf[cur], m, mtol, 1, out, codes);
}

int lk_col_clip_disk(const lk_vec3 *v, int n, lk_vec3 c, lk_vec3 eu, lk_vec3 ev, double r,
                     double tol, lk_vec3 *out, unsigned *codes) {
  vtx o[LK_COL_CLIP_MAX];
  int m = 0;
  double rin = (r + tol) * (r + tol);
  int nedge = n == 2 ? 1 : n;
  for (int e = 0; e < nedge; e++) {
    lk_vec3 P = v[e], Q = v[(e + 1) % n];
    double px = lk_v3_dot(lk_v3_sub(P, c), eu), py = lk_v3_dot(lk_v3_sub(P, c), ev);
    double qx = lk_v3_dot(lk_v3_sub(Q, c), eu), qy = lk_v3_dot(lk_v3_sub(Q, c), ev);
    int inP = px * px + py * py <= rin, inQ = qx * qx + qy * qy <= rin;
    if (inP) o[m++] = (vtx){P, (unsigned)e, e};
    if (inP && inQ) continue; /* a chord of a convex disk stays inside */
    double dx = qx - px, dy = qy - py;
    double A = dx * dx + dy * dy, B = 2 * (px * dx + py * dy), Cq = px * px + py * py - r * r;
    double disc = B * B - 4 * A * Cq;
    if (!(A > 0) || disc < 0) continue; /* misses the circle */
    double sq = sqrt(disc);
    double t_in = (-B - sq) / (2 * A), t_out = (-B + sq) / (2 * A);
    lk_vec3 D = lk_v3_sub(Q, P);
    /* Entering (P out, Q in), leaving (P in, Q out), or a chord through the
     * disk with both ends outside. */
    int enter = !inP && (inQ || (t_in > 0 && t_out < 1));
    int leave = !inQ && (inP || (t_in > 0 && t_out < 1));
    if (enter)
      o[m++] = (vtx){lk_v3_madd(P, D, fmin(fmax(t_in, 0.0), 1.0)), 4u + 2u * (unsigned)e, e};
    if (leave)
      o[m++] = (vtx){lk_v3_madd(P, D, fmin(fmax(t_out, 0.0), 1.0)), 5u + 2u * (unsigned)e, e};
  }
  if (n == 2) {
    lk_vec3 Q = v[1];
    double qx = lk_v3_dot(lk_v3_sub(Q, c), eu), qy = lk_v3_dot(lk_v3_sub(Q, c), ev);
    if (qx * qx + qy * qy <= rin) o[m++] = (vtx){Q, 1u, 0};
  }
  return finish(o, m, fmax(tol, 1e-12 * r), n != 2, out, codes);
}

/* Among candidates, the best score, with ties (within tol of the best)
 * going to the smallest code; -1 when no candidate qualifies. */
static int pick(const lk_col_cand *c, int n, const double *score, const int *used, double tol) {
  double best = -INFINITY;
  for (int i = 0; i < n; i++)
    if (!used[i] && score[i] > best) best = score[i];
  if (best == -INFINITY) return -1;
  int k = -1;
  for (int i = 0; i < n; i++)
    if (!used[i] && score[i] >= best - tol && (k < 0 || c[i].code < c[k].code)) k = i;
  return k;
}

int lk_col_reduce(const lk_col_cand *c, int n, lk_vec3 nref, double tol_len, double tol_depth,
                  int idx[4]) {
  if (n <= 4) {
    for (int i = 0; i < n; i++) idx[i] = i;
    return n;
  }
  int used[LK_COL_CLIP_MAX] = {0};
  double score[LK_COL_CLIP_MAX];
  int k = 0;
  for (int i = 0; i < n; i++) score[i] = c[i].depth;
  int i1 = pick(c, n, score, used, tol_depth);
  used[i1] = 1;
  idx[k++] = i1;
  for (int i = 0; i < n; i++) {
    lk_vec3 d = lk_v3_sub(c[i].p, c[i1].p);
    score[i] = lk_v3_norm(lk_v3_madd(d, nref, -lk_v3_dot(d, nref)));
  }
  int i2 = pick(c, n, score, used, tol_len);
  used[i2] = 1;
  idx[k++] = i2;
  lk_vec3 e = lk_v3_sub(c[i2].p, c[i1].p);
  double elen = lk_v3_norm(e);
  for (int side = 1; side >= -1; side -= 2) {
    for (int i = 0; i < n; i++)
      score[i] = side * lk_v3_dot(lk_v3_cross(e, lk_v3_sub(c[i].p, c[i1].p)), nref);
    int i3 = pick(c, n, score, used, tol_len * elen);
    if (i3 < 0 || !(score[i3] > tol_len * elen)) continue; /* nothing on this side */
    used[i3] = 1;
    idx[k++] = i3;
  }
  return k;
}

int lk_col_emit_face(lk_manifold *out, const lk_vec3 *pts, const unsigned *codes, int n,
                     lk_vec3 c, lk_vec3 nref, lk_vec3 normal, double margin, double scale,
                     unsigned base) {
  lk_col_cand cand[LK_COL_CLIP_MAX];
  int m = 0;
  for (int i = 0; i < n; i++) {
    double depth = lk_v3_dot(nref, lk_v3_sub(c, pts[i]));
    if (depth < -margin) continue;
    cand[m++] = (lk_col_cand){pts[i], depth, codes[i]};
  }
  int idx[4];
  int k = lk_col_reduce(cand, m, nref, 1e-6 * scale, 1e-6 * scale, idx);
  for (int i = 0; i < k; i++) {
    const lk_col_cand *q = &cand[idx[i]];
    lk_col_emit(out, q->p, lk_v3_madd(q->p, nref, q->depth), normal, q->depth, base | q->code);
  }
  return k;
}
