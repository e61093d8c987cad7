/* The XML readers' shared part (xml.h), over libxml2's tree API. */
#include "io/xml.h"

#include "core/internal.h"

#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/entities.h>
#include <libxml/hash.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>

#include "core/internal.h"
#include "core/number.h"
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

static lk_status parse_once(lk_xdoc *x, const char *text, size_t len, const char *label,
                            int opts, lk_error *err) {
  xmlParserCtxtPtr ctx = xmlNewParserCtxt();
  if (!ctx) return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
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

/* The first external entity (general or parameter) the internal subset
 * declares. */
static void find_external(void *payload, void *data, const xmlChar *name) {
  const xmlEntity *en = payload;
  const xmlEntity **found = data;
  (void)name;
  if (*found || !en) return;
  if (en->etype == XML_EXTERNAL_GENERAL_PARSED_ENTITY ||
      en->etype == XML_EXTERNAL_GENERAL_UNPARSED_ENTITY ||
      en->etype == XML_EXTERNAL_PARAMETER_ENTITY)
    *found = en;
}

/* The first entity reference left in the tree under n (attributes too). */
static const xmlNode *find_ref(const xmlNode *n) {
  for (; n; n = n->next) {
    if (n->type == XML_ENTITY_REF_NODE) return n;
    if (n->type != XML_ELEMENT_NODE) continue;
    for (const xmlAttr *a = n->properties; a; a = a->next)
      for (const xmlNode *c = a->children; c; c = c->next)
        if (c->type == XML_ENTITY_REF_NODE) return c;
    const xmlNode *r = find_ref(n->children);
    if (r) return r;
  }
  return NULL;
}

/* Where the XML declaration's version value is (*at, *n characters): 0
 * when the text has no declaration. */
static int xml_version_at(const char *text, size_t len, size_t *at, size_t *n) {
  size_t i = 0;
  if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) i = 3;
  if (len - i < 5 || memcmp(text + i, "<?xml", 5) != 0) return 0;
  for (i += 5; i + 8 < len && text[i] != '>'; i++) {
    if (memcmp(text + i, "version", 7) != 0) continue;
    size_t k = i + 7;
    while (k < len && (text[k] == ' ' || text[k] == '\t')) k++;
    if (k >= len || text[k] != '=') return 0;
    k++;
    while (k < len && (text[k] == ' ' || text[k] == '\t')) k++;
    if (k >= len || (text[k] != '"' && text[k] != '\'')) return 0;
    char q = text[k++];
    size_t e = k;
    while (e < len && text[e] != q && text[e] != '>' && e - k < 32) e++;
    if (e >= len || text[e] != q) return 0;
    *at = k;
    *n = e - k;
    return 1;
  }
  return 0;
}

static lk_status parse_doc(lk_xdoc *x, const char *text, size_t len, const char *label,
                           lk_error *err);

lk_status lk_xdoc_parse(lk_xdoc *x, const char *text, size_t len, const char *label,
                        lk_error *err) {
  memset(x, 0, sizeof *x);
  x->path = label;
  x->err = err;
  if (len > (size_t)0x7fffffff)
    return lk_error_set_at(err, LK_IO_ERROR, label, 0, 0, "the XML text is too long");
  /* A declaration whose version is not 1.x ("0.0": the YCB objects'
   * URDFs, written by a tool) is a fatal error to libxml2, although
   * nothing in the text depends on it: it is read as 1.0 (the value
   * overwritten in a copy, same length, so every line stays where it is)
   * and x->version keeps the file's for the reader's warning. */
  size_t at = 0, n = 0;
  if (!xml_version_at(text, len, &at, &n) || n == 0 ||
      (n >= 2 && text[at] == '1' && text[at + 1] == '.'))
    return parse_doc(x, text, len, label, err);
  char *fixed = lk_malloc(len);
  if (!fixed) return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  memcpy(fixed, text, len);
  snprintf(x->version, sizeof x->version, "%.*s", (int)(n < 15 ? n : 15), text + at);
  if (n == 1) {
    fixed[at] = '1'; /* "1": libxml2 accepts it */
  } else {
    fixed[at] = '1';
    fixed[at + 1] = '.';
    for (size_t i = 2; i < n; i++) fixed[at + i] = '0';
  }
  lk_status st = parse_doc(x, fixed, len, label, err);
  lk_free(fixed);
  return st;
}

