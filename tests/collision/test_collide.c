/* Collision of a model's geoms (lk_collide): contact conventions, boxes on
 * the floor, stacks with persistent ids, filtering, the broad phase against
 * brute force, persistence of friction state and impulses, capacity,
 * determinism and allocation. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"

#define PL LK_GEOM_PLANE
#define SP LK_GEOM_SPHERE
#define CA LK_GEOM_CAPSULE
#define BX LK_GEOM_BOX
#define CY LK_GEOM_CYLINDER

static lk_transform at(double x, double y, double z) {
  lk_transform T = lk_tf_identity();
  T.p = lk_v3(x, y, z);
  return T;
}

static lk_transform rot(double ax, double ay, double az, double angle, double x, double y,
                        double z) {
  lk_transform T;
  T.R = lk_m3_from_axis_angle(lk_v3_normalize(lk_v3(ax, ay, az)), angle);
  T.p = lk_v3(x, y, z);
  return T;
}

static void add_link(lk_model *m, const char *name, const char *parent, lk_joint_type jt) {
  lk_link_spec l;
  lk_link_spec_default(&l);
  l.name = name;
  l.parent = parent;
  l.joint.type = jt;
  l.joint.axis = lk_v3(0, 1, 0);
  l.mass = 1;
  l.inertia = lk_inertia_solid_box(1, lk_v3(0.1, 0.1, 0.1));
  lk_error e;
  LK_ASSERT_OK(lk_model_add_link(m, &l, &e), &e);
}

static void add_geom(lk_model *m, const char *link, lk_geom_type t, double s0, double s1,
                     double s2, lk_transform pose, double margin) {
  lk_geom_spec g;
  lk_geom_spec_default(&g);
  g.link = link;
  g.type = t;
  g.size[0] = s0;
  g.size[1] = s1;
  g.size[2] = s2;
  g.pose = pose;
  g.margin = margin;
  lk_error e;
  LK_ASSERT_OK(lk_model_add_geom(m, &g, &e), &e);
}

static lk_model *finalize(lk_model *m) {
  lk_error e;
  LK_ASSERT_OK(lk_model_finalize(m, &e), &e);
  return m;
}

/* Place the free body `link` at pose T. */
static void place(const lk_model *m, lk_data *d, int link, lk_transform T) {
  double *q = lk_data_q(d) + lk_model_joint_qadr(m, link);
  lk_quat r = lk_q_from_mat3(&T.R);
  q[0] = T.p.x;
  q[1] = T.p.y;
  q[2] = T.p.z;
  q[3] = r.w;
  q[4] = r.x;
  q[5] = r.y;
  q[6] = r.z;
}

static lk_status run(const lk_model *m, lk_data *d) {
  lk_error e;
  LK_ASSERT_OK(lk_forward_kinematics(m, d), NULL);
  return lk_collide(m, d, &e);
}

static unsigned lcg(unsigned *s) {
  *s = *s * 1664525u + 1013904223u;
  return *s >> 8;
}

static double urand(unsigned *s, double lo, double hi) {
  return lo + (hi - lo) * (lcg(s) & 0xffffff) / (double)0x1000000;
}

/* -------------------------------------------------------- conventions */

static void test_box_on_floor(void) {
  lk_model *m = lk_model_new();
  add_geom(m, NULL, PL, 0, 0, 0, at(0, 0, 0), 0);
  add_link(m, "box", NULL, LK_JOINT_FREE);
  add_geom(m, "box", BX, 0.3, 0.2, 0.1, at(0, 0, 0), 0);
  finalize(m);
  lk_data *d = lk_data_new(m);
  int box = lk_model_link_index(m, "box");
  lk_error e;
  LK_ASSERT_INT_EQ(lk_collide(m, d, &e), LK_INVALID_ARGUMENT); /* no kinematics yet */
  /* Flat, 1 mm deep: the 4 lower corners, normal up out of the floor. */
  place(m, d, box, at(1, 2, 0.099));
  LK_ASSERT_OK(run(m, d), NULL);
  LK_ASSERT_INT_EQ(lk_data_ncontact(d), 4);
  for (int i = 0; i < lk_data_ncontact(d); i++) {
    const lk_contact *c = lk_data_contact(d, i);
    LK_ASSERT_INT_EQ(c->geom_a, 1);
    LK_ASSERT_INT_EQ(c->geom_b, 0);
    LK_ASSERT_INT_EQ(c->link_a, box);
    LK_ASSERT_INT_EQ(c->link_b, 0);
    LK_ASSERT_NEAR(c->normal.z, 1, 1e-15);
    LK_ASSERT_NEAR(c->depth, 0.001, 1e-12);
    LK_ASSERT_NEAR(fabs(c->pos.x - 1), 0.3, 1e-12);
    LK_ASSERT_NEAR(fabs(c->pos.y - 2), 0.2, 1e-12);
    LK_ASSERT_NEAR(c->pos.z, -0.0005, 1e-12);
    LK_ASSERT_INT_EQ(c->age, 0);
    LK_ASSERT_INT_EQ((long)c->id, i + 1);
    /* (n, t1, t2) right-handed orthonormal. */
    lk_vec3 t1 = c->tangent[0], t2 = c->tangent[1];
    LK_ASSERT_NEAR(lk_v3_norm(t1), 1, 1e-14);
    LK_ASSERT_NEAR(lk_v3_dot(t1, c->normal), 0, 1e-14);
    LK_ASSERT_NEAR(lk_v3_norm(lk_v3_sub(lk_v3_cross(t1, t2), c->normal)), 0, 1e-14);
  }
  /* On an edge (45 degrees about x): 2. On a corner: 1. */
  double he = (0.2 + 0.1) / sqrt(2.0);
  place(m, d, box, rot(1, 0, 0, LK_PI / 4, 0, 0, he - 0.001));
  LK_ASSERT_OK(run(m, d), NULL);
  LK_ASSERT_INT_EQ(lk_data_ncontact(d), 2);
  lk_vec3 dg = lk_v3_normalize(lk_v3(-0.3, -0.2, -0.1)), down = lk_v3(0, 0, -1);
  lk_vec3 ax = lk_v3_cross(dg, down);
  double hd = sqrt(0.09 + 0.04 + 0.01);
  place(m, d, box, rot(ax.x, ax.y, ax.z, acos(lk_v3_dot(dg, down)), 0, 0, hd - 0.001));
  LK_ASSERT_OK(run(m, d), NULL);
  LK_ASSERT_INT_EQ(lk_data_ncontact(d), 1);
  if (lk_data_ncontact(d) == 1) LK_ASSERT_NEAR(lk_data_contact(d, 0)->depth, 0.001, 1e-12);
  /* Lifted: none; and accessors refuse out-of-range indices. */
  place(m, d, box, at(0, 0, 0.2));
  LK_ASSERT_OK(run(m, d), NULL);
  LK_ASSERT_INT_EQ(lk_data_ncontact(d), 0);
  CU_ASSERT_PTR_NULL(lk_data_contact(d, 0));
  CU_ASSERT_PTR_NULL(lk_data_contact(d, -1));
  LK_ASSERT_INT_EQ(lk_data_contact_set_state(d, 0, LK_FRICTION_STATIC, NULL), LK_INVALID_ARGUMENT);
  /* The geom pose is the link pose times the geom's pose. */
  const lk_transform *X = lk_data_geom_pose(d, 1);
  LK_ASSERT_NEAR(X->p.z, 0.2, 1e-15);
  CU_ASSERT_PTR_NULL(lk_data_geom_pose(d, 2));
  lk_data_free(d);
  lk_model_free(m);
}

