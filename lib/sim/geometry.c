/* Geometry contacts from the collision layer (none until it exists). */
#include "sim/sim_internal.h"

lk_status lk_sim_geometry_contacts(const lk_model *m, lk_data *d) {
  (void)m;
  (void)d;
  return LK_OK;
}

void lk_sim_geometry_contacts_done(const lk_model *m, lk_data *d) {
  (void)m;
  (void)d;
}
