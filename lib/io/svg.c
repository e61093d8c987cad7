/* A self-contained SVG line plot: white background, frame, grid, ticks on
 * "nice" 1-2-5 steps, tick labels, axis labels, a title and a legend, one
 * polyline per series. No scripts, no external fonts or stylesheets, so it
 * opens the same in any browser or image viewer. */
#include <float.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "io/io_internal.h"
#include "linkage/io.h"

void lk_plot_options_default(lk_plot_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
}

/* Tableau 10: distinct, colour-blind-friendly, readable on white. */
static const char *const kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                       "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

static void xml_text(lk_outfile *o, const char *s) {
  for (; s && *s; s++) {
    switch (*s) {
      case '&': lk_outfile_puts(o, "&amp;"); break;
      case '<': lk_outfile_puts(o, "&lt;"); break;
      case '>': lk_outfile_puts(o, "&gt;"); break;
      case '"': lk_outfile_puts(o, "&quot;"); break;
      case '\'': lk_outfile_puts(o, "&#39;"); break;
      default: {
        /* Control characters are not allowed in XML 1.0 at all. */
        char c[2] = {(unsigned char)*s < 0x20 ? '?' : *s, '\0'};
        lk_outfile_puts(o, c);
      }
    }
  }
}

/* A step of 1, 2 or 5 times a power of ten giving about `target` ticks. */
static double nice_step(double range, int target) {
  double raw = range / target;
  double p = pow(10, floor(log10(raw)));
  double f = raw / p;
  double nice = f < 1.5 ? 1 : (f < 3.5 ? 2 : (f < 7.5 ? 5 : 10));
  return nice * p;
}

/* A tick label with as many decimals as the step needs (so 0.1 + 0.2 is
 * written 0.3), in plain notation unless the numbers are very large or
 * small. */
static void tick_label(double v, double step, char *buf, size_t size) {
  if (fabs(v) < step * 1e-9) v = 0; /* no "-0" and no 1e-17 */
  double mag = fmax(fabs(v), step);
  if (mag >= 1e6 || step < 1e-4) {
    snprintf(buf, size, "%.3g", v);
  } else {
    int dec = (int)fmax(0, -floor(log10(step) + 1e-9));
    snprintf(buf, size, "%.*f", dec, v);
  }
}

/* The frame is drawn at px0..px1, py0..py1; data are mapped into it less
 * an inner margin of PAD pixels on every side, so that no series runs on
 * the frame's border (a held cube's constant height was drawn on it). */
#define PAD 8.0
typedef struct {
  double x0, x1, y0, y1; /* data ranges */
  double px0, px1, py0, py1; /* plot area in pixels (py0 top) */
} frame;

static double to_px(const frame *f, double x) {
  return f->px0 + PAD + (x - f->x0) / (f->x1 - f->x0) * (f->px1 - f->px0 - 2 * PAD);
}
static double to_py(const frame *f, double y) {
  return f->py1 - PAD - (y - f->y0) / (f->y1 - f->y0) * (f->py1 - f->py0 - 2 * PAD);
}

typedef struct {
  lk_outfile *o;
  const frame *f;
  const double *x, *y;
  const char *color;
  int open, count, dashed;
} pen;

static void pen_point(pen *p, int i) {
  if (!p->open) {
    lk_outfile_printf(p->o, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\" "
                      "stroke-linejoin=\"round\"%s points=\"", p->color,
                      p->dashed ? " stroke-dasharray=\"7 5\"" : "");
    p->open = 1;
    p->count = 0;
  }
  lk_outfile_printf(p->o, "%s%.2f,%.2f", p->count++ % 8 ? " " : "\n", to_px(p->f, p->x[i]),
                    to_py(p->f, p->y[i]));
}

static void pen_up(pen *p) {
  if (p->open) lk_outfile_puts(p->o, "\"/>\n");
  p->open = 0;
}

