#!/usr/bin/env bash
# Every malformed VTA workload of tests/data/vta_bad (IR programs, networks, vta_network
# graphs; expected messages in expected_errors.json.txt) run as `vp-run configs/vta.yaml FILE`
# gives exit code 2 and the expected message, and writes no output folder.
# Args: $1 = vp-run, $2 = source root.
set -u
vp_run=$1; root=$2
bad=$root/tests/data/vta_bad
cfg=$root/configs/vta.yaml
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0; skip=0
check() {  # name expected_substring file
  local name=$1 want=$2 file=$3 err rc
  err=$(timeout 30 "$vp_run" "$cfg" "$file" --out "$tmp/out" --quiet 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq 2 ] && [[ "$err" == *"$want"* ]] && [ ! -e "$tmp/out" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL $name: rc=$rc, want 2 and \"$want\"; got: $err"
  fi
}
# Does this vp-run know the "vta_network" workload kind (lead: platform/workload/workload.cpp)?
vtanet=1
if "$vp_run" "$cfg" "$root/workloads/vta/resnet20_full.json" --out "$tmp/probe" --quiet 2>&1 | grep -q 'unknown value "vta_network"'; then
  vtanet=0
fi
rm -rf "$tmp/probe"
# expected_errors.json.txt: one  "name": "message",  per line (JSON, \" escapes).
while IFS= read -r line; do
  [[ "$line" =~ ^[[:space:]]*\"([^\"]+)\":[[:space:]]*\"(.*)\",?[[:space:]]*$ ]] || continue
  name=${BASH_REMATCH[1]}; want=${BASH_REMATCH[2]//\\\"/\"}
  if [ $vtanet -eq 0 ] && [[ "$name" == vtanet_* ]]; then skip=$((skip + 1)); continue; fi
  check "$name" "$want" "$bad/$name.json"
done < "$bad/expected_errors.json.txt"
check missing_workload "cannot open file" "$bad/does_not_exist.json"
check empty_file "JSON" /dev/null
echo "$pass passed, $fail failed, $skip skipped"; [ "$skip" -eq 0 ] || echo "(vta_network files skipped: this vp-run does not know the workload kind)"
[ "$fail" -eq 0 ] && [ "$pass" -ge 30 ]
