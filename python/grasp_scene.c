/* linkage.grasp.Scene: a hand and an object joined into one scene
 * (lk_grasp_scene_load), its candidates screened analytically
 * (lk_grasp_screen) and run as dynamic trials (lk_grasp_trial), over
 * `jobs` threads with the GIL released. Candidate i draws from its own
 * random stream and results are stored by index, so the rows are the
 * same for any number of jobs (as the grasp-planner program's). The
 * planner's ranking is composed in Python (linkage/grasp.py). */
#include "pylk.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

#define PYLK_GRASP_CONTACTS 256

typedef struct {
  PyObject_HEAD
  lk_grasp_scene *scene;
  lk_grasp_screener *screener;
  PyObject *hand, *object;
} scene_obj;

/* One screened candidate; the dtype below names the fields. */
typedef struct {
  int32_t index, fingers_in_contact, ncontacts, force_closure;
  double epsilon;
  double position[3], quaternion[4];
  uint32_t outcome[12]; /* lk_screen_outcome_name, or "error" */
} screen_rec;

typedef struct {
  int32_t held, fingers_in_contact, ncontacts, force_closure, steps;
  double epsilon, volume, min_force, slip_translation, slip_rotation, peak_utilization;
  double close_time, time;
  uint32_t outcome[20]; /* lk_grasp_outcome_name, or "error" */
  uint32_t lost_in[8];  /* close, release, lift, shake, done */
} trial_rec;

static PyArray_Descr *screen_dtype, *trial_dtype;

static void scene_dealloc(scene_obj *self) {
  lk_grasp_screener_free(self->screener);
  lk_grasp_scene_free(self->scene);
  Py_XDECREF(self->hand);
  Py_XDECREF(self->object);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A list of "KEY=VALUE" strings into a NULL-terminated array of pointers
 * into the list's strings (valid while the list lives). */
static int string_list(PyObject *o, const char ***out, int *n) {
  *out = NULL;
  *n = 0;
  if (o == Py_None) return 0;
  PyObject *seq = PySequence_Fast(o, "overrides must be a list of 'KEY=VALUE' strings");
  if (!seq) return -1;
  Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
  const char **a = PyMem_Calloc((size_t)k + 1, sizeof *a);
  if (!a) {
    Py_DECREF(seq);
    PyErr_NoMemory();
    return -1;
  }
  for (Py_ssize_t i = 0; i < k; i++) {
    PyObject *it = PySequence_Fast_GET_ITEM(seq, i);
    if (!PyUnicode_Check(it) || !(a[i] = PyUnicode_AsUTF8(it))) {
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "overrides are strings");
      PyMem_Free(a);
      Py_DECREF(seq);
      return -1;
    }
  }
  Py_DECREF(seq); /* the strings stay alive in o, which the caller holds */
  *out = a;
  *n = (int)k;
  return 0;
}

