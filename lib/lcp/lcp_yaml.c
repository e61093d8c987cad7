/* LCP problems in YAML (see lcp.h for the keys), read with libyaml's
 * document API so every error can point at the node it is about. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "core/number.h"
#include "lcp/lcp_internal.h"

typedef struct {
  yaml_document_t *doc;
  const char *path;
  lk_error *err;
  size_t len; /* of the text */
} ctx;

static lk_status at(ctx *c, const yaml_node_t *node, lk_status s, const char *fmt, const char *a,
                    const char *b) {
  int line = node ? (int)node->start_mark.line + 1 : 1;
  int col = node ? (int)node->start_mark.column + 1 : 1;
  return lk_error_set_at(c->err, s, c->path, line, col, fmt, a, b);
}

static const char *scalar(const yaml_node_t *node) {
  return (const char *)node->data.scalar.value;
}

static int is_inf_text(const char *t, int *sign) {
  *sign = 1;
  if (*t == '+' || *t == '-') {
    if (*t == '-') *sign = -1;
    t++;
  }
  return strcmp(t, ".inf") == 0 || strcmp(t, ".Inf") == 0 || strcmp(t, ".INF") == 0 ||
         strcmp(t, "inf") == 0 || strcmp(t, "Inf") == 0 || strcmp(t, "infinity") == 0;
}

