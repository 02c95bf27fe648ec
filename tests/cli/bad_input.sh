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
# Each key within its range, their product beyond what elaboration can hold (1M TLT modules;
# 65,280 core threads, past the kernel's map count; 11 GiB of NoC buffers).
check nmp_tlt_total "n_tle x n_tlt = 1048576 TLTs, expected at most 65536 in all" \
  configs/nmp.yaml workloads/lenet5.json --set nmp.n_tle=1024 --set nmp.n_tlt=1024
check mesh_nodes_total "the 256x255 mesh has 65280 nodes, at most 16384 (128 x 128) for the mesh platform" \
  configs/mesh-4x4.yaml workloads/lenet5.json --set mesh.width=256 --set mesh.height=255
check noc_memory "the 128x128 network would allocate 11.3 GiB up front (router buffers" \
  configs/mesh-8x8-synthetic.yaml workloads/traffic/uniform.json --set mesh.width=128 --set mesh.height=128 \
  --set noc.buffer_depth=1024 --set noc.num_vcs=12
check missing_args "CONFIG and WORKLOAD are required" "$cfg"
# dram.max_request_bytes below the largest request a platform issues: the controller answered
# those with errors (exit 3 on nmp, an internal error on vta and mesh); now refused up front.
check max_request_traffic "at /streams/0/bytes: 64 bytes exceeds dram.max_request_bytes = 32" \
  "$cfg" workloads/traffic/mixed.json --set dram.max_request_bytes=32
check max_request_nmp "dram.max_request_bytes: 64 bytes is less than the 128-byte DRAM requests of nmp.burst_bytes" \
  configs/nmp.yaml workloads/lenet5.json --set dram.max_request_bytes=64
check max_request_nmp_txn "DRAM requests of nmp.dma_txn_bytes" \
  configs/nmp.yaml workloads/lenet5.json --set dram.max_request_bytes=64 --set nmp.dma_txn_bytes=256
check max_request_vta "255 bytes is less than the 256-byte DRAM requests of vta.dma_burst_bytes" \
  configs/vta.yaml workloads/lenet5.json --set dram.max_request_bytes=255
check max_request_mesh "DRAM requests of mesh.packet.max_payload_bytes" \
  configs/mesh-4x4.yaml workloads/lenet5.json --set dram.max_request_bytes=63
check max_request_vta_element "less than the 1024-byte DRAM requests of the VTA's DMA (an element is moved whole, and at vta.log_block = 5" \
  configs/vta.yaml workloads/lenet_caffe.json --allow-unused --set vta.log_block=5 --set vta.log_inp_buff_size=14 \
  --set vta.log_wgt_buff_size=18 --set vta.log_acc_buff_size=16 --set vta.log_uop_buff_size=14 --set dram.max_request_bytes=512
check max_request_check "DRAM requests of vta.dma_burst_bytes" \
  configs/vta.yaml workloads/lenet5.json --set dram.max_request_bytes=255 --check
for c in "configs/nmp.yaml --set dram.max_request_bytes=128" "configs/vta.yaml --set dram.max_request_bytes=256" \
         "configs/mesh-4x4.yaml --set dram.max_request_bytes=64"; do
  # shellcheck disable=SC2086
  (cd "$root" && "$vp_run" ${c%% *} workloads/lenet5.json ${c#* } --out "$tmp/ok" --quiet 2>/dev/null)
  if [ $? -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL the limit itself runs: $c"; fi
  rm -rf "$tmp/ok"
done
finish
