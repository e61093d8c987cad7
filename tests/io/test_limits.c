/* Inputs that are valid but absurd, and the loader's resource limits
 * (issue 18, items 8, 9, 12, 13, 16): huge vectors normalized by scaling,
 * parameters the step cannot resolve warned about or refused, the name
 * lookup and the nesting depth bounded, and the messages as they should
 * read. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "linkage/linkage.h"

static lk_model *load(const char *text, lk_error *err) {
  return lk_model_load_string(text, strlen(text), "t.yaml", NULL, err);
}

/* A one-link mechanism: a box on a hinge, the hinge axis and the floor's
 * normal given as text. */
static char *hinge_text(const char *axis, const char *normal) {
  static char buf[2048];
  snprintf(buf, sizeof buf,
           "world:\n"
           "  geoms:\n"
           "    - {type: plane, normal: %s}\n"
           "links:\n"
           "  - name: arm\n"
           "    parent: world\n"
           "    origin: {xyz: [0, 0, 1]}\n"
           "    joint: {name: hinge, type: revolute, axis: %s}\n"
           "    mass: 1\n"
           "    geoms:\n"
           "      - {type: box, half_extents: [0.1, 0.1, 0.1]}\n",
           normal, axis);
  return buf;
}

/* ------------------------------------------------------ item 8: vectors */

static void check_axis(const char *axis, double x, double y, double z) {
  lk_error err;
  lk_model *m = load(hinge_text(axis, "[0, 0, 1]"), &err);
  LK_ASSERT_MSG(m != NULL, "axis %s: %s", axis, err.message);
  if (!m) return;
  lk_link_spec s;
  LK_ASSERT_OK(lk_model_link(m, 1, &s), &err);
  LK_ASSERT_NEAR(s.joint.axis.x, x, 1e-15);
  LK_ASSERT_NEAR(s.joint.axis.y, y, 1e-15);
  LK_ASSERT_NEAR(s.joint.axis.z, z, 1e-15);
  lk_model_free(m);
}

static void test_huge_and_tiny_axes_are_normalized(void) {
  const double h = sqrt(0.5);
  check_axis("[1e308, 1e308, 0]", h, h, 0);        /* |a|^2 overflows */
  check_axis("[0, -1.5e308, 1.5e308]", 0, -h, h);
  check_axis("[1e200, 0, 0]", 1, 0, 0);
}

static int check_plane_normal(const char *normal, double x, double y, double z) {
  const unsigned failures0 = lk_test_failures();
  lk_error err;
  lk_model *m = load(hinge_text("[0, 1, 0]", normal), &err);
  LK_ASSERT_MSG(m != NULL, "normal %s: %s", normal, err.message);
  if (!m) return 0;
  lk_geom_spec g;
  LK_ASSERT_OK(lk_model_geom(m, 0, &g), &err);
  lk_vec3 n = lk_m3_col(&g.pose.R, 2);
  LK_ASSERT_NEAR(n.x, x, 1e-15);
  LK_ASSERT_NEAR(n.y, y, 1e-15);
  LK_ASSERT_NEAR(n.z, z, 1e-15);
  lk_model_free(m);
  return lk_test_failures() == failures0;
}

static void test_huge_plane_normals_are_normalized(void) {
  const double t = 1 / sqrt(3.0);
  /* Was (0, 0, -1): the floor upside down, a box pushed to z = -214 m. */
  CU_ASSERT_TRUE(check_plane_normal("[1e308, 1e308, 1e308]", t, t, t));
  CU_ASSERT_TRUE(check_plane_normal("[0, 0, 1e308]", 0, 0, 1));
  CU_ASSERT_TRUE(check_plane_normal("[-1e300, 0, 0]", -1, 0, 0));
}

/* What cannot be normalized is refused: zero (or below 1e-12, which the
 * file calls zero) and not finite. */
