/* The simulation layer's part of lk_data: actuator state, contacts and
 * their persistent friction state, constraint rows, islands, the LCP
 * scratch, reports and tactile sensors (see data/data_impl.h).
 *
 * Everything that influences a later step (actuator targets, friction
 * states, tangent bases, warm-start bases, filtered slip scores) is in the
 * arena, so lk_data_copy() carries it. The LCP workspace outside the arena
 * is pure scratch. */
#ifndef LK_SIM_DATA_H
#define LK_SIM_DATA_H

#include "collision/col_data.h"
#include "constraint/rows.h"
#include "data/arena.h"
#include "linkage/constraint.h"
#include "linkage/math.h"
#include "linkage/model.h"
#include "linkage/sim.h"
#include "sim/models_data.h"

/* What a step did (public as lk_step_report, linkage/sim.h). */
typedef lk_step_report lk_sim_report;

/* Persistent memory of one contact across steps: its friction state and
 * tangent basis, and the warm-start states of its rows. */
#define LK_SIM_SMALL_TREE 8

/* Row segments of one tree solved side by side for Y (island.c). */
#define LK_SIM_YBLOCK 32
/* ... from this many, on a tree whose factor has at most
 * LK_SIM_YBLOCK_FILL entries a DoF below the diagonal; else one by one.
 * The block runs its loops over the columns: that pays where a single
 * solve is mostly loop overhead (short branches; MuJoCo's humanoid, 7 a
 * DoF: 93 -> 74 M instructions for 5 s), not on a chain's long dense rows
 * (20 capsules, 31 a DoF: 0.94 -> 1.11 G), nor for a few columns. */
#define LK_SIM_YBLOCK_MIN 8
#define LK_SIM_YBLOCK_FILL 16

typedef struct {
  lk_friction_state state;
  lk_vec3 t1;              /* first tangent (world), re-used if it persists */
  lk_vec3 roll_t1;         /* first axis of the rolling rows (world) */
  unsigned char basis[6];  /* LCP row states of its rows at the last solve */
  int nrows;
  int age;                 /* steps the contact has persisted */
  double z[6];             /* impulses of its rows at the last solve */
  double adiag[6];         /* A_ii = J_i M~^-1 J_i^T of its rows, the last
                              time their Y was formed (the ridge's scale
                              for trial_by_guess) */
  int row[6];              /* this step's row indices (-1: absent): normal,
                              t1, t2, twist, roll1, roll2 */
  int valid;
  unsigned char guess_wait, guess_backoff; /* steps before trial_by_guess
                              (solve.c) is tried again on its island, and the
                              wait after the next miss; an island beyond
                              the dense size: its direct trial (direct.c) */
  unsigned char coupled;   /* its island's last answer came from the
                              coupled sticking check (solve.c fixed_cuts):
                              the sticking trial is not skipped for a
                              contact on its cone, since that answer sits
                              on cones by nature */
  int locked;              /* circle cone: the step ended sliding with its
                              friction along -t1 (second row locked): the
                              next step starts so */
  lk_slip_secant sec;      /* static analysis: a sliding contact's direction
                              secant (static.c) */
  double hist[4];          /* compliant contacts: tangential history (world
                              vector, then the last contact radius) */
  double restitution;      /* options.impacts: propagating: e, applied
                              before the LCP (impact.c; 0: none) */
  double z_impact;         /* ... the impulse its impacts gave this step */
  lk_vec3 anchor_a, anchor_b; /* a static contact's material points (in
                              its link's and the other's frame) where they
                              met; anchored: they are set (contact.c) */
  int anchored;
  int anchor_fix;          /* its kept anchor's offset is to be taken back
                              after this step's position update (anchor.c) */
  double anchor_off;       /* ... that offset's size as the step began */
  double impact_speed;     /* ... the separating speed of its first impact
                              when it was closing as the step began (the
                              simultaneous model's target), else 0 */
} lk_contact_mem;

/* One island's kept sticking-trial factor (solve.c: keep_trial_factor,
 * refine): up to LK_SIM_KEPT_SLOTS islands keep one, so that several
 * stacks or grasps at rest are each refined. */
#define LK_SIM_KEPT_SLOTS 8
typedef struct {
  int n;                   /* island rows (0: the slot is free) */
  int k;                   /* order of the factored (clamped) block */
  int dense;               /* its inverse follows the factor */
  unsigned long long key0; /* the key of the island's first row */
  size_t ofs, size;        /* its doubles in fc_L: the factor, then the inverse */
} lk_sim_kept;

/* Impact rows remembered by their index in a step (impact.c). */
#define LK_SIM_IMPACT_ROWS 16

