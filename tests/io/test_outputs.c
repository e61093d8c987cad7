/* lk_outputs: a run's output files replaced all together or none, special
 * files written directly, modes, owners and links kept, one file never
 * named twice, write errors (a full device, a file size limit) reported
 * with their errno. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "linkage/linkage.h"
#include "proc.h"

static void put(const char *p, const char *text, mode_t mode) {
  FILE *f = fopen(p, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs(text, f);
  fclose(f);
  chmod(p, mode);
}

/* The whole file as a string ("" if it cannot be read; static buffer). */
static const char *text_of(const char *p) {
  static char buf[1 << 16];
  buf[0] = '\0';
  FILE *f = fopen(p, "r");
  if (!f) return buf;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  return buf;
}

static mode_t mode_of(const char *p) {
  struct stat sb;
  return lstat(p, &sb) == 0 ? sb.st_mode : 0;
}

/* A set of the given paths, opened; NULL (with a failed check) otherwise. */
static lk_outputs *open_set(const char *const *paths, int n) {
  lk_outputs *s = lk_outputs_new();
  lk_error e;
  for (int i = 0; i < n; i++) {
    int k = lk_outputs_add(s, paths[i], &e);
    LK_ASSERT_MSG(k == i, "add '%s' -> %d: %s", paths[i], k, e.message);
  }
  lk_status st = lk_outputs_open(s, &e);
  LK_ASSERT_MSG(st == LK_OK, "open: %s", e.message);
  if (st) {
    lk_outputs_free(s);
    return NULL;
  }
  return s;
}

/* ------------------------------------------------------------- tests */

/* Three members, new and existing: nothing changes until the commit, then
 * all are replaced; modes are kept; no temporary is left. */
static void test_all_replaced_at_the_commit(void) {
  lk_test_scratch_clear();
  const char *a = lk_test_scratch("a.csv"), *b = lk_test_scratch("b.csv"),
             *c = lk_test_scratch("c.svg");
  put(a, "old a\n", 0600);
  put(c, "old c\n", 0640);
  const char *paths[] = {a, b, c};
  lk_outputs *s = open_set(paths, 3);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  LK_ASSERT_INT_EQ(lk_outputs_count(s), 3);
  for (int i = 0; i < 3; i++) {
    CU_ASSERT_TRUE(lk_outputs_replaces(s, i));
    fprintf(lk_outputs_file(s, i), "new %c\n", "abc"[i]);
  }
  CU_ASSERT_STRING_EQUAL(text_of(a), "old a\n");
  CU_ASSERT_FALSE(access(b, F_OK) == 0);
  CU_ASSERT_STRING_EQUAL(text_of(c), "old c\n");
  LK_ASSERT_INT_EQ(lk_test_scratch_entries(), 2 + 3); /* the old files and three temporaries */
  lk_error e;
  LK_ASSERT_OK(lk_outputs_commit(s, &e), &e);
  CU_ASSERT_PTR_NULL(lk_outputs_file(s, 0));
  lk_outputs_free(s);
  CU_ASSERT_STRING_EQUAL(text_of(a), "new a\n");
  CU_ASSERT_STRING_EQUAL(text_of(b), "new b\n");
  CU_ASSERT_STRING_EQUAL(text_of(c), "new c\n");
  LK_ASSERT_INT_EQ(mode_of(a) & 07777, 0600);
  LK_ASSERT_INT_EQ(mode_of(c) & 07777, 0640);
  /* A new file gets 0666 less the umask, as the shell's `>` gives it. */
  mode_t mask = umask(0);
  umask(mask);
  LK_ASSERT_INT_EQ(mode_of(b) & 07777, 0666 & ~mask);
  LK_ASSERT_INT_EQ(lk_test_scratch_entries(), 3);
}

/* A member that cannot be written (/dev/full) fails the commit: every
 * regular member keeps its old contents, the temporaries go, and the
 * device is still a device. */