static void test_unnormalizable_vectors_are_refused(void) {
  const char *bad[] = {"[0, 0, 0]", "[3e-200, 4e-200, 0]", "[.inf, 0, 0]", "[.nan, 1, 0]"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    lk_error err;
    lk_model *m = load(hinge_text(bad[i], "[0, 0, 1]"), &err);
    LK_ASSERT_MSG(m == NULL, "axis %s accepted", bad[i]);
    lk_model_free(m);
    m = load(hinge_text("[0, 1, 0]", bad[i]), &err);
    LK_ASSERT_MSG(m == NULL, "normal %s accepted", bad[i]);
    lk_model_free(m);
  }
}

/* The scaled normalization is bit for bit the plain one below overflow
 * (every shipped result stays as it was); a vector whose square
 * underflows to 0 is still "no direction", the zero vector. */
static void test_normalize_unchanged_in_range(void) {
  unsigned long long x = 88172645463325252ull;
  for (int i = 0; i < 100000; i++) {
    double c[3];
    for (int k = 0; k < 3; k++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      c[k] = ((double)(x >> 11) / 9007199254740992.0 - 0.5) * pow(10, (int)(x % 40) - 20);
    }
    lk_vec3 a = lk_v3(c[0], c[1], c[2]);
    double n = sqrt(lk_v3_dot(a, a));
    lk_vec3 want = n > 0 ? lk_v3_scale(a, 1.0 / n) : lk_v3_zero(), got = lk_v3_normalize(a);
    if (memcmp(&want, &got, sizeof want) != 0) {
      LK_ASSERT_MSG(0, "(%g, %g, %g) differs", c[0], c[1], c[2]);
      break;
    }
  }
  /* Above it: unit length to the last bits, direction kept. */
  const double big[][3] = {{1e308, -1e308, 1e308}, {1e200, 0, -1e200}, {0, -1.7e308, 0}};
  for (int i = 0; i < 3; i++) {
    lk_vec3 u = lk_v3_normalize(lk_v3(big[i][0], big[i][1], big[i][2]));
    LK_ASSERT_NEAR(lk_v3_norm(u), 1.0, 4e-16);
    CU_ASSERT_TRUE(u.x * big[i][0] >= 0 && u.y * big[i][1] >= 0 && u.z * big[i][2] >= 0);
  }
  lk_vec3 z = lk_v3_normalize(lk_v3(1e-170, 0, -1e-170));
  CU_ASSERT_TRUE(z.x == 0 && z.y == 0 && z.z == 0);
}

/* ------------------------------------------------ item 13: nesting depth */

/* "a: " + depth times open + "1" + depth times close. */
static char *nested(int depth, char open, char close, const char *inner) {
  size_t n = 3 + (size_t)depth * (open == '{' ? 4 : 1) * 2 + 16;
  char *t = malloc(n), *p = t;
  p += sprintf(p, "a: ");
  for (int i = 0; i < depth; i++) p += open == '{' ? sprintf(p, "{b: ") : sprintf(p, "[");
  p += sprintf(p, "%s", inner);
  for (int i = 0; i < depth; i++) *p++ = close;
  *p++ = '\n';
  *p = '\0';
  return t;
}

/* 100 000 levels (200 KB) took 153 s before libyaml gave up; now the
 * depth is refused first, at the bracket that crosses the limit. */
static void test_deep_nesting_is_refused_early(void) {
  char *t = nested(100000, '[', ']', "1");
  lk_error err;
  lk_model *m = load(t, &err);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_INT_EQ(err.status, LK_PARSE_ERROR);
  LK_ASSERT_INT_EQ(err.line, 1);
  LK_ASSERT_INT_EQ(err.column, 4 + LK_IO_MAX_FLOW_DEPTH); /* the 257th bracket: "a: " is columns 1-3 */
  CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "nested more than 256 deep"));
  free(t);
  t = nested(LK_IO_MAX_FLOW_DEPTH + 1, '{', '}', "1");
  m = load(t, &err);
  CU_ASSERT_PTR_NULL(m);
  CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "nested more than"));
  free(t);
  /* At the limit the text gets to the reader, which says what is wrong
   * with it (an unknown top-level key), not the depth. */
  t = nested(LK_IO_MAX_FLOW_DEPTH, '[', ']', "1");
  m = load(t, &err);
  CU_ASSERT_PTR_NULL(m);
  CU_ASSERT_PTR_NULL(strstr(err.message, "nested"));
  free(t);
  /* Brackets in quotes and comments are not nesting. */
  char *q = malloc(4000), *p = q;
  p += sprintf(p, "name: '");
  for (int i = 0; i < 600; i++) *p++ = '[';
  p += sprintf(p, "'\n# ");
  for (int i = 0; i < 600; i++) *p++ = '{';
  p += sprintf(p, "\ndescription: \"");
  for (int i = 0; i < 600; i++) *p++ = '[';
  p += sprintf(p, "\"\nlinks: []\n");
  m = load(q, &err);
  CU_ASSERT_PTR_NULL(strstr(m ? "" : err.message, "nested"));
  lk_model_free(m);
  free(q);
}

