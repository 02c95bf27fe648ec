#!/usr/bin/env bash
# Cost of sim.check_tlm on whole runs: vp-run wall time (run.json, simulation only) with and
# without the base-protocol checkers, runs alternated, medians of RUNS runs, and the number of
# transactions checked. The load average is printed because the machine may be shared.
#   bench/tlmcheck_speed.sh [RUNS]        (VP_RUN defaults to build/platform/vp-run)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
vp_run=${VP_RUN:-$root/build/platform/vp-run}
runs=${1:-5}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
wall() { /usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["wall_time_s"])' "$1/run.json"; }
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
printf '%-44s %12s %12s %9s %12s\n' "run" "plain_s" "checked_s" "ratio" "transactions"
while read -r cfg wl; do
  plain=(); checked=()
  for i in $(seq "$runs"); do
    "$vp_run" "$root/configs/$cfg" "$root/workloads/$wl" --quiet --out "$tmp/p" --set sim.check_tlm=false
    plain+=("$(wall "$tmp/p")")
    "$vp_run" "$root/configs/$cfg" "$root/workloads/$wl" --out "$tmp/c" --set sim.check_tlm=true > "$tmp/log"
    checked+=("$(wall "$tmp/c")")
  done
  p=$(printf '%s\n' "${plain[@]}" | median); c=$(printf '%s\n' "${checked[@]}" | median)
  n=$(sed -n 's/.*TLM-2.0 check *\([0-9]*\) transactions.*/\1/p' "$tmp/log")
  printf '%-44s %12.3f %12.3f %9.3f %12s\n' "$cfg $wl" "$p" "$c" "$(awk -v c="$c" -v p="$p" 'BEGIN {print c / p}')" "$n"
done <<'LIST'
dram-ddr3.yaml traffic/random.json
dram-ddr4.yaml traffic/mixed.json
nmp.yaml alexnet.json
vta.yaml vta/resnet20_full.json
mesh-8x8.yaml alexnet.json
LIST
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
