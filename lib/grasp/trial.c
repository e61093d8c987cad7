/* Grasp trials: place the hand, close until contact, release the object,
 * lift, shake; the palm servo, the object's support, the finger force
 * control and the monitoring of the object in the hand.
 *
 * Every step the controller (control_step) reads the state and the contact
 * reports of the previous step, and sets
 *   - the mount's generalized force (its free joint): a 6-D PD servo to the
 *     palm target through the mount's 6 x 6 block of the mass matrix (taken
 *     when the hand is placed), plus the bias forces of the mount DoFs,
 *     which hold up the whole hand against gravity;
 *   - the finger efforts, through their actuators (a position servo's
 *     target is set to q + (tau + kv v) / kp, so that it applies tau);
 *   - the object's support and disturbance wrench (external loads).
 * Nothing here is random and nothing depends on the data's history beyond
 * the state lk_grasp_place sets, so trials are deterministic. */
#include <math.h>
#include <string.h>

#include "core/internal.h"
#include "grasp/grasp_internal.h"
#include "grasp/grasp_scene.h"
#include "linkage/collision.h"
#include "linkage/constraint.h"
#include "linkage/dynamics.h"
#include "linkage/sim.h"

#define NFD (LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS)

void lk_grasp_trial_options_default(lk_grasp_trial_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->close_speed_revolute = 1.5;
  o->close_speed_prismatic = 0.15;
  o->torque_limit = 0;
  o->grip_force = 10;
  o->force_tolerance = 0.1;
  o->settle_time = 0.03;
  o->close_timeout = 0.8;
  o->touch_force = 0;
  o->squeeze_time = 0.05;
  o->support_frequency = 5;
  o->release_time = 0.1;
  o->palm_frequency = 15;
  o->lift_height = 0.1;
  o->lift_time = 0.4;
  o->hold_time = 0.1;
  o->shake_force = -1;
  o->shake_torque = -1;
  o->shake_time = 0.05;
  o->shake_pause = 0.02;
  o->drop_distance = 0.02;
  o->hold = 1;
  lk_grasp_options_default(&o->analysis);
}

const char *lk_grasp_outcome_name(lk_grasp_outcome o) {
  switch (o) {
    case LK_GRASP_HELD:
      return "held";
    case LK_GRASP_COLLISION:
      return "collision";
    case LK_GRASP_NO_CONTACT:
      return "no contact";
    case LK_GRASP_DROPPED:
      return "dropped";
    case LK_GRASP_SIM_FAILED:
      return "simulation failed";
  }
  return NULL;
}

static lk_status check_options(const lk_grasp_trial_options *o, lk_error *err) {
  const struct {
    const char *name;
    double v;
    int positive;
  } f[] = {{"close_speed_revolute", o->close_speed_revolute, 1},
           {"close_speed_prismatic", o->close_speed_prismatic, 1},
           {"torque_limit", o->torque_limit, 0},
           {"grip_force", o->grip_force, 1},
           {"force_tolerance", o->force_tolerance, 1},
           {"settle_time", o->settle_time, 0},
           {"close_timeout", o->close_timeout, 1},
           {"touch_force", o->touch_force, 0},
           {"squeeze_time", o->squeeze_time, 0},
           {"support_frequency", o->support_frequency, 1},
           {"release_time", o->release_time, 0},
           {"palm_frequency", o->palm_frequency, 1},
           {"lift_height", o->lift_height, 0},
           {"lift_time", o->lift_time, 0},
           {"hold_time", o->hold_time, 0},
           {"shake_time", o->shake_time, 0},
           {"shake_pause", o->shake_pause, 0},
           {"drop_distance", o->drop_distance, 1}};
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
    if (!isfinite(f[i].v) || f[i].v < 0 || (f[i].positive && f[i].v == 0))
      return lk_error_set(err, LK_INVALID_ARGUMENT, "trial options: %s must be %s, got %g",
                          f[i].name, f[i].positive ? "> 0" : ">= 0", f[i].v);
  if (!isfinite(o->shake_force) || !isfinite(o->shake_torque))
    return lk_error_set(err, LK_NON_FINITE, "trial options: shake magnitudes must be finite");
  if (o->lift_height > 0 && !(o->lift_time > 0))
    return lk_error_set(err, LK_INVALID_ARGUMENT, "trial options: a lift needs lift_time > 0");
  lk_grasp_options a;
  return lk_grasp_resolve_options(&o->analysis, &a, err);
}

/* ----------------------------------------------------------- controller */

typedef struct {
  const lk_grasp_scene *s;
  const lk_model *m;
  const lk_grasp_trial_options *o;
  int nv, nl;
  double h;
  double *c;    /* nv: bias forces */
  double *jlin; /* 3 x nv */
  double *lf;   /* nlink: normal force on the object by link */
  lk_vec3 *lp, *ln; /* nlink: force-weighted position and normal sums */
  double Mm[36];    /* the mount's block of M (lin, ang ordering) */
  double omega;     /* palm servo, rad/s */
  lk_transform palm_target;
  lk_vec3 palm_vel, palm_acc; /* target velocity, acceleration (lift) */
  lk_transform object_rest;
  double support;
  lk_vec3 dist_f, dist_t; /* disturbance on the object */
  lk_vec3 gravity;
  double limit[NFD];
  int fdof_vadr[NFD], cp_vadr[NFD], lp_vadr[NFD]; /* velocity indices */
  double kclose[NFD]; /* closing velocity-loop gain, bounded for stability */
  int saturated[LK_GRASP_MAX_FINGERS];
  int holding;      /* after closing: finger joints also hold q_hold */
  int closing;      /* in the closing phase: guarded, then squeezing */
  double touch;     /* the guarded press, N */
  double squeezed;  /* s since every finger touched or stopped */
  double press;     /* this step's press of a touching finger, N */
  double q_hold[NFD];
  /* per finger, from the last step's contacts */
  double F[LK_GRASP_MAX_FINGERS];
  int pressing[LK_GRASP_MAX_FINGERS];
  double still[LK_GRASP_MAX_FINGERS];
  int ncontacts; /* hand-object contacts carrying force */
  double tmax_util;
  lk_grasp_phase phase; /* for the observer */
} ctl;

