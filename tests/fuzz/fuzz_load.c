/* libFuzzer target for the mechanism loader: any bytes must give either a
 * finalized model or an error with a status and a message, never a crash,
 * a leak, undefined behaviour or a hang. An input whose first line starts
 * with "#!" also feeds the rest of that line to the loader as a --set
 * override (the line is a YAML comment, so the document is unchanged), so
 * the override code is fuzzed too. A model that loads is put through the
 * calls a program makes next (a data, forward kinematics, the CSV row).
 *
 * The same binary holds the other targets (fuzz.h), chosen at start by
 * $LK_FUZZ_TARGET ("mesh": fuzz_mesh.c, "lcp": fuzz_lcp.c; anything else:
 * this loader, which with tests/fuzz/xml.dict and XML seeds fuzzes the
 * URDF and MJCF readers), so that the library is compiled for fuzzing
 * once. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "linkage/linkage.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int (*target)(const uint8_t *, size_t);

static int fuzz_load(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  const char *t = getenv("LK_FUZZ_TARGET");
  target = t && strcmp(t, "mesh") == 0  ? lk_fuzz_mesh
           : t && strcmp(t, "lcp") == 0 ? lk_fuzz_lcp
                                        : fuzz_load;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return target(data, size); }

static int fuzz_load(const uint8_t *data, size_t size) {
  char set[256];
  const char *sets[1] = {set};
  lk_load_options o;
  lk_load_options_default(&o);
  lk_run_settings run;
  o.run = &run;
  if (size > 2 && data[0] == '#' && data[1] == '!') {
    size_t n = 2;
    while (n < size && data[n] != '\n' && n - 2 < sizeof set - 1) n++;
    memcpy(set, data + 2, n - 2);
    set[n - 2] = '\0';
    if (strlen(set) == n - 2) {
      o.set = sets;
      o.nset = 1;
    }
  }
  lk_error err;
  lk_model *m = lk_model_load_string((const char *)data, size, "fuzz", &o, &err);
  if (!m) {
    /* A failure must say what failed. */
    if (err.status == LK_OK || err.message[0] == '\0' ||
        strnlen(err.message, sizeof err.message) == sizeof err.message)
      abort();
    return 0;
  }
  if (!lk_model_is_finalized(m)) abort();
  lk_data *d = lk_data_new(m);
  if (d) {
    int nc = lk_trajectory_ncolumns(m);
    double *row = calloc((size_t)nc, sizeof *row);
    char name[LK_IO_COLUMN_MAX];
    for (int i = 0; i < nc; i++)
      if (!lk_trajectory_column_name(m, i, name, sizeof name)) abort();
    if (row && lk_forward_kinematics(m, d) == LK_OK) lk_trajectory_row(m, d, row);
    free(row);
    lk_data_free(d);
  }
  lk_model_free(m);
  return 0;
}
