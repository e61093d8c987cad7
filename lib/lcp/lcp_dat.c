/* Siconos numerics' text formats (read to learn their layout from
 * numerics/src/tools/NumericsMatrix.c, SparseBlockMatrix.c,
 * CSparseMatrix.c, LCP/LinearComplementarityProblem.c and
 * FrictionContact/FrictionContactProblem.c; no code taken):
 *
 *   LCP          n, then M as a NumericsMatrix, then q (n numbers)
 *   friction     d (2 or 3), nc, then W as a NumericsMatrix (d nc rows),
 *   contact      q (d nc), mu (nc): contact i is rows d i (normal), then
 *                its d - 1 tangents
 *
 * A NumericsMatrix is its storage type, then its sizes (rows, columns):
 *   0 dense         the sizes once more, then the entries column by column
 *   1 sparse block  number of blocks; block rows, block columns; the
 *                   cumulative sizes of the block rows, then of the block
 *                   columns; the number of row offsets (block rows + 1) and
 *                   of blocks; the row offsets; each block's block column;
 *                   then block by block (row by row) its number and its
 *                   entries column by column
 *   2 sparse        the form (1 triplet, 2 compressed columns, 3
 *                   compressed rows), a CSparse banner line, a size line
 *                   "m-by-n, nzmax: Z nnz: N ..." ("triplet: ..." for
 *                   triplets), then the entries: "col j : locations a to
 *                   b" followed by "i : x" lines, or "i j : x" triplets
 *                   (duplicates add up)
 * Anything after the last number is free-text remarks. Sparse storage
 * gives compressed rows (lk_lcp_csr); dense stays dense.
 *
 * Limits: the text itself (LK_LCP_FILE_MAX_BYTES when read from a file);
 * every number of a matrix takes at least two bytes of it, so n^2 (dense)
 * and the entries (sparse) are bounded by its length before anything is
 * allocated, and so is n, which q spells out. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/number.h"
#include "lcp/lcp_internal.h"

typedef struct {
  const char *s, *end, *path;
  int line, col;
  const char *tok; /* current token */
  size_t toklen;
  int tline, tcol;
  size_t len;
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

/* The rest of the current line, skipped. */
static void skip_line(scanner *sc) {
  while (sc->s < sc->end && *sc->s && *sc->s != '\n') {
    sc->s++;
    sc->col++;
  }
}

static lk_status at_token(scanner *sc, lk_status s, const char *fmt, const char *a,
                          const char *b, lk_error *err) {
  return lk_error_set_at(err, s, sc->path, sc->tline, sc->tcol, fmt, a, b);
}

static lk_status token_text(scanner *sc, const char *what, char *buf, size_t size,
                            lk_error *err) {
  if (!next_token(sc))
    return lk_error_set_at(err, LK_PARSE_ERROR, sc->path, sc->line, sc->col,
                           "unexpected end of file: expected %s", what);
  if (sc->toklen >= size)
    return at_token(sc, LK_PARSE_ERROR, "expected %s, found an overlong token%s", what, "", err);
  memcpy(buf, sc->tok, sc->toklen);
  buf[sc->toklen] = '\0';
  return LK_OK;
}

/* Numbers by the one reader of every format (core/number.h). */
static lk_status read_number(scanner *sc, const char *what, double *out, lk_error *err) {
  if (!next_token(sc))
    return lk_error_set_at(err, LK_PARSE_ERROR, sc->path, sc->line, sc->col,
                           "unexpected end of file: expected %s", what);
  lk_number_result r = lk_number_parse(sc->tok, sc->toklen, out);
  if (r == LK_NUMBER_OK) return LK_OK;
  int n = sc->toklen < 60 ? (int)sc->toklen : 60;
  if (r == LK_NUMBER_SYNTAX)
    return lk_error_set_at(err, LK_PARSE_ERROR, sc->path, sc->tline, sc->tcol,
                           "expected %s, found '%.*s'", what, n, sc->tok);
  return lk_error_set_at(err, LK_SCHEMA_ERROR, sc->path, sc->tline, sc->tcol, "%s '%.*s' %s", what,
                         n, sc->tok, lk_number_why(r));
}

