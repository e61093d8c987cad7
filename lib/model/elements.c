/* Actuators, loads, explicit contacts, loop closures, joint couplings and
 * tethers: staged by name, resolved to indices and checked at finalize. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "model/model_impl.h"

static const char *const kActNames[LK_ACTUATOR_TYPE_COUNT] = {
    "effort", "position", "velocity", "prescribed_position", "prescribed_velocity"};

const char *lk_actuator_type_name(lk_actuator_type t) {
  return (int)t >= 0 && t < LK_ACTUATOR_TYPE_COUNT ? kActNames[t] : NULL;
}

int lk_actuator_type_from_name(const char *name) {
  for (int i = 0; name && i < LK_ACTUATOR_TYPE_COUNT; i++)
    if (strcmp(name, kActNames[i]) == 0) return i;
  return -1;
}

void lk_actuator_spec_default(lk_actuator_spec *s) {
  memset(s, 0, sizeof *s);
  s->type = LK_ACTUATOR_EFFORT;
  s->max_effort = INFINITY;
}

void lk_load_spec_default(lk_load_spec *s) {
  memset(s, 0, sizeof *s);
  s->frame = LK_FRAME_WORLD;
  s->start = 0;
  s->end = INFINITY;
}

void lk_contact_spec_default(lk_contact_spec *s) {
  memset(s, 0, sizeof *s);
  s->type = LK_CONTACT_FRICTION;
  s->normal = lk_v3(0, 0, 1);
  s->tolerance = 1e-4;
  s->patch_radius = -1;
}

void lk_loop_spec_default(lk_loop_spec *s) {
  memset(s, 0, sizeof *s);
  s->type = LK_LOOP_BALL;
  s->frame_a = lk_tf_identity();
  s->frame_b = lk_tf_identity();
}

/* Copy an optional string: NULL and "" stay NULL. Returns 0 on OOM. */
static int dup_opt(char **out, const char *s) {
  *out = NULL;
  if (!s || !*s) return 1;
  *out = lk_strdup(s);
  return *out != NULL;
}

static lk_status staging_ok(lk_model *m, const void *s, lk_error *err) {
  if (!m || !s) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL model or spec");
  if (m->finalized)
    return lk_error_set(err, LK_INVALID_MODEL, "the model is finalized: it cannot be changed");
  return LK_OK;
}

