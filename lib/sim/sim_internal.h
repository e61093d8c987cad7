/* The simulation layer's internal interface (not installed). */
#ifndef LK_SIM_INTERNAL_H
#define LK_SIM_INTERNAL_H

#include "core/internal.h"
#include "data/data_impl.h"
#include "linkage/lcp.h"

/* The key of a row across steps: its contact's id and row, or its
 * owner's kind, index and row (the kept factors, the direct trial's
 * analysis and the product's scale are matched to their rows by it). */
static inline unsigned long long lk_sim_row_key(const lk_sim_data *sd, const lk_row *R) {
  if (R->ckind == LK_CONSTRAINT_CONTACT) return sd->contact[R->cindex].id * 8u + (unsigned)R->crow;
  return (1ull << 63) | ((unsigned long long)R->ckind << 48) |
         ((unsigned long long)(unsigned)R->cindex << 3) | (unsigned)R->crow;
}

/* island.c */
void lk_sim_islands(const lk_model *m, lk_data *d);
void lk_sim_prepare_rows(const lk_model *m, lk_data *d);
/* lk_sim_islands then lk_sim_prepare_rows, in one pass over the rows */
void lk_sim_islands_prepare(const lk_model *m, lk_data *d);
/* The islands again after rows set aside were taken back in (R->aside 2),
 * J v* kept (solve.c) */
void lk_sim_islands_regroup(const lk_model *m, lk_data *d);
void lk_sim_rows_y(const lk_model *m, lk_data *d, const int *rows, int n);
/* The trees of island rows rows[0..n) as (v0, len) pairs in sim.gtree, each
 * once; returns their count. lk_sim_zero_trees zeroes u over the first nt. */
int lk_sim_island_trees(lk_sim_data *sd, const int *rows, int n);
void lk_sim_zero_trees(const lk_sim_data *sd, int nt, double *u);
/* u = M~^-1 J^T z over the island's nt trees (lk_sim_island_trees): J^T z
 * of the rows with an impulse, then one solve with the factor a tree; no
 * Y. */
void lk_sim_island_velocity(const lk_model *m, lk_data *d, const int *rows, int n,
                            const double *z, int nt, double *u);
double lk_sim_delassus_entry(const lk_data *d, int i, int j);
/* One post-stabilization Newton step (project.c) on rows[0..n) (NULL: the
 * n rows from r0), targets in sd->z; ridge rel * max diagonal + add. */
lk_status lk_sim_project_step(const lk_model *m, lk_data *d, double *q, const int *rows, int r0,
                              int n, double rel, double add);
void lk_sim_delassus_island(const lk_model *m, lk_data *d, const int *rows, int n, double *A);

/* sparse.c: the Delassus matrix of island rows rows[0..n) (Y formed) in
 * compressed rows into sp (rowp, col, val, nnz), growing its entry arrays
 * when the island needs more (the step's only allocation). */
struct lk_sim_sparse;
/* The entries those compressed rows would hold at most (sum over trees of
 * k_t^2), counted without building them. */
size_t lk_sim_delassus_entries(lk_data *d, const int *rows, int n);
/* The most entries an island's A may have for Newton to take it (else NSGS
 * on the product; iterative.c says why). Newton's matrices are reserved
 * for up to this many at lk_data_new (sim_scratch.c), so they never grow
 * beyond about twice it. */
#define LK_NEWTON_ENTRIES 200000
lk_status lk_sim_delassus_csr(const lk_model *m, lk_data *d, const int *rows, int n,
                              struct lk_sim_sparse *sp);

/* Weights of the sticking trial's ridge (solve.c): a friction row's is
 * inversely proportional to its contact's normal impulse, so that the
 * least-norm answer minimizes sum |f_i|^2 / f_n,i and a flat contact set
 * shares friction in proportion to its loads, every contact at the same
 * utilization. Loads from z (island-local), or NULL: the last step's
 * (persisting contacts). rw[i] 1 for other rows; load is n doubles of
 * scratch. */
void lk_sim_ridge_weights(const lk_sim_data *sd, const int *rows, int n, const double *z,
                          double *rw, double *load);
/* An island by NSGS, or (method LK_ISLAND_NEWTON) by the semismooth Newton
 * first where its Delassus matrix in compressed rows is small enough to
 * factor, NSGS from Newton's iterate where Newton stalls (iterative.c),
 * with the static/dynamic friction states; fills z and w of its rows, and
 * sim.sparse->answered says whose answer stood. z0: n impulses to start
 * from (NULL: the last step's); have_y: Y of the rows formed already this
 * step. */
