#!/usr/bin/env bash
# Trust of the nmp and mesh time models on networks that neither the calibration nor the other
# trust benches use: the torchvision models of tests/data/onnx/ that have no counterpart in
# workloads/ (ResNet-18, GoogLeNet, MobileNetV3-Small, ShuffleNetV2 x0.5, DenseNet-121, and, added
# later, EfficientNet-B0, RegNetY-400MF, ResNeXt-50 32x4d, MNASNet 0.5, then MobileNetV3-Large,
# RegNetX-400MF, ShuffleNetV2 x1.0, MNASNet 1.0, EfficientNetV2-S, ResNet-34,
# Wide ResNet-50-2, VGG-11-BN, and the segmentation network FCN-ResNet50 with its dilated
# convolutions, and DeepLabV3-MobileNetV3-Large with its ASPP branches of dilation 12-36, then
# ConvNeXt-Tiny with its LayerNorms, GELUs and channels-last pointwise layers; not
# SqueezeNet 1.0, a fixture too, which workloads/ has; and a second set, added on 2026-12-07 and
# run on the model of that day, which the day left unchanged: ConvNeXt-Small, DenseNet-161, EfficientNet-B3
# at 300 x 300, RegNetX-800MF, RegNetY-1.6GF, ShuffleNetV2 x1.5, MNASNet 0.75, VGG-13,
# LR-ASPP-MobileNetV3-Large, DeepLabV3-ResNet50 and ResNet-50 on a 199 x 257 map), imported
# by vp-import (8 and 16 bit for nmp; the mesh ignores the precision; the VTA computes in int8)
# and simulated in full with the default (calibrated) model of each config, unrefined. The
# fixtures keep their initializers' shapes but not their values, which nmp and mesh do not need;
# the VTA, which computes, takes the weights vp-run draws from the seed for initializers without
# values (its cycles do not depend on the values). Networks with a layer the VTA does not run
# (hard-sigmoid, sigmoid, a linear resize, a layernorm) are
# listed as skipped on vta.
# Writes OUT/trust.csv (one row per config, network, precision: layers, median / worst
# |sim/est - 1| in %, Spearman rho, total simulated and estimated cycles, wall seconds) and
# OUT/layers.csv (per layer: estimated and simulated cycles, sim/est - 1).
#   bench/heldout/trust.sh OUT_DIR   (BINDIR = build/platform, CONFIGS = "nmp mesh-4x4 mesh-8x8 vta",
#                                     MODELS = the thirty-one above, RUN_ARGS = extra vp-run arguments)
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: bench/heldout/trust.sh OUT_DIR}
bindir=${BINDIR:-$here/build/platform}
read -r -a cfgs <<< "${CONFIGS:-nmp mesh-4x4 mesh-8x8 vta}"
read -r -a models <<< "${MODELS:-resnet18 googlenet mobilenet_v3_small shufflenet_v2_x0_5 densenet121 efficientnet_b0 regnet_y_400mf resnext50_32x4d mnasnet0_5 mobilenet_v3_large regnet_x_400mf shufflenet_v2_x1_0 mnasnet1_0 efficientnet_v2_s resnet34 wide_resnet50_2 vgg11_bn fcn_resnet50 deeplabv3_mobilenet_v3_large convnext_tiny convnext_small densenet161 efficientnet_b3 regnet_x_800mf regnet_y_1_6gf shufflenet_v2_x1_5 mnasnet0_75 vgg13 lraspp_mobilenet_v3_large deeplabv3_resnet50 resnet50_199x257}"
read -r -a extra <<< "${RUN_ARGS:-}"
mkdir -p "$out"; tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "config,network,precision,layers,median_abs_err_pct,worst_abs_err_pct,spearman_rho,sim_cycles,est_cycles,wall_s" > "$out/trust.csv"
echo "config,network,precision,layer,est_cycles,sim_cycles,sim_over_est_minus_1" > "$out/layers.csv"
fail=0
for m in "${models[@]}"; do
  for p in 8 16; do
    if ! "$bindir/vp-import" "$here/tests/data/onnx/$m.onnx" -o "$tmp/${m}_$p.json" --precision "$p" --quiet 2> "$tmp/err"; then
      echo "heldout: vp-import $m failed: $(tail -1 "$tmp/err")" >&2; fail=1; continue; fi
  done
  for c in "${cfgs[@]}"; do
    case $c in nmp*) precs=(8 16) ;; *) precs=(8) ;; esac  # the mesh moves core.word_bits words whatever the workload's precision; the VTA is int8
    for p in "${precs[@]}"; do
      [ -f "$tmp/${m}_$p.json" ] || continue
      d=$tmp/run; rm -rf "$d"
      s=$(date +%s.%N)
      if ! "$bindir/vp-run" "$here/configs/$c.yaml" "$tmp/${m}_$p.json" --out "$d" --quiet "${extra[@]}" 2> "$tmp/err"; then
        if [[ $c == vta* ]] && grep -q "not run on the VTA" "$tmp/err"; then
          echo "heldout: $c $m skipped: $(tail -1 "$tmp/err")" >&2; continue; fi
        echo "heldout: $c $m $p failed: $(tail -1 "$tmp/err")" >&2; fail=1; continue; fi
      e=$(date +%s.%N)
      # Per layer (nmp: mapping.json's simulation[]; mesh: layers[] with a simulation; vta:
      # layers[] with estimated and simulated cycles).
      jq -r --arg c "$c" --arg n "$m" --arg p "$p" '
        (if .simulation | type == "array"
         then [.simulation[] | {name: .layer, est: .estimated_cycles, sim: .simulated_cycles}]
         elif .platform == "vta"
         then [.layers[] | select(.estimated_cycles and .simulated_cycles) | {name, est: .estimated_cycles, sim: .simulated_cycles}]
         else [.layers[] | select(.simulation and .estimate) | {name, est: .estimate.cycles, sim: .simulation.cycles}] end) as $l
        | $l[] | [$c, $n, $p, .name, .est, .sim, (.sim / .est - 1)] | map(tostring) | join(",")' \
        "$d/mapping.json" > "$tmp/l.csv"
      cat "$tmp/l.csv" >> "$out/layers.csv"
      row=$(jq -r --arg c "$c" --arg n "$m" --arg p "$p" --arg w "$(echo "$e - $s" | bc)" \
        --argjson est "$(awk -F, '{s += $5} END {printf "%.3f", s}' "$tmp/l.csv")" \
        --argjson sim "$(awk -F, '{s += $6} END {printf "%.3f", s}' "$tmp/l.csv")" \
        '[$c, $n, $p, .trust.layers, (.trust.median_abs_sim_over_est_minus_1 * 100),
          (.trust.worst_abs_sim_over_est_minus_1 * 100), .trust.spearman_rho, $sim, $est, $w] | map(tostring) | join(",")' "$d/mapping.json")
      echo "$row" >> "$out/trust.csv"; echo "$row" >&2
    done
  done
done
echo "heldout: wrote $out/trust.csv and $out/layers.csv" >&2
exit $fail
