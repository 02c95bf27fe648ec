#!/usr/bin/env bash
# NMP platform: every malformed config / workload / override gives exit code 2, an error that
# names the file and key or JSON pointer (tests/data/nmp_bad/expect.txt), and no output folder.
set -u
vp_run=$1; root=$2
bad=$root/tests/data/nmp_bad
cfg=$root/configs/nmp.yaml; wl=$root/workloads/lenet5.json
. "$root/tests/cli/lib/expect_input_error.sh"
run_corpus "$bad" "$cfg" workloads/lenet5.json 10
check set_tiny_mb0 "at /layers/0: layer \"C1\": no TLT tile fits the TLT memories (nmp.mb0_bytes=16" \
  "$cfg" "$wl" --set nmp.mb0_bytes=16 --set tso.calibration=none
check set_tiny_mb1 "nmp.mb1_bytes=8" "$cfg" "$wl" --set nmp.mb1_bytes=8 --set tso.calibration=none
check set_zero_tle "--set nmp.n_tle: expected an integer in [1, 1024]" "$cfg" "$wl" --set nmp.n_tle=0
check set_zero_tlt "--set nmp.n_tlt: expected an integer in [1, 1024]" "$cfg" "$wl" --set nmp.n_tlt=0
check set_bad_slicing "--set tso.fixed_slicing: unknown TLE slicing \"KS-OFM\"" "$cfg" "$wl" --set tso.fixed_slicing=KS-OFM
check set_bad_schedule "--set tso.fixed_schedule: unknown TLT schedule" "$cfg" "$wl" --set tso.fixed_schedule=XS
check set_zero_macs "--set nmp.macs_per_cycle: expected a positive integer" "$cfg" "$wl" --set nmp.macs_per_cycle=0
check set_unknown_key "--set nmp.mb3_bytes" "$cfg" "$wl" --set nmp.mb3_bytes=1
check set_ring_width "--set nmp.ring.width_bytes: expected a link width in [1, 4096]" "$cfg" "$wl" --set nmp.ring.width_bytes=0
check set_ring_hop "--set nmp.ring.hop_cycles: expected a hop latency" "$cfg" "$wl" --set nmp.ring.hop_cycles=-1
check set_ring_packet "--set nmp.ring.packet_flits: expected a packet size" "$cfg" "$wl" --set nmp.ring.packet_flits=0
check set_ring_buffer "--set nmp.ring.buffer_flits: expected a buffer depth" "$cfg" "$wl" --set nmp.ring.buffer_flits=7
check set_ring_unknown "--set nmp.ring.width" "$cfg" "$wl" --set nmp.ring.width=8
check set_ifm_ch_flag "tso.ifm_channel_slicing" "$cfg" "$wl" --set tso.ifm_channel_slicing=maybe
check set_ifm_ch_tile "tso.fixed_tile" "$cfg" "$wl" --set tso.fixed_slicing=IFM-CH --set tso.fixed_schedule=OS --set tso.fixed_tile=1,99,1,1
check traffic_workload "the nmp platform" "$cfg" "$root/workloads/traffic/stream.json"
check traffic_workload_says_network "runs network workloads" "$cfg" "$root/workloads/traffic/stream.json"
finish
