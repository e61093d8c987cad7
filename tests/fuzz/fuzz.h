/* The fuzz targets of the one fuzzing binary (fuzz_load.c picks one by
 * $LK_FUZZ_TARGET: load, the default, for YAML, URDF and MJCF text; mesh;
 * lcp). Each returns 0 and aborts on a finding. */
#ifndef LK_TESTS_FUZZ_H
#define LK_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int lk_fuzz_mesh(const uint8_t *data, size_t size);
int lk_fuzz_lcp(const uint8_t *data, size_t size);

#endif
