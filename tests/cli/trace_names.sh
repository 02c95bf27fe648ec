#!/usr/bin/env bash
# Waveforms: one name per signal in stats.json, the VCD and the .gtkw; a windowed trace ends
# with a single time stamp; a filter that matches nothing is a warning (an error with --strict);
# the .gtkw opens on the first layer; optional FST output. And a traffic stream may be named
# like a module ("dram") without clashing with the controller's statistics.
set -u
vp_run=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
"$vp_run" "$root/configs/mesh-3x1.yaml" "$root/workloads/lenet5.json" --out "$tmp/m" --quiet --trace
ok "mesh traced run exits 0" "[ $? -eq 0 ]"
# Every VCD signal's module is a statistics group of stats.json, under the same name.
/usr/bin/python3 - "$tmp/m" > "$tmp/names.log" <<'PY'
import json, sys
out = sys.argv[1]
stats = json.load(open(out + "/stats.json"))["stats"]
scopes, names = [], []
for line in open(out + "/trace.vcd"):
    t = line.split()
    if not t: continue
    if t[0] == "$scope": scopes.append(t[2])
    elif t[0] == "$upscope": scopes.pop()
    elif t[0] == "$var": names.append(".".join(scopes + [t[4]]))
    elif t[0] == "$enddefinitions": break
bad = []
for n in names:
    node = stats
    for p in n.split(".")[:-1]:
        node = node.get(p) if isinstance(node, dict) else None
        if node is None: break
    if node is None: bad.append(n)
gtkw = open(out + "/trace.gtkw").read()
missing = [n for n in names if n not in gtkw]
print(len(names), "signals;", "not in stats.json:", bad[:5], "not in .gtkw:", missing[:5])
sys.exit(1 if bad or missing or not names else 0)
PY
ok "VCD names are statistics groups and appear in the .gtkw ($(cat "$tmp/names.log"))" "[ $? -eq 0 ]"
ok "router scopes keep their brackets" "grep -q '^\$scope module router\[0\]\[0\] \$end' '$tmp/m/trace.vcd'"
ok "core state signal named as its statistic" "grep -q 'mesh.core\[.*\].state' '$tmp/m/trace.gtkw' && grep -q '\"core\[' '$tmp/m/stats.json'"
ok ".gtkw opens on the first layer, not the whole run" \
   "z=\$(grep -o '^\*-[0-9]*' '$tmp/m/trace.gtkw' | tr -d '*-'); [ -n \"\$z\" ] && [ \"\$z\" -ge 20 ]"
"$vp_run" "$root/configs/dram-ddr3.yaml" "$root/workloads/traffic/mixed.json" --out "$tmp/w" --quiet --trace \
  --set trace.start_ns=1000 --set trace.end_ns=3000
ok "windowed run exits 0" "[ $? -eq 0 ]"
ok "no time stamp written twice" "[ -z \"\$(grep '^#' '$tmp/w/trace.vcd' | uniq -d)\" ]"
ok "the window ends at its end" "[ \$(grep '^#' '$tmp/w/trace.vcd' | tail -1) = '#3000000' ]"
"$vp_run" "$root/configs/dram-ddr3.yaml" "$root/workloads/traffic/stream.json" --out "$tmp/f" --quiet --trace \
  --set 'trace.signals=[nosuch.*]' 2>"$tmp/err"
ok "a filter matching nothing: exit 0 with a warning naming the pattern" "[ $? -eq 0 ] && grep -q 'warning: .*nosuch' '$tmp/err'"
"$vp_run" "$root/configs/dram-ddr3.yaml" "$root/workloads/traffic/stream.json" --out "$tmp/g" --quiet --trace --strict \
  --set 'trace.signals=[nosuch.*]' 2>"$tmp/err"
ok "... and exit 2 under --strict" "[ $? -eq 2 ] && grep -q 'trace.signals' '$tmp/err' && [ ! -e '$tmp/g' ]"
if command -v vcd2fst >/dev/null; then
  "$vp_run" "$root/configs/mesh-3x1.yaml" "$root/workloads/lenet5.json" --out "$tmp/fst" --quiet --trace --set trace.format=fst
  ok "FST output replaces the VCD and the .gtkw opens it" \
     "[ $? -eq 0 ] && [ -s '$tmp/fst/trace.fst' ] && [ ! -e '$tmp/fst/trace.vcd' ] && grep -q 'trace.fst' '$tmp/fst/trace.gtkw'"
  ok "FST is smaller than the VCD" "[ \$(stat -c %s '$tmp/fst/trace.fst') -lt \$(stat -c %s '$tmp/m/trace.vcd') ]"
fi
# Statistics name clash: a stream named like the controller.
cat > "$tmp/clash.json" <<'JSON'
{"kind": "traffic", "name": "clash", "streams": [
  {"name": "dram", "pattern": "random", "requests": 2000, "range": 1048576}]}
JSON
"$vp_run" "$root/configs/dram-ddr3.yaml" "$tmp/clash.json" --out "$tmp/c" >"$tmp/out" 2>"$tmp/err"
ok "a stream named dram runs (exit 0, no SystemC warning)" "[ $? -eq 0 ] && ! grep -q 'W505\|Warning' '$tmp/err'"
ok "its statistics and the controller's are both there" \
   "/usr/bin/python3 -c \"import json; s=json.load(open('$tmp/c/stats.json'))['stats']; assert s['tgen']['dram']['reads']['value'] + s['tgen']['dram']['writes']['value'] == 2000; assert s['dram']['reads']['value'] + s['dram']['writes']['value'] == 2000\""
ok "the summary was printed" "grep -q 'outputs' '$tmp/out'"
sed 's/"name": "dram"/"name": "a.b"/' "$tmp/clash.json" > "$tmp/dot.json"
"$vp_run" "$root/configs/dram-ddr3.yaml" "$tmp/dot.json" --out "$tmp/d" --quiet 2>"$tmp/err"
ok "a stream name that is no identifier exits 2 naming the key" "[ $? -eq 2 ] && grep -q '/streams/0/name' '$tmp/err' && [ ! -e '$tmp/d' ]"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
