#!/usr/bin/env bash
# A run that fails (here the simulated-time limit) or is interrupted (SIGINT, SIGTERM) keeps what
# it simulated in DIR.partial, and DIR is not written: the statistics, the time series and the
# trace up to where it stopped, run.json and stats.json saying "failed" or "interrupted" and why.
# An interrupted run then dies by its signal (exit 130 / 143 in the shell), so that callers such as
# vp-sweep see the signal. A later complete run into DIR removes DIR.partial; a folder of that name
# that is not a run's is left alone. The checks read the files with their own scripts (the epoch
# sums by tests/cli/lib/check_outputs.py, the VCD's last time stamp, run.json's listing).
# Args: $1 = vp-run, $2 = source root.
set -u
vp_run=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chk=$root/tests/cli/lib/check_outputs.py
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
# state, error, sim_time_ns of a partial folder, and whether run.json lists exactly its files.
facts() {
  /usr/bin/python3 - "$1" <<'PY'
import json, os, sys
d = sys.argv[1]
run = json.load(open(os.path.join(d, "run.json")))
meta = json.load(open(os.path.join(d, "stats.json")))["meta"]
outputs, files = set(run.get("outputs", [])), set(os.listdir(d))
listed = files <= outputs and outputs - files <= {"report.html"}  # vp-report may add the report
same = meta.get("state") == run.get("state") and meta.get("error") == run.get("error")
print(run.get("state"), meta.get("sim_time_ns"), "listed" if listed else "unlisted", "same" if same else "differ")
print(run.get("error"))
PY
}

# 1. The time limit on the mesh, with a trace.
"$vp_run" "$root/configs/mesh-4x4.yaml" "$root/workloads/alexnet.json" --out "$tmp/a" --quiet --trace \
    --set sim.max_time_ms=0.05 2>"$tmp/err"
rc=$?
ok "time limit: exit 3 (rc=$rc)" "[ $rc -eq 3 ]"
ok "time limit: DIR is not written, DIR.partial is" "[ ! -e '$tmp/a' ] && [ -d '$tmp/a.partial' ]"
ok "time limit: no temporary folder left" "! ls '$tmp' | grep -q incomplete"
read -r state sim listed same < <(facts "$tmp/a.partial" | head -1)
error=$(facts "$tmp/a.partial" | tail -1)
ok "time limit: state failed in run.json and stats.json ($state, $same)" "[ '$state' = failed ] && [ '$same' = same ]"
ok "time limit: the error names the limit ($error)" "[[ \"\$error\" == *'sim.max_time_ms'* ]]"
ok "time limit: stopped within a slice of the limit ($sim ns)" \
   "/usr/bin/python3 -c 'import sys; t = float(sys.argv[1]); sys.exit(0 if 50000 <= t <= 60000 else 1)' '$sim'"
ok "time limit: run.json lists every file" "[ '$listed' = listed ]"
for f in stats.json stats.csv config.yaml timeseries.csv timeseries.columns.json trace.vcd trace.gtkw; do
  ok "time limit: $f kept" "[ -s '$tmp/a.partial/$f' ]"
done
ok "time limit: the epochs sum to the totals" "/usr/bin/python3 '$chk' epoch '$tmp/a.partial' >'$tmp/log' || { cat '$tmp/log'; false; }"
last=$(grep '^#' "$tmp/a.partial/trace.vcd" | tail -1 | tr -d '#')
ok "time limit: the trace ends where the run stopped (#$last ps, $sim ns)" \
   "/usr/bin/python3 -c 'import sys; sys.exit(0 if int(sys.argv[1]) == round(float(sys.argv[2]) * 1000) else 1)' '$last' '$sim'"
"$(dirname "$vp_run")/vp-report" "$tmp/a.partial" >/dev/null 2>&1
ok "time limit: vp-report makes a page of the partial folder that says so" \
   "grep -q 'Partial run (failed):.*sim.max_time_ms' '$tmp/a.partial/report.html'"
ok "time limit: the message says where the partial outputs are" \
   "grep -q 'simulation failed: simulated time exceeded' '$tmp/err' && grep -q 'partial outputs to .* us simulated (0 of 5 layers done) in $tmp/a.partial/' '$tmp/err'"

# 2. The other platforms' time limits.
for r in "nmp|$root/configs/nmp.yaml|$root/workloads/lenet5.json" \
         "vta|$root/configs/vta.yaml|$root/workloads/lenet5_full.json" \
         "dram|$root/configs/dram-ddr3.yaml|$root/workloads/traffic/random.json"; do
  IFS='|' read -r name cfg wl <<< "$r"
  "$vp_run" "$cfg" "$wl" --out "$tmp/$name" --quiet --set sim.max_time_ms=0.001 2>/dev/null
  rc=$?
  read -r state sim listed same < <(facts "$tmp/$name.partial" 2>/dev/null | head -1)
  ok "$name: exit 3 and a partial folder that says failed (rc=$rc, ${state:-none})" \
     "[ $rc -eq 3 ] && [ ! -e '$tmp/$name' ] && [ '${state:-}' = failed ] && [ '${listed:-}' = listed ]"
  ok "$name: the epochs sum to the totals" "/usr/bin/python3 '$chk' epoch '$tmp/$name.partial' >'$tmp/log' || { cat '$tmp/log'; false; }"
done

