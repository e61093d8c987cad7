/* Status codes, error reports and the allocator hook.
 *
 * Errors are values: every fallible function returns an lk_status and, when
 * given a non-NULL lk_error, fills it with a precise message (and, for files,
 * the path, line and column). The library never prints, exits or aborts. */
#ifndef LINKAGE_ERROR_H
#define LINKAGE_ERROR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  LK_OK = 0,
  LK_INVALID_ARGUMENT,  /* a bad value or combination from the caller */
  LK_OUT_OF_MEMORY,
  LK_SINGULAR,          /* a matrix that must be invertible is not */
  LK_PIVOT_LIMIT,       /* a pivoting solver hit its pivot/iteration cap */
  LK_NO_SOLUTION,       /* proven or detected: e.g. Lemke ray termination */
  LK_NON_FINITE,        /* NaN or Inf in input or produced state */
  LK_CAPACITY_EXCEEDED, /* more items than a workspace was sized for */
  LK_PARSE_ERROR,       /* malformed file (syntax) */
  LK_SCHEMA_ERROR,      /* well-formed file with wrong keys/types/values */
  LK_IO_ERROR,          /* file could not be read or written */
  LK_NOT_FOUND,         /* a name or index that does not exist */
  LK_INVALID_MODEL,     /* model failed validation or is not finalized */
  LK_NOT_CONVERGED,     /* an iterative method stopped above tolerance */
  LK_UNSUPPORTED,       /* valid request this build or solver cannot do */
  LK_STATUS_COUNT
} lk_status;

/* A short, static, human-readable name of a status ("singular matrix"). */
const char *lk_strerror(lk_status s);

/* The identifier of a status as written in code ("LK_SINGULAR"). */
const char *lk_status_name(lk_status s);

#define LK_ERROR_MESSAGE_MAX 512
#define LK_ERROR_PATH_MAX 256

typedef struct {
  lk_status status;
  char message[LK_ERROR_MESSAGE_MAX]; /* what went wrong, one sentence */
  char path[LK_ERROR_PATH_MAX];       /* file involved, or "" */
  int line;                           /* 1-based line in path, 0 if none */
  int column;                         /* 1-based column in path, 0 if none */
} lk_error;

/* Reset an error to LK_OK with empty fields. */
void lk_error_clear(lk_error *err);

/* "path:line:column: message" (or just the message when there is no file)
 * into buf; returns buf. */
char *lk_error_format(const lk_error *err, char *buf, size_t size);

/* Allocator hook. All memory the library allocates goes through these
 * (libyaml's and GSL's internal allocations excepted, which never happen in
 * the step). Passing NULL functions restores malloc/realloc/free. Set it
 * before creating any object; not thread-safe to change while in use. */
typedef struct {
  void *(*alloc)(size_t size, void *user);
  void *(*realloc)(void *ptr, size_t size, void *user);
  void (*free)(void *ptr, void *user);
  void *user;
} lk_allocator;

void lk_set_allocator(const lk_allocator *a);

#ifdef __cplusplus
}
#endif

#endif
