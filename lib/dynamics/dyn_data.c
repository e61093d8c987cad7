/* Layout of the dynamics layer's data (no state yet). */
#include "dynamics/dyn_data.h"

void lk_dyn_data_layout(const lk_model *m, lk_dyn_data *dd, lk_arena *a) {
  (void)m;
  (void)dd;
  (void)a;
}

void lk_dyn_data_reset(const lk_model *m, lk_dyn_data *dd) {
  (void)m;
  (void)dd;
}
