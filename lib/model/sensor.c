/* Sensors: named outputs of the state (MJCF's <sensor> jointpos, jointvel,
 * framepos, touch), checked at finalize and read from an lk_data. */
#include <math.h>
#include <string.h>

#include "core/internal.h"
#include "data/data_impl.h"
#include "linkage/constraint.h" /* lk_data_tactile */
#include "model/model_impl.h"

static const char *const kNames[] = {"jointpos", "jointvel", "framepos", "touch"};

const char *lk_sensor_type_name(lk_sensor_type t) {
  return (int)t >= 0 && t < LK_SENSOR_TYPE_COUNT ? kNames[t] : NULL;
}

int lk_sensor_dim(lk_sensor_type t) {
  if ((int)t < 0 || t >= LK_SENSOR_TYPE_COUNT) return 0;
  return t == LK_SENSOR_FRAMEPOS ? 3 : 1;
}

static char *dup(const char *s) { return s ? lk_strdup(s) : NULL; }

lk_status lk_model_add_sensor(lk_model *m, const lk_sensor_spec *s, lk_error *err) {
  if (!m || !s) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL model or spec");
  if (m->finalized)
    return lk_error_set(err, LK_INVALID_MODEL, "the model is finalized: it cannot be changed");
  if (!s->name || !*s->name) return lk_error_set(err, LK_INVALID_MODEL, "a sensor needs a name");
  if (!lk_sensor_dim(s->type))
    return lk_error_set(err, LK_INVALID_MODEL, "sensor '%s': unknown type %d", s->name,
                        (int)s->type);
  for (int i = 0; i < m->nsensor; i++)
    if (strcmp(m->sensor[i].name, s->name) == 0)
      return lk_error_set(err, LK_INVALID_MODEL, "sensor '%s' is defined twice", s->name);
  if (m->nsensor == m->cap_sensor) {
    int cap = m->cap_sensor ? 2 * m->cap_sensor : 8;
    struct lk_sensor_rec *g = lk_realloc(m->sensor, (size_t)cap * sizeof *g);
    if (!g) return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
    m->sensor = g;
    m->cap_sensor = cap;
  }
  struct lk_sensor_rec r;
  memset(&r, 0, sizeof r);
  r.spec = *s;
  r.name = dup(s->name);
  r.joint = dup(s->joint);
  r.link = dup(s->link);
  if (!r.name || (s->joint && !r.joint) || (s->link && !r.link)) {
    lk_free(r.name);
    lk_free(r.joint);
    lk_free(r.link);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  }
  r.spec.name = r.name;
  r.spec.joint = r.joint;
  r.spec.link = r.link;
  r.l = -1;
  m->sensor[m->nsensor++] = r;
  return LK_OK;
}

int lk_model_nsensor(const lk_model *m) { return m ? m->nsensor : 0; }

lk_status lk_model_sensor(const lk_model *m, int i, lk_sensor_spec *out) {
  if (!m || i < 0 || i >= m->nsensor || !out) return LK_INVALID_ARGUMENT;
  *out = m->sensor[i].spec;
  return LK_OK;
}

lk_status lk_model_finalize_sensors(lk_model *m, lk_error *err) {
  for (int i = 0; i < m->nsensor; i++) {
    struct lk_sensor_rec *r = &m->sensor[i];
    const char *n = r->name;
    if (r->spec.type == LK_SENSOR_JOINTPOS || r->spec.type == LK_SENSOR_JOINTVEL) {
      int l = r->joint ? lk_name_index_get(&m->joint_index, r->joint) : -1;
      if (l <= 0)
        return lk_error_set(err, LK_INVALID_MODEL, "sensor '%s': unknown joint '%s'", n,
                            r->joint ? r->joint : "(none)");
      if (m->jnq[l] != 1)
        return lk_error_set(err, LK_INVALID_MODEL,
                            "sensor '%s': joint '%s' is not revolute or prismatic", n, r->joint);
      r->l = l;
    } else {
      int l = !r->link || strcmp(r->link, "world") == 0 ? 0
                                                        : lk_name_index_get(&m->link_index, r->link);
      if (l < 0 || (l == 0 && r->spec.type == LK_SENSOR_TOUCH))
        return lk_error_set(err, LK_INVALID_MODEL, "sensor '%s': unknown link '%s'", n,
                            r->link ? r->link : "(none)");
      if (!isfinite(r->spec.point.x) || !isfinite(r->spec.point.y) || !isfinite(r->spec.point.z))
        return lk_error_set(err, LK_INVALID_MODEL, "sensor '%s': point is not finite", n);
      r->l = l;
    }
  }
  return LK_OK;
}

void lk_model_free_sensors(lk_model *m) {
  for (int i = 0; i < m->nsensor; i++) {
    lk_free(m->sensor[i].name);
    lk_free(m->sensor[i].joint);
    lk_free(m->sensor[i].link);
  }
  lk_free(m->sensor);
  m->sensor = NULL;
  m->nsensor = m->cap_sensor = 0;
}

lk_status lk_data_sensor(const lk_model *m, const lk_data *d, int i, double *out) {
  if (!m || !d || !out || d->model != m || !m->finalized || i < 0 || i >= m->nsensor)
    return LK_INVALID_ARGUMENT;
  const struct lk_sensor_rec *r = &m->sensor[i];
  switch (r->spec.type) {
    case LK_SENSOR_JOINTPOS:
      out[0] = d->q[m->qadr[r->l]];
      return LK_OK;
    case LK_SENSOR_JOINTVEL:
      out[0] = d->v[m->vadr[r->l]];
      return LK_OK;
    case LK_SENSOR_FRAMEPOS: {
      lk_vec3 p = r->l == 0 ? r->spec.point : lk_tf_point(&d->xw[r->l], r->spec.point);
      out[0] = p.x, out[1] = p.y, out[2] = p.z;
      return LK_OK;
    }
    case LK_SENSOR_TOUCH: {
      lk_tactile t;
      out[0] = lk_data_tactile(d, r->l, &t) ? 0 : t.normal_force;
      return LK_OK;
    }
    default:
      return LK_INVALID_ARGUMENT;
  }
}
