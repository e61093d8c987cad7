/* See proc.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "proc.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

static char dir[4096];
static pid_t owner; /* the process that made dir: a forked child must not remove it */

static const char *build_top(void) {
  const char *b = getenv("LK_TOP_BUILDDIR");
  return b && *b ? b : ".";
}

static void remove_scratch(void) {
  if (!dir[0] || getpid() != owner) return;
  lk_test_scratch_clear();
  rmdir(dir);
}

const char *lk_test_scratch_dir(void) {
  if (!dir[0]) {
    snprintf(dir, sizeof dir, "%s/tests/scratch.XXXXXX", build_top());
    if (!mkdtemp(dir)) {
      /* No scratch folder: every file a test names fails visibly. */
      snprintf(dir, sizeof dir, "/nonexistent/scratch");
      return dir;
    }
    owner = getpid();
    atexit(remove_scratch);
  }
  return dir;
}

const char *lk_test_scratch(const char *name) {
  static char buf[8][8192];
  static int slot;
  char *o = buf[slot++ & 7];
  snprintf(o, sizeof buf[0], "%s/%s", lk_test_scratch_dir(), name);
  return o;
}

/* Remove what is in folder d, folders too (a link is removed, not
 * followed). */
static void empty_folder(const char *d) {
  DIR *dd = opendir(d);
  struct dirent *e;
  while (dd && (e = readdir(dd))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char p[8448];
    snprintf(p, sizeof p, "%s/%s", d, e->d_name);
    struct stat sb;
    if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode)) {
      chmod(p, 0700); /* tests make unwritable folders too */
      empty_folder(p);
      rmdir(p);
    } else {
      unlink(p);
    }
  }
  if (dd) closedir(dd);
}

void lk_test_scratch_clear(void) { empty_folder(lk_test_scratch_dir()); }

int lk_test_scratch_entries(void) {
  DIR *d = opendir(lk_test_scratch_dir());
  int n = 0;
  struct dirent *e;
  while (d && (e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
  if (d) closedir(d);
  return n;
}

void lk_test_write(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  int ok = f && fputs(text, f) >= 0;
  if (f && fclose(f) != 0) ok = 0;
  if (!ok) lk_test_fail(__LINE__, __FILE__, "cannot write %s", path);
}

char *lk_test_slurp(const char *path, size_t *len) {
  if (len) *len = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *b = malloc(cap);
  /* Read to the end rather than by ftell: FIFOs and /proc files have no
   * size. */
  while (b) {
    n += fread(b + n, 1, cap - n - 1, f);
    if (n < cap - 1) break;
    char *g = realloc(b, cap * 2);
    if (!g) {
      free(b);
      b = NULL;
      break;
    }
    b = g;
    cap *= 2;
  }
  fclose(f);
  if (!b) return NULL;
  b[n] = '\0';
  if (len) *len = n;
  return b;
}

int lk_test_exists(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0;
}

int lk_test_lines(const char *s) {
  int n = 0;
  for (; s && *s; s++) n += *s == '\n';
  return n;
}

const char *lk_test_mechanism(const char *name) {
  static char buf[4][4096];
  static int slot;
  char rel[256];
  snprintf(rel, sizeof rel, "mechanisms/%s.yaml", name);
  char *o = buf[slot++ & 3];
  snprintf(o, sizeof buf[0], "%s", lk_test_srcpath(rel));
  return o;
}

/* The child's stdout and stderr, in buffers of their own (not
 * lk_test_scratch()'s ring, which the tests' own names use). */
static const char *capture(int which) {
  static char buf[2][8192];
  if (!buf[which][0])
    snprintf(buf[which], sizeof buf[which], "%s/%s", lk_test_scratch_dir(),
             which ? "..stderr" : "..stdout");
  return buf[which];
}

pid_t lk_test_start(const lk_test_how *h, const char *const *args) {
  char prog[4096];
  snprintf(prog, sizeof prog, "%s/%s", build_top(), h->prog ? h->prog : "tools/linkage");
  const char *argv[64];
  int n = 0;
  argv[n++] = prog;
  for (int i = 0; args[i] && n < 63; i++) argv[n++] = args[i];
  argv[n] = NULL;
  const char *out = h->stdout_path ? h->stdout_path : capture(0), *err = capture(1);
  const char *in_path = h->stdin_path ? h->stdin_path : "/dev/null";
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    int in = open(in_path, O_RDONLY);
    int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || o < 0 || e < 0) _exit(127);
    dup2(in, 0), dup2(o, 1), dup2(e, 2);
    if (h->fsize > 0) {
      struct rlimit rl = {(rlim_t)h->fsize, (rlim_t)h->fsize};
      setrlimit(RLIMIT_FSIZE, &rl);
    }
    execv(prog, (char *const *)argv);
    _exit(127);
  }
  return pid;
}

lk_test_result lk_test_finish(const lk_test_how *h, pid_t pid) {
  lk_test_result r = {-1, 0, NULL, NULL};
  int ws;
  if (pid > 0 && waitpid(pid, &ws, 0) == pid) {
    if (WIFEXITED(ws)) r.status = WEXITSTATUS(ws);
    else if (WIFSIGNALED(ws)) r.status = 128 + WTERMSIG(ws), r.killed = 1;
  }
  const char *out = h->stdout_path ? h->stdout_path : capture(0), *err = capture(1);
  /* A device given as stdout is not read back. */
  r.out = h->stdout_path && strncmp(h->stdout_path, "/dev/", 5) == 0 ? NULL : lk_test_slurp(out, NULL);
  r.err = lk_test_slurp(err, NULL);
  if (!r.out) r.out = calloc(1, 1);
  if (!r.err) r.err = calloc(1, 1);
  if (!h->stdout_path) unlink(out);
  unlink(err);
  return r;
}

lk_test_result lk_test_run_how(const lk_test_how *h, const char *const *args) {
  return lk_test_finish(h, lk_test_start(h, args));
}

lk_test_result lk_test_run(const char *prog, const char *const *args) {
  lk_test_how h = {prog, NULL, NULL, 0};
  return lk_test_run_how(&h, args);
}

void lk_test_result_free(lk_test_result *r) {
  free(r->out);
  free(r->err);
  r->out = r->err = NULL;
}

const lk_test_result *lk_test_linkage(const char *const *args) {
  static lk_test_result last;
  lk_test_result_free(&last);
  last = lk_test_run(NULL, args);
  return &last;
}
