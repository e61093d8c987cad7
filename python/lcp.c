/* linkage.lcp: LCPs over NumPy arrays (dense, or compressed rows handed
 * down by the Python layer from SciPy) and the problem-file reader. */
#include "pylk.h"

#include <math.h>
#include <string.h>

/* A C-contiguous array of `type` with nd dimensions, or NULL with an
 * error. Unsafe casts (complex, strings, objects to float) are refused by
 * NumPy with TypeError. */
static PyArrayObject *as_array(PyObject *o, int type, int nd, const char *what) {
  PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(o, type, nd, nd, NPY_ARRAY_CARRAY_RO);
  if (!a && PyErr_ExceptionMatches(PyExc_ValueError)) {
    PyErr_Clear();
    PyErr_Format(PyExc_ValueError, "%s must be a %d-D array", what, nd);
  } else if (!a && PyErr_ExceptionMatches(PyExc_TypeError)) {
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "%s must hold %s numbers", what,
                 type == NPY_INT ? "integer" : "real");
  }
  return a;
}

static int check_len(PyArrayObject *a, npy_intp n, const char *what) {
  if (PyArray_DIM(a, 0) != n) {
    PyErr_Format(PyExc_ValueError, "%s has %zd entries, expected %zd", what,
                 (Py_ssize_t)PyArray_DIM(a, 0), (Py_ssize_t)n);
    return -1;
  }
  return 0;
}

static const char *warm_name(lk_lcp_warm w) {
  switch (w) {
  case LK_LCP_COLD: return "cold";
  case LK_LCP_WARM_EXACT: return "exact";
  case LK_LCP_WARM_REPAIRED: return "repaired";
  case LK_LCP_WARM_FELL_BACK: return "fell back";
  case LK_LCP_WARM_GUESS: return "guess";
  }
  return "";
}