static void ctl_free(ctl *c) {
  lk_free(c->c);
  lk_free(c->jlin);
  lk_free(c->lf);
  lk_free(c->lp);
  lk_free(c->ln);
}

static lk_status ctl_init(ctl *c, const lk_grasp_scene *s, const lk_grasp_trial_options *o,
                          lk_error *err) {
  memset(c, 0, sizeof *c);
  c->s = s;
  c->m = s->m;
  c->o = o;
  c->nv = lk_model_nv(s->m);
  c->nl = lk_model_nlink(s->m);
  c->h = lk_model_options(s->m)->timestep;
  c->gravity = lk_model_options(s->m)->gravity;
  c->c = LK_NEW_ARRAY(double, c->nv);
  c->jlin = LK_NEW_ARRAY(double, 3 * c->nv);
  c->lf = LK_NEW_ARRAY(double, c->nl);
  c->lp = LK_NEW_ARRAY(lk_vec3, c->nl);
  c->ln = LK_NEW_ARRAY(lk_vec3, c->nl);
  if (!c->c || !c->jlin || !c->lf || !c->lp || !c->ln) {
    ctl_free(c);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "grasp trial: out of memory");
  }
  c->omega = 2 * LK_PI * o->palm_frequency;
  for (int f = 0, k = 0; f < s->nfinger; f++)
    for (int j = 0; j < s->finger[f].ndof; j++) c->fdof_vadr[k++] = s->finger[f].dof[j];
  for (int j = 0; j < s->ncoupled; j++) c->cp_vadr[j] = lk_model_joint_vadr(s->m, s->cp_link[j]);
  for (int p = 0; p < s->nlp; p++) c->lp_vadr[p] = lk_model_joint_vadr(s->m, s->lp_link[p]);
  for (int k = 0; k < s->nfdof; k++) {
    double L = o->torque_limit > 0 ? o->torque_limit : s->max_effort[k];
    c->limit[k] = isfinite(L) ? L : 5.0;
  }
  return LK_OK;
}

/* Hold the palm and the object where they are now (after placing). */
static lk_status ctl_begin(ctl *c, lk_data *d, lk_error *err) {
  const lk_grasp_scene *s = c->s;
  lk_status st = lk_mass_matrix(c->m, d);
  if (st) return lk_error_set(err, st, "grasp trial: the mass matrix failed");
  int nb = lk_mass_matrix_nblocks(c->m), found = 0;
  for (int b = 0; b < nb && !found; b++) {
    int first, size;
    const double *B = lk_mass_matrix_block(c->m, d, b, &first, &size);
    if (!B || s->mount_vadr < first || s->mount_vadr >= first + size) continue;
    int o = s->mount_vadr - first;
    for (int i = 0; i < 6; i++)
      for (int j = 0; j < 6; j++) c->Mm[i * 6 + j] = B[(size_t)(o + i) * size + (o + j)];
    found = 1;
  }
  if (!found) return lk_error_set(err, LK_INVALID_MODEL, "grasp trial: no mass block for the mount");
  /* The closing loop tau = k (v_close - v) is explicit: k h / M_jj must stay
   * well below 2, so k is at most M_jj / (2 h) (M_jj: the joint's diagonal
   * of M, its effective inertia), and at most limit / v_close (the full
   * effort when stalled). */
  int slot = 0;
  for (int f = 0; f < s->nfinger; f++)
    for (int j = 0; j < s->finger[f].ndof; j++, slot++) {
      int dof = s->finger[f].dof[j];
      double Mjj = 0;
      for (int b = 0; b < nb; b++) {
        int first, size;
        const double *B = lk_mass_matrix_block(c->m, d, b, &first, &size);
        if (B && dof >= first && dof < first + size)
          Mjj = B[(size_t)(dof - first) * size + (dof - first)];
      }
      double vc = s->fdof_prismatic[slot] ? c->o->close_speed_prismatic
                                          : c->o->close_speed_revolute;
      c->kclose[slot] = fmin(c->limit[slot] / vc, 0.5 * Mjj / c->h);
    }
  c->palm_target = lk_grasp_scene_hand_frame(s, d);
  c->palm_vel = c->palm_acc = lk_v3_zero();
  c->object_rest = *lk_data_link_pose(d, s->object);
  c->support = 1;
  c->dist_f = c->dist_t = lk_v3_zero();
  memset(c->pressing, 0, sizeof c->pressing);
  c->holding = 0;
  c->closing = 0;
  c->squeezed = 0;
  c->touch = c->o->touch_force > 0 ? c->o->touch_force
                                   : 0.5 * s->object_mass * lk_v3_norm(c->gravity);
  if (!(c->touch > 0) || c->touch > c->o->grip_force) c->touch = c->o->grip_force;
  c->press = c->o->grip_force;
  memset(c->still, 0, sizeof c->still);
  memset(c->F, 0, sizeof c->F);
  return LK_OK;
}

static double clampd(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }

