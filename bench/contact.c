/* bench/contact: time per contact step (lk_step, which includes collision)
 * on four scenes with geometry contacts, for every solver and friction
 * cone, and, when configure found ODE, the same scenes stepped by ODE's
 * dWorldStep in the same process, with the ratio ours / ODE.
 *
 * Scenes (SI units; time step 1 ms, g = 9.81, wood mu_s 0.5 / mu_d 0.4,
 * rubber 1.0 / 0.9, geometric mixing, no restitution):
 *   box            a 2 kg cube (0.2 m) resting on a plane: 4 contacts
 *   stack          5 such cubes stacked, each shifted a little (x by 1 cm a
 *                  level, y by 0 or 1 cm): 4 contacts per interface, 20
 *   stack-aligned  the same stack perfectly aligned (redundant contacts)
 *   arm            a 7-DoF arm (the proportions and masses of
 *                  mechanisms/arm7.yaml, revolute z y z y z y z) whose
 *                  paddle (a box geom on link 7, the only arm geom) pushes
 *                  a 1 kg, 0.1 m cube along the floor at 0.1 m/s: 4 floor
 *                  contacts, and 2 on the paddle once it touches (the
 *                  servos' compliance tilts the paddle by ~1 degree, so its
 *                  top edge pushes), 6 in all
 *   gripper        mechanisms/gripper.yaml: a fixed palm, two fingers on
 *                  prismatic joints with rubber pads, servoed to squeeze a
 *                  0.1 kg, 5 cm wooden cube with about 10 N each and hold it
 *                  in the air: 4 contacts per pad, 8
 * Bodies start 50 um deep in what they rest on (less than the contact
 * tolerance), so nothing has to settle. The arm and the fingers are driven
 * by PD servos, u = kp (target - q) - kv v (clamped to max_effort), plus,
 * for the arm, a gravity feed-forward computed at the target pose; the
 * arm's targets follow the paddle's straight path by inverse kinematics.
 * None of the joints has damping, armature, springs, limits or dry
 * friction, so ODE can model the same mechanism.
 *
 * ODE's scene is built from our model by bench/ode_scene.c (the same
 * masses, inertias, centres of mass, geoms, poses, mixed friction, initial
 * state): a body per moving link, hinge and slider joints, static geoms for
 * the world and links welded to it, a simple space whose pairs are filtered
 * by lk_collide_filter (our filtering rules), dCollide with up to 4
 * contacts a pair, contact joints with dContactApprox1 (friction bounded by
 * mu times the normal force on two tangents: our box cone),
 * mu = our mixed mu_static, soft ERP = our contact_erp, soft CFM 1e-10
 * (ODE's own default CFM in double precision; --ode-cfm), and dWorldStep
 * (not quickstep). The servo forces are applied with dJointAddHingeTorque
 * / dJointAddSliderForce from the same law (the same code computes them),
 * not with ODE's velocity motors, which would be extra constraint rows with
 * another law. ODE's timed step is the servo forces, dSpaceCollide,
 * dWorldStep and emptying the contact group; ours is lk_step. ODE's
 * messages (dMessage, dError, dDebug) are counted per run.
 *
 * ODE runs twice per scene. "ODE" (the ratio's reference) has ODE's default
 * contact surface layer 0 (--ode-layer): it pushes the initial 50 um
 * penetration out and keeps the contacts at zero depth. "ODE layer" has
 * the layer equal to our contact tolerance (1e-4), as we do: then resting
 * contacts have a right-hand side of exactly zero, and ODE's Dantzig solver
 * meets degenerate pivots ("LCP internal error, s <= 0") on stacks, where
 * the relative normal velocity of two resting boxes is exactly zero.
 *
 * Each figure is the median (and 10th-90th percentile) of the per-step
 * times of one run of the scene after a warm-up; machines are shared and
 * noisy, so compare medians and ratios, never single times. The ratio of
 * the summary comes from --rounds runs (5) of ODE and of our default
 * solver and cone by turns, the median of the rounds' ratios: a shared
 * machine's speed drifts between runs, and by turns both engines see the
 * same drift. "moved" is the
 * largest displacement of any free body from where it started during the
 * run (drift in the resting scenes, the push in the arm scene), to show
 * that both engines simulate the same thing.
 *
 * Usage: bench/contact [--steps N] [--scene NAME] [--quick] [--no-ode]
 *                      [--verbose] [--default-only] [--ode-cfm X] [--ode-layer X] */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "linkage/linkage.h"

#ifdef HAVE_ODE
#include "ode_scene.h"
#endif

#define H 0.001
#define DEPTH0 5e-5 /* initial penetration of resting contacts */
#define MAXACT 8

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* ------------------------------------------------------- scene building */

typedef struct {
  lk_model *m;
  lk_error e;
  int bad;
} builder;

static void chk(builder *b, lk_status st) {
  if (st != LK_OK && !b->bad) b->bad = 1;
}

static void begin(builder *b, const lk_options *opt) {
  b->m = lk_model_new();
  b->bad = b->m == NULL;
  lk_error_clear(&b->e);
  if (!b->bad) chk(b, lk_model_set_options(b->m, opt, &b->e));
}

static void material(builder *b, const char *name, double mus, double mud) {
  lk_material_spec s;
  lk_material_spec_default(&s);
  s.name = name;
  s.mu_static = mus;
  s.mu_dynamic = mud;
  if (!b->bad) chk(b, lk_model_add_material(b->m, &s, &b->e));
}

static void geom_box(builder *b, const char *link, double hx, double hy, double hz, lk_vec3 pos,
                     const char *mat) {
  lk_geom_spec g;
  lk_geom_spec_default(&g);
  g.link = link;
  g.type = LK_GEOM_BOX;
  g.size[0] = hx;
  g.size[1] = hy;
  g.size[2] = hz;
  g.pose.p = pos;
  g.material = mat;
  if (!b->bad) chk(b, lk_model_add_geom(b->m, &g, &b->e));
}

static void floor_plane(builder *b) {
  lk_geom_spec g;
  lk_geom_spec_default(&g);
  g.name = "floor";
  g.type = LK_GEOM_PLANE;
  g.material = "wood";
  if (!b->bad) chk(b, lk_model_add_geom(b->m, &g, &b->e));
}

