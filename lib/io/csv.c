/* Trajectory and contact CSV files. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "io/io_internal.h"
#include "linkage/collision.h"
#include "linkage/constraint.h"
#include "linkage/io.h"

/* Columns: t | 3 per link (world excluded) | nq + nv per joint, joint by
 * joint in link order. */
int lk_trajectory_ncolumns(const lk_model *m) {
  if (!lk_model_is_finalized(m)) return 0;
  return 1 + 3 * (lk_model_nlink(m) - 1) + lk_model_nq(m) + lk_model_nv(m);
}

const char *lk_trajectory_column_name(const lk_model *m, int i, char *buf, size_t size) {
  int nc = lk_trajectory_ncolumns(m);
  if (i < 0 || i >= nc || !buf || size == 0) return NULL;
  if (i == 0) {
    snprintf(buf, size, "t");
    return buf;
  }
  int nl = lk_model_nlink(m);
  int c = i - 1;
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

int lk_trajectory_column_index(const lk_model *m, const char *name) {
  if (!name) return -1;
  int nc = lk_trajectory_ncolumns(m);
  char buf[LK_IO_COLUMN_MAX + 8];
  for (int i = 0; i < nc; i++)
    if (lk_trajectory_column_name(m, i, buf, sizeof buf) && strcmp(buf, name) == 0) return i;
  return -1;
}

void lk_trajectory_row(const lk_model *m, const lk_data *d, double *row) {
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
}

/* ------------------------------------------------------------ writers */

struct lk_trajectory_writer {
  lk_outfile out;
  const lk_model *m;
  double *row;
  int ncol;
  long rows;
};

static lk_trajectory_writer *traj_new(const lk_model *m, lk_error *err) {
  if (!lk_model_is_finalized(m)) {
    lk_error_set(err, LK_INVALID_MODEL, "the model is not finalized");
    return NULL;
  }
  lk_trajectory_writer *w = lk_calloc(1, sizeof *w);
  if (w) {
    w->m = m;
    w->ncol = lk_trajectory_ncolumns(m);
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
  char name[LK_IO_COLUMN_MAX + 8];
  for (int i = 0; i < w->ncol; i++) {
    lk_trajectory_column_name(w->m, i, name, sizeof name);
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
  lk_trajectory_writer *w = traj_new(m, err);
  if (!w) return NULL;
  if (lk_outfile_open(&w->out, path, err)) {
    lk_free(w->row);
    lk_free(w);
    return NULL;
  }
  return traj_header(w, err);
}

lk_trajectory_writer *lk_trajectory_writer_stream(FILE *f, const lk_model *m, lk_error *err) {
  if (!f) {
    lk_error_set(err, LK_INVALID_ARGUMENT, "NULL stream");
    return NULL;
  }
  lk_trajectory_writer *w = traj_new(m, err);
  if (!w) return NULL;
  lk_outfile_stream(&w->out, f);
  return traj_header(w, err);
}

lk_status lk_trajectory_writer_add(lk_trajectory_writer *w, const lk_data *d, lk_error *err) {
  if (!w || !d) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL writer or data");
  if (lk_data_model(d) != w->m)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "the data belongs to another model");
  lk_trajectory_row(w->m, d, w->row);
  /* One formatted line per row: a handful of printf calls, not one a
   * column, keeps long runs cheap. */
  char line[64 * 32];
  size_t k = 0;
  locale_t c = lk_io_c_locale();
  locale_t old = c ? uselocale(c) : (locale_t)0;
  for (int i = 0; i < w->ncol; i++) {
    if (k + 40 > sizeof line) {
      line[k] = '\0';
      lk_outfile_puts(&w->out, line);
      k = 0;
    }
    int n = snprintf(line + k, sizeof line - k, "%s%.10g", i ? "," : "", w->row[i]);
    k += n > 0 ? (size_t)n : 0;
  }
  if (c) uselocale(old);
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

static const char kContactHeader[] = "t,link,other,x,y,z,nx,ny,nz,fn,ft,slip,state,utilization";

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
  lk_outfile_printf(&w->out, "%.10g,%s,%s,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%s,%.10g\n",
                    r->t, r->link ? r->link : "", r->other ? r->other : "world", r->position.x,
                    r->position.y, r->position.z, r->normal.x, r->normal.y, r->normal.z, r->fn,
                    r->ft, r->slip, r->state ? r->state : "", r->utilization);
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
