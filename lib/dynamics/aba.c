/* Articulated-body algorithm: forward dynamics in O(n) (Featherstone 2008,
 * table 7.1), for joints of any DoF count, armature included. */
#include <string.h>

#include "core/internal.h"
#include "dynamics/dynamics_impl.h"

/* Articulated inertia times a motion: (A w + B v, B^T w + C v). */
static inline lk_force abi_mul(const lk_abi *I, lk_motion v) {
  return lk_fo(lk_v3_add(lk_m3_mulv(&I->A, v.ang), lk_m3_mulv(&I->B, v.lin)),
               lk_v3_add(lk_m3_tmulv(&I->B, v.ang), lk_m3_mulv(&I->C, v.lin)));
}

static inline void abi_from_rigid(lk_abi *out, const lk_inertia *I) {
  out->A = I->I;
  out->B = lk_m3_skew(I->h);
  out->C = lk_m3_diag(I->m, I->m, I->m);
}

/* I -= s U U^T for a 6-vector U = (ang, lin). */
static inline void abi_sub_outer(lk_abi *I, lk_force U, double s) {
  lk_vec3 a = U.ang, l = U.lin;
  lk_vec3 as = lk_v3_scale(a, s), ls = lk_v3_scale(l, s);
  double av[3] = {a.x, a.y, a.z}, lv[3] = {l.x, l.y, l.z};
  double asv[3] = {as.x, as.y, as.z}, lsv[3] = {ls.x, ls.y, ls.z};
  LK_UNROLL3 for (int r = 0; r < 3; r++)
    LK_UNROLL3 for (int c = 0; c < 3; c++) {
      I->A.m[r][c] -= asv[r] * av[c];
      I->B.m[r][c] -= asv[r] * lv[c];
      I->C.m[r][c] -= lsv[r] * lv[c];
    }
}

/* R S R^T for a symmetric S: T = R S, then only the upper triangle of
 * T R^T, mirrored (45 products instead of 54). */
static inline lk_mat3 rotate_sym(const lk_mat3 *R, const lk_mat3 *S) {
  lk_mat3 T = lk_m3_mul(R, S), Y;
  LK_UNROLL3 for (int i = 0; i < 3; i++)
    LK_UNROLL3 for (int j = i; j < 3; j++)
      Y.m[i][j] = Y.m[j][i] =
          T.m[i][0] * R->m[j][0] + T.m[i][1] * R->m[j][1] + T.m[i][2] * R->m[j][2];
  return Y;
}

/* Ip += X^T Ic X, the inertia of a child (frame pose X = (R, p) in the
 * parent) seen from the parent: rotate each block, R [.] R^T, then shift the
 * reference point by p. With P = [p]x the shift is
 *   A' = A - B P - (B P)^T - P C P,  B' = B + P C,  C' = C,
 * where row r of B P is (row r of B) x p, column j of P C is p x (column j
 * of C), and row r of P C P is (row r of P C) x p: cross products instead
 * of dense products with the skew matrix. */
static void abi_add_to_parent(lk_abi *Ip, const lk_transform *X, const lk_abi *Ic) {
  lk_mat3 A = rotate_sym(&X->R, &Ic->A);
  lk_mat3 B = lk_m3_rotate_tensor(&X->R, &Ic->B);
  lk_mat3 C = rotate_sym(&X->R, &Ic->C);
  const lk_vec3 p = X->p;
  lk_mat3 BP, PC, PCP;
  LK_UNROLL3 for (int j = 0; j < 3; j++) {
    lk_vec3 pc = lk_v3_cross(p, lk_m3_col(&C, j));
    PC.m[0][j] = pc.x, PC.m[1][j] = pc.y, PC.m[2][j] = pc.z;
  }
  LK_UNROLL3 for (int r = 0; r < 3; r++) {
    lk_vec3 bp = lk_v3_cross(lk_m3_row(&B, r), p), pcp = lk_v3_cross(lk_m3_row(&PC, r), p);
    BP.m[r][0] = bp.x, BP.m[r][1] = bp.y, BP.m[r][2] = bp.z;
    PCP.m[r][0] = pcp.x, PCP.m[r][1] = pcp.y, PCP.m[r][2] = pcp.z;
  }
  LK_UNROLL3 for (int r = 0; r < 3; r++)
    LK_UNROLL3 for (int c = 0; c < 3; c++) {
      Ip->A.m[r][c] += A.m[r][c] - BP.m[r][c] - BP.m[c][r] - PCP.m[r][c];
      Ip->B.m[r][c] += B.m[r][c] + PC.m[r][c];
      Ip->C.m[r][c] += C.m[r][c];
    }
}