lk_status lk_sim_solve_iterative(const lk_model *m, lk_data *d, const int *rows, int n,
                                 const double *z0, int have_y, lk_island_strategy method,
                                 lk_step_report *report);
/* Its two halves: the solve (z, w and the basis in sim.sparse; *converged
 * whether the solver met its tolerance and the friction states settled), and
 * the rows' impulses and remembered states from them. */
lk_status lk_sim_iterative_solve(const lk_model *m, lk_data *d, const int *rows, int n,
                                 const double *z0, int have_y, lk_island_strategy method,
                                 lk_step_report *report, int *converged);
void lk_sim_iterative_finish(const lk_model *m, lk_data *d, const int *rows, int n,
                             lk_step_report *report);
/* A product island at rest answered by its last impulses, before Y or the
 * product is formed: 1 when they are an answer to the LCP layer's guess
 * tolerance (the rows' z, w and states set, the velocity change in
 * sim.dvg, the rows marked guessed), else 0 with nothing changed. */
int lk_sim_iterative_guess(const lk_model *m, lk_data *d, const int *rows, int n,
                           lk_step_report *report);

/* direct.c: an island beyond the dense size whose contacts are all static
 * tried first by the sparse direct sticking trial (CHOLMOD); when it does
 * not stand (or cannot be tried), NSGS (lk_sim_solve_iterative). The
 * workspace (outside the arena: scratch and the kept analysis) is made by
 * lk_sim_data_init for the model's row capacity. */
typedef struct lk_sim_direct lk_sim_direct;
lk_sim_direct *lk_sim_direct_new(int ncap);
void lk_sim_direct_free(lk_sim_direct *D);
/* lk_data_copy: dst (of the same model) gets src's kept analysis, factor
 * and trial (CHOLMOD allocates: LK_OUT_OF_MEMORY leaves dst without
 * them); lk_data_reset: forget them. */
lk_status lk_sim_direct_copy(lk_sim_direct *dst, const lk_sim_direct *src);
void lk_sim_direct_reset(lk_sim_direct *D);
/* Its row arrays for ncap rows (the kept analysis and factor kept). */
lk_status lk_sim_direct_resize(lk_sim_direct *D, int ncap);
lk_status lk_sim_solve_direct(const lk_model *m, lk_data *d, const int *rows, int n,
                              lk_step_report *report);

/* solve.c: every island's LCP; z and w of every row. */
lk_status lk_sim_solve_islands(const lk_model *m, lk_data *d);
/* Every island's report (lk_data_island_report) set to "not planned",
 * with the reason given: before the islands are solved, so that one a
 * failed step never reached, or a solver without the planner, says so. */
void lk_sim_island_notes(lk_data *d, const char *reason, int settled);

/* contacts.c, geometry.c: the step's contacts, as rows; *_done keep each
 * contact's memory for the next step. */
lk_status lk_sim_explicit_contacts(const lk_model *m, lk_data *d);
void lk_sim_explicit_contacts_done(const lk_model *m, lk_data *d);
lk_status lk_sim_geometry_contacts(const lk_model *m, lk_data *d);
void lk_sim_geometry_contacts_done(const lk_model *m, lk_data *d);
/* ... the same one report at a time, in order (constrain.c does it in its
 * one pass over the contacts after the solve): cur from {0, 0}, then _end. */
typedef struct {
  int k, j;
} lk_sim_gdone;
void lk_sim_geometry_contact_done(lk_data *d, int report, lk_sim_gdone *cur);
void lk_sim_geometry_contacts_done_end(lk_data *d, const lk_sim_gdone *cur);

/* rowlcp.c: island `island` (after lk_sim_islands, with jv set) as one boxed
 * LCP with the per-row settings sd->x.rlo/rhi/rmu/rfn/rdiag; fills R->z and
 * R->w of its rows. */
lk_status lk_sim_rows_lcp(const lk_model *m, lk_data *d, int island, lk_lcp_report *rep);

/* compliant.c (issue 8): geometry contacts of compliant pairs get force
 * laws instead of rows. begin clears the step's accumulators; contact
 * computes one contact's force and its report; apply adds h M~^-1 J^T f to
 * v (and v*) once all contacts are gathered. */
