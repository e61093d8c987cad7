/* The mechanism model: links, joints, inertias, geoms, materials, options.
 *
 * An lk_model is built once with the builder calls below, validated by
 * lk_model_finalize(), and from then on used read-only (const lk_model *),
 * also from several threads at once. Everything that changes while a
 * mechanism moves lives in an lk_data (linkage/data.h).
 *
 * Links may be added in any order, each naming its parent ("world" or NULL
 * for the world). Finalize orders them so that a parent always comes before
 * its children (siblings keep the order in which they were added); link 0 is
 * the world. Every link other than the world has exactly one joint to its
 * parent; its index is the link's index.
 *
 * Frames: a link's origin (lk_link_spec.origin) is the pose of its joint
 * frame in the parent link's frame at q = 0. The joint moves the link frame
 * relative to that joint frame:
 *   fixed      no motion                                  nq 0, nv 0
 *   revolute   rotation q about axis                       nq 1, nv 1
 *   prismatic  translation q along axis                    nq 1, nv 1
 *   ball       rotation by the unit quaternion q (w,x,y,z) nq 4, nv 3
 *   free       translation q[0..2] then rotation q[3..6]   nq 7, nv 6
 * For ball and free joints the velocity is expressed in the joint frame
 * (the parent side, which is the world for a root link): free v[0..2] is the
 * velocity of the link origin, v[3..5] (ball v[0..2]) the angular velocity,
 * both in joint-frame coordinates. So q' = v for the translation and
 * quat' = 1/2 [0, omega] * quat.
 *
 * Units are SI throughout: m, kg, s, rad, N, N m. */
#ifndef LINKAGE_MODEL_H
#define LINKAGE_MODEL_H

#include <stddef.h>

#include "linkage/error.h"
#include "linkage/math.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lk_model lk_model;

typedef enum {
  LK_JOINT_FIXED = 0,
  LK_JOINT_REVOLUTE,
  LK_JOINT_PRISMATIC,
  LK_JOINT_BALL,
  LK_JOINT_FREE,
  LK_JOINT_TYPE_COUNT
} lk_joint_type;

/* "fixed", "revolute", ...; NULL for an invalid value. */
const char *lk_joint_type_name(lk_joint_type t);
/* The inverse; returns -1 for an unknown name. */
int lk_joint_type_from_name(const char *name);
/* Position and velocity dimensions of a joint type. */
int lk_joint_type_nq(lk_joint_type t);
int lk_joint_type_nv(lk_joint_type t);

typedef struct {
  const char *name;   /* joint name; NULL or "": the link's name */
  lk_joint_type type; /* default LK_JOINT_FIXED */
  lk_vec3 axis;       /* revolute/prismatic axis in the joint frame (normalized
                         at finalize; must not be zero); default +z */
  int limited;        /* 1: lower <= q <= upper is enforced by the constraint
                         layer (1-DoF joints; ball: cone angle upper) */
  double lower, upper;
  double damping;   /* viscous, per DoF: N m s/rad or N s/m */
  double stiffness; /* spring, per DoF: N m/rad or N/m (ball and free: on the
                       rotation vector of the joint rotation) */
  double rest;      /* spring rest position of a 1-DoF joint */
  double armature;  /* rotor inertia added to the diagonal of M, per DoF */
  double friction;  /* dry-friction torque/force bound, per DoF (constraint
                       layer) */
} lk_joint_spec;

typedef struct {
  const char *name;    /* unique; not "world" */
  const char *parent;  /* parent link's name; NULL or "world" for the world */
  lk_transform origin; /* joint frame in the parent link frame at q = 0 */
  lk_joint_spec joint;
  double mass;     /* kg; > 0 for a link with a moving joint; a link on a
                      fixed joint may be massless (a frame) */
  lk_vec3 com;     /* centre of mass in the link frame */
  lk_mat3 inertia; /* rotational inertia about the centre of mass, in link
                      frame axes; symmetric positive definite, principal
                      moments obeying the triangle inequality */
} lk_link_spec;

/* Defaults: no name, world parent, identity origin, fixed joint with axis +z,
 * no limits, mass 0, zero inertia. */
void lk_link_spec_default(lk_link_spec *s);

typedef enum {
  LK_GEOM_PLANE = 0, /* half-space below the plane z = 0 of its frame (normal
                        +z); on the world or a link */
  LK_GEOM_SPHERE,    /* size[0] = radius */
  LK_GEOM_CAPSULE,   /* size[0] = radius, size[1] = half length along z */
  LK_GEOM_BOX,       /* size[0..2] = half extents */
  LK_GEOM_CYLINDER,  /* size[0] = radius, size[1] = half length along z */
  LK_GEOM_MESH,      /* the convex hull of a vertex set (lk_geom_spec.mesh);
                        size unused */
  LK_GEOM_TYPE_COUNT
} lk_geom_type;

const char *lk_geom_type_name(lk_geom_type t);
int lk_geom_type_from_name(const char *name);