/* A free cube of half size hs and mass m with a box geom, starting at p. */
static void free_cube(builder *b, const char *name, double mass, double hs, lk_vec3 p,
                      const char *mat) {
  lk_link_spec l;
  lk_link_spec_default(&l);
  l.name = name;
  l.joint.type = LK_JOINT_FREE;
  l.mass = mass;
  l.inertia = lk_inertia_solid_box(mass, lk_v3(hs, hs, hs));
  if (!b->bad) chk(b, lk_model_add_link(b->m, &l, &b->e));
  geom_box(b, name, hs, hs, hs, lk_v3(0, 0, 0), mat);
  double q[7] = {p.x, p.y, p.z, 1, 0, 0, 0};
  if (!b->bad) chk(b, lk_model_set_initial(b->m, name, q, 7, NULL, 0, &b->e));
}

static void servo(builder *b, const char *joint, double kp, double kv, double target,
                  double max_effort) {
  lk_actuator_spec a;
  lk_actuator_spec_default(&a);
  a.joint = joint;
  a.type = LK_ACTUATOR_POSITION;
  a.kp = kp;
  a.kv = kv;
  a.target = target;
  a.max_effort = max_effort;
  if (!b->bad) chk(b, lk_model_add_actuator(b->m, &a, &b->e));
}

static lk_model *finish(builder *b, const char *what) {
  if (!b->bad && lk_model_finalize(b->m, &b->e) != LK_OK) b->bad = 1;
  if (b->bad) {
    fprintf(stderr, "bench/contact: cannot build the %s scene: %s\n", what,
            b->e.message[0] ? b->e.message : "out of memory");
    lk_model_free(b->m);
    return NULL;
  }
  return b->m;
}

static lk_model *build_box(const lk_options *opt) {
  builder b;
  begin(&b, opt);
  material(&b, "wood", 0.5, 0.4);
  floor_plane(&b);
  free_cube(&b, "box", 2.0, 0.1, lk_v3(0, 0, 0.1 - DEPTH0), "wood");
  return finish(&b, "box");
}

static lk_model *build_stack_impl(const lk_options *opt, int aligned) {
  static const double dx[5] = {0, 0.01, 0.02, 0.03, 0.04}, dy[5] = {0, 0, 0.01, 0, 0.01};
  builder b;
  begin(&b, opt);
  material(&b, "wood", 0.5, 0.4);
  floor_plane(&b);
  for (int k = 0; k < 5; k++) {
    char name[16];
    snprintf(name, sizeof name, "box%d", k + 1);
    double z = 0.1 - DEPTH0 + k * (0.2 - DEPTH0);
    free_cube(&b, name, 2.0, 0.1, lk_v3(aligned ? 0 : dx[k], aligned ? 0 : dy[k], z), "wood");
  }
  return finish(&b, "stack");
}

static lk_model *build_stack(const lk_options *opt) { return build_stack_impl(opt, 0); }
static lk_model *build_stack_aligned(const lk_options *opt) { return build_stack_impl(opt, 1); }

/* The arm: arm7.yaml's links (fixed base, then 7 revolute joints about z,
 * y, z, y, z, y, z; each link a solid cylinder for its inertia), without
 * damping, armature and limits. Only the paddle on link 7 collides. */
static const char *const arm_joint[7] = {"j1", "j2", "j3", "j4", "j5", "j6", "j7"};
static const double arm_offset[7] = {0.16, 0.2, 0.2, 0.2, 0.2, 0.19, 0.08};
static const double arm_mass[7] = {4.0, 4.0, 3.0, 2.7, 1.7, 1.8, 0.3};
static const double arm_radius[7] = {0.06, 0.06, 0.055, 0.055, 0.05, 0.05, 0.04};
static const double arm_half[7] = {0.1, 0.1, 0.1, 0.1, 0.09, 0.04, 0.02};
/* arm7.yaml's servo gains, but for kv of j5 and j7 (8 and 2 there): without
 * the armature, their small rotor-free inertias (~5e-3 and 2.4e-4 kg m^2)
 * would make the explicit damping term unstable at h = 1 ms. */
static const double arm_kp[7] = {600, 800, 400, 400, 100, 80, 20};
static const double arm_kv[7] = {40, 60, 30, 30, 2, 6, 0.1};
static const double arm_max[7] = {176, 176, 110, 110, 110, 40, 40};
#define ARM_SHOULDER_Z 0.36 /* j2 above the floor */
#define ARM_L1 0.4          /* j2 -> j4 */
#define ARM_L2 0.39         /* j4 -> j6 */
#define PADDLE_Z 0.07       /* paddle centre on link 7's axis */
#define PADDLE_REACH (0.08 + PADDLE_Z) /* j6 -> paddle centre */
#define PUSH_X0 0.42        /* paddle centre x at t = 0 */
#define PUSH_XMAX 0.66
#define PUSH_SPEED 0.1
#define PUSH_Z 0.05 /* paddle centre height: the cube's centre */

static double push_x(double t) {
  double x = PUSH_X0 + PUSH_SPEED * t;
  return x < PUSH_XMAX ? x : PUSH_XMAX;
}

/* Joint angles that put the paddle centre at (x, 0, PUSH_Z) with link 7
 * pointing straight down: planar inverse kinematics of j2, j4, j6 (elbow
 * up), the other joints at 0. A rotation by a about y turns +z into
 * (sin a, 0, cos a). */
static void arm_ik(double x, double q[7]) {
  double wx = x, wz = PUSH_Z + PADDLE_REACH - ARM_SHOULDER_Z;
  double d2 = wx * wx + wz * wz;
  double cb = (d2 - ARM_L1 * ARM_L1 - ARM_L2 * ARM_L2) / (2 * ARM_L1 * ARM_L2);
  double bb = acos(cb < -1 ? -1 : cb > 1 ? 1 : cb);
  double a = atan2(wx, wz) - atan2(ARM_L2 * sin(bb), ARM_L1 + ARM_L2 * cos(bb));
  for (int i = 0; i < 7; i++) q[i] = 0;
  q[1] = a;
  q[3] = bb;
  q[5] = LK_PI - a - bb;
}

