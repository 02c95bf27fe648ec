"""vp-report SWEEP_DIR: every numeric statistic of a sweep against each swept parameter, and
the Pareto front of two chosen statistics, as one self-contained HTML page of SVG charts
(no network, no plotting library), plus pareto.csv and, on request, the charts as .svg files.

    vp-report DIR [--stats REGEX] [--pareto X,Y] [--svg] [--out REPORT_DIR]

In --pareto, each statistic is minimised unless written max:NAME."""

import argparse
import csv
import difflib
import html
import io
import os
import re
import sys

from .layout import write_atomic
from .svg import Chart

FIXED = ("point", "state", "exit_code", "error")
NOT_STATS = ("config_hash", "seed", "platform", "workload")


def number(s):
    try:
        v = float(s)
    except ValueError:
        return None
    return v if v == v and abs(v) != float("inf") else None


def read_sweep(d):
    path = os.path.join(d, "sweep.csv")
    try:
        with open(path, encoding="utf-8", newline="") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        raise SystemExit("vp-report: error: %s: %s (run vp-sweep first)" % (path, e.strerror))
    head, body = rows[0], rows[1:]
    try:
        params = head[1:head.index("state")]
    except ValueError:
        raise SystemExit("vp-report: error: %s: not a vp-sweep sweep.csv (no state column)" % path)
    return head, [dict(zip(head, r)) for r in body], params


def pareto_front(points, maxx=False, maxy=False):
    """The (x, y, ...) tuples not dominated by another: no other point at least as good in
    both coordinates and better in one (smaller is better unless maxx / maxy)."""
    sx, sy = (-1 if maxx else 1), (-1 if maxy else 1)
    front = []
    for p in points:
        px, py = sx * p[0], sy * p[1]
        if not any(sx * q[0] <= px and sy * q[1] <= py and (sx * q[0] < px or sy * q[1] < py) for q in points):
            front.append(p)
    return sorted(front, key=lambda p: (sx * p[0], sy * p[1]))


def axis_for(values):
    """(categories or None, logx) for a parameter's values."""
    nums = [number(v) for v in values]
    if any(n is None for n in nums):
        cats = []
        for v in values:
            if v not in cats:
                cats.append(v)
        return cats, False
    pos = [n for n in nums if n > 0]
    logx = len(pos) == len(nums) and max(nums) / min(nums) >= 8
    return None, logx


def shown(param, value):
    """A parameter value as charts show it: config and workload files by their base name."""
    return os.path.basename(value) if param.endswith("_file") else value


def stat_chart(rows, stat, p, varied):
    others = [q for q in varied if q != p]
    cats, logx = axis_for([shown(p, r[p]) for r in rows])
    ch = Chart(stat, p, stat, categories=cats, logx=logx)
    series = {}
    for r in rows:
        y = number(r.get(stat, ""))
        if y is None:
            continue
        name = ", ".join("%s=%s" % (q.split(".")[-1], shown(q, r[q])) for q in others)
        x = shown(p, r[p]) if cats is not None else number(r[p])
        series.setdefault(name, []).append((x, y))
    for name, pts in series.items():
        ch.add(name, pts)
    return ch


