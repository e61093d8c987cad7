/* Shared helpers of the linkage subcommands. */
#include "tools/cli.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int lk_cli_usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "linkage %s: ", cmd);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\nTry 'linkage %s --help'.\n", cmd);
  return LK_EXIT_USAGE;
}

void lk_cli_print_error(const char *cmd, const lk_error *err) {
  if (err->path[0] && err->line > 0 && err->column <= 0) /* XML: lines only */
    fprintf(stderr, "%s:%d: error: %s\n", err->path, err->line, err->message);
  else if (err->path[0] && err->line > 0)
    fprintf(stderr, "%s:%d:%d: error: %s\n", err->path, err->line, err->column, err->message);
  else if (err->path[0])
    fprintf(stderr, "%s: error: %s\n", err->path, err->message);
  else
    fprintf(stderr, "linkage %s: error: %s\n", cmd,
            err->message[0] ? err->message : lk_strerror(err->status));
}

static char package_path[8192];

int lk_cli_add_package_path(const char *cmd, const char *dir) {
  size_t n = strlen(package_path), d = strlen(dir);
  if (n + d + 2 > sizeof package_path)
    return lk_cli_usage_error(cmd, "--package-path: the directories are too long together");
  snprintf(package_path + n, sizeof package_path - n, "%s%s", n ? ":" : "", dir);
  return 0;
}

const char *lk_cli_package_path(void) {
  static char pp[sizeof package_path + 8192];
  const char *env = getenv("ROS_PACKAGE_PATH");
  snprintf(pp, sizeof pp, "%s%s%s", package_path, package_path[0] && env && *env ? ":" : "",
           env ? env : "");
  return pp;
}

static int strict_meshes, keep_rest_overlaps;

int lk_cli_load_flag(int code) {
  if (code == LK_CLI_STRICT_MESHES) return strict_meshes = 1;
  if (code == LK_CLI_KEEP_REST_OVERLAPS) return keep_rest_overlaps = 1;
  return 0;
}

void lk_cli_load_options(lk_load_options *o) {
  lk_load_options_default(o);
  o->package_path = lk_cli_package_path();
  o->strict_meshes = strict_meshes;
  o->keep_rest_overlaps = keep_rest_overlaps;
}

void lk_cli_print_warnings(const char *path, const lk_model *m) {
  for (int w = 0; w < lk_model_nwarnings(m); w++) {
    const char *text = lk_model_warning(m, w);
    int line = 0, col = 0, len = 0;
    if (sscanf(text, "%d:%d: %n", &line, &col, &len) == 2 && len > 0)
      fprintf(stderr, "%s:%d:%d: warning: %s\n", path, line, col, text + len);
    else if (sscanf(text, "%d: %n", &line, &len) == 1 && len > 0) /* XML: lines only */
      fprintf(stderr, "%s:%d: warning: %s\n", path, line, text + len);
    else
      fprintf(stderr, "%s: warning: %s\n", path, text);
  }
}

lk_model *lk_cli_load(const char *cmd, const char *path, const char *const *set, int nset,
                      lk_run_settings *run) {
  return lk_cli_load_for(cmd, path, set, nset, run, NULL);
}

lk_model *lk_cli_load_for(const char *cmd, const char *path, const char *const *set, int nset,
                          lk_run_settings *run, lk_outputs *outputs) {
  lk_load_options o;
  lk_cli_load_options(&o);
  o.set = set;
  o.nset = nset;
  o.run = run;
  if (outputs) o.input = lk_outputs_input, o.input_ctx = outputs;
  lk_error err;
  lk_model *m = lk_model_load_file(path, &o, &err);
  if (!m) lk_cli_print_error(cmd, &err);
  return m;
}

