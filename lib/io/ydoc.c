/* The YAML document layer: loading with located syntax errors, typed
 * scalars, key checks with did-you-mean. (Overrides are in override.c.) */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/internal.h"
#include "core/number.h"
#include "io/io_internal.h"
#include "io/ydoc.h"
#include "linkage/io.h"

/* ------------------------------------------------------------- reading */

lk_status lk_ydoc_read_file(const char *path, size_t max_bytes, char **text, size_t *len,
                            lk_error *err) {
  char eb[128];
  *text = NULL;
  *len = 0;
  /* "No limit" (SIZE_MAX) must not overflow the buffer arithmetic below. */
  if (max_bytes > ((size_t)-1) / 4) max_bytes = ((size_t)-1) / 4;
  FILE *f = fopen(path, "rb");
  if (!f) {
    int e = errno;
    return lk_error_set_at(err, LK_IO_ERROR, path, 0, 0, "cannot open the file: %s",
                           lk_io_strerror(e, eb, sizeof eb));
  }
  struct stat sb;
  if (fstat(fileno(f), &sb) == 0) {
    if (S_ISDIR(sb.st_mode)) {
      fclose(f);
      return lk_error_set_at(err, LK_IO_ERROR, path, 0, 0, "is a directory, not a file");
    }
    if (S_ISREG(sb.st_mode) && (unsigned long long)sb.st_size > max_bytes) {
      fclose(f);
      return lk_error_set_at(err, LK_IO_ERROR, path, 0, 0,
                             "the file has %lld bytes, more than the %zu this loader accepts",
                             (long long)sb.st_size, max_bytes);
    }
  }
  /* Read in chunks: sizes of pipes and special files are not known. */
  size_t cap = 0, n = 0;
  char *buf = NULL;
  for (;;) {
    if (n + 1 >= cap) {
      size_t nc = cap ? 2 * cap : 65536;
      if (nc > max_bytes + 2) nc = max_bytes + 2;
      char *p = lk_realloc(buf, nc);
      if (!p) {
        lk_free(buf);
        fclose(f);
        return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory reading %s", path);
      }
      buf = p;
      cap = nc;
    }
    size_t got = fread(buf + n, 1, cap - 1 - n, f);
    n += got;
    if (n > max_bytes) {
      lk_free(buf);
      fclose(f);
      return lk_error_set_at(err, LK_IO_ERROR, path, 0, 0,
                             "the file has more than the %zu bytes this loader accepts",
                             max_bytes);
    }
    if (got == 0) break;
  }
  if (ferror(f)) {
    int e = errno;
    lk_free(buf);
    fclose(f);
    return lk_error_set_at(err, LK_IO_ERROR, path, 0, 0, "cannot read the file: %s",
                           lk_io_strerror(e, eb, sizeof eb));
  }
  fclose(f);
  buf[n] = '\0';
  *text = buf;
  *len = n;
  return LK_OK;
}

/* ------------------------------------------------------------- loading */

/* Line and column (1-based) of a byte offset, for reader errors, which
 * libyaml reports by offset only. Columns count characters (UTF-8 lead
 * bytes), as libyaml's marks do. */
static void offset_position(const char *text, size_t len, size_t off, int *line, int *col) {
  int l = 1, c = 1;
  if (off > len) off = len;
  for (size_t i = 0; i < off; i++) {
    unsigned char ch = (unsigned char)text[i];
    if (ch == '\n') {
      l++;
      c = 1;
    } else if ((ch & 0xC0) != 0x80) {
      c++;
    }
  }
  *line = l;
  *col = c;
}

static int mark_int(size_t v) { return v >= (size_t)INT_MAX ? INT_MAX : (int)v + 1; }

