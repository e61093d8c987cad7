#include "mechanism.h"

#include <stdio.h>

#include "harness.h"

lk_model *test_mechanism(const char *name, const char *const *set, int nset) {
  char rel[128];
  snprintf(rel, sizeof rel, "mechanisms/%s", name);
  lk_load_options o;
  lk_load_options_default(&o);
  o.set = set;
  o.nset = nset;
  lk_error e;
  lk_model *m = lk_model_load_file(lk_test_srcpath(rel), &o, &e);
  if (!m) {
    char buf[700];
    fprintf(stderr, "%s\n", lk_error_format(&e, buf, sizeof buf));
  }
  return m;
}