static PyObject *scene_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"hand", "object", "hand_overrides", "object_overrides", "mesh_mass",
                           "mesh_scale", "palm", "approach", "keep_hull", NULL};
  PyObject *hand, *object, *hset = Py_None, *oset = Py_None;
  double mesh_mass = 0, mesh_scale = 1, ap[3] = {0, 0, 0};
  const char *palm = NULL;
  int keep_hull = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&|OOddz(ddd)p", kwlist, PyUnicode_FSConverter,
                                   &hand, PyUnicode_FSConverter, &object, &hset, &oset, &mesh_mass,
                                   &mesh_scale, &palm, &ap[0], &ap[1], &ap[2], &keep_hull))
    return NULL;
  scene_obj *self = (scene_obj *)type->tp_alloc(type, 0);
  const char **hs = NULL, **os = NULL;
  int nh = 0, no = 0;
  if (!self || string_list(hset, &hs, &nh) < 0 || string_list(oset, &os, &no) < 0) goto fail;
  self->hand = hand;
  self->object = object;
  hand = object = NULL;
  lk_grasp_scene_options o;
  lk_grasp_scene_options_default(&o);
  o.hand_set = hs;
  o.nhand_set = nh;
  o.object_set = os;
  o.nobject_set = no;
  o.palm = palm;
  o.approach = lk_v3(ap[0], ap[1], ap[2]);
  lk_grasp_mesh_object mo;
  lk_grasp_mesh_object_report mrep;
  memset(&mrep, 0, sizeof mrep);
  if (mesh_mass > 0) { /* the object is a mesh file (STL, OBJ, ...) */
    lk_grasp_mesh_object_default(&mo);
    mo.mass = mesh_mass;
    mo.scale = mesh_scale;
    mo.keep_hull = keep_hull;
    mo.report = &mrep;
    o.object_mesh = &mo;
  }
  lk_error err;
  lk_error_clear(&err);
  lk_grasp_scene *s;
  Py_BEGIN_ALLOW_THREADS s = lk_grasp_scene_load(PyBytes_AS_STRING(self->hand),
                                                 PyBytes_AS_STRING(self->object), &o, &err);
  Py_END_ALLOW_THREADS if (!s) {
    pylk_raise(pylk_Error, &err);
    goto fail;
  }
  self->scene = s;
  /* A single non-convex part decomposed or kept as its hull: say so. */
  if (mrep.warning[0] && PyErr_WarnEx(PyExc_UserWarning, mrep.warning, 1) < 0) goto fail;
  lk_grasp_screen_options so;
  lk_grasp_screen_options_default(&so);
  self->screener = lk_grasp_screener_new(s, &so, &err);
  if (!self->screener) {
    pylk_raise(pylk_Error, &err);
    goto fail;
  }
  PyMem_Free(hs);
  PyMem_Free(os);
  return (PyObject *)self;
fail:
  PyMem_Free(hs);
  PyMem_Free(os);
  Py_XDECREF(hand);
  Py_XDECREF(object);
  Py_XDECREF(self);
  return NULL;
}

/* --------------------------------------------------------------- threads */

typedef struct {
  scene_obj *self;
  const lk_grasp_sampler *sampler;
  const lk_grasp_trial_options *trial;
  const double *poses; /* trials: k x 7 */
  void *out;
  int n, jobs, thread;
  lk_status status; /* first failure of this thread (bad arguments, memory) */
  lk_error err;
} job;

static void *screen_thread(void *arg) {
  job *j = arg;
  const lk_model *m = lk_grasp_scene_model(j->self->scene);
  lk_data *d = lk_data_new(m);
  lk_grasp_contact *c = malloc(PYLK_GRASP_CONTACTS * sizeof *c);
  if (!d || !c) {
    j->status = LK_OUT_OF_MEMORY;
    snprintf(j->err.message, sizeof j->err.message, "out of memory");
  }
  for (int i = j->thread; i < j->n && j->status == LK_OK; i += j->jobs) {
    screen_rec *r = (screen_rec *)j->out + i;
    lk_grasp_candidate cand;
    lk_grasp_screen_report rep;
    memset(r, 0, sizeof *r);
    r->index = i;
    lk_status st = lk_grasp_sampler_draw(j->sampler, i, &cand, &j->err);
    if (st != LK_OK) {
      j->status = st;
      break;
    }
    r->position[0] = cand.pose.p.x;
    r->position[1] = cand.pose.p.y;
    r->position[2] = cand.pose.p.z;
    r->quaternion[0] = cand.q.w;
    r->quaternion[1] = cand.q.x;
    r->quaternion[2] = cand.q.y;
    r->quaternion[3] = cand.q.z;
    lk_error e;
    st = lk_grasp_screen(j->self->screener, d, &cand.pose, NULL, &rep, c, PYLK_GRASP_CONTACTS, &e);
    if (st != LK_OK) { /* this candidate only: say so in its row */
      pylk_ucs4(r->outcome, 12, "error");
      r->epsilon = 0;
      continue;
    }
    pylk_ucs4(r->outcome, 12, lk_screen_outcome_name(rep.outcome));
    r->fingers_in_contact = rep.fingers_in_contact;
    r->ncontacts = rep.ncontacts;
    r->force_closure = rep.force_closure;
    r->epsilon = rep.epsilon;
  }
  free(c);
  lk_data_free(d);
  return NULL;
}

