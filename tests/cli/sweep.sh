#!/usr/bin/env bash
# vp-sweep with the local backend (and GNU parallel when installed): points named by their
# parameters (a reordered value list files nothing under the wrong values), counts and exit
# codes, --retry-failed, the point timeout, an interrupted sweep and its resume, a list-valued
# key, ranges, zips and sweep files, and the refusal of keys the platform does not read.
# Results are checked against direct vp-run runs with the same --set values.
set -u
vp_run=$1; root=$2; bin=$3
sweep=$bin/vp-sweep
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
cd "$root"
cfg=configs/dram-ddr3.yaml
cat > "$tmp/small.json" <<'JSON'
{"kind": "traffic", "name": "small", "streams": [
  {"name": "s", "pattern": "random", "requests": 1500, "read_fraction": 0.7, "range": 1048576}]}
JSON
# Runs for minutes: only ever ended by --point-timeout or a signal.
cat > "$tmp/endless.json" <<'JSON'
{"kind": "traffic", "name": "endless", "streams": [
  {"name": "s", "pattern": "random", "requests": 100000000, "read_fraction": 0.7, "range": 1048576}]}
JSON
wl=$tmp/small.json
. "$root/tests/cli/lib/sweep_csv.sh"
direct() {  # direct OUT --set k=v...: vp-run without vp-sweep; prints its sim_time_ns
  local out=$1; shift
  "$vp_run" "$cfg" "$wl" --out "$out" --quiet "$@" && col "$out/stats.csv" sim_time_ns platform dram
}

# 1. Values reordered: the rerun finds every point done, and each row holds its own results.
"$sweep" "$cfg" "$wl" --param dram.scheduler=fcfs,frfcfs --param dram.queue_depth=8,16 -j 2 --out "$tmp/a" 2>"$tmp/a.log"
ok "sweep a exits 0" "[ $? -eq 0 ]"
ok "sweep a: points.csv and sweep.csv have 4 points" "[ \$(wc -l < '$tmp/a/points.csv') -eq 5 ] && [ \$(wc -l < '$tmp/a/sweep.csv') -eq 5 ]"
ok "point folders are named by the id of points.csv" \
   "for id in \$(tail -n +2 '$tmp/a/points.csv' | cut -d, -f1); do [ -f '$tmp/a/points/'\$id/run/stats.csv ] || exit 1; done"
