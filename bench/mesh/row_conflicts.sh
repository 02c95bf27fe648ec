#!/usr/bin/env bash
# DRAM row conflicts of the calibration samples: simulated (stats.json, dram.channel[0] row_hits,
# row_conflicts, row_misses) against the prediction from the cores' addresses
# (`vp-calibrate --row-conflicts`, mapper::waving::lockstep_row_conflicts): own = each core's
# accesses replayed alone on one open row per bank, interleaved = the k lockstep streams at random,
# formula = own + BETA x interleaved x (1 - own), per burst (docs/mesh.md, "Tried: an entry's critical
# path and the row conflicts of interleaved streams"). Every sample is simulated again with vp-run
# (mapper.fixed_slices = its choice; the 8x8 samples with mesh.width = mesh.height = 8); its cycles
# must equal the stored ones.
#   bench/mesh/row_conflicts.sh OUT.csv   (VP_RUN, VP_CALIBRATE, CONFIG = configs/mesh-4x4.yaml,
#                                          CALIBRATION = configs/calibration/mesh-ddr3-1600.yaml, JOBS = 2, BETA = 0.3,
#                                          KEEP = a new directory to keep the runs in: r<i>/stats.json, pred.csv)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: bench/mesh/row_conflicts.sh OUT.csv}
vp_run=${VP_RUN:-$here/build/platform/vp-run}
vp_cal=${VP_CALIBRATE:-$here/build/platform/vp-calibrate}
config=${CONFIG:-$here/configs/mesh-4x4.yaml}
cal=${CALIBRATION:-$here/configs/calibration/mesh-ddr3-1600.yaml}
jobs=${JOBS:-2}
beta=${BETA:-0.3}
if [ -n "${KEEP:-}" ]; then tmp=$KEEP; mkdir "$tmp"; else tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT; fi
"$vp_cal" "$config" --shapes 48 --jobs "$jobs" --refit "$cal" --out "$tmp/refit.yaml" --row-conflicts "$tmp/pred.csv" > /dev/null
python3 - "$tmp" <<'PY'
import csv, json, sys
tmp = sys.argv[1]
with open(f"{tmp}/jobs.txt", "w") as f:
    for i, r in enumerate(csv.DictReader(open(f"{tmp}/pred.csv"))):
        json.dump({"name": r["shape"], "layers": [json.loads(r["layer"])]}, open(f"{tmp}/l{i}.json", "w"))
        wide = "--set mesh.width=8 --set mesh.height=8" if r["mesh"] != "config" else ""
        f.write(f'{i} mapper.fixed_slices={r["t_of"]},{r["t_ox"]},{r["k"]} {wide}'.rstrip() + "\n")  # xargs -L: no trailing blank
PY
export vp_run config tmp
xargs -P "$jobs" -L1 bash -c 'i=$0; "$vp_run" "$config" "$tmp/l$i.json" --quiet --out "$tmp/r$i" --set "$@" > /dev/null 2> "$tmp/e$i" || { echo "sample $i: $*" >&2; cat "$tmp/e$i" >&2; exit 255; }' < "$tmp/jobs.txt"
python3 - "$tmp" "$out" "$beta" <<'PY'
import csv, json, sys
tmp, out, beta = sys.argv[1], sys.argv[2], float(sys.argv[3])
w = csv.writer(open(out, "w", newline=""), lineterminator="\n")
w.writerow(["shape", "t_of", "t_ox", "k", "mesh", "bursts", "row_hits", "row_conflicts", "row_misses",
            "conflict_rate_sim", "own", "interleaved", "formula"])
for i, r in enumerate(csv.DictReader(open(f"{tmp}/pred.csv"))):
    st = json.load(open(f"{tmp}/r{i}/stats.json"))["stats"]["dram"]["channel[0]"]
    cyc = json.load(open(f"{tmp}/r{i}/mapping.json"))["layers"][0]["simulation"]["cycles"]
    if abs(float(cyc) - float(r["sim_cycles"])) > 0.5:
        sys.exit(f'{r["shape"]} {r["t_of"]},{r["t_ox"]},{r["k"]}: simulated {cyc} cycles, stored {r["sim_cycles"]}')
    h, c, m = (int(st[k]["value"]) for k in ("row_hits", "row_conflicts", "row_misses"))
    b = float(r["bursts"])
    if h + c + m != int(b):
        sys.exit(f'{r["shape"]}: {h + c + m} bursts simulated, {int(b)} predicted')
    own, il = float(r["own_conflicts"]) / b, float(r["interleaved_conflicts"]) / b
    w.writerow([r["shape"], r["t_of"], r["t_ox"], r["k"], r["mesh"], int(b), h, c, m, f"{c / b:.4f}",
                f"{own:.4f}", f"{il:.4f}", f"{own + beta * il * (1 - own):.4f}"])
PY
