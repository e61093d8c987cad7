/* Grasp scenes: a hand file and an object file joined into one model with
 * lk_model_load_file_into(), the palm welded to a free-floating mount that
 * the trials' palm servo drives. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "grasp/grasp_internal.h"
#include "grasp/grasp_scene.h"
#include "linkage/collision.h"
#include "linkage/dynamics.h"
#include "linkage/io.h"
#include "model/model_impl.h"

#define MOUNT_NAME "grasp_mount"

void lk_grasp_scene_options_default(lk_grasp_scene_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->hand_prefix = "hand_";
  o->object_prefix = "object_";
}

void lk_grasp_scene_free(lk_grasp_scene *s) {
  if (!s) return;
  lk_model_free(s->m);
  lk_free(s->finger_of_link);
  lk_free(s->hand_link);
  lk_free(s->palm_body);
  lk_free(s);
}

static int is_in_subtree(const lk_model *m, int link, int root) {
  for (int l = link; l >= 0; l = lk_model_link_parent(m, l))
    if (l == root) return 1;
  return 0;
}

static int is_actuated(const lk_model *m, int link) {
  for (int a = 0; a < lk_model_nactuator(m); a++) {
    lk_actuator_spec as;
    lk_model_actuator(m, a, &as);
    if (lk_model_joint_index(m, as.joint) == link) return 1;
  }
  return 0;
}

/* What a hand file without actuators (a URDF, a kinematic description)
 * gets from the scene: an effort actuator on each of its moving joints that
 * follows no other through a coupling (the closing loop of the trials
 * drives them), and exclusions between its links moved by the same such
 * joint (directly or through couplings: the two halves of a four-bar
 * finger, pinned together in the mechanism, overlap at the pin). Names in
 * the composed model. */
typedef struct {
  int nact;
  char (*act)[LK_IO_NAME_MAX + 64];
  int nexcl;
  char (*excl)[2][LK_IO_NAME_MAX + 64];
  /* A palm below the root by moving joints (a wrist): held to the root
   * where the file's initial state has it, by a rigid loop. */
  int wrist;
  char wrist_root[LK_IO_NAME_MAX + 64], wrist_palm[LK_IO_NAME_MAX + 64];
  lk_transform wrist_pose; /* the palm in the root */
} auto_hand;

static void auto_hand_free(auto_hand *a) {
  lk_free(a->act);
  lk_free(a->excl);
  memset(a, 0, sizeof *a);
}

/* The moving joint of the hand that moves link l (the nearest above it),
 * followed to the joint it follows through couplings (joint_a follows
 * joint_b); 0 for the palm's body. */
static int auto_leader(const lk_model *m, const int *follows, int mount, int l) {
  while (l > 0 && l != mount && lk_model_joint_type(m, l) == LK_JOINT_FIXED)
    l = lk_model_link_parent(m, l);
  if (l <= 0 || l == mount) return 0;
  for (int guard = 0; follows[l] > 0 && guard < lk_model_nlink(m); guard++) l = follows[l];
  return l;
}

/* The automatic actuators and exclusions of a composed (finalized) scene
 * model whose hand has no actuators; a->nact 0 when it has some. */
static lk_status plan_auto_hand(const lk_model *m, auto_hand *a, lk_error *err) {
  memset(a, 0, sizeof *a);
  if (lk_model_nactuator(m) > 0) return LK_OK;
  int nl = lk_model_nlink(m), mount = lk_model_link_index(m, MOUNT_NAME);
  int *follows = lk_calloc((size_t)nl, sizeof *follows);
  int *lead = lk_calloc((size_t)nl, sizeof *lead);
  a->act = lk_calloc((size_t)nl, sizeof *a->act);
  if (!follows || !lead || !a->act) goto oom;
  for (int c = 0; c < lk_model_ncoupling(m); c++) {
    lk_coupling_spec cs;
    lk_model_coupling(m, c, &cs);
    int la = lk_model_joint_index(m, cs.joint_a), lb = lk_model_joint_index(m, cs.joint_b);
    if (la > 0 && lb > 0) follows[la] = lb;
  }
  for (int l = 1; l < nl; l++) {
    int hand = l != mount && is_in_subtree(m, l, mount);
    lk_joint_type t = lk_model_joint_type(m, l);
    if (hand && (t == LK_JOINT_REVOLUTE || t == LK_JOINT_PRISMATIC) && !follows[l])
      snprintf(a->act[a->nact++], sizeof a->act[0], "%s", lk_model_joint_name(m, l));
    lead[l] = hand ? auto_leader(m, follows, mount, l) : 0;
  }
  int npair = 0;
  for (int i = 1; i < nl; i++)
    for (int j = i + 1; j < nl; j++) npair += lead[i] > 0 && lead[i] == lead[j];
  a->excl = lk_calloc((size_t)(npair > 0 ? npair : 1), sizeof *a->excl);
  if (!a->excl) goto oom;
  for (int i = 1; i < nl; i++)
    for (int j = i + 1; j < nl; j++)
      if (lead[i] > 0 && lead[i] == lead[j]) {
        snprintf(a->excl[a->nexcl][0], sizeof a->excl[0][0], "%s", lk_model_link_name(m, i));
        snprintf(a->excl[a->nexcl][1], sizeof a->excl[0][1], "%s", lk_model_link_name(m, j));
        a->nexcl++;
      }
  lk_free(follows);
  lk_free(lead);
  return LK_OK;
oom:
  lk_free(follows);
  lk_free(lead);
  auto_hand_free(a);
  return lk_error_set(err, LK_OUT_OF_MEMORY, "grasp scene: out of memory");
}

/* The wrist of a composed model whose palm (o->palm) moves against the
 * hand's root: the palm's pose in the root at the initial state, and a
 * note for the user naming the joints held. */
