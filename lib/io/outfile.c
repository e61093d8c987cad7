/* Single output files (a set of one, outputs.c), the C locale, strerror. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "io/io_internal.h"
#include "linkage/io.h"

static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;
static locale_t c_locale;

static void make_c_locale(void) { c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0); }

locale_t lk_io_c_locale(void) {
  pthread_once(&c_locale_once, make_c_locale);
  return c_locale;
}

const char *lk_io_strerror(int errnum, char *buf, size_t size) {
  /* The GNU strerror_r (we build with _GNU_SOURCE) returns its message. */
  const char *s = strerror_r(errnum, buf, size);
  return s ? s : "unknown error";
}

lk_status lk_outfile_open(lk_outfile *o, const char *path, lk_error *err) {
  memset(o, 0, sizeof *o);
  /* A set of one: devices, "-", links and modes as lk_outputs treats them. */
  o->set = lk_outputs_new();
  if (!o->set) return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  lk_error local;
  lk_error *e = err ? err : &local;
  lk_status st = lk_outputs_add(o->set, path, e) < 0 ? e->status : lk_outputs_open(o->set, e);
  if (st) {
    lk_outputs_free(o->set);
    o->set = NULL;
    return st;
  }
  o->f = lk_outputs_file(o->set, 0);
  return LK_OK;
}

void lk_outfile_stream(lk_outfile *o, FILE *f) {
  memset(o, 0, sizeof *o);
  o->f = f;
}

void lk_outfile_printf(lk_outfile *o, const char *fmt, ...) {
  if (o->failed || !o->f) return;
  locale_t c = lk_io_c_locale();
  locale_t old = c ? uselocale(c) : (locale_t)0;
  va_list ap;
  va_start(ap, fmt);
  int r = vfprintf(o->f, fmt, ap);
  va_end(ap);
  if (c) uselocale(old);
  if (r < 0) {
    o->failed = 1;
    o->err_no = errno;
  }
}

void lk_outfile_puts(lk_outfile *o, const char *s) {
  if (o->failed || !o->f) return;
  if (fputs(s, o->f) < 0) {
    o->failed = 1;
    o->err_no = errno;
  }
}

lk_status lk_outfile_commit(lk_outfile *o, lk_error *err) {
  char eb[128];
  if (!o->set) { /* a stream */
    int bad = o->failed || fflush(o->f) != 0;
    int e = o->failed ? o->err_no : errno;
    memset(o, 0, sizeof *o);
    if (bad)
      return lk_error_set(err, LK_IO_ERROR, "writing the output failed: %s",
                          lk_io_strerror(e, eb, sizeof eb));
    return LK_OK;
  }
  /* The set kept the first write error's errno; it reports it. */
  lk_status st = lk_outputs_commit(o->set, err);
  lk_outputs_free(o->set);
  memset(o, 0, sizeof *o);
  return st;
}

void lk_outfile_discard(lk_outfile *o) {
  if (!o) return;
  lk_outputs_free(o->set);
  memset(o, 0, sizeof *o);
}
