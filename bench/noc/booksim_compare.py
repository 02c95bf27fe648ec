#!/usr/bin/python3
"""Side-by-side comparison of vp::noc with BookSim2 on the BookSim2-matched configuration.

Our side of the comparison (docs/noc.md): runs BookSim2 (built outside this repository, path given
with --booksim) with bench/noc/booksim_matched.cfg, and our model with configs/mesh-8x8-booksim.yaml
(vp-run) and bench_noc zero_load, on the same points, and writes

  peers_zero_load_pairs.csv        zero-load latency per hop count: ours (every pair, one packet) vs
                                   BookSim2 (per-pair averages at 0.002 flits/node/cycle)
  peers_latency_8x8_uniform_xy.csv latency and accepted throughput vs offered load (Noxim rows of an
                                   earlier file in --out are kept; Noxim is not re-run here)
  booksim_saturation.csv           accepted throughput past saturation, ours vs BookSim2, difference

and prints the two checks: zero-load latency equal per hop count, saturation within 3 %.

  /usr/bin/python3 bench/noc/booksim_compare.py --booksim /work/peers/booksim2/src/booksim \\
      --vp-run build/platform/vp-run --bench-noc build/bench/bench_noc --out bench/noc [-j 2] [--parts zero_load,sweep]
"""
import argparse
import concurrent.futures
import csv
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
K = 8
# (num_vcs, buffer_depth, offered loads): the two configurations of docs/noc.md.
SWEEPS = [
    (1, 4, [0.005, 0.02, 0.04, 0.06, 0.08, 0.10, 0.11, 0.12, 0.13, 0.14, 0.15, 0.16, 0.17, 0.18, 0.20, 0.25, 0.30]),
    (8, 8, [0.05, 0.10, 0.20, 0.30, 0.35, 0.40, 0.45, 0.50, 0.60]),
]
# Offered loads past saturation whose accepted throughput is the saturation throughput.
SATURATED = {1: [0.20, 0.25, 0.30], 8: [0.45, 0.50, 0.60]}
TOLERANCE = 0.03


def run(cmd, cwd=None, ok=(0,)):
    r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode not in ok:
        sys.exit("failed (%d): %s\n%s" % (r.returncode, " ".join(cmd), r.stdout[-2000:]))
    return r.stdout


def booksim(args, work, overrides):
    cfg = os.path.join(HERE, "booksim_matched.cfg")
    # BookSim2's main() returns -1 (exit status 255) when the simulation succeeded.
    return run([args.booksim, cfg] + ["%s=%s" % kv for kv in overrides], cwd=work, ok=(0, 255))


def last_float(text, label):
    vals = re.findall(re.escape(label) + r"\s*=\s*([-+0-9.eE]+|nan|-?inf)", text)
    if not vals:
        return float("nan")
    return float(vals[-1])


def booksim_point(args, work, vcs, buf, load):
    out = booksim(args, work, [("injection_rate", load), ("num_vcs", vcs), ("vc_buf_size", buf),
                               ("packet_size", 8), ("seed", 1)])
    return {"simulator": "booksim", "num_vcs": vcs, "buffer_depth": buf, "packet_flits": 8,
            "offered": load, "accepted": last_float(out, "Accepted flit rate average"),
            "avg_latency": last_float(out, "Packet latency average"),
            "latency_metric": "tail_flit_creation_to_ejection"}


def ours_point(args, work, vcs, buf, load, name, link, credit, eject):
    out = os.path.join(work, "ours_%s_%d_%d_%g" % (name, vcs, buf, load))
    run([args.vp_run, os.path.join(ROOT, "configs/mesh-8x8-booksim.yaml"),
         os.path.join(ROOT, "workloads/traffic/uniform.json"), "--out", out, "--quiet",
         "--set", "traffic.rate=%g" % load, "--set", "noc.num_vcs=%d" % vcs,
         "--set", "noc.buffer_depth=%d" % buf, "--set", "noc.eject_depth=%d" % eject,
         "--set", "traffic.packet_flits=8", "--set", "noc.link_latency=%d" % link,
         "--set", "noc.credit_delay=%d" % credit, "--set", "traffic.warmup_cycles=10000",
         "--set", "traffic.measure_cycles=20000", "--set", "traffic.drain_max_cycles=300000",
         "--set", "seed=1", "--set", "noc.watchdog_cycles=0"])
    s = json.load(open(os.path.join(out, "stats.json")))["stats"]
    return {"simulator": name, "num_vcs": vcs, "buffer_depth": buf, "packet_flits": 8,
            "offered": s["synthetic"]["offered_load"]["value"],
            "accepted": s["synthetic"]["accepted_throughput"]["value"],
            "avg_latency": s["packet_latency_avg"]["value"], "latency_metric": "tail_flit_creation_to_ejection"}


