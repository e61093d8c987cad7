/* Problems read from files: ownership, file reading, format dispatch. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "lcp/lcp_internal.h"

lk_lcp_problem *lk_lcp_problem_alloc(int n) {
  lk_lcp_problem *p = lk_calloc(1, sizeof *p);
  if (!p) return NULL;
  p->M = LK_NEW_ARRAY(double, (size_t)n * (size_t)n);
  p->q = LK_NEW_ARRAY(double, n);
  if (!p->M || !p->q) {
    lk_lcp_problem_free(p);
    return NULL;
  }
  p->lcp.n = n;
  p->lcp.ldm = n;
  p->lcp.M = p->M;
  p->lcp.q = p->q;
  return p;
}

void lk_lcp_problem_free(lk_lcp_problem *p) {
  if (!p) return;
  lk_free(p->M);
  lk_free(p->q);
  lk_free(p->lo);
  lk_free(p->hi);
  lk_free(p->mu);
  lk_free(p->findex);
  lk_free(p->cone);
  lk_free(p->rowp);
  lk_free(p->col);
  lk_free(p->val);
  lk_free(p->name);
  lk_free(p);
}

const lk_lcp *lk_lcp_problem_lcp(const lk_lcp_problem *p) { return p ? &p->lcp : NULL; }

const char *lk_lcp_problem_name(const lk_lcp_problem *p) {
  return p && p->name ? p->name : "";
}

int lk_lcp_problem_contacts(const lk_lcp_problem *p, int *dim) {
  if (dim) *dim = p ? p->dim : 0;
  return p ? p->contacts : 0;
}

lk_status lk_lcp_read_file(const char *path, char **text, size_t *len, lk_error *err) {
  *text = NULL;
  *len = 0;
  if (!path) return lk_error_set(err, LK_INVALID_ARGUMENT, "no file name given");
  FILE *f = fopen(path, "rb");
  if (!f) return lk_error_set_at(err, LK_IO_ERROR, path, 0, 0, "cannot open: %s", strerror(errno));
  /* What the file is, before reading it: a directory or a device (which
   * may never end: /dev/zero) is no problem file; a regular file's size
   * is known. Pipes are read up to the limit. */
  struct stat sb;
  if (fstat(fileno(f), &sb) == 0) {
    const char *what = S_ISDIR(sb.st_mode)                         ? "a directory"
                       : S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? "a device"
                                                                    : NULL;
    if (what) {
      fclose(f);
      return lk_error_set_at(err, LK_IO_ERROR, path, 0, 0, "is %s, not a problem file", what);
    }
    if (S_ISREG(sb.st_mode) && (unsigned long long)sb.st_size > LK_LCP_FILE_MAX_BYTES) {
      fclose(f);
      return lk_error_set_at(err, LK_IO_ERROR, path, 0, 0,
                             "has %lld bytes, larger than the limit of %zu bytes for a problem file",
                             (long long)sb.st_size, (size_t)LK_LCP_FILE_MAX_BYTES);
    }
  }
  size_t cap = 4096, n = 0;
  char *buf = lk_malloc(cap);
  if (!buf) {
    fclose(f);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory reading %s", path);
  }
  /* Read in chunks (pipes and devices have no size), never past the
   * limit: /dev/zero stops here. */
  for (;;) {
    if (n > LK_LCP_FILE_MAX_BYTES) {
      lk_free(buf);
      fclose(f);
      return lk_error_set_at(err, LK_IO_ERROR, path, 0, 0,
                             "larger than the limit of %zu bytes for a problem file",
                             (size_t)LK_LCP_FILE_MAX_BYTES);
    }
    if (n + 1 >= cap) {
      char *nb = lk_realloc(buf, cap * 2);
      if (!nb) {
        lk_free(buf);
        fclose(f);
        return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory reading %s", path);
      }
      buf = nb;
      cap *= 2;
    }
    size_t want = cap - 1 - n;
    if (want > LK_LCP_FILE_MAX_BYTES + 1 - n) want = LK_LCP_FILE_MAX_BYTES + 1 - n;
    size_t got = fread(buf + n, 1, want, f);
    n += got;
    if (got == 0) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    lk_free(buf);
    return lk_error_set_at(err, LK_IO_ERROR, path, 0, 0, "read error");
  }
  buf[n] = '\0';
  *text = buf;
  *len = n;
  return LK_OK;
}

static int ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

lk_status lk_lcp_problem_load(const char *path, lk_lcp_problem **out, lk_error *err) {
  if (path && ends_with(path, ".dat")) return lk_lcp_problem_load_siconos(path, out, err);
  return lk_lcp_problem_load_yaml(path, out, err);
}

lk_status lk_lcp_problem_load_yaml(const char *path, lk_lcp_problem **out, lk_error *err) {
  if (out) *out = NULL;
  char *text;
  size_t len;
  lk_status s = lk_lcp_read_file(path, &text, &len, err);
  if (s != LK_OK) return s;
  s = lk_lcp_problem_parse_yaml(text, len, path, out, err);
  lk_free(text);
  return s;
}

lk_status lk_lcp_problem_load_siconos(const char *path, lk_lcp_problem **out, lk_error *err) {
  if (out) *out = NULL;
  char *text;
  size_t len;
  lk_status s = lk_lcp_read_file(path, &text, &len, err);
  if (s != LK_OK) return s;
  s = lk_lcp_problem_parse_siconos(text, len, path, out, err);
  lk_free(text);
  return s;
}
