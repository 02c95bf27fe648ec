#!/usr/bin/env bash
# Mesh platform: bad configurations and workloads (a layer whose smallest tile does not fit the
# SRAM, a DRAM interface outside the mesh, a mesh too small for the cores named, ...) give exit
# code 2, an error naming the file and key (tests/data/mesh_bad/expect.txt), and no output folder.
# $1 = vp-run, $2 = source root.
set -u
vp_run=$1; root=$2
bad=$root/tests/data/mesh_bad
cfg=$root/configs/mesh-3x1.yaml; wl=$root/workloads/alexnet.json
. "$root/tests/cli/lib/expect_input_error.sh"
run_corpus "$bad" "$cfg" workloads/alexnet.json 8
check set_tiny_sram "increase core.sram_bytes" "$cfg" "$wl" --set core.sram_bytes=256 --set mapper.calibration=none
check set_mesh_too_small "mesh.width: the 2x1 mesh has no node left for a processing core" "$cfg" "$wl" \
  --set mesh.width=2 --set 'mesh.cores=[]' --set 'mesh.master=[1,0]'
check set_dram_if_outside "DRAM interface (0, 4) is outside" "$cfg" "$wl" --set 'mesh.dram_ifs=[[0,4]]'
check set_bad_objective "min-speed" "$cfg" "$wl" --set mapper.objective=min-speed
check set_bad_routing "noc.routing" "$cfg" "$wl" --set noc.routing=zigzag
check set_one_vc_two_classes "noc.num_vcs: message_classes 'separate'" "$cfg" "$wl" --set noc.num_vcs=1 --set mapper.calibration=none
check set_bad_classes "noc.message_classes: unknown message_classes 'split'; known: separate, shared" "$cfg" "$wl" \
  --set noc.message_classes=split
check set_request_vcs_all "noc.request_vcs" "$cfg" "$wl" --set noc.request_vcs=2
check traffic_workload "runs network workloads" "$cfg" "$root/workloads/traffic/stream.json"
# Control: the unmodified configuration runs (exit 0), so the cases above fail for their reason.
if (cd "$root" && timeout 120 "$vp_run" "$cfg" "$root/workloads/lenet5.json" --out "$tmp/ok" --quiet >/dev/null 2>&1); then
  pass=$((pass + 1))
else
  fail=$((fail + 1)); echo "FAIL control: $cfg with lenet5 did not run"
fi
finish
