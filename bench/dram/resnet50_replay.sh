#!/usr/bin/env bash
# The DRAM request stream of ResNet-50 on the nmp platform (configs/nmp.yaml,
# workloads/resnet50.json), recorded with dram.record_trace and replayed in our DRAM model
# and, when RAMULATOR2_PYTHON points at a built Ramulator 2.1 (its python/ folder), in
# Ramulator 2.1 with the matched configuration. Prints the rows of resnet50_replay.csv.
#   bench/dram/resnet50_replay.sh [WORKDIR]     (needs build/platform/vp-run)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
vp_run=${VP_RUN:-$root/build/platform/vp-run}
work=${1:-$(mktemp -d)}
mkdir -p "$work"; cd "$work"
cfg=$root/configs/dram-ddr3.yaml
"$vp_run" "$root/configs/nmp.yaml" "$root/workloads/resnet50.json" --out nmp --quiet \
  --set dram.record_trace=resnet50.stl --set dram.check_protocol=true
"$vp_run" "$root/configs/nmp.yaml" "$root/workloads/resnet50.json" --out nmp_ls --quiet --set dram.record_trace=resnet50.trace
cp nmp/resnet50.stl nmp_ls/resnet50.trace .
row() {  # LABEL OUT: simulator,case,requests,bandwidth_GBps,mean_read_latency_ns,sim_time_us
  /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[2] + "/stats.json"))
s = d["stats"]["dram"]
lat = d["stats"]["trace"]["read_latency"]["mean"] if "trace" in d["stats"] else s["latency"]["mean"]
n = s["reads"]["value"] + s["writes"]["value"]
print(f"ours,{sys.argv[1]},{int(n)},{s['bandwidth']['value']:.4f},{lat:.3f},{d['meta']['sim_time_ns'] / 1000:.1f}")
PY
}
echo "simulator,case,requests,bandwidth_GBps,mean_read_latency_ns,sim_time_us"
row "nmp run (recording; latency of all requests)" nmp
echo '{"kind": "dram_trace", "name": "resnet50_stl", "file": "resnet50.stl"}' > stl.json
"$vp_run" "$cfg" stl.json --out rep_stl --quiet --set dram.check_protocol=true
row "STL replay at the recorded times" rep_stl
for n in 32 40; do
  echo "{\"kind\": \"dram_trace\", \"name\": \"resnet50_ls\", \"file\": \"resnet50.trace\", \"max_outstanding\": $n}" > ls$n.json
  "$vp_run" "$cfg" ls$n.json --out rep_ls$n --quiet --set dram.queue_depth=$n --set dram.check_protocol=true
  row "LoadStoreTrace as fast as accepted; $n in flight" rep_ls$n
done
if [ -n "${RAMULATOR2_PYTHON:-}" ]; then
  PYTHONPATH=$RAMULATOR2_PYTHON /usr/bin/python3 "$root/bench/dram/ramulator_replay.py" resnet50.trace 2>/dev/null |
    awk -F, 'NR == 2 {printf "ramulator2.1,LoadStoreTrace as fast as accepted; 32 read + 32 write buffers,%s,%s,%s,%.1f\n", $3, $7, $8, $6 * 1.25 / 1000}'
fi