/* Emit a pixel column's first, lowest and highest samples in index order. */
static void pen_bucket(pen *p, int first, int lo, int hi) {
  if (first < 0) return;
  int a = lo < hi ? lo : hi, b = lo < hi ? hi : lo;
  pen_point(p, first);
  if (a != first) pen_point(p, a);
  if (b != a && b != first) pen_point(p, b);
}

static void series(lk_outfile *o, const frame *f, const double *x, const double *y, int n,
                   const char *color, int dashed) {
  pen p = {o, f, x, y, color, 0, 0, dashed};
  /* Long series are thinned per pixel column, keeping extremes so that
   * peaks survive; short ones are drawn sample by sample. Non-finite
   * samples lift the pen. */
  int thin = n > 4 * ((int)(f->px1 - f->px0) + 1);
  int bucket = -1, first = -1, lo = -1, hi = -1;
  for (int i = 0; i < n; i++) {
    if (!isfinite(x[i]) || !isfinite(y[i])) {
      pen_bucket(&p, first, lo, hi);
      first = -1;
      bucket = -1;
      pen_up(&p);
      continue;
    }
    if (!thin) {
      pen_point(&p, i);
      continue;
    }
    int b = (int)floor(to_px(f, x[i]) - f->px0);
    if (b != bucket) {
      pen_bucket(&p, first, lo, hi);
      bucket = b;
      first = lo = hi = i;
    } else {
      if (y[i] < y[lo]) lo = i;
      if (y[i] > y[hi]) hi = i;
    }
  }
  pen_bucket(&p, first, lo, hi);
  pen_up(&p);
}


typedef struct {
  const char *name, *unit;
  const double *y;
  int panel;
} pseries;

static void plot_body(lk_outfile *out, const lk_plot_options *opts, const double *x, int n,
                      pseries *ser, int nseries, int npanel, const char *const *panel_label);

static int plot_args_ok(const double *x, int n, const void *y, int nseries) {
  return x && y && n >= 1 && nseries >= 1;
}

/* The legacy one-panel plot: every series on one axis labelled ylabel. */
static lk_status one_panel(lk_outfile *out, const lk_plot_options *opts, const double *x, int n,
                           const double *const *y, const char *const *names, int nseries,
                           lk_error *err) {
  pseries *ser = lk_calloc((size_t)nseries, sizeof *ser);
  if (!ser) {
    lk_outfile_discard(out);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  }
  for (int s = 0; s < nseries; s++) ser[s].name = names ? names[s] : NULL, ser[s].y = y[s];
  const char *label[1] = {opts ? opts->ylabel : NULL};
  plot_body(out, opts, x, n, ser, nseries, 1, label);
  lk_free(ser);
  return lk_outfile_commit(out, err);
}

lk_status lk_plot_svg(const char *path, const lk_plot_options *opts, const double *x, int n,
                      const double *const *y, const char *const *names, int nseries,
                      lk_error *err) {
  if (!path || !plot_args_ok(x, n, y, nseries))
    return lk_error_set(err, LK_INVALID_ARGUMENT, "a plot needs at least one point and one series");
  lk_outfile out;
  lk_status st = lk_outfile_open(&out, path, err);
  if (st) return st;
  return one_panel(&out, opts, x, n, y, names, nseries, err);
}

lk_status lk_plot_svg_stream(FILE *f, const lk_plot_options *opts, const double *x, int n,
                             const double *const *y, const char *const *names, int nseries,
                             lk_error *err) {
  if (!f || !plot_args_ok(x, n, y, nseries))
    return lk_error_set(err, LK_INVALID_ARGUMENT, "a plot needs a stream, at least one point and one series");
  lk_outfile out;
  lk_outfile_stream(&out, f);
  return one_panel(&out, opts, x, n, y, names, nseries, err);
}

