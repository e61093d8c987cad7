/* Issue 30 through the programs, run as a user runs them: no output may
 * replace a file the command reads (item 1, every command that writes,
 * every way of naming the file), `linkage view` plays a --partial
 * trajectory (item 7), `linkage lcp` names the contact of a negative
 * friction coefficient (item 9) and decides a solver's status on the fc3d
 * error it prints (item 10). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "proc.h"

static char *slurp(const char *path) {
  char *s = lk_test_slurp(path, NULL);
  return s ? s : calloc(1, 1);
}

/* Copy a source file into the scratch folder under name; its path. */
static const char *copy_in(const char *src, const char *name) {
  size_t len = 0;
  char *text = lk_test_slurp(src, &len);
  const char *dst = lk_test_scratch(name);
  FILE *f = fopen(dst, "wb");
  if (f && text) fwrite(text, 1, len, f);
  if (f) fclose(f);
  free(text);
  return dst;
}

/* The run is refused with exit 2 before anything is written: the message
 * names the output and the input, and the input is byte for byte as it was. */
static int refuses(const char *prog, const char *const *args, const char *input,
                    const char *out_name) {
  const unsigned failures0 = lk_test_failures();
  char *before = slurp(input);
  lk_test_result r = lk_test_run(prog, args);
  LK_ASSERT_MSG(r.status == 2, "%s %s -> exit %d: %s", args[0], out_name, r.status, r.err);
  const char *base = strrchr(input, '/');
  base = base ? base + 1 : input;
  LK_ASSERT_MSG(strstr(r.err, out_name) && strstr(r.err, base) && strstr(r.err, "reads"),
                "the message names neither '%s' nor '%s': %s", out_name, base, r.err);
  char *after = slurp(input);
  LK_ASSERT_MSG(strcmp(before, after) == 0 && before[0], "%s changed", input);
  free(before);
  free(after);
  lk_test_result_free(&r);
  return lk_test_failures() == failures0;
}

/* ------------------------------------------------------------- item 1 */

static void test_simulate_never_replaces_its_input(void) {
  lk_test_scratch_clear();
  const char *p = copy_in(lk_test_mechanism("pendulum"), "p.yaml");
  char dotted[600], up[700];
  snprintf(dotted, sizeof dotted, "%s/./p.yaml", lk_test_scratch_dir());
  const char *dir = strrchr(lk_test_scratch_dir(), '/');
  snprintf(up, sizeof up, "%s/../%s/p.yaml", lk_test_scratch_dir(), dir ? dir + 1 : "");
  const char *sym = lk_test_scratch("sym.svg"), *hard = lk_test_scratch("hard.csv");
  LK_ASSERT_INT_EQ(symlink("p.yaml", sym), 0);
  LK_ASSERT_INT_EQ(link(p, hard), 0);
  CU_ASSERT_TRUE(refuses(NULL, (const char *[]){"simulate", p, "-q", "-d", "0.01", "-o", p, NULL}, p, p));
  CU_ASSERT_TRUE(refuses(NULL, (const char *[]){"simulate", p, "-q", "-d", "0.01", "-o", dotted, NULL}, p, dotted));
  CU_ASSERT_TRUE(refuses(NULL, (const char *[]){"simulate", p, "-q", "-d", "0.01", "-o", up, NULL}, p, up));
  CU_ASSERT_TRUE(refuses(NULL, (const char *[]){"simulate", p, "-q", "-d", "0.01", "--plot", sym, NULL}, p, sym));
  CU_ASSERT_TRUE(refuses(NULL,
          (const char *[]){"simulate", p, "-q", "-d", "0.01", "-o", "-", "--contacts", hard, NULL},
          p, hard));
  CU_ASSERT_TRUE(refuses(NULL, (const char *[]){"simulate", p, "-q", "-d", "0.01", "--view", p, NULL}, p, p));
  /* The same run with an output of its own goes on. */
  lk_test_result r = lk_test_run(
      NULL, (const char *[]){"simulate", p, "-q", "-d", "0.01", "-o", lk_test_scratch("t.csv"), NULL});
  LK_ASSERT_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
  lk_test_result_free(&r);
}

