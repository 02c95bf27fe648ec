#!/usr/bin/python3
"""Independent checks of vp-run's epoch statistics, timeline and report (shares no code with them).

  check_outputs.py epoch OUT          sum of timeseries.csv per statistic == stats.json value
  check_outputs.py timeline OUT       timeline.json: well-formed events, one track per state
                                      statistic, no overlap, per-track durations == simulated time
  check_outputs.py report DOM OUT     report.html rendered by a browser (dumped DOM): no error, every
                                      chart drew marks, figures equal stats.json
  check_outputs.py sweep DOM SWEEP [X,Y]  a sweep's report.html: no error, every unfolded chart drew
                                      marks, the points' figures equal their stats.json, the points
                                      that did not finish, and the Pareto front by sort and scan
Prints what it checked; exit 1 on the first failure.
"""
import csv
import json
import re
import sys


def fail(msg):
    print("FAIL", msg)
    sys.exit(1)


def split_path(path):
    """Dotted path with dots inside brackets kept: 'mesh.layer[a.b].x' -> ['mesh', 'layer[a.b]', 'x']."""
    parts, cur, depth = [], "", 0
    for c in path:
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
        if c == "." and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    return parts


def stat_node(stats, path):
    node = stats
    for p in split_path(path):
        if not isinstance(node, dict) or p not in node:
            return None
        node = node[p]
    return node


def check_epoch(out):
    stats = json.load(open(out + "/stats.json"))
    sim_ns = stats["meta"]["sim_time_ns"]
    sums = {}
    intervals = set()
    with open(out + "/timeseries.csv") as f:
        rd = csv.reader(f)
        head = next(rd)
        if head != ["t_begin_ns", "t_end_ns", "layer", "module", "statistic", "value"]:
            fail("timeseries.csv header: %s" % head)
        for row in rd:
            t0, t1 = float(row[0]), float(row[1])
            if not (0 <= t0 < t1 <= sim_ns + 1e-6):
                fail("interval [%s, %s] outside [0, %s]" % (row[0], row[1], sim_ns))
            intervals.add((t0, t1, row[2]))
            key = (row[3], row[4])
            sums[key] = sums.get(key, 0.0) + float(row[5])
    dic = json.load(open(out + "/timeseries.columns.json"))
    for c in ["t_begin_ns", "t_end_ns", "layer", "module", "statistic", "value"]:
        if c not in dic["columns"]:
            fail("the dictionary does not describe column %s" % c)
    # Intervals do not overlap.
    iv = sorted(intervals)
    for a, b in zip(iv, iv[1:]):
        if b[0] < a[1] - 1e-9:
            fail("intervals overlap: %s %s" % (a, b))
    checked = 0
    for s in dic["statistics"]:
        mod, st = s["module"], s["statistic"]
        got = sums.get((mod, st), 0.0)
        # A state-time statistic "state.compute" is stats.json's state.value.compute.
        if "." in st and s["unit"] == "ps":
            name, sub = st.split(".", 1)
            node = stat_node(stats["stats"], mod + "." + name)
            want = None if node is None else node["value"][sub]
        else:
            node = stat_node(stats["stats"], mod + "." + st)
            want = None if node is None else node["value"]
        if want is None:
            fail("%s.%s is in the dictionary but not in stats.json" % (mod, st))
        if abs(got - want) > 1e-6 * max(1.0, abs(want)):
            fail("%s.%s: epochs sum to %r, stats.json says %r" % (mod, st, got, want))
        checked += 1
    if checked == 0:
        fail("no sampled statistic")
    # Layer ends are boundaries: every interval belongs to one layer (no layer spans a gap).
    layers = dic["layers"]
    for (t0, t1, name) in iv:
        if name:
            l = [x for x in layers if x["name"] == name]
            if not l or t0 < l[0]["begin_ns"] - 1e-6 or t1 > l[0]["end_ns"] + 1e-6:
                fail("interval [%s, %s] labelled %s lies outside the layer" % (t0, t1, name))
    print("epoch: %d statistics sum to their stats.json totals over %d intervals" % (checked, len(iv)))


