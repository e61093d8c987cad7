/* Grasp analysis and grasp trials.
 *
 * Analysis (no simulation): from contacts on an object, given explicitly or
 * taken from a simulation state (lk_grasp_contacts_from_data), build
 *   - the grasp matrix G, which maps contact forces in the contact frames
 *     (normal, two tangents, and a torsional moment for soft fingers) to the
 *     wrench on the object;
 *   - the linearized contact wrench cones: each contact's Coulomb cone
 *     |f_t| <= mu f_n replaced by `edges` generators n + mu t_k (inscribed,
 *     as GraspIt does, or circumscribed), and for a soft finger
 *     |tau_n| <= torsion f_n, each generator taken with +torsion and
 *     -torsion about the normal (the friction disk and the torsion
 *     interval are independent, as in the simulator's rollingContact);
 *   - force closure, decided by a linear program with the reason when it
 *     fails (lk_grasp_force_closure);
 *   - the Ferrari-Canny epsilon metric and the volume of the grasp wrench
 *     space (lk_grasp_quality_compute), with qhull;
 *   - the smallest finger force that resists a given wrench
 *     (lk_grasp_min_force), by a linear program.
 *
 * Wrench vectors in this header are 6 numbers (f_x, f_y, f_z, tau_x,
 * tau_y, tau_z), force first as in Ferrari and Canny and in GraspIt (an
 * lk_force, by contrast, is (ang, lin)); torques are about
 * lk_grasp_options.center. In the grasp wrench space (GWS) the torques are
 * divided by a torque scale rho (m), so that force and torque have the
 * same unit: GraspIt uses the object's largest radius, the largest distance
 * from its centre of mass to its surface (lk_grasp_object_radius), and so
 * do the trials here. Each generator has a unit normal force, so the GWS is
 * the set of wrenches a grasp can apply with a total normal force of at
 * most 1 N (the "L1" GWS: the convex hull of the union of the contacts'
 * wrench sets; Ferrari and Canny, "Planning optimal grasps", ICRA 1992;
 * Miller and Allen, "GraspIt!", IEEE Robotics & Automation Magazine 2004).
 *
 * Trials (simulation): a grasp scene joins a hand file and an object file
 * into one model (lk_grasp_scene_load), the hand's palm mounted on a free
 * joint that a 6-D position servo of this layer drives. A trial places the
 * hand, closes the fingers until each touches the object with the grip
 * force ("close until contact" with a torque limit), lets go of the object,
 * lifts the palm, shakes the object with disturbance forces and torques
 * along +-x, +-y, +-z, and reports whether the object stayed in the hand,
 * how far it slipped relative to the palm, the friction utilization and
 * tactile slip flags, and the analysis of the closed grasp.
 *
 * Threads: a scene (and its model) is read-only once loaded; any number of
 * threads may run trials on it at once, each with its own lk_data. The
 * analysis functions are reentrant. Memory: the analysis functions allocate
 * their scratch with the library's allocator, except qhull, which uses its
 * own (malloc); a trial allocates a few arrays of the model's size when it
 * starts and the analysis's scratch once, at the end of closing (the steps
 * themselves allocate nothing). */
#ifndef LINKAGE_GRASP_H
#define LINKAGE_GRASP_H

#include <stdint.h>

#include "linkage/data.h"
#include "linkage/error.h"
#include "linkage/math.h"
#include "linkage/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ contacts */

/* One contact of a finger (or anything) on the object. */
typedef struct {
  lk_vec3 position; /* contact point (any frame, the same for all contacts
                       and for lk_grasp_options.center) */
  lk_vec3 normal;   /* pointing INTO the object: the direction of the normal
                       force on it (normalized when used; must not be 0) */
  lk_vec3 tangent;  /* optional first tangent direction t1: the first cone
                       edge is n + mu t1; its part along the normal is
                       ignored. Zero: a tangent chosen from the normal
                       alone (lk_grasp_contact_frame) */
  double mu;        /* Coulomb coefficient, >= 0 (0: frictionless) */
  double torsion;   /* soft finger: |tau_n| <= torsion f_n (m), the
                       torsional moment per newton of normal force (the
                       simulator's mu_torsional * patch_radius); 0: a hard
                       point contact */
  int finger;       /* group for finger forces (lk_grasp_min_force): the
                       contacts of one finger share a number >= 0; -1: a
                       group of its own */
} lk_grasp_contact;

/* Zero position, normal +z, no tangent, mu 0, no torsion, finger -1. */
void lk_grasp_contact_default(lk_grasp_contact *c);

/* The contact frame used: the unit normal n, and t1, t2 with (n, t1, t2)
 * right-handed and orthonormal. t1 is the given tangent made orthogonal to
 * n, or, when that is (nearly) zero, n x e where e is the coordinate axis
 * least aligned with n, normalized. LK_INVALID_ARGUMENT for a zero or
 * non-finite normal. */
lk_status lk_grasp_contact_frame(const lk_grasp_contact *c, lk_vec3 *n, lk_vec3 *t1,
                                 lk_vec3 *t2);

typedef struct {
  lk_vec3 center;      /* the point torques are taken about (the object's
                          centre of mass); default the origin */
  double torque_scale; /* rho > 0 (m): GWS torques are tau / rho. 0
                          (default): the largest distance from center to a
                          contact point */
  int edges;           /* friction cone generators per contact, >= 3;
                          default 8 (GraspIt's) */
  int circumscribed;   /* 0 (default): edges on the cone (an inscribed
                          pyramid, conservative); 1: the pyramid around the
                          cone (edges mu / cos(pi / edges) out) */
  double tolerance;    /* relative tolerance of the decisions (rank, force
                          closure); default 1e-9 */
} lk_grasp_options;