static lk_status read_int(scanner *sc, const char *what, int *out, lk_error *err) {
  double v;
  lk_status s = read_number(sc, what, &v, err);
  if (s != LK_OK) return s;
  if (v != floor(v) || v < 0 || v > 1e9) {
    char num[64];
    snprintf(num, sizeof num, "%g", v);
    return at_token(sc, LK_SCHEMA_ERROR, "%s must be a nonnegative integer, found %s", what, num,
                    err);
  }
  *out = (int)v;
  return LK_OK;
}

/* An integer followed by a punctuation the CSparse text puts after it
 * ("3," or "7:"), or a word ("to"). */
static lk_status expect_word(scanner *sc, const char *word, lk_error *err) {
  char buf[64];
  lk_status s = token_text(sc, word, buf, sizeof buf, err);
  if (s != LK_OK) return s;
  if (strcmp(buf, word) != 0)
    return at_token(sc, LK_PARSE_ERROR, "expected '%s', found '%s'", word, buf, err);
  return LK_OK;
}

/* An integer token with an optional trailing ',' or ':'. */
static lk_status read_int_punct(scanner *sc, const char *what, long long *out, lk_error *err) {
  char buf[64];
  lk_status s = token_text(sc, what, buf, sizeof buf, err);
  if (s != LK_OK) return s;
  size_t l = strlen(buf);
  if (l > 1 && (buf[l - 1] == ',' || buf[l - 1] == ':')) buf[l - 1] = '\0';
  char *e;
  long long v = strtoll(buf, &e, 10);
  if (e == buf || *e != '\0' || v < 0 || v > 2000000000LL)
    return at_token(sc, LK_PARSE_ERROR, "expected %s, found '%s'", what, buf, err);
  *out = v;
  return LK_OK;
}

/* A matrix as read: dense (column-major entries in d) or compressed rows. */
typedef struct {
  int n;
  double *dense;  /* n x n row-major */
  int *rowp, *col;
  double *val;
} matrix;

static void matrix_free(matrix *m) {
  lk_free(m->dense);
  lk_free(m->rowp);
  lk_free(m->col);
  lk_free(m->val);
  memset(m, 0, sizeof *m);
}

static lk_status oom(lk_error *err) { return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory"); }

/* More numbers than the text can hold (two bytes each at least). */
static int too_many(const scanner *sc, size_t count) { return count > sc->len / 2 + 1; }

static lk_status read_dense(scanner *sc, int n, matrix *m, lk_error *err) {
  int sz[2];
  lk_status s;
  for (int k = 0; k < 2; k++) {
    if ((s = read_int(sc, "a size of M", &sz[k], err)) != LK_OK) return s;
    if (sz[k] != n) {
      char a[32], b[32];
      snprintf(a, sizeof a, "%d", sz[k]);
      snprintf(b, sizeof b, "%d", n);
      return at_token(sc, LK_SCHEMA_ERROR, "a size of M is %s but M must be %s x that", a, b, err);
    }
  }
  if (too_many(sc, (size_t)n * (size_t)n))
    return at_token(sc, LK_SCHEMA_ERROR, "the file is too short for a dense %s x %s M", "n", "n",
                    err);
  if (!(m->dense = LK_NEW_ARRAY(double, (size_t)n * (size_t)n))) return oom(err);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++)
      if ((s = read_number(sc, "an entry of M", &m->dense[(size_t)i * (size_t)n + (size_t)j],
                           err)) != LK_OK)
        return s;
  return LK_OK;
}

/* Row r's entries, sorted by column, duplicates summed; counts[r] of them
 * at rowp[r] on entry; rowp[r+1] - rowp[r] after. Insertion sort: rows of
 * contact problems are short. Returns the new count. */
static int sort_row(int *col, double *val, int cnt) {
  for (int a = 1; a < cnt; a++) {
    int c = col[a];
    double v = val[a];
    int b = a - 1;
    while (b >= 0 && col[b] > c) {
      col[b + 1] = col[b];
      val[b + 1] = val[b];
      b--;
    }
    col[b + 1] = c;
    val[b + 1] = v;
  }
  int k = 0;
  for (int a = 0; a < cnt; a++) {
    if (k > 0 && col[k - 1] == col[a]) {
      val[k - 1] += val[a];
    } else {
      col[k] = col[a];
      val[k] = val[a];
      k++;
    }
  }
  return k;
}

