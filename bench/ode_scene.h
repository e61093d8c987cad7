/* ODE's version of a Linkage model, for the benchmarks that compare the
 * two engines on the same scene (bench/contact, bench/piles).
 *
 * The conversion keeps the masses, inertias, centres of mass, geoms,
 * poses, mixed friction and initial state: a body per moving link; hinge,
 * slider and ball joints; static geoms for the world and links welded to
 * it; a simple or a hash space whose pairs are filtered by
 * lk_collide_filter (our filtering rules); dCollide with up to
 * ODE_SCENE_MAX_PAIR contacts a pair, contact joints with dContactApprox1
 * (friction bounded by mu times the normal force on two tangents: our box
 * cone), mu = our mixed mu_static, soft ERP = our contact_erp, soft CFM as
 * given. What the conversion cannot mirror (joint damping, springs,
 * armature, limits, dry friction, restitution, fixed joints between moving
 * links, planes on moving links) is refused with a message. */
#ifndef LK_BENCH_ODE_SCENE_H
#define LK_BENCH_ODE_SCENE_H

#include <ode/ode.h>

#include "linkage/linkage.h"

#define ODE_SCENE_MAX_PAIR 4
/* Up to this many geoms the pair filter is a table, as cheap a test as
 * ODE's own; above, lk_collide_filter is called for each candidate pair. */
#define ODE_SCENE_PAIR_TABLE 512

typedef struct {
  double cfm;     /* contact soft CFM (ODE's own default in double precision: 1e-10) */
  double layer;   /* dWorldSetContactSurfaceLayer */
  int hash_space; /* 1: dHashSpace (large scenes), 0: dSimpleSpace */
  int quick;      /* 1: dWorldQuickStep (iterations below), 0: dWorldStep */
  int quick_iterations; /* dWorldSetQuickStepNumIterations; 0: ODE's default (20) */
} ode_scene_options;

void ode_scene_options_default(ode_scene_options *o);

typedef struct {
  const lk_model *m;
  ode_scene_options opt;
  dWorldID world;
  dSpaceID space;
  dJointGroupID group;
  int nlink, ngeom;
  dBodyID *body;   /* per link; 0: static (the world or welded to it) */
  dJointID *joint; /* per link: its hinge, slider or ball joint, else 0 */
  lk_vec3 *com;    /* per link, in its frame */
  double *mu;      /* per geom: its material's mu_static */
  unsigned char *pair; /* ngeom x ngeom lk_collide_filter, for ngeom <= ODE_SCENE_PAIR_TABLE */
  int ncontact;    /* the last step's contacts */
  int joint_rows;  /* rows of the joints (5 a hinge or slider, 3 a ball) */
} ode_scene;

/* Build ODE's scene of m at its initial state (d: a scratch data of m,
 * left at the initial state). Returns 0, or -1 with a message in err;
 * either way ode_scene_free(s) releases what was made. */
int ode_scene_build(ode_scene *s, const lk_model *m, lk_data *d, const ode_scene_options *o,
                    char *err, size_t errsize);
void ode_scene_free(ode_scene *s);

/* One step of h: collide, dWorldStep or dWorldQuickStep, empty the
 * contacts. Joint forces for the step are added before. */
void ode_scene_step(ode_scene *s, double h);

/* ODE's messages (dMessage, dError, dDebug) are counted from here on. */
void ode_scene_messages_reset(void);
long ode_scene_messages(const char **first);

#endif
