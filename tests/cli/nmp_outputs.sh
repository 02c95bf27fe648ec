#!/usr/bin/env bash
# NMP platform end to end: deterministic outputs (two runs give byte-identical stats.json,
# 1 or 2 mapper threads give the same statistics), simulated MACs == the workload's (computed
# here from the layer shapes), the per-layer estimate/simulation report, and --trace writing
# the TLT state / DMA in-flight signals and a .gtkw grouping them per TLE.
set -u
vp_run=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cfg=$root/configs/nmp.yaml
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
col() {  # col FILE.csv NAME: value of column NAME of the one data row
  awk -F, -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i } NR == 2 && c { print $c }' "$1"
}
out_size() { echo $(( ($1 + 2 * $2 - $3) / $4 + 1 )); }  # (H + 2 pad - R) / stride + 1

# A workload with padding, stride 2, a grouped conv and an fc layer; MACs from the shapes.
cat > "$tmp/net.json" <<'JSON'
{"name": "nmp_cli", "precision": 16, "layers": [
  {"name": "c1", "type": "conv", "C": 3, "K": 24, "H": 30, "W": 26, "R": 3, "S": 3, "stride": 1, "pad": 1},
  {"name": "c2", "type": "conv", "C": 24, "K": 40, "H": 30, "W": 26, "R": 5, "S": 5, "stride": 2, "pad": 2},
  {"name": "pool", "type": "pool", "op": "max", "C": 40, "H": 15, "W": 13, "R": 2, "S": 2, "stride": 2},
  {"name": "g4", "type": "conv", "C": 40, "K": 40, "H": 7, "W": 6, "R": 3, "S": 3, "pad": 1, "groups": 4},
  {"name": "fc", "type": "fc", "in": 1680, "out": 100}]}
JSON
m1=$(( 24 * 3 * 9 * $(out_size 30 1 3 1) * $(out_size 26 1 3 1) ))
m2=$(( 40 * 24 * 25 * $(out_size 30 2 5 2) * $(out_size 26 2 5 2) ))
m3=$(( 40 * (40 / 4) * 9 * $(out_size 7 1 3 1) * $(out_size 6 1 3 1) ))
m4=$(( 1680 * 100 ))
want=$(( m1 + m2 + m3 + m4 ))

"$vp_run" "$cfg" "$tmp/net.json" --out "$tmp/a" --quiet; ok "run a exits 0" "[ $? -eq 0 ]"
"$vp_run" "$cfg" "$tmp/net.json" --out "$tmp/b" --quiet; ok "run b exits 0" "[ $? -eq 0 ]"
ok "two runs give byte-identical stats.json" "cmp -s '$tmp/a/stats.json' '$tmp/b/stats.json'"
ok "two runs give byte-identical mapping.json" "cmp -s '$tmp/a/mapping.json' '$tmp/b/mapping.json'"
ok "nmp.macs ($(col "$tmp/a/stats.csv" nmp.macs)) == workload MACs from the shapes ($want)" \
   "[ '$(col "$tmp/a/stats.csv" nmp.macs)' = '$want' ]"
ok "4 conv/fc layers simulated (pool is not an NMP layer)" "[ '$(col "$tmp/a/stats.csv" nmp.layers)' = 4 ]"
ok "per-layer simulated/estimated report in mapping.json" \
   "[ \$(grep -c '\"simulated_over_estimated\"' '$tmp/a/mapping.json') -eq 4 ]"
# Mapper threads change nothing but the resolved config (and so its hash).
"$vp_run" "$cfg" "$tmp/net.json" --out "$tmp/c" --quiet --set sim.threads=1
ok "sim.threads=1 and 2 give the same statistics" \
   "diff <(cut -d, -f3 --complement '$tmp/a/stats.csv') <(cut -d, -f3 --complement '$tmp/c/stats.csv') >/dev/null"

# A real network: LeNet-5 (C1: 6x1x5x5 on 28x28, C3: 16x6x5x5 on 10x10 = 357,600 MACs).
"$vp_run" "$cfg" "$root/workloads/lenet5.json" --out "$tmp/l" --quiet
ok "lenet5: nmp.macs == 357600" "[ '$(col "$tmp/l/stats.csv" nmp.macs)' = 357600 ]"
"$vp_run" "$cfg" "$root/workloads/lenet5.json" --out "$tmp/t" --quiet --trace
ok "traced run exits 0" "[ $? -eq 0 ]"
ok "tracing does not change the statistics" \
   "diff <(cut -d, -f3 --complement '$tmp/l/stats.csv') <(cut -d, -f3 --complement '$tmp/t/stats.csv') >/dev/null"
vcd=$tmp/t/trace.vcd; gtkw=$tmp/t/trace.gtkw
ok "VCD has 32 TLT state signals (2 bit)" "[ \$(grep -c '^\$var wire 2 .* state ' '$vcd') -eq 32 ]"
ok "VCD has 4 DMA in_flight signals under tle[i].dma" \
   "[ \$(grep -A1 '^\$scope module dma ' '$vcd' | grep -c 'in_flight') -eq 4 ]"
ok "VCD has nmp.layer" "grep -q '^\$var wire 16 .* layer ' '$vcd'"
ok "TLT states take the values load, compute and store" \
   "grep -q '^b1 ' '$vcd' && grep -q '^b10 ' '$vcd' && grep -q '^b11 ' '$vcd'"
ok "gtkw opens trace.vcd" "grep -q '^\[dumpfile\] \"trace.vcd\"' '$gtkw'"
ok "gtkw groups each TLE's DMA and TLT states" \
   "awk '/^-nmp.tle\[3\]\$/ { g = !g; next } g && /^nmp.tle\[3\]/ { n++ } END { exit !(n == 9) }' '$gtkw'"
ok "gtkw lists every VCD signal" \
   "[ \$(grep -c '^\$var' '$vcd') -eq \$(grep -cE '^(dram|nmp)\\.' '$gtkw') ]"
"$vp_run" "$cfg" "$root/workloads/lenet5.json" --out "$tmp/f" --quiet --trace --set 'trace.signals=["nmp.tle[1].*"]'
ok "signal filter keeps only TLE 1 (8 states + DMA)" "[ \$(grep -c '^\$var' '$tmp/f/trace.vcd') -eq 9 ]"
ok "filtered gtkw has one group" "[ \$(grep -c '^@800200' '$tmp/f/trace.gtkw') -eq 1 ]"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