def zero_load(args, work, vcs, buf):
    """Per hop count: ours (min/max over all pairs), BookSim2 (per-pair averages)."""
    rows = {}
    for name, link, credit, eject in (("matched", 2, 2, buf), ("default", 1, 1, 16)):
        if name == "default" and vcs != 1:
            continue
        out = run([args.bench_noc, "zero_load", str(K), str(buf), str(vcs), str(link), str(credit), str(eject), "8"])
        for line in out.splitlines():
            m = re.match(r"^(\d+),(\d+),(\d+),(\d+)$", line)
            if m:
                h, pairs, lo, hi = map(int, m.groups())
                r = rows.setdefault(h, {"hops": h, "pairs": pairs})
                r["ours_%s_min" % name], r["ours_%s_max" % name] = lo, hi
    stats = os.path.join(work, "pairs_%d_%d.m" % (vcs, buf))
    booksim(args, work, [("injection_rate", 0.002), ("num_vcs", vcs), ("vc_buf_size", buf), ("pair_stats", 1),
                         ("stats_out", stats), ("sample_period", 200000), ("warmup_periods", 1),
                         ("max_samples", 1), ("seed", 1)])
    text = open(stats).read()
    sent = [float(v) for v in re.search(r"pair_sent\(1,:\) = \[([^\]]*)\]", text).group(1).split()]
    plat = [float(v) for v in re.search(r"pair_plat\(1,:\) = \[([^\]]*)\]", text).group(1).split()]
    by_hops = {}
    n = K * K
    for i in range(n):
        for j in range(n):
            if sent[i * n + j] > 0:
                h = abs(i % K - j % K) + abs(i // K - j // K)
                by_hops.setdefault(h, []).append(plat[i * n + j])
    out = []
    for h in sorted(rows):
        r = rows[h]
        b = by_hops.get(h, [])
        r.update({"num_vcs": vcs, "buffer_depth": buf, "booksim_pairs_observed": len(b),
                  "booksim_pair_avg_min": min(b) if b else "", "booksim_pair_avg_median": statistics.median(b) if b else "",
                  "booksim_pair_avg_max": max(b) if b else "",
                  # Analytic T0 = L + (H + 1)(P - 1 + L) + (F - 1) + credit stalls: 15 + 5H with 4-flit
                  # buffers (one stall per 8-flit packet), 14 + 5H with 8-flit buffers.
                  "analytic": (15 if buf < 5 else 14) + 5 * h})
        out.append(r)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--booksim", required=True)
    ap.add_argument("--vp-run", required=True)
    ap.add_argument("--bench-noc", required=True)
    ap.add_argument("--out", default=HERE)
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--parts", default="zero_load,sweep", help="comma-separated: zero_load, sweep")
    args = ap.parse_args()
    parts = args.parts.split(",")
    work = tempfile.mkdtemp(prefix="booksim_compare_")

    zl_ok = sat_ok = True
    if "zero_load" in parts:
        zl_ok = zero_load_part(args, work)
    if "sweep" in parts:
        sat_ok = sweep_part(args, work)
    print("zero-load latency equal to BookSim2's per hop count: %s" % ("yes" if zl_ok else "NO"))
    print("saturation throughput within %.0f %%: %s" % (100 * TOLERANCE, "yes" if sat_ok else "NO"))
    return 0 if zl_ok and sat_ok else 1


def zero_load_part(args, work):
    zl = []
    for vcs, buf, _ in SWEEPS:
        zl += zero_load(args, work, vcs, buf)
    cols = ["num_vcs", "buffer_depth", "hops", "pairs", "ours_matched_min", "ours_matched_max", "ours_default_min",
            "ours_default_max", "booksim_pairs_observed", "booksim_pair_avg_min", "booksim_pair_avg_median",
            "booksim_pair_avg_max", "analytic"]
    with open(os.path.join(args.out, "peers_zero_load_pairs.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols, restval="")
        w.writeheader()
        for r in zl:
            w.writerow(r)
    zl_ok = all(r["ours_matched_min"] == r["ours_matched_max"] == r["booksim_pair_avg_median"] == r["analytic"]
                and r["booksim_pair_avg_min"] == r["analytic"] for r in zl if r["booksim_pairs_observed"])
    for r in zl:
        print("zero-load V=%d B=%d H=%2d: ours %s..%s, BookSim2 pair averages min %s median %s (%d pairs), analytic %d"
              % (r["num_vcs"], r["buffer_depth"], r["hops"], r["ours_matched_min"], r["ours_matched_max"],
                 r["booksim_pair_avg_min"], r["booksim_pair_avg_median"], r["booksim_pairs_observed"], r["analytic"]))
    return zl_ok


def sweep_part(args, work):
    jobs = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(args.j, 2))) as ex:
        for vcs, buf, loads in SWEEPS:
            for load in loads:
                jobs.append(ex.submit(booksim_point, args, work, vcs, buf, load))
                jobs.append(ex.submit(ours_point, args, work, vcs, buf, load, "ours", 2, 2, buf))
                if vcs == 1:
                    jobs.append(ex.submit(ours_point, args, work, vcs, buf, load, "ours_default", 1, 1, 16))
        points = [j.result() for j in jobs]
    path = os.path.join(args.out, "peers_latency_8x8_uniform_xy.csv")
    kept = []
    if os.path.exists(path):
        kept = [r for r in csv.DictReader(open(path)) if r["simulator"] == "noxim"]
    cols = ["simulator", "num_vcs", "buffer_depth", "packet_flits", "offered", "accepted", "avg_latency", "latency_metric"]
    order = {"ours": 0, "booksim": 1, "noxim": 2, "ours_default": 3}
    rows = points + kept

    def nominal(r):  # the sweep load a row belongs to (ours reports the offered load it measured)
        loads = next(l for v, _, l in SWEEPS if v == int(r["num_vcs"]))
        return min(loads, key=lambda x: abs(x - float(r["offered"])))

    rows.sort(key=lambda r: (int(r["num_vcs"]), nominal(r), order[r["simulator"]]))
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols)
        w.writeheader()
        for r in rows:
            r = dict(r)
            for k in ("offered", "accepted"):
                r[k] = "%.5f" % float(r[k])
            r["avg_latency"] = "%.3f" % float(r["avg_latency"])
            w.writerow(r)

    sat_rows, sat_ok = [], True
    for vcs, buf, _ in SWEEPS:
        for load in SATURATED[vcs]:
            o = next(p for p in points if p["simulator"] == "ours" and p["num_vcs"] == vcs and
                     abs(p["offered"] - load) < 0.01)
            b = next(p for p in points if p["simulator"] == "booksim" and p["num_vcs"] == vcs and p["offered"] == load)
            d = (o["accepted"] - b["accepted"]) / b["accepted"]
            sat_ok = sat_ok and abs(d) <= TOLERANCE
            sat_rows.append({"num_vcs": vcs, "buffer_depth": buf, "offered": load, "ours_accepted": "%.4f" % o["accepted"],
                             "booksim_accepted": "%.4f" % b["accepted"], "difference_pct": "%.2f" % (100 * d)})
            print("saturation V=%d B=%d offered %.2f: ours %.4f, BookSim2 %.4f, %+.2f %%"
                  % (vcs, buf, load, o["accepted"], b["accepted"], 100 * d))
    with open(os.path.join(args.out, "booksim_saturation.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(sat_rows[0].keys()))
        w.writeheader()
        for r in sat_rows:
            w.writerow(r)
    return sat_ok


if __name__ == "__main__":
    sys.exit(main())
