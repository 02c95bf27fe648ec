#!/usr/bin/env bash
# Power-of-two output maps (docs/mesh.md, "Measured (2026-12-07): power-of-two maps, the
# cores' streams on few banks"). One layer, ResNet's and DenseNet's stem (7x7,
# stride 2, 3 -> 64 channels), on input sizes around 256 x 256 on configs/mesh-4x4.yaml, with the
# mapper's pick and with fixed slices (T_of,T_ox,k); per run the estimate, the simulation and the
# DRAM's activations, bus turnarounds and data-bus utilisation.  -> OUT_DIR/pow2_maps.csv
#   bench/mesh/pow2_maps.sh [OUT_DIR]   (default bench/mesh; VP_RUN as in row_conflicts.sh; ~1 min)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$here/bench/mesh}
vp_run=${VP_RUN:-$here/build/platform/vp-run}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "input,pad,output,slices,k,T_of,T_ox,est_cycles,sim_cycles,sim_over_est,activates,bus_turnarounds,bus_utilisation" > "$out/pow2_maps.csv"
run() {  # run H PAD SLICES (SLICES: "pick" or T_of,T_ox,k)
  local h=$1 pad=$2 slices=$3 set=()
  [ "$slices" = pick ] || set=(--set "mapper.fixed_slices=$slices")
  cat > "$tmp/w.json" <<EOF
{"name": "stem$h", "precision": 8, "layers": [
 {"name": "stem", "type": "conv", "C": 3, "K": 64, "H": $h, "W": $h, "R": 7, "S": 7, "stride": 2, "pad": $pad, "groups": 1, "act": "relu"}]}
EOF
  rm -rf "$tmp/o"
  "$vp_run" "$here/configs/mesh-4x4.yaml" "$tmp/w.json" --quiet --out "$tmp/o" "${set[@]}" > /dev/null
  python3 - "$tmp/o" "$h" "$pad" "$slices" >> "$out/pow2_maps.csv" <<'PY'
import json, sys
o, h, pad, slices = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
l = json.load(open(o + "/mapping.json"))["layers"][0]
d = json.load(open(o + "/stats.json"))["stats"]["dram"]
est, sim = l["estimate"]["cycles"], l["simulation"]["cycles"]
p = (h + 2 * pad - 7) // 2 + 1
print(f"{h},{pad},{p},{slices.replace(',', '/')},{l['k']},{l['slices']['T_of']},{l['slices']['T_ox']},{est:.0f},{sim:.0f},"
      f"{sim / est:.4f},{d['activates']['value']},{d['bus_turnarounds']['value']},{d['bus_utilisation']['value']:.4f}")
PY
}
for h in 224 240 256 288; do run $h 3 pick; done
run 256 2 pick                       # 127 x 127: the output channel is no longer 32 KiB
for s in 32,32,8 64,32,4 64,32,1; do run 256 3 $s; run 256 2 $s; done
cat "$out/pow2_maps.csv"
