/* Issue 30, the library's side: one number reader for every format (item
 * 8), XML entities expanded or refused, never read as "" (item 4), the
 * format told past a DOCTYPE's internal subset and in UTF-16 (item 3),
 * referenced files that are FIFOs or directories refused without hanging
 * (item 2), initial positions whose steps would vanish refused (item 5),
 * a repeated MJCF default class refused (item 6), and an output set that
 * refuses to replace a file the run reads (item 1). Files are written as a
 * user writes them, into the test's scratch folder. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "linkage/linkage.h"
#include "proc.h"

/* ------------------------------------------------------------ helpers */

static lk_model *load_text(const char *name, const char *text, lk_error *e) {
  const char *path = lk_test_scratch(name);
  lk_test_write(path, text);
  lk_error_clear(e);
  return lk_model_load_file(path, NULL, e);
}

/* The load fails and its message holds every fragment given. */
static int refused(const char *name, const char *text, const char *frag1, const char *frag2) {
  const unsigned failures0 = lk_test_failures();
  lk_error e;
  lk_model *m = load_text(name, text, &e);
  LK_ASSERT_MSG(!m, "%s was accepted", name);
  lk_model_free(m);
  LK_ASSERT_MSG(strstr(e.message, frag1), "%s: '%s' not in: %s", name, frag1, e.message);
  if (frag2) LK_ASSERT_MSG(strstr(e.message, frag2), "%s: '%s' not in: %s", name, frag2, e.message);
  return lk_test_failures() == failures0;
}

static double link_mass(const lk_model *m, const char *link) {
  lk_link_spec s;
  int i = lk_model_link_index(m, link);
  if (i <= 0 || lk_model_link(m, i, &s)) return NAN;
  return s.mass;
}

static char *urdf_mass(char *buf, size_t size, const char *doctype, const char *mass,
                       const char *name) {
  snprintf(buf, size,
           "<?xml version=\"1.0\"?>\n%s<robot name=\"r\">\n"
           "  <link name=\"base\"/>\n"
           "  <link name=\"%s\">\n"
           "    <inertial><mass value=\"%s\"/>"
           "<inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>\n"
           "  </link>\n"
           "  <joint name=\"j\" type=\"revolute\"><parent link=\"base\"/><child link=\"%s\"/>"
           "<axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>\n"
           "</robot>\n",
           doctype, name, mass, name);
  return buf;
}

static char *yaml_mass(char *buf, size_t size, const char *mass) {
  snprintf(buf, size,
           "links:\n"
           "  - name: arm\n"
           "    joint: {name: j, type: revolute, axis: [0, 0, 1]}\n"
           "    mass: %s\n"
           "    inertia: [0.01, 0.01, 0.01]\n",
           mass);
  return buf;
}

static char *mjcf_size(char *buf, size_t size, const char *timestep, const char *radius) {
  snprintf(buf, size,
           "<mujoco model=\"m\">\n"
           "  <option timestep=\"%s\"/>\n"
           "  <worldbody>\n"
           "    <body name=\"ball\" pos=\"0 0 1\">\n"
           "      <freejoint name=\"free\"/>\n"
           "      <geom type=\"sphere\" size=\"%s\" density=\"1000\"/>\n"
           "    </body>\n"
           "  </worldbody>\n"
           "</mujoco>\n",
           timestep, radius);
  return buf;
}

/* ------------------------------------------------------ item 8: numbers */

