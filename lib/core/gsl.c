/* GSL's default error handler calls abort(); the library must never abort,
 * so it is switched off before the first GSL call and its codes are mapped
 * to lk_status. */
#include <gsl/gsl_errno.h>
#include <math.h>
#include <pthread.h>

#include "core/internal.h"

static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void init_once(void) { gsl_set_error_handler_off(); }

void lk_gsl_init(void) { pthread_once(&g_once, init_once); }

lk_status lk_status_from_gsl(int code) {
  switch (code) {
    case GSL_SUCCESS:
      return LK_OK;
    case GSL_ENOMEM:
      return LK_OUT_OF_MEMORY;
    case GSL_EDOM:
    case GSL_EINVAL:
    case GSL_EBADLEN:
    case GSL_ENOTSQR:
      return LK_INVALID_ARGUMENT;
    case GSL_ESING:
    case GSL_EZERODIV:
      return LK_SINGULAR;
    case GSL_EMAXITER:
    case GSL_ENOPROG:
    case GSL_ETOL:
      return LK_NOT_CONVERGED;
    case GSL_EOVRFLW:
    case GSL_ERANGE:
      return LK_NON_FINITE;
    default:
      return LK_INVALID_ARGUMENT;
  }
}

int lk_all_finite(const double *x, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!isfinite(x[i])) return 0;
  return 1;
}
