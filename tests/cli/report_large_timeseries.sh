#!/usr/bin/env bash
# The report reads timeseries.csv in passes of bounded memory: a run with a fine stats.epoch
# writes gigabytes of intervals (4.1 M intervals of every sampled statistic made 10 GB), and
# reading them whole took twice the file in memory. Here a run folder gets a timeseries.csv of
# about 400 MB (its own rows repeated), and vp-report must write the page with its virtual
# memory limited to 320 MB (ulimit -v), less than the file. (Before, the read stopped where the
# memory did and the page failed with "expected 6 fields" on a valid file.)
# Args: $1 = vp-run, $2 = source root, $3 = folder of the tools.
set -u
vp_run=$1; root=$2; bin=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL $*"; }
d=$tmp/run
if "$vp_run" "$root/configs/nmp.yaml" "$root/workloads/lenet5.json" --out "$d" --quiet --set 'stats.epoch=1 dram cycles' 2> "$tmp/err"
then ok; else no "vp-run: $(tail -2 "$tmp/err")"; fi
small=$(stat -c %s "$d/timeseries.csv")
# Repeat the data rows until the file is about 400 MB (the header once).
reps=$(( 400000000 / small + 1 ))
/usr/bin/python3 - "$d/timeseries.csv" "$reps" <<'PY'
import sys
path, reps = sys.argv[1], int(sys.argv[2])
with open(path, "rb") as f:
    head = f.readline()
    body = f.read()
with open(path, "wb") as f:
    f.write(head)
    for _ in range(reps):
        f.write(body)
PY
big=$(stat -c %s "$d/timeseries.csv")
[ "$big" -gt 335544320 ] && ok || no "the repeated timeseries.csv has $big bytes, want more than the 320 MB limit"
rm -f "$d/report.html"
( ulimit -v 327680; "$bin/vp-report" "$d" ) > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] && grep -q '</html>' "$d/report.html" && ok || no "vp-report under ulimit -v 320 MB: exit $rc: $(tail -2 "$tmp/err")"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -eq 3 ]
