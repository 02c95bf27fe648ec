#!/usr/bin/env bash
# vp-run on the NoC-only platform: synthetic patterns run, the two stepping modes give the
# same statistics, bad NoC keys are input errors.
set -u
vp_run=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cfg=$root/configs/mesh-8x8-synthetic.yaml
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
for p in uniform transpose bit_complement hotspot; do
  "$vp_run" "$cfg" "$root/workloads/traffic/$p.json" --set traffic.rate=0.08 --out "$tmp/$p" --quiet
  ok "$p runs" "[ $? -eq 0 ] && grep -q 'flits_injected' '$tmp/$p/stats.json'"
done
for mode in active all; do
  "$vp_run" "$cfg" "$root/workloads/traffic/uniform.json" --set traffic.rate=0.15 --set noc.stepping=$mode \
    --set traffic.measure_cycles=3000 --out "$tmp/s_$mode" --quiet
done
ok "stepping all == active (statistics)" \
   "diff <(grep -v config_hash '$tmp/s_active/stats.json') <(grep -v config_hash '$tmp/s_all/stats.json') >/dev/null"
"$vp_run" "$cfg" "$root/workloads/traffic/uniform.json" --set noc.routing=diagonal --out "$tmp/x" --quiet 2>"$tmp/err"
ok "unknown routing is exit 2 and lists the known ones" "[ $? -eq 2 ] && grep -q 'known: xy' '$tmp/err'"
"$vp_run" "$cfg" "$root/workloads/traffic/uniform.json" --set noc.num_vcs=0 --out "$tmp/x" --quiet 2>"$tmp/err"
ok "zero VCs is exit 2" "[ $? -eq 2 ] && grep -q 'noc.num_vcs' '$tmp/err'"
"$vp_run" "$cfg" "$root/workloads/traffic/stream.json" --out "$tmp/x" --quiet 2>"$tmp/err"
ok "a DRAM traffic workload on the noc platform is exit 2" "[ $? -eq 2 ]"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
