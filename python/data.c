/* linkage.Data: one simulation's state, its zero-copy NumPy views and the
 * step loop.
 *
 * Views (q, v, tau, targets, ...) are NumPy arrays over the data's own
 * memory (the arena never moves). Each holds a small owner object that
 * keeps the Data alive and counts itself in nviews, so a view can never
 * read freed memory: close() refuses while views live, and after close()
 * every method raises linkage.Error. step(n) runs its loop in C with the
 * GIL released; `busy` keeps another thread from stepping or closing the
 * same data meanwhile (two datas of one model step in parallel). */
#include "pylk.h"

#include <math.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------ view owner */

typedef struct {
  PyObject_HEAD
  pylk_Data *data;
} view_owner;

static void owner_dealloc(view_owner *self) {
  self->data->nviews--;
  Py_DECREF(self->data);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

PyTypeObject pylk_ViewOwnerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "linkage._ViewOwner",
    .tp_basicsize = sizeof(view_owner),
    .tp_dealloc = (destructor)owner_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Keeps a Data alive while a NumPy view of its memory lives.",
};

PyObject *pylk_view(pylk_Data *owner, double *p, npy_intp n0, npy_intp n1, int writable) {
  static double empty[1];
  npy_intp dims[2] = {n0, n1};
  int nd = n1 > 0 ? 2 : 1;
  PyObject *arr = PyArray_New(&PyArray_Type, nd, dims, NPY_DOUBLE, NULL, p ? p : empty, 0,
                              writable ? NPY_ARRAY_CARRAY : NPY_ARRAY_CARRAY_RO, NULL);
  if (!arr) return NULL;
  view_owner *o = PyObject_New(view_owner, &pylk_ViewOwnerType);
  if (!o) {
    Py_DECREF(arr);
    return NULL;
  }
  o->data = (pylk_Data *)Py_NewRef((PyObject *)owner);
  owner->nviews++;
  if (PyArray_SetBaseObject((PyArrayObject *)arr, (PyObject *)o) < 0) { /* steals o */
    Py_DECREF(arr);
    return NULL;
  }
  return arr;
}

/* ------------------------------------------------------------------ data */

lk_data *pylk_data_get(pylk_Data *self) {
  if (!self->d) {
    pylk_raise_status(pylk_Error, LK_INVALID_ARGUMENT, "the data is closed");
    return NULL;
  }
  if (self->busy) {
    pylk_raise_status(pylk_Error, LK_INVALID_ARGUMENT,
                      "the data is being stepped by another thread");
    return NULL;
  }
  return self->d;
}

