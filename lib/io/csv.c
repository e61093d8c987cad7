/* Trajectory and contact CSV files. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "io/io_internal.h"
#include "linkage/collision.h"
#include "linkage/constraint.h"
#include "linkage/dynamics.h"
#include "linkage/io.h"

/* Columns, group after group: t | 3 per link (world excluded) | nq + nv
 * per joint, joint by joint in link order (the default groups); then, as
 * asked, pose: 4 per link | actuators: 1 each | energy: 3 | tactile: 4 per
 * link | sensors: 1 or 3 each. */
enum { G_BASE, G_POSE, G_ACT, G_ENERGY, G_TACTILE, G_SENSOR, G_COUNT };

/* Sensor columns: which sensor column c of the group is, and its part. */
static int sensor_at(const lk_model *m, int c, int *part) {
  for (int i = 0; i < lk_model_nsensor(m); i++) {
    lk_sensor_spec s;
    if (lk_model_sensor(m, i, &s)) return -1;
    int n = lk_sensor_dim(s.type);
    if (c < n) {
      *part = c;
      return i;
    }
    c -= n;
  }
  return -1;
}

static int group_size(const lk_model *m, int g) {
  int nl = lk_model_nlink(m) - 1;
  switch (g) {
    case G_BASE:
      return 1 + 3 * nl + lk_model_nq(m) + lk_model_nv(m);
    case G_POSE:
      return 4 * nl;
    case G_ACT:
      return lk_model_nactuator(m);
    case G_ENERGY:
      return 3;
    case G_TACTILE:
      return 4 * nl;
    case G_SENSOR: {
      int n = 0;
      for (int i = 0; i < lk_model_nsensor(m); i++) {
        lk_sensor_spec s;
        if (!lk_model_sensor(m, i, &s)) n += lk_sensor_dim(s.type);
      }
      return n;
    }
  }
  return 0;
}

static int group_on(unsigned groups, int g) {
  return g == G_BASE || (groups & (1u << (g - 1)));
}

int lk_trajectory_ncolumns_in(const lk_model *m, unsigned groups) {
  if (!lk_model_is_finalized(m)) return 0;
  int n = 0;
  for (int g = 0; g < G_COUNT; g++)
    if (group_on(groups, g)) n += group_size(m, g);
  return n;
}

int lk_trajectory_ncolumns(const lk_model *m) { return lk_trajectory_ncolumns_in(m, 0); }

static const char *base_name(const lk_model *m, int c, char *buf, size_t size) {
  if (c == 0) {
    snprintf(buf, size, "t");
    return buf;
  }
  int nl = lk_model_nlink(m);
  c -= 1;
  if (c < 3 * (nl - 1)) {
    snprintf(buf, size, "%s.%c", lk_model_link_name(m, 1 + c / 3), "xyz"[c % 3]);
    return buf;
  }
  c -= 3 * (nl - 1);
  for (int l = 1; l < nl; l++) {
    int nq = lk_model_joint_nq(m, l), nv = lk_model_joint_nv(m, l);
    if (c >= nq + nv) {
      c -= nq + nv;
      continue;
    }
    const char *jn = lk_model_joint_name(m, l);
    int one = nq == 1 && nv == 1;
    if (c < nq) {
      if (one)
        snprintf(buf, size, "%s.q", jn);
      else
        snprintf(buf, size, "%s.q%d", jn, c);
    } else {
      if (one)
        snprintf(buf, size, "%s.v", jn);
      else
        snprintf(buf, size, "%s.v%d", jn, c - nq);
    }
    return buf;
  }
  return NULL;
}

