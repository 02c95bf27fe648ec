#!/usr/bin/env python3
"""The in-order DMA engine of one core with reads and writes per row (docs/mesh.md, "The in-order
DMA engine of a one-core row"; the opt-in `mapper.mesh_model: phased-engine`), simulated with
vp-run against a formula from the NoC parameters.

  engine.py OUT.csv     (VP_RUN, CONFIG = configs/mesh-4x4.yaml; about 1 min)

Single convolutions on one core (mapper.fixed_slices = K,H_out,1: one output row per entry, every
output channel), the ImageNet stems (C = 3, stride 2) and 1x1 convolutions on 28-56 maps, at the
configuration's defaults and, for three of them, with one NoC or DMA figure changed. Per row (NoC
cycles; W writes and R reads of the row, F_w / F_r their data packets' flits, from stats.json and
the core router's local port):

  p(F)   = F + g + min(H, floor((F - 1) / B)) * max(0, g - (B - (1 + L + credit_delay)))
           one packet of a one-VC stream (bench/mesh/stream.sh), g = router_stages - 2, B the buffer
           depth, H the core's hops to the DRAM interface; a one-flit packet 1 + g
  engine = W p(F_w) + (R > O ? L0 + t_WR->RD + p(F_r) + (R - O - 1) p(F_r) : R p(1))
           the store's writes and then the prefetch's reads leave the engine in order on the
           request class's VC; with more reads than O = core.dma_max_outstanding, read O + 1 waits
           for read 1's response (L0 = 2 (H + 1) (router_stages + L) + tRCD + CL + BL/2 after the
           writes, plus t_WR->RD = CWL + BL/2 + tWTR behind them at the DRAM), and the next row's
           store waits for the last read's issue
  pipe   = (B_row + W p(F_w) + L0 + t_WR->RD + R p(F_r)) / 2
           the two prefetches in flight of the replay contract when the prefetch's reads stream
           after the store's writes (B_row the row's compute)
  formula = max(B_row, engine, pipe, the committed estimate's row)

sim_row and est_row are the layer's simulated and estimated cycles over its rows (the first rows'
filter load and waits included, about 1-3 % of the stems).
"""
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VP = os.environ.get("VP_RUN", os.path.join(ROOT, "build/platform/vp-run"))
CFG = os.environ.get("CONFIG", os.path.join(ROOT, "configs/mesh-4x4.yaml"))

# C, K, map, kernel, stride, pad
LAYERS = [(3, 16, 224, 3, 2, 1), (3, 24, 224, 3, 2, 1), (3, 32, 160, 3, 2, 1), (3, 16, 112, 3, 2, 1),
          (24, 24, 56, 1, 1, 0), (16, 16, 56, 1, 1, 0), (32, 32, 56, 1, 1, 0), (16, 32, 56, 1, 1, 0),
          (32, 16, 56, 1, 1, 0), (64, 64, 56, 1, 1, 0), (8, 8, 56, 1, 1, 0), (16, 16, 28, 1, 1, 0),
          (16, 16, 56, 3, 1, 1), (24, 24, 56, 3, 1, 1)]
OVERRIDES = ["core.dma_max_outstanding=8", "core.dma_max_outstanding=32", "core.dma_max_outstanding=1000",
             "noc.buffer_depth=8", "noc.router_stages=2", "noc.router_stages=3", "noc.router_stages=6",
             "noc.credit_delay=3", "noc.link_latency=2", "mesh.noc_mhz=500"]
SWEPT = [(3, 16, 224, 3, 2, 1), (24, 24, 56, 1, 1, 0), (16, 16, 56, 1, 1, 0)]


def run(layer, slices, sets):
    d = tempfile.mkdtemp()
    try:
        w = os.path.join(d, "l.json")
        with open(w, "w") as f:
            json.dump({"name": "engine", "layers": [layer]}, f)
        args = [VP, CFG, w, "--out", d + "/o", "--quiet", "--set", "mapper.fixed_slices=" + slices]
        for s in sets:
            args += ["--set", s]
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(d + "/o/mapping.json") as f:
            m = json.load(f)
        with open(d + "/o/stats.json") as f:
            st = json.load(f)["stats"]
        with open(d + "/o/config.yaml") as f:
            cfg = yaml.safe_load(f)
        return m, st, cfg
    finally:
        shutil.rmtree(d)


