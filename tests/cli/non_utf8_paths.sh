#!/usr/bin/env bash
# A Linux path may be any bytes, JSON text only UTF-8: a config, workload and output folder under a
# directory whose name is not UTF-8 (byte 0xD1) run to the end on every platform (vp-run; vp-map on nmp and mesh),
# and every JSON output parses, with U+FFFD where the path had the bad byte. (vp-run used to stop
# with "internal error: [json.exception.type_error.316] invalid UTF-8 byte", exit 1.)
set -u
vp_run=$1; root=$2; bin=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
odd="$tmp/$(printf 'odd\xd1dir')"
mkdir -p "$odd"
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
cp "$root/workloads/lenet5.json" "$odd/net.json"
for p in nmp mesh-4x4 vta; do
  # The config refers to its calibration file relative to itself: keep it next to the copy.
  cp "$root/configs/$p.yaml" "$odd/$p.yaml"
  cp -r "$root/configs/calibration" "$odd/"
  "$vp_run" "$odd/$p.yaml" "$odd/net.json" --quiet --out "$odd/out_$p"
  rc=$?
  ok "$p: vp-run exits 0 (got $rc)" "[ $rc -eq 0 ]"
  ok "$p: every JSON output parses and names the path with U+FFFD" \
     "/usr/bin/python3 - '$odd/out_$p' <<'PY'
import glob, json, sys
files = glob.glob(sys.argv[1].encode('utf-8', 'surrogateescape').decode('utf-8', 'surrogateescape') + '/*.json')
assert files, 'no JSON output'
seen = False
for f in files:
    text = open(f, encoding='utf-8').read()
    json.loads(text)
    seen = seen or ('odd\ufffddir' in text)
assert seen, 'the path is not in the outputs'
PY"
  [ "$p" = vta ] && continue  # vta has no stand-alone mapper in vp-map
  "$bin/vp-map" "$odd/$p.yaml" "$odd/net.json" --quiet --out "$odd/map_$p.json" > /dev/null
  rc=$?
  ok "$p: vp-map exits 0 (got $rc)" "[ $rc -eq 0 ]"
  ok "$p: vp-map's mapping file parses" "/usr/bin/python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding=\"utf-8\"))' '$odd/map_$p.json'"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