const char *lk_trajectory_column_name_in(const lk_model *m, unsigned groups, int i, char *buf,
                                         size_t size) {
  if (!lk_model_is_finalized(m) || i < 0 || !buf || size == 0) return NULL;
  static const char *const pose[] = {"qw", "qx", "qy", "qz"};
  static const char *const energy[] = {"kinetic", "potential", "energy"};
  static const char *const tactile[] = {"slip", "slip_score", "fn", "shear"};
  for (int g = 0; g < G_COUNT; g++) {
    if (!group_on(groups, g)) continue;
    int n = group_size(m, g);
    if (i >= n) {
      i -= n;
      continue;
    }
    switch (g) {
      case G_BASE:
        return base_name(m, i, buf, size);
      case G_POSE:
        snprintf(buf, size, "%s.%s", lk_model_link_name(m, 1 + i / 4), pose[i % 4]);
        return buf;
      case G_ACT: {
        lk_actuator_spec as;
        if (lk_model_actuator(m, i, &as)) return NULL;
        snprintf(buf, size, "%s.force", as.name);
        return buf;
      }
      case G_ENERGY:
        snprintf(buf, size, "%s", energy[i]);
        return buf;
      case G_TACTILE:
        snprintf(buf, size, "%s.%s", lk_model_link_name(m, 1 + i / 4), tactile[i % 4]);
        return buf;
      case G_SENSOR: {
        int part, k = sensor_at(m, i, &part);
        lk_sensor_spec ss;
        if (k < 0 || lk_model_sensor(m, k, &ss)) return NULL;
        if (lk_sensor_dim(ss.type) == 1)
          snprintf(buf, size, "%s", ss.name);
        else
          snprintf(buf, size, "%s.%c", ss.name, "xyz"[part]);
        return buf;
      }
    }
  }
  return NULL;
}

const char *lk_trajectory_column_name(const lk_model *m, int i, char *buf, size_t size) {
  return lk_trajectory_column_name_in(m, 0, i, buf, size);
}

int lk_trajectory_column_index_in(const lk_model *m, unsigned groups, const char *name) {
  if (!name) return -1;
  int nc = lk_trajectory_ncolumns_in(m, groups);
  char buf[LK_IO_COLUMN_MAX + 16];
  for (int i = 0; i < nc; i++)
    if (lk_trajectory_column_name_in(m, groups, i, buf, sizeof buf) && strcmp(buf, name) == 0)
      return i;
  return -1;
}

int lk_trajectory_column_index(const lk_model *m, const char *name) {
  return lk_trajectory_column_index_in(m, 0, name);
}

static int base_row(const lk_model *m, const lk_data *d, double *row) {
  int nl = lk_model_nlink(m), k = 0;
  row[k++] = lk_data_time(d);
  for (int l = 1; l < nl; l++) {
    const lk_transform *X = lk_data_link_pose(d, l);
    row[k++] = X->p.x;
    row[k++] = X->p.y;
    row[k++] = X->p.z;
  }
  /* lk_data_q/v hand out writable views; the data is only read here. */
  lk_data *dd = (lk_data *)d;
  const double *q = lk_data_q(dd), *v = lk_data_v(dd);
  for (int l = 1; l < nl; l++) {
    int qa = lk_model_joint_qadr(m, l), va = lk_model_joint_vadr(m, l);
    for (int j = 0; j < lk_model_joint_nq(m, l); j++) row[k++] = q[qa + j];
    for (int j = 0; j < lk_model_joint_nv(m, l); j++) row[k++] = v[va + j];
  }
  return k;
}

void lk_trajectory_row(const lk_model *m, const lk_data *d, double *row) { base_row(m, d, row); }

