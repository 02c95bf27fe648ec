#!/usr/bin/python3
"""Simulation speed of vp::noc side by side with BookSim2 (router-cycles per CPU second).

Our side of the comparison (docs/noc.md, "Comparison 2"): the matched configuration and BookSim2's
parameters are data in bench/noc/speed_matched.json (+ booksim_matched.cfg). For every repetition,
mesh and load (interleaved: rep -> mesh -> load -> simulators, so that every simulator sees the same
machine state) it runs

  ours      bench_noc speed_point (inject(); step(); per cycle, active stepping; the loop is timed
            inside the process, network construction excluded)
  ours_all  the same with stepping=all (every router and NI stepped every cycle)
  ours_geo  (--geometric) ours with traffic.injection=geometric: the same Bernoulli arrivals drawn
            as a geometric gap per packet instead of a uniform draw per node and cycle
  booksim   BookSim2 (built outside this repository, --booksim PATH) with booksim_matched.cfg and the
            parameters of speed_matched.json; CPU time (user + sys) of the process minus that of a
            baseline run of the same mesh with ~1 simulated cycle (start-up, configuration, construction)

and prints router-cycles (routers x simulated cycles) per CPU second, medians over the repetitions,
and the ratios ours / BookSim2. Without --booksim only our side is run.

  /usr/bin/python3 bench/noc/speed_compare.py --bench-noc build/bench/bench_noc \\
      [--booksim /work/peers/booksim2/src/booksim] [--reps 3] [--out bench/noc] [--no-all]
"""
import argparse
import csv
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def loadavg():
    try:
        return float(open("/proc/loadavg").read().split()[0])
    except OSError:
        return float("nan")


def run_timed(cmd, cwd=None, ok=(0,)):
    """Runs cmd; returns (stdout, CPU seconds user + sys of the child, wall seconds)."""
    import time
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode not in ok:
        sys.exit("failed (%d): %s\n%s" % (p.returncode, " ".join(cmd), out[-2000:]))
    return out, ru.ru_utime + ru.ru_stime, wall


def ours(args, cfg, k, cycles, load, seed, stepping, injection=None):
    kv = dict(cfg["ours"], k=k, load=load, cycles=cycles, seed=seed, stepping=stepping)
    if injection:
        kv["injection"] = injection
    out, _, _ = run_timed([args.bench_noc, "speed_point"] + ["%s=%s" % (a, b) for a, b in kv.items()])
    m = dict(re.findall(r"(\w+)=([-+0-9.eE]+)", out))
    return {"cycles": int(m["cycles"]), "cpu_s": float(m["cpu_s"]), "wall_s": float(m["wall_s"]),
            "accepted": float(m["accepted"])}


def booksim_cmd(args, cfg, k, extra):
    b = cfg["booksim"]
    kv = dict(b["args"], k=k)
    kv.update(extra)
    return [args.booksim, os.path.join(HERE, b["config"])] + ["%s=%s" % (a, v) for a, v in kv.items()]


def booksim(args, cfg, work, k, cycles, load, seed, baseline):
    period = cycles // cfg["booksim"]["sample_period_divisor"]
    # BookSim2's main() returns -1 (exit status 255) when the simulation succeeded.
    out, cpu, wall = run_timed(booksim_cmd(args, cfg, k, {"injection_rate": load, "seed": seed,
                                                          "sample_period": period}), cwd=work, ok=(0, 255))
    m = re.findall(r"Time taken is (\d+) cycles", out)
    acc = re.findall(r"Accepted flit rate average\s*=\s*([-+0-9.eE]+)", out)
    return {"cycles": int(m[-1]) if m else cycles, "cpu_s": max(cpu - baseline[0], 1e-9),
            "wall_s": max(wall - baseline[1], 1e-9), "accepted": float(acc[-1]) if acc else float("nan")}


