/* Prescribed motion (issue 31.8): an actuator of type prescribed_position
 * or prescribed_velocity makes its joint follow the target (its schedule)
 * exactly, whatever the load, as a constraint instead of a servo: a
 * conveyor's belt, a turntable, an arm following a path, a press. A servo
 * stands in for these only approximately (a stiff velocity servo sags under
 * load by f / kv, and its stiffness costs the step).
 *
 * One row on the joint's DoF, v+ = v_want, with
 *   prescribed_position   v_want = (target(t + h) - q) / h
 *   prescribed_velocity   v_want = target(t + h)
 * (t the step's start), so that the semi-implicit Euler step, q+ = q + h v+,
 * puts a prescribed position exactly on its schedule at the end of every
 * step (a schedule that jumps is followed by one step's jump of speed) and
 * a prescribed velocity exactly at its speed. The row is free (an equality)
 * or, with a finite max_effort, boxed by +-max_effort h: a motor whose
 * force is bounded stalls, and then moves as the load lets it. Its impulse
 * over h is the actuator's force, the reaction the motion needs
 * (lk_data_actuator_force and the actuators' output columns); an actuator
 * switched off (lk_data_actuator_set_enabled) leaves its joint free. */
#include <math.h>

#include "constraint/constraint_impl.h"
#include "sim/sim_internal.h"

static int is_prescribed(lk_actuator_type t) {
  return t == LK_ACTUATOR_PRESCRIBED_POSITION || t == LK_ACTUATOR_PRESCRIBED_VELOCITY;
}

lk_status lk_sim_prescribed_rows(const lk_model *m, lk_data *d) {
  if (m->nprescribed == 0) return LK_OK;
  const double h = m->opt.timestep, t1 = d->s->time + h;
  for (int i = 0; i < m->nact; i++) {
    const lk_actuator_rec *a = &m->act[i];
    const lk_actuator_spec *s = &a->spec;
    if (!is_prescribed(s->type) || !d->sim.act_on[i]) continue;
    int r = lk_rows_add(m, d, a->link, 0, LK_CONSTRAINT_PRESCRIBED, i, 0);
    if (r == -2) continue;
    if (r < 0) return LK_CAPACITY_EXCEEDED;
    lk_rows_set_dofs(m, d, r, a->dof, 1.0, -1, 0);
    double target = s->nschedule > 0 ? lk_sim_actuator_target_at(s, t1) : d->sim.act_target[i];
    double want = s->type == LK_ACTUATOR_PRESCRIBED_POSITION
                      ? (target - d->q[m->qadr[a->link]]) / h
                      : target;
    lk_row *R = &d->sim.row[r];
    if (isfinite(s->max_effort)) {
      R->kind = LK_ROW_BOX;
      R->lo = -s->max_effort * h;
      R->hi = s->max_effort * h;
    } else {
      R->kind = LK_ROW_FREE;
      R->lo = -INFINITY;
    }
    R->bias = -want; /* J v+ + bias = 0 */
  }
  return LK_OK;
}

void lk_sim_prescribed_report(const lk_model *m, lk_data *d) {
  if (m->nprescribed == 0) return;
  const double h = m->opt.timestep;
  for (int i = 0; i < m->nact; i++)
    if (is_prescribed(m->act[i].spec.type)) d->sim.act_force[i] = 0;
  for (int r = 0; r < d->sim.st->nrow; r++) {
    const lk_row *R = &d->sim.row[r];
    if (R->ckind == LK_CONSTRAINT_PRESCRIBED) d->sim.act_force[R->cindex] = R->z / h;
  }
}
