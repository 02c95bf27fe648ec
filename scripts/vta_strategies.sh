#!/usr/bin/env bash
# Per-layer comparison of the VTA matrix partitioning strategies (Compilation and Execution of an Embeddable YOLO-NAS on the VTA strategies 1-4 and
# "auto" = fewest estimated cycles) on LeNet-5, ResNet-20 and YOLOv3-tiny: simulated core cycles and
# DRAM bytes per layer on the timed model (bench_vta), one CSV plus PNG plots.
#
#   scripts/vta_strategies.sh OUT_DIR [--double-buffer]
#
# bench_vta is taken from $BENCH_VTA, else build/bench/bench_vta. gnuplot is installed
# (Debian gnuplot-nox) when missing. Outputs: OUT_DIR/vta_strategies.csv,
# OUT_DIR/vta_strategies_<net>.png (cycles and DRAM bytes per layer, one bar per strategy),
# OUT_DIR/vta_strategies_totals.csv.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
out=$1; shift
extra=()
[ "${1:-}" = "--double-buffer" ] && extra+=(--double-buffer)
bench=${BENCH_VTA:-$here/build/bench/bench_vta}
[ -x "$bench" ] || { echo "vta_strategies: $bench not found (build target bench_vta or set BENCH_VTA)" >&2; exit 2; }
if ! command -v gnuplot >/dev/null; then
  echo "vta_strategies: installing gnuplot-nox" >&2
  apt-get install -y gnuplot-nox >/dev/null || { echo "vta_strategies: gnuplot is missing and could not be installed" >&2; exit 2; }
fi
mkdir -p "$out"
csv=$out/vta_strategies.csv
rm -f "$csv"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
nets=(lenet5_full resnet20 yolov3_tiny)
for net in "${nets[@]}"; do
  for s in 1 2 3 4 auto; do
    echo "== $net strategy $s" >&2
    "$bench" "$here/workloads/$net.json" --strategy "$s" --csv "$csv" "${extra[@]}" 2>&1 | grep -v '^Info\|^$' >&2 ||
      { echo "vta_strategies: $net strategy $s failed" >&2; exit 1; }
  done
done
# Totals per network and strategy.
awk -F, 'NR > 1 { k = $1 "," $4; c[k] += $8; e[k] += $9; b[k] += $10; if (!(k in o)) { o[k] = ++n; key[n] = k } }
         END { print "network,strategy_option,sim_cycles,est_cycles,dram_bytes";
               for (i = 1; i <= n; ++i) print key[i] "," c[key[i]] "," e[key[i]] "," b[key[i]] }' "$csv" > "$out/vta_strategies_totals.csv"
# One PNG per network: cycles (top) and DRAM bytes (bottom), clustered bars per layer.
for net in "${nets[@]}"; do
  dat=$out/.${net}.dat
  awk -F, -v net="$net" 'NR > 1 && $1 == net { i = $3; name[i] = $2; cyc[i, $4] = $8; by[i, $4] = $10; if (i > m) m = i }
      END { split("1 2 3 4 auto", S, " ");
            for (i = 0; i <= m; ++i) { line = name[i]; for (j = 1; j <= 5; ++j) line = line " " cyc[i, S[j]];
                                       for (j = 1; j <= 5; ++j) line = line " " by[i, S[j]]; print line } }' "$csv" > "$dat"
  gnuplot <<GP
set terminal pngcairo size 1400,900 noenhanced font ",9"
set output "$out/vta_strategies_$net.png"
set multiplot layout 2,1 title "$net on VTA: per-layer strategy comparison (timed model, DDR3-1600)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set grid ytics
set key top right
set xtics rotate by 45 right
set ylabel "core cycles"
set logscale y
plot "$dat" using 2:xtic(1) title "S1", '' using 3 title "S2", '' using 4 title "S3", '' using 5 title "S4", '' using 6 title "auto"
set ylabel "DRAM bytes (DMA)"
plot "$dat" using 7:xtic(1) title "S1", '' using 8 title "S2", '' using 9 title "S3", '' using 10 title "S4", '' using 11 title "auto"
unset multiplot
GP
  rm -f "$dat"
done
echo "vta_strategies: wrote $csv, $out/vta_strategies_totals.csv and $(ls "$out"/vta_strategies_*.png | wc -l) PNG files" >&2