static void test_referenced_files_are_inputs_too(void) {
  /* A mesh a description names, and a URDF it includes (with its mesh). */
  lk_test_scratch_clear();
  mkdir(lk_test_scratch("meshes"), 0700);
  const char *stl = copy_in(lk_test_srcpath("mechanisms/meshes/stone.stl"), "meshes/stone.stl");
  const char *stone = copy_in(lk_test_mechanism("object_stone"), "stone.yaml");
  CU_ASSERT_TRUE(refuses(NULL, (const char *[]){"simulate", stone, "-q", "-d", "0.01", "-o", stl, NULL}, stl, stl));
  CU_ASSERT_TRUE(refuses(NULL, (const char *[]){"view", stone, "-q", "-o", stl, NULL}, stl, stl));
  const char *urdf =
      copy_in(lk_test_srcpath("mechanisms/jaw-gripper.urdf"), "jaw-gripper.urdf");
  const char *inc = copy_in(lk_test_mechanism("jaw_gripper_urdf"), "jaw_gripper_urdf.yaml");
  CU_ASSERT_TRUE(refuses(NULL, (const char *[]){"simulate", inc, "-q", "-d", "0.01", "-p", urdf, NULL}, urdf, urdf));
  CU_ASSERT_TRUE(refuses(NULL, (const char *[]){"convert", urdf, "-o", urdf, NULL}, urdf, urdf));
}

static void test_view_and_planner_never_replace_inputs(void) {
  lk_test_scratch_clear();
  const char *p = copy_in(lk_test_mechanism("pendulum"), "p.yaml");
  CU_ASSERT_TRUE(refuses(NULL, (const char *[]){"view", p, "-q", "-o", p, NULL}, p, p));
  const char *t = lk_test_scratch("t.csv");
  lk_test_result r =
      lk_test_run(NULL, (const char *[]){"simulate", p, "-q", "-d", "0.02", "-o", t, NULL});
  LK_ASSERT_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
  lk_test_result_free(&r);
  CU_ASSERT_TRUE(refuses(NULL, (const char *[]){"view", p, "-q", "--trajectory", t, "-o", t, NULL}, t, t));
  const char *hand = copy_in(lk_test_mechanism("jaw_gripper"), "hand.yaml");
  const char *ob = copy_in(lk_test_mechanism("object_box"), "ob.yaml");
  const char *plan[] = {"--hand", hand, "--object", ob, "-n", "10", "--verify", "0", "--refine",
                        "0", "--quiet", "-o", ob, NULL};
  CU_ASSERT_TRUE(refuses(LK_TEST_PLANNER, plan, ob, ob));
  const char *plan2[] = {"--hand", hand, "--object", ob, "-n", "10", "--verify", "0", "--refine",
                         "0", "--quiet", "-o", "-", "--plot", hand, NULL};
  CU_ASSERT_TRUE(refuses(LK_TEST_PLANNER, plan2, hand, hand));
}

static void test_planner_never_replaces_what_its_files_include(void) {
  /* The hand includes a URDF; the object names a mesh: both are read. */
  lk_test_scratch_clear();
  mkdir(lk_test_scratch("meshes"), 0700);
  const char *urdf = copy_in(lk_test_srcpath("mechanisms/jaw-gripper.urdf"), "jaw-gripper.urdf");
  const char *hand = copy_in(lk_test_mechanism("jaw_gripper_urdf"), "hand.yaml");
  const char *stl = copy_in(lk_test_srcpath("mechanisms/meshes/stone.stl"), "meshes/stone.stl");
  const char *ob = copy_in(lk_test_mechanism("object_stone"), "stone.yaml");
  const char *plan[] = {"--hand", hand, "--object", ob, "-n", "4", "--verify", "0", "--refine",
                        "0", "--quiet", "-o", urdf, NULL};
  CU_ASSERT_TRUE(refuses(LK_TEST_PLANNER, plan, urdf, urdf));
  const char *plan2[] = {"--hand", hand, "--object", ob, "-n", "4", "--verify", "0", "--refine",
                         "0", "--quiet", "-o", "-", "--view", stl, NULL};
  CU_ASSERT_TRUE(refuses(LK_TEST_PLANNER, plan2, stl, stl));
}