/* ------------------------------------------------------------ meshes
 *
 * A mesh geom's shape is the convex hull of its vertices (computed with
 * qhull), in the geom's frame: coplanar triangles are merged into polygon
 * faces. A non-convex object is several mesh geoms on one link (a
 * pre-decomposed object). Its solid, for mass properties, is the hull too.
 * An lk_mesh is immutable once made; lk_model_add_geom copies it, so the
 * caller frees its own. */
typedef struct lk_mesh lk_mesh;

typedef struct {
  const double *vertices; /* count x 3, row-major (x, y, z) */
  int count;              /* >= 4, spanning a volume */
  double scale[3];        /* per-axis factors applied to every vertex (> 0);
                             lk_mesh_spec_default: 1, 1, 1 */
  /* Optional: the surface the vertices come from, ntriangles x 3 vertex
   * indices (0 .. count - 1), counter-clockwise seen from outside. Kept
   * with the hull (scaled vertices and triangles, lk_mesh_surface) for
   * drawing and for lk_mesh_decompose; the shape stays the hull. */
  const int *triangles;
  int ntriangles;
} lk_mesh_spec;

void lk_mesh_spec_default(lk_mesh_spec *s);
/* The hull of the scaled vertices. Errors: NULL or non-finite values,
 * scale <= 0, fewer than 4 vertices, all of them on a plane (no volume),
 * qhull failing; LK_OUT_OF_MEMORY. */
lk_status lk_mesh_new(const lk_mesh_spec *s, lk_mesh **out, lk_error *err);
lk_mesh *lk_mesh_copy(const lk_mesh *m);
void lk_mesh_free(lk_mesh *m);
/* Hull vertices (x, y, z each, in the geom frame), their count. */
int lk_mesh_nvertex(const lk_mesh *m);
const double *lk_mesh_vertices(const lk_mesh *m);
/* Hull faces (polygons) and how many input vertices the hull was made of. */
int lk_mesh_nface(const lk_mesh *m);
int lk_mesh_ninput(const lk_mesh *m);
/* The surface given with the vertices (lk_mesh_spec.triangles): its
 * vertices (all input vertices, scaled, 3 doubles each) in *vertices and
 * their count in *nvertex, its triangles in *triangles; returns the
 * number of triangles, 0 when the mesh was made without a surface. */
int lk_mesh_surface(const lk_mesh *m, const double **vertices, int *nvertex,
                    const int **triangles);
/* Face f's vertex indices, counter-clockwise seen from outside, in idx
 * (at most max); returns the face's vertex count (-1: bad f). */
int lk_mesh_face(const lk_mesh *m, int f, int *idx, int max);
/* The solid hull's volume, centroid and rotational inertia about the
 * centroid for a uniform density of 1 (multiply by the density, or by
 * mass / volume), in the geom frame (volume integrals over the faces). */
double lk_mesh_volume(const lk_mesh *m);
lk_vec3 lk_mesh_centroid(const lk_mesh *m);
lk_mat3 lk_mesh_inertia(const lk_mesh *m);
/* The largest distance of a vertex from the geom frame's origin, and the
 * local bounding box. */
double lk_mesh_radius(const lk_mesh *m);
void lk_mesh_bounds(const lk_mesh *m, lk_vec3 *lo, lk_vec3 *hi);

/* Approximate convex decomposition of a mesh's surface (a closed,
 * outward-oriented triangle surface: lk_mesh_spec.triangles, as a mesh
 * file gives it) into convex parts, each the hull of a piece of the solid
 * (lib/model/decompose.c): the solid is cut by planes, one piece at a
 * time, the piece whose hull exceeds it most first, each cut the plane
 * that makes the two halves' hulls smallest, until the parts' hulls exceed
 * the solid by at most max_excess of its volume or there are max_parts
 * parts. Pieces lie in disjoint convex cells, so their hulls do not
 * overlap. Deterministic. A convex surface gives one part. */
typedef struct {
  int max_parts;     /* at most this many parts (>= 1); default 16 */
  double max_excess; /* stop when sum(part hull volumes) - volume <=
                        max_excess * volume; default 0.01 */
  int planes;        /* candidate planes across a piece per direction in the
                        first search (>= 1; refined around the best);
                        default 15 */
  int diagonals;     /* also cut along the six diagonal directions of
                        the coordinate planes, not only the 3 axes;
                        default 1 */
} lk_mesh_decompose_options;

void lk_mesh_decompose_options_default(lk_mesh_decompose_options *o);

typedef struct {
  double volume;       /* the surface's own volume */
  double hull_volume;  /* its convex hull's (the one part it would be) */
  double parts_volume; /* the sum of the parts' hulls' volumes */
  int nparts;
  int cuts;            /* pieces cut in two */
  int hulls;           /* hulls computed (the work done) */
} lk_mesh_decompose_report;