static void test_long_numbers_read_alike(void) {
  /* 70 and 100 characters: every reader takes them, to the same double. */
  char n70[80], n100[110], buf[4096];
  snprintf(n70, sizeof n70, "2.5%067d", 0);
  snprintf(n100, sizeof n100, "0.7%097d1", 0);
  const char *nums[] = {n70, n100};
  const double want[] = {2.5, 0.7};
  for (int k = 0; k < 2; k++) {
    lk_error e;
    lk_model *u = load_text("long.urdf", urdf_mass(buf, sizeof buf, "", nums[k], "arm"), &e);
    LK_ASSERT_MSG(u, "URDF: %s", e.message);
    lk_model *y = load_text("long.yaml", yaml_mass(buf, sizeof buf, nums[k]), &e);
    LK_ASSERT_MSG(y, "YAML: %s", e.message);
    if (u) LK_ASSERT_NEAR(link_mass(u, "arm"), want[k], 0);
    if (y) LK_ASSERT_NEAR(link_mass(y, "arm"), want[k], 0);
    lk_model_free(u);
    lk_model_free(y);
  }
  lk_error e;
  lk_model *j = load_text("long.xml", mjcf_size(buf, sizeof buf, n100, n70), &e);
  LK_ASSERT_MSG(j, "MJCF: %s", e.message);
  if (j) LK_ASSERT_NEAR(lk_model_options(j)->timestep, 0.7, 0);
  lk_model_free(j);
}

static void test_hex_is_refused_everywhere(void) {
  char buf[4096];
  CU_ASSERT_TRUE(refused("hex.urdf", urdf_mass(buf, sizeof buf, "", "0x1p1", "arm"), "0x1p1", "not a finite number"));
  CU_ASSERT_TRUE(refused("hex_ts.xml", mjcf_size(buf, sizeof buf, "0x1p-9", "0.1"), "0x1p-9", NULL));
  CU_ASSERT_TRUE(refused("hex_size.xml", mjcf_size(buf, sizeof buf, "0.002", "0x1p-3"), "0x1p-3", NULL));
  CU_ASSERT_TRUE(refused("hex.yaml", yaml_mass(buf, sizeof buf, "0x1p1"), "expected a number", NULL));
}

static void test_overflow_and_underflow_are_refused(void) {
  char buf[4096];
  CU_ASSERT_TRUE(refused("under.urdf", urdf_mass(buf, sizeof buf, "", "1e-400", "arm"), "1e-400", "too small"));
  CU_ASSERT_TRUE(refused("under.yaml", yaml_mass(buf, sizeof buf, "1e-400"), "too small", NULL));
  CU_ASSERT_TRUE(refused("under.xml", mjcf_size(buf, sizeof buf, "0.002", "2.5e-999"), "2.5e-999", "too small"));
  CU_ASSERT_TRUE(refused("over.urdf", urdf_mass(buf, sizeof buf, "", "1e400", "arm"), "1e400", "out of range"));
  CU_ASSERT_TRUE(refused("over.yaml", yaml_mass(buf, sizeof buf, "-3e309"), "out of range", NULL));
  CU_ASSERT_TRUE(refused("over.xml", mjcf_size(buf, sizeof buf, "7e308", "0.1"), "7e308", "out of range"));
  /* A small number that does not round to 0 is a number like any other. */
  lk_error e;
  lk_model *m = load_text("small.urdf", urdf_mass(buf, sizeof buf, "", "0.5e-0", "arm"), &e);
  LK_ASSERT_MSG(m, "%s", e.message);
  lk_model_free(m);
}

/* -------------------------------------------------- items 3, 4: entities */

