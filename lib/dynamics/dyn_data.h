/* The dynamics layer's part of lk_data (see data/data_impl.h): the mass
 * matrix and its factor, the workspaces of CRBA, RNEA and ABA, and the
 * scratch of the contact-free step. Every array points into the data's
 * arena, so lk_data_copy() copies it; nothing here is allocated later. */
#ifndef LK_DYN_DATA_H
#define LK_DYN_DATA_H

#include "data/arena.h"
#include "linkage/model.h"

/* A general symmetric 6x6 (articulated-body) inertia in Featherstone's
 * block form [A B; B^T C], acting on a motion (w, v) as
 * (A w + B v, B^T w + C v). A and C are symmetric. A rigid-body inertia
 * (m, h, I) is A = I, B = [h]x, C = m 1. */
typedef struct {
  lk_mat3 A, B, C;
} lk_abi;

/* Flags and small scalars of the layer (in the arena, so they are copied). */
typedef struct {
  int mass_valid;    /* M holds a CRBA result */
  int factor_valid;  /* L holds a factor of M */
  int factor_method; /* lk_factor_method of that factor */
  int kin_at_state;  /* the kinematics were last computed from d->q and d->v,
                        whose values then are kin_q, kin_v */
  /* The midpoint velocity forces' memory (step.c), a guess only: */
  int mid_valid;     /* how many of mid_corr's are from the last steps (0-2) */
  double mid_rho;    /* the passes' last measured contraction ratio */
  double mid_rate;   /* h |w|max nv when it was measured */
} lk_dyn_scalars;

typedef struct {
  lk_dyn_scalars *st;

  /* Mass matrix and its factor, per tree. M is block diagonal over the
   * model's trees of DoFs (model_impl.h: tree_vadr, tree_madr), and so are
   * both factors; only the blocks are stored, one after another: tree t's
   * n_t x n_t block (n_t = tree_vadr[t + 1] - tree_vadr[t]) is row-major
   * at M + tree_madr[t], entry (a, b) being M_ij for the DoFs
   * i = tree_vadr[t] + a, j = tree_vadr[t] + b. That is sum n_t^2 doubles
   * instead of nv^2. Within a block M is symmetric and the entries outside
   * the tree sparsity pattern stay zero. L has the same blocks and holds
   * either Featherstone's LTDL factor M = L^T D L (L unit lower triangular
   * with the sparsity of M), stored by columns: row a of a block holds
   * column a of L, entries L_ma for the descendants m of DoF a, which in
   * preorder are the contiguous range (a, dend - tree_vadr[t]); or GSL's
   * dense Cholesky M = L L^T of each block in its own layout.
   *
   * mrow addresses them by DoF: for DoFs i, j of one tree, M_ij is
   * M[mrow[i] + j], and the tree factor's L_ji (column i) is
   * L[mrow[i] + j]. */
  double *M;
  double *L;
  size_t *mrow; /* nv: tree_madr[t] + (i - v0) n_t - v0 for DoF i of tree t
                   (first DoF v0); never negative, since sum n^2 >= sum n
                   (a property of the model, set at reset) */
  double *D;     /* nv: D of the LTDL factor */
  double *Dinv;  /* nv: 1 / D */
  double *fwork; /* nv: factorization scratch */
  int *dend;     /* nv: one past the last descendant DoF of each DoF (a
                    property of the model, set at reset; never past the
                    end of the DoF's tree) */

  /* Per link. */
  lk_inertia *Ic; /* CRBA composite inertias, link frame */
  lk_abi *IA;     /* ABA articulated inertias, link frame */
  lk_force *pA;   /* ABA bias forces; RNEA link forces */
  lk_motion *a;   /* link spatial accelerations, link frame */

  /* Per DoF (ABA). */
  lk_force *U;  /* I^A S */
  double *Dfac; /* nv x 6: row k holds row (k - vadr) of the Cholesky factor
                   of the link's D = S^T I^A S + diag (1-DoF: 1 / D) */
  double *u;    /* tau - S^T p^A */

  /* Step scratch. */
  double *tau_tot;    /* nv: total generalized force of the step */
  lk_force *fext_tot; /* per link, world frame about the origin */
  double *diag;       /* nv: extra diagonal (h * damping) */
  double *tmp;        /* nv: general scratch */
  double *vnew;       /* nv */
  double *qnew;       /* nq */
  double *q0;         /* nq: RK4 start state */
  double *v0;         /* nv */
  double *kq;         /* 4 x nq: RK4 position rates */
  double *kv;         /* 4 x nv: RK4 accelerations */
  double *kin_q;      /* nq: the state the kinematics were computed at */
  double *kin_v;      /* nv (see kin_at_state) */

  /* Midpoint velocity forces (step.c): the midpoint velocity, the
   * explicit free acceleration; per link the velocities at the midpoint.
   * Kept from step to step (a guess only; zeroed by lk_data_reset, copied
   * by lk_data_copy with the arena): the last step's correction of the
   * explicit acceleration (its scalars are in st). */
  double *vmid;       /* nv */
  double *acc0;       /* nv */
  double *mid_corr;   /* 2 nv: the last step's, then the one before */
  lk_motion *vlm;     /* per link */
} lk_dyn_data;

void lk_dyn_data_layout(const lk_model *m, lk_dyn_data *dd, lk_arena *a);
void lk_dyn_data_reset(const lk_model *m, lk_dyn_data *dd);

#endif
