/* Placeholder layout of the collision layer's data (no state yet). */
#include "collision/col_data.h"

void lk_col_data_layout(const lk_model *m, lk_col_data *cd, lk_arena *a) {
  (void)m;
  (void)cd;
  (void)a;
}

void lk_col_data_reset(const lk_model *m, lk_col_data *cd) {
  (void)m;
  (void)cd;
}
