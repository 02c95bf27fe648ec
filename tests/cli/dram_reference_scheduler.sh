#!/usr/bin/env bash
# The DRAM channel's per-bank scheduler with next-event wake-ups against the reference
# (dram.reference_scheduler: the whole queue scanned at every step, stepped every cycle while
# requests are queued), through the whole TLM path: every statistic of stats.json and
# stats.csv is the same on random, mixed and multi-burst traffic, DDR3 and DDR4, open and closed page.
set -u
vp_run=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
# stats.json without its meta block, and stats.csv without config_hash (the configurations differ in one key).
stats_of() {
  /usr/bin/python3 - "$1" <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1] + "/stats.json"))
print(json.dumps(d["stats"], sort_keys=True))
rows = list(csv.reader(open(sys.argv[1] + "/stats.csv")))
print([(h, v) for h, v in zip(rows[0], rows[1]) if h != "config_hash"])
PY
}

cat > "$tmp/random.json" <<'JSON'
{"kind": "traffic", "name": "random", "streams": [
 {"name": "random", "pattern": "random", "requests": 6000, "bytes": 64, "range": 1073741824, "max_outstanding": 32,
  "read_fraction": 0.8, "seed": 7}]}
JSON
cat > "$tmp/mixed.json" <<'JSON'
{"kind": "traffic", "name": "mixed", "streams": [
 {"name": "dma", "pattern": "sequential", "requests": 3000, "bytes": 256, "range": 1048576, "max_outstanding": 8, "seed": 3},
 {"name": "cpu", "pattern": "random", "requests": 3000, "bytes": 64, "read_fraction": 0.6, "base": 16777216,
  "range": 65536, "max_outstanding": 16, "seed": 4}]}
JSON
n=0
for cfg in dram-ddr3 dram-ddr4; do
  for w in random mixed; do
    for page in open closed; do
      n=$((n + 1))
      args=("$root/configs/$cfg.yaml" "$tmp/$w.json" --quiet --set dram.page_policy=$page)
      "$vp_run" "${args[@]}" --out "$tmp/fast$n"
      rc1=$?
      "$vp_run" "${args[@]}" --out "$tmp/ref$n" --set dram.reference_scheduler=true
      rc2=$?
      ok "$cfg $w $page: both runs exit 0" "[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ]"
      ok "$cfg $w $page: the same statistics with and without dram.reference_scheduler" \
         "diff <(stats_of '$tmp/fast$n') <(stats_of '$tmp/ref$n') > /dev/null"
      ok "$cfg $w $page: the reference visits more kernel delta cycles (it steps every cycle)" \
         "[ \$(/usr/bin/python3 -c \"import json; print(json.load(open('$tmp/ref$n/run.json'))['delta_cycles'] > json.load(open('$tmp/fast$n/run.json'))['delta_cycles'])\") = True ]"
    done
  done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