/* The parts of m's surface as new meshes in *parts (an array of *nparts,
 * freed with lk_mesh_parts_free): convex hulls, each with the piece of
 * m's surface inside it as its surface (for drawing: together they are
 * m's surface, cut along the planes); r (may be NULL) filled. Errors: NULL arguments, bad options, a mesh without a
 * surface, a surface that is not closed or encloses no volume
 * (LK_INVALID_ARGUMENT), LK_OUT_OF_MEMORY. */
lk_status lk_mesh_decompose(const lk_mesh *m, const lk_mesh_decompose_options *o,
                            lk_mesh ***parts, int *nparts, lk_mesh_decompose_report *r,
                            lk_error *err);
void lk_mesh_parts_free(lk_mesh **parts, int n);

/* Inertia of a solid primitive of the given mass, about its centre (which
 * is its frame origin), in its own frame. Planes have none. */
lk_status lk_geom_solid_inertia(lk_geom_type type, const double size[3], double mass,
                                lk_mat3 *inertia, lk_error *err);

typedef struct {
  const char *name;     /* optional, unique when given */
  const char *link;     /* NULL or "world": the world */
  lk_geom_type type;
  double size[3];       /* per type, see lk_geom_type */
  lk_transform pose;    /* in the link frame */
  const char *material; /* material name; NULL: the default material */
  unsigned group;       /* collision filtering: a pair collides iff       */
  unsigned mask;        /* (a.group & b.mask) && (b.group & a.mask); both 1 */
  int collide_parent;   /* also collide with the parent link's geoms */
  double margin;        /* contacts are reported from this gap on (m, >= 0;
                           a pair uses the larger of its two margins); they
                           have negative depth until the shapes touch and
                           are speculative (docs/contact.md); NAN (the
                           default): the options' contact_margin */
  const lk_mesh *mesh;  /* LK_GEOM_MESH: the shape (copied by
                           lk_model_add_geom); NULL for other types */
} lk_geom_spec;

void lk_geom_spec_default(lk_geom_spec *s);

/* How a material's contacts are resolved. */
typedef enum {
  LK_CONTACT_RIGID = 0,  /* complementarity rows (the LCP) */
  LK_CONTACT_COMPLIANT,  /* force laws: normal spring-dashpot, tangential
                            history model (LAMMPS pair granular) */
} lk_contact_model;

typedef enum { LK_NORMAL_HOOKE = 0, LK_NORMAL_HERTZ } lk_normal_model;

/* Tangential force laws of compliant contacts (LAMMPS granular
 * tangential models; Luding 2008; Thornton 2013). The /static variants
 * track a static/dynamic state: critical force mu_static F_n while static,
 * mu_dynamic F_n while dynamic. The others use mu_static. */
typedef enum {
  LK_TANGENTIAL_LINEAR_HISTORY = 0,  /* spring k_t on the accumulated slip */
  LK_TANGENTIAL_LINEAR_NOHISTORY,    /* viscous only, capped by Coulomb */
  LK_TANGENTIAL_MINDLIN,             /* spring k_t a, a = sqrt(R delta) */
  LK_TANGENTIAL_MINDLIN_FORCE,       /* history of the elastic force */
  LK_TANGENTIAL_LINEAR_HISTORY_STATIC,
  LK_TANGENTIAL_MINDLIN_STATIC,
  LK_TANGENTIAL_COUNT
} lk_tangential_model;

/* "linear_history", "linear_nohistory", "mindlin", "mindlin/force",
 * "linear_history/static", "mindlin/static"; NULL / -1 when unknown. */
const char *lk_tangential_model_name(lk_tangential_model t);
int lk_tangential_model_from_name(const char *name);

typedef struct {
  const char *name;    /* unique */
  double mu_static;    /* Coulomb coefficient that a sticking contact uses */
  double mu_dynamic;   /* coefficient of a sliding contact (<= mu_static) */
  double restitution;  /* Newton restitution of normal velocity, 0..1 */
  double mu_rolling;   /* rolling resistance: |tau_roll| <= mu_rolling r_p f_n */
  double mu_torsional; /* torsion: |tau_twist| <= mu_torsional r_p f_n */
  double patch_radius; /* contact patch radius r_p (m) */

  /* Compliant contact (docs/contact-models.md): a geometry contact whose
   * pair has a compliant material gets force laws instead of
   * complementarity rows. When both materials are compliant the numbers
   * are mixed (friction_mix) and the models are geom a's. */
  lk_contact_model contact;      /* default rigid (complementarity) */
  lk_normal_model normal;        /* hooke (default) or hertz */
  double k_n;       /* hooke: F_n = k_n delta (N/m); hertz: F_n = k_n a delta,
                       a = sqrt(R delta) (Pa); > 0 when compliant */
  double damping;   /* normal damping eta_n: F_damp = -eta_n v_n (N s/m) */
  lk_tangential_model tangential; /* default linear_history */
  double k_t;       /* linear_history: N/m; mindlin*: k_t a (Pa) */
  double x_gamma_t; /* tangential damping eta_t = x_gamma_t eta_n */
} lk_material_spec;

/* Defaults: name NULL, mu_static 0.5, mu_dynamic 0.5, rigid contact,
 * everything else 0. */
