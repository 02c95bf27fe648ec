#!/usr/bin/env bash
# vp-sweep on a real single-node Slurm (Debian slurm-wlm + munge), started by this test in a
# temporary folder and stopped by PID at the end. The tools run from an installed prefix, as
# on a cluster. Shown:
#  1. a 12-point sweep as a 4-task job array (3 points per task, at most 2 tasks at once) and
#     its afterany merge job give the same sweep.csv as the local backend, apart from wall time;
#  2. a task cancelled while it runs leaves its running point killed and its other points not
#     run; the resumed sweep resubmits exactly that task's unfinished points.
# Skipped (exit 77) when slurm-wlm / munge are not installed (scripts/setup.sh --test installs
# them) or when not root (slurmd starts jobs as root here).
set -u
build=$1; root=$2
. "$root/tests/slurm/slurm_cluster.sh"
missing=$(slurm_missing)
if [ -n "$missing" ]; then
  echo "SKIP: $missing not found: install slurm-wlm and munge (scripts/setup.sh --test) to run this test"; exit 77
fi
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root to run slurmd"; exit 77; }
tmp=$(mktemp -d)
cleanup() { slurm_stop; [ -n "${KEEP_TMP:-}" ] && echo "kept $tmp" || rm -rf "$tmp"; }
trap cleanup EXIT
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
. "$root/tests/cli/lib/sweep_csv.sh"
states() {  # states CSV: "id state" per row
  /usr/bin/python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])): print(r["point"], r["state"])' "$1"
}

cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log" 2>&1 || { echo "FAIL: cmake --install"; exit 1; }
bin=$tmp/prefix/bin
slurm_start "$tmp/slurm" || exit 1
echo "slurm: $(sinfo -h -N -o '%N %T %c CPUs')"
work=$tmp/work; mkdir -p "$work"; cd "$work"   # configs/ is found in the installed share folder
cat > small.json <<'JSON'
{"kind": "traffic", "name": "small", "streams": [
  {"name": "s", "pattern": "random", "requests": 1500, "read_fraction": 0.7, "range": 1048576}]}
JSON
params=(--param dram.scheduler=fcfs,frfcfs --param dram.queue_depth=4,8,16 --param dram.page_policy=open,closed)

# 1. Slurm and local give the same sweep.csv.
timeout 300 "$bin/vp-sweep" configs/dram-ddr3.yaml small.json "${params[@]}" --backend slurm --points-per-task 3 -j 2 \
  --partition debug --time 10 --mem 64M --wait --out "$work/s1" 2>"$tmp/s1.log"
ok "slurm sweep exits 0" "[ $? -eq 0 ]"
sub=$work/s1/slurm/1
ok "one array of 4 tasks with 3 points each" \
   "[ \$(ls '$sub/tasks' | wc -l) -eq 4 ] && [ \$(cat '$sub'/tasks/*.txt | wc -l) -eq 12 ] && [ \$(wc -l < '$sub/tasks/0.txt') -eq 3 ]"
jobs=$(/usr/bin/python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); print(s["array_job"], s["merge_job"])' "$sub/submission.json")
read -r array merge <<< "$jobs"
comp=$tmp/slurm/log/jobcomp.log
ok "the 4 array tasks completed with exit 0" \
   "[ \$(grep 'ArrayJobId=$array ' '$comp' | grep -c 'JobState=COMPLETED.* ExitCode=0:0') -eq 4 ]"
ok "the merge job ran after them and completed" "grep -q 'JobId=$merge .*JobState=COMPLETED' '$comp'"
ok "--partition, --time and --mem reached sbatch" \
   "[ \$(grep 'ArrayJobId=$array ' '$comp' | grep -c 'Partition=debug TimeLimit=10 .*mem=64M') -eq 4 ]"
ok "the merge job wrote the counts" "grep -q '12 points: 12 done' '$sub'/logs/merge-*.out"
ok "the tasks ran the installed vp-run" "grep -q -- '--vp-run $bin/vp-run' '$sub/task.sh'"
timeout 300 "$bin/vp-sweep" configs/dram-ddr3.yaml small.json "${params[@]}" -j 2 --out "$work/l1" 2>"$tmp/l1.log"
ok "local sweep exits 0" "[ $? -eq 0 ]"
ok "slurm and local sweep.csv are equal apart from wall_s" \
   "[ \$(wc -l < '$work/s1/sweep.csv') -eq 13 ] && cmp -s <(no_wall '$work/s1/sweep.csv') <(no_wall '$work/l1/sweep.csv')"

# 2. Cancel a running task, then resume. Each point runs a few seconds.
cat > slow.json <<'JSON'
{"kind": "traffic", "name": "slow", "streams": [
  {"name": "s", "pattern": "random", "requests": 250000, "read_fraction": 0.7, "range": 1048576}]}
JSON
timeout 300 "$bin/vp-sweep" configs/dram-ddr3.yaml slow.json "${params[@]}" --backend slurm --points-per-task 3 -j 2 \
  --out "$work/s2" 2>"$tmp/s2.log"
ok "slurm sweep submitted without --wait exits 0" "[ $? -eq 0 ]"
sub=$work/s2/slurm/1
read -r array merge <<< "$(/usr/bin/python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); print(s["array_job"], s["merge_job"])' "$sub/submission.json")"
first=$(head -1 "$sub/tasks/1.txt")
for i in $(seq 600); do [ -f "$work/s2/points/$first/started.json" ] && break; sleep 0.1; done
ok "task 1 started its first point" "[ -f '$work/s2/points/$first/started.json' ]"
scancel "${array}_1"
for i in $(seq 1800); do [ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ] && break; sleep 0.2; done
ok "the array and the merge job have left the queue" "[ -z \"\$(squeue -h -j '$array,$merge' 2>/dev/null)\" ]"
states "$work/s2/sweep.csv" > "$tmp/after_cancel.txt"
ok "the merge job ran after the cancelled task (afterany)" "grep -q 'JobId=$merge .*JobState=COMPLETED' '$comp'"
ok "the cancelled task's running point is recorded as killed" "grep -q '^$first killed$' '$tmp/after_cancel.txt'"
ok "every point of the other tasks is done" \
   "for t in 0 2 3; do for id in \$(cat '$sub/tasks/'\$t.txt); do grep -q \"^\$id done\$\" '$tmp/after_cancel.txt' || exit 1; done; done"
grep -v ' done$' "$tmp/after_cancel.txt" | cut -d' ' -f1 | sort > "$tmp/unfinished.txt"
ok "the unfinished points all belong to task 1" "[ -s '$tmp/unfinished.txt' ] && [ -z \"\$(comm -23 '$tmp/unfinished.txt' <(sort '$sub/tasks/1.txt'))\" ]"
"$bin/vp-sweep" merge "$work/s2" 2>/dev/null
ok "vp-sweep merge exits 3 while points are unfinished" "[ $? -eq 3 ]"
timeout 300 "$bin/vp-sweep" configs/dram-ddr3.yaml slow.json "${params[@]}" --backend slurm --points-per-task 3 -j 2 \
  --wait --out "$work/s2" 2>"$tmp/s2b.log"
ok "the resumed sweep exits 0" "[ $? -eq 0 ]"
ok "it resubmitted exactly the unfinished points" "cmp -s <(cat '$work/s2/slurm/2/tasks/'*.txt | sort) '$tmp/unfinished.txt'"
ok "all 12 points are now done" "grep -q '12 points: 12 done, 0 failed, 0 timed out, 0 killed, 0 not run' '$tmp/s2b.log'"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