static lk_status parser_error(yaml_parser_t *p, const char *text, size_t len, const char *path,
                              lk_error *err) {
  const char *problem = p->problem ? p->problem : "unknown problem";
  int line, col;
  switch (p->error) {
    case YAML_MEMORY_ERROR:
      return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory parsing %s", path);
    case YAML_READER_ERROR:
      offset_position(text, len, p->problem_offset, &line, &col);
      if (p->problem_value != -1)
        return lk_error_set_at(err, LK_PARSE_ERROR, path, line, col,
                               "not a YAML text file: %s (byte or character 0x%X)", problem,
                               (unsigned)p->problem_value);
      return lk_error_set_at(err, LK_PARSE_ERROR, path, line, col, "not a YAML text file: %s",
                             problem);
    default:
      break;
  }
  line = mark_int(p->problem_mark.line);
  col = mark_int(p->problem_mark.column);
  const char *kind = p->error == YAML_COMPOSER_ERROR ? "YAML error" : "YAML syntax error";
  if (p->context)
    return lk_error_set_at(err, LK_PARSE_ERROR, path, line, col, "%s: %s (%s at line %d, column %d)",
                           kind, problem, p->context, mark_int(p->context_mark.line),
                           mark_int(p->context_mark.column));
  return lk_error_set_at(err, LK_PARSE_ERROR, path, line, col, "%s: %s", kind, problem);
}

/* The deepest nesting of flow collections ([ ] and { }) in text, outside
 * quoted scalars and comments, and where it first exceeds `limit` (*at,
 * a byte offset; unchanged when it does not). libyaml's scanner takes
 * time quadratic in this depth (it rechecks every open simple key at
 * every token: 20 000 levels, a 40 KB file, take 10 s), so it is bounded
 * before libyaml sees the text, as the size is. Block nesting is bounded
 * by the size alone (libyaml is linear in it). A '[' in a block scalar or
 * inside a plain scalar is counted too: the limit is far above anything a
 * description nests, so only an attack comes near it. */
static int flow_depth_exceeds(const char *text, size_t len, int limit, size_t *at) {
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i < len; i++) {
    char c = text[i];
    if (quote) {
      if (quote == '"' && c == '\\') i++;
      else if (c == quote) {
        if (quote == '\'' && i + 1 < len && text[i + 1] == '\'') i++; /* '' inside '...' */
        else quote = 0;
      }
      continue;
    }
    switch (c) {
      case '#': /* a comment when it starts the line or follows a blank */
        if (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\n')
          while (i + 1 < len && text[i + 1] != '\n') i++;
        break;
      case '"':
      case '\'':
        /* A quote starts a quoted scalar only where a scalar starts; one
         * inside a plain word (it's) is part of the word. */
        if (i == 0 || strchr(" \t\n[{,:-?", text[i - 1])) quote = c;
        break;
      case '[':
      case '{':
        if (++depth > limit) {
          *at = i;
          return 1;
        }
        break;
      case ']':
      case '}':
        if (depth > 0) depth--;
        break;
      default:
        break;
    }
  }
  return 0;
}

lk_status lk_ydoc_load(lk_ydoc *y, const char *text, size_t len, const char *path,
                       lk_error *err) {
  memset(y, 0, sizeof *y);
  snprintf(y->path, sizeof y->path, "%s", path ? path : "<string>");
  size_t at;
  if (flow_depth_exceeds(text, len, LK_IO_MAX_FLOW_DEPTH, &at)) {
    int line, col;
    offset_position(text, len, at, &line, &col);
    return lk_error_set_at(err, LK_PARSE_ERROR, y->path, line, col,
                           "[ ] and { } nested more than %d deep (the loader's limit)",
                           LK_IO_MAX_FLOW_DEPTH);
  }
  yaml_parser_t p;
  if (!yaml_parser_initialize(&p)) return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
  lk_status st = LK_OK;
  if (!yaml_parser_load(&p, &y->doc)) {
    st = parser_error(&p, text, len, y->path, err);
    yaml_parser_delete(&p);
    return st;
  }
  y->loaded = 1;
  y->text = text;
  y->len = len;
  if (!yaml_document_get_root_node(&y->doc)) {
    st = lk_error_set_at(err, LK_SCHEMA_ERROR, y->path, 0, 0,
                         "the file is empty (no YAML document in it)");
    goto fail;
  }
  /* One description a file: a second document would be silently ignored,
   * and it is more likely a pasting accident than intent. */
  yaml_document_t second;
  if (!yaml_parser_load(&p, &second)) {
    st = parser_error(&p, text, len, y->path, err);
    goto fail;
  }
  yaml_node_t *r2 = yaml_document_get_root_node(&second);
  if (r2) {
    st = lk_error_set_at(err, LK_SCHEMA_ERROR, y->path, mark_int(second.start_mark.line),
                         mark_int(second.start_mark.column),
                         "a second YAML document starts here; a file holds one description");
    yaml_document_delete(&second);
    goto fail;
  }
  yaml_document_delete(&second);
  yaml_parser_delete(&p);
  y->nfile = (int)(y->doc.nodes.top - y->doc.nodes.start);
  return LK_OK;
fail:
  yaml_parser_delete(&p);
  lk_ydoc_free(y);
  return st;
}

