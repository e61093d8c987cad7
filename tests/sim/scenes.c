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

lk_model *scene_tripod(const scene_opts *o) {
  lk_model *m = lk_model_new();
  set_options(m, o);
  add_material(m, "wood", o->mu_static, o->mu_dynamic);
  lk_link_spec b;
  lk_link_spec_default(&b);
  b.name = "tripod";
  b.joint.type = LK_JOINT_FREE;
  b.mass = 1.0;
  b.inertia = lk_inertia_solid_cylinder(1.0, 0.1, 0.02);
  lk_model_add_link(m, &b, NULL);
  for (int k = 0; k < 3; k++) {
    double a = 2 * LK_PI * k / 3;
    lk_contact_spec c;
    lk_contact_spec_default(&c);
    c.link = "tripod";
    c.point = lk_v3(0.1 * cos(a), 0.1 * sin(a), -0.02);
    c.material = "wood";
    lk_model_add_contact(m, &c, NULL);
  }
  double q[7] = {0, 0, 0.02, 1, 0, 0, 0};
  lk_model_set_initial(m, "tripod", q, 7, NULL, 0, NULL);
  return finish(m);
}

lk_model *scene_block_geom(const scene_opts *o, double mu_block, double mu_ground,
                           int max_contacts) {
  lk_model *m = lk_model_new();
  set_options(m, o);
  lk_options opt = *lk_model_options(m);
  opt.max_contacts = max_contacts;
  lk_model_set_options(m, &opt, NULL);
  add_material(m, "block", mu_block, mu_block);
  add_material(m, "ground", mu_ground, mu_ground);
  lk_link_spec b;
  lk_link_spec_default(&b);
  b.name = "block";
  b.joint.type = LK_JOINT_FREE;
  b.mass = 1.0;
  b.inertia = lk_inertia_solid_box(1.0, lk_v3(0.05, 0.05, 0.05));
  lk_model_add_link(m, &b, NULL);
  lk_geom_spec g;
  lk_geom_spec_default(&g);
  g.name = "floor";
  g.type = LK_GEOM_PLANE;
  g.material = "ground";
  lk_model_add_geom(m, &g, NULL);
  g.name = "cube";
  g.link = "block";
  g.type = LK_GEOM_BOX;
  g.size[0] = g.size[1] = g.size[2] = 0.05;
  g.material = "block";
  lk_model_add_geom(m, &g, NULL);
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

static void add_box_link(lk_model *m, const char *name, const char *parent, lk_joint_type t,
                         lk_vec3 axis, lk_vec3 pos, double mass, lk_vec3 half) {
  lk_link_spec b;
  lk_link_spec_default(&b);
  b.name = name;
  b.parent = parent;
  b.joint.type = t;
  b.joint.axis = axis;
  b.origin.p = pos;
  b.mass = mass;
  b.inertia = lk_inertia_solid_box(mass, half);
  lk_model_add_link(m, &b, NULL);
}

static void add_effort(lk_model *m, const char *joint, double effort) {
  lk_actuator_spec a;
  lk_actuator_spec_default(&a);
  a.joint = joint;
  a.type = LK_ACTUATOR_EFFORT;
  a.target = effort;
  lk_model_add_actuator(m, &a, NULL);
}

lk_model *scene_pads(const scene_opts *o, double m_obj, double preload, int contacts_per_pad,
                     double patch, double mu_t) {
  lk_model *m = lk_model_new();
  set_options(m, o);
  lk_material_spec s;
  lk_material_spec_default(&s);
  s.name = "rubber";
  s.mu_static = o->mu_static;
  s.mu_dynamic = o->mu_dynamic;
  s.mu_torsional = mu_t;
  s.patch_radius = patch;
  lk_model_add_material(m, &s, NULL);
  const double h = 0.04, pad = 0.01;
  lk_link_spec palm;
  lk_link_spec_default(&palm);
  palm.name = "palm";
  palm.joint.type = LK_JOINT_PRISMATIC;
  palm.joint.axis = lk_v3(0, 0, 1);
  palm.joint.limited = 1;
  palm.joint.lower = 0;
  palm.joint.upper = 10;
  palm.origin.p = lk_v3(0, 0, 0.2);
  palm.mass = 100;
  palm.inertia = lk_inertia_solid_box(100, lk_v3(0.1, 0.05, 0.02));
  lk_model_add_link(m, &palm, NULL);
  /* The pads' origins sit at the object's faces (the contact points are on
   * the pads' inner faces), pad bodies extend outwards. */
  add_box_link(m, "pad_l", "palm", LK_JOINT_PRISMATIC, lk_v3(1, 0, 0), lk_v3(-h, 0, -0.2), 0.05,
               lk_v3(pad, 0.03, 0.03));
  add_box_link(m, "pad_r", "palm", LK_JOINT_PRISMATIC, lk_v3(1, 0, 0), lk_v3(h, 0, -0.2), 0.05,
               lk_v3(pad, 0.03, 0.03));
  add_box_link(m, "object", NULL, LK_JOINT_FREE, lk_v3(0, 0, 1), lk_v3(0, 0, 0), m_obj,
               lk_v3(h, h, h));
  add_effort(m, "pad_l", preload);
  add_effort(m, "pad_r", -preload);
  add_effort(m, "palm", 0);
  for (int side = 0; side < 2; side++) {
    const char *padname = side == 0 ? "pad_l" : "pad_r";
    double sx = side == 0 ? -1 : 1;
    for (int k = 0; k < contacts_per_pad; k++) {
      lk_contact_spec c;
      lk_contact_spec_default(&c);
      c.type = LK_CONTACT_ROLLING;
      c.link = "object";
      double dy = contacts_per_pad == 1 ? 0 : (k & 1 ? 0.02 : -0.02);
      double dz = contacts_per_pad == 1 ? 0 : (k & 2 ? 0.02 : -0.02);
      c.point = lk_v3(sx * h, dy, dz);
      c.other = padname;
      c.other_point = lk_v3(0, dy, dz);
      c.normal = lk_v3(-sx, 0, 0);
      c.material = "rubber";
      lk_model_add_contact(m, &c, NULL);
    }
  }
  double q[7] = {0, 0, 0, 1, 0, 0, 0};
  lk_model_set_initial(m, "object", q, 7, NULL, 0, NULL);
  return finish(m);
}

lk_model *scene_four_bar(const scene_opts *o) {
  /* Ground pivots A = (0,0,0) and D = (0.3,0,0); crank AB = 0.1 at angle
   * a, rocker DC = 0.25, coupler BC = 0.3, all in the x-z plane. The
   * initial crank angle is 60 degrees; C is found by circle intersection
   * and the other angles follow, so the loop starts closed. */
  const double L1 = 0.1, L2 = 0.3, L3 = 0.25, G = 0.3, a = 60 * LK_PI / 180;
  double bx = L1 * cos(a), bz = L1 * sin(a);
  double dx = G - bx, dz = -bz, dd = sqrt(dx * dx + dz * dz);
  double along = (L2 * L2 - L3 * L3 + dd * dd) / (2 * dd), hh = sqrt(L2 * L2 - along * along);
  double cx = bx + along * dx / dd - hh * dz / dd, cz = bz + along * dz / dd + hh * dx / dd;
  lk_model *m = lk_model_new();
  set_options(m, o);
  /* Links lie along their local +x; a hinge about y by angle q turns +x
   * towards -z, so a link at world angle phi (from +x towards +z) has
   * q = -phi. */
  double phi1 = a, phi2 = atan2(cz - bz, cx - bx), phi3 = atan2(cz, cx - G);
  lk_link_spec s;
  lk_link_spec_default(&s);
  s.name = "crank";
  s.joint.type = LK_JOINT_REVOLUTE;
  s.joint.axis = lk_v3(0, 1, 0);
  s.mass = 0.2;
  s.com = lk_v3(L1 / 2, 0, 0);
  s.inertia = lk_inertia_solid_box(0.2, lk_v3(L1 / 2, 0.01, 0.01));
  lk_model_add_link(m, &s, NULL);
  s.name = "coupler";
  s.parent = "crank";
  s.origin.p = lk_v3(L1, 0, 0);
  s.mass = 0.5;
  s.com = lk_v3(L2 / 2, 0, 0);
  s.inertia = lk_inertia_solid_box(0.5, lk_v3(L2 / 2, 0.01, 0.01));
  lk_model_add_link(m, &s, NULL);
  s.name = "rocker";
  s.parent = NULL;
  s.origin.p = lk_v3(G, 0, 0);
  s.mass = 0.4;
  s.com = lk_v3(L3 / 2, 0, 0);
  s.inertia = lk_inertia_solid_box(0.4, lk_v3(L3 / 2, 0.01, 0.01));
  lk_model_add_link(m, &s, NULL);
  lk_loop_spec l;
  lk_loop_spec_default(&l);
  l.name = "close";
  l.type = LK_LOOP_BALL;
  l.link_a = "coupler";
  l.frame_a.p = lk_v3(L2, 0, 0);
  l.link_b = "rocker";
  l.frame_b.p = lk_v3(L3, 0, 0);
  lk_model_add_loop(m, &l, NULL);
  double q1 = -phi1, q2 = -(phi2 - phi1), q3 = -phi3;
  lk_model_set_initial(m, "crank", &q1, 1, NULL, 0, NULL);
  lk_model_set_initial(m, "coupler", &q2, 1, NULL, 0, NULL);
  lk_model_set_initial(m, "rocker", &q3, 1, NULL, 0, NULL);
  return finish(m);
}

lk_status scene_run(const lk_model *m, lk_data *d, int n) {
  for (int i = 0; i < n; i++) {
    lk_status st = lk_step(m, d);
    if (st) return st;
  }
  return LK_OK;
}