static lk_status parse_doc(lk_xdoc *x, const char *text, size_t len, const char *label,
                           lk_error *err) {
  /* NONET: a description never fetches anything; NOERROR/NOWARNING: the
   * library does not print, the first error is reported. Entities: the
   * first read substitutes none (so no external file is pulled in); when
   * the internal subset declares entities and none is external, the text
   * is read again with internal entities expanded as XML defines them
   * (XML_PARSE_NOENT; libxml2's amplification limits refuse an entity
   * bomb), so that "&m;" in an attribute is the entity's text, never "". */
  int opts = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES |
             XML_PARSE_NOCDATA;
  lk_status st = parse_once(x, text, len, label, opts, err);
  if (st) return st;
  xmlDtdPtr dtd = x->doc->intSubset;
  if (dtd && (dtd->entities || dtd->pentities)) {
    const xmlEntity *ext = NULL;
    if (dtd->entities) xmlHashScan(dtd->entities, find_external, &ext);
    if (dtd->pentities) xmlHashScan(dtd->pentities, find_external, &ext);
    if (ext) {
      char name[96];
      snprintf(name, sizeof name, "%s", (const char *)ext->name);
      /* The DOCTYPE's line (libxml2 keeps none for it). */
      int line = 0;
      const char *dt = memmem(text, len, "<!DOCTYPE", 9);
      if (dt) {
        line = 1;
        for (const char *c = text; c < dt; c++) line += *c == '\n';
      }
      xmlFreeDoc(x->doc);
      x->doc = NULL;
      return lk_error_set_at(err, LK_PARSE_ERROR, label, line, 0,
                             "XML: external entity '%s' refused: a description reads no file "
                             "through an entity (only internal entities are expanded)",
                             name);
    }
    if (dtd->entities) {
      xmlFreeDoc(x->doc);
      x->doc = NULL;
      if ((st = parse_once(x, text, len, label, opts | XML_PARSE_NOENT, err))) return st;
    }
  }
  const xmlNode *ref = find_ref(x->doc->children);
  if (ref) {
    char name[96];
    snprintf(name, sizeof name, "%s", ref->name ? (const char *)ref->name : "");
    const xmlNode *at = ref->parent && ref->parent->type == XML_ATTRIBUTE_NODE
                            ? ref->parent->parent
                            : ref->parent;
    int line = lk_xdoc_line(at);
    xmlFreeDoc(x->doc);
    x->doc = NULL;
    return lk_error_set_at(err, LK_PARSE_ERROR, label, line, 0,
                           "XML: the entity reference &%s; cannot be expanded: it is not declared "
                           "in the document's internal subset",
                           name);
  }
  return LK_OK;
}

void lk_xdoc_free(lk_xdoc *x) {
  if (x->doc) xmlFreeDoc(x->doc);
  lk_free(x->nodes);
  memset(x, 0, sizeof *x);
}

/* The text as a sequence of characters whatever its encoding's unit: UTF-8
 * (or ASCII) bytes, or UTF-16 code units of either byte order (a BOM, or
 * '<' as the first unit). Only ASCII matters to the sniffer: any other
 * character reads as 0x80. */
typedef struct {
  const unsigned char *t;
  size_t n;  /* characters */
  int unit;  /* 1 or 2 bytes */
  int big;   /* UTF-16BE */
} xtext;

static int xch(const xtext *x, size_t i) {
  if (i >= x->n) return -1;
  if (x->unit == 1) return x->t[i];
  unsigned hi = x->t[2 * i + !x->big], lo = x->t[2 * i + x->big];
  return hi ? 0x80 : (int)lo;
}

static int xmatch(const xtext *x, size_t i, const char *s) {
  for (size_t k = 0; s[k]; k++)
    if (xch(x, i + k) != (unsigned char)s[k]) return 0;
  return 1;
}

/* Past the end of the markup declaration at i ("<!DOCTYPE ...>" with an
 * internal subset in [...] that may hold '>' in declarations, quoted
 * strings and comments); x->n when it does not end. */
static size_t skip_decl(const xtext *x, size_t i) {
  int depth = 0, quote = 0;
  for (size_t j = i + 2; j < x->n; j++) {
    int c = xch(x, j);
    if (quote) {
      if (c == quote) quote = 0;
    } else if (xmatch(x, j, "<!--")) {
      for (j += 4; j < x->n && !xmatch(x, j, "-->"); j++) {
      }
      j += 2;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '[') {
      depth++;
    } else if (c == ']') {
      depth -= depth > 0;
    } else if (c == '>' && depth == 0) {
      return j + 1;
    }
  }
  return x->n;
}

