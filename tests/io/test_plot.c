/* SVG plots: every series inside its frame with a margin, one panel per
 * unit with its quantity on the axis, a flat line in the middle of its
 * panel, the units of the plot columns, the planner's strip chart. The
 * geometry is read back from the SVG text. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"

static char *svg_of_panels(const double *x, int n, const lk_plot_series *s, int ns) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  lk_error err;
  LK_ASSERT_OK(lk_plot_svg_panels_stream(f, NULL, x, n, s, ns, &err), &err);
  fclose(f);
  return buf;
}

typedef struct {
  double x, y, w, h;
} rect;

/* The frames: rects drawn with fill="none" and a dark stroke. */
static int frames(const char *svg, rect *r, int max) {
  int n = 0;
  for (const char *p = strstr(svg, "<rect x="); p && n < max; p = strstr(p + 1, "<rect x=")) {
    const char *end = strchr(p, '>');
    if (!end || !strstr(p, "fill=\"none\" stroke=\"#333333\"") ||
        strstr(p, "fill=\"none\" stroke=\"#333333\"") > end)
      continue;
    if (sscanf(p, "<rect x=\"%lf\" y=\"%lf\" width=\"%lf\" height=\"%lf\"", &r[n].x, &r[n].y,
               &r[n].w, &r[n].h) == 4)
      n++;
  }
  return n;
}

/* The points of the k-th polyline (x, y pairs into pts; returns count). */
static int polyline(const char *svg, int k, double *pts, int max) {
  const char *p = svg;
  for (int i = 0; i <= k && p; i++) p = strstr(i ? p + 1 : p, "<polyline");
  if (!p) return 0;
  p = strstr(p, "points=\"");
  if (!p) return 0;
  p += 8;
  int n = 0;
  while (*p && *p != '"' && n < max) {
    char *e;
    double a = strtod(p, &e);
    if (e == p || *e != ',') break;
    double b = strtod(e + 1, &e);
    pts[2 * n] = a, pts[2 * n + 1] = b;
    n++;
    p = e;
    while (*p == ' ' || *p == '\n') p++;
  }
  return n;
}

static int inside(const rect *r, double x, double y, double margin) {
  return x >= r->x + margin - 1e-6 && x <= r->x + r->w - margin + 1e-6 && y >= r->y + margin - 1e-6 &&
         y <= r->y + r->h - margin + 1e-6;
}

enum { N = 201 };

static void test_margin_and_panels(void) {
  double t[N], a[N], b[N], c[N], f[N];
  for (int i = 0; i < N; i++) {
    t[i] = 0.01 * i;
    a[i] = 0.5 + 0.5 * sin(3 * t[i]); /* on 0 and 1, tick values */
    b[i] = 2 * t[i];                  /* 0 .. 4 rad */
    c[i] = -0.2;                      /* metres too */
    f[i] = i < 10 ? 0 : 10;           /* a step to 10 N */
  }
  lk_plot_series s[] = {{"a", "m", a}, {"b", "rad", b}, {"c", "m", c}, {"f", "N", f}};
  char *svg = svg_of_panels(t, N, s, 4);
  rect r[8];
  LK_ASSERT_INT_EQ(frames(svg, r, 8), 3);
  LK_ASSERT_MSG(strstr(svg, ">position (m)</text>") && strstr(svg, ">angle (rad)</text>") &&
                    strstr(svg, ">force (N)</text>"),
                "panel labels");
  /* Panels stacked top to bottom in the order of first appearance; series
   * a and c in the first, b in the second, f in the third; every point at
   * least the 8-pixel margin inside its frame. */
  /* Polylines come panel by panel: a, c, then b, then f. */
  int panel_of[4] = {0, 0, 1, 2};
  static double pts[2 * 4 * N];
  for (int k = 0; k < 4; k++) {
    int n = polyline(svg, k, pts, 4 * N);
    LK_ASSERT_MSG(n >= N / 2, "series %d: %d points", k, n);
    int out = 0;
    for (int i = 0; i < n; i++) out += !inside(&r[panel_of[k]], pts[2 * i], pts[2 * i + 1], 8);
    LK_ASSERT_MSG(out == 0, "series %d: %d of %d points outside the margin", k, out, n);
  }
  /* Metres and radians never share an axis: nothing of b in panel 0. */
  LK_ASSERT_MSG(r[0].y + r[0].h < r[1].y && r[1].y + r[1].h < r[2].y, "panels overlap");
  free(svg);
}

/* A held cube's height: constant to 1e-13 m, drawn as a flat line in the
 * middle of its panel (not on the border, not magnified). */
static void test_flat_line(void) {
  double t[N], z[N], v[N];
  for (int i = 0; i < N; i++) t[i] = 0.01 * i, z[i] = 0.25 - 1e-13 * i, v[i] = 1e-17 * (i % 5);
  lk_plot_series s[] = {{"cube.z", "m", z}, {"cube.slip_speed", "m/s", v}};
  char *svg = svg_of_panels(t, N, s, 2);
  rect r[4];
  LK_ASSERT_INT_EQ(frames(svg, r, 4), 2);
  static double pts[2 * 4 * N];
  for (int k = 0; k < 2; k++) {
    int n = polyline(svg, k, pts, 4 * N);
    double lo = 1e300, hi = -1e300;
    for (int i = 0; i < n; i++) lo = fmin(lo, pts[2 * i + 1]), hi = fmax(hi, pts[2 * i + 1]);
    LK_ASSERT_MSG(n > 0 && hi - lo < 0.01, "series %d spans %g px", k, hi - lo);
    LK_ASSERT_NEAR(lo, r[k].y + r[k].h / 2, 0.5);
  }
  /* Tick labels are round: 0.25 is one of them. */
  LK_ASSERT_MSG(strstr(svg, ">0.25</text>") != NULL, "no tick at 0.25");
  free(svg);
}

