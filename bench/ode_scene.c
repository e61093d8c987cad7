/* See ode_scene.h. */
#include "ode_scene.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long nmessages;
static char first_message[160];

static void on_message(int errnum, const char *msg, va_list ap) {
  if (nmessages++ == 0) {
    char text[128];
    vsnprintf(text, sizeof text, msg, ap);
    snprintf(first_message, sizeof first_message, "%d: %s", errnum, text);
  }
}

void ode_scene_messages_reset(void) {
  dSetMessageHandler(on_message);
  dSetErrorHandler(on_message);
  dSetDebugHandler(on_message);
  nmessages = 0;
  first_message[0] = '\0';
}

long ode_scene_messages(const char **first) {
  if (first) *first = first_message;
  return nmessages;
}

void ode_scene_options_default(ode_scene_options *o) {
  memset(o, 0, sizeof *o);
  o->cfm = 1e-10;
}

static void rot(const lk_mat3 *R, dMatrix3 out) {
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) out[4 * i + j] = R->m[i][j];
    out[4 * i + 3] = 0;
  }
}

static void near(void *data, dGeomID o1, dGeomID o2) {
  ode_scene *s = data;
  int g1 = (int)(intptr_t)dGeomGetData(o1), g2 = (int)(intptr_t)dGeomGetData(o2);
  if (s->pair ? !s->pair[g1 * s->ngeom + g2] : !lk_collide_filter(s->m, g1, g2)) return;
  dContactGeom cg[ODE_SCENE_MAX_PAIR];
  int n = dCollide(o1, o2, ODE_SCENE_MAX_PAIR, cg, sizeof cg[0]);
  if (n == 0) return;
  dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
  double mu = lk_mix_rule_apply(lk_model_options(s->m)->friction_mix, s->mu[g1], s->mu[g2]);
  for (int k = 0; k < n; k++) {
    dContact c;
    memset(&c, 0, sizeof c);
    c.surface.mode = dContactApprox1 | dContactSoftERP | dContactSoftCFM;
    c.surface.mu = mu;
    c.surface.soft_erp = lk_model_options(s->m)->contact_erp;
    c.surface.soft_cfm = s->opt.cfm;
    c.geom = cg[k];
    dJointID j = dJointCreateContact(s->world, s->group, &c);
    dJointAttach(j, b1, b2);
  }
  s->ncontact += n;
}

void ode_scene_free(ode_scene *s) {
  if (s->group) dJointGroupDestroy(s->group);
  if (s->space) dSpaceDestroy(s->space); /* destroys its geoms */
  if (s->world) dWorldDestroy(s->world); /* bodies and joints */
  free(s->body);
  free(s->joint);
  free(s->com);
  free(s->mu);
  free(s->pair);
  memset(s, 0, sizeof *s);
}

#define FAIL(...)                             \
  do {                                        \
    snprintf(err, errsize, __VA_ARGS__);      \
    return -1;                                \
  } while (0)

