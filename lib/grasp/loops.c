/* Kinematic loops of a hand (MJCF connect and weld equalities): a four-bar
 * finger whose follower links hang from the palm by joints of their own
 * and are tied to the driven links by a loop (Menagerie's Robotiq 2F-85:
 * driver, coupler, spring link and follower). The screener closes fingers
 * kinematically, so it moves the passive joints on a loop to keep the loop
 * closed as the finger joints move: Gauss-Newton on the loops' residuals,
 * least squares over the passive joints not held. A loop with more
 * passive joints than it ties (the 2F-85's five-bar is underactuated: its
 * spring holds the coupler on a stop until the proximal link meets
 * something) would leave the extra freedom to the solver; a passive joint
 * that the file's initial state has at a limit is held there instead. */
#include <math.h>
#include <string.h>

#include "core/internal.h"
#include "grasp/grasp_scene.h"
#include "linkage/dynamics.h"

#define MAX_LP (LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS)
#define MAX_ROWS (6 * LK_GRASP_MAX_LOOPS)
/* The loops' masks (grasp_scene.h) hold a bit per finger DoF and per
 * coupled joint, each at most MAX_LP. */
_Static_assert(MAX_LP <= 64, "a finger DoF or coupled joint beyond the loop masks' 64 bits");

static int below(const lk_model *m, int link, int ancestor) {
  for (int l = link; l >= 0; l = lk_model_link_parent(m, l))
    if (l == ancestor) return 1;
  return 0;
}

static int loop_rows(int type) { return type == LK_LOOP_BALL ? 3 : 6; }

/* Loop i's residual (3 rows: the points apart; 6: and the frames' turn). */
static void residual(const lk_grasp_scene *s, const lk_data *d, int i, double *r) {
  const lk_transform *Xa = lk_data_link_pose(d, s->loop_link[i][0]);
  const lk_transform *Xb = lk_data_link_pose(d, s->loop_link[i][1]);
  lk_vec3 e = lk_v3_sub(lk_tf_point(Xa, s->loop_point[i][0]), lk_tf_point(Xb, s->loop_point[i][1]));
  r[0] = e.x;
  r[1] = e.y;
  r[2] = e.z;
  if (s->loop_type[i] == LK_LOOP_BALL) return;
  lk_mat3 A = lk_m3_mul(&Xa->R, &s->loop_frame[i][0]), B = lk_m3_mul(&Xb->R, &s->loop_frame[i][1]);
  lk_vec3 w = lk_v3_zero();
  for (int c = s->loop_type[i] == LK_LOOP_PIN ? 2 : 0; c < 3; c++) {
    lk_vec3 a = lk_v3(A.m[0][c], A.m[1][c], A.m[2][c]), b = lk_v3(B.m[0][c], B.m[1][c], B.m[2][c]);
    w = lk_v3_add(w, lk_v3_cross(a, b));
  }
  if (s->loop_type[i] == LK_LOOP_RIGID) w = lk_v3_scale(w, 0.5);
  r[3] = w.x;
  r[4] = w.y;
  r[5] = w.z;
}

/* The column of loop i's residual for a 1-DoF joint on link l. */
static void column(const lk_grasp_scene *s, const lk_data *d, int i, int l, double *col) {
  const lk_model *m = s->m;
  lk_link_spec ls;
  lk_model_link(m, l, &ls);
  const lk_transform *X = lk_data_link_pose(d, l);
  lk_vec3 w = lk_m3_mulv(&X->R, lk_v3_normalize(ls.joint.axis));
  int revolute = lk_model_joint_type(m, l) == LK_JOINT_REVOLUTE;
  lk_vec3 v = lk_v3_zero(), om = lk_v3_zero();
  for (int side = 0; side < 2; side++) {
    if (!below(m, s->loop_link[i][side], l)) continue;
    lk_vec3 x = lk_tf_point(lk_data_link_pose(d, s->loop_link[i][side]), s->loop_point[i][side]);
    lk_vec3 vs = revolute ? lk_v3_cross(w, lk_v3_sub(x, X->p)) : w;
    lk_vec3 ws = revolute ? w : lk_v3_zero();
    v = side ? lk_v3_sub(v, vs) : lk_v3_add(v, vs);
    om = side ? lk_v3_sub(om, ws) : lk_v3_add(om, ws);
  }
  col[0] = v.x;
  col[1] = v.y;
  col[2] = v.z;
  if (s->loop_type[i] == LK_LOOP_BALL) return;
  if (s->loop_type[i] == LK_LOOP_PIN) { /* only the turn across the pin's axis */
    lk_mat3 A = lk_m3_mul(&lk_data_link_pose(d, s->loop_link[i][0])->R, &s->loop_frame[i][0]);
    lk_vec3 z = lk_v3(A.m[0][2], A.m[1][2], A.m[2][2]);
    om = lk_v3_sub(om, lk_v3_scale(z, lk_v3_dot(z, om)));
  }
  col[3] = -om.x;
  col[4] = -om.y;
  col[5] = -om.z;
}