static lk_model *build_arm(const lk_options *opt) {
  builder b;
  begin(&b, opt);
  material(&b, "wood", 0.5, 0.4);
  floor_plane(&b);
  lk_link_spec l;
  lk_link_spec_default(&l);
  l.name = "base";
  l.mass = 5.0;
  l.com = lk_v3(0, 0, 0.08);
  l.inertia = lk_inertia_solid_cylinder(5.0, 0.1, 0.08);
  if (!b.bad) chk(&b, lk_model_add_link(b.m, &l, &b.e));
  char names[8][8] = {"base", "link1", "link2", "link3", "link4", "link5", "link6", "link7"};
  for (int i = 0; i < 7; i++) {
    lk_link_spec_default(&l);
    l.name = names[i + 1];
    l.parent = names[i];
    l.origin.p = lk_v3(0, 0, arm_offset[i]);
    l.joint.name = arm_joint[i];
    l.joint.type = LK_JOINT_REVOLUTE;
    l.joint.axis = i % 2 ? lk_v3(0, 1, 0) : lk_v3(0, 0, 1);
    l.mass = arm_mass[i];
    l.com = lk_v3(0, 0, arm_half[i]);
    l.inertia = lk_inertia_solid_cylinder(arm_mass[i], arm_radius[i], arm_half[i]);
    if (!b.bad) chk(&b, lk_model_add_link(b.m, &l, &b.e));
  }
  /* The paddle: 2 cm thick along the push (link 7's x, which points
   * backwards), 8 cm wide, 6 cm tall; it pushes the cube's face at its
   * centre height. */
  geom_box(&b, "link7", 0.01, 0.04, 0.03, lk_v3(0, 0, PADDLE_Z), "wood");
  double q0[7];
  arm_ik(push_x(0), q0);
  for (int i = 0; i < 7; i++) {
    servo(&b, arm_joint[i], arm_kp[i], arm_kv[i], q0[i], arm_max[i]);
    if (!b.bad) chk(&b, lk_model_set_initial(b.m, arm_joint[i], &q0[i], 1, NULL, 0, &b.e));
  }
  /* The cube, 5 mm ahead of the paddle's face. */
  free_cube(&b, "cube", 1.0, 0.05, lk_v3(PUSH_X0 + 0.01 + 0.005 + 0.05, 0, 0.05 - DEPTH0), "wood");
  return finish(&b, "arm");
}

static lk_model *build_gripper(const lk_options *opt) {
  builder b;
  begin(&b, opt);
  material(&b, "rubber", 1.0, 0.9);
  material(&b, "wood", 0.5, 0.4);
  floor_plane(&b);
  lk_link_spec l;
  lk_link_spec_default(&l);
  l.name = "palm";
  l.origin.p = lk_v3(0, 0, 0.3);
  l.mass = 0.5;
  l.com = lk_v3(0, 0, 0.015);
  l.inertia = lk_inertia_solid_box(0.5, lk_v3(0.03, 0.08, 0.015));
  if (!b.bad) chk(&b, lk_model_add_link(b.m, &l, &b.e));
  geom_box(&b, "palm", 0.03, 0.08, 0.015, lk_v3(0, 0, 0.015), "wood");
  for (int side = 0; side < 2; side++) {
    const char *name = side ? "right_finger" : "left_finger";
    const char *joint = side ? "right" : "left";
    lk_link_spec_default(&l);
    l.name = name;
    l.parent = "palm";
    l.origin.p = lk_v3(0, side ? -0.06 : 0.06, -0.05);
    l.joint.name = joint;
    l.joint.type = LK_JOINT_PRISMATIC;
    l.joint.axis = lk_v3(0, side ? 1 : -1, 0);
    l.mass = 0.05;
    l.inertia = lk_inertia_solid_box(0.05, lk_v3(0.02, 0.005, 0.03));
    if (!b.bad) chk(&b, lk_model_add_link(b.m, &l, &b.e));
    geom_box(&b, name, 0.02, 0.005, 0.03, lk_v3(0, 0, 0), "rubber");
    /* The pads touch the cube at q = 0.03; servo to 5 mm past its face. */
    double q0 = 0.03 + DEPTH0;
    servo(&b, joint, 2000, 40, 0.035, 15);
    if (!b.bad) chk(&b, lk_model_set_initial(b.m, joint, &q0, 1, NULL, 0, &b.e));
  }
  free_cube(&b, "cube", 0.1, 0.025, lk_v3(0, 0, 0.25), "wood");
  return finish(&b, "gripper");
}

/* ---------------------------------------------------------- controllers */

/* Servo targets (per actuator) and feed-forward generalized forces (per
 * actuator, added to its joint) at time t. */
typedef struct {
  const lk_model *m;
  lk_data *scratch; /* for the arm's gravity feed-forward */
  int nact;
  int act_link[MAXACT]; /* the link whose joint each actuator drives */
  int act_dof[MAXACT];
  lk_actuator_spec act[MAXACT];
} controller;

typedef void (*control_fn)(controller *c, double t, double *target, double *ff);

static void control_hold(controller *c, double t, double *target, double *ff) {
  for (int i = 0; i < c->nact; i++) {
    target[i] = c->act[i].target;
    ff[i] = 0;
  }
}

static void control_arm(controller *c, double t, double *target, double *ff) {
  double q[7];
  arm_ik(push_x(t), q);
  double *sq = lk_data_q(c->scratch), *sv = lk_data_v(c->scratch);
  const int nv = lk_model_nv(c->m);
  double qacc[64], tau[64];
  for (int k = 0; k < nv && k < 64; k++) sv[k] = qacc[k] = 0;
  for (int i = 0; i < c->nact; i++) {
    target[i] = q[i];
    sq[lk_model_joint_qadr(c->m, c->act_link[i])] = q[i];
  }
  if (nv > 64 || lk_inverse_dynamics(c->m, c->scratch, qacc, tau) != LK_OK) {
    for (int i = 0; i < c->nact; i++) ff[i] = 0;
    return;
  }
  for (int i = 0; i < c->nact; i++) ff[i] = tau[c->act_dof[i]];
}