/* ------------------------------------------------------------- stacks */

typedef struct {
  lk_model *m;
  lk_data *d;
  int link[5];
  lk_transform rest[5];
} stack;

/* A floor and 5 boxes, each 1e-5 deep into the one below (margin 1e-4, so
 * perturbations of 1e-9 never lose a corner). yaw: turn every other box. */
static stack make_stack(double yaw, double offset) {
  stack s;
  s.m = lk_model_new();
  add_geom(s.m, NULL, PL, 0, 0, 0, at(0, 0, 0), 0);
  const char *names[5] = {"b0", "b1", "b2", "b3", "b4"};
  for (int i = 0; i < 5; i++) {
    add_link(s.m, names[i], NULL, LK_JOINT_FREE);
    add_geom(s.m, names[i], BX, 0.2, 0.2, 0.1, at(0, 0, 0), 1e-4);
  }
  finalize(s.m);
  s.d = lk_data_new(s.m);
  for (int i = 0; i < 5; i++) {
    s.link[i] = lk_model_link_index(s.m, names[i]);
    s.rest[i] = rot(0, 0, 1, (i & 1) ? yaw : 0, offset * i, -0.5 * offset * i,
                    0.1 + 0.2 * i - 1e-5 * (i + 1));
    place(s.m, s.d, s.link[i], s.rest[i]);
  }
  return s;
}

/* The steps (of 1000) whose 20 contacts kept their ids, ages, depths,
 * normals and interfaces. */
static int check_stack(double yaw, double offset) {
  stack s = make_stack(yaw, offset);
  unsigned seed = 2024;
  uint64_t ids[20];
  int n0 = 0, good = 0;
  for (int step = 0; step < 1000; step++) {
    for (int i = 0; i < 5; i++) {
      /* Held, but jittered by 1e-9 in position and orientation. */
      lk_vec3 ax = lk_v3(urand(&seed, -1, 1), urand(&seed, -1, 1), urand(&seed, -1, 1));
      lk_transform T = rot(ax.x, ax.y, ax.z + 1e-3, urand(&seed, -1e-9, 1e-9), 0, 0, 0);
      lk_transform P = lk_tf_mul(&s.rest[i], &T);
      P.p = lk_v3_add(P.p, lk_v3(urand(&seed, -1e-9, 1e-9), urand(&seed, -1e-9, 1e-9),
                                 urand(&seed, -1e-9, 1e-9)));
      place(s.m, s.d, s.link[i], P);
    }
    if (run(s.m, s.d) != LK_OK) {
      LK_ASSERT_MSG(0, "step %d: lk_collide failed", step);
      break;
    }
    int n = lk_data_ncontact(s.d);
    if (n != 20) {
      LK_ASSERT_MSG(0, "yaw %g step %d: %d contacts, expected 20", yaw, step, n);
      break;
    }
    /* 4 per interface: (b0, floor), (b1, b0), ... in canonical order. */
    int per[5] = {0};
    int ok = 1;
    for (int k = 0; k < n; k++) {
      const lk_contact *c = lk_data_contact(s.d, k);
      int iface = c->geom_a - 1;
      if (iface < 0 || iface > 4 || c->geom_b != iface) ok = 0;
      else per[iface]++;
      if (step == 0) {
        ids[n0++] = c->id;
      } else if (c->id != ids[k] || c->age != step) {
        ok = 0;
      }
      if (fabs(c->depth - 1e-5) > 1e-7 || fabs(c->normal.z - 1) > 1e-12) ok = 0;
    }
    for (int i = 0; i < 5; i++) ok = ok && per[i] == 4;
    if (!ok) {
      LK_ASSERT_MSG(0, "yaw %g step %d: ids, ages, depths or interfaces changed", yaw, step);
      break;
    }
    good++;
  }
  LK_ASSERT_INT_EQ(n0, 20);
  /* The turned boxes' interfaces come from 8-point overlaps: the 4 kept
   * span them (spread around the centre). */
  if (yaw != 0) {
    for (int iface = 1; iface < 5; iface++) {
      double cx = 0, cy = 0;
      for (int k = 0; k < lk_data_ncontact(s.d); k++) {
        const lk_contact *c = lk_data_contact(s.d, k);
        if (c->geom_b != iface) continue;
        cx += c->pos.x / 4;
        cy += c->pos.y / 4;
      }
      lk_vec3 mid = lk_v3_scale(lk_v3_add(s.rest[iface].p, s.rest[iface - 1].p), 0.5);
      LK_ASSERT_MSG(hypot(cx - mid.x, cy - mid.y) < 0.08, "interface %d bunched", iface);
    }
  }
  lk_data_free(s.d);
  lk_model_free(s.m);
  return good;
}