int ode_scene_build(ode_scene *s, const lk_model *m, lk_data *d, const ode_scene_options *o,
                    char *err, size_t errsize) {
  memset(s, 0, sizeof *s);
  s->m = m;
  s->opt = *o;
  s->nlink = lk_model_nlink(m);
  s->ngeom = lk_model_ngeom(m);
  const lk_options *mo = lk_model_options(m);
  s->body = calloc((size_t)s->nlink, sizeof *s->body);
  s->joint = calloc((size_t)s->nlink, sizeof *s->joint);
  s->com = calloc((size_t)s->nlink, sizeof *s->com);
  s->mu = calloc((size_t)s->ngeom + 1, sizeof *s->mu);
  if (!s->body || !s->joint || !s->com || !s->mu) FAIL("out of memory");
  if (s->ngeom <= ODE_SCENE_PAIR_TABLE) {
    s->pair = calloc((size_t)(s->ngeom * s->ngeom) + 1, 1);
    if (!s->pair) FAIL("out of memory");
    for (int a = 0; a < s->ngeom; a++)
      for (int b = 0; b < s->ngeom; b++)
        s->pair[a * s->ngeom + b] = (unsigned char)lk_collide_filter(m, a, b);
  }
  s->world = dWorldCreate();
  s->space = o->hash_space ? dHashSpaceCreate(0) : dSimpleSpaceCreate(0);
  s->group = dJointGroupCreate(0);
  dWorldSetGravity(s->world, mo->gravity.x, mo->gravity.y, mo->gravity.z);
  dWorldSetERP(s->world, mo->constraint_erp);
  dWorldSetCFM(s->world, 1e-10);
  dWorldSetContactSurfaceLayer(s->world, o->layer);
  if (o->quick_iterations > 0) dWorldSetQuickStepNumIterations(s->world, o->quick_iterations);
  for (int g = 0; g < s->ngeom; g++) {
    lk_material_spec ma;
    lk_model_material(m, lk_model_geom_material(m, g), &ma);
    s->mu[g] = ma.mu_static;
    if (ma.restitution != 0) FAIL("restitution is not mirrored");
  }
  /* Bodies and joints at the neutral configuration, so that ODE's joint
   * zeros are ours. */
  lk_model_q_neutral(m, lk_data_q(d));
  memset(lk_data_v(d), 0, sizeof(double) * (size_t)lk_model_nv(m));
  lk_forward_kinematics(m, d);
  for (int i = 1; i < s->nlink; i++) {
    lk_link_spec l;
    lk_model_link(m, i, &l);
    int parent = lk_model_link_parent(m, i);
    lk_joint_type jt = l.joint.type;
    if (l.joint.damping != 0 || l.joint.stiffness != 0 || l.joint.armature != 0 ||
        l.joint.limited || l.joint.friction != 0)
      FAIL("joint %s has damping, springs, armature, limits or friction",
           lk_model_joint_name(m, i));
    if (jt == LK_JOINT_FIXED) {
      if (parent == 0 || !s->body[parent]) continue; /* welded to the world */
      FAIL("fixed joint between moving links");
    }
    if (jt != LK_JOINT_FREE && jt != LK_JOINT_REVOLUTE && jt != LK_JOINT_PRISMATIC &&
        jt != LK_JOINT_BALL)
      FAIL("unsupported joint type (joint %s)", lk_model_joint_name(m, i));
    const lk_transform *X = lk_data_link_pose(d, i);
    dBodyID b = dBodyCreate(s->world);
    dMass mass;
    const lk_mat3 *I = &l.inertia;
    dMassSetParameters(&mass, l.mass, 0, 0, 0, I->m[0][0], I->m[1][1], I->m[2][2], I->m[0][1],
                       I->m[0][2], I->m[1][2]);
    dBodySetMass(b, &mass);
    lk_vec3 c = lk_tf_point(X, l.com);
    dBodySetPosition(b, c.x, c.y, c.z);
    dMatrix3 R;
    rot(&X->R, R);
    dBodySetRotation(b, R);
    s->body[i] = b;
    s->com[i] = l.com;
    dBodyID pb = s->body[parent];
    lk_vec3 ax = lk_tf_dir(X, l.joint.axis);
    if (jt == LK_JOINT_REVOLUTE) {
      dJointID j = dJointCreateHinge(s->world, 0);
      dJointAttach(j, b, pb);
      dJointSetHingeAnchor(j, X->p.x, X->p.y, X->p.z);
      dJointSetHingeAxis(j, ax.x, ax.y, ax.z);
      s->joint[i] = j;
      s->joint_rows += 5;
    } else if (jt == LK_JOINT_PRISMATIC) {
      dJointID j = dJointCreateSlider(s->world, 0);
      dJointAttach(j, b, pb);
      dJointSetSliderAxis(j, ax.x, ax.y, ax.z);
      s->joint[i] = j;
      s->joint_rows += 5;
    } else if (jt == LK_JOINT_BALL) {
      dJointID j = dJointCreateBall(s->world, 0);
      dJointAttach(j, b, pb);
      dJointSetBallAnchor(j, X->p.x, X->p.y, X->p.z);
      s->joint[i] = j;
      s->joint_rows += 3;
    }
  }
  for (int g = 0; g < s->ngeom; g++) {
    lk_geom_spec gs;
    lk_model_geom(m, g, &gs);
    int link = lk_model_geom_link(m, g);
    dGeomID og;
    switch (gs.type) {
      case LK_GEOM_PLANE: {
        if (s->body[link]) FAIL("a plane on a moving link");
        lk_transform W = lk_tf_mul(lk_data_link_pose(d, link), &gs.pose);
        lk_vec3 n = lk_tf_dir(&W, lk_v3(0, 0, 1));
        og = dCreatePlane(s->space, n.x, n.y, n.z, lk_v3_dot(n, W.p));
        break;
      }
      case LK_GEOM_SPHERE:
        og = dCreateSphere(s->space, gs.size[0]);
        break;
      case LK_GEOM_CAPSULE:
        og = dCreateCapsule(s->space, gs.size[0], 2 * gs.size[1]);
        break;
      case LK_GEOM_CYLINDER:
        og = dCreateCylinder(s->space, gs.size[0], 2 * gs.size[1]);
        break;
      case LK_GEOM_BOX:
        og = dCreateBox(s->space, 2 * gs.size[0], 2 * gs.size[1], 2 * gs.size[2]);
        break;
      default:
        FAIL("geom %d: this shape is not mirrored", g);
    }
    dGeomSetData(og, (void *)(intptr_t)g);
    if (gs.type == LK_GEOM_PLANE) continue;
    dMatrix3 R;
    if (s->body[link]) {
      dGeomSetBody(og, s->body[link]);
      lk_vec3 off = lk_v3_sub(gs.pose.p, s->com[link]);
      dGeomSetOffsetPosition(og, off.x, off.y, off.z);
      rot(&gs.pose.R, R);
      dGeomSetOffsetRotation(og, R);
    } else {
      lk_transform W = lk_tf_mul(lk_data_link_pose(d, link), &gs.pose);
      dGeomSetPosition(og, W.p.x, W.p.y, W.p.z);
      rot(&W.R, R);
      dGeomSetRotation(og, R);
    }
  }
  /* The initial state. */
  lk_data_reset(d);
  lk_forward_kinematics(m, d);
  for (int i = 1; i < s->nlink; i++) {
    if (!s->body[i]) continue;
    const lk_transform *X = lk_data_link_pose(d, i);
    lk_vec3 c = lk_tf_point(X, s->com[i]);
    dBodySetPosition(s->body[i], c.x, c.y, c.z);
    dMatrix3 R;
    rot(&X->R, R);
    dBodySetRotation(s->body[i], R);
    lk_motion v = lk_data_link_velocity(d, i);
    lk_vec3 vc = lk_v3_add(v.lin, lk_v3_cross(v.ang, lk_v3_sub(c, X->p)));
    dBodySetLinearVel(s->body[i], vc.x, vc.y, vc.z);
    dBodySetAngularVel(s->body[i], v.ang.x, v.ang.y, v.ang.z);
  }
  /* ODE's joint coordinates must be ours (a ball joint has none). */
  for (int i = 1; i < s->nlink; i++) {
    if (!s->joint[i] || lk_model_joint_type(m, i) == LK_JOINT_BALL) continue;
    double q = lk_data_q(d)[lk_model_joint_qadr(m, i)];
    double qo = lk_model_joint_type(m, i) == LK_JOINT_REVOLUTE ? dJointGetHingeAngle(s->joint[i])
                                                               : dJointGetSliderPosition(s->joint[i]);
    if (fabs(q - qo) > 1e-9)
      FAIL("joint %s at %.9g in ODE, %.9g here", lk_model_joint_name(m, i), qo, q);
  }
  return 0;
}

void ode_scene_step(ode_scene *s, double h) {
  s->ncontact = 0;
  dSpaceCollide(s->space, s, near);
  if (s->opt.quick)
    dWorldQuickStep(s->world, h);
  else
    dWorldStep(s->world, h);
  dJointGroupEmpty(s->group);
}
