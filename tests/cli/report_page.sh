#!/usr/bin/env bash
# report.html of the nmp, mesh, vta and dram platforms and of a sweep folder, rendered in headless
# Chromium: no error on the page, every chart drew marks, and the figures shown equal
# stats.json (independent checker; for the sweep, each point's own stats.json, and the Pareto
# front by sort and scan). vp-report regenerates the same page from the folder.
set -u
vp_run=$1; root=$2; bin=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chk=$root/tests/cli/lib/check_outputs.py
. "$root/tests/cli/lib/browser.sh"
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
ok "headless chromium is installed (scripts/setup.sh)" "[ -n \"\$(chromium_bin)\" ]"
small=$tmp/small.json
cat > "$small" <<'JSON'
{"kind": "traffic", "name": "small", "streams": [
  {"name": "s", "pattern": "random", "requests": 2000, "read_fraction": 0.7, "range": 1048576}]}
JSON
for r in "nmp|$root/configs/nmp.yaml|$root/workloads/lenet5.json" "mesh|$root/configs/mesh-3x1.yaml|$root/workloads/lenet5.json" \
         "vta|$root/configs/vta.yaml|$root/workloads/lenet5_full.json" "dram|$root/configs/dram-ddr3.yaml|$small"; do
  IFS='|' read -r name cfg wl <<< "$r"
  "$vp_run" "$cfg" "$wl" --out "$tmp/$name" --quiet
  ok "$name: run exits 0" "[ $? -eq 0 ]"
  ok "$name: report.html is self-contained (no external script or stylesheet)" \
     "! grep -Eq '<script[^>]+src=|<link[^>]+href=' '$tmp/$name/report.html'"
  render_dom "$tmp/$name/report.html" "$tmp/$name.dom"
  ok "$name: the rendered page checks" "/usr/bin/python3 '$chk' report '$tmp/$name.dom' '$tmp/$name' >'$tmp/log' || { cat '$tmp/log'; false; }"
done
ok "mesh: bottlenecks in words name a router or the DRAM" "grep -Eq 'credit-stalled|DRAM data bus is busy' '$tmp/mesh/report.html'"
for name in nmp mesh vta; do  # the trust record of mapping.json, its worst layer named
  ok "$name: the summary gives the estimate's trust and its worst layer" \
     "grep -Eq 'estimate vs simulation, \|sim/est - 1\| over [0-9]+ layers</td><td class=\"num\">median [0-9.]+ %, worst [0-9.]+ % \([^,]+, simulated (slower|faster) than estimated\)' '$tmp/$name/report.html'"
done
# Random traffic is limited by the activation window (tFAW, tRRD) before the data bus: the words
# say so, with the share stats.json's activation_utilisation gives (activates x interval / tCK).
ok "dram: the bottlenecks name the activation limit, at stats.json's activation_utilisation" \
   "/usr/bin/python3 - '$tmp/dram' <<'PY'
import json, re, sys
d = sys.argv[1]
u = json.load(open(d + '/stats.json'))['stats']['dram']['activation_utilisation']['value']
m = re.search(r'DRAM row activations use (\\d+) % of the rate tFAW and tRRD allow', open(d + '/report.html').read())
sys.exit(0 if m and abs(int(m.group(1)) - 100 * u) <= 1 and 0.5 < u <= 1 else 1)
PY"
ok "dram: no trust row without a mapping" "! grep -q 'estimate vs simulation, ' '$tmp/dram/report.html'"
ok "mesh: NoC link chart drawn" "grep -Eq 'id=\"c-links\"[^>]*data-marks=\"[1-9]' '$tmp/mesh.dom'"
cp "$tmp/nmp/report.html" "$tmp/nmp-report.html"
rm "$tmp/nmp/report.html"
"$bin/vp-report" "$tmp/nmp" 2>/dev/null
ok "vp-report regenerates the same page" "cmp -s '$tmp/nmp/report.html' '$tmp/nmp-report.html'"
"$bin/vp-report" "$tmp/nothing" 2>"$tmp/err"
ok "vp-report on a folder that is no run exits 2" "[ $? -eq 2 ] && grep -q 'not a run folder' '$tmp/err'"
# A sweep folder: sweep.csv and one folder per point. Under a 30 us limit the two FCFS points
# (about 56 us) stop with exit 3 and the FR-FCFS ones (under 20 us) finish.
VP_RUN=$vp_run bash "$root/scripts/sweep.sh" "$root/configs/dram-ddr3.yaml" "$small" \
  --param dram.scheduler=fcfs,frfcfs --param dram.queue_depth=8,32 --param sim.max_time_ms=0,0.03 -j 2 \
  --out "$tmp/sw" 2>/dev/null
"$bin/vp-report" "$tmp/sw" --pareto sim_time_ns,max:dram.bandwidth 2>"$tmp/sw.log"
ok "sweep: vp-report exits 0" "[ $? -eq 0 ] && [ -s '$tmp/sw/report.html' ] && [ -s '$tmp/sw/pareto.csv' ]"
ok "sweep: report.html is self-contained" "! grep -Eq '<script[^>]+src=|<link[^>]+href=' '$tmp/sw/report.html'"
render_dom "$tmp/sw/report.html" "$tmp/sw.dom"
ok "sweep: the rendered page checks (charts, figures, unfinished points, Pareto front)" \
   "/usr/bin/python3 '$chk' sweep '$tmp/sw.dom' '$tmp/sw' sim_time_ns,max:dram.bandwidth >'$tmp/log' || { cat '$tmp/log'; false; }"
ok "sweep: two points did not finish" "grep -q '8 points: 6 done, 2 failed' '$tmp/sw/report.html' && [ \$(grep -c '<tr data-point=' '$tmp/sw/report.html') -eq 2 ]"
ok "sweep: the swept parameters are named" "grep -q 'Swept: dram.scheduler, dram.queue_depth, sim.max_time_ms' '$tmp/sw/report.html'"
ok "sweep: the done points link their own reports, the 2 failed ones a report of their partial outputs" \
   "[ \$(grep -o 'run/report.html\">' '$tmp/sw/report.html' | wc -l) -eq 6 ] && [ \$(find '$tmp/sw' -path '*/run/report.html' | wc -l) -eq 6 ] && [ \$(grep -o 'run.partial/report.html\">' '$tmp/sw/report.html' | wc -l) -eq 2 ] && [ \$(find '$tmp/sw' -path '*/run.partial/report.html' | wc -l) -eq 2 ] && [ -s '$tmp/sw/report.html' ]"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