void lk_grasp_options_default(lk_grasp_options *o);

/* -------------------------------------------------------- grasp matrix */

/* Columns of the grasp matrix: 3 per contact (f_n, f_t1, f_t2), plus 1
 * (tau_n) for a contact with torsion > 0. */
int lk_grasp_matrix_columns(const lk_grasp_contact *c, int nc);

/* G (6 x lk_grasp_matrix_columns, row-major, leading dimension ldg >=
 * columns; 0 means columns): column by column, the wrench (force, torque
 * about o->center, unscaled) of a unit force along n, t1, t2 at the
 * contact, and of a unit moment about n, contact after contact. o may be
 * NULL (defaults). */
lk_status lk_grasp_matrix(const lk_grasp_contact *c, int nc, const lk_grasp_options *o,
                          double *G, int ldg, lk_error *err);

/* ------------------------------------------------------ wrench cones */

/* Generators of the linearized wrench cones: per contact `edges` (mu > 0)
 * or 1 (frictionless), twice that for a soft finger. */
int lk_grasp_wrench_count(const lk_grasp_contact *c, int nc, const lk_grasp_options *o);

/* The generators, one row of 6 per generator (count x 6, row-major): the
 * GWS wrench (f, tau / rho) of a unit normal force along cone edge k,
 * n + mu_e (cos(2 pi k / edges) t1 + sin(2 pi k / edges) t2) with mu_e =
 * mu (inscribed) or mu / cos(pi / edges) (circumscribed), plus +- torsion
 * about n for a soft finger. contact (may be NULL) receives each row's
 * contact index; rho_out (may be NULL) the torque scale used. */
lk_status lk_grasp_wrenches(const lk_grasp_contact *c, int nc, const lk_grasp_options *o,
                            double *W, int *contact, double *rho_out, lk_error *err);

/* ------------------------------------------------------ force closure */

typedef enum {
  LK_GRASP_CLOSED = 0,     /* force closure: every wrench can be resisted */
  LK_GRASP_NO_CONTACTS,    /* nothing touches */
  LK_GRASP_DEGENERATE,     /* the contact wrenches span fewer than 6
                              dimensions (report.rank) */
  LK_GRASP_ONE_SIDED,      /* they span all 6, but the origin is not
                              strictly inside their hull: some direction
                              can only be pushed one way */
} lk_grasp_closure;

/* "closed", "no contacts", "degenerate", "one-sided". */
const char *lk_grasp_closure_name(lk_grasp_closure c);

typedef struct {
  int closed;              /* 1 iff in force closure */
  lk_grasp_closure reason;
  int rank;                /* dimensions the generators span, 0..6 */
  double margin;           /* N t*, where t* is the LP optimum: the largest
                              t such that some weights lambda_i >= t with
                              sum lambda_i = 1 combine the N generators to
                              zero; in (0, 1] iff closed and rank 6 */
  double unresisted[6];    /* not closed: a unit GWS direction (f, tau/rho)
                              of an external wrench the grasp cannot
                              resist (zero when closed) */
  char detail[256];        /* what was found, one sentence */
} lk_grasp_closure_report;

/* Decide force closure of the linearized grasp: the generators' positive
 * span is all of R^6 iff they have rank 6 and a combination with strictly
 * positive weights is zero (Murray, Li and Sastry, "A Mathematical
 * Introduction to Robotic Manipulation", 1994, ch. 5). The rank comes from
 * the eigenvalues of the 6 x 6 Gram matrix (relative tolerance); the
 * weights from a linear program solved by this layer's dense simplex
 * method (largest-coefficient rule, switching to Bland's rule after a run
 * of degenerate pivots, so that it cannot cycle), whose dual gives the
 * unresisted wrench. Returns LK_OK when the decision was made (closed or
 * not: see r->closed), else an error (bad contacts, LK_PIVOT_LIMIT,
 * LK_OUT_OF_MEMORY). */
lk_status lk_grasp_force_closure(const lk_grasp_contact *c, int nc, const lk_grasp_options *o,
                                 lk_grasp_closure_report *r, lk_error *err);

/* ----------------------------------------------------- quality metrics */

typedef struct {
  double epsilon;      /* Ferrari-Canny epsilon of the L1 GWS: the radius of
                          the largest ball about the origin inside the
                          hull of the generators, i.e. the smallest
                          distance from the origin to a hull facet (N of
                          wrench per N of total normal force, torques over
                          rho); 0 when the origin is not strictly inside
                          (GraspIt reports -1 there) */
  double volume;       /* 6-volume of the hull (0 when it is flat) */
  int force_closure;   /* epsilon > 0 */
  int rank;            /* dimensions the generators span */
  int nwrenches;       /* generators */
  int nfacets;         /* facets of the hull (0 when flat) */
  double torque_scale; /* rho used */
} lk_grasp_quality;

/* Epsilon and volume of the grasp wrench space, the hull computed by
 * qhull_r ("Qt": triangulated, so every facet is exactly a hyperplane
 * through 6 generators). A flat hull (rank < 6) has epsilon 0 and volume
 * 0 without calling qhull. LK_NOT_CONVERGED with qhull's message when it
 * fails (precision trouble). */
lk_status lk_grasp_quality_compute(const lk_grasp_contact *c, int nc, const lk_grasp_options *o,
                                   lk_grasp_quality *q, lk_error *err);

/* The Ferrari-Canny epsilon alone, as lk_grasp_quality_compute gives it
 * (0 when not in force closure) but without building the whole hull: the
 * expanding polytope algorithm builds only the facets near the origin
 * (exact to 1e-12 of the generators' size; hundreds of times faster on a
 * face-to-face squeeze, whose hull has thousands of facets). Degenerate
 * input it cannot resolve goes to qhull (*used_qhull, may be NULL, says
 * so). */