const char *lk_plot_unit_quantity(const char *unit) {
  static const struct {
    const char *unit, *quantity;
  } k[] = {{"m", "position"},          {"rad", "angle"},      {"m/s", "velocity"},
           {"rad/s", "angular velocity"}, {"N", "force"},     {"N m", "torque"},
           {"J", "energy"},            {"s", "time"},         {"1", "ratio"},
           {"kg", "mass"},             {"m/s^2", "acceleration"}};
  for (size_t i = 0; unit && i < sizeof k / sizeof k[0]; i++)
    if (strcmp(unit, k[i].unit) == 0) return k[i].quantity;
  return NULL;
}

static lk_status panels(lk_outfile *out, const lk_plot_options *opts, const double *x, int n,
                        const lk_plot_series *s, int nseries, lk_error *err) {
  pseries *ser = lk_calloc((size_t)nseries, sizeof *ser);
  char(*label)[96] = lk_calloc((size_t)nseries, sizeof *label);
  const char **lp = lk_calloc((size_t)nseries, sizeof *lp);
  if (!ser || !label || !lp) {
    lk_free(ser), lk_free(label), lk_free(lp);
    lk_outfile_discard(out);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  }
  /* One panel per unit, in the order the units first appear. */
  int np = 0;
  for (int i = 0; i < nseries; i++) {
    const char *u = s[i].unit ? s[i].unit : "";
    int p = 0;
    while (p < i && strcmp(s[p].unit ? s[p].unit : "", u) != 0) p++;
    ser[i].name = s[i].name, ser[i].unit = u, ser[i].y = s[i].y;
    if (p < i) {
      ser[i].panel = ser[p].panel;
      continue;
    }
    ser[i].panel = np;
    const char *q = lk_plot_unit_quantity(u);
    if (!*u)
      label[np][0] = '\0';
    else if (q && strcmp(u, "1") == 0)
      snprintf(label[np], sizeof label[np], "%s", q);
    else
      snprintf(label[np], sizeof label[np], "%s (%s)", q ? q : "value", u);
    lp[np] = label[np];
    np++;
  }
  plot_body(out, opts, x, n, ser, nseries, np, lp);
  lk_free(ser), lk_free(label), lk_free(lp);
  return lk_outfile_commit(out, err);
}

static int series_ok(const lk_plot_series *s, int nseries) {
  for (int i = 0; s && i < nseries; i++)
    if (!s[i].y) return 0;
  return s != NULL;
}

lk_status lk_plot_svg_panels(const char *path, const lk_plot_options *opts, const double *x, int n,
                             const lk_plot_series *s, int nseries, lk_error *err) {
  if (!path || !plot_args_ok(x, n, s, nseries) || !series_ok(s, nseries))
    return lk_error_set(err, LK_INVALID_ARGUMENT, "a plot needs at least one point and one series");
  lk_outfile out;
  lk_status st = lk_outfile_open(&out, path, err);
  if (st) return st;
  return panels(&out, opts, x, n, s, nseries, err);
}

lk_status lk_plot_svg_panels_stream(FILE *f, const lk_plot_options *opts, const double *x, int n,
                                    const lk_plot_series *s, int nseries, lk_error *err) {
  if (!f || !plot_args_ok(x, n, s, nseries) || !series_ok(s, nseries))
    return lk_error_set(err, LK_INVALID_ARGUMENT, "a plot needs a stream, at least one point and one series");
  lk_outfile out;
  lk_outfile_stream(&out, f);
  return panels(&out, opts, x, n, s, nseries, err);
}

static const char *color_of(int s) { return kPalette[s % (int)(sizeof kPalette / sizeof kPalette[0])]; }

/* Ranges of a panel: x over every finite sample, y over its series; a flat
 * line gets a range to sit in the middle of; y widened to whole ticks. */
