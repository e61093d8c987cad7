/* The `_linkage` module: its exceptions, linkage.load and the table of
 * functions; the types are in model.c and data.c. */
#define PYLK_MAIN
#include "pylk.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

PyObject *pylk_Error;
PyObject *pylk_StepError;

/* The text the linkage program prints for err (tools/cli.c), so that a
 * Python user reads the same message a CLI user does. */
static void format_like_cli(const lk_error *err, char *buf, size_t size) {
  const char *msg = err->message[0] ? err->message : lk_strerror(err->status);
  if (err->path[0] && err->line > 0 && err->column <= 0)
    snprintf(buf, size, "%s:%d: error: %s", err->path, err->line, msg);
  else if (err->path[0] && err->line > 0)
    snprintf(buf, size, "%s:%d:%d: error: %s", err->path, err->line, err->column, msg);
  else if (err->path[0])
    snprintf(buf, size, "%s: error: %s", err->path, msg);
  else
    snprintf(buf, size, "error: %s", msg);
}

PyObject *pylk_raise(PyObject *type, const lk_error *err) {
  char text[LK_ERROR_MESSAGE_MAX + LK_ERROR_PATH_MAX + 64];
  format_like_cli(err, text, sizeof text);
  PyObject *exc = PyObject_CallFunction(type ? type : pylk_Error, "s", text);
  if (!exc) return NULL;
  const char *msg = err->message[0] ? err->message : lk_strerror(err->status);
  PyObject *status = PyUnicode_FromString(lk_status_name(err->status));
  PyObject *path = err->path[0] ? PyUnicode_DecodeFSDefault(err->path) : Py_NewRef(Py_None);
  PyObject *line = PyLong_FromLong(err->line), *column = PyLong_FromLong(err->column);
  PyObject *message = PyUnicode_FromString(msg);
  int bad = !status || !path || !line || !column || !message ||
            PyObject_SetAttrString(exc, "status", status) < 0 ||
            PyObject_SetAttrString(exc, "path", path) < 0 ||
            PyObject_SetAttrString(exc, "line", line) < 0 ||
            PyObject_SetAttrString(exc, "column", column) < 0 ||
            PyObject_SetAttrString(exc, "message", message) < 0;
  Py_XDECREF(status);
  Py_XDECREF(path);
  Py_XDECREF(line);
  Py_XDECREF(column);
  Py_XDECREF(message);
  if (!bad) PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
  Py_DECREF(exc);
  return NULL;
}

PyObject *pylk_raise_status(PyObject *type, lk_status s, const char *fmt, ...) {
  lk_error err;
  lk_error_clear(&err);
  err.status = s;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err.message, sizeof err.message, fmt, ap);
  va_end(ap);
  return pylk_raise(type, &err);
}

/* _load(path, overrides: list of "KEY=VALUE", package_path: str or None)
 * -> Model. The Python layer (linkage/__init__.py) turns a dict of
 * overrides and a list of directories into these. */
static PyObject *mod_load(PyObject *self, PyObject *args) {
  PyObject *pathobj = NULL, *sets = NULL, *pkg = NULL;
  if (!PyArg_ParseTuple(args, "O&OO", PyUnicode_FSConverter, &pathobj, &sets, &pkg)) return NULL;
  PyObject *seq = PySequence_Fast(sets, "overrides must be a list of 'KEY=VALUE' strings");
  if (!seq) {
    Py_DECREF(pathobj);
    return NULL;
  }
  Py_ssize_t nset = PySequence_Fast_GET_SIZE(seq);
  const char **set = PyMem_Calloc((size_t)nset + 1, sizeof *set);
  PyObject *result = NULL;
  const char *package_path = NULL;
  if (!set) {
    PyErr_NoMemory();
    goto done;
  }
  for (Py_ssize_t i = 0; i < nset; i++) {
    PyObject *it = PySequence_Fast_GET_ITEM(seq, i);
    if (!PyUnicode_Check(it)) {
      PyErr_SetString(PyExc_TypeError, "overrides must be 'KEY=VALUE' strings");
      goto done;
    }
    if (!(set[i] = PyUnicode_AsUTF8(it))) goto done;
  }
  if (pkg != Py_None) {
    if (!PyUnicode_Check(pkg)) {
      PyErr_SetString(PyExc_TypeError, "package_path must be a str");
      goto done;
    }
    if (!(package_path = PyUnicode_AsUTF8(pkg))) goto done;
  }
  lk_load_options o;
  lk_load_options_default(&o);
  o.set = set;
  o.nset = (int)nset;
  o.package_path = package_path;
  lk_error err;
  lk_error_clear(&err);
  const char *path = PyBytes_AS_STRING(pathobj);
  lk_model *m;
  Py_BEGIN_ALLOW_THREADS m = lk_model_load_file(path, &o, &err);
  Py_END_ALLOW_THREADS if (!m) {
    pylk_raise(pylk_Error, &err);
    goto done;
  }
  pylk_Model *mo = PyObject_New(pylk_Model, &pylk_ModelType);
  if (!mo) {
    lk_model_free(m);
    goto done;
  }
  mo->m = m;
  mo->path = PyUnicode_DecodeFSDefault(path);
  if (!mo->path) {
    Py_DECREF(mo);
    goto done;
  }
  result = (PyObject *)mo;
done:
  PyMem_Free(set);
  Py_DECREF(seq);
  Py_DECREF(pathobj);
  return result;
}

