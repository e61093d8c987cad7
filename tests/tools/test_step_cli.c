/* The step's messages as a user meets them through the linkage program:
 * integrator rk4 on contact-free models and when a contact arises
 * (issue 14.4). Files are written to a scratch folder. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"
#include "proc.h"

/* ------------------------------------------------------------ rk4 */

/* The shipped double pendulum (a capsule a bar, nothing else to touch)
 * runs with rk4, where it was refused as "unsupported". */
static void test_rk4_double_pendulum(void) {
  const lk_test_result *r =
      lk_test_linkage((const char *[]){"simulate", lk_test_mechanism("double_pendulum"), "--set",
                                       "options.integrator=rk4", "--duration", "0.5", "-q", NULL});
  LK_ASSERT_INT_EQ(r->status, 0);
  if (r->status) printf("%s\n", r->err);
  /* 0.5 s at 0.5 ms: 1000 steps, written every 10th, plus the header. */
  int rows = 0;
  for (const char *p = r->out; *p; p++) rows += *p == '\n';
  LK_ASSERT_INT_EQ(rows, 102);
}

/* A ball dropped 0.5 m onto the floor with rk4: exit 1, and the message
 * names the two geoms and the time (the fall of sqrt(2 0.5 / 9.81) =
 * 0.3193 s ends within the step starting at 0.320 s). */
static void test_rk4_contact_is_named(void) {
  lk_test_write(lk_test_scratch("drop.yaml"),
                "options: {timestep: 0.001, integrator: rk4}\n"
                "world:\n"
                "  geoms: [{name: floor, type: plane}]\n"
                "links:\n"
                "  - name: ball\n"
                "    origin: {xyz: [0, 0, 0.6]}\n"
                "    joint: {type: free}\n"
                "    mass: 0.2\n"
                "    geoms: [{name: rubber, type: sphere, radius: 0.1}]\n");
  const lk_test_result *r =
      lk_test_linkage((const char *[]){"simulate", lk_test_scratch("drop.yaml"), "--duration", "1",
                                       "-o", lk_test_scratch("drop.csv"), NULL});
  LK_ASSERT_INT_EQ(r->status, 1);
  LK_ASSERT_MSG(strstr(r->err, "'rubber' (link 'ball') and 'floor' (link 'world') touch"),
                "stderr: %s", r->err);
  const char *t = strstr(r->err, "touch at t = ");
  CU_ASSERT_PTR_NOT_NULL_FATAL(t);
  LK_ASSERT_NEAR(strtod(t + 13, NULL), 0.32, 1e-12);
}

/* ------------------------------------------------------------ servos */

/* The arm of issue 14.7 (servos kp 200 / kv 10 on the elbow, 100 / 5 on the
 * wrist, dt 1 ms): the wrist settles where its servo holds gravity (it
 * chattered at -9.9, +10.0 rad/s) and the summary says the run is stable;
 * a stiff joint spring the Euler step takes explicitly (1e4 N m/rad on
 * 1.1e-3 kg m^2, h omega = 3) is reported unstable, from t = 0.002 s. */