def check_timeline(out):
    stats = json.load(open(out + "/stats.json"))
    sim_us = stats["meta"]["sim_time_ns"] / 1000.0
    doc = json.load(open(out + "/timeline.json"))
    ev = doc["traceEvents"]
    names = {}
    slices = {}
    for e in ev:
        ph = e.get("ph")
        if ph not in ("M", "X", "C"):
            fail("unknown event phase %r" % ph)
        if "pid" not in e:
            fail("event without pid: %r" % e)
        if ph == "M" and e["name"] == "thread_name":
            key = (e["pid"], e["tid"])
            if key in names:
                fail("two names for track %s" % (key,))
            names[key] = e["args"]["name"]
        if ph == "X":
            for k in ("ts", "dur", "tid", "name"):
                if k not in e:
                    fail("slice without %s: %r" % (k, e))
            if e["dur"] < 0:
                fail("negative duration: %r" % e)
            slices.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["dur"], e["name"]))
        if ph == "C" and not isinstance(e.get("args"), dict):
            fail("counter without args: %r" % e)
    # One track per unit: the state statistics of stats.json (unit ps with per-state values).
    units = []

    def walk(node, path):
        for k, v in node.items():
            if isinstance(v, dict) and "unit" in v and "desc" in v:
                if v["unit"] == "ps" and isinstance(v.get("value"), dict):
                    units.append(path + k)
            elif isinstance(v, dict):
                walk(v, path + k + ".")

    walk(stats["stats"], "")
    track_names = sorted(n for n in names.values() if n != "layers")
    if sorted(units) != track_names:
        fail("tracks %s differ from the state statistics %s" % (track_names[:5], sorted(units)[:5]))
    for key, sl in slices.items():
        sl.sort()
        total = 0.0
        for a, b in zip(sl, sl[1:]):
            if b[0] < a[0] + a[1] - 1e-6:
                fail("track %s: slices overlap at %s us" % (names.get(key), b[0]))
        for s in sl:
            total += s[1]
        if abs(total - sim_us) > 1e-6 * max(1.0, sim_us):
            fail("track %s: slices add up to %r us, the run took %r us" % (names.get(key), total, sim_us))
    if not slices:
        fail("no slice")
    print("timeline: %d tracks, %d events; every track covers the %.3f us of the run" % (len(slices), len(ev), sim_us))


def stat_value(stats, path):
    """A figure of stats.json by its stats.csv / page name; None when absent."""
    if path in stats["meta"]:
        return stats["meta"][path]
    if path.startswith("meta."):
        return stats["meta"].get(path[5:])
    parts = split_path(path)
    node = stat_node(stats["stats"], ".".join(parts[:-1]))
    if node is not None and isinstance(node, dict) and parts[-1] in node and not isinstance(node[parts[-1]], dict):
        return node[parts[-1]]
    node = stat_node(stats["stats"], path)
    return None if node is None or not isinstance(node, dict) else node.get("value")


def page_state(dom):
    """The body's attributes and the drawn charts of a dumped DOM; fails on errors and empty charts."""
    bodies = re.findall(r"<body([^>]*)>", dom)
    if not bodies:
        fail("no body in the dumped DOM")
    attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', bodies[-1]))
    if attrs.get("data-done") != "1":
        fail("the page did not finish rendering its charts: %s" % attrs)
    if attrs.get("data-errors"):
        fail("errors on the page: %s" % attrs["data-errors"])
    drawn = []
    for pre, cid, rest in re.findall(r'<div([^>]*) id="(c-[\w-]+)"([^>]*)>', dom):
        m = re.search(r'data-marks="(\d+)"', pre + rest)
        if m:
            if int(m.group(1)) == 0:
                fail("chart %s is empty" % cid)
            drawn.append(cid)
    if not drawn:
        fail("no chart drawn")
    return attrs, drawn