/* Scalars of the layer (inside the arena). */
typedef struct {
  lk_sim_report report;
  int ncontact;     /* contact reports this step */
  int ngprev;       /* geometry contacts remembered from the last step */
  int nrow;
  int nisland;
  int nlforce;
  size_t nval;      /* values used in jval/yval */
  unsigned long long next_contact_id;
  lk_sim_kept kept[LK_SIM_KEPT_SLOTS]; /* kept trial factors (solve.c) */
  size_t kept_top;   /* doubles of fc_L allotted to them */
  int direct_heavy;  /* the last direct trial that stood took the heavy
                        friction weights (direct.c) */
  /* The LCP layer's scale (1 + max_i max(|q_i|, sum_k |G_ik| (|H|^T
   * |z|)_k)) of the last product island solved (iterative.c), its rows
   * and the key of its first row: lk_sim_iterative_guess's yardstick. */
  double prod_scale;
  int prod_n;
  unsigned long long prod_key0;
  int tactile_valid;
  /* The energy watch (step.c: watch_energy): the current input-free
   * stretch's steps, lowest energy and highest kinetic energy, and whether
   * a servo target was set since the last step (an input). */
  long long e_steps;
  double e_min, e_tmax;
  double e_scale, e_t0; /* the stretch's energy at its start, and that time */
  int targets_set;
  /* Impacts (impact.c): how much the restitution targets are cut this
   * solve (e (1 - cut); 0, or more when an impact's impulses would add
   * energy; 0 in a zeroed arena, so callers outside the step get e), and
   * the normal rows
   * whose restitution target raised their bound (the first
   * LK_SIM_IMPACT_ROWS; nimpact counts all) */
  double restitution_cut;
  int impact_gain; /* the step's impacts added energy all the same */
  int nimpact;
  int impact_row[LK_SIM_IMPACT_ROWS];
} lk_sim_scalars;

/* The step's journal (journal.c): what a step may change of the state
 * before it can still fail, saved at its start and put back when it fails,
 * so that a failed step leaves the data as it was. Scratch of the step (in
 * the arena, but meaning nothing between steps). */
typedef struct {
  lk_sim_scalars sim; /* the layer's scalars (the report excepted) */
  lk_col_state col;   /* the collision layer's scalars */
  int kept_saved;     /* the kept factors were saved before this step's
                         first change to them (solve.c: keep_trial_factor) */
  int solving;        /* the islands' solve began: the sparse direct
                         trial's factor (outside the arena) may have changed */
} lk_sim_journal;