lk_status lk_grasp_epsilon(const lk_grasp_contact *c, int nc, const lk_grasp_options *o,
                           double *epsilon, int *used_qhull, lk_error *err);

/* ---------------------------------------------------------- forces */

typedef enum {
  LK_GRASP_MIN_MAX_FINGER = 0, /* minimize the largest finger's normal force
                                  (the sum over its contacts) */
  LK_GRASP_MIN_TOTAL           /* minimize the sum of all normal forces */
} lk_grasp_force_objective;

typedef struct {
  double force;      /* the optimum of the objective, N */
  double max_finger; /* largest finger normal force of the solution, N */
  double total;      /* sum of the normal forces, N */
  int pivots;        /* simplex pivots */
} lk_grasp_force_result;

/* The smallest contact forces inside the linearized cones that balance an
 * external wrench on the object (force `external.lin` and moment
 * `external.ang` about o->center, world units: gravity is m g at the
 * centre of mass), by a linear program. fn (nc, may be NULL) receives each
 * contact's normal force and f (nc, may be NULL) its whole force on the
 * object. LK_NO_SOLUTION, with the reason in err, when no contact forces
 * can balance it. With the inscribed pyramid the answer is an upper bound
 * of the exact cone's, with the circumscribed one a lower bound. */
lk_status lk_grasp_min_force(const lk_grasp_contact *c, int nc, const lk_grasp_options *o,
                             lk_force external, lk_grasp_force_objective objective,
                             lk_grasp_force_result *res, double *fn, lk_vec3 *f, lk_error *err);

/* The grip a grasp needs to carry loads: for each load (an external wrench
 * on the object as lk_grasp_min_force takes it: force, and moment about
 * o->center), the smallest largest-finger normal force with which contact
 * forces inside the linearized cones balance it (MIN_MAX_FINGER), and the
 * largest of those over the loads into *force (N; 0 for no loads;
 * INFINITY when some load cannot be balanced at all); *worst (may be
 * NULL) is that load's index (-1 for none). A hand that presses each
 * finger with at least *force carries every load quasi-statically: a
 * task-oriented measure (the task wrenches of Li and Sastry, "Task-oriented
 * optimal grasping by multifingered robot hands", IEEE J. Robot. Autom.
 * 4(1), 1988), which sees what epsilon does not, e.g. the weight's torque
 * about the line between two pads when the centre of mass is off it. One
 * LP a load, built once. */
lk_status lk_grasp_load_force(const lk_grasp_contact *c, int nc, const lk_grasp_options *o,
                              const lk_force *loads, int nloads, double *force, int *worst,
                              lk_error *err);

/* ------------------------------------------------- from a simulation */

typedef struct {
  int object;               /* the object's link */
  int world;                /* 1: also contacts with the world (a table);
                               default 0 */
  double min_force;         /* contacts with f_n <= min_force are left out
                               (N); default 0: those that carry force */
  const int *finger_of_link;/* optional, one entry per link: the finger
                               group of the contacts that link makes (-1:
                               a group of its own); NULL: the link index */
} lk_grasp_extract_options;

void lk_grasp_extract_options_default(lk_grasp_extract_options *o);

/* The contacts on the object after the last step (lk_data_contact_report):
 * position, normal into the object, the static coefficient in use, and the
 * torsion capacity mu_torsional * patch_radius of a rolling contact (the
 * materials' mixed values, as the simulator uses them). Writes at most
 * `cap` into out and fn (the measured normal forces; either may be NULL)
 * and returns how many there are (more than cap: call again with more
 * room), or -1 for invalid arguments. */
int lk_grasp_contacts_from_data(const lk_model *m, const lk_data *d,
                                const lk_grasp_extract_options *o, lk_grasp_contact *out,
                                double *fn, int cap);

/* The largest distance from a link's centre of mass to the surface of its
 * geoms (GraspIt's maximum radius, the trials' torque scale), m.
 * LK_INVALID_ARGUMENT for a link without solid geoms (planes do not
 * count). */
lk_status lk_grasp_object_radius(const lk_model *m, int link, double *radius, lk_error *err);

/* -------------------------------------------------------- grasp scenes */

#define LK_GRASP_MAX_FINGERS 8
#define LK_GRASP_MAX_FINGER_DOFS 5

/* A finger: a child of the palm and everything below it (and any linkage
 * member joined to it: a subtree of the palm with coupled joints only,
 * reaching less than 3/4 as deep as the deepest finger, joins the finger
 * whose first link is nearest its own), with the actuators of its joints, and the joints that follow an actuated joint of
 * the hand through a coupling (a URDF <mimic>: q = ratio q_leader + offset,
 * ratio > 0) instead of an actuator of their own. A finger has at least one
 * of either (a mimic jaw: ndof 0, ncoupled 1).
 *
 * Each finger joint has a closing direction, +1 (it closes moving positive,
 * towards its upper limit) or -1 (towards its lower limit: the Panda hand's
 * fingers close towards q = 0 from 0.04), used by the screener's kinematic
 * closing, the trials' closing controller and the antipodal sampler's jaw
 * axis. An actuated joint's is lk_grasp_scene_options.closing's when it
 * names the joint, else it is read from the hand: the direction in which
 * the finger's geoms (with the joints coupled to it) move in front of the
 * palm (along the approach) and in towards the approach axis through the
 * hand frame's origin, at the hand file's initial state (the sum over the
 * geoms of the rate of (depth along the approach - distance from the
 * axis)); a joint that moves them neither way (by less than a tenth of
 * their speed: an abduction joint) closes positive. A coupled joint closes
 * with its leader: ratio's sign times the leader's direction. */
