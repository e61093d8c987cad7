/* Forward kinematics: poses, motion subspaces, velocities and
 * velocity-product accelerations of every link, root to leaves. */
#include <string.h>

#include "core/internal.h"
#include "dynamics/dynamics_impl.h"

/* Unit quaternion stored (w, x, y, z) at p; normalized on read so that a
 * slightly denormalized state never skews the geometry. */
static lk_quat read_quat(const double *p) { return lk_q_normalize(lk_q(p[0], p[1], p[2], p[3])); }

/* The pose of link i's frame in its joint frame at the joint's coordinates
 * q, and whether the joint type is known. */
static int joint_pose(const lk_model *m, int i, const double *q, lk_transform *XJ) {
  switch (m->jtype[i]) {
    case LK_JOINT_FIXED:
      *XJ = lk_tf_identity();
      return 1;
    case LK_JOINT_REVOLUTE:
      XJ->R = lk_m3_from_axis_angle(m->axis[i], q[0]);
      XJ->p = lk_v3_zero();
      return 1;
    case LK_JOINT_PRISMATIC:
      XJ->R = lk_m3_identity();
      XJ->p = lk_v3_scale(m->axis[i], q[0]);
      return 1;
    case LK_JOINT_BALL:
      XJ->R = lk_q_to_mat3(read_quat(q));
      XJ->p = lk_v3_zero();
      return 1;
    case LK_JOINT_FREE:
      XJ->R = lk_q_to_mat3(read_quat(q + 3));
      XJ->p = lk_v3_from(q);
      return 1;
    default:
      return 0;
  }
}

void lk_dyn_poses(const lk_model *m, const double *q, const int *link, int n, lk_transform *xw,
                  unsigned char *done) {
  if (!done[0]) {
    xw[0] = lk_tf_identity();
    done[0] = 1;
  }
  for (int a = 0; a < n; a++) {
    /* climb to the first computed ancestor, then come down (a chain is
     * short; the order needs no stack: each pass computes the highest
     * link not yet done) */
    while (!done[link[a]]) {
      int i = link[a];
      while (!done[m->parent[i]]) i = m->parent[i];
      lk_transform XJ;
      if (!joint_pose(m, i, q + m->qadr[i], &XJ)) XJ = lk_tf_identity();
      lk_transform up = lk_tf_mul(&m->link[i].origin, &XJ);
      xw[i] = lk_tf_mul(&xw[m->parent[i]], &up);
      done[i] = 1;
    }
  }
}

lk_status lk_dyn_kinematics(const lk_model *m, lk_data *d, const double *qall, const double *vall) {
  d->xw[0] = lk_tf_identity();
  d->vl[0] = lk_mo_zero();
  d->cl[0] = lk_mo_zero();
  for (int i = 1; i < m->nlink; i++) {
    const double *q = qall + m->qadr[i];
    const double *qd = vall + m->vadr[i];
    lk_motion *S = d->S + m->vadr[i];
    lk_vec3 ax = m->axis[i];
    lk_transform XJ; /* pose of the link frame in its joint frame */
    if (!joint_pose(m, i, q, &XJ)) return LK_INVALID_ARGUMENT;
    lk_motion vJ = lk_mo_zero(), cJ = lk_mo_zero();
    switch (m->jtype[i]) {
      case LK_JOINT_FIXED:
        break;
      case LK_JOINT_REVOLUTE:
        S[0] = lk_mo(ax, lk_v3_zero());
        vJ = lk_mo_scale(S[0], qd[0]);
        break;
      case LK_JOINT_PRISMATIC:
        S[0] = lk_mo(lk_v3_zero(), ax);
        vJ = lk_mo_scale(S[0], qd[0]);
        break;
      case LK_JOINT_BALL:
        /* v = angular velocity in the joint frame: omega_link = R^T omega.
         * The apparent derivative of S = [R^T; 0] times v is
         * -R^T (omega x omega) = 0, so c_J = 0. */
        for (int k = 0; k < 3; k++) S[k] = lk_mo(lk_m3_row(&XJ.R, k), lk_v3_zero());
        vJ = lk_mo(lk_m3_tmulv(&XJ.R, lk_v3_from(qd)), lk_v3_zero());
        break;
      case LK_JOINT_FREE: {
        /* v = (velocity of the link origin, angular velocity), both in the
         * joint frame. In link coordinates S = [0 R^T; R^T 0], whose apparent
         * derivative gives c_J = (0, -w_b x v_b). */
        for (int k = 0; k < 3; k++) {
          lk_vec3 rk = lk_m3_row(&XJ.R, k); /* R^T e_k */
          S[k] = lk_mo(lk_v3_zero(), rk);
          S[k + 3] = lk_mo(rk, lk_v3_zero());
        }
        vJ = lk_mo(lk_m3_tmulv(&XJ.R, lk_v3_from(qd + 3)), lk_m3_tmulv(&XJ.R, lk_v3_from(qd)));
        cJ = lk_mo(lk_v3_zero(), lk_v3_neg(lk_v3_cross(vJ.ang, vJ.lin)));
        break;
      }
      default:
        return LK_INVALID_ARGUMENT;
    }
    int p = m->parent[i];
    d->xup[i] = lk_tf_mul(&m->link[i].origin, &XJ);
    d->xw[i] = lk_tf_mul(&d->xw[p], &d->xup[i]);
    lk_motion vp = lk_tf_inv_motion(&d->xup[i], d->vl[p]);
    d->vl[i] = lk_mo_add(vp, vJ);
    /* Featherstone eq. 5.7's velocity-product term c_J + v_i x v_J. */
    d->cl[i] = lk_mo_add(cJ, lk_mo_cross_mo(d->vl[i], vJ));
  }
  d->s->kinematics_valid = 1;
  /* Remember the state when it is the data's own, so that the step can
   * tell kinematics still current from ones of a state since written
   * through lk_data_q()/lk_data_v() (lk_dyn_kinematics_current). */
  lk_dyn_data *dd = &d->dyn;
  dd->st->kin_at_state = qall == d->q && vall == d->v;
  if (dd->st->kin_at_state) {
    memcpy(dd->kin_q, d->q, sizeof(double) * (size_t)m->nq);
    memcpy(dd->kin_v, d->v, sizeof(double) * (size_t)m->nv);
  }
  return LK_OK;
}

lk_status lk_dyn_kinematics_current(const lk_model *m, lk_data *d) {
  const lk_dyn_data *dd = &d->dyn;
  if (d->s->kinematics_valid && dd->st->kin_at_state &&
      memcmp(dd->kin_q, d->q, sizeof(double) * (size_t)m->nq) == 0 &&
      memcmp(dd->kin_v, d->v, sizeof(double) * (size_t)m->nv) == 0)
    return LK_OK; /* the same bits give the same kinematics */
  return lk_dyn_kinematics(m, d, d->q, d->v);
}

lk_status lk_forward_kinematics(const lk_model *m, lk_data *d) {
  if (!lk_data_matches(m, d)) return LK_INVALID_ARGUMENT;
  if (!lk_all_finite(d->q, (size_t)m->nq) || !lk_all_finite(d->v, (size_t)m->nv))
    return LK_NON_FINITE;
  return lk_dyn_kinematics(m, d, d->q, d->v);
}
