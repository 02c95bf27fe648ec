#!/usr/bin/env bash
# timeline.json (Perfetto / chrome://tracing) of the nmp, mesh and vta platforms, checked by an
# independent script: well-formed trace events, one track per unit with a state statistic,
# no overlapping slices on a track, every track's slices adding up to the simulated time.
set -u
vp_run=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chk=$root/tests/cli/lib/check_outputs.py
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
for r in "nmp|configs/nmp.yaml|workloads/lenet5.json" "mesh|configs/mesh-3x1.yaml|workloads/lenet5.json" \
         "vta|configs/vta.yaml|workloads/lenet5_full.json"; do
  IFS='|' read -r name cfg wl <<< "$r"
  "$vp_run" "$root/$cfg" "$root/$wl" --out "$tmp/$name" --quiet --timeline
  ok "$name: run with --timeline exits 0" "[ $? -eq 0 ]"
  ok "$name: timeline.json checks" "/usr/bin/python3 '$chk' timeline '$tmp/$name' >'$tmp/log' || { cat '$tmp/log'; false; }"
  ok "$name: the layers track names the layers" "grep -q '\"name\":\"layers\"' '$tmp/$name/timeline.json'"
  ok "$name: DRAM counters" "grep -q '\"DRAM bandwidth\"' '$tmp/$name/timeline.json'"
done
ok "nmp: DMA transfers are slices on the TLE DMA tracks" "grep -q 'tle\[0\].dma_state' '$tmp/nmp/timeline.json'"
"$vp_run" "$root/configs/nmp.yaml" "$root/workloads/lenet5.json" --out "$tmp/plain" --quiet
ok "no timeline without --timeline" "[ ! -e '$tmp/plain/timeline.json' ]"
ok "the timeline does not change the statistics" \
   "diff <(grep -v config_hash '$tmp/plain/stats.json') <(grep -v config_hash '$tmp/nmp/stats.json') >/dev/null"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