static void test_internal_entities_are_expanded(void) {
  char buf[4096];
  const char *dt = "<!DOCTYPE robot [\n  <!ENTITY m \"2.5\">\n  <!ENTITY n \"forearm\">\n"
                   "  <!-- a > in a comment -->\n  <!ENTITY gt2 \"a > b\">\n]>\n";
  lk_error e;
  lk_model *m = load_text("ent.urdf", urdf_mass(buf, sizeof buf, dt, "&m;", "&n;"), &e);
  LK_ASSERT_MSG(m, "%s", e.message);
  if (m) LK_ASSERT_NEAR(link_mass(m, "forearm"), 2.5, 0);
  lk_model_free(m);
  /* A variant: other numbers, a robot name from an entity, an MJCF size. */
  const char *dt2 = "<!DOCTYPE robot [<!ENTITY kg '0.125'><!ENTITY who 'upper_arm'>]>";
  m = load_text("ent2.urdf", urdf_mass(buf, sizeof buf, dt2, "&kg;", "&who;"), &e);
  LK_ASSERT_MSG(m, "%s", e.message);
  if (m) LK_ASSERT_NEAR(link_mass(m, "upper_arm"), 0.125, 0);
  lk_model_free(m);
  const char *mj = "<!DOCTYPE mujoco [<!ENTITY r \"0.25\">]>\n"
                   "<mujoco model=\"m\"><worldbody><body name=\"ball\" pos=\"0 0 1\"><freejoint name=\"free\"/>"
                   "<geom type=\"sphere\" size=\"&r;\" mass=\"2\"/></body></worldbody></mujoco>\n";
  m = load_text("ent.xml", mj, &e);
  LK_ASSERT_MSG(m, "%s", e.message);
  lk_model_free(m);
}

static void test_entity_elements_are_checked(void) {
  /* An entity holding an element unknown in <link> is that element. */
  char buf[4096];
  const char *dt = "<!DOCTYPE robot [<!ENTITY extra \"<sensor name='s'/>\">]>\n";
  snprintf(buf, sizeof buf,
           "<?xml version=\"1.0\"?>\n%s<robot name=\"r\"><link name=\"base\">&extra;</link></robot>\n",
           dt);
  CU_ASSERT_TRUE(refused("ent_elem.urdf", buf, "sensor", NULL));
}

static void test_external_and_undeclared_entities_are_refused(void) {
  char buf[4096];
  const char *secret = lk_test_scratch("secret.txt");
  lk_test_write(secret, "1.5");
  char dt[600];
  snprintf(dt, sizeof dt, "<!DOCTYPE robot [<!ENTITY m SYSTEM \"file://%s\">]>\n", secret);
  CU_ASSERT_TRUE(refused("xxe.urdf", urdf_mass(buf, sizeof buf, dt, "1", "&m;"), "external entity 'm'", NULL));
  CU_ASSERT_TRUE(refused("xpe.urdf",
          urdf_mass(buf, sizeof buf, "<!DOCTYPE robot [<!ENTITY % p SYSTEM \"secret.txt\">]>\n",
                    "1", "arm"),
          "external entity 'p'", NULL));
  /* Declared in an external subset that is never read: not an empty value. */
  CU_ASSERT_TRUE(refused("undeclared.urdf",
          urdf_mass(buf, sizeof buf, "<!DOCTYPE robot SYSTEM \"robot.dtd\">\n", "&m;", "arm"),
          "&m;", "not declared"));
}

static void test_doctype_and_utf16_are_sniffed(void) {
  /* A '>' inside the internal subset used to end the sniffer's DOCTYPE. */
  char buf[4096];
  const char *dt = "<!DOCTYPE robot [\n<!ELEMENT robot ANY>\n<!ATTLIST robot name CDATA #IMPLIED>\n]>\n";
  lk_error e;
  lk_model *m = load_text("dtd.urdf", urdf_mass(buf, sizeof buf, dt, "1.75", "arm"), &e);
  LK_ASSERT_MSG(m, "%s", e.message);
  if (m) LK_ASSERT_NEAR(link_mass(m, "arm"), 1.75, 0);
  lk_model_free(m);
  /* UTF-16 with a byte order mark (XML requires one), either byte order. */
  urdf_mass(buf, sizeof buf, "", "3.25", "arm");
  /* The XML declaration must not claim another encoding. */
  char *text = strstr(buf, "<robot");
  size_t n = strlen(text);
  for (int big = 0; big < 2; big++) {
    size_t len = 0;
    unsigned char *u = malloc(2 * n + 4);
    u[len++] = big ? 0xFE : 0xFF;
    u[len++] = big ? 0xFF : 0xFE;
    for (size_t i = 0; i < n; i++) {
      u[len++] = big ? 0 : (unsigned char)text[i];
      u[len++] = big ? (unsigned char)text[i] : 0;
    }
    const char *path = lk_test_scratch(big ? "be.urdf" : "le.urdf");
    FILE *f = fopen(path, "wb");
    fwrite(u, 1, len, f);
    fclose(f);
    free(u);
    m = lk_model_load_file(path, NULL, &e);
    LK_ASSERT_MSG(m, "%s: %s", path, e.message);
    if (m) LK_ASSERT_NEAR(link_mass(m, "arm"), 3.25, 0);
    lk_model_free(m);
  }
}

