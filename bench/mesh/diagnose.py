#!/usr/bin/env python3
"""Figures of docs/mesh.md "Diagnosis of the worst layers", from one vp-run output folder.

  diagnose.py rows OUT CORE   the core's row periods: start of each compute interval of
                              timeseries.csv (cycle:compute cycles(+cycles since the previous start)),
                              e.g. CORE = 'mesh.core[0][1]'
  diagnose.py shares OUT      every active core's share of the DRAM interface under round robin per
                              router input along its XY route (the product of 1 / inputs with traffic
                              of the active cores at each router), with its compute and stall cycles
                              from stats.json, largest share first

Run a single layer (`vp-run CONFIG ONE_LAYER.json --out OUT --set mapper.fixed_slices=T_of,T_ox,k`):
the shares assume every active core loads at the same time, the routing is xy and the mesh has one
DRAM interface. Python 3 standard library + PyYAML (to read OUT/config.yaml).
"""
import csv
import json
import sys
from fractions import Fraction

import yaml


def rows(out, core):
    starts = []  # [first ns, last ns, compute ps]
    with open(f"{out}/timeseries.csv") as f:
        for r in csv.DictReader(f):
            if r["module"] != core or r["statistic"] != "state.compute" or int(r["value"]) <= 0:
                continue
            b, e, v = int(r["t_begin_ns"]), int(r["t_end_ns"]), int(r["value"])
            if starts and b <= starts[-1][1]:
                starts[-1][1] = e
                starts[-1][2] += v
            else:
                starts.append([b, e, v])
    if not starts:
        print(f"diagnose.py: no compute intervals of {core} in {out}/timeseries.csv", file=sys.stderr)
        sys.exit(2)
    clk = json.load(open(f"{out}/timeseries.columns.json"))["clocks_ps"]["core"]
    ns = clk / 1000.0
    prev, items = None, []
    for b, _, v in starts:
        gap = "-" if prev is None else f"{(b - prev) / ns:.0f}"
        items.append(f"{b / ns:.0f}:{v / clk:.0f}(+{gap})")
        prev = b
    print(" ".join(items))


def route(x, y, ix, iy):
    """Routers from (x, y) to the interface at (ix, iy), XY: X first."""
    p = [(x, y)]
    while x != ix:
        x += 1 if ix > x else -1
        p.append((x, y))
    while y != iy:
        y += 1 if iy > y else -1
        p.append((x, y))
    return p


def shares(out):
    cfg = yaml.safe_load(open(f"{out}/config.yaml"))
    ifs = cfg["mesh"]["dram_ifs"]
    if len(ifs) != 1 or cfg["noc"]["routing"] != "xy":
        print("diagnose.py: shares needs one DRAM interface and xy routing", file=sys.stderr)
        sys.exit(2)
    ix, iy = ifs[0]
    mesh = json.load(open(f"{out}/stats.json"))["stats"]["mesh"]
    cores = []
    for k, v in mesh.items():
        if k.startswith("core[") and v["transfers"]["value"] > 0:
            x, y = (int(t) for t in k[5:-1].split("]["))
            cores.append((x, y, v["comp_cycles"]["value"], v["stall_cycles"]["value"]))
    routes = {(x, y): route(x, y, ix, iy) for x, y, _, _ in cores}

    def port(c, r):  # the input by which core c's traffic enters router r
        p = routes[c]
        i = p.index(r)
        return "local" if i == 0 else p[i - 1]

    out_rows = []
    for x, y, comp, stall in cores:
        s = Fraction(1)
        for r in routes[(x, y)]:
            s /= len({port(c, r) for c in routes if r in routes[c]})
        out_rows.append((s, x, y, comp, stall))
    for s, x, y, comp, stall in sorted(out_rows, key=lambda t: (-t[0], t[1], t[2])):
        hops = abs(x - ix) + abs(y - iy)
        print(f"core[{x}][{y}] hops {hops} share {s} compute {comp} stall {stall} done {comp + stall}")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "rows":
        rows(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "shares":
        shares(sys.argv[2])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
