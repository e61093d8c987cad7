/* Reference mechanisms for benchmarks (and any test or demo that wants
 * them), built with the public API only, and their MJCF translation for
 * comparisons with MuJoCo. */
#ifndef LK_BENCH_TESTBEDS_H
#define LK_BENCH_TESTBEDS_H

#include <stddef.h>

#include "linkage/linkage.h"

/* A 7-DoF serial arm (proportions and masses of a KUKA iiwa-class arm),
 * with armature and damping on every joint. */
lk_model *testbed_arm7(void);

/* A chain of n revolute links (axes alternating y and x), hanging. */
lk_model *testbed_chain(int n);

/* A free-floating humanoid-like tree of 20 DoFs: a free torso (6), two legs
 * of four revolute joints and two arms of three. */
lk_model *testbed_floating20(void);

/* n free-floating boxes (1 kg, 10 cm) on a grid: n trees of 6 DoFs, the
 * shape of a scene of many loose objects. NULL if n < 1. */
lk_model *testbed_free_bodies(int n);

/* A reproducible non-trivial state (q away from zero, v non-zero). */
void testbed_state(const lk_model *m, lk_data *d, unsigned seed);

/* The model as an MJCF document (same links, frames, inertias, joints,
 * armature, damping, springs, gravity and time step; contacts disabled;
 * Euler integrator). Returns the length written, or -1 if buf is too
 * small or the model has something MJCF cannot express here. */
int testbed_to_mjcf(const lk_model *m, char *buf, size_t size);

#endif
