/* demos/grasp-planner, run as a user runs it: the ranked CSV is the same
 * for --jobs 1 and 2, it is ranked as documented, and its best grasp on the
 * box with the parallel-jaw gripper holds in a fresh trial built from the
 * pose in the CSV alone. */
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "linkage/linkage.h"

extern char **environ;

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) n = 0;
  fclose(f);
  if (b) b[n] = '\0';
  return b;
}

static const char *scratch(const char *name) {
  static char buf[4][4096];
  static int slot;
  const char *b = getenv("LK_TOP_BUILDDIR");
  char *o = buf[slot++ & 3];
  snprintf(o, sizeof buf[0], "%s/tests/grasp/planner-%d-%s", b && *b ? b : ".", (int)getpid(),
           name);
  return o;
}

/* Run the planner with args; its exit status (-1 if it did not exit), and
 * its stderr in *err (caller frees). */
static int run(const char *const *args, char **err) {
  const char *b = getenv("LK_TOP_BUILDDIR");
  char prog[4096];
  snprintf(prog, sizeof prog, "%s/demos/grasp-planner", b && *b ? b : ".");
  const char *argv[64];
  int n = 0;
  argv[n++] = prog;
  for (int i = 0; args[i] && n < 63; i++) argv[n++] = args[i];
  argv[n] = NULL;
  const char *out = scratch("stdout.txt"), *errf = scratch("stderr.txt");
  char errpath[4096];
  snprintf(errpath, sizeof errpath, "%s", errf);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid;
  int status = -1;
  if (posix_spawn(&pid, prog, &fa, NULL, (char *const *)argv, environ) == 0) {
    int ws;
    if (waitpid(pid, &ws, 0) == pid && WIFEXITED(ws)) status = WEXITSTATUS(ws);
  }
  posix_spawn_file_actions_destroy(&fa);
  if (err) *err = slurp(errpath);
  unlink(out);
  unlink(errpath);
  return status;
}

static const char *mech(const char *name) {
  static char buf[4][4096];
  static int slot;
  char rel[256];
  snprintf(rel, sizeof rel, "mechanisms/%s.yaml", name);
  char *o = buf[slot++ & 3];
  snprintf(o, sizeof buf[0], "%s", lk_test_srcpath(rel));
  return o;
}

/* Field k (0-based) of a CSV line as a number. */
static double field(const char *line, int k) {
  const char *p = line;
  for (int i = 0; i < k && p; i++) {
    p = strchr(p, ',');
    if (p) p++;
  }
  return p ? strtod(p, NULL) : NAN;
}

/* The column index of a header name, -1 if absent. */
static int column(const char *header, const char *name) {
  size_t len = strlen(name);
  int k = 0;
  for (const char *p = header; *p; k++) {
    const char *e = strpbrk(p, ",\n");
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n == len && strncmp(p, name, n) == 0) return k;
    if (!e || *e == '\n') break;
    p = e + 1;
  }
  return -1;
}

