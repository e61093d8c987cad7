/* The constraint layer's internal interface (not installed).
 *
 * Each kind of constraint is a small set of functions over the step's row
 * buffer (lk_sim_data.row/jval): it appends its rows with their kinds,
 * Jacobian values and right-hand sides before the solve, and turns the
 * solved impulses into its report after it. The stepper sees only rows. */
#ifndef LK_CONSTRAINT_IMPL_H
#define LK_CONSTRAINT_IMPL_H

#include <math.h>

#include "constraint/rows.h"
#include "data/data_impl.h"

/* The geometry of one contact, from collision or from an explicit contact,
 * with its mixed coefficients: what the contact rows need. */
typedef struct {
  int link, other;        /* link touches other (0 = world) */
  int geom, other_geom;   /* -1 for explicit contacts */
  int explicit_index;     /* -1 for geometry contacts */
  unsigned long long id;
  int age;
  lk_contact_type type;
  lk_vec3 p;              /* contact point (world) on link's surface */
  lk_vec3 n;              /* unit normal from other to link */
  double depth;           /* > 0 penetrating */
  double tolerance;       /* penetration left uncorrected */
  double mu_static, mu_dynamic, restitution;
  double mu_torsional, mu_rolling, patch_radius;
  lk_contact_mem *mem;    /* persistent memory (state, basis, warm start) */
} lk_contact_geom;

/* ---- row buffer (rowbuf.c) ---- */

/* World-frame motion subspaces (sd->cdof) from the current kinematics. */
void lk_rows_compute_cdof(const lk_model *m, lk_data *d);
/* Forget the rows of the last step. */
void lk_rows_clear(lk_data *d);
/* A new row touching the trees of links a and b (either may be 0 for the
 * world), with zeroed values; -1 when the buffer is full, or -2 when the
 * row touches no moving DoF (nothing to constrain). */
int lk_rows_add(const lk_model *m, lk_data *d, int link_a, int link_b, lk_constraint_kind kind,
                int cindex, int crow);
/* Jacobian of a row from a spatial force F (world, about the origin) on
 * link a and -F on link b: J_k = cdof_k . F over a's ancestors minus the
 * same over b's. For the relative velocity along d at a point p plus the
 * relative angular velocity along e, F = (p x d + e, d). */
/* nrows rows (crow0, crow0 + 1, ...) of unit forces along dirs[i] at point
 * p on link_a (minus on link_b): lk_rows_add then lk_rows_set_wrench of
 * lk_row_force(p, dirs[i], 0) for each, in one go; rows[] gets their
 * indices. All or nothing: -1 when they do not all fit, -2 as
 * lk_rows_add; else 0. */
int lk_rows_add_point(const lk_model *m, lk_data *d, int link_a, int link_b,
                      lk_constraint_kind kind, int cindex, int crow0, const lk_vec3 *dirs,
                      int nrows, lk_vec3 p, int *rows);
void lk_rows_set_wrench(const lk_model *m, lk_data *d, int row, int link_a, int link_b,
                        lk_force F);
/* J = ca e_{dof_a} + cb e_{dof_b} (dof_b < 0: none). */
void lk_rows_set_dofs(const lk_model *m, lk_data *d, int row, int dof_a, double ca, int dof_b,
                      double cb);
/* Remove the last row when its Jacobian is zero (it constrains nothing);
 * returns 1 when it did. */
int lk_rows_drop_if_empty(lk_data *d, int row);
/* J x for a full generalized vector x. A free body's segment (6 values)
 * unrolled: the same operations in the same order as the loop, so the same
 * result to the bit. Inline: the step calls these for every row, several
 * times (the guessed answers' w). */