/* A number from a plain scalar; infinities only where allowed. */
static lk_status number(ctx *c, const yaml_node_t *node, const char *what, int allow_inf,
                        double *out) {
  if (!node || node->type != YAML_SCALAR_NODE)
    return at(c, node, LK_SCHEMA_ERROR, "%s: expected a number%s", what, "");
  const char *t = scalar(node);
  if (node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
    return at(c, node, LK_SCHEMA_ERROR, "%s: expected a number, found the quoted string '%s'",
              what, t);
  int sign;
  if (is_inf_text(t, &sign)) {
    if (!allow_inf)
      return at(c, node, LK_SCHEMA_ERROR, "%s must be finite, found '%s'", what, t);
    *out = sign * INFINITY;
    return LK_OK;
  }
  lk_number_result r = lk_number_parse(t, strlen(t), out); /* the one number reader */
  if (r == LK_NUMBER_SYNTAX)
    return at(c, node, LK_SCHEMA_ERROR, "%s: expected a finite number, found '%s'", what, t);
  if (r) {
    char msg[160];
    snprintf(msg, sizeof msg, "'%.60s' %s", t, lk_number_why(r));
    return at(c, node, LK_SCHEMA_ERROR, "%s: %s", what, msg);
  }
  return LK_OK;
}

static lk_status integer(ctx *c, const yaml_node_t *node, const char *what, int *out) {
  if (!node || node->type != YAML_SCALAR_NODE || node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
    return at(c, node, LK_SCHEMA_ERROR, "%s: expected an integer%s", what, "");
  const char *t = scalar(node);
  char *e;
  long v = strtol(t, &e, 10);
  if (e == t || *e != '\0' || v < -1000000000L || v > 1000000000L)
    return at(c, node, LK_SCHEMA_ERROR, "%s: expected an integer, found '%s'", what, t);
  *out = (int)v;
  return LK_OK;
}

static int seq_len(const yaml_node_t *node) {
  return (int)(node->data.sequence.items.top - node->data.sequence.items.start);
}

static yaml_node_t *seq_item(ctx *c, const yaml_node_t *node, int i) {
  return yaml_document_get_node(c->doc, node->data.sequence.items.start[i]);
}

/* A sequence of exactly n numbers into out. */
static lk_status vector(ctx *c, const yaml_node_t *node, const char *key, int n, int allow_inf,
                        double *out) {
  if (node->type != YAML_SEQUENCE_NODE)
    return at(c, node, LK_SCHEMA_ERROR, "'%s' must be a sequence of numbers%s", key, "");
  if (seq_len(node) != n) {
    char msg[96];
    snprintf(msg, sizeof msg, "has %d entries, expected %d", seq_len(node), n);
    return at(c, node, LK_SCHEMA_ERROR, "'%s' %s", key, msg);
  }
  char what[48];
  for (int i = 0; i < n; i++) {
    snprintf(what, sizeof what, "%s[%d]", key, i);
    lk_status s = number(c, seq_item(c, node, i), what, allow_inf, &out[i]);
    if (s != LK_OK) return s;
  }
  return LK_OK;
}

enum { KEY_M, KEY_Q, KEY_LO, KEY_HI, KEY_FINDEX, KEY_MU, KEY_NAME, NKEYS };
static const char *const kKeys[NKEYS] = {"M", "q", "lo", "hi", "findex", "mu", "name"};

static lk_status build(ctx *c, yaml_node_t *root, lk_lcp_problem **out) {
  if (!root)
    return at(c, NULL, LK_SCHEMA_ERROR, "empty document: expected a mapping with keys M and q%s%s",
              "", "");
  if (root->type != YAML_MAPPING_NODE)
    return at(c, root, LK_SCHEMA_ERROR, "expected a mapping with keys M and q%s%s", "", "");
  yaml_node_t *val[NKEYS] = {0};
  for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top;
       pr++) {
    yaml_node_t *k = yaml_document_get_node(c->doc, pr->key);
    if (!k || k->type != YAML_SCALAR_NODE)
      return at(c, k, LK_SCHEMA_ERROR, "keys must be plain names%s%s", "", "");
    int id = -1;
    for (int t = 0; t < NKEYS; t++)
      if (strcmp(scalar(k), kKeys[t]) == 0) id = t;
    if (id < 0)
      return at(c, k, LK_SCHEMA_ERROR,
                "unknown key '%s' (expected M, q, lo, hi, findex, mu or name)%s", scalar(k), "");
    if (val[id]) return at(c, k, LK_SCHEMA_ERROR, "duplicate key '%s'%s", scalar(k), "");
    val[id] = yaml_document_get_node(c->doc, pr->value);
  }
  if (!val[KEY_Q]) return at(c, root, LK_SCHEMA_ERROR, "missing key '%s'%s", "q", "");
  if (!val[KEY_M]) return at(c, root, LK_SCHEMA_ERROR, "missing key '%s'%s", "M", "");
  if (val[KEY_Q]->type != YAML_SEQUENCE_NODE || seq_len(val[KEY_Q]) < 1)
    return at(c, val[KEY_Q], LK_SCHEMA_ERROR, "'q' must be a nonempty sequence of numbers%s%s", "",
              "");
  if (!val[KEY_FINDEX] != !val[KEY_MU]) {
    int has_f = val[KEY_FINDEX] != NULL;
    return at(c, has_f ? val[KEY_FINDEX] : val[KEY_MU], LK_SCHEMA_ERROR,
              "'%s' needs '%s' as well", has_f ? "findex" : "mu", has_f ? "mu" : "findex");
  }
  int n = seq_len(val[KEY_Q]);
  /* The n^2 entries of M must be in the text, two bytes each at least:
   * aliases (a row, or q, named once and repeated) do not multiply them,
   * so a few kilobytes cannot ask for gigabytes. */
  if ((double)n * (double)n > (double)c->len / 2 + 1) {
    char msg[96];
    snprintf(msg, sizeof msg, "%d entries, so M needs %.0f numbers", n, (double)n * n);
    return at(c, val[KEY_Q], LK_SCHEMA_ERROR,
              "'q' has %s: more than the file spells out%s (aliases are not expanded)", msg, "");
  }
  /* The shape of M before its n^2 numbers are allocated. */
  yaml_node_t *m0 = val[KEY_M];
  if (m0->type != YAML_SEQUENCE_NODE || seq_len(m0) != n) {
    char msg[96];
    snprintf(msg, sizeof msg, "%d rows (q has %d entries)", n, n);
    return at(c, m0, LK_SCHEMA_ERROR, "'M' must be a sequence of %s%s", msg, "");
  }
  for (int i = 0; i < n; i++) {
    yaml_node_t *ri = seq_item(c, m0, i);
    if (!ri || ri->type != YAML_SEQUENCE_NODE || seq_len(ri) != n) {
      char key[32], msg[96];
      snprintf(key, sizeof key, "M[%d]", i);
      snprintf(msg, sizeof msg, "must be a sequence of %d numbers", n);
      return at(c, ri, LK_SCHEMA_ERROR, "'%s' %s", key, msg);
    }
  }
  lk_lcp_problem *p = lk_lcp_problem_alloc(n);
  if (!p) return lk_error_set(c->err, LK_OUT_OF_MEMORY, "out of memory");
  lk_status s = vector(c, val[KEY_Q], "q", n, 0, p->q);
  yaml_node_t *m = val[KEY_M];
  if (s == LK_OK && (m->type != YAML_SEQUENCE_NODE || seq_len(m) != n)) {
    char msg[96];
    snprintf(msg, sizeof msg, "%d rows (q has %d entries)", n, n);
    s = at(c, m, LK_SCHEMA_ERROR, "'M' must be a sequence of %s%s", msg, "");
  }
  for (int i = 0; i < n && s == LK_OK; i++) {
    char key[32];
    snprintf(key, sizeof key, "M[%d]", i);
    s = vector(c, seq_item(c, m, i), key, n, 0, p->M + (size_t)i * (size_t)n);
  }
  if (s == LK_OK && val[KEY_LO]) {
    if (!(p->lo = LK_NEW_ARRAY(double, n))) s = LK_OUT_OF_MEMORY;
    if (s == LK_OK) s = vector(c, val[KEY_LO], "lo", n, 1, p->lo);
  }
  if (s == LK_OK && val[KEY_HI]) {
    if (!(p->hi = LK_NEW_ARRAY(double, n))) s = LK_OUT_OF_MEMORY;
    if (s == LK_OK) s = vector(c, val[KEY_HI], "hi", n, 1, p->hi);
  }
  if (s == LK_OK && val[KEY_MU]) {
    if (!(p->mu = LK_NEW_ARRAY(double, n)) || !(p->findex = LK_NEW_ARRAY(int, n)))
      s = LK_OUT_OF_MEMORY;
    if (s == LK_OK) s = vector(c, val[KEY_MU], "mu", n, 0, p->mu);
    yaml_node_t *f = val[KEY_FINDEX];
    if (s == LK_OK && (f->type != YAML_SEQUENCE_NODE || seq_len(f) != n))
      s = at(c, f, LK_SCHEMA_ERROR, "'findex' must be a sequence of %s integers%s",
             n == 1 ? "1" : "n", "");
    for (int i = 0; i < n && s == LK_OK; i++) {
      char what[32];
      snprintf(what, sizeof what, "findex[%d]", i);
      s = integer(c, seq_item(c, f, i), what, &p->findex[i]);
    }
  }
  if (s == LK_OK && val[KEY_NAME]) {
    if (val[KEY_NAME]->type != YAML_SCALAR_NODE)
      s = at(c, val[KEY_NAME], LK_SCHEMA_ERROR, "'name' must be a string%s%s", "", "");
    else if (!(p->name = lk_strdup(scalar(val[KEY_NAME]))))
      s = LK_OUT_OF_MEMORY;
  }
  if (s == LK_OUT_OF_MEMORY) lk_error_set(c->err, s, "out of memory");
  p->lcp.lo = p->lo;
  p->lcp.hi = p->hi;
  p->lcp.mu = p->mu;
  p->lcp.findex = p->findex;
  /* Semantic checks, pointing at the entry at fault. */
  for (int i = 0; i < n && s == LK_OK; i++) {
    double lo = p->lo ? p->lo[i] : 0.0, hi = p->hi ? p->hi[i] : INFINITY;
    int j = p->findex ? p->findex[i] : -1;
    char what[96];
    if (j >= 0) {
      if (j >= n || j == i || p->findex[j] >= 0) {
        snprintf(what, sizeof what, "findex[%d] = %d", i, j);
        s = at(c, seq_item(c, val[KEY_FINDEX], i), LK_SCHEMA_ERROR,
               "%s must name another row that has no findex itself%s", what, "");
      } else if (p->mu[i] < 0) {
        snprintf(what, sizeof what, "mu[%d] = %g", i, p->mu[i]);
        s = at(c, seq_item(c, val[KEY_MU], i), LK_SCHEMA_ERROR, "%s is negative%s", what, "");
      }
    } else if (j < -1) {
      snprintf(what, sizeof what, "findex[%d] = %d", i, j);
      s = at(c, seq_item(c, val[KEY_FINDEX], i), LK_SCHEMA_ERROR, "%s: use -1 for none%s", what, "");
    } else if (lo > hi || lo == INFINITY || hi == -INFINITY) {
      snprintf(what, sizeof what, "row %d: lo = %g, hi = %g", i, lo, hi);
      yaml_node_t *where = p->lo ? seq_item(c, val[KEY_LO], i) : seq_item(c, val[KEY_HI], i);
      s = at(c, where, LK_SCHEMA_ERROR, "%s: no value satisfies the bounds%s", what, "");
    }
  }
  if (s != LK_OK) {
    lk_lcp_problem_free(p);
    return s;
  }
  *out = p;
  return LK_OK;
}

/* A problem nests three levels (the mapping, M, its rows). libyaml's
 * scanner takes time quadratic in the depth of flow collections (a 200 KB
 * file of 100 000 '[' took a minute to reject), so the events are read
 * first and the text refused at the first collection nested deeper than
 * LCP_YAML_DEPTH_MAX, before any document is built. A syntax error is
 * left to the loader, which reports it the same way. */
enum { LCP_YAML_DEPTH_MAX = 8 };

static lk_status depth_check(const char *text, size_t len, const char *path, lk_error *err) {
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser)) return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  lk_status s = LK_OK;
  int depth = 0;
  for (;;) {
    yaml_event_t ev;
    if (!yaml_parser_parse(&parser, &ev)) break; /* the loader says what */
    yaml_event_type_t t = ev.type;
    if (t == YAML_SEQUENCE_START_EVENT || t == YAML_MAPPING_START_EVENT) {
      if (++depth > LCP_YAML_DEPTH_MAX)
        s = lk_error_set_at(err, LK_SCHEMA_ERROR, path, (int)ev.start_mark.line + 1,
                            (int)ev.start_mark.column + 1,
                            "collections nested more than %d deep (a problem needs 3)",
                            LCP_YAML_DEPTH_MAX);
    } else if (t == YAML_SEQUENCE_END_EVENT || t == YAML_MAPPING_END_EVENT) {
      depth--;
    }
    yaml_event_delete(&ev);
    if (s != LK_OK || t == YAML_STREAM_END_EVENT) break;
  }
  yaml_parser_delete(&parser);
  return s;
}

