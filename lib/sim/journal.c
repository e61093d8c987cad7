/* The step's journal: a failed step leaves the data as it was.
 *
 * q, v and the time are computed into workspaces and committed last
 * (step.c); the contacts' memory, the tactile sums and the link forces are
 * written by lk_sim_constrain_commit after everything that can fail. What
 * remains is what the step changes on its way: the collision layer's
 * scalars (which buffer holds the last pass, the next contact id, the
 * broad phase's axes), the simulation layer's scalars (kept-factor slots,
 * the product scale, the energy watch), the joint limits' row states, the
 * actuators' reported forces and the kept sticking-trial factors. The
 * first ones are a few hundred bytes, saved at every step's start; the
 * limits' states only for a model with limits; the kept factors only
 * before a step first changes them (lk_island_keep_factor in guess.c), and
 * of them only what the slots in use hold: a slot's rows and columns and
 * its room in fc_L, not the whole pool (the arrays are sized for the
 * largest island in every slot: MuJoCo's humanoid copied 47 KB a step
 * for one slot of 26 rows, now 10 KB). The previous pass's
 * contacts stay where they were (the new pass writes the other buffer).
 *
 * Outside the arena, the sparse direct trial's kept factor (direct.c) is
 * dropped when a step fails after the islands' solve began: the next step
 * makes the trial afresh instead of refining (the same answer to the
 * trial's tolerance, not bit for bit). */
#include <string.h>

#include "collision/col_data.h"
#include "data/data_impl.h"
#include "dynamics/dynamics_impl.h"
#include "sim/sim_internal.h"

void lk_sim_journal_begin(const lk_model *m, lk_data *d) {
  lk_sim_data *sd = &d->sim;
  lk_sim_journal *jr = sd->jr;
  jr->sim = *sd->st;
  jr->col = *d->col.st;
  jr->kept_saved = 0;
  jr->solving = 0;
  if (sd->limmem_save && m->nlink > 0)
    memcpy(sd->limmem_save, sd->limmem, (size_t)m->nlink * sizeof *sd->limmem);
  if (m->nact > 0) memcpy(sd->act_force_save, sd->act_force, (size_t)m->nact * sizeof(double));
}

/* The kept factors' arrays, live or saved. */
typedef struct {
  double *L, *d;
  int *last, *col;
  unsigned long long *key;
  unsigned char *in;
} kept_arrays;

static kept_arrays kept_live(lk_sim_data *sd) {
  return (kept_arrays){sd->fc_L, sd->fc_d, sd->fc_last, sd->fc_col, sd->fc_key, sd->fc_in};
}

static kept_arrays kept_saved(lk_sim_data *sd) {
  return (kept_arrays){sd->fc_L_save,   sd->fc_d_save,   sd->fc_last_save,
                       sd->fc_col_save, sd->fc_key_save, sd->fc_in_save};
}

/* What the slots in use of kept[] hold, from one set of arrays into the
 * other at the same places: slot s's n rows (keys, clamped flags) and k
 * columns (last nonzero, D^-1, island row) at s island_cap, and its room
 * in fc_L. Nothing else of the arrays is read (guess.c). */
static void copy_slots(const lk_sim_data *sd, const lk_sim_kept *kept, kept_arrays to,
                       kept_arrays from) {
  for (int s = 0; s < LK_SIM_KEPT_SLOTS; s++) {
    const lk_sim_kept *K = &kept[s];
    if (K->n == 0) continue;
    const size_t o = (size_t)s * (size_t)sd->island_cap, n = (size_t)K->n, k = (size_t)K->k;
    memcpy(to.L + K->ofs, from.L + K->ofs, K->size * sizeof(double));
    memcpy(to.d + o, from.d + o, k * sizeof(double));
    memcpy(to.last + o, from.last + o, k * sizeof(int));
    memcpy(to.col + o, from.col + o, k * sizeof(int));
    memcpy(to.key + o, from.key + o, n * sizeof(unsigned long long));
    memcpy(to.in + o, from.in + o, n);
  }
}

/* Before the step first changes a kept factor: the slots as the step found
 * them (jr->sim's, which the restore puts back). */
void lk_sim_journal_kept(lk_sim_data *sd) {
  lk_sim_journal *jr = sd->jr;
  if (jr->kept_saved) return;
  jr->kept_saved = 1;
  copy_slots(sd, jr->sim.kept, kept_saved(sd), kept_live(sd));
}

lk_status lk_sim_journal_restore(const lk_model *m, lk_data *d) {
  lk_sim_data *sd = &d->sim;
  lk_sim_journal *jr = sd->jr;
  lk_sim_report rep = sd->st->report; /* the failed step's: why it failed */
  *sd->st = jr->sim;
  sd->st->report = rep;
  /* a failed step leaves no contact reports or link forces */
  sd->st->ncontact = 0;
  sd->st->nlforce = 0;
  sd->st->nrow = 0;
  sd->st->nisland = 0;
  *d->col.st = jr->col;
  if (sd->limmem_save && m->nlink > 0)
    memcpy(sd->limmem, sd->limmem_save, (size_t)m->nlink * sizeof *sd->limmem);
  if (m->nact > 0) memcpy(sd->act_force, sd->act_force_save, (size_t)m->nact * sizeof(double));
  if (jr->kept_saved) {
    copy_slots(sd, jr->sim.kept, kept_live(sd), kept_saved(sd));
    jr->kept_saved = 0;
  }
  memset(sd->dvg, 0, (size_t)m->nv * sizeof *sd->dvg); /* zero between steps (constrain.c) */
  if (sd->sparse) {
    sd->sparse->guess_missed = 0;
    sd->sparse->dense = NULL;
  }
  if (jr->solving) lk_sim_direct_reset(sd->direct);
  jr->solving = 0;
  /* the kinematics at the state the step started from */
  return lk_dyn_kinematics(m, d, d->q, d->v);
}
