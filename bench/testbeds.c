/* Reference mechanisms and their MJCF translation. */
#include "testbeds.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static lk_model *finish(lk_model *m) {
  if (lk_model_finalize(m, NULL) != LK_OK) {
    lk_model_free(m);
    return NULL;
  }
  return m;
}

static void add(lk_model *m, const char *name, const char *parent, lk_joint_type t, lk_vec3 pos,
                lk_vec3 axis, double mass, lk_vec3 com, lk_vec3 diag_inertia) {
  lk_link_spec s;
  lk_link_spec_default(&s);
  s.name = name;
  s.parent = parent;
  s.joint.type = t;
  s.origin.p = pos;
  s.joint.axis = axis;
  s.mass = mass;
  s.com = com;
  s.inertia = lk_m3_diag(diag_inertia.x, diag_inertia.y, diag_inertia.z);
  lk_model_add_link(m, &s, NULL);
}

lk_model *testbed_arm7(void) {
  static const double z[7] = {0.1575, 0.2025, 0.2045, 0.2155, 0.1845, 0.2155, 0.081};
  static const lk_vec3 axis[7] = {{0, 0, 1}, {0, 1, 0}, {0, 0, 1}, {0, -1, 0},
                                  {0, 0, 1}, {0, 1, 0}, {0, 0, 1}};
  static const double mass[7] = {4.0, 4.0, 3.0, 2.7, 1.7, 1.8, 0.3};
  static const lk_vec3 com[7] = {{0, -0.03, 0.12},  {0.0003, 0.059, 0.042}, {0, 0.03, 0.13},
                                 {0, 0.067, 0.034}, {0.0001, 0.021, 0.076}, {0, 0.0006, 0.0004},
                                 {0, 0, 0.02}};
  static const lk_vec3 I[7] = {{0.1, 0.09, 0.02},    {0.05, 0.018, 0.044}, {0.08, 0.075, 0.01},
                               {0.03, 0.01, 0.029},  {0.02, 0.018, 0.005}, {0.005, 0.0036, 0.0047},
                               {0.001, 0.001, 0.001}};
  static const char *names[8] = {NULL, "a1", "a2", "a3", "a4", "a5", "a6", "a7"};
  lk_model *m = lk_model_new();
  if (!m) return NULL;
  lk_model_set_name(m, "arm7", NULL);
  /* Armature and damping on every joint, as a geared arm has. */
  for (int i = 0; i < 7; i++) {
    lk_link_spec s;
    lk_link_spec_default(&s);
    s.name = names[i + 1];
    s.parent = names[i];
    s.joint.type = LK_JOINT_REVOLUTE;
    s.joint.axis = axis[i];
    s.joint.armature = 0.1;
    s.joint.damping = 0.5;
    s.origin.p = lk_v3(0, 0, z[i]);
    s.mass = mass[i];
    s.com = com[i];
    s.inertia = lk_m3_diag(I[i].x, I[i].y, I[i].z);
    lk_model_add_link(m, &s, NULL);
  }
  return finish(m);
}

lk_model *testbed_chain(int n) {
  if (n < 1 || n > 999) return NULL;
  lk_model *m = lk_model_new();
  if (!m) return NULL;
  lk_model_set_name(m, "chain", NULL);
  char name[16], parent[16];
  lk_mat3 Ic = lk_inertia_solid_cylinder(0.1, 0.01, 0.05);
  for (int i = 0; i < n; i++) {
    snprintf(name, sizeof name, "c%d", i);
    snprintf(parent, sizeof parent, "c%d", i - 1);
    add(m, name, i ? parent : NULL, LK_JOINT_REVOLUTE, lk_v3(0, 0, i ? -0.1 : 0),
        i % 2 ? lk_v3(1, 0, 0) : lk_v3(0, 1, 0), 0.1, lk_v3(0, 0, -0.05),
        lk_v3(Ic.m[0][0], Ic.m[1][1], Ic.m[2][2]));
  }
  return finish(m);
}