static lk_status plan_wrist(const lk_model *m, const lk_grasp_scene_options *o, auto_hand *a,
                            char *note, size_t note_size, lk_error *err) {
  if (!o->palm || !*o->palm) return LK_OK;
  int mount = lk_model_link_index(m, MOUNT_NAME), root = -1, nl = lk_model_nlink(m);
  for (int l = 1; l < nl; l++)
    if (lk_model_link_parent(m, l) == mount) root = l;
  char name[LK_IO_NAME_MAX + 64];
  snprintf(name, sizeof name, "%s%s", o->hand_prefix, o->palm);
  int p = lk_model_link_index(m, name);
  if (root < 0 || p < 0 || !is_in_subtree(m, p, root)) return LK_OK; /* identify() says why */
  int nmoving = 0;
  size_t used = 0;
  double *q = LK_NEW_ARRAY(double, lk_model_nq(m) > 0 ? lk_model_nq(m) : 1);
  double *v = LK_NEW_ARRAY(double, lk_model_nv(m) > 0 ? lk_model_nv(m) : 1);
  if (!q || !v) {
    lk_free(q);
    lk_free(v);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "grasp scene: out of memory");
  }
  lk_model_initial_state(m, q, v);
  for (int l = p; l != root; l = lk_model_link_parent(m, l)) {
    if (lk_model_joint_type(m, l) == LK_JOINT_FIXED) continue;
    int n = lk_model_joint_nq(m, l);
    used += (size_t)snprintf(note + used, used < note_size ? note_size - used : 0, "%s'%s' at %.6g",
                             nmoving ? ", " : "", lk_model_joint_name(m, l) + strlen(o->hand_prefix),
                             n > 0 ? q[lk_model_joint_qadr(m, l)] : 0.0);
    if (used >= note_size) used = note_size - 1;
    nmoving++;
  }
  lk_free(v);
  if (nmoving == 0) {
    lk_free(q);
    note[0] = '\0';
    return LK_OK;
  }
  lk_data *d = lk_data_new(m);
  lk_status st = d ? LK_OK : LK_OUT_OF_MEMORY;
  if (!st) {
    memcpy(lk_data_q(d), q, (size_t)lk_model_nq(m) * sizeof *q);
    st = lk_forward_kinematics(m, d);
  }
  lk_free(q);
  if (st) {
    lk_data_free(d);
    return lk_error_set(err, st, "grasp scene: the hand's initial state is not valid");
  }
  a->wrist = 1;
  a->wrist_pose = lk_tf_inv_mul(lk_data_link_pose(d, root), lk_data_link_pose(d, p));
  snprintf(a->wrist_root, sizeof a->wrist_root, "%s", lk_model_link_name(m, root));
  snprintf(a->wrist_palm, sizeof a->wrist_palm, "%s", lk_model_link_name(m, p));
  lk_data_free(d);
  /* the joints' list last: a long one is what gets cut */
  char joints[LK_ERROR_MESSAGE_MAX];
  memcpy(joints, note, sizeof joints < note_size ? sizeof joints : note_size);
  joints[sizeof joints - 1] = '\0';
  int len = snprintf(note, note_size,
                     "the %s between the hand's root '%s' and the palm '%s' %s held where the "
                     "file starts %s while planning: ",
                     nmoving > 1 ? "joints" : "joint",
                     lk_model_link_name(m, root) + strlen(o->hand_prefix), o->palm,
                     nmoving > 1 ? "are" : "is", nmoving > 1 ? "them" : "it");
  if (len >= 0 && (size_t)len < note_size)
    for (size_t i = 0; joints[i] && (size_t)len + 1 < note_size; i++) note[len++] = joints[i];
  if (len >= 0 && (size_t)len < note_size) note[len] = '\0';
  return LK_OK;
}

/* The model: mount, hand (on the mount), object; with auto (may be NULL)
 * the hand's automatic actuators and exclusions. */
/* lk_grasp_scene_options.soft_fingers: the patch radius a and the
 * Hertzian patch's torsional coefficient (3 pi / 16) mu_static on every
 * material without a patch of its own, the default material included (a
 * URDF's geoms have none), before the model is finalized. Every material
 * gets it, so any friction_mix rule mixes two of them to (3 pi / 16) times
 * the mixed mu_static, the same patch both ways. */
static lk_status soften(lk_model *m, double a, lk_error *err) {
  if (!(a > 0)) return LK_OK;
  const double k = 3 * LK_PI / 16;
  int have_default = 0;
  for (int i = 0; i < m->nmat_in; i++) {
    lk_material_spec *ms = &m->mats_in[i];
    have_default |= strcmp(ms->name, "default") == 0;
    if (ms->patch_radius > 0) continue;
    ms->patch_radius = a;
    ms->mu_torsional = k * ms->mu_static;
  }
  if (have_default) return LK_OK;
  lk_material_spec d;
  lk_material_spec_default(&d);
  d.name = "default";
  d.patch_radius = a;
  d.mu_torsional = k * d.mu_static;
  return lk_model_add_material(m, &d, err);
}