void lk_ydoc_free(lk_ydoc *y) {
  if (!y) return;
  if (y->loaded) yaml_document_delete(&y->doc);
  for (int i = 0; i < y->nextra; i++) lk_free(y->extra[i].text);
  lk_free(y->extra);
  y->extra = NULL;
  y->nextra = 0;
  y->loaded = 0;
}

/* --------------------------------------------------------------- nodes */

int lk_ydoc_root(lk_ydoc *y) {
  return y->loaded && yaml_document_get_root_node(&y->doc) ? 1 : 0;
}

yaml_node_t *lk_ydoc_node(lk_ydoc *y, int id) {
  if (!y->loaded || id <= 0) return NULL;
  return yaml_document_get_node(&y->doc, id);
}

int lk_ydoc_is_map(lk_ydoc *y, int id) {
  yaml_node_t *n = lk_ydoc_node(y, id);
  return n && n->type == YAML_MAPPING_NODE;
}

int lk_ydoc_is_seq(lk_ydoc *y, int id) {
  yaml_node_t *n = lk_ydoc_node(y, id);
  return n && n->type == YAML_SEQUENCE_NODE;
}

int lk_ydoc_is_scalar(lk_ydoc *y, int id) {
  yaml_node_t *n = lk_ydoc_node(y, id);
  return n && n->type == YAML_SCALAR_NODE;
}

