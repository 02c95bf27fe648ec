#!/usr/bin/env bash
# Simulation speed of our DRAM model beside DRAMSys and Ramulator 2.1, run one after the other
# on the same machine state, on matched DDR3-1600 set-ups (one x64 channel, one rank, 8 banks,
# FR-FCFS, open page, all-bank refresh, row-bank-column mapping, 32 requests in flight):
#   seq     REQUESTS sequential 64-byte reads over 64 MiB (wrapping)
#   random  REQUESTS uniformly random 64-byte reads over 1 GiB
# For each simulator and pattern: the median over RUNS runs of the wall time of the simulation
# loop (ours: run.json wall_time_s; DRAMSys: its "Simulation took"; Ramulator: Simulation.run()),
# requests per wall second, the median wall time of the whole process, and the simulated bandwidth
# and time (so the runs can be checked to be matched).
#
#   DRAMSYS=<DRAMSys binary> RAMULATOR2_PYTHON=<ramulator2>/python bench/dram/speed_peers.sh [RUNS] [REQUESTS]
#
# VP_RUN (default build/platform/vp-run); OUT (default bench/dram/speed_peers.csv). A peer whose
# variable is unset or does not point at a usable program is skipped with a message.
# Peer parameters: dramsys_ddr3_1600.json, ramulator_ddr3_1600.json (beside this script).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
vp_run=${VP_RUN:-$root/build/platform/vp-run}
runs=${1:-3}
n=${2:-500000}
out=${OUT:-$here/speed_peers.csv}
py=/usr/bin/python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
case "$runs$n" in *[!0-9]*) echo "usage: $0 [RUNS] [REQUESTS] (positive integers)" >&2; exit 2 ;; esac
[ "$runs" -ge 1 ] && [ "$n" -ge 1 ] || { echo "$0: RUNS and REQUESTS must be >= 1" >&2; exit 2; }
[ -x "$vp_run" ] || { echo "$0: $vp_run not found (build first or set VP_RUN)" >&2; exit 2; }

