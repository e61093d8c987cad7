/* A run's output files, replaced all together or not at all (linkage/io.h:
 * lk_outputs_*).
 *
 * Each member is written through a FILE of our own (fopencookie) over a
 * file descriptor, so that the first write error's errno is kept (ENOSPC,
 * EFBIG) whatever stdio does with it afterwards. A regular destination is
 * written to a hidden temporary in the directory of the file it names
 * (symbolic links followed), renamed over it at the commit; anything else
 * (standard output, devices, FIFOs) is written directly and never renamed
 * over: renaming over /dev/null replaces the machine's /dev/null. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/internal.h"
#include "io/io_internal.h"
#include "linkage/io.h"

typedef enum {
  M_REPLACE, /* a regular file (or a new one): temporary, then rename */
  M_DIRECT,  /* a device, FIFO or socket: opened and written as it is */
  M_STDOUT   /* "-": a duplicate of file descriptor 1 */
} member_kind;

typedef struct {
  char *path;   /* as given, for messages */
  char *target; /* the file a rename replaces: path with links followed */
  char *tmp;    /* the temporary beside target (M_REPLACE, once open) */
  char *backup; /* a hard link to the old target while renaming */
  member_kind kind;
  int existed;     /* target was a regular file when added */
  struct stat old; /* its status then (mode, owner) */
  /* Identity, to refuse two members naming one file: the file's (dev,
   * ino); for a file yet to be created its directory's and its name. */
  int has_id, new_file, shareable;
  dev_t dev;
  ino_t ino;
  const char *base;
  int fd;
  FILE *f;
  int err_no; /* the first write or close error */
} member;

/* A file the run reads, which no member may replace. */
typedef struct {
  char *path;
  dev_t dev;
  ino_t ino;
} input;

struct lk_outputs {
  member *m;
  int n, cap;
  input *in;
  int nin, capin;
  int opened, finished; /* finished: committed or discarded */
};

/* ------------------------------------------------------------ helpers */

static lk_status oom(lk_error *err) { return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory"); }

static const char *what(const member *m) { return m->kind == M_STDOUT ? "standard output" : m->path; }

static lk_status io_error(lk_error *err, const member *m, int e, const char *doing) {
  char eb[128];
  if (m->kind == M_STDOUT)
    return lk_error_set(err, LK_IO_ERROR, "%s standard output failed: %s", doing,
                        lk_io_strerror(e, eb, sizeof eb));
  return lk_error_set_at(err, LK_IO_ERROR, m->path, 0, 0, "%s the output failed: %s", doing,
                         lk_io_strerror(e, eb, sizeof eb));
}

/* dir of a path ("." when it has no slash; "/" for "/x"), freshly allocated. */
static char *dir_of(const char *p) {
  const char *slash = strrchr(p, '/');
  if (!slash) return lk_strdup(".");
  size_t n = slash == p ? 1 : (size_t)(slash - p);
  char *d = lk_malloc(n + 1);
  if (d) memcpy(d, p, n), d[n] = '\0';
  return d;
}

static const char *base_of(const char *p) {
  const char *slash = strrchr(p, '/');
  return slash ? slash + 1 : p;
}

/* Follow symbolic links from p to the file they end at, which need not
 * exist (a dangling link names the file to create). NULL with *e set on a
 * loop or when out of memory. */
static char *follow_links(const char *p, int *e) {
  char *cur = lk_strdup(p);
  for (int hops = 0; cur && hops < 40; hops++) {
    struct stat sb;
    if (lstat(cur, &sb) != 0 || !S_ISLNK(sb.st_mode)) return cur;
    char buf[4096];
    ssize_t k = readlink(cur, buf, sizeof buf - 1);
    if (k < 0) return cur; /* let open() say what is wrong */
    buf[k] = '\0';
    char *next;
    if (buf[0] == '/' || !strchr(cur, '/')) {
      next = lk_strdup(buf);
    } else {
      /* Relative to the directory holding the link. */
      size_t dl = (size_t)(strrchr(cur, '/') - cur) + 1;
      next = lk_malloc(dl + (size_t)k + 1);
      if (next) memcpy(next, cur, dl), memcpy(next + dl, buf, (size_t)k + 1);
    }
    lk_free(cur);
    cur = next;
  }
  if (cur) {
    lk_free(cur);
    *e = ELOOP;
  } else {
    *e = ENOMEM;
  }
  return NULL;
}

/* Six characters for a temporary's name, from the kernel's random pool
 * (or the clock and a counter when it has none to give). */
static void random_suffix(char out[7]) {
  static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  static unsigned counter;
  unsigned char r[6];
  if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^ (uint64_t)getpid() << 20 ^
                 __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
    for (int i = 0; i < 6; i++, x >>= 8) r[i] = (unsigned char)x;
  }
  for (int i = 0; i < 6; i++) out[i] = abc[r[i] % 62];
  out[6] = '\0';
}

