/* The held trial: rows at their friction bound (a turning contact's
 * rolling rows, a sliding contact's tangent pair) held there, the rest of
 * the island sticking. */
#include <math.h>
#include <string.h>

#include "constraint/constraint_impl.h"
#include "lcp/lcp_layer.h"
#include "sim/island_solve.h"

/* ------------------------------------------------------ held trial */

/* The held trial (issue 14, item 6): the sticking trial with the
 * island's turning contacts held at their bound. A rolling wheel's
 * rolling resistance (the rolling pair, and the twist row, of a contact
 * that turns relative to what it rolls on) is at its bound; the plain
 * trial, which makes every such row an equality, cannot stand, and the
 * friction LCP that decides instead resolves the redundant supports by
 * pivoting: a vertex split (a cart's four wheels on 0.17, 77.3, 77.1 and
 * 0 N, two of them not turning). Held at its bound -- a box lo = hi of
 * mu r_p f_n along the direction opposing the turning -- such a row is a
 * known impulse, and the rest is the trial's symmetric problem, whose
 * ridge picks the least-norm split of the normal loads (equal
 * utilization) as it does at rest. The bound depends on the normal
 * impulse and the direction on the answer's motion: both are iterated
 * (the normals' dependence on the held rows is weak: on the cart a
 * rolling torque moves the loads by mu_rolling r_p / L of itself), until
 * neither moves; a held row whose motion comes out along its impulse is
 * released (it sticks). The answer stands if every free friction row fits
 * its cone, as the trial's; otherwise the passes decide, as before.
 * The same for an island where something slides: its sliding contacts'
 * tangent pairs are held at mu_dynamic f_n against their slip (a box
 * sliding on four corners: the least-norm split, where pivoting gave 0 /
 * 9.81 / 5.89 / 3.92 N). Circle cone only (the box and the pyramid slide
 * by other laws). */
#define HELD_ITERS 6
/* The held impulses are iterated to 1e-6 of their bound (of the island's
 * largest normal impulse), their directions until the motion's sideways
 * part is below 1e-4 of it plus 1e-6 rad/s: the ridge's own split of
 * redundant loads moves by 1e-7 of them from solve to solve (4.5e-10 of
 * the bound on the cart), and the motion's direction with it, so that a
 * tighter test would only spend solves. The answer then holds them at
 * the bound of its own normal impulses exactly. */
#define HELD_TOL 1e-6
#define HELD_TOL_DIR 1e-4
#define HELD_TOL_SLIP 1e-6

/* Mark the rows to hold: a rolling pair or a twist row whose contact turns
 * (the current relative angular velocity along the rows, or, from_trial,
 * the plain trial's impulse beyond its bound), and, with tangents (an
 * island where something slides), the tangent pair of a dynamic contact,
 * or of one that carried nothing and slips, against its slip. Returns the
 * rows held; without mark, only counts them (the planner's facts). */
