/* linkage.Recorder: a trajectory recorded from Python (a data added after
 * its steps) written as the viewer page (lk_view) and as SVG plots
 * (lk_plot_svg_panels) -- what `linkage simulate --view/--plot` write, from
 * a loop the user controls. Rows are kept here (doubling as they grow;
 * never part of the step). */
#include "pylk.h"

#include <string.h>

typedef struct {
  PyObject_HEAD
  pylk_Model *model;
  lk_view *view;
  int ncols;
  double *rows; /* nrows x ncols */
  Py_ssize_t nrows, cap;
} recorder;

static void rec_dealloc(recorder *self) {
  lk_view_free(self->view);
  PyMem_Free(self->rows);
  Py_XDECREF(self->model);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *rec_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"model", "fps", "title", NULL};
  PyObject *mo;
  double fps = 60;
  const char *title = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|dz", kwlist, &pylk_ModelType, &mo, &fps, &title))
    return NULL;
  recorder *self = (recorder *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  self->model = (pylk_Model *)Py_NewRef(mo);
  lk_view_options o;
  lk_view_options_default(&o);
  o.fps = fps;
  o.title = title;
  lk_error err;
  lk_error_clear(&err);
  self->view = lk_view_new(&o, &err);
  if (!self->view || lk_view_add_scene(self->view, self->model->m, NULL, NULL, &err) < 0) {
    Py_DECREF(self);
    return pylk_raise(pylk_Error, &err);
  }
  self->ncols = lk_trajectory_ncolumns(self->model->m);
  return (PyObject *)self;
}

/* add(data): after a step, record it (a trajectory row always, a viewer
 * frame when one is due at the recorder's fps). */
static PyObject *rec_add(recorder *self, PyObject *arg) {
  if (!PyObject_TypeCheck(arg, &pylk_DataType))
    return PyErr_Format(PyExc_TypeError, "add() takes a linkage.Data");
  pylk_Data *data = (pylk_Data *)arg;
  lk_data *d = pylk_data_get(data);
  if (!d) return NULL;
  if (data->model->m != self->model->m)
    return PyErr_Format(PyExc_ValueError, "the data is not of the recorder's model");
  if (self->nrows == self->cap) {
    Py_ssize_t cap = self->cap ? 2 * self->cap : 256;
    double *p = PyMem_Realloc(self->rows, (size_t)cap * (size_t)self->ncols * sizeof(double));
    if (!p) return PyErr_NoMemory();
    self->rows = p;
    self->cap = cap;
  }
  const lk_model *m = self->model->m;
  lk_trajectory_row(m, d, self->rows + self->nrows * self->ncols);
  self->nrows++;
  lk_view_add_step(self->view, 0, d);
  if (lk_view_frame_due(self->view, 0, lk_data_time(d))) {
    lk_error err;
    lk_error_clear(&err);
    if (lk_view_add_frame(self->view, 0, m, d, &err) != LK_OK) return pylk_raise(pylk_Error, &err);
  }
  Py_RETURN_NONE;
}

static PyObject *rec_columns(recorder *self, void *c) {
  PyObject *l = PyList_New(self->ncols);
  for (int i = 0; l && i < self->ncols; i++) {
    char buf[LK_IO_COLUMN_MAX];
    PyObject *u = PyUnicode_FromString(
        lk_trajectory_column_name(self->model->m, i, buf, sizeof buf) ? buf : "");
    if (!u) {
      Py_CLEAR(l);
      break;
    }
    PyList_SET_ITEM(l, i, u);
  }
  return l;
}

static PyObject *rec_array(recorder *self, void *c) {
  npy_intp dims[2] = {self->nrows, self->ncols};
  PyObject *a = PyArray_SimpleNew(2, dims, NPY_DOUBLE);
  if (a && self->nrows)
    memcpy(PyArray_DATA((PyArrayObject *)a), self->rows,
           (size_t)self->nrows * (size_t)self->ncols * sizeof(double));
  return a;
}

static PyObject *rec_nframes(recorder *self, void *c) {
  return PyLong_FromLong(lk_view_nframes(self->view, 0));
}

static PyObject *rec_write_view(recorder *self, PyObject *args) {
  PyObject *pathobj;
  if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &pathobj)) return NULL;
  lk_error err;
  lk_error_clear(&err);
  lk_status st;
  Py_BEGIN_ALLOW_THREADS st = lk_view_write_file(self->view, PyBytes_AS_STRING(pathobj), &err);
  Py_END_ALLOW_THREADS Py_DECREF(pathobj);
  if (st != LK_OK) return pylk_raise(pylk_Error, &err);
  Py_RETURN_NONE;
}

