/* What the programs do with their outputs (issue 18, items 1-7 and 11),
 * run as a user runs them: `linkage simulate` and the grasp planner on
 * devices, FIFOs and a full disk, with two options naming one file, under
 * SIGINT, SIGTERM and SIGHUP, over files with their own mode and through
 * symbolic links; every `linkage` command's standard output checked.
 *
 * A full disk is simulated two ways: /dev/full (ENOSPC on every write)
 * and a file size limit in the child (RLIMIT_FSIZE, so EFBIG), which
 * needs neither root nor a mount and hits each file at the size chosen. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "proc.h"

/* The names in the scratch directory, sorted, space-separated (hidden
 * temporaries included): what a run left behind. */
static const char *listing(void) {
  static char out[4096];
  char names[64][256];
  int n = 0;
  DIR *d = opendir(lk_test_scratch_dir());
  struct dirent *e;
  while (d && (e = readdir(d)) && n < 64)
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
      snprintf(names[n++], sizeof names[0], "%s", e->d_name);
  if (d) closedir(d);
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
      char t[256];
      memcpy(t, names[j], sizeof t);
      memcpy(names[j], names[j - 1], sizeof t);
      memcpy(names[j - 1], t, sizeof t);
    }
  out[0] = '\0';
  for (int i = 0; i < n; i++) {
    strncat(out, i ? " " : "", sizeof out - strlen(out) - 1);
    strncat(out, names[i], sizeof out - strlen(out) - 1);
  }
  return out;
}

/* A file's text, "" when it cannot be read. */
static char *slurp(const char *path) {
  char *s = lk_test_slurp(path, NULL);
  return s ? s : calloc(1, 1);
}

static const char *last_line(const char *s, char *buf, size_t size) {
  size_t n = strlen(s);
  if (n && s[n - 1] == '\n') n--;
  size_t b = n;
  while (b > 0 && s[b - 1] != '\n') b--;
  snprintf(buf, size, "%.*s", (int)(n - b), s + b);
  return buf;
}

/* ------------------------------------------------------------ running */

/* Wait until the scratch directory holds a hidden temporary whose name
 * starts with "." + base (the run has opened its outputs), at most 60 s. */
static int wait_for_temporary(const char *base) {
  char prefix[300];
  snprintf(prefix, sizeof prefix, ".%s.", base);
  for (int i = 0; i < 6000; i++) {
    DIR *d = opendir(lk_test_scratch_dir());
    struct dirent *e;
    int found = 0;
    while (d && (e = readdir(d)))
      if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) found = 1;
    if (d) closedir(d);
    if (found) return 1;
    struct timespec ts = {0, 10 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
  return 0;
}

static int is_char_device(const char *p) {
  struct stat sb;
  return stat(p, &sb) == 0 && S_ISCHR(sb.st_mode);
}

/* ------------------------------------------------------------ devices */

/* Item 1: a device is written, never replaced; its errors are the run's. */
static void test_devices_are_written_directly(void) {
  lk_test_scratch_clear();
  lk_test_result r =
      lk_test_run(LK_TEST_LINKAGE,
                  (const char *[]){"simulate", lk_test_mechanism("pendulum"), "-q", "-d", "0.1",
                                   "-o", "/dev/null", "-c", "/dev/null", "-p", "/dev/null", NULL});
  LK_ASSERT_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
  CU_ASSERT_TRUE(is_char_device("/dev/null"));
  lk_test_result_free(&r);

  r = lk_test_run(LK_TEST_LINKAGE, (const char *[]){"simulate", lk_test_mechanism("pendulum"), "-q",
                                                    "-d", "0.1", "-o", "/dev/full", NULL});
  LK_ASSERT_MSG(r.status == 1, "exit %d: %s", r.status, r.err);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "/dev/full"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "No space left on device"));
  CU_ASSERT_TRUE(is_char_device("/dev/full"));
  lk_test_result_free(&r);

  /* A device that fails beside a regular file: the file is not created. */
  const char *csv = lk_test_scratch("traj.csv");
  r = lk_test_run(LK_TEST_LINKAGE,
                  (const char *[]){"simulate", lk_test_mechanism("pendulum"), "-q", "-d", "0.1",
                                   "-o", csv, "-p", "/dev/full", NULL});
  LK_ASSERT_MSG(r.status == 1, "exit %d: %s", r.status, r.err);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "No space left on device"));
  CU_ASSERT_STRING_EQUAL(listing(), "");
  lk_test_result_free(&r);
}