static void test_planner_jobs_rank_and_best_grasp(void) {
  char a[4096], b[4096];
  snprintf(a, sizeof a, "%s", scratch("jobs1.csv"));
  snprintf(b, sizeof b, "%s", scratch("jobs2.csv"));
  const char *hand = mech("jaw_gripper"), *object = mech("object_box");
  char *err = NULL;
  int st = run((const char *[]){"--hand", hand, "--object", object, "-n", "16", "--seed", "3",
                                "--jobs", "1", "--quiet", "-o", a, NULL},
               &err);
  LK_ASSERT_MSG(st == 0, "jobs 1: exit %d: %s", st, err ? err : "");
  free(err);
  st = run((const char *[]){"--hand", hand, "--object", object, "-n", "16", "--seed", "3", "--jobs",
                            "2", "--quiet", "-o", b, NULL},
           &err);
  LK_ASSERT_MSG(st == 0, "jobs 2: exit %d: %s", st, err ? err : "");
  free(err);
  char *ta = slurp(a), *tb = slurp(b);
  CU_ASSERT_FATAL(ta != NULL && tb != NULL);
  /* The same ranking, byte for byte, for one and two threads. */
  CU_ASSERT_STRING_EQUAL(ta, tb);

  /* 16 ranked rows under the header. */
  int nl = 0;
  for (const char *p = ta; *p; p++) nl += *p == '\n';
  LK_ASSERT_INT_EQ(nl, 17);
  const char *header = ta;
  int c_rank = column(header, "rank"), c_held = column(header, "held"),
      c_eps = column(header, "epsilon"), c_px = column(header, "px"),
      c_qw = column(header, "qw"), c_cand = column(header, "candidate");
  CU_ASSERT_FATAL(c_rank == 0 && c_held > 0 && c_eps > 0 && c_px > 0 && c_qw == c_px + 3 &&
                  c_cand > 0);
  /* Ranked: held first, then by epsilon; candidates each once. */
  const char *row = strchr(ta, '\n') + 1;
  const char *best = row;
  int last_held = 1, seen[16] = {0};
  double last_eps = INFINITY;
  for (int k = 1; k <= 16; k++) {
    LK_ASSERT_INT_EQ((int)field(row, c_rank), k);
    int held = (int)field(row, c_held), cand = (int)field(row, c_cand);
    double eps = field(row, c_eps);
    CU_ASSERT_FATAL(cand >= 0 && cand < 16);
    seen[cand]++;
    CU_ASSERT_TRUE(held <= last_held);
    if (held == last_held) CU_ASSERT_TRUE(eps <= last_eps);
    last_eps = eps;
    last_held = held;
    row = strchr(row, '\n') + 1;
  }
  for (int i = 0; i < 16; i++) LK_ASSERT_INT_EQ(seen[i], 1);
  LK_ASSERT_INT_EQ((int)field(best, c_held), 1);

  /* The best pose, from the CSV alone, in a fresh scene and data. */
  lk_transform pose;
  lk_quat q = lk_q(field(best, c_qw), field(best, c_qw + 1), field(best, c_qw + 2),
                   field(best, c_qw + 3));
  pose.R = lk_q_to_mat3(q);
  pose.p = lk_v3(field(best, c_px), field(best, c_px + 1), field(best, c_px + 2));
  lk_error e;
  char hp[4096];
  snprintf(hp, sizeof hp, "%s", hand);
  lk_grasp_scene *s = lk_grasp_scene_load(hp, object, NULL, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  lk_data *d = lk_data_new(lk_grasp_scene_model(s));
  lk_grasp_trial_options o;
  lk_grasp_trial_options_default(&o);
  lk_grasp_trial_report r;
  LK_ASSERT_OK(lk_grasp_trial(s, d, &pose, NULL, &o, &r, &e), &e);
  LK_ASSERT_MSG(r.held, "the best grasp: %s in phase %d", lk_grasp_outcome_name(r.outcome),
                r.lost_in);
  CU_ASSERT_TRUE(r.force_closure);
  LK_ASSERT_REL(r.epsilon, field(best, c_eps), 1e-6, 1e-9);
  lk_data_free(d);
  lk_grasp_scene_free(s);
  free(ta);
  free(tb);
  unlink(a);
  unlink(b);
}

/* Held grasps of equal epsilon rank by how far a point of the object's
 * surface slipped: translation + radius x rotation. A sphere between two
 * point pads is never in force closure (epsilon 0 for all), so the slip
 * alone orders the held ones; one that turned 80 degrees in the hand
 * must not rank above one that barely moved. */
static void test_planner_ranks_equal_epsilon_by_slip(void) {
  char out[4096];
  snprintf(out, sizeof out, "%s", scratch("sphere.csv"));
  const char *hand = mech("jaw_gripper"), *object = mech("object_sphere");
  char *err = NULL;
  int st = run((const char *[]){"--hand", hand, "--object", object, "-n", "16", "--seed", "1",
                                "--quiet", "-o", out, NULL},
               &err);
  LK_ASSERT_MSG(st == 0, "exit %d: %s", st, err ? err : "");
  free(err);
  char *t = slurp(out);
  CU_ASSERT_PTR_NOT_NULL_FATAL(t);
  lk_error e;
  char hp[4096];
  snprintf(hp, sizeof hp, "%s", hand);
  lk_grasp_scene *s = lk_grasp_scene_load(hp, object, NULL, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  const double radius = lk_grasp_scene_object_radius(s);
  lk_grasp_scene_free(s);
  int c_held = column(t, "held"), c_eps = column(t, "epsilon"),
      c_st = column(t, "slip_translation"), c_sr = column(t, "slip_rotation");
  CU_ASSERT_FATAL(c_held > 0 && c_eps > 0 && c_st > 0 && c_sr > 0);
  const char *row = strchr(t, '\n') + 1;
  int compared = 0, last_held = -1;
  double last_eps = NAN, last_slip = 0;
  for (int k = 1; k <= 16 && *row; k++) {
    int held = (int)field(row, c_held);
    double eps = field(row, c_eps), slip = field(row, c_st) + radius * field(row, c_sr);
    if (held && held == last_held && eps == last_eps) {
      LK_ASSERT_MSG(slip >= last_slip * (1 - 1e-8), "rank %d: slip %.9g m after %.9g m", k, slip,
                    last_slip);
      compared++;
    }
    last_held = held;
    last_eps = eps;
    last_slip = slip;
    row = strchr(row, '\n') + 1;
  }
  LK_ASSERT_MSG(compared >= 8, "only %d held grasps of equal epsilon to compare", compared);
  free(t);
  unlink(out);
}

static void test_planner_arguments(void) {
  char *err = NULL;
  int st = run((const char *[]){"--hand", mech("jaw_gripper"), NULL}, &err);
  LK_ASSERT_INT_EQ(st, 2);
  free(err);
  st = run((const char *[]){"--hand", mech("jaw_gripper"), "--object", mech("object_box"), "-n",
                            "zero", NULL},
           &err);
  LK_ASSERT_INT_EQ(st, 2);
  LK_ASSERT_MSG(err && strstr(err, "-n"), "%s", err ? err : "");
  free(err);
  st = run((const char *[]){"--hand", "/nonexistent.yaml", "--object", mech("object_box"), NULL},
           &err);
  LK_ASSERT_INT_EQ(st, 1);
  LK_ASSERT_MSG(err && strstr(err, "nonexistent"), "%s", err ? err : "");
  free(err);
}

void lk_test_register(void) {
  static const lk_test tests[] = {
      {"--jobs 1 and 2 rank alike; the best grasp holds afresh",
       test_planner_jobs_rank_and_best_grasp},
      {"held grasps of equal epsilon rank by slip", test_planner_ranks_equal_epsilon_by_slip},
      {"arguments", test_planner_arguments},
      {NULL, NULL}};
  lk_test_suite("grasp planner", tests);
}