/* Offset a little (incident corners inside the face below), exactly
 * aligned (corners on the sides of the face below: the hard case for
 * clipping), and every other box turned by 30 degrees (8-point overlaps
 * reduced to 4). */
static void test_stack_of_five(void) {
  LK_ASSERT_INT_EQ(check_stack(0, 0.01), 1000);
  LK_ASSERT_INT_EQ(check_stack(0, 0), 1000);
}
static void test_stack_of_five_turned(void) { LK_ASSERT_INT_EQ(check_stack(LK_PI / 6, 0.01), 1000); }

/* ---------------------------------------------------------- filtering */

static int count_pair(const lk_data *d, int g1, int g2) {
  int n = 0;
  for (int i = 0; i < lk_data_ncontact(d); i++) {
    const lk_contact *c = lk_data_contact(d, i);
    if ((c->geom_a == g1 && c->geom_b == g2) || (c->geom_a == g2 && c->geom_b == g1)) n++;
  }
  return n;
}

static void test_filtering(void) {
  /* A chain world -> a -> p (fixed) -> b -> c, all revolute but p, every
   * link with a sphere at the same place so that everything overlaps;
   * plus a floating body and two world geoms. */
  lk_model *m = lk_model_new();
  add_link(m, "a", NULL, LK_JOINT_REVOLUTE);
  add_link(m, "p", "a", LK_JOINT_FIXED);
  add_link(m, "b", "p", LK_JOINT_REVOLUTE);
  add_link(m, "c", "b", LK_JOINT_REVOLUTE);
  add_link(m, "free", NULL, LK_JOINT_FREE);
  add_geom(m, NULL, SP, 0.5, 0, 0, at(0, 0, 0), 0);    /* 0 world */
  add_geom(m, NULL, BX, 0.5, 0.5, 0.5, at(0, 0, 0), 0); /* 1 world */
  add_geom(m, "a", SP, 0.5, 0, 0, at(0, 0, 0), 0);     /* 2 */
  add_geom(m, "p", SP, 0.5, 0, 0, at(0, 0, 0), 0);     /* 3 welded to a */
  add_geom(m, "b", SP, 0.5, 0, 0, at(0, 0, 0), 0);     /* 4 */
  add_geom(m, "c", SP, 0.5, 0, 0, at(0, 0, 0), 0);     /* 5 */
  add_geom(m, "free", SP, 0.5, 0, 0, at(0, 0, 0), 0);  /* 6 */
  lk_geom_spec g;
  lk_geom_spec_default(&g);
  g.link = "c";
  g.size[0] = 0.5;
  g.group = 2; /* 7: on c, group 2 mask 2: meets no default geom */
  g.mask = 2;
  lk_model_add_geom(m, &g, NULL);
  g.group = 3; /* 8: on c, group 3 mask 1 */
  g.mask = 1;
  lk_model_add_geom(m, &g, NULL);
  g.link = "b";
  g.group = 1; /* 9: on b, default filter but collide_parent */
  g.mask = 1;
  g.collide_parent = 1;
  lk_model_add_geom(m, &g, NULL);
  finalize(m);
  /* Expected, from the rules (world, a+p, b, c, free are the bodies). */
  const int ng = 10;
  int want[10][10];
  memset(want, 0, sizeof want);
  int body[10] = {0, 0, 1, 1, 2, 3, 4, 3, 3, 2}; /* 0 world, 1 a+p, 2 b, 3 c, 4 free */
  int parent[5] = {-1, 0, 1, 2, -1};             /* free joints connect nothing */
  for (int i = 0; i < ng; i++)
    for (int j = 0; j < ng; j++) {
      if (i == j || body[i] == body[j]) continue;
      int gi = i == 7 ? 2 : (i == 8 ? 3 : 1), mi = i == 7 ? 2 : 1;
      int gj = j == 7 ? 2 : (j == 8 ? 3 : 1), mj = j == 7 ? 2 : 1;
      if (!(gi & mj) || !(gj & mi)) continue;
      if (parent[body[i]] == body[j] && i != 9) continue;
      if (parent[body[j]] == body[i] && j != 9) continue;
      want[i][j] = 1;
    }
  lk_data *d = lk_data_new(m);
  LK_ASSERT_OK(run(m, d), NULL);
  for (int i = 0; i < ng; i++)
    for (int j = i + 1; j < ng; j++) {
      LK_ASSERT_MSG(lk_collide_filter(m, i, j) == want[i][j], "filter(%d, %d) = %d, expected %d",
                    i, j, lk_collide_filter(m, i, j), want[i][j]);
      LK_ASSERT_MSG(lk_collide_filter(m, j, i) == want[i][j], "filter not symmetric (%d, %d)", i, j);
      LK_ASSERT_MSG((count_pair(d, i, j) > 0) == want[i][j], "pair (%d, %d): %d contacts, want %d", i,
                    j, count_pair(d, i, j), want[i][j]);
    }
  /* Spot checks of the rules in words. */
  CU_ASSERT_FALSE(lk_collide_filter(m, 0, 1)); /* world-world */
  CU_ASSERT_FALSE(lk_collide_filter(m, 0, 2)); /* a and its parent, the world */
  CU_ASSERT_FALSE(lk_collide_filter(m, 2, 3)); /* welded by a fixed joint */
  CU_ASSERT_FALSE(lk_collide_filter(m, 3, 4)); /* b's parent is p, welded to a */
  CU_ASSERT_TRUE(lk_collide_filter(m, 2, 5));  /* a and its grandchild c */
  CU_ASSERT_TRUE(lk_collide_filter(m, 0, 6));  /* a floating body and the world */
  CU_ASSERT_TRUE(lk_collide_filter(m, 9, 3));  /* collide_parent */
  CU_ASSERT_FALSE(lk_collide_filter(m, 7, 6)); /* group 2 meets nothing of group 1 */
  CU_ASSERT_TRUE(lk_collide_filter(m, 8, 6));  /* group 3 & mask 1 */
  CU_ASSERT_FALSE(lk_collide_filter(m, 4, 4));
  CU_ASSERT_FALSE(lk_collide_filter(m, 4, 99));
  CU_ASSERT_FALSE(lk_collide_filter(NULL, 0, 1));
  lk_data_free(d);
  lk_model_free(m);
}