static inline double lk_rows_dot(const lk_data *d, int row, const double *x) {
  const lk_row *r = &d->sim.row[row];
  const double *J = d->sim.jval + r->ofs;
  double s = 0;
  for (int g = 0; g < 2 && r->tree[g] >= 0; g++) {
    const double *xs = x + r->v0[g];
    int len = r->len[g];
    if (len == 6) {
      s += J[0] * xs[0];
      s += J[1] * xs[1];
      s += J[2] * xs[2];
      s += J[3] * xs[3];
      s += J[4] * xs[4];
      s += J[5] * xs[5];
    } else {
      for (int i = 0; i < len; i++) s += J[i] * xs[i];
    }
    J += len;
  }
  return s;
}

/* x += s J^T (for row) or s Y (use_y) */
static inline void lk_rows_axpy(const lk_data *d, int row, double s, int use_y, double *x) {
  const lk_row *r = &d->sim.row[row];
  const double *J = (use_y ? d->sim.yval : d->sim.jval) + r->ofs;
  for (int g = 0; g < 2 && r->tree[g] >= 0; g++) {
    double *xs = x + r->v0[g];
    int len = r->len[g];
    if (len == 6) {
      xs[0] += s * J[0];
      xs[1] += s * J[1];
      xs[2] += s * J[2];
      xs[3] += s * J[3];
      xs[4] += s * J[4];
      xs[5] += s * J[5];
    } else {
      for (int i = 0; i < len; i++) xs[i] += s * J[i];
    }
    J += len;
  }
}


/* A spatial force of a unit magnitude along direction dir at point p plus
 * a pure moment along e. */
static inline lk_force lk_row_force(lk_vec3 p, lk_vec3 dir, lk_vec3 e) {
  return lk_fo(lk_v3_add(lk_v3_cross(p, dir), e), dir);
}

/* ---- constraints ---- */

/* Appends a contact's rows (normal, two tangents; rolling: plus torsion and
 * two rolling rows). Returns 0, or LK_CAPACITY_EXCEEDED. */
lk_status lk_contact_rows(const lk_model *m, lk_data *d, int report, const lk_contact_geom *g);
/* Fill contact report `report` from its solved rows. */
void lk_contact_finish(const lk_model *m, lk_data *d, int report);

lk_status lk_limit_rows(const lk_model *m, lk_data *d);
lk_status lk_dry_friction_rows(const lk_model *m, lk_data *d);
lk_status lk_loop_rows(const lk_model *m, lk_data *d);
lk_status lk_coupling_rows(const lk_model *m, lk_data *d, const double *q);
lk_status lk_tether_rows(const lk_model *m, lk_data *d);

/* support.c: the supports' rows of the step (bound mu_static N h on two
 * tangents); one support's rows with given tangent and bounds (rows[k]:
 * the row of tangent k, -1 when left out); a point support's world point. */
lk_status lk_support_rows(const lk_model *m, lk_data *d);
lk_status lk_support_add_rows(const lk_model *m, lk_data *d, int i, lk_vec3 t1, double bound1,
                              double bound2, int rows[2]);
lk_vec3 lk_support_point(const lk_model *m, const lk_data *d, int i);

/* Position error of the bilateral constraints (loops, couplings) at the
 * current kinematics, as rows are built: used by the post-step projection.
 * Fills err (one entry per bilateral row, in row order of a fresh build)
 * and returns the count. */
int lk_bilateral_errors(const lk_model *m, lk_data *d, double *err, int cap);

/* Mixing of two materials' coefficients: inline, since the geometry
 * contacts mix five coefficients a contact a step. */
static inline double lk_mix(double a, double b, lk_mix_rule rule) {
  switch (rule) {
    case LK_MIX_MIN:
      return a < b ? a : b;
    case LK_MIX_MAX:
      return a > b ? a : b;
    case LK_MIX_MEAN:
      return 0.5 * (a + b);
    default:
      return sqrt(a * b);
  }
}

/* A deterministic unit vector orthogonal to the unit vector n. */
lk_vec3 lk_any_tangent(lk_vec3 n);

#endif
