/* The time step.
 *
 * lk_step() advances an lk_data by the model's time step (opt.timestep)
 * under gravity, the applied generalized forces (lk_data_tau), the external
 * link wrenches (lk_data_apply_force/torque) and the joint springs and
 * dampers, with the integrator chosen in the model options:
 *   LK_INTEGRATOR_EULER  semi-implicit Euler on the manifold: first the
 *       velocity, v+ = v + h (M + h B)^-1 (tau - c - B v), with the joint
 *       damping B implicit (stable for any damping; position and velocity
 *       servos' gains join it, their stiffness as h kp: docs/format.md,
 *       actuators), then the position
 *       q+ = q (+) h v+ (quaternions by the exponential map);
 *   LK_INTEGRATOR_RK4    classical fourth-order Runge-Kutta on (q, v), the
 *       quaternions integrated as coordinates and renormalized at the end
 *       of the step; for accuracy checks. It integrates the smooth
 *       dynamics only: a step whose start has a constraint acting (two
 *       geoms touching, a joint at a limit, or an element that always acts:
 *       explicit contact, loop, coupling, tether, support, dry friction)
 *       fails with LK_UNSUPPORTED and the report's message names it and the
 *       time. Geoms that cannot meet (parent-child pairs, filtered pairs)
 *       do not stop it.
 * Loads persist across steps until changed or cleared. After the step,
 * lk_data_qacc() holds the acceleration evaluated at the start of the step
 * and the time and step count have advanced; the link poses and velocities
 * describe the new state (the forward kinematics of the new q and v).
 *
 * lk_step() allocates nothing, with one documented exception: an island
 * beyond the dense size (options max_island_rows) keeps its sparse Delassus
 * matrix in storage that grows, by doubling, when an island needs more
 * entries than it has (outside the solve loops; a few times over a run at
 * most), and such an island whose contacts are all static makes a
 * symbolic analysis for its sparse direct trial when its rows changed
 * (CHOLMOD, through SuiteSparse's own allocator; counted in the report's
 * direct_analyses; docs/contact.md); and when the step finds more contacts
 * than the data holds (without options.max_contacts set), the data's
 * contact block grows (at least doubling: a few times over a run at most)
 * and the step is made again from its start, its answer that of a data
 * made large enough. It fails with LK_INVALID_ARGUMENT if d is not m's and
 * LK_NON_FINITE if the state or a load is not finite or the step would
 * produce a non-finite state. Whatever makes a step fail, the data is left
 * as it was (state, contacts and their memory, warm starts; the report
 * says why it failed, and there are no contact reports): a program stops
 * there or changes something before the next step. */
#ifndef LINKAGE_SIM_H
#define LINKAGE_SIM_H

#include "linkage/data.h"
#include "linkage/error.h"
#include "linkage/model.h"

