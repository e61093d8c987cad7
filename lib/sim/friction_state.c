/* When a static contact's slip is sustained (issue 31 item 1).
 *
 * A contact starts static and solves with mu_static; when its friction is
 * at the bound and it still slips, the step used to make it dynamic at
 * once (mu_dynamic from the next solve on). But a contact placed as users
 * place it (a pose written to 6 digits: a gap of a few 1e-7 m on a
 * slope) lands within its first step: the speculative allowance -gap/h
 * takes that much normal impulse out of the step, holding then needs
 * tan(theta) (1 + gap / (g cos(theta) h^2)) of it, and the block on the
 * shipped 20 degree incline with mu_static 1.6 % above the slope slipped
 * at ~1e-4 m/s in step 1, turned dynamic, and slid 1.1 m in 2 s with
 * mu_dynamic below the slope. Physically the landing is an impact whose
 * friction needs only tan(theta) of its normal impulse; in the step it
 * comes out as one step of slip that the next step's normal impulse (the
 * gap's share arrives there) stops.
 *
 * So a slip is a transient, and the contact stays static, when it is
 *   - in the contact's first step (age 0: a contact placed or landing; a
 *     contact that has held for a step and then slips is loaded past its
 *     cone, which a grasp shaken loose shows: judging every first step of
 *     slip a transient delayed each slip by a step and let the demo's
 *     cube slide 3.9 cm instead of 1 cm in its grip), and
 *   - slower than v_t = max(slip_threshold, contact_tolerance / (10 h)):
 *     it moves the contact by less than a tenth of the contact tolerance
 *     (the placement noise the step leaves alone) in the step (1e-5 m;
 *     0.01 m/s at h = 1 ms).
 * Any other slip is sustained: the contact turns dynamic as before. A
 * launch (slip far above v_t) switches in its first step; a contact placed
 * on a slope just steeper than atan(mu_static) in its second. */
#include <math.h>

#include "sim/sim_internal.h"

int lk_sim_slip_sustained(const lk_model *m, const lk_contact_mem *mem, double speed) {
  const lk_options *o = &m->opt;
  double vt = fmax(o->slip_threshold, 0.1 * o->contact_tolerance / o->timestep);
  return mem->age > 0 || speed > vt;
}