/* "<dir>/.<base>.XXXXXX" beside target (the base shortened so that the
 * name stays within NAME_MAX); `tail` is appended ("" or ".old"). */
static char *sibling_name(const char *target, const char *tail) {
  const char *base = base_of(target);
  size_t dl = (size_t)(base - target), bl = strlen(base);
  if (bl > 200) bl = 200;
  size_t n = dl + bl + 16 + strlen(tail);
  char *s = lk_malloc(n);
  if (!s) return NULL;
  char suf[7];
  random_suffix(suf);
  snprintf(s, n, "%.*s.%.*s.%s%s", (int)dl, target, (int)bl, base, suf, tail);
  return s;
}

/* ------------------------------------------------------ cookie streams */

static ssize_t member_write(void *cookie, const char *buf, size_t size) {
  member *m = cookie;
  size_t done = 0;
  while (done < size) {
    ssize_t w = write(m->fd, buf + done, size - done);
    if (w < 0 && errno == EINTR) continue; /* a signal the program handles */
    if (w <= 0) {
      if (!m->err_no) m->err_no = w < 0 ? errno : EIO;
      break;
    }
    done += (size_t)w;
  }
  return (ssize_t)done; /* short: stdio marks the stream failed */
}

static int member_close(void *cookie) {
  member *m = cookie;
  int r = m->fd >= 0 ? close(m->fd) : 0;
  if (r != 0 && !m->err_no) m->err_no = errno;
  m->fd = -1;
  return r;
}

static lk_status member_stream(member *m, lk_error *err) {
  cookie_io_functions_t io = {NULL, member_write, NULL, member_close};
  m->f = fopencookie(m, "w", io);
  if (!m->f) {
    close(m->fd);
    m->fd = -1;
    return oom(err);
  }
  /* Rows are short; a large buffer keeps long runs to few writes. */
  setvbuf(m->f, NULL, _IOFBF, (size_t)1 << 16);
  return LK_OK;
}

/* -------------------------------------------------------------- the set */

lk_outputs *lk_outputs_new(void) { return lk_calloc(1, sizeof(lk_outputs)); }

int lk_outputs_count(const lk_outputs *s) { return s ? s->n : 0; }

const char *lk_outputs_path(const lk_outputs *s, int i) {
  return s && i >= 0 && i < s->n ? s->m[i].path : NULL;
}

int lk_outputs_replaces(const lk_outputs *s, int i) {
  return s && i >= 0 && i < s->n && s->m[i].kind == M_REPLACE;
}

FILE *lk_outputs_file(lk_outputs *s, int i) {
  return s && s->opened && !s->finished && i >= 0 && i < s->n ? s->m[i].f : NULL;
}

static int same_file(const member *a, const member *b) {
  if (a->kind == M_STDOUT && b->kind == M_STDOUT) return 1;
  if (!a->has_id || !b->has_id || a->shareable || b->shareable) return 0;
  if (a->new_file != b->new_file || a->dev != b->dev || a->ino != b->ino) return 0;
  return !a->new_file || strcmp(a->base, b->base) == 0;
}

/* The input a member would replace, or NULL. Standard output is not
 * renamed over, and what the shell redirected it to is the shell's. */
static const input *replaced_input(const lk_outputs *s, const member *m) {
  if (m->kind != M_REPLACE || !m->existed) return NULL;
  for (int k = 0; k < s->nin; k++)
    if (s->in[k].dev == m->dev && s->in[k].ino == m->ino) return &s->in[k];
  return NULL;
}

