/* Constraint rows: what every constraint contributes to the step's LCP.
 *
 * A row is one component of the constraint Jacobian J (w.r.t. v) with a
 * right-hand side and a kind. Rows are stored sparsely by kinematic *tree*
 * (the subtree of one root link, whose DoFs are a contiguous range of v and
 * whose block of M is independent of every other tree): a row touches at
 * most two trees, and holds a dense segment of values over each tree's DoF
 * range. So rows, M^-1 J^T and the Delassus matrix are computed tree by
 * tree, and rows that share no tree fall into separate islands, each its
 * own small LCP.
 *
 * Every row is J v+ + bias = w, with the velocity v+ = v* + M^-1 J^T z
 * after the impulses z; the kinds:
 *   FREE        w = 0, z free (bilateral: loops, couplings)
 *   UNILATERAL  0 <= z  complementary to  w >= 0 (contact normals, limits,
 *               tethers)
 *   BOX         lo <= z <= hi with constant bounds (joint dry friction)
 *   FRICTION    |z| <= mu z_normal, z_normal the impulse of another row of
 *               the same island (contact friction, torsion, rolling). Two
 *               FRICTION rows that form an isotropic disk (two tangents)
 *               name each other as `pair`. */
#ifndef LK_CONSTRAINT_ROWS_H
#define LK_CONSTRAINT_ROWS_H

#include <stddef.h>

#include "linkage/constraint.h"
#include "linkage/math.h"

typedef enum { LK_ROW_FREE = 0, LK_ROW_UNILATERAL, LK_ROW_BOX, LK_ROW_FRICTION } lk_row_kind;

typedef struct {
  lk_row_kind kind;
  double lo, hi;  /* BOX: impulse bounds (N s) */
  int normal;     /* FRICTION: index of the normal row */
  double mu;      /* FRICTION: bound coefficient */
  int pair;       /* FRICTION: partner tangent row of a disk, or -1 */
  double bias;    /* stabilization and restitution term */
  double perr;    /* FREE rows: position error c, corrected by J dq = -c */
  int tree[2];    /* trees touched (root link index), -1 for none */
  int v0[2];      /* first DoF of each tree */
  int len[2];     /* DoFs of each tree */
  size_t ofs;     /* values at jval + ofs (len[0] then len[1]); Y likewise */
  lk_constraint_kind ckind; /* owner */
  int cindex;     /* owner's index (contact report index or model index) */
  int crow;       /* row within the owner */
  int island;     /* island index after grouping */
  double jv;      /* J v* (computed with the Delassus matrix) */
  int link_a, link_b; /* links the row acts on (b may be 0, the world) */
  int dof_row;    /* 1: a joint-space row (limits, dry friction, couplings) */
  int aside;      /* a speculative contact's row set aside from the islands
                     (1), or taken back in after its gap closed (2, 3 in
                     the round that does; island.c, solve.c) */
  lk_force F;     /* spatial rows: the unit wrench on link a (world, about
                     the origin); -F acts on link b */
  double z;       /* impulse of the last solve (N s) */
  double w;       /* J v+ + bias after the solve */
  int realigned;  /* FRICTION pairs: slip re-alignments this step */
  int turn_valid; /* turn_prop and turn_step describe the last re-alignment */
  int unlocked;   /* FRICTION pairs: lock released this step (once only) */
  int state0;     /* contact rows: the friction state the step began with,
                     and basis0 the row's remembered LCP state (solve.c: an
                     island solved again starts from them) */
  double turn_prop, turn_step; /* its proposed and applied turns, rad */
  double mu0;                   /* mu as the step began (see state0) */
  int basis0;
  int unconv[2];               /* an island's first row: what its solve
                                  added to friction_unconverged and
                                  nsgs_loose (taken back if it is solved
                                  again, solve.c) */
  int guessed;                 /* its island was answered by the last
                                  impulses: no Y, its velocity change is in
                                  sim.dvg (solve.c) */
  double turn_gain;            /* the largest share of a proposed turn
                                  applied (halved when the turns flip) */
} lk_row;

#endif