static int controller_init(controller *c, const lk_model *m) {
  memset(c, 0, sizeof *c);
  c->m = m;
  c->nact = lk_model_nactuator(m);
  if (c->nact > MAXACT) return -1;
  for (int i = 0; i < c->nact; i++) {
    lk_model_actuator(m, i, &c->act[i]);
    c->act_link[i] = lk_model_joint_index(m, c->act[i].joint);
    c->act_dof[i] = lk_model_joint_vadr(m, c->act_link[i]);
  }
  c->scratch = lk_data_new(m);
  return c->scratch ? 0 : -1;
}

/* --------------------------------------------------------------- scenes */

typedef struct {
  const char *name;
  const char *what;
  lk_model *(*build)(const lk_options *opt);
  control_fn control;
  double target; /* the target ratio ours / ODE */
} scene;

static const scene scenes[] = {
    {"box", "2 kg cube resting on a plane", build_box, control_hold, 1.0},
    {"stack", "5 cubes stacked, shifted 1 cm a level", build_stack, control_hold, 0.5},
    {"stack-aligned", "5 cubes stacked, perfectly aligned", build_stack_aligned, control_hold,
     0.5},
    {"arm", "7-DoF arm pushing a 1 kg cube at 0.1 m/s", build_arm, control_arm, 0.5},
    {"gripper", "parallel-jaw gripper holding a 0.1 kg cube", build_gripper, control_hold, 0.5},
};
#define NSCENE ((int)(sizeof scenes / sizeof scenes[0]))

typedef struct {
  lk_solver_kind solver;
  lk_cone cone;
  int edges;
  const char *cone_name;
} config;

static const config configs[] = {
    {LK_SOLVER_LEMKE, LK_CONE_CIRCLE, 8, "circle"},
    {LK_SOLVER_LEMKE, LK_CONE_PYRAMID, 4, "pyramid4"},
    {LK_SOLVER_LEMKE, LK_CONE_PYRAMID, 8, "pyramid8"},
    {LK_SOLVER_LEMKE, LK_CONE_BOX, 8, "box"},
    {LK_SOLVER_DANTZIG, LK_CONE_CIRCLE, 8, "circle"},
    {LK_SOLVER_DANTZIG, LK_CONE_PYRAMID, 4, "pyramid4"},
    {LK_SOLVER_DANTZIG, LK_CONE_PYRAMID, 8, "pyramid8"},
    {LK_SOLVER_DANTZIG, LK_CONE_BOX, 8, "box"},
};
#define NCONFIG ((int)(sizeof configs / sizeof configs[0]))

/* ------------------------------------------------------------- results */

typedef struct {
  int ok;
  double med, p10, p90, max; /* us per step */
  double mean;               /* us per step, the whole timed run */
  double contacts, rows;     /* means per timed step */
  int cmin, cmax;            /* contacts, fewest and most in a timed step */
  double solves, pivots, lemke, dantzig;
  long failures, fallbacks, unconverged, bad_steps; /* over all steps */
  int first_bad_step;
  lk_status first_bad;
  double moved; /* m */
  /* ODE only */
  long messages;
  char first_message[160];
} result;

static void summarize(double *t, int n, result *r) {
  double sum = 0;
  for (int i = 0; i < n; i++) sum += t[i];
  r->mean = 1e6 * sum / n;
  qsort(t, (size_t)n, sizeof *t, cmp_double);
  r->med = 1e6 * t[n / 2];
  r->p10 = 1e6 * t[n / 10];
  r->p90 = 1e6 * t[(9 * n) / 10];
  r->max = 1e6 * t[n - 1];
}

/* Free bodies: their position coordinates in q (root free joints, whose
 * joint frame is the world; our free cubes have their centre of mass at
 * the link origin). */
static int free_bodies(const lk_model *m, int *link, int max) {
  int n = 0;
  for (int i = 1; i < lk_model_nlink(m) && n < max; i++)
    if (lk_model_joint_type(m, i) == LK_JOINT_FREE) link[n++] = i;
  return n;
}

static int verbose;
/* --fidelity-cost: the runs without the fidelity features (explicit
 * velocity forces, no anchoring), to time what those features cost. */
static int plain_options;