/* Item 1: a FIFO is opened and written as it is (a reader gets the rows)
 * and stays a FIFO. */
static void test_fifo_is_written_directly(void) {
  lk_test_scratch_clear();
  const char *fifo = lk_test_scratch("pipe"), *got = lk_test_scratch("got.csv");
  CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
  fflush(NULL);
  pid_t reader = fork();
  if (reader == 0) {
    int in = open(fifo, O_RDONLY), out = open(got, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    char b[4096];
    ssize_t k;
    while (in >= 0 && out >= 0 && (k = read(in, b, sizeof b)) > 0)
      if (write(out, b, (size_t)k) != k) _exit(1);
    _exit(0);
  }
  lk_test_result r =
      lk_test_run(LK_TEST_LINKAGE, (const char *[]){"simulate", lk_test_mechanism("pendulum"), "-q",
                                                    "-d", "0.01", "-o", fifo, NULL});
  int ws;
  waitpid(reader, &ws, 0);
  LK_ASSERT_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
  struct stat sb;
  CU_ASSERT_TRUE(stat(fifo, &sb) == 0 && S_ISFIFO(sb.st_mode));
  char *text = slurp(got);
  /* The header, the initial state and 10 steps of 1 ms. */
  LK_ASSERT_INT_EQ(lk_test_lines(text), 12);
  CU_ASSERT_EQUAL(strncmp(text, "t,bob.x,bob.y,bob.z,hinge.q,hinge.v\n", 36), 0);
  free(text);
  lk_test_result_free(&r);
}

/* ----------------------------------------------------- one file twice */

/* Item 2: two outputs naming one file, however named, exit 2 before
 * anything is written (the old file keeps its bytes). */
static void test_one_file_named_twice_is_a_usage_error(void) {
  lk_test_scratch_clear();
  const char *x = lk_test_scratch("x.csv");
  lk_test_result r = lk_test_run(
      LK_TEST_LINKAGE,
      (const char *[]){"simulate", lk_test_mechanism("pendulum"), "-q", "-o", x, "-c", x, NULL});
  LK_ASSERT_MSG(r.status == 2, "exit %d: %s", r.status, r.err);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "name the same file"));
  CU_ASSERT_STRING_EQUAL(listing(), "");
  lk_test_result_free(&r);

  lk_test_write(x, "old\n");
  char dotted[8300];
  snprintf(dotted, sizeof dotted, "%s/./x.csv", lk_test_scratch_dir());
  r = lk_test_run(LK_TEST_LINKAGE, (const char *[]){"simulate", lk_test_mechanism("pendulum"), "-q",
                                                    "-o", x, "-p", dotted, NULL});
  LK_ASSERT_MSG(r.status == 2, "exit %d: %s", r.status, r.err);
  lk_test_result_free(&r);

  const char *lnk = lk_test_scratch("l.csv"), *hard = lk_test_scratch("h.csv");
  CU_ASSERT_EQUAL(symlink("x.csv", lnk), 0);
  CU_ASSERT_EQUAL(link(x, hard), 0);
  r = lk_test_run(LK_TEST_LINKAGE, (const char *[]){"simulate", lk_test_mechanism("pendulum"), "-q",
                                                    "-c", lnk, "-o", x, NULL});
  LK_ASSERT_MSG(r.status == 2, "exit %d: %s", r.status, r.err);
  lk_test_result_free(&r);
  r = lk_test_run(LK_TEST_LINKAGE, (const char *[]){"simulate", lk_test_mechanism("pendulum"), "-q",
                                                    "-o", hard, "-p", x, NULL});
  LK_ASSERT_MSG(r.status == 2, "exit %d: %s", r.status, r.err);
  lk_test_result_free(&r);

  /* Standard output sent to the file another option names (the shell's
   * `> y.csv` has emptied it already). */
  const char *y = lk_test_scratch("y.csv");
  lk_test_how h = {LK_TEST_LINKAGE, y, NULL, 0};
  r = lk_test_run_how(
      &h, (const char *[]){"simulate", lk_test_mechanism("pendulum"), "-q", "-c", y, NULL});
  LK_ASSERT_MSG(r.status == 2, "exit %d: %s", r.status, r.err);
  lk_test_result_free(&r);

  /* Nothing ran: x is as it was, and nothing else was made. */
  char *text = slurp(x);
  CU_ASSERT_STRING_EQUAL(text, "old\n");
  free(text);
  text = slurp(y);
  CU_ASSERT_STRING_EQUAL(text, "");
  free(text);
  CU_ASSERT_STRING_EQUAL(listing(), "h.csv l.csv x.csv y.csv");

  /* Item 16: a subnormal duration is a tiny duration (one step), not a
   * negative one; a negative one is refused. */
  r = lk_test_run(LK_TEST_LINKAGE, (const char *[]){"simulate", lk_test_mechanism("pendulum"), "-q",
                                                    "-d", "1e-320", NULL});
  LK_ASSERT_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
  LK_ASSERT_INT_EQ(lk_test_lines(r.out), 3);
  lk_test_result_free(&r);
  r = lk_test_run(LK_TEST_LINKAGE, (const char *[]){"simulate", lk_test_mechanism("pendulum"), "-q",
                                                    "-d", "-1e-320", NULL});
  LK_ASSERT_MSG(r.status == 2, "exit %d: %s", r.status, r.err);
  lk_test_result_free(&r);

  /* Item 16: an empty path is a usage error too. */
  r = lk_test_run(LK_TEST_LINKAGE, (const char *[]){"simulate", lk_test_mechanism("pendulum"), "-q",
                                                    "-o", "", NULL});
  LK_ASSERT_MSG(r.status == 2, "exit %d: %s", r.status, r.err);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "empty"));
  lk_test_result_free(&r);
}

