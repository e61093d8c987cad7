/* The XML readers' shared part (xml.h), over libxml2's tree API. */
#include "io/xml.h"

#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/xmlerror.h>

#include "core/internal.h"
#include "io/io_internal.h"
#include "io/ydoc.h" /* lk_suggest */

static lk_status xsrc_error(void *src, int loc, lk_status status, lk_error *err, const char *msg) {
  lk_xdoc *x = src;
  int line = loc > 0 && loc <= x->n ? lk_xdoc_line(x->nodes[loc - 1]) : 0;
  return lk_error_set_at(err, status, x->path, line, 0, "%s", msg);
}

static void xsrc_position(void *src, int loc, int *line, int *column) {
  lk_xdoc *x = src;
  *line = loc > 0 && loc <= x->n ? lk_xdoc_line(x->nodes[loc - 1]) : 0;
  *column = 0;
}

const lk_source lk_xdoc_source = {xsrc_error, xsrc_position, NULL, 0};

/* The first error libxml2 raises (the last one is often only "premature
 * end of data" after the real mistake). */
typedef struct {
  int seen, line;
  char msg[256];
} first_error;

static void keep_first(void *data, xmlErrorPtr e) {
  xmlParserCtxtPtr ctx = data;
  first_error *f = ctx ? ctx->_private : NULL;
  if (!f || f->seen || !e || e->level < XML_ERR_ERROR) return;
  f->seen = 1;
  f->line = e->line;
  snprintf(f->msg, sizeof f->msg, "%s", e->message ? e->message : "malformed XML");
}

lk_status lk_xdoc_parse(lk_xdoc *x, const char *text, size_t len, const char *label,
                        lk_error *err) {
  memset(x, 0, sizeof *x);
  x->path = label;
  x->err = err;
  if (len > (size_t)0x7fffffff)
    return lk_error_set_at(err, LK_IO_ERROR, label, 0, 0, "the XML text is too long");
  xmlParserCtxtPtr ctx = xmlNewParserCtxt();
  if (!ctx) return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  /* NONET: a description never fetches anything; no NOENT: entities are
   * not expanded (no external files pulled in); NOERROR/NOWARNING: the
   * library does not print, the first error is reported below. */
  int opts = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES |
             XML_PARSE_NOCDATA;
  first_error first = {0, 0, "malformed XML"};
  ctx->_private = &first;
  ctx->sax->serror = keep_first;
  x->doc = xmlCtxtReadMemory(ctx, text, (int)len, label, NULL, opts);
  if (!x->doc || !ctx->wellFormed) {
    const xmlError *e = xmlCtxtGetLastError(ctx);
    char msg[256];
    int line = first.line;
    snprintf(msg, sizeof msg, "%s", first.msg);
    if (!first.seen && e && e->message) {
      snprintf(msg, sizeof msg, "%s", e->message);
      line = e->line;
    }
    size_t n = strlen(msg);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' ')) msg[--n] = '\0';
    if (x->doc) xmlFreeDoc(x->doc);
    x->doc = NULL;
    xmlFreeParserCtxt(ctx);
    return lk_error_set_at(err, LK_PARSE_ERROR, label, line, 0, "XML: %s", msg);
  }
  xmlFreeParserCtxt(ctx);
  return LK_OK;
}

void lk_xdoc_free(lk_xdoc *x) {
  if (x->doc) xmlFreeDoc(x->doc);
  lk_free(x->nodes);
  memset(x, 0, sizeof *x);
}

void lk_xml_root_name(const char *text, size_t len, char *buf, size_t size) {
  size_t i = 0;
  buf[0] = '\0';
  if (len >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB &&
      (unsigned char)text[2] == 0xBF)
    i = 3;
  for (;;) {
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
      i++;
    if (i >= len || text[i] != '<') return;
    if (i + 1 < len && (text[i + 1] == '?' || text[i + 1] == '!')) {
      /* a declaration, a comment or a DOCTYPE: skip to its end */
      const char *end = text[i + 1] == '!' && i + 3 < len && text[i + 2] == '-' && text[i + 3] == '-'
                            ? "-->"
                            : ">";
      size_t el = strlen(end), j = i + 2;
      while (j + el <= len && memcmp(text + j, end, el) != 0) j++;
      if (j + el > len) return;
      i = j + el;
      continue;
    }
    size_t j = i + 1, k = 0;
    while (j < len && k + 1 < size && text[j] != ' ' && text[j] != '>' && text[j] != '/' &&
           text[j] != '\t' && text[j] != '\r' && text[j] != '\n')
      buf[k++] = text[j++];
    buf[k] = '\0';
    return;
  }
}

int lk_xdoc_loc(lk_xdoc *x, xmlNode *e) {
  if (!e) return 0;
  for (int i = x->n - 1; i >= 0; i--)
    if (x->nodes[i] == e) return i + 1;
  if (x->n == x->cap) {
    int nc = x->cap ? 2 * x->cap : 64;
    xmlNode **p = lk_realloc(x->nodes, (size_t)nc * sizeof *p);
    if (!p) return 0;
    x->nodes = p;
    x->cap = nc;
  }
  x->nodes[x->n++] = e;
  return x->n;
}