/* The rotation vector taking R to Rt: Rt = exp(e) R (world frame). */
static lk_vec3 rot_error(const lk_mat3 *Rt, const lk_mat3 *R) {
  lk_mat3 Rtr = lk_m3_transpose(R);
  lk_mat3 E = lk_m3_mul(Rt, &Rtr);
  return lk_q_log(lk_q_from_mat3(&E));
}

/* Contacts of the last step between the object and the hand, per finger
 * and per link. */
static void gather(ctl *c, const lk_data *d) {
  const lk_grasp_scene *s = c->s;
  memset(c->F, 0, sizeof c->F);
  memset(c->lf, 0, sizeof(double) * (size_t)c->nl);
  for (int l = 0; l < c->nl; l++) c->lp[l] = c->ln[l] = lk_v3_zero();
  c->ncontacts = 0;
  int n = lk_data_ncontacts(d);
  for (int i = 0; i < n; i++) {
    const lk_contact_report *r = lk_data_contact_report(d, i);
    int hl;
    lk_vec3 nrm;
    if (r->link == s->object && s->hand_link[r->other]) {
      hl = r->other;
      nrm = r->normal;
    } else if (r->other == s->object && s->hand_link[r->link]) {
      hl = r->link;
      nrm = lk_v3_neg(r->normal);
    } else {
      continue;
    }
    if (!(r->fn > 0)) continue;
    c->ncontacts++;
    c->lf[hl] += r->fn;
    c->lp[hl] = lk_v3_madd(c->lp[hl], r->position, r->fn);
    c->ln[hl] = lk_v3_madd(c->ln[hl], nrm, r->fn);
    int k = s->finger_of_link[hl];
    if (k >= 0) c->F[k] += r->fn;
  }
}

/* Column dof of the point Jacobian in c->jlin. */
static lk_vec3 jcol(const ctl *c, int dof) {
  return lk_v3(c->jlin[dof], c->jlin[c->nv + dof], c->jlin[2 * c->nv + dof]);
}

/* Effort for finger DoF slot k (its actuator law inverted). */
static void command(const lk_grasp_scene *s, lk_data *d, int k, int act, int dof, double tau) {
  double q = lk_data_q(d)[s->fdof_qadr[k]], v = lk_data_v(d)[dof], target;
  switch (s->act_type[k]) {
    case LK_ACTUATOR_POSITION:
      target = q + (tau + s->act_kv[k] * v) / s->act_kp[k];
      break;
    case LK_ACTUATOR_VELOCITY:
      target = v + tau / s->act_kv[k];
      break;
    default:
      target = tau;
      break;
  }
  lk_data_actuator_set_target(d, act, target);
}

