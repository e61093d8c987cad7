/* What the last step left, as NumPy structured arrays (contacts, link
 * force records, the tactile summary) and the step report as a
 * StepReport (a named tuple-like struct sequence). Each array is a copy:
 * the next step rewrites the library's records. */
#include "pylk.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* One contact row; the dtype below names its fields. */
typedef struct {
  int32_t link, other, geom, other_geom, explicit_index, age;
  uint64_t id;
  double position[3], normal[3];
  double depth, mu_static, mu_dynamic, fn;
  double ft[3], slip[3];
  double slip_speed, utilization, torsion;
  double rolling_moment[3];
  uint32_t state[8]; /* "static", "dynamic" or "open" (no normal force) */
} contact_rec;

typedef struct {
  uint32_t kind[12];
  int32_t index, link;
  double force[3], moment[3];
} force_rec;

typedef struct {
  int32_t ncontacts, slip;
  double normal_force, shear_force[3], slip_speed, utilization, slip_score;
  double pressure_centroid[3], twist_moment, rolling_moment[3];
} tactile_rec;

static PyArray_Descr *contact_dtype, *force_dtype, *tactile_dtype;
static PyTypeObject report_type, island_type;

PyArray_Descr *pylk_dtype(const pylk_field *f, int n, size_t itemsize) {
  PyObject *names = PyList_New(n), *formats = PyList_New(n), *offsets = PyList_New(n);
  PyArray_Descr *descr = NULL;
  if (!names || !formats || !offsets) goto done;
  for (int i = 0; i < n; i++) {
    PyList_SET_ITEM(names, i, PyUnicode_FromString(f[i].name));
    PyList_SET_ITEM(formats, i, PyUnicode_FromString(f[i].format));
    PyList_SET_ITEM(offsets, i, PyLong_FromSize_t(f[i].offset));
  }
  PyObject *spec = Py_BuildValue("{s:O,s:O,s:O,s:n}", "names", names, "formats", formats,
                                 "offsets", offsets, "itemsize", (Py_ssize_t)itemsize);
  if (spec) {
    PyArray_DescrConverter(spec, &descr);
    Py_DECREF(spec);
  }
done:
  Py_XDECREF(names);
  Py_XDECREF(formats);
  Py_XDECREF(offsets);
  return descr;
}

#define F(T, name, fmt) PYLK_FIELD(T, name, fmt)

void pylk_ucs4(uint32_t *dst, size_t n, const char *s) {
  size_t i = 0;
  for (; s && s[i] && i < n; i++) dst[i] = (unsigned char)s[i];
  for (; i < n; i++) dst[i] = 0;
}

PyObject *pylk_records_new(PyArray_Descr *descr, npy_intp n) {
  Py_INCREF(descr); /* PyArray_NewFromDescr steals it */
  return PyArray_NewFromDescr(&PyArray_Type, descr, 1, &n, NULL, NULL, 0, NULL);
}

static void v3(double *dst, lk_vec3 v) {
  dst[0] = v.x;
  dst[1] = v.y;
  dst[2] = v.z;
}

PyObject *pylk_contacts(pylk_Data *self, PyObject *noargs) {
  lk_data *d = pylk_data_get(self);
  if (!d) return NULL;
  int n = lk_data_ncontacts(d);
  PyObject *a = pylk_records_new(contact_dtype, n);
  if (!a) return NULL;
  contact_rec *r = PyArray_DATA((PyArrayObject *)a);
  for (int i = 0; i < n; i++) {
    const lk_contact_report *c = lk_data_contact_report(d, i);
    memset(&r[i], 0, sizeof r[i]);
    r[i].link = c->link;
    r[i].other = c->other;
    r[i].geom = c->geom;
    r[i].other_geom = c->other_geom;
    r[i].explicit_index = c->explicit_index;
    r[i].age = c->age;
    r[i].id = c->id;
    v3(r[i].position, c->position);
    v3(r[i].normal, c->normal);
    r[i].depth = c->depth;
    r[i].mu_static = c->mu_static;
    r[i].mu_dynamic = c->mu_dynamic;
    r[i].fn = c->fn;
    v3(r[i].ft, c->ft);
    v3(r[i].slip, c->slip);
    r[i].slip_speed = c->slip_speed;
    r[i].utilization = c->utilization;
    r[i].torsion = c->torsion;
    v3(r[i].rolling_moment, c->rolling_moment);
    /* as the contact CSV says it (lk_contact_row_of) */
    pylk_ucs4(r[i].state, 8,
         c->fn > 0 ? (c->state == LK_FRICTION_DYNAMIC ? "dynamic" : "static") : "open");
  }
  return a;
}