typedef struct {
  lk_sim_scalars *st;
  lk_sim_journal *jr;
  lk_contact_mem *limmem_save; /* nlink when the model has joint limits */
  double *act_force_save;      /* nact */
  double *fc_L_save, *fc_d_save; /* as fc_L (island_cap^2) and fc_d */
  int *fc_last_save, *fc_col_save;
  unsigned long long *fc_key_save;
  unsigned char *fc_in_save;

  /* actuators */
  double *act_target; /* per actuator: current target (settable) */
  double *act_force;  /* per actuator: generalized force of the last step */
  int *act_on;        /* per actuator: 1 applies its force, 0 switched off
                         (lk_data_actuator_set_enabled) */

  /* kinematics of the step */
  lk_motion *cdof; /* per DoF: motion subspace in world coordinates, about
                      the world origin (so a row's value is cdof . F) */
  double *vstar;   /* nv: free velocity */
  int *tree;       /* per link: root link of its tree (0: the world and links welded to it) */

  /* contacts: reports and persistent memory, geometry then explicit */
  int contact_cap;
  lk_contact_report *contact;
  lk_contact_mem *cmem;     /* per report slot (this step) */
  lk_contact_mem *xmem;     /* per explicit contact (persists by index) */
  lk_contact_mem *limmem;   /* per link: joint-limit row states [2 each] */
  int gprev_cap;            /* geometry contacts remembered from last step */
  lk_contact_mem *gmem_prev;
  unsigned long long *gid_prev;
  int *gkey_prev;           /* geom_a, geom_b, feature of each (3 ints) */

  /* rows */
  int row_cap;
  lk_row *row;
  size_t val_cap;
  double *jval, *yval;

  /* islands: union-find over trees, then row lists */
  int *uf;            /* per link */
  int *island_of_tree;/* per link (root links only) */
  int *island_start;  /* nisland + 1 */
  int *island_rows;   /* rows grouped by island */
  int *rowloc;        /* per row: its index within its island */
  lk_island_report *island_note; /* per row: at an island's first row, how it
                                    was planned and solved (solve.c) */
  int *seg_row;       /* Delassus buckets: 2 per row (island.c) */
  int *anchor_rows;   /* anchored contacts' tangent rows to correct (anchor.c) */
  lk_transform *anchor_xw;    /* per link: poses after the position update (anchor.c) */
  unsigned char *anchor_done; /* per link: anchor_xw computed */
  const double **seg_j, **seg_y;
  double *ypanel;     /* a bucket's Y by DoF: (row_cap + 3) x LK_SIM_SMALL_TREE (island.c) */
  double *xtmp;       /* nv scratch */
  /* Y by blocks of rows (island.c: lk_sim_rows_y): the row segments solved
   * with the factor -- per segment its offset in jval/yval and its key
   * (tree, end), their order by that key -- the trees in order with their
   * DoFs and per root link its place there, the sort's counts, and a
   * block's right-hand sides by DoF (LK_SIM_YBLOCK x the largest tree's
   * DoFs) with the solve's sums */
  size_t *yofs;       /* 2 row_cap */
  int *ykey;          /* 4 row_cap */
  int *yorder;        /* 4 row_cap (the order, then the sort's scratch) */
  int *ytree_of;      /* nlink */
  int *ytree_v0, *ytree_len; /* nlink */
  int *ycount;        /* nlink + largest tree's DoFs + 2 */
  unsigned char *yblock_ok; /* per root link: its tree's branches short enough
                               (LK_SIM_YBLOCK_FILL) */
  double *yblock;
  double *yacc;       /* 4 LK_SIM_YBLOCK */
  int *gtree;         /* 2 nlink: an island's trees as (v0, len) (solve.c) */
  double *dvg;        /* nv: M~^-1 J^T z of the islands answered by their
                         last impulses (solve.c: trial_by_guess), whose
                         rows have no Y */
  /* M~^-1 of small trees (nv <= LK_SIM_SMALL_TREE), explicit, for Y = M~^-1
   * J^T when a tree has at least nv row segments (island.c): per root
   * link its block's offset in minv (or -1), and the step's segment count */
  double *minv;
  size_t *minv_ofs;
  int *minv_segs;

  /* one island's LCP (capacity island_cap rows; Lemke expanded: xcap) */
  int island_cap, xcap;
  double *A, *adiag, *b, *lo, *hi, *mu, *z, *w, *zfix, *rw;
  int *findex;
  unsigned char *basis;
  /* lk_island_refine's answer in hand (solve.c) */
  double *zref, *wref;
  unsigned char *bref;
  /* The held trial (solve.c): per island row whether it is held at its
   * friction bound, the unit direction component it is held along, and
   * this solve's value. */
  unsigned char *hold;
  double *hdir, *hval;
  /* ... the normal impulses its bounds are taken from (per island row),
   * the held normals' rows, and their Anderson history ((2 LK_ANDERSON_MMAX
   * + 4) island_cap doubles) */
  double *hzn, *hmem;
  int *hnorm;
  /* The sticking checks over polygons (cuts.c): per island row whether
   * its friction is bounded by facets in this solve. */
  unsigned char *cut;
  double *Ax, *qx, *lox, *hix, *zx, *wx;
  unsigned char *basisx;
  int *xr1, *xr2;   /* expanded variable -> rows it maps to (-1: none) */
  double *xc1, *xc2;/* ... with these coefficients */
  int *xslack;      /* expanded variable -> its group's slack (-1: none) */
  int *xbase;       /* island row -> its first expanded variable */
  /* The sticking trials' factors, kept across steps for trial_by_guess's
   * refinement (solve.c), one island a slot (st->kept): L D L^T of the
   * trial's clamped block (the LCP layer's lk_ldlt layout with leading
   * dimension k, D as D^-1; small blocks: then their inverse) in fc_L (a
   * pool of island_cap^2 doubles), and at s island_cap in the others for
   * slot s: per column its last nonzero, D^-1 and island row; per island
   * row the key (contact id, row) and whether it is clamped. In the arena,
   * so that a copied data refines as the original does. */
  double *fc_L, *fc_d, *fc_x, *fc_y;
  int *fc_last, *fc_col;
  unsigned long long *fc_key;
  unsigned char *fc_in;
  int *cut_r1, *cut_r2;       /* fixed-normal stage: the rows a cut acts on */
  double *cut_u1, *cut_u2, *cut_c; /* u . (z_r1, z_r2) <= c */

  /* reports */
  int lforce_cap;
  lk_link_force *lforce;
  lk_tactile *tactile; /* per link */

  lk_models_data x; /* issue 8: statics, compliant, smoothed (models_data.h) */

  /* scratch outside the arena (not state) */
  struct lk_lcp_workspace *lcp;
  struct lk_sim_sparse *sparse; /* islands beyond the dense size (sparse.c) */
  struct lk_sim_direct *direct; /* their sparse direct trial (direct.c) */
} lk_sim_data;