static int run_ours(const scene *sc, const config *cf, int warm, int steps, result *r) {
  memset(r, 0, sizeof *r);
  r->first_bad_step = -1;
  r->cmin = 1 << 30;
  lk_options opt;
  lk_options_default(&opt);
  opt.timestep = H;
  opt.solver = cf->solver;
  opt.friction_cone = cf->cone;
  opt.cone_edges = cf->edges;
  if (plain_options) {
    opt.velocity_forces = LK_VELOCITY_FORCES_EXPLICIT;
    opt.anchor_contacts = 0;
  }
  lk_model *m = sc->build(&opt);
  if (!m) return -1;
  lk_data *d = lk_data_new(m);
  controller c;
  double *t = malloc(sizeof(double) * (size_t)steps);
  if (!d || !t || controller_init(&c, m)) {
    fprintf(stderr, "bench/contact: out of memory\n");
    free(t);
    lk_data_free(d);
    lk_model_free(m);
    return -1;
  }
  int fb[16], nfb = free_bodies(m, fb, 16);
  double p0[16][3];
  for (int b = 0; b < nfb; b++)
    memcpy(p0[b], lk_data_q(d) + lk_model_joint_qadr(m, fb[b]), sizeof p0[b]);
  int timed = 0;
  for (int k = 0; k < warm + steps; k++) {
    double target[MAXACT], ff[MAXACT];
    sc->control(&c, lk_data_time(d), target, ff);
    double *tau = lk_data_tau(d);
    for (int i = 0; i < c.nact; i++) {
      lk_data_actuator_set_target(d, i, target[i]);
      tau[c.act_dof[i]] = ff[i];
    }
    double t0 = now();
    lk_status st = lk_step(m, d);
    double t1 = now();
    const lk_step_report *rep = lk_data_step_report(d);
    r->failures += rep->solver_failures;
    r->fallbacks += rep->fallbacks;
    r->unconverged += rep->friction_unconverged;
    if (verbose && (st != LK_OK || rep->solver_failures || rep->fallbacks ||
                    rep->friction_unconverged))
      printf("    [%s %s/%s] step %d (t = %.3f s): %s, %d contacts, %d rows, %d islands, "
             "solves %d (lemke %d, dantzig %d), failures %d, fallbacks %d, unconverged %d, "
             "residual %.2g, pivots %d\n",
             sc->name, cf->solver == LK_SOLVER_LEMKE ? "lemke" : "dantzig", cf->cone_name, k,
             k * H, lk_status_name(rep->status), rep->ncontacts, rep->nrows, rep->nislands,
             rep->lcp_solves, rep->lemke_solves, rep->dantzig_solves, rep->solver_failures,
             rep->fallbacks, rep->friction_unconverged, rep->lcp_residual, rep->lcp_pivots);
    if (st != LK_OK) {
      r->bad_steps++;
      if (r->first_bad_step < 0) {
        r->first_bad_step = k;
        r->first_bad = st;
      }
      break; /* the data is unchanged: it would fail again */
    }
    if (k >= warm) {
      t[timed++] = t1 - t0;
      r->contacts += rep->ncontacts;
      if (rep->ncontacts < r->cmin) r->cmin = rep->ncontacts;
      if (rep->ncontacts > r->cmax) r->cmax = rep->ncontacts;
      r->rows += rep->nrows;
      r->solves += rep->lcp_solves;
      r->lemke += rep->lemke_solves;
      r->dantzig += rep->dantzig_solves;
      r->pivots += rep->lcp_pivots;
    }
    for (int b = 0; b < nfb; b++) {
      const double *q = lk_data_q(d) + lk_model_joint_qadr(m, fb[b]);
      double dd = sqrt((q[0] - p0[b][0]) * (q[0] - p0[b][0]) + (q[1] - p0[b][1]) * (q[1] - p0[b][1]) +
                       (q[2] - p0[b][2]) * (q[2] - p0[b][2]));
      if (dd > r->moved) r->moved = dd;
    }
  }
  if (timed > 0) {
    summarize(t, timed, r);
    r->contacts /= timed;
    r->rows /= timed;
    r->solves /= timed;
    r->lemke /= timed;
    r->dantzig /= timed;
    r->pivots /= timed;
    r->ok = 1;
  }
  free(t);
  lk_data_free(c.scratch);
  lk_data_free(d);
  lk_model_free(m);
  return 0;
}

/* ------------------------------------------------------------------ ODE */

#ifdef HAVE_ODE
/* The servo law of our actuators (lib/sim/applied.c), for ODE's joints. */
static double servo_law(const lk_actuator_spec *s, double target, double q, double v) {
  double f = s->type == LK_ACTUATOR_POSITION   ? s->kp * (target - q) - s->kv * v
             : s->type == LK_ACTUATOR_VELOCITY ? s->kv * (target - v)
                                               : target;
  if (f > s->max_effort) f = s->max_effort;
  if (f < -s->max_effort) f = -s->max_effort;
  return f;
}

static int run_ode(const scene *sc, int warm, int steps, double cfm, double layer, result *r) {
  memset(r, 0, sizeof *r);
  r->first_bad_step = -1;
  r->cmin = 1 << 30;
  lk_options opt;
  lk_options_default(&opt);
  opt.timestep = H;
  lk_model *m = sc->build(&opt);
  if (!m) return -1;
  lk_data *d = lk_data_new(m);
  controller c;
  double *t = malloc(sizeof(double) * (size_t)steps);
  ode_scene s;
  memset(&s, 0, sizeof s);
  ode_scene_options oo;
  ode_scene_options_default(&oo);
  oo.cfm = cfm;
  oo.layer = layer;
  char why[256];
  int rc = 0;
  if (!d || !t || controller_init(&c, m)) {
    fprintf(stderr, "bench/contact: out of memory\n");
    rc = -1;
    goto done;
  }
  if (ode_scene_build(&s, m, d, &oo, why, sizeof why)) {
    fprintf(stderr, "bench/contact: ODE conversion: %s\n", why);
    rc = -1;
    goto done;
  }
  int fb[16], nfb = free_bodies(m, fb, 16);
  double p0[16][3];
  for (int b = 0; b < nfb; b++) memcpy(p0[b], dBodyGetPosition(s.body[fb[b]]), sizeof p0[b]);
  ode_scene_messages_reset();
  int timed = 0;
  for (int k = 0; k < warm + steps; k++) {
    double target[MAXACT], ff[MAXACT];
    sc->control(&c, k * H, target, ff);
    double t0 = now();
    for (int i = 0; i < c.nact; i++) {
      dJointID j = s.joint[c.act_link[i]];
      if (dJointGetType(j) == dJointTypeHinge) {
        double u = servo_law(&c.act[i], target[i], dJointGetHingeAngle(j),
                             dJointGetHingeAngleRate(j));
        dJointAddHingeTorque(j, u + ff[i]);
      } else {
        double u = servo_law(&c.act[i], target[i], dJointGetSliderPosition(j),
                             dJointGetSliderPositionRate(j));
        dJointAddSliderForce(j, u + ff[i]);
      }
    }
    ode_scene_step(&s, H);
    double t1 = now();
    if (k >= warm) {
      t[timed++] = t1 - t0;
      r->contacts += s.ncontact;
      if (s.ncontact < r->cmin) r->cmin = s.ncontact;
      if (s.ncontact > r->cmax) r->cmax = s.ncontact;
      r->rows += 3 * s.ncontact + s.joint_rows;
    }
    int finite = 1;
    for (int b = 0; b < nfb; b++) {
      const dReal *p = dBodyGetPosition(s.body[fb[b]]);
      double dd = sqrt((p[0] - p0[b][0]) * (p[0] - p0[b][0]) + (p[1] - p0[b][1]) * (p[1] - p0[b][1]) +
                       (p[2] - p0[b][2]) * (p[2] - p0[b][2]));
      if (!isfinite(dd)) finite = 0;
      if (dd > r->moved) r->moved = dd;
    }
    if (!finite) {
      r->bad_steps++;
      r->first_bad_step = k;
      r->first_bad = LK_NON_FINITE;
      break;
    }
  }
  if (timed > 0) {
    summarize(t, timed, r);
    r->contacts /= timed;
    r->rows /= timed;
    r->ok = 1;
  }
  const char *first;
  r->messages = ode_scene_messages(&first);
  snprintf(r->first_message, sizeof r->first_message, "%s", first);
done:
  ode_scene_free(&s);
  free(t);
  if (d) lk_data_free(c.scratch);
  lk_data_free(d);
  lk_model_free(m);
  return rc;
}
#endif

