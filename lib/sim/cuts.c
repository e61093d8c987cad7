/* Sticking with the normal impulses fixed (the trial's) or free (the
 * coupled check): a convex problem over polygons in each friction disk
 * (solve.c's stages after a sticking trial that broke a cone). */
#include <math.h>
#include <string.h>

#include "constraint/constraint_impl.h"
#include "lcp/lcp_layer.h"
#include "sim/island_solve.h"

/* The fixed-normal stage: with the normal impulses of the trial held, the
 * friction distribution minimizes 1/2 z^T A z + b^T z over each pair's
 * admissible set, a convex problem whose KKT conditions are a mixed LCP
 *     [ A   U ] [ z ]   [ b ]      friction rows free (w = 0),
 *     [-U^T 0 ] [ l ] + [ c ] _|_  0 <= l (one multiplier per facet
 *                                  u . z_pair <= c),
 * the multiplier l of an active facet being a slip speed along -u
 * (maximal dissipation). For the circle cone each pair's set is a regular
 * 16-gon inscribed in its disk with a vertex on the pair's current
 * friction direction (from the trial, then from the last solve): every
 * answer is inside the disk -- never more grip than Coulomb's -- and exact
 * along the direction the friction actually takes. The box and pyramid
 * cones use their own polygon. Returns 1 when the island sticks everywhere
 * (z, w set), 0 otherwise. */
#define FIXED_EDGES 16
#define FIXED_PASSES 3
/* The coupled check's polygons: octagons with a vertex on the friction's
 * direction, turned there by the passes (exact along it; what it finds
 * sticks inside the disk whatever the direction; squares gave answers
 * that cost the shipped pick_and_shake 19 failed solves later). Its
 * largest problem: a dense Lemke solve costs about N^3 / 3; beyond this
 * many rows and facets (a 24-link chain round a capstan takes 264) the
 * island keeps the earlier answer (slip). */
#define COUPLED_EDGES 8
#define COUPLED_MAX 300
/* Facets only where they bind (a cutting-plane loop over the same convex
 * problem): a pair gets its polygon when the trial's friction, or a solve
 * without it, leaves its admissible set (lk_island_feasible's test: the
 * disk, or the cone's own polygon or box); the others are free rows. The
 * optimum then meets every pair's set, so it is the problem's optimum with
 * the unbound pairs' sets relaxed to the disk they are inscribed in --
 * still inside Coulomb's cone. Why: the polygons of every pair made the
 * expanded problem 10 to 20 times the island's rows (a 38-row island of
 * the dropped 50-box heap: 216), Lemke's pivots on it a quarter of that
 * run's time; where one or two contacts broke a cone the problem is now
 * the free rows and their facets. */

static int add_cut(island *is, int *ncut, int r1, int r2, double u1, double u2, double c) {
  lk_sim_data *sd = is->sd;
  if (*ncut >= sd->xcap - is->n) return 0;
  int k = (*ncut)++;
  sd->cut_r1[k] = r1;
  sd->cut_r2[k] = r2;
  sd->cut_u1[k] = u1;
  sd->cut_u2[k] = u2;
  sd->cut_c[k] = c;
  return 1;
}

/* Facets of a regular polygon of ne edges inscribed in the circle of
 * radius bound, with a vertex at angle a0. */
static void add_polygon(island *is, int *ncut, int r1, int r2, int ne, double a0, double bound) {
  for (int j = 0; j < ne; j++) {
    double a = a0 + (2 * j + 1) * LK_PI / ne;
    add_cut(is, ncut, r1, r2, cos(a), sin(a), bound * cos(LK_PI / ne));
  }
}

/* Whether the friction of row i (a single row, or a pair's first) in sd->z
 * is outside its admissible set for its normal's impulse in sd->z, with
 * lk_island_feasible's slack. */
static int outside(const island *is, int i, double idle) {
  const lk_sim_data *sd = is->sd;
  const lk_options *o = &is->m->opt;
  const lk_row *R = &sd->row[is->rows[i]];
  double z = sd->z[i], bound = R->mu * fmax(sd->z[sd->rowloc[R->normal]], 0) * (1 + 1e-9) + idle;
  if (R->pair < 0) return fabs(z) > bound;
  double z2 = sd->z[sd->rowloc[R->pair]];
  if (o->friction_cone == LK_CONE_PYRAMID && R->crow == 1) {
    int ne = o->cone_edges;
    for (int j = 0; j < ne; j++) {
      double a = (2 * j + 1) * LK_PI / ne;
      if (z * cos(a) + z2 * sin(a) > bound * cos(LK_PI / ne)) return 1;
    }
    return 0;
  }
  if (o->friction_cone == LK_CONE_BOX) return fabs(z) > bound || fabs(z2) > bound;
  return lk_island_norm2(z, z2) > bound;
}