#define GROW(arr, cap, n)                                                      \
  do {                                                                         \
    if (!lk_model_grow((void **)&(arr), &(cap), (n), sizeof *(arr)))           \
      return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");             \
  } while (0)

static void free_act(lk_actuator_rec *r) {
  lk_free(r->name);
  lk_free(r->joint);
  lk_free(r->sched);
}

lk_status lk_model_add_actuator(lk_model *m, const lk_actuator_spec *s, lk_error *err) {
  lk_status st = staging_ok(m, s, err);
  if (st) return st;
  if (!s->joint || !*s->joint) return lk_error_set(err, LK_INVALID_MODEL, "an actuator needs a joint");
  if (s->nschedule < 0 || (s->nschedule > 0 && (!s->schedule_t || !s->schedule_effort)))
    return lk_error_set(err, LK_INVALID_ARGUMENT, "actuator on '%s': bad schedule", s->joint);
  GROW(m->act, m->cap_act, m->nact);
  lk_actuator_rec r;
  memset(&r, 0, sizeof r);
  r.spec = *s;
  int ok = dup_opt(&r.name, s->name && *s->name ? s->name : s->joint) && dup_opt(&r.joint, s->joint);
  if (ok && s->nschedule > 0) {
    r.sched = lk_calloc(2 * (size_t)s->nschedule, sizeof(double));
    ok = r.sched != NULL;
    if (ok) {
      memcpy(r.sched, s->schedule_t, (size_t)s->nschedule * sizeof(double));
      memcpy(r.sched + s->nschedule, s->schedule_effort, (size_t)s->nschedule * sizeof(double));
    }
  }
  if (!ok) {
    free_act(&r);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  }
  r.spec.name = r.name;
  r.spec.joint = r.joint;
  r.spec.schedule_t = r.sched;
  r.spec.schedule_effort = r.sched ? r.sched + s->nschedule : NULL;
  m->act[m->nact++] = r;
  return LK_OK;
}

lk_status lk_model_add_load(lk_model *m, const lk_load_spec *s, lk_error *err) {
  lk_status st = staging_ok(m, s, err);
  if (st) return st;
  if (!s->link || !*s->link) return lk_error_set(err, LK_INVALID_MODEL, "a load needs a link");
  GROW(m->load, m->cap_load, m->nload);
  lk_load_rec r;
  memset(&r, 0, sizeof r);
  r.spec = *s;
  if (!dup_opt(&r.name, s->name) || !dup_opt(&r.link_name, s->link)) {
    lk_free(r.name);
    lk_free(r.link_name);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  }
  r.spec.name = r.name;
  r.spec.link = r.link_name;
  m->load[m->nload++] = r;
  return LK_OK;
}

lk_status lk_model_add_contact(lk_model *m, const lk_contact_spec *s, lk_error *err) {
  lk_status st = staging_ok(m, s, err);
  if (st) return st;
  if (!s->link || !*s->link) return lk_error_set(err, LK_INVALID_MODEL, "a contact needs a link");
  GROW(m->xcon, m->cap_xcon, m->nxcon);
  lk_xcontact_rec r;
  memset(&r, 0, sizeof r);
  r.spec = *s;
  if (!dup_opt(&r.name, s->name) || !dup_opt(&r.link_name, s->link) ||
      !dup_opt(&r.other_name, s->other && *s->other ? s->other : "world") ||
      !dup_opt(&r.material_name, s->material)) {
    lk_free(r.name);
    lk_free(r.link_name);
    lk_free(r.other_name);
    lk_free(r.material_name);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  }
  r.spec.name = r.name;
  r.spec.link = r.link_name;
  r.spec.other = r.other_name;
  r.spec.material = r.material_name;
  m->xcon[m->nxcon++] = r;
  return LK_OK;
}

lk_status lk_model_add_loop(lk_model *m, const lk_loop_spec *s, lk_error *err) {
  lk_status st = staging_ok(m, s, err);
  if (st) return st;
  if (!s->link_a || !*s->link_a)
    return lk_error_set(err, LK_INVALID_MODEL, "a loop closure needs link_a");
  GROW(m->loop, m->cap_loop, m->nloop);
  lk_loop_rec r;
  memset(&r, 0, sizeof r);
  r.spec = *s;
  if (!dup_opt(&r.name, s->name) || !dup_opt(&r.a_name, s->link_a) ||
      !dup_opt(&r.b_name, s->link_b && *s->link_b ? s->link_b : "world")) {
    lk_free(r.name);
    lk_free(r.a_name);
    lk_free(r.b_name);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  }
  r.spec.name = r.name;
  r.spec.link_a = r.a_name;
  r.spec.link_b = r.b_name;
  m->loop[m->nloop++] = r;
  return LK_OK;
}

lk_status lk_model_add_exclude(lk_model *m, const char *link_a, const char *link_b,
                               lk_error *err) {
  lk_status st = staging_ok(m, link_a, err);
  if (st) return st;
  if (!link_a || !*link_a || !link_b || !*link_b)
    return lk_error_set(err, LK_INVALID_MODEL, "an exclusion needs two links");
  GROW(m->excl, m->cap_excl, m->nexcl);
  char *a = NULL, *b = NULL;
  if (!dup_opt(&a, link_a) || !dup_opt(&b, link_b)) {
    lk_free(a);
    lk_free(b);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  }
  m->excl[m->nexcl].a_name = a;
  m->excl[m->nexcl].b_name = b;
  m->excl[m->nexcl].a = m->excl[m->nexcl].b = -1;
  m->nexcl++;
  return LK_OK;
}

int lk_model_nexclude(const lk_model *m) { return m ? m->nexcl : 0; }

lk_status lk_model_add_geom_pair(lk_model *m, const lk_geom_pair_spec *s, lk_error *err) {
  lk_status st = staging_ok(m, s, err);
  if (st) return st;
  if (!s->geom_a || !*s->geom_a || !s->geom_b || !*s->geom_b)
    return lk_error_set(err, LK_INVALID_MODEL, "a geom pair needs two geom names");
  GROW(m->gpair, m->cap_gpair, m->ngpair);
  struct lk_gpair_rec r = {NULL, NULL, NULL, -1, -1, -1};
  if (!dup_opt(&r.a_name, s->geom_a) || !dup_opt(&r.b_name, s->geom_b) ||
      !dup_opt(&r.mat_name, s->material)) {
    lk_free(r.a_name);
    lk_free(r.b_name);
    lk_free(r.mat_name);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  }
  m->gpair[m->ngpair++] = r;
  return LK_OK;
}

int lk_model_ngeom_pair(const lk_model *m) { return m ? m->ngpair : 0; }

lk_status lk_model_geom_pair(const lk_model *m, int i, int *geom_a, int *geom_b, int *material) {
  if (!m || i < 0 || i >= m->ngpair || !geom_a || !geom_b || !material) return LK_INVALID_ARGUMENT;
  *geom_a = m->gpair[i].a;
  *geom_b = m->gpair[i].b;
  *material = m->gpair[i].mat;
  return LK_OK;
}

static int gpair_find(const lk_model *m, int a, int b) {
  if (!m || !m->in_gpair || a < 0 || b < 0 || a >= m->ngeom || b >= m->ngeom) return -1;
  if (!m->in_gpair[a] || !m->in_gpair[b]) return -1;
  for (int i = 0; i < m->ngpair; i++)
    if ((m->gpair[i].a == a && m->gpair[i].b == b) || (m->gpair[i].a == b && m->gpair[i].b == a))
      return i;
  return -1;
}

int lk_model_geom_pair_material(const lk_model *m, int geom_a, int geom_b) {
  int i = gpair_find(m, geom_a, geom_b);
  return i < 0 ? -1 : m->gpair[i].mat;
}

int lk_model_is_geom_pair(const lk_model *m, int geom_a, int geom_b) {
  return gpair_find(m, geom_a, geom_b) >= 0;
}

static void free_key(struct lk_key_rec *k) {
  for (int i = 0; k->joint && i < k->n; i++) lk_free(k->joint[i]);
  lk_free(k->joint);
  lk_free(k->nq);
  lk_free(k->qadr);
  lk_free(k->q);
  lk_free(k->name);
}

lk_status lk_model_add_keyframe(lk_model *m, const lk_keyframe_spec *s, lk_error *err) {
  lk_status st = staging_ok(m, s, err);
  if (st) return st;
  if (!s->name || !*s->name || s->njoint < 0 || (s->njoint > 0 && (!s->joints || !s->nq || !s->q)))
    return lk_error_set(err, LK_INVALID_MODEL, "a keyframe needs a name and its joints' values");
  for (int i = 0; i < m->nkey; i++)
    if (strcmp(m->key[i].name, s->name) == 0)
      return lk_error_set(err, LK_INVALID_MODEL, "keyframe '%s' is defined twice", s->name);
  int total = 0;
  for (int i = 0; i < s->njoint; i++) {
    if (s->nq[i] < 1 || s->nq[i] > 7)
      return lk_error_set(err, LK_INVALID_MODEL, "keyframe '%s': %d values for one joint", s->name,
                          s->nq[i]);
    total += s->nq[i];
  }
  for (int i = 0; i < total; i++)
    if (!isfinite(s->q[i]))
      return lk_error_set(err, LK_INVALID_MODEL, "keyframe '%s': a value is not finite", s->name);
  GROW(m->key, m->cap_key, m->nkey);
  struct lk_key_rec k;
  memset(&k, 0, sizeof k);
  k.n = s->njoint;
  k.joint = LK_NEW_ARRAY(char *, k.n);
  k.nq = LK_NEW_ARRAY(int, k.n);
  k.qadr = LK_NEW_ARRAY(int, k.n);
  k.q = LK_NEW_ARRAY(double, total);
  int ok = k.joint && k.nq && k.qadr && k.q && dup_opt(&k.name, s->name);
  for (int i = 0; ok && i < k.n; i++) ok = dup_opt(&k.joint[i], s->joints[i]);
  if (!ok) {
    free_key(&k);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  }
  if (k.n) memcpy(k.nq, s->nq, (size_t)k.n * sizeof *k.nq);
  if (total) memcpy(k.q, s->q, (size_t)total * sizeof *k.q);
  m->key[m->nkey++] = k;
  return LK_OK;
}

int lk_model_nkeyframe(const lk_model *m) { return m ? m->nkey : 0; }

int lk_model_keyframe_index(const lk_model *m, const char *name) {
  for (int i = 0; m && name && i < m->nkey; i++)
    if (strcmp(m->key[i].name, name) == 0) return i;
  return -1;
}

const char *lk_model_keyframe_name(const lk_model *m, int k) {
  return m && k >= 0 && k < m->nkey ? m->key[k].name : NULL;
}

lk_status lk_model_keyframe_q(const lk_model *m, int k, double *q) {
  if (!m || !q || k < 0 || k >= m->nkey || !m->finalized) return LK_INVALID_ARGUMENT;
  const struct lk_key_rec *r = &m->key[k];
  memcpy(q, m->q_init, (size_t)m->nq * sizeof *q);
  for (int i = 0, off = 0; i < r->n; off += r->nq[i], i++) {
    memcpy(q + r->qadr[i], r->q + off, (size_t)r->nq[i] * sizeof *q);
    if (r->nq[i] >= 4) { /* a quaternion: unit, as the state keeps it */
      double *u = q + r->qadr[i] + r->nq[i] - 4;
      double n = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2] + u[3] * u[3]);
      for (int c = 0; c < 4 && n > 0; c++) u[c] /= n;
    }
  }
  return LK_OK;
}

