/* Scenes at scale (see piles.h). */
#include "piles.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static lk_model *begin(double timestep, int max_island_rows, int max_contacts) {
  lk_model *m = lk_model_new();
  if (!m) return NULL;
  lk_options opt;
  lk_options_default(&opt);
  opt.timestep = timestep;
  opt.max_island_rows = max_island_rows;
  opt.max_contacts = max_contacts;
  lk_material_spec s;
  lk_material_spec_default(&s);
  s.name = "wood";
  s.mu_static = 0.5;
  s.mu_dynamic = 0.5;
  lk_geom_spec g;
  lk_geom_spec_default(&g);
  g.name = "floor";
  g.type = LK_GEOM_PLANE;
  g.material = "wood";
  if (lk_model_set_options(m, &opt, NULL) || lk_model_add_material(m, &s, NULL) ||
      lk_model_add_geom(m, &g, NULL)) {
    lk_model_free(m);
    return NULL;
  }
  return m;
}

static lk_model *finish(lk_model *m, int bad) {
  lk_error e;
  lk_error_clear(&e);
  if (!m) return NULL;
  if (bad || lk_model_finalize(m, &e) != LK_OK) {
    fprintf(stderr, "piles: %s\n", bad ? "cannot build the scene" : e.message);
    lk_model_free(m);
    return NULL;
  }
  return m;
}

/* A free 1 kg cube of edge 0.1 m at p. */
static int cube(lk_model *m, int k, lk_vec3 p) {
  char name[24];
  snprintf(name, sizeof name, "box%d", k);
  lk_link_spec l;
  lk_link_spec_default(&l);
  l.name = name;
  l.joint.type = LK_JOINT_FREE;
  l.mass = 1.0;
  l.inertia = lk_inertia_solid_box(1.0, lk_v3(0.05, 0.05, 0.05));
  lk_geom_spec g;
  lk_geom_spec_default(&g);
  g.link = name;
  g.type = LK_GEOM_BOX;
  g.size[0] = g.size[1] = g.size[2] = 0.05;
  g.material = "wood";
  double q[7] = {p.x, p.y, p.z, 1, 0, 0, 0};
  return lk_model_add_link(m, &l, NULL) || lk_model_add_geom(m, &g, NULL) ||
         lk_model_set_initial(m, name, q, 7, NULL, 0, NULL);
}

lk_model *piles_tower(int n, double timestep) { return piles_tower_options(n, timestep, 0, 0); }

lk_model *piles_tower_options(int n, double timestep, int max_island_rows, int max_contacts) {
  lk_model *m = begin(timestep, max_island_rows, max_contacts);
  int bad = !m;
  for (int k = 0; k < n && !bad; k++)
    bad = cube(m, k + 1, lk_v3(0, 0, 0.05 - PILES_DEPTH0 + k * (0.1 - PILES_DEPTH0)));
  return finish(m, bad);
}

lk_model *piles_pyramid(int n, double timestep) {
  int side = 1;
  for (;;) {
    int held = 0;
    for (int s = side; s >= 1; s--) held += s * s;
    if (held >= n) break;
    side++;
  }
  lk_model *m = begin(timestep, 0, 0);
  int bad = !m, k = 0;
  for (int layer = 0; layer < side && k < n && !bad; layer++) {
    int s = side - layer;
    double z = 0.05 - PILES_DEPTH0 + layer * (0.1 - PILES_DEPTH0);
    double x0 = -0.5 * PILES_PITCH * (s - 1);
    for (int i = 0; i < s && k < n && !bad; i++)
      for (int j = 0; j < s && k < n && !bad; j++, k++)
        bad = cube(m, k + 1, lk_v3(x0 + PILES_PITCH * i, x0 + PILES_PITCH * j, z));
  }
  return finish(m, bad);
}

lk_model *piles_layered(int n, int layers, double gap, double timestep, int max_contacts) {
  int per = (n + layers - 1) / layers, side = 1;
  while (side * side < per) side++;
  lk_model *m = begin(timestep, 0, max_contacts);
  int bad = !m, k = 0;
  const double pitch = 0.1 + gap, x0 = -0.5 * pitch * (side - 1);
  for (int layer = 0; layer < layers && k < n && !bad; layer++) {
    double z = 0.05 - PILES_DEPTH0 + layer * (0.1 - PILES_DEPTH0);
    for (int i = 0; i < per && k < n && !bad; i++, k++)
      bad = cube(m, k + 1, lk_v3(x0 + pitch * (i % side), x0 + pitch * (i / side), z));
  }
  return finish(m, bad);
}

