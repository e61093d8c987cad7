/* The collision layer's part of lk_data (see data/data_impl.h). */
#ifndef LK_COL_DATA_H
#define LK_COL_DATA_H

#include "data/arena.h"
#include "linkage/model.h"

typedef struct {
  int unused; /* filled in by the collision work */
} lk_col_data;

void lk_col_data_layout(const lk_model *m, lk_col_data *cd, lk_arena *a);
void lk_col_data_reset(const lk_model *m, lk_col_data *cd);

#endif
