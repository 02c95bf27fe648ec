#!/usr/bin/env bash
# sim.check_tlm: every platform with AT bindings (dram, nmp, mesh, vta) runs with a base-protocol
# checker on each binding, exits 0, reports the checked transactions, and its statistics are
# identical to the unchecked run (the checker forwards every call unchanged). Also with a
# one-entry DRAM queue, where END_REQ backpressure overlaps responses of other transactions,
# and for a recorded DRAM trace replayed by the trace player.
# Args: $1 = vp-run, $2 = source root.
set -u
vp_run=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
err() { echo "FAIL: $*"; fail=$((fail + 1)); }
# The "stats" object of stats.json (the "meta" object holds the config hash, which differs).
stats_of() { /usr/bin/python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["stats"], sort_keys=True))' "$1"; }
n=0
check() {
    local cfg=$1 wl=$2; shift 2
    n=$((n + 1))
    "$vp_run" "$root/configs/$cfg" "$root/$wl" "$@" --quiet --out "$tmp/plain$n" || { err "$cfg $wl $*: exit $?"; return; }
    "$vp_run" "$root/configs/$cfg" "$root/$wl" "$@" --set sim.check_tlm=true --out "$tmp/checked$n" > "$tmp/log$n" ||
        { err "$cfg $wl $* with sim.check_tlm: exit $?"; return; }
    grep -q "TLM-2.0 check .* transactions on [1-9][0-9]* AT bindings, no protocol violation" "$tmp/log$n" ||
        err "$cfg $wl $*: no TLM-2.0 check line in the summary"
    grep -q "check_tlm: true" "$tmp/checked$n/config.yaml" || err "$cfg $wl $*: resolved config lacks sim.check_tlm"
    [ "$(stats_of "$tmp/plain$n/stats.json")" = "$(stats_of "$tmp/checked$n/stats.json")" ] ||
        err "$cfg $wl $*: statistics differ with sim.check_tlm"
}
check dram-ddr3.yaml workloads/traffic/mixed.json
check dram-ddr4.yaml workloads/traffic/random.json --set dram.queue_depth=2
check nmp.yaml workloads/lenet5.json
check nmp.yaml workloads/lenet5.json --set dram.queue_depth=1 --set tso.calibration=none  # the calibration is made for the default queue
check mesh-3x1.yaml workloads/lenet5.json --set dram.queue_depth=1 --set mapper.calibration=none  # likewise
check vta.yaml workloads/vta/resnet20_full.json --set dram.queue_depth=1 --set vta_compiler.calibration=none
# A recorded DRAM trace replayed by the trace player.
"$vp_run" "$root/configs/dram-ddr3.yaml" "$root/workloads/traffic/mixed.json" --set dram.record_trace="$tmp/mix.stl" \
    --quiet --out "$tmp/rec" || err "recording a trace: exit $?"
echo "{\"kind\": \"dram_trace\", \"name\": \"replay\", \"file\": \"$tmp/mix.stl\", \"max_outstanding\": 24}" > "$tmp/replay.json"
n=$((n + 1))
"$vp_run" "$root/configs/dram-ddr3.yaml" "$tmp/replay.json" --set dram.queue_depth=2 --set sim.check_tlm=true \
    --out "$tmp/replay" > "$tmp/log_replay" || err "trace replay with sim.check_tlm: exit $?"
grep -q "TLM-2.0 check .* no protocol violation" "$tmp/log_replay" || err "trace replay: no TLM-2.0 check line"
"$vp_run" "$root/configs/vta.yaml" "$root/workloads/vta/matmul_16x16.json" --set sim.check_tlm=maybe --quiet --out "$tmp/bad" \
    > /dev/null 2>&1
[ $? -eq 2 ] || err "sim.check_tlm=maybe is not rejected with exit code 2"
[ $fail -eq 0 ] && echo "tlm check: all checks passed ($n configurations)"
[ $fail -eq 0 ]
