#!/usr/bin/env python3
"""The mesh time model's acceptance rule (docs/mesh.md, "The acceptance rule, restated in terms of
the issue's targets"), checked from the outputs of the two bench scripts for the committed state
(BASE) and a candidate (CAND):

  bench/mesh/rule.py BASE_TRUST.csv CAND_TRUST.csv [--random BASE_LAYERS.csv CAND_LAYERS.csv]
                     [--in-sample MEDIAN_PCT RHO] [--mode phased-pages]

  BASE_TRUST / CAND_TRUST  bench/mesh/trust.sh OUT/trust.csv (the rows of --mode, unrefined)
  --random                 bench/mesh/random_trust.sh OUT/layers.csv, the same fresh seeds
  --in-sample              the candidate fit's median |est/sim - 1| in % and its Spearman rho
                           (vp-calibrate's "phased-pages: fit ..." line)

Clauses, in order; the first that fails rejects the change:
  1. bench/mesh: the (mesh, network, target) triples met (median |sim/est - 1| <= 5 %, worst
     <= 15 %, rho >= 0.9) do not fall;
  2. random networks: the pooled median |sim/est - 1| rises by at most 0.25 points and the layers
     above 15 % grow by at most 10 % (at least one layer);
  3. picks: every network's unrefined mapping simulates at most 0.5 % slower;
  4. in sample: median <= 5 % and rho >= 0.99.
A clause without its inputs is reported as not checked. Prints every clause with the figures it
rests on and the verdict; exit 0 when every checked clause holds and all four were checked, 1 when
a clause fails, 3 when none failed but some were not checked, 2 on unreadable input.
"""
import argparse
import csv
import math
import statistics
import sys

TARGETS = (("median_abs_err_pct", lambda v: v <= 5.0, "median <= 5 %"),
           ("worst_abs_err_pct", lambda v: v <= 15.0, "worst <= 15 %"),
           ("spearman_rho", lambda v: v >= 0.9, "rho >= 0.9"))


def fail_input(msg):
    print(f"rule.py: {msg}", file=sys.stderr)
    sys.exit(2)


def number(row, key, where):
    try:
        v = float(row[key])
    except (KeyError, TypeError, ValueError):
        fail_input(f"{where}: column {key!r} is missing or not a number ({row.get(key)!r})")
    if math.isnan(v):
        fail_input(f"{where}: column {key!r} is NaN")
    return v


def read_csv(path, needed):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail_input(f"{path}: {e.strerror}")
    if not rows:
        fail_input(f"{path}: no rows")
    missing = [k for k in needed if k not in rows[0]]
    if missing:
        fail_input(f"{path}: expected columns {', '.join(missing)}")
    return rows


def trust_rows(path, mode):
    rows = read_csv(path, ["config", "network", "mode", "refine_k", "sim_cycles"] + [t[0] for t in TARGETS])
    out = {}
    for i, r in enumerate(rows, start=2):
        if r["mode"] != mode or r["refine_k"] != "-":
            continue
        key = (r["config"], r["network"])
        if key in out:
            fail_input(f"{path}:{i}: {key[0]} {key[1]} {mode} appears twice")
        out[key] = r
    if not out:
        fail_input(f"{path}: no unrefined rows of mode {mode!r}")
    return out


def target_value(row, key, where):
    # rho is undefined ("null" from trust.sh) for a network of one layer: that target is not met.
    if key == "spearman_rho" and (row.get(key) or "").strip() in ("null", "", "None"):
        return None
    return number(row, key, where)


def shown(row, key, where):
    v = target_value(row, key, where)
    return "undefined" if v is None else f"{v:.3f}"


def met(row, where):
    out = []
    for key, ok, _ in TARGETS:
        v = target_value(row, key, where)
        out.append(v is not None and ok(v))
    return out