/* ----------------------------------------------- broad vs brute force */

typedef struct {
  int ga, gb;
  lk_contact_point p;
} ref_contact;

static int ref_cmp(const void *x, const void *y) {
  const ref_contact *a = x, *b = y;
  if (a->ga != b->ga) return a->ga < b->ga ? -1 : 1;
  if (a->gb != b->gb) return a->gb < b->gb ? -1 : 1;
  return a->p.feature < b->p.feature ? -1 : a->p.feature > b->p.feature;
}

/* All contacts by testing every pair the filter allows. */
static int brute_force(const lk_model *m, const lk_data *d, ref_contact *out, int cap) {
  int n = 0, ng = lk_model_ngeom(m);
  for (int i = 0; i < ng; i++)
    for (int j = i + 1; j < ng; j++) {
      if (!lk_collide_filter(m, i, j)) continue;
      int ga = j, gb = i; /* b on the link of lower index */
      if (lk_model_geom_link(m, i) > lk_model_geom_link(m, j)) {
        ga = i;
        gb = j;
      }
      lk_geom_spec sa, sb;
      lk_model_geom(m, ga, &sa);
      lk_model_geom(m, gb, &sb);
      lk_manifold man;
      lk_error e;
      LK_ASSERT_OK(lk_collide_geoms(sa.type, sa.size, lk_data_geom_pose(d, ga), sb.type, sb.size,
                                    lk_data_geom_pose(d, gb), fmax(sa.margin, sb.margin), &man, &e),
                   &e);
      for (int k = 0; k < man.n && n < cap; k++) out[n++] = (ref_contact){ga, gb, man.pt[k]};
    }
  qsort(out, (size_t)n, sizeof *out, ref_cmp);
  return n;
}

static int same_contacts(const lk_data *d, const ref_contact *r, int n, char *why) {
  if (lk_data_ncontact(d) != n) {
    sprintf(why, "%d contacts, brute force %d", lk_data_ncontact(d), n);
    return 0;
  }
  for (int i = 0; i < n; i++) {
    const lk_contact *c = lk_data_contact(d, i);
    if (c->geom_a != r[i].ga || c->geom_b != r[i].gb || c->feature != r[i].p.feature ||
        lk_v3_norm(lk_v3_sub(c->pos, r[i].p.pos)) != 0 || c->depth != r[i].p.depth ||
        lk_v3_norm(lk_v3_sub(c->normal, r[i].p.normal)) != 0) {
      sprintf(why, "contact %d differs: (%d %d %u) vs (%d %d %u)", i, c->geom_a, c->geom_b,
              c->feature, r[i].ga, r[i].gb, r[i].p.feature);
      return 0;
    }
  }
  return 1;
}