typedef struct {
  int base;                             /* the finger's first link */
  int ndof;
  int dof[LK_GRASP_MAX_FINGER_DOFS];    /* velocity indices */
  int actuator[LK_GRASP_MAX_FINGER_DOFS];
  int ncoupled;
  int coupled_dof[LK_GRASP_MAX_FINGER_DOFS]; /* velocity indices */
  int closing[LK_GRASP_MAX_FINGER_DOFS];         /* +1 or -1, of dof[k] */
  int coupled_closing[LK_GRASP_MAX_FINGER_DOFS]; /* of coupled_dof[k] */
} lk_grasp_finger;

typedef struct lk_grasp_scene lk_grasp_scene;

typedef struct {
  const char *hand_prefix;   /* names of the hand file's elements; default
                                "hand_" */
  const char *object_prefix; /* default "object_" */
  /* --set overrides for each file (linkage/io.h, lk_load_options.set). */
  const char *const *hand_set;
  int nhand_set;
  const char *const *object_set;
  int nobject_set;
  double timestep;           /* > 0: replaces the hand file's time step */
  /* Non-NULL: the object file is a mesh file (STL, OBJ, ... as
   * lk_mesh_load_file reads), made into the object by
   * lk_grasp_add_mesh_object with these settings, the link named
   * object_prefix + "mesh"; object_set must then be empty. */
  const struct lk_grasp_mesh_object *object_mesh;
  /* Where a URDF's package:// names are looked for, for both files
   * (lk_load_options.package_path); NULL: above the file only. */
  const char *package_path;
  /* lk_load_options.strict_meshes and .keep_rest_overlaps, for both
   * files. */
  int strict_meshes;
  int keep_rest_overlaps;
  /* Called with every file the two loads read (the hand, the object and
   * what they include or reference), as lk_load_options.input: a program
   * passes lk_outputs_input so that no output replaces one of them. */
  lk_status (*input)(void *input_ctx, const char *path, lk_error *err);
  void *input_ctx;
  /* The palm: a link of the hand file (its name there, without
   * hand_prefix); NULL or "": the root link. Moving joints between the
   * root and the palm (a wrist: Menagerie's Shadow hand hangs its palm
   * from the forearm by two) are held where the file's initial state has
   * them, by a rigid loop in the trials (lk_grasp_scene_warning names
   * them). Every link welded to the palm (those joints counting as welds)
   * is the palm's body, and the fingers are what hangs from that body by
   * moving joints. */
  const char *palm;
  /* The direction the hand approaches an object along, in the palm's
   * frame; zero (the default): -z. The hand frame the sampler, the
   * screener and the trials pose is the palm's turned by the smallest
   * rotation taking -z to it, so a hand whose fingers point along +x is
   * planned with approach (1, 0, 0). */
  lk_vec3 approach;
  /* Closing directions that override the ones read from the hand
   * (lk_grasp_finger): "JOINT=+1" or "JOINT=-1", JOINT an actuated finger
   * joint of the hand file (its name there, without hand_prefix). */
  const char *const *closing;
  int nclosing;
  /* > 0: soft-finger contacts, m. Every material of the scene without a
   * patch of its own gets this patch radius a and torsional friction
   * mu_torsional = (3 pi / 16) mu_static, so that a contact resists a twist
   * about its normal up to (3 pi / 16) mu a f_n: the frictional torque of a
   * circular patch of radius a under Hertzian pressure (Johnson, "Contact
   * Mechanics", 1985, ch. 7; the soft-finger model of Howe and Cutkosky,
   * "Practical force-motion models for sliding manipulation", IJRR 15(6),
   * 1996). The trials (rolling contacts with a twist row) and the screen
   * (contact torsion) then use the same contacts. A flat pad on a curved
   * object touches at one point, and two rigid points pinch nothing about
   * the line between them; a rubber pad's patch does. 0 (default): the
   * contacts as the files make them. */
  double soft_fingers;
} lk_grasp_scene_options;

void lk_grasp_scene_options_default(lk_grasp_scene_options *o);

/* What lk_grasp_add_mesh_object made of a mesh file. */
typedef struct {
  int file_parts;      /* parts of the file */
  int parts;           /* mesh geoms made */
  int decomposed;      /* 1: the file's one part was decomposed */
  double volume;       /* the one part's surface's volume (0: not known) */
  double hull_volume;  /* its convex hull's */
  double parts_volume; /* the geoms' hulls' volumes added */
  /* "" or a warning for the user: a single non-convex part, decomposed or
   * kept as its hull, and by how much the hull changes the volume. */
  char warning[LK_ERROR_MESSAGE_MAX];
} lk_grasp_mesh_object_report;

/* An object given as a mesh file rather than a model file. */
typedef struct lk_grasp_mesh_object {
  double mass;       /* kg, > 0; required (lk_grasp_mesh_object_default: 0) */
  double scale;      /* of the file's coordinates (> 0; default 1; a file in
                        millimetres: 0.001) */
  double mu_static;  /* its material (default 0.5 and 0.4, as the shipped */
  double mu_dynamic; /* objects' wood and ceramic) */
  /* A file of one part whose surface is not convex (its hull adds more
   * than hull_tolerance to its volume; default 0.05) is decomposed into
   * convex parts (lk_mesh_decompose with the options below) unless
   * keep_hull is set (default 0): then it is its hull. A part whose hull
   * adds more than decompose.max_excess but at most hull_tolerance (a
   * scanned box, slightly dented) stays its hull. Either way with a
   * warning in the report. */
  int keep_hull;
  double hull_tolerance;
  lk_mesh_decompose_options decompose;
  /* Non-NULL: filled (the warning among it). */
  lk_grasp_mesh_object_report *report;
} lk_grasp_mesh_object;

