/* The one reader of numbers in files (not installed): every format of the
 * project (YAML, URDF, MJCF, the LCP and friction-contact files) reads its
 * decimals here, so a number means the same everywhere (docs/format.md,
 * "Numbers"). */
#ifndef LK_CORE_NUMBER_H
#define LK_CORE_NUMBER_H

#include <stddef.h>

typedef enum {
  LK_NUMBER_OK = 0,
  LK_NUMBER_SYNTAX,   /* not a decimal number (hex, "inf", "nan", "1,5", ...) */
  LK_NUMBER_OVERFLOW, /* beyond the largest double, 1.7976931348623157e308 */
  LK_NUMBER_UNDERFLOW /* not zero, but nearer 0 than the smallest double,
                         4.9e-324: it would read as 0 */
} lk_number_result;

/* The len characters at s, all of them, as one decimal number:
 *   [+-]? ( digits [ . digits? ] | . digits ) ( [eE] [+-]? digits )?
 * of any length, rounded to the nearest double in the C locale whatever
 * the program's locale is. *out is written only on LK_NUMBER_OK. */
lk_number_result lk_number_parse(const char *s, size_t len, double *out);

/* Why a result is not OK, to follow the number in a message: "is not a
 * decimal number", "is out of range (beyond +-1.8e308)", "is too small
 * (it would round to 0; the smallest double is 4.9e-324)"; "" for OK. */
const char *lk_number_why(lk_number_result r);

/* Characters of s up to the next blank (space, tab, CR, LF) or NUL: the
 * extent of one number in a blank-separated list. */
size_t lk_number_token(const char *s);

#endif