lk_status lk_trajectory_row_in(const lk_model *m, unsigned groups, lk_data *d, double *row) {
  if (!lk_model_is_finalized(m) || !d || lk_data_model(d) != m || !row) return LK_INVALID_ARGUMENT;
  int k = base_row(m, d, row), nl = lk_model_nlink(m);
  if (group_on(groups, G_POSE))
    for (int l = 1; l < nl; l++) {
      lk_quat q = lk_q_from_mat3(&lk_data_link_pose(d, l)->R);
      row[k++] = q.w;
      row[k++] = q.x;
      row[k++] = q.y;
      row[k++] = q.z;
    }
  if (group_on(groups, G_ACT))
    for (int a = 0; a < lk_model_nactuator(m); a++) row[k++] = lk_data_actuator_force(d, a);
  if (group_on(groups, G_ENERGY)) {
    double ke = NAN, pe = NAN;
    /* Both run the kinematics of the current q and v again (the poses are
     * unchanged by it); a failure leaves NaN in the columns. */
    if (lk_energy_kinetic(m, d, &ke)) ke = NAN;
    if (lk_energy_potential(m, d, &pe)) pe = NAN;
    row[k++] = ke;
    row[k++] = pe;
    row[k++] = ke + pe;
  }
  if (group_on(groups, G_TACTILE))
    for (int l = 1; l < nl; l++) {
      lk_tactile t;
      if (lk_data_tactile(d, l, &t)) memset(&t, 0, sizeof t);
      row[k++] = t.slip;
      row[k++] = t.slip_score;
      row[k++] = t.normal_force;
      row[k++] = lk_v3_norm(t.shear_force);
    }
  if (group_on(groups, G_SENSOR))
    for (int i = 0; i < lk_model_nsensor(m); i++) {
      lk_sensor_spec ss;
      double v[3] = {NAN, NAN, NAN};
      if (lk_model_sensor(m, i, &ss)) continue;
      if (lk_data_sensor(m, d, i, v)) v[0] = v[1] = v[2] = NAN;
      for (int j = 0; j < lk_sensor_dim(ss.type); j++) row[k++] = v[j];
    }
  return LK_OK;
}

int lk_trajectory_groups_parse(const char *list, unsigned *groups, char *bad, size_t bad_size) {
  static const char *const names[] = {"pose", "actuators", "energy", "tactile", "sensors"};
  unsigned g = 0;
  const char *p = list ? list : "";
  while (*p) {
    size_t n = strcspn(p, ",");
    int found = -1;
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
      if (strlen(names[i]) == n && strncmp(p, names[i], n) == 0) found = i;
    if (found < 0) {
      if (bad && bad_size) snprintf(bad, bad_size, "%.*s", (int)n, p);
      return -1;
    }
    g |= 1u << found;
    p += n;
    if (*p == ',') p++;
  }
  if (groups) *groups = g;
  return 0;
}

/* ------------------------------------------------------------ writers */

struct lk_trajectory_writer {
  lk_outfile out;
  const lk_model *m;
  unsigned groups;
  double *row;
  int ncol;
  long rows;
};

static lk_trajectory_writer *traj_new(const lk_model *m, unsigned groups, lk_error *err) {
  if (!lk_model_is_finalized(m)) {
    lk_error_set(err, LK_INVALID_MODEL, "the model is not finalized");
    return NULL;
  }
  lk_trajectory_writer *w = lk_calloc(1, sizeof *w);
  if (w) {
    w->m = m;
    w->groups = groups;
    w->ncol = lk_trajectory_ncolumns_in(m, groups);
    w->row = LK_NEW_ARRAY(double, w->ncol);
  }
  if (!w || !w->row) {
    if (w) lk_free(w->row);
    lk_free(w);
    lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
    return NULL;
  }
  return w;
}

static lk_trajectory_writer *traj_header(lk_trajectory_writer *w, lk_error *err) {
  char name[LK_IO_COLUMN_MAX + 16];
  for (int i = 0; i < w->ncol; i++) {
    lk_trajectory_column_name_in(w->m, w->groups, i, name, sizeof name);
    lk_outfile_puts(&w->out, i ? "," : "");
    lk_outfile_puts(&w->out, name);
  }
  lk_outfile_puts(&w->out, "\n");
  if (w->out.failed) {
    char eb[128];
    lk_error_set(err, LK_IO_ERROR, "writing the trajectory header failed: %s",
                 lk_io_strerror(w->out.err_no, eb, sizeof eb));
    lk_trajectory_writer_discard(w);
    return NULL;
  }
  return w;
}

lk_trajectory_writer *lk_trajectory_writer_open(const char *path, const lk_model *m,
                                                lk_error *err) {
  return lk_trajectory_writer_open_in(path, m, 0, err);
}

