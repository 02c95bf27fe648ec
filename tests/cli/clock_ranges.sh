#!/usr/bin/env bash
# Clock frequencies are range-checked, [1, 100000] MHz ([1, 10000] for the VTA): a tiny clock
# such as 1e-300 MHz used to pass --check and then run without end (its period beyond any
# simulated time the run could reach); a DRAM trace's clock_ps is at most 1 us likewise.
# Each case: exit 2 naming the key and the range, nothing written.
# Args: $1 = vp-run, $2 = source root.
set -u
vp_run=$1; root=$2
. "$root/tests/cli/lib/expect_input_error.sh"
lenet=$root/workloads/lenet5.json
range="expected a clock frequency in MHz in [1, 100000]"
for v in 1e-300 4.9e-324 1e-7 0.5 0 -375 100001; do
  check "nmp.clock_mhz=$v" "--set nmp.clock_mhz: $range, got" "$root/configs/nmp.yaml" "$lenet" --set nmp.clock_mhz=$v
done
check "mesh.noc_mhz" "--set mesh.noc_mhz: $range, got 1e-300" "$root/configs/mesh-4x4.yaml" "$lenet" --set mesh.noc_mhz=1e-300
check "core.core_mhz" "--set core.core_mhz: $range, got 1e-300" "$root/configs/mesh-4x4.yaml" "$lenet" --set core.core_mhz=1e-300
check "vta.clock_mhz" "--set vta.clock_mhz: expected a clock frequency in MHz in [1, 10000], got 1e-300" \
  "$root/configs/vta.yaml" "$lenet" --set vta.clock_mhz=1e-300
check "noc platform: mesh.noc_mhz" "--set mesh.noc_mhz: $range" "$root/configs/mesh-8x8-synthetic.yaml" \
  "$root/workloads/traffic/uniform.json" --set mesh.noc_mhz=1e-7
check "dram.tck_ps" "--set dram.tck_ps: expected 100..100000 ps" "$root/configs/dram-ddr3.yaml" \
  "$root/workloads/traffic/stream.json" --set dram.tck_ps=1000000000
# In a file: file, line and column.
printf 'platform: nmp\nnmp:\n  clock_mhz: 1e-300\n' > "$tmp/slow.yaml"
check "in a file" "slow.yaml:3:14: nmp.clock_mhz: $range, got 1e-300" "$tmp/slow.yaml" "$lenet"
# A DRAM trace whose cycle is longer than 1 us.
printf '0: read 0x0\n' > "$tmp/t.stl"
echo '{"kind": "dram_trace", "file": "t.stl", "clock_ps": 1000000000}' > "$tmp/slow_trace.json"
check "dram_trace clock_ps" "/clock_ps: value 1000000000 out of range (expected 0..1000000)" \
  "$root/configs/dram-ddr3.yaml" "$tmp/slow_trace.json"
# The bounds themselves are accepted.
for kv in nmp.clock_mhz=1 nmp.clock_mhz=100000; do
  if (cd "$root" && "$vp_run" configs/nmp.yaml "$lenet" --check --quiet --set "$kv" 2>/dev/null); then pass=$((pass + 1))
  else fail=$((fail + 1)); echo "FAIL $kv is refused"; fi
done
finish