static PyMethodDef module_methods[] = {
    {"_load", mod_load, METH_VARARGS, "_load(path, overrides, package_path) -> Model"},
    {"lcp_solve", (PyCFunction)(void (*)(void))pylk_lcp_solve, METH_VARARGS | METH_KEYWORDS,
     "lcp_solve(M, q, solver, lo, hi, findex, mu, cone, tol, max_pivots, max_sweeps) -> (z, w, report)"},
    {"lcp_read", pylk_lcp_read, METH_VARARGS, "lcp_read(path) -> dict of the problem's arrays"},
    {"grasp_matrix", (PyCFunction)(void (*)(void))pylk_grasp_matrix, METH_VARARGS | METH_KEYWORDS,
     "grasp_matrix(points, normals, mu, torsion, center) -> G"},
    {"grasp_closure", (PyCFunction)(void (*)(void))pylk_grasp_closure,
     METH_VARARGS | METH_KEYWORDS, "grasp_closure(...) -> dict"},
    {"grasp_quality", (PyCFunction)(void (*)(void))pylk_grasp_quality,
     METH_VARARGS | METH_KEYWORDS, "grasp_quality(...) -> dict"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_linkage",
                                        "Linkage's C binding; import linkage instead.", -1,
                                        module_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__linkage(void);
PyMODINIT_FUNC PyInit__linkage(void) {
  import_array();
  PyObject *mod = PyModule_Create(&module_def);
  if (!mod) return NULL;
  pylk_Error = PyErr_NewExceptionWithDoc(
      "linkage.Error",
      "A Linkage error: str() is what the linkage program prints; status, path, line, "
      "column and message carry its parts.",
      NULL, NULL);
  if (!pylk_Error) goto fail;
  pylk_StepError = PyErr_NewExceptionWithDoc(
      "linkage.StepError", "A step that failed (the data is unchanged by it).", pylk_Error, NULL);
  if (!pylk_StepError) goto fail;
  if (PyModule_AddObjectRef(mod, "Error", pylk_Error) < 0 ||
      PyModule_AddObjectRef(mod, "StepError", pylk_StepError) < 0)
    goto fail;
  if (PyType_Ready(&pylk_ModelType) < 0 || PyType_Ready(&pylk_DataType) < 0 ||
      PyType_Ready(&pylk_ViewOwnerType) < 0 || PyType_Ready(&pylk_RecorderType) < 0)
    goto fail;
  if (PyModule_AddObjectRef(mod, "Model", (PyObject *)&pylk_ModelType) < 0 ||
      PyModule_AddObjectRef(mod, "Data", (PyObject *)&pylk_DataType) < 0 ||
      PyModule_AddObjectRef(mod, "Recorder", (PyObject *)&pylk_RecorderType) < 0)
    goto fail;
  if (pylk_records_init(mod) < 0 || pylk_lcp_init(mod) < 0 || pylk_grasp_scene_init(mod) < 0)
    goto fail;
  return mod;
fail:
  Py_DECREF(mod);
  return NULL;
}