lk_status lk_model_exclude(const lk_model *m, int i, int *link_a, int *link_b) {
  if (!m || i < 0 || i >= m->nexcl || !link_a || !link_b) return LK_INVALID_ARGUMENT;
  *link_a = m->excl[i].a;
  *link_b = m->excl[i].b;
  return LK_OK;
}

lk_status lk_model_add_coupling(lk_model *m, const lk_coupling_spec *s, lk_error *err) {
  lk_status st = staging_ok(m, s, err);
  if (st) return st;
  if (!s->joint_a || !*s->joint_a || !s->joint_b || !*s->joint_b)
    return lk_error_set(err, LK_INVALID_MODEL, "a coupling needs joint_a and joint_b");
  GROW(m->coup, m->cap_coup, m->ncoup);
  lk_coupling_rec r;
  memset(&r, 0, sizeof r);
  r.spec = *s;
  if (!dup_opt(&r.name, s->name) || !dup_opt(&r.a_name, s->joint_a) ||
      !dup_opt(&r.b_name, s->joint_b)) {
    lk_free(r.name);
    lk_free(r.a_name);
    lk_free(r.b_name);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  }
  r.spec.name = r.name;
  r.spec.joint_a = r.a_name;
  r.spec.joint_b = r.b_name;
  m->coup[m->ncoup++] = r;
  return LK_OK;
}

