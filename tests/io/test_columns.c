/* What the output files carry: numbers that read back as the same doubles
 * (lk_format_double, in every CSV), the trajectory's column groups (pose,
 * actuators, energy, tactile) equal to what the API reports, and the
 * contact CSV's depth and geom columns. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "linkage/linkage.h"

static const char *scratch(const char *name) {
  static char buf[4][4096];
  static int slot;
  const char *b = getenv("LK_TOP_BUILDDIR");
  char *o = buf[slot++ & 3];
  snprintf(o, sizeof buf[0], "%s/tests/io/columns-%d-%s", b && *b ? b : ".", (int)getpid(), name);
  return o;
}

static uint64_t splitmix(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Significant digits of a %g text. */
static int digits(const char *s) {
  int n = 0, lead = 1;
  for (const char *p = s; *p && *p != 'e'; p++) {
    if (*p < '0' || *p > '9') continue;
    if (lead && *p == '0') continue;
    lead = 0;
    n++;
  }
  return n ? n : 1;
}

/* Known cases, then 200 000 doubles of random bits (every exponent, the
 * subnormals included): each reads back as itself, and no text of fewer
 * digits that reads back is shorter. */
static void test_numbers_read_back_and_are_shortest(void) {
  char b[LK_FORMAT_DOUBLE_MAX];
  const struct {
    double x;
    const char *text;
  } known[] = {{0.1, "0.1"},
               {1e-5, "1e-05"},
               {0.1 + 0.2, "0.30000000000000004"},
               {1.0 / 3, "0.3333333333333333"},
               {-0.0, "-0"},
               {0, "0"},
               {9.81, "9.81"},
               {DBL_MAX, "1.7976931348623157e+308"},
               {4.9406564584124654e-324, "5e-324"},
               {100, "100"},
               {NAN, "nan"},
               {INFINITY, "inf"},
               {-INFINITY, "-inf"}};
  for (size_t i = 0; i < sizeof known / sizeof *known; i++)
    CU_ASSERT_STRING_EQUAL(lk_format_double(known[i].x, b), known[i].text);
  uint64_t x = 42;
  int checked = 0;
  for (int i = 0; i < 200000; i++) {
    uint64_t bits = splitmix(&x);
    double v;
    memcpy(&v, &bits, sizeof v);
    if (!isfinite(v)) continue;
    lk_format_double(v, b);
    double back = strtod(b, NULL);
    if (memcmp(&back, &v, sizeof v) != 0) {
      LK_ASSERT_MSG(0, "%.17g wrote as '%s', read back as %.17g", v, b, back);
      break;
    }
    /* No text with fewer digits that reads back is shorter. */
    int d = digits(b), longer = 0;
    for (int p = 1; p < d; p++) {
      char shorter[400];
      snprintf(shorter, sizeof shorter, "%.*g", p, v);
      if (strtod(shorter, NULL) == v && strlen(shorter) < strlen(b)) {
        LK_ASSERT_MSG(0, "%.17g: '%s' is shorter than '%s' and reads back", v, shorter, b);
        longer = 1;
        break;
      }
    }
    if (longer) break;
    checked++;
  }
  CU_ASSERT(checked > 199000);
}

/* Line k (0 = the header) of a text, into buf. */
static const char *line_of(const char *text, int k, char *buf, size_t size) {
  const char *p = text;
  for (int i = 0; i < k && p; i++) {
    p = strchr(p, '\n');
    if (p) p++;
  }
  if (!p) return NULL;
  size_t n = strcspn(p, "\n");
  if (n >= size) n = size - 1;
  memcpy(buf, p, n);
  buf[n] = 0;
  return buf;
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *t = malloc((size_t)n + 1);
  if (t && fread(t, 1, (size_t)n, f) != (size_t)n) n = 0;
  fclose(f);
  if (t) t[n] = 0;
  return t;
}

/* The gripper holding its cube, with every column group: after each
 * written step the row read back from the CSV equals, bit for bit, what
 * the API says then: the link frames' quaternions give their rotation
 * matrices, the actuators' forces, the energies, each link's tactile
 * summary. */