void lk_grasp_mesh_object_default(lk_grasp_mesh_object *o);

/* Adds to m (not finalized) an object made of the mesh file at path: a
 * material "<name>_material", a link `name` on a free joint from the world
 * with one mesh geom per part of the file (lk_mesh_load_part: an OBJ
 * file's objects, as a pre-decomposed non-convex object is; a file of one
 * part is one convex hull when it is convex, else its convex parts
 * (lk_mesh_decompose; o->keep_hull: its hull), with a warning in
 * o->report saying by how much the hull changes its volume), its mass properties from the hulls' volume
 * integrals at a uniform density (mass / total volume), and its frame
 * placed so that the object stands at the world origin: the centroid
 * above (0, 0), the lowest point at z = 0. Errors: the file's (as
 * lk_mesh_load_file's, naming it), bad options, the model's. */
lk_status lk_grasp_add_mesh_object(lk_model *m, const char *name, const char *path,
                                   const lk_grasp_mesh_object *o, lk_error *err);

/* A scene from a hand file and an object file (linkage/io.h composition).
 * The model gets the hand file's options; a link "grasp_mount" on a free
 * joint from the world, to which the hand file's one root link (the palm,
 * on a fixed joint) is welded; the hand's links below it; and the object
 * file's one root link on a free joint (the object, at the pose its file
 * starts it in). Neither file's world geoms are kept (the trial's object
 * floats in the hand; see lk_grasp_trial). The fingers are the palm's
 * child subtrees with actuated revolute or prismatic joints; every finger
 * actuator must be able to apply an effort (position servos need kp > 0,
 * velocity servos kv > 0). A hand file without actuators (a URDF) gets an
 * effort actuator "grasp_close_JOINT" on each of its revolute and prismatic
 * joints that follows no other through a coupling, and its links moved by
 * one such joint (directly or through couplings) do not collide with each
 * other (a four-bar finger's halves overlap at their pin). NULL with err
 * filled on failure. */
lk_grasp_scene *lk_grasp_scene_load(const char *hand_path, const char *object_path,
                                    const lk_grasp_scene_options *o, lk_error *err);
void lk_grasp_scene_free(lk_grasp_scene *s);

const lk_model *lk_grasp_scene_model(const lk_grasp_scene *s);
int lk_grasp_scene_palm(const lk_grasp_scene *s);   /* link index */
int lk_grasp_scene_object(const lk_grasp_scene *s); /* link index */
int lk_grasp_scene_nfinger(const lk_grasp_scene *s);
const lk_grasp_finger *lk_grasp_scene_finger(const lk_grasp_scene *s, int i);
/* Finger DoFs over all fingers, in finger order: the pre-shape's size. */
int lk_grasp_scene_nfinger_dofs(const lk_grasp_scene *s);
/* The hand's pre-shape (lk_grasp_scene_nfinger_dofs values), what a NULL
 * preshape means: the hand file's initial state, except that a finger joint
 * that starts at the limit it closes towards (a hand written closed, as
 * Menagerie's Panda hand at q = 0) starts at its other limit, open. */
const double *lk_grasp_scene_preshape(const lk_grasp_scene *s);
/* "" or a note for the user about how the scene takes the hand: joints
 * between the hand's root and a named palm (a wrist) held where the file
 * starts them, named with their values. */
const char *lk_grasp_scene_warning(const lk_grasp_scene *s);
/* The closing direction (+1 or -1) of finger DoF k (0 .. nfinger_dofs - 1,
 * the pre-shape's order); 0 for a bad index. */
int lk_grasp_scene_closing(const lk_grasp_scene *s, int k);
/* The object's mass (kg), its radius (lk_grasp_object_radius) and its
 * starting pose in the world. */
double lk_grasp_scene_object_mass(const lk_grasp_scene *s);
double lk_grasp_scene_object_radius(const lk_grasp_scene *s);
lk_transform lk_grasp_scene_object_pose(const lk_grasp_scene *s);
/* The farthest the fingers reach from the palm along -z of the palm frame
 * at the initial pre-shape (the extent of their geoms), m: the natural
 * scale of standoffs. */
double lk_grasp_scene_reach(const lk_grasp_scene *s);
/* The finger group of each link (lk_grasp_extract_options.finger_of_link):
 * the finger index for the fingers' links, -1 for the others. */
const int *lk_grasp_scene_finger_of_link(const lk_grasp_scene *s);

/* ------------------------------------------------------------- trials */