lk_status lk_model_add_tether(lk_model *m, const lk_tether_spec *s, lk_error *err) {
  lk_status st = staging_ok(m, s, err);
  if (st) return st;
  if (!s->link || !*s->link) return lk_error_set(err, LK_INVALID_MODEL, "a tether needs a link");
  GROW(m->teth, m->cap_teth, m->nteth);
  lk_tether_rec r;
  memset(&r, 0, sizeof r);
  r.spec = *s;
  if (!dup_opt(&r.name, s->name) || !dup_opt(&r.link_name, s->link) ||
      !dup_opt(&r.other_name, s->other && *s->other ? s->other : "world")) {
    lk_free(r.name);
    lk_free(r.link_name);
    lk_free(r.other_name);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  }
  r.spec.name = r.name;
  r.spec.link = r.link_name;
  r.spec.other = r.other_name;
  m->teth[m->nteth++] = r;
  return LK_OK;
}

void lk_support_spec_default(lk_support_spec *s) {
  memset(s, 0, sizeof *s);
  s->normal = lk_v3(0, 0, 1);
  s->mu_static = 0.5;
  s->mu_dynamic = 0.5;
}

lk_status lk_model_add_support(lk_model *m, const lk_support_spec *s, lk_error *err) {
  lk_status st = staging_ok(m, s, err);
  if (st) return st;
  GROW(m->sup, m->cap_sup, m->nsup);
  lk_support_rec r;
  memset(&r, 0, sizeof r);
  r.spec = *s;
  if (!dup_opt(&r.name, s->name) || !dup_opt(&r.joint_name, s->joint) ||
      !dup_opt(&r.link_name, s->link)) {
    lk_free(r.name);
    lk_free(r.joint_name);
    lk_free(r.link_name);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  }
  r.spec.name = r.name;
  r.spec.joint = r.joint_name;
  r.spec.link = r.link_name;
  r.link = -1;
  r.dof = -1;
  m->sup[m->nsup++] = r;
  return LK_OK;
}

void lk_model_free_elements(lk_model *m) {
  lk_model_free_sensors(m);
  for (int i = 0; i < m->nsup; i++) {
    lk_free(m->sup[i].name);
    lk_free(m->sup[i].joint_name);
    lk_free(m->sup[i].link_name);
  }
  lk_free(m->sup);
  for (int i = 0; i < m->nact; i++) free_act(&m->act[i]);
  lk_free(m->act);
  for (int i = 0; i < m->nload; i++) {
    lk_free(m->load[i].name);
    lk_free(m->load[i].link_name);
  }
  lk_free(m->load);
  for (int i = 0; i < m->nxcon; i++) {
    lk_free(m->xcon[i].name);
    lk_free(m->xcon[i].link_name);
    lk_free(m->xcon[i].other_name);
    lk_free(m->xcon[i].material_name);
  }
  lk_free(m->xcon);
  for (int i = 0; i < m->nloop; i++) {
    lk_free(m->loop[i].name);
    lk_free(m->loop[i].a_name);
    lk_free(m->loop[i].b_name);
  }
  for (int i = 0; i < m->nexcl; i++) {
    lk_free(m->excl[i].a_name);
    lk_free(m->excl[i].b_name);
  }
  lk_free(m->excl);
  for (int i = 0; i < m->ngpair; i++) {
    lk_free(m->gpair[i].a_name);
    lk_free(m->gpair[i].b_name);
    lk_free(m->gpair[i].mat_name);
  }
  lk_free(m->gpair);
  lk_free(m->in_gpair);
  for (int i = 0; i < m->nkey; i++) free_key(&m->key[i]);
  lk_free(m->key);
  lk_free(m->loop);
  for (int i = 0; i < m->ncoup; i++) {
    lk_free(m->coup[i].name);
    lk_free(m->coup[i].a_name);
    lk_free(m->coup[i].b_name);
  }
  lk_free(m->coup);
  for (int i = 0; i < m->nteth; i++) {
    lk_free(m->teth[i].name);
    lk_free(m->teth[i].link_name);
    lk_free(m->teth[i].other_name);
  }
  lk_free(m->teth);
}

