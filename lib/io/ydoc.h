/* A loaded YAML document (libyaml's document API) with what every reader of
 * a YAML file in the library needs: node access by id, typed scalars,
 * error reports located at a node (1-based file:line:column), key checks
 * with did-you-mean, and dotted-path overrides. Knows nothing of
 * mechanics, so the LCP problem reader can use it too. Not installed.
 *
 * Node ids are libyaml's (1-based; 0 means "no node"). Node pointers are
 * invalidated by overrides (which add nodes), so everything here takes
 * ids. Documents may contain cycles (an anchor used inside itself): every
 * walk here is bounded by its caller's schema or by an explicit limit. */
#ifndef LK_IO_YDOC_H
#define LK_IO_YDOC_H

#include <stddef.h>
#include <yaml.h>

#include "linkage/error.h"

typedef struct {
  int first, last; /* node ids this override added */
  char *text;      /* "KEY=VALUE" as given */
} lk_ydoc_extra;

typedef struct {
  yaml_document_t doc;
  int loaded;
  char path[LK_ERROR_PATH_MAX]; /* what messages call the text */
  int nfile;                    /* ids 1..nfile come from the text */
  lk_ydoc_extra *extra;
  int nextra;
  /* The text parsed, which the caller keeps until lk_ydoc_free: tags are
   * looked up in it (libyaml tags every untagged scalar !!str). */
  const char *text;
  size_t len;
} lk_ydoc;

/* Read a whole file (at most max_bytes) into a NUL-terminated buffer from
 * lk_malloc. */
lk_status lk_ydoc_read_file(const char *path, size_t max_bytes, char **text, size_t *len,
                            lk_error *err);

/* Parse text as exactly one YAML document. An empty stream is an error
 * ("empty file"), so is a second document. On failure y is left empty
 * (lk_ydoc_free is still harmless). */
lk_status lk_ydoc_load(lk_ydoc *y, const char *text, size_t len, const char *path,
                       lk_error *err);
void lk_ydoc_free(lk_ydoc *y);

int lk_ydoc_root(lk_ydoc *y);
yaml_node_t *lk_ydoc_node(lk_ydoc *y, int id);
int lk_ydoc_is_map(lk_ydoc *y, int id);
int lk_ydoc_is_seq(lk_ydoc *y, int id);
int lk_ydoc_is_scalar(lk_ydoc *y, int id);
/* A plain empty scalar, "~" or "null": the value of "key:" with nothing. */
int lk_ydoc_is_null(lk_ydoc *y, int id);

int lk_ydoc_seq_len(lk_ydoc *y, int id);
int lk_ydoc_seq_item(lk_ydoc *y, int id, int i);
int lk_ydoc_map_len(lk_ydoc *y, int id);
int lk_ydoc_map_key(lk_ydoc *y, int id, int i);
int lk_ydoc_map_value(lk_ydoc *y, int id, int i);
/* The value of key in a mapping (the first, keys are checked unique by
 * lk_ydoc_check_keys), or 0. */
int lk_ydoc_map_get(lk_ydoc *y, int map, const char *key);
/* The key node of key in a mapping, or 0. */
int lk_ydoc_map_get_key(lk_ydoc *y, int map, const char *key);

/* A scalar's text (NUL-terminated; *len, if given, is its length, which is
 * larger than strlen when it holds NUL bytes). NULL for other nodes. */
const char *lk_ydoc_scalar(lk_ydoc *y, int id, size_t *len);

/* What a node is, for messages: "a mapping", "a sequence", "nothing",
 * "'text'" (shortened with ... when long). */
const char *lk_ydoc_describe(lk_ydoc *y, int id, char *buf, size_t size);

/* Located error: the node's file position, or "in --set KEY=VALUE" for
 * nodes an override added. Returns status. */
lk_status lk_ydoc_error(lk_ydoc *y, int id, lk_status status, lk_error *err, const char *fmt,
                        ...) __attribute__((format(printf, 5, 6)));
/* The 1-based line and column of a node (0, 0 for override nodes). */
void lk_ydoc_position(lk_ydoc *y, int id, int *line, int *column);

/* Scalar conversions. Numbers follow the YAML 1.2 core schema: decimal
 * integers and floats (1, -2.5, 1e-4, .5) and .inf/-.inf/.nan in any of
 * the case spellings YAML allows; quoted scalars are strings, never numbers.
 * Integers also take the 0x (hex) and 0o (octal) forms.
 * Return 1 and set *out on success, 0 if the text is not one. */
int lk_ydoc_parse_double(const char *s, size_t len, double *out);
int lk_ydoc_parse_long(const char *s, size_t len, long *out);
int lk_ydoc_parse_bool(const char *s, size_t len, int *out);

/* Typed reads of a node with a located error on mismatch; `what` names the
 * value in messages ("link 'arm': mass"). allow_inf permits +-.inf; NaN is
 * never accepted. */
lk_status lk_ydoc_double(lk_ydoc *y, int id, const char *what, int allow_inf, double *out,
                         lk_error *err);
lk_status lk_ydoc_long(lk_ydoc *y, int id, const char *what, long lo, long hi, long *out,
                       lk_error *err);
lk_status lk_ydoc_bool(lk_ydoc *y, int id, const char *what, int *out, lk_error *err);
/* A non-empty string scalar without NUL bytes, at most max_len bytes. */
lk_status lk_ydoc_string(lk_ydoc *y, int id, const char *what, size_t max_len, const char **out,
                         lk_error *err);
/* A sequence of exactly n numbers (n_alt: another accepted length, or 0). */
lk_status lk_ydoc_doubles(lk_ydoc *y, int id, const char *what, int n, int n_alt, double *out,
                          int *count, lk_error *err);
/* One of names[0..n-1]; *out is the index. Unknown values get a did-you-mean
 * and the list of choices. */
lk_status lk_ydoc_enum(lk_ydoc *y, int id, const char *what, const char *const *names, int n,
                       int *out, lk_error *err);

/* id must be a mapping whose keys are distinct plain strings from
 * allowed[] (NULL-terminated). The first unknown key is reported with the
 * nearest allowed key ("did you mean") or the list of allowed keys. */
lk_status lk_ydoc_check_keys(lk_ydoc *y, int id, const char *what, const char *const *allowed,
                             lk_error *err);
lk_status lk_ydoc_expect_map(lk_ydoc *y, int id, const char *what, lk_error *err);
lk_status lk_ydoc_expect_seq(lk_ydoc *y, int id, const char *what, lk_error *err);

/* Apply one "KEY=VALUE" override (see linkage/io.h). */
lk_status lk_ydoc_override(lk_ydoc *y, const char *assignment, lk_error *err);

/* Edit distance (bytes; a swap of neighbours counts one), capped: returns
 * cap + 1 when larger. */
int lk_edit_distance(const char *a, const char *b, int cap);
/* The candidate closest to word, if close enough to be a plausible typo
 * (distance <= max(1, strlen(word) / 3), or a case-insensitive match), else
 * NULL. Ties go to the earlier candidate. */
const char *lk_suggest(const char *word, const char *const *cands, int n);

#endif