/* ------------------------------------------------------------ signals */

/* Item 3: a signal in the middle of a run stops it at the end of a step,
 * removes the temporaries and keeps the old outputs: exit 128 + signal. */
static int check_signal(int sig, const char *name) {
  const unsigned failures0 = lk_test_failures();
  lk_test_scratch_clear();
  const char *out = lk_test_scratch("run.csv"), *con = lk_test_scratch("run-contacts.csv");
  lk_test_write(out, "old trajectory\n");
  lk_test_write(con, "old contacts\n");
  lk_test_how h = {LK_TEST_LINKAGE, NULL, NULL, 0};
  pid_t pid = lk_test_start(&h, (const char *[]){"simulate", lk_test_mechanism("box_stack"), "-d",
                                                 "1000", "-o", out, "-c", con, NULL});
  CU_ASSERT_TRUE(wait_for_temporary("run.csv"));
  kill(pid, sig);
  lk_test_result r = lk_test_finish(&h, pid);
  LK_ASSERT_MSG(r.status == 128 + sig && !r.killed, "%s: exit %d (killed %d): %s", name, r.status,
                r.killed, r.err);
  char want[64];
  snprintf(want, sizeof want, "interrupted by %s", name);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, want));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "no output file was written"));
  /* What was done is printed: the steps simulated. */
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "steps of 0.001 s"));
  char *a = slurp(out), *b = slurp(con);
  CU_ASSERT_STRING_EQUAL(a, "old trajectory\n");
  CU_ASSERT_STRING_EQUAL(b, "old contacts\n");
  free(a);
  free(b);
  CU_ASSERT_STRING_EQUAL(listing(), "run-contacts.csv run.csv");
  lk_test_result_free(&r);
  return lk_test_failures() == failures0;
}

static void test_signals_keep_the_old_outputs(void) {
  CU_ASSERT_TRUE(check_signal(SIGINT, "SIGINT"));
  CU_ASSERT_TRUE(check_signal(SIGTERM, "SIGTERM"));
  CU_ASSERT_TRUE(check_signal(SIGHUP, "SIGHUP"));
}