/* ------------------------------------------------------------ finalize */

static int find_link(const lk_model *m, const char *name) {
  return name ? lk_name_index_get(&m->link_index, name) : -1;
}

static int find_joint(const lk_model *m, const char *name) {
  return name ? lk_name_index_get(&m->joint_index, name) : -1;
}

static int find_material(const lk_model *m, const char *name) {
  if (!name) return 0;
  for (int k = 0; k < m->nmat; k++)
    if (strcmp(m->mat[k].name, name) == 0) return k;
  return -1;
}

static int one_dof(const lk_model *m, int link) {
  return m->jtype[link] == LK_JOINT_REVOLUTE || m->jtype[link] == LK_JOINT_PRISMATIC;
}

static lk_status check_unit_rotation(const lk_transform *T, const char *what, const char *name,
                                     lk_error *err) {
  if (!lk_model_finite_tf(T))
    return lk_error_set(err, LK_INVALID_MODEL, "%s '%s': frame is not finite", what, name);
  lk_mat3 RtR = lk_m3_tmul(&T->R, &T->R);
  double d = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) d = fmax(d, fabs(RtR.m[i][j] - (i == j)));
  if (d > 1e-6 || lk_m3_det(&T->R) < 0)
    return lk_error_set(err, LK_INVALID_MODEL, "%s '%s': frame rotation is not a rotation matrix",
                        what, name);
  return LK_OK;
}

static int prescribed(const lk_actuator_spec *s) {
  return s->type == LK_ACTUATOR_PRESCRIBED_POSITION || s->type == LK_ACTUATOR_PRESCRIBED_VELOCITY;
}

