/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_sweep_plot.c — the sweep's scatter plot as SVG
 * (cli_sweep_plot.h; issue 34 §3: "one table (and an SVG plot)"). No
 * plotting library: the page is a few hundred bytes per design, laid out
 * here on a fixed canvas.
 */
#include "cli/cli_sweep_plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/xml_escape.h"

/* The canvas and the plot area inside it (px). */
#define W      900.0
#define H      600.0
#define LEFT   90.0
#define RIGHT  40.0
#define TOP    84.0 /* the title, then the legend above the plot */
#define BOTTOM 80.0

void fl_sweep_plot_ticks(double lo, double hi, double *first, double *step,
                         size_t *count) {
  if (!(hi > lo)) { /* one value: a range around it */
    double pad = fabs(lo) > 0 ? fabs(lo) * 0.1 : 1.0;
    lo -= pad, hi += pad;
  }
  double raw = (hi - lo) / 5, mag = pow(10, floor(log10(raw)));
  double norm = raw / mag;
  double s = (norm < 1.5 ? 1 : norm < 3.5 ? 2 : norm < 7.5 ? 5 : 10) * mag;
  double f = floor(lo / s) * s, l = ceil(hi / s) * s;
  *first = f;
  *step = s;
  *count = (size_t)llround((l - f) / s) + 1;
}

/* A tick's value as printed: no binary noise (0.30000000000000004). */
static void tick_text(double v, double step, char *buf, size_t size) {
  int digits = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
  if (fabs(v) < step * 1e-9)
    v = 0;
  snprintf(buf, size, "%.*f", digits, v);
}

typedef struct axis {
  double first, step, span; /* the value at the origin, tick step, range */
  size_t n;                 /* ticks */
} axis;

static void axis_of(const fl_sweep_plot *pl, int y, axis *a) {
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < pl->n; i++) {
    double v = y ? pl->p[i].y : pl->p[i].x;
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  fl_sweep_plot_ticks(lo, hi, &a->first, &a->step, &a->n);
  a->span = a->step * (double)(a->n - 1);
}

static double px(const axis *a, double v) {
  return LEFT + (v - a->first) / a->span * (W - LEFT - RIGHT);
}

static double py(const axis *a, double v) {
  return H - BOTTOM - (v - a->first) / a->span * (H - TOP - BOTTOM);
}

/* 1 when point @p comes before @q along the front: by x, then y. */
static int before(const fl_sweep_point *p, const fl_sweep_point *q) {
  return p->x < q->x || (p->x == q->x && p->y < q->y);
}

static void axes(FILE *out, const fl_sweep_plot *pl, const axis *ax,
                 const axis *ay) {
  char t[64];
  fprintf(out,
          "<g class=\"axes\" stroke=\"#444\" stroke-width=\"1\">"
          "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
          "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/></g>\n",
          LEFT, H - BOTTOM, W - RIGHT, H - BOTTOM, LEFT, H - BOTTOM, LEFT, TOP);
  fputs("<g class=\"x-ticks\" font-size=\"12\" text-anchor=\"middle\">", out);
  for (size_t i = 0; i < ax->n; i++) {
    double v = ax->first + ax->step * (double)i, x = px(ax, v);
    tick_text(v, ax->step, t, sizeof t);
    fprintf(out,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
            "stroke=\"#444\"/><text x=\"%.1f\" y=\"%.1f\">%s</text>",
            x, H - BOTTOM, x, H - BOTTOM + 6, x, H - BOTTOM + 20, t);
  }
  fputs("</g>\n<g class=\"y-ticks\" font-size=\"12\" text-anchor=\"end\">",
        out);
  for (size_t i = 0; i < ay->n; i++) {
    double v = ay->first + ay->step * (double)i, y = py(ay, v);
    tick_text(v, ay->step, t, sizeof t);
    fprintf(out,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
            "stroke=\"#444\"/><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
            "y2=\"%.1f\" stroke=\"#e4e4e4\"/><text x=\"%.1f\" "
            "y=\"%.1f\">%s</text>",
            LEFT - 6, y, LEFT, y, LEFT, y, W - RIGHT, y, LEFT - 9, y + 4, t);
  }
  fputs("</g>\n", out);
  fprintf(out,
          "<text class=\"x-label\" x=\"%.1f\" y=\"%.1f\" font-size=\"14\" "
          "text-anchor=\"middle\">",
          (LEFT + W - RIGHT) / 2, H - 25);
  fl_xml_fputs(pl->x_name, FL_XML_TEXT, out);
  fprintf(out,
          "</text>\n<text class=\"y-label\" x=\"%.1f\" y=\"%.1f\" "
          "font-size=\"14\" text-anchor=\"middle\" "
          "transform=\"rotate(-90 %.1f %.1f)\">",
          25.0, (TOP + H - BOTTOM) / 2, 25.0, (TOP + H - BOTTOM) / 2);
  fl_xml_fputs(pl->y_name, FL_XML_TEXT, out);
  fputs("</text>\n", out);
}