static lk_status fingers(ctl *c, lk_data *d) {
  const lk_grasp_scene *s = c->s;
  const lk_grasp_trial_options *o = c->o;
  const double *v = lk_data_v(d), *q = lk_data_q(d);
  if (c->closing) {
    int arriving = 0;
    for (int f = 0; f < s->nfinger; f++) arriving |= c->F[f] <= 0 && c->still[f] < o->settle_time;
    if (arriving) {
      c->squeezed = 0;
      c->press = c->touch;
    } else {
      c->squeezed += c->h;
      double u = o->squeeze_time > 0 ? fmin(1, c->squeezed / o->squeeze_time) : 1;
      c->press = c->touch + (o->grip_force - c->touch) * u;
    }
  } else {
    c->press = o->grip_force;
  }
  /* The press of the touching fingers, by virtual work: a finger pressing
   * with c->press along the mean normal n at the centroid p of its most
   * loaded link's contacts needs tau_k = press n . dp/dq_k at finger DoF
   * k, where dp/dq_k moves joint k together with the joints coupled to it
   * (their ratios) and the loops' passive joints (their rates): one
   * actuator that drives two jaws through mimic joints (the URDF 2F-85)
   * presses both pads, and a pad on a four-bar gets the force it is
   * asked for. Finger DoFs that move no touching finger's contact keep
   * closing. */
  double pt[NFD];
  unsigned char pm[NFD];
  int nfd = s->nfdof;
  memset(pt, 0, sizeof pt);
  memset(pm, 0, sizeof pm);
  for (int f = 0; f < s->nfinger; f++) {
    c->pressing[f] = c->F[f] > 0;
    if (!c->pressing[f]) continue;
    int best = -1;
    for (int l = 0; l < c->nl; l++)
      if (s->finger_of_link[l] == f && c->lf[l] > 0 && (best < 0 || c->lf[l] > c->lf[best]))
        best = l;
    if (best < 0) continue; /* a palm contact counted for the finger */
    lk_vec3 p = lk_v3_scale(c->lp[best], 1.0 / c->lf[best]);
    lk_vec3 n = lk_v3_normalize(c->ln[best]);
    lk_vec3 pl = lk_tf_inv_point(lk_data_link_pose(d, best), p);
    lk_status st = lk_jacobian_point(c->m, d, best, pl, c->jlin, NULL);
    if (st) return st;
    double en[NFD], norm[NFD], cmax = 0;
    for (int k = 0; k < nfd; k++) {
      lk_vec3 e = jcol(c, c->fdof_vadr[k]);
      for (int j = 0; j < s->ncoupled; j++)
        if (s->cp_leader[j] == k) e = lk_v3_madd(e, jcol(c, c->cp_vadr[j]), s->cp_ratio[j]);
      if (s->nloop > 0) {
        double dr[NFD], cr[NFD], lr[NFD];
        for (int i = 0; i < nfd; i++) dr[i] = i == k;
        for (int j = 0; j < s->ncoupled; j++) cr[j] = s->cp_leader[j] == k ? s->cp_ratio[j] : 0;
        lk_grasp_scene_loop_rates(s, d, dr, cr, lr);
        for (int i = 0; i < s->nlp; i++)
          if (lr[i] != 0) e = lk_v3_madd(e, jcol(c, c->lp_vadr[i]), lr[i]);
      }
      en[k] = lk_v3_dot(e, n);
      norm[k] = lk_v3_norm(e);
      cmax = fmax(cmax, norm[k]);
    }
    for (int k = 0; k < nfd; k++)
      if (norm[k] > 1e-6 * cmax) {
        pt[k] += c->press * en[k];
        pm[k] = 1;
      }
  }
  int slot = 0;
  for (int f = 0; f < s->nfinger; f++) {
    const lk_grasp_finger *fg = &s->finger[f];
    double tau[LK_GRASP_MAX_FINGER_DOFS], moving = 0;
    int k0 = slot;
    for (int j = 0; j < fg->ndof; j++, slot++) {
      double vc = s->fdof_prismatic[slot] ? o->close_speed_prismatic : o->close_speed_revolute;
      double vj = v[fg->dof[j]];
      /* towards vc in its closing direction; where the gain, bounded by
       * the joint's inertia, cannot outpull the joint's damping (the loop
       * alone would settle below 0.9 vc: Allegro's distal joints, damping
       * 0.1 against a gain of 0.002, crept at 0.03 rad/s) or its dry
       * friction, those are fed forward at vc */
      double sv = s->fdof_sign[slot] * vc, k = c->kclose[slot], ff = 0;
      if (k < 9 * s->damping[slot]) ff += s->damping[slot] * sv;
      if (k * vc < 10 * s->friction[slot]) ff += s->friction[slot] * s->fdof_sign[slot];
      tau[j] = pm[slot] ? pt[slot] : clampd(k * (sv - vj) + ff, -c->limit[slot], c->limit[slot]);
      moving = fmax(moving, fabs(vj) / vc);
    }
    for (int j = 0; j < fg->ncoupled; j++) { /* a mimic finger moves too */
      int pr = lk_model_joint_type(c->m, lk_model_dof_link(c->m, fg->coupled_dof[j])) ==
               LK_JOINT_PRISMATIC;
      double vc = pr ? o->close_speed_prismatic : o->close_speed_revolute;
      moving = fmax(moving, fabs(v[fg->coupled_dof[j]]) / vc);
    }
    c->still[f] = moving < 0.02 ? c->still[f] + c->h : 0;
    c->saturated[f] = 0;
    for (int j = 0; j < fg->ndof; j++) {
      int k = k0 + j, dof = fg->dof[j];
      /* Weight (and Coriolis) of the finger, and its joint spring. */
      double qj = q[s->fdof_qadr[k]];
      double t = tau[j] + c->c[dof] + s->stiffness[k] * (qj - s->rest[k]);
      if (c->holding) t += s->act_kp[k] * (c->q_hold[k] - qj) - s->act_kv[k] * v[dof];
      if (fabs(t) >= c->limit[k]) c->saturated[f] = 1;
      command(s, d, k, fg->actuator[j], dof, clampd(t, -c->limit[k], c->limit[k]));
    }
  }
  return LK_OK;
}

static void palm_servo(ctl *c, lk_data *d) {
  const lk_grasp_scene *s = c->s;
  const lk_transform *X = lk_data_link_pose(d, s->mount);
  lk_transform inv = lk_tf_inverse(&s->palm_in_mount);
  lk_transform Xt = lk_tf_mul(&c->palm_target, &inv);
  const double *v = lk_data_v(d) + s->mount_vadr;
  double w = c->omega, a[6];
  lk_vec3 ep = lk_v3_sub(Xt.p, X->p), er = rot_error(&Xt.R, &X->R);
  /* Critically damped: a = w^2 e + 2 w (v_t - v) + a_t. */
  a[0] = w * w * ep.x + 2 * w * (c->palm_vel.x - v[0]) + c->palm_acc.x;
  a[1] = w * w * ep.y + 2 * w * (c->palm_vel.y - v[1]) + c->palm_acc.y;
  a[2] = w * w * ep.z + 2 * w * (c->palm_vel.z - v[2]) + c->palm_acc.z;
  a[3] = w * w * er.x - 2 * w * v[3];
  a[4] = w * w * er.y - 2 * w * v[4];
  a[5] = w * w * er.z - 2 * w * v[5];
  double *tau = lk_data_tau(d) + s->mount_vadr;
  for (int i = 0; i < 6; i++) {
    double t = c->c[s->mount_vadr + i];
    for (int j = 0; j < 6; j++) t += c->Mm[i * 6 + j] * a[j];
    tau[i] = t;
  }
  /* The payload: as the support lets go, the hand carries the object's
   * weight (and, while lifting, its inertia) at its centre of mass, fed
   * forward so that taking the load does not make the palm sag and spring
   * back (an acceleration the grip would have to resist too). */
  double share = 1 - c->support;
  if (share > 0) {
    const lk_transform *O = lk_data_link_pose(d, s->object);
    lk_vec3 com = lk_tf_point(O, s->object_com);
    lk_vec3 f = lk_v3_scale(lk_v3_sub(c->palm_acc, c->gravity), share * s->object_mass);
    lk_vec3 n = lk_v3_cross(lk_v3_sub(com, X->p), f);
    tau[0] += f.x;
    tau[1] += f.y;
    tau[2] += f.z;
    tau[3] += n.x;
    tau[4] += n.y;
    tau[5] += n.z;
  }
}

