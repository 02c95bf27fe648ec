#!/usr/bin/env bash
# Bandwidth sweep of the TLE fabric (nmp.fabric: each TLE's DMA engine -> its TLTs' ports).
#   bench/nmp/fabric.sh OUT_DIR     (VP_RUN, CONFIG, NETWORKS, PRECISION, WIDTHS, LATENCY,
#                                    DOUBLE_BUFFER=1: nmp.double_buffer=true, rows appended)
# For every network and port width (bytes per cycle; 0 = fabric off, the ideal fabric) one
# vp-run (mapping with the fabric in the estimate, then the simulation). Writes OUT/fabric_sweep.csv:
#   network, precision, double_buffer, bytes_per_cycle, est_cycles (sum of the layers' estimates), sim_cycles,
#   sim_over_est, trust_median (median |sim/est - 1| over the layers), the fabric counters summed
#   over the TLEs (multicast / load / store bytes, wait and contention cycles: a multicast
#   behind a W load or OUT store, a load or store behind a multicast), the busiest port's
#   utilisation (busy cycles / run cycles), the estimate's fabric term summed over the layers,
#   and the run's wall time.
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: bench/nmp/fabric.sh OUT_DIR}
vp_run=${VP_RUN:-$here/build/platform/vp-run}
cfg=${CONFIG:-$here/configs/nmp.yaml}
prec=${PRECISION:-8}
read -r -a nets <<< "${NETWORKS:-resnet20 mobilenetv2 squeezenet1_1}"
read -r -a widths <<< "${WIDTHS:-0 1 2 4 8 16 32 64}"
lat=${LATENCY:-4}
mkdir -p "$out"; tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
db=${DOUBLE_BUFFER:-0}
csv=$out/fabric_sweep.csv
[ -s "$csv" ] || echo "network,precision,double_buffer,bytes_per_cycle,est_cycles,sim_cycles,sim_over_est,trust_median,multicast_bytes,load_bytes,store_bytes,multicast_wait_cycles,multicast_contention_cycles,load_wait_cycles,load_contention_cycles,store_wait_cycles,store_contention_cycles,busiest_port_utilisation,est_fabric_cycles,wall_s" > "$csv"
for net in "${nets[@]}"; do
  wl=$here/workloads/$net.json
  if [ "$prec" = 16 ]; then sed -E 's/"precision"[[:space:]]*:[[:space:]]*8/"precision": 16/' "$wl" > "$tmp/$net.json"; wl=$tmp/$net.json; fi
  for w in "${widths[@]}"; do
    if [ "$w" = 0 ]; then set_args=(); else
      set_args=(--set nmp.fabric.enabled=true --set "nmp.fabric.bytes_per_cycle=$w" --set "nmp.fabric.latency_cycles=$lat"); fi
    [ "$db" = 1 ] && set_args+=(--set nmp.double_buffer=true)
    if ! "$vp_run" "$cfg" "$wl" --out "$tmp/r" --quiet "${set_args[@]}" 2> "$tmp/err"; then
      echo "fabric: $net width $w failed: $(tail -1 "$tmp/err")" >&2; continue; fi
    row=$(python3 - "$tmp/r" "$net" "$prec" "$w" "$db" <<'PY'
import csv, json, sys
d, net, prec, w, db = sys.argv[1:]
r = list(csv.reader(open(d + "/stats.csv")))
s = {}
for k, v in zip(r[0], r[1]):
    try:
        s[k] = float(v)
    except ValueError:
        pass
m = json.load(open(d + "/mapping.json"))
run = json.load(open(d + "/run.json"))
sim = s["nmp.cycles"]
est = sum(x["estimated_cycles"] for x in m["simulation"])
def tot(name):
    return sum(v for k, v in s.items() if k.startswith("nmp.tle[") and k.endswith(".fabric." + name))
util = max([v for k, v in s.items() if ".fabric.port[" in k and k.endswith(".busy_cycles")] or [0.0]) / sim
fab = sum(c["estimate"].get("t_fabric_s", 0.0) * c["estimate"]["total_cycles"] / c["estimate"]["total_s"]
          for c in m["convs"] if c["estimate"]["total_s"] > 0)
vals = [net, prec, db, w, round(est), round(sim, 1), round(sim / est, 4), round(m["trust"]["median_abs_sim_over_est_minus_1"], 4)]
vals += [round(tot(n)) for n in ("multicast_bytes", "load_bytes", "store_bytes")]
vals += [round(tot(k + "_" + n), 1) for k in ("multicast", "load", "store") for n in ("wait_cycles", "contention_cycles")]
vals += [round(util, 4), round(fab), round(run.get("wall_time_s", run.get("wall_s", 0.0)), 2)]
print(",".join(str(v) for v in vals))
PY
)
    echo "$row" >> "$csv"; echo "$row" >&2
  done
done