/* Marks the friction rows (singles, pairs' first rows) whose friction in
 * sd->z is outside its set; returns how many were newly marked. */
static int mark_outside(island *is) {
  lk_sim_data *sd = is->sd;
  double zmax = 0;
  for (int i = 0; i < is->n; i++)
    if (sd->row[is->rows[i]].kind == LK_ROW_UNILATERAL) zmax = fmax(zmax, sd->z[i]);
  const double idle = 1e-15 + 1e-9 * zmax;
  int added = 0;
  for (int i = 0; i < is->n; i++) {
    const lk_row *R = &sd->row[is->rows[i]];
    if (R->kind != LK_ROW_FRICTION || sd->cut[i]) continue;
    if (R->pair >= 0 && !(R->crow == 1 || R->crow == 4)) continue;
    if (outside(is, i, idle)) {
      sd->cut[i] = 1;
      added++;
    }
  }
  return added;
}

int lk_island_fixed_cuts(island *is, lk_sim_report *report, int coupled) {
  lk_sim_data *sd = is->sd;
  const lk_options *o = &is->m->opt;
  int n = is->n;
  /* The unilateral rows (contact normals, limits) keep the trial's
   * impulses: only the friction is redistributed. Their velocities are
   * checked afterwards. var[i] is row i's variable, -1 when held.
   * Coupled, they are variables too (z >= 0 against w >= 0), and each
   * facet bounds the friction by its own normal's impulse. */
  int *var = sd->findex; /* free in this stage */
  int nv = 0;
  for (int i = 0; i < n; i++)
    var[i] = !coupled && sd->row[is->rows[i]].kind == LK_ROW_UNILATERAL ? -1 : nv++;
  double dmax = 0;
  for (int i = 0; i < n; i++) dmax = fmax(dmax, sd->adiag[i]);
  double ridge = RIDGE * dmax;
  for (int i = 0; i < n; i++) sd->cut[i] = 0;
  mark_outside(is); /* the trial's broken cones */
  int turns = 0;
  for (;;) {
    int ncut = 0;
    for (int i = 0; i < n; i++) {
      const lk_row *R = &sd->row[is->rows[i]];
      if (R->kind != LK_ROW_FRICTION || !sd->cut[i]) continue;
      double bound = coupled ? R->mu : R->mu * fmax(sd->zfix[sd->rowloc[R->normal]], 0);
      if (R->pair < 0) {
        add_cut(is, &ncut, i, -1, 1, 0, bound);
        add_cut(is, &ncut, i, -1, -1, 0, bound);
        continue;
      }
      if (!(R->crow == 1 || R->crow == 4)) continue;
      int i2 = sd->rowloc[R->pair];
      if (o->friction_cone == LK_CONE_PYRAMID && R->crow == 1) {
        add_polygon(is, &ncut, i, i2, o->cone_edges, 0, bound);
      } else if (o->friction_cone == LK_CONE_BOX) {
        add_cut(is, &ncut, i, i2, 1, 0, bound);
        add_cut(is, &ncut, i, i2, -1, 0, bound);
        add_cut(is, &ncut, i, i2, 0, 1, bound);
        add_cut(is, &ncut, i, i2, 0, -1, bound);
      } else {
        double a0 = (sd->z[i] != 0 || sd->z[i2] != 0) ? atan2(sd->z[i2], sd->z[i]) : 0;
        add_polygon(is, &ncut, i, i2, coupled ? COUPLED_EDGES : FIXED_EDGES, a0, bound);
      }
    }
    int N = nv + ncut;
    if (N > sd->xcap || (coupled && N > COUPLED_MAX)) return 0;
    double *M = sd->Ax;
    memset(M, 0, (size_t)N * (size_t)N * sizeof *M);
    for (int i = 0; i < n; i++) {
      int vi = var[i];
      if (vi < 0) continue;
      const lk_row *R = &sd->row[is->rows[i]];
      double q = R->jv + R->bias;
      for (int j = 0; j < n; j++) {
        if (var[j] < 0)
          q += sd->A[i * n + j] * sd->zfix[j];
        else
          M[(size_t)vi * N + var[j]] = sd->A[i * n + j];
      }
      M[(size_t)vi * N + vi] = sd->adiag[i] + ridge;
      sd->qx[vi] = q;
      sd->lox[vi] = R->kind == LK_ROW_BOX ? R->lo : -INFINITY;
      sd->hix[vi] = R->kind == LK_ROW_BOX ? R->hi : INFINITY;
      sd->basisx[vi] = LK_LCP_BASIC;
      if (R->kind == LK_ROW_UNILATERAL) { /* coupled only */
        sd->lox[vi] = 0;
        sd->basisx[vi] = sd->zfix[i] > 0 ? LK_LCP_BASIC : LK_LCP_LOWER;
      }
    }
    for (int k = 0; k < ncut; k++) {
      int c = nv + k, r1 = var[sd->cut_r1[k]], r2 = sd->cut_r2[k] >= 0 ? var[sd->cut_r2[k]] : -1;
      M[(size_t)r1 * N + c] = sd->cut_u1[k];
      M[(size_t)c * N + r1] = -sd->cut_u1[k];
      if (r2 >= 0) {
        M[(size_t)r2 * N + c] = sd->cut_u2[k];
        M[(size_t)c * N + r2] = -sd->cut_u2[k];
      }
      sd->qx[c] = sd->cut_c[k];
      if (coupled) { /* u . z_t <= c z_n: the normal's column and row */
        int rn = var[sd->rowloc[sd->row[is->rows[sd->cut_r1[k]]].normal]];
        M[(size_t)rn * N + c] = -sd->cut_c[k];
        M[(size_t)c * N + rn] = sd->cut_c[k];
        sd->qx[c] = 0;
      }
      sd->lox[c] = 0;
      sd->hix[c] = INFINITY;
      sd->basisx[c] = LK_LCP_LOWER;
    }
    lk_lcp_report rep;
    lk_status st = lk_island_lemke_expanded(sd, N, M, &rep);
    report->lcp_solves++;
    report->lcp_pivots += rep.pivots;
    /* An optional stage: its failure only means the friction LCP decides. */
    if (st) return 0;
    report->lemke_solves++;
    /* (An unloaded contact, whose bound is 0, may move freely: it carries
     * nothing, as Coulomb allows; a resting object's touching but idle
     * contacts, which margins find, must not make it "slide".) */
    int slides = 0;
    for (int i = 0; i < n; i++) sd->z[i] = var[i] < 0 ? sd->zfix[i] : sd->zx[var[i]];
    double zmax = 0;
    for (int i = 0; i < n; i++)
      if (sd->row[is->rows[i]].kind == LK_ROW_UNILATERAL) zmax = fmax(zmax, sd->z[i]);
    for (int k = 0; k < ncut; k++) {
      double zn = coupled ? sd->z[sd->rowloc[sd->row[is->rows[sd->cut_r1[k]]].normal]] : 1;
      if (sd->zx[nv + k] > SLIDE_EPS && sd->cut_c[k] > 0 && zn > 1e-9 * zmax) slides = 1;
    }
    /* A circle pair that slides on a polygon facet may only need its
     * polygon turned: turn it to the new friction direction and retry
     * (FIXED_PASSES solves in all). */
    if (slides) {
      if (o->friction_cone != LK_CONE_CIRCLE || ++turns >= FIXED_PASSES) return 0;
      continue;
    }
    /* A free pair beyond its set: bound it too, and solve again (each
     * round bounds one more pair at least) */
    if (mark_outside(is) > 0) continue;
    /* The velocities, and the held rows' complementarity: a loaded row must
     * not move, an unloaded one must not close. So must a loaded contact's
     * friction rows, the problem's own variables: Lemke's answer on the
     * expanded problem can leave them moving faster than a slide (6e-9 m/s
     * on a draped chain held at its cones' edge, which crept and slid
     * off), and that answer does not stick. */
    for (int i = 0; i < n; i++) {
      const lk_row *R = &sd->row[is->rows[i]];
      double w = R->jv + R->bias;
      for (int j = 0; j < n; j++) w += sd->A[i * n + j] * sd->z[j];
      sd->w[i] = w;
      if (var[i] >= 0) {
        if (R->kind == LK_ROW_FRICTION && fabs(w) > SLIDE_EPS &&
            sd->z[sd->rowloc[R->normal]] > 1e-9 * zmax)
          return 0;
        continue;
      }
      if (sd->zfix[i] > 0 ? fabs(w) > SLIDE_EPS : w < -SLIDE_EPS) return 0;
    }
    return lk_island_feasible(is);
  }
}