/* ------------------------------------------------ item 2: FIFOs and dirs */

static void test_referenced_fifos_are_refused(void) {
  /* Were a FIFO opened, the load would wait forever: the alarm ends the
   * program instead (a failure), never a hang of make check. */
  alarm(60);
  const char *fifo = lk_test_scratch("part.stl");
  unlink(fifo);
  LK_ASSERT_INT_EQ(mkfifo(fifo, 0600), 0);
  CU_ASSERT_TRUE(refused("fifo_mesh.yaml",
          "links:\n  - name: a\n    joint: {type: free}\n    mass: 1\n"
          "    geoms: [{type: mesh, file: part.stl}]\n",
          "part.stl", "is a FIFO"));
  CU_ASSERT_TRUE(refused("fifo_mesh.xml",
          "<mujoco><asset><mesh name=\"p\" file=\"part.stl\"/></asset><worldbody><body>"
          "<freejoint name=\"free\"/><geom type=\"mesh\" mesh=\"p\" mass=\"1\"/></body></worldbody></mujoco>\n",
          "is a FIFO", NULL));
  char buf[4096];
  snprintf(buf, sizeof buf,
           "<?xml version=\"1.0\"?>\n<robot name=\"r\"><link name=\"a\"><collision><geometry>"
           "<mesh filename=\"part.stl\"/></geometry></collision></link></robot>\n");
  CU_ASSERT_TRUE(refused("fifo_mesh.urdf", buf, "FIFO", NULL));
  const char *inc = lk_test_scratch("arm.urdf");
  unlink(inc);
  LK_ASSERT_INT_EQ(mkfifo(inc, 0600), 0);
  CU_ASSERT_TRUE(refused("fifo_include.yaml",
          "links:\n  - {name: a, joint: {type: free}, mass: 1, inertia: [1, 1, 1]}\n"
          "include:\n  - {file: arm.urdf}\n",
          "arm.urdf",
          "is a FIFO"));
  lk_mesh *mesh = NULL;
  lk_error e;
  LK_ASSERT_INT_EQ(lk_mesh_load_file(fifo, NULL, &mesh, &e), LK_IO_ERROR);
  LK_ASSERT_MSG(strstr(e.message, "is a FIFO"), "%s", e.message);
  /* A directory says so too (not "has no mesh vertices"). */
  mkdir(lk_test_scratch("dir.obj"), 0700);
  LK_ASSERT_INT_EQ(lk_mesh_load_file(lk_test_scratch("dir.obj"), NULL, &mesh, &e), LK_IO_ERROR);
  LK_ASSERT_MSG(strstr(e.message, "is a directory"), "%s", e.message);
  alarm(0);
  unlink(fifo);
  unlink(inc);
}

/* ------------------------------------------- item 5: vanishing increments */

static void test_huge_initial_positions_are_refused(void) {
  static const char *fmt = "options: {timestep: 0.001}\n"
                           "links:\n"
                           "  - name: arm\n"
                           "    joint: {name: j, type: %s, axis: [0, 1, 0]}\n"
                           "    mass: 1\n"
                           "    inertia: [0.01, 0.01, 0.01]\n"
                           "initial:\n  - {joint: j, q: %s}\n";
  char buf[1024];
  snprintf(buf, sizeof buf, fmt, "revolute", "1e17");
  CU_ASSERT_TRUE(refused("q1e17.yaml", buf, "initial position 1e+17", "|q| <= 1e+06"));
  snprintf(buf, sizeof buf, fmt, "prismatic", "-2000000.5");
  CU_ASSERT_TRUE(refused("q2e6.yaml", buf, "-2e+06", "q + v h == q"));
  /* At the bound and below it, a position is accepted. */
  const char *ok[] = {"1000000", "-999999.875", "123.456"};
  for (int k = 0; k < 3; k++) {
    snprintf(buf, sizeof buf, fmt, "revolute", ok[k]);
    lk_error e;
    lk_model *m = load_text("qok.yaml", buf, &e);
    LK_ASSERT_MSG(m, "%s: %s", ok[k], e.message);
    lk_model_free(m);
  }
}

