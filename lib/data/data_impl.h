/* The layout of lk_data, shared by the library's layers (not installed).
 *
 * Every pointer below points into the data's arena, which is two blocks:
 * the model-sized block (d->arena: state, inputs, kinematics, the dense
 * islands' workspaces), laid out once by lk_data_new() and never moved, so
 * that pointers a program holds (lk_data_q, lk_data_v, lk_data_tau) stay
 * valid; and the contact block (d->carena: contacts, their memory, rows,
 * row values and reports), sized by the contact capacity d->cap. When a
 * step finds more contacts than that, it grows the contact block
 * (lk_data_grow_contacts) and makes the step again; a grown block holds
 * the same values at the same indices. Every number the library computes
 * or remembers lives in the two blocks. Each layer owns one sub-struct
 * (lk_dyn_data, lk_col_data, lk_sim_data) declared in its own header, with
 * a layout function (called twice, see arena.h; model-sized arrays into
 * one arena, capacity-sized into the other) and a reset function; data.c
 * calls them in layer order. A layer adds state by adding fields to its
 * own sub-struct. */
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
  char *arena;       /* the model-sized block (never moves) */
  size_t arena_size;
  char *carena;      /* the contact block (grows) */
  size_t carena_size;
  int cap;           /* its contact capacity */

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

/* Grow (or shrink) the contact block to hold cap contacts, keeping
 * every contact, row and memory it holds (the arrays' first entries,
 * indexed alike in the new block); the simulation layer's scratch outside
 * the arena is resized with it. Allocates: called between steps or at a
 * step's start, never inside a solve. LK_OUT_OF_MEMORY leaves the data
 * as it was. */
lk_status lk_data_grow_contacts(lk_data *d, int cap);

/* Argument checks for the layers' entry points. */
static inline int lk_data_matches(const lk_model *m, const lk_data *d) {
  return m && d && m->finalized && d->model == m;
}

#endif