static void object_loads(ctl *c, lk_data *d) {
  const lk_grasp_scene *s = c->s;
  const lk_transform *X = lk_data_link_pose(d, s->object);
  lk_vec3 com = lk_tf_point(X, s->object_com);
  lk_vec3 F = c->dist_f, T = c->dist_t;
  if (c->support > 0) {
    double m = s->object_mass, ws = 2 * LK_PI * c->o->support_frequency;
    double fmax = 2 * m * lk_v3_norm(c->gravity);
    lk_vec3 rest = lk_tf_point(&c->object_rest, s->object_com);
    lk_vec3 vcom = lk_data_point_velocity(d, s->object, s->object_com);
    lk_vec3 fs = lk_v3_sub(lk_v3_scale(lk_v3_sub(rest, com), m * ws * ws),
                           lk_v3_scale(vcom, 2 * m * ws));
    double nf = lk_v3_norm(fs);
    if (nf > fmax) fs = lk_v3_scale(fs, fmax / nf);
    double I = s->object_inertia;
    lk_vec3 er = rot_error(&c->object_rest.R, &X->R);
    lk_vec3 om = lk_data_link_velocity(d, s->object).ang;
    lk_vec3 ts = lk_v3_sub(lk_v3_scale(er, I * ws * ws), lk_v3_scale(om, 2 * I * ws));
    double tmax = fmax * s->object_radius, nt = lk_v3_norm(ts);
    if (nt > tmax) ts = lk_v3_scale(ts, tmax / nt);
    F = lk_v3_add(F, lk_v3_scale(lk_v3_sub(fs, lk_v3_scale(c->gravity, m)), c->support));
    T = lk_v3_add(T, lk_v3_scale(ts, c->support));
  }
  if (lk_v3_norm2(F) > 0) lk_data_apply_force(d, s->object, com, F);
  if (lk_v3_norm2(T) > 0) lk_data_apply_torque(d, s->object, T);
}

/* One controlled step. */
static lk_status control_step(ctl *c, lk_data *d) {
  lk_status st = lk_bias_forces(c->m, d, c->c); /* also the kinematics */
  if (st) return st;
  gather(c, d);
  lk_data_clear_loads(d);
  palm_servo(c, d);
  object_loads(c, d);
  if ((st = fingers(c, d))) return st;
  st = lk_step(c->m, d);
  if (!st && c->o->observe) c->o->observe(c->o->observe_user, d, (int)c->phase);
  return st;
}

/* ------------------------------------------------------------- phases */

lk_status lk_grasp_scene_pose_q(const lk_grasp_scene *s, double *q, const lk_transform *hand_pose,
                                const double *preshape, lk_error *err) {
  if (!lk_m3_isfinite(&hand_pose->R) || !lk_v3_isfinite(hand_pose->p))
    return lk_error_set(err, LK_NON_FINITE, "grasp place: the hand pose is not finite");
  lk_transform palm = lk_tf_mul(&s->object_pose, hand_pose);
  lk_transform inv = lk_tf_inverse(&s->palm_in_mount);
  lk_transform mount = lk_tf_mul(&palm, &inv);
  lk_quat r = lk_q_from_mat3(&mount.R);
  double *qm = q + s->mount_qadr;
  qm[0] = mount.p.x;
  qm[1] = mount.p.y;
  qm[2] = mount.p.z;
  qm[3] = r.w;
  qm[4] = r.x;
  qm[5] = r.y;
  qm[6] = r.z;
  for (int k = 0; k < s->nfdof; k++) {
    double v = preshape ? preshape[k] : s->preshape0[k];
    if (!isfinite(v)) return lk_error_set(err, LK_NON_FINITE, "grasp place: preshape[%d]", k);
    q[s->fdof_qadr[k]] = v;
  }
  for (int j = 0; j < s->ncoupled; j++)
    q[s->cp_qadr[j]] = s->cp_ratio[j] * q[s->fdof_qadr[s->cp_leader[j]]] + s->cp_offset[j];
  return LK_OK;
}

lk_status lk_grasp_place(const lk_grasp_scene *s, lk_data *d, const lk_transform *hand_pose,
                         const double *preshape, lk_error *err) {
  if (!s || !d || !hand_pose || lk_data_model(d) != s->m)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "grasp place: bad scene, data or pose");
  lk_data_reset(d);
  lk_status st = lk_grasp_scene_pose_q(s, lk_data_q(d), hand_pose, preshape, err);
  if (st) return st;
  st = lk_grasp_scene_close_loops(s, d, 1e-12);
  if (st)
    return lk_error_set(err, st, "grasp place: %s",
                        st == LK_NOT_CONVERGED ? "the hand's loops do not close at the pre-shape"
                                               : "forward kinematics failed");
  return LK_OK;
}

/* Overlap of the hand with the object at the placed state. */
static int hand_overlaps(const lk_grasp_scene *s, lk_data *d, lk_status *st) {
  *st = lk_collide(s->m, d, NULL);
  if (*st && *st != LK_CAPACITY_EXCEEDED) return 0;
  *st = LK_OK;
  double tol = lk_model_options(s->m)->contact_tolerance;
  for (int i = 0; i < lk_data_ncontact(d); i++) {
    const lk_contact *c = lk_data_contact(d, i);
    int a = c->link_a, b = c->link_b;
    if (((a == s->object && s->hand_link[b]) || (b == s->object && s->hand_link[a])) &&
        c->depth > tol)
      return 1;
  }
  return 0;
}