static void data_dealloc(pylk_Data *self) {
  lk_data_free(self->d);
  PyMem_Free(self->targets);
  Py_XDECREF(self->model);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Hand targets written through the view to the library as inputs (the
 * energy watch must know), refusing non-finite ones as
 * lk_data_actuator_set_target does. */
static int sync_targets(pylk_Data *self) {
  int na = lk_model_nactuator(self->model->m), changed = 0;
  double *t = lk_data_actuator_targets(self->d);
  for (int i = 0; i < na; i++) {
    if (t[i] == self->targets[i]) continue;
    if (!isfinite(t[i])) {
      PyErr_Format(PyExc_ValueError, "targets[%d] is not finite", i);
      return -1;
    }
    self->targets[i] = t[i];
    changed = 1;
  }
  if (changed) lk_data_actuator_targets_changed(self->d);
  return 0;
}

static void snapshot_targets(pylk_Data *self) {
  int na = lk_model_nactuator(self->model->m);
  if (na > 0) memcpy(self->targets, lk_data_actuator_targets(self->d), (size_t)na * sizeof(double));
}

static PyObject *step_error(pylk_Data *self, lk_status st, long done) {
  const lk_step_report *r = lk_data_step_report(self->d);
  lk_error err;
  lk_error_clear(&err);
  err.status = st;
  snprintf(err.message, sizeof err.message, "step %ld at t = %.6g s failed: %s%s%s%s%s", done + 1,
           lk_data_time(self->d), lk_strerror(st), r->message[0] ? ": " : "", r->message,
           r->detail && r->detail[0] ? "; " : "", r->detail ? r->detail : "");
  pylk_raise(pylk_StepError, &err);
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  PyObject *n = PyLong_FromLong(done);
  if (n && value) PyObject_SetAttrString(value, "steps_done", n);
  Py_XDECREF(n);
  PyErr_Restore(type, value, tb);
  return NULL;
}

/* step(n=1): n steps in C, the GIL released. */
static PyObject *data_step(pylk_Data *self, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames) {
  long n = 1;
  PyObject *narg = nargs > 0 ? args[0] : NULL;
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  if (nargs + nkw > 1) return PyErr_Format(PyExc_TypeError, "step() takes at most one argument, n");
  if (nkw == 1) {
    if (!PyUnicode_Check(PyTuple_GET_ITEM(kwnames, 0)) ||
        PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "n") != 0)
      return PyErr_Format(PyExc_TypeError, "step() got an unexpected keyword argument");
    narg = args[0];
  }
  if (narg) {
    if (!PyLong_Check(narg)) return PyErr_Format(PyExc_TypeError, "step(n): n must be an int");
    n = PyLong_AsLong(narg);
    if (n == -1 && PyErr_Occurred()) return NULL;
    if (n < 0) return PyErr_Format(PyExc_ValueError, "step(n): n must be >= 0, not %ld", n);
  }
  lk_data *d = pylk_data_get(self);
  if (!d) return NULL;
  if (self->targets && sync_targets(self) < 0) return NULL;
  const lk_model *m = self->model->m;
  lk_status st = LK_OK;
  long i = 0;
  self->busy = 1;
  /* In slices of about 50 ms, between which the GIL is taken back to
   * look for signals: Ctrl-C stops a long step(n) after a whole step
   * (KeyboardInterrupt; the data holds the steps done). The clock is read
   * every 64 steps, so the slicing costs nothing a step can measure. */
  while (i < n && st == LK_OK) {
    Py_BEGIN_ALLOW_THREADS;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long k = 0; i < n; i++, k++) {
      if ((st = lk_step(m, d)) != LK_OK) break;
      if ((k & 63) == 63) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        if ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) > 50000000L) {
          i++;
          break;
        }
      }
    }
    Py_END_ALLOW_THREADS;
    if (st == LK_OK && i < n && PyErr_CheckSignals() < 0) {
      self->busy = 0;
      return NULL;
    }
  }
  self->busy = 0;
  if (st != LK_OK) return step_error(self, st, i);
  Py_RETURN_NONE;
}

static PyObject *data_copy(pylk_Data *self, PyObject *noargs) {
  lk_data *d = pylk_data_get(self);
  if (!d) return NULL;
  if (self->targets && sync_targets(self) < 0) return NULL;
  pylk_Data *o = (pylk_Data *)PyObject_CallMethod((PyObject *)self->model, "data", NULL);
  if (!o) return NULL;
  lk_status st = lk_data_copy(o->d, d);
  if (st != LK_OK) {
    Py_DECREF(o);
    return pylk_raise_status(pylk_Error, st, "copying the data failed: %s", lk_strerror(st));
  }
  snapshot_targets(o);
  return (PyObject *)o;
}

static PyObject *data_reset(pylk_Data *self, PyObject *noargs) {
  lk_data *d = pylk_data_get(self);
  if (!d) return NULL;
  lk_data_reset(d);
  if (self->targets) snapshot_targets(self);
  Py_RETURN_NONE;
}

static PyObject *data_forward(pylk_Data *self, PyObject *noargs) {
  lk_data *d = pylk_data_get(self);
  if (!d) return NULL;
  lk_status st = lk_forward_kinematics(self->model->m, d);
  if (st != LK_OK)
    return pylk_raise_status(pylk_Error, st, "forward kinematics failed: %s", lk_strerror(st));
  Py_RETURN_NONE;
}