lk_status lk_lcp_problem_parse_yaml(const char *text, size_t len, const char *path,
                                    lk_lcp_problem **out, lk_error *err) {
  if (!out) return lk_error_set(err, LK_INVALID_ARGUMENT, "no output pointer");
  *out = NULL;
  if (!text) return lk_error_set(err, LK_INVALID_ARGUMENT, "no text");
  ctx c = {NULL, path ? path : "<string>", err, len};
  lk_status ds = depth_check(text, len, c.path, err);
  if (ds != LK_OK) return ds;
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser)) return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  yaml_document_t doc;
  if (!yaml_parser_load(&parser, &doc)) {
    lk_status s = lk_error_set_at(err, parser.error == YAML_MEMORY_ERROR ? LK_OUT_OF_MEMORY
                                                                         : LK_PARSE_ERROR,
                                  c.path, (int)parser.problem_mark.line + 1,
                                  (int)parser.problem_mark.column + 1, "%s%s%s",
                                  parser.problem ? parser.problem : "syntax error",
                                  parser.context ? " " : "", parser.context ? parser.context : "");
    yaml_parser_delete(&parser);
    return s;
  }
  c.doc = &doc;
  lk_status s = build(&c, yaml_document_get_root_node(&doc), out);
  yaml_document_delete(&doc);
  yaml_parser_delete(&parser);
  return s;
}