lk_model *testbed_floating20(void) {
  lk_model *m = lk_model_new();
  if (!m) return NULL;
  lk_model_set_name(m, "floating20", NULL);
  const lk_vec3 X = {1, 0, 0}, Y = {0, 1, 0}, Z = {0, 0, 1}, O = {0, 0, 0};
  add(m, "torso", NULL, LK_JOINT_FREE, lk_v3(0, 0, 1.2), Z, 10.0, lk_v3(0, 0, 0.1),
      lk_v3(0.35, 0.3, 0.12));
  for (int side = 0; side < 2; side++) {
    double y = side ? -0.1 : 0.1;
    char n[8][16];
    const char *sd = side ? "r" : "l";
    const char *parts[7] = {"hipz", "hipx", "hipy", "knee", "shx", "shy", "elbow"};
    for (int k = 0; k < 7; k++) snprintf(n[k], sizeof n[k], "%s_%s", sd, parts[k]);
    /* Leg: three hip axes in small links, then thigh and shank. */
    add(m, n[0], "torso", LK_JOINT_REVOLUTE, lk_v3(0, y, -0.1), Z, 0.5, O,
        lk_v3(0.001, 0.001, 0.001));
    add(m, n[1], n[0], LK_JOINT_REVOLUTE, O, X, 0.5, O, lk_v3(0.001, 0.001, 0.001));
    add(m, n[2], n[1], LK_JOINT_REVOLUTE, O, Y, 4.0, lk_v3(0, 0, -0.2), lk_v3(0.06, 0.06, 0.01));
    add(m, n[3], n[2], LK_JOINT_REVOLUTE, lk_v3(0, 0, -0.4), Y, 3.0, lk_v3(0, 0, -0.2),
        lk_v3(0.04, 0.04, 0.006));
    /* Arm: two shoulder axes, then the forearm. */
    add(m, n[4], "torso", LK_JOINT_REVOLUTE, lk_v3(0, 2.2 * y, 0.4), X, 0.5, O,
        lk_v3(0.001, 0.001, 0.001));
    add(m, n[5], n[4], LK_JOINT_REVOLUTE, O, Y, 2.0, lk_v3(0, 0, -0.15), lk_v3(0.02, 0.02, 0.003));
    add(m, n[6], n[5], LK_JOINT_REVOLUTE, lk_v3(0, 0, -0.3), Y, 1.5, lk_v3(0, 0, -0.15),
        lk_v3(0.015, 0.015, 0.002));
  }
  return finish(m);
}

lk_model *testbed_free_bodies(int n) {
  if (n < 1) return NULL;
  lk_model *m = lk_model_new();
  if (!m) return NULL;
  lk_model_set_name(m, "free_bodies", NULL);
  int side = (int)ceil(sqrt((double)n));
  lk_mat3 I = lk_inertia_solid_box(1.0, lk_v3(0.05, 0.05, 0.05));
  char name[16];
  for (int i = 0; i < n; i++) {
    snprintf(name, sizeof name, "b%d", i);
    add(m, name, NULL, LK_JOINT_FREE, lk_v3(0.3 * (i % side), 0.3 * (i / side), 1.0),
        lk_v3(0, 0, 1), 1.0, lk_v3(0, 0, 0), lk_v3(I.m[0][0], I.m[1][1], I.m[2][2]));
  }
  return finish(m);
}

/* A small LCG in [-0.5, 0.5): deterministic across platforms. */
static double next_unit(unsigned *s) {
  *s = *s * 1664525u + 1013904223u;
  return (double)(*s >> 8) / 16777216.0 - 0.5;
}

static lk_vec3 next_vec(unsigned *s) {
  double x = next_unit(s), y = next_unit(s);
  return lk_v3(x, y, next_unit(s));
}

void testbed_state(const lk_model *m, lk_data *d, unsigned seed) {
  unsigned s = seed * 2654435761u + 1u;
  double *q = lk_data_q(d), *v = lk_data_v(d);
  for (int i = 1; i < lk_model_nlink(m); i++) {
    double *qi = q + lk_model_joint_qadr(m, i);
    switch (lk_model_joint_type(m, i)) {
      case LK_JOINT_REVOLUTE:
      case LK_JOINT_PRISMATIC:
        qi[0] = next_unit(&s);
        break;
      case LK_JOINT_BALL: {
        lk_quat u = lk_q_exp(next_vec(&s));
        qi[0] = u.w, qi[1] = u.x, qi[2] = u.y, qi[3] = u.z;
        break;
      }
      case LK_JOINT_FREE: {
        lk_quat u = lk_q_exp(next_vec(&s));
        lk_v3_to(lk_v3_add(lk_v3_from(qi), next_vec(&s)), qi);
        qi[3] = u.w, qi[4] = u.x, qi[5] = u.y, qi[6] = u.z;
        break;
      }
      default:
        break;
    }
  }
  for (int k = 0; k < lk_model_nv(m); k++) v[k] = 2.0 * next_unit(&s);
}

