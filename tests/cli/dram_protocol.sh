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
# Timing sets beyond the presets. With tRC < tRAS + tRP an ACT after an auto-precharge (closed
# page) waits tRAS + tRP from the bank's previous ACT (tRAS lockout); DDR3 names one tCCD, tRRD
# and tWTR, so different _S and _L values are refused.
"$vp_run" "$root/configs/dram-ddr3.yaml" "$tmp/mix.json" --out "$tmp/lock" --quiet --set dram.check_protocol=true \
  --set dram.page_policy=closed --set dram.timing.tRAS=35 --set dram.timing.tRP=23 --set dram.timing.CL=24
ok "tRC < tRAS + tRP, closed page: no violation" "[ $? -eq 0 ]"
err=$("$vp_run" "$root/configs/dram-ddr3.yaml" "$tmp/mix.json" --out "$tmp/s" --quiet --set dram.timing.tWTR_S=5 2>&1)
rc=$?
ok "DDR3 with tWTR_S != tWTR_L exits 2 naming both ($rc: $err)" \
   "[ $rc -eq 2 ] && [[ \"\$err\" == *'dram.timing.tWTR_L: DDR3 has one tWTR'*'got 5 and 6 (set both)'* ]]"
"$vp_run" "$root/configs/dram-ddr3.yaml" "$tmp/mix.json" --out "$tmp/s" --quiet --set dram.timing.tWTR_S=5 \
  --set dram.timing.tWTR_L=5 --set dram.check_protocol=true
ok "DDR3 with both set runs clean" "[ $? -eq 0 ]"

# A DRAM refreshes while idle: a trace whose first request comes at 100 us (12.8 tREFI) found the
# controller asleep until then, owing 12 REF commands where a rank may postpone 8.
printf '80000:\tread\t0x1000\n80010:\twrite\t0x2000\n80020:\tread\t0x2000\n' > "$tmp/late.stl"
echo '{"kind": "dram_trace", "file": "late.stl"}' > "$tmp/late.json"
"$vp_run" "$root/configs/dram-ddr3.yaml" "$tmp/late.json" --out "$tmp/late" --quiet --set dram.check_protocol=true
ok "an idle start keeps refreshing: no violation" "[ $? -eq 0 ]"
ok "12 refreshes in the first 100 us" \
   "[ \"\$(jq '.stats.dram.refreshes.value' '$tmp/late/stats.json')\" = 12 ]"
err=$("$vp_run" "$root/configs/dram-ddr3.yaml" "$tmp/late.json" --out "$tmp/late2" --quiet --set dram.check_protocol=true \
      --set dram.check_preset=ddr3-1600 --set dram.timing.tREFI=62400 2>&1)
ok "a refresh interval ten times the speed bin's owes REF commands: exit 3 naming the debt ($err)" \
   "[[ \"\$err\" == *'tREFI: REF (channel 0, rank 0) at cycle'*'owes 9 REF commands'* ]]"

# Streams that write into each other's ranges: the data a read returns depends on how the
# controller interleaves them, so each stream checks its reads outside the others' write ranges
# only, and the summary says so (before: exit 3, "read bytes differ from the data written").
cat > "$tmp/overlap.json" <<'JSON'
{"kind": "traffic", "name": "overlap", "streams": [
 {"name": "a", "pattern": "random", "requests": 3000, "bytes": 64, "read_fraction": 0.5, "base": 0, "range": 1048576, "seed": 1},
 {"name": "b", "pattern": "random", "requests": 3000, "bytes": 128, "read_fraction": 0.5, "base": 524288, "range": 1048576, "seed": 2},
 {"name": "c", "pattern": "sequential", "requests": 2000, "bytes": 64, "read_fraction": 1.0, "base": 0, "range": 2097152, "seed": 3}]}
JSON
sum=$("$vp_run" "$root/configs/dram-ddr4.yaml" "$tmp/overlap.json" --out "$tmp/ov" --set dram.check_protocol=true 2>&1)
rc=$?
ok "overlapping writing streams run (exit $rc)" "[ $rc -eq 0 ]"
ok "the summary names the streams whose check leaves ranges out" \
   "[[ \"\$sum\" == *'data check     a (inside the ranges of b, which write)'* ]] && [[ \"\$sum\" == *'c (inside the ranges of a, b, which write)'* ]]"
ok "a stream that only reads leaves nobody's range out" "! [[ \"\$sum\" == *'of c,'* || \"\$sum\" == *'of c '* || \"\$sum\" == *'b, c'* ]]"
ok "the streams read data (c reads what a and b wrote)" \
   "/usr/bin/python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))[\"stats\"][\"tgen\"]; sys.exit(0 if t[\"c\"][\"reads\"][\"value\"]==2000 and all(t[s][\"data_mismatches\"][\"value\"]==0 for s in \"abc\") else 1)' '$tmp/ov/stats.json'"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
