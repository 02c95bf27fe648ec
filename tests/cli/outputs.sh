#!/usr/bin/env bash
# End-to-end outputs of vp-run: determinism, reproducibility from OUT/config.yaml,
# the flat CSV row, traces with window and filter, atomic outputs on failure.
set -u
vp_run=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cfg=$root/configs/dram-ddr3.yaml; wl=$root/workloads/traffic/mixed.json
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }

"$vp_run" "$cfg" "$wl" --out "$tmp/a" --quiet --set dram.queue_depth=16; ok "run a exits 0" "[ $? -eq 0 ]"
"$vp_run" "$cfg" "$wl" --out "$tmp/b" --quiet --set dram.queue_depth=16; ok "run b exits 0" "[ $? -eq 0 ]"
ok "same inputs give byte-identical stats.json" "cmp -s '$tmp/a/stats.json' '$tmp/b/stats.json'"
ok "same inputs give byte-identical stats.csv" "cmp -s '$tmp/a/stats.csv' '$tmp/b/stats.csv'"
ok "the --set value is in the resolved config" "grep -q 'queue_depth: 16' '$tmp/a/config.yaml'"
# The resolved config alone reproduces the run.
(cd "$tmp" && "$vp_run" a/config.yaml "$wl" --out "$tmp/c" --quiet)
ok "OUT/config.yaml reproduces the statistics" \
   "diff <(grep -v '\"config\"' '$tmp/a/stats.json') <(grep -v '\"config\"' '$tmp/c/stats.json') >/dev/null"
ok "stats.csv is a header and one row of equal width" \
   "[ \$(wc -l < '$tmp/a/stats.csv') -eq 2 ] && [ \$(head -1 '$tmp/a/stats.csv' | tr ',' '\n' | wc -l) -eq \$(tail -1 '$tmp/a/stats.csv' | tr ',' '\n' | wc -l) ]"
ok "stats.csv has the DRAM row-hit column" "head -1 '$tmp/a/stats.csv' | grep -q 'dram.row_hits'"
ok "a different seed changes the random stream" \
   "\"$vp_run\" '$cfg' '$wl' --out '$tmp/d' --quiet --seed 99 --set dram.queue_depth=16 && ! cmp -s '$tmp/a/stats.json' '$tmp/d/stats.json'"
ok "no trace without --trace" "[ ! -e '$tmp/a/trace.vcd' ]"
# The summary's outputs line names exactly the files of the committed folder.
"$vp_run" "$cfg" "$wl" --out "$tmp/s" --set dram.queue_depth=16 > "$tmp/summary"
listed=$(sed -n 's/^  outputs *[^(]*(\(.*\))$/\1/p' "$tmp/summary" | tr -d ' ' | tr ',' '\n' | sort)
ok "the outputs line lists the folder's files" "[ -n \"\$listed\" ] && [ \"\$listed\" = \"\$(ls -A '$tmp/s' | sort)\" ]"

"$vp_run" "$cfg" "$wl" --out "$tmp/t" --quiet --trace --set 'trace.signals=[dram.*]' --set trace.start_ns=1000 --set trace.end_ns=5000
ok "traced run exits 0" "[ $? -eq 0 ]"
ok "trace.vcd has a header" "grep -q 'enddefinitions' '$tmp/t/trace.vcd'"
ok "filter keeps dram signals" "grep -q 'queue_depth' '$tmp/t/trace.vcd'"
ok "filter drops generator signals" "! grep -q 'outstanding' '$tmp/t/trace.vcd'"
ok "window: no time stamp before start" "[ \$(grep '^#' '$tmp/t/trace.vcd' | head -1) = '#1000000' ]"
ok "window: no time stamp after end" "[ \$(grep '^#' '$tmp/t/trace.vcd' | sed 's/#//' | sort -n | tail -1) -le 5000000 ]"
ok "gtkw points at the vcd and groups by module" "grep -q 'dumpfile' '$tmp/t/trace.gtkw' && grep -q '^-dram' '$tmp/t/trace.gtkw'"

# A failed run (simulated-time limit) exits 3 and leaves no output folder.
"$vp_run" "$cfg" "$wl" --out "$tmp/f" --quiet --set sim.max_time_ms=0.001 2>"$tmp/err"
ok "time limit exits 3" "[ $? -eq 3 ]"
ok "failed run leaves no OUT" "[ ! -e '$tmp/f' ] && ! ls '$tmp' | grep -q incomplete"
ok "failure is explained" "grep -q 'max_time_ms' '$tmp/err'"
# A failed run does not destroy the outputs of an earlier successful run.
cp -r "$tmp/a" "$tmp/keep"
"$vp_run" "$cfg" "$root/tests/data/bad/wl_syntax.json" --out "$tmp/keep" --quiet 2>/dev/null
ok "bad input leaves an earlier OUT untouched" "cmp -s '$tmp/a/stats.json' '$tmp/keep/stats.json'"
"$vp_run" --help | grep -q "usage: vp-run"; ok "--help" "[ $? -eq 0 ]"
"$vp_run" --version | grep -q "vp-run"; ok "--version" "[ $? -eq 0 ]"
# Every tool answers --version (exit 0, one line naming it and the project's version).
ver=$("$vp_run" --version | sed -n 's/^vp-run \([0-9][0-9.]*\) .*/\1/p')
ok "vp-run --version names a version" "[ -n '$ver' ]"
bin=$(dirname "$vp_run")
for t in vp-map vp-import vp-report vp-calibrate; do
  out=$("$bin/$t" --version); rc=$?
  ok "$t --version" "[ $rc -eq 0 ] && [ '$out' = '$t $ver' ]"
done
out=$("$bin/vp-sweep" --version --vp-run "$vp_run"); rc=$?
ok "vp-sweep --version names the vp-run it runs" "[ $rc -eq 0 ] && echo '$out' | grep -q 'vp-run $ver'"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
