/* Siconos numerics' LCP text format (linearComplementarity_printInFile):
 * n, the storage type (0 = dense), the sizes of M twice, M column by
 * column, q; anything after q is free-text remarks. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lcp/lcp_internal.h"

/* Files larger than this are refused rather than allocated blindly. */
#define DAT_MAX_N 10000

typedef struct {
  const char *s, *end, *path;
  int line, col;
  const char *tok; /* current token */
  size_t toklen;
  int tline, tcol;
} scanner;

/* Next whitespace-separated token; 0 at the end of the text. */
static int next_token(scanner *sc) {
  while (sc->s < sc->end && isspace((unsigned char)*sc->s)) {
    if (*sc->s == '\n') {
      sc->line++;
      sc->col = 1;
    } else {
      sc->col++;
    }
    sc->s++;
  }
  if (sc->s >= sc->end || *sc->s == '\0') return 0;
  sc->tok = sc->s;
  sc->tline = sc->line;
  sc->tcol = sc->col;
  while (sc->s < sc->end && *sc->s && !isspace((unsigned char)*sc->s)) {
    sc->s++;
    sc->col++;
  }
  sc->toklen = (size_t)(sc->s - sc->tok);
  return 1;
}

static lk_status read_number(scanner *sc, const char *what, double *out, lk_error *err) {
  if (!next_token(sc))
    return lk_error_set_at(err, LK_PARSE_ERROR, sc->path, sc->line, sc->col,
                           "unexpected end of file: expected %s", what);
  char buf[128];
  if (sc->toklen >= sizeof buf)
    return lk_error_set_at(err, LK_PARSE_ERROR, sc->path, sc->tline, sc->tcol,
                           "expected %s, found an overlong token", what);
  memcpy(buf, sc->tok, sc->toklen);
  buf[sc->toklen] = '\0';
  char *e;
  double v = strtod(buf, &e);
  if (e == buf || *e != '\0')
    return lk_error_set_at(err, LK_PARSE_ERROR, sc->path, sc->tline, sc->tcol,
                           "expected %s, found '%s'", what, buf);
  if (!isfinite(v))
    return lk_error_set_at(err, LK_SCHEMA_ERROR, sc->path, sc->tline, sc->tcol,
                           "%s is not finite ('%s')", what, buf);
  *out = v;
  return LK_OK;
}

static lk_status read_int(scanner *sc, const char *what, int *out, lk_error *err) {
  double v;
  lk_status s = read_number(sc, what, &v, err);
  if (s != LK_OK) return s;
  if (v != floor(v) || v < 0 || v > 1e9)
    return lk_error_set_at(err, LK_SCHEMA_ERROR, sc->path, sc->tline, sc->tcol,
                           "%s must be a nonnegative integer, found %g", what, v);
  *out = (int)v;
  return LK_OK;
}

lk_status lk_lcp_problem_parse_siconos(const char *text, size_t len, const char *path,
                                       lk_lcp_problem **out, lk_error *err) {
  if (!out) return lk_error_set(err, LK_INVALID_ARGUMENT, "no output pointer");
  *out = NULL;
  if (!text) return lk_error_set(err, LK_INVALID_ARGUMENT, "no text");
  scanner sc = {text, text + len, path ? path : "<string>", 1, 1, NULL, 0, 1, 1};
  int n, storage, sz[4];
  lk_status s = read_int(&sc, "the size n", &n, err);
  if (s != LK_OK) return s;
  int nline = sc.tline, ncol = sc.tcol;
  if (n < 1 || n > DAT_MAX_N)
    return lk_error_set_at(err, LK_SCHEMA_ERROR, sc.path, nline, ncol,
                           "size n = %d is outside 1..%d", n, DAT_MAX_N);
  if ((s = read_int(&sc, "the storage type", &storage, err)) != LK_OK) return s;
  if (storage != 0)
    return lk_error_set_at(err, LK_SCHEMA_ERROR, sc.path, sc.tline, sc.tcol,
                           "storage type %d: only dense (0) is supported", storage);
  for (int k = 0; k < 4; k++) {
    if ((s = read_int(&sc, "a size of M", &sz[k], err)) != LK_OK) return s;
    if (sz[k] != n)
      return lk_error_set_at(err, LK_SCHEMA_ERROR, sc.path, sc.tline, sc.tcol,
                             "a size of M is %d but n = %d (M must be n x n)", sz[k], n);
  }
  /* Each number takes at least two characters with its separator. */
  size_t need = (size_t)n * (size_t)n + (size_t)n;
  if (len < need)
    return lk_error_set_at(err, LK_PARSE_ERROR, sc.path, nline, ncol,
                           "the file is too short for n = %d", n);
  lk_lcp_problem *p = lk_lcp_problem_alloc(n);
  if (!p) return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  for (int j = 0; j < n && s == LK_OK; j++)
    for (int i = 0; i < n && s == LK_OK; i++)
      s = read_number(&sc, "an entry of M", &p->M[(size_t)i * (size_t)n + (size_t)j], err);
  for (int i = 0; i < n && s == LK_OK; i++) s = read_number(&sc, "an entry of q", &p->q[i], err);
  if (s != LK_OK) {
    lk_lcp_problem_free(p);
    return s;
  }
  *out = p;
  return LK_OK;
}