/* Items 3 and 11: with --partial the rows up to the signal are kept, the
 * CSV ending in its marker, whose step count is the rows'. */
static void test_partial_after_a_signal(void) {
  lk_test_scratch_clear();
  const char *out = lk_test_scratch("run.csv"), *con = lk_test_scratch("c.csv");
  lk_test_write(out, "old\n");
  lk_test_how h = {LK_TEST_LINKAGE, NULL, NULL, 0};
  pid_t pid =
      lk_test_start(&h, (const char *[]){"simulate", lk_test_mechanism("box_stack"), "-d", "1000",
                                         "-e", "2", "-o", out, "-c", con, "--partial", NULL});
  CU_ASSERT_TRUE(wait_for_temporary("run.csv"));
  kill(pid, SIGTERM);
  lk_test_result r = lk_test_finish(&h, pid);
  LK_ASSERT_MSG(r.status == 143 && !r.killed, "exit %d: %s", r.status, r.err);
  char *text = slurp(out), *ctext = slurp(con), line[512], cline[512];
  last_line(text, line, sizeof line);
  long step = -1, of = -1;
  LK_ASSERT_MSG(sscanf(line, "# partial: interrupted by SIGTERM after step %ld of %ld", &step, &of) == 2,
                "last line: %s", line);
  LK_ASSERT_INT_EQ(of, 1000000);
  /* The header, the initial state and every 2nd step up to `step`, then
   * the marker. */
  LK_ASSERT_INT_EQ(lk_test_lines(text), 1 + 1 + step / 2 + 1);
  CU_ASSERT_STRING_EQUAL(last_line(ctext, cline, sizeof cline), line);
  CU_ASSERT_STRING_EQUAL(listing(), "c.csv run.csv");
  free(text);
  free(ctext);
  lk_test_result_free(&r);
}

/* Item 11: a step that fails at step 46 (a force of 1e300 N from t =
 * 0.0435 s overflows the state): by default nothing is replaced; with
 * --partial the 46 rows before it are kept and the failure is the last
 * line; exit 1 either way. */
static void test_partial_after_a_failed_step(void) {
  lk_test_scratch_clear();
  const char *out = lk_test_scratch("fail.csv"), *svg = lk_test_scratch("fail.svg");
  lk_test_write(out, "old\n");
  const char *load = "loads=[{link: bob, force: [1e300, 0, 0], point: [0, 0, -0.5], start: 0.0435}]";
  lk_test_result r =
      lk_test_run(LK_TEST_LINKAGE, (const char *[]){"simulate", lk_test_mechanism("pendulum"), "-q",
                                                    "-o", out, "-p", svg, "--set", load, NULL});
  LK_ASSERT_MSG(r.status == 1, "exit %d: %s", r.status, r.err);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "step 46 (t = 0.045 s) failed"));
  char *text = slurp(out);
  CU_ASSERT_STRING_EQUAL(text, "old\n");
  free(text);
  CU_ASSERT_STRING_EQUAL(listing(), "fail.csv");
  lk_test_result_free(&r);

  r = lk_test_run(LK_TEST_LINKAGE,
                  (const char *[]){"simulate", lk_test_mechanism("pendulum"), "-q", "-o", out, "-p",
                                   svg, "--set", load, "--partial", NULL});
  LK_ASSERT_MSG(r.status == 1, "exit %d: %s", r.status, r.err);
  text = slurp(out);
  char line[512];
  CU_ASSERT_STRING_EQUAL(last_line(text, line, sizeof line),
                         "# partial: step 46 (t = 0.045 s) failed: non-finite value (NaN or Inf)");
  /* The header, t = 0 .. 0.045 s, the marker. */
  LK_ASSERT_INT_EQ(lk_test_lines(text), 1 + 46 + 1);
  free(text);
  char *plot = slurp(svg);
  CU_ASSERT_PTR_NOT_NULL(strstr(plot, "partial: step 46"));
  free(plot);
  lk_test_result_free(&r);

  /* A variant: the load from t = 0 (step 1 makes the state huge, step 2
   * overflows it) keeps the initial row and the first step's. */
  r = lk_test_run(
      LK_TEST_LINKAGE,
      (const char *[]){"simulate", lk_test_mechanism("pendulum"), "-q", "-o", out, "--set",
                       "loads=[{link: bob, force: [0, 1e300, 1e300], point: [0.5, 0, 0]}]",
                       "--partial", NULL});
  LK_ASSERT_MSG(r.status == 1, "exit %d: %s", r.status, r.err);
  text = slurp(out);
  LK_ASSERT_INT_EQ(lk_test_lines(text), 1 + 2 + 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n# partial: step 2 (t = 0.001 s) failed"));
  free(text);
  lk_test_result_free(&r);
}