lk_model *piles_chain(int n, double drop, double timestep) {
  const double r = 0.02, seg = 0.12, mass = 0.1;
  lk_model *m = begin(timestep, 0, 0);
  int bad = !m;
  if (!bad && drop > 0) {
    lk_geom_spec g;
    lk_geom_spec_default(&g);
    g.name = "obstacle";
    g.type = LK_GEOM_BOX;
    g.size[0] = g.size[1] = g.size[2] = 0.1;
    g.pose.p = lk_v3(0.5 * n * seg, 0, 0.1);
    g.material = "wood";
    bad = lk_model_add_geom(m, &g, NULL) != LK_OK;
  }
  /* The capsule along the link's x axis, from the joint to the next. */
  lk_mat3 Iz = lk_inertia_solid_capsule(mass, r, 0.5 * seg - r);
  lk_mat3 I = lk_m3_diag(Iz.m[2][2], Iz.m[0][0], Iz.m[1][1]);
  for (int k = 0; k < n && !bad; k++) {
    char name[24], parent[24];
    snprintf(name, sizeof name, "link%d", k + 1);
    snprintf(parent, sizeof parent, "link%d", k);
    lk_link_spec l;
    lk_link_spec_default(&l);
    l.name = name;
    l.parent = k == 0 ? NULL : parent;
    l.joint.type = k == 0 ? LK_JOINT_FREE : LK_JOINT_BALL;
    if (k > 0) l.origin.p = lk_v3(seg, 0, 0);
    l.mass = mass;
    l.com = lk_v3(0.5 * seg, 0, 0);
    l.inertia = I;
    lk_geom_spec g;
    lk_geom_spec_default(&g);
    g.link = name;
    g.type = LK_GEOM_CAPSULE;
    g.size[0] = r;
    g.size[1] = 0.5 * seg - r;
    g.pose.p = lk_v3(0.5 * seg, 0, 0);
    g.pose.R = lk_m3_from_axis_angle(lk_v3(0, 1, 0), 0.5 * LK_PI);
    g.material = "wood";
    bad = lk_model_add_link(m, &l, NULL) || lk_model_add_geom(m, &g, NULL);
  }
  if (!bad) {
    double z = drop > 0 ? 0.2 + r + drop : r - PILES_DEPTH0;
    double q[7] = {0, 0, z, 1, 0, 0, 0};
    bad = lk_model_set_initial(m, "link1", q, 7, NULL, 0, NULL) != LK_OK;
  }
  return finish(m, bad);
}

/* A world box: half sizes h, centre c. */
static int wall(lk_model *m, int k, lk_vec3 h, lk_vec3 c) {
  char name[24];
  snprintf(name, sizeof name, "wall%d", k);
  lk_geom_spec g;
  lk_geom_spec_default(&g);
  g.name = name;
  g.type = LK_GEOM_BOX;
  g.size[0] = h.x, g.size[1] = h.y, g.size[2] = h.z;
  g.pose.p = c;
  g.material = "wood";
  return lk_model_add_geom(m, &g, NULL) != LK_OK;
}

lk_model *piles_spheres(int n, double timestep) {
  const double r = 0.05, mass = 0.1, pitch = PILES_SPHERE_PITCH;
  int k = 1;
  while (k * k * k < n) k++;
  int layers = (n + k * k - 1) / (k * k);
  double side = k * pitch, height = layers * pitch + 0.02, t = 0.05;
  lk_model *m = begin(timestep, 0, 0);
  int bad = !m;
  double hz = 0.5 * height;
  if (!bad)
    bad = wall(m, 1, lk_v3(t, 0.5 * side + 2 * t, hz), lk_v3(0.5 * side + t, 0, hz)) ||
          wall(m, 2, lk_v3(t, 0.5 * side + 2 * t, hz), lk_v3(-0.5 * side - t, 0, hz)) ||
          wall(m, 3, lk_v3(0.5 * side, t, hz), lk_v3(0, 0.5 * side + t, hz)) ||
          wall(m, 4, lk_v3(0.5 * side, t, hz), lk_v3(0, -0.5 * side - t, hz));
  for (int b = 0; b < n && !bad; b++) {
    int layer = b / (k * k), i = (b / k) % k, j = b % k;
    /* A fixed pattern of offsets in [-5, 5] mm. */
    double dx = 0.005 * ((b * 7 % 11) - 5) / 5.0, dy = 0.005 * ((b * 5 % 13) - 6) / 6.0;
    char name[24];
    snprintf(name, sizeof name, "ball%d", b + 1);
    lk_link_spec l;
    lk_link_spec_default(&l);
    l.name = name;
    l.joint.type = LK_JOINT_FREE;
    l.mass = mass;
    l.inertia = lk_m3_diag(0.4 * mass * r * r, 0.4 * mass * r * r, 0.4 * mass * r * r);
    lk_geom_spec g;
    lk_geom_spec_default(&g);
    g.link = name;
    g.type = LK_GEOM_SPHERE;
    g.size[0] = r;
    g.material = "wood";
    double q[7] = {-0.5 * side + (i + 0.5) * pitch + dx, -0.5 * side + (j + 0.5) * pitch + dy,
                   r + 0.02 + layer * pitch, 1, 0, 0, 0};
    bad = lk_model_add_link(m, &l, NULL) || lk_model_add_geom(m, &g, NULL) ||
          lk_model_set_initial(m, name, q, 7, NULL, 0, NULL);
  }
  return finish(m, bad);
}
