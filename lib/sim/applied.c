/* Actuators and scheduled loads: the applied forces of one step. */
#include <math.h>

#include "data/data_impl.h"
#include "linkage/data.h"

/* Piecewise-linear interpolation through (t_k, y_k), constant outside. */
static double schedule_at(const double *t, const double *y, int n, double x) {
  if (x <= t[0]) return y[0];
  if (x >= t[n - 1]) return y[n - 1];
  int lo = 0, hi = n - 1; /* t[lo] <= x < t[hi] */
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (t[mid] <= x)
      lo = mid;
    else
      hi = mid;
  }
  double s = (x - t[lo]) / (t[hi] - t[lo]);
  return y[lo] + s * (y[hi] - y[lo]);
}

double lk_sim_actuator_target_at(const lk_actuator_spec *s, double t) {
  return s->nschedule > 0 ? schedule_at(s->schedule_t, s->schedule_effort, s->nschedule, t)
                          : s->target;
}

static double clamp(double x, double limit) {
  if (x > limit) return limit;
  if (x < -limit) return -limit;
  return x;
}

void lk_sim_applied_forces(const lk_model *m, lk_data *d, const double *qs, const double *vs,
                           double t, double *tau, lk_force *fext) {
  for (int i = 0; i < m->nact; i++) {
    const lk_actuator_rec *r = &m->act[i];
    const lk_actuator_spec *s = &r->spec;
    /* A servo's schedule moves its target (issue 33): set here, once a
     * step, so the implicit part, the report and the energy watch see it. */
    if (s->nschedule > 0 && s->type != LK_ACTUATOR_EFFORT)
      d->sim.act_target[i] = schedule_at(s->schedule_t, s->schedule_effort, s->nschedule, t);
    if (!d->sim.act_on[i]) { /* switched off: no force, tau alone acts */
      d->sim.act_force[i] = 0;
      continue;
    }
    double q = qs[m->qadr[r->link]], v = vs[r->dof], target = d->sim.act_target[i], f;
    switch (s->type) {
      case LK_ACTUATOR_POSITION:
        f = s->kp * (target - q) - s->kv * v;
        break;
      case LK_ACTUATOR_VELOCITY:
        f = s->kv * (target - v);
        break;
      case LK_ACTUATOR_PRESCRIBED_POSITION:
      case LK_ACTUATOR_PRESCRIBED_VELOCITY:
        f = 0; /* a constraint row (prescribed.c): its reaction, once solved */
        break;
      default:
        f = s->nschedule > 0 ? schedule_at(s->schedule_t, s->schedule_effort, s->nschedule, t)
                             : target;
        break;
    }
    f = clamp(f, s->max_effort);
    d->sim.act_force[i] = f;
    tau[r->dof] += f;
  }
  for (int i = 0; i < m->nload; i++) {
    const lk_load_rec *r = &m->load[i];
    const lk_load_spec *s = &r->spec;
    if (!(t >= s->start && t < s->end)) continue;
    const lk_transform *X = &d->xw[r->link];
    lk_vec3 p = lk_tf_point(X, s->point);
    lk_vec3 f = s->frame == LK_FRAME_LINK ? lk_tf_dir(X, s->force) : s->force;
    lk_vec3 n = s->frame == LK_FRAME_LINK ? lk_tf_dir(X, s->torque) : s->torque;
    fext[r->link].lin = lk_v3_add(fext[r->link].lin, f);
    fext[r->link].ang = lk_v3_add(fext[r->link].ang, lk_v3_add(n, lk_v3_cross(p, f)));
  }
}

/* Issue 14.7: the servos' stiffness and damping taken implicitly in the
 * Euler step, as the joint damping is (MuJoCo's implicit integrators take
 * the velocity derivative the same way; the position derivative too here).
 * A servo's force f(q, v) = kp (target - q) - kv v, evaluated at the end of
 * the step, q+ = q + h v+, linearized:
 *   M (v+ - v) = h f(q + h v+, v+) = h (f(q, v) - kp h v+ - kv (v+ - v))
 *   (M + h kv + h^2 kp) (v+ - v) = h (f(q, v) - h kp v)
 * so the step adds h kv + h^2 kp to the diagonal of M~ on the servo's DoF
 * and -h kp v to its force. That is backward Euler on the servo: stable
 * and dissipative for any gains and timestep (explicitly, kv h / I > 2 or
 * kp h^2 / I > 4 on the DoF's inertia I chatters). A velocity servo's kv
 * is implicit the same way. A servo at its max_effort exerts a constant
 * force, with no derivative: it stays explicit. */