/* ------------------------------------------------ item 12: many names */

/* A chain of n links l0..l(n-1), joints j0.., each hanging 0.1 m below
 * its parent; `first_parent` is l0's parent; `extra` is appended. */
static char *chain_text(int n, const char *first_parent, const char *extra) {
  size_t cap = (size_t)n * 200 + 1024;
  char *t = malloc(cap), *p = t;
  p += sprintf(p, "links:\n");
  for (int i = 0; i < n; i++) {
    char parent[32];
    if (i) snprintf(parent, sizeof parent, "l%d", i - 1);
    p += sprintf(p,
                 "  - {name: l%d, parent: %s, joint: {name: j%d, type: revolute, axis: [0, 1, 0]},"
                 " mass: 1, inertia: [0.01, 0.01, 0.01], origin: {xyz: [0, 0, -0.1]}}\n",
                 i, i ? parent : first_parent, i);
  }
  p += sprintf(p, "%s", extra);
  return t;
}

/* 10 000 links (check took 5 s, 68 % strcmp; now 0.2 s of CPU): every
 * name is found at its index, and a duplicate or a cycle at the far end
 * is still reported as before. */
static void test_ten_thousand_links(void) {
  enum { N = 10000 };
  char *t = chain_text(N, "world", "");
  lk_error err;
  lk_model *m = load(t, &err);
  LK_ASSERT_MSG(m != NULL, "%s", err.message);
  free(t);
  if (!m) return;
  LK_ASSERT_INT_EQ(lk_model_nlink(m), N + 1);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    char name[32];
    snprintf(name, sizeof name, "l%d", i);
    bad += lk_model_link_index(m, name) != i + 1;
    snprintf(name, sizeof name, "j%d", i);
    bad += lk_model_joint_index(m, name) != i + 1;
  }
  LK_ASSERT_INT_EQ(bad, 0);
  LK_ASSERT_INT_EQ(lk_model_link_index(m, "world"), 0);
  LK_ASSERT_INT_EQ(lk_model_link_index(m, "l10000"), -1);
  LK_ASSERT_INT_EQ(lk_model_joint_index(m, "l5"), -1);
  /* The tip hangs N * 0.1 m below the world's origin. */
  lk_data *d = lk_data_new(m);
  LK_ASSERT_OK(lk_forward_kinematics(m, d), &err);
  LK_ASSERT_NEAR(lk_data_link_pose(d, N)->p.z, -0.1 * N, 1e-9);
  lk_data_free(d);
  lk_model_free(m);

  t = chain_text(N, "world",
                 "  - {name: l5000, parent: world, joint: {type: fixed}, mass: 1,"
                 " inertia: [0.01, 0.01, 0.01]}\n");
  m = load(t, &err);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_MSG(strstr(err.message, "'l5000' is defined twice (first at line 5002") != NULL, "%s",
                err.message);
  LK_ASSERT_INT_EQ(err.line, N + 2);
  free(t);
  t = chain_text(N, "l9999", "");
  m = load(t, &err);
  CU_ASSERT_PTR_NULL(m);
  LK_ASSERT_MSG(strstr(err.message, "cycle") != NULL, "%s", err.message);
  free(t);
}

/* ---------------------------------------------------- item 16: messages */