static void test_column_groups_equal_the_api(void) {
  lk_error e;
  lk_model *m = lk_model_load_file(lk_test_srcpath("mechanisms/gripper.yaml"), NULL, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  unsigned groups;
  LK_ASSERT_INT_EQ(lk_trajectory_groups_parse("pose,actuators,energy,tactile", &groups, NULL, 0), 0);
  char bad[32];
  LK_ASSERT_INT_EQ(lk_trajectory_groups_parse("pose,colour", &groups, bad, sizeof bad), -1);
  CU_ASSERT_STRING_EQUAL(bad, "colour");
  lk_trajectory_groups_parse("tactile,energy,pose,actuators", &groups, NULL, 0);
  const int nl = lk_model_nlink(m) - 1, na = lk_model_nactuator(m);
  const int nbase = lk_trajectory_ncolumns(m), nc = lk_trajectory_ncolumns_in(m, groups);
  LK_ASSERT_INT_EQ(nc, nbase + 4 * nl + na + 3 + 4 * nl);
  char name[128];
  CU_ASSERT_STRING_EQUAL(lk_trajectory_column_name_in(m, groups, nbase, name, sizeof name),
                         "palm.qw");
  LK_ASSERT_INT_EQ(lk_trajectory_column_index_in(m, groups, "energy"), nbase + 4 * nl + na + 2);
  LK_ASSERT_INT_EQ(lk_trajectory_column_index_in(m, 0, "energy"), -1);
  LK_ASSERT_INT_EQ(lk_trajectory_column_index_in(m, groups, "cube.slip_score"),
                   nbase + 4 * nl + na + 3 + 4 * (lk_model_link_index(m, "cube") - 1) + 1);

  const char *path = scratch("groups.csv");
  FILE *f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  lk_trajectory_writer *w = lk_trajectory_writer_stream_in(f, m, groups, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(w);
  lk_data *d = lk_data_new(m);
  double *want = calloc((size_t)nc, sizeof *want);
  double(*rows)[512] = calloc(5, sizeof *rows);
  CU_ASSERT_FATAL(nc <= 512 && want && rows);
  int written = 0;
  for (int s = 0; s <= 400; s++) {
    if (s % 100 == 0) {
      LK_ASSERT_OK(lk_forward_kinematics(m, d), &e);
      LK_ASSERT_OK(lk_trajectory_writer_add(w, d, &e), &e);
      /* What the API says now, column by column. */
      int k = nbase;
      for (int l = 1; l <= nl; l++) {
        lk_quat q = lk_q_from_mat3(&lk_data_link_pose(d, l)->R);
        rows[written][k++] = q.w, rows[written][k++] = q.x;
        rows[written][k++] = q.y, rows[written][k++] = q.z;
      }
      for (int a = 0; a < na; a++) rows[written][k++] = lk_data_actuator_force(d, a);
      double ke, pe;
      LK_ASSERT_OK(lk_energy_kinetic(m, d, &ke), &e);
      LK_ASSERT_OK(lk_energy_potential(m, d, &pe), &e);
      rows[written][k++] = ke, rows[written][k++] = pe, rows[written][k++] = ke + pe;
      for (int l = 1; l <= nl; l++) {
        lk_tactile t;
        LK_ASSERT_OK(lk_data_tactile(d, l, &t), NULL);
        rows[written][k++] = t.slip, rows[written][k++] = t.slip_score;
        rows[written][k++] = t.normal_force, rows[written][k++] = lk_v3_norm(t.shear_force);
      }
      LK_ASSERT_INT_EQ(k, nc);
      written++;
    }
    if (s < 400) LK_ASSERT_OK(lk_step(m, d), &e);
  }
  LK_ASSERT_OK(lk_trajectory_writer_close(w, &e), &e);
  fclose(f);
  char *text = slurp(path);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  char *line = malloc(1 << 16);
  int compared = 0, touching = 0;
  for (int r = 0; r < written; r++) {
    CU_ASSERT_FATAL(line_of(text, r + 1, line, 1 << 16) != NULL);
    char *p = line;
    for (int c = 0; c < nc; c++) {
      double v = strtod(p, &p);
      if (c >= nbase) {
        LK_ASSERT_MSG(memcmp(&v, &rows[r][c], sizeof v) == 0, "row %d column %s: %.17g, API %.17g",
                      r, lk_trajectory_column_name_in(m, groups, c, name, sizeof name), v,
                      rows[r][c]);
        compared++;
      }
      if (*p == ',') p++;
    }
    /* A quaternion column gives back its link's rotation. */
    touching += rows[r][lk_trajectory_column_index_in(m, groups, "cube.fn")] > 0;
  }
  LK_ASSERT_INT_EQ(compared, written * (nc - nbase));
  CU_ASSERT(touching >= 3); /* the fingers hold the cube: its tactile columns are not all 0 */
  free(line);
  free(text);
  free(want);
  free(rows);
  unlink(path);
  lk_data_free(d);
  lk_model_free(m);
}

/* A named geom and an unnamed one on a plane: the contact CSV's depth is
 * the report's, bit for bit, and its geom columns name the two geoms (the
 * label of an unnamed one: "<link>#<k>"). */
static void test_contacts_carry_depth_and_geoms(void) {
  const char *yaml =
      "links:\n"
      "  - name: block\n"
      "    joint: {type: free}\n"
      "    mass: 1\n"
      "    geoms:\n"
      "      - {name: sole, type: box, half_extents: [0.1, 0.1, 0.02]}\n"
      "      - {type: sphere, radius: 0.03, origin: {xyz: [0, 0, 0.05]}}\n"
      "world:\n"
      "  geoms:\n"
      "    - {type: plane, normal: [0, 0, 1]}\n"
      "initial:\n"
      "  - {joint: block, q: [0, 0, 0.0195, 1, 0, 0, 0]}\n";
  lk_error e;
  lk_model *m = lk_model_load_string(yaml, strlen(yaml), "block.yaml", NULL, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  char label[64];
  CU_ASSERT_STRING_EQUAL(lk_model_geom_label(m, lk_model_geom_index(m, "sole"), label, sizeof label),
                         "sole");
  int sphere = -1, plane = -1;
  for (int g = 0; g < lk_model_ngeom(m); g++) {
    lk_geom_spec gs;
    lk_model_geom(m, g, &gs);
    if (gs.type == LK_GEOM_SPHERE) sphere = g;
    if (gs.type == LK_GEOM_PLANE) plane = g;
  }
  CU_ASSERT_STRING_EQUAL(lk_model_geom_label(m, sphere, label, sizeof label), "block#1");
  CU_ASSERT_STRING_EQUAL(lk_model_geom_label(m, plane, label, sizeof label), "world#0");
  lk_data *d = lk_data_new(m);
  LK_ASSERT_OK(lk_step(m, d), &e);
  const char *path = scratch("contacts.csv");
  FILE *f = fopen(path, "w");
  lk_contact_writer *w = lk_contact_writer_stream(f, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(w);
  LK_ASSERT_OK(lk_contact_writer_add_data(w, m, d, NULL, &e), &e);
  LK_ASSERT_OK(lk_contact_writer_close(w, &e), &e);
  fclose(f);
  char *text = slurp(path);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  int n = lk_data_ncontacts(d);
  CU_ASSERT(n >= 4);
  char line[1024];
  for (int i = 0; i < n; i++) {
    const lk_contact_report *r = lk_data_contact_report(d, i);
    CU_ASSERT_FATAL(line_of(text, i + 1, line, sizeof line) != NULL);
    char *p = line;
    for (int c = 0; c < 14; c++) p = strchr(p, ',') + 1; /* to depth */
    double depth = strtod(p, &p);
    LK_ASSERT_MSG(memcmp(&depth, &r->depth, sizeof depth) == 0, "depth %.17g, report %.17g", depth,
                  r->depth);
    char g1[64], g2[64];
    CU_ASSERT_FATAL(sscanf(p, ",%63[^,],%63s", g1, g2) == 2);
    CU_ASSERT_STRING_EQUAL(g1, "sole"); /* the sphere is 5 cm up: only the sole touches */
    CU_ASSERT_STRING_EQUAL(g2, "world#0");
    LK_ASSERT_NEAR(depth, 0.0005, 1e-6); /* sunk 0.5 mm where it was placed */
  }
  free(text);
  unlink(path);
  lk_data_free(d);
  lk_model_free(m);
}

void lk_test_register(void) {
  static const lk_test tests[] = {
      {"numbers read back and are the shortest", test_numbers_read_back_and_are_shortest},
      {"column groups equal the API", test_column_groups_equal_the_api},
      {"contacts carry depth and geoms", test_contacts_carry_depth_and_geoms},
      {NULL, NULL}};
  lk_test_suite("output columns", tests);
}
