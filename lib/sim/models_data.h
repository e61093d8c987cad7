/* Issue 8's part of the simulation data: the quasi-static analysis
 * (static.c), compliant contacts (compliant.c) and smoothed friction
 * (smoothed.c). All of it lives in the data's arena, so lk_data_copy()
 * carries it; compliant contact history is in each contact's memory
 * (lk_contact_mem.hist), which persists with the contact. */
#ifndef LK_SIM_MODELS_DATA_H
#define LK_SIM_MODELS_DATA_H

#include "data/arena.h"
#include "linkage/math.h"
#include "linkage/model.h"
#include "linkage/statics.h"

/* The static analysis' secant on a sliding group's slip direction
 * (static.c: next_tangent): the last iteration's first tangent and the
 * angle from it to the slip, and the solve that recorded them (the count
 * in lk_models_scalars.static_iter; only the previous solve's is used). */
typedef struct {
  lk_vec3 t1;
  double g;
  long long iter;
} lk_slip_secant;

typedef struct {
  lk_friction_state state;
  lk_vec3 t1;       /* point support: first tangent (world) */
  lk_slip_secant sec; /* point support: the direction secant */
  int has_t1;
  double reaction;  /* joint support */
  lk_vec3 force;    /* point support */
  double slip;
  lk_vec3 slip_vec;
  int rows[2];
} lk_support_mem;

typedef struct {
  lk_static_report report;
  int nwarn_compliant; /* (unused) */
  long long static_iter; /* static solves made since the data's reset */
} lk_models_scalars;

typedef struct {
  lk_models_scalars *st;
  /* static analysis */
  lk_support_mem *sup; /* per support */
  double *K;           /* nv: stiffness diagonal */
  double *r;           /* nv: out-of-balance force without the constraints */
  double *du_free;     /* nv */
  double *du;          /* nv */
  double *delta;       /* nv: this increment so far */
  double *total;       /* nv: since lk_static_reset */
  /* per row: the settings of lk_sim_rows_lcp */
  double *rlo, *rhi, *rmu, *rdiag;
  int *rfn;            /* normal row of a friction row, -1 */
  double *slip, *lam;  /* smoothed friction: per row, the last iterate's slip and
                          the lagged normal impulse */
  double *zprev;       /* per row: the last iterate's impulse */
  /* compliant contacts */
  double *fcomp;       /* nv: generalized force of this step's compliant contacts */
  lk_force *wcomp;     /* per link: their wrenches (world, about the origin) */
  unsigned char *compliant; /* per contact report: 1 if compliant */
  int ncompliant;      /* this step */
} lk_models_data;

/* Model-sized arrays into a, those sized by rows or contacts into c (the
 * data's contact block, which grows). */
void lk_models_data_layout(const lk_model *m, lk_models_data *x, int row_cap, int contact_cap,
                           lk_arena *a, lk_arena *c);

#endif