void lk_dyn_aba(const lk_model *m, lk_data *d, const double *tau, const lk_force *fext,
                const double *diag, double *qacc) {
  lk_dyn_data *dd = &d->dyn;
  const int nl = m->nlink;
  lk_abi *IA = dd->IA;
  lk_force *pA = dd->pA, *U = dd->U;
  double *u = dd->u, *Df = dd->Dfac;
  const lk_motion *S = d->S;

  /* Pass 1 (the velocities are from kinematics): rigid inertias and the
   * bias forces v x* I v - f_ext, link frame. */
  for (int i = 1; i < nl; i++) {
    abi_from_rigid(&IA[i], &m->inertia[i]);
    lk_force Iv = lk_inertia_mul(&m->inertia[i], d->vl[i]);
    pA[i] = lk_mo_cross_fo(d->vl[i], Iv);
    if (fext) pA[i] = lk_fo_sub(pA[i], lk_tf_inv_force(&d->xw[i], fext[i]));
  }

  /* Pass 2, leaves to root: U = I^A S, D = S^T U, u = tau - S^T p^A, and
   * the articulated inertia and bias the link passes to its parent. */
  for (int i = nl - 1; i > 0; i--) {
    const int n = m->jnv[i], k0 = m->vadr[i], p = m->parent[i];
    /* IA[i] is not needed after this pass, so I^a is formed in place. */
    lk_abi *Ia = &IA[i];
    lk_force pa;
    if (n == 0) {
      /* Welded: the whole inertia and bias go to the parent (c = 0). */
      if (p > 0) {
        abi_add_to_parent(&IA[p], &d->xup[i], Ia);
        pA[p] = lk_fo_add(pA[p], lk_tf_force(&d->xup[i], pA[i]));
      }
      continue;
    }
    if (n == 1) {
      /* S = (axis, 0) or (0, axis): half of I^A S is known to vanish. */
      const lk_vec3 ax = m->axis[i];
      lk_force Uk;
      if (m->jtype[i] == LK_JOINT_REVOLUTE)
        Uk = lk_fo(lk_m3_mulv(&Ia->A, ax), lk_m3_tmulv(&Ia->B, ax));
      else
        Uk = lk_fo(lk_m3_mulv(&Ia->B, ax), lk_m3_mulv(&Ia->C, ax));
      U[k0] = Uk;
      u[k0] = tau[k0] - lk_mo_dot_fo(S[k0], pA[i]);
      double D = lk_mo_dot_fo(S[k0], Uk) + m->dof_armature[k0] + (diag ? diag[k0] : 0.0);
      double Dinv = 1.0 / D;
      Df[(size_t)k0 * 6] = Dinv;
      if (p == 0) continue;
      abi_sub_outer(Ia, Uk, Dinv);
      pa = lk_fo_add(lk_fo_add(pA[i], abi_mul(Ia, d->cl[i])), lk_fo_scale(Uk, u[k0] * Dinv));
    } else {
      for (int c = 0; c < n; c++) {
        int k = k0 + c;
        U[k] = abi_mul(Ia, S[k]);
        u[k] = tau[k] - lk_mo_dot_fo(S[k], pA[i]);
      }
      /* D = L L^T (Cholesky, n <= 6) in the rows of Df. Then with
       * W = U L^-T and y = L^-1 u: U D^-1 U^T = W W^T, U D^-1 u = W y. */
      for (int r = 0; r < n; r++) {
        double *Lr = Df + (size_t)(k0 + r) * 6;
        for (int c = 0; c <= r; c++) {
          double x = lk_mo_dot_fo(S[k0 + r], U[k0 + c]);
          if (r == c) x += m->dof_armature[k0 + r] + (diag ? diag[k0 + r] : 0.0);
          const double *Lc = Df + (size_t)(k0 + c) * 6;
          for (int j = 0; j < c; j++) x -= Lr[j] * Lc[j];
          Lr[c] = r == c ? sqrt(x) : x / Lc[c];
        }
      }
      if (p == 0) continue;
      lk_force W[6];
      double y[6];
      pa = pA[i];
      for (int r = 0; r < n; r++) {
        const double *Lr = Df + (size_t)(k0 + r) * 6;
        lk_force w = U[k0 + r];
        double yr = u[k0 + r];
        for (int j = 0; j < r; j++) {
          w = lk_fo_madd(w, W[j], -Lr[j]);
          yr -= Lr[j] * y[j];
        }
        W[r] = lk_fo_scale(w, 1.0 / Lr[r]);
        y[r] = yr / Lr[r];
        abi_sub_outer(Ia, W[r], 1.0);
      }
      pa = lk_fo_add(pa, abi_mul(Ia, d->cl[i]));
      for (int r = 0; r < n; r++) pa = lk_fo_madd(pa, W[r], y[r]);
    }
    abi_add_to_parent(&IA[p], &d->xup[i], Ia);
    pA[p] = lk_fo_add(pA[p], lk_tf_force(&d->xup[i], pa));
  }

  /* Pass 3, root to leaves: qacc = D^-1 (u - U^T a'), a' = X a_p + c, with
   * gravity as the base acceleration a_0 = -g. */
  lk_motion *a = dd->a;
  a[0] = lk_mo(lk_v3_zero(), lk_v3_neg(m->opt.gravity));
  for (int i = 1; i < nl; i++) {
    const int n = m->jnv[i], k0 = m->vadr[i];
    lk_motion ai = lk_mo_add(lk_tf_inv_motion(&d->xup[i], a[m->parent[i]]), d->cl[i]);
    if (n == 1) {
      double x = (u[k0] - lk_mo_dot_fo(ai, U[k0])) * Df[(size_t)k0 * 6];
      qacc[k0] = x;
      ai = lk_mo_madd(ai, S[k0], x);
    } else if (n > 1) {
      double x[6];
      for (int r = 0; r < n; r++) {
        const double *Lr = Df + (size_t)(k0 + r) * 6;
        double t = u[k0 + r] - lk_mo_dot_fo(ai, U[k0 + r]);
        for (int j = 0; j < r; j++) t -= Lr[j] * x[j];
        x[r] = t / Lr[r];
      }
      for (int r = n - 1; r >= 0; r--) {
        double t = x[r];
        for (int j = r + 1; j < n; j++) t -= Df[(size_t)(k0 + j) * 6 + r] * x[j];
        x[r] = t / Df[(size_t)(k0 + r) * 6 + r];
      }
      for (int r = 0; r < n; r++) {
        qacc[k0 + r] = x[r];
        ai = lk_mo_madd(ai, S[k0 + r], x[r]);
      }
    }
    a[i] = ai;
  }
}