static void close_summary(const ctl *c, lk_grasp_trial_report *r) {
  r->nfinger = c->s->nfinger;
  r->fingers_in_contact = 0;
  for (int f = 0; f < c->s->nfinger; f++) {
    r->finger_force[f] = c->F[f];
    if (c->F[f] > 0) r->fingers_in_contact++;
  }
  r->ncontacts = c->ncontacts;
}

/* The closing loop (ctl already begun). */
static lk_status run_close(ctl *c, lk_data *d, lk_grasp_trial_report *r) {
  const lk_grasp_trial_options *o = c->o;
  double t = 0, ok_time = 0;
  int nsteps = (int)ceil(o->close_timeout / c->h - 1e-9);
  r->closed = 0;
  lk_status st = LK_OK;
  c->closing = 1;
  for (int i = 0; i < nsteps; i++) {
    if ((st = control_step(c, d))) break;
    r->steps++;
    t += c->h;
    gather(c, d);
    int all = 1;
    for (int f = 0; f < c->s->nfinger; f++) {
      /* Pressing with the grip force, or as hard as its torque limits let
       * it; or stopped without touching. */
      int fine = c->F[f] > 0 ? fabs(c->F[f] - o->grip_force) <= o->force_tolerance * o->grip_force ||
                                   (c->saturated[f] && c->still[f] >= o->settle_time)
                             : c->still[f] >= o->settle_time;
      all &= fine;
    }
    ok_time = all ? ok_time + c->h : 0;
    if (ok_time >= o->settle_time && ok_time > 0) {
      r->closed = 1;
      break;
    }
  }
  c->closing = 0;
  r->close_time = t;
  r->time += t;
  close_summary(c, r);
  return st;
}

lk_status lk_grasp_close(const lk_grasp_scene *s, lk_data *d, const lk_grasp_trial_options *o,
                         lk_grasp_trial_report *r, lk_error *err) {
  if (!s || !d || !r || lk_data_model(d) != s->m)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "grasp close: bad scene, data or report");
  lk_grasp_trial_options dflt;
  if (!o) {
    lk_grasp_trial_options_default(&dflt);
    o = &dflt;
  }
  lk_status st = check_options(o, err);
  if (st) return st;
  ctl c;
  if ((st = ctl_init(&c, s, o, err))) return st;
  if ((st = lk_forward_kinematics(s->m, d)) || (st = ctl_begin(&c, d, err))) {
    ctl_free(&c);
    return lk_error_set(err, st, "grasp close: the state is not valid");
  }
  st = run_close(&c, d, r);
  r->status = st;
  ctl_free(&c);
  if (st) return lk_error_set(err, st, "grasp close: a step failed (%s)", lk_strerror(st));
  return LK_OK;
}

/* ----------------------------------------------------------- the trial */

typedef struct {
  lk_vec3 p_ref;     /* object's centre of mass in the palm frame */
  lk_mat3 R_ref;     /* object's orientation in the palm frame */
  double lost_time;  /* time without any hand contact */
} watch;

static void watch_begin(const ctl *c, const lk_data *d, watch *w) {
  const lk_grasp_scene *s = c->s;
  lk_transform H = lk_grasp_scene_hand_frame(s, d);
  const lk_transform *P = &H, *X = lk_data_link_pose(d, s->object);
  w->p_ref = lk_tf_inv_point(P, lk_tf_point(X, s->object_com));
  w->R_ref = lk_m3_tmul(&P->R, &X->R);
  w->lost_time = 0;
}

/* After a step: slip, utilization, slip flags; 1 when the object is lost. */
static int watch_step(ctl *c, lk_data *d, watch *w, lk_grasp_trial_report *r) {
  const lk_grasp_scene *s = c->s;
  lk_forward_kinematics(c->m, d);
  lk_transform H = lk_grasp_scene_hand_frame(s, d);
  const lk_transform *P = &H, *X = lk_data_link_pose(d, s->object);
  lk_vec3 p = lk_tf_inv_point(P, lk_tf_point(X, s->object_com));
  lk_mat3 R = lk_m3_tmul(&P->R, &X->R);
  double dp = lk_v3_norm(lk_v3_sub(p, w->p_ref));
  double ang = lk_v3_norm(rot_error(&R, &w->R_ref));
  r->slip_translation = fmax(r->slip_translation, dp);
  r->slip_rotation = fmax(r->slip_rotation, ang);
  int n = lk_data_ncontacts(d), touching = 0;
  for (int i = 0; i < n; i++) {
    const lk_contact_report *cr = lk_data_contact_report(d, i);
    int hand = (cr->link == s->object && s->hand_link[cr->other]) ||
               (cr->other == s->object && s->hand_link[cr->link]);
    if (!hand || !(cr->fn > 0)) continue;
    if (s->finger_of_link[cr->link] >= 0 || s->finger_of_link[cr->other] >= 0) touching = 1;
  }
  /* Utilization per link, as its tactile sensor sees it (|sum f_t| / sum
   * mu_s f_n over its contacts): single points of a sticking face contact
   * may carry shares of the face's friction beyond their own cone. */
  for (int l = 0; l < c->nl; l++) {
    int f = s->finger_of_link[l];
    if (f < 0) continue;
    lk_tactile t;
    if (lk_data_tactile(d, l, &t) != LK_OK) continue;
    if (t.slip) r->slip_flags |= 1u << f;
    if (t.normal_force > 0) r->peak_utilization = fmax(r->peak_utilization, t.utilization);
  }
  w->lost_time = touching ? 0 : w->lost_time + c->h;
  return dp > c->o->drop_distance || w->lost_time >= 0.02;
}