/* ---------------------------------------------------------------- main */

static void fmt_moved(double m, char *buf, size_t n) {
  if (m >= 1)
    snprintf(buf, n, "%.1f m", m);
  else if (m >= 1e-3)
    snprintf(buf, n, "%.1f mm", 1e3 * m);
  else
    snprintf(buf, n, "%.2g um", 1e6 * m);
}

static void fmt_contacts(const result *r, char *buf, size_t n) {
  if (r->cmin == r->cmax)
    snprintf(buf, n, "%d", r->cmin);
  else
    snprintf(buf, n, "%.1f(%d-%d)", r->contacts, r->cmin, r->cmax);
}

static void usage(FILE *f) {
  fprintf(f, "usage: bench/contact [--steps N] [--scene NAME] [--quick] [--no-ode] [--verbose]\n"
             "                     [--default-only] [--rounds R] [--fidelity-cost] [--ode-cfm X]\n"
             "                     [--ode-layer X]\n"
             "  --steps N      timed steps a run (default 2000; --quick 300)\n"
             "  --scene NAME   only this scene:");
  for (int i = 0; i < NSCENE; i++) fprintf(f, " %s", scenes[i].name);
  fprintf(f, "\n  --quick        short runs (a smoke test)\n"
             "  --no-ode       our figures only\n"
             "  --verbose      print every step of ours with a solver failure, a fallback or an\n"
             "                 unconverged cone\n"
             "  --default-only only the library's default solver and cone (for profiling)\n"
             "  --rounds R     the ratio from R runs of ODE and ours (default solver and cone)\n"
             "                 by turns, the median of their ratios (default 5; --quick 1: the\n"
             "                 table's single runs)\n"
             "  --fidelity-cost  time each scene with the library's defaults and without the\n"
             "                 fidelity features (explicit velocity forces, no anchoring), R\n"
             "                 rounds by turns, and print the ratio (nothing else)\n"
             "  --ode-cfm X    ODE's contact soft CFM (default 1e-10)\n"
             "  --ode-layer X  ODE's contact surface layer for the ratio (default 0, ODE's own)\n");
}

#ifdef HAVE_ODE
static int print_ode(const scene *sc, int warm, int steps, double cfm, double layer,
                     const char *label, double *med) {
  result r;
  *med = 0;
  if (run_ode(sc, warm, steps, cfm, layer, &r) || !r.ok) {
    printf("%-16s could not build or run this scene\n", label);
    return -1;
  }
  char cts[32], mv[32], range[32];
  fmt_contacts(&r, cts, sizeof cts);
  fmt_moved(r.moved, mv, sizeof mv);
  snprintf(range, sizeof range, "%.1f-%.1f", r.p10, r.p90);
  printf("%-16s %-9s %11s %6.0f %8.1f %15s %8.1f %6s %7s %9s %12s %9s\n", label, "approx1", cts,
         r.rows, r.med, range, r.max, "-", "-", "-", "-", mv);
  if (r.messages)
    printf("    %s: %ld ODE message(s) in %d steps, the first: \"%s\"\n", label, r.messages,
           warm + steps, r.first_message);
  if (r.bad_steps) printf("    %s: non-finite state at step %d\n", label, r.first_bad_step);
  *med = r.med;
  return 0;
}
#endif

/* --fidelity-cost: what the default fidelity features (midpoint velocity
 * forces, anchored sticking contacts; issue 31) cost a contact step. Each
 * scene runs with the defaults and with those features off, R rounds by
 * turns; the ratio is the median of the rounds' ratios of medians, and of
 * means (the whole timed run). */
static int fidelity_cost_table(const lk_options *defaults, int only, int warm, int steps,
                               int rounds) {
  config dcf = {defaults->solver, defaults->friction_cone, defaults->cone_edges, "default"};
  printf("bench/contact --fidelity-cost: us a step with the defaults (velocity_forces %s, "
         "anchor_contacts %s)\nand without (explicit, no anchoring), %d rounds by turns of %d "
         "warm-up + %d timed steps\n\n",
         defaults->velocity_forces == LK_VELOCITY_FORCES_MIDPOINT ? "midpoint" : "explicit",
         defaults->anchor_contacts ? "on" : "off", rounds, warm, steps);
  printf("%-14s %10s %10s %10s %10s %10s %10s %9s\n", "scene", "plain med", "dflt med",
         "ratio", "plain mean", "dflt mean", "ratio", "moved");
  int failed = 0;
  for (int si = 0; si < NSCENE; si++) {
    if (only >= 0 && si != only) continue;
    double rmed[100], rmean[100], pm[100], dm[100], pa[100], da[100], moved[2] = {0, 0};
    int nr = 0;
    for (int k = 0; k < rounds; k++) {
      result a, b;
      plain_options = 1;
      int ea = run_ours(&scenes[si], &dcf, warm, steps, &a);
      plain_options = 0;
      int eb = run_ours(&scenes[si], &dcf, warm, steps, &b);
      if (ea || eb || !a.ok || !b.ok) {
        failed = 1;
        continue;
      }
      pm[nr] = a.med;
      dm[nr] = b.med;
      pa[nr] = a.mean;
      da[nr] = b.mean;
      rmed[nr] = b.med / a.med;
      rmean[nr] = b.mean / a.mean;
      moved[0] = a.moved;
      moved[1] = b.moved;
      nr++;
    }
    if (nr == 0) {
      printf("%-14s failed\n", scenes[si].name);
      continue;
    }
    qsort(rmed, (size_t)nr, sizeof *rmed, cmp_double);
    qsort(rmean, (size_t)nr, sizeof *rmean, cmp_double);
    qsort(pm, (size_t)nr, sizeof *pm, cmp_double);
    qsort(dm, (size_t)nr, sizeof *dm, cmp_double);
    qsort(pa, (size_t)nr, sizeof *pa, cmp_double);
    qsort(da, (size_t)nr, sizeof *da, cmp_double);
    char mv[32], mv2[32];
    fmt_moved(moved[0], mv, sizeof mv);
    fmt_moved(moved[1], mv2, sizeof mv2);
    printf("%-14s %10.2f %10.2f %10.3f %10.2f %10.2f %10.3f %9s / %s\n", scenes[si].name,
           pm[nr / 2], dm[nr / 2], rmed[nr / 2], pa[nr / 2], da[nr / 2], rmean[nr / 2], mv, mv2);
    fflush(stdout);
  }
  printf("\nratio: default / plain, the median over the rounds (target: <= 1.10, issue 31); "
         "moved: plain / default\n");
  return failed;
}

