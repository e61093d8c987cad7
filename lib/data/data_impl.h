/* The layout of lk_data, shared by the library's layers (not installed).
 *
 * Every pointer below points into d->arena and is assigned once by
 * lk_data_new(); every number the library computes or remembers lives in
 * the arena. Each layer owns one sub-struct (lk_dyn_data, lk_col_data,
 * lk_sim_data) declared in its own header, with a layout function (called
 * twice, see arena.h) and a reset function; data.c calls them in layer
 * order. A layer adds state by adding fields to its own sub-struct. */
#ifndef LK_DATA_IMPL_H
#define LK_DATA_IMPL_H

#include "collision/col_data.h"
#include "data/arena.h"
#include "dynamics/dyn_data.h"
#include "linkage/data.h"
#include "model/model_impl.h"
#include "sim/sim_data.h"

/* Scalars of the state (in the arena, so that they are copied too). */
typedef struct {
  double time;
  long long steps; /* steps taken since the last reset */
  int kinematics_valid; /* poses and velocities match q and v */
} lk_data_scalars;

struct lk_data {
  const lk_model *model;
  char *arena;
  size_t arena_size;

  lk_data_scalars *s;

  /* state and inputs */
  double *q;    /* nq */
  double *v;    /* nv */
  double *qacc; /* nv, from the last forward dynamics */
  double *tau;  /* nv, applied generalized forces (user input) */
  lk_force *fext; /* per link: external wrench about the world origin, world
                     coordinates (user input) */

  /* kinematics (lk_forward_kinematics) */
  lk_transform *xup; /* per link: pose in the parent link's frame */
  lk_transform *xw;  /* per link: pose in the world */
  lk_motion *vl;     /* per link: spatial velocity in the link frame */
  lk_motion *cl;     /* per link: velocity-product acceleration c_J + v x v_J
                        in the link frame (Featherstone 2008, eq. 5.7) */
  lk_motion *S;      /* per DoF: motion subspace column in its link's frame */

  lk_dyn_data dyn;
  lk_col_data col;
  lk_sim_data sim;
};

/* Argument checks for the layers' entry points. */
static inline int lk_data_matches(const lk_model *m, const lk_data *d) {
  return m && d && m->finalized && d->model == m;
}

#endif