int lk_island_held_select(island *is, int from_trial, int tangents, int mark) {
  lk_sim_data *sd = is->sd;
  const lk_data *d = is->d;
  int n = is->n, count = 0;
  if (mark)
    for (int i = 0; i < n; i++) sd->hold[i] = 0;
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    if (R->kind != LK_ROW_FRICTION || R->ckind != LK_CONSTRAINT_CONTACT) continue;
    if (!(R->crow == 3 || ((R->crow == 1 || R->crow == 4) && R->pair >= 0))) continue;
    int i2 = R->crow == 3 ? -1 : sd->rowloc[R->pair];
    double d1, d2;
    if (R->crow == 1) {
      /* a dynamic contact, or one that carried nothing and slips: against
       * its slip, with mu_dynamic */
      const lk_contact_mem *mem = &sd->cmem[R->cindex];
      if (from_trial || !tangents || !mem->valid) continue;
      if (mem->state != LK_FRICTION_DYNAMIC && !(mem->z[0] <= 0)) continue;
      double v1 = lk_rows_dot(d, is->rows[i], d->v), v2 = lk_rows_dot(d, R->pair, d->v);
      double sp = lk_island_norm2(v1, v2);
      if (!(sp > SLIDE_EPS)) continue;
      d1 = -v1 / sp;
      d2 = -v2 / sp;
    } else if (from_trial) {
      double z1 = sd->z[i], z2 = i2 >= 0 ? sd->z[i2] : 0, f = lk_island_norm2(z1, z2);
      double bound = R->mu * fmax(sd->z[sd->rowloc[R->normal]], 0);
      if (!(f > bound * (1 + 1e-9) + 1e-15)) continue;
      d1 = z1 / f;
      d2 = z2 / f;
    } else {
      double v1 = lk_rows_dot(d, is->rows[i], d->v);
      double v2 = i2 >= 0 ? lk_rows_dot(d, R->pair, d->v) : 0, sp = lk_island_norm2(v1, v2);
      if (!(sp > SLIDE_EPS)) continue;
      d1 = -v1 / sp;
      d2 = -v2 / sp;
    }
    count += i2 >= 0 ? 2 : 1;
    if (!mark) continue;
    sd->hold[i] = 1;
    sd->hdir[i] = d1;
    if (i2 >= 0) {
      sd->hold[i2] = 1;
      sd->hdir[i2] = d2;
    }
  }
  return count;
}

/* The held rows' impulses from the normal impulses in sd->hzn (a rolling
 * pair's bound is its first row's). */
static void held_values(island *is) {
  lk_sim_data *sd = is->sd;
  for (int i = 0; i < is->n; i++) {
    if (!sd->hold[i]) continue;
    const lk_row *R = &sd->row[is->rows[i]];
    const lk_row *F = R->crow == 2 || R->crow == 5 ? &sd->row[R->pair] : R; /* the pair's first */
    double mu = F->crow == 1 ? sd->contact[R->cindex].mu_dynamic : F->mu;
    sd->hval[i] = mu * fmax(sd->hzn[sd->rowloc[R->normal]], 0) * sd->hdir[i];
  }
}

/* The held rows' normals (island rows, once each) into sd->hnorm;
 * returns how many. */
static int held_normals(island *is) {
  lk_sim_data *sd = is->sd;
  int k = 0;
  for (int i = 0; i < is->n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    if (!sd->hold[i] || R->crow == 2 || R->crow == 5) continue;
    int nr = sd->rowloc[R->normal], seen = 0;
    for (int j = 0; j < k && !seen; j++) seen = sd->hnorm[j] == nr;
    if (!seen) sd->hnorm[k++] = nr;
  }
  return k;
}

/* Solve the held trial from the marks of held_select and the normal
 * impulses in sd->z; returns 1 when it stands (z, w and the row states
 * set).
 *
 * The normals the held bounds are taken from are a fixed point: the
 * trial's normals as a function of the normals its held rows assume.
 * Where only the bounds moved (the held set and its directions stayed),
 * the next guess is Anderson's (anderson.c) over the held normals: that
 * map is affine while the trial's active set stands, and Anderson's
 * mixing of k + 1 evaluations is then its fixed point for k held
 * normals, where the plain iteration gains a constant factor each solve
 * (a paddle pushing a box with anchored contacts: 671 of 2 000 steps ran
 * out of HELD_ITERS so). */