static lk_status compose(lk_grasp_scene *s, const char *hand_path, const char *object_path,
                         const lk_grasp_scene_options *o, const auto_hand *au, lk_error *err) {
  lk_status st;
  s->m = lk_model_new();
  if (!s->m) return lk_error_set(err, LK_OUT_OF_MEMORY, "grasp scene: out of memory");
  lk_link_spec mount;
  lk_link_spec_default(&mount);
  mount.name = MOUNT_NAME;
  mount.joint.type = LK_JOINT_FREE;
  /* A light wrist: the hand's own links carry its mass. */
  mount.mass = 0.01;
  mount.inertia = lk_m3_diag(1e-6, 1e-6, 1e-6);
  if ((st = lk_model_add_link(s->m, &mount, err))) return st;
  if ((st = lk_model_set_name(s->m, "grasp", err))) return st;

  /* The hand's overrides, and the time step if asked, as --set entries so
   * that they are checked like the file's own values. */
  int nset = o->nhand_set + 1;
  const char **set = LK_NEW_ARRAY(const char *, nset);
  if (!set) return lk_error_set(err, LK_OUT_OF_MEMORY, "grasp scene: out of memory");
  for (int i = 0; i < o->nhand_set; i++) set[i] = o->hand_set[i];
  char ts[64];
  nset = o->nhand_set;
  if (o->timestep > 0) {
    snprintf(ts, sizeof ts, "options.timestep=%.17g", o->timestep);
    set[nset++] = ts;
  }
  lk_load_options lo;
  lk_load_options_default(&lo);
  lo.set = set;
  lo.nset = nset;
  lo.package_path = o->package_path;
  lo.strict_meshes = o->strict_meshes;
  lo.keep_rest_overlaps = o->keep_rest_overlaps;
  lo.input = o->input;
  lo.input_ctx = o->input_ctx;
  lk_merge_options mo;
  lk_merge_options_default(&mo);
  mo.prefix = o->hand_prefix;
  mo.parent = MOUNT_NAME;
  mo.world_geoms = 0;
  mo.options = 1;
  st = lk_model_load_file_into(s->m, hand_path, &lo, &mo, err);
  lk_free(set);
  if (st) return st;
  for (int i = 0; au && i < au->nact && !st; i++) {
    char name[LK_IO_NAME_MAX + 96];
    snprintf(name, sizeof name, "grasp_close_%s", au->act[i]);
    lk_actuator_spec as;
    lk_actuator_spec_default(&as);
    as.name = name;
    as.joint = au->act[i];
    st = lk_model_add_actuator(s->m, &as, err);
  }
  for (int i = 0; au && i < au->nexcl && !st; i++)
    st = lk_model_add_exclude(s->m, au->excl[i][0], au->excl[i][1], err);
  if (!st && au && au->wrist) {
    lk_loop_spec ls;
    lk_loop_spec_default(&ls);
    ls.name = "grasp_hold_wrist";
    ls.type = LK_LOOP_RIGID;
    ls.link_a = au->wrist_root;
    ls.link_b = au->wrist_palm;
    ls.frame_a = au->wrist_pose;
    ls.frame_b = lk_tf_identity();
    st = lk_model_add_loop(s->m, &ls, err);
  }
  if (st) return st;
  if (o->object_mesh) {
    /* A mesh file: the object made from it, standing at the origin. */
    if (o->nobject_set > 0)
      return lk_error_set(err, LK_INVALID_ARGUMENT,
                          "grasp scene: %s is a mesh file: it has no keys to --set", object_path);
    char name[LK_IO_NAME_MAX + 8];
    if (snprintf(name, sizeof name, "%smesh", o->object_prefix) >= (int)sizeof name)
      return lk_error_set(err, LK_INVALID_ARGUMENT, "grasp scene: object prefix too long");
    st = lk_grasp_add_mesh_object(s->m, name, object_path, o->object_mesh, err);
    if (!st) st = soften(s->m, o->soft_fingers, err);
    if (st) return st;
    return lk_model_finalize(s->m, err);
  }
  lk_load_options_default(&lo);
  lo.set = o->object_set;
  lo.nset = o->nobject_set;
  lo.package_path = o->package_path;
  lo.strict_meshes = o->strict_meshes;
  lo.keep_rest_overlaps = o->keep_rest_overlaps;
  lo.input = o->input;
  lo.input_ctx = o->input_ctx;
  lk_merge_options_default(&mo);
  mo.prefix = o->object_prefix;
  mo.world_geoms = 0;
  mo.free_base = 1; /* a URDF object (YCB's model.urdf) floats */
  if ((st = lk_model_load_file_into(s->m, object_path, &lo, &mo, err))) return st;
  if ((st = soften(s->m, o->soft_fingers, err))) return st;
  return lk_model_finalize(s->m, err);
}

/* The smallest rotation taking -z to the unit vector a (the hand frame in
 * the palm's: its -z is a). */
static lk_mat3 turn_from_minus_z(lk_vec3 a) {
  lk_vec3 u = lk_v3(0, 0, -1);
  double c = lk_v3_dot(u, a);
  if (c > 1 - 1e-15) return lk_m3_identity();
  if (c < -1 + 1e-15) return lk_m3_from_axis_angle(lk_v3(1, 0, 0), M_PI);
  return lk_m3_from_axis_angle(lk_v3_normalize(lk_v3_cross(u, a)), acos(c));
}

/* The link of finger DoF k. */
static int fdof_link(const lk_grasp_scene *s, int k) {
  for (int f = 0, i = 0; f < s->nfinger; f++)
    for (int j = 0; j < s->finger[f].ndof; j++, i++)
      if (i == k) return lk_model_dof_link(s->m, s->finger[f].dof[j]);
  return -1;
}

