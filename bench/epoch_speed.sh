#!/usr/bin/env bash
# Cost of epoch statistics, for AlexNet on mesh-4x4 and ResNet-50 on nmp, with stats.epoch off,
# auto (default) and 1 us:
#   sim_cpu_s   CPU time of building and running the simulation (run.json cpu_time_s: the platform
#               build with its mapper, and the kernel run; no output writing): the cost of the
#               epoch sampling itself, and hardly changed by other jobs on a shared machine
#   sim_wall_s  wall time of the same span (run.json wall_time_s)
#   total_cpu_s CPU time (user + system) of the whole vp-run, outputs and report included
#   total_s     wall time of the whole vp-run
# Medians of RUNS runs. The settings take turns within each round (off, auto, 1us, off, ...), so
# that a change of the machine's load touches all of them alike; the load average is printed.
#   bench/epoch_speed.sh [RUNS]        (VP_RUN defaults to build/platform/vp-run)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
vp_run=${VP_RUN:-$root/build/platform/vp-run}
runs=${1:-3}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
# run_one OUT ARGS...: runs vp-run, prints "cpu_s total_s" (CPU time of the child, wall time).
run_one() {
  /usr/bin/python3 - "$@" <<'PY'
import resource, subprocess, sys, time
t0 = time.monotonic()
rc = subprocess.call(sys.argv[1:])
t1 = time.monotonic()
if rc:
    sys.exit("vp-run exited %d" % rc)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.3f %.3f" % (r.ru_utime + r.ru_stime, t1 - t0))
PY
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
printf '%-18s %-5s %10s %10s %11s %9s %10s %7s\n' case epoch sim_cpu_s sim_wall_s total_cpu_s total_s intervals csv_MB
for c in "alexnet mesh-4x4|$root/configs/mesh-4x4.yaml|$root/workloads/alexnet.json" \
         "resnet50 nmp|$root/configs/nmp.yaml|$root/workloads/resnet50.json"; do
  IFS='|' read -r name cfg wl <<< "$c"
  for i in $(seq "$runs"); do
    for ep in off auto 1us; do
      read -r cpu tot < <(run_one "$vp_run" "$cfg" "$wl" --out "$tmp/$ep" --quiet --set "stats.epoch=$ep")
      sim=$(/usr/bin/python3 -c "import json; r = json.load(open('$tmp/$ep/run.json')); print(r['cpu_time_s'], r['wall_time_s'])")
      echo "$sim $cpu $tot" >> "$tmp/$ep.times"
    done
  done
  for ep in off auto 1us; do
    iv=$(/usr/bin/python3 -c "import json; print(json.load(open('$tmp/$ep/run.json'))['epoch_intervals'])")
    mb=$(echo "$(stat -c %s "$tmp/$ep/timeseries.csv") / 1048576" | bc -l)
    col() { cut -d' ' -f"$1" "$tmp/$ep.times" | median; }
    printf '%-18s %-5s %10.3f %10.3f %11.3f %9.3f %10s %7.1f\n' "$name" "$ep" "$(col 1)" "$(col 2)" "$(col 3)" \
      "$(col 4)" "$iv" "$mb"
    rm -f "$tmp/$ep.times"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