def row_figures(m, st, cfg, rows):
    lay = m["layers"][0]
    core = lay["cores"][0]
    noc, t = cfg["noc"], cfg["dram"]["timing"]
    stages, link, credit, depth = noc["router_stages"], noc["link_latency"], noc["credit_delay"], noc["buffer_depth"]
    o = cfg["core"]["dma_max_outstanding"]
    noc_mhz, core_mhz = cfg["mesh"]["noc_mhz"], cfg["core"]["core_mhz"]
    tck = cfg["dram"]["tck_ps"] / 1000.0 * noc_mhz / 1000.0  # one DRAM clock in NoC cycles
    burst = cfg["dram"]["burst_length"] / 2
    g = max(stages - 2, 0)
    stall = max(0, g - (depth - (1 + link + credit)))
    h = core["hops"]

    def p(f):
        if f <= 1:
            return 1 + g
        return f + g + min(h, int((f - 1) // depth)) * stall

    pt = st["noc"]["packet_types"]
    n_r, n_w = pt["read_request"]["value"], pt["write_request"]["value"]
    routers = [k for k in st["noc"] if k.startswith("router[") and k != "router[0][0]"]  # [0][0]: the DRAM interface
    r = st["noc"][max(routers, key=lambda k: st["noc"][k]["flits_in_local"]["value"])]
    f_out = r["flits_in_local"]["value"] - 1  # less the done sync
    f_in = r["flits_out_local"]["value"] - 1
    fw, fr = (f_out - n_r) / n_w, (f_in - n_w) / n_r  # flits per write / read data packet
    w, rd = n_w / rows, n_r / rows
    b_row = core["cycles_wo_dram"] / rows * noc_mhz / core_mhz
    l0 = 2 * (h + 1) * (stages + link) + (t["tRCD"] + t["CL"] + burst) * tck
    w2r = (t["CWL"] + burst + t["tWTR_L"]) * tck
    out_w = w * p(fw)
    engine = out_w + (l0 + w2r + p(fr) + (rd - o - 1) * p(fr) if rd > o else rd * p(1))
    pipe = 0.5 * (b_row + out_w + l0 + w2r + rd * p(fr))
    c = core_mhz / noc_mhz
    est_row = lay["estimate"]["cycles"] / rows
    return dict(writes=w, reads=rd, flits_w=fw, flits_r=fr, p_w=p(fw), p_r=p(fr), b_row=b_row * c,
                engine=engine * c, pipe=pipe * c, sim_row=lay["simulation"]["cycles"] / rows, est_row=est_row,
                formula=max(b_row * c, engine * c, pipe * c, est_row))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    cases = [(l, []) for l in LAYERS] + [(l, [o]) for o in OVERRIDES for l in SWEPT]
    cols = ["C", "K", "map", "kernel", "stride", "override", "writes", "reads", "flits_w", "flits_r", "p_w", "p_r",
            "b_row", "engine", "pipe", "formula", "sim_row", "est_row", "formula_err_pct", "est_err_pct"]
    with open(sys.argv[1], "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(cols)
        for (c, k, hw, r, s, pad), sets in cases:
            ho = (hw + 2 * pad - r) // s + 1
            layer = dict(name="l", type="conv", C=c, K=k, H=hw, W=hw, R=r, S=r, stride=s, pad=pad)
            m, st, cfg = run(layer, f"{k},{ho},1", sets)
            q = row_figures(m, st, cfg, ho)
            row = [c, k, hw, r, s, " ".join(sets) or "-"] + [round(q[x], 2) for x in cols[6:18]]
            row += [round(100 * (q["formula"] / q["sim_row"] - 1), 2), round(100 * (q["est_row"] / q["sim_row"] - 1), 2)]
            out.writerow(row)
            print(",".join(map(str, row)), file=sys.stderr)


if __name__ == "__main__":
    main()
