#!/usr/bin/env bash
# report.html of the nmp, mesh, vta and dram platforms and of a sweep folder, rendered in headless
# Chromium: no error on the page, every chart drew marks, and the figures shown equal
# stats.json (independent checker). vp-report regenerates the same page from the folder.
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
ok "mesh: NoC link chart drawn" "grep -Eq 'id=\"c-links\"[^>]*data-marks=\"[1-9]' '$tmp/mesh.dom'"
cp "$tmp/nmp/report.html" "$tmp/nmp-report.html"
rm "$tmp/nmp/report.html"
"$bin/vp-report" "$tmp/nmp" >/dev/null
ok "vp-report regenerates the same page" "cmp -s '$tmp/nmp/report.html' '$tmp/nmp-report.html'"
"$bin/vp-run-report" "$tmp/nothing" 2>"$tmp/err"
ok "vp-run-report on a folder that is no run exits 2" "[ $? -eq 2 ] && grep -q 'not a run folder' '$tmp/err'"
# A sweep folder: sweep.csv and one folder per point.
VP_RUN=$vp_run bash "$root/scripts/sweep.sh" "$root/configs/dram-ddr3.yaml" "$small" \
  --param dram.scheduler=fcfs,frfcfs --param dram.queue_depth=8,32 -j 2 --out "$tmp/sw" 2>/dev/null
"$bin/vp-report" "$tmp/sw" >/dev/null
ok "sweep: vp-report exits 0" "[ $? -eq 0 ] && [ -s '$tmp/sw/report.html' ]"
render_dom "$tmp/sw/report.html" "$tmp/sw.dom"
ok "sweep: page rendered without error" "grep -q 'data-done=\"1\"' '$tmp/sw.dom' && grep -q 'data-errors=\"\"' '$tmp/sw.dom'"
ok "sweep: one chart per parameter, all drawn" "[ \$(grep -o 'data-marks=\"[1-9][0-9]*\"' '$tmp/sw.dom' | wc -l) -eq 2 ]"
ok "sweep: the parameters are found" "grep -q 'parameters: dram.scheduler, dram.queue_depth' '$tmp/sw/report.html'"
ok "sweep: the points link their own reports" "[ \$(grep -o 'report.html\">' '$tmp/sw/report.html' | wc -l) -eq 4 ] && [ \$(find '$tmp/sw' -name report.html | wc -l) -eq 5 ]"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
