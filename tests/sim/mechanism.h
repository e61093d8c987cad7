/* The shipped mechanisms (mechanisms/NAME) loaded for the simulation tests,
 * with --set style overrides; NULL (the loader's message on stderr) when
 * a file does not load. */
#ifndef LK_TEST_MECHANISM_H
#define LK_TEST_MECHANISM_H

#include "linkage/linkage.h"

lk_model *test_mechanism(const char *name, const char *const *set, int nset);

#endif
