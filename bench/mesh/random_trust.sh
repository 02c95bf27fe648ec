#!/usr/bin/env bash
# The random-network clause of the mesh time model's acceptance rule (docs/mesh.md): per-layer
# |sim/est - 1| of random valid networks (`scripts/random_networks.py gen --seed S`, not shipped,
# not in the calibration) run with `vp-run` on one mesh config, default model, unrefined.
#   bench/mesh/random_trust.sh OUT_DIR [A:B]   (seeds A..B, default 441:480; VP_RUN,
#                                               CONFIG = configs/mesh-4x4.yaml, RUN_ARGS)
# Writes OUT/layers.csv (seed, layer, k, est_cycles, sim_cycles, sim_over_est_minus_1) and prints
# the layers, median / mean |sim/est - 1| in %, the layers above 15 %, the worst, and the total
# simulated cycles (the mapper's picks). A network the mesh cannot run (exit 2: no conv or fc
# layer) is listed and skipped; any other failure makes the exit code 1.
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: bench/mesh/random_trust.sh OUT_DIR [A:B]}
seeds=${2:-441:480}
vp_run=${VP_RUN:-$here/build/platform/vp-run}
config=${CONFIG:-$here/configs/mesh-4x4.yaml}
read -r -a extra <<< "${RUN_ARGS:-}"
a=${seeds%:*}; b=${seeds#*:}
mkdir -p "$out"; tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "seed,layer,k,est_cycles,sim_cycles,sim_over_est_minus_1" > "$out/layers.csv"
fail=0
for s in $(seq "$a" "$b"); do
  python3 "$here/scripts/random_networks.py" gen --seed "$s" --out "$tmp/net.json" || { fail=1; continue; }
  rm -rf "$tmp/run"
  "$vp_run" "$config" "$tmp/net.json" --out "$tmp/run" --quiet "${extra[@]}" > /dev/null 2> "$tmp/err"; rc=$?
  if [ $rc -ne 0 ]; then
    if [ $rc -eq 2 ] && grep -q "no conv or fc layer" "$tmp/err"; then echo "random_trust: seed $s skipped: $(tail -1 "$tmp/err")" >&2
    else echo "random_trust: seed $s failed (exit $rc): $(tail -1 "$tmp/err")" >&2; fail=1; fi
    continue
  fi
  jq -r --arg s "$s" '.layers[] | select(.simulation and .estimate)
    | [$s, .name, .k, .estimate.cycles, .simulation.cycles, (.simulation.cycles / .estimate.cycles - 1)]
    | map(tostring) | join(",")' "$tmp/run/mapping.json" >> "$out/layers.csv"
done
python3 - "$out/layers.csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
if not rows:
    sys.exit("random_trust: no layers")
e = [abs(float(r["sim_over_est_minus_1"])) * 100 for r in rows]
sim = sum(float(r["sim_cycles"]) for r in rows)
print(f"layers {len(e)}  median {statistics.median(e):.2f} %  mean {statistics.mean(e):.2f} %  "
      f"above 15 %: {sum(x > 15 for x in e)}  worst {max(e):.2f} %  simulated cycles {sim:.0f}")
PY
exit $fail
