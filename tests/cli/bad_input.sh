#!/usr/bin/env bash
# Every malformed config/workload of tests/data/bad gives exit code 2 and an error that
# names the problem (tests/data/bad/expect.txt); none crashes, hangs or writes outputs.
set -u
vp_run=$1; root=$2
bad=$root/tests/data/bad
. "$root/tests/cli/lib/expect_input_error.sh"
run_corpus "$bad" "$root/configs/dram-ddr3.yaml" "$root/workloads/traffic/stream.json" 20
cfg=$root/configs/dram-ddr3.yaml; wl=$root/workloads/traffic/stream.json
check missing_config "cannot open file" "$bad/does_not_exist.yaml" "$wl"
check missing_workload "cannot open file" "$cfg" "$bad/does_not_exist.json"
check set_unknown_key "--set dram.shceduler" "$cfg" "$wl" --set dram.shceduler=fcfs
check set_bad_value "--set dram.scheduler" "$cfg" "$wl" --set dram.scheduler=lifo
check set_no_equals "expected key.path=value" "$cfg" "$wl" --set dram.scheduler
check set_bad_range "--set dram.timing.tRC" "$cfg" "$wl" --set dram.timing.tRC=3
check unknown_option "unrecognised option" "$cfg" "$wl" --frobnicate
check missing_args "CONFIG and WORKLOAD are required" "$cfg"
finish