void lk_sim_servo_implicit(const lk_model *m, const lk_data *d, const double *qs, const double *vs,
                           double h, double *tau, double *diag) {
  for (int i = 0; i < m->nact; i++) {
    const lk_actuator_rec *r = &m->act[i];
    const lk_actuator_spec *s = &r->spec;
    if (s->type != LK_ACTUATOR_POSITION && s->type != LK_ACTUATOR_VELOCITY) continue;
    if (!d->sim.act_on[i]) continue;
    double q = qs[m->qadr[r->link]], v = vs[r->dof], target = d->sim.act_target[i];
    double f = s->type == LK_ACTUATOR_POSITION ? s->kp * (target - q) - s->kv * v
                                               : s->kv * (target - v);
    if (!(fabs(f) < s->max_effort)) continue; /* saturated */
    if (s->type == LK_ACTUATOR_POSITION) {
      diag[r->dof] += h * s->kv + h * h * s->kp;
      tau[r->dof] -= h * s->kp * v;
    } else {
      diag[r->dof] += h * s->kv;
    }
  }
}

/* The force an implicit servo applied over the step: f at (q + h v+, v+),
 * for the actuator report. */
void lk_sim_servo_report(const lk_model *m, lk_data *d, const double *qs, const double *vs,
                         const double *vnew, double h) {
  for (int i = 0; i < m->nact; i++) {
    const lk_actuator_rec *r = &m->act[i];
    const lk_actuator_spec *s = &r->spec;
    if (s->type != LK_ACTUATOR_POSITION && s->type != LK_ACTUATOR_VELOCITY) continue;
    if (!d->sim.act_on[i]) continue;
    if (!(fabs(d->sim.act_force[i]) < s->max_effort)) continue; /* saturated: explicit */
    double q = qs[m->qadr[r->link]], target = d->sim.act_target[i], v1 = vnew[r->dof];
    (void)vs;
    d->sim.act_force[i] = s->type == LK_ACTUATOR_POSITION
                              ? s->kp * (target - q - h * v1) - s->kv * v1
                              : s->kv * (target - v1);
  }
}

lk_status lk_data_actuator_set_target(lk_data *d, int i, double target) {
  if (!d || i < 0 || i >= d->model->nact) return LK_INVALID_ARGUMENT;
  if (!isfinite(target)) return LK_NON_FINITE;
  if (target != d->sim.act_target[i]) d->sim.st->targets_set = 1; /* an input */
  d->sim.act_target[i] = target;
  return LK_OK;
}

double lk_data_actuator_target(const lk_data *d, int i) {
  return d && i >= 0 && i < d->model->nact ? d->sim.act_target[i] : NAN;
}

double lk_data_actuator_force(const lk_data *d, int i) {
  return d && i >= 0 && i < d->model->nact ? d->sim.act_force[i] : NAN;
}

lk_status lk_data_actuator_set_enabled(lk_data *d, int i, int enabled) {
  if (!d || i < 0 || i >= d->model->nact) return LK_INVALID_ARGUMENT;
  if ((enabled != 0) != d->sim.act_on[i]) d->sim.st->targets_set = 1; /* an input */
  d->sim.act_on[i] = enabled != 0;
  if (!enabled) d->sim.act_force[i] = 0;
  return LK_OK;
}

int lk_data_actuator_enabled(const lk_data *d, int i) {
  return d && i >= 0 && i < d->model->nact ? d->sim.act_on[i] : 0;
}

double *lk_data_actuator_targets(lk_data *d) { return d ? d->sim.act_target : NULL; }

const double *lk_data_actuator_forces(const lk_data *d) { return d ? d->sim.act_force : NULL; }

void lk_data_actuator_targets_changed(lk_data *d) {
  if (d) d->sim.st->targets_set = 1; /* an input, as lk_data_actuator_set_target says */
}