/* -------------------------------------------------- modes and links */

/* Item 4: an overwritten file keeps its mode; a symbolic link stays one
 * and its target gets the new content. */
static void test_mode_and_links_are_kept(void) {
  lk_test_scratch_clear();
  const char *out = lk_test_scratch("m.csv"), *target = lk_test_scratch("target.csv"),
             *link = lk_test_scratch("link.csv");
  mode_t modes[2] = {0600, 0640};
  for (int k = 0; k < 2; k++) {
    lk_test_write(out, "old\n");
    chmod(out, modes[k]);
    lk_test_result r =
        lk_test_run(LK_TEST_LINKAGE, (const char *[]){"simulate", lk_test_mechanism("pendulum"),
                                                      "-q", "-d", "0.01", "-o", out, NULL});
    LK_ASSERT_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
    struct stat sb;
    CU_ASSERT_EQUAL_FATAL(stat(out, &sb), 0);
    LK_ASSERT_INT_EQ(sb.st_mode & 07777, modes[k]);
    char *text = slurp(out);
    LK_ASSERT_INT_EQ(lk_test_lines(text), 12);
    free(text);
    lk_test_result_free(&r);
  }
  lk_test_write(target, "old\n");
  CU_ASSERT_EQUAL(symlink("target.csv", link), 0);
  lk_test_result r =
      lk_test_run(LK_TEST_LINKAGE, (const char *[]){"simulate", lk_test_mechanism("pendulum"), "-q",
                                                    "-d", "0.01", "-o", link, NULL});
  LK_ASSERT_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
  struct stat sb;
  CU_ASSERT_TRUE(lstat(link, &sb) == 0 && S_ISLNK(sb.st_mode));
  char *text = slurp(target);
  LK_ASSERT_INT_EQ(lk_test_lines(text), 12);
  free(text);
  lk_test_result_free(&r);
  /* A dangling link names the file to create. */
  unlink(target);
  r = lk_test_run(LK_TEST_LINKAGE, (const char *[]){"simulate", lk_test_mechanism("pendulum"), "-q",
                                                    "-d", "0.01", "-o", link, NULL});
  LK_ASSERT_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
  CU_ASSERT_TRUE(lstat(link, &sb) == 0 && S_ISLNK(sb.st_mode));
  CU_ASSERT_TRUE(lstat(target, &sb) == 0 && S_ISREG(sb.st_mode));
  CU_ASSERT_STRING_EQUAL(listing(), "link.csv m.csv target.csv");
  lk_test_result_free(&r);
}

/* ------------------------------------------------------ standard output */

/* Item 5: every command's standard output is checked: to /dev/full they
 * exit 1 and say so. */