int fl_sweep_plot_svg(FILE *out, const fl_sweep_plot *pl) {
  axis ax, ay;
  axis_of(pl, 0, &ax);
  axis_of(pl, 1, &ay);
  size_t *idx = calloc(pl->n + 1, sizeof *idx), nf = 0;
  if (!idx)
    return -1;
  fprintf(out,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "
          "xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
          "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
          "font-family=\"Helvetica, Arial, sans-serif\">\n<title>",
          W, H, W, H);
  fl_xml_fputs(pl->title, FL_XML_TEXT, out);
  fprintf(out,
          "</title>\n<rect width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n"
          "<text class=\"title\" x=\"%.1f\" y=\"32\" font-size=\"17\" "
          "font-weight=\"bold\" text-anchor=\"middle\">",
          W, H, W / 2);
  fl_xml_fputs(pl->title, FL_XML_TEXT, out);
  fputs("</text>\n", out);
  axes(out, pl, &ax, &ay);
  for (size_t i = 0; i < pl->n; i++) /* the front in order of x (insertion: a
                                         sweep has at most 64 designs) */
    if (pl->p[i].front) {
      size_t k = nf++;
      for (; k > 0 && before(&pl->p[i], &pl->p[idx[k - 1]]); k--)
        idx[k] = idx[k - 1];
      idx[k] = i;
    }
  fputs("<polyline class=\"front\" fill=\"none\" stroke=\"#d62728\" "
        "stroke-width=\"2\" points=\"",
        out);
  for (size_t k = 0; k < nf; k++)
    fprintf(out, "%s%.2f,%.2f", k ? " " : "", px(&ax, pl->p[idx[k]].x),
            py(&ay, pl->p[idx[k]].y));
  fputs("\"/>\n<g class=\"designs\">\n", out);
  for (size_t i = 0; i < pl->n; i++) {
    const fl_sweep_point *p = &pl->p[i];
    double x = px(&ax, p->x), y = py(&ay, p->y);
    fprintf(out,
            "<circle class=\"design%s\" data-design=\"%zu\" "
            "data-x=\"%.12g\" data-y=\"%.12g\" cx=\"%.2f\" cy=\"%.2f\" "
            "r=\"%s\" fill=\"%s\" stroke=\"#222\"><title>",
            p->front ? " front" : "", i + 1, p->x, p->y, x, y,
            p->front ? "6" : "4", p->front ? "#d62728" : "#9e9e9e");
    fl_xml_fputs(p->label, FL_XML_TEXT, out);
    /* right of the point, or left of it in the plot's right third (a
     * label stays on the canvas) */
    int left = x > LEFT + (W - LEFT - RIGHT) * 2 / 3;
    fprintf(out,
            "</title></circle><text class=\"label\" x=\"%.2f\" y=\"%.2f\" "
            "font-size=\"11\"%s>",
            left ? x - 8 : x + 8, y - 6, left ? " text-anchor=\"end\"" : "");
    fl_xml_fputs(p->label, FL_XML_TEXT, out);
    fputs("</text>\n", out);
  }
  fprintf(out,
          "</g>\n<g class=\"legend\" font-size=\"12\"><circle cx=\"%.1f\" "
          "cy=\"%.1f\" r=\"6\" fill=\"#d62728\" stroke=\"#222\"/><text "
          "x=\"%.1f\" y=\"%.1f\">Pareto front (%zu of %zu)</text><circle "
          "cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#9e9e9e\" "
          "stroke=\"#222\"/><text x=\"%.1f\" y=\"%.1f\">dominated</text></g>\n"
          "</svg>\n",
          W - RIGHT - 200, 52.0, W - RIGHT - 190, 56.0, nf, pl->n,
          W - RIGHT - 60, 52.0, W - RIGHT - 52, 56.0);
  free(idx);
  return fflush(out) != 0 || ferror(out) ? -1 : 0;
}