lk_trajectory_writer *lk_trajectory_writer_open_in(const char *path, const lk_model *m,
                                                   unsigned groups, lk_error *err) {
  lk_trajectory_writer *w = traj_new(m, groups, err);
  if (!w) return NULL;
  if (lk_outfile_open(&w->out, path, err)) {
    lk_free(w->row);
    lk_free(w);
    return NULL;
  }
  return traj_header(w, err);
}

lk_trajectory_writer *lk_trajectory_writer_stream(FILE *f, const lk_model *m, lk_error *err) {
  return lk_trajectory_writer_stream_in(f, m, 0, err);
}

lk_trajectory_writer *lk_trajectory_writer_stream_in(FILE *f, const lk_model *m, unsigned groups,
                                                     lk_error *err) {
  if (!f) {
    lk_error_set(err, LK_INVALID_ARGUMENT, "NULL stream");
    return NULL;
  }
  lk_trajectory_writer *w = traj_new(m, groups, err);
  if (!w) return NULL;
  lk_outfile_stream(&w->out, f);
  return traj_header(w, err);
}

lk_status lk_trajectory_writer_add(lk_trajectory_writer *w, const lk_data *d, lk_error *err) {
  if (!w || !d) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL writer or data");
  if (lk_data_model(d) != w->m)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "the data belongs to another model");
  if (w->groups) {
    /* The energy columns recompute the kinematics of the same q and v: the
     * data's state is not changed. */
    lk_status st = lk_trajectory_row_in(w->m, w->groups, (lk_data *)d, w->row);
    if (st) return lk_error_set(err, st, "the trajectory row cannot be formed");
  } else {
    lk_trajectory_row(w->m, d, w->row);
  }
  /* One line buffered per row: a handful of writes, not one a column. */
  char line[64 * 32];
  size_t k = 0;
  for (int i = 0; i < w->ncol; i++) {
    if (k + LK_FORMAT_DOUBLE_MAX + 2 > sizeof line) {
      line[k] = '\0';
      lk_outfile_puts(&w->out, line);
      k = 0;
    }
    if (i) line[k++] = ',';
    char num[LK_FORMAT_DOUBLE_MAX];
    size_t n = strlen(lk_format_double(w->row[i], num));
    memcpy(line + k, num, n);
    k += n;
  }
  line[k++] = '\n';
  line[k] = '\0';
  lk_outfile_puts(&w->out, line);
  if (w->out.failed) {
    char eb[128];
    return lk_error_set(err, LK_IO_ERROR, "writing the trajectory failed: %s",
                        lk_io_strerror(w->out.err_no, eb, sizeof eb));
  }
  w->rows++;
  return LK_OK;
}

long lk_trajectory_writer_rows(const lk_trajectory_writer *w) { return w ? w->rows : 0; }

lk_status lk_trajectory_writer_close(lk_trajectory_writer *w, lk_error *err) {
  if (!w) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL writer");
  lk_status st = lk_outfile_commit(&w->out, err);
  lk_free(w->row);
  lk_free(w);
  return st;
}

void lk_trajectory_writer_discard(lk_trajectory_writer *w) {
  if (!w) return;
  lk_outfile_discard(&w->out);
  lk_free(w->row);
  lk_free(w);
}

/* ------------------------------------------------------------ contacts */

static const char kContactHeader[] =
    "t,link,other,x,y,z,nx,ny,nz,fn,ft,slip,state,utilization,depth,geom,other_geom";

const char *lk_contact_csv_header(void) { return kContactHeader; }

struct lk_contact_writer {
  lk_outfile out;
  long rows;
};

static lk_contact_writer *contact_new(const char *path, FILE *f, lk_error *err) {
  lk_contact_writer *w = lk_calloc(1, sizeof *w);
  if (!w) {
    lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
    return NULL;
  }
  if (f) {
    lk_outfile_stream(&w->out, f);
  } else if (lk_outfile_open(&w->out, path, err)) {
    lk_free(w);
    return NULL;
  }
  lk_outfile_puts(&w->out, kContactHeader);
  lk_outfile_puts(&w->out, "\n");
  return w;
}

lk_contact_writer *lk_contact_writer_open(const char *path, lk_error *err) {
  return contact_new(path, NULL, err);
}

