/* Validation scenes built with the C API (shared by the contact tests and
 * bench/contact). Every scene is SI: metres, kilograms, seconds. */
#ifndef LK_TEST_SCENES_H
#define LK_TEST_SCENES_H

#include "linkage/linkage.h"

typedef struct {
  double mu_static, mu_dynamic;
  lk_vec3 gravity;
  lk_solver_kind solver;
  lk_cone cone;
  int cone_edges;
  double timestep;
} scene_opts;

/* mu 0.6 / 0.45, g = (0, 0, -9.81), Lemke, circle, 8 edges, h = 1e-3. */
scene_opts scene_defaults(void);

/* Gravity of magnitude 9.81 tilted by theta (rad) about +y, so that a body
 * on the plane z = 0 tends to slide towards +x: an incline of angle theta. */
lk_vec3 scene_incline_gravity(double theta);

/* A 1 kg cube of half size 0.05 on a free joint resting on the world plane
 * z = 0 through four explicit corner contacts (link "block", joint
 * "block"). */
lk_model *scene_block(const scene_opts *o);

/* A solid sphere of radius r and mass m (link "ball") on the plane z = 0
 * through one explicit rolling contact (radius r) with the given rolling
 * and torsional coefficients and patch radius. */
lk_model *scene_ball(const scene_opts *o, double radius, double mass, double mu_rolling,
                     double mu_torsional, double patch_radius);

/* Run n steps; returns the first failing status or LK_OK. */
lk_status scene_run(const lk_model *m, lk_data *d, int n);

#endif
