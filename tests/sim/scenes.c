/* Validation scenes (see scenes.h). */
#include "scenes.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

scene_opts scene_defaults(void) {
  scene_opts o;
  o.mu_static = 0.6;
  o.mu_dynamic = 0.45;
  o.gravity = lk_v3(0, 0, -9.81);
  o.solver = LK_SOLVER_LEMKE;
  o.cone = LK_CONE_CIRCLE;
  o.cone_edges = 8;
  o.timestep = 1e-3;
  return o;
}

lk_vec3 scene_incline_gravity(double theta) {
  return lk_v3(9.81 * sin(theta), 0, -9.81 * cos(theta));
}

static void set_options(lk_model *m, const scene_opts *o) {
  lk_options opt;
  lk_options_default(&opt);
  opt.gravity = o->gravity;
  opt.solver = o->solver;
  opt.friction_cone = o->cone;
  opt.cone_edges = o->cone_edges;
  opt.timestep = o->timestep;
  lk_model_set_options(m, &opt, NULL);
}

static void add_material(lk_model *m, const char *name, double mus, double mud) {
  lk_material_spec s;
  lk_material_spec_default(&s);
  s.name = name;
  s.mu_static = mus;
  s.mu_dynamic = mud;
  lk_model_add_material(m, &s, NULL);
}

static lk_model *finish(lk_model *m) {
  lk_error e;
  if (lk_model_finalize(m, &e) != LK_OK) {
    fprintf(stderr, "scene: %s\n", e.message);
    lk_model_free(m);
    return NULL;
  }
  return m;
}

lk_model *scene_block(const scene_opts *o) {
  lk_model *m = lk_model_new();
  set_options(m, o);
  add_material(m, "wood", o->mu_static, o->mu_dynamic);
  lk_link_spec b;
  lk_link_spec_default(&b);
  b.name = "block";
  b.joint.type = LK_JOINT_FREE;
  b.mass = 1.0;
  b.inertia = lk_inertia_solid_box(1.0, lk_v3(0.05, 0.05, 0.05));
  lk_model_add_link(m, &b, NULL);
  for (int k = 0; k < 4; k++) {
    lk_contact_spec c;
    lk_contact_spec_default(&c);
    c.link = "block";
    c.point = lk_v3(k & 1 ? 0.05 : -0.05, k & 2 ? 0.05 : -0.05, -0.05);
    c.material = "wood";
    lk_model_add_contact(m, &c, NULL);
  }
  double q[7] = {0, 0, 0.05, 1, 0, 0, 0};
  lk_model_set_initial(m, "block", q, 7, NULL, 0, NULL);
  return finish(m);
}

lk_model *scene_ball(const scene_opts *o, double radius, double mass, double mu_rolling,
                     double mu_torsional, double patch_radius) {
  lk_model *m = lk_model_new();
  set_options(m, o);
  lk_material_spec s;
  lk_material_spec_default(&s);
  s.name = "felt";
  s.mu_static = o->mu_static;
  s.mu_dynamic = o->mu_dynamic;
  s.mu_rolling = mu_rolling;
  s.mu_torsional = mu_torsional;
  s.patch_radius = patch_radius;
  lk_model_add_material(m, &s, NULL);
  lk_link_spec b;
  lk_link_spec_default(&b);
  b.name = "ball";
  b.joint.type = LK_JOINT_FREE;
  b.mass = mass;
  b.inertia = lk_inertia_solid_sphere(mass, radius);
  lk_model_add_link(m, &b, NULL);
  lk_contact_spec c;
  lk_contact_spec_default(&c);
  c.type = LK_CONTACT_ROLLING;
  c.link = "ball";
  c.radius = radius;
  c.material = "felt";
  lk_model_add_contact(m, &c, NULL);
  double q[7] = {0, 0, radius, 1, 0, 0, 0};
  lk_model_set_initial(m, "ball", q, 7, NULL, 0, NULL);
  return finish(m);
}

lk_status scene_run(const lk_model *m, lk_data *d, int n) {
  for (int i = 0; i < n; i++) {
    lk_status st = lk_step(m, d);
    if (st) return st;
  }
  return LK_OK;
}