PyObject *pylk_link_forces(pylk_Data *self, PyObject *noargs) {
  lk_data *d = pylk_data_get(self);
  if (!d) return NULL;
  int n = lk_data_nlink_forces(d);
  PyObject *a = pylk_records_new(force_dtype, n);
  if (!a) return NULL;
  force_rec *r = PyArray_DATA((PyArrayObject *)a);
  for (int i = 0; i < n; i++) {
    const lk_link_force *f = lk_data_link_force(d, i);
    pylk_ucs4(r[i].kind, 12, lk_constraint_kind_name(f->kind));
    r[i].index = f->index;
    r[i].link = f->link;
    v3(r[i].force, f->force);
    v3(r[i].moment, f->moment);
  }
  return a;
}

PyObject *pylk_tactile(pylk_Data *self, PyObject *noargs) {
  lk_data *d = pylk_data_get(self);
  if (!d) return NULL;
  int n = lk_model_nlink(self->model->m);
  PyObject *a = pylk_records_new(tactile_dtype, n);
  if (!a) return NULL;
  tactile_rec *r = PyArray_DATA((PyArrayObject *)a);
  for (int i = 0; i < n; i++) {
    lk_tactile t;
    memset(&r[i], 0, sizeof r[i]);
    if (lk_data_tactile(d, i, &t) != LK_OK) continue;
    r[i].ncontacts = t.ncontacts;
    r[i].slip = t.slip;
    r[i].normal_force = t.normal_force;
    v3(r[i].shear_force, t.shear_force);
    r[i].slip_speed = t.slip_speed;
    r[i].utilization = t.utilization;
    r[i].slip_score = t.slip_score;
    v3(r[i].pressure_centroid, t.pressure_centroid);
    r[i].twist_moment = t.twist_moment;
    v3(r[i].rolling_moment, t.rolling_moment);
  }
  return a;
}

static PyStructSequence_Field report_fields[] = {
    {"status", "LK_OK, or the status name of why the constraint solve failed"},
    {"nrows", "constraint rows"},
    {"nislands", "islands"},
    {"ncontacts", "contacts"},
    {"lcp_solves", "LCP solves over all islands and passes"},
    {"lemke_solves", "successful Lemke solves"},
    {"dantzig_solves", "successful Dantzig solves"},
    {"nsgs_solves", "NSGS solves"},
    {"guess_answers", "solves answered by the impulses in hand"},
    {"iterations", "LCP pivots plus Newton iterations plus NSGS sweeps"},
    {"lcp_pivots", "LCP pivots"},
    {"nsgs_sweeps", "NSGS sweeps"},
    {"residual", "worst relative residual of the accepted solves"},
    {"solver_failures", "solves that failed before one succeeded"},
    {"fallbacks", "islands solved by the other solver or with CFM"},
    {"friction_passes", "most LCP passes one island needed"},
    {"state_changes", "contacts that switched static <-> dynamic"},
    {"max_penetration", "deepest contact, m"},
    {"largest_island", "rows of the largest island"},
    {"unstable", "the energy grew without input"},
    {"energy_growth", "by this much, J"},
    {"unphysical", "the state is clearly unphysical (message says how)"},
    {"detail", "what a failed step ran into, or ''"},
    {"message", "a refused or unphysical step, in words, or ''"},
    {"aside_contacts", "margin contacts whose gap stays open: no rows in any solve"},
    {"impact_work", "work of the step's impact impulses, J (never > 0 once checked)"},
    {"restitution_scale", "the factor restitution was scaled by so no impact adds energy"},
    {"impacts_propagated", "contact impacts resolved one by one before the LCP (impacts: propagating)"},
    {"coupled_answers", "islands answered by the coupled sticking check (normal impulses free)"},
    {"newton_solves", "semismooth Newton solves (islands planned 'Newton')"},
    {"newton_iterations", "their iterations"},
    {"ridge_kept", "islands whose friction LCP answer kept its ridge (a refining solve failed)"},
    {"velocity_passes", "the midpoint velocity forces' passes this step (0: none needed)"},
    {"velocity_explicit", "those passes did not settle: the explicit forces stood"},
    {"islands", "how each island was solved: a tuple of IslandReport"},
    {NULL, NULL}};