/* Palm, object and fingers of the finalized model. */
static lk_status identify(lk_grasp_scene *s, const lk_grasp_scene_options *o, lk_error *err) {
  const lk_model *m = s->m;
  int nl = lk_model_nlink(m);
  s->mount = lk_model_link_index(m, MOUNT_NAME);
  s->palm = s->object = -1;
  int npalm = 0, nobj = 0;
  for (int l = 1; l < nl; l++) {
    int p = lk_model_link_parent(m, l);
    if (p == s->mount) {
      npalm++;
      s->palm = l; /* the root; the named palm below */
    } else if (p == 0 && l != s->mount) {
      nobj++;
      s->object = l;
    }
  }
  if (npalm != 1)
    return lk_error_set(err, LK_INVALID_MODEL,
                        "grasp scene: the hand file must have exactly one root link (the palm), "
                        "it has %d",
                        npalm);
  if (lk_model_joint_type(m, s->palm) != LK_JOINT_FIXED)
    return lk_error_set(err, LK_INVALID_MODEL,
                        "grasp scene: the hand's root link '%s' must be on a fixed joint (the "
                        "trials mount it on a free joint of their own)",
                        lk_model_link_name(m, s->palm));
  /* The palm's body: the root and every link welded to it, the joints
   * between the root and a named palm (a wrist, held) counting as welds. */
  int root = s->palm;
  s->palm_body = lk_calloc((size_t)nl, 1);
  if (!s->palm_body) return lk_error_set(err, LK_OUT_OF_MEMORY, "grasp scene: out of memory");
  int p = root;
  if (o->palm && *o->palm) {
    char name[LK_IO_NAME_MAX + 64];
    snprintf(name, sizeof name, "%s%s", o->hand_prefix, o->palm);
    p = lk_model_link_index(m, name);
    if (p < 0 || !is_in_subtree(m, p, root))
      return lk_error_set(err, LK_INVALID_ARGUMENT, "grasp scene: the hand has no link '%s' (palm)",
                          o->palm);
  }
  for (int l = 1; l < nl; l++) {
    int welded = 1, k = l;
    for (; k > 0 && k != root; k = lk_model_link_parent(m, k))
      welded &= lk_model_joint_type(m, k) == LK_JOINT_FIXED || is_in_subtree(m, p, k);
    s->palm_body[l] = (unsigned char)(welded && k == root);
  }
  s->palm = p;
  lk_vec3 approach = o->approach;
  if (!lk_v3_isfinite(approach))
    return lk_error_set(err, LK_NON_FINITE, "grasp scene: the approach direction is not finite");
  if (lk_v3_norm(approach) == 0) approach = lk_v3(0, 0, -1);
  s->hand_in_palm = turn_from_minus_z(lk_v3_normalize(approach));
  if (nobj != 1)
    return lk_error_set(err, LK_INVALID_MODEL,
                        "grasp scene: the object file must have exactly one root link (the "
                        "object), it has %d",
                        nobj);
  if (lk_model_joint_type(m, s->object) != LK_JOINT_FREE)
    return lk_error_set(err, LK_INVALID_MODEL,
                        "grasp scene: the object '%s' must be on a free joint",
                        lk_model_link_name(m, s->object));
  s->mount_vadr = lk_model_joint_vadr(m, s->mount);
  s->mount_qadr = lk_model_joint_qadr(m, s->mount);
  s->object_vadr = lk_model_joint_vadr(m, s->object);
  s->object_qadr = lk_model_joint_qadr(m, s->object);
  lk_link_spec ls;
  lk_model_link(m, s->palm, &ls);
  s->palm_in_mount = ls.origin;

  s->finger_of_link = LK_NEW_ARRAY(int, nl);
  s->hand_link = lk_calloc((size_t)nl, 1);
  if (!s->finger_of_link || !s->hand_link)
    return lk_error_set(err, LK_OUT_OF_MEMORY, "grasp scene: out of memory");
  for (int l = 0; l < nl; l++) {
    s->finger_of_link[l] = -1;
    s->hand_link[l] = l > 0 && is_in_subtree(m, l, s->mount);
  }
  /* Fingers: the links hanging from the palm's body by a moving joint
   * whose subtrees hold actuated joints, in link order; their DoFs in link
   * order. */
  double *qi = LK_NEW_ARRAY(double, lk_model_nq(m));
  double *vi = LK_NEW_ARRAY(double, lk_model_nv(m));
  if (!qi || !vi) {
    lk_free(qi);
    lk_free(vi);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "grasp scene: out of memory");
  }
  lk_model_initial_state(m, qi, vi);
  lk_status st = LK_OK;
  for (int base = 1; base < nl && !st; base++) {
    int parent = lk_model_link_parent(m, base);
    if (s->palm_body[base] || parent < 0 || !s->palm_body[parent]) continue;
    lk_grasp_finger f;
    memset(&f, 0, sizeof f);
    f.base = base;
    for (int a = 0; a < lk_model_nactuator(m) && !st; a++) {
      lk_actuator_spec as;
      lk_model_actuator(m, a, &as);
      int link = lk_model_joint_index(m, as.joint);
      if (link < 0 || !is_in_subtree(m, link, base)) continue;
      if (f.ndof == LK_GRASP_MAX_FINGER_DOFS) {
        st = lk_error_set(err, LK_UNSUPPORTED,
                          "grasp scene: finger '%s' has more than %d actuated joints",
                          lk_model_link_name(m, base), LK_GRASP_MAX_FINGER_DOFS);
        break;
      }
      if ((as.type == LK_ACTUATOR_POSITION && !(as.kp > 0)) ||
          (as.type == LK_ACTUATOR_VELOCITY && !(as.kv > 0))) {
        st = lk_error_set(err, LK_INVALID_MODEL,
                          "grasp scene: actuator '%s' cannot apply a chosen effort (a %s servo "
                          "needs %s > 0)",
                          as.name, lk_actuator_type_name(as.type),
                          as.type == LK_ACTUATOR_POSITION ? "kp" : "kv");
        break;
      }
      if (as.type == LK_ACTUATOR_PRESCRIBED_POSITION || as.type == LK_ACTUATOR_PRESCRIBED_VELOCITY) {
        st = lk_error_set(err, LK_INVALID_MODEL,
                          "grasp scene: actuator '%s' prescribes its joint's motion (%s); a finger "
                          "needs an effort, position or velocity actuator to close with a chosen force",
                          as.name, lk_actuator_type_name(as.type));
        break;
      }
      /* Keep the DoFs in link order (actuators may be listed in any). */
      int dof = lk_model_joint_vadr(m, link), k = f.ndof;
      while (k > 0 && f.dof[k - 1] > dof) {
        f.dof[k] = f.dof[k - 1];
        f.actuator[k] = f.actuator[k - 1];
        k--;
      }
      f.dof[k] = dof;
      f.actuator[k] = a;
      f.ndof++;
    }
    if (st) continue;
    /* Joints of the finger without an actuator that a coupling ties to an
     * actuated joint of the hand (cp_leader: the leader's link for now). */
    int cp0 = s->ncoupled;
    for (int c = 0; c < lk_model_ncoupling(m) && !st; c++) {
      lk_coupling_spec cs;
      lk_model_coupling(m, c, &cs);
      int la = lk_model_joint_index(m, cs.joint_a), lb = lk_model_joint_index(m, cs.joint_b);
      if (la < 0 || lb < 0) continue;
      int follow = -1, lead = -1;
      double ratio = cs.ratio, offset = cs.offset;
      if (is_in_subtree(m, la, base) && !is_actuated(m, la) && is_actuated(m, lb) &&
          s->hand_link[lb]) {
        follow = la;
        lead = lb;
      } else if (is_in_subtree(m, lb, base) && !is_actuated(m, lb) && is_actuated(m, la) &&
                 s->hand_link[la] && cs.ratio != 0) {
        follow = lb; /* q_b = (q_a - offset) / ratio */
        lead = la;
        ratio = 1 / cs.ratio;
        offset = -cs.offset / cs.ratio;
      }
      if (follow < 0) continue;
      int dup = 0;
      for (int j = cp0; j < s->ncoupled; j++) dup |= s->cp_link[j] == follow;
      if (dup) continue;
      /* Either sign: a negative ratio is a mirrored joint that closes
       * moving negative (the screener stops it at its lower limit). */
      if (!(ratio != 0) || !isfinite(ratio)) {
        st = lk_error_set(err, LK_UNSUPPORTED,
                          "grasp scene: joint '%s' is coupled to '%s' with ratio %g: a finger "
                          "joint must move with its leader (a nonzero, finite ratio)",
                          lk_model_link_name(m, follow), lk_model_link_name(m, lead), ratio);
        break;
      }
      if (f.ncoupled == LK_GRASP_MAX_FINGER_DOFS) {
        st = lk_error_set(err, LK_UNSUPPORTED,
                          "grasp scene: finger '%s' has more than %d coupled joints",
                          lk_model_link_name(m, base), LK_GRASP_MAX_FINGER_DOFS);
        break;
      }
      f.coupled_dof[f.ncoupled++] = lk_model_joint_vadr(m, follow);
      s->cp_qadr[s->ncoupled] = lk_model_joint_qadr(m, follow);
      s->cp_link[s->ncoupled] = follow;
      s->cp_leader[s->ncoupled] = lead;
      s->cp_ratio[s->ncoupled] = ratio;
      s->cp_offset[s->ncoupled] = offset;
      s->ncoupled++;
    }
    if (st || (f.ndof == 0 && f.ncoupled == 0)) continue;
    if (s->nfinger == LK_GRASP_MAX_FINGERS) {
      st = lk_error_set(err, LK_UNSUPPORTED, "grasp scene: the hand has more than %d fingers",
                        LK_GRASP_MAX_FINGERS);
      break;
    }
    for (int l = base; l < nl; l++)
      if (is_in_subtree(m, l, base)) s->finger_of_link[l] = s->nfinger;
    for (int k = 0; k < f.ndof; k++) {
      int link = lk_model_dof_link(m, f.dof[k]);
      lk_actuator_spec as;
      lk_model_actuator(m, f.actuator[k], &as);
      s->fdof_qadr[s->nfdof] = lk_model_joint_qadr(m, link);
      s->preshape0[s->nfdof] = qi[s->fdof_qadr[s->nfdof]];
      s->max_effort[s->nfdof] = as.max_effort;
      s->fdof_prismatic[s->nfdof] = lk_model_joint_type(m, link) == LK_JOINT_PRISMATIC;
      s->act_type[s->nfdof] = as.type;
      s->act_kp[s->nfdof] = as.kp;
      s->act_kv[s->nfdof] = as.kv;
      lk_link_spec js;
      lk_model_link(m, link, &js);
      s->stiffness[s->nfdof] = js.joint.stiffness;
      s->rest[s->nfdof] = js.joint.rest;
      s->damping[s->nfdof] = js.joint.damping;
      s->friction[s->nfdof] = js.joint.friction;
      s->nfdof++;
    }
    s->finger[s->nfinger++] = f;
  }
  /* The coupled joints' leaders as finger DoF indices. */
  for (int j = 0; j < s->ncoupled && !st; j++) {
    int qa = lk_model_joint_qadr(m, s->cp_leader[j]), k = 0;
    while (k < s->nfdof && s->fdof_qadr[k] != qa) k++;
    if (k == s->nfdof)
      st = lk_error_set(err, LK_UNSUPPORTED,
                        "grasp scene: joint '%s' follows '%s', which is not a finger joint",
                        lk_model_link_name(m, s->cp_link[j]),
                        lk_model_link_name(m, s->cp_leader[j]));
    s->cp_leader[j] = k;
  }
  /* A wrist is held only under a palm that carries every finger. */
  int wrist = 0;
  for (int l = s->palm; l != root; l = lk_model_link_parent(m, l))
    wrist |= lk_model_joint_type(m, l) != LK_JOINT_FIXED;
  for (int f = 0; f < s->nfinger && wrist && !st; f++)
    if (!is_in_subtree(m, s->finger[f].base, s->palm))
      st = lk_error_set(err, LK_INVALID_MODEL,
                        "grasp scene: the palm '%s' moves against the hand's root link '%s' and "
                        "finger '%s' does not hang below it (the joints between the root and the "
                        "palm are held as a wrist only when every finger is below the palm)",
                        o->palm, lk_model_link_name(m, root) + strlen(o->hand_prefix),
                        lk_model_link_name(m, s->finger[f].base) + strlen(o->hand_prefix));
  if (!st && s->nfinger == 0)
    st = lk_error_set(err, LK_INVALID_MODEL,
                      "grasp scene: the hand has no fingers (no actuated or coupled joint below the palm)");
  /* Closing directions given (the others are read from the hand in
   * measure()). */
  for (int k = 0; k < s->nfdof; k++) s->fdof_sign[k] = 0;
  for (int i = 0; i < o->nclosing && !st; i++) {
    const char *e = o->closing ? o->closing[i] : NULL;
    const char *eq = e ? strrchr(e, '=') : NULL;
    int sign = 0;
    if (eq && (!strcmp(eq + 1, "+1") || !strcmp(eq + 1, "1"))) sign = 1;
    if (eq && !strcmp(eq + 1, "-1")) sign = -1;
    if (!sign || eq == e) {
      st = lk_error_set(err, LK_INVALID_ARGUMENT,
                        "grasp scene: closing direction '%s': expected JOINT=+1 or JOINT=-1",
                        e ? e : "(null)");
      break;
    }
    char name[LK_IO_NAME_MAX + 64];
    snprintf(name, sizeof name, "%s%.*s", o->hand_prefix, (int)(eq - e), e);
    int l = lk_model_joint_index(m, name), k = 0;
    while (l > 0 && k < s->nfdof && fdof_link(s, k) != l) k++;
    if (l <= 0 || k == s->nfdof) {
      st = lk_error_set(err, LK_INVALID_ARGUMENT,
                        "grasp scene: closing direction '%s': the hand has no actuated finger "
                        "joint '%.*s'",
                        e, (int)(eq - e), e);
      break;
    }
    s->fdof_sign[k] = sign;
  }
  if (!st) st = lk_grasp_scene_find_loops(s, qi, err);
  lk_free(qi);
  lk_free(vi);
  return st;
}