/* ------------------------------------------------------------- item 8 */

/* A number given on the command line follows the files' rule: a hex
 * float, "inf", blanks or a number that would round to 0 are refused with
 * exit 2 by every program; a plain decimal of any length is taken. */
static void test_option_numbers_follow_the_files_rule(void) {
  lk_test_scratch_clear();
  const char *p = copy_in(lk_test_mechanism("pendulum"), "p.yaml");
  const char *lcp = lk_test_data("lcp/siconos-fc/FC3D_Example1.dat");
  const char *hand = copy_in(lk_test_mechanism("jaw_gripper"), "hand.yaml");
  const char *ob = copy_in(lk_test_mechanism("object_box"), "ob.yaml");
  const char *bad[] = {"0x1p-3", "inf", " 0.5", "0.5 ", "1e-400", "0,5", "nan"};
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
    const char *runs[][16] = {
        {"simulate", p, "-q", "-d", bad[k], "-o", "/dev/null", NULL},
        {"view", p, "-q", "--fps", bad[k], "-o", "/dev/null", NULL},
        {"lcp", lcp, "--tol", bad[k], NULL},
    };
    for (int i = 0; i < 3; i++) {
      lk_test_result r = lk_test_run(NULL, runs[i]);
      LK_ASSERT_MSG(r.status == 2 && strstr(r.err, bad[k]), "%s with '%s': exit %d: %s",
                    runs[i][0], bad[k], r.status, r.err);
      lk_test_result_free(&r);
    }
    const char *plan[] = {"--hand", hand, "--object", ob, "-n", "2", "--verify", "0", "--refine",
                          "0", "--quiet", "-o", "/dev/null", "--mass", bad[k], NULL};
    lk_test_result r = lk_test_run(LK_TEST_PLANNER, plan);
    LK_ASSERT_MSG(r.status == 2, "planner --mass '%s': exit %d: %s", bad[k], r.status, r.err);
    lk_test_result_free(&r);
  }
  /* Decimals as users write them, the last one 40 digits long. */
  const char *good[] = {"0.02", "2e-2", "+.02", "0.0200000000000000000000000000000000000001"};
  for (size_t k = 0; k < sizeof good / sizeof *good; k++) {
    lk_test_result r =
        lk_test_run(NULL, (const char *[]){"simulate", p, "-q", "-d", good[k], "-o", "/dev/null", NULL});
    LK_ASSERT_MSG(r.status == 0, "-d '%s': exit %d: %s", good[k], r.status, r.err);
    lk_test_result_free(&r);
  }
  const char *plan[] = {"--hand", hand, "--object", ob, "-n", "2", "--verify", "0", "--refine",
                        "0", "--quiet", "-o", "/dev/null", "--standoff", "0x1:0.02", NULL};
  lk_test_result r = lk_test_run(LK_TEST_PLANNER, plan);
  LK_ASSERT_MSG(r.status == 2, "planner --standoff 0x1:0.02: exit %d: %s", r.status, r.err);
  lk_test_result_free(&r);
}

/* ------------------------------------------------------------- item 2 */