int lk_ydoc_is_null(lk_ydoc *y, int id) {
  yaml_node_t *n = lk_ydoc_node(y, id);
  if (!n || n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
    return 0;
  const char *s = (const char *)n->data.scalar.value;
  return n->data.scalar.length == 0 || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 ||
         strcmp(s, "Null") == 0 || strcmp(s, "NULL") == 0;
}

int lk_ydoc_seq_len(lk_ydoc *y, int id) {
  yaml_node_t *n = lk_ydoc_node(y, id);
  if (!n || n->type != YAML_SEQUENCE_NODE) return 0;
  return (int)(n->data.sequence.items.top - n->data.sequence.items.start);
}

int lk_ydoc_seq_item(lk_ydoc *y, int id, int i) {
  yaml_node_t *n = lk_ydoc_node(y, id);
  if (!n || n->type != YAML_SEQUENCE_NODE || i < 0 || i >= lk_ydoc_seq_len(y, id)) return 0;
  return n->data.sequence.items.start[i];
}

int lk_ydoc_map_len(lk_ydoc *y, int id) {
  yaml_node_t *n = lk_ydoc_node(y, id);
  if (!n || n->type != YAML_MAPPING_NODE) return 0;
  return (int)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
}

int lk_ydoc_map_key(lk_ydoc *y, int id, int i) {
  yaml_node_t *n = lk_ydoc_node(y, id);
  if (!n || n->type != YAML_MAPPING_NODE || i < 0 || i >= lk_ydoc_map_len(y, id)) return 0;
  return n->data.mapping.pairs.start[i].key;
}

int lk_ydoc_map_value(lk_ydoc *y, int id, int i) {
  yaml_node_t *n = lk_ydoc_node(y, id);
  if (!n || n->type != YAML_MAPPING_NODE || i < 0 || i >= lk_ydoc_map_len(y, id)) return 0;
  return n->data.mapping.pairs.start[i].value;
}

static int key_is(lk_ydoc *y, int key, const char *name) {
  yaml_node_t *k = lk_ydoc_node(y, key);
  return k && k->type == YAML_SCALAR_NODE && k->data.scalar.length == strlen(name) &&
         memcmp(k->data.scalar.value, name, k->data.scalar.length) == 0;
}

int lk_ydoc_map_get(lk_ydoc *y, int map, const char *key) {
  int n = lk_ydoc_map_len(y, map);
  for (int i = 0; i < n; i++)
    if (key_is(y, lk_ydoc_map_key(y, map, i), key)) return lk_ydoc_map_value(y, map, i);
  return 0;
}

int lk_ydoc_map_get_key(lk_ydoc *y, int map, const char *key) {
  int n = lk_ydoc_map_len(y, map);
  for (int i = 0; i < n; i++)
    if (key_is(y, lk_ydoc_map_key(y, map, i), key)) return lk_ydoc_map_key(y, map, i);
  return 0;
}

const char *lk_ydoc_scalar(lk_ydoc *y, int id, size_t *len) {
  yaml_node_t *n = lk_ydoc_node(y, id);
  if (!n || n->type != YAML_SCALAR_NODE) return NULL;
  if (len) *len = n->data.scalar.length;
  return (const char *)n->data.scalar.value;
}

/* An explicit tag in the text at a node (after its anchor): "!!str 1".
 * libyaml gives untagged scalars the str tag too, so the text says. */
static int explicit_tag(lk_ydoc *y, int id) {
  yaml_node_t *n = lk_ydoc_node(y, id);
  if (!n || id > y->nfile || !y->text) return 0;
  size_t i = n->start_mark.index, len = y->len;
  if (i < len && y->text[i] == '&') {
    while (i < len && !strchr(" \t\r\n", y->text[i])) i++;
    while (i < len && strchr(" \t\r\n", y->text[i])) i++;
  }
  return i < len && y->text[i] == '!';
}

/* The tag as written short: "!!str" for tag:yaml.org,2002:str. */
static const char *short_tag(const yaml_node_t *n, char *buf, size_t size) {
  const char *t = n->tag ? (const char *)n->tag : "?";
  if (strncmp(t, "tag:yaml.org,2002:", 18) == 0)
    snprintf(buf, size, "!!%.30s", t + 18);
  else
    snprintf(buf, size, "%.30s", t);
  return buf;
}

static const char *describe(lk_ydoc *y, int id, int as_key, char *buf, size_t size);

const char *lk_ydoc_describe(lk_ydoc *y, int id, char *buf, size_t size) {
  return describe(y, id, 0, buf, size);
}

static const char *describe(lk_ydoc *y, int id, int as_key, char *buf, size_t size) {
  yaml_node_t *n = lk_ydoc_node(y, id);
  if (!n) {
    snprintf(buf, size, "nothing");
  } else if (n->type == YAML_MAPPING_NODE) {
    snprintf(buf, size, "a mapping");
  } else if (n->type == YAML_SEQUENCE_NODE) {
    snprintf(buf, size, "a list");
  } else if (lk_ydoc_is_null(y, id)) {
    snprintf(buf, size, "nothing");
  } else {
    /* Quote a short, printable rendition: messages must stay one line. */
    char t[48];
    size_t len = n->data.scalar.length, k = len < 32 ? len : 32;
    const unsigned char *s = n->data.scalar.value;
    /* Do not cut a UTF-8 sequence in the middle. */
    if (k < len)
      while (k > 0 && (s[k] & 0xC0) == 0x80) k--;
    for (size_t i = 0; i < k; i++)
      t[i] = (s[i] >= 0x20 && s[i] < 0x7F) || s[i] >= 0x80 ? (char)s[i] : '?';
    t[k] = '\0';
    /* A key is named by its text however it is written. */
    int quoted = !as_key && n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
    char tag[48] = "";
    if (!as_key && explicit_tag(y, id)) {
      char st[36];
      snprintf(tag, sizeof tag, " tagged %.30s", short_tag(n, st, sizeof st));
    }
    snprintf(buf, size, "%s'%s%s'%s", quoted ? "the quoted string " : "", t, len > 32 ? "..." : "",
             tag);
  }
  return buf;
}

/* -------------------------------------------------------------- errors */

void lk_ydoc_position(lk_ydoc *y, int id, int *line, int *column) {
  *line = *column = 0;
  yaml_node_t *n = lk_ydoc_node(y, id);
  if (!n || id > y->nfile) return;
  *line = mark_int(n->start_mark.line);
  *column = mark_int(n->start_mark.column);
}

lk_status lk_ydoc_error(lk_ydoc *y, int id, lk_status status, lk_error *err, const char *fmt,
                        ...) {
  if (!err) return status;
  char msg[LK_ERROR_MESSAGE_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (id > y->nfile) {
    /* A node that an override put there: say which override. */
    for (int i = 0; i < y->nextra; i++)
      if (id >= y->extra[i].first && id <= y->extra[i].last)
        return lk_error_set_at(err, status, y->path, 0, 0, "in --set %.120s: %s",
                               y->extra[i].text, msg);
  }
  int line, col;
  lk_ydoc_position(y, id, &line, &col);
  return lk_error_set_at(err, status, y->path, line, col, "%s", msg);
}

/* ------------------------------------------------------------- scalars */

/* YAML 1.2 core schema float: the decimal numbers of lib/core/number.c
 * (the one reader of every format) and YAML's spellings .inf, -.inf and
 * .nan. Returns the reader's result; .inf and .nan are LK_NUMBER_OK. */
static lk_number_result parse_double(const char *s, size_t len, double *out) {
  if (!s || len == 0) return LK_NUMBER_SYNTAX;
  const char *t = s;
  size_t l = len;
  double sign = 1;
  if (*t == '+' || *t == '-') {
    sign = *t == '-' ? -1 : 1;
    t++;
    l--;
  }
  if ((l == 4 && (memcmp(t, ".inf", 4) == 0 || memcmp(t, ".Inf", 4) == 0 ||
                  memcmp(t, ".INF", 4) == 0))) {
    *out = sign * INFINITY;
    return LK_NUMBER_OK;
  }
  if (t == s && l == 4 &&
      (memcmp(t, ".nan", 4) == 0 || memcmp(t, ".NaN", 4) == 0 || memcmp(t, ".NAN", 4) == 0)) {
    *out = NAN;
    return LK_NUMBER_OK;
  }
  return lk_number_parse(s, len, out);
}

int lk_ydoc_parse_double(const char *s, size_t len, double *out) {
  return parse_double(s, len, out) == LK_NUMBER_OK;
}

int lk_ydoc_parse_long(const char *s, size_t len, long *out) {
  size_t i = 0;
  if (!s || len == 0 || len > 30) return 0;
  /* YAML 1.2 core: 0x1F (hex) and 0o17 (octal), unsigned. Masks read
   * better in hex. */
  if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'o')) {
    int base = s[1] == 'x' ? 16 : 8;
    unsigned long v = 0;
    for (size_t k = 2; k < len; k++) {
      int dgt = s[k] >= '0' && s[k] <= '9'   ? s[k] - '0'
                : s[k] >= 'a' && s[k] <= 'f' ? s[k] - 'a' + 10
                : s[k] >= 'A' && s[k] <= 'F' ? s[k] - 'A' + 10
                                             : 99;
      if (dgt >= base || v > (unsigned long)LONG_MAX / 16) return 0;
      v = v * (unsigned long)base + (unsigned long)dgt;
    }
    if (v > (unsigned long)LONG_MAX) return 0;
    *out = (long)v;
    return 1;
  }
  if (s[0] == '+' || s[0] == '-') i++;
  if (i == len) return 0;
  for (size_t k = i; k < len; k++)
    if (s[k] < '0' || s[k] > '9') return 0;
  char buf[32];
  memcpy(buf, s, len);
  buf[len] = '\0';
  errno = 0;
  long v = strtol(buf, NULL, 10);
  if (errno == ERANGE) return 0;
  *out = v;
  return 1;
}

