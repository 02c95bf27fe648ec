#!/usr/bin/env bash
# vp-report on damaged folders: exit 2 with a message naming the file and what is wrong, never a
# report of "missing" files that are there, an internal error, or an empty page. A run folder's
# stats.json empty (0 bytes), cut short (the parser's line and column), not an object, without
# its meta or stats object, or with a value of another type; an empty layers.json, one whose
# "layers" is not an array of objects; a sweep.csv
# with a header and no point row.
# Args: $1 = vp-run, $2 = source root, $3 = folder of the tools.
set -u
vp_run=$1; root=$2; bin=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
bad() {  # bad NAME SUBSTRING DIR: vp-report DIR exits 2 with SUBSTRING on stderr
  local name=$1 want=$2 dir=$3 err rc
  err=$("$bin/vp-report" "$dir" 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq 2 ] && [[ "$err" == *"$want"* ]]; then pass=$((pass + 1))
  else fail=$((fail + 1)); echo "FAIL $name: rc=$rc, want 2 and \"$want\"; got: $err"; fi
}
cat > "$tmp/small.json" <<'JSON'
{"kind": "traffic", "name": "small", "streams": [
  {"name": "s", "pattern": "random", "requests": 200, "read_fraction": 0.7, "range": 1048576}]}
JSON
"$vp_run" "$root/configs/dram-ddr3.yaml" "$tmp/small.json" --out "$tmp/run" --quiet
if "$bin/vp-report" "$tmp/run" 2>/dev/null; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL the intact folder"; fi
copy() { rm -rf "$tmp/$1"; cp -r "$tmp/run" "$tmp/$1"; }  # copy NAME: a fresh copy of the run folder

copy empty; : > "$tmp/empty/stats.json"
bad empty_stats "$tmp/empty/stats.json: empty file (0 bytes), expected the JSON object that vp-run writes" "$tmp/empty"
copy cut; head -c 300 "$tmp/run/stats.json" > "$tmp/cut/stats.json"
bad truncated_stats "$tmp/cut/stats.json: not valid JSON (300 bytes; truncated or damaged?): [json.exception.parse_error.101] parse error at line" "$tmp/cut"
copy arr; echo '[]' > "$tmp/arr/stats.json"
bad array_stats "$tmp/arr/stats.json: expected the JSON object that vp-run writes, found array" "$tmp/arr"
copy nometa; echo '{"stats": {}}' > "$tmp/nometa/stats.json"
bad no_meta "$tmp/nometa/stats.json: no \"meta\" object" "$tmp/nometa"
copy type; echo '{"meta": {"platform": 3}, "stats": {}}' > "$tmp/type/stats.json"
bad wrong_type "$tmp/type: a file of the folder does not hold what vp-run writes: [json.exception.type_error" "$tmp/type"
copy layers; : > "$tmp/layers/layers.json"
bad empty_layers "$tmp/layers/layers.json: empty file (0 bytes)" "$tmp/layers"
copy lnum; echo '{"layers": 5}' > "$tmp/lnum/layers.json"
bad layers_not_array "$tmp/lnum/layers.json: \"layers\" is not an array of objects" "$tmp/lnum"
copy gone; rm "$tmp/gone/stats.json"
bad missing_stats "not a run folder (no stats.json)" "$tmp/gone"
# A sweep folder whose sweep.csv has its header and no point.
mkdir -p "$tmp/sw"
printf 'point,config_file,workload_file,dram.queue_depth,state,exit_code,error,wall_s\n' > "$tmp/sw/sweep.csv"
bad header_only_sweep "$tmp/sw/sweep.csv: no points (a header line and no row" "$tmp/sw"
if [ ! -e "$tmp/sw/report.html" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL a page was written for no points"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
