/* Numbers as text: the shortest decimal that reads back as the same double
 * (at most 17 significant digits), in the C locale whatever the program's
 * locale is. One rule for every file and program of the project, so that a
 * CSV, a plan or a report read back gives the numbers that were written;
 * and numbers as programs read them (lk_parse_double, lib/core/number.c's rule). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "core/number.h"
#include "io/io_internal.h"
#include "linkage/io.h"

const char *lk_format_double(double x, char buf[LK_FORMAT_DOUBLE_MAX]) {
  if (isnan(x)) return strcpy(buf, "nan");
  if (isinf(x)) return strcpy(buf, x > 0 ? "inf" : "-inf");
  locale_t c = lk_io_c_locale();
  locale_t old = c ? uselocale(c) : (locale_t)0;
  /* A normal double that reads back from p <= 15 digits (DBL_DIG) is
   * printed by %.15g as those digits (trailing zeros dropped): so try 15,
   * then 16, else 17, which always reads back. A subnormal has fewer
   * significant bits, so fewer digits may do: there, count up from 1. */
  int first = fabs(x) < DBL_MIN && x != 0 ? 1 : 15;
  for (int p = first; p <= 17; p++) {
    snprintf(buf, LK_FORMAT_DOUBLE_MAX, "%.*g", p, x);
    if (p == 17 || strtod(buf, NULL) == x) break;
  }
  if (c) uselocale(old);
  return buf;
}

lk_status lk_parse_double(const char *s, double *out, lk_error *err) {
  if (!s || !out) return lk_error_set(err, LK_INVALID_ARGUMENT, "no number given");
  lk_number_result r = lk_number_parse(s, strlen(s), out);
  if (r != LK_NUMBER_OK)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "'%s' %s", s, lk_number_why(r));
  return LK_OK;
}
