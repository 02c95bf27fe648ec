#!/usr/bin/env bash
# Experiments of "Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect" on the simulated mesh platform (vp-run, every figure simulated):
#  (a) single core (configs/mesh-3x1.yaml, whole layers): AlexNet and VGG-16, min-comp vs
#      min-dram: runtime, DRAM bytes and energy per layer (the paper's Fig. 3 experiment);
#  (b) waving vs all-cores, AlexNet and VGG-16 on 4x4, 8x8 (and 16x8 unless --no-16x8):
#      per-layer active cores k and total runtime;
#  (c) estimate vs simulation per layer over all runs: ratio, median, worst case.
#
#   scripts/mesh_experiments.sh OUT_DIR [--no-16x8 | --plots-only]
#
# --plots-only: no runs; redo (c) and the PNGs from the CSVs already in OUT_DIR.
# The paper's estimate (mapper.mesh_model=paper) ranks and estimates, as in the published
# figures; MESH_MODEL=calibrated runs them with the calibrated model instead.
# vp-run is taken from $VP_RUN, else build/platform/vp-run. gnuplot is installed (Debian
# gnuplot-nox) when missing. Outputs in OUT_DIR: mesh_layers.csv (one row per layer and run),
# mesh_runs.csv (one row per run), mesh_ratio.csv (estimate vs simulation summary), PNGs:
# mesh_single_<net>.png, mesh_waving_<net>.png, mesh_ratio.png; runs/<name>/ (vp-run outputs).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
out=$(mkdir -p "$1" && cd "$1" && pwd); shift
big=1; [ "${1:-}" = "--no-16x8" ] && big=0
plots_only=0; [ "${1:-}" = "--plots-only" ] && plots_only=1
vp_run=${VP_RUN:-$here/build/platform/vp-run}
[ "$plots_only" -eq 1 ] || [ -x "$vp_run" ] || { echo "mesh_experiments: $vp_run not found (build vp-run or set VP_RUN)" >&2; exit 2; }
if ! command -v gnuplot >/dev/null; then
  echo "mesh_experiments: installing gnuplot-nox" >&2
  apt-get install -y gnuplot-nox >/dev/null || { echo "mesh_experiments: gnuplot is missing and could not be installed" >&2; exit 2; }
fi
mkdir -p "$out/runs"
layers=$out/mesh_layers.csv; runs=$out/mesh_runs.csv
[ "$plots_only" -eq 1 ] || echo "experiment,network,mesh,objective,mode,layer,k,T_of,T_ox,Tp_of,Tp_if,Tp_ox,est_cycles,sim_cycles,sim_over_est,est_flits,sim_flits,dram_bytes,est_dram_bytes,energy_uj,est_energy_uj,mac_utilisation,stall_cycles" > "$layers"
[ "$plots_only" -eq 1 ] || echo "experiment,network,mesh,objective,mode,cores,est_cycles,sim_cycles,dram_bytes,flits,energy_uj,est_energy_uj,wall_s" > "$runs"

run() {  # experiment net mesh objective mode
  local exp=$1 net=$2 mesh=$3 obj=$4 mode=$5
  local name=${exp}_${net}_${mesh}_${obj}_${mode}
  local dir=$out/runs/$name
  echo "== $name" >&2
  (cd "$here" && "$vp_run" "configs/mesh-$mesh.yaml" "workloads/$net.json" --out "$dir" --quiet \
      --set "mapper.objective=$obj" --set "mapper.mode=$mode" --set "mapper.mesh_model=${MESH_MODEL:-paper}") ||
    { echo "mesh_experiments: $name failed" >&2; return 1; }
  python3 - "$dir" "$exp" "$net" "$mesh" "$obj" "$mode" "$layers" "$runs" <<'PY'
import json, sys
d, exp, net, mesh, obj, mode, lcsv, rcsv = sys.argv[1:]
m = json.load(open(d + "/mapping.json")); r = json.load(open(d + "/run.json"))
tot = dict(est=0.0, sim=0.0, bytes=0, flits=0, e=0.0, ee=0.0)
with open(lcsv, "a") as f:
    for l in m["layers"]:
        s = l.get("simulation")
        if not s: continue
        t = l["tiling"]; est = l["estimate"]
        row = [exp, net, mesh, obj, mode, l["name"], l["k"], l["slices"]["T_of"], l["slices"]["T_ox"],
               t["T_of"], t["T_if"], t["T_ox"], "%.0f" % est["cycles"], "%.0f" % s["cycles"],
               "%.4f" % s["sim_over_est"], est["flits"], s["flits"], s["dram_bytes"], est["dram_bytes"],
               "%.3f" % (s["energy_pj"]["total"] * 1e-6), "%.3f" % (l["energy_pj"]["total"] * 1e-6),
               "%.4f" % s["mac_utilisation"], s["stall_cycles"]]
        f.write(",".join(str(x) for x in row) + "\n")
        tot["est"] += est["cycles"]; tot["sim"] += s["cycles"]; tot["bytes"] += s["dram_bytes"]
        tot["flits"] += s["flits"]; tot["e"] += s["energy_pj"]["total"] * 1e-6; tot["ee"] += l["energy_pj"]["total"] * 1e-6
with open(rcsv, "a") as f:
    f.write(",".join(str(x) for x in [exp, net, mesh, obj, mode, m["cores"], "%.0f" % tot["est"], "%.0f" % tot["sim"],
            tot["bytes"], tot["flits"], "%.3f" % tot["e"], "%.3f" % tot["ee"], "%.2f" % r["wall_time_s"]]) + "\n")
PY
}