static void *trial_thread(void *arg) {
  job *j = arg;
  lk_data *d = lk_data_new(lk_grasp_scene_model(j->self->scene));
  if (!d) {
    j->status = LK_OUT_OF_MEMORY;
    snprintf(j->err.message, sizeof j->err.message, "out of memory");
  }
  for (int i = j->thread; i < j->n && j->status == LK_OK; i += j->jobs) {
    trial_rec *r = (trial_rec *)j->out + i;
    const double *p = j->poses + 7 * i;
    lk_quat q = {p[3], p[4], p[5], p[6]};
    double qn = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    q.w /= qn, q.x /= qn, q.y /= qn, q.z /= qn;
    lk_transform T = {lk_q_to_mat3(q), {p[0], p[1], p[2]}};
    lk_grasp_trial_report rep;
    memset(r, 0, sizeof *r);
    lk_status st = lk_grasp_trial(j->self->scene, d, &T, NULL, j->trial, &rep, &j->err);
    if (st != LK_OK) {
      j->status = st;
      break;
    }
    r->held = rep.held;
    r->fingers_in_contact = rep.fingers_in_contact;
    r->ncontacts = rep.ncontacts;
    r->force_closure = rep.force_closure;
    r->steps = rep.steps;
    r->epsilon = rep.epsilon;
    r->volume = rep.volume;
    r->min_force = rep.min_force;
    r->slip_translation = rep.slip_translation;
    r->slip_rotation = rep.slip_rotation;
    r->peak_utilization = rep.peak_utilization;
    r->close_time = rep.close_time;
    r->time = rep.time;
    pylk_ucs4(r->outcome, 20, lk_grasp_outcome_name(rep.outcome));
    static const char *phases[] = {"close", "release", "lift", "shake", "done"};
    pylk_ucs4(r->lost_in, 8, rep.lost_in <= LK_GRASP_PHASE_DONE ? phases[rep.lost_in] : "");
  }
  lk_data_free(d);
  return NULL;
}

/* Run fn over jobs threads (the calling one among them), the GIL released. */
static int run_jobs(job *proto, int jobs, void *(*fn)(void *)) {
  job *js = PyMem_Calloc((size_t)jobs, sizeof *js);
  pthread_t *th = PyMem_Calloc((size_t)jobs, sizeof *th);
  if (!js || !th) {
    PyMem_Free(js);
    PyMem_Free(th);
    PyErr_NoMemory();
    return -1;
  }
  int started = 1;
  Py_BEGIN_ALLOW_THREADS for (int t = 0; t < jobs; t++) {
    js[t] = *proto;
    js[t].thread = t;
    js[t].jobs = jobs;
    js[t].status = LK_OK;
    lk_error_clear(&js[t].err);
  }
  for (int t = 1; t < jobs; t++) {
    if (pthread_create(&th[t], NULL, fn, &js[t]) != 0) break;
    started++;
  }
  /* threads that could not start: their share runs here, after ours */
  for (int t = 0; t < jobs; t++)
    if (t == 0 || t >= started) fn(&js[t]);
  for (int t = 1; t < started; t++) pthread_join(th[t], NULL);
  Py_END_ALLOW_THREADS int r = 0;
  for (int t = 0; t < jobs; t++)
    if (js[t].status != LK_OK) {
      if (!js[t].err.message[0]) js[t].err.status = js[t].status;
      pylk_raise(pylk_Error, &js[t].err);
      r = -1;
      break;
    }
  PyMem_Free(js);
  PyMem_Free(th);
  return r;
}

/* screen(n, jobs=1, seed=1, sample="auto") -> structured array, one row a
 * candidate 0..n-1. */