def check_report(dom_path, out):
    dom = open(dom_path, encoding="utf-8", errors="replace").read()
    stats = json.load(open(out + "/stats.json"))
    _, charts = page_state(dom)
    drawn = len(charts)
    n = 0
    for path, value in re.findall(r'data-stat="([^"]+)" data-value="([^"]+)"', dom):
        want = stat_value(stats, path)
        if want is None:
            fail("the page shows %s, which stats.json does not have" % path)
        if abs(float(value) - float(want)) > 1e-9 * max(1.0, abs(float(want))):
            fail("%s: page %s, stats.json %s" % (path, value, want))
        n += 1
    if n < 3:
        fail("only %d figures on the page carry their statistic" % n)
    print("report: %d charts drawn, %d figures equal to stats.json, no error" % (drawn, n))


def check_sweep(dom_path, sweep, pareto=None):
    """A sweep report: rendered without error, one drawn chart per unfolded statistic (and the
    Pareto chart), the points' figures equal to their own stats.json, and with --pareto X,Y the
    front on the page equal to a sort-and-scan over the points' stats.json."""
    dom = open(dom_path, encoding="utf-8", errors="replace").read()
    _, drawn = page_state(dom)
    opened = re.findall(r'<details id="d-stat-(\d+)" open', dom)
    want = ["c-stat-" + i for i in opened] + (["c-pareto"] if pareto else [])
    if sorted(drawn) != sorted(want):
        fail("charts drawn %s, expected %s" % (sorted(drawn), sorted(want)))
    rows = list(csv.DictReader(open(sweep + "/sweep.csv")))
    stats = {}
    for r in rows:
        if r["state"] == "done":
            stats[r["point"]] = json.load(open("%s/points/%s/run/stats.json" % (sweep, r["point"])))
    n = 0
    for point, path, value in re.findall(r'data-point="([^"]+)" data-stat="([^"]+)" data-value="([^"]+)"', dom):
        want_v = stat_value(stats[point], path)
        if want_v is None:
            fail("point %s: the page shows %s, which its stats.json does not have" % (point, path))
        if abs(float(value) - float(want_v)) > 1e-9 * max(1.0, abs(float(want_v))):
            fail("point %s: %s: page %s, stats.json %s" % (point, path, value, want_v))
        n += 1
    if n < len(stats):
        fail("only %d figures of %d done points carry their statistic" % (n, len(stats)))
    unfinished = re.findall(r'<tr data-point="([^"]+)"><td>', dom)
    if sorted(unfinished) != sorted(r["point"] for r in rows if r["state"] != "done"):
        fail("points that did not finish: page %s, sweep.csv %s" % (sorted(unfinished),
             sorted(r["point"] for r in rows if r["state"] != "done")))
    msg = ""
    if pareto:
        names = pareto.split(",")
        sign = [-1.0 if s.startswith("max:") else 1.0 for s in names]
        names = [s[4:] if s.startswith("max:") else s for s in names]
        pts = sorted((sign[0] * float(stat_value(s, names[0])), sign[1] * float(stat_value(s, names[1])), p)
                     for p, s in stats.items())
        best, last, front = float("inf"), None, []
        for x, y, p in pts:
            if y < best or (x, y) == last:
                front.append(p)
                best, last = y, (x, y)
        shown = re.findall(r'<tr class="front" data-point="([^"]+)"', dom)
        if sorted(shown) != sorted(front):
            fail("Pareto front: page %s, sort-and-scan %s" % (sorted(shown), sorted(front)))
        msg = ", Pareto front of %d points" % len(front)
    print("sweep report: %d charts drawn, %d figures equal to the points' stats.json, %d unfinished%s, no error"
          % (len(drawn), n, len(unfinished), msg))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__)
        sys.exit(2)
    what = sys.argv[1]
    if what == "epoch":
        check_epoch(sys.argv[2])
    elif what == "timeline":
        check_timeline(sys.argv[2])
    elif what == "report":
        check_report(sys.argv[2], sys.argv[3])
    elif what == "sweep":
        check_sweep(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None)
    else:
        print(__doc__)
        sys.exit(2)