PyObject *pylk_lcp_solve(PyObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"M",    "q",   "solver", "lo",         "hi",         "findex", "mu",
                           "cone", "tol", "max_pivots", "max_sweeps", "z_guess", NULL};
  PyObject *Mo, *qo, *loo = Py_None, *hio = Py_None, *fo = Py_None, *muo = Py_None;
  PyObject *coneo = Py_None, *guesso = Py_None;
  const char *solver = "lemke";
  double tol = 0;
  int max_pivots = 0, max_sweeps = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|sOOOOOdiiO", kwlist, &Mo, &qo, &solver, &loo,
                                   &hio, &fo, &muo, &coneo, &tol, &max_pivots, &max_sweeps,
                                   &guesso))
    return NULL;
  const lk_lcp_solver *type = lk_lcp_solver_by_name(solver);
  if (!type)
    return PyErr_Format(PyExc_ValueError,
                        "unknown solver '%s' (lemke, dantzig, nsgs or newton)", solver);
  PyArrayObject *arr[10] = {NULL};
  PyObject *result = NULL;
  lk_lcp p;
  memset(&p, 0, sizeof p);
  PyArrayObject *q = arr[0] = as_array(qo, NPY_DOUBLE, 1, "q");
  if (!q) goto done;
  npy_intp n = PyArray_DIM(q, 0);
  if (n > INT32_MAX / 2) {
    PyErr_SetString(PyExc_ValueError, "the problem is too large");
    goto done;
  }
  p.n = (int)n;
  p.q = PyArray_DATA(q);
  if (PyTuple_Check(Mo)) { /* (indptr, indices, data): compressed rows */
    PyObject *ro, *co, *vo;
    if (!PyArg_ParseTuple(Mo, "OOO", &ro, &co, &vo)) goto done;
    if (!(arr[1] = as_array(ro, NPY_INT, 1, "M's indptr")) ||
        !(arr[2] = as_array(co, NPY_INT, 1, "M's indices")) ||
        !(arr[3] = as_array(vo, NPY_DOUBLE, 1, "M's data")) ||
        check_len(arr[1], n + 1, "M's indptr") < 0)
      goto done;
    const int *row = PyArray_DATA(arr[1]);
    if (row[0] != 0 || row[n] != PyArray_DIM(arr[2], 0) || row[n] != PyArray_DIM(arr[3], 0)) {
      PyErr_SetString(PyExc_ValueError, "M's compressed rows are inconsistent");
      goto done;
    }
    for (npy_intp i = 0; i < n; i++)
      if (row[i + 1] < row[i]) {
        PyErr_SetString(PyExc_ValueError, "M's indptr decreases");
        goto done;
      }
    const int *col = PyArray_DATA(arr[2]);
    for (npy_intp i = 0; i < n; i++)
      for (int k = row[i]; k < row[i + 1]; k++)
        if (col[k] < 0 || col[k] >= n || (k > row[i] && col[k] <= col[k - 1])) {
          PyErr_SetString(PyExc_ValueError,
                          "M's column indices must be in range and increasing in each row "
                          "(scipy: M.sorted_indices())");
          goto done;
        }
    p.csr.row = row;
    p.csr.col = col;
    p.csr.val = PyArray_DATA(arr[3]);
  } else {
    if (!(arr[1] = as_array(Mo, NPY_DOUBLE, 2, "M"))) goto done;
    if (PyArray_DIM(arr[1], 0) != n || PyArray_DIM(arr[1], 1) != n) {
      PyErr_Format(PyExc_ValueError, "M is %zd x %zd, expected %zd x %zd (q has %zd entries)",
                   (Py_ssize_t)PyArray_DIM(arr[1], 0), (Py_ssize_t)PyArray_DIM(arr[1], 1),
                   (Py_ssize_t)n, (Py_ssize_t)n, (Py_ssize_t)n);
      goto done;
    }
    p.M = PyArray_DATA(arr[1]);
  }
  if (loo != Py_None) {
    if (!(arr[4] = as_array(loo, NPY_DOUBLE, 1, "lo")) || check_len(arr[4], n, "lo") < 0) goto done;
    p.lo = PyArray_DATA(arr[4]);
  }
  if (hio != Py_None) {
    if (!(arr[5] = as_array(hio, NPY_DOUBLE, 1, "hi")) || check_len(arr[5], n, "hi") < 0) goto done;
    p.hi = PyArray_DATA(arr[5]);
  }
  if (fo != Py_None) {
    if (!(arr[6] = as_array(fo, NPY_INT, 1, "findex")) || check_len(arr[6], n, "findex") < 0)
      goto done;
    p.findex = PyArray_DATA(arr[6]);
  }
  if (muo != Py_None) {
    if (!(arr[7] = as_array(muo, NPY_DOUBLE, 1, "mu")) || check_len(arr[7], n, "mu") < 0) goto done;
    p.mu = PyArray_DATA(arr[7]);
  }
  if (coneo != Py_None) {
    if (!(arr[8] = as_array(coneo, NPY_INT, 1, "cone")) || check_len(arr[8], n, "cone") < 0)
      goto done;
    p.cone = PyArray_DATA(arr[8]);
  }
  if (p.findex && !p.mu) {
    PyErr_SetString(PyExc_ValueError, "findex needs mu");
    goto done;
  }
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  if (tol > 0) o.tol = tol;
  o.max_pivots = max_pivots;
  o.max_sweeps = max_sweeps;
  if (guesso != Py_None) {
    if (!(arr[9] = as_array(guesso, NPY_DOUBLE, 1, "z_guess")) ||
        check_len(arr[9], n, "z_guess") < 0)
      goto done;
    o.z_guess = PyArray_DATA(arr[9]);
  }
  lk_error err;
  lk_error_clear(&err);
  if (lk_lcp_check(&p, &err) != LK_OK) {
    pylk_raise(pylk_Error, &err);
    goto done;
  }
  int cap = lk_lcp_capacity_needed(&p);
  lk_lcp_workspace *ws = type == lk_lcp_newton ? lk_lcp_workspace_new_newton(cap)
                         : type == lk_lcp_nsgs ? lk_lcp_workspace_new_for(type, cap)
                                               : lk_lcp_workspace_new(cap);
  if (!ws) {
    PyErr_NoMemory();
    goto done;
  }
  PyObject *z = PyArray_ZEROS(1, &n, NPY_DOUBLE, 0), *w = PyArray_ZEROS(1, &n, NPY_DOUBLE, 0);
  if (!z || !w) {
    Py_XDECREF(z);
    Py_XDECREF(w);
    lk_lcp_workspace_free(ws);
    goto done;
  }
  lk_lcp_report r;
  memset(&r, 0, sizeof r);
  Py_BEGIN_ALLOW_THREADS lk_lcp_solve(type, &p, &o, ws, PyArray_DATA((PyArrayObject *)z),
                                      PyArray_DATA((PyArrayObject *)w), &r);
  Py_END_ALLOW_THREADS lk_lcp_workspace_free(ws);
  result = Py_BuildValue(
      "(NN{s:s,s:O,s:s,s:i,s:d,s:d,s:i,s:d,s:i,s:i,s:i,s:i,s:s,s:s})", z, w, "status",
      lk_status_name(r.status), "ok", r.status == LK_OK ? Py_True : Py_False, "solver",
      lk_lcp_solver_name(type), "pivots", r.pivots, "residual", r.residual, "residual_rel",
      r.residual_rel, "sweeps", r.sweeps, "error", r.error, "restarts", r.restarts, "fallback",
      r.fallback, "ray_certified", r.ray_certified, "regularized", r.regularized, "warm",
      warm_name(r.warm), "detail", r.detail ? r.detail : "");