#ifdef __cplusplus
extern "C" {
#endif

lk_status lk_step(const lk_model *m, lk_data *d);

/* What the last step did (valid after lk_step, also a failed one). */
typedef struct {
  lk_status status;       /* LK_OK, or why the constraint solve failed */
  int nrows, nislands, ncontacts;
  int lcp_solves;         /* LCP solves over all islands and passes */
  int lemke_solves, dantzig_solves; /* successful solves by solver */
  int guess_answers;      /* of lcp_solves, answered by the impulses in hand
                             (verified, no factorization; see docs/contact.md) */
  int refined_answers;    /* of guess_answers, those the impulses in hand
                             reached after refinement against a factor kept
                             from an earlier step */
  int lcp_pivots;
  double lcp_residual;    /* worst relative residual of the accepted solves */
  int solver_failures;    /* solves that failed before one succeeded */
  int fallbacks;          /* islands solved by the other solver or with CFM */
  int ridge_kept;         /* islands whose friction LCP answer kept its
                             ridge (a refining solve failed: velocities off
                             by about 1e-7 of the step's change in the
                             normal rows; docs/contact.md, shared loads) */
  int friction_passes;    /* most LCP passes one island needed */
  int friction_unconverged; /* islands whose circle cone did not settle */
  int state_changes;      /* contacts that switched static <-> dynamic */
  double max_penetration; /* deepest contact, m */
  double projection_error;/* loop/coupling error left after projection */
  /* Islands beyond the dense size (max_island_rows 0: 192 rows), solved by
   * NSGS on their sparse Delassus matrix (docs/contact.md) */
  int iterative_islands;  /* islands so solved */
  int nsgs_solves;        /* of lcp_solves, NSGS's */
  int nsgs_sweeps;        /* sweeps over all of them */
  int nsgs_loose;         /* of iterative_islands, those whose sweeps ran
                             out between NSGS's tolerance (1e-9) and the
                             accepted accuracy (fc3d error and relative
                             residual 1e-6; docs/contact.md) */
  int newton_solves;      /* of lcp_solves, the semismooth Newton's (islands
                             planned `newton`: docs/contact.md) */
  int newton_iterations;  /* its iterations over all of them */
  int newton_answers;     /* of newton_solves, those whose answer stood (the
                             others went on with NSGS from their iterate) */
  /* Of those islands, the ones whose contacts are all static: first the
   * sparse direct sticking trial (CHOLMOD; docs/contact.md) */
  int direct_trials;      /* islands tried */
  int direct_solves;      /* of direct_trials, answered by it (no NSGS) */
  int direct_refined;     /* of direct_solves, by refining the last step's
                             impulses against the kept factor (no matrix,
                             no factorization) */
  int direct_fallbacks;   /* of direct_trials, handed to NSGS */
  int direct_analyses;    /* symbolic analyses made (an island's rows changed) */
  int direct_factors;     /* numeric factorizations (one per active set) */
  int largest_island;     /* rows of the step's largest island */
  int aside_contacts;     /* contacts found within the margin whose gap
                             stays open through the step: no rows in any
                             island's solve, checked against the answer
                             (docs/contact.md) */
  const char *detail;     /* static text: what a failed step ran into (the
                             option to change when a capacity was hit), or
                             "" */
  char message[256];      /* a step refused by integrator rk4: what stopped it,
                             in words (the touching geoms, the joint at its
                             limit or the element, and the time); "" else */
  int unstable;           /* 1: the energy grew without input (see below) */
  double energy_growth;   /* ... by this much, J, since its lowest value in
                             the input-free stretch */
  int unphysical;         /* 1: the state is clearly unphysical (message
                             says how; see below); the step is committed */
  /* Impacts (restitution targets in this step; docs/contact.md): the work
   * of the impulses of the impacts' islands, J (<= 0: an impact never adds
   * energy; a positive value is reported unstable), and the share of the
   * restitution coefficients the step used (1, or less where the full e
   * with friction would have added energy). Both 0 without an impact. */
  double impact_work;
  double restitution_scale;
  int impacts_propagated; /* options.impacts: propagating: the contact
                             impacts resolved one at a time before the
                             step's LCP (0 without one) */
  int velocity_passes;    /* velocity_forces midpoint: the fixed-point
                             passes this step made (0: none were needed,
                             every angular rate at rounding) */
  int velocity_explicit;  /* 1: those passes did not settle (h |w| near 1
                             or beyond) and the explicit forces stood */
  int coupled_answers;    /* islands answered by the coupled sticking check:
                             sticking found with the normal impulses free,
                             where the trial's shares broke a cone (a chain
                             round a capstan; docs/contact.md) */
} lk_step_report;

/* The energy watch: over a stretch of steps without input (tau and link
 * wrenches zero, no scheduled load active, no motor or velocity servo
 * pushing, no servo target changed, no constraint rows) the mechanical
 * energy -- kinetic, gravity, joint springs and the position servos'
 * potential (1/2 kp e^2, linear beyond max_effort) -- cannot grow. When it
 * rises above its lowest value in the stretch by more than half the
 * stretch's largest kinetic energy (semi-implicit Euler's energy
 * oscillates by about h omega of it), the step reports unstable: an
 * explicit part of the step (joint springs; the velocity forces with
 * velocity_forces: explicit or when their midpoint passes did not settle;
 * RK4's damping) too stiff or fast for the timestep. Steps with constraint
 * rows are not judged that way; an impact is judged by itself: a step
 * whose impacts' impulses did positive work (impact_work > 0 beyond
 * rounding) reports unstable with that work as its growth (impacts never
 * add energy: docs/contact.md). */
/* Clearly unphysical states (issue 18.9; docs/format.md, "Physical
 * plausibility"): a contact at the step's start deeper than the smaller of
 * its two shapes' sizes (a box's smallest half extent, a radius; planes
 * and meshes have none), or an energy growth without input beyond 100
 * times the energy the input-free stretch started with (kinetic, springs
 * and servos, and gravity's over the mechanism's largest length). The
 * step still returns LK_OK with the new state committed; the report says
 * unphysical and why in message. Programs treat it as a failed step
 * (linkage simulate stops and exits 1). */
const lk_step_report *lk_data_step_report(const lk_data *d);

/* How each island of the last step was solved. One function plans every
 * island (lib/sim/plan.c; the rules as a table in docs/contact.md, "The
 * island planner"): the strategy it tries first and why, and, since a
 * strategy whose answer does not stand hands the island on (a guess that
 * misses, a sticking trial that breaks a cone), the strategy whose answer
 * the step took. `linkage simulate --explain` prints them. */
typedef enum {
  LK_ISLAND_NONE = 0,
  LK_ISLAND_GUESS,         /* the impulses in hand (refined against a kept
                              factor), verified: no matrix formed */
  LK_ISLAND_STICKING,      /* the sticking trial: every contact sticks */
  LK_ISLAND_HELD,          /* the held trial: turning or sliding rows held
                              at their bound, the rest sticks */
  LK_ISLAND_FIXED_NORMALS, /* sticking, friction redistributed with the
                              trial's normal impulses held */
  LK_ISLAND_COUPLED,       /* sticking, found with the normals free */
  LK_ISLAND_LCP,           /* the friction LCP's passes (pivoting) */
  LK_ISLAND_NSGS,          /* NSGS on the exact cones */
  LK_ISLAND_NEWTON,        /* a semismooth Newton (Alart-Curnier, sparse LU)
                              on the exact cones, then NSGS from its iterate
                              where it stalls */
  LK_ISLAND_SPARSE,        /* beyond the dense size: the sparse solvers
                              (a plan; the answer is one of the next two
                              or NSGS or a guess) */
  LK_ISLAND_SPARSE_TRIAL,  /* the sparse direct sticking trial (CHOLMOD) */
  LK_ISLAND_STRATEGIES
} lk_island_strategy;

typedef struct {
  int rows;                    /* the island's constraint rows */
  int contacts;                /* its contacts */
  lk_island_strategy planned;  /* the planner's first choice */
  const char *reason;          /* why, in words (static text) */
  lk_island_strategy answered; /* whose answer the step took */
  int settled;                 /* 1: the answer met the solver's tolerance;
                                  0: friction passes ran out or NSGS stopped
                                  loose (counted in the step report) */
  int solves;                  /* its LCP, Newton and NSGS solves (lcp_solves) */
  long iterations;             /* its pivots, Newton iterations and NSGS
                                  sweeps: the work */
} lk_island_report;

/* Island k < lk_data_step_report(d)->nislands of the last step, or NULL. */
const lk_island_report *lk_data_island_report(const lk_data *d, int k);
/* A strategy's name ("guess", "sticking trial", ...). */
const char *lk_island_strategy_name(lk_island_strategy s);

#ifdef __cplusplus
}
#endif

#endif