int lk_island_held_trial(island *is, lk_sim_report *report, int *pass) {
  lk_sim_data *sd = is->sd;
  int n = is->n, ok = 0;
  is->sticking = 1;
  is->held = 1;
  if (!is->weighted) lk_island_ridge_weights(is, 0);
  for (int i = 0; i < n; i++) sd->hzn[i] = sd->z[i];
  lk_anderson acc;
  int nh = held_normals(is);
  double *g = sd->hmem + (2 * LK_ANDERSON_MMAX + 3) * (size_t)n;
  lk_anderson_init(&acc, nh, LK_ANDERSON_MMAX, sd->hmem);
  for (int it = 0; it < HELD_ITERS; it++) {
    held_values(is);
    lk_status st = lk_island_solve_once(is, report);
    (*pass)++;
    if (st) break;
    double zmax = 0;
    for (int i = 0; i < n; i++)
      if (sd->row[is->rows[i]].kind == LK_ROW_UNILATERAL) zmax = fmax(zmax, sd->z[i]);
    int again = 0, reset = 0;
    for (int i = 0; i < n; i++) {
      const lk_row *R = &sd->row[is->rows[i]];
      if (!sd->hold[i] || R->crow == 2 || R->crow == 5) continue;
      int i2 = R->crow == 3 ? -1 : sd->rowloc[R->pair];
      double mu = R->crow == 1 ? sd->contact[R->cindex].mu_dynamic : R->mu;
      double b = mu * fmax(sd->z[sd->rowloc[R->normal]], 0), tol = HELD_TOL * mu * zmax;
      double d1 = sd->hdir[i], d2 = i2 >= 0 ? sd->hdir[i2] : 0;
      if (fabs(b * d1 - sd->hval[i]) > tol || (i2 >= 0 && fabs(b * d2 - sd->hval[i2]) > tol))
        again = 1;
      double w1 = sd->w[i], w2 = i2 >= 0 ? sd->w[i2] : 0, sp = lk_island_norm2(w1, w2);
      if (!(sp > SLIDE_EPS)) continue; /* held at the bound, not moving: admissible */
      if (w1 * d1 + w2 * d2 > 0) {
        /* moving along its impulse: it grips instead */
        sd->hold[i] = 0;
        if (i2 >= 0) sd->hold[i2] = 0;
        again = reset = 1;
        continue;
      }
      double e1 = -w1 / sp, e2 = -w2 / sp;
      if (fabs(w1 * d2 - w2 * d1) > HELD_TOL_DIR * sp + HELD_TOL_SLIP) {
        sd->hdir[i] = e1;
        if (i2 >= 0) sd->hdir[i2] = e2;
        again = reset = 1;
      }
    }
    /* Infeasible with the held values settled (a contact that should
     * slip, not only its bound in motion): the passes decide. */
    int feasible = lk_island_feasible(is);
    if (!again || (!feasible && it > 0)) {
      ok = feasible && !again;
      break;
    }
    /* the next normals: the trial's, Anderson's mix of them where only
     * the bounds moved, a fresh history where the map itself changed */
    for (int k = 0; k < nh; k++) {
      acc.x[k] = sd->hzn[sd->hnorm[k]];
      g[k] = sd->z[sd->hnorm[k]];
    }
    if (reset) {
      nh = held_normals(is);
      lk_anderson_init(&acc, nh, LK_ANDERSON_MMAX, sd->hmem);
    } else {
      lk_anderson_step(&acc, g);
    }
    for (int i = 0; i < n; i++) sd->hzn[i] = sd->z[i];
    if (!reset)
      for (int k = 0; k < nh; k++) sd->hzn[sd->hnorm[k]] = fmax(g[k], 0);
  }
  is->sticking = 0;
  is->held = 0;
  if (!ok) return 0;
  for (int i = 0; i < n; i++) sd->hzn[i] = sd->z[i];
  held_values(is);
  for (int i = 0; i < n; i++) {
    lk_row *R = &sd->row[is->rows[i]];
    if (sd->hold[i]) sd->z[i] = sd->hval[i];
    /* a held tangent pair that carries load slides: dynamic */
    if (R->crow == 1 && sd->hold[i] && sd->z[sd->rowloc[R->normal]] > 0) {
      lk_contact_mem *mem = &sd->cmem[R->cindex];
      if (mem->state != LK_FRICTION_DYNAMIC) {
        mem->state = LK_FRICTION_DYNAMIC;
        report->state_changes++;
      }
      R->mu = sd->contact[R->cindex].mu_dynamic;
      if (sd->row[R->pair].mu != 0) sd->row[R->pair].mu = R->mu;
    }
  }
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    double zn = R->kind == LK_ROW_FRICTION ? sd->z[sd->rowloc[R->normal]] : 0;
    sd->basis[i] = lk_island_row_state(R, sd->z[i], sd->w[i], zn);
  }
  return 1;
}

