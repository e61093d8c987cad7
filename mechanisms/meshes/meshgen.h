/* The example mesh objects' generator (meshgen.c), shared by the program
 * that writes them (mkmeshes.c) and the test that checks them. */
#ifndef LK_MESHGEN_H
#define LK_MESHGEN_H

/* 0 on success, -1 when the file cannot be written. */
int mkmesh_write_mug(const char *path);
int mkmesh_write_stone(const char *path);
/* The mug's parts and their total volume in closed form (m^3). */
int mkmesh_mug_parts(void);
double mkmesh_mug_volume(void);

#endif