static void test_column_units(void) {
  lk_error err;
  lk_model *g = lk_model_load_file(lk_test_srcpath("mechanisms/gripper.yaml"), NULL, &err);
  lk_model *p = lk_model_load_file(lk_test_srcpath("mechanisms/pendulum.yaml"), NULL, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(g);
  CU_ASSERT_PTR_NOT_NULL_FATAL(p);
  static const char *const want[][2] = {
      {"t", "s"},          {"cube.z", "m"},        {"left.q", "m"},          {"left.v", "m/s"},
      {"cube.q0", "m"},    {"cube.q3", "1"},       {"cube.v2", "m/s"},       {"cube.v4", "rad/s"},
      {"cube.qw", "1"},    {"left.force", "N"},    {"cube.fn", "N"},         {"cube.shear", "N"},
      {"cube.slip", "1"},  {"kinetic", "J"},       {"cube.utilization", "1"}, {"cube.slip_speed", "m/s"}};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    LK_ASSERT_MSG(lk_plot_column_index(g, want[i][0]) >= 0, "%s is plottable", want[i][0]);
    const char *u = lk_plot_column_unit(g, want[i][0]);
    LK_ASSERT_MSG(strcmp(u, want[i][1]) == 0, "%s: unit '%s', expected '%s'", want[i][0], u, want[i][1]);
  }
  int hinge = 1;
  char q[LK_IO_COLUMN_MAX], v[LK_IO_COLUMN_MAX];
  snprintf(q, sizeof q, "%s.q", lk_model_joint_name(p, hinge));
  snprintf(v, sizeof v, "%s.v", lk_model_joint_name(p, hinge));
  LK_ASSERT_MSG(lk_model_joint_type(p, hinge) == LK_JOINT_REVOLUTE, "the pendulum's joint is revolute");
  LK_ASSERT_MSG(!strcmp(lk_plot_column_unit(p, q), "rad") && !strcmp(lk_plot_column_unit(p, v), "rad/s"),
                "revolute units");
  LK_ASSERT_INT_EQ(lk_plot_column_index(g, "cube.bogus"), -1);
  LK_ASSERT_INT_EQ(lk_plot_column_index(g, "world.utilization"), -1);
  LK_ASSERT_INT_EQ(lk_plot_column_index(g, "nolink.slip_speed"), -1);
  /* Distinct indices for the two extras of two links. */
  int a = lk_plot_column_index(g, "cube.utilization"), b = lk_plot_column_index(g, "cube.slip_speed"),
      c = lk_plot_column_index(g, "palm.utilization");
  LK_ASSERT_MSG(a != b && a != c && b != c, "extras share an index");
  lk_model_free(g);
  lk_model_free(p);
}

static int count(const char *s, const char *what) {
  int n = 0;
  for (const char *p = strstr(s, what); p; p = strstr(p + 1, what)) n++;
  return n;
}

static void test_strip(void) {
  const double eps[] = {0.12, 0.05, NAN, 0.2, 0.0, 0.31, 0.08};
  const int row[] = {0, 1, 2, 0, 2, 0, 1};
  const char *rows[] = {"held", "dropped", "no contact"};
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  lk_plot_options o;
  lk_plot_options_default(&o);
  o.title = "grasp candidates";
  o.xlabel = "epsilon";
  lk_error err;
  LK_ASSERT_OK(lk_plot_strip_svg(f, &o, eps, row, 7, rows, 3, &err), &err);
  fclose(f);
  LK_ASSERT_INT_EQ(count(buf, "<circle"), 6); /* the NaN is counted, not drawn */
  LK_ASSERT_MSG(strstr(buf, ">held (3)</text>") && strstr(buf, ">dropped (2)</text>") &&
                    strstr(buf, ">no contact (2)</text>") && strstr(buf, ">epsilon</text>"),
                "row labels with counts");
  rect r[2];
  LK_ASSERT_INT_EQ(frames(buf, r, 2), 1);
  /* Each circle in its row's band, further right for a larger epsilon. */
  const char *p = buf;
  double cx[6], cy[6];
  for (int i = 0; i < 6; i++) {
    p = strstr(p, "<circle");
    sscanf(p, "<circle cx=\"%lf\" cy=\"%lf\"", &cx[i], &cy[i]);
    p++;
  }
  const int drawn[] = {0, 1, 3, 4, 5, 6};
  double band = r[0].h / 3;
  for (int i = 0; i < 6; i++) {
    int k = drawn[i];
    LK_ASSERT_MSG(cy[i] > r[0].y + row[k] * band && cy[i] < r[0].y + (row[k] + 1) * band,
                  "point %d outside its row", k);
    LK_ASSERT_MSG(inside(&r[0], cx[i], cy[i], 8), "point %d outside the margin", k);
  }
  LK_ASSERT_MSG(cx[4] > cx[2] && cx[2] > cx[0] && cx[0] > cx[5] && cx[5] > cx[1] && cx[1] > cx[3],
                "x order");
  free(buf);
  int bad[] = {0, 3};
  f = open_memstream(&buf, &len);
  LK_ASSERT_INT_EQ(lk_plot_strip_svg(f, NULL, eps, bad, 2, rows, 3, &err), LK_INVALID_ARGUMENT);
  fclose(f);
  free(buf);
}

void lk_test_register(void) {
  static const lk_test tests[] = {{"margin, one panel per unit", test_margin_and_panels},
                                  {"flat line in the middle", test_flat_line},
                                  {"plot column units", test_column_units},
                                  {"strip chart", test_strip},
                                  {NULL, NULL}};
  lk_test_suite("plot", tests);
}
