/* What the XML readers (URDF: urdf.c, MJCF: mjcf.c) share: a document
 * parsed by libxml2 with its line numbers, elements numbered as builder
 * locations (builder.h: loc 0 is the file, loc k the k-th element
 * registered), errors as FILE:LINE: messages, and attribute values read as
 * numbers in the C locale. Not installed. */
#ifndef LK_IO_XML_H
#define LK_IO_XML_H

#include <stddef.h>

#include <libxml/tree.h>

#include "core/number.h"
#include "io/builder.h"
#include "linkage/error.h"

typedef struct {
  xmlDoc *doc;
  const char *path; /* what messages call the text (not copied) */
  xmlNode **nodes;  /* loc k is nodes[k - 1] */
  int n, cap;
  lk_error *err;
  char unread[480]; /* what the reader did not read: "<tendon> (line 40), ..." */
  int unread_line;   /* the first one's */
  char version[16]; /* the declaration's version when it was not 1.x and
                       was read as 1.0 (a reader warns); else "" */
} lk_xdoc;

/* The lk_source of an lk_xdoc (positions have lines, no columns). */
extern const lk_source lk_xdoc_source;

/* Parse len bytes of XML. Syntax errors are LK_PARSE_ERROR at their line;
 * no network access, no entity substitution, nothing printed. */
lk_status lk_xdoc_parse(lk_xdoc *x, const char *text, size_t len, const char *label,
                        lk_error *err);
void lk_xdoc_free(lk_xdoc *x);

/* The name of the root element of an XML text ("robot", "mujoco"), into
 * buf; "" when text does not start like XML (after blanks, a BOM, an XML
 * declaration and comments). Does not parse the whole text. */
void lk_xml_root_name(const char *text, size_t len, char *buf, size_t size);

/* The builder location of an element (registered on first use; 0 when out
 * of memory, which then reports at the file). */
int lk_xdoc_loc(lk_xdoc *x, xmlNode *e);
int lk_xdoc_line(const xmlNode *e);

/* A located error at e (NULL: the file). */
lk_status lk_xdoc_error(lk_xdoc *x, const xmlNode *e, lk_status status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The element's name, and its children that are elements, one by one:
 * for (xmlNode *c = lk_xml_first(e); c; c = lk_xml_next(c)). */
int lk_xml_is(const xmlNode *e, const char *name);
xmlNode *lk_xml_first(const xmlNode *e);
xmlNode *lk_xml_next(const xmlNode *e);
/* The first child element named name, or NULL. */
xmlNode *lk_xml_child(const xmlNode *e, const char *name);
/* The number of child elements named name. */
int lk_xml_count(const xmlNode *e, const char *name);

/* An attribute's text (pointing into the document), or NULL when absent. */
const char *lk_xml_attr(const xmlNode *e, const char *name);

/* Attribute values as numbers: "what" names the value in messages. A
 * missing attribute leaves *out alone and is LK_OK unless required. The
 * numbers are read by the one number reader (core/number.h: decimal, any
 * length, overflow and underflow to 0 refused); vectors are
 * blank-separated with exactly n values. */
lk_status lk_xdoc_double(lk_xdoc *x, const xmlNode *e, const char *attr, const char *what,
                         int required, double *out);
lk_status lk_xdoc_doubles(lk_xdoc *x, const xmlNode *e, const char *attr, const char *what,
                          int n, int required, double *out);
/* The blank-separated list s: up to max numbers into v (*count read).
 * LK_NUMBER_OK (0) when the whole list was read; else the first bad item
 * (or the first beyond max) is at *bad, *badlen characters, and the result
 * says why. */
int lk_xml_numbers(const char *s, int max, double *v, int *count, const char **bad,
                   size_t *badlen);

/* Check that every child element of e is one of known[] (NULL-terminated)
 * or of ignored[] (may be NULL): an unknown one is an error at it with a
 * did-you-mean. ctx names e in the message. */
lk_status lk_xdoc_children(lk_xdoc *x, const xmlNode *e, const char *ctx,
                           const char *const *known, const char *const *ignored);

/* The same, where the elements named in unread[] (may be NULL) are part
 * of the format but not read here: each noted (lk_xdoc_unread), for one
 * warning, instead of refused. */
lk_status lk_xdoc_children_unread(lk_xdoc *x, const xmlNode *e, const char *ctx,
                                  const char *const *known, const char *const *ignored,
                                  const char *const *unread, const char *what);
/* Note element e as not read (once a name; what, optional, goes before
 * it: "<contact>"). */
void lk_xdoc_unread(lk_xdoc *x, const xmlNode *e, const char *what);

#endif