void lk_material_spec_default(lk_material_spec *s);

typedef enum {
  LK_INTEGRATOR_EULER = 0, /* semi-implicit (symplectic) Euler on the manifold */
  LK_INTEGRATOR_RK4,       /* classical Runge-Kutta, contact-free accuracy checks */
} lk_integrator;

/* How the Euler step evaluates the velocity-product forces (Coriolis,
 * centripetal, gyroscopic) in the free velocity. */
typedef enum {
  LK_VELOCITY_FORCES_MIDPOINT = 0, /* at (v + v*)/2, solved by fixed-point
                                      iteration: implicit, no energy gain
                                      from spin (default) */
  LK_VELOCITY_FORCES_EXPLICIT,     /* at v, the start of the step */
} lk_velocity_forces;

/* How the impacts of one step are resolved (docs/contact.md "Impacts"). */
typedef enum {
  LK_IMPACTS_SIMULTANEOUS = 0, /* every contact of the step in one LCP, each
                                  impact's restitution target on its own
                                  row (default) */
  LK_IMPACTS_PROPAGATING,      /* Newton's law contact by contact, in
                                  turn, until no contact approaches:
                                  an impact passes through touching bodies
                                  (Newton's cradle); then the step's LCP */
} lk_impacts;

typedef enum { LK_SOLVER_LEMKE = 0, LK_SOLVER_DANTZIG } lk_solver_kind;

typedef enum {
  LK_CONE_CIRCLE = 0, /* isotropic Coulomb disk (exact) */
  LK_CONE_PYRAMID,    /* cone_edges directions (Stewart-Trinkle) */
  LK_CONE_BOX,        /* independent clamps on two tangents */
} lk_cone;

typedef enum {
  LK_MIX_GEOMETRIC = 0, /* sqrt(a b) */
  LK_MIX_MIN,
  LK_MIX_MAX,
  LK_MIX_MEAN,
} lk_mix_rule;

/* Two materials' coefficient a and b combined by rule, as the simulator
 * mixes a contact's (an unknown rule: the geometric mean, the default). */
double lk_mix_rule_apply(lk_mix_rule rule, double a, double b);

typedef enum {
  LK_FRICTION_COMPLEMENTARITY = 0, /* Coulomb's law as LCP rows (default) */
  LK_FRICTION_SMOOTHED,            /* mollified Coulomb (IPC's f1, eps_v) with
                                      the normal force lagged, fixed-point
                                      iterations inside the step */
} lk_friction_law;

/* Which pairs of geoms collide, from their group and mask (after the
 * parent-child and exclusion rules). */
typedef enum {
  LK_FILTER_BOTH = 0, /* (a.group & b.mask) && (b.group & a.mask) (default) */
  LK_FILTER_EITHER,   /* (a.group & b.mask) || (b.group & a.mask): MuJoCo's
                         contype/conaffinity rule (the MJCF reader's) */
} lk_filter_rule;

typedef struct {
  double timestep;         /* s, > 0; default 0.001 */
  lk_vec3 gravity;         /* m/s^2; default (0, 0, -9.81) */
  lk_integrator integrator;
  lk_velocity_forces velocity_forces; /* euler: default midpoint */
  lk_solver_kind solver;   /* contact LCP solver; default Dantzig (symmetric
                              boxed form; Lemke takes what it cannot) */
  lk_cone friction_cone;   /* default circle */
  int cone_edges;          /* pyramid edges, >= 3; default 8 */
  lk_mix_rule friction_mix;/* how two materials' coefficients combine */
  lk_filter_rule collision_filter; /* how geoms' group and mask combine */
  int max_contacts;        /* contact capacity of each lk_data, a limit
                              (a step finding more fails, its report naming
                              this option); 0 (default): starts at 16 + 16
                              a box or cylinder + 8 any other geom and
                              grows as steps find more (linkage/sim.h) */

  /* Contact and constraint solving (linkage/sim.h). */
  double contact_erp;       /* share of the penetration beyond tolerance
                               removed per step, (0, 1]; default 0.2 */
  double contact_tolerance; /* geometry contacts: penetration left alone
                               (no correction, no energy gain), m; 1e-4 */
  double max_depenetration_speed; /* the largest separating speed that
                               position correction (contact_erp) gives a
                               contact, m/s, > 0: a body sunk into another
                               rises no faster, so it gains at most
                               m v^2 / 2 of kinetic energy; 0.2 */
  double contact_margin;    /* geometry contacts are found from this gap
                               on (speculative until they touch), m, >= 0;
                               the margin of a geom that sets none; 0.01 */
  double restitution_threshold; /* impacts slower than this are plastic,
                                   m/s; default 0.2 */
  lk_impacts impacts;       /* simultaneous (default) or propagating */
  int anchor_contacts;      /* 1 (default): static contacts are anchored
                               where they stuck, their offsets taken back
                               by a projection of the positions after the
                               step (no creep on turning frames;
                               docs/contact.md); 0: not (the plain sticking
                               rows: a contact on a turning body creeps by
                               r (h w)^2 / 2 a step) */
  double slip_threshold;    /* a sliding contact becomes static again when
                               its slip speed falls below this, m/s; 1e-4 */
  int friction_iterations;  /* circle cone: tangent-basis re-alignment
                               passes per step, >= 1; default 24 */
  double constraint_erp;    /* drift correction of limits, loops, couplings
                               and tethers per step, (0, 1]; default 0.2 */
  int projection_iterations;/* position projection passes of loops and
                               couplings after each step, >= 0; default 3 */
  double cfm;               /* added to the Delassus diagonal (regularizes
                               redundant contacts), >= 0; default 0 */
  int island_strategy;      /* 0 (default): the island planner decides
                               (docs/contact.md); else an lk_island_strategy
                               (sim.h) tried first on every dense island where
                               it applies -- GUESS (impulses in hand),
                               STICKING, HELD, LCP or NSGS -- its own ladder
                               then as usual: to compare the strategies */
  int max_island_rows;      /* rows of an island solved dense (pivoting);
                               0 (default): 192, and larger islands are
                               solved sparse by NSGS without limit; set,
                               it is also a limit: a larger island fails
                               the step (LK_CAPACITY_EXCEEDED, the step
                               report's detail naming this option) */

  /* Tactile slip sensing (lk_data_tactile). */
  double slip_speed_threshold;  /* m/s scale of the slip score; 1e-3 */
  double utilization_threshold; /* utilization scale of the score; 1.0 */
  double slip_filter_tau;       /* low-pass time constant, s; 0.02 */
  double slip_on, slip_off;     /* flag hysteresis; 1.0 and 0.58 */

  /* Friction law of the rigid contacts (docs/contact-models.md). */
  lk_friction_law friction_law; /* default complementarity */
  double friction_eps_v;   /* smoothed: slip speed below which friction
                              grows smoothly from 0, m/s, > 0; 1e-3 */
  int smoothing_iterations;/* smoothed: fixed-point passes per step, >= 1;
                              default 8 */
} lk_options;