int lk_ydoc_parse_bool(const char *s, size_t len, int *out) {
  static const char *const t[] = {"true", "True", "TRUE"}, *const f[] = {"false", "False", "FALSE"};
  for (int i = 0; i < 3; i++) {
    if (len == strlen(t[i]) && memcmp(s, t[i], len) == 0) return *out = 1, 1;
    if (len == strlen(f[i]) && memcmp(s, f[i], len) == 0) return *out = 0, 1;
  }
  return 0;
}

static int plain_scalar(lk_ydoc *y, int id) {
  yaml_node_t *n = lk_ydoc_node(y, id);
  if (!n || n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
      lk_ydoc_is_null(y, id))
    return 0;
  if (explicit_tag(y, id)) {
    /* "!!str 1" is the string "1", as "1" in quotes is. */
    const char *t = n->tag ? (const char *)n->tag : "";
    return strcmp(t, YAML_INT_TAG) == 0 || strcmp(t, YAML_FLOAT_TAG) == 0 ||
           strcmp(t, YAML_BOOL_TAG) == 0;
  }
  return 1;
}

lk_status lk_ydoc_double(lk_ydoc *y, int id, const char *what, int allow_inf, double *out,
                         lk_error *err) {
  char d[96];
  size_t len = 0;
  const char *s = lk_ydoc_scalar(y, id, &len);
  double v;
  long iv;
  lk_number_result r = plain_scalar(y, id) ? parse_double(s, len, &v) : LK_NUMBER_SYNTAX;
  if (r == LK_NUMBER_SYNTAX && plain_scalar(y, id) && len > 2 && s[0] == '0' &&
      (s[1] == 'x' || s[1] == 'o') && lk_ydoc_parse_long(s, len, &iv)) {
    /* 0x1F and 0o17 are integers of the core schema, so numbers too. */
    *out = (double)iv;
    return LK_OK;
  }
  if (r == LK_NUMBER_OVERFLOW || r == LK_NUMBER_UNDERFLOW)
    return lk_ydoc_error(y, id, LK_SCHEMA_ERROR, err, "%s: %s %s", what,
                         lk_ydoc_describe(y, id, d, sizeof d), lk_number_why(r));
  if (r != LK_NUMBER_OK) {
    if (s && plain_scalar(y, id) && (strcmp(s, "inf") == 0 || strcmp(s, "-inf") == 0 ||
                                     strcmp(s, "nan") == 0))
      return lk_ydoc_error(y, id, LK_SCHEMA_ERROR, err,
                           "%s: expected a number, got %s (YAML spells these .inf, -.inf, .nan)",
                           what, lk_ydoc_describe(y, id, d, sizeof d));
    return lk_ydoc_error(y, id, LK_SCHEMA_ERROR, err, "%s: expected a number, got %s", what,
                         lk_ydoc_describe(y, id, d, sizeof d));
  }
  if (isnan(v))
    return lk_ydoc_error(y, id, LK_SCHEMA_ERROR, err, "%s: .nan is not allowed (values must be finite)",
                         what);
  if (isinf(v) && !allow_inf)
    return lk_ydoc_error(y, id, LK_SCHEMA_ERROR, err, "%s: %s is not allowed here (values must be finite)",
                         what, lk_ydoc_describe(y, id, d, sizeof d));
  *out = v;
  return LK_OK;
}