static lk_status replaces_input(lk_error *err, const member *m, const input *in) {
  return lk_error_set(err, LK_INVALID_ARGUMENT,
                      "the output '%s' is the file '%s' that the run reads: it would be replaced",
                      m->path, in->path);
}

lk_status lk_outputs_input(void *set, const char *path, lk_error *err) {
  lk_outputs *s = set;
  struct stat sb;
  if (!s || !path || stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) return LK_OK;
  for (int k = 0; k < s->nin; k++)
    if (s->in[k].dev == sb.st_dev && s->in[k].ino == sb.st_ino) return LK_OK;
  if (s->nin == s->capin) {
    int nc = s->capin ? 2 * s->capin : 8;
    input *p = lk_realloc(s->in, (size_t)nc * sizeof *p);
    if (!p) return oom(err);
    s->in = p;
    s->capin = nc;
  }
  input *in = &s->in[s->nin];
  in->path = lk_strdup(path);
  if (!in->path) return oom(err);
  in->dev = sb.st_dev;
  in->ino = sb.st_ino;
  s->nin++;
  for (int i = 0; i < s->n; i++)
    if (replaced_input(s, &s->m[i]) == in) return replaces_input(err, &s->m[i], in);
  return LK_OK;
}

static void member_free(member *m) {
  lk_free(m->path);
  lk_free(m->target);
  lk_free(m->tmp);
  lk_free(m->backup);
}

int lk_outputs_add(lk_outputs *s, const char *path, lk_error *err) {
  if (!s || s->opened) {
    lk_error_set(err, LK_INVALID_ARGUMENT, "outputs are added before the set is opened");
    return -1;
  }
  if (!path || !*path) {
    lk_error_set(err, LK_INVALID_ARGUMENT, "an output path is empty");
    return -1;
  }
  if (s->n == s->cap) {
    int nc = s->cap ? 2 * s->cap : 4;
    member *m = lk_realloc(s->m, (size_t)nc * sizeof *m);
    if (!m) return oom(err), -1;
    s->m = m;
    s->cap = nc;
  }
  member *m = &s->m[s->n];
  memset(m, 0, sizeof *m);
  m->fd = -1;
  m->path = lk_strdup(path);
  if (!m->path) return oom(err), -1;
  struct stat sb;
  if (strcmp(path, "-") == 0) {
    m->kind = M_STDOUT;
    /* Standard output redirected to a file another member names would
     * be renamed away under it. */
    if (fstat(STDOUT_FILENO, &sb) == 0 && (S_ISREG(sb.st_mode) || S_ISFIFO(sb.st_mode)))
      m->has_id = 1, m->dev = sb.st_dev, m->ino = sb.st_ino;
  } else {
    int e = 0;
    m->target = follow_links(path, &e);
    if (!m->target) {
      char eb[128];
      member_free(m);
      lk_error_set_at(err, e == ENOMEM ? LK_OUT_OF_MEMORY : LK_IO_ERROR, path, 0, 0,
                      "cannot resolve the output path: %s", lk_io_strerror(e, eb, sizeof eb));
      return -1;
    }
    size_t tl = strlen(m->target);
    if (m->target[tl - 1] == '/' || (stat(m->target, &sb) == 0 && S_ISDIR(sb.st_mode))) {
      member_free(m);
      lk_error_set_at(err, LK_INVALID_ARGUMENT, path, 0, 0, "the output path names a directory");
      return -1;
    }
    if (stat(m->target, &sb) == 0) {
      m->has_id = 1, m->dev = sb.st_dev, m->ino = sb.st_ino;
      if (S_ISREG(sb.st_mode)) {
        m->kind = M_REPLACE;
        m->existed = 1;
        m->old = sb;
      } else {
        m->kind = M_DIRECT;
        /* /dev/null may take every output; a FIFO may not (two writers
         * would interleave their lines). */
        m->shareable = S_ISCHR(sb.st_mode);
      }
    } else {
      m->kind = M_REPLACE;
      char *dir = dir_of(m->target);
      if (!dir) return member_free(m), oom(err), -1;
      if (stat(dir, &sb) == 0)
        m->has_id = 1, m->new_file = 1, m->dev = sb.st_dev, m->ino = sb.st_ino;
      lk_free(dir);
      m->base = base_of(m->target);
    }
  }
  for (int k = 0; k < s->n; k++)
    if (same_file(&s->m[k], m)) {
      if (m->kind == M_STDOUT && s->m[k].kind == M_STDOUT)
        lk_error_set(err, LK_INVALID_ARGUMENT, "standard output ('-') is named twice");
      else
        lk_error_set(err, LK_INVALID_ARGUMENT, "'%s' and '%s' name the same file",
                     what(&s->m[k]), what(m));
      member_free(m);
      return -1;
    }
  const input *in = replaced_input(s, m);
  if (in) {
    replaces_input(err, m, in);
    member_free(m);
    return -1;
  }
  return s->n++;
}