static void panel_range(frame *f, double *ys, const double *x, int n, const pseries *ser,
                        int nseries, int panel, int ticks) {
  f->y0 = DBL_MAX, f->y1 = -DBL_MAX;
  for (int s = 0; s < nseries; s++) {
    if (ser[s].panel != panel) continue;
    for (int i = 0; i < n; i++)
      if (isfinite(ser[s].y[i]) && isfinite(x[i]))
        f->y0 = fmin(f->y0, ser[s].y[i]), f->y1 = fmax(f->y1, ser[s].y[i]);
  }
  if (f->y0 > f->y1) f->y0 = 0, f->y1 = 1;
  /* A line flat to a millionth (a held cube's height, creeping by 1e-13 m)
   * is drawn flat in the middle, not magnified into a slope. */
  if (f->y1 - f->y0 <= fmax(1e-6 * fmax(fabs(f->y0), fabs(f->y1)), 1e-12)) {
    /* Rounding noise about zero (a slip speed of 1e-17 m/s) is zero. */
    double mid = fabs(f->y0) < 1e-12 && fabs(f->y1) < 1e-12 ? 0 : 0.5 * (f->y0 + f->y1);
    f->y0 = f->y1 = mid;
    double pad = fabs(mid) > 0 ? 0.1 * fabs(mid) : 1;
    f->y0 -= pad;
    f->y1 += pad;
  }
  *ys = nice_step(f->y1 - f->y0, ticks);
  f->y0 = floor(f->y0 / *ys + 1e-9) * *ys;
  f->y1 = ceil(f->y1 / *ys - 1e-9) * *ys;
}