lk_status lk_ydoc_long(lk_ydoc *y, int id, const char *what, long lo, long hi, long *out,
                       lk_error *err) {
  char d[96];
  size_t len = 0;
  const char *s = lk_ydoc_scalar(y, id, &len);
  long v;
  if (!plain_scalar(y, id) || !lk_ydoc_parse_long(s, len, &v))
    return lk_ydoc_error(y, id, LK_SCHEMA_ERROR, err, "%s: expected an integer, got %s", what,
                         lk_ydoc_describe(y, id, d, sizeof d));
  if (v < lo || v > hi)
    return lk_ydoc_error(y, id, LK_SCHEMA_ERROR, err, "%s: %ld is out of range (%ld to %ld)", what,
                         v, lo, hi);
  *out = v;
  return LK_OK;
}

lk_status lk_ydoc_bool(lk_ydoc *y, int id, const char *what, int *out, lk_error *err) {
  char d[96];
  size_t len = 0;
  const char *s = lk_ydoc_scalar(y, id, &len);
  if (!plain_scalar(y, id) || !lk_ydoc_parse_bool(s, len, out))
    return lk_ydoc_error(y, id, LK_SCHEMA_ERROR, err, "%s: expected true or false, got %s", what,
                         lk_ydoc_describe(y, id, d, sizeof d));
  return LK_OK;
}

