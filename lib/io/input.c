/* May this path be opened? The one guard every reader passes a file
 * through before opening it (io_internal.h: lk_io_input). A file that a
 * description references (an included file, a mesh) must be a regular
 * file: opening a FIFO waits for a writer forever, and a directory or a
 * device is never a description. stat() does not open, so it cannot hang. */
#include <errno.h>
#include <sys/stat.h>

#include "core/internal.h"
#include "io/io_internal.h"
#include "linkage/io.h"

static const char *kind_of(mode_t m) {
  return S_ISFIFO(m)   ? "is a FIFO (a named pipe)"
         : S_ISDIR(m)  ? "is a directory"
         : S_ISCHR(m)  ? "is a character device"
         : S_ISBLK(m)  ? "is a block device"
         : S_ISSOCK(m) ? "is a socket"
                       : "is not a regular file";
}

lk_status lk_io_regular_file(const char *path, lk_error *err) {
  char eb[128];
  struct stat sb;
  if (stat(path, &sb) != 0) {
    int e = errno;
    return lk_error_set_at(err, LK_IO_ERROR, path, 0, 0, "cannot open the file: %s",
                           lk_io_strerror(e, eb, sizeof eb));
  }
  if (!S_ISREG(sb.st_mode))
    return lk_error_set_at(err, LK_IO_ERROR, path, 0, 0, "%s, not a regular file",
                           kind_of(sb.st_mode));
  return LK_OK;
}

lk_status lk_io_input(const lk_load_options *o, const char *path, int referenced,
                      lk_error *err) {
  if (referenced) {
    lk_status st = lk_io_regular_file(path, err);
    if (st) return st;
  }
  if (o && o->input) return o->input(o->input_ctx, path, err);
  return LK_OK;
}