static lk_status open_replace(member *m, lk_error *err) {
  char eb[128];
  if (m->existed && access(m->target, W_OK) != 0 && errno == EACCES)
    return lk_error_set_at(err, LK_IO_ERROR, m->path, 0, 0,
                           "cannot create the output file: the file is not writable (%s)",
                           lk_io_strerror(EACCES, eb, sizeof eb));
  int e = 0;
  for (int tries = 0; tries < 64; tries++) {
    lk_free(m->tmp);
    m->tmp = sibling_name(m->target, "");
    if (!m->tmp) return oom(err);
    /* The umask applies to 0666 as to any file the user creates. */
    m->fd = open(m->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (m->fd >= 0 || (e = errno) != EEXIST) break;
  }
  if (m->fd < 0) {
    lk_free(m->tmp);
    m->tmp = NULL;
    return lk_error_set_at(err, LK_IO_ERROR, m->path, 0, 0, "cannot create the output file: %s",
                           lk_io_strerror(e, eb, sizeof eb));
  }
  if (m->existed) {
    /* The replacement is the same file to its user: owner, group (where
     * we may set them) and mode (after chown, which clears set-id bits). */
    if (m->old.st_uid != geteuid() || m->old.st_gid != getegid())
      (void)!fchown(m->fd, m->old.st_uid, m->old.st_gid);
    (void)fchmod(m->fd, m->old.st_mode & 07777);
  }
  return member_stream(m, err);
}

static lk_status open_direct(member *m, lk_error *err) {
  char eb[128];
  if (m->kind == M_STDOUT) {
    fflush(stdout); /* what the program wrote there first goes first */
    m->fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (m->fd < 0)
      return lk_error_set(err, LK_IO_ERROR, "standard output cannot be written: %s",
                          lk_io_strerror(errno, eb, sizeof eb));
  } else {
    m->fd = open(m->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (m->fd < 0)
      return lk_error_set_at(err, LK_IO_ERROR, m->path, 0, 0, "cannot open the output: %s",
                             lk_io_strerror(errno, eb, sizeof eb));
  }
  return member_stream(m, err);
}

lk_status lk_outputs_open(lk_outputs *s, lk_error *err) {
  if (!s || s->opened) return lk_error_set(err, LK_INVALID_ARGUMENT, "the output set is already open");
  s->opened = 1;
  for (int i = 0; i < s->n; i++) {
    member *m = &s->m[i];
    lk_status st = m->kind == M_REPLACE ? open_replace(m, err) : open_direct(m, err);
    if (st) {
      lk_outputs_discard(s);
      return st;
    }
  }
  return LK_OK;
}

lk_status lk_outputs_error(const lk_outputs *s, lk_error *err) {
  if (!s) return LK_OK;
  for (int i = 0; i < s->n; i++)
    if (s->m[i].err_no) return io_error(err, &s->m[i], s->m[i].err_no, "writing");
  return LK_OK;
}

/* Close every member's stream; the first failure is reported. */
static lk_status finish_streams(lk_outputs *s, lk_error *err) {
  lk_status st = LK_OK;
  for (int i = 0; i < s->n; i++) {
    member *m = &s->m[i];
    if (!m->f) continue;
    const char *doing = "writing";
    if (fflush(m->f) != 0 && !m->err_no) m->err_no = errno ? errno : EIO;
    if (ferror(m->f) && !m->err_no) m->err_no = EIO;
    /* The data must be on the disk before a rename makes it the file. */
    if (!m->err_no && m->kind == M_REPLACE && fsync(m->fd) != 0 && errno != EINVAL)
      m->err_no = errno;
    int had = m->err_no;
    fclose(m->f); /* member_close records a failing close() */
    m->f = NULL;
    if (!had && m->err_no) doing = "closing";
    if (m->err_no && !st) st = io_error(err, m, m->err_no, doing);
  }
  return st;
}

static void remove_temporaries(lk_outputs *s) {
  for (int i = 0; i < s->n; i++) {
    member *m = &s->m[i];
    if (m->f) fclose(m->f);
    m->f = NULL;
    if (m->fd >= 0) close(m->fd);
    m->fd = -1;
    if (m->tmp) unlink(m->tmp);
    if (m->backup) unlink(m->backup);
    lk_free(m->tmp);
    lk_free(m->backup);
    m->tmp = m->backup = NULL;
  }
}

/* Make the renames themselves durable (best effort: not every file system
 * lets a directory be synced). */
static void sync_dir(const char *target) {
  char *dir = dir_of(target);
  if (!dir) return;
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    (void)fsync(fd);
    close(fd);
  }
  lk_free(dir);
}

lk_status lk_outputs_commit(lk_outputs *s, lk_error *err) {
  if (!s || !s->opened || s->finished)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "the output set is not open");
  s->finished = 1;
  lk_status st = finish_streams(s, err);
  if (st) {
    remove_temporaries(s);
    return st;
  }
  /* Every file is complete. Before the first rename, keep a hard link to
   * each old file that a later failing rename would need put back (the
   * last member's rename has no later one). Where no link can be made
   * (a file system without hard links) that member is not restorable. */
  int last = -1;
  for (int i = 0; i < s->n; i++)
    if (s->m[i].kind == M_REPLACE) last = i;
  for (int i = 0; i < last; i++) {
    member *m = &s->m[i];
    if (m->kind != M_REPLACE) continue;
    for (int tries = 0; tries < 16; tries++) {
      lk_free(m->backup);
      m->backup = sibling_name(m->target, ".old");
      if (!m->backup || link(m->target, m->backup) == 0) break;
      int e = errno;
      lk_free(m->backup);
      m->backup = NULL;
      if (e != EEXIST) break;
    }
  }
  for (int i = 0; i < s->n; i++) {
    member *m = &s->m[i];
    if (m->kind != M_REPLACE) continue;
    if (rename(m->tmp, m->target) == 0) {
      lk_free(m->tmp);
      m->tmp = NULL;
      continue;
    }
    int e = errno;
    /* Put back what the earlier renames replaced. */
    for (int k = 0; k < i; k++) {
      member *b = &s->m[k];
      if (b->kind != M_REPLACE) continue;
      if (b->backup) {
        if (rename(b->backup, b->target) == 0) {
          lk_free(b->backup);
          b->backup = NULL;
        }
      } else if (!b->existed) {
        unlink(b->target);
      }
    }
    remove_temporaries(s);
    char eb[128];
    return lk_error_set_at(err, LK_IO_ERROR, m->path, 0, 0,
                           "cannot put the output in place: %s; no output was replaced",
                           lk_io_strerror(e, eb, sizeof eb));
  }
  for (int i = 0; i < s->n; i++) {
    member *m = &s->m[i];
    if (m->kind != M_REPLACE) continue;
    if (m->backup) unlink(m->backup);
    lk_free(m->backup);
    m->backup = NULL;
    sync_dir(m->target);
  }
  return LK_OK;
}

void lk_outputs_discard(lk_outputs *s) {
  if (!s) return;
  s->finished = 1;
  remove_temporaries(s);
}

void lk_outputs_free(lk_outputs *s) {
  if (!s) return;
  remove_temporaries(s);
  for (int i = 0; i < s->n; i++) member_free(&s->m[i]);
  for (int k = 0; k < s->nin; k++) lk_free(s->in[k].path);
  lk_free(s->in);
  lk_free(s->m);
  lk_free(s);
}