static void test_stdout_to_a_full_device_exits_1(void) {
  lk_test_how h = {LK_TEST_LINKAGE, "/dev/full", NULL, 0};
  char lcp[4096], statics[4096]; /* lk_test_data's buffer is reused */
  snprintf(lcp, sizeof lcp, "%s", lk_test_data("lcp/arm_pyramid4_degenerate.dat"));
  snprintf(statics, sizeof statics, "%s", lk_test_data("statics/pipe_support.yaml"));
  const char *const *cmds[] = {
      (const char *[]){"info", lk_test_mechanism("pendulum"), NULL},
      (const char *[]){"check", lk_test_mechanism("pendulum"), NULL},
      (const char *[]){"lcp", lcp, NULL},
      (const char *[]){"static", statics, NULL},
      (const char *[]){"simulate", lk_test_mechanism("pendulum"), "-q", "-d", "0.01", NULL},
      (const char *[]){"simulate", lk_test_mechanism("pendulum"), "-q", "-d", "0.01", "-o", "-",
                       NULL},
      (const char *[]){"--help", NULL},
      (const char *[]){"--version", NULL},
      (const char *[]){"simulate", "--help", NULL},
  };
  for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
    lk_test_result r = lk_test_run_how(&h, cmds[i]);
    LK_ASSERT_MSG(r.status == 1, "linkage %s: exit %d: %s", cmds[i][0], r.status, r.err);
    LK_ASSERT_MSG(strstr(r.err, "No space left on device") != NULL, "linkage %s: %s", cmds[i][0],
                  r.err);
    lk_test_result_free(&r);
    /* The same to /dev/null succeeds: the failure is the device's. */
    lk_test_how ok = {LK_TEST_LINKAGE, "/dev/null", NULL, 0};
    r = lk_test_run_how(&ok, cmds[i]);
    LK_ASSERT_MSG(r.status == 0, "linkage %s > /dev/null: exit %d: %s", cmds[i][0], r.status, r.err);
    lk_test_result_free(&r);
  }
}

/* ------------------------------------------------------------ full disk */

/* Items 1 and 7: a file size limit (EFBIG) hit by any member leaves every
 * old output as it was and no temporary: first the plot (the CSVs fit in
 * 4 KiB, the SVG does not), then the trajectory. */
static void test_a_full_disk_replaces_nothing(void) {
  lk_test_scratch_clear();
  const char *csv = lk_test_scratch("a.csv"), *con = lk_test_scratch("b.csv"),
             *svg = lk_test_scratch("c.svg");
  lk_test_write(csv, "old a\n");
  lk_test_write(con, "old b\n");
  lk_test_write(svg, "old c\n");
  lk_test_how h = {LK_TEST_LINKAGE, NULL, NULL, 4096};
  const char *durations[2] = {"0.01", "5"};
  for (int k = 0; k < 2; k++) {
    lk_test_result r =
        lk_test_run_how(&h, (const char *[]){"simulate", lk_test_mechanism("pendulum"), "-q", "-d",
                                             durations[k], "-o", csv, "-c", con, "-p", svg, NULL});
    LK_ASSERT_MSG(r.status == 1 && !r.killed, "-d %s: exit %d: %s", durations[k], r.status, r.err);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "File too large"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, k == 0 ? "c.svg" : "a.csv"));
    char *a = slurp(csv), *b = slurp(con), *c = slurp(svg);
    CU_ASSERT_STRING_EQUAL(a, "old a\n");
    CU_ASSERT_STRING_EQUAL(b, "old b\n");
    CU_ASSERT_STRING_EQUAL(c, "old c\n");
    free(a), free(b), free(c);
    CU_ASSERT_STRING_EQUAL(listing(), "a.csv b.csv c.svg");
    lk_test_result_free(&r);
  }
  /* Without the limit the same run replaces all three. */
  h.fsize = 0;
  lk_test_result r =
      lk_test_run_how(&h, (const char *[]){"simulate", lk_test_mechanism("pendulum"), "-q", "-d",
                                           "0.01", "-o", csv, "-c", con, "-p", svg, NULL});
  LK_ASSERT_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
  char *a = slurp(csv), *c = slurp(svg);
  LK_ASSERT_INT_EQ(lk_test_lines(a), 12);
  CU_ASSERT_PTR_NOT_NULL(strstr(c, "<svg"));
  free(a), free(c);
  lk_test_result_free(&r);
}

/* ------------------------------------------------------- grasp planner */

/* Screening only (no trials): 40 rows, 11 KB, in a fraction of a second. */
static const char *const kPlan[] = {"--hand", NULL, "--object", NULL, "-n", "40", "--verify",
                                    "0", "--refine", "0", "--seed", "1", "--jobs", "1", "--quiet"};

static int plan_args(const char **argv, const char *const *more) {
  int n = 0;
  for (size_t i = 0; i < sizeof kPlan / sizeof kPlan[0]; i++) argv[n++] = kPlan[i];
  argv[1] = lk_test_mechanism("jaw_gripper");
  argv[3] = lk_test_mechanism("object_box");
  for (int i = 0; more[i]; i++) argv[n++] = more[i];
  argv[n] = NULL;
  return n;
}