lk_status lk_model_finalize_elements(lk_model *m, lk_error *err) {
  lk_status sst = lk_model_finalize_sensors(m, err);
  if (sst) return sst;
  m->nprescribed = 0;
  for (int i = 0; i < m->nact; i++) {
    lk_actuator_rec *r = &m->act[i];
    const lk_actuator_spec *s = &r->spec;
    const char *n = r->name;
    for (int k = 0; k < i; k++)
      if (strcmp(m->act[k].name, n) == 0)
        return lk_error_set(err, LK_INVALID_MODEL, "duplicate actuator name '%s'", n);
    if ((int)s->type < 0 || s->type >= LK_ACTUATOR_TYPE_COUNT)
      return lk_error_set(err, LK_INVALID_MODEL, "actuator '%s': unknown type %d", n, (int)s->type);
    int l = find_joint(m, r->joint);
    if (l < 0)
      return lk_error_set(err, LK_INVALID_MODEL, "actuator '%s': unknown joint '%s'", n, r->joint);
    if (!one_dof(m, l))
      return lk_error_set(err, LK_INVALID_MODEL,
                          "actuator '%s': joint '%s' is %s; actuators drive revolute or prismatic "
                          "joints",
                          n, r->joint, lk_joint_type_name(m->jtype[l]));
    if (!isfinite(s->kp) || !isfinite(s->kv) || !isfinite(s->target) || isnan(s->max_effort))
      return lk_error_set(err, LK_INVALID_MODEL, "actuator '%s': gains and target must be finite", n);
    if (s->kp < 0 || s->kv < 0 || !(s->max_effort > 0))
      return lk_error_set(err, LK_INVALID_MODEL,
                          "actuator '%s': kp, kv must be >= 0 and max_effort > 0", n);
    for (int k = 0; k < s->nschedule; k++) {
      if (!isfinite(s->schedule_t[k]) || !isfinite(s->schedule_effort[k]))
        return lk_error_set(err, LK_INVALID_MODEL, "actuator '%s': schedule is not finite", n);
      if (k > 0 && !(s->schedule_t[k] > s->schedule_t[k - 1]))
        return lk_error_set(err, LK_INVALID_MODEL,
                            "actuator '%s': schedule times must increase (%g after %g)", n,
                            s->schedule_t[k], s->schedule_t[k - 1]);
    }
    r->link = l;
    r->dof = m->vadr[l];
    if (prescribed(s)) {
      /* two motions prescribed on one joint would be one redundant (and
       * likely contradictory) constraint */
      for (int k = 0; k < i; k++)
        if (prescribed(&m->act[k].spec) && m->act[k].link == l)
          return lk_error_set(err, LK_INVALID_MODEL,
                              "actuator '%s': joint '%s' already has its motion prescribed by '%s'",
                              n, r->joint, m->act[k].name);
      m->nprescribed++;
    }
  }
  for (int i = 0; i < m->nload; i++) {
    lk_load_rec *r = &m->load[i];
    const lk_load_spec *s = &r->spec;
    const char *n = r->name ? r->name : r->link_name;
    int l = find_link(m, r->link_name);
    if (l < 0) return lk_error_set(err, LK_INVALID_MODEL, "load on unknown link '%s'", r->link_name);
    if (l == 0) return lk_error_set(err, LK_INVALID_MODEL, "load '%s': cannot load the world", n);
    if (!lk_v3_isfinite(s->point) || !lk_v3_isfinite(s->force) || !lk_v3_isfinite(s->torque))
      return lk_error_set(err, LK_INVALID_MODEL, "load '%s': force, torque and point must be finite", n);
    if ((int)s->frame < 0 || s->frame > LK_FRAME_LINK)
      return lk_error_set(err, LK_INVALID_MODEL, "load '%s': unknown frame %d", n, (int)s->frame);
    if (!isfinite(s->start) || isnan(s->end) || !(s->end >= s->start))
      return lk_error_set(err, LK_INVALID_MODEL, "load '%s': needs finite start <= end", n);
    r->link = l;
  }
  for (int i = 0; i < m->nxcon; i++) {
    lk_xcontact_rec *r = &m->xcon[i];
    const lk_contact_spec *s = &r->spec;
    char label[128];
    snprintf(label, sizeof label, "%s%s%s", r->name ? "'" : "#", r->name ? r->name : "",
             r->name ? "'" : "");
    if (!r->name) snprintf(label, sizeof label, "#%d (on '%s')", i, r->link_name);
    if (r->name)
      for (int k = 0; k < i; k++)
        if (m->xcon[k].name && strcmp(m->xcon[k].name, r->name) == 0)
          return lk_error_set(err, LK_INVALID_MODEL, "duplicate contact name '%s'", r->name);
    int l = find_link(m, r->link_name), o = find_link(m, r->other_name);
    if (l < 0)
      return lk_error_set(err, LK_INVALID_MODEL, "contact %s: unknown link '%s'", label, r->link_name);
    if (o < 0)
      return lk_error_set(err, LK_INVALID_MODEL, "contact %s: unknown other link '%s'", label,
                          r->other_name);
    if (l == o)
      return lk_error_set(err, LK_INVALID_MODEL, "contact %s: link and other are the same", label);
    if ((int)s->type < 0 || s->type > LK_CONTACT_ROLLING)
      return lk_error_set(err, LK_INVALID_MODEL, "contact %s: unknown type %d", label, (int)s->type);
    if (!lk_v3_isfinite(s->point) || !lk_v3_isfinite(s->other_point) || !lk_v3_isfinite(s->normal) ||
        !isfinite(s->radius) || !isfinite(s->tolerance) || !isfinite(s->patch_radius))
      return lk_error_set(err, LK_INVALID_MODEL, "contact %s: values must be finite", label);
    if (!(lk_v3_norm(s->normal) > 1e-12))
      return lk_error_set(err, LK_INVALID_MODEL, "contact %s: normal must not be zero", label);
    if (s->radius < 0 || s->tolerance < 0)
      return lk_error_set(err, LK_INVALID_MODEL, "contact %s: radius and tolerance must be >= 0",
                          label);
    int k = find_material(m, r->material_name);
    if (k < 0)
      return lk_error_set(err, LK_INVALID_MODEL, "contact %s: unknown material '%s'", label,
                          r->material_name);
    r->link = l;
    r->other = o;
    r->mat = k;
    r->spec.normal = lk_v3_normalize(s->normal);
  }
  for (int i = 0; i < m->nloop; i++) {
    lk_loop_rec *r = &m->loop[i];
    const char *n = r->name ? r->name : r->a_name;
    int a = find_link(m, r->a_name), b = find_link(m, r->b_name);
    if (a < 0) return lk_error_set(err, LK_INVALID_MODEL, "loop '%s': unknown link '%s'", n, r->a_name);
    if (b < 0) return lk_error_set(err, LK_INVALID_MODEL, "loop '%s': unknown link '%s'", n, r->b_name);
    if (a == b) return lk_error_set(err, LK_INVALID_MODEL, "loop '%s': links a and b are the same", n);
    if ((int)r->spec.type < 0 || r->spec.type > LK_LOOP_RIGID)
      return lk_error_set(err, LK_INVALID_MODEL, "loop '%s': unknown type %d", n, (int)r->spec.type);
    lk_status st = check_unit_rotation(&r->spec.frame_a, "loop", n, err);
    if (!st) st = check_unit_rotation(&r->spec.frame_b, "loop", n, err);
    if (st) return st;
    r->link_a = a;
    r->link_b = b;
  }
  for (int i = 0; i < m->nexcl; i++) {
    const char *an = m->excl[i].a_name, *bn = m->excl[i].b_name;
    int a = find_link(m, an), b = find_link(m, bn);
    if (a < 0 || b < 0)
      return lk_error_set(err, LK_INVALID_MODEL, "exclude %s %s: unknown link '%s'", an, bn,
                          a < 0 ? an : bn);
    m->excl[i].a = a;
    m->excl[i].b = b;
  }
  if (m->ngpair > 0) {
    lk_free(m->in_gpair);
    m->in_gpair = lk_calloc((size_t)(m->ngeom > 0 ? m->ngeom : 1), 1);
    if (!m->in_gpair) return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  }
  for (int i = 0; i < m->ngpair; i++) {
    struct lk_gpair_rec *r = &m->gpair[i];
    int g[2] = {-1, -1};
    const char *nm[2] = {r->a_name, r->b_name};
    for (int k = 0; k < 2; k++) {
      for (int j = 0; j < m->ngeom && g[k] < 0; j++)
        if (m->geom[j].spec.name && strcmp(m->geom[j].spec.name, nm[k]) == 0) g[k] = j;
      if (g[k] < 0)
        return lk_error_set(err, LK_INVALID_MODEL, "geom pair %s %s: unknown geom '%s'",
                            r->a_name, r->b_name, nm[k]);
    }
    if (g[0] == g[1])
      return lk_error_set(err, LK_INVALID_MODEL, "geom pair %s %s: a geom with itself", r->a_name,
                          r->b_name);
    r->mat = -1;
    if (r->mat_name && (r->mat = find_material(m, r->mat_name)) < 0)
      return lk_error_set(err, LK_INVALID_MODEL, "geom pair %s %s: unknown material '%s'",
                          r->a_name, r->b_name, r->mat_name);
    r->a = g[0];
    r->b = g[1];
    m->in_gpair[g[0]] = m->in_gpair[g[1]] = 1;
  }
  for (int i = 0; i < m->nkey; i++) {
    struct lk_key_rec *k = &m->key[i];
    for (int j = 0; j < k->n; j++) {
      int l = find_joint(m, k->joint[j]);
      if (l < 0)
        return lk_error_set(err, LK_INVALID_MODEL, "keyframe '%s': unknown joint '%s'", k->name,
                            k->joint[j]);
      if (m->jnq[l] != k->nq[j])
        return lk_error_set(err, LK_INVALID_MODEL,
                            "keyframe '%s': joint '%s' has %d position values, got %d", k->name,
                            k->joint[j], m->jnq[l], k->nq[j]);
      k->qadr[j] = m->qadr[l];
    }
  }
  for (int i = 0; i < m->ncoup; i++) {
    lk_coupling_rec *r = &m->coup[i];
    const char *n = r->name ? r->name : r->a_name;
    int a = find_joint(m, r->a_name), b = find_joint(m, r->b_name);
    if (a < 0)
      return lk_error_set(err, LK_INVALID_MODEL, "coupling '%s': unknown joint '%s'", n, r->a_name);
    if (b < 0)
      return lk_error_set(err, LK_INVALID_MODEL, "coupling '%s': unknown joint '%s'", n, r->b_name);
    if (a == b) return lk_error_set(err, LK_INVALID_MODEL, "coupling '%s': joints are the same", n);
    if (!one_dof(m, a) || !one_dof(m, b))
      return lk_error_set(err, LK_INVALID_MODEL,
                          "coupling '%s': both joints must be revolute or prismatic", n);
    if (!isfinite(r->spec.ratio) || !isfinite(r->spec.offset))
      return lk_error_set(err, LK_INVALID_MODEL, "coupling '%s': ratio and offset must be finite", n);
    r->dof_a = m->vadr[a];
    r->dof_b = m->vadr[b];
  }
  for (int i = 0; i < m->nteth; i++) {
    lk_tether_rec *r = &m->teth[i];
    const char *n = r->name ? r->name : r->link_name;
    int l = find_link(m, r->link_name), o = find_link(m, r->other_name);
    if (l < 0)
      return lk_error_set(err, LK_INVALID_MODEL, "tether '%s': unknown link '%s'", n, r->link_name);
    if (o < 0)
      return lk_error_set(err, LK_INVALID_MODEL, "tether '%s': unknown link '%s'", n, r->other_name);
    if (!lk_v3_isfinite(r->spec.point) || !lk_v3_isfinite(r->spec.other_point) ||
        !(isfinite(r->spec.length) && r->spec.length > 0))
      return lk_error_set(err, LK_INVALID_MODEL,
                          "tether '%s': points must be finite and length positive", n);
    r->link = l;
    r->other = o;
  }
  for (int i = 0; i < m->nsup; i++) {
    lk_support_rec *r = &m->sup[i];
    const lk_support_spec *s = &r->spec;
    char label[96];
    if (r->name)
      snprintf(label, sizeof label, "'%s'", r->name);
    else
      snprintf(label, sizeof label, "#%d", i);
    if (r->name)
      for (int k = 0; k < i; k++)
        if (m->sup[k].name && strcmp(m->sup[k].name, r->name) == 0)
          return lk_error_set(err, LK_INVALID_MODEL, "duplicate support name '%s'", r->name);
    if (!!r->joint_name == !!r->link_name)
      return lk_error_set(err, LK_INVALID_MODEL,
                          "support %s: give either a joint or a link (with a point), not %s",
                          label, r->joint_name ? "both" : "neither");
    if (!isfinite(s->normal_force) || !isfinite(s->mu_static) || !isfinite(s->mu_dynamic) ||
        !lk_v3_isfinite(s->point) || !lk_v3_isfinite(s->normal))
      return lk_error_set(err, LK_INVALID_MODEL, "support %s: values must be finite", label);
    if (s->normal_force < 0 || s->mu_static < 0 || s->mu_dynamic < 0)
      return lk_error_set(err, LK_INVALID_MODEL,
                          "support %s: normal_force, mu_static and mu_dynamic must be >= 0", label);
    if (s->mu_dynamic > s->mu_static)
      return lk_error_set(err, LK_INVALID_MODEL, "support %s: mu_dynamic %g exceeds mu_static %g",
                          label, s->mu_dynamic, s->mu_static);
    if (r->joint_name) {
      int l = find_joint(m, r->joint_name);
      if (l < 0)
        return lk_error_set(err, LK_INVALID_MODEL, "support %s: unknown joint '%s'", label,
                            r->joint_name);
      if (!one_dof(m, l))
        return lk_error_set(err, LK_INVALID_MODEL,
                            "support %s: joint '%s' is %s; a joint support needs a revolute or "
                            "prismatic joint",
                            label, r->joint_name, lk_joint_type_name(m->jtype[l]));
      r->link = l;
      r->dof = m->vadr[l];
    } else {
      int l = find_link(m, r->link_name);
      if (l < 0)
        return lk_error_set(err, LK_INVALID_MODEL, "support %s: unknown link '%s'", label,
                            r->link_name);
      if (l == 0)
        return lk_error_set(err, LK_INVALID_MODEL, "support %s: the world cannot rest on a support",
                            label);
      if (!(lk_v3_norm(s->normal) > 1e-12))
        return lk_error_set(err, LK_INVALID_MODEL, "support %s: normal must not be zero", label);
      r->link = l;
      r->dof = -1;
      r->spec.normal = lk_v3_normalize(s->normal);
    }
  }
  return LK_OK;
}

