#!/usr/bin/env bash
# Every malformed config/workload of tests/data/bad gives exit code 2 and an error that
# names the problem (tests/data/bad/expect.txt); none crashes, hangs or writes outputs.
set -u
vp_run=$1; root=$2
bad=$root/tests/data/bad
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
check() {  # name expected_substring args...
  local name=$1 want=$2; shift 2
  local err rc
  err=$(timeout 20 "$vp_run" "$@" --out "$tmp/out" --quiet 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq 2 ] && [[ "$err" == *"$want"* ]] && [ ! -e "$tmp/out" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL $name: rc=$rc, want 2 and \"$want\"; got: $err"
  fi
}
while IFS='|' read -r file want; do
  case "$file" in ''|'#'*) continue ;; esac
  case "$file" in
    cfg_*) check "$file" "$want" "$bad/$file" "$root/workloads/traffic/stream.json" ;;
    wl_*)  check "$file" "$want" "$root/configs/dram-ddr3.yaml" "$bad/$file" ;;
  esac
done < "$bad/expect.txt"
cfg=$root/configs/dram-ddr3.yaml; wl=$root/workloads/traffic/stream.json
check missing_config "cannot open file" "$bad/does_not_exist.yaml" "$wl"
check missing_workload "cannot open file" "$cfg" "$bad/does_not_exist.json"
check set_unknown_key "--set dram.shceduler" "$cfg" "$wl" --set dram.shceduler=fcfs
check set_bad_value "--set dram.scheduler" "$cfg" "$wl" --set dram.scheduler=lifo
check set_no_equals "expected key.path=value" "$cfg" "$wl" --set dram.scheduler
check set_bad_range "--set dram.timing.tRC" "$cfg" "$wl" --set dram.timing.tRC=3
check unknown_option "unrecognised option" "$cfg" "$wl" --frobnicate
check missing_args "CONFIG and WORKLOAD are required" "$cfg"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