void lk_options_default(lk_options *o);

/* ------------------------------------------- actuators, loads, contacts,
 * and constraints between links (all referenced by name, resolved and
 * checked at finalize). */

typedef enum {
  LK_ACTUATOR_EFFORT = 0, /* tau = target (or the schedule at time t) */
  LK_ACTUATOR_POSITION,   /* PD servo: tau = kp (target - q) - kv v;
                             target the schedule at t when given */
  LK_ACTUATOR_VELOCITY,   /* tau = kv (target - v) */
  LK_ACTUATOR_PRESCRIBED_POSITION, /* the joint is at the target (the
                             schedule) at the end of every step, exactly,
                             whatever the load: a constraint whose
                             reaction is the actuator's force, bounded by
                             max_effort */
  LK_ACTUATOR_PRESCRIBED_VELOCITY, /* ... moves at the target velocity */
  LK_ACTUATOR_TYPE_COUNT
} lk_actuator_type;

typedef struct {
  const char *name;  /* unique; NULL or "": the joint's name */
  const char *joint; /* a revolute or prismatic joint */
  lk_actuator_type type;
  double kp, kv;      /* gains (N m/rad, N m s/rad; or N/m, N s/m) */
  double target;      /* initial target: effort, position or velocity */
  double max_effort;  /* |tau| is clamped to this; INFINITY: unlimited */
  /* Schedule: piecewise-linear in time through (t_k, value_k), held
   * constant outside; times strictly increasing. NULL: constant `target`.
   * The value is the effort of an effort actuator and the target of a
   * position or velocity servo (its target at time t; `target` is then
   * unused). */
  const double *schedule_t, *schedule_effort;
  int nschedule;
} lk_actuator_spec;

/* Defaults: effort type, gains 0, target 0, max_effort INFINITY. */
void lk_actuator_spec_default(lk_actuator_spec *s);
const char *lk_actuator_type_name(lk_actuator_type t);
int lk_actuator_type_from_name(const char *name);

typedef enum { LK_FRAME_WORLD = 0, LK_FRAME_LINK } lk_frame;

typedef struct {
  const char *name;     /* optional */
  const char *link;
  lk_vec3 point;        /* application point, fixed on the link (link coords) */
  lk_vec3 force;        /* N, in `frame` coordinates */
  lk_vec3 torque;       /* N m, in `frame` coordinates */
  lk_frame frame;
  double start, end;    /* active for start <= t < end (s); end may be INFINITY */
} lk_load_spec;

/* Defaults: zero force/torque/point, world frame, active from 0 forever. */
void lk_load_spec_default(lk_load_spec *s);

typedef enum {
  LK_CONTACT_FRICTION = 0, /* point contact: normal + Coulomb friction */
  LK_CONTACT_ROLLING,      /* plus torsional and rolling friction on a patch */
} lk_contact_type;

/* An explicit contact, as a grasp program places one (Darwin2K style): a
 * point on a link against a surface on another link or the world. */