lk_status lk_ydoc_string(lk_ydoc *y, int id, const char *what, size_t max_len, const char **out,
                         lk_error *err) {
  char d[96];
  size_t len = 0;
  const char *s = lk_ydoc_scalar(y, id, &len);
  if (!s || lk_ydoc_is_null(y, id) || len == 0)
    return lk_ydoc_error(y, id, LK_SCHEMA_ERROR, err, "%s: expected a name, got %s", what,
                         lk_ydoc_describe(y, id, d, sizeof d));
  if (strlen(s) != len)
    return lk_ydoc_error(y, id, LK_SCHEMA_ERROR, err, "%s: contains a NUL character", what);
  if (len > max_len)
    return lk_ydoc_error(y, id, LK_SCHEMA_ERROR, err,
                         "%s: is %zu characters long, at most %zu are allowed", what, len, max_len);
  *out = s;
  return LK_OK;
}

lk_status lk_ydoc_doubles(lk_ydoc *y, int id, const char *what, int n, int n_alt, double *out,
                          int *count, lk_error *err) {
  char d[96];
  int len = lk_ydoc_seq_len(y, id);
  if (!lk_ydoc_is_seq(y, id) || (len != n && (n_alt <= 0 || len != n_alt))) {
    char want[64];
    if (n_alt > 0)
      snprintf(want, sizeof want, "a list of %d or %d numbers", n, n_alt);
    else
      snprintf(want, sizeof want, "a list of %d numbers", n);
    if (lk_ydoc_is_seq(y, id))
      return lk_ydoc_error(y, id, LK_SCHEMA_ERROR, err, "%s: expected %s, got %d", what, want, len);
    return lk_ydoc_error(y, id, LK_SCHEMA_ERROR, err, "%s: expected %s, got %s", what, want,
                         lk_ydoc_describe(y, id, d, sizeof d));
  }
  for (int i = 0; i < len; i++) {
    char w[160];
    snprintf(w, sizeof w, "%s[%d]", what, i);
    lk_status st = lk_ydoc_double(y, lk_ydoc_seq_item(y, id, i), w, 0, &out[i], err);
    if (st) return st;
  }
  if (count) *count = len;
  return LK_OK;
}

static void join_names(const char *const *names, int n, char *buf, size_t size) {
  size_t k = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && k + 1 < size; i++) {
    int w = snprintf(buf + k, size - k, "%s%s", i ? ", " : "", names[i]);
    if (w < 0) break;
    k += (size_t)w;
  }
  if (k >= size && size > 4) strcpy(buf + size - 4, "...");
}

lk_status lk_ydoc_enum(lk_ydoc *y, int id, const char *what, const char *const *names, int n,
                       int *out, lk_error *err) {
  char d[96], list[256];
  size_t len = 0;
  const char *s = lk_ydoc_scalar(y, id, &len);
  if (s && !lk_ydoc_is_null(y, id) && strlen(s) == len) {
    for (int i = 0; i < n; i++)
      if (strcmp(s, names[i]) == 0) {
        *out = i;
        return LK_OK;
      }
  }
  join_names(names, n, list, sizeof list);
  const char *sug = s && !lk_ydoc_is_null(y, id) ? lk_suggest(s, names, n) : NULL;
  if (sug)
    return lk_ydoc_error(y, id, LK_SCHEMA_ERROR, err, "%s: unknown value %s (did you mean '%s'?)",
                         what, lk_ydoc_describe(y, id, d, sizeof d), sug);
  return lk_ydoc_error(y, id, LK_SCHEMA_ERROR, err, "%s: expected one of %s, got %s", what, list,
                       lk_ydoc_describe(y, id, d, sizeof d));
}

lk_status lk_ydoc_expect_map(lk_ydoc *y, int id, const char *what, lk_error *err) {
  char d[96];
  if (lk_ydoc_is_map(y, id)) return LK_OK;
  return lk_ydoc_error(y, id, LK_SCHEMA_ERROR, err, "%s: expected a mapping (key: value), got %s",
                       what, lk_ydoc_describe(y, id, d, sizeof d));
}

lk_status lk_ydoc_expect_seq(lk_ydoc *y, int id, const char *what, lk_error *err) {
  char d[96];
  if (lk_ydoc_is_seq(y, id)) return LK_OK;
  return lk_ydoc_error(y, id, LK_SCHEMA_ERROR, err, "%s: expected a list, got %s", what,
                       lk_ydoc_describe(y, id, d, sizeof d));
}