/* write_plot(path, columns, title=None): the named trajectory columns
 * against t, one panel per unit (as `linkage simulate --plot`). */
static PyObject *rec_write_plot(recorder *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"path", "columns", "title", NULL};
  PyObject *pathobj, *cols;
  const char *title = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O|z", kwlist, PyUnicode_FSConverter, &pathobj,
                                   &cols, &title))
    return NULL;
  PyObject *seq = PySequence_Fast(cols, "columns must be a list of column names");
  PyObject *result = NULL;
  double *x = NULL, *y = NULL;
  lk_plot_series *s = NULL;
  if (!seq) goto done;
  Py_ssize_t ns = PySequence_Fast_GET_SIZE(seq), n = self->nrows;
  if (ns < 1 || ns > LK_IO_MAX_PLOT_COLUMNS) {
    PyErr_Format(PyExc_ValueError, "a plot takes 1 to %d columns", LK_IO_MAX_PLOT_COLUMNS);
    goto done;
  }
  if (n < 1) {
    PyErr_SetString(PyExc_ValueError, "nothing recorded yet (add(data) after steps)");
    goto done;
  }
  x = PyMem_Malloc((size_t)n * sizeof(double));
  y = PyMem_Malloc((size_t)n * (size_t)ns * sizeof(double));
  s = PyMem_Calloc((size_t)ns, sizeof *s);
  if (!x || !y || !s) {
    PyErr_NoMemory();
    goto done;
  }
  const lk_model *m = self->model->m;
  int tcol = lk_trajectory_column_index(m, "t");
  for (Py_ssize_t r = 0; r < n; r++) x[r] = self->rows[r * self->ncols + tcol];
  for (Py_ssize_t k = 0; k < ns; k++) {
    PyObject *it = PySequence_Fast_GET_ITEM(seq, k);
    const char *name = PyUnicode_Check(it) ? PyUnicode_AsUTF8(it) : NULL;
    if (!name) {
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a column is named by a str");
      goto done;
    }
    int c = lk_trajectory_column_index(m, name);
    if (c < 0) {
      PyErr_Format(PyExc_KeyError, "no trajectory column '%s' (Recorder.columns lists them)",
                   name);
      goto done;
    }
    for (Py_ssize_t r = 0; r < n; r++) y[k * n + r] = self->rows[r * self->ncols + c];
    s[k].name = name;
    s[k].unit = lk_plot_column_unit(m, name);
    s[k].y = y + k * n;
  }
  lk_plot_options o;
  lk_plot_options_default(&o);
  o.title = title;
  lk_error err;
  lk_error_clear(&err);
  if (n > INT32_MAX) {
    PyErr_SetString(PyExc_ValueError, "too many rows for a plot");
    goto done;
  }
  if (lk_plot_svg_panels(PyBytes_AS_STRING(pathobj), &o, x, (int)n, s, (int)ns, &err) != LK_OK) {
    pylk_raise(pylk_Error, &err);
    goto done;
  }
  result = Py_NewRef(Py_None);
done:
  PyMem_Free(x);
  PyMem_Free(y);
  PyMem_Free(s);
  Py_XDECREF(seq);
  Py_DECREF(pathobj);
  return result;
}

static PyMethodDef rec_methods[] = {
    {"add", (PyCFunction)rec_add, METH_O,
     "add(data): record the data after a step (a row; a viewer frame when due)."},
    {"write_view", (PyCFunction)rec_write_view, METH_VARARGS,
     "write_view(path): the viewer page (one self-contained HTML file; docs/viewer.md)."},
    {"write_plot", (PyCFunction)(void (*)(void))rec_write_plot, METH_VARARGS | METH_KEYWORDS,
     "write_plot(path, columns, title=None): an SVG plot of trajectory columns against t, one "
     "panel per unit."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef rec_getset[] = {
    {"columns", (getter)rec_columns, NULL, "the trajectory columns (as in the CSV)", NULL},
    {"array", (getter)rec_array, NULL, "the rows recorded, (rows, columns) float64 (a copy)",
     NULL},
    {"nframes", (getter)rec_nframes, NULL, "viewer frames recorded", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject pylk_RecorderType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "linkage.Recorder",
    .tp_basicsize = sizeof(recorder),
    .tp_dealloc = (destructor)rec_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Recorder(model, fps=60, title=None): a trajectory recorded from Python, written "
              "as the viewer page and SVG plots.",
    .tp_methods = rec_methods,
    .tp_getset = rec_getset,
    .tp_new = rec_new,
};