/* Finger geom g's centre (its box's) in the hand frame, d's kinematics. */
static int geom_centre(const lk_grasp_scene *s, const lk_data *d, const lk_transform *hand,
                       int g, lk_vec3 *c) {
  lk_geom_spec gs;
  lk_model_geom(s->m, g, &gs);
  lk_transform world = lk_tf_mul(lk_data_link_pose(d, lk_model_geom_link(s->m, g)), &gs.pose);
  lk_transform in_hand = lk_tf_inv_mul(hand, &world);
  lk_vec3 lo, hi;
  if (lk_grasp_shape_aabb(gs.type, gs.size, gs.mesh, &in_hand, &lo, &hi) != LK_OK) return 0;
  *c = lk_v3_scale(lk_v3_add(lo, hi), 0.5);
  return 1;
}

/* The closing direction of finger DoF k read from the hand at q0 (the
 * file's initial state): the sign of the rate, summed over the finger
 * geoms that the joint and the joints coupled to it move, of (depth in
 * front of the palm along the approach - distance from the approach axis),
 * by central differences; +1 when that rate is under a tenth of the geoms'
 * speed (a joint that moves them across: an abduction). c (ngeom) is
 * scratch. */
static lk_status read_closing(const lk_grasp_scene *s, lk_data *d, const double *q0, int k,
                              lk_vec3 *c, int *sign, lk_error *err) {
  const lk_model *m = s->m;
  int ng = lk_model_ngeom(m), link = fdof_link(s, k);
  const double h = 1e-5;
  double rate = 0, speed = 0;
  for (int side = 0; side < 2; side++) {
    double *q = lk_data_q(d), dq = side ? -h : h;
    memcpy(q, q0, (size_t)lk_model_nq(m) * sizeof *q);
    q[s->fdof_qadr[k]] += dq;
    for (int j = 0; j < s->ncoupled; j++)
      if (s->cp_leader[j] == k)
        q[s->cp_qadr[j]] = s->cp_ratio[j] * q[s->fdof_qadr[k]] + s->cp_offset[j];
    lk_status st = lk_grasp_scene_close_loops(s, d, 1e-12);
    if (st) return lk_error_set(err, st, "grasp scene: the hand's loops do not close");
    lk_transform hand = lk_grasp_scene_hand_frame(s, d);
    for (int g = 0; g < ng; g++) {
      int l = lk_model_geom_link(m, g);
      if (l < 0 || s->finger_of_link[l] < 0) continue;
      int moved = is_in_subtree(m, l, link);
      for (int j = 0; j < s->ncoupled; j++)
        moved |= s->cp_leader[j] == k && is_in_subtree(m, l, s->cp_link[j]);
      for (int p = 0; p < s->nlp; p++) {
        int driven = (int)(s->lp_dofs[p] >> k & 1);
        for (int j = 0; j < s->ncoupled; j++)
          driven |= s->cp_leader[j] == k && (s->lp_cps[p] >> j & 1);
        moved |= driven && is_in_subtree(m, l, s->lp_link[p]);
      }
      lk_vec3 x;
      if (!moved || !geom_centre(s, d, &hand, g, &x)) continue;
      double phi = -x.z - hypot(x.x, x.y);
      rate += side ? -phi : phi;
      if (side) speed += lk_v3_norm(lk_v3_sub(c[g], x));
      else c[g] = x;
    }
  }
  *sign = rate < -0.1 * speed ? -1 : 1;
  return LK_OK;
}