/* The analysis of the grasp as closed. */
static void analyse(const ctl *c, const lk_data *d, lk_grasp_trial_report *r) {
  const lk_grasp_scene *s = c->s;
  lk_grasp_extract_options eo;
  lk_grasp_extract_options_default(&eo);
  eo.object = s->object;
  eo.finger_of_link = s->finger_of_link;
  r->min_force = INFINITY;
  int n = lk_grasp_contacts_from_data(c->m, d, &eo, NULL, NULL, 0);
  if (n <= 0) return;
  lk_grasp_contact *gc = LK_NEW_ARRAY(lk_grasp_contact, n);
  if (!gc) return;
  lk_grasp_contacts_from_data(c->m, d, &eo, gc, NULL, n);
  lk_grasp_options ao = c->o->analysis;
  const lk_transform *X = lk_data_link_pose(d, s->object);
  ao.center = lk_tf_point(X, s->object_com);
  ao.torque_scale = s->object_radius;
  lk_grasp_closure_report fc;
  if (lk_grasp_force_closure(gc, n, &ao, &fc, NULL) == LK_OK) r->force_closure = fc.closed;
  lk_grasp_quality q;
  if (lk_grasp_quality_compute(gc, n, &ao, &q, NULL) == LK_OK) {
    r->epsilon = q.epsilon;
    r->volume = q.volume;
  }
  lk_grasp_force_result fr;
  lk_force weight = lk_fo(lk_v3_zero(), lk_v3_scale(c->gravity, s->object_mass));
  if (lk_grasp_min_force(gc, n, &ao, weight, LK_GRASP_MIN_MAX_FINGER, &fr, NULL, NULL, NULL) ==
      LK_OK)
    r->min_force = fr.force;
  lk_free(gc);
}

static const lk_vec3 axes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0},
                                {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};

/* The shake's force and torque (their defaults from the object). */
static void shake_magnitudes(const lk_grasp_scene *s, const lk_grasp_trial_options *o,
                             double *fmag, double *tmag) {
  double mg = s->object_mass * lk_v3_norm(lk_model_options(s->m)->gravity);
  *fmag = o->shake_force >= 0 ? o->shake_force : mg;
  *tmag = o->shake_torque >= 0 ? o->shake_torque : 0.5 * mg * s->object_radius;
}

int lk_grasp_trial_loads(const lk_grasp_scene *s, const lk_grasp_trial_options *o,
                         lk_force *loads, int cap) {
  if (!s || (cap > 0 && !loads) || cap < 0) return -1;
  lk_grasp_trial_options def;
  if (!o) {
    lk_grasp_trial_options_default(&def);
    o = &def;
  }
  lk_vec3 g = lk_model_options(s->m)->gravity;
  lk_vec3 weight = lk_v3_scale(g, s->object_mass);
  lk_force f[LK_GRASP_TRIAL_LOADS];
  int n = 0;
  if (o->lift_height > 0 && o->lift_time > 0) {
    /* The minimum-jerk rise's largest upward acceleration, (10 / sqrt 3)
     * H / T^2, at a quarter-ish of the rise: the object's inertia adds
     * to its weight. */
    double a = 10.0 / sqrt(3.0) * o->lift_height / (o->lift_time * o->lift_time);
    f[n++] = lk_fo(lk_v3_zero(), lk_v3_madd(weight, lk_v3(0, 0, 1), -a * s->object_mass));
  } else {
    f[n++] = lk_fo(lk_v3_zero(), weight);
  }
  double fmag, tmag;
  shake_magnitudes(s, o, &fmag, &tmag);
  if (o->shake_time > 0)
    for (int k = 0; k < 12; k++) {
      double mag = k < 6 ? fmag : tmag;
      if (mag <= 0) continue;
      lk_vec3 v = lk_v3_scale(axes[k % 6], mag);
      f[n++] = k < 6 ? lk_fo(lk_v3_zero(), lk_v3_add(weight, v)) : lk_fo(v, weight);
    }
  for (int k = 0; k < n && k < cap; k++) loads[k] = f[k];
  return n;
}

/* Run phase steps with a per-step setter; 1 when the object was lost. */
typedef void (*phase_fn)(ctl *c, double t, void *arg);

static int run_phase(ctl *c, lk_data *d, watch *w, lk_grasp_trial_report *r, double duration,
                     phase_fn set, void *arg, lk_status *st) {
  int n = (int)ceil(duration / c->h - 1e-9);
  for (int i = 0; i < n; i++) {
    if (set) set(c, (i + 1) * c->h, arg);
    if ((*st = control_step(c, d))) return 0;
    r->steps++;
    r->time += c->h;
    if (watch_step(c, d, w, r)) return 1;
  }
  return 0;
}

static double smooth(double x) {
  x = clampd(x, 0, 1);
  return x * x * (3 - 2 * x);
}

static void set_release(ctl *c, double t, void *arg) {
  c->support = 1 - smooth(t / *(const double *)arg);
}

typedef struct {
  lk_vec3 p0;
  double H, T;
} lift_arg;

/* Minimum-jerk rise: s = 10 x^3 - 15 x^4 + 6 x^5. */
static void set_lift(ctl *c, double t, void *arg) {
  const lift_arg *a = arg;
  double x = clampd(t / a->T, 0, 1);
  double s = x * x * x * (10 - 15 * x + 6 * x * x);
  double ds = 30 * x * x * (1 - 2 * x + x * x) / a->T;
  double dds = 60 * x * (1 - 3 * x + 2 * x * x) / (a->T * a->T);
  c->palm_target.p = lk_v3_add(a->p0, lk_v3(0, 0, a->H * s));
  c->palm_vel = lk_v3(0, 0, a->H * ds);
  c->palm_acc = lk_v3(0, 0, a->H * dds);
}

