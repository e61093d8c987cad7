/* --set KEY=VALUE: change a loaded document before anything reads it, so
 * an override is checked by exactly the code that checks the file. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "io/ydoc.h"

/* Bounds on what one override may add: its value is a few numbers in
 * practice, but a hostile value could use aliases to describe a tree far
 * larger than its text, or a cycle. */
#define COPY_MAX_DEPTH 32
#define COPY_MAX_NODES 4096

/* An error about the override itself (it has no position in the file). */
static lk_status bad(lk_ydoc *y, lk_error *err, const char *a, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static lk_status bad(lk_ydoc *y, lk_error *err, const char *a, const char *fmt, ...) {
  char msg[LK_ERROR_MESSAGE_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return lk_error_set_at(err, LK_SCHEMA_ERROR, y->path, 0, 0, "--set %.160s: %s", a, msg);
}

/* Copy node `id` of src (and everything below it) into y's document;
 * returns the new id, 0 on failure (*why says which). */
static int copy_node(lk_ydoc *y, yaml_document_t *src, int id, int depth, int *budget,
                     const char **why) {
  yaml_node_t *n = yaml_document_get_node(src, id);
  if (!n) return 0;
  if (depth > COPY_MAX_DEPTH || --*budget < 0) {
    *why = "the value is nested too deeply or is too large";
    return 0;
  }
  switch (n->type) {
    case YAML_SCALAR_NODE: {
      if (n->data.scalar.length > 65536) {
        *why = "the value is too long";
        return 0;
      }
      int r = yaml_document_add_scalar(&y->doc, n->tag, n->data.scalar.value,
                                       (int)n->data.scalar.length, n->data.scalar.style);
      if (!r) *why = "out of memory";
      return r;
    }
    case YAML_SEQUENCE_NODE: {
      int r = yaml_document_add_sequence(&y->doc, n->tag, n->data.sequence.style);
      if (!r) {
        *why = "out of memory";
        return 0;
      }
      int len = (int)(n->data.sequence.items.top - n->data.sequence.items.start);
      for (int i = 0; i < len; i++) {
        /* Re-fetch: adding nodes to y does not move src, but stay uniform. */
        yaml_node_t *sn = yaml_document_get_node(src, id);
        int c = copy_node(y, src, sn->data.sequence.items.start[i], depth + 1, budget, why);
        if (!c) return 0;
        if (!yaml_document_append_sequence_item(&y->doc, r, c)) {
          *why = "out of memory";
          return 0;
        }
      }
      return r;
    }
    case YAML_MAPPING_NODE: {
      int r = yaml_document_add_mapping(&y->doc, n->tag, n->data.mapping.style);
      if (!r) {
        *why = "out of memory";
        return 0;
      }
      int len = (int)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
      for (int i = 0; i < len; i++) {
        yaml_node_t *sn = yaml_document_get_node(src, id);
        yaml_node_pair_t p = sn->data.mapping.pairs.start[i];
        int k = copy_node(y, src, p.key, depth + 1, budget, why);
        int v = k ? copy_node(y, src, p.value, depth + 1, budget, why) : 0;
        if (!v) return 0;
        if (!yaml_document_append_mapping_pair(&y->doc, r, k, v)) {
          *why = "out of memory";
          return 0;
        }
      }
      return r;
    }
    default:
      *why = "the value is empty";
      return 0;
  }
}

static int node_count(lk_ydoc *y) { return (int)(y->doc.nodes.top - y->doc.nodes.start); }

/* The item of a list that a path segment names: the mapping whose `name`
 * is seg, else whose `joint` is seg (lists keyed by joint, like initial:),
 * else the item at index seg. Returns the item's position or -1. */
static int find_item(lk_ydoc *y, int seq, const char *seg) {
  int n = lk_ydoc_seq_len(y, seq);
  static const char *const keys[] = {"name", "joint"};
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < n; i++) {
      int item = lk_ydoc_seq_item(y, seq, i);
      const char *s = lk_ydoc_scalar(y, lk_ydoc_map_get(y, item, keys[k]), NULL);
      if (k == 1 && lk_ydoc_map_get(y, item, "name")) continue;
      if (s && strcmp(s, seg) == 0) return i;
    }
  size_t len = strlen(seg);
  if (len > 0 && len < 9 && strspn(seg, "0123456789") == len) {
    int idx = 0;
    for (size_t i = 0; i < len; i++) idx = idx * 10 + (seg[i] - '0');
    if (idx < n) return idx;
  }
  return -1;
}

/* Names of a list's items, for a did-you-mean. */
static const char *suggest_item(lk_ydoc *y, int seq, const char *seg) {
  const char *names[256];
  int n = lk_ydoc_seq_len(y, seq), k = 0;
  for (int i = 0; i < n && k < 256; i++) {
    int item = lk_ydoc_seq_item(y, seq, i);
    const char *s = lk_ydoc_scalar(y, lk_ydoc_map_get(y, item, "name"), NULL);
    if (!s) s = lk_ydoc_scalar(y, lk_ydoc_map_get(y, item, "joint"), NULL);
    if (s) names[k++] = s;
  }
  return lk_suggest(seg, names, k);
}

static lk_status parse_value(const char *text, yaml_document_t *vd, int *loaded, char *why,
                             size_t whysize) {
  yaml_parser_t p;
  *loaded = 0;
  if (!yaml_parser_initialize(&p)) return LK_OUT_OF_MEMORY;
  yaml_parser_set_input_string(&p, (const unsigned char *)text, strlen(text));
  if (!yaml_parser_load(&p, vd)) {
    snprintf(why, whysize, "the value is not valid YAML: %s",
             p.problem ? p.problem : "unknown problem");
    yaml_parser_delete(&p);
    return LK_SCHEMA_ERROR;
  }
  *loaded = 1;
  yaml_parser_delete(&p);
  return LK_OK;
}

lk_status lk_ydoc_override(lk_ydoc *y, const char *a, lk_error *err) {
  if (!a) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL override");
  const char *eq = strchr(a, '=');
  if (!eq || eq == a)
    return bad(y, err, a, "expected KEY=VALUE (e.g. options.timestep=0.0005)");
  if (!lk_ydoc_is_map(y, 1))
    return bad(y, err, a, "the document is not a mapping, there is nothing to set");
  size_t klen = (size_t)(eq - a);
  char key[512];
  if (klen >= sizeof key) return bad(y, err, a, "the key is too long");
  memcpy(key, a, klen);
  key[klen] = '\0';
  /* Every segment must be non-empty: "a..b" and ".a" are typos. */
  if (key[0] == '.' || key[klen - 1] == '.' || strstr(key, ".."))
    return bad(y, err, a, "the key has an empty part between dots");

  yaml_document_t vd;
  int vloaded;
  char why[256];
  lk_status st = parse_value(eq + 1, &vd, &vloaded, why, sizeof why);
  if (st == LK_OUT_OF_MEMORY) return lk_error_set(err, st, "out of memory");
  if (st) return bad(y, err, a, "%s", why);

  int first = node_count(y) + 1;
  int cur = 1; /* the root */
  char path[512] = "";
  char *seg = key, *next;
  for (;; seg = next) {
    char *dot = strchr(seg, '.');
    next = dot ? dot + 1 : NULL;
    if (dot) *dot = '\0';
    int last = next == NULL;
    int target_key = 0; /* for a mapping: the pair index of seg, or -1 */
    if (lk_ydoc_is_map(y, cur)) {
      target_key = -1;
      int n = lk_ydoc_map_len(y, cur);
      for (int i = 0; i < n; i++) {
        const char *k = lk_ydoc_scalar(y, lk_ydoc_map_key(y, cur, i), NULL);
        if (k && strcmp(k, seg) == 0) {
          target_key = i;
          break;
        }
      }
      /* "options:" with nothing after it is an empty section: fill it. */
      int empty = target_key >= 0 && !last && lk_ydoc_is_null(y, lk_ydoc_map_value(y, cur, target_key));
      if (last || target_key < 0 || empty) {
        /* Create the key (an intermediate one as an empty mapping), or
         * replace its value. */
        int val;
        if (last) {
          int budget = COPY_MAX_NODES;
          const char *cwhy = "the value is empty";
          yaml_node_t *vr = yaml_document_get_root_node(&vd);
          if (vr) {
            val = copy_node(y, &vd, 1, 0, &budget, &cwhy);
          } else {
            /* "KEY=" sets the key to nothing (null), like "key:" in a file. */
            val = yaml_document_add_scalar(&y->doc, NULL, (const yaml_char_t *)"", 0,
                                           YAML_PLAIN_SCALAR_STYLE);
            if (!val) cwhy = "out of memory";
          }
          if (!val) {
            st = bad(y, err, a, "%s", cwhy);
            goto done;
          }
        } else {
          val = yaml_document_add_mapping(&y->doc, NULL, YAML_BLOCK_MAPPING_STYLE);
          if (!val) {
            st = lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
            goto done;
          }
        }
        if (target_key >= 0) {
          yaml_node_t *cn = lk_ydoc_node(y, cur);
          cn->data.mapping.pairs.start[target_key].value = val;
        } else {
          int k = yaml_document_add_scalar(&y->doc, NULL, (const yaml_char_t *)seg, -1,
                                           YAML_PLAIN_SCALAR_STYLE);
          if (!k || !yaml_document_append_mapping_pair(&y->doc, cur, k, val)) {
            st = lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
            goto done;
          }
        }
        cur = val;
      } else {
        cur = lk_ydoc_map_value(y, cur, target_key);
      }
    } else if (lk_ydoc_is_seq(y, cur)) {
      int i = find_item(y, cur, seg);
      if (i < 0) {
        const char *sug = suggest_item(y, cur, seg);
        char msg[300];
        if (sug)
          snprintf(msg, sizeof msg, "'%.64s' has no item named '%.64s' (did you mean '%.64s'?)",
                   path, seg, sug);
        else
          snprintf(msg, sizeof msg, "'%.64s' has no item named '%.64s' (and no item %.64s)", path,
                   seg, seg);
        st = bad(y, err, a, "%s", msg);
        goto done;
      }
      if (last) {
        int budget = COPY_MAX_NODES;
        const char *cwhy = "the value is empty";
        int val = yaml_document_get_root_node(&vd) ? copy_node(y, &vd, 1, 0, &budget, &cwhy) : 0;
        if (!val) {
          st = bad(y, err, a, "%s", cwhy);
          goto done;
        }
        yaml_node_t *cn = lk_ydoc_node(y, cur);
        cn->data.sequence.items.start[i] = val;
        cur = val;
      } else {
        cur = lk_ydoc_seq_item(y, cur, i);
      }
    } else {
      st = bad(y, err, a, "'%.64s' is a single value, it has no '%.64s' in it", path, seg);
      goto done;
    }
    size_t pl = strlen(path);
    snprintf(path + pl, sizeof path - pl, "%s%s", pl ? "." : "", seg);
    if (last) break;
  }
  {
    int lastid = node_count(y);
    if (lastid >= first) {
      lk_ydoc_extra *e = lk_realloc(y->extra, (size_t)(y->nextra + 1) * sizeof *e);
      if (!e) {
        st = lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
        goto done;
      }
      y->extra = e;
      e[y->nextra].first = first;
      e[y->nextra].last = lastid;
      e[y->nextra].text = lk_strdup(a);
      if (!e[y->nextra].text) {
        st = lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
        goto done;
      }
      y->nextra++;
    }
  }
done:
  if (vloaded) yaml_document_delete(&vd);
  return st;
}