/* Least squares J x = r for the n columns (rows x n, row stride MAX_LP):
 * normal equations with a little damping, by Cholesky. */
static void least_squares(const double *J, int rows, int n, const double *r, double *x) {
  double A[MAX_LP * MAX_LP], g[MAX_LP], scale = 0;
  for (int a = 0; a < n; a++) {
    for (int b = 0; b <= a; b++) {
      double sum = 0;
      for (int k = 0; k < rows; k++) sum += J[k * MAX_LP + a] * J[k * MAX_LP + b];
      A[a * MAX_LP + b] = sum;
    }
    scale = fmax(scale, A[a * MAX_LP + a]);
    double sum = 0;
    for (int k = 0; k < rows; k++) sum += J[k * MAX_LP + a] * r[k];
    g[a] = sum;
  }
  /* damping: a joint the loops do not tie (a zero column) stays put */
  for (int a = 0; a < n; a++) A[a * MAX_LP + a] += 1e-12 * scale + 1e-300;
  for (int a = 0; a < n; a++) {
    for (int b = 0; b < a; b++) A[a * MAX_LP + a] -= A[a * MAX_LP + b] * A[a * MAX_LP + b];
    double p = sqrt(fmax(A[a * MAX_LP + a], 1e-300));
    A[a * MAX_LP + a] = p;
    for (int c = a + 1; c < n; c++) {
      double sum = A[c * MAX_LP + a];
      for (int b = 0; b < a; b++) sum -= A[c * MAX_LP + b] * A[a * MAX_LP + b];
      A[c * MAX_LP + a] = sum / p;
    }
  }
  for (int a = 0; a < n; a++) {
    double sum = g[a];
    for (int b = 0; b < a; b++) sum -= A[a * MAX_LP + b] * x[b];
    x[a] = sum / A[a * MAX_LP + a];
  }
  for (int a = n - 1; a >= 0; a--) {
    double sum = x[a];
    for (int b = a + 1; b < n; b++) sum -= A[b * MAX_LP + a] * x[b];
    x[a] = sum / A[a * MAX_LP + a];
  }
}

/* All loops' residuals stacked; returns the largest magnitude. */
static double residuals(const lk_grasp_scene *s, const lk_data *d, double *r, int *rows) {
  double worst = 0;
  int n = 0;
  for (int i = 0; i < s->nloop; i++) {
    residual(s, d, i, r + n);
    for (int k = 0; k < loop_rows(s->loop_type[i]); k++) worst = fmax(worst, fabs(r[n + k]));
    n += loop_rows(s->loop_type[i]);
  }
  *rows = n;
  return worst;
}

/* The free passive joints' columns of every loop. */
static int free_columns(const lk_grasp_scene *s, const lk_data *d, double *J, int *which) {
  int n = 0;
  for (int p = 0; p < s->nlp; p++)
    if (!s->lp_held[p]) which[n++] = p;
  int row = 0;
  for (int i = 0; i < s->nloop; i++) {
    int nr = loop_rows(s->loop_type[i]);
    for (int a = 0; a < n; a++) {
      double col[6] = {0, 0, 0, 0, 0, 0};
      if (s->lp_loops[which[a]] & (1u << i)) column(s, d, i, s->lp_link[which[a]], col);
      for (int k = 0; k < nr; k++) J[(row + k) * MAX_LP + a] = col[k];
    }
    row += nr;
  }
  return n;
}