/* ------------------------------------------- item 6: MJCF default class */

static void test_repeated_default_class_is_refused(void) {
  CU_ASSERT_TRUE(refused("dup_class.xml",
          "<mujoco><default><default class=\"a\"><geom size=\"0.1\"/></default>"
          "<default class=\"a\"><geom size=\"0.2\"/></default></default>"
          "<worldbody><body><freejoint name=\"free\"/><geom class=\"a\" type=\"sphere\" mass=\"1\"/></body>"
          "</worldbody></mujoco>\n",
          "class 'a' is defined twice", NULL));
  /* A variant: the second one nested under another class. */
  CU_ASSERT_TRUE(refused("dup_nested.xml",
          "<mujoco><default><default class=\"arm\"><default class=\"pad\"/></default>"
          "<default class=\"hand\"><default class=\"pad\"/></default></default>"
          "<worldbody><body><freejoint name=\"free\"/><geom type=\"sphere\" size=\"0.1\" mass=\"1\"/></body>"
          "</worldbody></mujoco>\n",
          "class 'pad' is defined twice", NULL));
  lk_error e;
  lk_model *m = load_text("two_classes.xml",
                          "<mujoco><default><default class=\"a\"><geom size=\"0.1\"/></default>"
                          "<default class=\"b\"><geom size=\"0.2\"/></default></default>"
                          "<worldbody><body><freejoint name=\"free\"/><geom class=\"b\" type=\"sphere\" "
                          "mass=\"1\"/></body></worldbody></mujoco>\n",
                          &e);
  LK_ASSERT_MSG(m, "%s", e.message);
  lk_model_free(m);
}

/* ------------------------------------------- item 1: outputs and inputs */