# The noc platform (synthetic traffic, no kernel): past saturation the measured packets are not
# drained, exit 3, and the statistics of the saturated network are kept.
"$vp_run" "$root/configs/mesh-8x8-synthetic.yaml" "$root/workloads/traffic/uniform.json" --out "$tmp/noc" --quiet \
    --set traffic.rate=0.9 --set traffic.drain_max_cycles=100 2>"$tmp/err"
rc=$?
read -r state sim listed same < <(facts "$tmp/noc.partial" 2>/dev/null | head -1)
ok "noc past saturation: exit 3 and a partial folder that says failed (rc=$rc, ${state:-none})" \
   "[ $rc -eq 3 ] && [ ! -e '$tmp/noc' ] && [ '${state:-}' = failed ] && grep -q 'undelivered' '$tmp/err'"
ok "noc past saturation: the epochs sum to the totals" "/usr/bin/python3 '$chk' epoch '$tmp/noc.partial' >'$tmp/log' || { cat '$tmp/log'; false; }"

# 3. SIGINT and SIGTERM during a long DRAM run (no mapper: the simulation starts at once).
cat > "$tmp/long.json" <<'JSON'
{"kind": "traffic", "name": "long", "streams": [
  {"name": "a", "pattern": "random", "requests": 100000000, "read_fraction": 0.7, "range": 1048576}]}
JSON
# (The noc platform's synthetic run has no SystemC kernel: the signal is looked at once per NoC cycle.)
cat > "$tmp/long_noc.json" <<'JSON'
{"kind": "noc_traffic", "name": "long", "pattern": "uniform", "rate": 0.1, "measure_cycles": 100000000}
JSON
for sig in INT TERM NOC; do
  if [ "$sig" = NOC ]; then
    sig=INT; dir=sNOC; run=("$root/configs/mesh-8x8-synthetic.yaml" "$tmp/long_noc.json")
  else
    dir=s$sig; run=("$root/configs/dram-ddr3.yaml" "$tmp/long.json")
  fi
  # vp-run runs in the foreground (a background job of a script ignores SIGINT, and vp-run keeps
  # a signal its parent ignores ignored); a watcher sends the signal once timeseries.csv has rows:
  # a fixed epoch streams it while the run goes on, i.e. once the simulation loop (where the
  # signals are handled) runs.
  rm -f "$tmp/pid"
  (
    for _ in $(seq 300); do
      [ -s "$tmp/pid" ] && [ -n "$(find "$tmp" -path "*$dir.incomplete-*/timeseries.csv" -size +8k 2>/dev/null)" ] && break
      sleep 0.1
    done
    kill -"$sig" "$(cat "$tmp/pid")"
  ) &
  watcher=$!
  bash -c 'echo $$ > "$1"; shift; exec "$@"' _ "$tmp/pid" "$vp_run" "${run[@]}" --out "$tmp/$dir" --quiet \
      --set stats.epoch=1us 2>"$tmp/err$dir"
  rc=$?
  wait "$watcher"
  want=$([ "$sig" = INT ] && echo 130 || echo 143)
  ok "$dir SIG$sig: the process dies by the signal (rc=$rc)" "[ $rc -eq $want ]"
  read -r state sim listed same < <(facts "$tmp/$dir.partial" 2>/dev/null | head -1)
  error=$(facts "$tmp/$dir.partial" 2>/dev/null | tail -1)
  ok "$dir SIG$sig: DIR not written, DIR.partial says interrupted ($state, $error)" \
     "[ ! -e '$tmp/$dir' ] && [ '${state:-}' = interrupted ] && [ '$error' = 'interrupted by SIG$sig' ] && [ '${listed:-}' = listed ]"
  ok "$dir SIG$sig: some simulated time kept (${sim:-none} ns)" \
     "/usr/bin/python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) > 0 else 1)' '${sim:-0}'"
  ok "$dir SIG$sig: the epochs sum to the totals" "/usr/bin/python3 '$chk' epoch '$tmp/$dir.partial' >'$tmp/log' || { cat '$tmp/log'; false; }"
  ok "$dir SIG$sig: the message" "grep -q 'interrupted by SIG$sig' '$tmp/err$dir' && grep -q 'in $tmp/$dir.partial/' '$tmp/err$dir'"
done
ok "no temporary folder left after the signals" "! ls '$tmp' | grep -q incomplete"

# 4. A complete run into DIR removes the DIR.partial of an earlier failure.
"$vp_run" "$root/configs/mesh-4x4.yaml" "$root/workloads/lenet5.json" --out "$tmp/a" --quiet
ok "a complete run writes DIR and removes DIR.partial" "[ \$? -eq 0 ] && [ -f '$tmp/a/stats.json' ] && [ ! -e '$tmp/a.partial' ]"

# 5. A folder named DIR.partial that is not a run's is left alone, and the failure still reported.
mkdir -p "$tmp/f.partial" && echo mine > "$tmp/f.partial/notes.txt"
"$vp_run" "$root/configs/mesh-4x4.yaml" "$root/workloads/alexnet.json" --out "$tmp/f" --quiet \
    --set sim.max_time_ms=0.01 2>"$tmp/err"
rc=$?
ok "a foreign DIR.partial: exit 3, its file intact, nothing else written (rc=$rc)" \
   "[ $rc -eq 3 ] && [ \"\$(ls '$tmp/f.partial')\" = notes.txt ] && [ ! -e '$tmp/f' ] && ! ls '$tmp' | grep -q incomplete"
ok "a foreign DIR.partial: the warning names it" "grep -q 'not kept: --out $tmp/f.partial: exists and is not a vp-run output folder' '$tmp/err'"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
