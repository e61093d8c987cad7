/* lk_model_load_*(): a mechanism description -> an lk_model.
 *
 * The public entry points: the file is read, a reader chosen by the text's
 * content turns it into builder calls (lib/io/yaml.c for the YAML format of
 * docs/format.md, lib/io/urdf.c for URDF, lib/io/mjcf.c for MJCF; the shared part of every reader
 * is lib/io/builder.c), and on failure nothing
 * of the model is left to the caller. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "io/builder.h"
#include "io/io_internal.h"
#include "io/mjcf.h"
#include "io/urdf.h"
#include "io/xml.h"
#include "io/ydoc.h"
#include "linkage/io.h"

void lk_load_options_default(lk_load_options *o) {
  if (o) memset(o, 0, sizeof *o);
}

void lk_run_settings_default(lk_run_settings *r) { lk_run_options_default(r); }

void lk_run_options_default(lk_run_options *r) {
  if (!r) return;
  memset(r, 0, sizeof *r);
  r->duration = -1;
  lk_static_options_default(&r->statics);
}

/* The reader by content, not by the file's name: an XML text whose root
 * element is <robot> is URDF, <mujoco> MJCF, anything else YAML (whose
 * reader has the messages for what is neither). */
static lk_status read_text(lk_model *m, const lk_merge_options *mo, const char *text, size_t len,
                           const char *label, const lk_load_options *o, lk_error *err) {
  char root[32];
  lk_xml_root_name(text, len, root, sizeof root);
  if (strcmp(root, "robot") == 0) {
    lk_urdf_options uo;
    lk_urdf_options_default(&uo);
    if (mo && mo->free_base) uo.base = LK_JOINT_FREE;
    return lk_urdf_read(m, mo, text, len, label, o, &uo, err);
  }
  if (strcmp(root, "mujoco") == 0) return lk_mjcf_read(m, mo, text, len, label, o, err);
  if (root[0])
    return lk_error_set_at(err, LK_SCHEMA_ERROR, label, 0, 0,
                           "an XML file with root element <%s>: expected <robot> (URDF) or a YAML "
                           "mechanism description",
                           root);
  return lk_yaml_read(m, mo, text, len, label, o, err);
}

/* The whole load, into a new model (mo == NULL: *model receives it,
 * finalized) or into the caller's *model (mo given: not finalized). */
static lk_status load_text(lk_model **model, const char *text, size_t len, const char *name,
                           const lk_load_options *opts, const lk_merge_options *mo,
                           lk_error *err) {
  if (!text && len > 0) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL text");
  lk_load_options o;
  lk_load_options_default(&o);
  if (opts) o = *opts;
  size_t max = o.max_bytes ? o.max_bytes : LK_IO_MAX_BYTES_DEFAULT;
  const char *label = name ? name : "<string>";
  if (len > max)
    return lk_error_set_at(err, LK_IO_ERROR, label, 0, 0,
                           "the text has %zu bytes, more than the %zu this loader accepts", len,
                           max);
  if (o.run) lk_run_settings_default(o.run);
  lk_model *m = mo ? *model : lk_model_new();
  lk_status st = m ? read_text(m, mo, text ? text : "", len, label, &o, err)
                   : lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  if (st) {
    if (!mo) lk_model_free(m);
    if (o.run) lk_run_settings_default(o.run);
    return st;
  }
  if (!mo) *model = m;
  return LK_OK;
}

lk_model *lk_model_load_string(const char *text, size_t len, const char *name,
                               const lk_load_options *opts, lk_error *err) {
  lk_error local;
  if (!err) err = &local;
  lk_error_clear(err);
  lk_model *m = NULL;
  return load_text(&m, text, len, name, opts, NULL, err) ? NULL : m;
}

lk_model *lk_model_load_file(const char *path, const lk_load_options *opts, lk_error *err) {
  lk_error local;
  if (!err) err = &local;
  lk_error_clear(err);
  if (!path) {
    lk_error_set(err, LK_INVALID_ARGUMENT, "NULL path");
    return NULL;
  }
  size_t max = opts && opts->max_bytes ? opts->max_bytes : LK_IO_MAX_BYTES_DEFAULT;
  char *text;
  size_t len;
  if (lk_io_input(opts, path, 0, err) || lk_ydoc_read_file(path, max, &text, &len, err)) return NULL;
  lk_model *m = lk_model_load_string(text, len, path, opts, err);
  lk_free(text);
  return m;
}

/* ------------------------------------------------ into an existing model */

void lk_merge_options_default(lk_merge_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->pose = lk_tf_identity();
  o->world_geoms = 1;
}

static lk_status check_merge(lk_model *m, const lk_merge_options *mo, lk_error *err) {
  if (!m) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL model");
  if (lk_model_is_finalized(m))
    return lk_error_set(err, LK_INVALID_MODEL,
                        "the model is finalized: a file can only be loaded into a model that "
                        "is still being built");
  if (mo->prefix) {
    size_t n = strlen(mo->prefix);
    if (n > LK_IO_NAME_MAX ||
        strspn(mo->prefix, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != n)
      return lk_error_set(err, LK_INVALID_ARGUMENT,
                          "name prefix '%s': use at most %d letters, digits, '_' and '-'",
                          mo->prefix, LK_IO_NAME_MAX);
  }
  if (!lk_m3_isfinite(&mo->pose.R) || !lk_v3_isfinite(mo->pose.p))
    return lk_error_set(err, LK_NON_FINITE, "the placement pose is not finite");
  lk_mat3 rtr = lk_m3_tmul(&mo->pose.R, &mo->pose.R);
  double off = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) off = fmax(off, fabs(rtr.m[i][j] - (i == j ? 1.0 : 0.0)));
  if (off > 1e-9 || lk_m3_det(&mo->pose.R) < 0)
    return lk_error_set(err, LK_INVALID_ARGUMENT,
                        "the placement pose's R is not a rotation (|R^T R - 1| = %.3g)", off);
  return LK_OK;
}

lk_status lk_model_load_string_into(lk_model *m, const char *text, size_t len, const char *name,
                                    const lk_load_options *opts, const lk_merge_options *mo,
                                    lk_error *err) {
  lk_error local;
  if (!err) err = &local;
  lk_error_clear(err);
  lk_merge_options dflt;
  if (!mo) {
    lk_merge_options_default(&dflt);
    mo = &dflt;
  }
  lk_status st = check_merge(m, mo, err);
  if (st) return st;
  return load_text(&m, text, len, name, opts, mo, err);
}

lk_status lk_model_load_file_into(lk_model *m, const char *path, const lk_load_options *opts,
                                  const lk_merge_options *mo, lk_error *err) {
  lk_error local;
  if (!err) err = &local;
  lk_error_clear(err);
  if (!path) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL path");
  size_t max = opts && opts->max_bytes ? opts->max_bytes : LK_IO_MAX_BYTES_DEFAULT;
  char *text;
  size_t len;
  lk_status st = lk_io_input(opts, path, 0, err);
  if (!st) st = lk_ydoc_read_file(path, max, &text, &len, err);
  if (st) return st;
  st = lk_model_load_string_into(m, text, len, path, opts, mo, err);
  lk_free(text);
  return st;
}
