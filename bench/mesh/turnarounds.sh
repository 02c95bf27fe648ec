#!/usr/bin/env bash
# DRAM bus turnarounds of the calibration samples: simulated (stats.json dram.bus_turnarounds)
# against two counts from the mapper's side: the direction changes (a load after a store or a store
# after a load) between consecutive DMA ops of each core, summed over the cores (`vp-calibrate
# --row-conflicts`, column direction_changes), and the random interleaving of the layer's n
# requests, 2 w (1 - w) n with w the write share, which the phased model charges x ph_turn
# (docs/mesh.md, "Tried (measured): the 7x7 stem on seven cores"). Runs bench/mesh/row_conflicts.sh
# with KEEP (every sample simulated again; its cycles must equal the stored ones).
#   bench/mesh/turnarounds.sh OUT.csv   (the variables of bench/mesh/row_conflicts.sh; 30-60 s with 2 jobs)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: bench/mesh/turnarounds.sh OUT.csv}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
KEEP=$tmp/runs bash "$here/bench/mesh/row_conflicts.sh" "$tmp/conflicts.csv"
python3 - "$tmp/runs" "$out" <<'PY'
import csv, json, sys
runs, out = sys.argv[1], sys.argv[2]
w = csv.writer(open(out, "w", newline=""), lineterminator="\n")
w.writerow(["shape", "t_of", "t_ox", "k", "mesh", "reads", "writes", "turnarounds", "direction_changes",
            "random_interleaving", "turnarounds_over_changes", "turnarounds_over_random"])
one_core = exact = 0
for i, r in enumerate(csv.DictReader(open(f"{runs}/pred.csv"))):
    st = json.load(open(f"{runs}/r{i}/stats.json"))["stats"]["dram"]
    rd, wr, t = (int(st[k]["value"]) for k in ("reads", "writes", "bus_turnarounds"))
    n = rd + wr
    ch = float(r["direction_changes"])
    rnd = 2.0 * wr * rd / n if n else 0.0
    if r["k"] == "1":
        one_core += 1
        exact += int(t == int(ch))
    w.writerow([r["shape"], r["t_of"], r["t_ox"], r["k"], r["mesh"], rd, wr, t, int(ch), f"{rnd:.1f}",
                f"{t / ch:.3f}" if ch else "", f"{t / rnd:.4f}" if rnd else ""])
print(f"one-core samples whose turnarounds equal the direction changes: {exact} of {one_core}")
PY