static void test_a_failing_member_replaces_nothing(void) {
  lk_test_scratch_clear();
  const char *a = lk_test_scratch("traj.csv"), *b = lk_test_scratch("contacts.csv");
  put(a, "old trajectory\n", 0644);
  put(b, "old contacts\n", 0644);
  const char *paths[] = {a, b, "/dev/full"};
  lk_outputs *s = open_set(paths, 3);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  CU_ASSERT_FALSE(lk_outputs_replaces(s, 2));
  fputs("new trajectory\n", lk_outputs_file(s, 0));
  fputs("new contacts\n", lk_outputs_file(s, 1));
  fputs("<svg/>\n", lk_outputs_file(s, 2));
  lk_error e;
  LK_ASSERT_INT_EQ(lk_outputs_commit(s, &e), LK_IO_ERROR);
  CU_ASSERT_STRING_EQUAL(e.path, "/dev/full");
  LK_ASSERT_MSG(strstr(e.message, "No space left on device"), "%s", e.message);
  lk_outputs_free(s);
  CU_ASSERT_STRING_EQUAL(text_of(a), "old trajectory\n");
  CU_ASSERT_STRING_EQUAL(text_of(b), "old contacts\n");
  LK_ASSERT_INT_EQ(lk_test_scratch_entries(), 2);
  CU_ASSERT_TRUE(S_ISCHR(mode_of("/dev/full")));
}

/* Devices and FIFOs are written directly, never renamed over: the FIFO's
 * reader gets the bytes and the FIFO is still a FIFO; /dev/null stays the
 * machine's /dev/null and may take two members. */
static void test_special_files_are_written_directly(void) {
  lk_test_scratch_clear();
  const char *fifo = lk_test_scratch("pipe"), *a = lk_test_scratch("a.csv");
  CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
  int rd = open(fifo, O_RDONLY | O_NONBLOCK);
  CU_ASSERT_TRUE_FATAL(rd >= 0);
  const char *paths[] = {fifo, "/dev/null", a, "/dev/null"};
  lk_outputs *s = open_set(paths, 4);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  CU_ASSERT_FALSE(lk_outputs_replaces(s, 0));
  CU_ASSERT_FALSE(lk_outputs_replaces(s, 1));
  CU_ASSERT_TRUE(lk_outputs_replaces(s, 2));
  for (int i = 0; i < 4; i++) fprintf(lk_outputs_file(s, i), "member %d\n", i);
  lk_error e;
  LK_ASSERT_OK(lk_outputs_commit(s, &e), &e);
  lk_outputs_free(s);
  char got[64] = "";
  ssize_t k = read(rd, got, sizeof got - 1);
  got[k > 0 ? k : 0] = '\0';
  close(rd);
  CU_ASSERT_STRING_EQUAL(got, "member 0\n");
  CU_ASSERT_TRUE(S_ISFIFO(mode_of(fifo)));
  CU_ASSERT_TRUE(S_ISCHR(mode_of("/dev/null")));
  CU_ASSERT_STRING_EQUAL(text_of(a), "member 2\n");
  LK_ASSERT_INT_EQ(lk_test_scratch_entries(), 2);
}

/* Through a symbolic link (relative, and a chain of two) the link stays and
 * its target is replaced, with its mode; a dangling link creates its
 * target. */