/* The steps (of steps) whose contacts matched the brute-force pass. */
static int random_scene(const unsigned seed0, int nbody, double spread_x, double spread_y,
                        double spread_z, int steps) {
  unsigned seed = seed0;
  lk_model *m = lk_model_new();
  add_geom(m, NULL, PL, 0, 0, 0, at(0, 0, 0), 0);
  add_geom(m, NULL, BX, 0.3, 0.3, 0.3, at(0.5, 0.5, 0.2), 0.02);
  add_geom(m, NULL, BX, 20, 0.2, 3, rot(0, 0, 1, 0.3, 0, 3, 0), 0); /* a big wall */
  add_geom(m, NULL, PL, 0, 0, 0, rot(0, 1, 0, -1.3, -spread_x, 0, 0), 0.01); /* a slanted wall */
  char names[200][8];
  lk_geom_type types[4] = {SP, CA, BX, CY};
  for (int i = 0; i < nbody; i++) {
    sprintf(names[i], "n%d", i);
    add_link(m, names[i], NULL, LK_JOINT_FREE);
    int t = (int)(lcg(&seed) % 4);
    double margin = lcg(&seed) % 3 == 0 ? 0.05 : 0.0;
    add_geom(m, names[i], types[t], urand(&seed, 0.05, 0.3), urand(&seed, 0.0, 0.3) + (t == 1 ? 0 : 0.05),
             urand(&seed, 0.05, 0.3), at(0, 0, 0), margin);
    if (i % 10 == 0) /* a second geom on some bodies, off centre */
      add_geom(m, names[i], SP, 0.1, 0, 0, at(0.2, 0, 0), 0);
    if (i == 7) add_geom(m, names[i], PL, 0, 0, 0, rot(1, 0, 0, 2.5, 0, 0, 0), 0); /* a half-space on a body */
  }
  lk_options o;
  lk_options_default(&o);
  o.max_contacts = 20000; /* dense clumps overlap far more than resting bodies */
  lk_model_set_options(m, &o, NULL);
  finalize(m);
  lk_data *d = lk_data_new(m);
  lk_vec3 *pos = malloc(sizeof(lk_vec3) * (size_t)nbody);
  for (int i = 0; i < nbody; i++)
    pos[i] = lk_v3(urand(&seed, -spread_x, spread_x), urand(&seed, -spread_y, spread_y),
                   urand(&seed, 0, spread_z));
  ref_contact *ref = malloc(sizeof(ref_contact) * 20000);
  char why[256];
  int total = 0, matched = 0;
  for (int step = 0; step < steps; step++) {
    for (int i = 0; i < nbody; i++) {
      /* Drift, and every now and then a jump. */
      double jump = lcg(&seed) % 50 == 0 ? 1.0 : 0.02;
      pos[i] = lk_v3_add(pos[i], lk_v3(urand(&seed, -jump, jump), urand(&seed, -jump, jump),
                                       urand(&seed, -jump, jump)));
      lk_vec3 ax = lk_v3(urand(&seed, -1, 1), urand(&seed, -1, 1), urand(&seed, -1, 1) + 1e-3);
      lk_transform T = rot(ax.x, ax.y, ax.z, urand(&seed, 0, LK_PI), pos[i].x, pos[i].y, pos[i].z);
      place(m, d, lk_model_link_index(m, names[i]), T);
    }
    lk_status st = run(m, d);
    LK_ASSERT_MSG(st == LK_OK, "step %d: %s", step, lk_strerror(st));
    int n = brute_force(m, d, ref, 20000);
    int ok = same_contacts(d, ref, n, why);
    LK_ASSERT_MSG(ok, "scene %u step %d: %s", seed0, step, why);
    total += n;
    if (!ok) break;
    matched++;
  }
  LK_ASSERT_MSG(total > 10 * steps, "scenes too sparse: %d contacts in %d steps", total, steps);
  free(ref);
  free(pos);
  lk_data_free(d);
  lk_model_free(m);
  return matched;
}

static void test_broadphase_matches_brute_force(void) {
  LK_ASSERT_INT_EQ(random_scene(1, 120, 2.0, 2.0, 1.0, 25), 25); /* a floor scene */
  LK_ASSERT_INT_EQ(random_scene(2, 120, 0.5, 0.5, 4.0, 25), 25); /* a tall pile: the axes switch */
  LK_ASSERT_INT_EQ(random_scene(3, 60, 6.0, 0.3, 0.5, 25), 25);  /* a long row */
  LK_ASSERT_INT_EQ(random_scene(4, 30, 0.4, 0.4, 0.4, 25), 25);  /* a dense clump */
}

/* ------------------------------------------------ broad-phase cost */

