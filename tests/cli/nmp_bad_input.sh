#!/usr/bin/env bash
# NMP platform: every malformed config / workload / override gives exit code 2, an error that
# names the file and key or JSON pointer (tests/data/nmp_bad/expect.txt), and no output folder.
set -u
vp_run=$1; root=$2
bad=$root/tests/data/nmp_bad
cfg=$root/configs/nmp.yaml; wl=$root/workloads/lenet5.json
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
check() {  # name expected_substring args...
  local name=$1 want=$2; shift 2
  local err rc
  err=$(cd "$root" && timeout 60 "$vp_run" "$@" --out "$tmp/out" --quiet 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq 2 ] && [[ "$err" == *"$want"* ]] && [ ! -e "$tmp/out" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL $name: rc=$rc, want 2 and \"$want\"; got: $err"
  fi
}
n=0
while IFS='|' read -r file want; do
  case "$file" in ''|'#'*) continue ;; esac
  n=$((n + 1))
  case "$file" in
    cfg_*) check "$file" "$want" "$bad/$file" workloads/lenet5.json ;;
    wl_*)  check "$file" "$want" "$cfg" "$bad/$file" ;;
  esac
done < "$bad/expect.txt"
[ "$n" -ge 10 ] || { echo "FAIL: expect.txt lists only $n cases"; fail=$((fail + 1)); }
check set_tiny_mb0 "at /layers/0: layer \"C1\": no TLT tile fits the TLT memories (nmp.mb0_bytes=16" \
  "$cfg" "$wl" --set nmp.mb0_bytes=16
check set_tiny_mb1 "nmp.mb1_bytes=8" "$cfg" "$wl" --set nmp.mb1_bytes=8
check set_zero_tle "--set nmp.n_tle: expected an integer in [1, 1024]" "$cfg" "$wl" --set nmp.n_tle=0
check set_zero_tlt "--set nmp.n_tlt: expected an integer in [1, 1024]" "$cfg" "$wl" --set nmp.n_tlt=0
check set_bad_slicing "--set tso.fixed_slicing: unknown TLE slicing \"KS-OFM\"" "$cfg" "$wl" --set tso.fixed_slicing=KS-OFM
check set_bad_schedule "--set tso.fixed_schedule: unknown TLT schedule" "$cfg" "$wl" --set tso.fixed_schedule=XS
check set_zero_macs "--set nmp.macs_per_cycle: expected a positive integer" "$cfg" "$wl" --set nmp.macs_per_cycle=0
check set_unknown_key "--set nmp.mb3_bytes" "$cfg" "$wl" --set nmp.mb3_bytes=1
check traffic_workload "the nmp platform" "$cfg" "$root/workloads/traffic/stream.json"
check traffic_workload_says_network "runs network workloads" "$cfg" "$root/workloads/traffic/stream.json"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
