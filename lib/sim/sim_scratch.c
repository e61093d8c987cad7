/* Scratch of the simulation layer that lives outside the arena: the LCP
 * workspace (pure scratch: nothing in it survives a solve, so copying a
 * data need not copy it). */
#include "linkage/lcp.h"
#include "sim/sim_data.h"

lk_status lk_sim_data_init(const lk_model *m, lk_sim_data *sd) {
  (void)m;
  int cap = sd->island_cap > sd->xcap ? sd->island_cap : sd->xcap;
  sd->lcp = lk_lcp_workspace_new(cap > 0 ? cap : 1);
  return sd->lcp ? LK_OK : LK_OUT_OF_MEMORY;
}

void lk_sim_data_free(lk_sim_data *sd) {
  lk_lcp_workspace_free(sd->lcp);
  sd->lcp = NULL;
}