static void test_planner_refuses_fifo_objects(void) {
  lk_test_scratch_clear();
  alarm(120); /* a FIFO opened would hang: end the program rather than make check */
  mkdir(lk_test_scratch("objs"), 0700);
  copy_in(lk_test_mechanism("object_box"), "objs/a_box.yaml");
  const char *fifo = lk_test_scratch("objs/b_fifo.yaml");
  LK_ASSERT_INT_EQ(mkfifo(fifo, 0600), 0);
  char objs[600];
  snprintf(objs, sizeof objs, "%s", lk_test_scratch("objs"));
  lk_test_result r = lk_test_run(
      LK_TEST_PLANNER, (const char *[]){"--hand", lk_test_mechanism("jaw_gripper"), "--objects",
                                        objs, "-n", "10", "--quiet", "-o", "-", NULL});
  LK_ASSERT_MSG(r.status == 2 && strstr(r.err, "b_fifo.yaml") && strstr(r.err, "is a FIFO"),
                "exit %d: %s", r.status, r.err);
  lk_test_result_free(&r);
  const char *stl = lk_test_scratch("part.stl");
  LK_ASSERT_INT_EQ(mkfifo(stl, 0600), 0);
  r = lk_test_run(LK_TEST_PLANNER,
                  (const char *[]){"--hand", lk_test_mechanism("jaw_gripper"), "--object", stl,
                                   "--mass", "0.2", "-n", "10", "--quiet", "-o", "-", NULL});
  LK_ASSERT_MSG(r.status == 2 && strstr(r.err, "is a FIFO"), "exit %d: %s", r.status, r.err);
  lk_test_result_free(&r);
  alarm(0);
}

/* ------------------------------------------------------------- item 7 */

static void test_view_plays_a_partial_trajectory(void) {
  lk_test_scratch_clear();
  const char *t = lk_test_scratch("fail.csv"), *page = lk_test_scratch("page.html");
  /* A step that fails at t = 0.045 s (as test_outputs_cli's) and, as a
   * variant, one that fails at the second step. */
  const char *loads[] = {
      "loads=[{link: bob, force: [1e300, 0, 0], point: [0, 0, -0.5], start: 0.0435}]",
      "loads=[{link: bob, force: [0, 1e300, 1e300], point: [0.5, 0, 0]}]"};
  const char *frames[] = {"4 frames", "2 frames"};
  for (int k = 0; k < 2; k++) {
    lk_test_result r = lk_test_run(
        NULL, (const char *[]){"simulate", lk_test_mechanism("pendulum"), "-q", "-o", t, "--set",
                               loads[k], "--partial", NULL});
    LK_ASSERT_MSG(r.status == 1, "exit %d: %s", r.status, r.err);
    lk_test_result_free(&r);
    char *csv = slurp(t);
    LK_ASSERT_MSG(strstr(csv, "\n# partial: "), "no partial line: %s", csv);
    free(csv);
    r = lk_test_run(NULL, (const char *[]){"view", lk_test_mechanism("pendulum"), "--trajectory",
                                           t, "-o", page, NULL});
    LK_ASSERT_MSG(r.status == 0 && strstr(r.err, frames[k]), "exit %d: %s", r.status, r.err);
    lk_test_result_free(&r);
  }
}

/* ------------------------------------------------------- items 9, 10 */

static void test_lcp_names_the_contact(void) {
  lk_test_scratch_clear();
  /* Siconos' format: d, nc, storage 0, W's rows and columns, W, q, mu. */
  const char *f = lk_test_scratch("neg_mu.dat");
  lk_test_write(f, "3\n2\n\n0\n6\n6\n\n6\n6\n\n"
                   "1 0 0 0 0 0\n0 1 0 0 0 0\n0 0 1 0 0 0\n"
                   "0 0 0 1 0 0\n0 0 0 0 1 0\n0 0 0 0 0 1\n"
                   "-1 0 0 -1 0 0\n0.5 -1\n");
  lk_test_result r = lk_test_run(NULL, (const char *[]){"lcp", f, NULL});
  LK_ASSERT_MSG(r.status == 2 && strstr(r.err, "friction coefficient -1 of contact 1 is negative"),
                "exit %d: %s", r.status, r.err);
  lk_test_result_free(&r);
  lk_test_write(f, "3\n2\n\n0\n6\n6\n\n6\n6\n\n"
                   "1 0 0 0 0 0\n0 1 0 0 0 0\n0 0 1 0 0 0\n"
                   "0 0 0 1 0 0\n0 0 0 0 1 0\n0 0 0 0 0 1\n"
                   "-1 0 0 -1 0 0\n-0.25 0.5\n");
  r = lk_test_run(NULL, (const char *[]){"lcp", f, NULL});
  LK_ASSERT_MSG(r.status == 2 && strstr(r.err, "friction coefficient -0.25 of contact 0 is negative"),
                "exit %d: %s", r.status, r.err);
  lk_test_result_free(&r);
}