typedef struct {
  /* Closing ("close until contact"): each finger joint is driven towards
   * close_speed in its closing direction by tau = k (close_speed - v),
   * clamped to +-torque_limit, with k = torque_limit / close_speed unless
   * the joint's effective inertia M_jj needs a smaller gain for the
   * explicit loop to be stable (k <= M_jj / 2h); once a finger touches the
   * object it presses with grip_force along the mean normal of its most
   * loaded link's contacts (tau = J^T f at their centroid; joints that do
   * not move that point keep closing), still within the torque limit; the
   * fingers' weights and joint springs are compensated. Closing ends when
   * every finger presses with grip_force (within force_tolerance), or as
   * hard as its torque limit lets it and has stopped, or has stopped
   * without touching, for settle_time in a row; or at close_timeout. */
  double close_speed_revolute;  /* rad/s; default 1.5 */
  double close_speed_prismatic; /* m/s; default 0.15 */
  double torque_limit;  /* effort bound per finger joint (N m or N); 0
                           (default): each actuator's max_effort, or 5 when
                           that is unlimited */
  double grip_force;    /* N per finger; default 10 */
  double force_tolerance; /* relative; default 0.1 */
  double settle_time;   /* s; default 0.03 */
  double close_timeout; /* s; default 0.8 */
  /* A guarded close, then a squeeze (as a robot hand closes on an object
   * it must not push away): while another finger is still on its way, a
   * finger that touches presses only with touch_force; once every finger
   * touches or has stopped, the press grows to grip_force over
   * squeeze_time. touch_force 0 (default): half the object's weight, at
   * most grip_force, below what the support below carries, so that the
   * object is where the kinematic closing of lk_grasp_screen assumes it. */
  double touch_force;   /* N; default 0: automatic */
  double squeeze_time;  /* s; default 0.05 */
  /* While closing, the object rests at its starting pose: its weight is
   * carried, and a spring (natural frequency support_frequency, forces up
   * to 2 m g) pulls it back; after closing that support fades out over
   * release_time. */
  double support_frequency; /* Hz; default 5 */
  double release_time;      /* s; default 0.1 */
  /* After closing, each finger joint also holds the position it closed to
   * with its actuator's gains (kp, kv: a real hand's servos), on top of the
   * grip force; 0: pure force control (the fingers then give way together
   * to a push on the object). */
  int hold;                 /* default 1 */
  /* The palm servo: a critically damped 6-D PD on the mount's free joint
   * with this natural frequency (through the mount's 6 x 6 block of the
   * mass matrix), the whole hand's gravity compensated and, as the support
   * lets go, the object's weight and inertia fed forward (a payload). */
  double palm_frequency;    /* Hz; default 15 */
  /* Lift: the palm rises by lift_height along +z (world) in lift_time on a
   * minimum-jerk profile, then holds for hold_time. */
  double lift_height, lift_time, hold_time; /* m, s, s; 0.1, 0.4, 0.1 */
  /* Shake: a force of shake_force along +x, -x, +y, -y, +z, -z (world), then
   * a torque of shake_torque about the same axes, each applied at the
   * object's centre of mass for shake_time (with ramps of a fifth of it at
   * both ends) and followed by shake_pause. 0 skips that half. */
  double shake_force;  /* N; < 0 (default -1): the object's weight m g */
  double shake_torque; /* N m; < 0 (default -1): m g times the object's
                          radius / 2 */
  double shake_time, shake_pause; /* s; 0.05, 0.02 */
  /* The object counts as dropped once it is farther than drop_distance
   * from where it was in the hand (palm frame) when closing ended, or no
   * finger has touched it for 20 ms. */
  double drop_distance; /* m; default 0.02 */
  /* Analysis of the closed grasp (epsilon, volume, minimum force). Its
   * center and torque_scale are set by the trial (object's centre of mass
   * and radius). */
  lk_grasp_options analysis;
  /* An observer (NULL: none; for recording a trial, e.g. into an lk_view):
   * called with observe_user once with the placed state before the first
   * step (not when the hand overlaps the object), then after every step
   * with the link kinematics current. It reads only: the trial is the same
   * with or without it. */
  void (*observe)(void *user, const lk_data *d, int phase); /* an lk_grasp_phase */
  void *observe_user;
} lk_grasp_trial_options;

void lk_grasp_trial_options_default(lk_grasp_trial_options *o);

/* The loads a trial with options o (NULL: the defaults) puts on the object
 * in the hand, as external wrenches (world frame, moments about its centre
 * of mass) for lk_grasp_load_force and lk_grasp_screen_options.loads: the
 * weight with the lift's largest acceleration (minimum jerk: (10 / sqrt 3)
 * lift_height / lift_time^2 upwards; the weight alone without a lift),
 * then the weight with each of the shake's forces and torques. Writes at
 * most cap and returns how many there are (at most
 * LK_GRASP_TRIAL_LOADS), -1 for bad arguments. */
#define LK_GRASP_TRIAL_LOADS 13
int lk_grasp_trial_loads(const lk_grasp_scene *s, const lk_grasp_trial_options *o,
                         lk_force *loads, int cap);

typedef enum {
  LK_GRASP_HELD = 0,      /* held through lift and shake */
  LK_GRASP_COLLISION,     /* the hand overlaps the object where it starts */
  LK_GRASP_NO_CONTACT,    /* closing ended with no finger on the object */
  LK_GRASP_DROPPED,       /* lost when let go, while lifted or shaken */
  LK_GRASP_SIM_FAILED,    /* a step failed (report.status) */
} lk_grasp_outcome;

/* "held", "collision", "no contact", "dropped", "simulation failed". */
const char *lk_grasp_outcome_name(lk_grasp_outcome o);

typedef enum {
  LK_GRASP_PHASE_CLOSE = 0,
  LK_GRASP_PHASE_RELEASE,
  LK_GRASP_PHASE_LIFT,
  LK_GRASP_PHASE_SHAKE,
  LK_GRASP_PHASE_DONE
} lk_grasp_phase;

typedef struct {
  int held;                 /* outcome == LK_GRASP_HELD */
  lk_grasp_outcome outcome;
  lk_grasp_phase lost_in;   /* where it was lost (PHASE_DONE if held) */
  int lost_at_disturbance;  /* shake: the disturbance (0..11: +x, -x, +y,
                               -y, +z, -z forces, then torques) that
                               dislodged it; -1 */
  lk_status status;         /* LK_OK, or the failing step's status */
  /* closing */
  int closed;               /* every finger pressed with the grip force or
                               stopped without contact before the timeout */
  int nfinger, fingers_in_contact;
  double finger_force[LK_GRASP_MAX_FINGERS]; /* normal force on the object
                                                at the end of closing, N */
  double close_time;        /* s */
  int ncontacts;            /* hand-object contacts at the end of closing */
  /* analysis of the grasp as closed (contacts of the last closing step) */
  int force_closure;
  double epsilon, volume;   /* lk_grasp_quality of those contacts */
  double min_force;         /* lk_grasp_min_force against the object's weight
                               (MIN_MAX_FINGER), N; INFINITY if impossible */
  /* after closing */
  double slip_translation;  /* largest displacement of the object's centre of
                               mass relative to the palm, m */
  double slip_rotation;     /* largest rotation of the object relative to
                               the palm, rad */
  double peak_utilization;  /* largest friction utilization of a finger
                               link, |sum f_t| / sum mu_s f_n over its
                               contacts (lk_tactile.utilization) */
  unsigned slip_flags;      /* bit k: a link of finger k raised its tactile
                               slip flag (lk_data_tactile) */
  int steps;                /* simulation steps of the trial */
  double time;              /* simulated time, s */
} lk_grasp_trial_report;

