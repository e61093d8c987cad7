/* linkage.Model: a finalized model (read-only, shared by any number of
 * datas and threads). */
#include "pylk.h"

static void model_dealloc(pylk_Model *self) {
  lk_model_free(self->m);
  Py_XDECREF(self->path);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

int pylk_link_arg(const lk_model *m, PyObject *arg) {
  if (PyUnicode_Check(arg)) {
    const char *name = PyUnicode_AsUTF8(arg);
    if (!name) return -1;
    int k = lk_model_link_index(m, name);
    if (k < 0) {
      PyErr_Format(PyExc_KeyError, "no link named '%s'", name);
      return -1;
    }
    return k;
  }
  if (PyLong_Check(arg)) {
    long k = PyLong_AsLong(arg);
    if (k == -1 && PyErr_Occurred()) return -1;
    if (k < 0 || k >= lk_model_nlink(m)) {
      PyErr_Format(PyExc_IndexError, "link %ld out of range (the model has %d, world included)",
                   k, lk_model_nlink(m));
      return -1;
    }
    return (int)k;
  }
  PyErr_SetString(PyExc_TypeError, "a link is a name (str) or an index (int)");
  return -1;
}

static PyObject *model_data(pylk_Model *self, PyObject *noargs) {
  lk_data *d = lk_data_new(self->m);
  if (!d) return PyErr_NoMemory();
  pylk_Data *o = PyObject_New(pylk_Data, &pylk_DataType);
  if (!o) {
    lk_data_free(d);
    return NULL;
  }
  o->model = (pylk_Model *)Py_NewRef((PyObject *)self);
  o->d = d;
  o->nviews = 0;
  o->busy = 0;
  o->targets = NULL;
  int na = lk_model_nactuator(self->m);
  if (na > 0) {
    o->targets = PyMem_Malloc((size_t)na * sizeof(double));
    if (!o->targets) {
      Py_DECREF(o);
      return PyErr_NoMemory();
    }
    for (int i = 0; i < na; i++) o->targets[i] = lk_data_actuator_target(d, i);
  }
  return (PyObject *)o;
}

typedef const char *(*name_fn)(const lk_model *, int);

static PyObject *names(const lk_model *m, int n, int first, name_fn f) {
  PyObject *l = PyList_New(n - first);
  if (!l) return NULL;
  for (int i = first; i < n; i++) {
    const char *s = f(m, i);
    PyObject *u = PyUnicode_FromString(s ? s : "");
    if (!u) {
      Py_DECREF(l);
      return NULL;
    }
    PyList_SET_ITEM(l, i - first, u);
  }
  return l;
}

static const char *actuator_name(const lk_model *m, int i) {
  lk_actuator_spec s;
  return lk_model_actuator(m, i, &s) == LK_OK ? s.name : NULL;
}

static PyObject *model_link_names(pylk_Model *self, void *c) {
  return names(self->m, lk_model_nlink(self->m), 0, lk_model_link_name);
}
static PyObject *model_joint_names(pylk_Model *self, void *c) {
  return names(self->m, lk_model_nlink(self->m), 1, lk_model_joint_name);
}
static PyObject *model_actuator_names(pylk_Model *self, void *c) {
  return names(self->m, lk_model_nactuator(self->m), 0, actuator_name);
}
static PyObject *model_geom_names(pylk_Model *self, void *c) {
  int n = lk_model_ngeom(self->m);
  PyObject *l = PyList_New(n);
  for (int i = 0; l && i < n; i++) {
    char buf[LK_IO_COLUMN_MAX];
    PyObject *u = PyUnicode_FromString(lk_model_geom_label(self->m, i, buf, sizeof buf));
    if (!u) {
      Py_CLEAR(l);
      break;
    }
    PyList_SET_ITEM(l, i, u);
  }
  return l;
}

static PyObject *model_int(pylk_Model *self, void *c) {
  int (*f)(const lk_model *) = (int (*)(const lk_model *))c;
  return PyLong_FromLong(f(self->m));
}
static PyObject *model_name(pylk_Model *self, void *c) {
  return PyUnicode_FromString(lk_model_name(self->m) ? lk_model_name(self->m) : "");
}
static PyObject *model_path(pylk_Model *self, void *c) { return Py_NewRef(self->path); }
static PyObject *model_timestep(pylk_Model *self, void *c) {
  return PyFloat_FromDouble(lk_model_options(self->m)->timestep);
}
static PyObject *model_gravity(pylk_Model *self, void *c) {
  lk_vec3 g = lk_model_options(self->m)->gravity;
  return Py_BuildValue("(ddd)", g.x, g.y, g.z);
}
static PyObject *model_total_mass(pylk_Model *self, void *c) {
  return PyFloat_FromDouble(lk_model_total_mass(self->m));
}
static PyObject *model_warnings(pylk_Model *self, void *c) {
  return names(self->m, lk_model_nwarnings(self->m), 0, lk_model_warning);
}

/* joint(name) -> dict(link, type, qadr, vadr, nq, nv) */
static PyObject *model_joint(pylk_Model *self, PyObject *arg) {
  const char *name = PyUnicode_AsUTF8(arg);
  if (!name) return NULL;
  int k = lk_model_joint_index(self->m, name);
  if (k < 1) return PyErr_Format(PyExc_KeyError, "no joint named '%s'", name);
  return Py_BuildValue("{s:i,s:s,s:i,s:i,s:i,s:i}", "link", k, "type",
                       lk_joint_type_name(lk_model_joint_type(self->m, k)), "qadr",
                       lk_model_joint_qadr(self->m, k), "vadr", lk_model_joint_vadr(self->m, k),
                       "nq", lk_model_joint_nq(self->m, k), "nv", lk_model_joint_nv(self->m, k));
}

static PyObject *model_link_index(pylk_Model *self, PyObject *arg) {
  int k = pylk_link_arg(self->m, arg);
  return k < 0 ? NULL : PyLong_FromLong(k);
}

static PyObject *model_actuator_index(pylk_Model *self, PyObject *arg) {
  const char *name = PyUnicode_AsUTF8(arg);
  if (!name) return NULL;
  int k = lk_model_actuator_index(self->m, name);
  if (k < 0) return PyErr_Format(PyExc_KeyError, "no actuator named '%s'", name);
  return PyLong_FromLong(k);
}

static PyObject *model_repr(pylk_Model *self) {
  return PyUnicode_FromFormat("<linkage.Model '%s': %d links, nq=%d, nv=%d>",
                              lk_model_name(self->m) ? lk_model_name(self->m) : "",
                              lk_model_nlink(self->m) - 1, lk_model_nq(self->m),
                              lk_model_nv(self->m));
}

static PyMethodDef model_methods[] = {
    {"data", (PyCFunction)model_data, METH_NOARGS,
     "A new Data (the mutable state of one simulation) at the model's initial state."},
    {"joint", (PyCFunction)model_joint, METH_O,
     "joint(name) -> dict(link, type, qadr, vadr, nq, nv): where the joint's coordinates are "
     "in q and v."},
    {"link_index", (PyCFunction)model_link_index, METH_O, "link_index(name) -> int (world: 0)"},
    {"actuator_index", (PyCFunction)model_actuator_index, METH_O,
     "actuator_index(name) -> int: the actuator's entry in Data.targets"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef model_getset[] = {
    {"name", (getter)model_name, NULL, "the model's name", NULL},
    {"path", (getter)model_path, NULL, "the file it was loaded from", NULL},
    {"nq", (getter)model_int, NULL, "number of generalized positions", (void *)lk_model_nq},
    {"nv", (getter)model_int, NULL, "number of generalized velocities", (void *)lk_model_nv},
    {"nlink", (getter)model_int, NULL, "number of links, the world (link 0) included",
     (void *)lk_model_nlink},
    {"ngeom", (getter)model_int, NULL, "number of geoms", (void *)lk_model_ngeom},
    {"nactuator", (getter)model_int, NULL, "number of actuators", (void *)lk_model_nactuator},
    {"timestep", (getter)model_timestep, NULL, "options.timestep, s", NULL},
    {"gravity", (getter)model_gravity, NULL, "options.gravity, m/s^2", NULL},
    {"total_mass", (getter)model_total_mass, NULL, "mass of the mechanism, kg", NULL},
    {"link_names", (getter)model_link_names, NULL, "link names by index (world first)", NULL},
    {"joint_names", (getter)model_joint_names, NULL, "joint names of links 1..nlink-1", NULL},
    {"actuator_names", (getter)model_actuator_names, NULL, "actuator names by index", NULL},
    {"geom_names", (getter)model_geom_names, NULL, "geom labels by index", NULL},
    {"warnings", (getter)model_warnings, NULL, "what finalize warned about", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject pylk_ModelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "linkage.Model",
    .tp_basicsize = sizeof(pylk_Model),
    .tp_dealloc = (destructor)model_dealloc,
    .tp_repr = (reprfunc)model_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A finalized model (linkage.load); read-only, shared by its datas and threads.",
    .tp_methods = model_methods,
    .tp_getset = model_getset,
};
