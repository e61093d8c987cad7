/* Atomic output files, the C locale, strerror. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/internal.h"
#include "io/io_internal.h"

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
  if (!path || !*path) return lk_error_set(err, LK_INVALID_ARGUMENT, "empty output path");
  const char *slash = strrchr(path, '/');
  size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
  const char *base = path + dirlen;
  if (!*base)
    return lk_error_set_at(err, LK_IO_ERROR, path, 0, 0, "output path names a directory");
  size_t n = strlen(path) + 16;
  o->tmp = lk_malloc(n);
  o->dest = lk_strdup(path);
  if (!o->tmp || !o->dest) {
    lk_outfile_discard(o);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  }
  /* A hidden sibling, so that the final rename stays within one file
   * system and a crash leaves nothing that looks like the real output. */
  snprintf(o->tmp, n, "%.*s.%s.XXXXXX", (int)dirlen, path, base);
  int fd = mkstemp(o->tmp);
  if (fd < 0) {
    char eb[128];
    int e = errno;
    lk_free(o->tmp);
    o->tmp = NULL;
    lk_outfile_discard(o);
    return lk_error_set_at(err, LK_IO_ERROR, path, 0, 0, "cannot create the output file: %s",
                           lk_io_strerror(e, eb, sizeof eb));
  }
  /* mkstemp makes the file 0600; an output file should get the usual
   * permissions the umask allows, like any file the user creates. */
  mode_t mask = umask(0);
  umask(mask);
  (void)fchmod(fd, 0666 & ~mask);
  o->f = fdopen(fd, "w");
  if (!o->f) {
    close(fd);
    lk_outfile_discard(o);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory opening %s", path);
  }
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
  if (!o->tmp) { /* a stream */
    int bad = o->failed || fflush(o->f) != 0;
    int e = o->failed ? o->err_no : errno;
    memset(o, 0, sizeof *o);
    if (bad)
      return lk_error_set(err, LK_IO_ERROR, "writing the output failed: %s",
                          lk_io_strerror(e, eb, sizeof eb));
    return LK_OK;
  }
  int bad = o->failed;
  int e = o->err_no;
  if (!bad && fflush(o->f) != 0) bad = 1, e = errno;
  /* The data must be on disk before the rename makes it the real file. */
  if (!bad && fsync(fileno(o->f)) != 0 && errno != EINVAL) bad = 1, e = errno;
  if (fclose(o->f) != 0 && !bad) bad = 1, e = errno;
  o->f = NULL;
  if (!bad && rename(o->tmp, o->dest) != 0) bad = 1, e = errno;
  lk_status st = LK_OK;
  if (bad) {
    st = lk_error_set_at(err, LK_IO_ERROR, o->dest, 0, 0, "writing the output failed: %s",
                         lk_io_strerror(e, eb, sizeof eb));
    unlink(o->tmp);
  }
  lk_free(o->tmp);
  lk_free(o->dest);
  memset(o, 0, sizeof *o);
  return st;
}

void lk_outfile_discard(lk_outfile *o) {
  if (!o) return;
  if (o->tmp) {
    if (o->f) fclose(o->f);
    unlink(o->tmp);
  }
  lk_free(o->tmp);
  lk_free(o->dest);
  memset(o, 0, sizeof *o);
}