#define NREPORT 35

static PyStructSequence_Field island_fields[] = {
    {"rows", "the island's constraint rows"},
    {"contacts", "its contacts"},
    {"planned", "the strategy the planner chose first ('guess', 'sticking trial', ...)"},
    {"reason", "why, in words"},
    {"answered", "the strategy whose answer the step took"},
    {"settled", "the answer met the solver's tolerance"},
    {"solves", "its LCP, Newton and NSGS solves"},
    {"iterations", "its pivots and NSGS sweeps"},
    {NULL, NULL}};

#define NISLAND 8

static PyStructSequence_Desc island_desc = {
    "linkage.IslandReport",
    "How one island was solved (lk_island_report, linkage/sim.h; docs/contact.md, "
    "'The island planner').",
    island_fields, NISLAND};

/* A tuple of IslandReport, one per island of the last step. */
static PyObject *island_reports(const lk_data *d, int n) {
  PyObject *t = PyTuple_New(n);
  if (!t) return NULL;
  for (int k = 0; k < n; k++) {
    const lk_island_report *ir = lk_data_island_report(d, k);
    PyObject *o = ir ? PyStructSequence_New(&island_type) : NULL;
    if (!o) {
      Py_DECREF(t);
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "no island report");
      return NULL;
    }
    PyObject *v[NISLAND] = {PyLong_FromLong(ir->rows),
                            PyLong_FromLong(ir->contacts),
                            PyUnicode_FromString(lk_island_strategy_name(ir->planned)),
                            PyUnicode_FromString(ir->reason ? ir->reason : ""),
                            PyUnicode_FromString(lk_island_strategy_name(ir->answered)),
                            PyBool_FromLong(ir->settled),
                            PyLong_FromLong(ir->solves),
                            PyLong_FromLong(ir->iterations)};
    for (int i = 0; i < NISLAND; i++) {
      if (!v[i]) {
        for (int j = i + 1; j < NISLAND; j++) Py_XDECREF(v[j]);
        Py_DECREF(o);
        Py_DECREF(t);
        return NULL;
      }
      PyStructSequence_SET_ITEM(o, i, v[i]);
    }
    PyTuple_SET_ITEM(t, k, o);
  }
  return t;
}

static PyStructSequence_Desc report_desc = {
    "linkage.StepReport", "What the last step did (lk_step_report, linkage/sim.h).",
    report_fields, NREPORT};

PyObject *pylk_step_report(pylk_Data *self, void *closure) {
  lk_data *d = pylk_data_get(self);
  if (!d) return NULL;
  const lk_step_report *r = lk_data_step_report(d);
  PyObject *o = PyStructSequence_New(&report_type);
  if (!o) return NULL;
  PyObject *v[NREPORT] = {
      PyUnicode_FromString(lk_status_name(r->status)),
      PyLong_FromLong(r->nrows),
      PyLong_FromLong(r->nislands),
      PyLong_FromLong(r->ncontacts),
      PyLong_FromLong(r->lcp_solves),
      PyLong_FromLong(r->lemke_solves),
      PyLong_FromLong(r->dantzig_solves),
      PyLong_FromLong(r->nsgs_solves),
      PyLong_FromLong(r->guess_answers),
      PyLong_FromLong((long)r->lcp_pivots + r->nsgs_sweeps + r->newton_iterations),
      PyLong_FromLong(r->lcp_pivots),
      PyLong_FromLong(r->nsgs_sweeps),
      PyFloat_FromDouble(r->lcp_residual),
      PyLong_FromLong(r->solver_failures),
      PyLong_FromLong(r->fallbacks),
      PyLong_FromLong(r->friction_passes),
      PyLong_FromLong(r->state_changes),
      PyFloat_FromDouble(r->max_penetration),
      PyLong_FromLong(r->largest_island),
      PyBool_FromLong(r->unstable),
      PyFloat_FromDouble(r->energy_growth),
      PyBool_FromLong(r->unphysical),
      PyUnicode_FromString(r->detail ? r->detail : ""),
      PyUnicode_FromString(r->message),
      PyLong_FromLong(r->aside_contacts),
      PyFloat_FromDouble(r->impact_work),
      PyFloat_FromDouble(r->restitution_scale),
      PyLong_FromLong(r->impacts_propagated),
      PyLong_FromLong(r->coupled_answers),
      PyLong_FromLong(r->newton_solves),
      PyLong_FromLong(r->newton_iterations),
      PyLong_FromLong(r->ridge_kept),
      PyLong_FromLong(r->velocity_passes),
      PyBool_FromLong(r->velocity_explicit),
      island_reports(d, r->nislands),
  };
  for (int i = 0; i < NREPORT; i++) {
    if (!v[i]) {
      for (int j = i + 1; j < NREPORT; j++) Py_XDECREF(v[j]);
      Py_DECREF(o);
      return NULL;
    }
    PyStructSequence_SET_ITEM(o, i, v[i]);
  }
  return o;
}