def clause1(base, cand, base_path, cand_path):
    common = sorted(set(base) & set(cand))
    only = sorted(set(base) ^ set(cand))
    if only:
        fail_input("the two trust files cover different (mesh, network) rows: " +
                   ", ".join(f"{c} {n}" for c, n in only))
    nb = nc = 0
    changes = []
    for key in common:
        mb = met(base[key], base_path)
        mc = met(cand[key], cand_path)
        nb += sum(mb)
        nc += sum(mc)
        for (col, _, label), a, b in zip(TARGETS, mb, mc):
            if a != b:
                changes.append(f"    {key[0]} {key[1]} {label}: {shown(base[key], col, base_path)} -> "
                               f"{shown(cand[key], col, cand_path)} ({'gained' if b else 'lost'})")
    ok = nc >= nb
    print(f"1. bench/mesh: {nb} -> {nc} of {3 * len(common)} triples met: {'holds' if ok else 'FAILS'}")
    for line in changes:
        print(line)
    return ok


def random_stats(path):
    rows = read_csv(path, ["seed", "layer", "sim_over_est_minus_1"])
    e = [abs(number(r, "sim_over_est_minus_1", path)) * 100 for r in rows]
    return {r["seed"] for r in rows}, statistics.median(e), sum(x > 15 for x in e), len(e)


def clause2(base_path, cand_path):
    seeds_b, med_b, above_b, n_b = random_stats(base_path)
    seeds_c, med_c, above_c, n_c = random_stats(cand_path)
    if seeds_b != seeds_c:
        fail_input("the two random-network files have different seeds")
    allowed = above_b + max(1, math.floor(0.1 * above_b))
    ok = med_c - med_b <= 0.25 + 1e-12 and above_c <= allowed
    print(f"2. random networks ({len(seeds_b)} seeds, {n_b} -> {n_c} layers): median {med_b:.2f} -> {med_c:.2f} % "
          f"(at most +0.25), above 15 %: {above_b} -> {above_c} (at most {allowed}): {'holds' if ok else 'FAILS'}")
    return ok


def clause3(base, cand, base_path, cand_path):
    worst = None
    slower = []
    for key in sorted(base):
        b = number(base[key], "sim_cycles", base_path)
        c = number(cand[key], "sim_cycles", cand_path)
        ch = (c / b - 1) * 100 if b > 0 else 0.0
        if worst is None or ch > worst[1]:
            worst = (key, ch)
        if ch > 0.5:
            slower.append(f"    {key[0]} {key[1]}: {b:.0f} -> {c:.0f} cycles ({ch:+.2f} %)")
    ok = not slower
    print(f"3. picks: the slowest change {worst[0][0]} {worst[0][1]} {worst[1]:+.2f} % (at most +0.5 %): "
          f"{'holds' if ok else 'FAILS'}")
    for line in slower:
        print(line)
    return ok


def clause4(median, rho):
    ok = median <= 5.0 and rho >= 0.99
    print(f"4. in sample: median {median:.2f} % (at most 5), rho {rho:.4f} (at least 0.99): {'holds' if ok else 'FAILS'}")
    return ok


def main():
    ap = argparse.ArgumentParser(description="the mesh time model's acceptance rule from bench outputs")
    ap.add_argument("base_trust")
    ap.add_argument("cand_trust")
    ap.add_argument("--random", nargs=2, metavar=("BASE_LAYERS", "CAND_LAYERS"))
    ap.add_argument("--in-sample", nargs=2, type=float, metavar=("MEDIAN_PCT", "RHO"))
    ap.add_argument("--mode", default="phased-pages")
    a = ap.parse_args()
    base = trust_rows(a.base_trust, a.mode)
    cand = trust_rows(a.cand_trust, a.mode)
    results = [clause1(base, cand, a.base_trust, a.cand_trust)]
    if a.random:
        results.append(clause2(*a.random))
    else:
        print("2. random networks: not checked (--random)")
    results.append(clause3(base, cand, a.base_trust, a.cand_trust))
    if a.in_sample:
        results.append(clause4(*a.in_sample))
    else:
        print("4. in sample: not checked (--in-sample)")
    if not all(results):
        first = next(i for i, r in enumerate(results) if not r)
        names = [1] + ([2] if a.random else []) + [3] + ([4] if a.in_sample else [])
        print(f"verdict: rejected (clause {names[first]} is the first that fails)")
        return 1
    if len(results) < 4:
        print("verdict: no clause fails, but not every clause was checked")
        return 3
    print("verdict: adopted")
    return 0


if __name__ == "__main__":
    sys.exit(main())
