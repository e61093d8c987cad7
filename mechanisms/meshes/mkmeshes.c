/* mkmeshes DIR: writes DIR/mug.obj and DIR/stone.stl, the example mesh
 * objects (see meshgen.c); built with the library, not installed;
 * the committed files are what it writes (checked by make check). */
#include <stdio.h>

#include "meshgen.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: mkmeshes DIR\n");
    return 2;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/mug.obj", argv[1]);
  if (mkmesh_write_mug(path)) {
    fprintf(stderr, "mkmeshes: cannot write %s\n", path);
    return 1;
  }
  snprintf(path, sizeof path, "%s/stone.stl", argv[1]);
  if (mkmesh_write_stone(path)) {
    fprintf(stderr, "mkmeshes: cannot write %s\n", path);
    return 1;
  }
  return 0;
}
