/* linkage.grasp: grasp analysis on arrays of contacts (points, inward
 * normals, mu, torsion): the grasp matrix, force closure, epsilon and
 * volume (lib/grasp's functions; nothing recomputed here). */
#include "pylk.h"

#include <string.h>

/* The contacts and options from (points, normals, mu, torsion, center,
 * torque_scale, edges); *nc their count. The caller frees *out. */
static int parse_contacts(PyObject *args, PyObject *kw, lk_grasp_contact **out, int *nc,
                          lk_grasp_options *o) {
  static char *kwlist[] = {"points", "normals", "mu", "torsion", "center", "torque_scale",
                           "edges", NULL};
  PyObject *po, *no, *muo = NULL, *to = NULL, *co = Py_None;
  double rho = 0;
  int edges = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OOOdi", kwlist, &po, &no, &muo, &to, &co, &rho,
                                   &edges))
    return -1;
  lk_grasp_options_default(o);
  PyArrayObject *P = NULL, *N = NULL, *MU = NULL, *T = NULL, *C = NULL;
  int r = -1;
  P = (PyArrayObject *)PyArray_FROMANY(po, NPY_DOUBLE, 2, 2, NPY_ARRAY_CARRAY_RO);
  N = P ? (PyArrayObject *)PyArray_FROMANY(no, NPY_DOUBLE, 2, 2, NPY_ARRAY_CARRAY_RO) : NULL;
  if (!P || !N) goto done;
  npy_intp n = PyArray_DIM(P, 0);
  if (PyArray_DIM(P, 1) != 3 || PyArray_DIM(N, 1) != 3 || PyArray_DIM(N, 0) != n) {
    PyErr_Format(PyExc_ValueError, "points and normals must both be k x 3 (got %zd x %zd and %zd x %zd)",
                 (Py_ssize_t)n, (Py_ssize_t)PyArray_DIM(P, 1), (Py_ssize_t)PyArray_DIM(N, 0),
                 (Py_ssize_t)PyArray_DIM(N, 1));
    goto done;
  }
  if (n > 100000) {
    PyErr_SetString(PyExc_ValueError, "too many contacts");
    goto done;
  }
  /* mu and torsion: a number for all contacts or k numbers */
  PyObject *zero = PyFloat_FromDouble(0);
  MU = (PyArrayObject *)PyArray_FROMANY(muo ? muo : zero, NPY_DOUBLE, 0, 1, NPY_ARRAY_CARRAY_RO);
  T = MU ? (PyArrayObject *)PyArray_FROMANY(to ? to : zero, NPY_DOUBLE, 0, 1, NPY_ARRAY_CARRAY_RO)
         : NULL;
  Py_DECREF(zero);
  if (!MU || !T) goto done;
  if ((PyArray_NDIM(MU) == 1 && PyArray_DIM(MU, 0) != n) ||
      (PyArray_NDIM(T) == 1 && PyArray_DIM(T, 0) != n)) {
    PyErr_Format(PyExc_ValueError, "mu and torsion must be one number or %zd", (Py_ssize_t)n);
    goto done;
  }
  if (co != Py_None) {
    C = (PyArrayObject *)PyArray_FROMANY(co, NPY_DOUBLE, 1, 1, NPY_ARRAY_CARRAY_RO);
    if (!C) goto done;
    if (PyArray_DIM(C, 0) != 3) {
      PyErr_SetString(PyExc_ValueError, "center must have 3 entries");
      goto done;
    }
    const double *c = PyArray_DATA(C);
    o->center = (lk_vec3){c[0], c[1], c[2]};
  }
  if (rho < 0) {
    PyErr_SetString(PyExc_ValueError, "torque_scale must be >= 0 (0: automatic)");
    goto done;
  }
  o->torque_scale = rho;
  if (edges) o->edges = edges;
  lk_grasp_contact *c = PyMem_Calloc(n ? (size_t)n : 1, sizeof *c);
  if (!c) {
    PyErr_NoMemory();
    goto done;
  }
  const double *p = PyArray_DATA(P), *nn = PyArray_DATA(N), *mu = PyArray_DATA(MU),
               *t = PyArray_DATA(T);
  for (npy_intp i = 0; i < n; i++) {
    lk_grasp_contact_default(&c[i]);
    c[i].position = (lk_vec3){p[3 * i], p[3 * i + 1], p[3 * i + 2]};
    c[i].normal = (lk_vec3){nn[3 * i], nn[3 * i + 1], nn[3 * i + 2]};
    c[i].mu = PyArray_NDIM(MU) ? mu[i] : mu[0];
    c[i].torsion = PyArray_NDIM(T) ? t[i] : t[0];
  }
  *out = c;
  *nc = (int)n;
  r = 0;