/* The printed status agrees with the printed fc3d error and --tol, for
 * NSGS and Newton stopped early and late, on friction-contact problems. */
static void test_lcp_status_follows_the_printed_error(void) {
  const char *files[] = {"lcp/siconos-fc/FC3D_Example1.dat",
                         "lcp/siconos-fc/Confeti-ex13-4contact-Fc3D-SBM.dat"};
  const char *solvers[] = {"nsgs", "newton"};
  const char *caps[] = {"2", "5", "40", "5000"};
  const char *tols[] = {"1e-9", "1e-4"};
  int agreed = 0, ok = 0, failed = 0;
  for (int fi = 0; fi < 2; fi++)
    for (int si = 0; si < 2; si++)
      for (int ci = 0; ci < 4; ci++)
        for (int ti = 0; ti < 2; ti++) {
          lk_test_result r = lk_test_run(
              NULL, (const char *[]){"lcp", lk_test_data(files[fi]), "--solver", solvers[si],
                                     "--max-sweeps", caps[ci], "--tol", tols[ti], NULL});
          const char *e = strstr(r.out, "\nfc3d_error: "), *s = strstr(r.out, "\nstatus: ");
          double err = e ? strtod(e + 13, NULL) : NAN, tol = strtod(tols[ti], NULL);
          int said_ok = s && strncmp(s + 9, "ok\n", 3) == 0;
          /* "%.3g" rounds the printed error: at the tolerance either is right. */
          int near = fabs(err - tol) <= 5e-3 * tol;
          int good = e && s && (near || said_ok == (err <= tol)) && r.status == (said_ok ? 0 : 1);
          LK_ASSERT_MSG(good, "%s --solver %s --max-sweeps %s --tol %s: exit %d, %s", files[fi],
                        solvers[si], caps[ci], tols[ti], r.status, r.out);
          agreed += good;
          ok += said_ok;
          failed += !said_ok;
          lk_test_result_free(&r);
        }
  /* Both outcomes occur, so the agreement is not the same answer twice. */
  LK_ASSERT_MSG(ok > 0 && failed > 0, "ok %d, failed %d", ok, failed);
  LK_ASSERT_INT_EQ(agreed, 32);
}

void lk_test_register(void) {
  static const lk_test inputs[] = {
      {"simulate never replaces its input", test_simulate_never_replaces_its_input},
      {"referenced files are inputs too", test_referenced_files_are_inputs_too},
      {"view and the planner never replace inputs", test_view_and_planner_never_replace_inputs},
      {"the planner never replaces what its files include",
       test_planner_never_replaces_what_its_files_include},
      {"the planner refuses FIFO objects", test_planner_refuses_fifo_objects},
      {"option numbers follow the files' rule", test_option_numbers_follow_the_files_rule},
      {NULL, NULL}};
  static const lk_test view[] = {
      {"view plays a partial trajectory", test_view_plays_a_partial_trajectory}, {NULL, NULL}};
  static const lk_test lcp[] = {
      {"lcp names the contact", test_lcp_names_the_contact},
      {"lcp status follows the printed error", test_lcp_status_follows_the_printed_error},
      {NULL, NULL}};
  lk_test_suite("outputs never replace inputs (issue 30.1, 30.2)", inputs);
  lk_test_suite("view --trajectory (issue 30.7)", view);
  lk_test_suite("linkage lcp (issue 30.9, 30.10)", lcp);
}