static void test_broadphase_is_not_quadratic(void) {
  /* 1024 spheres on a floor, each on its own free body, on a 64 x 16 grid
   * (jittered; wider along x, so the sweep runs along x and the slabs are
   * bands of y): the sweep must look at a few neighbours per sphere, not at
   * n^2 / 2 = 524288 pairs; and a second pass over the unchanged scene
   * re-sorts nothing. */
  enum { cols = 64, rows = 16, n = rows * cols };
  lk_model *m = lk_model_new();
  add_geom(m, NULL, PL, 0, 0, 0, at(0, 0, 0), 0);
  static char names[n][8];
  static double jx[n], jy[n];
  static int link[n];
  unsigned seed = 5;
  for (int i = 0; i < n; i++) {
    sprintf(names[i], "s%d", i);
    add_link(m, names[i], NULL, LK_JOINT_FREE);
    add_geom(m, names[i], SP, 0.1, 0, 0, at(0, 0, 0), 0);
    jx[i] = urand(&seed, -0.01, 0.01);
    jy[i] = urand(&seed, -0.01, 0.01);
  }
  finalize(m);
  lk_data *d = lk_data_new(m);
  LK_ASSERT_MSG(d != NULL, "no data for %d free bodies", n);
  if (!d) return;
  /* Sphere i is column c = i % cols of row r = i / cols. */
  for (int i = 0; i < n; i++) {
    link[i] = lk_model_link_index(m, names[i]);
    place(m, d, link[i], at(0.25 * (i % cols - 31.5) + jx[i], 0.25 * (i / cols) + jy[i], 0.0999));
  }
  LK_ASSERT_OK(run(m, d), NULL);
  LK_ASSERT_INT_EQ(lk_data_ncontact(d), n);
  lk_collision_stats s;
  lk_data_collision_stats(d, &s);
  LK_ASSERT_MSG(s.sweep_checks < 10LL * n, "%lld box checks for %d spheres", s.sweep_checks, n);
  LK_ASSERT_INT_EQ(s.pairs, n); /* only the floor pairs reach the narrow phase */
  LK_ASSERT_MSG(s.new_entries >= n, "first pass: %d new entries", s.new_entries); /* all new */
  LK_ASSERT_INT_EQ(s.full_sorts, 0);
  LK_ASSERT_OK(run(m, d), NULL);
  lk_data_collision_stats(d, &s);
  LK_ASSERT_INT_EQ(s.new_entries, 0);
  LK_ASSERT_INT_EQ(s.sort_moves, 0);
  LK_ASSERT_INT_EQ(s.full_sorts, 0);
  /* Rows shifted along x by different amounts (neighbouring rows share
   * slabs, so their spheres interleave differently): a small re-sort. */
  for (int i = 0; i < n; i++) {
    int r = i / cols;
    place(m, d, link[i],
          at(0.25 * (i % cols - 31.5) + jx[i] + 0.03 * (r % 7), 0.25 * r + jy[i], 0.0999));
  }
  LK_ASSERT_OK(run(m, d), NULL);
  lk_data_collision_stats(d, &s);
  LK_ASSERT_MSG(s.sort_moves > 0 && s.sort_moves < 2 * n && s.full_sorts == 0,
                "%d moves, %d full sorts", s.sort_moves, s.full_sorts);
  /* Every row turned end for end about its centre (same slabs, reversed
   * order along the row): the old order is useless, the merge sort takes
   * over, and the result is still right (every sphere on the floor,
   * nothing else). */
  for (int i = 0; i < n; i++) {
    int r = i / cols;
    place(m, d, link[i], at(-(0.25 * (i % cols - 31.5) + jx[i]), 0.25 * r - jy[i], 0.0999));
  }
  LK_ASSERT_OK(run(m, d), NULL);
  lk_data_collision_stats(d, &s);
  LK_ASSERT_INT_EQ(s.full_sorts, 1);
  LK_ASSERT_INT_EQ(lk_data_ncontact(d), n);
  LK_ASSERT_INT_EQ(s.pairs, n);
  LK_ASSERT_MSG(s.sweep_checks < 10LL * n, "%lld box checks for %d spheres", s.sweep_checks, n);
  lk_data_free(d);
  lk_model_free(m);
}

/* --------------------------------------------------------- persistence */