static void test_outputs_refuse_inputs(void) {
  const char *in = lk_test_scratch("in.yaml");
  lk_test_write(in, "links: []\n");
  char dotted[600], up[700], sym[600], hard[600];
  snprintf(dotted, sizeof dotted, "%s/./in.yaml", lk_test_scratch_dir());
  const char *dir = strrchr(lk_test_scratch_dir(), '/');
  snprintf(up, sizeof up, "%s/../%s/in.yaml", lk_test_scratch_dir(), dir ? dir + 1 : "");
  snprintf(sym, sizeof sym, "%s", lk_test_scratch("sym.yaml"));
  snprintf(hard, sizeof hard, "%s", lk_test_scratch("hard.yaml"));
  unlink(sym);
  unlink(hard);
  LK_ASSERT_INT_EQ(symlink("in.yaml", sym), 0);
  LK_ASSERT_INT_EQ(link(in, hard), 0);
  const char *outs[] = {in, dotted, up, sym, hard};
  for (int k = 0; k < 5; k++) {
    /* The input first, then the output... */
    lk_outputs *s = lk_outputs_new();
    lk_error e;
    LK_ASSERT_INT_EQ(lk_outputs_input(s, in, &e), LK_OK);
    LK_ASSERT_MSG(lk_outputs_add(s, outs[k], &e) < 0, "%s accepted", outs[k]);
    LK_ASSERT_MSG(strstr(e.message, outs[k]) && strstr(e.message, "in.yaml") &&
                      strstr(e.message, "reads"),
                  "%s", e.message);
    lk_outputs_free(s);
    /* ...or the output first, then the input through another name. */
    s = lk_outputs_new();
    LK_ASSERT_INT_EQ(lk_outputs_add(s, in, &e), 0);
    LK_ASSERT_INT_EQ(lk_outputs_input(s, outs[k], &e), LK_INVALID_ARGUMENT);
    lk_outputs_free(s);
  }
  /* Another file, a new file and /dev/null are not inputs. */
  lk_outputs *s = lk_outputs_new();
  lk_error e;
  LK_ASSERT_INT_EQ(lk_outputs_input(s, in, &e), LK_OK);
  LK_ASSERT_MSG(lk_outputs_add(s, lk_test_scratch("out.csv"), &e) >= 0, "%s", e.message);
  LK_ASSERT_MSG(lk_outputs_add(s, "/dev/null", &e) >= 0, "%s", e.message);
  LK_ASSERT_INT_EQ(lk_outputs_input(s, "/dev/null", &e), LK_OK);
  lk_outputs_free(s);
  /* The load option reports the description and the files it references. */
  const char *mesh_src = lk_test_srcpath("mechanisms/meshes/stone.stl");
  char *stl = NULL;
  size_t len = 0;
  stl = lk_test_slurp(mesh_src, &len);
  LK_ASSERT_MSG(stl != NULL, "cannot read %s", mesh_src);
  if (!stl) return;
  FILE *f = fopen(lk_test_scratch("stone.stl"), "wb");
  fwrite(stl, 1, len, f);
  fclose(f);
  free(stl);
  const char *desc = lk_test_scratch("stone.yaml");
  lk_test_write(desc, "links:\n  - name: a\n    joint: {type: free}\n    mass: 1\n"
                      "    geoms: [{type: mesh, file: stone.stl, scale: 0.001}]\n");
  s = lk_outputs_new();
  LK_ASSERT_INT_EQ(lk_outputs_add(s, lk_test_scratch("stone.stl"), &e), 0);
  lk_load_options o;
  lk_load_options_default(&o);
  o.input = lk_outputs_input;
  o.input_ctx = s;
  lk_model *m = lk_model_load_file(desc, &o, &e);
  LK_ASSERT_MSG(!m, "a load whose mesh is an output succeeded");
  LK_ASSERT_MSG(strstr(e.message, "stone.stl") && strstr(e.message, "would be replaced"), "%s",
                e.message);
  lk_model_free(m);
  lk_outputs_free(s);
}

void lk_test_register(void) {
  static const lk_test numbers[] = {
      {"long numbers read alike in URDF, MJCF, YAML", test_long_numbers_read_alike},
      {"hex floats are refused everywhere", test_hex_is_refused_everywhere},
      {"overflow and underflow are refused", test_overflow_and_underflow_are_refused},
      {NULL, NULL}};
  static const lk_test xml[] = {
      {"internal entities are expanded", test_internal_entities_are_expanded},
      {"entity elements are checked", test_entity_elements_are_checked},
      {"external and undeclared entities are refused",
       test_external_and_undeclared_entities_are_refused},
      {"DOCTYPE subsets and UTF-16 are sniffed", test_doctype_and_utf16_are_sniffed},
      {"a repeated MJCF default class is refused", test_repeated_default_class_is_refused},
      {NULL, NULL}};
  static const lk_test files[] = {
      {"referenced FIFOs and directories are refused", test_referenced_fifos_are_refused},
      {"outputs refuse the files read", test_outputs_refuse_inputs},
      {NULL, NULL}};
  static const lk_test state[] = {
      {"huge initial positions are refused", test_huge_initial_positions_are_refused},
      {NULL, NULL}};
  lk_test_suite("one number reader (issue 30.8)", numbers);
  lk_test_suite("XML entities and sniffing (issue 30.3, 30.4, 30.6)", xml);
  lk_test_suite("inputs: FIFOs and outputs (issue 30.1, 30.2)", files);
  lk_test_suite("initial positions (issue 30.5)", state);
}
