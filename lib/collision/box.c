/* Box against box: the separating-axis test over the 15 axes of two
 * oriented boxes (Gottschalk, Lin, Manocha, "OBBTree", 1996; Ericson 4.4.1),
 * then either a face manifold, by clipping the incident face against the
 * reference face (Sutherland-Hodgman; the scheme of Box2D and ODE's
 * dBoxBox, Gregorius, GDC 2015), or one point between the two edges of an
 * edge-edge contact.
 *
 * The reference face is a face of a unless one of b's separates clearly
 * better, and an edge axis wins only when it separates clearly better than
 * every face axis: those small biases keep resting stacks on one reference
 * face from pass to pass, so the feature ids of their 4 corners persist. */
#include <math.h>

#include "collision/shape.h"

static unsigned face_index(int axis, double sgn) { return (unsigned)(2 * axis + (sgn < 0)); }

void lk_col_box_box(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out) {
  lk_vec3 A[3], B[3];
  for (int i = 0; i < 3; i++) {
    A[i] = lk_m3_col(&a->X.R, i);
    B[i] = lk_m3_col(&b->X.R, i);
  }
  const double *ha = a->size, *hb = b->size;
  lk_vec3 t = lk_v3_sub(b->X.p, a->X.p); /* from a to b */
  double R[3][3], C[3][3]; /* A_i . B_j and its magnitude */
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      R[i][j] = lk_v3_dot(A[i], B[j]);
      C[i][j] = fabs(R[i][j]);
    }
  double T[3]; /* t in a's axes */
  for (int i = 0; i < 3; i++) T[i] = lk_v3_dot(t, A[i]);

  double best_fa = -INFINITY, best_fb = -INFINITY, best_e = -INFINITY;
  int ka = 0, kb = 0, ei = -1, ej = -1;
  for (int i = 0; i < 3; i++) {
    double sep = fabs(T[i]) - ha[i] - (hb[0] * C[i][0] + hb[1] * C[i][1] + hb[2] * C[i][2]);
    if (sep > margin) return;
    if (sep > best_fa) {
      best_fa = sep;
      ka = i;
    }
  }
  for (int j = 0; j < 3; j++) {
    double sep = fabs(lk_v3_dot(t, B[j])) - hb[j] -
                 (ha[0] * C[0][j] + ha[1] * C[1][j] + ha[2] * C[2][j]);
    if (sep > margin) return;
    if (sep > best_fb) {
      best_fb = sep;
      kb = j;
    }
  }
  /* Edge axes L = A_i x B_j from R and T (Gottschalk et al.; Ericson
   * 4.4.1): with (i1, i2) and (j1, j2) the other two axes in cyclic order,
   * t . L = T_i2 R_i1j - T_i1 R_i2j, sum_k ha_k |A_k . L| = ha_i1 C_i2j +
   * ha_i2 C_i1j and sum_k hb_k |B_k . L| = hb_j1 C_ij2 + hb_j2 C_ij1, all
   * over |L|: no normalized axis and no dot products until one wins. */
  for (int i = 0; i < 3; i++) {
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    for (int j = 0; j < 3; j++) {
      const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      double ln = lk_v3_norm(lk_v3_cross(A[i], B[j]));
      if (ln < 1e-6) continue; /* parallel edges: covered by the face axes */
      double ra = ha[i1] * C[i2][j] + ha[i2] * C[i1][j];
      double rb = hb[j1] * C[i][j2] + hb[j2] * C[i][j1];
      double sep = (fabs(T[i2] * R[i1][j] - T[i1] * R[i2][j]) - ra - rb) / ln;
      if (sep > margin) return;
      if (sep > best_e) {
        best_e = sep;
        ei = i;
        ej = j;
      }
    }
  }
  lk_vec3 eL = ei >= 0 ? lk_v3_normalize(lk_v3_cross(A[ei], B[ej])) : lk_v3_zero();

  double scale = fmin(fmin(fmin(ha[0], ha[1]), ha[2]), fmin(fmin(hb[0], hb[1]), hb[2]));
  int ref_is_b = best_fb > best_fa + 1e-5 * scale;
  double best_face = ref_is_b ? best_fb : best_fa;
  int edge = ei >= 0 && best_e > best_face + 1e-3 * scale + 0.05 * fabs(best_face);

  if (!edge) {
    const lk_shape *ref = ref_is_b ? b : a, *inc = ref_is_b ? a : b;
    const lk_vec3 *RA = ref_is_b ? B : A, *IA = ref_is_b ? A : B;
    const double *hr = ref->size, *hi = inc->size;
    int k = ref_is_b ? kb : ka;
    lk_vec3 d = lk_v3_sub(inc->X.p, ref->X.p);
    double sr = lk_v3_dot(d, RA[k]) >= 0 ? 1.0 : -1.0;
    lk_vec3 nref = lk_v3_scale(RA[k], sr); /* from ref towards inc */
    lk_vec3 c = lk_v3_madd(ref->X.p, nref, hr[k]);
    int ku = (k + 1) % 3, kv = (k + 2) % 3;
    /* Incident face: the face of inc most anti-parallel to nref. */
    int j = 0;
    double dj[3];
    for (int q = 0; q < 3; q++) dj[q] = lk_v3_dot(nref, IA[q]);
    for (int q = 1; q < 3; q++)
      if (fabs(dj[q]) > fabs(dj[j])) j = q;
    double si = dj[j] > 0 ? -1.0 : 1.0;
    int ju = (j + 1) % 3, jv = (j + 2) % 3;
    lk_vec3 ci = lk_v3_madd(inc->X.p, IA[j], si * hi[j]);
    lk_vec3 U = lk_v3_scale(IA[ju], hi[ju]), V = lk_v3_scale(IA[jv], hi[jv]);
    lk_vec3 poly[4] = {lk_v3_add(lk_v3_add(ci, U), V), lk_v3_add(lk_v3_sub(ci, U), V),
                       lk_v3_sub(lk_v3_sub(ci, U), V), lk_v3_sub(lk_v3_add(ci, U), V)};
    lk_vec3 pts[LK_COL_CLIP_MAX];
    unsigned codes[LK_COL_CLIP_MAX];
    double tol = 1e-5 * fmax(hr[ku], hr[kv]);
    int np = lk_col_clip_rect(poly, 4, c, RA[ku], RA[kv], hr[ku], hr[kv], tol, pts, codes);
    lk_vec3 normal = ref_is_b ? nref : lk_v3_neg(nref);
    unsigned base = ((unsigned)ref_is_b << 12) | (face_index(k, sr) << 9) |
                    (face_index(j, si) << 6);
    if (lk_col_emit_face(out, pts, codes, np, c, nref, normal, margin, scale, base) > 0 || ei < 0)
      return;
  }

  /* Edge-edge: the edge of a parallel to A_i farthest towards b, and the
   * edge of b parallel to B_j farthest towards a; one point between them. */
  lk_vec3 nab = lk_v3_dot(t, eL) >= 0 ? eL : lk_v3_neg(eL); /* from a to b */
  lk_vec3 ca = a->X.p, cb = b->X.p;
  unsigned bits_a = 0, bits_b = 0;
  for (int k = 0, bit = 0; k < 3; k++) {
    if (k == ei) continue;
    double s = lk_v3_dot(nab, A[k]) >= 0 ? 1.0 : -1.0;
    ca = lk_v3_madd(ca, A[k], s * ha[k]);
    bits_a |= (unsigned)(s > 0) << bit++;
  }
  for (int k = 0, bit = 0; k < 3; k++) {
    if (k == ej) continue;
    double s = lk_v3_dot(nab, B[k]) >= 0 ? -1.0 : 1.0;
    cb = lk_v3_madd(cb, B[k], s * hb[k]);
    bits_b |= (unsigned)(s > 0) << bit++;
  }
  double s, u;
  lk_vec3 pa, pb;
  lk_col_segments_closest(lk_v3_madd(ca, A[ei], -ha[ei]), lk_v3_madd(ca, A[ei], ha[ei]),
                          lk_v3_madd(cb, B[ej], -hb[ej]), lk_v3_madd(cb, B[ej], hb[ej]), &s, &u,
                          &pa, &pb);
  unsigned feature = (1u << 15) | ((unsigned)(3 * ei + ej) << 4) | (bits_a << 2) | bits_b;
  lk_col_emit(out, pa, pb, lk_v3_neg(nab), -best_e, feature);
}
