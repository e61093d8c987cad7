/* The one reader of numbers in files (number.h). strtod alone would take
 * hexadecimal floats, "inf", "nan", "infinity", leading blanks and the
 * decimal comma of the program's locale, and says neither what an
 * overflow nor what an underflow to 0 was: the syntax is checked here
 * first, then the value rounded by strtod_l in the C locale. */
#include "core/number.h"

#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static locale_t c_locale;

static void make_c_locale(void) { c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0); }

/* 1 when s[0..len) is a decimal number; *nonzero: a mantissa digit other
 * than 0 (so a result of 0 is an underflow). */
static int is_decimal(const char *s, size_t len, int *nonzero) {
  size_t i = 0, digits = 0;
  *nonzero = 0;
  if (i < len && (s[i] == '+' || s[i] == '-')) i++;
  for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) digits++, *nonzero |= s[i] != '0';
  if (i < len && s[i] == '.')
    for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++) digits++, *nonzero |= s[i] != '0';
  if (digits == 0) return 0;
  if (i < len && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < len && (s[i] == '+' || s[i] == '-')) i++;
    size_t ed = 0;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) ed++;
    if (ed == 0) return 0;
  }
  return i == len;
}

lk_number_result lk_number_parse(const char *s, size_t len, double *out) {
  int nonzero;
  if (!s || !is_decimal(s, len, &nonzero)) return LK_NUMBER_SYNTAX;
  /* strtod needs the number NUL-terminated: a copy, on the stack when
   * short (any length is read: 64 digits are as good as 17). */
  char small[128], *buf = len < sizeof small ? small : lk_malloc(len + 1);
  if (!buf) return LK_NUMBER_SYNTAX;
  memcpy(buf, s, len);
  buf[len] = '\0';
  pthread_once(&once, make_c_locale);
  char *end;
  double v = c_locale ? strtod_l(buf, &end, c_locale) : strtod(buf, &end);
  int whole = end == buf + len;
  if (buf != small) lk_free(buf);
  if (!whole) return LK_NUMBER_SYNTAX; /* not reached: the syntax is strtod's */
  if (isinf(v)) return LK_NUMBER_OVERFLOW;
  if (v == 0 && nonzero) return LK_NUMBER_UNDERFLOW;
  *out = v;
  return LK_NUMBER_OK;
}

const char *lk_number_why(lk_number_result r) {
  switch (r) {
  case LK_NUMBER_OK: return "";
  case LK_NUMBER_SYNTAX: return "is not a decimal number";
  case LK_NUMBER_OVERFLOW: return "is out of range (beyond +-1.8e308)";
  case LK_NUMBER_UNDERFLOW: return "is too small (it would round to 0; the smallest double is 4.9e-324)";
  }
  return "is not a number";
}

size_t lk_number_token(const char *s) {
  size_t n = 0;
  while (s[n] && s[n] != ' ' && s[n] != '\t' && s[n] != '\r' && s[n] != '\n') n++;
  return n;
}