static PyObject *data_close(pylk_Data *self, PyObject *noargs) {
  if (!self->d) Py_RETURN_NONE;
  if (self->busy)
    return pylk_raise_status(pylk_Error, LK_INVALID_ARGUMENT,
                             "the data is being stepped by another thread");
  if (self->nviews > 0)
    return pylk_raise_status(pylk_Error, LK_INVALID_ARGUMENT,
                             "the data cannot be closed: %zd NumPy view%s of its memory still "
                             "live (del them first)",
                             self->nviews, self->nviews == 1 ? "" : "s");
  lk_data_free(self->d);
  self->d = NULL;
  Py_RETURN_NONE;
}

static PyObject *data_enter(pylk_Data *self, PyObject *noargs) {
  if (!pylk_data_get(self)) return NULL;
  return Py_NewRef((PyObject *)self);
}

static PyObject *data_exit(pylk_Data *self, PyObject *args) {
  PyObject *r = data_close(self, NULL);
  if (!r) return NULL;
  Py_DECREF(r);
  Py_RETURN_FALSE;
}

/* A 3-vector argument (any sequence of 3 numbers). */
static int vec3_arg(PyObject *o, lk_vec3 *v, const char *what) {
  PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(o, NPY_DOUBLE, 1, 1, NPY_ARRAY_CARRAY_RO);
  if (!a) return -1;
  if (PyArray_DIM(a, 0) != 3) {
    PyErr_Format(PyExc_ValueError, "%s must have 3 entries, not %zd", what,
                 (Py_ssize_t)PyArray_DIM(a, 0));
    Py_DECREF(a);
    return -1;
  }
  const double *p = PyArray_DATA(a);
  *v = (lk_vec3){p[0], p[1], p[2]};
  Py_DECREF(a);
  if (!isfinite(v->x) || !isfinite(v->y) || !isfinite(v->z)) {
    PyErr_Format(PyExc_ValueError, "%s is not finite", what);
    return -1;
  }
  return 0;
}

static PyObject *vec3_array(lk_vec3 v) {
  npy_intp n = 3;
  PyObject *a = PyArray_SimpleNew(1, &n, NPY_DOUBLE);
  if (!a) return NULL;
  double *p = PyArray_DATA((PyArrayObject *)a);
  p[0] = v.x;
  p[1] = v.y;
  p[2] = v.z;
  return a;
}

/* link_pose(link) -> (position (3,), rotation (3, 3)), world frame. */
static PyObject *data_link_pose(pylk_Data *self, PyObject *arg) {
  lk_data *d = pylk_data_get(self);
  if (!d) return NULL;
  int k = pylk_link_arg(self->model->m, arg);
  if (k < 0) return NULL;
  const lk_transform *T = lk_data_link_pose(d, k);
  npy_intp dims[2] = {3, 3};
  PyObject *R = PyArray_SimpleNew(2, dims, NPY_DOUBLE);
  if (!R) return NULL;
  memcpy(PyArray_DATA((PyArrayObject *)R), T->R.m, 9 * sizeof(double));
  PyObject *p = vec3_array(T->p);
  if (!p) {
    Py_DECREF(R);
    return NULL;
  }
  return Py_BuildValue("(NN)", p, R);
}

/* link_velocity(link) -> (angular (3,), linear (3,) of the link origin). */
static PyObject *data_link_velocity(pylk_Data *self, PyObject *arg) {
  lk_data *d = pylk_data_get(self);
  if (!d) return NULL;
  int k = pylk_link_arg(self->model->m, arg);
  if (k < 0) return NULL;
  lk_motion mv = lk_data_link_velocity(d, k);
  return Py_BuildValue("(NN)", vec3_array(mv.ang), vec3_array(mv.lin));
}

static PyObject *data_point(pylk_Data *self, PyObject *args, int velocity) {
  PyObject *link, *pt;
  if (!PyArg_ParseTuple(args, "OO", &link, &pt)) return NULL;
  lk_data *d = pylk_data_get(self);
  if (!d) return NULL;
  int k = pylk_link_arg(self->model->m, link);
  lk_vec3 p;
  if (k < 0 || vec3_arg(pt, &p, "point") < 0) return NULL;
  return vec3_array(velocity ? lk_data_point_velocity(d, k, p) : lk_data_point_position(d, k, p));
}
static PyObject *data_point_position(pylk_Data *self, PyObject *args) {
  return data_point(self, args, 0);
}
static PyObject *data_point_velocity(pylk_Data *self, PyObject *args) {
  return data_point(self, args, 1);
}

