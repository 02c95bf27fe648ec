#!/usr/bin/env bash
# scripts/sweep.sh: cartesian product, parallel points, one merged CSV, a failing point
# recorded without stopping the others, rerun skips finished points.
set -u
vp_run=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
wl=$tmp/small.json
cat > "$wl" <<'JSON'
{"kind": "traffic", "name": "small", "streams": [
  {"name": "s", "pattern": "random", "requests": 2000, "read_fraction": 0.7, "range": 1048576}]}
JSON
VP_RUN=$vp_run bash "$root/scripts/sweep.sh" "$root/configs/dram-ddr3.yaml" "$wl" \
  --param dram.scheduler=fcfs,frfcfs --param dram.queue_depth=8,0 -j 2 --out "$tmp/sw" 2>"$tmp/log1"
ok "sweep exits 0 with a failed point" "[ $? -eq 0 ]"
csv=$tmp/sw/sweep.csv
ok "sweep.csv has a header and 4 points" "[ \$(wc -l < '$csv') -eq 5 ]"
ok "the two queue_depth=0 points failed with exit 2" "[ \$(awk -F, 'NR > 1 && \$3 == 0 && \$4 == 2' '$csv' | wc -l) -eq 2 ]"
ok "their error names the key" "grep -q 'dram.queue_depth' '$csv'"
ok "the good points have statistics" "[ \$(awk -F, 'NR > 1 && \$4 == 0 && \$6 == \"dram\"' '$csv' | wc -l) -eq 2 ]"
col=$(head -1 "$csv" | tr ',' '\n' | grep -n '^dram.row_hits$' | cut -d: -f1)
ok "the stats columns are filled" "[ -n '$col' ] && awk -F, -v c='$col' 'NR > 1 && \$4 == 0 && \$c == \"\" {bad = 1} END {exit bad}' '$csv'"
VP_RUN=$vp_run bash "$root/scripts/sweep.sh" "$root/configs/dram-ddr3.yaml" "$wl" \
  --param dram.scheduler=fcfs,frfcfs --param dram.queue_depth=8,0 -j 2 --out "$tmp/sw" 2>"$tmp/log2"
ok "rerun skips the finished points" "[ \$(grep -c 'exit' '$tmp/log2') -eq 2 ]"
ok "rerun keeps the same rows" "[ \$(wc -l < '$csv') -eq 5 ]"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