/* Islands beyond the dense size (island_cap rows): the Delassus matrix in
 * compressed rows (sparse.c) and the problem NSGS solves (iterative.c),
 * for up to ncap rows (the model's row capacity). Scratch outside the
 * arena: nothing in it survives a step. The entry arrays grow (sparse.c);
 * everything else is sized at lk_data_new. */
typedef struct lk_sim_sparse {
  int ncap;
  size_t cap, nnz;      /* entries held, entries of the last island */
  int grown;            /* times the entry arrays grew */
  int *rowp, *col;      /* ncap + 1; cap */
  double *val;          /* cap */
  double *q, *lo, *hi, *mu, *z, *w; /* ncap each */
  int *findex, *cone;
  unsigned char *basis;
  /* Islands beyond the dense size are solved on the product form instead
   * (iterative.c: G = J, H = Y over the model's DoFs, never A): the rows'
   * segments copied in island order, pcap entries (the model's J values
   * at most), pd the cfm a row. */
  size_t pcap, pnnz;    /* entries held, entries of the last product */
  int prod;             /* the last solve was on the product */
  int *prow, *pcol;     /* ncap + 1; pcap */
  double *pg, *ph, *pd; /* pcap, pcap, ncap */
  double *pdiag;        /* ncap: J_i . Y_i a row, summed by the copy */
  int nt1, *t1;         /* the island's contacts: (row of t1, contact, row
                           of t2 or -1) each, 3 ncap ints (iterative.c) */
  int guess_missed;     /* n: lk_sim_iterative_guess set these n rows up and
                           found their impulses no answer, for the solve
                           that follows at once; else 0 */
  struct lk_lcp_workspace *ws; /* NSGS and Newton: O(ncap), the model's
                                  DoFs as a product's columns (Newton's
                                  row vectors at its first solve) */
  int answered;         /* output of the last iterative solve: LK_ISLAND_NEWTON
                           or LK_ISLAND_NSGS, whose answer its last pass took */
  int fallback_sweeps;  /* 0: NSGS's full ladder after a Newton that stalls;
                           > 0 (for one call, set by solve.c where the
                           pivoting passes ran out): one NSGS attempt of
                           at most this many sweeps */
  double *dense;        /* NULL, or (for one call, set by solve.c) the dense
                           island's Delassus matrix it built for its trial
                           (n x n, base diagonal): NSGS takes it as it is
                           instead of building compressed rows */
} lk_sim_sparse;

/* Model-sized arrays into a, those sized by the contact capacity cap (and
 * the rows it allows) into c, the data's contact block, which grows
 * (data/data_impl.h). */
void lk_sim_data_layout(const lk_model *m, lk_sim_data *sd, lk_arena *a, lk_arena *c, int cap);
/* After the arena exists: allocate scratch that lives outside it. */
lk_status lk_sim_data_init(const lk_model *m, lk_sim_data *sd);
void lk_sim_data_free(lk_sim_data *sd);
/* After the contact block grew (lk_data_grow_contacts): the scratch
 * outside the arena for the new row capacity. */
lk_status lk_sim_data_regrow(const lk_model *m, lk_sim_data *sd);
/* The state the sim part keeps outside the arena (a large resting
 * island's kept sparse factor, direct.c), copied for lk_data_copy (the
 * arena is copied by the caller) and dropped by the reset. */
lk_status lk_sim_data_copy(lk_sim_data *dst, const lk_sim_data *src);
void lk_sim_data_reset(const lk_model *m, lk_sim_data *sd);

struct lk_data;
/* Add the actuators' generalized forces at (q, v, t) to tau (nv), and the
 * loads active at t to fext (per link, world frame about the world origin).
 * Needs the kinematics at q (link poses) for the loads. */
void lk_sim_applied_forces(const lk_model *m, struct lk_data *d, const double *q, const double *v,
                           double t, double *tau, lk_force *fext);

/* The target an actuator's schedule gives at time t (its spec's target
 * without one): the servo target schedules of issue 33. */
double lk_sim_actuator_target_at(const lk_actuator_spec *s, double t);

/* Issue 14.7: the implicit part of the position and velocity servos at
 * (q, v) for an Euler step of h (applied.c): adds to the diagonal of M~
 * and to the generalized force (after lk_sim_applied_forces); and the
 * force they applied over the step, once v+ is known, into act_force. */
void lk_sim_servo_implicit(const lk_model *m, const struct lk_data *d, const double *q,
                           const double *v, double h, double *tau, double *diag);
void lk_sim_servo_report(const lk_model *m, struct lk_data *d, const double *q, const double *v,
                         const double *vnew, double h);

#endif