/* ---------------------------------------------------------------- MJCF */

typedef struct {
  char *buf;
  size_t size, len;
  int overflow;
} writer;

static void out(writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(writer *w, const char *fmt, ...) {
  if (w->overflow) return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(w->buf + w->len, w->size - w->len, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= w->size - w->len)
    w->overflow = 1;
  else
    w->len += (size_t)n;
}

static void indent(writer *w, int depth) {
  for (int k = 0; k < depth; k++) out(w, "  ");
}

int testbed_to_mjcf(const lk_model *m, char *buf, size_t size) {
  writer w = {buf, size, 0, 0};
  const lk_options *o = lk_model_options(m);
  out(&w, "<mujoco model=\"%s\">\n", lk_model_name(m) ? lk_model_name(m) : "linkage");
  out(&w, "  <compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n");
  out(&w, "  <option timestep=\"%.17g\" gravity=\"%.17g %.17g %.17g\" integrator=\"Euler\">\n",
      o->timestep, o->gravity.x, o->gravity.y, o->gravity.z);
  out(&w, "    <flag contact=\"disable\"/>\n  </option>\n  <worldbody>\n");
  int stack[1024], top = 0; /* open bodies */
  for (int i = 1; i < lk_model_nlink(m); i++) {
    int p = lk_model_link_parent(m, i);
    while (top > 0 && stack[top - 1] != p) {
      top--;
      indent(&w, top + 2);
      out(&w, "</body>\n");
    }
    if (top >= 1024) return -1;
    lk_link_spec s;
    lk_model_link(m, i, &s);
    lk_quat q = lk_q_from_mat3(&s.origin.R);
    indent(&w, top + 2);
    out(&w, "<body name=\"%s\" pos=\"%.17g %.17g %.17g\" quat=\"%.17g %.17g %.17g %.17g\">\n",
        s.name, s.origin.p.x, s.origin.p.y, s.origin.p.z, q.w, q.x, q.y, q.z);
    const lk_mat3 *I = &s.inertia;
    indent(&w, top + 3);
    out(&w,
        "<inertial pos=\"%.17g %.17g %.17g\" mass=\"%.17g\" "
        "fullinertia=\"%.17g %.17g %.17g %.17g %.17g %.17g\"/>\n",
        s.com.x, s.com.y, s.com.z, s.mass, I->m[0][0], I->m[1][1], I->m[2][2], I->m[0][1],
        I->m[0][2], I->m[1][2]);
    const lk_joint_spec *j = &s.joint;
    static const char *type[] = {NULL, "hinge", "slide", "ball", "free"};
    if (j->type != LK_JOINT_FIXED) {
      if (j->type == LK_JOINT_FREE && p != 0) return -1; /* MJCF: free joints on roots only */
      indent(&w, top + 3);
      out(&w, "<joint name=\"%s\" type=\"%s\"", j->name, type[j->type]);
      if (j->type == LK_JOINT_REVOLUTE || j->type == LK_JOINT_PRISMATIC)
        out(&w, " axis=\"%.17g %.17g %.17g\" springref=\"%.17g\"", j->axis.x, j->axis.y, j->axis.z,
            j->rest);
      if (j->type != LK_JOINT_FREE || j->damping > 0 || j->armature > 0 || j->stiffness > 0)
        out(&w, " armature=\"%.17g\" damping=\"%.17g\" stiffness=\"%.17g\"", j->armature,
            j->damping, j->stiffness);
      out(&w, "/>\n");
    }
    stack[top++] = i;
  }
  while (top > 0) {
    top--;
    indent(&w, top + 2);
    out(&w, "</body>\n");
  }
  out(&w, "  </worldbody>\n</mujoco>\n");
  return w.overflow ? -1 : (int)w.len;
}