static void plot_body(lk_outfile *out, const lk_plot_options *opts, const double *x, int n,
                      pseries *ser, int nseries, int npanel, const char *const *panel_label) {
  lk_plot_options o;
  lk_plot_options_default(&o);
  if (opts) o = *opts;
  double top = o.title ? 44 : 20, bottom = 56, gap = 22;
  int W = o.width > 0 ? o.width : 800;
  int H = o.height > 0 ? o.height : (npanel == 1 ? 480 : (int)(top + bottom + npanel * 190 + (npanel - 1) * gap));
  if (W < 320) W = 320;
  if (H < 200) H = 200;
  frame base;
  base.x0 = DBL_MAX, base.x1 = -DBL_MAX;
  for (int i = 0; i < n; i++)
    if (isfinite(x[i])) base.x0 = fmin(base.x0, x[i]), base.x1 = fmax(base.x1, x[i]);
  if (base.x0 > base.x1) base.x0 = 0, base.x1 = 1;
  if (base.x1 - base.x0 <= 1e-300) base.x1 = base.x0 + 1;
  double xs = nice_step(base.x1 - base.x0, 8);

  /* Legend on the right, wide enough for the longest name. */
  size_t longest = 4;
  for (int s = 0; s < nseries; s++)
    if (ser[s].name && strlen(ser[s].name) > longest) longest = strlen(ser[s].name);
  if (longest > 40) longest = 40;
  double legend_w = 40 + 7.2 * (double)longest;
  base.px0 = 78;
  base.px1 = W - 24 - legend_w;
  if (base.px1 - base.px0 < 120) base.px1 = base.px0 + 120;
  double ph = (H - top - bottom - (npanel - 1) * gap) / npanel;
  if (ph < 60) ph = 60;

  lk_outfile_printf(out,
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                    "viewBox=\"0 0 %d %d\" font-family=\"Helvetica, Arial, sans-serif\" "
                    "font-size=\"12\">\n",
                    W, H, W, H);
  lk_outfile_printf(out, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H);
  if (o.title) {
    lk_outfile_printf(out, "<text x=\"%.1f\" y=\"26\" text-anchor=\"middle\" font-size=\"15\" "
                      "font-weight=\"bold\">", (base.px0 + base.px1) / 2);
    xml_text(out, o.title);
    lk_outfile_puts(out, "</text>\n");
  }
  char lab[64];
  long kx0 = (long)ceil(base.x0 / xs - 1e-9), kx1 = (long)floor(base.x1 / xs + 1e-9);
  for (int p = 0; p < npanel; p++) {
    frame f = base;
    double ys;
    panel_range(&f, &ys, x, n, ser, nseries, p, npanel == 1 ? 6 : 4);
    f.py0 = top + p * (ph + gap);
    f.py1 = f.py0 + ph;
    int last = p == npanel - 1;
    /* Grid. Step by index, not by accumulating, so ticks land on exact
     * values. */
    long ky0 = (long)floor(f.y0 / ys + 0.5), ky1 = (long)floor(f.y1 / ys + 0.5);
    lk_outfile_puts(out, "<g stroke=\"#e6e6e6\" stroke-width=\"1\">\n");
    for (long k = kx0; k <= kx1 && k - kx0 < 100; k++)
      lk_outfile_printf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n",
                        to_px(&f, (double)k * xs), f.py0, to_px(&f, (double)k * xs), f.py1);
    for (long k = ky0; k <= ky1 && k - ky0 < 100; k++)
      lk_outfile_printf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", f.px0,
                        to_py(&f, (double)k * ys), f.px1, to_py(&f, (double)k * ys));
    lk_outfile_puts(out, "</g>\n<g fill=\"#333333\">\n");
    for (long k = kx0; k <= kx1 && k - kx0 < 100; k++) {
      double t = (double)k * xs;
      lk_outfile_printf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#333333\"/>\n",
                        to_px(&f, t), f.py1, to_px(&f, t), f.py1 + 5);
      if (!last) continue;
      tick_label(t, xs, lab, sizeof lab);
      lk_outfile_printf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%s</text>\n",
                        to_px(&f, t), f.py1 + 19, lab);
    }
    for (long k = ky0; k <= ky1 && k - ky0 < 100; k++) {
      double t = (double)k * ys;
      tick_label(t, ys, lab, sizeof lab);
      lk_outfile_printf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#333333\"/>\n",
                        f.px0 - 5, to_py(&f, t), f.px0, to_py(&f, t));
      lk_outfile_printf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">%s</text>\n",
                        f.px0 - 8, to_py(&f, t) + 4, lab);
    }
    lk_outfile_puts(out, "</g>\n");
    lk_outfile_printf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                      "fill=\"none\" stroke=\"#333333\"/>\n",
                      f.px0, f.py0, f.px1 - f.px0, f.py1 - f.py0);
    if (panel_label && panel_label[p] && *panel_label[p]) {
      lk_outfile_printf(out, "<text transform=\"translate(18,%.2f) rotate(-90)\" "
                        "text-anchor=\"middle\" font-size=\"13\">", (f.py0 + f.py1) / 2);
      xml_text(out, panel_label[p]);
      lk_outfile_puts(out, "</text>\n");
    }
    /* The data, clipped to the frame. */
    lk_outfile_printf(out, "<clipPath id=\"plot%d\"><rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                      "height=\"%.2f\"/></clipPath>\n<g clip-path=\"url(#plot%d)\">\n",
                      p, f.px0, f.py0, f.px1 - f.px0, f.py1 - f.py0, p);
    int in_panel = 0;
    for (int s = 0; s < nseries; s++)
      if (ser[s].panel == p) series(out, &f, x, ser[s].y, n, color_of(s), in_panel % 2), in_panel++;
    lk_outfile_puts(out, "</g>\n");
    /* The marks (phases): dashed lines over every panel, labels above the
     * first. */
    for (int k = 0; k < o.nmarks && o.mark_x; k++) {
      double mx = o.mark_x[k];
      if (!isfinite(mx) || mx < base.x0 || mx > base.x1) continue;
      lk_outfile_printf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
                        "stroke=\"#888888\" stroke-width=\"1\" stroke-dasharray=\"3 3\"/>\n",
                        to_px(&f, mx), f.py0, to_px(&f, mx), f.py1);
      if (p == 0 && o.mark_label && o.mark_label[k]) {
        char nm[48];
        snprintf(nm, sizeof nm, "%s", o.mark_label[k]);
        lk_outfile_printf(out, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"10\" fill=\"#555555\">",
                          to_px(&f, mx) + 2, f.py0 - 4);
        xml_text(out, nm);
        lk_outfile_puts(out, "</text>\n");
      }
    }
    /* This panel's legend. */
    double lx = f.px1 + 16, ly = f.py0 + 4;
    lk_outfile_printf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%d\" fill=\"white\" "
                      "stroke=\"#cccccc\"/>\n",
                      lx, ly, legend_w, 10 + 18 * in_panel);
    for (int s = 0, row = 0; s < nseries; s++) {
      if (ser[s].panel != p) continue;
      double yy = ly + 14 + 18 * row++;
      lk_outfile_printf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
                        "stroke-width=\"3\"%s/>\n",
                        lx + 8, yy, lx + 28, yy, color_of(s),
                        (row - 1) % 2 ? " stroke-dasharray=\"7 5\"" : "");
      lk_outfile_printf(out, "<text x=\"%.2f\" y=\"%.2f\">", lx + 34, yy + 4);
      char nm[48];
      snprintf(nm, sizeof nm, "%s", ser[s].name ? ser[s].name : "");
      xml_text(out, nm);
      lk_outfile_puts(out, "</text>\n");
    }
  }
  lk_outfile_printf(out, "<text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\">",
                    (base.px0 + base.px1) / 2, H - 16);
  xml_text(out, o.xlabel ? o.xlabel : "t (s)");
  lk_outfile_puts(out, "</text>\n</svg>\n");
}