static PyObject *scene_screen(scene_obj *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"n", "jobs", "seed", "sample", NULL};
  int n, jobs = 1;
  unsigned long long seed = 1;
  const char *sample = "auto";
  if (!PyArg_ParseTupleAndKeywords(args, kw, "i|iKs", kwlist, &n, &jobs, &seed, &sample))
    return NULL;
  if (n < 0) return PyErr_Format(PyExc_ValueError, "n must be >= 0");
  if (jobs < 1 || jobs > 256) return PyErr_Format(PyExc_ValueError, "jobs must be 1 to 256");
  lk_grasp_sample_options so;
  lk_grasp_sample_options_default(&so);
  int kind = lk_grasp_sample_kind_from_name(sample);
  if (kind < 0)
    return PyErr_Format(PyExc_ValueError, "unknown sample kind '%s' (auto, uniform, surface, antipodal)",
                        sample);
  so.kind = (lk_grasp_sample_kind)kind;
  so.seed = seed;
  lk_error err;
  lk_error_clear(&err);
  lk_grasp_sampler *sp = lk_grasp_sampler_new(self->scene, &so, &err);
  if (!sp) return pylk_raise(pylk_Error, &err);
  PyObject *a = pylk_records_new(screen_dtype, n);
  if (a) {
    job j = {.self = self, .sampler = sp, .out = PyArray_DATA((PyArrayObject *)a), .n = n};
    if (run_jobs(&j, jobs < n ? jobs : (n > 0 ? n : 1), screen_thread) < 0) Py_CLEAR(a);
  }
  lk_grasp_sampler_free(sp);
  return a;
}

/* trial(poses (k x 7: position, quaternion w x y z of the palm in the
 * object's frame), jobs=1) -> structured array, one row a pose. */
static PyObject *scene_trial(scene_obj *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"poses", "jobs", NULL};
  PyObject *po;
  int jobs = 1;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|i", kwlist, &po, &jobs)) return NULL;
  if (jobs < 1 || jobs > 256) return PyErr_Format(PyExc_ValueError, "jobs must be 1 to 256");
  PyArrayObject *P =
      (PyArrayObject *)PyArray_FROMANY(po, NPY_DOUBLE, 2, 2, NPY_ARRAY_CARRAY_RO);
  if (!P) return NULL;
  npy_intp k = PyArray_DIM(P, 0);
  const double *p = PyArray_DATA(P);
  if (PyArray_DIM(P, 1) != 7 || k > INT32_MAX) {
    Py_DECREF(P);
    return PyErr_Format(PyExc_ValueError, "poses must be k x 7 (position, quaternion w x y z)");
  }
  for (npy_intp i = 0; i < 7 * k; i++)
    if (!isfinite(p[i])) {
      Py_DECREF(P);
      return PyErr_Format(PyExc_ValueError, "poses are not finite");
    }
  for (npy_intp i = 0; i < k; i++) {
    const double *r = p + 7 * i;
    if (!(r[3] * r[3] + r[4] * r[4] + r[5] * r[5] + r[6] * r[6] > 1e-12)) {
      Py_DECREF(P);
      return PyErr_Format(PyExc_ValueError, "pose %zd has a zero quaternion", (Py_ssize_t)i);
    }
  }
  lk_grasp_trial_options o;
  lk_grasp_trial_options_default(&o);
  PyObject *a = pylk_records_new(trial_dtype, k);
  if (a) {
    job j = {.self = self, .trial = &o, .poses = p, .out = PyArray_DATA((PyArrayObject *)a),
             .n = (int)k};
    if (run_jobs(&j, jobs < k ? jobs : (k > 0 ? (int)k : 1), trial_thread) < 0) Py_CLEAR(a);
  }
  Py_DECREF(P);
  return a;
}

