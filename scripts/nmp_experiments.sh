#!/usr/bin/env bash
# The experiments of Tensor Slicing and Optimization for Multicore NPUs (TSO on the multi-TLE NMP) on every network of workloads/*.json,
# each mapping both estimated by the mapper and simulated by vp-run on the same DRAM model:
#   (a) TSO-burst vs TSO-noburst speedup           -> burst_vs_noburst.csv, burst_vs_noburst_<p>.png
#   (b) LOAD / STORE / MAC time split, TSO-noburst -> breakdown.csv, breakdown_<p>.png
#   (c) fixed TLE slicing / fixed TLT schedule     -> fixed_modes.csv, fixed_modes_<p>.png
#   (d) roofline of every conv (simulated)         -> layers.csv, roofline_<p>.png
#
#   scripts/nmp_experiments.sh OUT_DIR
#
# Environment: PRECISION = 8 | 16 | both (default both; the paper uses 16-bit data, the
# workloads are 8-bit: 16-bit copies are made with sed), NETWORKS = "lenet5 resnet50 ..."
# (default: every workloads/*.json), VP_RUN (default build/platform/vp-run; vp-map is taken from
# the same folder), CONFIG (default configs/nmp.yaml), PLOT_ONLY=1 (redo the summaries and plots
# from an earlier OUT_DIR). jq and gnuplot (Debian gnuplot-nox) are installed when missing.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
out=$1
prec_sel=${PRECISION:-both}
case "$prec_sel" in 8) precs=(8) ;; 16) precs=(16) ;; both) precs=(8 16) ;;
  *) echo "nmp_experiments: PRECISION must be 8, 16 or both (got \"$prec_sel\")" >&2; exit 2 ;; esac
cfg=${CONFIG:-$here/configs/nmp.yaml}
vp_run=${VP_RUN:-}
if [ -z "$vp_run" ]; then
  for c in "$here/build/platform/vp-run" "$(command -v vp-run 2>/dev/null)"; do
    [ -n "$c" ] && [ -x "$c" ] && { vp_run=$c; break; }
  done