/* How deep in front of the palm finger f's geoms reach (hand frame, d's
 * kinematics); -INFINITY without geoms. */
static double finger_depth(const lk_grasp_scene *s, const lk_data *d, const lk_transform *hand,
                           int f) {
  double depth = -INFINITY;
  for (int g = 0; g < lk_model_ngeom(s->m); g++) {
    int l = lk_model_geom_link(s->m, g);
    if (l < 0 || s->finger_of_link[l] != f) continue;
    lk_geom_spec gs;
    lk_model_geom(s->m, g, &gs);
    lk_transform world = lk_tf_mul(lk_data_link_pose(d, l), &gs.pose);
    lk_transform in_hand = lk_tf_inv_mul(hand, &world);
    lk_vec3 lo, hi;
    if (lk_grasp_shape_aabb(gs.type, gs.size, gs.mesh, &in_hand, &lo, &hi) == LK_OK)
      depth = fmax(depth, -lo.z);
  }
  return depth;
}

/* A linkage member is not a finger: a subtree hanging from the palm with
 * coupled joints only whose geoms reach less than 3/4 as deep as the
 * deepest finger's (the Robotiq 2F-85's inner knuckles, the short halves
 * of its four-bar fingers) joins the finger whose first link is nearest
 * to its own, with its coupled joints. */