static PyObject *scene_int(scene_obj *self, void *c) {
  int (*f)(const lk_grasp_scene *) = (int (*)(const lk_grasp_scene *))c;
  return PyLong_FromLong(f(self->scene));
}
static PyObject *scene_mass(scene_obj *self, void *c) {
  return PyFloat_FromDouble(lk_grasp_scene_object_mass(self->scene));
}
static PyObject *scene_radius(scene_obj *self, void *c) {
  return PyFloat_FromDouble(lk_grasp_scene_object_radius(self->scene));
}
static PyMethodDef scene_methods[] = {
    {"screen", (PyCFunction)(void (*)(void))scene_screen, METH_VARARGS | METH_KEYWORDS,
     "screen(n, jobs=1, seed=1, sample='auto') -> structured array: candidates 0..n-1 drawn "
     "and closed kinematically onto the object (outcome, force_closure, epsilon, pose)."},
    {"trial", (PyCFunction)(void (*)(void))scene_trial, METH_VARARGS | METH_KEYWORDS,
     "trial(poses, jobs=1) -> structured array: each palm pose (k x 7) run as a dynamic "
     "trial (close, let go, lift, shake)."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef scene_getset[] = {
    {"nfinger", (getter)scene_int, NULL, "fingers of the hand", (void *)lk_grasp_scene_nfinger},
    {"object_mass", (getter)scene_mass, NULL, "kg", NULL},
    {"object_radius", (getter)scene_radius, NULL, "largest distance from its centre of mass, m",
     NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject pylk_SceneType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "linkage.grasp.Scene",
    .tp_basicsize = sizeof(scene_obj),
    .tp_dealloc = (destructor)scene_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Scene(hand, object, hand_overrides=None, object_overrides=None, mesh_mass=0, "
              "mesh_scale=1, palm=None, approach=(0, 0, 0)): a hand file and an object file (or "
              "a mesh file with mesh_mass kg) joined for screening and trials; palm: a link of "
              "the hand welded to its root; approach: the fingers' direction in the palm's frame "
              "(zero: -z).",
    .tp_methods = scene_methods,
    .tp_getset = scene_getset,
    .tp_new = scene_new,
};

#define FS(T, name, fmt) PYLK_FIELD(T, name, fmt)

int pylk_grasp_scene_init(PyObject *module) {
  static const pylk_field sf[] = {
      FS(screen_rec, index, "i4"),       FS(screen_rec, outcome, "U12"),
      FS(screen_rec, fingers_in_contact, "i4"), FS(screen_rec, ncontacts, "i4"),
      FS(screen_rec, force_closure, "i4"), FS(screen_rec, epsilon, "f8"),
      FS(screen_rec, position, "(3,)f8"), FS(screen_rec, quaternion, "(4,)f8")};
  static const pylk_field tf[] = {
      FS(trial_rec, outcome, "U20"),      FS(trial_rec, held, "i4"),
      FS(trial_rec, lost_in, "U8"),       FS(trial_rec, fingers_in_contact, "i4"),
      FS(trial_rec, ncontacts, "i4"),     FS(trial_rec, force_closure, "i4"),
      FS(trial_rec, epsilon, "f8"),       FS(trial_rec, volume, "f8"),
      FS(trial_rec, min_force, "f8"),     FS(trial_rec, slip_translation, "f8"),
      FS(trial_rec, slip_rotation, "f8"), FS(trial_rec, peak_utilization, "f8"),
      FS(trial_rec, close_time, "f8"),    FS(trial_rec, time, "f8"),
      FS(trial_rec, steps, "i4")};
  screen_dtype = pylk_dtype(sf, (int)(sizeof sf / sizeof sf[0]), sizeof(screen_rec));
  trial_dtype = pylk_dtype(tf, (int)(sizeof tf / sizeof tf[0]), sizeof(trial_rec));
  if (!screen_dtype || !trial_dtype || PyType_Ready(&pylk_SceneType) < 0) return -1;
  if (PyModule_AddObjectRef(module, "GraspScene", (PyObject *)&pylk_SceneType) < 0 ||
      PyModule_AddObjectRef(module, "screen_dtype", (PyObject *)screen_dtype) < 0 ||
      PyModule_AddObjectRef(module, "trial_dtype", (PyObject *)trial_dtype) < 0)
    return -1;
  return 0;
}
