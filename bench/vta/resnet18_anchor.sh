#!/usr/bin/env bash
# External timing anchor: ResNet-18 v1 (224x224, tests/data/onnx/resnet18.onnx, torchvision graph
# without weights: weights from the seed) on the default VTA (configs/vta.yaml) against the
# cycles TVM's VTA cycle simulator (tsim) reports for the network on the pipelined-GEMM Chisel
# core: 7,729,601 (27,679,515 before pipelining; apache/tvm-vta pull request 30). TVM's example
# flow runs on the VTA only what graph_pack packs between nn.max_pool2d and
# nn.global_avg_pool2d (the first conv is skipped by the quantizer: skip_conv_layers=[0]), so the
# comparison region is layer1..layer4 (convs, residual adds); conv1, maxpool, avgpool and fc are
# listed apart. Writes OUT/resnet18_anchor.csv (per layer) and prints the breakdown.
# Modes: vt (two virtual threads, im2row), single (single buffering, im2row), direct (two
# virtual threads, convolution without im2row: vta_compiler.conv_lowering direct),
# direct_single.
#   bench/vta/resnet18_anchor.sh OUT_DIR   (VP_RUN, VP_IMPORT, CONFIG, MODES = "vt single direct direct_single")
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: bench/vta/resnet18_anchor.sh OUT_DIR}
vp_run=${VP_RUN:-$here/build/platform/vp-run}
vp_import=${VP_IMPORT:-$here/build/platform/vp-import}
cfg=${CONFIG:-$here/configs/vta.yaml}
mkdir -p "$out"; tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$vp_import" "$here/tests/data/onnx/resnet18.onnx" -o "$tmp/resnet18.json" --quiet || exit 2
modes=${MODES:-vt single direct direct_single}
for mode in $modes; do
  case $mode in
    vt) db=true; low=im2row ;;
    single) db=false; low=im2row ;;
    direct) db=true; low=direct ;;
    direct_single) db=false; low=direct ;;
    auto) db=true; low=auto ;;
    *) echo "resnet18_anchor: unknown mode $mode (vt, single, direct, direct_single, auto)" >&2; exit 2 ;;
  esac
  s=$(date +%s.%N)
  "$vp_run" "$cfg" "$tmp/resnet18.json" --out "$tmp/$mode" --quiet --set "vta_compiler.double_buffer=$db" \
    --set "vta_compiler.conv_lowering=$low" || exit 3
  echo "$mode wall $(echo "$(date +%s.%N) - $s" | bc) s" >&2
done
/usr/bin/python3 - "$tmp" "$out" $modes <<'PY'
import json, sys
tmp, out, modes = sys.argv[1], sys.argv[2], sys.argv[3:]
TSIM = 7729601
rows = []
for mode in modes:
    m = json.load(open("%s/%s/mapping.json" % (tmp, mode)))
    st = json.load(open("%s/%s/stats.json" % (tmp, mode)))["stats"]["vta"]
    per = {}
    for p in m["programs"]:
        d = per.setdefault(p["layer"], {"cycles": 0, "gemm_uops": 0, "alu_uops": 0, "insns": 0, "dram_bytes": 0,
                                        "inp": 0, "wgt": 0, "acc": 0, "uop": 0, "out": 0, "programs": 0})
        d["programs"] += 1
        for k in ("gemm_uops", "alu_uops", "dram_bytes"): d[k] += p[k]
        d["cycles"] += p["simulated_cycles"]; d["insns"] += p["instructions"]
        for k in ("inp", "wgt", "acc", "uop", "out"): d[k] += p["dma_bytes"][k]
    host = lambda n: n.startswith("/conv1/") or "maxpool" in n or "avgpool" in n or n.startswith("/fc/")
    tot = {"vta_part": {}, "cpu_part_in_tvm": {}}
    for name, d in per.items():
        part = "cpu_part_in_tvm" if host(name) else "vta_part"
        rows.append([mode, name, part] + [d[k] for k in ("programs", "cycles", "gemm_uops", "alu_uops", "insns", "dram_bytes", "inp", "wgt", "acc", "uop", "out")])
        for k, v in d.items(): tot[part][k] = tot[part].get(k, 0) + v
    v = tot["vta_part"]
    print("%s: whole network %d core cycles; TVM's VTA region (layer1..layer4) %d cycles = %.3f x tsim %d" %
          (mode, sum(d["cycles"] for d in per.values()), v["cycles"], v["cycles"] / TSIM, TSIM))
    print("  region: GEMM micro-ops %d (%.1f %% of its cycles), ALU micro-ops %d (x %d cycles = %d), instructions %d" %
          (v["gemm_uops"], 100.0 * v["gemm_uops"] / v["cycles"], v["alu_uops"], 2, 2 * v["alu_uops"], v["insns"]))
    print("  region DMA bytes: inp %d, wgt %d, acc %d, uop %d, out %d, total with instruction fetch %d" %
          (v["inp"], v["wgt"], v["acc"], v["uop"], v["out"], v["dram_bytes"]))
    print("  region cycles not covered by GEMM + ALU micro-ops: %d" % (v["cycles"] - v["gemm_uops"] - 2 * v["alu_uops"]))
    c = tot["cpu_part_in_tvm"]
    print("  conv1 + maxpool + avgpool + fc (CPU in TVM's flow): %d cycles" % c["cycles"])
    ps = 1e12 / 100e6
    for mod in ("load", "compute", "store"):
        s = st[mod]["state"]["value"]
        print("  %s module over the whole run (core time only, host gaps are idle): busy %.0f, waiting on a token %.0f cycles" %
              (mod, s["busy"] / ps, s["wait_token"] / ps))
with open(out + "/resnet18_anchor.csv", "w") as f:
    f.write("mode,layer,part,programs,sim_cycles,gemm_uops,alu_uops,instructions,dram_bytes,inp_bytes,wgt_bytes,acc_bytes,uop_bytes,out_bytes\n")
    for r in rows: f.write(",".join(str(x) for x in r) + "\n")
print("wrote %s/resnet18_anchor.csv" % out)
PY