static void merge_linkage_members(lk_grasp_scene *s, const lk_data *d, const lk_transform *hand) {
  double depth[LK_GRASP_MAX_FINGERS], deepest = -INFINITY;
  for (int f = 0; f < s->nfinger; f++) deepest = fmax(deepest, depth[f] = finger_depth(s, d, hand, f));
  for (int f = s->nfinger - 1; f >= 0; f--) {
    const lk_grasp_finger *fg = &s->finger[f];
    if (fg->ndof > 0 || !(depth[f] < 0.75 * deepest)) continue;
    lk_vec3 b = lk_data_link_pose(d, fg->base)->p;
    int to = -1;
    double best = INFINITY;
    for (int g = 0; g < s->nfinger; g++) {
      if (g == f || (s->finger[g].ndof == 0 && depth[g] < 0.75 * deepest)) continue;
      if (s->finger[g].ncoupled + fg->ncoupled > LK_GRASP_MAX_FINGER_DOFS) continue;
      double dist = lk_v3_norm(lk_v3_sub(lk_data_link_pose(d, s->finger[g].base)->p, b));
      if (dist < best) {
        best = dist;
        to = g;
      }
    }
    if (to < 0) continue;
    lk_grasp_finger *t = &s->finger[to];
    for (int i = 0; i < fg->ncoupled; i++) {
      t->coupled_dof[t->ncoupled] = fg->coupled_dof[i];
      t->coupled_closing[t->ncoupled++] = fg->coupled_closing[i];
    }
    for (int l = 0; l < lk_model_nlink(s->m); l++) {
      if (s->finger_of_link[l] == f) s->finger_of_link[l] = to;
      if (s->finger_of_link[l] > f) s->finger_of_link[l]--;
    }
    for (int g = f; g + 1 < s->nfinger; g++) {
      s->finger[g] = s->finger[g + 1];
      depth[g] = depth[g + 1];
    }
    s->nfinger--;
  }
}

/* Mass properties, starting pose and reach, from a data at the initial
 * state. */
static lk_status measure(lk_grasp_scene *s, lk_error *err) {
  const lk_model *m = s->m;
  lk_link_spec ls;
  lk_model_link(m, s->object, &ls);
  s->object_mass = ls.mass;
  s->object_com = ls.com;
  s->object_inertia = (ls.inertia.m[0][0] + ls.inertia.m[1][1] + ls.inertia.m[2][2]) / 3;
  lk_status st = lk_grasp_object_radius(m, s->object, &s->object_radius, err);
  if (st) return st;
  lk_data *d = lk_data_new(m);
  if (!d) return lk_error_set(err, LK_OUT_OF_MEMORY, "grasp scene: out of memory");
  if ((st = lk_forward_kinematics(m, d))) {
    lk_data_free(d);
    return lk_error_set(err, st, "grasp scene: the initial state is not valid");
  }
  s->object_pose = *lk_data_link_pose(d, s->object);
  /* The closing directions not given, read at the initial state; then the
   * pre-shape: a joint written closed (at the limit it closes towards)
   * opened to its other limit. */
  int nq = lk_model_nq(m), ng = lk_model_ngeom(m);
  double *q0 = LK_NEW_ARRAY(double, nq > 0 ? nq : 1);
  lk_vec3 *c = LK_NEW_ARRAY(lk_vec3, ng > 0 ? ng : 1);
  if (!q0 || !c) st = lk_error_set(err, LK_OUT_OF_MEMORY, "grasp scene: out of memory");
  if (!st) memcpy(q0, lk_data_q(d), (size_t)nq * sizeof *q0);
  for (int k = 0; k < s->nfdof && !st; k++)
    if (!s->fdof_sign[k]) st = read_closing(s, d, q0, k, c, &s->fdof_sign[k], err);
  lk_free(c);
  if (st) {
    lk_free(q0);
    lk_data_free(d);
    return st;
  }
  for (int j = 0; j < s->ncoupled; j++)
    s->cp_sign[j] = (s->cp_ratio[j] > 0 ? 1 : -1) * s->fdof_sign[s->cp_leader[j]];
  for (int f = 0, k = 0; f < s->nfinger; f++) {
    lk_grasp_finger *fg = &s->finger[f];
    for (int i = 0; i < fg->ndof; i++, k++) fg->closing[i] = s->fdof_sign[k];
    for (int i = 0; i < fg->ncoupled; i++)
      for (int j = 0; j < s->ncoupled; j++)
        if (lk_model_joint_vadr(m, s->cp_link[j]) == fg->coupled_dof[i])
          fg->coupled_closing[i] = s->cp_sign[j];
  }
  for (int k = 0; k < s->nfdof; k++) {
    lk_link_spec js;
    lk_model_link(m, fdof_link(s, k), &js);
    if (!js.joint.limited) continue;
    double q = s->preshape0[k];
    if (s->fdof_sign[k] > 0 && q >= js.joint.upper) s->preshape0[k] = js.joint.lower;
    if (s->fdof_sign[k] < 0 && q <= js.joint.lower) s->preshape0[k] = js.joint.upper;
  }
  /* The rest at the pre-shape. */
  double *q = lk_data_q(d);
  memcpy(q, q0, (size_t)nq * sizeof *q0);
  lk_free(q0);
  for (int k = 0; k < s->nfdof; k++) q[s->fdof_qadr[k]] = s->preshape0[k];
  for (int j = 0; j < s->ncoupled; j++)
    q[s->cp_qadr[j]] = s->cp_ratio[j] * q[s->fdof_qadr[s->cp_leader[j]]] + s->cp_offset[j];
  if ((st = lk_grasp_scene_close_loops(s, d, 1e-12))) {
    lk_data_free(d);
    return lk_error_set(err, st, "grasp scene: the pre-shape is not valid (%s)",
                        st == LK_NOT_CONVERGED ? "the hand's loops do not close"
                                               : "forward kinematics failed");
  }
  lk_transform palm = lk_grasp_scene_hand_frame(s, d);
  merge_linkage_members(s, d, &palm);
  /* The hand frame on the mount (the palm's body is rigid). */
  s->palm_in_mount = lk_tf_inv_mul(lk_data_link_pose(d, s->mount), &palm);
  /* A one-joint finger's closing direction in the hand frame (the
   * antipodal sampler's jaw): its joint axis, against it for a mirrored
   * mimic joint. */
  for (int f = 0; f < s->nfinger; f++) {
    const lk_grasp_finger *fg = &s->finger[f];
    s->finger_axis[f] = lk_v3_zero();
    if (fg->ndof + fg->ncoupled != 1) continue;
    int link = lk_model_dof_link(m, fg->ndof ? fg->dof[0] : fg->coupled_dof[0]);
    lk_link_spec js;
    lk_model_link(m, link, &js);
    const lk_transform *P = lk_data_link_pose(d, lk_model_link_parent(m, link));
    lk_vec3 w = lk_m3_mulv(&P->R, lk_m3_mulv(&js.origin.R, lk_v3_normalize(js.joint.axis)));
    lk_vec3 ax = lk_m3_tmulv(&palm.R, w);
    s->finger_axis[f] = lk_v3_scale(ax, fg->ndof ? fg->closing[0] : fg->coupled_closing[0]);
  }
  s->reach = 0;
  for (int g = 0; g < lk_model_ngeom(m); g++) {
    int l = lk_model_geom_link(m, g);
    if (l < 0 || s->finger_of_link[l] < 0) continue;
    lk_geom_spec gs;
    lk_model_geom(m, g, &gs);
    lk_transform world = lk_tf_mul(lk_data_link_pose(d, l), &gs.pose);
    lk_transform in_palm = lk_tf_inv_mul(&palm, &world);
    lk_vec3 lo, hi;
    if (lk_grasp_shape_aabb(gs.type, gs.size, gs.mesh, &in_palm, &lo, &hi) == LK_OK)
      s->reach = fmax(s->reach, -lo.z);
  }
  lk_data_free(d);
  return LK_OK;
}