/* ------------------------------------------------------------- queries */

int lk_model_nactuator(const lk_model *m) { return lk_model_ok(m) ? m->nact : 0; }
int lk_model_nload(const lk_model *m) { return lk_model_ok(m) ? m->nload : 0; }
int lk_model_ncontact(const lk_model *m) { return lk_model_ok(m) ? m->nxcon : 0; }
int lk_model_nloop(const lk_model *m) { return lk_model_ok(m) ? m->nloop : 0; }
int lk_model_ncoupling(const lk_model *m) { return lk_model_ok(m) ? m->ncoup : 0; }
int lk_model_ntether(const lk_model *m) { return lk_model_ok(m) ? m->nteth : 0; }
int lk_model_nsupport(const lk_model *m) { return lk_model_ok(m) ? m->nsup : 0; }
int lk_model_support_index(const lk_model *m, const char *name) {
  if (!lk_model_ok(m) || !name) return -1;
  for (int i = 0; i < m->nsup; i++)
    if (m->sup[i].name && strcmp(m->sup[i].name, name) == 0) return i;
  return -1;
}

int lk_model_actuator_index(const lk_model *m, const char *name) {
  if (!lk_model_ok(m) || !name) return -1;
  for (int i = 0; i < m->nact; i++)
    if (strcmp(m->act[i].name, name) == 0) return i;
  return -1;
}

#define GETTER(fn, T, arr, count)                              \
  lk_status fn(const lk_model *m, int i, T *out) {             \
    if (!lk_model_ok(m) || i < 0 || i >= m->count || !out)     \
      return LK_INVALID_ARGUMENT;                              \
    *out = m->arr[i].spec;                                     \
    return LK_OK;                                              \
  }

GETTER(lk_model_actuator, lk_actuator_spec, act, nact)
GETTER(lk_model_load_spec, lk_load_spec, load, nload)
GETTER(lk_model_contact, lk_contact_spec, xcon, nxcon)
GETTER(lk_model_support, lk_support_spec, sup, nsup)
GETTER(lk_model_loop, lk_loop_spec, loop, nloop)
GETTER(lk_model_coupling, lk_coupling_spec, coup, ncoup)
GETTER(lk_model_tether, lk_tether_spec, teth, nteth)
