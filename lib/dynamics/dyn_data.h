/* The dynamics layer's part of lk_data (see data/data_impl.h). */
#ifndef LK_DYN_DATA_H
#define LK_DYN_DATA_H

#include "data/arena.h"
#include "linkage/model.h"

typedef struct {
  int unused; /* filled in by the dynamics work */
} lk_dyn_data;

void lk_dyn_data_layout(const lk_model *m, lk_dyn_data *dd, lk_arena *a);
void lk_dyn_data_reset(const lk_model *m, lk_dyn_data *dd);

#endif
