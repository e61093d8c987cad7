/* The `linkage` Python extension (_linkage): shared declarations.
 *
 * Written against Python's and NumPy's C APIs over the library's public
 * headers only; each file is one part of the binding (docs/python.md). */
#ifndef PYLK_H
#define PYLK_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL pylk_ARRAY_API
#ifndef PYLK_MAIN
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include <linkage/linkage.h>

/* linkage.Error and its subclass for a failed step. */
extern PyObject *pylk_Error;
extern PyObject *pylk_StepError;

typedef struct {
  PyObject_HEAD
  lk_model *m;
  PyObject *path; /* str, or None */
} pylk_Model;

typedef struct {
  PyObject_HEAD
  pylk_Model *model; /* strong reference: the data's model lives as long */
  lk_data *d;        /* NULL once closed */
  Py_ssize_t nviews; /* live NumPy views of d's memory (close refuses then) */
  int busy;          /* 1 while a step runs without the GIL */
  double *targets;   /* the actuator targets as last handed to the library */
} pylk_Data;

extern PyTypeObject pylk_ModelType;
extern PyTypeObject pylk_DataType;
extern PyTypeObject pylk_ViewOwnerType;
extern PyTypeObject pylk_RecorderType;

/* Raise linkage.Error (or `type`) from an lk_error: str() is the message
 * the linkage program prints ("path:line:column: message"); the
 * attributes status, path, line, column and message carry the parts. */
PyObject *pylk_raise(PyObject *type, const lk_error *err);
/* The same from a bare status and a message. */
PyObject *pylk_raise_status(PyObject *type, lk_status s, const char *fmt, ...);

/* A data that is open and not being stepped, or NULL with an error set. */
lk_data *pylk_data_get(pylk_Data *self);

/* A 1-D (or 2-D when n1 > 0) float64 NumPy view of memory owned by a
 * data; it keeps the data alive and counts as a view (pylk_Data.nviews). */
PyObject *pylk_view(pylk_Data *owner, double *p, npy_intp n0, npy_intp n1, int writable);

/* Link index from a name or an int, or -1 with an error set. */
int pylk_link_arg(const lk_model *m, PyObject *arg);

/* Structured arrays (records.c): a dtype from C struct fields
 * (PYLK_FIELD(struct, member, "f8")), a 1-D array of n records of it (the
 * caller fills PyArray_DATA), and a C string into a fixed NumPy "U<n>". */
typedef struct {
  const char *name, *format;
  size_t offset;
} pylk_field;
#define PYLK_FIELD(T, name, fmt) {#name, fmt, offsetof(T, name)}
PyArray_Descr *pylk_dtype(const pylk_field *f, int n, size_t itemsize);
PyObject *pylk_records_new(PyArray_Descr *descr, npy_intp n);
void pylk_ucs4(uint32_t *dst, size_t n, const char *s);

/* Structured-array records of the last step (records.c). */
PyObject *pylk_contacts(pylk_Data *self, PyObject *noargs);
PyObject *pylk_link_forces(pylk_Data *self, PyObject *noargs);
PyObject *pylk_tactile(pylk_Data *self, PyObject *noargs);
PyObject *pylk_step_report(pylk_Data *self, void *closure);
int pylk_records_init(PyObject *module);

/* linkage.lcp (lcp.c) and linkage.grasp (grasp.c) functions. */
PyObject *pylk_lcp_solve(PyObject *self, PyObject *args, PyObject *kw);
PyObject *pylk_lcp_read(PyObject *self, PyObject *args);
int pylk_lcp_init(PyObject *module);
PyObject *pylk_grasp_matrix(PyObject *self, PyObject *args, PyObject *kw);
PyObject *pylk_grasp_closure(PyObject *self, PyObject *args, PyObject *kw);
PyObject *pylk_grasp_quality(PyObject *self, PyObject *args, PyObject *kw);
extern PyTypeObject pylk_SceneType;
int pylk_grasp_scene_init(PyObject *module);


#endif
