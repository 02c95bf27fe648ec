#!/usr/bin/env bash
# The price of a DRAM row conflict by the banks in use (docs/mesh.md, "Tried: the price of a row
# conflict by the banks in use").
# (1) The DRAM alone (configs/dram-ddr3.yaml, refresh off): S streams of 1000 requests of 64 B, all
# reads or all writes, 16 outstanding each, each stepping one row per request in one bank (stride
# = row bytes x banks), spread over b banks (stream j in bank j mod b): every burst is a row conflict.
# The time per burst against max(cycle / b, tFAW / 4, tRRD, t_burst), cycle = tRC for reads and
# tRCD + CWL + BL/2 + tWR + tRP for writes; price = time per burst - t_burst.  -> OUT_DIR/conflict_price.csv
# (2) The calibration samples (bench/mesh/row_conflicts.sh, runs kept): the data bus's busy cycles,
# the span (busy / utilisation), the row conflicts and the DRAM queue's time-averaged occupancy q;
# the banks in use estimated from q as B (1 - (1 - 1/B)^q) or taken as the active cores k, and
# (busy + conflicts x price) / span for a price of 0, tRP + tRCD, the price at k and at the banks
# from q.  -> OUT_DIR/conflict_price_samples.csv
#   bench/mesh/conflict_price.sh [OUT_DIR]   (default bench/mesh; VP_RUN, JOBS as in row_conflicts.sh; ~1 min)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$here/bench/mesh}
vp_run=${VP_RUN:-$here/build/platform/vp-run}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "rw,banks,streams,bursts,conflicts,span_tck,per_burst_tck,price_tck,formula_per_burst_tck" > "$out/conflict_price.csv"
for rw in 1.0 0.0; do
  for b in 1 2 3 4 5 6 8; do
    for spb in 1 2; do
      python3 - $((b * spb)) $b $rw > "$tmp/t.json" <<'PY'
import json, sys
k, b, rw = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
print(json.dumps({"kind": "traffic", "name": f"conflicts{k}", "streams": [
    {"name": f"s{j}", "pattern": "strided", "requests": 1000, "bytes": 64, "base": (j % b) * 8192 + (j // b) * (1 << 26),
     "range": 65536 * 1000, "max_outstanding": 16, "interval_ns": 0, "read_fraction": rw, "stride": 65536, "seed": 5 + j}
    for j in range(k)]}))
PY
      "$vp_run" "$here/configs/dram-ddr3.yaml" "$tmp/t.json" --quiet --out "$tmp/o" --set dram.refresh=false > /dev/null
      python3 - "$tmp/o/stats.json" $rw $b $((b * spb)) >> "$out/conflict_price.csv" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["stats"]["dram"]; v = lambda x: d[x]["value"]
rw, b, k = float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
n = v("reads") + v("writes"); span = v("data_bus_busy_cycles") / v("bus_utilisation")
cycle = 38 if rw == 1.0 else 10 + 8 + 4 + 12 + 10   # DDR3-1600: tRC; tRCD + CWL + BL/2 + tWR + tRP
print(f"{'read' if rw == 1.0 else 'write'},{b},{k},{n},{v('row_conflicts')},{span:.0f},{span / n:.2f},"
      f"{(span - 4 * n) / v('row_conflicts'):.2f},{max(cycle / b, 24 / 4, 5, 4):.2f}")
PY
    done
  done
done
KEEP="$tmp/samples" bash "$here/bench/mesh/row_conflicts.sh" "$tmp/rc.csv"
python3 - "$tmp/samples" "$out/conflict_price_samples.csv" <<'PY'
import csv, json, sys
src, out = sys.argv[1], sys.argv[2]
B, tb = 8, 4
def price(banks, reads):  # tCK per conflict beyond its burst
    cycle = reads * 38 + (1 - reads) * 44
    return max(cycle / max(1.0, min(banks, B)), 6, 5, tb) - tb
w = csv.writer(open(out, "w", newline=""), lineterminator="\n")
w.writerow(["shape", "t_of", "t_ox", "k", "mesh", "bursts", "conflicts", "read_share", "bus_utilisation",
            "queue_avg", "banks_q", "price_k", "price_q", "need", "ratio_none", "ratio_full", "ratio_k", "ratio_q"])
for i, r in enumerate(csv.DictReader(open(f"{src}/pred.csv"))):
    d = json.load(open(f"{src}/r{i}/stats.json"))["stats"]["dram"]; v = lambda x: d[x]["value"]
    busy, c, q = v("data_bus_busy_cycles"), v("row_conflicts"), v("queue_occupancy_avg")
    span = busy / v("bus_utilisation"); reads = v("reads") / (v("reads") + v("writes"))
    bq = B * (1 - (1 - 1 / B) ** q); k = int(r["k"])
    pk, pq = price(k, reads), price(bq, reads)
    w.writerow([r["shape"], r["t_of"], r["t_ox"], k, r["mesh"], int(r["bursts"]), c, f"{reads:.3f}",
                f"{v('bus_utilisation'):.3f}", f"{q:.2f}", f"{bq:.2f}", f"{pk:.2f}", f"{pq:.2f}",
                f"{(span - busy) / c:.2f}" if c else "", f"{busy / span:.3f}", f"{(busy + 20 * c) / span:.3f}",
                f"{(busy + pk * c) / span:.3f}", f"{(busy + pq * c) / span:.3f}"])
PY