"$sweep" "$cfg" "$wl" --param dram.scheduler=frfcfs,fcfs --param dram.queue_depth=16,8 -j 2 --out "$tmp/a" 2>"$tmp/a2.log"
ok "reordered rerun exits 0" "[ $? -eq 0 ]"
ok "reordered rerun runs nothing" "grep -q '(0 run now, 4 skipped)' '$tmp/a2.log'"
for s in fcfs frfcfs; do
  want=$(direct "$tmp/d-$s" --set dram.scheduler=$s --set dram.queue_depth=8)
  got=$(/usr/bin/python3 -c 'import csv, sys
print([r["sim_time_ns"] for r in csv.DictReader(open(sys.argv[1])) if r["dram.scheduler"] == sys.argv[2] and r["dram.queue_depth"] == "8"][0])' "$tmp/a/sweep.csv" $s)
  ok "scheduler=$s row holds the $s results ($got = direct $want)" "[ -n '$want' ] && [ '$got' = '$want' ]"
done
ok "the two schedulers give different results (the check above can fail)" \
   "[ \"\$(direct '$tmp/d1' --set dram.scheduler=fcfs)\" != \"\$(direct '$tmp/d2' --set dram.scheduler=frfcfs)\" ]"
cp "$tmp/a/sweep.csv" "$tmp/a.csv"
"$sweep" merge "$tmp/a" 2>"$tmp/merge.log"
ok "vp-sweep merge rewrites the same sweep.csv and exits 0" "[ $? -eq 0 ] && cmp -s '$tmp/a.csv' '$tmp/a/sweep.csv'"
ok "... and prints the counts" "grep -q '4 points: 4 done, 0 failed, 0 timed out, 0 killed, 0 not run' '$tmp/merge.log'"

# 2. Counts and exit codes: failed points, their rerun only with --retry-failed.
"$sweep" "$cfg" "$wl" --param dram.queue_depth=4:16:x2 --param sim.max_time_ms=0.005,0 -j 2 --out "$tmp/b" 2>"$tmp/b.log"
ok "a sweep with failed points exits 3" "[ $? -eq 3 ]"
ok "the range 4:16:x2 gives 4, 8, 16" "[ \"\$(tail -n +2 '$tmp/b/points.csv' | cut -d, -f4 | sort -un | tr '\n' ' ')\" = '4 8 16 ' ]"
ok "summary: 3 done, 3 failed" "grep -q '6 points: 3 done, 3 failed, 0 timed out, 0 killed, 0 not run' '$tmp/b.log'"
ok "failed rows: state failed, exit code 3, the error" \
   "[ \$(grep -c ',failed,3,simulation failed: simulated time exceeded sim.max_time_ms' '$tmp/b/sweep.csv') -eq 3 ]"
ok "failed rows have no statistics" "[ -z \"\$(col '$tmp/b/sweep.csv' sim_time_ns state failed | tr -d '\n')\" ]"
# A failed point keeps what it simulated in run.partial (vp-run's DIR.partial); the sweep's report
# links a page of it for each point that did not finish.
ok "each failed point has a run.partial that says failed" \
   "[ \$(grep -l '\"state\": \"failed\"' '$tmp'/b/points/*/run.partial/run.json | wc -l) -eq 3 ]"
"$bin/vp-report" "$tmp/b" 2>/dev/null
ok "the sweep report links the 3 partial reports, each marked partial" \
   "[ \$(grep -o 'run.partial/report.html\">partial report' '$tmp/b/report.html' | wc -l) -eq 3 ] && [ \$(grep -l 'Partial run (failed)' '$tmp'/b/points/*/run.partial/report.html | wc -l) -eq 3 ]"
"$sweep" "$cfg" "$wl" --param dram.queue_depth=4:16:x2 --param sim.max_time_ms=0.005,0 -j 2 --out "$tmp/b" 2>"$tmp/b2.log"
ok "rerun without --retry-failed exits 3 and runs nothing" "[ $? -eq 3 ] && grep -q '(0 run now, 6 skipped)' '$tmp/b2.log'"
"$sweep" "$cfg" "$wl" --param dram.queue_depth=4:16:x2 --param sim.max_time_ms=0.005,0 -j 2 --out "$tmp/b" --retry-failed 2>"$tmp/b3.log"
ok "--retry-failed reruns the 3 failed points only" "grep -q '(3 run now, 3 skipped)' '$tmp/b3.log'"

# 3. Point timeout: the endless point is killed and recorded as timed out; the others finish.
"$sweep" "$cfg" --param workload="$wl,$tmp/endless.json" --point-timeout 1 -j 2 --out "$tmp/c" 2>"$tmp/c.log"
ok "a timed-out point makes the sweep exit 3" "[ $? -eq 3 ]"
ok "summary: 1 done, 1 timed out" "grep -q '2 points: 1 done, 0 failed, 1 timed out' '$tmp/c.log'"
ok "its row says timeout and why" "grep -q 'endless.json,timeout,,exceeded --point-timeout 1 s' '$tmp/c/sweep.csv'"
ok "no vp-run of the sweep is left running" "! running_with '$tmp/c/points'"

# 4. An interrupted sweep: the running point is recorded as killed, the others as not run;
#    the resumed sweep runs exactly those.
"$sweep" "$cfg" --param workload="$tmp/endless.json,$wl" --param dram.queue_depth=8,16 -j 1 --out "$tmp/k" 2>"$tmp/k.log" &
pid=$!
for i in $(seq 100); do ls "$tmp"/k/points/*/started.json >/dev/null 2>&1 && break; sleep 0.1; done
sleep 0.3
kill -TERM $pid; wait $pid; rc=$?
ok "SIGTERM ends the sweep with 128+15" "[ $rc -eq 143 ]"
ok "the running point is recorded as killed, the 3 others as not run" \
   "[ \$(grep -c ',killed,,' '$tmp/k/sweep.csv') -eq 1 ] && [ \$(grep -c ',not run,,' '$tmp/k/sweep.csv') -eq 3 ]"
ok "no vp-run of the sweep is left running" "! running_with '$tmp/k/points'"
"$sweep" "$cfg" --param workload="$tmp/endless.json,$wl" --param dram.queue_depth=8,16 -j 2 --point-timeout 1 \
  --out "$tmp/k" 2>"$tmp/k2.log"
ok "the resumed sweep runs the 4 unfinished points" "grep -q '4 points, 4 to run, 0 skipped' '$tmp/k2.log'"
ok "... and ends with 2 done, 2 timed out" "grep -q '4 points: 2 done, 0 failed, 2 timed out, 0 killed, 0 not run' '$tmp/k2.log'"

# 5. A list-valued key: each bracketed value is one point, passed whole to --set.
mcfg=configs/mesh-3x1.yaml; mwl=workloads/lenet5.json
"$sweep" "$mcfg" "$mwl" --set mesh.width=4 --param 'mesh.cores=[[2,0]],[[3,0]]' -j 2 --out "$tmp/l" 2>"$tmp/l.log"
ok "list-valued sweep exits 0" "[ $? -eq 0 ]"
for v in '[[2,0]]' '[[3,0]]'; do
  "$vp_run" "$mcfg" "$mwl" --out "$tmp/l-direct" --quiet --set mesh.width=4 --set "mesh.cores=$v"
  want=$(col "$tmp/l-direct/stats.csv" sim_time_ns platform mesh)
  ok "mesh.cores=$v row equals a direct run ($want)" "[ -n '$want' ] && [ \"\$(col '$tmp/l/sweep.csv' sim_time_ns mesh.cores '$v')\" = '$want' ]"
done
ok "the two core placements differ (the check above can fail)" \
   "[ \"\$(col '$tmp/l/sweep.csv' sim_time_ns mesh.cores '[[2,0]]')\" != \"\$(col '$tmp/l/sweep.csv' sim_time_ns mesh.cores '[[3,0]]')\" ]"

# 6. A key the platform does not read is refused before anything runs; --allow-unused runs it.
err=$("$sweep" "$cfg" "$wl" --param nmp.n_tle=2,4 --out "$tmp/u" 2>&1); rc=$?
ok "--param nmp.n_tle on a dram config exits 2" "[ $rc -eq 2 ]"
ok "... naming the platform and what it reads" "[[ \"\$err\" == *'nmp.n_tle'*'the dram platform'*'it reads: platform, name, sim, stats, trace, seed, dram'* ]]"
ok "... runs nothing and leaves no folder" "[ ! -e '$tmp/u' ]"
err=$("$sweep" "$cfg" "$wl" --set nmp.n_tle=2 --param dram.queue_depth=8 --out "$tmp/u" 2>&1); rc=$?
ok "--set nmp.n_tle on a dram config exits 2 too" "[ $rc -eq 2 ] && [[ \"\$err\" == *'does not read'* ]]"
"$sweep" "$cfg" "$wl" --param nmp.n_tle=2,4 --allow-unused --out "$tmp/u" 2>/dev/null
ok "--allow-unused runs it, with identical results" \
   "[ $? -eq 0 ] && [ \$(col '$tmp/u/sweep.csv' sim_time_ns state done | wc -l) -eq 2 ] && [ \$(col '$tmp/u/sweep.csv' sim_time_ns state done | sort -u | wc -l) -eq 1 ]"

# 7. Zips and sweep files describe the same points as the command line (same ids).
"$sweep" "$cfg" "$wl" --zip dram.queue_depth=8,16 dram.scheduler=fcfs,frfcfs --dry-run > "$tmp/zip.txt" 2>/dev/null
ok "a zip of two 2-value keys gives 2 points" "[ \$(wc -l < '$tmp/zip.txt') -eq 2 ]"
cat > "$tmp/sweep.yaml" <<YAML
config: $cfg
workload: $wl
params:
  dram.scheduler: [fcfs, frfcfs]
  dram.queue_depth: "8,16"
YAML
"$sweep" --file "$tmp/sweep.yaml" --dry-run 2>/dev/null | cut -c1-16 | sort > "$tmp/file.ids"
tail -n +2 "$tmp/a/points.csv" | cut -d, -f1 | sort > "$tmp/cli.ids"
ok "a sweep file gives the ids of the equivalent command line" "[ -s '$tmp/file.ids' ] && cmp -s '$tmp/file.ids' '$tmp/cli.ids'"

# 8. Bad sweep input: exit 2, a message, nothing run.
bad() {
  local name=$1 want=$2; shift 2
  local err rc
  rm -rf "$tmp/bad"  # a check that fails (runs the sweep) does not fail the next ones
  err=$("$sweep" "$@" --out "$tmp/bad" 2>&1); rc=$?
  ok "bad input: $name" "[ $rc -eq 2 ] && [[ \"\$err\" == *'$want'* ]] && [[ \"\$err\" != *Traceback* ]] && [ ! -e '$tmp/bad/points' ]"
}
bad "reversed geometric range" "geometric range" "$cfg" "$wl" --param dram.queue_depth=16:1:x2
bad "unbalanced brackets" "unbalanced" "$cfg" "$wl" --param 'mesh.cores=[[2,0]'
bad "a key given twice" "more than once" "$cfg" "$wl" --param dram.queue_depth=8 --set dram.queue_depth=4
bad "missing config" "no such file" configs/nope.yaml "$wl" --param dram.queue_depth=8
bad "bad value" "dram.queue_depth" "$cfg" "$wl" --param dram.queue_depth=8,0
bad "vp-run argument vp-sweep sets" "vp-run argument --out: vp-sweep sets --out" "$cfg" "$wl" --param dram.queue_depth=8 -- --out x
# vp-run's option parser takes abbreviations and short options with the value attached.
bad "vp-run argument abbreviated" "vp-run argument --ou: an abbreviation of --out" "$cfg" "$wl" --param dram.queue_depth=8 -- --ou x
bad "vp-run short option with its value" "vp-run argument -ox: -o is --out" "$cfg" "$wl" --param dram.queue_depth=8 -- -ox
bad "vp-run --help (every point would be done, with no results)" "vp-run would print its help" \
    "$cfg" "$wl" --param dram.queue_depth=8 -- --help
# The time limit: a finite positive number of seconds (nan and inf would mean no limit).
for t in nan inf 1e999 0 -1; do
  bad "--point-timeout $t" "--point-timeout expects a positive number of seconds" "$cfg" "$wl" --param dram.queue_depth=8 \
      --point-timeout $t
done
printf 'config: %s\nworkload: %s\nparams: {dram.queue_depth: [8]}\nparms: {}\n' "$cfg" "$wl" > "$tmp/bad.yaml"
bad "unknown sweep-file key" "unknown key \"parms\"" --file "$tmp/bad.yaml"
# Sweep files: UTF-8, no key twice in a mapping (at any level), the same checks of args: as on the
# command line; the message names the file, the line and the key.
printf 'config: %s\nworkload: %s # caf\xe9\n' "$cfg" "$wl" > "$tmp/latin1.yaml"
bad "a sweep file that is not UTF-8" "latin1.yaml:2: not UTF-8 text (byte 0xe9" --file "$tmp/latin1.yaml"
printf '{"config": "%s",\n "workload": "%s\xff"}\n' "$cfg" "$wl" > "$tmp/latin1.json"
bad "a JSON sweep file that is not UTF-8" "latin1.json:2: not UTF-8 text" --file "$tmp/latin1.json"
printf 'config: %s\nworkload: %s\nparams:\n  dram.queue_depth: [8, 16]\n  dram.queue_depth: [4]\n' "$cfg" "$wl" > "$tmp/dup.yaml"
bad "a key twice under params:" 'dup.yaml:5: params: duplicate key "dram.queue_depth" (first on line 4, again on line 5)' \
    --file "$tmp/dup.yaml"
printf 'config: %s\nworkload: %s\nconfig: %s\n' "$cfg" "$wl" "$cfg" > "$tmp/dup_top.yaml"
bad "a key twice at the top level" 'dup_top.yaml:3: top level: duplicate key "config" (first on line 1' --file "$tmp/dup_top.yaml"
printf 'config: %s\nworkload: %s\nzip:\n  - dram.queue_depth: [8, 16]\n    dram.scheduler: [fcfs, frfcfs]\n    dram.queue_depth: [4, 2]\n' \
  "$cfg" "$wl" > "$tmp/dup_zip.yaml"
bad "a key twice in a zip" 'dup_zip.yaml:6: zip[0]: duplicate key "dram.queue_depth"' --file "$tmp/dup_zip.yaml"
printf 'config: %s\nworkload: %s\nset: {sim.threads: 1, sim.threads: 2}\n' "$cfg" "$wl" > "$tmp/dup_set.yaml"
bad "a key twice under set:" 'dup_set.yaml:3: set: duplicate key "sim.threads"' --file "$tmp/dup_set.yaml"
printf '{"config": "%s", "workload": "%s",\n "params": {"dram.queue_depth": [8],\n   "dram.queue_depth": [16]}}\n' "$cfg" "$wl" \
  > "$tmp/dup.json"
bad "a key twice in a JSON sweep file" 'dup.json:3: duplicate key "dram.queue_depth" (first on line 2, again on line 3)' \
    --file "$tmp/dup.json"
printf '{"config": "%s", "workload": "%s", "params": {"dram.queue_depth": [8, NaN]}}\n' "$cfg" "$wl" > "$tmp/nan.json"
bad "NaN in a JSON sweep file" "nan.json: NaN is not JSON" --file "$tmp/nan.json"
printf 'config: %s\nworkload: %s\nargs: [--out, x]\n' "$cfg" "$wl" > "$tmp/args_out.yaml"
bad "--out in a sweep file's args:" "args_out.yaml: args: vp-run argument --out: vp-sweep sets --out" --file "$tmp/args_out.yaml"
printf 'config: %s\nworkload: %s\nargs: [-q]\n' "$cfg" "$wl" > "$tmp/args_q.yaml"
bad "-q in a sweep file's args:" "args_q.yaml: args: vp-run argument -q" --file "$tmp/args_q.yaml"
printf 'config: %s\nworkload: %s\nparams:\n  dram.queue_depth: &a [8, *a]\n' "$cfg" "$wl" > "$tmp/rec.yaml"
bad "a recursive alias" "rec.yaml:4: params.dram.queue_depth[1]: recursive alias" --file "$tmp/rec.yaml"
mkdir -p "$tmp/a_folder.yaml"
bad "a sweep file that is a folder" "sweep file $tmp/a_folder.yaml: is a folder (expected a file)" --file "$tmp/a_folder.yaml"
bad "a workload that is a folder" "workload $tmp/a_folder.yaml: is a folder" "$cfg" "$tmp/a_folder.yaml" --param dram.queue_depth=8
bad "a sweep file given without --file" "looks like a sweep file: give it with --file" "$tmp/sweep.yaml"
# A vp-run the user names is used or refused, never silently replaced by another one.
bad "--vp-run that does not exist" "--vp-run $tmp/no-vp-run: no such file" "$cfg" "$wl" --param dram.queue_depth=8 \
    --vp-run "$tmp/no-vp-run"
err=$(VP_RUN="$tmp/a_folder.yaml" "$sweep" "$cfg" "$wl" --param dram.queue_depth=8 --out "$tmp/bad" 2>&1); rc=$?
ok "bad input: \$VP_RUN not an executable file" "[ $rc -eq 2 ] && [[ \"\$err\" == *'not an executable file'* ]] && [ ! -e '$tmp/bad/points' ]"
out=$("$sweep" --version --vp-run "$vp_run"); rc=$?
ok "--version names the vp-run it runs" "[ $rc -eq 0 ] && [[ \"\$out\" == *'$(realpath "$vp_run")'* ]] && [[ \"\$out\" == *'vp-run '* ]]"
touch "$tmp/a_file"
err=$("$sweep" "$cfg" "$wl" --param dram.queue_depth=8 --out "$tmp/a_file" 2>&1); rc=$?
ok "bad input: --out names a file" "[ $rc -eq 2 ] && [[ \"\$err\" == *'exists and is not a folder'* ]] && [ ! -s '$tmp/a_file' ]"
err=$("$sweep" "$cfg" "$wl" --param dram.queue_depth=8 --out "$tmp/a_file/sub" 2>&1); rc=$?
ok "bad input: --out inside a file" "[ $rc -eq 2 ] && [[ \"\$err\" == *'cannot create the sweep folder'* ]]"

# 9. GNU parallel runs the same points into the same sweep.csv (apart from wall time).
if command -v parallel >/dev/null; then
  "$sweep" "$cfg" "$wl" --param dram.scheduler=frfcfs,fcfs --param dram.queue_depth=16,8 -j 2 --backend parallel \
    --out "$tmp/p" 2>/dev/null
  ok "parallel backend exits 0" "[ $? -eq 0 ] && [ -s '$tmp/p/parallel/joblog' ]"
  ok "parallel and local sweep.csv are equal apart from wall_s" "cmp -s <(no_wall '$tmp/a/sweep.csv') <(no_wall '$tmp/p/sweep.csv')"
else
  echo "note: GNU parallel is not installed; the parallel backend is not tested here"
fi

# 10. scripts/sweep.sh, the README's form, still works.
VP_RUN=$vp_run bash scripts/sweep.sh "$cfg" "$wl" --param dram.scheduler=fcfs,frfcfs -j 2 --out "$tmp/w" 2>/dev/null
ok "scripts/sweep.sh runs a sweep" "[ $? -eq 0 ] && [ \$(wc -l < '$tmp/w/sweep.csv') -eq 3 ]"
# 11. vp-report: one chart per varying statistic (all against each swept parameter), and the
#     Pareto front of two of them (checked by sort-and-scan over sweep.csv, independent of
#     vp-report's own sort). The page itself is rendered and checked in tests/cli/report_page.sh.
"$bin/vp-report" "$tmp/a" --pareto sim_time_ns,max:dram.bandwidth 2>"$tmp/r.log"
ok "vp-report exits 0" "[ $? -eq 0 ] && [ -s '$tmp/a/report.html' ]"
n=$(sed -n 's/^vp-report: .*(\([0-9]*\) statistics x \([0-9]*\) parameters.*/\1/p' "$tmp/r.log")
ok "one chart per varying statistic ($n)" \
   "[ -n '$n' ] && [ \$(grep -o '<details id=\"d-stat-[0-9]*\"' '$tmp/a/report.html' | wc -l) -eq $n ]"
nvary=$(/usr/bin/python3 -c 'import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["state"] == "done"]
head = list(rows[0].keys()); first = head.index("wall_s")
def num(v):
    try: return float(v)
    except ValueError: return None
n = 0
for c in head[first:]:
    if c in ("config_hash", "seed", "platform", "workload"): continue
    v = [num(r[c]) for r in rows]
    n += all(x is not None for x in v) and len(set(v)) > 1
print(n)' "$tmp/a/sweep.csv")
ok "that is every numeric statistic that varies in sweep.csv ($nvary)" "[ '$n' = '$nvary' ]"
"$bin/vp-report" "$tmp/a" --stats '^dram\.(bandwidth|row_hits)$' 2>"$tmp/r2.log"
ok "--stats keeps the matching statistics" "grep -q '(2 statistics x 2 parameters' '$tmp/r2.log'"
"$bin/vp-report" "$tmp/a" --pareto sim_time,dram.bandwidth 2>"$tmp/r3.log"
ok "--pareto with an unknown statistic exits 2 and suggests one" "[ $? -eq 2 ] && grep -q 'did you mean sim_time_ns' '$tmp/r3.log'"
"$bin/vp-report" "$tmp/a" --stats '(' 2>"$tmp/r4.log"
ok "--stats with a bad expression exits 2" "[ $? -eq 2 ] && grep -q 'not a regular expression' '$tmp/r4.log'"
"$bin/vp-report" "$tmp/a/points" 2>"$tmp/r5.log"
ok "a folder that is neither a run nor a sweep exits 2" "[ $? -eq 2 ] && grep -q 'not a run folder' '$tmp/r5.log'"
"$bin/vp-report" "$tmp/a/points/$(head -2 "$tmp/a/sweep.csv" | tail -1 | cut -d, -f1)/run" --pareto a,b 2>"$tmp/r6.log"
ok "--pareto on a run folder exits 2" "[ $? -eq 2 ] && grep -q 'apply to a sweep folder' '$tmp/r6.log'"
"$bin/vp-report" "$tmp/a" --pareto sim_time_ns,max:dram.bandwidth 2>/dev/null
front=$(/usr/bin/python3 -c 'import csv, sys
pts = sorted((float(r["sim_time_ns"]), -float(r["dram.bandwidth"]), r["point"]) for r in csv.DictReader(open(sys.argv[1])))
best, last, out = float("inf"), None, []
for x, y, p in pts:
    if y < best or (x, y) == last: out.append(p); best, last = y, (x, y)
print(" ".join(sorted(out)))' "$tmp/a/sweep.csv")
ok "pareto.csv holds the non-dominated points ($front)" \
   "[ -n '$front' ] && [ \"\$(tail -n +2 '$tmp/a/pareto.csv' | cut -d, -f1 | sort | tr '\n' ' ' | sed 's/ \$//')\" = '$front' ]"

# A design point whose layers do not fit its memories is a failed point, not bad input: the
# sweep's check (vp-run --check-inputs) lets it run, the other points run too, and its row holds
# the mapper's error (vp-run --check refuses it on its own).
"$sweep" configs/nmp.yaml workloads/lenet5.json --param nmp.mb0_bytes=16,8192 -j 2 --out "$tmp/fit" 2>"$tmp/fit.log"
ok "a point that does not fit: the sweep runs, exits 3" "[ $? -eq 3 ]"
ok "... 1 done, 1 failed" "grep -q '2 points: 1 done, 1 failed, 0 timed out, 0 killed, 0 not run' '$tmp/fit.log'"
ok "... the failed row names the layer that does not fit" \
   "grep -q ',16,failed,2,.*layer \"\"C1\"\": no TLT tile fits the TLT memories' '$tmp/fit/sweep.csv'"
"$vp_run" configs/nmp.yaml workloads/lenet5.json --set nmp.mb0_bytes=16 --check 2>"$tmp/fit_check.log"
ok "vp-run --check refuses that point on its own" "[ $? -eq 2 ] && grep -q 'no TLT tile fits' '$tmp/fit_check.log'"
"$vp_run" configs/nmp.yaml workloads/lenet5.json --set nmp.mb0_bytes=16 --check-inputs --quiet 2>/dev/null
ok "vp-run --check-inputs accepts it" "[ $? -eq 0 ]"
# The same for a DRAM too small for the network's tensors (AlexNet's conv1 needs 482,912 bytes;
# dram.rows=2 gives 128 KiB).
"$sweep" configs/nmp.yaml workloads/alexnet.json --param dram.rows=2,16384 --set sim.max_time_ms=0.01 -j 2 \
  --out "$tmp/dfit" 2>"$tmp/dfit.log"
ok "a point whose DRAM is too small: the sweep runs both points" \
   "grep -q '2 points: 0 done, 2 failed, 0 timed out, 0 killed, 0 not run' '$tmp/dfit.log'"
ok "... its row names the layer whose tensors do not fit" \
   "grep -q ',2,failed,2,.*layer \"\"conv1\"\": its tensors do not fit the DRAM' '$tmp/dfit/sweep.csv'"
ok "... the other point ran (to the time limit)" "grep -q ',16384,failed,3,' '$tmp/dfit/sweep.csv'"
"$vp_run" configs/nmp.yaml workloads/alexnet.json --set dram.rows=2 --check 2>"$tmp/dfit_check.log"
ok "vp-run --check refuses that point on its own" "[ $? -eq 2 ] && grep -q 'its tensors do not fit the DRAM' '$tmp/dfit_check.log'"
"$vp_run" configs/nmp.yaml workloads/alexnet.json --set dram.rows=2 --check-inputs --quiet 2>/dev/null
ok "vp-run --check-inputs accepts it" "[ $? -eq 0 ]"
"$vp_run" configs/nmp.yaml workloads/alexnet.json --set dram.rows=2 --out "$tmp/dfit_run" 2>"$tmp/dfit_run.log"
ok "the run refuses it before mapping: exit 2, no folder" \
   "[ $? -eq 2 ] && grep -q 'its tensors do not fit the DRAM' '$tmp/dfit_run.log' && [ ! -e '$tmp/dfit_run' ]"
"$sweep" configs/nmp.yaml workloads/lenet5.json --param nmp.mb0_bytes=16 --out "$tmp/fit2" -- --check-inputs 2>"$tmp/fit2.log"
ok "--check-inputs is vp-sweep's own: exit 2" "[ $? -eq 2 ] && grep -q 'vp-run argument --check-inputs: vp-sweep sets --check-inputs' '$tmp/fit2.log'"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
