#!/usr/bin/env bash
# vp-run --check refuses what the run refuses before it starts (run::check_run_inputs): for each
# bad input below, --check exits 2, the run exits 2 without an output folder, and both print the
# same first error line, which holds the expected words. Each of them once passed --check
# ("inputs ok", exit 0) while the run refused it. Inputs: tests/data/check_matches_run/ and the
# repository's configs and workloads.
# $1 = vp-run, $2 = source root.
set -u
vp_run=$1; root=$2
data=$root/tests/data/check_matches_run
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
first_error() { grep -m1 '^vp-run: error: ' <<< "$1"; }
# same NAME WORDS ARGS...: vp-run ARGS --check, and vp-run ARGS --out OUT (OUT: $tmp/out unless ARGS name one)
same() {
  local name=$1 want=$2; shift 2
  local out=() cerr rerr crc rrc c1 r1
  [[ " $* " == *" --out "* ]] || out=(--out "$tmp/out")
  cerr=$(cd "$root" && timeout 120 "$vp_run" "$@" --check --quiet 2>&1 >/dev/null); crc=$?
  rerr=$(cd "$root" && timeout 120 "$vp_run" "$@" "${out[@]}" --quiet 2>&1 >/dev/null); rrc=$?
  c1=$(first_error "$cerr"); r1=$(first_error "$rerr")
  if [ "$crc" -eq 2 ] && [ "$rrc" -eq 2 ] && [ -n "$r1" ] && [ "$c1" = "$r1" ] && [[ "$r1" == *"$want"* ]] &&
     [ ! -e "$tmp/out" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $name: want exit 2 twice and one error line with \"$want\""
    echo "  --check: exit $crc: ${c1:-$cerr}"
    echo "  run:     exit $rrc: ${r1:-$rerr}"
  fi
  rm -rf "$tmp/out"
}
# accepted NAME ARGS...: --check exits 0 (the cases above fail for their reason, not for any input).
accepted() {
  local name=$1; shift
  if (cd "$root" && timeout 120 "$vp_run" "$@" --check --quiet >/dev/null 2>&1); then pass=$((pass + 1))
  else fail=$((fail + 1)); echo "FAIL $name: --check refused a good input"; fi
}

# DRAM traffic: streams and traces against the DRAM (the pointers are JSON pointers).
same stream_beyond_dram "stream_beyond_dram.json: at /streams/0/range: base + range = 1099578736640 exceeds the DRAM capacity" \
  configs/dram-ddr3.yaml "$data/stream_beyond_dram.json"
same stream_narrower_than_request "stream_range_small.json: at /streams/0/range: must be at least one request (bytes)" \
  configs/dram-ddr3.yaml "$data/stream_range_small.json"
same trace_beyond_dram "trace_beyond_dram.stl:2: address 4294967296 + 64 bytes exceeds the DRAM capacity" \
  configs/dram-ddr3.yaml "$data/trace_beyond_dram.json"

# VTA: the compiler's batch, --refine with a program or beyond the candidates, a program the
# compiler refuses, a network of host layers only.
same vta_log_batch "workloads/lenet5.json: layer C1: vta.log_batch: the VTA compiler supports only BATCH = 1" \
  configs/vta.yaml workloads/lenet5.json --set vta.log_batch=1
same vta_refine_ir_program "matmul_16x16.json: mapper.refine: the vta platform refines the partitioning strategy per layer of a network" \
  configs/vta.yaml workloads/vta/matmul_16x16.json --refine 2
same vta_refine_beyond_candidates "mapper.refine = 6: the vta platform has at most 5 candidates per layer" \
  configs/vta.yaml workloads/lenet5.json --refine 6
same vta_ir_compile "compile_too_wide.json: matrix too wide" configs/vta.yaml tests/data/vta_bad/compile_too_wide.json
same vta_host_layers_only "softmax_only.json: the network gives the VTA no program to run" \
  configs/vta.yaml "$data/softmax_only.json"

# nmp and mesh: a network without a conv or fc layer, JSON or ONNX (opset 13, one
# GlobalAveragePool on a 1x3x1x1 input).
same nmp_onnx_without_conv "gap_on_1x1.onnx: the network has no conv or fc layer for the NMP to run" \
  configs/nmp.yaml "$data/gap_on_1x1.onnx"
same nmp_without_conv "pool_only.json: the network has no conv or fc layer for the NMP to run" configs/nmp.yaml "$data/pool_only.json"
same mesh_without_conv "pool_only.json: the network has no conv or fc layer for the mesh to run" \
  configs/mesh-4x4.yaml "$data/pool_only.json"
# nmp: a layer that no TLT tile fits (a 76 x 78 kernel on a 76 x 76 map: one channel of the
# window is 11,552 B at 16 bit against MB0's 8 kB), a given tile that does not fit (99 filters
# per TLT where C1 has 6), a tso.fixed_layers name the network lacks.
same nmp_no_tile_fits 'kernel_76x78.json: at /layers/0: layer "c": no TLT tile fits the TLT memories' \
  configs/nmp.yaml "$data/kernel_76x78.json"
same nmp_fixed_tile 'workloads/lenet5.json: at /layers/0: layer "C1": tso.fixed_tile 99,1,1,1 (T_M,T_N,T_R,T_C) does not fit' \
  configs/nmp.yaml workloads/lenet5.json --set tso.fixed_slicing=KS --set tso.fixed_schedule=IS --set tso.fixed_tile=99,1,1,1
same nmp_fixed_layers_name 'tso.fixed_layers: the workload has no conv or fc layer named "C9"' \
  configs/nmp.yaml workloads/lenet5.json --set 'tso.fixed_layers=C9=KS/IS/1,1,1,1'
# mesh: a layer whose smallest tile exceeds a core's SRAM (AlexNet's 11 x 11 conv1 needs 289 words
# of 128), a fixed slice set that is not one of the layer's.
same mesh_sram_too_small 'workloads/alexnet.json: layer "conv1": the smallest tile (T'"'"'_of=1, T'"'"'_if=1, T'"'"'_ox=1, kernel 11x11) needs 289 SRAM words but the core has 128 words' \
  configs/mesh-4x4.yaml workloads/alexnet.json --set core.sram_bytes=256
same mesh_fixed_slices 'workloads/lenet5.json: layer "C1": mapper.fixed_slices T_of=4, T_ox=7 is not a slice set of this layer' \
  configs/mesh-4x4.yaml workloads/lenet5.json --set mapper.fixed_slices=4,7,2

# Configuration: a clock the platform lacks, one VC for two message classes, an int key's range.
same epoch_clock '--set stats.epoch: "100 noc cycles": the nmp platform has no "noc" clock (its clocks: core, dram)' \
  configs/nmp.yaml workloads/lenet5.json --set 'stats.epoch=100 noc cycles'
same mesh_one_vc "--set noc.num_vcs: message_classes 'separate' puts requests and responses on disjoint virtual channels" \
  configs/mesh-4x4.yaml workloads/lenet5.json --set noc.num_vcs=1
same int_key_range "--set nmp.n_tle: value 3000000000 out of range (expected 1..1024)" \
  configs/nmp.yaml workloads/lenet5.json --set nmp.n_tle=3000000000
same int_key_range_text '--set vta.log_acc_buff_size: expected an integer (expected 4..24), found "x"' \
  configs/vta.yaml workloads/lenet5.json --set vta.log_acc_buff_size=x

# Command line: an --out of someone else's files; FST waveforms without GTKWave's converter.
mkdir -p "$tmp/notes" && echo "mine" > "$tmp/notes/todo.txt"
same out_foreign_folder "--out $tmp/notes: exists and is not a vp-run output folder (it holds todo.txt)" \
  configs/nmp.yaml workloads/lenet5.json --out "$tmp/notes"
if ! command -v vcd2fst >/dev/null; then
  same fst_without_vcd2fst "trace.format: fst needs vcd2fst" configs/dram-ddr3.yaml workloads/traffic/stream.json \
    --trace --set trace.format=fst
else
  echo "(vcd2fst is installed: the trace.format fst case does not apply)"
fi

# Controls: the same platforms and workloads without the fault pass --check.
accepted dram_stream configs/dram-ddr3.yaml workloads/traffic/stream.json
accepted vta_program configs/vta.yaml workloads/vta/matmul_16x16.json
accepted vta_network_refined configs/vta.yaml workloads/lenet5.json --refine 5
accepted nmp_network configs/nmp.yaml workloads/lenet5.json --set 'stats.epoch=100 core cycles' --out "$tmp/fresh"
[ ! -e "$tmp/fresh" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL --check --out created the folder"; }

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -ge 26 ]