/* Triplets (ti, tj, tx) of an n x n matrix into compressed rows, sorted
 * and summed. Takes ownership of nothing. */
static lk_status triplets_to_csr(int n, long long nt, const int *ti, const int *tj,
                                 const double *tx, matrix *m, lk_error *err) {
  m->rowp = LK_NEW_ARRAY(int, (size_t)n + 1);
  m->col = LK_NEW_ARRAY(int, (size_t)nt);
  m->val = LK_NEW_ARRAY(double, (size_t)nt);
  int *fill = LK_NEW_ARRAY(int, (size_t)n + 1);
  if (!m->rowp || !m->col || !m->val || !fill) {
    lk_free(fill);
    return oom(err);
  }
  for (long long k = 0; k < nt; k++) m->rowp[ti[k] + 1]++;
  for (int i = 0; i < n; i++) m->rowp[i + 1] += m->rowp[i];
  for (int i = 0; i <= n; i++) fill[i] = m->rowp[i];
  for (long long k = 0; k < nt; k++) {
    int at = fill[ti[k]]++;
    m->col[at] = tj[k];
    m->val[at] = tx[k];
  }
  /* sort and compact each row in place */
  int out = 0;
  for (int i = 0; i < n; i++) {
    int b = m->rowp[i], e = m->rowp[i + 1];
    int cnt = sort_row(m->col + b, m->val + b, e - b);
    memmove(m->col + out, m->col + b, (size_t)cnt * sizeof *m->col);
    memmove(m->val + out, m->val + b, (size_t)cnt * sizeof *m->val);
    m->rowp[i] = out;
    out += cnt;
  }
  m->rowp[n] = out;
  lk_free(fill);
  return LK_OK;
}