/* Items 5 and 6: the planner's stdout is checked; its CSV is replaced
 * whole or not at all (a size limit leaves the old file, no temporary). */
static void test_planner_outputs(void) {
  lk_test_scratch_clear();
  const char *argv[40];
  lk_test_how full = {LK_TEST_PLANNER, "/dev/full", NULL, 0};
  plan_args(argv, (const char *[]){"-o", "-", NULL});
  lk_test_result r = lk_test_run_how(&full, argv);
  LK_ASSERT_MSG(r.status == 1, "exit %d: %s", r.status, r.err);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "No space left on device"));
  lk_test_result_free(&r);

  const char *csv = lk_test_scratch("plan.csv");
  lk_test_write(csv, "old plan\n");
  lk_test_how limited = {LK_TEST_PLANNER, NULL, NULL, 1024};
  plan_args(argv, (const char *[]){"-o", csv, NULL});
  r = lk_test_run_how(&limited, argv);
  LK_ASSERT_MSG(r.status == 1 && !r.killed, "exit %d: %s", r.status, r.err);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "File too large"));
  char *text = slurp(csv);
  CU_ASSERT_STRING_EQUAL(text, "old plan\n");
  free(text);
  CU_ASSERT_STRING_EQUAL(listing(), "plan.csv");
  lk_test_result_free(&r);

  /* Item 16: an invalid hand file is exit 2, as for linkage. */
  lk_test_how plain = {LK_TEST_PLANNER, NULL, NULL, 0};
  const char *bad[] = {"--hand",   lk_test_data("io/syntax_tab.yaml"),
                       "--object", lk_test_mechanism("object_box"),
                       "--quiet",  "-o",
                       csv,        NULL};
  r = lk_test_run_how(&plain, bad);
  LK_ASSERT_MSG(r.status == 2, "exit %d: %s", r.status, r.err);
  lk_test_result_free(&r);
}

/* Item 3 for the planner: a signal leaves the old CSV and no temporary. */
static void test_planner_signal(void) {
  lk_test_scratch_clear();
  const char *csv = lk_test_scratch("plan.csv");
  lk_test_write(csv, "old plan\n");
  const char *argv[40];
  plan_args(argv, (const char *[]){"-n", "100000", "-o", csv, NULL});
  lk_test_how h = {LK_TEST_PLANNER, NULL, NULL, 0};
  pid_t pid = lk_test_start(&h, argv);
  CU_ASSERT_TRUE(wait_for_temporary("plan.csv"));
  kill(pid, SIGINT);
  lk_test_result r = lk_test_finish(&h, pid);
  LK_ASSERT_MSG(r.status == 130 && !r.killed, "exit %d (killed %d): %s", r.status, r.killed, r.err);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "interrupted by SIGINT"));
  char *text = slurp(csv);
  CU_ASSERT_STRING_EQUAL(text, "old plan\n");
  free(text);
  CU_ASSERT_STRING_EQUAL(listing(), "plan.csv");
  lk_test_result_free(&r);
}

void lk_test_register(void) {
  static const lk_test outputs[] = {
      {"devices are written directly", test_devices_are_written_directly},
      {"a FIFO is written directly", test_fifo_is_written_directly},
      {"one file named twice is a usage error", test_one_file_named_twice_is_a_usage_error},
      {"signals keep the old outputs", test_signals_keep_the_old_outputs},
      {"--partial after a signal", test_partial_after_a_signal},
      {"--partial after a failed step", test_partial_after_a_failed_step},
      {"mode and links are kept", test_mode_and_links_are_kept},
      {"stdout to a full device exits 1", test_stdout_to_a_full_device_exits_1},
      {"a full disk replaces nothing", test_a_full_disk_replaces_nothing},
      {NULL, NULL}};
  static const lk_test planner[] = {{"outputs", test_planner_outputs},
                                    {"a signal", test_planner_signal},
                                    {NULL, NULL}};
  lk_test_suite("linkage outputs", outputs);
  lk_test_suite("grasp-planner outputs", planner);
}