lk_status lk_grasp_scene_close_loops(const lk_grasp_scene *s, lk_data *d, double tol) {
  lk_status st = lk_forward_kinematics(s->m, d);
  if (st || s->nloop == 0) return st;
  double r[MAX_ROWS], J[MAX_ROWS * MAX_LP], x[MAX_LP], q_old[MAX_LP];
  int which[MAX_LP], rows;
  double *q = lk_data_q(d);
  double err = residuals(s, d, r, &rows);
  for (int it = 0; it < 30 && err > tol; it++) {
    int n = free_columns(s, d, J, which);
    if (n == 0) break;
    least_squares(J, rows, n, r, x);
    for (int a = 0; a < n; a++) q_old[a] = q[s->lp_qadr[which[a]]];
    /* Newton's step, halved while it does not reduce the residual. */
    double step = 1, e2 = err;
    for (int h = 0; h < 12; h++, step *= 0.5) {
      for (int a = 0; a < n; a++) q[s->lp_qadr[which[a]]] = q_old[a] - step * x[a];
      if ((st = lk_forward_kinematics(s->m, d))) return st;
      e2 = residuals(s, d, r, &rows);
      if (e2 < err) break;
    }
    if (!(e2 < err)) { /* no progress: back to the best */
      for (int a = 0; a < n; a++) q[s->lp_qadr[which[a]]] = q_old[a];
      if ((st = lk_forward_kinematics(s->m, d))) return st;
      break;
    }
    err = e2;
  }
  return err > tol ? LK_NOT_CONVERGED : LK_OK;
}

void lk_grasp_scene_loop_rates(const lk_grasp_scene *s, const lk_data *d, const double *dof_rate,
                               const double *cp_rate, double *rate) {
  for (int p = 0; p < s->nlp; p++) rate[p] = 0;
  if (s->nloop == 0) return;
  double J[MAX_ROWS * MAX_LP], r[MAX_ROWS], x[MAX_LP];
  int which[MAX_LP], rows = 0;
  /* minus the residual's rate from the driving joints */
  for (int i = 0; i < s->nloop; i++) {
    int nr = loop_rows(s->loop_type[i]);
    for (int k = 0; k < nr; k++) r[rows + k] = 0;
    for (int k = 0; k < s->nfdof; k++)
      if (dof_rate[k] != 0 && (s->loop_dofs[i] >> k & 1)) {
        double col[6];
        int l = -1;
        for (int a = 1; a < lk_model_nlink(s->m) && l < 0; a++)
          if (lk_model_joint_qadr(s->m, a) == s->fdof_qadr[k] && lk_model_joint_nq(s->m, a) == 1) l = a;
        column(s, d, i, l, col);
        for (int c = 0; c < nr; c++) r[rows + c] -= col[c] * dof_rate[k];
      }
    for (int j = 0; j < s->ncoupled; j++)
      if (cp_rate[j] != 0 && (s->loop_cps[i] >> j & 1)) {
        double col[6];
        column(s, d, i, s->cp_link[j], col);
        for (int c = 0; c < nr; c++) r[rows + c] -= col[c] * cp_rate[j];
      }
    rows += nr;
  }
  int n = free_columns(s, d, J, which);
  if (n == 0) return;
  least_squares(J, rows, n, r, x);
  for (int a = 0; a < n; a++) rate[which[a]] = x[a];
}