/* ------------------------------------------------------------ strips */

/* A deterministic spread in [-1, 1] for point i (so that equal values in
 * one row do not hide each other, and the file is the same every time). */
static double jitter(int i) {
  uint32_t h = (uint32_t)i * 2654435761u;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  return (double)(h & 0xffff) / 32767.5 - 1;
}

lk_status lk_plot_strip_svg(FILE *f, const lk_plot_options *opts, const double *x, const int *row,
                            int n, const char *const *rows, int nrows, lk_error *err) {
  if (!f || n < 0 || nrows < 1 || (n > 0 && (!x || !row)) || !rows)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "a strip plot needs a stream, rows and their names");
  for (int i = 0; i < n; i++)
    if (row[i] < 0 || row[i] >= nrows)
      return lk_error_set(err, LK_INVALID_ARGUMENT, "point %d is in row %d of %d", i, row[i], nrows);
  lk_plot_options o;
  lk_plot_options_default(&o);
  if (opts) o = *opts;
  lk_outfile out;
  lk_outfile_stream(&out, f);
  double top = o.title ? 44 : 20, bottom = 56, rh = 44;
  int W = o.width > 0 ? o.width : 800;
  int H = o.height > 0 ? o.height : (int)(top + bottom + rh * nrows);
  frame fr;
  fr.x0 = DBL_MAX, fr.x1 = -DBL_MAX;
  for (int i = 0; i < n; i++)
    if (isfinite(x[i])) fr.x0 = fmin(fr.x0, x[i]), fr.x1 = fmax(fr.x1, x[i]);
  if (fr.x0 > fr.x1) fr.x0 = 0, fr.x1 = 1;
  if (fr.x1 - fr.x0 <= 1e-12 * fmax(fabs(fr.x0), 1e-300)) {
    double pad = fabs(fr.x0) > 0 ? 0.1 * fabs(fr.x0) : 1;
    fr.x0 -= pad, fr.x1 += pad;
  }
  double xs = nice_step(fr.x1 - fr.x0, 8);
  fr.x0 = floor(fr.x0 / xs + 1e-9) * xs;
  fr.x1 = ceil(fr.x1 / xs - 1e-9) * xs;
  size_t longest = 4;
  for (int r = 0; r < nrows; r++)
    if (rows[r] && strlen(rows[r]) > longest) longest = strlen(rows[r]);
  if (longest > 32) longest = 32;
  fr.px0 = 24 + 7.2 * (double)(longest + 6);
  fr.px1 = W - 24;
  if (fr.px1 - fr.px0 < 120) fr.px1 = fr.px0 + 120;
  fr.py0 = top;
  fr.py1 = H - bottom;
  fr.y0 = 0, fr.y1 = nrows;
  double rowh = (fr.py1 - fr.py0) / nrows;
  lk_outfile_printf(&out,
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                    "viewBox=\"0 0 %d %d\" font-family=\"Helvetica, Arial, sans-serif\" "
                    "font-size=\"12\">\n<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
                    W, H, W, H, W, H);
  if (o.title) {
    lk_outfile_printf(&out, "<text x=\"%.1f\" y=\"26\" text-anchor=\"middle\" font-size=\"15\" "
                      "font-weight=\"bold\">", (fr.px0 + fr.px1) / 2);
    xml_text(&out, o.title);
    lk_outfile_puts(&out, "</text>\n");
  }
  char lab[64];
  long k0 = (long)floor(fr.x0 / xs + 0.5), k1 = (long)floor(fr.x1 / xs + 0.5);
  lk_outfile_puts(&out, "<g stroke=\"#e6e6e6\">\n");
  for (long k = k0; k <= k1 && k - k0 < 100; k++)
    lk_outfile_printf(&out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n",
                      to_px(&fr, (double)k * xs), fr.py0, to_px(&fr, (double)k * xs), fr.py1);
  for (int r = 1; r < nrows; r++)
    lk_outfile_printf(&out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", fr.px0,
                      fr.py0 + r * rowh, fr.px1, fr.py0 + r * rowh);
  lk_outfile_puts(&out, "</g>\n<g fill=\"#333333\">\n");
  for (long k = k0; k <= k1 && k - k0 < 100; k++) {
    double t = (double)k * xs;
    tick_label(t, xs, lab, sizeof lab);
    lk_outfile_printf(&out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#333333\"/>\n"
                      "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%s</text>\n",
                      to_px(&fr, t), fr.py1, to_px(&fr, t), fr.py1 + 5, to_px(&fr, t), fr.py1 + 19, lab);
  }
  /* Row names with their counts. */
  for (int r = 0; r < nrows; r++) {
    int cnt = 0;
    for (int i = 0; i < n; i++) cnt += row[i] == r;
    lk_outfile_printf(&out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">", fr.px0 - 8,
                      fr.py0 + (r + 0.5) * rowh + 4);
    char nm[40];
    snprintf(nm, sizeof nm, "%s", rows[r] ? rows[r] : "");
    xml_text(&out, nm);
    lk_outfile_printf(&out, " (%d)</text>\n", cnt);
  }
  lk_outfile_puts(&out, "</g>\n");
  lk_outfile_printf(&out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"none\" "
                    "stroke=\"#333333\"/>\n",
                    fr.px0, fr.py0, fr.px1 - fr.px0, fr.py1 - fr.py0);
  /* The points: a circle each, in its row's colour, spread over the
   * middle half of the row; a point with no finite x is left out (its row
   * count still has it). */
  for (int i = 0; i < n; i++) {
    if (!isfinite(x[i])) continue;
    double cy = fr.py0 + (row[i] + 0.5) * rowh + 0.25 * rowh * jitter(i);
    lk_outfile_printf(&out, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3.5\" fill=\"%s\" "
                      "fill-opacity=\"0.7\"/>\n",
                      to_px(&fr, x[i]), cy, color_of(row[i]));
  }
  lk_outfile_printf(&out, "<text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\">",
                    (fr.px0 + fr.px1) / 2, H - 16);
  xml_text(&out, o.xlabel ? o.xlabel : "x");
  lk_outfile_puts(&out, "</text>\n</svg>\n");
  return lk_outfile_commit(&out, err);
}
