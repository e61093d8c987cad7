/* Layout and reset of the simulation layer's data. */
#include "model/model_impl.h"
#include "sim/sim_data.h"

void lk_sim_data_layout(const lk_model *m, lk_sim_data *sd, lk_arena *a) {
  sd->act_target = LK_ARENA_ARRAY(a, double, m->nact);
  sd->act_force = LK_ARENA_ARRAY(a, double, m->nact);
}

void lk_sim_data_reset(const lk_model *m, lk_sim_data *sd) {
  for (int i = 0; i < m->nact; i++) {
    sd->act_target[i] = m->act[i].spec.target;
    sd->act_force[i] = 0;
  }
}