/* Storage 1: SparseBlockStructuredMatrix. */
static lk_status read_sbm(scanner *sc, int n, matrix *m, lk_error *err) {
  lk_status s;
  int nblocks, nbr, nbc;
  if ((s = read_int(sc, "the number of blocks", &nblocks, err)) != LK_OK) return s;
  if (nblocks == 0) { /* a zero matrix */
    if (!(m->rowp = LK_NEW_ARRAY(int, (size_t)n + 1)) || !(m->col = LK_NEW_ARRAY(int, 1)) ||
        !(m->val = LK_NEW_ARRAY(double, 1)))
      return oom(err);
    return LK_OK;
  }
  if ((s = read_int(sc, "the number of block rows", &nbr, err)) != LK_OK) return s;
  if ((s = read_int(sc, "the number of block columns", &nbc, err)) != LK_OK) return s;
  if (nbr < 1 || nbc < 1 || nbr > n || nbc > n || too_many(sc, (size_t)nbr + (size_t)nbc) ||
      too_many(sc, (size_t)nblocks))
    return at_token(sc, LK_SCHEMA_ERROR, "block counts%s%s do not fit the matrix or the file", "",
                    "", err);
  int *rs = LK_NEW_ARRAY(int, (size_t)nbr + 1), *cs = LK_NEW_ARRAY(int, (size_t)nbc + 1);
  int *rptr = LK_NEW_ARRAY(int, (size_t)nbr + 1), *bcol = LK_NEW_ARRAY(int, (size_t)nblocks);
  int *ti = NULL, *tj = NULL;
  double *tx = NULL;
  s = (!rs || !cs || !rptr || !bcol) ? oom(err) : LK_OK;
  /* cumulative sizes: rs[k+1] is the end of block row k */
  for (int k = 0; k < nbr && s == LK_OK; k++) {
    s = read_int(sc, "a block row size", &rs[k + 1], err);
    if (s == LK_OK && rs[k + 1] <= rs[k])
      s = at_token(sc, LK_SCHEMA_ERROR, "block row ends must increase%s%s", "", "", err);
  }
  if (s == LK_OK && rs[nbr] != n)
    s = at_token(sc, LK_SCHEMA_ERROR, "the block rows do not add up to the size of M%s%s", "", "",
                 err);
  for (int k = 0; k < nbc && s == LK_OK; k++) {
    s = read_int(sc, "a block column size", &cs[k + 1], err);
    if (s == LK_OK && cs[k + 1] <= cs[k])
      s = at_token(sc, LK_SCHEMA_ERROR, "block column ends must increase%s%s", "", "", err);
  }
  if (s == LK_OK && cs[nbc] != n)
    s = at_token(sc, LK_SCHEMA_ERROR, "the block columns do not add up to the size of M%s%s", "",
                 "", err);
  int f1 = 0, f2 = 0;
  if (s == LK_OK) s = read_int(sc, "the number of row offsets", &f1, err);
  if (s == LK_OK && f1 != nbr + 1)
    s = at_token(sc, LK_SCHEMA_ERROR, "the number of row offsets must be the block rows + 1%s%s",
                 "", "", err);
  if (s == LK_OK) s = read_int(sc, "the number of blocks", &f2, err);
  if (s == LK_OK && f2 != nblocks)
    s = at_token(sc, LK_SCHEMA_ERROR, "the number of blocks differs from the first count%s%s", "",
                 "", err);
  for (int k = 0; k <= nbr && s == LK_OK; k++) {
    s = read_int(sc, "a row offset", &rptr[k], err);
    if (s == LK_OK && ((k == 0 && rptr[0] != 0) || (k > 0 && rptr[k] < rptr[k - 1]) ||
                       rptr[k] > nblocks || (k == nbr && rptr[k] != nblocks)))
      s = at_token(sc, LK_SCHEMA_ERROR, "row offsets must run from 0 to the number of blocks%s%s",
                   "", "", err);
  }
  for (int k = 0; k < nblocks && s == LK_OK; k++) {
    s = read_int(sc, "a block column index", &bcol[k], err);
    if (s == LK_OK && bcol[k] >= nbc)
      s = at_token(sc, LK_SCHEMA_ERROR, "block column index beyond the block columns%s%s", "", "",
                   err);
  }
  /* entries, as triplets (their count bounded by the text) */
  long long nt = 0;
  for (int r = 0; r < nbr && s == LK_OK; r++)
    for (int k = rptr[r]; k < rptr[r + 1]; k++)
      nt += (long long)(rs[r + 1] - rs[r]) * (cs[bcol[k] + 1] - cs[bcol[k]]);
  if (s == LK_OK && (nt > 2000000000LL || too_many(sc, (size_t)nt)))
    s = at_token(sc, LK_SCHEMA_ERROR, "the blocks hold more entries than the file%s%s", "", "",
                 err);
  if (s == LK_OK) {
    ti = LK_NEW_ARRAY(int, (size_t)nt);
    tj = LK_NEW_ARRAY(int, (size_t)nt);
    tx = LK_NEW_ARRAY(double, (size_t)nt);
    if (!ti || !tj || !tx) s = oom(err);
  }
  long long t = 0;
  for (int r = 0; r < nbr && s == LK_OK; r++)
    for (int k = rptr[r]; k < rptr[r + 1] && s == LK_OK; k++) {
      int num;
      if ((s = read_int(sc, "a block number", &num, err)) != LK_OK) break;
      if (num != k) {
        char a[32], b[32];
        snprintf(a, sizeof a, "%d", num);
        snprintf(b, sizeof b, "%d", k);
        s = at_token(sc, LK_SCHEMA_ERROR, "block number %s where block %s was expected", a, b, err);
        break;
      }
      int r0 = rs[r], c0 = cs[bcol[k]], nr = rs[r + 1] - r0, ncl = cs[bcol[k] + 1] - c0;
      for (int jj = 0; jj < ncl && s == LK_OK; jj++) /* column by column */
        for (int ii = 0; ii < nr && s == LK_OK; ii++) {
          s = read_number(sc, "an entry of a block", &tx[t], err);
          ti[t] = r0 + ii;
          tj[t] = c0 + jj;
          t++;
        }
    }
  if (s == LK_OK) s = triplets_to_csr(n, nt, ti, tj, tx, m, err);
  lk_free(rs);
  lk_free(cs);
  lk_free(rptr);
  lk_free(bcol);
  lk_free(ti);
  lk_free(tj);
  lk_free(tx);
  return s;
}

