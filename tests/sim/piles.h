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

/* n cubes side by side in `layers` layers on the floor, `gap` metres
 * between neighbouring faces in a layer (within the contact margin: side
 * contacts), each layer's cubes on a square grid of the smallest side
 * that holds ceil(n / layers), filled row by row, each cube exactly on
 * the one below (PILES_DEPTH0 into it); the top layer holds what is left
 * of n. Options max_contacts as given (0: automatic). mu 0.5. */
lk_model *piles_layered(int n, int layers, double gap, double timestep, int max_contacts);

/* A chain of n capsules (radius 0.02 m, 0.12 m from joint to joint, 0.1 kg
 * each; links "link1".."linkn"), the first on a free joint, the others on
 * ball joints, lying straight along +x on the floor (drop = 0) or released
 * `drop` metres above it over a fixed box (0.2 m a side, its top 0.2 m up,
 * under the chain's middle) when drop > 0. mu 0.5. */
lk_model *piles_chain(int n, double drop, double timestep);

/* Spheres of radius 0.05 m and 0.1 kg (links "ball1"..) start on a grid
 * this far apart (2 cm between them: beyond the default contact margin). */
#define PILES_SPHERE_PITCH 0.12

/* n spheres dropped into a square bin: k = ceil(cbrt(n)) spheres a side of
 * each layer of the grid, each sphere shifted in x and y by up to 5 mm (a
 * fixed pattern, so that the columns do not stand on each other), the
 * lowest layer 2 cm above the floor; four walls (world boxes 0.1 m thick,
 * geoms "wall1".."wall4") bound a floor of k PILES_SPHERE_PITCH a side,
 * as high as the grid. mu 0.5. */
lk_model *piles_spheres(int n, double timestep);

#endif