fi
[ -x "${vp_run:-}" ] || { echo "nmp_experiments: vp-run not found (build it or set VP_RUN)" >&2; exit 2; }
vp_map=$(dirname "$vp_run")/vp-map
[ -x "$vp_map" ] || { echo "nmp_experiments: $vp_map not found (build target vp-map)" >&2; exit 2; }
need=()
command -v jq >/dev/null || need+=(jq)
command -v gnuplot >/dev/null || need+=(gnuplot-nox)
if [ ${#need[@]} -gt 0 ]; then
  echo "nmp_experiments: installing ${need[*]}" >&2
  apt-get install -y "${need[@]}" >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 &&
    apt-get install -y "${need[@]}" >/dev/null 2>&1; } ||
    { echo "nmp_experiments: ${need[*]} missing and could not be installed" >&2; exit 2; }
fi
if [ -n "${NETWORKS:-}" ]; then read -r -a nets <<< "$NETWORKS"
else nets=(); for f in "$here"/workloads/*.json; do nets+=("$(basename "$f" .json)"); done; fi

mkdir -p "$out"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
runs=$out/runs.csv        # one row per (network, precision, mapper mode)
layers=$out/layers.csv    # one row per conv of the TSO-burst and TSO-noburst runs
if [ "${PLOT_ONLY:-0}" != 1 ]; then
echo "network,precision,mode,est_s,est_burstcost_s,mac_s,load_s,store_s,load_vol_s,store_vol_s,fallback_layers,macs,dram_bytes,sim_s,sim_load_cyc,sim_store_cyc,sim_compute_wait_cyc,sim_barrier_cyc,clock_mhz,peak_gbs,wall_s" > "$runs"
echo "network,precision,mode,layer,macs,dram_bytes,est_cycles,est_burstcost_cycles,sim_cycles" > "$layers"
fi

# Mapper figures: the estimate under the mapping's own DRAM model (est_s) and re-costed with
# the burst model, T = T_MAC + T_SW + sum(bursts x CAS + bytes / BW) (est_burstcost_s), split
# into MAC (+SW), LOAD (IN + W) and STORE (OUT); *_vol_s = bytes / BW only.
jq_run='.nmp as $h | ($h.dram.cas_ns * 1e-9) as $cas | $h.dram.peak_bw_bytes_per_s as $bw |
  [.convs[] | {est: .estimate.total_s, mac: (.estimate.t_mac_s + .estimate.t_sw_s),
    load: ((.bursts.in + .bursts.w) * $cas + (.bytes.in + .bytes.w) / $bw),
    store: (.bursts.out * $cas + .bytes.out / $bw),
    lv: ((.bytes.in + .bytes.w) / $bw), sv: (.bytes.out / $bw), fb: (if .fallback then 1 else 0 end)}] as $c |
  [($c | map(.est) | add), ($c | map(.mac + .load + .store) | add), ($c | map(.mac) | add),
   ($c | map(.load) | add), ($c | map(.store) | add), ($c | map(.lv) | add), ($c | map(.sv) | add),
   ($c | map(.fb) | add), .totals.macs, .totals.bytes] | map(tostring) | join(",")'
jq_stats='.stats as $s | [$s.nmp | to_entries[] | select(.key | startswith("tle[")) | .value] as $t |
  [.meta.sim_time_ns * 1e-9, ($t | map(.load_cycles.value) | add), ($t | map(.store_cycles.value) | add),
   ($t | map(.dma_wait_cycles.value) | add), ($t | map(.barrier_cycles.value) | add),
   $s.dram.peak_bandwidth.value] | map(tostring) | join(",")'
jq_layers='.nmp as $h | ($h.dram.cas_ns * 1e-9) as $cas | $h.dram.peak_bw_bytes_per_s as $bw | ($h.clock_mhz * 1e6) as $f |
  [.convs, .simulation] | transpose[] | . as [$c, $s] |
  [$c.layer, $c.macs, $c.bytes.total, ($s.estimated_cycles * 100 | round / 100),
   ((($c.estimate.t_mac_s + $c.estimate.t_sw_s + $c.bursts.total * $cas + $c.bytes.total / $bw) * $f) * 100 | round / 100),
   ($s.simulated_cycles * 100 | round / 100)] | map(tostring) | join(",")'

modes=(burst noburst KS "KS&OFM" OFM IS OS WS)
for p in "${precs[@]}"; do
  [ "${PLOT_ONLY:-0}" = 1 ] && break  # PLOT_ONLY=1: summaries and plots from OUT_DIR/{runs,layers}.csv
  for net in "${nets[@]}"; do
    wl=$here/workloads/$net.json
    [ -f "$wl" ] || { echo "nmp_experiments: $wl not found" >&2; exit 2; }
    if [ "$p" = 16 ]; then  # 16-bit copy of the 8-bit workload
      sed -E 's/"precision"[[:space:]]*:[[:space:]]*8/"precision": 16/' "$wl" > "$tmp/$net.json"
      grep -q '"precision": 16' "$tmp/$net.json" || { echo "nmp_experiments: no precision in $wl" >&2; exit 2; }
      wl=$tmp/$net.json
    fi
    for m in "${modes[@]}"; do
      case "$m" in
        burst|noburst) set_args=(--set "tso.dram_model=$m") ;;
        IS|OS|WS) set_args=(--set tso.dram_model=burst --set "tso.fixed_schedule=$m") ;;
        *) set_args=(--set tso.dram_model=burst --set "tso.fixed_slicing=$m") ;;
      esac
      d=$tmp/run
      echo "== $net ${p}-bit $m" >&2
      "$vp_run" "$cfg" "$wl" --out "$d" --quiet "${set_args[@]}" ||
        { echo "nmp_experiments: vp-run failed for $net ${p}-bit $m" >&2; exit 1; }
      mapper=$(jq -r "$jq_run" "$d/mapping.json")
      sim=$(jq -r "$jq_stats" "$d/stats.json")
      clock=$(jq -r '.nmp.clock_mhz' "$d/mapping.json")
      wall=$(jq -r '.wall_time_s' "$d/run.json")
      IFS=, read -r sim_s l s w b peak <<< "$sim"
      echo "$net,$p,$m,$mapper,$sim_s,$l,$s,$w,$b,$clock,$peak,$wall" >> "$runs"
      if [ "$m" = burst ] || [ "$m" = noburst ]; then
        jq -r "$jq_layers" "$d/mapping.json" | sed "s/^/$net,$p,$m,/" >> "$layers"
      fi
    done
  done
done

# (a) burst vs noburst: speedup of the TSO-burst mapping over the TSO-noburst mapping, both
# costed with the burst model (mapper) and both simulated on the same DRAM controller.
awk -F, 'NR > 1 { k = $1 "," $2; e[k "," $3] = $5; own[k "," $3] = $4; s[k "," $3] = $14; if (!(k in seen)) { seen[k] = 1; ord[++n] = k } }
  END { print "network,precision,est_burst_ms,est_noburst_ms,est_speedup_pct,sim_burst_ms,sim_noburst_ms,sim_speedup_pct,noburst_own_estimate_ms";
        for (i = 1; i <= n; i++) { k = ord[i];
          printf "%s,%.4f,%.4f,%.2f,%.4f,%.4f,%.2f,%.4f\n", k, 1e3 * e[k ",burst"], 1e3 * e[k ",noburst"],
            100 * (e[k ",noburst"] / e[k ",burst"] - 1), 1e3 * s[k ",burst"], 1e3 * s[k ",noburst"],
            100 * (s[k ",noburst"] / s[k ",burst"] - 1), 1e3 * own[k ",noburst"] } }' "$runs" > "$out/burst_vs_noburst.csv"

# (b) time split of the TSO-noburst mapping: mapper (burst-costed and volume-costed) and
# simulation (what each TLE controller waited for: DMA loads, DMA stores, TLT compute not
# hidden behind DMA, the end-of-layer barrier).
awk -F, 'NR > 1 && $3 == "noburst" { t = $6 + $7 + $8; tv = $6 + $9 + $10; st = $15 + $16 + $17 + $18;
    printf "%s,%s,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f\n", $1, $2, 100 * $7 / t, 100 * $8 / t, 100 * $6 / t,
      100 * ($7 + $8) / t, 100 * ($9 + $10) / tv, 100 * $15 / st, 100 * $16 / st, 100 * $17 / st, 100 * $18 / st,
      100 * ($15 + $16) / st }
  BEGIN { print "network,precision,est_load_pct,est_store_pct,est_mac_pct,est_load_store_pct,est_vol_load_store_pct,sim_load_pct,sim_store_pct,sim_compute_wait_pct,sim_barrier_pct,sim_load_store_pct" }' \
  "$runs" > "$out/breakdown.csv"

# (c) fixed modes: slowdown of each fixed TLE slicing / TLT schedule w.r.t. TSO (= speedup of
# TSO over it), estimated (burst model) and simulated.
awk -F, 'NR > 1 { k = $1 "," $2; e[k "," $3] = $5; s[k "," $3] = $14; fb[k "," $3] = $11; if (!(k in seen)) { seen[k] = 1; ord[++n] = k } }
  END { print "network,precision,mode,est_tso_speedup_pct,sim_tso_speedup_pct,fallback_layers";
        split("KS KS&OFM OFM IS OS WS", ms, " ");
        for (i = 1; i <= n; i++) for (j = 1; j <= 6; j++) { k = ord[i]; m = ms[j];
          printf "%s,%s,%.2f,%.2f,%d\n", k, m, 100 * (e[k "," m] / e[k ",burst"] - 1), 100 * (s[k "," m] / s[k ",burst"] - 1), fb[k "," m] } }' \
  "$runs" > "$out/fixed_modes.csv"

# Estimate vs simulation per layer (all networks): ratio sim / est under the mapping's own model.
awk -F, 'NR > 1 && $7 > 0 { print $2 "," $3 "," $9 / $7 "," $9 / $8 }' "$layers" | sort -t, -k1,1n -k2,2 > "$tmp/ratios"
{
  echo "precision,mode,layers,min,p10,median,p90,max,median_vs_burstcost"
  for p in "${precs[@]}"; do for m in burst noburst; do
    grep "^$p,$m," "$tmp/ratios" | cut -d, -f3 | sort -g > "$tmp/r"
    grep "^$p,$m," "$tmp/ratios" | cut -d, -f4 | sort -g > "$tmp/rb"
    n=$(wc -l < "$tmp/r"); [ "$n" -gt 0 ] || continue
    q() { sed -n "$(( ($1 * (n - 1)) / 100 + 1 ))p" "$2"; }
    echo "$p,$m,$n,$(q 0 "$tmp/r"),$(q 10 "$tmp/r"),$(q 50 "$tmp/r"),$(q 90 "$tmp/r"),$(q 100 "$tmp/r"),$(q 50 "$tmp/rb")"
  done; done
} > "$out/sim_vs_est.csv"

# ---------------------------------------------------------------- plots
for p in "${precs[@]}"; do
  grep "^[^,]*,$p," "$out/burst_vs_noburst.csv" > "$tmp/a.dat"
  grep "^[^,]*,$p," "$out/breakdown.csv" > "$tmp/b.dat"
  : > "$tmp/c.dat"
  while IFS=, read -r net pp; do
    row=$net; for m in KS "KS&OFM" OFM IS OS WS; do
      row="$row,$(awk -F, -v n="$net" -v p="$p" -v m="$m" '$1 == n && $2 == p && $3 == m { print $5 }' "$out/fixed_modes.csv")"
    done; echo "$row" >> "$tmp/c.dat"
  done < <(cut -d, -f1,2 "$tmp/a.dat")
  clock=$(awk -F, -v p="$p" 'NR > 1 && $2 == p { print $19; exit }' "$runs")
  peak=$(awk -F, -v p="$p" 'NR > 1 && $2 == p { print $20; exit }' "$runs")
  "$vp_map" "$cfg" "$here/workloads/lenet5.json" --out "$tmp/roof.json" --quiet
  roof=$(jq -r '.nmp | .n_tle * .n_tlt * .macs_per_cycle * .clock_mhz * 1e-3' "$tmp/roof.json")  # GMAC/s
  # roofline points: operational intensity [MAC/B], achieved [GMAC/s]
  # one data block per network (gnuplot "index"), in the order of the networks
  awk -F, -v p="$p" -v f="$clock" 'NR > 1 && $2 == p && $3 == "burst" && $9 > 0 {
      if ($1 != last) { if (last != "") printf "\n\n"; last = $1; names = names " " $1 }
      print $1, $5 / $6, $5 / ($9 / (f * 1e6)) * 1e-9 }
    END { print names > "/dev/stderr" }' "$layers" > "$tmp/d.dat" 2> "$tmp/d.names"
  dnames=$(cat "$tmp/d.names")
  gnuplot <<EOF
set datafile separator ","
set terminal pngcairo size 1100,560 noenhanced font ",9"
set output "$out/burst_vs_noburst_$p.png"
set title "(a) TSO-burst speedup over TSO-noburst, ${p}-bit (seed: 7.4 % YOLO .. 21.7 % InceptionV3)"
set style data histograms; set style histogram clustered gap 1; set style fill solid 0.8 border -1
set ylabel "speedup [%]"; set xtics rotate by -35 scale 0; set grid ytics; set key top left
plot "$tmp/a.dat" using 5:xtic(1) title "mapper estimate (burst cost model)", "" using 8 title "simulation (DDR3-1600 controller)"

set output "$out/breakdown_$p.png"
set title "(b) time split of TSO-noburst, ${p}-bit (seed: LOAD+STORE 51.8 .. 83.8 %)"
set style histogram rowstacked; set boxwidth 0.35; set yrange [0:100]; set ylabel "share of time [%]"
set key outside right
plot "$tmp/b.dat" using 3:xtic(1) title "est LOAD" lc rgb "#1f77b4", "" using 4 title "est STORE" lc rgb "#ff7f0e", \
     "" using 5 title "est MAC" lc rgb "#2ca02c"
set output "$out/breakdown_sim_$p.png"
set title "(b) simulated split of TSO-noburst, ${p}-bit: what the TLE controllers wait for"
plot "$tmp/b.dat" using 8:xtic(1) title "sim LOAD (DMA)" lc rgb "#1f77b4", "" using 9 title "sim STORE (DMA)" lc rgb "#ff7f0e", \
     "" using 10 title "sim compute not hidden" lc rgb "#2ca02c", "" using 11 title "sim barrier" lc rgb "#7f7f7f"

set output "$out/fixed_modes_$p.png"
set title "(c) simulated speedup of TSO over fixed TLE slicing / fixed TLT schedule, ${p}-bit"
set style histogram clustered gap 1; set autoscale y; set yrange [0:*]; set ylabel "TSO speedup [%]"
set key outside right
plot "$tmp/c.dat" using 2:xtic(1) title "KS", "" using 3 title "KS&OFM", "" using 4 title "OFM", \
     "" using 5 title "IS", "" using 6 title "OS", "" using 7 title "WS"
EOF
  gnuplot <<EOF
set terminal pngcairo size 1100,650 noenhanced font ",9"
set output "$out/roofline_$p.png"
set title "(d) roofline, ${p}-bit, TSO-burst: every conv, simulated (MAC roof ${roof} GMAC/s, DRAM peak ${peak} GB/s)"
set logscale xy; set grid; set key bottom right
set xlabel "operational intensity [MAC / DRAM byte]"; set ylabel "achieved [GMAC/s]"
set xrange [0.5:*]; set yrange [0.5:${roof}*2]
roof(x) = x * ${peak} < ${roof} ? x * ${peak} : ${roof}
set samples 2000; set key outside right top; set xrange [0.5:2000]
names = "$dnames"
plot roof(x) title "min(MAC roof, OI x DRAM peak)" lw 2 lc rgb "black", \
     for [i = 1:words(names)] "$tmp/d.dat" index (i - 1) using 2:3 title word(names, i) pt (1 + (i - 1) % 13) ps 0.7 lc i
EOF
done
echo "nmp_experiments: wrote $out/{runs,layers,burst_vs_noburst,breakdown,fixed_modes,sim_vs_est}.csv and PNGs" >&2