typedef struct {
  lk_vec3 dir;
  double mag, T;
  int torque;
} shake_arg;

/* Trapezoid: ramps of T/5 at both ends. */
static void set_shake(ctl *c, double t, void *arg) {
  const shake_arg *a = arg;
  double rr = a->T / 5, k;
  if (t < rr)
    k = t / rr;
  else if (t > a->T - rr)
    k = (a->T - t) / rr;
  else
    k = 1;
  k = clampd(k, 0, 1);
  lk_vec3 v = lk_v3_scale(a->dir, a->mag * k);
  c->dist_f = a->torque ? lk_v3_zero() : v;
  c->dist_t = a->torque ? v : lk_v3_zero();
}

static void set_quiet(ctl *c, double t, void *arg) {
  c->dist_f = c->dist_t = lk_v3_zero();
  c->palm_vel = c->palm_acc = lk_v3_zero();
}

lk_status lk_grasp_trial(const lk_grasp_scene *s, lk_data *d, const lk_transform *hand_pose,
                         const double *preshape, const lk_grasp_trial_options *o,
                         lk_grasp_trial_report *r, lk_error *err) {
  if (!s || !d || !r || !hand_pose || lk_data_model(d) != s->m)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "grasp trial: bad scene, data, pose or report");
  memset(r, 0, sizeof *r);
  r->lost_at_disturbance = -1;
  r->lost_in = LK_GRASP_PHASE_DONE;
  r->min_force = INFINITY;
  lk_grasp_trial_options dflt;
  if (!o) {
    lk_grasp_trial_options_default(&dflt);
    o = &dflt;
  }
  lk_status st = check_options(o, err);
  if (st) return st;
  if ((st = lk_grasp_place(s, d, hand_pose, preshape, err))) return st;
  if (hand_overlaps(s, d, &st)) {
    r->outcome = LK_GRASP_COLLISION;
    r->lost_in = LK_GRASP_PHASE_CLOSE;
    return LK_OK;
  }
  if (st) return lk_error_set(err, st, "grasp trial: collision check failed");
  /* Start again from the placed state with no contact history. */
  if ((st = lk_grasp_place(s, d, hand_pose, preshape, err))) return st;
  ctl c;
  if ((st = ctl_init(&c, s, o, err))) return st;
  if ((st = ctl_begin(&c, d, err))) {
    ctl_free(&c);
    return st;
  }
  lk_grasp_phase phase = LK_GRASP_PHASE_CLOSE;
  int lost = 0;
  watch w;
  if (o->observe) o->observe(o->observe_user, d, (int)phase);
  st = run_close(&c, d, r);
  if (st) goto failed;
  if (r->fingers_in_contact == 0) {
    r->outcome = LK_GRASP_NO_CONTACT;
    r->lost_in = LK_GRASP_PHASE_CLOSE;
    goto done;
  }
  lk_forward_kinematics(s->m, d);
  analyse(&c, d, r);
  watch_begin(&c, d, &w);
  if (o->hold) {
    for (int k = 0; k < s->nfdof; k++) c.q_hold[k] = lk_data_q(d)[s->fdof_qadr[k]];
    c.holding = 1;
  }

  c.phase = phase = LK_GRASP_PHASE_RELEASE;
  double rt = o->release_time;
  if (rt > 0) {
    lost = run_phase(&c, d, &w, r, rt, set_release, &rt, &st);
  }
  c.support = 0;
  if (st) goto failed;
  if (lost) goto dropped;

  c.phase = phase = LK_GRASP_PHASE_LIFT;
  if (o->lift_height > 0) {
    lift_arg la = {c.palm_target.p, o->lift_height, o->lift_time};
    lost = run_phase(&c, d, &w, r, o->lift_time, set_lift, &la, &st);
    if (st) goto failed;
    if (lost) goto dropped;
  }
  set_quiet(&c, 0, NULL);
  if (o->hold_time > 0) {
    lost = run_phase(&c, d, &w, r, o->hold_time, set_quiet, NULL, &st);
    if (st) goto failed;
    if (lost) goto dropped;
  }

  c.phase = phase = LK_GRASP_PHASE_SHAKE;
  double fmag, tmag;
  shake_magnitudes(s, o, &fmag, &tmag);
  if (o->shake_time > 0) {
    for (int k = 0; k < 12; k++) {
      shake_arg sa = {axes[k % 6], k < 6 ? fmag : tmag, o->shake_time, k >= 6};
      if (sa.mag <= 0) continue;
      r->lost_at_disturbance = k;
      lost = run_phase(&c, d, &w, r, o->shake_time, set_shake, &sa, &st);
      if (!st && !lost && o->shake_pause > 0)
        lost = run_phase(&c, d, &w, r, o->shake_pause, set_quiet, NULL, &st);
      set_quiet(&c, 0, NULL);
      if (st) goto failed;
      if (lost) goto dropped;
    }
    r->lost_at_disturbance = -1;
  }
  r->outcome = LK_GRASP_HELD;
  r->held = 1;
  r->lost_in = LK_GRASP_PHASE_DONE;
  goto done;
dropped:
  r->outcome = LK_GRASP_DROPPED;
  r->lost_in = phase;
  if (phase != LK_GRASP_PHASE_SHAKE) r->lost_at_disturbance = -1;
  goto done;
failed:
  r->outcome = LK_GRASP_SIM_FAILED;
  r->status = st;
  r->lost_in = phase;
  if (phase != LK_GRASP_PHASE_SHAKE) r->lost_at_disturbance = -1;
done:
  ctl_free(&c);
  return LK_OK;
}