int lk_xdoc_line(const xmlNode *e) { return e ? (int)xmlGetLineNo((xmlNode *)e) : 0; }

lk_status lk_xdoc_error(lk_xdoc *x, const xmlNode *e, lk_status status, const char *fmt, ...) {
  if (!x->err) return status;
  char msg[LK_ERROR_MESSAGE_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  int line = lk_xdoc_line(e);
  return lk_error_set_at(x->err, status, x->path, line > 0 ? line : 0, 0, "%s", msg);
}

int lk_xml_is(const xmlNode *e, const char *name) {
  return e && e->type == XML_ELEMENT_NODE && strcmp((const char *)e->name, name) == 0;
}

static xmlNode *elem_from(xmlNode *n) {
  while (n && n->type != XML_ELEMENT_NODE) n = n->next;
  return n;
}

xmlNode *lk_xml_first(const xmlNode *e) { return e ? elem_from(e->children) : NULL; }
xmlNode *lk_xml_next(const xmlNode *e) { return e ? elem_from(e->next) : NULL; }

xmlNode *lk_xml_child(const xmlNode *e, const char *name) {
  for (xmlNode *c = lk_xml_first(e); c; c = lk_xml_next(c))
    if (lk_xml_is(c, name)) return c;
  return NULL;
}

int lk_xml_count(const xmlNode *e, const char *name) {
  int n = 0;
  for (xmlNode *c = lk_xml_first(e); c; c = lk_xml_next(c)) n += lk_xml_is(c, name);
  return n;
}

const char *lk_xml_attr(const xmlNode *e, const char *name) {
  if (!e) return NULL;
  for (const xmlAttr *a = e->properties; a; a = a->next)
    if (strcmp((const char *)a->name, name) == 0) {
      if (!a->children) return "";
      if (a->children->type == XML_TEXT_NODE && !a->children->next)
        return a->children->content ? (const char *)a->children->content : "";
      return ""; /* entity references left unexpanded: not a value we read */
    }
  return NULL;
}

/* One decimal number at *s (blanks before it skipped); *s moves past it. */
static int read_number(const char **s, double *out) {
  const char *p = *s;
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
  size_t n = strspn(p, "+-0123456789.eE");
  if (n == 0) return 0;
  char tok[64];
  if (n >= sizeof tok) return 0;
  memcpy(tok, p, n);
  tok[n] = '\0';
  char *end;
  locale_t c = lk_io_c_locale();
  double v = c ? strtod_l(tok, &end, c) : strtod(tok, &end);
  if (end != tok + n || !isfinite(v)) return 0;
  *out = v;
  *s = p + n;
  return 1;
}

static int blank_rest(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
  return *p == '\0';
}

lk_status lk_xdoc_doubles(lk_xdoc *x, const xmlNode *e, const char *attr, const char *what,
                          int n, int required, double *out) {
  const char *s = lk_xml_attr(e, attr);
  if (!s) {
    if (!required) return LK_OK;
    return lk_xdoc_error(x, e, LK_SCHEMA_ERROR, "%s: missing required attribute '%s'", what, attr);
  }
  double v[16];
  int k = 0;
  const char *p = s;
  while (k < n && k < 16 && read_number(&p, &v[k])) k++;
  if (k != n || !blank_rest(p)) {
    if (n == 1)
      return lk_xdoc_error(x, e, LK_SCHEMA_ERROR, "%s: %s=\"%.60s\" is not a finite number", what,
                           attr, s);
    return lk_xdoc_error(x, e, LK_SCHEMA_ERROR,
                         "%s: %s=\"%.60s\" is not %d finite numbers separated by blanks", what, attr,
                         s, n);
  }
  memcpy(out, v, (size_t)n * sizeof *out);
  return LK_OK;
}

lk_status lk_xdoc_double(lk_xdoc *x, const xmlNode *e, const char *attr, const char *what,
                         int required, double *out) {
  return lk_xdoc_doubles(x, e, attr, what, 1, required, out);
}

lk_status lk_xdoc_children(lk_xdoc *x, const xmlNode *e, const char *ctx,
                           const char *const *known, const char *const *ignored) {
  for (xmlNode *c = lk_xml_first(e); c; c = lk_xml_next(c)) {
    int ok = 0, nk = 0;
    for (; known[nk]; nk++) ok |= lk_xml_is(c, known[nk]);
    for (int i = 0; ignored && ignored[i]; i++) ok |= lk_xml_is(c, ignored[i]);
    if (ok) continue;
    const char *sug = lk_suggest((const char *)c->name, (const char *const *)known, nk);
    char list[256] = "";
    for (int i = 0; known[i]; i++) {
      size_t l = strlen(list);
      snprintf(list + l, sizeof list - l, "%s<%s>", i ? ", " : "", known[i]);
    }
    if (sug)
      return lk_xdoc_error(x, c, LK_SCHEMA_ERROR, "%s: unknown element <%s> (did you mean <%s>?)",
                           ctx, (const char *)c->name, sug);
    return lk_xdoc_error(x, c, LK_SCHEMA_ERROR, "%s: unknown element <%s> (expected %s)", ctx,
                         (const char *)c->name, list);
  }
  return LK_OK;
}