/* Put the hand at hand_pose (the palm frame in the object's starting
 * frame), the object at its starting pose, the finger joints at preshape
 * (lk_grasp_scene_nfinger_dofs values; NULL: lk_grasp_scene_preshape),
 * everything at rest: d is reset first. d must be a data of the
 * scene's model. */
lk_status lk_grasp_place(const lk_grasp_scene *s, lk_data *d, const lk_transform *hand_pose,
                         const double *preshape, lk_error *err);

/* Close until contact from the current state (after lk_grasp_place): the
 * palm held where it is, the object supported where it is (see
 * lk_grasp_trial_options). Fills the closing part of r (closed, fingers,
 * forces, contacts, close_time, steps); the analysis fields are left
 * alone. */
lk_status lk_grasp_close(const lk_grasp_scene *s, lk_data *d, const lk_grasp_trial_options *o,
                         lk_grasp_trial_report *r, lk_error *err);

/* A whole trial: place, check that the hand does not overlap the object,
 * close, analyse the closed grasp, release, lift, shake; the report says
 * how it went. Returns LK_OK whenever the trial ran (a dropped object or a
 * failed step is an outcome, not an error); an error only for bad
 * arguments or memory. Deterministic: the same arguments give the same
 * report, whatever data (of the scene's model) and thread it runs in. */
lk_status lk_grasp_trial(const lk_grasp_scene *s, lk_data *d, const lk_transform *hand_pose,
                         const double *preshape, const lk_grasp_trial_options *o,
                         lk_grasp_trial_report *r, lk_error *err);

/* ------------------------------------------------------- candidates */

/* A candidate hand pose around the object, drawn by a sampler: the palm
 * frame in the object's starting frame (as lk_grasp_place takes it). */
typedef struct {
  int index;              /* which draw: candidate i draws from its own
                             random stream (seed, i), so a candidate does
                             not depend on how many are drawn or where */
  int round;              /* 0 as drawn; k: the k-th perturbation */
  lk_transform pose;      /* palm frame in the object frame; its rotation
                             is exactly lk_q_to_mat3(q) */
  lk_quat q;
  lk_vec3 approach;       /* unit, object frame: from the object towards
                             the palm (the palm's +z) */
  double roll, standoff;  /* the draw's roll angle (rad) and standoff (m) */
  lk_vec3 center;         /* the point the grasp is aimed at (object frame):
                             the centre of mass (uniform), the surface point
                             (surface), the jaws' mid-point (antipodal) */
  lk_vec3 surface_point, surface_normal; /* surface and antipodal draws */
} lk_grasp_candidate;

typedef enum {
  LK_SAMPLE_AUTO = 0,   /* antipodal for a parallel-jaw hand, else surface */
  LK_SAMPLE_UNIFORM,    /* approach from a direction uniform on the sphere,
                           aimed at the centre of mass, roll uniform, at a
                           standoff uniform in the range */
  LK_SAMPLE_SURFACE,    /* approach along the inward normal of a surface
                           point drawn by area, roll uniform, palm at the
                           standoff from that point */
  LK_SAMPLE_ANTIPODAL,  /* parallel jaws: the closing axis along a surface
                           point's normal, the jaws centred on the object's
                           width there, approach uniform around that axis */
} lk_grasp_sample_kind;

const char *lk_grasp_sample_kind_name(lk_grasp_sample_kind k);
int lk_grasp_sample_kind_from_name(const char *name); /* -1 when unknown */

typedef struct {
  lk_grasp_sample_kind kind; /* default AUTO */
  uint64_t seed;             /* default 1 */
  double standoff_min, standoff_max; /* m; < 0 (default): 0.5 to 1.0 times
                                        the fingers' reach (uniform and
                                        surface draws) */
} lk_grasp_sample_options;

void lk_grasp_sample_options_default(lk_grasp_sample_options *o);

/* A scene's sampler: the object's surface (its solid geoms by area, a
 * mesh geom by its hull's faces),
 * the jaws' closing axis; read-only once made (threads may draw at once). */
typedef struct lk_grasp_sampler lk_grasp_sampler;

lk_grasp_sampler *lk_grasp_sampler_new(const lk_grasp_scene *s, const lk_grasp_sample_options *o,
                                       lk_error *err);
void lk_grasp_sampler_free(lk_grasp_sampler *sp);
/* The kind it draws (AUTO resolved). */
lk_grasp_sample_kind lk_grasp_sampler_kind(const lk_grasp_sampler *sp);
/* Candidate `index` (>= 0). */
lk_status lk_grasp_sampler_draw(const lk_grasp_sampler *sp, int index, lk_grasp_candidate *c,
                                lk_error *err);
/* The round-th (>= 1) perturbation of a candidate, for local refinement:
 * turned about its centre by up to `rotation` rad about a random axis and
 * shifted by up to `translation` m in a random direction, from the stream
 * (seed, index, round): the same for the same arguments. */
lk_status lk_grasp_candidate_perturb(const lk_grasp_sampler *sp, const lk_grasp_candidate *in,
                                     int round, double translation, double rotation,
                                     lk_grasp_candidate *out, lk_error *err);

