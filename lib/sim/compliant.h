/* Compliant contact force laws (compliant.c; docs/contact-models.md). */
#ifndef LK_SIM_COMPLIANT_H
#define LK_SIM_COMPLIANT_H

#include "constraint/constraint_impl.h" /* lk_contact_geom */
#include "linkage/collision.h"
#include "linkage/math.h"
#include "linkage/model.h"

/* One pair's parameters after mixing. */
typedef struct {
  lk_normal_model normal;
  lk_tangential_model tangential;
  double k_n, eta_n, k_t, x_gamma_t;
  double mu_s, mu_d;
  double R; /* effective radius (m; INFINITY for two flat bodies) */
} lk_compliant_params;

/* The force on the touching body (normal n towards it, overlap delta > 0,
 * its velocity relative to the other at the contact point vrel, time step
 * h), updating the tangential history hist[0..3] (world) and the static /
 * dynamic state of the /static variants. fn >= 0 is the normal force
 * magnitude, *ft the tangential force (in the plane normal to n). */
void lk_compliant_law(const lk_compliant_params *p, lk_vec3 n, double delta, lk_vec3 vrel, double h,
                      double hist[4], lk_friction_state *state, double *fn, lk_vec3 *ft);

/* The elastic normal energy at overlap delta (hooke 1/2 k d^2, hertz
 * 2/5 k sqrt(R) d^(5/2)). */
double lk_compliant_normal_energy(const lk_compliant_params *p, double delta);

/* One compliant contact's force law, in place of its rows (the report is
 * filled, the force accumulated for the step): the geometry stage's call
 * for a contact whose law is compliant (geometry.c). */
struct lk_data;
lk_status lk_sim_compliant_contact(const lk_model *m, struct lk_data *d, int report,
                                   const lk_contact_geom *g);

#endif
