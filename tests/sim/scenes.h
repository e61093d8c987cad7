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

/* A tripod: a 1 kg disk-like body (link "tripod") on three explicit feet
 * 120 degrees apart at radius 0.1, 0.02 below its centre of mass: its
 * normal forces are determinate (three points, three equations). */
lk_model *scene_tripod(const scene_opts *o);

/* The same cube as a box geom on a world plane geom (collision contacts),
 * with its own material ("block", mu_block) and the ground's ("ground",
 * mu_ground; static = dynamic for each). max_contacts as in lk_options (0:
 * automatic). */
lk_model *scene_block_geom(const scene_opts *o, double mu_block, double mu_ground,
                           int max_contacts);

/* A solid sphere of radius r and mass m (link "ball") on the plane z = 0
 * through one explicit rolling contact (radius r) with the given rolling
 * and torsional coefficients and patch radius. */
lk_model *scene_ball(const scene_opts *o, double radius, double mass, double mu_rolling,
                     double mu_torsional, double patch_radius);

/* A box object (link "object", half size 0.04, mass m_obj, free joint)
 * squeezed between two pads ("pad_l" at -x, "pad_r" at +x) on prismatic
 * joints along x ("grip_l", "grip_r"), each pressed inwards by a constant
 * effort actuator of `preload` newtons. The pads hang from a heavy "palm"
 * (100 kg) on a prismatic joint along z ("lift") driven by an effort
 * actuator "lift" (initially 0; the palm is held by a joint limit at 0
 * from below when not lifted). Each pad touches the object with
 * `contacts_per_pad` explicit rolling contacts (1: at the face centre;
 * 4: at (+-0.02, +-0.02) of the face) of patch radius `patch`, with
 * torsional coefficient mu_t. */
lk_model *scene_pads(const scene_opts *o, double m_obj, double preload, int contacts_per_pad,
                     double patch, double mu_t);

/* A planar four-bar linkage closed by a ball loop: crank (0.1 m), coupler
 * (0.3 m), rocker (0.25 m), ground 0.3 m, hinges about y; released from a
 * closed configuration under gravity. The loop's two points: the coupler's
 * far end and the rocker's top ("coupler", "rocker" links). */
lk_model *scene_four_bar(const scene_opts *o);

/* Run n steps; returns the first failing status or LK_OK. */
lk_status scene_run(const lk_model *m, lk_data *d, int n);

#endif