/* Storage 2: NumericsSparseMatrix in CSparse's text. */
static lk_status read_nsm(scanner *sc, int n, matrix *m, lk_error *err) {
  int origin;
  lk_status s = read_int(sc, "the sparse form (1 triplet, 2 columns, 3 rows)", &origin, err);
  if (s != LK_OK) return s;
  if (origin < 1 || origin > 3)
    return at_token(sc, LK_SCHEMA_ERROR, "sparse form %s: only 1 (triplet), 2 (compressed columns) "
                    "or 3 (compressed rows)%s", sc->tok[0] == '4' ? "4 (half triplet)" : "unknown",
                    "", err);
  /* the CSparse banner: a line of its own */
  skip_line(sc);
  if (!next_token(sc) || sc->toklen != 7 || strncmp(sc->tok, "CSparse", 7) != 0)
    return lk_error_set_at(err, LK_PARSE_ERROR, sc->path, sc->tline, sc->tcol,
                           "expected CSparse's banner line");
  skip_line(sc);
  char buf[64];
  if ((s = token_text(sc, "the size line", buf, sizeof buf, err)) != LK_OK) return s;
  int triplet = strcmp(buf, "triplet:") == 0;
  if (triplet != (origin == 1))
    return at_token(sc, LK_SCHEMA_ERROR, "the sparse form%s does not match the size line%s", "", "",
                    err);
  if (triplet && (s = token_text(sc, "m-by-n", buf, sizeof buf, err)) != LK_OK) return s;
  int rows, cols;
  char tail;
  if (sscanf(buf, "%d-by-%d%c", &rows, &cols, &tail) != 3 || tail != ',' || rows != n || cols != n)
    return at_token(sc, LK_SCHEMA_ERROR, "size '%s' is not n-by-n for this problem%s", buf, "", err);
  long long nzmax, nnz;
  if ((s = expect_word(sc, "nzmax:", err)) != LK_OK) return s;
  if ((s = read_int_punct(sc, "nzmax", &nzmax, err)) != LK_OK) return s;
  if ((s = expect_word(sc, "nnz:", err)) != LK_OK) return s;
  if ((s = read_int_punct(sc, "the number of entries", &nnz, err)) != LK_OK) return s;
  if (!triplet) skip_line(sc); /* ", 1-norm: x" */
  if (too_many(sc, (size_t)nnz))
    return at_token(sc, LK_SCHEMA_ERROR, "more entries%s than the file holds%s", "", "", err);
  int *ti = LK_NEW_ARRAY(int, (size_t)nnz), *tj = LK_NEW_ARRAY(int, (size_t)nnz);
  double *tx = LK_NEW_ARRAY(double, (size_t)nnz);
  if (!ti || !tj || !tx) s = oom(err);
  long long t = 0;
  if (triplet) {
    for (; t < nnz && s == LK_OK; t++) {
      long long i, j;
      if ((s = read_int_punct(sc, "a row index", &i, err)) != LK_OK) break;
      if ((s = read_int_punct(sc, "a column index", &j, err)) != LK_OK) break;
      if ((s = expect_word(sc, ":", err)) != LK_OK) break;
      if ((s = read_number(sc, "an entry", &tx[t], err)) != LK_OK) break;
      if (i >= n || j >= n) {
        s = at_token(sc, LK_SCHEMA_ERROR, "an index is outside the matrix%s%s", "", "", err);
        break;
      }
      ti[t] = (int)i;
      tj[t] = (int)j;
    }
  } else {
    for (int j = 0; j < n && s == LK_OK; j++) {
      long long jj, a, b;
      if ((s = expect_word(sc, "col", err)) != LK_OK) break;
      if ((s = read_int_punct(sc, "a column number", &jj, err)) != LK_OK) break;
      if (jj != j) {
        s = at_token(sc, LK_SCHEMA_ERROR, "columns must come in order%s%s", "", "", err);
        break;
      }
      if ((s = expect_word(sc, ":", err)) != LK_OK) break;
      if ((s = expect_word(sc, "locations", err)) != LK_OK) break;
      if ((s = read_int_punct(sc, "a location", &a, err)) != LK_OK) break;
      if ((s = expect_word(sc, "to", err)) != LK_OK) break;
      /* "to -1" for an empty first column */
      char lb[32];
      if ((s = token_text(sc, "a location", lb, sizeof lb, err)) != LK_OK) break;
      b = strtoll(lb, NULL, 10);
      /* b may be strtoll's LLONG_MAX: compare without b + 1 (fuzzing) */
      if (a != t || b < a - 1 || b >= nnz) {
        s = at_token(sc, LK_SCHEMA_ERROR, "locations out of order or beyond nnz%s%s", "", "", err);
        break;
      }
      for (; t <= b && s == LK_OK; t++) {
        long long i;
        if ((s = read_int_punct(sc, "a row index", &i, err)) != LK_OK) break;
        if (!(sc->tok[sc->toklen - 1] == ':') && (s = expect_word(sc, ":", err)) != LK_OK) break;
        if ((s = read_number(sc, "an entry", &tx[t], err)) != LK_OK) break;
        if (i >= n) {
          s = at_token(sc, LK_SCHEMA_ERROR, "a row index is outside the matrix%s%s", "", "", err);
          break;
        }
        /* compressed rows print rows as "col" */
        ti[t] = origin == 3 ? j : (int)i;
        tj[t] = origin == 3 ? (int)i : j;
      }
    }
    if (s == LK_OK && t != nnz)
      s = at_token(sc, LK_SCHEMA_ERROR, "fewer entries than nnz%s%s", "", "", err);
  }
  if (s == LK_OK) s = triplets_to_csr(n, nnz, ti, tj, tx, m, err);
  lk_free(ti);
  lk_free(tj);
  lk_free(tx);
  return s;
}

