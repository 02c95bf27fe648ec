"""A small SVG chart writer (standard library only): lines or points of several series over a
numeric (linear or log2) or categorical x axis. Enough for sweep reports, nothing more."""

import math
from xml.sax.saxutils import escape

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
           "#7f7f7f", "#bcbd22")
W, H = 460, 290
LEFT, RIGHT, TOP, BOTTOM = 74, 16, 30, 62


def nice_ticks(lo, hi, n=5):
    """Round tick values covering [lo, hi] (1, 2, 5 x 10^k steps)."""
    if hi == lo:
        hi, lo = hi + (abs(hi) or 1) * 0.5, lo - (abs(lo) or 1) * 0.5
    raw = (hi - lo) / n
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    start = math.floor(lo / step) * step
    ticks, t = [], start
    while t <= hi + step * 1e-9:
        if t >= lo - step * 1e-9:
            ticks.append(round(t, 12))
        t += step
    return ticks, step


def fmt(v):
    """Tick labels: 2.95M, 420k, 0.125, 5m (SI prefixes beyond 1000 and below 0.01)."""
    if v == 0:
        return "0"
    a = abs(v)
    for scale, suffix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"), (1, ""), (1e-3, "m"), (1e-6, "u")):
        if a >= scale or scale == 1e-6:
            return ("%.4g" % (v / scale)) + suffix
    return "%.3g" % v


class Chart:
    def __init__(self, title, xlabel, ylabel, categories=None, logx=False):
        self.title, self.xlabel, self.ylabel = title, xlabel, ylabel
        self.categories, self.logx = categories, logx
        self.series = []     # (name, [(x, y)], style) style: "line" | "points" | "front"
        self.labels = {}     # series index -> text per point

    def add(self, name, pts, style="line", labels=None):
        """labels: optional text per point, written next to it."""
        self.series.append((name, pts, style))
        if labels:
            self.labels[len(self.series) - 1] = labels

    def _xval(self, x):
        if self.categories is not None:
            return float(self.categories.index(x))
        return math.log2(x) if self.logx else float(x)

    def render(self):
        pts = [(self._xval(x), y) for _, s, _ in self.series for x, y in s]
        out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
               'font-family="sans-serif" font-size="11">' % (W, H, W, H),
               '<rect width="100%" height="100%" fill="white"/>',
               '<text x="%d" y="18" font-size="12" font-weight="bold">%s</text>' % (LEFT, escape(self.title))]
        if not pts:
            out.append('<text x="%d" y="%d">no data</text></svg>' % (W // 2 - 20, H // 2))
            return "\n".join(out)
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        ypad = (max(ys) - min(ys)) * 0.05
        y0, y1 = min(ys) - ypad, max(ys) + ypad
        yt, _ = nice_ticks(y0, y1)
        if len(yt) < 4:
            yt, _ = nice_ticks(y0, y1, 8)
        y0, y1 = min(yt[0], y0), max(yt[-1], y1)
        if self.categories is not None:
            x0, x1 = -0.5, len(self.categories) - 0.5
        else:
            x0, x1 = min(xs), max(xs)
            if x0 == x1:
                x0, x1 = x0 - 1, x1 + 1
            pad = (x1 - x0) * 0.05
            x0, x1 = x0 - pad, x1 + pad
        pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM

        def px(x):
            return LEFT + (x - x0) / (x1 - x0) * pw

        def py(y):
            return TOP + ph - (y - y0) / ((y1 - y0) or 1) * ph

        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#999"/>' % (LEFT, TOP, pw, ph))
        for t in yt:
            out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#eee"/>' % (LEFT, LEFT + pw, py(t), py(t)))
            out.append('<text x="%d" y="%.1f" text-anchor="end">%s</text>' % (LEFT - 4, py(t) + 4, fmt(t)))
        for x, label in self._xticks(xs):
            out.append('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#999"/>' % (px(x), px(x), TOP + ph, TOP + ph + 4))
            out.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % (px(x), TOP + ph + 16, escape(label)))
        out.append('<text x="%d" y="%d" text-anchor="middle">%s</text>'
                   % (LEFT + pw // 2, TOP + ph + 32, escape(self.xlabel + (" (log scale)" if self.logx else ""))))
        out.append('<text transform="translate(12,%d) rotate(-90)" text-anchor="middle">%s</text>'
                   % (TOP + ph // 2, escape(self.ylabel[-48:])))
        legend_x = LEFT
        for i, (name, s, style) in enumerate(self.series):
            color = "#bbb" if style == "points" else PALETTE[i % len(PALETTE)]
            if style == "front":
                color = "#d62728"
            xy = sorted((px(self._xval(x)), py(y)) for x, y in s)
            if style in ("line", "front") and len(xy) > 1:
                out.append('<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>'
                           % (color, " ".join("%.1f,%.1f" % p for p in xy)))
            for x, y in xy:
                out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (x, y, color))
            for (x, y), text in zip(((px(self._xval(x)), py(y)) for x, y in s), self.labels.get(i, [])):
                anchor = "end" if x > LEFT + pw * 0.6 else "start"
                out.append('<text x="%.1f" y="%.1f" font-size="10" fill="%s" text-anchor="%s">%s</text>'
                           % (x + (-6 if anchor == "end" else 6), y - 5, color, anchor, escape(text)))
            if name:
                out.append('<rect x="%d" y="%d" width="9" height="9" fill="%s"/>' % (legend_x, H - 16, color))
                out.append('<text x="%d" y="%d">%s</text>' % (legend_x + 12, H - 8, escape(name)))
                legend_x += 22 + 6 * len(name)
        out.append("</svg>")
        return "\n".join(out)

    def _xticks(self, xs):
        if self.categories is not None:
            return [(float(i), c if len(c) <= 18 else "..." + c[-15:]) for i, c in enumerate(self.categories)]
        if self.logx:
            return [(x, fmt(2 ** x)) for x in sorted(set(xs))]
        ticks, _ = nice_ticks(min(xs), max(xs))
        return [(t, fmt(t)) for t in ticks]