static void test_persistence(void) {
  lk_model *m = lk_model_new();
  add_geom(m, NULL, PL, 0, 0, 0, at(0, 0, 0), 0);
  add_link(m, "ball", NULL, LK_JOINT_FREE);
  add_geom(m, "ball", SP, 0.1, 0, 0, at(0, 0, 0), 0);
  add_link(m, "top", NULL, LK_JOINT_FREE);
  add_geom(m, "top", SP, 0.1, 0, 0, at(0, 0, 0), 0);
  finalize(m);
  lk_data *d = lk_data_new(m);
  int ball = lk_model_link_index(m, "ball"), top = lk_model_link_index(m, "top");
  place(m, d, ball, at(0, 0, 0.099));
  place(m, d, top, at(5, 0, 1));
  LK_ASSERT_OK(run(m, d), NULL);
  LK_ASSERT_INT_EQ(lk_data_ncontact(d), 1);
  const lk_contact *c = lk_data_contact(d, 0);
  uint64_t id = c->id;
  LK_ASSERT_INT_EQ(c->friction, LK_FRICTION_STATIC);
  for (int k = 0; k < LK_CONTACT_IMPULSES; k++) LK_ASSERT_NEAR(c->impulse[k], 0, 0);
  double imp[6] = {2.0, 0.3, -0.4, 0.05, 0.01, -0.02};
  LK_ASSERT_OK(lk_data_contact_set_state(d, 0, LK_FRICTION_DYNAMIC, imp), NULL);
  lk_vec3 tw = lk_v3_add(lk_v3_scale(c->tangent[0], 0.3), lk_v3_scale(c->tangent[1], -0.4));
  double bad[6] = {NAN, 0, 0, 0, 0, 0};
  LK_ASSERT_INT_EQ(lk_data_contact_set_state(d, 0, LK_FRICTION_STATIC, bad), LK_NON_FINITE);
  LK_ASSERT_INT_EQ(lk_data_contact_set_state(d, 0, (lk_friction_state)7, NULL), LK_INVALID_ARGUMENT);
  /* Rolled 5 mm: the same contact, state and impulses carried. */
  place(m, d, ball, at(0.005, 0, 0.099));
  LK_ASSERT_OK(run(m, d), NULL);
  c = lk_data_contact(d, 0);
  LK_ASSERT_INT_EQ((long)c->id, (long)id);
  LK_ASSERT_INT_EQ(c->age, 1);
  LK_ASSERT_INT_EQ(c->friction, LK_FRICTION_DYNAMIC);
  LK_ASSERT_NEAR(c->impulse[0], 2.0, 0);
  LK_ASSERT_NEAR(c->impulse[3], 0.05, 0);
  lk_vec3 tw2 = lk_v3_add(lk_v3_scale(c->tangent[0], c->impulse[1]),
                          lk_v3_scale(c->tangent[1], c->impulse[2]));
  LK_ASSERT_NEAR(lk_v3_norm(lk_v3_sub(tw, tw2)), 0, 1e-15);
  /* Moved by more than a quarter radius between two passes: a new contact. */
  place(m, d, ball, at(0.04, 0, 0.099));
  LK_ASSERT_OK(run(m, d), NULL);
  c = lk_data_contact(d, 0);
  LK_ASSERT_MSG(c->id > id, "id %llu not new", (unsigned long long)c->id);
  LK_ASSERT_INT_EQ(c->age, 0);
  LK_ASSERT_INT_EQ(c->friction, LK_FRICTION_STATIC);
  LK_ASSERT_NEAR(c->impulse[0], 0, 0);
  id = c->id;
  /* Lifted and put back: gone, then new. */
  place(m, d, ball, at(0.04, 0, 0.2));
  LK_ASSERT_OK(run(m, d), NULL);
  LK_ASSERT_INT_EQ(lk_data_ncontact(d), 0);
  place(m, d, ball, at(0.04, 0, 0.099));
  LK_ASSERT_OK(run(m, d), NULL);
  LK_ASSERT_MSG(lk_data_contact(d, 0)->id > id, "reappeared contact kept its id");
  /* A turning normal: ball against ball, the top one moving around it by
   * 3 degrees; t1 stays as close as possible, the tangential impulse is the
   * old one projected on the new tangent plane. */
  place(m, d, ball, at(0, 0, 1));
  lk_vec3 dir0 = lk_v3(sin(0.3), 0, cos(0.3));
  place(m, d, top, at(dir0.x * 0.199, 0, 1 + dir0.z * 0.199));
  LK_ASSERT_OK(run(m, d), NULL);
  LK_ASSERT_INT_EQ(lk_data_ncontact(d), 1);
  c = lk_data_contact(d, 0);
  LK_ASSERT_INT_EQ(c->link_a, top);
  LK_ASSERT_NEAR(lk_v3_norm(lk_v3_sub(c->normal, dir0)), 0, 1e-12);
  double imp2[6] = {1, 0.5, 0.25, 0, -0.1, 0.2};
  LK_ASSERT_OK(lk_data_contact_set_state(d, 0, LK_FRICTION_STATIC, imp2), NULL);
  lk_vec3 t1_old = c->tangent[0];
  lk_vec3 T = lk_v3_add(lk_v3_scale(c->tangent[0], 0.5), lk_v3_scale(c->tangent[1], 0.25));
  lk_vec3 dir1 = lk_v3(sin(0.3 + 0.05), 0, cos(0.3 + 0.05));
  place(m, d, top, at(dir1.x * 0.199, 0, 1 + dir1.z * 0.199));
  LK_ASSERT_OK(run(m, d), NULL);
  c = lk_data_contact(d, 0);
  LK_ASSERT_INT_EQ(c->age, 1);
  lk_vec3 t1_want = lk_v3_normalize(lk_v3_madd(t1_old, dir1, -lk_v3_dot(t1_old, dir1)));
  LK_ASSERT_NEAR(lk_v3_norm(lk_v3_sub(c->tangent[0], t1_want)), 0, 1e-12);
  lk_vec3 Tp = lk_v3_madd(T, dir1, -lk_v3_dot(T, dir1));
  LK_ASSERT_NEAR(c->impulse[1], lk_v3_dot(Tp, c->tangent[0]), 1e-14);
  LK_ASSERT_NEAR(c->impulse[2], lk_v3_dot(Tp, c->tangent[1]), 1e-14);
  /* Reset: no contacts, ids from 1 again. */
  lk_data_reset(d);
  LK_ASSERT_INT_EQ(lk_data_ncontact(d), 0);
  place(m, d, ball, at(0, 0, 0.099));
  place(m, d, top, at(5, 0, 1));
  LK_ASSERT_OK(run(m, d), NULL);
  LK_ASSERT_INT_EQ((long)lk_data_contact(d, 0)->id, 1);
  lk_data_free(d);
  lk_model_free(m);
}

/* ---------------------------------------------------- capacity, copies */

static void test_capacity_exceeded(void) {
  lk_model *m = lk_model_new();
  add_geom(m, NULL, PL, 0, 0, 0, at(0, 0, 0), 0);
  add_link(m, "box", NULL, LK_JOINT_FREE);
  add_geom(m, "box", BX, 0.3, 0.2, 0.1, at(0, 0, 0), 0);
  lk_options o;
  lk_options_default(&o);
  o.max_contacts = 3;
  lk_model_set_options(m, &o, NULL);
  finalize(m);
  lk_data *d = lk_data_new(m);
  LK_ASSERT_INT_EQ(lk_data_contact_capacity(d), 3);
  place(m, d, lk_model_link_index(m, "box"), at(0, 0, 0.099));
  LK_ASSERT_OK(lk_forward_kinematics(m, d), NULL);
  lk_error e;
  LK_ASSERT_INT_EQ(lk_collide(m, d, &e), LK_CAPACITY_EXCEEDED);
  LK_ASSERT_MSG(strstr(e.message, "4 contacts found") && strstr(e.message, "holds 3"), "message: %s",
                e.message);
  LK_ASSERT_INT_EQ(lk_data_ncontact(d), 3);
  LK_ASSERT_INT_EQ(lk_data_ncontact_found(d), 4);
  for (int i = 1; i < 3; i++)
    LK_ASSERT_MSG(lk_data_contact(d, i - 1)->feature < lk_data_contact(d, i)->feature, "order");
  lk_data_free(d);
  lk_model_free(m);
}

static void move_all(const lk_model *m, lk_data *d, unsigned *seed, int nbody) {
  for (int i = 1; i <= nbody; i++) {
    double *q = lk_data_q(d) + lk_model_joint_qadr(m, i);
    for (int k = 0; k < 3; k++) q[k] += urand(seed, -0.01, 0.01);
  }
}