/* ------------------------------------------------- analytic screening */

/* Screening a candidate without dynamics (GraspIt's "auto grasp", Miller
 * and Allen 2004): the hand placed at the pose, the fingers closed
 * kinematically onto the object, which does not move, and the contacts
 * they make analysed (force closure, epsilon). Each finger's actuated
 * joints close together at unit rate (rad or m per unit) in their closing
 * direction (lk_grasp_finger.closing); when a link of the finger touches
 * the object, the joints at and above that link stop and the ones below it
 * close on (a finger curls around the object); a joint also stops at the
 * limit it closes towards. Closing is
 * conservative advancement on the collision layer's separation (a lower
 * bound of the distance, so a step never passes through the object) with
 * a secant step once the separation shrinks steadily, bracketed by
 * regula falsi should one overshoot: a finger stops within `tolerance` of
 * the surface. Fingers close independently (they may meet each other). */
typedef struct {
  double tolerance;        /* m; a finger stops when its separation from the
                              object is at most this; default 1e-10 */
  double contact_distance; /* m; finger-object points this close or closer
                              are the grasp's contacts; default 1e-7 */
  int max_evaluations;     /* separation evaluations per finger; default 200 */
  int quality;             /* 1 (default): the epsilon of the grasps in force
                              closure (lk_grasp_epsilon); 0: closure only */
  /* 1 (default): jaws coupled to each other (a joint of one finger that
   * follows another finger's through a coupling: a URDF mimic jaw, the
   * Panda hand's joint equality) centre the object between them: when one
   * touches first, it stays and the other closes on alone, as the coupled
   * jaws push the object (or the arm gives way) until both touch; the
   * screened q then need not keep the coupling. 0: they stop together
   * where the first touches (the object held where it is). */
  int centre_coupled;
  /* Analysis options; center and torque_scale are set from the object
   * (its centre of mass and radius), as in the trials. */
  lk_grasp_options analysis;
  /* Loads the grasp must carry (e.g. lk_grasp_trial_loads: the trial's
   * weight, lift and shake), copied by lk_grasp_screener_new; at most
   * LK_GRASP_SCREEN_MAX_LOADS. A closed grasp's report then gives
   * load_force (lk_grasp_load_force). NULL / 0 (default): none. */
  const lk_force *loads;
  int nloads;
} lk_grasp_screen_options;

#define LK_GRASP_SCREEN_MAX_LOADS 16

void lk_grasp_screen_options_default(lk_grasp_screen_options *o);

typedef enum {
  LK_SCREEN_CLOSED = 0,   /* the closed fingers hold it in force closure */
  LK_SCREEN_COLLISION,    /* the hand overlaps the object where it is placed */
  LK_SCREEN_NO_CONTACT,   /* no finger reached the object */
  LK_SCREEN_NOT_CLOSED,   /* contacts, but not in force closure */
} lk_screen_outcome;

/* "closed", "collision", "no contact", "not closed". */
const char *lk_grasp_screen_outcome_name(lk_screen_outcome o);
/* Deprecated (issue 33), kept for the 0.1 series: the same. */
const char *lk_screen_outcome_name(lk_screen_outcome o);

typedef struct {
  lk_screen_outcome outcome;
  int fingers_in_contact;
  int ncontacts;            /* contacts found */
  double q[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS]; /* the finger
                               joints as closed, in the scene's order */
  double gap[LK_GRASP_MAX_FINGERS]; /* each finger's final separation from
                               the object, m (<= tolerance when it touches;
                               INFINITY when it never came within reach) */
  lk_grasp_closure reason;  /* from lk_grasp_force_closure */
  int force_closure;
  double epsilon;           /* 0 unless closed and options.quality */
  int epsilon_qhull;        /* 1: epsilon needed qhull (degenerate input) */
  int closure_by_hull;      /* 1: the force-closure LP could not be trusted
                               (nearly dependent wrenches), so closure was
                               decided by the hull: epsilon > 0 */
  int evaluations;          /* separation evaluations, all fingers */
  double load_force;        /* closed, with options.loads: the normal force
                               each finger must press with for the grasp to
                               carry every load (lk_grasp_load_force), N;
                               INFINITY when one cannot be carried; 0
                               otherwise */
  int load_worst;           /* the load that needs it (-1: none) */
} lk_grasp_screen_report;

/* What screening needs of a scene, computed once (the finger and object
 * geoms, the pairs that may touch, joint limits); read-only afterwards, so
 * any number of threads may screen with one, each with its own data. */
typedef struct lk_grasp_screener lk_grasp_screener;

lk_grasp_screener *lk_grasp_screener_new(const lk_grasp_scene *s,
                                         const lk_grasp_screen_options *o, lk_error *err);
void lk_grasp_screener_free(lk_grasp_screener *sc);

/* Screen one candidate: the palm at hand_pose (in the object's starting
 * frame, as lk_grasp_place), the fingers from preshape (NULL:
 * lk_grasp_scene_preshape). d (a data of the scene's model) holds the kinematics: its q is
 * overwritten, nothing else of it is used. The contacts (at most cap of
 * them, into contacts) are in the world frame, normals into the object,
 * finger groups set; with more contacts than cap, LK_CAPACITY_EXCEEDED
 * (r->ncontacts says how many) and no analysis. Allocates nothing but
 * what the analysis does (the force closure LP, qhull). Deterministic. */
lk_status lk_grasp_screen(const lk_grasp_screener *sc, lk_data *d, const lk_transform *hand_pose,
                          const double *preshape, lk_grasp_screen_report *r,
                          lk_grasp_contact *contacts, int cap, lk_error *err);

#ifdef __cplusplus
}
#endif

#endif
