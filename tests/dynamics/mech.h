/* Mechanisms and random states shared by the dynamics tests. */
#ifndef LK_TEST_MECH_H
#define LK_TEST_MECH_H

#include <stdint.h>

#include "linkage/linkage.h"

/* splitmix64: a deterministic generator, so every run sees the same cases. */
typedef struct {
  uint64_t s;
} mech_rng;

double mech_uniform(mech_rng *r, double lo, double hi);
lk_vec3 mech_vec(mech_rng *r, double half_range);
lk_quat mech_quat(mech_rng *r); /* uniform random rotation */

typedef struct {
  int nlinks;   /* moving and fixed links, world excluded */
  int floating; /* every root link gets a free joint */
  int springs;  /* random stiffness and rest (root free joints none) */
  int damping;  /* random damping (root free joints none) */
  int armature; /* random armature */
  lk_vec3 gravity;
  double forest; /* extra chance that a link hangs from the world, making
                    many trees (0: the plain random tree) */
} mech_tree_opts;

/* A random tree: random parents, joint types (fixed, revolute, prismatic,
 * ball, free anywhere), origins, axes, masses, centres of mass and full
 * rotated inertias. Finalized; NULL on failure (reported by the test). */
lk_model *mech_random_tree(mech_rng *r, const mech_tree_opts *o);

/* Random q (random unit quaternions), v in [-vmax, vmax]. */
void mech_random_state(mech_rng *r, const lk_model *m, lk_data *d, double vmax);

/* Random tau and a random external force and torque on every link. */
void mech_random_loads(mech_rng *r, const lk_model *m, lk_data *d);

/* Max |a_i - b_i| and max |a_i|, |b_i| over n entries. */
double mech_maxdiff(const double *a, const double *b, int n);
double mech_maxabs(const double *a, int n);

#endif
