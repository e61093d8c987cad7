/* Helpers shared by every layer of the library (not installed). */
#ifndef LK_CORE_INTERNAL_H
#define LK_CORE_INTERNAL_H

#include <stddef.h>

#include "linkage/error.h"

/* Fill err (if non-NULL) and return status. */
lk_status lk_error_set(lk_error *err, lk_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Same with a file position (line/column 1-based, 0 for none). */
lk_status lk_error_set_at(lk_error *err, lk_status status, const char *path, int line,
                          int column, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Allocation through the user hook. lk_calloc zeroes and checks n*size for
 * overflow; all return NULL on failure. lk_free(NULL) is harmless. */
void *lk_malloc(size_t size);
void *lk_calloc(size_t n, size_t size);
void *lk_realloc(void *ptr, size_t size);
void lk_free(void *ptr);
char *lk_strdup(const char *s);

/* Allocate an array of n elements of type T, zeroed. */
#define LK_NEW_ARRAY(T, n) ((T *)lk_calloc((size_t)(n) > 0 ? (size_t)(n) : 1, sizeof(T)))

/* Finite-ness checks used by validators and solvers. */
int lk_all_finite(const double *x, size_t n);

/* GSL: its default handler aborts, so the library switches it off once
 * (idempotent, thread-safe) before any GSL call, and translates codes. */
void lk_gsl_init(void);
lk_status lk_status_from_gsl(int gsl_code);

#endif
