/* A self-contained SVG line plot: white background, frame, grid, ticks on
 * "nice" 1-2-5 steps, tick labels, axis labels, a title and a legend, one
 * polyline per series. No scripts, no external fonts or stylesheets, so it
 * opens the same in any browser or image viewer. */
#include <float.h>
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

typedef struct {
  double x0, x1, y0, y1; /* data ranges */
  double px0, px1, py0, py1; /* plot area in pixels (py0 top) */
} frame;

static double to_px(const frame *f, double x) {
  return f->px0 + (x - f->x0) / (f->x1 - f->x0) * (f->px1 - f->px0);
}
static double to_py(const frame *f, double y) {
  return f->py1 - (y - f->y0) / (f->y1 - f->y0) * (f->py1 - f->py0);
}

typedef struct {
  lk_outfile *o;
  const frame *f;
  const double *x, *y;
  const char *color;
  int open, count;
} pen;

static void pen_point(pen *p, int i) {
  if (!p->open) {
    lk_outfile_printf(p->o, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\" "
                      "stroke-linejoin=\"round\" points=\"", p->color);
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
                   const char *color) {
  pen p = {o, f, x, y, color, 0, 0};
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

static void plot_body(lk_outfile *out, const lk_plot_options *opts, const double *x, int n,
                      const double *const *y, const char *const *names, int nseries);

static int plot_args_ok(const double *x, int n, const double *const *y, int nseries) {
  return x && y && n >= 1 && nseries >= 1;
}

lk_status lk_plot_svg(const char *path, const lk_plot_options *opts, const double *x, int n,
                      const double *const *y, const char *const *names, int nseries,
                      lk_error *err) {
  if (!path || !plot_args_ok(x, n, y, nseries))
    return lk_error_set(err, LK_INVALID_ARGUMENT, "a plot needs at least one point and one series");
  lk_outfile out;
  lk_status st = lk_outfile_open(&out, path, err);
  if (st) return st;
  plot_body(&out, opts, x, n, y, names, nseries);
  return lk_outfile_commit(&out, err);
}

lk_status lk_plot_svg_stream(FILE *f, const lk_plot_options *opts, const double *x, int n,
                             const double *const *y, const char *const *names, int nseries,
                             lk_error *err) {
  if (!f || !plot_args_ok(x, n, y, nseries))
    return lk_error_set(err, LK_INVALID_ARGUMENT, "a plot needs a stream, at least one point and one series");
  lk_outfile out;
  lk_outfile_stream(&out, f);
  plot_body(&out, opts, x, n, y, names, nseries);
  return lk_outfile_commit(&out, err);
}

static void plot_body(lk_outfile *out, const lk_plot_options *opts, const double *x, int n,
                      const double *const *y, const char *const *names, int nseries) {
  lk_plot_options o;
  lk_plot_options_default(&o);
  if (opts) o = *opts;
  int W = o.width > 0 ? o.width : 800, H = o.height > 0 ? o.height : 480;
  if (W < 320) W = 320;
  if (H < 200) H = 200;
  frame f;
  f.x0 = DBL_MAX, f.x1 = -DBL_MAX, f.y0 = DBL_MAX, f.y1 = -DBL_MAX;
  for (int i = 0; i < n; i++)
    if (isfinite(x[i])) f.x0 = fmin(f.x0, x[i]), f.x1 = fmax(f.x1, x[i]);
  for (int s = 0; s < nseries; s++)
    for (int i = 0; i < n; i++)
      if (isfinite(y[s][i]) && isfinite(x[i])) f.y0 = fmin(f.y0, y[s][i]), f.y1 = fmax(f.y1, y[s][i]);
  if (f.x0 > f.x1) f.x0 = 0, f.x1 = 1;
  if (f.y0 > f.y1) f.y0 = 0, f.y1 = 1;
  /* A flat line still needs a y range to be drawn in the middle of. */
  if (f.x1 - f.x0 <= 1e-300) f.x1 = f.x0 + 1;
  if (f.y1 - f.y0 <= 1e-12 * fmax(fabs(f.y0), 1e-300)) {
    double pad = fabs(f.y0) > 0 ? 0.1 * fabs(f.y0) : 1;
    f.y0 -= pad;
    f.y1 += pad;
  }
  double xs = nice_step(f.x1 - f.x0, 8), ys = nice_step(f.y1 - f.y0, 6);
  /* The y axis is widened to whole ticks; time keeps its exact span. */
  f.y0 = floor(f.y0 / ys + 1e-9) * ys;
  f.y1 = ceil(f.y1 / ys - 1e-9) * ys;

  /* Legend on the right, wide enough for the longest name. */
  size_t longest = 4;
  for (int s = 0; s < nseries; s++)
    if (names && names[s] && strlen(names[s]) > longest) longest = strlen(names[s]);
  if (longest > 40) longest = 40;
  double legend_w = 40 + 7.2 * (double)longest;
  f.px0 = 78;
  f.px1 = W - 24 - legend_w;
  f.py0 = o.title ? 44 : 20;
  f.py1 = H - 56;
  if (f.px1 - f.px0 < 120) f.px1 = f.px0 + 120;

  lk_outfile_printf(out,
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                    "viewBox=\"0 0 %d %d\" font-family=\"Helvetica, Arial, sans-serif\" "
                    "font-size=\"12\">\n",
                    W, H, W, H);
  lk_outfile_printf(out, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H);
  if (o.title) {
    lk_outfile_printf(out, "<text x=\"%.1f\" y=\"26\" text-anchor=\"middle\" font-size=\"15\" "
                      "font-weight=\"bold\">", (f.px0 + f.px1) / 2);
    xml_text(out, o.title);
    lk_outfile_puts(out, "</text>\n");
  }
  /* Grid and ticks. */
  char lab[64];
  lk_outfile_puts(out, "<g stroke=\"#e6e6e6\" stroke-width=\"1\">\n");
  /* Step by index, not by accumulating, so ticks land on exact values. */
  long kx0 = (long)ceil(f.x0 / xs - 1e-9), kx1 = (long)floor(f.x1 / xs + 1e-9);
  long ky0 = (long)floor(f.y0 / ys + 0.5), ky1 = (long)floor(f.y1 / ys + 0.5);
  for (long k = kx0; k <= kx1 && k - kx0 < 100; k++)
    lk_outfile_printf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n",
                      to_px(&f, (double)k * xs), f.py0, to_px(&f, (double)k * xs), f.py1);
  for (long k = ky0; k <= ky1 && k - ky0 < 100; k++)
    lk_outfile_printf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", f.px0,
                      to_py(&f, (double)k * ys), f.px1, to_py(&f, (double)k * ys));
  lk_outfile_puts(out, "</g>\n<g fill=\"#333333\">\n");
  for (long k = kx0; k <= kx1 && k - kx0 < 100; k++) {
    double t = (double)k * xs;
    tick_label(t, xs, lab, sizeof lab);
    lk_outfile_printf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#333333\"/>\n",
                      to_px(&f, t), f.py1, to_px(&f, t), f.py1 + 5);
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
  /* Axis labels. */
  lk_outfile_printf(out, "<text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\">",
                    (f.px0 + f.px1) / 2, H - 16);
  xml_text(out, o.xlabel ? o.xlabel : "t (s)");
  lk_outfile_puts(out, "</text>\n");
  if (o.ylabel) {
    lk_outfile_printf(out, "<text transform=\"translate(18,%.2f) rotate(-90)\" "
                      "text-anchor=\"middle\" font-size=\"13\">", (f.py0 + f.py1) / 2);
    xml_text(out, o.ylabel);
    lk_outfile_puts(out, "</text>\n");
  }
  /* The data, clipped to the plot area. */
  lk_outfile_printf(out, "<clipPath id=\"plot\"><rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                    "height=\"%.2f\"/></clipPath>\n<g clip-path=\"url(#plot)\">\n",
                    f.px0, f.py0, f.px1 - f.px0, f.py1 - f.py0);
  for (int s = 0; s < nseries; s++)
    series(out, &f, x, y[s], n, kPalette[s % (int)(sizeof kPalette / sizeof kPalette[0])]);
  lk_outfile_puts(out, "</g>\n");
  /* Legend. */
  double lx = f.px1 + 16, ly = f.py0 + 4;
  lk_outfile_printf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%d\" fill=\"white\" "
                    "stroke=\"#cccccc\"/>\n",
                    lx, ly, legend_w, 10 + 18 * nseries);
  for (int s = 0; s < nseries; s++) {
    double yy = ly + 14 + 18 * s;
    lk_outfile_printf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
                      "stroke-width=\"3\"/>\n",
                      lx + 8, yy, lx + 28, yy, kPalette[s % (int)(sizeof kPalette / sizeof kPalette[0])]);
    lk_outfile_printf(out, "<text x=\"%.2f\" y=\"%.2f\">", lx + 34, yy + 4);
    char nm[48];
    snprintf(nm, sizeof nm, "%s", names && names[s] ? names[s] : "");
    xml_text(out, nm);
    lk_outfile_puts(out, "</text>\n");
  }
  lk_outfile_puts(out, "</svg>\n");
}