static PyObject *data_apply_force(pylk_Data *self, PyObject *args) {
  PyObject *link, *pt, *f;
  if (!PyArg_ParseTuple(args, "OOO", &link, &pt, &f)) return NULL;
  lk_data *d = pylk_data_get(self);
  if (!d) return NULL;
  int k = pylk_link_arg(self->model->m, link);
  lk_vec3 p, fv;
  if (k < 0 || vec3_arg(pt, &p, "point") < 0 || vec3_arg(f, &fv, "force") < 0) return NULL;
  lk_status st = lk_data_apply_force(d, k, p, fv);
  if (st != LK_OK) return pylk_raise_status(pylk_Error, st, "apply_force: %s", lk_strerror(st));
  Py_RETURN_NONE;
}

static PyObject *data_apply_torque(pylk_Data *self, PyObject *args) {
  PyObject *link, *t;
  if (!PyArg_ParseTuple(args, "OO", &link, &t)) return NULL;
  lk_data *d = pylk_data_get(self);
  if (!d) return NULL;
  int k = pylk_link_arg(self->model->m, link);
  lk_vec3 tv;
  if (k < 0 || vec3_arg(t, &tv, "torque") < 0) return NULL;
  lk_status st = lk_data_apply_torque(d, k, tv);
  if (st != LK_OK) return pylk_raise_status(pylk_Error, st, "apply_torque: %s", lk_strerror(st));
  Py_RETURN_NONE;
}

static PyObject *data_clear_loads(pylk_Data *self, PyObject *noargs) {
  lk_data *d = pylk_data_get(self);
  if (!d) return NULL;
  lk_data_clear_loads(d);
  Py_RETURN_NONE;
}

static PyObject *data_energy(pylk_Data *self, PyObject *noargs) {
  lk_data *d = pylk_data_get(self);
  if (!d) return NULL;
  double k = 0, u = 0;
  lk_status st = lk_energy_kinetic(self->model->m, d, &k);
  if (st == LK_OK) st = lk_energy_potential(self->model->m, d, &u);
  if (st != LK_OK) return pylk_raise_status(pylk_Error, st, "energy: %s", lk_strerror(st));
  return Py_BuildValue("(dd)", k, u);
}

/* bias_forces() -> c(q, v) (nv): gravity, Coriolis and centrifugal, so
 * that M qacc + c = tau for a free mechanism. */
static PyObject *data_bias_forces(pylk_Data *self, PyObject *noargs) {
  lk_data *d = pylk_data_get(self);
  if (!d) return NULL;
  npy_intp n = lk_model_nv(self->model->m);
  PyObject *a = PyArray_ZEROS(1, &n, NPY_DOUBLE, 0);
  if (!a) return NULL;
  lk_status st = lk_bias_forces(self->model->m, d, PyArray_DATA((PyArrayObject *)a));
  if (st != LK_OK) {
    Py_DECREF(a);
    return pylk_raise_status(pylk_Error, st, "bias_forces: %s", lk_strerror(st));
  }
  return a;
}

/* mass_matrix() -> M(q) (nv x nv, dense; zero between trees). */
static PyObject *data_mass_matrix(pylk_Data *self, PyObject *noargs) {
  lk_data *d = pylk_data_get(self);
  if (!d) return NULL;
  npy_intp n = lk_model_nv(self->model->m), dims[2] = {n, n};
  PyObject *a = PyArray_ZEROS(2, dims, NPY_DOUBLE, 0);
  if (!a) return NULL;
  lk_status st = lk_mass_matrix(self->model->m, d);
  if (st == LK_OK) st = lk_mass_matrix_dense(self->model->m, d, PyArray_DATA((PyArrayObject *)a));
  if (st != LK_OK) {
    Py_DECREF(a);
    return pylk_raise_status(pylk_Error, st, "mass_matrix: %s", lk_strerror(st));
  }
  return a;
}

/* ---------------------------------------------------------------- views */