static char *box_text(const char *mass_line, const char *geom_extra) {
  static char buf[1024];
  snprintf(buf, sizeof buf,
           "links:\n"
           "  - name: box\n"
           "    parent: world\n"
           "    joint: {type: free}\n"
           "    %s\n"
           "    geoms:\n"
           "      - {type: box, half_extents: [0.1, 0.1, 0.1]%s}\n",
           mass_line, geom_extra);
  return buf;
}

static void expect_error(const char *text, const char *has, const char *lacks) {
  lk_error err;
  lk_model *m = load(text, &err);
  LK_ASSERT_MSG(m == NULL, "accepted: %s", text);
  lk_model_free(m);
  if (m) return;
  LK_ASSERT_MSG(strstr(err.message, has) != NULL, "'%s' lacks '%s'", err.message, has);
  if (lacks) LK_ASSERT_MSG(strstr(err.message, lacks) == NULL, "'%s' has '%s'", err.message, lacks);
}

static double mass_of(const char *text) {
  lk_error err;
  lk_model *m = load(text, &err);
  LK_ASSERT_MSG(m != NULL, "%s", err.message);
  if (!m) return -1;
  double v = lk_model_total_mass(m);
  lk_model_free(m);
  return v;
}

static void test_messages_say_what_is_wrong(void) {
  /* An unknown key is named by its text, quoted in the file or not. */
  expect_error(box_text("mass: 1\n    \"masss\": 2", ""), "unknown key 'masss' (did you mean 'mass'?)",
               "quoted string");
  expect_error(box_text("mass: 1\n    'colour': 2", ""), "unknown key 'colour'", "quoted string");
  /* A mass too small to be a normal double is a mass problem, not an
   * inertia one. */
  expect_error(box_text("mass: 4e-320", ""), "mass 3.99996e-320 is too small", "inertia");
  expect_error(box_text("mass: 1e-310", ""), "is too small", "inertia");
  LK_ASSERT_NEAR(mass_of(box_text("mass: 1e-300", "")), 1e-300, 1e-310);
  /* !!str 1 is a string, as "1" is; an int or float tag is a number. */
  expect_error(box_text("mass: !!str 1", ""), "expected a number, got '1' tagged !!str", NULL);
  expect_error(box_text("mass: &m !!str 2", ""), "tagged !!str", NULL);
  expect_error(box_text("mass: 1", ", group: !!str 3"), "expected an integer", NULL);
  LK_ASSERT_NEAR(mass_of(box_text("mass: !!float 2.5", "")), 2.5, 0);
  LK_ASSERT_NEAR(mass_of(box_text("mass: !!int 3", "")), 3, 0);
  /* The core schema's hex and octal integers are numbers too. */
  LK_ASSERT_NEAR(mass_of(box_text("mass: 0x10", "")), 16, 0);
  LK_ASSERT_NEAR(mass_of(box_text("mass: 0o20", "")), 16, 0);
  LK_ASSERT_NEAR(mass_of(box_text("mass: 0x1F", ", group: 0x10")), 31, 0);
  expect_error(box_text("mass: 0x1G", ""), "expected a number", NULL);
}

void lk_test_register(void) {
  static const lk_test vectors[] = {
      {"huge and tiny axes are normalized", test_huge_and_tiny_axes_are_normalized},
      {"huge plane normals are normalized", test_huge_plane_normals_are_normalized},
      {"unnormalizable vectors are refused", test_unnormalizable_vectors_are_refused},
      {"normalize unchanged in range", test_normalize_unchanged_in_range},
      {NULL, NULL}};
  static const lk_test limits[] = {
      {"ten thousand links", test_ten_thousand_links},
      {"deep nesting is refused early", test_deep_nesting_is_refused_early},
      {NULL, NULL}};
  static const lk_test messages[] = {
      {"messages say what is wrong", test_messages_say_what_is_wrong}, {NULL, NULL}};
  lk_test_suite("absurd vectors (item 8)", vectors);
  lk_test_suite("messages (item 16)", messages);
  lk_test_suite("limits (items 12, 13)", limits);
}