int main(int argc, char **argv) {
  int steps = 2000, warm = 200, quick = 0, use_ode = 1, only = -1, explicit_steps = 0;
  int default_only = 0, rounds = 5, fidelity_cost = 0;
  double ode_cfm = 1e-10, ode_layer = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--steps") && i + 1 < argc) {
      steps = atoi(argv[++i]);
      explicit_steps = 1;
      if (steps < 10) {
        fprintf(stderr, "bench/contact: --steps needs at least 10\n");
        return 2;
      }
    } else if (!strcmp(argv[i], "--scene") && i + 1 < argc) {
      const char *name = argv[++i];
      for (int k = 0; k < NSCENE; k++)
        if (!strcmp(name, scenes[k].name)) only = k;
      if (only < 0) {
        fprintf(stderr, "bench/contact: unknown scene '%s'\n", name);
        usage(stderr);
        return 2;
      }
    } else if (!strcmp(argv[i], "--quick")) {
      quick = 1;
    } else if (!strcmp(argv[i], "--no-ode")) {
      use_ode = 0;
    } else if (!strcmp(argv[i], "--verbose")) {
      verbose = 1;
    } else if (!strcmp(argv[i], "--default-only")) {
      default_only = 1;
    } else if (!strcmp(argv[i], "--fidelity-cost")) {
      fidelity_cost = 1;
    } else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
      rounds = atoi(argv[++i]);
      if (rounds < 1 || rounds > 99) {
        fprintf(stderr, "bench/contact: --rounds takes 1 to 99\n");
        return 2;
      }
    } else if (!strcmp(argv[i], "--ode-cfm") && i + 1 < argc) {
      ode_cfm = atof(argv[++i]);
    } else if (!strcmp(argv[i], "--ode-layer") && i + 1 < argc) {
      ode_layer = atof(argv[++i]);
    } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    } else {
      usage(stderr);
      return 2;
    }
  }
  if (quick) {
    warm = 50;
    if (!explicit_steps) steps = 300;
    rounds = 1;
  }
  lk_options defaults;
  lk_options_default(&defaults);
  const double tolerance = defaults.contact_tolerance;
  if (fidelity_cost) return fidelity_cost_table(&defaults, only, warm, steps, rounds);
#ifdef HAVE_ODE
  if (use_ode) {
    dInitODE2(0);
    ode_scene_messages_reset();
  }
#else
  use_ode = 0;
  (void)ode_cfm;
  (void)ode_layer;
#endif
  printf("bench/contact: time per step (lk_step, collision included), h = 1 ms, %d warm-up + %d "
         "timed steps a run.\n",
         warm, steps);
  printf("Median and 10th-90th percentile of the timed steps, us; contacts: per step (mean, "
         "fewest-most when it varies);\nrows: constraint rows (ODE: 3 a contact, 5 a joint); "
         "LCP, pivots, L/D (Lemke / Dantzig solves): means a\nstep (the convex sticking and "
         "fixed-normal sub-solves go to Dantzig whatever the solver; dantzig->lemke:\nDantzig "
         "cannot express a pyramid, the library hands those to Lemke); fail/fb/unc: solver "
         "failures,\nfallbacks and unconverged circle cones over the whole run; moved: largest "
         "displacement of a free body.\n");
#ifdef HAVE_ODE
  if (use_ode)
    printf("ODE %s (%s precision): dWorldStep, dContactApprox1, mu = our mixed mu_static, soft "
           "ERP %.2g, soft CFM %g,\nup to 4 contacts a pair; surface layer %g for the ratio "
           "(\"ODE\"), also %g = our contact tolerance (\"ODE layer\").\n",
           "0.16", dCheckConfiguration("ODE_double_precision") ? "double" : "single",
           defaults.contact_erp, ode_cfm, ode_layer, tolerance);
