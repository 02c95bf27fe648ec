#!/usr/bin/env bash
# dram.check_protocol: the independent JEDEC checker inside vp-run. It finds nothing on
# the controller's own commands (dram, nmp, vta and mesh platforms); a controller made faster
# than its speed bin (tRCD 9 instead of 10, checked against ddr3-1600) stops with exit 3
# and a message naming the rule, both commands and their times. Waveforms show the
# commands and bank states without changing any statistic.
set -u
vp_run=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }

cat > "$tmp/mix.json" <<'JSON'
{"kind": "traffic", "name": "mix", "streams": [
 {"name": "dma", "pattern": "sequential", "requests": 4000, "bytes": 64, "range": 4194304, "max_outstanding": 16, "seed": 3},
 {"name": "cpu", "pattern": "random", "requests": 4000, "bytes": 64, "read_fraction": 0.6, "base": 536870912,
  "range": 268435456, "max_outstanding": 16, "seed": 4}]}
JSON
for cfg in dram-ddr3 dram-ddr4; do
  for extra in "" "--set dram.page_policy=closed --set dram.ranks=2" "--set dram.address_mapping=row_col_bank --set dram.scheduler=fcfs"; do
    # shellcheck disable=SC2086
    "$vp_run" "$root/configs/$cfg.yaml" "$tmp/mix.json" --out "$tmp/o" --quiet --set dram.check_protocol=true $extra
    ok "$cfg $extra: no violation" "[ $? -eq 0 ]"
  done
done
"$vp_run" "$root/configs/nmp.yaml" "$root/workloads/lenet5.json" --out "$tmp/n" --quiet --set dram.check_protocol=true
ok "nmp platform: no violation" "[ $? -eq 0 ]"
"$vp_run" "$root/configs/vta.yaml" "$root/workloads/vta/matmul_16x16.json" --out "$tmp/v" --quiet --set dram.check_protocol=true
ok "vta platform: no violation" "[ $? -eq 0 ]"
"$vp_run" "$root/configs/mesh-3x1.yaml" "$root/workloads/lenet5.json" --out "$tmp/m" --quiet --set dram.check_protocol=true
ok "mesh platform: no violation" "[ $? -eq 0 ]"

err=$("$vp_run" "$root/configs/dram-ddr3.yaml" "$tmp/mix.json" --out "$tmp/bad" --quiet --set dram.check_protocol=true \
      --set dram.timing.tRCD=9 --set dram.check_preset=ddr3-1600 2>&1)
rc=$?
ok "a violation exits 3 (rc=$rc)" "[ $rc -eq 3 ]"
ok "the message names the rule and both commands with their times ($err)" \
   "[[ \"\$err\" == *'tRCD: RD (channel 0, rank 0'*'at cycle'*'is 9 tCK after ACT (channel 0, rank 0'*'requires 10 tCK'* ]]"
ok "a failed check leaves no output folder" "[ ! -e '$tmp/bad' ]"
err=$("$vp_run" "$root/configs/dram-ddr3.yaml" "$tmp/mix.json" --out "$tmp/x" --quiet --set dram.check_preset=ddr9 2>&1)
ok "an unknown check_preset exits 2" "[ $? -eq 2 ] && [[ \"\$err\" == *dram.check_preset* ]]"

# Waveforms: command, rank/bank/row and bank states, grouped in the .gtkw; no effect on statistics.
"$vp_run" "$root/configs/dram-ddr4.yaml" "$tmp/mix.json" --out "$tmp/t" --quiet --trace --set trace.end_ns=20000
ok "traced run exits 0" "[ $? -eq 0 ]"
"$vp_run" "$root/configs/dram-ddr4.yaml" "$tmp/mix.json" --out "$tmp/u" --quiet
ok "tracing changes no statistic" \
   "diff <(grep -v -e config_hash -e delta_cycles '$tmp/t/stats.json') <(grep -v -e config_hash -e delta_cycles '$tmp/u/stats.json')"
for s in cmd cmd_rank cmd_bank cmd_row cmd_column; do
  ok "the VCD declares $s" "grep -q ' $s ' '$tmp/t/trace.vcd'"
done
ok "the VCD has a scope per bank, named as the bank's statistics" \
   "grep -q 'scope module bank\[15\] ' '$tmp/t/trace.vcd' && grep -q ' state ' '$tmp/t/trace.vcd'"
ok "the command signal is shown as ASCII in the .gtkw" "grep -A1 '^@820' '$tmp/t/trace.gtkw' | grep -q 'dram.channel\[0\].cmd\['"
ok "bank states have their own group per bank" "grep -q '^-dram.channel\[0\].bank\[3\]$' '$tmp/t/trace.gtkw'"
ok "every bank signal is named like a statistic of stats.json" "/usr/bin/python3 -c '
import json, re, sys
st = json.load(open(sys.argv[1]))[\"stats\"]
names = re.findall(r\"^(dram\.channel\[\d+\]\.bank\[\d+\])\.(?:state|row)\", open(sys.argv[2]).read(), re.M)
ok = names and all(n.split(\".\")[2] in st[\"dram\"][n.split(\".\")[1]] for n in names)
sys.exit(0 if ok else 1)' '$tmp/t/stats.json' '$tmp/t/trace.gtkw'"
# "ACT" in ASCII is 0x414354 = 010000010100001101010100.
ok "ACT commands appear in the VCD" "grep -q '^b10000010100001101010100 ' '$tmp/t/trace.vcd'"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