fails=0
if [ "$plots_only" -eq 0 ]; then
# (a) single core, whole layers.
for net in alexnet vgg16; do
  for obj in min-comp min-dram; do run single "$net" 3x1 "$obj" whole-layer || fails=$((fails + 1)); done
done
# (b) waving vs all-cores.
meshes="4x4 8x8"; [ "$big" -eq 1 ] && meshes="$meshes 16x8"
for net in alexnet vgg16; do
  for mesh in $meshes; do
    for mode in waving all-cores; do run waving "$net" "$mesh" min-comp "$mode" || fails=$((fails + 1)); done
  done
done
fi

# (c) estimate vs simulation: median and worst case per experiment and over everything.
python3 - "$layers" "$out/mesh_ratio.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def summ(rs):
    v = sorted(float(r["sim_over_est"]) for r in rs)
    if not v: return None
    return len(v), v[len(v) // 2], v[0], v[-1]
groups = {}
for r in rows:
    groups.setdefault((r["experiment"], r["network"], r["mesh"], r["mode"]), []).append(r)
with open(sys.argv[2], "w") as f:
    f.write("experiment,network,mesh,mode,layers,median,min,max,worst_layer\n")
    for k, rs in groups.items():
        n, med, lo, hi = summ(rs)
        worst = max(rs, key=lambda r: float(r["sim_over_est"]))["layer"]
        f.write("%s,%s,%s,%s,%d,%.4f,%.4f,%.4f,%s\n" % (k + (n, med, lo, hi, worst)))
    n, med, lo, hi = summ(rows)
    f.write("all,all,all,all,%d,%.4f,%.4f,%.4f,\n" % (n, med, lo, hi))
PY

# Plots.
for net in alexnet vgg16; do
  dat=$out/.single_$net.dat
  awk -F, -v net="$net" 'NR > 1 && $1 == "single" && $2 == net { key = $6; if (!(key in seen)) { seen[key] = ++n; name[n] = key }
        i = seen[key]; o = ($4 == "min-comp") ? 0 : 1; cyc[i, o] = $14; by[i, o] = $18; en[i, o] = $20 }
      END { for (i = 1; i <= n; ++i) print name[i], cyc[i, 0], cyc[i, 1], by[i, 0], by[i, 1], en[i, 0], en[i, 1] }' "$layers" > "$dat"
  gnuplot <<GP
set terminal pngcairo size 1400,1100 noenhanced font ",9"
set output "$out/mesh_single_$net.png"
set multiplot layout 3,1 title "$net on one ASIP core (mesh 3x1, simulated): min-comp vs min-dram per layer"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set grid ytics
set key top right
set xtics rotate by 30 right
set ylabel "core cycles"
plot "$dat" using 2:xtic(1) title "min-comp", '' using 3 title "min-dram"
set ylabel "DRAM bytes"
plot "$dat" using 4:xtic(1) title "min-comp", '' using 5 title "min-dram"
set ylabel "energy (uJ)"
plot "$dat" using 6:xtic(1) title "min-comp", '' using 7 title "min-dram"
unset multiplot
GP
  rm -f "$dat"
  dat=$out/.waving_$net.dat
  awk -F, -v net="$net" 'NR > 1 && $1 == "waving" && $2 == net { key = $6; if (!(key in seen)) { seen[key] = ++n; name[n] = key }
        c = $3 "_" $5; if (!(c in cs)) { cs[c] = ++m; cn[m] = c }; v[seen[key], cs[c]] = $14; kk[seen[key], cs[c]] = $7 }
      END { h = "layer"; for (j = 1; j <= m; ++j) h = h " " cn[j]; for (j = 1; j <= m; ++j) h = h " k_" cn[j]; print h;
            for (i = 1; i <= n; ++i) { l = name[i]; for (j = 1; j <= m; ++j) l = l " " v[i, j];
                                       for (j = 1; j <= m; ++j) l = l " " kk[i, j]; print l } }' "$layers" > "$dat"
  ncol=$(head -1 "$dat" | awk '{ print (NF - 1) / 2 }')
  gnuplot <<GP
set terminal pngcairo size 1400,1000 noenhanced font ",9"
set output "$out/mesh_waving_$net.png"
set multiplot layout 2,1 title "$net: waving vs all-cores (simulated, min-comp)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set grid ytics
set key top right autotitle columnheader
set xtics rotate by 30 right
set ylabel "simulated core cycles"
set logscale y
plot for [c=2:$ncol+1] "$dat" using c:xtic(1)
unset logscale y
set yrange [0:*]
set ylabel "active cores k"
plot for [c=$ncol+2:2*$ncol+1] "$dat" using c:xtic(1)
unset multiplot
GP
  rm -f "$dat"
done
dat=$out/.ratio.dat
awk -F, 'NR > 1 { print NR - 1, $15, $1 "_" $2 "_" $3 "_" $5 }' "$layers" > "$dat"
gnuplot <<GP
set terminal pngcairo size 1200,600 noenhanced font ",9"
set output "$out/mesh_ratio.png"
set title "simulated / estimated cycles per layer (all runs, in run order)"
set grid
set xlabel "layer (all runs)"
set ylabel "simulated / estimated"
set yrange [0:*]
set xrange [0:*]
plot "$dat" using 1:2 with points pt 7 ps 0.6 notitle, 1 with lines lt 0 notitle
GP
rm -f "$dat"
echo "mesh_experiments: $fails failed run(s); wrote $layers, $runs, $out/mesh_ratio.csv and $(ls "$out"/mesh_*.png 2>/dev/null | wc -l) PNG files" >&2
[ "$fails" -eq 0 ]