enum { VIEW_Q, VIEW_V, VIEW_TAU, VIEW_QACC, VIEW_TARGETS, VIEW_FORCES };

static PyObject *data_view(pylk_Data *self, void *which) {
  lk_data *d = pylk_data_get(self);
  if (!d) return NULL;
  const lk_model *m = self->model->m;
  switch ((int)(intptr_t)which) {
  case VIEW_Q: return pylk_view(self, lk_data_q(d), lk_model_nq(m), 0, 1);
  case VIEW_V: return pylk_view(self, lk_data_v(d), lk_model_nv(m), 0, 1);
  case VIEW_TAU: return pylk_view(self, lk_data_tau(d), lk_model_nv(m), 0, 1);
  case VIEW_QACC: return pylk_view(self, lk_data_qacc(d), lk_model_nv(m), 0, 0);
  case VIEW_TARGETS:
    return pylk_view(self, lk_data_actuator_targets(d), lk_model_nactuator(m), 0, 1);
  default:
    return pylk_view(self, (double *)lk_data_actuator_forces(d), lk_model_nactuator(m), 0, 0);
  }
}

/* data.q = x writes into the view (shape and dtype checked by NumPy). */
static int data_set_view(pylk_Data *self, PyObject *value, void *which) {
  if (!value) {
    PyErr_SetString(PyExc_AttributeError, "a view cannot be deleted");
    return -1;
  }
  PyObject *view = data_view(self, which);
  if (!view) return -1;
  PyArrayObject *src = (PyArrayObject *)PyArray_FROMANY(value, NPY_DOUBLE, 0, 1, 0);
  int r = -1;
  if (src) {
    if (PyArray_NDIM(src) == 1 && PyArray_DIM(src, 0) != PyArray_DIM((PyArrayObject *)view, 0))
      PyErr_Format(PyExc_ValueError, "expected %zd values, got %zd",
                   (Py_ssize_t)PyArray_DIM((PyArrayObject *)view, 0),
                   (Py_ssize_t)PyArray_DIM(src, 0));
    else
      r = PyArray_CopyInto((PyArrayObject *)view, src);
    Py_DECREF(src);
  }
  Py_DECREF(view);
  return r;
}

static PyObject *data_time(pylk_Data *self, void *c) {
  lk_data *d = pylk_data_get(self);
  return d ? PyFloat_FromDouble(lk_data_time(d)) : NULL;
}

static int data_set_time(pylk_Data *self, PyObject *value, void *c) {
  lk_data *d = pylk_data_get(self);
  if (!d) return -1;
  double t = value ? PyFloat_AsDouble(value) : NAN;
  if (t == -1.0 && PyErr_Occurred()) return -1;
  if (!isfinite(t)) {
    PyErr_SetString(PyExc_ValueError, "time must be a finite number");
    return -1;
  }
  lk_data_set_time(d, t);
  return 0;
}

static PyObject *data_model(pylk_Data *self, void *c) {
  return Py_NewRef((PyObject *)self->model);
}
static PyObject *data_closed(pylk_Data *self, void *c) { return PyBool_FromLong(!self->d); }
static PyObject *data_nbytes(pylk_Data *self, void *c) {
  lk_data *d = pylk_data_get(self);
  return d ? PyLong_FromSize_t(lk_data_size(d)) : NULL;
}

static PyObject *data_repr(pylk_Data *self) {
  if (!self->d) return PyUnicode_FromString("<linkage.Data (closed)>");
  char t[32];
  snprintf(t, sizeof t, "%.6g", lk_data_time(self->d));
  return PyUnicode_FromFormat("<linkage.Data of '%s' at t=%s s>",
                              lk_model_name(self->model->m) ? lk_model_name(self->model->m) : "",
                              t);
}