static lk_model *pile(int nbody) {
  lk_model *m = lk_model_new();
  add_geom(m, NULL, PL, 0, 0, 0, at(0, 0, 0), 0);
  lk_geom_type types[4] = {SP, CA, BX, CY};
  unsigned seed = 77;
  for (int i = 0; i < nbody; i++) {
    char name[8];
    sprintf(name, "p%d", i);
    add_link(m, name, NULL, LK_JOINT_FREE);
    add_geom(m, name, types[i % 4], 0.1, 0.1, 0.1, rot(1, 2, 3, urand(&seed, 0, 3), 0, 0, 0), 0.01);
  }
  return finalize(m);
}

static void scatter(const lk_model *m, lk_data *d, int nbody) {
  unsigned seed = 3;
  for (int i = 1; i <= nbody; i++)
    place(m, d, i, rot(urand(&seed, -1, 1), urand(&seed, -1, 1), 1, urand(&seed, 0, 3),
                       urand(&seed, -0.4, 0.4), urand(&seed, -0.4, 0.4), urand(&seed, 0.05, 0.5)));
}

static void test_copy_continues_identically(void) {
  const int nb = 40;
  lk_model *m = pile(nb);
  lk_data *d = lk_data_new(m), *e = lk_data_new(m);
  scatter(m, d, nb);
  unsigned s1 = 9;
  for (int k = 0; k < 10; k++) {
    move_all(m, d, &s1, nb);
    LK_ASSERT_OK(run(m, d), NULL);
  }
  LK_ASSERT_OK(lk_data_copy(e, d), NULL);
  unsigned s2 = s1;
  int differ = 0, seen = 0;
  for (int k = 0; k < 20; k++) {
    move_all(m, d, &s1, nb);
    move_all(m, e, &s2, nb);
    LK_ASSERT_OK(run(m, d), NULL);
    LK_ASSERT_OK(run(m, e), NULL);
    if (lk_data_ncontact(d) != lk_data_ncontact(e)) differ = 1;
    for (int i = 0; i < lk_data_ncontact(d) && !differ; i++)
      if (memcmp(lk_data_contact(d, i), lk_data_contact(e, i), sizeof(lk_contact)) != 0) differ = 1;
    seen += lk_data_ncontact(d);
  }
  CU_ASSERT_FALSE(differ);
  LK_ASSERT_MSG(seen > 100, "only %d contacts", seen);
  lk_data_free(e);
  lk_data_free(d);
  lk_model_free(m);
}

static void test_canonical_order(void) {
  const int nb = 60;
  lk_model *m = pile(nb);
  lk_data *d = lk_data_new(m);
  scatter(m, d, nb);
  unsigned seed = 1;
  for (int k = 0; k < 10; k++) {
    move_all(m, d, &seed, nb);
    LK_ASSERT_OK(run(m, d), NULL);
    for (int i = 0; i < lk_data_ncontact(d); i++) {
      const lk_contact *c = lk_data_contact(d, i);
      LK_ASSERT_MSG(c->link_a > c->link_b, "contact %d: link_a %d <= link_b %d", i, c->link_a,
                    c->link_b);
      if (i == 0) continue;
      const lk_contact *p = lk_data_contact(d, i - 1);
      int inc = p->geom_a < c->geom_a ||
                (p->geom_a == c->geom_a &&
                 (p->geom_b < c->geom_b || (p->geom_b == c->geom_b && p->feature < c->feature)));
      LK_ASSERT_MSG(inc, "contacts %d, %d out of order", i - 1, i);
    }
  }
  lk_data_free(d);
  lk_model_free(m);
}

/* ------------------------------------------------------- allocation */


static void test_collide_allocates_nothing(void) {
  const int nb = 40;
  lk_model *m = pile(nb);
  lk_data *d = lk_data_new(m);
  scatter(m, d, nb);
  lk_allocator a = LK_TEST_COUNTING_ALLOCATOR;
  lk_set_allocator(&a);
  lk_test_allocs = 0;
  unsigned seed = 4;
  int contacts = 0;
  for (int k = 0; k < 50; k++) {
    move_all(m, d, &seed, nb);
    LK_ASSERT_OK(run(m, d), NULL);
    contacts += lk_data_ncontact(d);
  }
  long n = lk_test_allocs;
  lk_set_allocator(NULL);
  LK_ASSERT_INT_EQ(n, 0);
  LK_ASSERT_MSG(contacts > 100, "only %d contacts", contacts);
  lk_data_free(d);
  lk_model_free(m);
}

void lk_test_register(void) {
  static const lk_test scene[] = {{"box on the floor: 4, 2, 1 contacts", test_box_on_floor},
                                  {"stack of 5 boxes: ids stable for 1000 steps", test_stack_of_five},
                                  {"stack of 5 turned boxes", test_stack_of_five_turned},
                                  {"filtering rules", test_filtering},
                                  {NULL, NULL}};
  static const lk_test broad[] = {{"broad phase agrees with brute force", test_broadphase_matches_brute_force},
                                  {"broad phase is not quadratic", test_broadphase_is_not_quadratic},
                                  {NULL, NULL}};
  static const lk_test state[] = {{"persistence of ids, friction state, impulses", test_persistence},
                                  {"capacity exceeded is reported", test_capacity_exceeded},
                                  {"a copied data continues identically", test_copy_continues_identically},
                                  {"canonical order", test_canonical_order},
                                  {"lk_collide allocates nothing", test_collide_allocates_nothing},
                                  {NULL, NULL}};
  lk_test_suite("collide: scenes", scene);
  lk_test_suite("collide: broad phase", broad);
  lk_test_suite("collide: contact state", state);
}