lk_status lk_grasp_scene_find_loops(lk_grasp_scene *s, const double *q0, lk_error *err) {
  const lk_model *m = s->m;
  s->nloop = s->nlp = 0;
  for (int i = 0; i < lk_model_nloop(m); i++) {
    lk_loop_spec ls;
    lk_model_loop(m, i, &ls);
    int la = lk_model_link_index(m, ls.link_a), lb = ls.link_b ? lk_model_link_index(m, ls.link_b) : 0;
    if (la <= 0 || lb <= 0 || !s->hand_link[la] || !s->hand_link[lb]) continue;
    if (s->palm_body[la] && s->palm_body[lb]) continue; /* a held wrist */
    if (s->nloop == LK_GRASP_MAX_LOOPS)
      return lk_error_set(err, LK_UNSUPPORTED, "grasp scene: the hand has more than %d loops",
                          LK_GRASP_MAX_LOOPS);
    int n = s->nloop;
    s->loop_type[n] = ls.type;
    s->loop_link[n][0] = la;
    s->loop_link[n][1] = lb;
    s->loop_point[n][0] = ls.frame_a.p;
    s->loop_point[n][1] = ls.frame_b.p;
    s->loop_frame[n][0] = ls.frame_a.R;
    s->loop_frame[n][1] = ls.frame_b.R;
    s->loop_dofs[n] = s->loop_cps[n] = 0;
    /* The joints between each end and the ends' common ancestor. */
    for (int side = 0; side < 2; side++) {
      int end = s->loop_link[n][side], other = s->loop_link[n][1 - side];
      for (int l = end; l > 0 && !below(m, other, l); l = lk_model_link_parent(m, l)) {
        lk_joint_type t = lk_model_joint_type(m, l);
        if (t == LK_JOINT_FIXED) continue;
        if (t != LK_JOINT_REVOLUTE && t != LK_JOINT_PRISMATIC)
          return lk_error_set(err, LK_UNSUPPORTED,
                              "grasp scene: loop '%s' - '%s' passes a joint of more than one DoF "
                              "('%s')",
                              ls.link_a, ls.link_b, lk_model_link_name(m, l));
        int qa = lk_model_joint_qadr(m, l), k = 0, j = 0;
        while (k < s->nfdof && s->fdof_qadr[k] != qa) k++;
        while (j < s->ncoupled && s->cp_qadr[j] != qa) j++;
        if (k < s->nfdof) {
          s->loop_dofs[n] |= 1ull << k;
          continue;
        }
        if (j < s->ncoupled) {
          s->loop_cps[n] |= 1ull << j;
          continue;
        }
        int p = 0;
        while (p < s->nlp && s->lp_link[p] != l) p++;
        if (p == s->nlp) {
          if (s->nlp == MAX_LP)
            return lk_error_set(err, LK_UNSUPPORTED,
                                "grasp scene: the hand's loops have more than %d passive joints",
                                MAX_LP);
          lk_link_spec js;
          lk_model_link(m, l, &js);
          double v = q0[qa], eps = 1e-9 * (1 + fabs(js.joint.upper - js.joint.lower));
          s->lp_link[p] = l;
          s->lp_qadr[p] = qa;
          s->lp_held[p] = (unsigned char)(js.joint.limited && (fabs(v - js.joint.lower) <= eps ||
                                                               fabs(v - js.joint.upper) <= eps));
          s->lp_loops[p] = 0;
          s->nlp++;
        }
        s->lp_loops[p] |= 1u << n;
      }
    }
    s->nloop++;
  }
  /* Each passive joint's drivers, and its links given to their finger. */
  for (int p = 0; p < s->nlp; p++) {
    s->lp_dofs[p] = s->lp_cps[p] = 0;
    for (int i = 0; i < s->nloop; i++)
      if (s->lp_loops[p] >> i & 1) {
        s->lp_dofs[p] |= s->loop_dofs[i];
        s->lp_cps[p] |= s->loop_cps[i];
      }
    int f = -1;
    for (int j = 0; j < s->ncoupled && f < 0; j++)
      if (s->lp_cps[p] >> j & 1) f = s->finger_of_link[s->cp_link[j]];
    for (int k = 0, g = 0, i = 0; g < s->nfinger && f < 0; g++)
      for (i = 0; i < s->finger[g].ndof; i++, k++)
        if (s->lp_dofs[p] >> k & 1) f = g;
    if (f < 0) continue;
    for (int l = 1; l < lk_model_nlink(m); l++)
      if (s->finger_of_link[l] < 0 && !s->palm_body[l] && below(m, l, s->lp_link[p]))
        s->finger_of_link[l] = f;
  }
  return LK_OK;
}