def booksim_baseline(args, cfg, work, k, seed):
    _, cpu, wall = run_timed(booksim_cmd(args, cfg, k, dict(cfg["booksim"]["baseline_args"], injection_rate=0.001,
                                                             seed=seed)), cwd=work, ok=(0, 255))
    return cpu, wall


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench-noc", required=True)
    ap.add_argument("--booksim")
    ap.add_argument("--config", default=os.path.join(HERE, "speed_matched.json"))
    ap.add_argument("--reps", type=int)
    ap.add_argument("--out", help="folder for speed_booksim_runs.csv and speed_booksim_median.csv")
    ap.add_argument("--no-all", action="store_true", help="skip the stepping=all runs")
    ap.add_argument("--geometric", action="store_true",
                    help="also run ours with geometric injection (ours_geo: the same Bernoulli arrival process, "
                         "a geometric draw per packet instead of a uniform draw per node and cycle)")
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    reps = args.reps or cfg["reps"]
    sims = (["ours"] + (["ours_geo"] if args.geometric else []) + ([] if args.no_all else ["ours_all"]) +
            (["booksim"] if args.booksim else []))
    work = tempfile.mkdtemp(prefix="speed_compare_")
    runs = []
    cols = ["rep", "mesh", "load", "simulator", "cycles", "wall_s", "cpu_s", "rc_per_wall_s", "rc_per_cpu_s",
            "accepted", "loadavg1"]
    # Every run is appended as soon as it is measured (an interrupted comparison keeps its runs).
    runs_csv = None
    if args.out:
        runs_csv = open(os.path.join(args.out, "speed_booksim_runs.csv"), "w", newline="")
        runs_w = csv.DictWriter(runs_csv, fieldnames=cols, extrasaction="ignore")
        runs_w.writeheader()
    for rep in range(1, reps + 1):
        for mesh in cfg["meshes"]:
            k, cycles = mesh["k"], mesh["cycles"]
            base = booksim_baseline(args, cfg, work, k, rep) if args.booksim else None
            for load in cfg["loads"]:
                for sim in sims:
                    la = loadavg()
                    if sim == "booksim":
                        r = booksim(args, cfg, work, k, cycles, load, rep, base)
                    else:
                        r = ours(args, cfg, k, cycles, load, rep, "all" if sim == "ours_all" else "active",
                                 "geometric" if sim == "ours_geo" else None)
                    rc = k * k * r["cycles"]
                    r.update(rep=rep, mesh="%dx%d" % (k, k), load=load, simulator=sim, loadavg1=la,
                             rc_per_cpu_s=rc / r["cpu_s"], rc_per_wall_s=rc / r["wall_s"])
                    runs.append(r)
                    if runs_csv:
                        runs_w.writerow({c: ("%.4g" % r[c] if isinstance(r[c], float) and c != "load" else r[c])
                                         for c in cols})
                        runs_csv.flush()
                    print("rep %d %s load %-6g %-8s %9.4g router-cycles/CPU-s (accepted %.4f, load avg %.2f)"
                          % (rep, r["mesh"], load, sim, r["rc_per_cpu_s"], r["accepted"], la), flush=True)
    med = []
    for mesh in cfg["meshes"]:
        name = "%dx%d" % (mesh["k"], mesh["k"])
        for load in cfg["loads"]:
            for sim in sims:
                rs = [r for r in runs if r["mesh"] == name and r["load"] == load and r["simulator"] == sim]
                med.append({"mesh": name, "load": load, "simulator": sim, "runs": len(rs),
                            "median_rc_per_cpu_s": statistics.median(r["rc_per_cpu_s"] for r in rs),
                            "median_rc_per_wall_s": statistics.median(r["rc_per_wall_s"] for r in rs),
                            "median_accepted": statistics.median(r["accepted"] for r in rs),
                            "loadavg1_min": min(r["loadavg1"] for r in rs),
                            "loadavg1_max": max(r["loadavg1"] for r in rs)})
    get = {(m["mesh"], m["load"], m["simulator"]): m for m in med}
    head = "| mesh | load | ours (M rc/CPU-s) |" + (" ours, step all |" if "ours_all" in sims else "")
    if args.booksim:
        head += " BookSim2 | ours / BookSim2 (CPU; wall) |"
    if "ours_geo" in sims:
        head += " ours, geometric injection |" + (" geometric / BookSim2 (CPU; wall) |" if args.booksim else "")
    head += " load avg (1 min) |"
    print()
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for mesh in cfg["meshes"]:
        name = "%dx%d" % (mesh["k"], mesh["k"])
        for load in cfg["loads"]:
            o = get[(name, load, "ours")]
            line = "| %s | %g | %.2f |" % (name, load, o["median_rc_per_cpu_s"] / 1e6)
            if "ours_all" in sims:
                line += " %.2f |" % (get[(name, load, "ours_all")]["median_rc_per_cpu_s"] / 1e6)
            if args.booksim:
                b = get[(name, load, "booksim")]
                line += " %.3f | %.1fx (%.1fx) |" % (b["median_rc_per_cpu_s"] / 1e6,
                                                   o["median_rc_per_cpu_s"] / b["median_rc_per_cpu_s"],
                                                   o["median_rc_per_wall_s"] / b["median_rc_per_wall_s"])
            if "ours_geo" in sims:
                g = get[(name, load, "ours_geo")]
                line += " %.2f |" % (g["median_rc_per_cpu_s"] / 1e6)
                if args.booksim:
                    b = get[(name, load, "booksim")]
                    line += " %.1fx (%.1fx) |" % (g["median_rc_per_cpu_s"] / b["median_rc_per_cpu_s"],
                                                g["median_rc_per_wall_s"] / b["median_rc_per_wall_s"])
            lo = min(get[(name, load, s)]["loadavg1_min"] for s in sims)
            hi = max(get[(name, load, s)]["loadavg1_max"] for s in sims)
            print(line + " %.1f-%.1f |" % (lo, hi))
    if args.out:
        runs_csv.close()
        with open(os.path.join(args.out, "speed_booksim_median.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(med[0].keys()))
            w.writeheader()
            for m in med:
                w.writerow({c: ("%.4g" % v if isinstance(v, float) and c != "load" else v) for c, v in m.items()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