void lk_xml_root_name(const char *text, size_t len, char *buf, size_t size) {
  const unsigned char *u = (const unsigned char *)text;
  xtext x = {u, len, 1, 0};
  size_t i = 0;
  buf[0] = '\0';
  if (len >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) || (u[0] == 0xFE && u[1] == 0xFF))) {
    x.unit = 2, x.big = u[0] == 0xFE, x.n = len / 2, i = 1; /* UTF-16 with a BOM */
  } else if (len >= 2 && ((u[0] == '<' && u[1] == 0) || (u[0] == 0 && u[1] == '<'))) {
    x.unit = 2, x.big = u[0] == 0, x.n = len / 2; /* UTF-16 without one */
  } else if (len >= 3 && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF) {
    i = 3;
  }
  for (;;) {
    while (xch(&x, i) == ' ' || xch(&x, i) == '\t' || xch(&x, i) == '\r' || xch(&x, i) == '\n')
      i++;
    if (xch(&x, i) != '<') return;
    if (xmatch(&x, i, "<!--")) {
      size_t j = i + 4;
      while (j < x.n && !xmatch(&x, j, "-->")) j++;
      if (j >= x.n) return;
      i = j + 3;
      continue;
    }
    if (xmatch(&x, i, "<?")) {
      size_t j = i + 2;
      while (j < x.n && !xmatch(&x, j, "?>")) j++;
      if (j >= x.n) return;
      i = j + 2;
      continue;
    }
    if (xmatch(&x, i, "<!")) {
      i = skip_decl(&x, i);
      continue;
    }
    size_t j = i + 1, k = 0;
    for (int c; k + 1 < size && (c = xch(&x, j)) > 0 && c != ' ' && c != '>' && c != '/' &&
                c != '\t' && c != '\r' && c != '\n';
         j++)
      buf[k++] = (char)c;
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

/* An element an entity expanded has no line of its own: its parent's. */
int lk_xdoc_line(const xmlNode *e) {
  for (; e; e = e->parent) {
    long l = xmlGetLineNo((xmlNode *)e);
    if (l > 0) return (int)l;
  }
  return 0;
}

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
      /* Not reached: lk_xdoc_parse expands internal entities (so the value
       * is one text node) and refuses a document with any other. */
      return "";
    }
  return NULL;
}

/* Up to max numbers of the blank-separated list s, read by the one number
 * reader (core/number.c) into v; *count of them. LK_NUMBER_OK when the
 * whole list was read, else why the first bad item is bad, *bad at it. */
int lk_xml_numbers(const char *s, int max, double *v, int *count, const char **bad,
                   size_t *badlen) {
  const char *p = s;
  *count = 0;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    if (!*p) return LK_NUMBER_OK;
    size_t n = lk_number_token(p);
    *bad = p, *badlen = n;
    if (*count == max) return LK_NUMBER_SYNTAX; /* one too many */
    lk_number_result r = lk_number_parse(p, n, &v[*count]);
    if (r) return r;
    ++*count;
    p += n;
  }
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
  const char *bad = s;
  size_t badlen = 0;
  lk_number_result r = lk_xml_numbers(s, n < 16 ? n : 16, v, &k, &bad, &badlen);
  if (r == LK_NUMBER_OVERFLOW || r == LK_NUMBER_UNDERFLOW)
    return lk_xdoc_error(x, e, LK_SCHEMA_ERROR, "%s: %s=\"%.60s\": %.*s %s", what, attr, s,
                         (int)(badlen < 40 ? badlen : 40), bad, lk_number_why(r));
  if (r || k != n) {
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

void lk_xdoc_unread(lk_xdoc *x, const xmlNode *e, const char *what) {
  char item[96];
  snprintf(item, sizeof item, "%s%s<%s>", what ? what : "", what ? " " : "",
           (const char *)e->name);
  /* Each once, with the line of its first occurrence. */
  size_t il = strlen(item);
  for (const char *p = x->unread; (p = strstr(p, item)); p += il)
    if ((p == x->unread || p[-1] == ' ') && (p[il] == ' ' || p[il] == ',' || p[il] == 0)) return;
  size_t l = strlen(x->unread);
  if (l + il + 8 >= sizeof x->unread) {
    if (!strstr(x->unread, ", ...")) snprintf(x->unread + l, sizeof x->unread - l, ", ...");
    return;
  }
  if (!x->unread_line) x->unread_line = lk_xdoc_line(e);
  snprintf(x->unread + l, sizeof x->unread - l, "%s%s (line %d)", l ? ", " : "", item,
           lk_xdoc_line(e));
}

lk_status lk_xdoc_children(lk_xdoc *x, const xmlNode *e, const char *ctx,
                           const char *const *known, const char *const *ignored) {
  return lk_xdoc_children_unread(x, e, ctx, known, ignored, NULL, NULL);
}

lk_status lk_xdoc_children_unread(lk_xdoc *x, const xmlNode *e, const char *ctx,
                                  const char *const *known, const char *const *ignored,
                                  const char *const *unread, const char *what) {
  for (xmlNode *c = lk_xml_first(e); c; c = lk_xml_next(c)) {
    int ok = 0, nk = 0, un = 0;
    for (; known[nk]; nk++) ok |= lk_xml_is(c, known[nk]);
    for (int i = 0; ignored && ignored[i]; i++) ok |= lk_xml_is(c, ignored[i]);
    for (int i = 0; !ok && unread && unread[i]; i++) un |= lk_xml_is(c, unread[i]);
    if (un) lk_xdoc_unread(x, c, what);
    if (ok || un) continue;
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