int lk_sim_compliant_pair(const lk_model *m, int geom_a, int geom_b);
void lk_sim_compliant_begin(const lk_model *m, lk_data *d);
void lk_sim_compliant_apply(const lk_model *m, lk_data *d, double *v);

/* smoothed.c (issue 8): every island with the smoothed friction law (in place
 * of lk_sim_solve_islands when options.friction_law is smoothed). */
lk_status lk_sim_smoothed_islands(const lk_model *m, lk_data *d);

/* report.c */
void lk_sim_link_forces(const lk_model *m, lk_data *d);
void lk_sim_tactile(const lk_model *m, lk_data *d);
/* ... in three parts: the sums cleared, one contact report added (in
 * report order), the per-link figures and filters */
void lk_sim_tactile_begin(const lk_model *m, lk_data *d);
void lk_sim_tactile_add(lk_data *d, int report);
void lk_sim_tactile_end(const lk_model *m, lk_data *d);

/* constrain.c: whether the model can produce constraint rows at all, and
 * the constraint part of the step (v: v* in, v+ out). */
int lk_sim_has_constraints(const lk_model *m);
lk_status lk_sim_constrain(const lk_model *m, lk_data *d, double *v);

/* friction_state.c: whether a static contact that slips at `speed` (its
 * friction at the bound) turns dynamic: the slip is fast or the contact
 * is not new (mem->age > 0); else it is a transient. */
int lk_sim_slip_sustained(const lk_model *m, const lk_contact_mem *mem, double speed);

/* impact.c: after a solve whose restitution targets raised some normal
 * rows' bounds (sim.st->nimpact), the work of the impulses on the impact
 * islands; when positive, the solve (`once`, from v*) is made again with
 * the restitution targets scaled down, to the largest scale found whose
 * work is not positive. v holds v+ on entry and on return. */
typedef lk_status (*lk_sim_solve_fn)(const lk_model *m, lk_data *d, double *v);
lk_status lk_sim_impact_limit(const lk_model *m, lk_data *d, double *v, lk_sim_solve_fn once);
/* The work of the rows' impulses z over the step, z . J (v* + v+) / 2, on
 * the islands of the impact rows (all rows when there are more than
 * LK_SIM_IMPACT_ROWS), and in *scale the sum of its terms' magnitudes. */
double lk_sim_impact_work(const lk_data *d, const double *v, double *scale);
/* prescribed.c: the rows of the actuators that prescribe their joint's
 * motion (issue 31.8), and after the solve their forces (the rows'
 * reactions) into sim.act_force. */
lk_status lk_sim_prescribed_rows(const lk_model *m, lk_data *d);
void lk_sim_prescribed_report(const lk_model *m, lk_data *d);
/* options.impacts: propagating: Newton's law contact by contact on v*
 * (sim.vstar) until no contact with restitution approaches, after the
 * islands are prepared and before their solves; each row's impulse in
 * z_impact, J v* refreshed. Returns the number of impacts. */
int lk_sim_impact_propagate(const lk_model *m, lk_data *d);
/* ... and its commit, once nothing of the step can fail any more: the
 * contacts' reports and memory for the next step, link forces, tactile
 * sums (a failed step writes none of them). */
void lk_sim_constrain_commit(const lk_model *m, lk_data *d);

/* journal.c: a failed step leaves the data as it was. _begin at the
 * step's start, _kept before the step first changes a kept factor,
 * _restore when the step failed (then the kinematics are at q, v again). */
void lk_sim_journal_begin(const lk_model *m, lk_data *d);
void lk_sim_journal_kept(lk_sim_data *sd);
lk_status lk_sim_journal_restore(const lk_model *m, lk_data *d);

/* project.c: move q (a configuration being committed) back onto the
 * loop-closure and coupling manifold. Leaves the kinematics at q. */
lk_status lk_sim_project(const lk_model *m, lk_data *d, double *q);

/* anchor.c: take the kept anchors' tangential offsets (contact.c) back at
 * q, a configuration being committed, without touching the velocities.
 * May leave the kinematics at q (as lk_sim_project does). */
lk_status lk_sim_anchor_project(const lk_model *m, lk_data *d, double *q);

#include "dynamics/dynamics_impl.h" /* lk_dyn_solve_range, lk_dyn_integrate */

#endif
