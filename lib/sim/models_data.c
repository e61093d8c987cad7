/* Layout of issue 8's part of the simulation data (models_data.h). */
#include "model/model_impl.h"
#include "sim/models_data.h"

void lk_models_data_layout(const lk_model *m, lk_models_data *x, int row_cap, int contact_cap,
                           lk_arena *a, lk_arena *c) {
  x->st = LK_ARENA_ARRAY(a, lk_models_scalars, 1);
  x->sup = LK_ARENA_ARRAY(a, lk_support_mem, m->nsup);
  x->K = LK_ARENA_ARRAY(a, double, m->nv);
  x->r = LK_ARENA_ARRAY(a, double, m->nv);
  x->du_free = LK_ARENA_ARRAY(a, double, m->nv);
  x->du = LK_ARENA_ARRAY(a, double, m->nv);
  x->delta = LK_ARENA_ARRAY(a, double, m->nv);
  x->total = LK_ARENA_ARRAY(a, double, m->nv);
  x->rlo = LK_ARENA_ARRAY(c, double, row_cap);
  x->rhi = LK_ARENA_ARRAY(c, double, row_cap);
  x->rmu = LK_ARENA_ARRAY(c, double, row_cap);
  x->rdiag = LK_ARENA_ARRAY(c, double, row_cap);
  x->rfn = LK_ARENA_ARRAY(c, int, row_cap);
  x->slip = LK_ARENA_ARRAY(c, double, row_cap);
  x->lam = LK_ARENA_ARRAY(c, double, row_cap);
  x->zprev = LK_ARENA_ARRAY(c, double, row_cap);
  x->fcomp = LK_ARENA_ARRAY(a, double, m->nv);
  x->wcomp = LK_ARENA_ARRAY(a, lk_force, m->nlink);
  x->compliant = LK_ARENA_ARRAY(c, unsigned char, contact_cap);
}