lk_status lk_ydoc_check_keys(lk_ydoc *y, int id, const char *what, const char *const *allowed,
                             lk_error *err) {
  lk_status st = lk_ydoc_expect_map(y, id, what, err);
  if (st) return st;
  int nallowed = 0;
  while (allowed[nallowed]) nallowed++;
  int n = lk_ydoc_map_len(y, id);
  char d[96];
  for (int i = 0; i < n; i++) {
    int k = lk_ydoc_map_key(y, id, i);
    size_t len = 0;
    const char *s = lk_ydoc_scalar(y, k, &len);
    if (!s || lk_ydoc_is_null(y, k) || strlen(s) != len)
      return lk_ydoc_error(y, k, LK_SCHEMA_ERROR, err, "%s: keys must be names, got %s", what,
                           lk_ydoc_describe(y, k, d, sizeof d));
    int known = 0;
    for (int a = 0; a < nallowed && !known; a++) known = strcmp(s, allowed[a]) == 0;
    if (!known) {
      const char *sug = lk_suggest(s, allowed, nallowed);
      if (sug)
        return lk_ydoc_error(y, k, LK_SCHEMA_ERROR, err, "%s: unknown key %s (did you mean '%s'?)",
                             what, describe(y, k, 1, d, sizeof d), sug);
      char list[256];
      join_names(allowed, nallowed, list, sizeof list);
      return lk_ydoc_error(y, k, LK_SCHEMA_ERROR, err, "%s: unknown key %s (known keys: %s)", what,
                           describe(y, k, 1, d, sizeof d), list);
    }
    for (int j = 0; j < i; j++) {
      int kj = lk_ydoc_map_key(y, id, j);
      if (key_is(y, kj, s)) {
        int line, col;
        lk_ydoc_position(y, kj, &line, &col);
        if (line > 0)
          return lk_ydoc_error(y, k, LK_SCHEMA_ERROR, err,
                               "%s: duplicate key '%s' (first given at line %d, column %d)", what,
                               s, line, col);
        return lk_ydoc_error(y, k, LK_SCHEMA_ERROR, err, "%s: duplicate key '%s'", what, s);
      }
    }
  }
  return LK_OK;
}

/* ------------------------------------------------------------ suggest */

int lk_edit_distance(const char *a, const char *b, int cap) {
  /* Optimal string alignment: insertions, deletions, substitutions and
   * transpositions of neighbours ("lemek" is one edit from "lemke"), the
   * typos people make. Three rows of at most 257 entries. */
  size_t la = strlen(a), lb = strlen(b);
  if ((la > lb ? la - lb : lb - la) > (size_t)cap) return cap + 1;
  if (la > 256 || lb > 256) return cap + 1;
  int rows[3][257];
  int *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
  for (size_t j = 0; j <= lb; j++) prev[j] = (int)j;
  for (size_t i = 1; i <= la; i++) {
    cur[0] = (int)i;
    int best = cur[0];
    for (size_t j = 1; j <= lb; j++) {
      int v = prev[j - 1] + (a[i - 1] != b[j - 1]);
      if (prev[j] + 1 < v) v = prev[j] + 1;
      if (cur[j - 1] + 1 < v) v = cur[j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < v)
        v = prev2[j - 2] + 1;
      cur[j] = v;
      if (v < best) best = v;
    }
    /* A row's minimum never decreases (a transposition costs no less than
     * the substitution that precedes it), so once above the cap, stop. */
    if (best > cap) return cap + 1;
    int *t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[lb] > cap ? cap + 1 : prev[lb];
}

const char *lk_suggest(const char *word, const char *const *cands, int n) {
  size_t wl = strlen(word);
  int limit = wl / 3 > 1 ? (int)(wl / 3) : 1;
  const char *best = NULL;
  int bestd = limit + 1;
  for (int i = 0; i < n; i++) {
    if (strcasecmp(word, cands[i]) == 0) return cands[i];
    int dd = lk_edit_distance(word, cands[i], limit);
    if (dd < bestd) {
      bestd = dd;
      best = cands[i];
    }
  }
  return best;
}