typedef struct {
  const char *name;     /* optional, unique when given */
  lk_contact_type type;
  const char *link;     /* the body that touches */
  lk_vec3 point;        /* contact point on it (link coords) */
  const char *other;    /* the surface's link; NULL or "world" */
  lk_vec3 other_point;  /* a point of the surface (other's coords) */
  lk_vec3 normal;       /* the surface's outward normal (other's coords),
                           pointing towards the touching body */
  double radius;        /* > 0: `point` is the centre of a sphere of this
                           radius on link, and the contact point relocates
                           to its lowest point along -normal every step
                           (a rolling body); 0: a fixed point */
  double tolerance;     /* penetration allowed before correction (m) */
  const char *material; /* NULL: the default material */
  double patch_radius;  /* rolling: < 0 means the material's value */
} lk_contact_spec;

/* Defaults: friction type, world surface with normal +z, tolerance 1e-4,
 * patch_radius -1 (from the material). */
void lk_contact_spec_default(lk_contact_spec *s);

typedef enum {
  LK_LOOP_BALL = 0, /* the two frame origins coincide (3 rows) */
  LK_LOOP_PIN,      /* origins coincide and z axes stay aligned (5 rows) */
  LK_LOOP_RIGID,    /* the two frames coincide (6 rows) */
} lk_loop_type;

/* A bilateral constraint closing a kinematic loop between two links. */
typedef struct {
  const char *name;  /* optional, unique when given */
  lk_loop_type type;
  const char *link_a, *link_b; /* link_b may be "world" */
  lk_transform frame_a;        /* in link a */
  lk_transform frame_b;        /* in link b */
} lk_loop_spec;

void lk_loop_spec_default(lk_loop_spec *s);

/* Two 1-DoF joints moving in a fixed ratio: q_a = ratio q_b + offset. */
typedef struct {
  const char *name;
  const char *joint_a, *joint_b;
  double ratio, offset;
} lk_coupling_spec;

/* A unilateral maximum distance between a point on a link and a point on
 * another link or the world. */
typedef struct {
  const char *name;
  const char *link;
  lk_vec3 point;
  const char *other; /* NULL or "world" */
  lk_vec3 other_point;
  double length;     /* m, > 0 */
} lk_tether_spec;

/* A frictional support with a *given* normal reaction (a pipe resting on
 * a rail): friction of at most mu N opposes the slip, N fixed. On a joint
 * (revolute or prismatic: the bound acts on its DoF, N m or N) or at a
 * point of a link (the friction acts in the plane normal to `normal`, an
 * isotropic disk of radius mu N). Used by lk_static_solve (linkage/
 * statics.h) with a static/sliding state; in lk_step it is a dry-friction
 * bound of mu_static N (a box on two tangents for a point). */
typedef struct {
  const char *name;     /* optional, unique when given */
  const char *joint;    /* a revolute or prismatic joint, or NULL */
  const char *link;     /* else a point on this link (not the world) */
  lk_vec3 point;        /* link coordinates */
  lk_vec3 normal;       /* world: normal of the supporting surface */
  double normal_force;  /* the given normal reaction N, >= 0 */
  double mu_static;     /* bound while sticking */
  double mu_dynamic;    /* bound while sliding (<= mu_static) */
} lk_support_spec;

/* Defaults: no joint, no link, normal +z, N 0, mu 0.5 / 0.5. */
void lk_support_spec_default(lk_support_spec *s);

/* ---------------------------------------------------------------- build */

/* A new, empty model (only the world), or NULL when out of memory. */
lk_model *lk_model_new(void);
void lk_model_free(lk_model *m);

/* Builder calls copy everything they are given (strings too). They check
 * what they can locally (names, finite numbers); cross-references (parents,
 * materials) are checked by lk_model_finalize(). They fail with
 * LK_INVALID_MODEL once the model is finalized. */
lk_status lk_model_add_link(lk_model *m, const lk_link_spec *s, lk_error *err);
lk_status lk_model_add_geom(lk_model *m, const lk_geom_spec *s, lk_error *err);
lk_status lk_model_add_material(lk_model *m, const lk_material_spec *s, lk_error *err);
/* Options may be set after finalize too; then a timestep or gravity that
 * the plausibility checks refuse (docs/format.md, "Physical
 * plausibility") fails with LK_INVALID_MODEL and the options stay. */
lk_status lk_model_set_options(lk_model *m, const lk_options *o, lk_error *err);
/* The name given to the model (a mechanism name); copied. */
lk_status lk_model_set_name(lk_model *m, const char *name, lk_error *err);

lk_status lk_model_add_actuator(lk_model *m, const lk_actuator_spec *s, lk_error *err);
lk_status lk_model_add_load(lk_model *m, const lk_load_spec *s, lk_error *err);
lk_status lk_model_add_contact(lk_model *m, const lk_contact_spec *s, lk_error *err);
lk_status lk_model_add_loop(lk_model *m, const lk_loop_spec *s, lk_error *err);
/* The geoms of links a and b (by name; "world" allowed) never collide with
 * each other (MJCF's <contact><exclude>; also what a reader uses for
 * MuJoCo's parent-child rule across the massless links of a multi-joint
 * body). Links welded to a or b by fixed joints count as a or b. */