lk_contact_writer *lk_contact_writer_stream(FILE *f, lk_error *err) {
  if (!f) {
    lk_error_set(err, LK_INVALID_ARGUMENT, "NULL stream");
    return NULL;
  }
  return contact_new(NULL, f, err);
}

lk_status lk_contact_writer_add(lk_contact_writer *w, const lk_contact_row *r, lk_error *err) {
  if (!w || !r) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL writer or row");
  char b[12][LK_FORMAT_DOUBLE_MAX];
  lk_outfile_printf(&w->out, "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n",
                    lk_format_double(r->t, b[0]), r->link ? r->link : "",
                    r->other ? r->other : "world", lk_format_double(r->position.x, b[1]),
                    lk_format_double(r->position.y, b[2]), lk_format_double(r->position.z, b[3]),
                    lk_format_double(r->normal.x, b[4]), lk_format_double(r->normal.y, b[5]),
                    lk_format_double(r->normal.z, b[6]), lk_format_double(r->fn, b[7]),
                    lk_format_double(r->ft, b[8]), lk_format_double(r->slip, b[9]),
                    r->state ? r->state : "", lk_format_double(r->utilization, b[10]),
                    lk_format_double(r->depth, b[11]), r->geom ? r->geom : "",
                    r->other_geom ? r->other_geom : "");
  if (w->out.failed) {
    char eb[128];
    return lk_error_set(err, LK_IO_ERROR, "writing the contacts failed: %s",
                        lk_io_strerror(w->out.err_no, eb, sizeof eb));
  }
  w->rows++;
  return LK_OK;
}

long lk_contact_writer_rows(const lk_contact_writer *w) { return w ? w->rows : 0; }

lk_status lk_contact_writer_close(lk_contact_writer *w, lk_error *err) {
  if (!w) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL writer");
  lk_status st = lk_outfile_commit(&w->out, err);
  lk_free(w);
  return st;
}

void lk_contact_writer_discard(lk_contact_writer *w) {
  if (!w) return;
  lk_outfile_discard(&w->out);
  lk_free(w);
}

lk_status lk_contact_row_of(const lk_model *m, const lk_data *d, int i, lk_contact_row *r) {
  const lk_contact_report *c = lk_data_contact_report(d, i);
  if (!c || !r || lk_data_model(d) != m) return LK_INVALID_ARGUMENT;
  memset(r, 0, sizeof *r);
  r->t = lk_data_time(d);
  r->link = lk_model_link_name(m, c->link);
  r->other = lk_model_link_name(m, c->other);
  r->position = c->position;
  r->normal = c->normal;
  r->fn = c->fn;
  r->ft = lk_v3_norm(c->ft);
  r->slip = c->slip_speed;
  int dynamic = c->state == LK_FRICTION_DYNAMIC;
  r->state = c->fn > 0 ? (dynamic ? "dynamic" : "static") : "open";
  r->utilization = c->utilization;
  r->depth = c->depth;
  r->geom = c->geom >= 0 ? lk_model_geom_label(m, c->geom, r->geom_buf, sizeof r->geom_buf) : NULL;
  r->other_geom = c->other_geom >= 0 ? lk_model_geom_label(m, c->other_geom, r->other_geom_buf,
                                                           sizeof r->other_geom_buf)
                                     : NULL;
  return LK_OK;
}

lk_status lk_contact_writer_add_data(lk_contact_writer *w, const lk_model *m, const lk_data *d,
                                     double *max_depth, lk_error *err) {
  if (!w || !m || !d) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL writer, model or data");
  int n = lk_data_ncontacts(d);
  for (int i = 0; i < n; i++) {
    lk_contact_row r;
    lk_status st = lk_contact_row_of(m, d, i, &r);
    if (st) return lk_error_set(err, st, "contact %d of the data cannot be read", i);
    if ((st = lk_contact_writer_add(w, &r, err))) return st;
    double depth = lk_data_contact_report(d, i)->depth;
    if (max_depth && depth > *max_depth) *max_depth = depth;
  }
  return LK_OK;
}