done:
  for (int i = 0; i < 10; i++) Py_XDECREF(arr[i]);
  return result;
}

static PyObject *copy_doubles(const double *p, npy_intp n, double fill) {
  PyObject *a = PyArray_SimpleNew(1, &n, NPY_DOUBLE);
  if (!a) return NULL;
  double *d = PyArray_DATA((PyArrayObject *)a);
  for (npy_intp i = 0; i < n; i++) d[i] = p ? p[i] : fill;
  return a;
}

static PyObject *copy_ints(const int *p, npy_intp n) {
  if (!p) Py_RETURN_NONE;
  PyObject *a = PyArray_SimpleNew(1, &n, NPY_INT);
  if (!a) return NULL;
  memcpy(PyArray_DATA((PyArrayObject *)a), p, (size_t)n * sizeof(int));
  return a;
}

/* lcp_read(path) -> dict: M (dense), q, lo, hi, findex, mu, cone, name,
 * contacts, dim: the arguments of lcp_solve plus what the file says. */
PyObject *pylk_lcp_read(PyObject *self, PyObject *args) {
  PyObject *pathobj;
  if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &pathobj)) return NULL;
  lk_lcp_problem *prob = NULL;
  lk_error err;
  lk_error_clear(&err);
  lk_status st;
  Py_BEGIN_ALLOW_THREADS st = lk_lcp_problem_load(PyBytes_AS_STRING(pathobj), &prob, &err);
  Py_END_ALLOW_THREADS Py_DECREF(pathobj);
  if (st != LK_OK) return pylk_raise(pylk_Error, &err);
  const lk_lcp *p = lk_lcp_problem_lcp(prob);
  npy_intp n = p->n, dims[2] = {n, n};
  PyObject *M = PyArray_SimpleNew(2, dims, NPY_DOUBLE), *result = NULL;
  if (M && lk_lcp_densify(p, PyArray_DATA((PyArrayObject *)M), (int)n) != LK_OK) {
    Py_CLEAR(M);
    pylk_raise_status(pylk_Error, LK_INVALID_ARGUMENT, "the problem's matrix cannot be formed");
  }
  if (M) {
    int dim = 0, nc = lk_lcp_problem_contacts(prob, &dim);
    PyObject *mu = p->findex ? copy_doubles(p->mu, n, 0) : Py_NewRef(Py_None);
    result = Py_BuildValue("{s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:s,s:i,s:i}", "M", M, "q",
                           copy_doubles(p->q, n, 0), "lo", copy_doubles(p->lo, n, 0), "hi",
                           copy_doubles(p->hi, n, INFINITY), "findex", copy_ints(p->findex, n),
                           "mu", mu, "cone", copy_ints(p->cone, n), "name",
                           lk_lcp_problem_name(prob), "contacts", nc, "dim", dim);
  }
  lk_lcp_problem_free(prob);
  return result;
}

int pylk_lcp_init(PyObject *module) { return 0; }
