/* Status names and error filling. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"

static const char *const kMessages[LK_STATUS_COUNT] = {
    [LK_OK] = "success",
    [LK_INVALID_ARGUMENT] = "invalid argument",
    [LK_OUT_OF_MEMORY] = "out of memory",
    [LK_SINGULAR] = "singular matrix",
    [LK_PIVOT_LIMIT] = "pivot limit reached",
    [LK_NO_SOLUTION] = "no solution found (ray termination)",
    [LK_NON_FINITE] = "non-finite value (NaN or Inf)",
    [LK_CAPACITY_EXCEEDED] = "capacity exceeded",
    [LK_PARSE_ERROR] = "parse error",
    [LK_SCHEMA_ERROR] = "schema error",
    [LK_IO_ERROR] = "input/output error",
    [LK_NOT_FOUND] = "not found",
    [LK_INVALID_MODEL] = "invalid model",
    [LK_NOT_CONVERGED] = "not converged",
    [LK_UNSUPPORTED] = "unsupported",
};

static const char *const kNames[LK_STATUS_COUNT] = {
    [LK_OK] = "LK_OK",
    [LK_INVALID_ARGUMENT] = "LK_INVALID_ARGUMENT",
    [LK_OUT_OF_MEMORY] = "LK_OUT_OF_MEMORY",
    [LK_SINGULAR] = "LK_SINGULAR",
    [LK_PIVOT_LIMIT] = "LK_PIVOT_LIMIT",
    [LK_NO_SOLUTION] = "LK_NO_SOLUTION",
    [LK_NON_FINITE] = "LK_NON_FINITE",
    [LK_CAPACITY_EXCEEDED] = "LK_CAPACITY_EXCEEDED",
    [LK_PARSE_ERROR] = "LK_PARSE_ERROR",
    [LK_SCHEMA_ERROR] = "LK_SCHEMA_ERROR",
    [LK_IO_ERROR] = "LK_IO_ERROR",
    [LK_NOT_FOUND] = "LK_NOT_FOUND",
    [LK_INVALID_MODEL] = "LK_INVALID_MODEL",
    [LK_NOT_CONVERGED] = "LK_NOT_CONVERGED",
    [LK_UNSUPPORTED] = "LK_UNSUPPORTED",
};

const char *lk_strerror(lk_status s) {
  if ((int)s < 0 || s >= LK_STATUS_COUNT) return "unknown status";
  return kMessages[s];
}

const char *lk_status_name(lk_status s) {
  if ((int)s < 0 || s >= LK_STATUS_COUNT) return "LK_UNKNOWN";
  return kNames[s];
}

void lk_error_clear(lk_error *err) {
  if (!err) return;
  err->status = LK_OK;
  err->message[0] = '\0';
  err->path[0] = '\0';
  err->line = 0;
  err->column = 0;
}

static void fill(lk_error *err, lk_status status, const char *path, int line, int column,
                 const char *fmt, va_list ap) {
  err->status = status;
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  if (path) {
    snprintf(err->path, sizeof err->path, "%s", path);
  } else {
    err->path[0] = '\0';
  }
  err->line = line;
  err->column = column;
}

lk_status lk_error_set(lk_error *err, lk_status status, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    fill(err, status, NULL, 0, 0, fmt, ap);
    va_end(ap);
  }
  return status;
}

lk_status lk_error_set_at(lk_error *err, lk_status status, const char *path, int line,
                          int column, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    fill(err, status, path, line, column, fmt, ap);
    va_end(ap);
  }
  return status;
}

char *lk_error_format(const lk_error *err, char *buf, size_t size) {
  if (!buf || size == 0) return buf;
  if (!err) {
    snprintf(buf, size, "(no error)");
  } else if (err->path[0] && err->line > 0) {
    snprintf(buf, size, "%s:%d:%d: %s", err->path, err->line, err->column, err->message);
  } else if (err->path[0]) {
    snprintf(buf, size, "%s: %s", err->path, err->message);
  } else {
    snprintf(buf, size, "%s", err->message[0] ? err->message : lk_strerror(err->status));
  }
  return buf;
}