/* A NumericsMatrix of n x n. */
static lk_status read_matrix(scanner *sc, int n, matrix *m, lk_error *err) {
  int storage, sz[2];
  lk_status s = read_int(sc, "the storage type", &storage, err);
  if (s != LK_OK) return s;
  if (storage > 2) {
    char num[32];
    snprintf(num, sizeof num, "%d", storage);
    return at_token(sc, LK_SCHEMA_ERROR,
                    "storage type %s: only dense (0), sparse block (1) and sparse (2)%s", num, "",
                    err);
  }
  for (int k = 0; k < 2; k++) {
    if ((s = read_int(sc, "a size of M", &sz[k], err)) != LK_OK) return s;
    if (sz[k] != n) {
      char a[32], b[32];
      snprintf(a, sizeof a, "%d", sz[k]);
      snprintf(b, sizeof b, "%d", n);
      return at_token(sc, LK_SCHEMA_ERROR, "a size of M is %s, expected %s (M must be square)", a,
                      b, err);
    }
  }
  m->n = n;
  if (storage == 0) s = read_dense(sc, n, m, err);
  if (storage == 1) s = read_sbm(sc, n, m, err);
  if (storage == 2) s = read_nsm(sc, n, m, err);
  if (s != LK_OK) matrix_free(m);
  return s;
}

/* The header decides: a friction-contact file is d (2, 3), nc, storage,
 * d nc; an LCP is n, storage, n. A file that reads as both (a 2 x 2 LCP in
 * sparse-block storage) is an LCP. */
static int looks_like_fc(const char *text, size_t len) {
  double v[4];
  const char *s = text, *end = text + len;
  for (int k = 0; k < 4; k++) {
    while (s < end && isspace((unsigned char)*s)) s++;
    char buf[64];
    size_t l = 0;
    while (s < end && *s && !isspace((unsigned char)*s) && l < sizeof buf - 1) buf[l++] = *s++;
    buf[l] = '\0';
    char *e;
    v[k] = strtod(buf, &e);
    if (l == 0 || *e) return 0;
  }
  int lcp = (v[1] == 0 || v[1] == 1 || v[1] == 2) && v[2] == v[0];
  int fc = (v[0] == 2 || v[0] == 3) && v[1] >= 1 && (v[2] == 0 || v[2] == 1 || v[2] == 2) &&
           v[3] == v[0] * v[1];
  return fc && !lcp;
}

