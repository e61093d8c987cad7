/* Running the project's programs from a test, as a user runs them, and a
 * scratch folder for the files they read and write. Shared by every test
 * that spawns `linkage` or `grasp-planner` (tests/tools, tests/models,
 * tests/grasp). */
#ifndef LK_TEST_PROC_H
#define LK_TEST_PROC_H

#include <stddef.h>
#include <sys/types.h>

/* The program's own scratch folder, $LK_TOP_BUILDDIR/tests/scratch.XXXXXX,
 * made on first use and removed (with what is in it) when the program
 * exits. */
const char *lk_test_scratch_dir(void);

/* dir/name in the scratch folder; one of 8 rotating static buffers. */
const char *lk_test_scratch(const char *name);

/* Remove every entry of the scratch folder (not the folder). */
void lk_test_scratch_clear(void);

/* Number of entries in the scratch folder (hidden ones included). */
int lk_test_scratch_entries(void);

/* Write text to path; a failure to write is a failed check. */
void lk_test_write(const char *path, const char *text);

/* A file's whole content, NUL-terminated, malloc'd (free it); NULL when it
 * cannot be read. len (may be NULL) receives its size. */
char *lk_test_slurp(const char *path, size_t *len);

/* 1 when path exists (stat). */
int lk_test_exists(const char *path);

/* Number of newline characters in s. */
int lk_test_lines(const char *s);

/* Path of the shipped mechanisms/NAME.yaml; a rotating buffer. */
const char *lk_test_mechanism(const char *name);

/* The programs, under the build tree. */
#define LK_TEST_LINKAGE "tools/linkage"
#define LK_TEST_PLANNER "demos/grasp-planner"

/* How to start a program. */
typedef struct {
  const char *prog;        /* under the build tree: "tools/linkage", "demos/grasp-planner" */
  const char *stdout_path; /* NULL: captured into lk_test_result.out */
  const char *stdin_path;  /* NULL: /dev/null */
  long fsize;              /* > 0: RLIMIT_FSIZE in bytes (a full disk) */
} lk_test_how;

typedef struct {
  int status; /* exit status; 128 + n when killed by signal n; -1 when it did not run */
  int killed; /* 1 when it did not exit by itself */
  char *out, *err; /* stdout (the stdout_path file; "" for a /dev/ one) and stderr */
} lk_test_result;

/* Start a program with args (NULL-terminated, without argv[0]); returns its
 * pid, or -1. */
pid_t lk_test_start(const lk_test_how *h, const char *const *args);

/* Wait for a started program and collect what it printed. */
lk_test_result lk_test_finish(const lk_test_how *h, pid_t pid);

/* Start and finish as h says. */
lk_test_result lk_test_run_how(const lk_test_how *h, const char *const *args);

/* Start and finish prog (LK_TEST_LINKAGE, ...) with stdin from /dev/null. */
lk_test_result lk_test_run(const char *prog, const char *const *args);

void lk_test_result_free(lk_test_result *r);

/* `linkage args...`; the result stays valid until the next call. */
const lk_test_result *lk_test_linkage(const char *const *args);

#endif
