/* The mesh reader under fuzzing (fuzz_load.c's "mesh" target): the bytes
 * are written to a file named .stl or .obj (by the first byte) and read by
 * lk_mesh_load_file, as a description's mesh is: a hull or an error with a
 * message, never a crash, a leak or a hang. assimp parses; what is fuzzed
 * is the project's side (the guard, the vertices, scaling, the hull). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "linkage/linkage.h"

int lk_fuzz_mesh(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  static char path[2][64];
  int obj = data[0] & 1;
  if (!path[obj][0]) {
    snprintf(path[obj], sizeof path[obj], "/tmp/lk-fuzz-%ld%s", (long)getpid(), obj ? ".obj" : ".stl");
  }
  FILE *f = fopen(path[obj], "wb");
  if (!f) return 0;
  fwrite(data + 1, 1, size - 1, f);
  fclose(f);
  double scale[3] = {1, 1, 1};
  if (size > 2) scale[0] = scale[1] = scale[2] = 0.001 * (1 + data[1] % 8);
  lk_mesh *mesh = NULL;
  lk_error err;
  lk_status st = lk_mesh_load_file(path[obj], scale, &mesh, &err);
  unlink(path[obj]);
  if (st) {
    if (mesh || err.message[0] == '\0') abort();
    return 0;
  }
  if (!mesh) abort();
  lk_mesh_free(mesh);
  return 0;
}