int pylk_records_init(PyObject *module) {
  static const pylk_field cf[] = {
      F(contact_rec, link, "i4"),        F(contact_rec, other, "i4"),
      F(contact_rec, geom, "i4"),        F(contact_rec, other_geom, "i4"),
      F(contact_rec, explicit_index, "i4"), F(contact_rec, age, "i4"),
      F(contact_rec, id, "u8"),          F(contact_rec, position, "(3,)f8"),
      F(contact_rec, normal, "(3,)f8"),  F(contact_rec, depth, "f8"),
      F(contact_rec, mu_static, "f8"),   F(contact_rec, mu_dynamic, "f8"),
      F(contact_rec, fn, "f8"),          F(contact_rec, ft, "(3,)f8"),
      F(contact_rec, slip, "(3,)f8"),    F(contact_rec, slip_speed, "f8"),
      F(contact_rec, utilization, "f8"), F(contact_rec, torsion, "f8"),
      F(contact_rec, rolling_moment, "(3,)f8"), F(contact_rec, state, "U8")};
  static const pylk_field ff[] = {F(force_rec, kind, "U12"), F(force_rec, index, "i4"),
                             F(force_rec, link, "i4"), F(force_rec, force, "(3,)f8"),
                             F(force_rec, moment, "(3,)f8")};
  static const pylk_field tf[] = {
      F(tactile_rec, ncontacts, "i4"),         F(tactile_rec, slip, "i4"),
      F(tactile_rec, normal_force, "f8"),      F(tactile_rec, shear_force, "(3,)f8"),
      F(tactile_rec, slip_speed, "f8"),        F(tactile_rec, utilization, "f8"),
      F(tactile_rec, slip_score, "f8"),        F(tactile_rec, pressure_centroid, "(3,)f8"),
      F(tactile_rec, twist_moment, "f8"),      F(tactile_rec, rolling_moment, "(3,)f8")};
  contact_dtype = pylk_dtype(cf, (int)(sizeof cf / sizeof cf[0]), sizeof(contact_rec));
  force_dtype = pylk_dtype(ff, (int)(sizeof ff / sizeof ff[0]), sizeof(force_rec));
  tactile_dtype = pylk_dtype(tf, (int)(sizeof tf / sizeof tf[0]), sizeof(tactile_rec));
  if (!contact_dtype || !force_dtype || !tactile_dtype) return -1;
  if (PyStructSequence_InitType2(&report_type, &report_desc) < 0) return -1;
  if (PyStructSequence_InitType2(&island_type, &island_desc) < 0) return -1;
  if (PyModule_AddObjectRef(module, "StepReport", (PyObject *)&report_type) < 0 ||
      PyModule_AddObjectRef(module, "IslandReport", (PyObject *)&island_type) < 0 ||
      PyModule_AddObjectRef(module, "contact_dtype", (PyObject *)contact_dtype) < 0 ||
      PyModule_AddObjectRef(module, "link_force_dtype", (PyObject *)force_dtype) < 0 ||
      PyModule_AddObjectRef(module, "tactile_dtype", (PyObject *)tactile_dtype) < 0)
    return -1;
  return 0;
}
