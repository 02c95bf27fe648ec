#!/usr/bin/env bash
# The mesh platform's NoC lookahead (several NoC cycles per kernel activation, noc.stepping: active)
# against the reference (one activation per NoC cycle, every router stepped: noc.stepping: all):
# statistics, epoch time series, per-layer figures and mapping byte-identical, VCD trace identical
# up to the order of lines within one time stamp, on
# small networks with acknowledged and posted writes (posted writes exercise the held-back
# sent() calls), with adaptive, fixed and off-edge epochs. The lookahead must also have cut the
# kernel's delta cycles (else it was not exercised). A regression test of the code against its
# own reference path. $1 = vp-run, $2 = source root.
set -u
vp_run=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
meta() { grep -o "\"$2\": [0-9]*" "$1/stats.json" | head -1 | awk '{print $2}'; }
same() {  # $1, $2 = output folders
  local a=$1 b=$2 f
  diff <(grep -v -e '"config_hash"' -e '"delta_cycles"' "$a/stats.json") \
       <(grep -v -e '"config_hash"' -e '"delta_cycles"' "$b/stats.json") >/dev/null || return 1
  diff <(cut -d, -f3 --complement "$a/stats.csv") <(cut -d, -f3 --complement "$b/stats.csv") >/dev/null || return 1
  for f in timeseries.csv timeseries.columns.json layers.json mapping.json; do
    cmp -s "$a/$f" "$b/$f" || { echo "  $f differs"; return 1; }
  done
  # VCD: the same signal values at every time stamp. Within one time stamp the lines may come in
  # another order, and a signal may pass through an intermediate value there (the order in which
  # the kernel runs processes woken at the same time is not the model's), so the comparison is
  # on each signal's value at the end of each time stamp, where it changed.
  vcd_canon "$a/trace.vcd" > "$a/canon.txt" && vcd_canon "$b/trace.vcd" > "$b/canon.txt" || return 1
  [ -s "$a/canon.txt" ] && cmp -s "$a/canon.txt" "$b/canon.txt" || { echo "  trace.vcd differs"; return 1; }
}
vcd_canon() {  # header, then one "time signal value" line per effective change
  python3 -c '
import sys
lines = open(sys.argv[1]).read().split("\n")
out, cur, stamp, t = [], {}, {}, None
def flush():
    for s in sorted(stamp):
        if cur.get(s) != stamp[s]:
            cur[s] = stamp[s]; out.append("%s %s %s" % (t, s, stamp[s]))
    stamp.clear()
i = 0
while i < len(lines) and not lines[i].startswith("$enddefinitions"):
    out.append(lines[i]); i += 1
for l in lines[i + 1:]:
    if l.startswith("#"):
        flush(); t = l[1:]
    elif l and l[0] in "bBrR":
        v, s = l.split(" ", 1); stamp[s] = v[1:]
    elif l and l[0] in "01xXzZ":
        stamp[l[1:]] = l[0]
flush()
sys.stdout.write("\n".join(out) + "\n")
' "$1"
}
n=0
while read -r cfg wl sets; do
  n=$((n + 1))
  for mode in active all; do
    # shellcheck disable=SC2086
    "$vp_run" "$root/configs/$cfg" "$root/workloads/$wl" $sets --set noc.stepping=$mode --trace \
      --out "$tmp/$n$mode" --quiet
    ok "$cfg $wl $sets stepping=$mode runs" "[ $? -eq 0 ]"
  done
  ok "$cfg $wl $sets: lookahead == one activation per cycle" "same '$tmp/${n}active' '$tmp/${n}all'"
  da=$(meta "$tmp/${n}active" delta_cycles); dr=$(meta "$tmp/${n}all" delta_cycles)
  ok "$cfg $wl $sets: fewer delta cycles with lookahead ($da < $dr)" "[ -n '$da' ] && [ '$da' -lt '$dr' ]"
done <<EOF
mesh-4x4.yaml lenet5.json --set mapper.calibration=none
mesh-4x4.yaml lenet5.json --set mapper.mode=all-cores --set mesh.packet.write_ack=false --set mapper.calibration=none --set stats.epoch=200ns
mesh-4x4.yaml lenet5.json --set mapper.mode=all-cores --set stats.epoch=3700ps --set noc.inject_depth=1
EOF
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