def main(argv=None):
    ap = argparse.ArgumentParser(prog="vp-report", description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", help="a sweep folder (holding sweep.csv)")
    ap.add_argument("--stats", help="only the statistics whose name matches this regular expression")
    ap.add_argument("--pareto", metavar="X,Y", help="Pareto front of two statistics (max:NAME to maximise)")
    ap.add_argument("--svg", action="store_true", help="also write every chart as an .svg file")
    ap.add_argument("--out", help="report folder (default: DIR/report)")
    a = ap.parse_args(argv)
    head, rows, params = read_sweep(a.dir)
    out = a.out or os.path.join(a.dir, "report")
    os.makedirs(out, exist_ok=True)
    done = [r for r in rows if r["state"] == "done"]
    varied = [p for p in params if len({r[p] for r in rows}) > 1]
    plotted = [p for p in varied if len({r[p] for r in done}) > 1]   # x axes of the charts
    try:
        rx = re.compile(a.stats) if a.stats else None
    except re.error as e:
        raise SystemExit("vp-report: error: --stats: bad regular expression: %s" % e)
    stats, partial = [], 0
    for c in head[len(FIXED) + len(params):]:
        if c in NOT_STATS or (rx and not rx.search(c)):
            continue
        vals = [number(r.get(c, "")) for r in done]
        if done and all(v is not None for v in vals) and len(set(vals)) > 1:
            stats.append(c)
        elif any(v is not None for v in vals) and any(r.get(c, "") == "" for r in done):
            partial += 1
    svgs = []
    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>sweep report: %s</title>"
             "<style>body{font-family:sans-serif;margin:1.5em}svg{margin:4px;border:1px solid #ddd}"
             "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px}"
             "summary{cursor:pointer;font-weight:bold;margin-top:6px}</style></head><body>"
             % html.escape(os.path.abspath(a.dir))]
    counts = {}
    for r in rows:
        counts[r["state"]] = counts.get(r["state"], 0) + 1
    parts.append("<h1>Sweep %s</h1><p>%d points: %s. Swept: %s.</p>" % (
        html.escape(os.path.basename(os.path.abspath(a.dir))), len(rows),
        ", ".join("%d %s" % (n, s) for s, n in sorted(counts.items())), html.escape(", ".join(varied) or "nothing")))
    bad = [r for r in rows if r["state"] != "done"]
    if bad:
        parts.append("<h2>Points that did not finish</h2><table><tr><th>point</th>%s<th>state</th><th>error</th></tr>"
                     % "".join("<th>%s</th>" % html.escape(p) for p in varied))
        for r in bad:
            parts.append("<tr><td>%s</td>%s<td>%s</td><td>%s</td></tr>" % (
                r["point"], "".join("<td>%s</td>" % html.escape(r[p]) for p in varied), r["state"],
                html.escape(r["error"])))
        parts.append("</table>")
    if a.pareto:
        parts.append(pareto_section(a.pareto, done, head, varied, out, svgs))
    parts.append("<h2>Statistics against each swept parameter</h2><p>%d statistics vary across the done points; "
                 "constant ones are left out, and so are %d that only some points have (for example the "
                 "per-router counters of the larger meshes)%s.</p>"
                 % (len(stats), partial, "; filter: " + html.escape(a.stats) if a.stats else ""))
    for i, s in enumerate(stats):
        charts = [stat_chart(done, s, p, plotted) for p in plotted]
        parts.append("<details%s><summary>%s</summary>" % (" open" if i < 12 else "", html.escape(s)))
        for p, ch in zip(plotted, charts):
            text = ch.render()
            parts.append(text)
            svgs.append(("%s--%s.svg" % (safe(s), safe(p)), text))
        parts.append("</details>")
    parts.append("</body></html>\n")
    write_atomic(os.path.join(out, "index.html"), "\n".join(parts))
    if a.svg:
        for name, text in svgs:
            write_atomic(os.path.join(out, name), text + "\n")
    sys.stderr.write("vp-report: %s (%d statistics x %d parameters%s)\n"
                     % (os.path.join(out, "index.html"), len(stats), len(plotted),
                        ", %d .svg files" % len(svgs) if a.svg else ""))
    return 0


def safe(s):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", s)


def pareto_section(spec, done, head, varied, out, svgs):
    names = [s.strip() for s in spec.split(",")]
    if len(names) != 2:
        raise SystemExit("vp-report: error: --pareto expects two statistics X,Y")
    keys, maxes = [], []
    for n in names:
        mx = n.startswith("max:")
        n = n[4:] if mx else n
        if n not in head:
            near = difflib.get_close_matches(n, head, n=3)
            raise SystemExit("vp-report: error: --pareto: no column \"%s\" in sweep.csv%s"
                             % (n, " (did you mean %s?)" % ", ".join(near) if near else ""))
        keys.append(n)
        maxes.append(mx)
    kx, ky = keys
    pts = []
    for i, r in enumerate(done):
        x, y = number(r.get(kx, "")), number(r.get(ky, ""))
        if x is not None and y is not None:
            pts.append((x, y, i))
    front = [done[i] for _, _, i in pareto_front(pts, maxes[0], maxes[1])]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["point"] + varied + [kx, ky])
    for r in front:
        w.writerow([r["point"]] + [r[v] for v in varied] + [r[kx], r[ky]])
    write_atomic(os.path.join(out, "pareto.csv"), buf.getvalue())
    ch = Chart("Pareto front: %s vs %s" % (kx, ky), kx, ky)
    ch.add("all points", [(x, y) for x, y, _ in pts], style="points")
    ch.add("Pareto front", [(number(r[kx]), number(r[ky])) for r in front], style="front",
           labels=[" ".join(shown(v, r[v]) for v in varied) for r in front])
    text = ch.render()
    svgs.append(("pareto--%s--%s.svg" % (safe(kx), safe(ky)), text))
    rows = "".join("<tr><td>%s</td>%s<td>%s</td><td>%s</td></tr>" % (
        r["point"], "".join("<td>%s</td>" % html.escape(r[v]) for v in varied), r[kx], r[ky]) for r in front)
    return ("<h2>Pareto front (%s %s, %s %s)</h2>%s<table><tr><th>point</th>%s<th>%s</th><th>%s</th></tr>%s</table>"
            % ("max" if maxes[0] else "min", html.escape(kx), "max" if maxes[1] else "min", html.escape(ky), text,
               "".join("<th>%s</th>" % html.escape(v) for v in varied), html.escape(kx), html.escape(ky), rows))