lk_status lk_model_add_exclude(lk_model *m, const char *link_a, const char *link_b,
                               lk_error *err);
int lk_model_nexclude(const lk_model *m);
/* A pair of geoms (by name) that collides whatever their group and mask,
 * the exclusions and the parent-child rule say (MJCF's <contact><pair>),
 * its contacts with the coefficients of `material` (by name, unmixed;
 * NULL: the geoms' materials mixed as usual). */
typedef struct {
  const char *geom_a, *geom_b;
  const char *material;
} lk_geom_pair_spec;
lk_status lk_model_add_geom_pair(lk_model *m, const lk_geom_pair_spec *s, lk_error *err);
int lk_model_ngeom_pair(const lk_model *m);
/* Geom pair i's geoms and material (indices; material -1: mixed), after
 * finalize. */
lk_status lk_model_geom_pair(const lk_model *m, int i, int *geom_a, int *geom_b, int *material);
/* The material of geom pair (a, b) when a <pair> names them (either
 * order), else -1. */
int lk_model_geom_pair_material(const lk_model *m, int geom_a, int geom_b);
/* 1 when a geom pair names geoms a and b (either order). */
int lk_model_is_geom_pair(const lk_model *m, int geom_a, int geom_b);

/* A named output of the state (MJCF's <sensor>): read with
 * lk_data_sensor, written as trajectory columns (linkage/io.h,
 * LK_COLUMNS_SENSORS). */
typedef enum {
  LK_SENSOR_JOINTPOS = 0, /* a 1-DoF joint's q (rad or m) */
  LK_SENSOR_JOINTVEL,     /* its v */
  LK_SENSOR_FRAMEPOS,     /* the world position of `point` on `link` (m) */
  LK_SENSOR_TOUCH,        /* the normal force on `link` (lk_data_tactile's,
                             of the last step; N) */
  LK_SENSOR_TYPE_COUNT
} lk_sensor_type;

typedef struct {
  const char *name;  /* unique, required */
  lk_sensor_type type;
  const char *joint; /* jointpos, jointvel */
  const char *link;  /* framepos, touch; "world" allowed for framepos */
  lk_vec3 point;     /* framepos: in the link's frame */
} lk_sensor_spec;

lk_status lk_model_add_sensor(lk_model *m, const lk_sensor_spec *s, lk_error *err);
int lk_model_nsensor(const lk_model *m);
lk_status lk_model_sensor(const lk_model *m, int i, lk_sensor_spec *out);
/* Values a sensor of the type gives: 1, or 3 (framepos); 0 for a bad type. */
int lk_sensor_dim(lk_sensor_type t);
/* "jointpos", "jointvel", "framepos", "touch"; NULL for a bad type. */
const char *lk_sensor_type_name(lk_sensor_type t);

/* A named state (MJCF's <keyframe><key>): positions of some joints, by
 * name, nq[i] values each (a free joint 7: x y z and the quaternion w x y
 * z; a ball 4; others 1), one after the other in q; the other joints keep
 * their initial positions. Velocities are zero. */
typedef struct {
  const char *name;
  int njoint;
  const char *const *joints;
  const int *nq;
  const double *q;
} lk_keyframe_spec;

lk_status lk_model_add_keyframe(lk_model *m, const lk_keyframe_spec *s, lk_error *err);
int lk_model_nkeyframe(const lk_model *m);
/* -1 when no keyframe has that name. */
int lk_model_keyframe_index(const lk_model *m, const char *name);
const char *lk_model_keyframe_name(const lk_model *m, int k);
/* Keyframe k's whole q (lk_model_nq values) into q: what it names, the
 * initial positions elsewhere. After finalize. */
lk_status lk_model_keyframe_q(const lk_model *m, int k, double *q);
/* Exclusion i's links (indices; 0 the world), -1 when out of range or
 * before finalize. */
lk_status lk_model_exclude(const lk_model *m, int i, int *link_a, int *link_b);
lk_status lk_model_add_coupling(lk_model *m, const lk_coupling_spec *s, lk_error *err);
lk_status lk_model_add_tether(lk_model *m, const lk_tether_spec *s, lk_error *err);
lk_status lk_model_add_support(lk_model *m, const lk_support_spec *s, lk_error *err);

/* The initial state a new lk_data starts from, for one joint: nq position
 * and nv velocity values (either may be NULL to keep the default: q at the
 * joint's zero, identity quaternions, v = 0). Checked at finalize: finite,
 * unit quaternions, and positions (angles, lengths) of magnitude at most
 * LK_POSITION_MAX, where a double's spacing is 1.2e-10, so that a step's
 * increment v h is not lost to rounding (at 1e17 rad the spacing is 16 and
 * q + v h == q: the joint would freeze while v grew). */
