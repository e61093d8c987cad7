/* Scenes at scale (issue 20), built with the C API, shared by
 * tests/sim/test_scale and bench/contact: a tower of cubes, a pyramid pile
 * of cubes, a chain of capsules on ball joints. SI units; the floor is the
 * world plane z = 0; every scene uses the library's default options except
 * for the time step given. */
#ifndef LK_TEST_PILES_H
#define LK_TEST_PILES_H

#include "linkage/linkage.h"

/* Cubes of edge 0.1 m and 1 kg start this far into what they rest on. */
#define PILES_DEPTH0 5e-5

/* n cubes (links "box1".."boxn", bottom first) stacked exactly on top of
 * each other on the floor; mu 0.5 (material "wood"). */
lk_model *piles_tower(int n, double timestep);
/* The same with options max_island_rows and max_contacts set. */
lk_model *piles_tower_options(int n, double timestep, int max_island_rows, int max_contacts);

/* Cubes of a layer of the pyramid are this far apart, centre to centre
 * (15 mm between their faces: beyond the default contact margin, 1 cm,
 * so that neighbours in a layer make no contacts). */
#define PILES_PITCH 0.115

/* n cubes in a stepped pyramid on the floor: a base of side x side cubes
 * PILES_PITCH apart, each layer above one cube smaller a side and
 * shifted by half a cube, so that every upper cube rests on four below;
 * the top layer holds what is left of n. side is the smallest whose layers
 * hold n. mu 0.5. Links "box1".. in layer order; the last is on top. */
lk_model *piles_pyramid(int n, double timestep);

/* A chain of n capsules (radius 0.02 m, 0.12 m from joint to joint, 0.1 kg
 * each; links "link1".."linkn"), the first on a free joint, the others on
 * ball joints, lying straight along +x on the floor (drop = 0) or released
 * `drop` metres above it over a fixed box (0.2 m a side, its top 0.2 m up,
 * under the chain's middle) when drop > 0. mu 0.5. */
lk_model *piles_chain(int n, double drop, double timestep);

#endif