static lk_status parse(const char *text, size_t len, const char *path, lk_lcp_problem **out,
                       lk_error *err) {
  scanner sc = {text, text + len, path ? path : "<string>", 1, 1, NULL, 0, 1, 1, len};
  int fc = looks_like_fc(text, len), d = 0, nc = 0, n;
  lk_status s;
  if (fc) {
    if ((s = read_int(&sc, "the dimension", &d, err)) != LK_OK) return s;
    if ((s = read_int(&sc, "the number of contacts", &nc, err)) != LK_OK) return s;
    n = d * nc;
  } else {
    if ((s = read_int(&sc, "the size n", &n, err)) != LK_OK) return s;
    if (n < 1)
      return at_token(&sc, LK_SCHEMA_ERROR, "size n = 0: a problem has rows%s%s", "", "", err);
  }
  int nline = sc.tline, ncol = sc.tcol;
  /* q spells out n numbers (mu nc more): the text must hold them */
  if (too_many(&sc, (size_t)n))
    return lk_error_set_at(err, LK_SCHEMA_ERROR, sc.path, nline, ncol,
                           "size n = %d: the file is too short for it", n);
  matrix m;
  memset(&m, 0, sizeof m);
  if ((s = read_matrix(&sc, n, &m, err)) != LK_OK) return s;
  lk_lcp_problem *p = lk_calloc(1, sizeof *p);
  if (!p) {
    matrix_free(&m);
    return oom(err);
  }
  p->M = m.dense;
  p->rowp = m.rowp;
  p->col = m.col;
  p->val = m.val;
  p->q = LK_NEW_ARRAY(double, n);
  if (!p->q) s = oom(err);
  p->lcp.n = n;
  p->lcp.ldm = n;
  p->lcp.M = p->M;
  p->lcp.q = p->q;
  if (p->rowp) {
    p->lcp.csr.row = p->rowp;
    p->lcp.csr.col = p->col;
    p->lcp.csr.val = p->val;
  }
  for (int i = 0; i < n && s == LK_OK; i++) s = read_number(&sc, "an entry of q", &p->q[i], err);
  if (s == LK_OK && fc) {
    p->dim = d;
    p->contacts = nc;
    p->mu = LK_NEW_ARRAY(double, n);
    p->findex = LK_NEW_ARRAY(int, n);
    if (d == 3) p->cone = LK_NEW_ARRAY(int, n);
    if (!p->mu || !p->findex || (d == 3 && !p->cone)) s = oom(err);
    for (int c = 0; c < nc && s == LK_OK; c++) {
      double mu;
      if ((s = read_number(&sc, "a friction coefficient", &mu, err)) != LK_OK) break;
      if (mu < 0) {
        char num[64];
        snprintf(num, sizeof num, "%g", mu);
        char idx[32];
        snprintf(idx, sizeof idx, "%d", c); /* contacts numbered from 0, as the rows are */
        s = at_token(&sc, LK_SCHEMA_ERROR, "friction coefficient %s of contact %s is negative", num,
                     idx, err);
        break;
      }
      for (int k = 0; k < d; k++) {
        int r = d * c + k;
        p->mu[r] = k ? mu : 0.0;
        p->findex[r] = k ? d * c : -1;
        if (d == 3) p->cone[r] = k == 0 ? -1 : (k == 1 ? r + 1 : r - 1);
      }
    }
    p->lcp.mu = p->mu;
    p->lcp.findex = p->findex;
    p->lcp.cone = p->cone;
  }
  if (s != LK_OK) {
    lk_lcp_problem_free(p);
    return s;
  }
  *out = p;
  return LK_OK;
}

lk_status lk_lcp_problem_parse_siconos(const char *text, size_t len, const char *path,
                                       lk_lcp_problem **out, lk_error *err) {
  if (!out) return lk_error_set(err, LK_INVALID_ARGUMENT, "no output pointer");
  *out = NULL;
  if (!text) return lk_error_set(err, LK_INVALID_ARGUMENT, "no text");
  return parse(text, len, path, out, err);
}