#define LK_POSITION_MAX 1e6
lk_status lk_model_set_initial(lk_model *m, const char *joint, const double *q, int nq,
                               const double *v, int nv, lk_error *err);

/* Validate and freeze. Reports the first problem precisely: unknown parent,
 * cycle, duplicate name, non-positive mass, inertia not positive definite or
 * violating the triangle inequality, zero axis, NaN anywhere, bad geom
 * sizes, unknown materials, bad options. Idempotent once it succeeded. */
lk_status lk_model_finalize(lk_model *m, lk_error *err);
int lk_model_is_finalized(const lk_model *m);

/* ------------------------------------------------------------- queries */
/* Valid after finalize (they return 0 / -1 / NULL before). */

const char *lk_model_name(const lk_model *m);
int lk_model_nq(const lk_model *m);
int lk_model_nv(const lk_model *m);
int lk_model_nlink(const lk_model *m); /* including the world (link 0) */
int lk_model_ngeom(const lk_model *m);
int lk_model_nmaterial(const lk_model *m); /* including the default (index 0) */
const lk_options *lk_model_options(const lk_model *m);

/* Index of a link by name ("world" is 0), or -1. */
int lk_model_link_index(const lk_model *m, const char *name);
/* Index of the link whose joint has this name, or -1. */
int lk_model_joint_index(const lk_model *m, const char *joint_name);
int lk_model_geom_index(const lk_model *m, const char *name);
int lk_model_material_index(const lk_model *m, const char *name);

/* The spec of link i as finalized (names point into the model; the axis is
 * normalized; parent is "world" for root links). Link 0 has no spec. */
lk_status lk_model_link(const lk_model *m, int link, lk_link_spec *out);
int lk_model_link_parent(const lk_model *m, int link); /* -1 for the world */
const char *lk_model_link_name(const lk_model *m, int link);
const char *lk_model_joint_name(const lk_model *m, int link);
lk_joint_type lk_model_joint_type(const lk_model *m, int link);
int lk_model_joint_qadr(const lk_model *m, int link); /* first index in q */
int lk_model_joint_vadr(const lk_model *m, int link); /* first index in v */
int lk_model_joint_nq(const lk_model *m, int link);
int lk_model_joint_nv(const lk_model *m, int link);
/* The link owning velocity DoF k. */
int lk_model_dof_link(const lk_model *m, int dof);

lk_status lk_model_geom(const lk_model *m, int geom, lk_geom_spec *out);
/* A geom's label for files and reports: its name, or "<link>#<k>" for
 * the k-th (from 0, in the model's geom order) geom of its link without a
 * name ("world#0" for the first world geom). Into buf; NULL for a bad
 * index. */
const char *lk_model_geom_label(const lk_model *m, int geom, char *buf, size_t size);
int lk_model_geom_link(const lk_model *m, int geom);
lk_status lk_model_material(const lk_model *m, int material, lk_material_spec *out);
int lk_model_geom_material(const lk_model *m, int geom);

int lk_model_nactuator(const lk_model *m);
int lk_model_nload(const lk_model *m);
int lk_model_ncontact(const lk_model *m); /* explicit contacts */
int lk_model_nloop(const lk_model *m);
int lk_model_ncoupling(const lk_model *m);
int lk_model_ntether(const lk_model *m);
int lk_model_nsupport(const lk_model *m);
int lk_model_support_index(const lk_model *m, const char *name);
lk_status lk_model_support(const lk_model *m, int i, lk_support_spec *out);

/* Warnings of finalize: things that are allowed but probably not meant
 * (a /static tangential model whose mu_dynamic is not below mu_static).
 * The library never prints; programs may. NULL past the last. */
int lk_model_nwarnings(const lk_model *m);
const char *lk_model_warning(const lk_model *m, int i);
int lk_model_actuator_index(const lk_model *m, const char *name);
/* Specs as finalized (strings point into the model). */
lk_status lk_model_actuator(const lk_model *m, int i, lk_actuator_spec *out);
/* Load spec i (an applied force or torque, lk_model_add_load); named
 * _spec so that it is not mistaken for reading a file, which is
 * lk_model_load_file() in linkage/io.h. */
lk_status lk_model_load_spec(const lk_model *m, int i, lk_load_spec *out);
lk_status lk_model_contact(const lk_model *m, int i, lk_contact_spec *out);
lk_status lk_model_loop(const lk_model *m, int i, lk_loop_spec *out);
lk_status lk_model_coupling(const lk_model *m, int i, lk_coupling_spec *out);
lk_status lk_model_tether(const lk_model *m, int i, lk_tether_spec *out);

/* Total mass of the mechanism (world excluded). */
double lk_model_total_mass(const lk_model *m);

/* The reference configuration (every joint at zero, identity quaternions)
 * and the initial state; each array has nq (resp. nv) entries. */
void lk_model_q_neutral(const lk_model *m, double *q);
void lk_model_initial_state(const lk_model *m, double *q, double *v);

#ifdef __cplusplus
}
#endif

#endif
