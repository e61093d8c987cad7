/* Anchored sticking contacts: their tangential offsets taken back after the
 * position update (issue 31.2; the anchors are kept by contact.c).
 *
 * A static contact remembers the material points of its two bodies where
 * it stuck. After the step's position update q+ = q (+) h v+, the offset
 * between them, o = X_a(q+) p_a - X_b(q+) p_b projected on the contact's
 * tangents t_k, is taken back by one Newton step of post-stabilization
 * (Cline & Pai, "Post-stabilization for rigid body simulation with contact
 * and constraints", ICRA 2003), with the step's tangent rows J_t as the
 * constraint's gradient and the step's mass factor M~ as the metric:
 *     (J_t M~^-1 J_t^T + eps) mu = -(o . t_k),   q+ <- q+ (+) M~^-1 J_t^T mu.
 * Only the positions move; the velocities, the impulses and the contacts'
 * states are the solve's. A face's or a grip's tangent rows are redundant
 * (four corners of a face give eight rows for three motions; a loop closes
 * through the fingers' joints): the ridge eps (1e-9 of the largest
 * diagonal) makes the system solvable, and a part of the offsets outside
 * the rows' range (anchors set at different instants round a loop) goes
 * into mu's null space, where J_t^T mu is zero: it moves nothing, instead
 * of asking internal friction of the cones as a velocity target would.
 *
 * Corrected: contacts that contact.c kept anchored this step (static,
 * friction inside the cone at the last solve, offset below the contact
 * tolerance) and whose friction is still strictly inside the cone after
 * this solve, with a normal impulse; offsets below a millionth of the
 * contact tolerance are rounding and are left. */
#include <math.h>
#include <string.h>

#include "constraint/constraint_impl.h"
#include "dynamics/dynamics_impl.h"
#include "sim/sim_internal.h"

/* The offset of contact i's anchors at the poses in sd->anchor_xw, on its
 * tangent t1 (k = 1) or t2 = n x t1 (k = 2). */
static double offset_on(const lk_data *d, int i, int k) {
  const lk_sim_data *sd = &d->sim;
  const lk_contact_mem *mem = &sd->cmem[i];
  const lk_contact_report *c = &sd->contact[i];
  const lk_transform *xw = sd->anchor_xw;
  lk_vec3 off = lk_v3_sub(lk_tf_point(&xw[c->link], mem->anchor_a),
                          lk_tf_point(&xw[c->other], mem->anchor_b));
  lk_vec3 t = k == 1 ? mem->t1 : lk_v3_cross(c->normal, mem->t1);
  return lk_v3_dot(off, t);
}

/* Whether contact i's anchor is to be corrected after this step's solve. */
static int corrected(const lk_data *d, int i) {
  const lk_sim_data *sd = &d->sim;
  const lk_contact_mem *mem = &sd->cmem[i];
  if (!mem->anchor_fix || mem->state != LK_FRICTION_STATIC) return 0;
  if (mem->row[0] < 0 || mem->row[1] < 0 || mem->row[2] < 0) return 0;
  double zn = sd->row[mem->row[0]].z, z1 = sd->row[mem->row[1]].z, z2 = sd->row[mem->row[2]].z;
  double mu = sd->contact[i].mu_static;
  return zn > 0 && sqrt(z1 * z1 + z2 * z2) < mu * zn * (1 - 1e-6);
}

/* The contact of an island row that is a corrected contact's first
 * tangent row, else -1. */
static int row_contact(const lk_data *d, int r) {
  const lk_row *R = &d->sim.row[r];
  if (R->ckind != LK_CONSTRAINT_CONTACT || R->crow != 1) return -1;
  return corrected(d, R->cindex) ? R->cindex : -1;
}

lk_status lk_sim_anchor_project(const lk_model *m, lk_data *d, double *q) {
  lk_sim_data *sd = &d->sim;
  if (!m->opt.anchor_contacts) return LK_OK;
  /* An island is corrected when one of its anchors had moved by more than
   * the trigger as the step began (the offset grows by the position
   * update's second-order part, a step's creep; a smaller one waits): then
   * all its corrected contacts are, each to its own anchor (those that
   * had not moved are held where they are). */
  const double trigger = 1e-6 * m->opt.contact_tolerance;
  int any = 0;
  for (int i = 0, nc = sd->st->ncontact; i < nc && !any; i++)
    any = sd->cmem[i].anchor_fix && sd->cmem[i].anchor_off > trigger && corrected(d, i);
  if (!any) return LK_OK; /* (a resting scene: its offsets are rounding) */
  /* the two links' poses at q (not a whole kinematics pass: the step's end
   * computes that at the final q) */
  memset(sd->anchor_done, 0, (size_t)m->nlink);
  for (int k = 0; k < sd->st->nisland; k++) {
    const int *rows = sd->island_rows + sd->island_start[k];
    const int nr = sd->island_start[k + 1] - sd->island_start[k];
    int go = 0, n = 0;
    for (int a = 0; a < nr; a++) {
      int c = row_contact(d, rows[a]);
      if (c < 0) continue;
      n += 3;
      if (sd->cmem[c].anchor_off > trigger) go = 1;
    }
    if (!go || n > sd->island_cap) continue;
    n = 0;
    for (int a = 0; a < nr; a++) {
      int c = row_contact(d, rows[a]);
      if (c < 0) continue;
      const int pair[2] = {sd->contact[c].link, sd->contact[c].other};
      lk_dyn_poses(m, q, pair, 2, sd->anchor_xw, sd->anchor_done);
      sd->anchor_rows[n] = sd->cmem[c].row[0];
      sd->z[n++] = 0;
      sd->anchor_rows[n] = sd->cmem[c].row[1];
      sd->z[n++] = -offset_on(d, c, 1);
      sd->anchor_rows[n] = sd->cmem[c].row[2];
      sd->z[n++] = -offset_on(d, c, 2);
    }
    /* one step of lib/sim/project.c's Newton on these rows, ridge 1e-9
     * of the largest diagonal; a factor that fails (it cannot with the
     * ridge unless a row is not finite) leaves the offsets for the next
     * step */
    (void)lk_sim_project_step(m, d, q, sd->anchor_rows, 0, n, 1e-9, 1e-300);
  }
  return LK_OK;
}
