/* The simulation layer's part of lk_data: constraints, contacts, the LCP
 * workspace, friction states, reports (see data/data_impl.h). */
#ifndef LK_SIM_DATA_H
#define LK_SIM_DATA_H

#include "data/arena.h"
#include "linkage/model.h"

typedef struct {
  int unused; /* filled in by the contact work */
} lk_sim_data;

void lk_sim_data_layout(const lk_model *m, lk_sim_data *sd, lk_arena *a);
void lk_sim_data_reset(const lk_model *m, lk_sim_data *sd);

#endif