/* Edit distance between short words (options are short). */
static int distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 63 || lb > 63) return 99;
  int row[64];
  for (size_t j = 0; j <= lb; j++) row[j] = (int)j;
  for (size_t i = 1; i <= la; i++) {
    int diag = row[0];
    row[0] = (int)i;
    for (size_t j = 1; j <= lb; j++) {
      int up = row[j], v = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < v) v = up + 1;
      if (row[j - 1] + 1 < v) v = row[j - 1] + 1;
      row[j] = v;
      diag = up;
    }
  }
  return row[lb];
}

const char *lk_cli_suggest(const char *word, const char *const *names) {
  const char *best = NULL;
  int limit = strlen(word) / 3 > 1 ? (int)(strlen(word) / 3) : 1, bestd = limit + 1;
  for (int i = 0; names[i]; i++) {
    int d = distance(word, names[i]);
    /* A prefix of an option is what getopt_long would accept if unique. */
    if (strncmp(names[i], word, strlen(word)) == 0) d = 1;
    if (d < bestd) bestd = d, best = names[i];
  }
  return best;
}

const char *lk_cli_suggest_option(const char *arg, const char *const *names) {
  /* "--durat=3" -> "durat" */
  while (*arg == '-') arg++;
  char word[64];
  size_t n = strcspn(arg, "=");
  if (n >= sizeof word) return NULL;
  memcpy(word, arg, n);
  word[n] = '\0';
  return word[0] ? lk_cli_suggest(word, names) : NULL;
}

int lk_cli_bad_option(const char *cmd, int c, char **argv, int optind_now, int optopt_now,
                      const char *const *names) {
  /* getopt_long leaves the offending word at argv[optind - 1] for long
   * options; short ones are in optopt. */
  const char *word = optind_now > 0 ? argv[optind_now - 1] : "";
  if (c == ':') {
    if (strncmp(word, "--", 2) == 0)
      return lk_cli_usage_error(cmd, "option '%.*s' needs a value", (int)strcspn(word, "="), word);
    if (optopt_now) return lk_cli_usage_error(cmd, "option '-%c' needs a value", optopt_now);
    return lk_cli_usage_error(cmd, "option '%s' needs a value", word);
  }
  if (optopt_now) return lk_cli_usage_error(cmd, "unknown option '-%c'", optopt_now);
  const char *sug = lk_cli_suggest_option(word, names);
  if (sug) return lk_cli_usage_error(cmd, "unknown option '%s' (did you mean '--%s'?)", word, sug);
  return lk_cli_usage_error(cmd, "unknown option '%s'", word);
}

/* ------------------------------------------------------------ signals */

static volatile sig_atomic_t caught;

static void on_signal(int sig) {
  if (!caught) caught = sig;
}

void lk_cli_catch_signals(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0; /* no SA_RESTART: a blocking open or wait returns */
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  /* A file size limit (ulimit -f) is a write error, EFBIG, reported like
   * a full disk, not a kill that leaves the temporaries behind. */
  signal(SIGXFSZ, SIG_IGN);
}

int lk_cli_signal(void) { return caught; }

const char *lk_cli_signal_name(int sig) {
  switch (sig) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "signal";
  }
}

/* ------------------------------------------------------ standard output */

int lk_cli_finish_stdout(const char *cmd, int status) {
  /* What stdio still holds is written now; an earlier failed write left
   * the error flag (its errno may be gone by now). */
  errno = 0;
  int bad = fflush(stdout) != 0;
  int e = errno;
  if (!bad && ferror(stdout)) bad = 1, e = 0;
  /* close() is where some file systems (NFS, a full quota) report. A
   * standard output that was never open (">&-") and never written is no
   * failure. */
  errno = 0;
  if (fclose(stdout) != 0 && errno != EBADF && !bad) bad = 1, e = errno;
  if (!bad) return status;
  if (e)
    fprintf(stderr, "linkage%s%s: error: writing standard output failed: %s\n", cmd ? " " : "",
            cmd ? cmd : "", strerror(e));
  else
    fprintf(stderr, "linkage%s%s: error: writing standard output failed\n", cmd ? " " : "",
            cmd ? cmd : "");
  return status == LK_EXIT_OK ? LK_EXIT_FAILED : status;
}