done:
  Py_XDECREF(P);
  Py_XDECREF(N);
  Py_XDECREF(MU);
  Py_XDECREF(T);
  Py_XDECREF(C);
  return r;
}

PyObject *pylk_grasp_matrix(PyObject *self, PyObject *args, PyObject *kw) {
  lk_grasp_contact *c;
  int nc;
  lk_grasp_options o;
  if (parse_contacts(args, kw, &c, &nc, &o) < 0) return NULL;
  npy_intp dims[2] = {6, lk_grasp_matrix_columns(c, nc)};
  PyObject *G = PyArray_ZEROS(2, dims, NPY_DOUBLE, 0);
  lk_error err;
  lk_error_clear(&err);
  if (G && lk_grasp_matrix(c, nc, &o, PyArray_DATA((PyArrayObject *)G), (int)dims[1], &err) !=
               LK_OK) {
    Py_CLEAR(G);
    pylk_raise(pylk_Error, &err);
  }
  PyMem_Free(c);
  return G;
}

static PyObject *vec6(const double *w) {
  npy_intp n = 6;
  PyObject *a = PyArray_SimpleNew(1, &n, NPY_DOUBLE);
  if (a) memcpy(PyArray_DATA((PyArrayObject *)a), w, 6 * sizeof(double));
  return a;
}

PyObject *pylk_grasp_closure(PyObject *self, PyObject *args, PyObject *kw) {
  lk_grasp_contact *c;
  int nc;
  lk_grasp_options o;
  if (parse_contacts(args, kw, &c, &nc, &o) < 0) return NULL;
  lk_grasp_closure_report r;
  memset(&r, 0, sizeof r);
  lk_error err;
  lk_error_clear(&err);
  lk_status st;
  Py_BEGIN_ALLOW_THREADS st = lk_grasp_force_closure(c, nc, &o, &r, &err);
  Py_END_ALLOW_THREADS PyMem_Free(c);
  if (st != LK_OK) return pylk_raise(pylk_Error, &err);
  return Py_BuildValue("{s:O,s:s,s:i,s:d,s:N,s:s}", "closed", r.closed ? Py_True : Py_False,
                       "reason", lk_grasp_closure_name(r.reason), "rank", r.rank, "margin",
                       r.margin, "unresisted", vec6(r.unresisted), "detail", r.detail);
}

PyObject *pylk_grasp_quality(PyObject *self, PyObject *args, PyObject *kw) {
  lk_grasp_contact *c;
  int nc;
  lk_grasp_options o;
  if (parse_contacts(args, kw, &c, &nc, &o) < 0) return NULL;
  lk_grasp_quality q;
  memset(&q, 0, sizeof q);
  lk_error err;
  lk_error_clear(&err);
  lk_status st;
  Py_BEGIN_ALLOW_THREADS st = lk_grasp_quality_compute(c, nc, &o, &q, &err);
  Py_END_ALLOW_THREADS PyMem_Free(c);
  if (st != LK_OK) return pylk_raise(pylk_Error, &err);
  return Py_BuildValue("{s:d,s:d,s:O,s:i,s:i,s:i,s:d}", "epsilon", q.epsilon, "volume", q.volume,
                       "force_closure", q.force_closure ? Py_True : Py_False, "rank", q.rank,
                       "nwrenches", q.nwrenches, "nfacets", q.nfacets, "torque_scale",
                       q.torque_scale);
}