seq_range=67108864
rnd_range=1073741824
now_s() { date +%s.%N; }
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
rows=()
emit() {  # SIMULATOR PATTERN WALLS_FILE PROC_FILE BW_GBps SIM_US
  local med proc
  med=$(median < "$3")
  proc=$(median < "$4")
  rows+=("$1,$2,$n,$runs,$med,$(awk -v r="$n" -v t="$med" 'BEGIN {printf "%.0f", r / t}'),$proc,$5,$6")
  printf '%-12s %-7s %9d %10.3f %12.0f %10.3f %9.2f %12.1f\n' "$1" "$2" "$n" "$med" \
    "$(awk -v r="$n" -v t="$med" 'BEGIN {print r / t}')" "$proc" "$5" "$6"
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
printf '%-12s %-7s %9s %10s %12s %10s %9s %12s\n' simulator pattern requests wall_s requests/s process_s GB/s sim_us

# --- ours: the whole TLM path (traffic generator -> AT socket -> controller -> channel) ---
# The generator does not check read data ("verify": false), as the peers' generators do not;
# the controller still moves every byte through its backing store.
for pat in seq random; do
  if [ $pat = seq ]; then spec="\"pattern\": \"sequential\", \"range\": $seq_range, \"seed\": 1"
  else spec="\"pattern\": \"random\", \"range\": $rnd_range, \"seed\": 7"; fi
  echo "{\"kind\": \"traffic\", \"name\": \"speed_$pat\", \"streams\": [{\"name\": \"$pat\", $spec,
    \"requests\": $n, \"bytes\": 64, \"read_fraction\": 1.0, \"max_outstanding\": 32, \"verify\": false}]}" \
    > "$tmp/ours_$pat.json"
  : > "$tmp/w"; : > "$tmp/p"
  for _ in $(seq "$runs"); do
    t0=$(now_s)
    "$vp_run" "$root/configs/dram-ddr3.yaml" "$tmp/ours_$pat.json" --out "$tmp/o" --quiet
    awk -v a="$t0" -v b="$(now_s)" 'BEGIN {print b - a}' >> "$tmp/p"
    $py -c "import json,sys; print(json.load(open(sys.argv[1]))['wall_time_s'])" "$tmp/o/run.json" >> "$tmp/w"
  done
  read -r bw us < <($py -c "import json,sys; d=json.load(open(sys.argv[1]))
print(round(d['stats']['dram']['bandwidth']['value'], 3), round(d['meta']['sim_time_ns'] / 1000, 1))" "$tmp/o/stats.json")
  emit ours $pat "$tmp/w" "$tmp/p" "$bw" "$us"
done

# --- DRAMSys: its simulator with one traffic generator at the DRAM clock (800 MHz) ---
if [ -n "${DRAMSYS:-}" ] && [ -x "${DRAMSYS}" ]; then
  for pat in seq random; do
    $py - "$here/dramsys_ddr3_1600.json" "$tmp/dramsys_$pat.json" "$pat" "$n" "$seq_range" "$rnd_range" <<'PY'
import json, sys
base, dst, pat, n, seq_range, rnd_range = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
cfg = json.load(open(base))
cfg.pop("comment", None)
gen = {"clkMhz": 800, "name": "gen", "numRequests": n, "rwRatio": 1.0, "dataLength": 64, "dataAlignment": 64,
       "maxPendingReadRequests": 32, "maxPendingWriteRequests": 32, "seed": 1, "minAddress": 0}
if pat == "seq":
    gen.update({"addressDistribution": "sequential", "addressIncrement": 64, "maxAddress": seq_range})
else:
    gen.update({"addressDistribution": "random", "maxAddress": rnd_range - 64})
cfg["simulation"]["tracesetup"] = [gen]
json.dump(cfg, open(dst, "w"), indent=1)
PY
    : > "$tmp/w"; : > "$tmp/p"
    for _ in $(seq "$runs"); do
      t0=$(now_s)
      (cd "$tmp" && "$DRAMSYS" "$tmp/dramsys_$pat.json" "$tmp" > "$tmp/dramsys.log" 2>&1) ||
        { echo "$0: DRAMSys failed on $pat:" >&2; tail -5 "$tmp/dramsys.log" >&2; exit 1; }
      awk -v a="$t0" -v b="$(now_s)" 'BEGIN {print b - a}' >> "$tmp/p"
      sed -n 's/^Simulation took \([0-9.e+-]*\) seconds.*/\1/p' "$tmp/dramsys.log" >> "$tmp/w"
    done
    # Its own report: "AVG BW: ... | 8.27 GB/s | ..." and "Total Time: 773420 ns" (any unit; the last response).
    read -r bw us < <(awk '/AVG BW:/ {for (i = 1; i < NF; i++) if ($(i + 1) == "GB/s") bw = $i}
                           /Total Time:/ {f["ps"] = 1e-6; f["ns"] = 1e-3; f["us"] = 1; f["ms"] = 1e3; f["s"] = 1e6
                                          us = $(NF - 1) * f[$NF]}
                           END {printf "%s %.1f\n", bw, us}' "$tmp/dramsys.log")
    emit dramsys $pat "$tmp/w" "$tmp/p" "$bw" "$us"
  done
else
  echo "# DRAMSys skipped: set DRAMSYS to the DRAMSys simulator binary" >&2
fi

# --- Ramulator 2.1: Python API, LoadStoreTrace frontend (one request offered per tCK) ---
if [ -n "${RAMULATOR2_PYTHON:-}" ] && PYTHONPATH=$RAMULATOR2_PYTHON $py -c "import ramulator" 2>/dev/null; then
  for pat in seq random; do
    $py - "$tmp/ram_$pat.trace" "$pat" "$n" "$seq_range" "$rnd_range" <<'PY'
import random, sys
path, pat, n, seq_range, rnd_range = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
rng = random.Random(7)
with open(path, "w") as f:
    for i in range(n):
        a = (i * 64) % seq_range if pat == "seq" else rng.randrange(rnd_range // 64) * 64
        f.write(f"LD 0x{a:x}\n")
PY
    : > "$tmp/w"; : > "$tmp/p"
    for _ in $(seq "$runs"); do
      t0=$(now_s)
      (cd "$tmp" && PYTHONPATH=$RAMULATOR2_PYTHON $py "$here/ramulator_replay.py" --speed "$tmp/ram_$pat.trace" \
        > "$tmp/ram.csv" 2> "$tmp/ram.log") || { echo "$0: Ramulator failed on $pat:" >&2; tail -5 "$tmp/ram.log" >&2; exit 1; }
      awk -v a="$t0" -v b="$(now_s)" 'BEGIN {print b - a}' >> "$tmp/p"
      awk -F, 'NR == 2 {print $9}' "$tmp/ram.csv" >> "$tmp/w"
    done
    read -r bw us < <(awk -F, 'NR == 2 {printf "%.3f %.1f\n", $7, $6 * 1.25 / 1000}' "$tmp/ram.csv")
    emit ramulator2.1 $pat "$tmp/w" "$tmp/p" "$bw" "$us"
  done
else
  echo "# Ramulator 2.1 skipped: set RAMULATOR2_PYTHON to the python/ folder of a built Ramulator 2.1" >&2
fi

load_after=$(cut -d' ' -f1-3 /proc/loadavg)
{
  echo "# bench/dram/speed_peers.sh $runs $n on $(nproc) cores; load average before: $load_before, after: $load_after"
  echo "simulator,pattern,requests,runs,median_wall_s,requests_per_s,median_process_s,bandwidth_GBps,sim_time_us"
  printf '%s\n' "${rows[@]}"
} > "$out"
echo "load average before: $load_before, after: $load_after; written to $out"