#endif
  if (!use_ode) printf("ODE: not in this build (or --no-ode): our figures only.\n");
  int failed = 0;
  double sum_ode[NSCENE], sum_def[NSCENE], sum_best[NSCENE], sum_ratio[NSCENE];
  double table_ode[NSCENE]; /* the table's own ODE run, for the best configuration's ratio */
  char best_name[NSCENE][40];
  for (int si = 0; si < NSCENE; si++) {
    sum_ode[si] = sum_def[si] = sum_best[si] = sum_ratio[si] = table_ode[si] = 0;
    best_name[si][0] = 0;
    if (only >= 0 && si != only) continue;
    const scene *sc = &scenes[si];
    printf("\n== %s: %s (target: ours <= %.1fx ODE)\n", sc->name, sc->what, sc->target);
    printf("%-16s %-9s %11s %6s %8s %15s %8s %6s %7s %9s %12s %9s %8s\n", "solver", "cone",
           "contacts", "rows", "med us", "p10-p90 us", "max us", "LCP", "pivots", "L/D",
           "fail/fb/unc", "moved", "ours/ODE");
    double ode_med = 0;
#ifdef HAVE_ODE
    if (use_ode) {
      double other;
      print_ode(sc, warm, steps, ode_cfm, ode_layer, "ODE", &ode_med);
      if (tolerance != ode_layer) print_ode(sc, warm, steps, ode_cfm, tolerance, "ODE layer", &other);
      sum_ode[si] = table_ode[si] = ode_med;
    }
#endif
    for (int ci = 0; ci < NCONFIG; ci++) {
      const config *cf = &configs[ci];
      if (default_only && (cf->solver != defaults.solver || cf->cone != defaults.friction_cone ||
                           (cf->cone == LK_CONE_PYRAMID && cf->edges != defaults.cone_edges)))
        continue;
      result r;
      if (run_ours(sc, cf, warm, steps, &r)) {
        failed = 1;
        continue;
      }
      char solver[24];
      /* Dantzig cannot express a pyramid: the library solves those friction
       * LCPs by Lemke (the Dantzig solves in L/D are the convex sticking
       * and fixed-normal sub-solves, which go to Dantzig whatever the
       * option). */
      if (cf->solver == LK_SOLVER_DANTZIG && cf->cone == LK_CONE_PYRAMID)
        snprintf(solver, sizeof solver, "dantzig->lemke");
      else
        snprintf(solver, sizeof solver, "%s", cf->solver == LK_SOLVER_LEMKE ? "lemke" : "dantzig");
      if (!r.ok) {
        printf("%-16s %-9s  no timed step: step %d failed (%s)\n", solver, cf->cone_name,
               r.first_bad_step, lk_status_name(r.first_bad));
        failed = 1;
        continue;
      }
      char cts[32], mv[32], range[32], ld[24], ffu[32], ratio[16] = "-";
      fmt_contacts(&r, cts, sizeof cts);
      fmt_moved(r.moved, mv, sizeof mv);
      snprintf(range, sizeof range, "%.1f-%.1f", r.p10, r.p90);
      snprintf(ld, sizeof ld, "%.2g/%.2g", r.lemke, r.dantzig);
      snprintf(ffu, sizeof ffu, "%ld/%ld/%ld", r.failures, r.fallbacks, r.unconverged);
      if (ode_med > 0) snprintf(ratio, sizeof ratio, "%.2f", r.med / ode_med);
      printf("%-16s %-9s %11s %6.1f %8.1f %15s %8.1f %6.2f %7.1f %9s %12s %9s %8s\n", solver,
             cf->cone_name, cts, r.rows, r.med, range, r.max, r.solves, r.pivots, ld, ffu, mv,
             ratio);
      if (r.bad_steps)
        printf("    step %d failed: %s (run stopped)\n", r.first_bad_step,
               lk_status_name(r.first_bad));
      /* "default": the library's own default solver and cone. */
      if (cf->solver == defaults.solver && cf->cone == defaults.friction_cone &&
          (cf->cone != LK_CONE_PYRAMID || cf->edges == defaults.cone_edges))
        sum_def[si] = r.med;
      if (sum_best[si] == 0 || r.med < sum_best[si]) {
        sum_best[si] = r.med;
        snprintf(best_name[si], sizeof best_name[si], "%s/%s", solver, cf->cone_name);
      }
    }
#ifdef HAVE_ODE
    /* The ratio: ODE and our default run by turns, so that both see the
     * same machine (a shared one's speed drifts by 2x between runs); the
     * median of the rounds' ratios, and of their medians. */
    if (use_ode && sum_ode[si] > 0 && sum_def[si] > 0 && rounds > 1) {
      double rr[100], ro[100], ru[100];
      int nr = 0;
      config dcf = {defaults.solver, defaults.friction_cone, defaults.cone_edges, "default"};
      for (int k = 0; k < rounds; k++) {
        result a, b;
        if (run_ode(sc, warm, steps, ode_cfm, ode_layer, &a) || !a.ok) continue;
        if (run_ours(sc, &dcf, warm, steps, &b) || !b.ok) continue;
        ro[nr] = a.med;
        ru[nr] = b.med;
        rr[nr] = b.med / a.med;
        nr++;
      }
      if (nr > 0) {
        qsort(rr, (size_t)nr, sizeof *rr, cmp_double);
        qsort(ro, (size_t)nr, sizeof *ro, cmp_double);
        qsort(ru, (size_t)nr, sizeof *ru, cmp_double);
        sum_ode[si] = ro[nr / 2];
        sum_def[si] = ru[nr / 2];
        sum_ratio[si] = rr[nr / 2];
        printf("by turns, %d rounds of ODE then ours (default): ODE %.1f us, ours %.1f us, ratio "
               "median %.2f (%.2f-%.2f)\n",
               nr, ro[nr / 2], ru[nr / 2], rr[nr / 2], rr[0], rr[nr - 1]);
      }
    }
#endif
    fflush(stdout);
  }
  if (use_ode) {
    printf("\nsummary: median us a step; ratio ours / ODE (by turns when rounds > 1)\n");
    printf("%-14s %7s %8s %6s %7s %-22s %6s %7s\n", "scene", "ODE", "default", "ratio", "best",
           "(solver/cone)", "ratio", "target");
    if (rounds > 1)
      printf("(ODE, default, ratio: medians of the %d rounds by turns; best: the table's runs)\n",
             rounds);
    for (int si = 0; si < NSCENE; si++) {
      if (sum_ode[si] <= 0 || sum_def[si] <= 0) continue;
      double rd = sum_ratio[si] > 0 ? sum_ratio[si] : sum_def[si] / sum_ode[si];
      double rb = sum_best[si] / table_ode[si]; /* single runs, as in the table */
      printf("%-14s %7.1f %8.1f %6.2f %7.1f %-22s %6.2f %5.1fx %s\n", scenes[si].name,
             sum_ode[si], sum_def[si], rd, sum_best[si], best_name[si], rb, scenes[si].target,
             rd <= scenes[si].target ? "met"
             : rb <= scenes[si].target ? "met by the best only"
                                       : "not met");
    }
    printf("default: %s/%s, the library's defaults. Unequal by design: ODE has maximal "
           "coordinates (6 DoFs a body,\n5 rows a hinge or slider), one mu (no static/dynamic "
           "friction), the approx1 box cone, and corrects all\npenetration (surface layer %g; we "
           "leave %g alone).\n",
           defaults.solver == LK_SOLVER_LEMKE ? "lemke" : "dantzig",
           defaults.friction_cone == LK_CONE_CIRCLE ? "circle"
           : defaults.friction_cone == LK_CONE_BOX  ? "box"
                                                    : "pyramid",
           ode_layer, tolerance);
  }
#ifdef HAVE_ODE
  if (use_ode) dCloseODE();
#endif
  return failed;
}
