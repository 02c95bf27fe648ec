#!/usr/bin/env bash
# DRAM model figures for docs/dram.md: unloaded read latency (row hit, closed bank, row
# conflict, and the sequential / random averages that Ramulator 2.1, DRAMSys and
# DRAMsim3 report) and saturated bandwidth (sequential, random, strided, mixed) per preset.
#   bench/dram/figures.sh [OUT.csv]    (needs build/platform/vp-run; default OUT: bench/dram/figures.csv)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
vp_run=${VP_RUN:-$root/build/platform/vp-run}
out=${1:-$root/bench/dram/figures.csv}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
stream() {  # NAME PATTERN REQUESTS BYTES RANGE OUTSTANDING INTERVAL_NS READ_FRACTION [STRIDE]
  echo "{\"kind\": \"traffic\", \"name\": \"$1\", \"streams\": [{\"name\": \"s\", \"pattern\": \"$2\", \"requests\": $3,
  \"bytes\": $4, \"range\": $5, \"max_outstanding\": $6, \"interval_ns\": $7, \"read_fraction\": $8, \"stride\": ${9:-64},
  \"seed\": 5}]}" > "$tmp/$1.json"
}
stat() {  # OUT a.b.c: a value of OUT/stats.json
  /usr/bin/python3 -c "import json,sys; v=json.load(open(sys.argv[1]))['stats']
for k in sys.argv[2].split('.'): v=v[k]
print(round(v['value'] if isinstance(v, dict) else v, 4))" "$1/stats.json" "$2"; }
echo "preset,case,metric,value,unit" > "$out"
for preset in ddr3-1600 ddr4-2400; do
  cfg=$root/configs/dram-${preset%%-*}.yaml
  [ "$preset" = ddr4-2400 ] && cfg=$root/configs/dram-ddr4.yaml
  # Isolated reads (refresh off): row hit = sequential; closed bank = closed page; conflict = next row of one bank.
  stream hit sequential 2000 64 1073741824 1 100 1.0
  "$vp_run" "$cfg" "$tmp/hit.json" --quiet --out "$tmp/o" --set dram.refresh=false
  echo "$preset,row hit,latency_min,$(stat "$tmp/o" dram.latency.min),ns" >> "$out"
  "$vp_run" "$cfg" "$tmp/hit.json" --quiet --out "$tmp/o" --set dram.refresh=false --set dram.page_policy=closed
  echo "$preset,closed bank,latency_mean,$(stat "$tmp/o" dram.latency.mean),ns" >> "$out"
  [ "$preset" = ddr3-1600 ] && rowstride=65536 || rowstride=131072   # row bytes x banks (row_bank_col)
  stream conflict strided 2000 64 $((rowstride * 1000)) 1 100 1.0 $rowstride
  "$vp_run" "$cfg" "$tmp/conflict.json" --quiet --out "$tmp/o" --set dram.refresh=false
  echo "$preset,row conflict,latency_max,$(stat "$tmp/o" dram.latency.max),ns" >> "$out"
  # The peers' experiment: one 64-byte read every 100 ns, refresh on, over 1 GiB.
  for pat in sequential random; do
    stream "u_$pat" $pat 20000 64 1073741824 4 100 1.0
    "$vp_run" "$cfg" "$tmp/u_$pat.json" --quiet --out "$tmp/o"
    echo "$preset,unloaded $pat (1 read / 100 ns),latency_mean,$(stat "$tmp/o" dram.latency.mean),ns" >> "$out"
  done
  # Saturation: 32 reads in flight (mixed: the workload of workloads/traffic/mixed.json).
  stream s_seq sequential 200000 64 67108864 32 0 1.0
  stream s_rnd random 100000 64 1073741824 32 0 1.0
  stream s_str strided 100000 64 67108864 32 0 1.0 256
  for w in s_seq s_rnd s_str "$root/workloads/traffic/mixed.json"; do
    f=$w; [ -f "$w" ] || f=$tmp/$w.json
    "$vp_run" "$cfg" "$f" --quiet --out "$tmp/o"
    name=$(basename "$f" .json); case $name in s_seq) name=sequential;; s_rnd) name=random;; s_str) name="strided 256 B";; esac
    echo "$preset,saturated $name,bandwidth,$(stat "$tmp/o" dram.bandwidth),GB/s" >> "$out"
    echo "$preset,saturated $name,latency_max,$(stat "$tmp/o" dram.latency.max),ns" >> "$out"
  done
done
column -t -s, "$out"