static void test_links_are_followed(void) {
  lk_test_scratch_clear();
  const char *t = lk_test_scratch("target.csv"), *l1 = lk_test_scratch("link1"),
             *l2 = lk_test_scratch("link2");
  const char *dangling = lk_test_scratch("dangling"), *born = lk_test_scratch("born.csv");
  put(t, "old\n", 0604);
  CU_ASSERT_EQUAL_FATAL(symlink("target.csv", l1), 0);
  CU_ASSERT_EQUAL_FATAL(symlink("link1", l2), 0);
  CU_ASSERT_EQUAL_FATAL(symlink("born.csv", dangling), 0);
  const char *paths[] = {l2, dangling};
  lk_outputs *s = open_set(paths, 2);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  fputs("new\n", lk_outputs_file(s, 0));
  fputs("born\n", lk_outputs_file(s, 1));
  lk_error e;
  LK_ASSERT_OK(lk_outputs_commit(s, &e), &e);
  lk_outputs_free(s);
  CU_ASSERT_TRUE(S_ISLNK(mode_of(l1)));
  CU_ASSERT_TRUE(S_ISLNK(mode_of(l2)));
  CU_ASSERT_TRUE(S_ISLNK(mode_of(dangling)));
  CU_ASSERT_STRING_EQUAL(text_of(t), "new\n");
  LK_ASSERT_INT_EQ(mode_of(t) & 07777, 0604);
  CU_ASSERT_STRING_EQUAL(text_of(born), "born\n");
  LK_ASSERT_INT_EQ(lk_test_scratch_entries(), 5);
}

