/* Placeholder layout of the simulation layer's data (no state yet). */
#include "sim/sim_data.h"

void lk_sim_data_layout(const lk_model *m, lk_sim_data *sd, lk_arena *a) {
  (void)m;
  (void)sd;
  (void)a;
}

void lk_sim_data_reset(const lk_model *m, lk_sim_data *sd) {
  (void)m;
  (void)sd;
}