lk_grasp_scene *lk_grasp_scene_load(const char *hand_path, const char *object_path,
                                    const lk_grasp_scene_options *o, lk_error *err) {
  lk_error local;
  if (!err) err = &local;
  lk_error_clear(err);
  if (!hand_path || !object_path) {
    lk_error_set(err, LK_INVALID_ARGUMENT, "grasp scene: NULL file name");
    return NULL;
  }
  lk_grasp_scene_options opt;
  lk_grasp_scene_options_default(&opt);
  if (o) opt = *o;
  if (!opt.hand_prefix) opt.hand_prefix = "";
  if (!opt.object_prefix) opt.object_prefix = "";
  if (strcmp(opt.hand_prefix, opt.object_prefix) == 0) {
    lk_error_set(err, LK_INVALID_ARGUMENT,
                 "grasp scene: the hand and the object need different name prefixes");
    return NULL;
  }
  if (!(opt.soft_fingers >= 0) || !isfinite(opt.soft_fingers)) {
    lk_error_set(err, LK_INVALID_ARGUMENT,
                 "grasp scene: soft_fingers %g (a patch radius, m) must be finite and >= 0",
                 opt.soft_fingers);
    return NULL;
  }
  lk_grasp_scene *s = lk_calloc(1, sizeof *s);
  if (!s) {
    lk_error_set(err, LK_OUT_OF_MEMORY, "grasp scene: out of memory");
    return NULL;
  }
  if (compose(s, hand_path, object_path, &opt, NULL, err)) {
    lk_grasp_scene_free(s);
    return NULL;
  }
  /* A hand without actuators: composed again with its automatic ones. */
  auto_hand au;
  if (plan_auto_hand(s->m, &au, err)) {
    lk_grasp_scene_free(s);
    return NULL;
  }
  lk_status st = plan_wrist(s->m, &opt, &au, s->warning, sizeof s->warning, err);
  if (!st && (au.nact > 0 || au.wrist)) {
    lk_model_free(s->m);
    s->m = NULL;
    st = compose(s, hand_path, object_path, &opt, &au, err);
  }
  auto_hand_free(&au); /* allocated whether or not the hand needed it */
  if (st) {
    lk_grasp_scene_free(s);
    return NULL;
  }
  if (identify(s, &opt, err) || measure(s, err)) {
    lk_grasp_scene_free(s);
    return NULL;
  }
  return s;
}

lk_transform lk_grasp_scene_hand_frame(const lk_grasp_scene *s, const lk_data *d) {
  const lk_transform *P = lk_data_link_pose(d, s->palm);
  lk_transform h = {lk_m3_mul(&P->R, &s->hand_in_palm), P->p};
  return h;
}

const lk_model *lk_grasp_scene_model(const lk_grasp_scene *s) { return s ? s->m : NULL; }
int lk_grasp_scene_palm(const lk_grasp_scene *s) { return s ? s->palm : -1; }
int lk_grasp_scene_object(const lk_grasp_scene *s) { return s ? s->object : -1; }
int lk_grasp_scene_nfinger(const lk_grasp_scene *s) { return s ? s->nfinger : 0; }
const lk_grasp_finger *lk_grasp_scene_finger(const lk_grasp_scene *s, int i) {
  return s && i >= 0 && i < s->nfinger ? &s->finger[i] : NULL;
}
int lk_grasp_scene_nfinger_dofs(const lk_grasp_scene *s) { return s ? s->nfdof : 0; }
const double *lk_grasp_scene_preshape(const lk_grasp_scene *s) { return s ? s->preshape0 : NULL; }
const char *lk_grasp_scene_warning(const lk_grasp_scene *s) { return s ? s->warning : ""; }
int lk_grasp_scene_closing(const lk_grasp_scene *s, int k) {
  return s && k >= 0 && k < s->nfdof ? s->fdof_sign[k] : 0;
}
double lk_grasp_scene_object_mass(const lk_grasp_scene *s) { return s ? s->object_mass : NAN; }
double lk_grasp_scene_object_radius(const lk_grasp_scene *s) {
  return s ? s->object_radius : NAN;
}
lk_transform lk_grasp_scene_object_pose(const lk_grasp_scene *s) {
  return s ? s->object_pose : lk_tf_identity();
}
double lk_grasp_scene_reach(const lk_grasp_scene *s) { return s ? s->reach : NAN; }
const int *lk_grasp_scene_finger_of_link(const lk_grasp_scene *s) {
  return s ? s->finger_of_link : NULL;
}