static void test_servo_arm_and_unstable_summary(void) {
  lk_test_write(
      lk_test_scratch("arm.yaml"),
      "options: {timestep: 0.001, gravity: [0, 0, -9.81]}\n"
      "links:\n"
      "  - name: forearm\n"
      "    origin: {xyz: [0, 0, 1]}\n"
      "    joint: {name: elbow, type: revolute, axis: [0, 1, 0]}\n"
      "    mass: 1.0\n"
      "    com: [0.15, 0, 0]\n"
      "    inertia: [0.001, 0.0085, 0.0085]\n"
      "  - name: hand\n"
      "    parent: forearm\n"
      "    origin: {xyz: [0.3, 0, 0]}\n"
      "    joint: {name: wrist, type: revolute, axis: [0, 1, 0]}\n"
      "    mass: 0.2\n"
      "    com: [0.04, 0, 0]\n"
      "    inertia: [0.0001, 0.0002, 0.0002]\n"
      "actuators:\n"
      "  - {joint: elbow, type: position, kp: 200, kv: 10, target: 0.5, max_effort: 50}\n"
      "  - {joint: wrist, type: position, kp: 100, kv: 5, target: -0.3, max_effort: 10}\n");
  const lk_test_result *r =
      lk_test_linkage((const char *[]){"simulate", lk_test_scratch("arm.yaml"), "--duration", "2",
                                       "--every", "100", "-o", lk_test_scratch("arm.csv"), NULL});
  LK_ASSERT_INT_EQ(r->status, 0);
  LK_ASSERT_MSG(strstr(r->err, "unstable: no"), "stderr: %s", r->err);
  /* The last row: t, two links' x y z, elbow q v, wrist q v. */
  char *csv = lk_test_slurp(lk_test_scratch("arm.csv"), NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
  char *last = csv + strlen(csv) - 1;
  while (last > csv && last[-1] != '\n') last--;
  double v[11];
  int n = 0;
  for (char *p = last; n < 11 && *p; n++) {
    v[n] = strtod(p, &p);
    if (*p == ',') p++;
  }
  LK_ASSERT_INT_EQ(n, 11);
  LK_ASSERT_NEAR(v[0], 2, 1e-9);
  LK_ASSERT_NEAR(v[10], 0, 1e-3); /* the wrist at rest, not chattering */
  LK_ASSERT_NEAR(v[8], 0, 1e-3);
  free(csv);
  lk_test_write(lk_test_scratch("spring.yaml"),
                "options: {timestep: 0.001}\n"
                "links:\n"
                "  - name: rotor\n"
                "    joint: {name: hinge, type: revolute, axis: [0, 0, 1], stiffness: 1.0e4}\n"
                "    mass: 0.1\n"
                "    com: [0.1, 0, 0]\n"
                "    inertia: [0.0001, 0.0001, 0.0001]\n"
                "initial:\n"
                "  - {joint: hinge, q: 0.01}\n");
  r = lk_test_linkage((const char *[]){"simulate", lk_test_scratch("spring.yaml"), "--duration",
                                       "0.05", "-o", lk_test_scratch("spring.csv"), NULL});
  /* Issue 18.9: grown a hundredfold, the state is unphysical and the run
   * stops at that step (exit 1), the summary still saying unstable. */
  LK_ASSERT_INT_EQ(r->status, 1);
  LK_ASSERT_MSG(strstr(r->err, "step 3 (t = 0.003 s) failed: unphysical state: the energy grew"),
                "stderr: %s", r->err);
  const char *u = strstr(r->err, "unstable: the energy grew without input");
  LK_ASSERT_MSG(u != NULL, "stderr: %s", r->err);
  const char *t = u ? strstr(u, "from t = ") : NULL;
  if (t) LK_ASSERT_NEAR(strtod(t + 9, NULL), 0.002, 1e-12);
  LK_ASSERT_MSG(u && strstr(u, "a joint spring is too stiff"), "stderr: %s", r->err);
}

/* Issue 31.4: a free body spinning at 50 rad/s about a tilted axis (no
 * spring, no damping, no gravity) keeps its energy with the default
 * velocity forces (summary: unstable: no), and with `velocity_forces:
 * explicit` gains it, the summary naming that option, not a stiffness. */
static void test_spin_summary(void) {
  lk_test_write(lk_test_scratch("spin.yaml"),
                "options: {gravity: [0, 0, 0]}\n"
                "links:\n"
                "  - name: body\n"
                "    joint: {type: free}\n"
                "    mass: 2\n"
                "    inertia: [0.1, 0.1, 0.2]\n"
                "initial:\n"
                "  - {joint: body, q: [0, 0, 0, 1, 0, 0, 0], v: [0, 0, 0, 25, 0, 43.3013]}\n");
  const lk_test_result *r =
      lk_test_linkage((const char *[]){"simulate", lk_test_scratch("spin.yaml"), "--duration", "3",
                                       "-o", lk_test_scratch("spin.csv"), NULL});
  LK_ASSERT_INT_EQ(r->status, 0);
  LK_ASSERT_MSG(strstr(r->err, "unstable: no"), "stderr: %s", r->err);
  r = lk_test_linkage((const char *[]){"simulate", lk_test_scratch("spin.yaml"), "--set",
                                       "options.velocity_forces=explicit", "--duration", "3", "-o",
                                       lk_test_scratch("spin.csv"), NULL});
  const char *u = strstr(r->err, "unstable: the energy grew without input");
  LK_ASSERT_MSG(u && strstr(u, "options.velocity_forces: explicit"), "stderr: %s", r->err);
  LK_ASSERT_MSG(!strstr(r->err, "stiff"), "stderr: %s", r->err);
}

/* ------------------------------------------------------------ units */

/* Issue 14.8 through `linkage check`: a sphere of radius 40 (millimetres
 * meant) sunk 40 m into the floor is an error at the geom (exit 2), and
 * simulate refuses it too; rpy [90, 0, 0] in radians is a warning at the
 * value, FILE:LINE:COLUMN; with options: {angle: degree} it is none. */
static void test_check_units(void) {
  lk_test_write(lk_test_scratch("big.yaml"),
                "world:\n"
                "  geoms: [{name: floor, type: plane}]\n"
                "links:\n"
                "  - name: ball\n"
                "    joint: {type: free}\n"
                "    mass: 1\n"
                "    geoms:\n"
                "      - {name: shell, type: sphere, radius: 40}\n");
  const char *big = lk_test_scratch("big.yaml");
  const lk_test_result *r = lk_test_linkage((const char *[]){"check", big, NULL});
  LK_ASSERT_INT_EQ(r->status, 2);
  char want[4400];
  snprintf(want, sizeof want, "%s:8:9: error: geom 'shell': at the initial state it overlaps geom "
           "'floor' by 40 m", big);
  LK_ASSERT_MSG(strstr(r->err, want), "stderr: %s", r->err);
  r = lk_test_linkage((const char *[]){"simulate", big, "-o", lk_test_scratch("big.csv"), NULL});
  LK_ASSERT_INT_EQ(r->status, 2);
  const char *arm =
      "options: {angle: %s}\n"
      "links:\n"
      "  - name: arm\n"
      "    origin: {rpy: [90, 0, 0]}\n"
      "    joint: {name: hinge, type: revolute, axis: [0, 1, 0], limit: [-30, 60]}\n"
      "    mass: 1\n"
      "    inertia: [0.1, 0.1, 0.1]\n";
  char text[1024];
  snprintf(text, sizeof text, arm, "radian");
  lk_test_write(lk_test_scratch("rad.yaml"), text);
  const char *rad = lk_test_scratch("rad.yaml");
  r = lk_test_linkage((const char *[]){"check", rad, NULL});
  LK_ASSERT_INT_EQ(r->status, 0);
  snprintf(want, sizeof want, "%s:4:19: warning: link 'arm': origin: rpy [90, 0, 0] is beyond 2 pi",
           rad);
  LK_ASSERT_MSG(strstr(r->err, want), "stderr: %s", r->err);
  snprintf(want, sizeof want, "%s:5:66: warning: link 'arm': joint 'hinge': limit: -30", rad);
  LK_ASSERT_MSG(strstr(r->err, want), "stderr: %s", r->err);
  snprintf(text, sizeof text, arm, "degree");
  lk_test_write(lk_test_scratch("deg.yaml"), text);
  r = lk_test_linkage((const char *[]){"check", lk_test_scratch("deg.yaml"), NULL});
  LK_ASSERT_INT_EQ(r->status, 0);
  LK_ASSERT_MSG(!strstr(r->err, "warning"), "stderr: %s", r->err);
}

/* Issue 35: a step that fails ends the run with its error (exit 1): no
 * further step is taken on its state. The box stack holds more contacts
 * than the 4 its options allow here; by default its data grows. */
static void test_failed_step_ends_the_run(void) {
  const char *out = lk_test_scratch("stack.csv");
  const lk_test_result *r =
      lk_test_linkage((const char *[]){"simulate", lk_test_mechanism("box_stack"), "-q", "--duration",
                                       "0.1", "-o", out, "--set", "options.max_contacts=4", NULL});
  LK_ASSERT_INT_EQ(r->status, 1);
  LK_ASSERT_MSG(strstr(r->err, "step 1 (t = 0 s) failed: capacity exceeded: more contacts than "
                               "options.max_contacts allows"),
                "stderr: %s", r->err);
  r = lk_test_linkage((const char *[]){"simulate", lk_test_mechanism("box_stack"), "-q",
                                       "--duration", "0.1", "-o", out, NULL});
  LK_ASSERT_MSG(r->status == 0, "exit %d: %s", r->status, r->err);
}

/* Issue 35: --explain says how the islands were solved. The block on the
 * incline (set to 6 digits, 1 s, holding): its one island each step is
 * counted once in the table, planned first by the sticking trial, then
 * answered mostly from the impulses in hand; the counts add up to the
 * steps. --explain=steps prints each island of each step; anything else
 * after = is a usage error. */
static void test_explain(void) {
  const lk_test_result *r = lk_test_linkage((const char *[]){
      "simulate", lk_test_mechanism("block_on_incline"), "-q", "--duration", "1", "-o",
      lk_test_scratch("incline.csv"), "--explain", NULL});
  LK_ASSERT_MSG(r->status == 0, "exit %d: %s", r->status, r->err);
  const char *head = strstr(r->err, "islands solved, by plan (");
  LK_ASSERT_MSG(head != NULL, "no table: %s", r->err);
  if (!head) return;
  long total = strtol(head + strlen("islands solved, by plan ("), NULL, 10);
  LK_ASSERT_INT_EQ(total, 1000);
  /* rows: planned, answered (names of one or two words), islands, ... */
  long sum = 0, guessed = 0;
  for (const char *p = strchr(head, '\n'); p && p[1]; p = strchr(p + 1, '\n')) {
    const char *line = p + 1;
    if (strncmp(line, "  ", 2) || strncmp(line, "  planned", 9) == 0) continue;
    char planned[32], answered[32];
    memcpy(planned, line + 2, 15);
    planned[15] = 0;
    memcpy(answered, line + 18, 15);
    answered[15] = 0;
    long n = strtol(line + 34, NULL, 10);
    sum += n;
    if (strncmp(answered, "guess ", 6) == 0) guessed += n;
  }
  LK_ASSERT_INT_EQ(sum, 1000);
  LK_ASSERT_MSG(guessed > 500, "%ld of 1000 steps answered by the impulses in hand:\n%s", guessed,
                head);
  r = lk_test_linkage((const char *[]){"simulate", lk_test_mechanism("block_on_incline"), "-q",
                                       "--duration", "0.002", "-o", lk_test_scratch("incline.csv"),
                                       "--explain=steps", NULL});
  LK_ASSERT_MSG(r->status == 0, "exit %d: %s", r->status, r->err);
  LK_ASSERT_MSG(strstr(r->err, "step 1 (t = 0.001 s) island 0: 12 rows, 4 contacts: sticking trial -> "),
                "stderr: %s", r->err);
  LK_ASSERT_MSG(strstr(r->err, "step 2 (t = 0.002 s) island 0: "), "stderr: %s", r->err);
  r = lk_test_linkage((const char *[]){"simulate", lk_test_mechanism("block_on_incline"), "-q",
                                       "--explain=all", NULL});
  LK_ASSERT_INT_EQ(r->status, 2);
  LK_ASSERT_MSG(strstr(r->err, "--explain=all"), "stderr: %s", r->err);
}

void lk_test_register(void) {
  static const lk_test rk4[] = {{"rk4 runs the double pendulum", test_rk4_double_pendulum},
                                {"rk4 names the contact that stops it", test_rk4_contact_is_named},
                                {NULL, NULL}};
  lk_test_suite("linkage simulate: rk4", rk4);
  static const lk_test servo[] = {
      {"the servo arm settles; a stiff spring is reported unstable",
       test_servo_arm_and_unstable_summary},
      {"a spinning body: stable by default, explicit velocity forces named", test_spin_summary},
      {NULL, NULL}};
  lk_test_suite("linkage simulate: servos and stability", servo);
  static const lk_test units[] = {{"check: penetration and degrees", test_check_units},
                                  {NULL, NULL}};
  lk_test_suite("linkage check: units", units);
  static const lk_test fail[] = {{"a failed step ends the run", test_failed_step_ends_the_run},
                                 {NULL, NULL}};
  lk_test_suite("linkage simulate: a failed step", fail);
  static const lk_test explain[] = {{"--explain: the islands by plan", test_explain},
                                    {NULL, NULL}};
  lk_test_suite("linkage simulate: explain", explain);
}
