/* bench/models: one line per friction model (docs/contact-models.md), the
 * time per step, or per load increment for the static analysis:
 *   complementarity  a block on four corner contacts on a 20 degree incline
 *   smoothed         the same block, friction_law smoothed (eps_v 1e-3)
 *   compliant        500 spheres settling in a box (hooke, linear_history)
 *   static           the pipe-support member, one increment to 8 N
 * Usage: bench/models [--quick] */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../tests/sim/scenes.h"
#include "linkage/linkage.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static double time_steps(lk_model *m, int n, int warm) {
  lk_data *d = lk_data_new(m);
  for (int i = 0; i < warm; i++) lk_step(m, d);
  double t0 = now();
  for (int i = 0; i < n; i++)
    if (lk_step(m, d)) {
      fprintf(stderr, "step %d failed\n", i);
      break;
    }
  double t = (now() - t0) / n;
  lk_data_free(d);
  return t;
}

static lk_model *block(lk_friction_law law) {
  scene_opts so = scene_defaults();
  so.gravity = scene_incline_gravity(20 * M_PI / 180);
  lk_model *m = scene_block(&so);
  lk_options o = *lk_model_options(m);
  o.friction_law = law;
  lk_model_set_options(m, &o, NULL);
  return m;
}

static lk_model *pile(int n) {
  const double r = 0.02;
  lk_model *m = lk_model_new();
  lk_options o;
  lk_options_default(&o);
  o.timestep = 2e-4;
  lk_model_set_options(m, &o, NULL);
  lk_material_spec mat;
  lk_material_spec_default(&mat);
  mat.name = "grain";
  mat.contact = LK_CONTACT_COMPLIANT;
  mat.k_n = 2e4;
  mat.damping = 8;
  mat.k_t = 2e4 * 2 / 7.0;
  mat.x_gamma_t = 0.5;
  lk_model_add_material(m, &mat, NULL);
  lk_geom_spec p;
  lk_geom_spec_default(&p);
  p.type = LK_GEOM_PLANE;
  p.material = "grain";
  lk_model_add_geom(m, &p, NULL);
  lk_vec3 nrm[4] = {lk_v3(1, 0, 0), lk_v3(-1, 0, 0), lk_v3(0, 1, 0), lk_v3(0, -1, 0)};
  for (int k = 0; k < 4; k++) {
    p.pose.R = lk_m3_from_axis_angle(lk_v3_normalize(lk_v3_cross(lk_v3(0, 0, 1), nrm[k])), M_PI / 2);
    p.pose.p = lk_v3_scale(nrm[k], -0.24);
    lk_model_add_geom(m, &p, NULL);
  }
  static char names[1000][16];
  double mass = 4.0 / 3.0 * M_PI * r * r * r * 2500;
  for (int i = 0; i < n && i < 1000; i++) {
    snprintf(names[i], sizeof names[i], "s%d", i);
    lk_link_spec b;
    lk_link_spec_default(&b);
    b.name = names[i];
    b.joint.type = LK_JOINT_FREE;
    b.mass = mass;
    b.inertia = lk_inertia_solid_sphere(mass, r);
    lk_model_add_link(m, &b, NULL);
    lk_geom_spec g;
    lk_geom_spec_default(&g);
    g.link = names[i];
    g.size[0] = r;
    g.material = "grain";
    lk_model_add_geom(m, &g, NULL);
    int ix = i % 10, iy = (i / 10) % 10, iz = i / 100;
    double q[7] = {(ix - 4.5) * 2.3 * r + 0.001 * (i % 7), (iy - 4.5) * 2.3 * r,
                   1.05 * r + iz * 2.3 * r, 1, 0, 0, 0};
    lk_model_set_initial(m, names[i], q, 7, NULL, 0, NULL);
  }
  lk_model_finalize(m, NULL);
  return m;
}

static lk_model *member(void) {
  lk_model *m = lk_model_new();
  lk_link_spec l;
  lk_link_spec_default(&l);
  l.name = "member";
  l.joint.name = "axial";
  l.joint.type = LK_JOINT_PRISMATIC;
  l.joint.axis = lk_v3(1, 0, 0);
  l.joint.stiffness = 1e5;
  l.mass = 1;
  l.inertia = lk_m3_diag(0.01, 0.01, 0.01);
  lk_model_add_link(m, &l, NULL);
  lk_load_spec f;
  lk_load_spec_default(&f);
  f.link = "member";
  f.force = lk_v3(8, 0, 0);
  lk_model_add_load(m, &f, NULL);
  lk_support_spec s;
  lk_support_spec_default(&s);
  s.joint = "axial";
  s.normal_force = 12;
  s.mu_static = s.mu_dynamic = 0.25;
  lk_model_add_support(m, &s, NULL);
  lk_model_finalize(m, NULL);
  return m;
}

int main(int argc, char **argv) {
  int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  int n = quick ? 200 : 5000;
  lk_model *m = block(LK_FRICTION_COMPLEMENTARITY);
  printf("complementarity  block, 4 contacts      %9.2f us/step\n", 1e6 * time_steps(m, n, 100));
  lk_model_free(m);
  m = block(LK_FRICTION_SMOOTHED);
  printf("smoothed         block, 4 contacts      %9.2f us/step\n", 1e6 * time_steps(m, n, 100));
  lk_model_free(m);
  m = pile(500);
  printf("compliant        500 spheres in a box   %9.2f us/step\n",
         1e6 * time_steps(m, quick ? 50 : 1000, quick ? 50 : 2000));
  lk_model_free(m);
  m = member();
  lk_data *d = lk_data_new(m);
  int reps = quick ? 100 : 20000;
  double t0 = now();
  for (int i = 0; i < reps; i++) {
    lk_data_reset(d);
    lk_static_solve(m, d, NULL, NULL, NULL, NULL);
  }
  printf("static           pipe support, 8 N      %9.2f us/increment (%d iterations)\n",
         1e6 * (now() - t0) / reps, lk_data_static_report(d)->iterations);
  lk_data_free(d);
  lk_model_free(m);
  return 0;
}