static PyMethodDef data_methods[] = {
    {"step", (PyCFunction)(void (*)(void))data_step, METH_FASTCALL | METH_KEYWORDS,
     "step(n=1): n time steps, looping in C with the GIL released. Raises linkage.StepError "
     "(steps_done says how many succeeded) when a step fails."},
    {"copy", (PyCFunction)data_copy, METH_NOARGS,
     "A new Data with this one's complete state: it continues bit-identically."},
    {"reset", (PyCFunction)data_reset, METH_NOARGS, "Back to the model's initial state."},
    {"forward", (PyCFunction)data_forward, METH_NOARGS,
     "Forward kinematics of the current q and v (after writing them, before reading poses)."},
    {"close", (PyCFunction)data_close, METH_NOARGS,
     "Free the data's memory now; refused while NumPy views of it live."},
    {"__enter__", (PyCFunction)data_enter, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)data_exit, METH_VARARGS, NULL},
    {"link_pose", (PyCFunction)data_link_pose, METH_O,
     "link_pose(link) -> (position, rotation 3x3): the link frame in the world."},
    {"link_velocity", (PyCFunction)data_link_velocity, METH_O,
     "link_velocity(link) -> (angular, linear): world frame, linear of the link origin."},
    {"point_position", (PyCFunction)data_point_position, METH_VARARGS,
     "point_position(link, point_in_link) -> world position"},
    {"point_velocity", (PyCFunction)data_point_velocity, METH_VARARGS,
     "point_velocity(link, point_in_link) -> world velocity"},
    {"apply_force", (PyCFunction)data_apply_force, METH_VARARGS,
     "apply_force(link, point_world, force_world): accumulated until clear_loads()."},
    {"apply_torque", (PyCFunction)data_apply_torque, METH_VARARGS,
     "apply_torque(link, torque_world): accumulated until clear_loads()."},
    {"clear_loads", (PyCFunction)data_clear_loads, METH_NOARGS,
     "Zero tau and every external wrench."},
    {"energy", (PyCFunction)data_energy, METH_NOARGS, "energy() -> (kinetic, potential), J"},
    {"bias_forces", (PyCFunction)data_bias_forces, METH_NOARGS,
     "bias_forces() -> c(q, v): gravity, Coriolis and centrifugal (M qacc + c = tau)."},
    {"mass_matrix", (PyCFunction)data_mass_matrix, METH_NOARGS,
     "mass_matrix() -> M(q), nv x nv (armature included)."},
    {"contacts", (PyCFunction)pylk_contacts, METH_NOARGS,
     "The contacts of the last step as a NumPy structured array (docs/python.md)."},
    {"link_forces", (PyCFunction)pylk_link_forces, METH_NOARGS,
     "The constraint forces on links of the last step as a structured array."},
    {"tactile", (PyCFunction)pylk_tactile, METH_NOARGS,
     "Per-link tactile summary of the last step as a structured array (one row a link)."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef data_getset[] = {
    {"q", (getter)data_view, (setter)data_set_view, "generalized positions (writable view)",
     (void *)VIEW_Q},
    {"v", (getter)data_view, (setter)data_set_view, "generalized velocities (writable view)",
     (void *)VIEW_V},
    {"tau", (getter)data_view, (setter)data_set_view,
     "applied generalized forces (writable view; persist until changed)", (void *)VIEW_TAU},
    {"qacc", (getter)data_view, NULL, "accelerations at the start of the last step (read-only)",
     (void *)VIEW_QACC},
    {"targets", (getter)data_view, (setter)data_set_view,
     "actuator targets (writable view; model.actuator_index)", (void *)VIEW_TARGETS},
    {"actuator_forces", (getter)data_view, NULL,
     "forces the actuators applied in the last step (read-only view)", (void *)VIEW_FORCES},
    {"time", (getter)data_time, (setter)data_set_time, "simulation time, s", NULL},
    {"model", (getter)data_model, NULL, "the data's model", NULL},
    {"closed", (getter)data_closed, NULL, "True after close()", NULL},
    {"nbytes", (getter)data_nbytes, NULL, "bytes of state and workspace held", NULL},
    {"report", (getter)pylk_step_report, NULL, "what the last step did (a StepReport)", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject pylk_DataType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "linkage.Data",
    .tp_basicsize = sizeof(pylk_Data),
    .tp_dealloc = (destructor)data_dealloc,
    .tp_repr = (reprfunc)data_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The mutable state of one simulation of a model (Model.data()).",
    .tp_methods = data_methods,
    .tp_getset = data_getset,
};