/* Two names of one file are refused when added, before anything exists. */
static void test_one_file_named_twice_is_refused(void) {
  lk_test_scratch_clear();
  char x[8300], fifo[8300], xlink[8300], xhard[8300], dotted[8300], up[8300];
  snprintf(x, sizeof x, "%s", lk_test_scratch("x.csv"));
  snprintf(fifo, sizeof fifo, "%s", lk_test_scratch("fifo"));
  snprintf(xlink, sizeof xlink, "%s", lk_test_scratch("x-link"));
  snprintf(xhard, sizeof xhard, "%s", lk_test_scratch("x-hard"));
  snprintf(dotted, sizeof dotted, "%s/./x.csv", lk_test_scratch_dir());
  snprintf(up, sizeof up, "%s/sub/../x.csv", lk_test_scratch_dir());
  mkdir(lk_test_scratch("sub"), 0755);
  mkfifo(fifo, 0600);
  struct {
    const char *first, *second;
    int existing; /* create first as a regular file */
    const char *fragment;
  } cases[] = {
      {x, x, 0, "name the same file"},
      {x, dotted, 0, "name the same file"},
      {x, up, 0, "name the same file"},
      {x, up, 1, "name the same file"},
      {x, xlink, 1, "name the same file"},
      {x, xhard, 1, "name the same file"},
      {"-", "-", 0, "standard output ('-') is named twice"},
      {fifo, fifo, 0, "name the same file"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    unlink(x);
    unlink(xlink);
    unlink(xhard);
    if (cases[i].existing) {
      put(x, "old\n", 0644);
      CU_ASSERT_EQUAL(symlink("x.csv", xlink), 0);
      CU_ASSERT_EQUAL(link(x, xhard), 0);
    }
    int before = lk_test_scratch_entries();
    lk_outputs *s = lk_outputs_new();
    lk_error e;
    LK_ASSERT_INT_EQ(lk_outputs_add(s, cases[i].first, &e), 0);
    LK_ASSERT_MSG(lk_outputs_add(s, cases[i].second, &e) == -1, "case %zu accepted", i);
    LK_ASSERT_INT_EQ(e.status, LK_INVALID_ARGUMENT);
    LK_ASSERT_MSG(strstr(e.message, cases[i].fragment), "case %zu: %s", i, e.message);
    LK_ASSERT_INT_EQ(lk_outputs_count(s), 1);
    lk_outputs_free(s);
    LK_ASSERT_INT_EQ(lk_test_scratch_entries(), before); /* nothing created */
    if (cases[i].existing) CU_ASSERT_STRING_EQUAL(text_of(x), "old\n");
  }
  /* Different files are fine, and so are two character devices. */
  lk_outputs *s = lk_outputs_new();
  lk_error e;
  LK_ASSERT_INT_EQ(lk_outputs_add(s, x, &e), 0);
  LK_ASSERT_INT_EQ(lk_outputs_add(s, lk_test_scratch("y.csv"), &e), 1);
  LK_ASSERT_INT_EQ(lk_outputs_add(s, "/dev/null", &e), 2);
  LK_ASSERT_INT_EQ(lk_outputs_add(s, "/dev/null", &e), 3);
  LK_ASSERT_INT_EQ(lk_outputs_add(s, "-", &e), 4);
  lk_outputs_free(s);
}

/* Standard output redirected to a file that another member names. */
static void test_stdout_and_its_file_are_one(void) {
  lk_test_scratch_clear();
  const char *x = lk_test_scratch("out.csv");
  put(x, "", 0644);
  fflush(stdout);
  int saved = dup(STDOUT_FILENO);
  int fd = open(x, O_WRONLY);
  CU_ASSERT_TRUE_FATAL(saved >= 0 && fd >= 0);
  dup2(fd, STDOUT_FILENO);
  close(fd);
  lk_outputs *s = lk_outputs_new();
  lk_error e;
  int a = lk_outputs_add(s, "-", &e), b = lk_outputs_add(s, x, &e);
  int said = b < 0 && strstr(e.message, "name the same file") != NULL;
  lk_outputs_free(s);
  /* And "-" writes to file descriptor 1. */
  s = lk_outputs_new();
  lk_outputs_add(s, "-", &e);
  lk_status st = lk_outputs_open(s, &e);
  if (!st) fputs("through stdout\n", lk_outputs_file(s, 0));
  lk_status cst = st ? st : lk_outputs_commit(s, &e);
  lk_outputs_free(s);
  dup2(saved, STDOUT_FILENO);
  close(saved);
  LK_ASSERT_INT_EQ(a, 0);
  LK_ASSERT_INT_EQ(b, -1);
  CU_ASSERT_TRUE(said);
  LK_ASSERT_INT_EQ(st, LK_OK);
  LK_ASSERT_INT_EQ(cst, LK_OK);
  CU_ASSERT_STRING_EQUAL(text_of(x), "through stdout\n");
}

static void test_bad_paths(void) {
  lk_test_scratch_clear();
  lk_outputs *s = lk_outputs_new();
  lk_error e;
  LK_ASSERT_INT_EQ(lk_outputs_add(s, "", &e), -1);
  LK_ASSERT_INT_EQ(e.status, LK_INVALID_ARGUMENT);
  LK_ASSERT_MSG(strstr(e.message, "empty"), "%s", e.message);
  LK_ASSERT_INT_EQ(lk_outputs_add(s, lk_test_scratch_dir(), &e), -1);
  LK_ASSERT_INT_EQ(e.status, LK_INVALID_ARGUMENT);
  LK_ASSERT_MSG(strstr(e.message, "names a directory"), "%s", e.message);
  const char *loop = lk_test_scratch("loop");
  symlink("loop", loop);
  LK_ASSERT_INT_EQ(lk_outputs_add(s, loop, &e), -1);
  LK_ASSERT_INT_EQ(e.status, LK_IO_ERROR);
  LK_ASSERT_INT_EQ(lk_outputs_count(s), 0);
  /* A missing directory is found when the set is opened: nothing is left. */
  LK_ASSERT_INT_EQ(lk_outputs_add(s, lk_test_scratch("fine.csv"), &e), 0);
  LK_ASSERT_INT_EQ(lk_outputs_add(s, lk_test_scratch("no/such/dir.csv"), &e), 1);
  LK_ASSERT_INT_EQ(lk_outputs_open(s, &e), LK_IO_ERROR);
  LK_ASSERT_MSG(strstr(e.message, "cannot create the output file: No such file or directory"), "%s",
                e.message);
  CU_ASSERT_PTR_NULL(lk_outputs_file(s, 0));
  lk_outputs_free(s);
  LK_ASSERT_INT_EQ(lk_test_scratch_entries(), 1); /* the link */
  lk_outputs_free(NULL);
}

/* Discarded, or freed without a commit: the destinations stay as they
 * were and the temporaries go. */
static void test_discard_leaves_everything(void) {
  lk_test_scratch_clear();
  const char *a = lk_test_scratch("a"), *b = lk_test_scratch("b");
  put(a, "old\n", 0644);
  const char *paths[] = {a, b};
  for (int round = 0; round < 2; round++) {
    lk_outputs *s = open_set(paths, 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    fputs("new\n", lk_outputs_file(s, 0));
    fputs("new\n", lk_outputs_file(s, 1));
    if (round == 0) {
      lk_outputs_discard(s);
      CU_ASSERT_PTR_NULL(lk_outputs_file(s, 0));
      lk_error e;
      LK_ASSERT_INT_EQ(lk_outputs_commit(s, &e), LK_INVALID_ARGUMENT);
    }
    lk_outputs_free(s);
    CU_ASSERT_STRING_EQUAL(text_of(a), "old\n");
    CU_ASSERT_FALSE(access(b, F_OK) == 0);
    LK_ASSERT_INT_EQ(lk_test_scratch_entries(), 1);
  }
}

/* The second rename fails (its destination became a directory while the
 * run wrote): the first member, already renamed, is put back. */
static void test_a_failing_rename_puts_back_the_others(void) {
  lk_test_scratch_clear();
  const char *a = lk_test_scratch("a.csv"), *b = lk_test_scratch("b.csv"),
             *c = lk_test_scratch("c.csv");
  put(a, "old a\n", 0644);
  put(b, "old b\n", 0644);
  const char *paths[] = {a, c, b};
  lk_outputs *s = open_set(paths, 3);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  for (int i = 0; i < 3; i++) fputs("new\n", lk_outputs_file(s, i));
  unlink(b);
  mkdir(b, 0755);
  put(lk_test_scratch("b.csv/inside"), "x", 0644);
  lk_error e;
  LK_ASSERT_INT_EQ(lk_outputs_commit(s, &e), LK_IO_ERROR);
  CU_ASSERT_STRING_EQUAL(e.path, b);
  LK_ASSERT_MSG(strstr(e.message, "cannot put the output in place") &&
                    strstr(e.message, "no output was replaced"),
                "%s", e.message);
  lk_outputs_free(s);
  CU_ASSERT_STRING_EQUAL(text_of(a), "old a\n");
  CU_ASSERT_FALSE(access(c, F_OK) == 0); /* c did not exist: it still does not */
  LK_ASSERT_INT_EQ(lk_test_scratch_entries(), 2); /* a and the directory: no temporary, no backup */
}

/* A file size limit (RLIMIT_FSIZE, SIGXFSZ ignored: writes fail with
 * EFBIG), as a full disk would fail them: the commit reports the errno and
 * the old file is intact. Run in a child, whose limit it is. */
static void test_a_write_error_keeps_its_errno(void) {
  lk_test_scratch_clear();
  const char *a = lk_test_scratch("big.csv"), *b = lk_test_scratch("small.csv");
  put(a, "old big\n", 0644);
  put(b, "old small\n", 0644);
  pid_t pid = fork();
  CU_ASSERT_TRUE_FATAL(pid >= 0);
  if (pid == 0) {
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl = {4096, 4096};
    if (setrlimit(RLIMIT_FSIZE, &rl) != 0) _exit(10);
    lk_outputs *s = lk_outputs_new();
    lk_error e;
    lk_outputs_add(s, b, &e);
    lk_outputs_add(s, a, &e);
    if (lk_outputs_open(s, &e)) _exit(11);
    fputs("new small\n", lk_outputs_file(s, 0));
    for (int i = 0; i < 1000; i++) fputs("0.123456789,0.123456789\n", lk_outputs_file(s, 1));
    lk_status st = lk_outputs_commit(s, &e);
    lk_outputs_free(s);
    if (st != LK_IO_ERROR) _exit(12);
    if (strcmp(e.path, a) != 0) _exit(13);
    if (!strstr(e.message, "File too large")) _exit(14);
    _exit(0);
  }
  int ws = 0;
  waitpid(pid, &ws, 0);
  LK_ASSERT_MSG(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "child: status %d", ws);
  CU_ASSERT_STRING_EQUAL(text_of(a), "old big\n");
  CU_ASSERT_STRING_EQUAL(text_of(b), "old small\n");
  LK_ASSERT_INT_EQ(lk_test_scratch_entries(), 2);
}

/* Owner and group are kept where the process may set them (as root). */
static void test_owner_is_kept(void) {
  if (geteuid() != 0) {
    CU_PASS("not root: the owner cannot be set, only the mode is kept");
    return;
  }
  lk_test_scratch_clear();
  const char *a = lk_test_scratch("owned.csv");
  put(a, "old\n", 0640);
  CU_ASSERT_EQUAL_FATAL(chown(a, 4321, 4322), 0);
  const char *paths[] = {a};
  lk_outputs *s = open_set(paths, 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  fputs("new\n", lk_outputs_file(s, 0));
  lk_error e;
  LK_ASSERT_OK(lk_outputs_commit(s, &e), &e);
  lk_outputs_free(s);
  struct stat sb;
  CU_ASSERT_EQUAL_FATAL(stat(a, &sb), 0);
  LK_ASSERT_INT_EQ(sb.st_uid, 4321);
  LK_ASSERT_INT_EQ(sb.st_gid, 4322);
  LK_ASSERT_INT_EQ(sb.st_mode & 07777, 0640);
  CU_ASSERT_STRING_EQUAL(text_of(a), "new\n");
}

/* The single-file writers go through the same rules: a path writer on
 * /dev/null leaves the device alone, on /dev/full reports the error. */
static void test_single_writers_on_devices(void) {
  lk_plot_options o;
  lk_plot_options_default(&o);
  double t[2] = {0, 1}, v[2] = {1, 2};
  const double *y[1] = {v};
  const char *names[1] = {"v"};
  lk_error e;
  LK_ASSERT_OK(lk_plot_svg("/dev/null", &o, t, 2, y, names, 1, &e), &e);
  CU_ASSERT_TRUE(S_ISCHR(mode_of("/dev/null")));
  LK_ASSERT_INT_EQ(lk_plot_svg("/dev/full", &o, t, 2, y, names, 1, &e), LK_IO_ERROR);
  LK_ASSERT_MSG(strstr(e.message, "No space left on device"), "%s", e.message);
  lk_contact_writer *w = lk_contact_writer_open("/dev/full", &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(w);
  LK_ASSERT_INT_EQ(lk_contact_writer_close(w, &e), LK_IO_ERROR);
  CU_ASSERT_TRUE(S_ISCHR(mode_of("/dev/full")));
}

void lk_test_register(void) {
  static const lk_test tests[] = {
      {"all replaced at the commit, modes kept", test_all_replaced_at_the_commit},
      {"a failing member replaces nothing", test_a_failing_member_replaces_nothing},
      {"special files are written directly", test_special_files_are_written_directly},
      {"links are followed", test_links_are_followed},
      {"one file named twice is refused", test_one_file_named_twice_is_refused},
      {"stdout and its file are one", test_stdout_and_its_file_are_one},
      {"bad paths", test_bad_paths},
      {"discard leaves everything", test_discard_leaves_everything},
      {"a failing rename puts back the others", test_a_failing_rename_puts_back_the_others},
      {"a write error keeps its errno", test_a_write_error_keeps_its_errno},
      {"owner is kept", test_owner_is_kept},
      {"single writers on devices", test_single_writers_on_devices},
      {NULL, NULL}};
  lk_test_suite("io outputs", tests);
}
