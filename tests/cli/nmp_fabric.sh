#!/usr/bin/env bash
# The TLE fabric (nmp.fabric.*) end to end, against hand counts on one 1x1 conv (16 -> 64
# channels, 8 x 8, 8 bit) with a forced choice KS / OS, tile T_M 2, T_N 16, T_R 8, T_C 8: every
# TLE has 16 filters, 2 per TLT, and moves one IN tile of 16 x 8 x 8 = 1,024 B (multicast to its
# 8 TLTs), per TLT one W tile of 2 x 16 = 32 B and one OUT tile of 2 x 8 x 8 = 128 B:
#  * per TLE: multicast_bytes 1,024, load_bytes 8 x 32 = 256, store_bytes 8 x 128 = 1,024;
#    per port bytes 1,024 + 32 + 128 = 1,184;
#  * at 1 B/cycle (far below the DRAM's share) every transfer holds its port exactly its bytes
#    in cycles: port busy_cycles = 1,184; the W loads wait for the multicast (load contention >
#    0), and the layer takes at least 1,024 + 32 + 128 cycles (one port's transfers in a row);
#  * the estimate (mapping.json) reports the fabric term and grows when the port narrows;
#  * fabric off with other fabric keys set: no fabric statistics, the cycles of a run without them;
#  * bad values: exit 2 naming the key.
set -u
vp_run=$1; root=$2
cfg=$root/configs/nmp.yaml
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
cat > "$tmp/f1.json" <<'JSON'
{"name": "f1", "precision": 8, "layers": [
 {"name": "f1", "type": "conv", "C": 16, "K": 64, "H": 8, "W": 8, "R": 1, "S": 1, "stride": 1, "pad": 0}]}
JSON
fail=0
ok() { if [ "$1" = 1 ]; then echo "PASS: $2"; else echo "FAIL: $2"; fail=1; fi; }
stat() { python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1]))); print(dict(zip(r[0],r[1]))[sys.argv[2]])' "$1" "$2"; }
has() { python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1]))); print(int(any(sys.argv[2] in k for k in r[0])))' "$1" "$2"; }
choice=(--set "tso.fixed_layers=f1=KS/OS/2,16,8,8")
run() { local out=$1; shift; "$vp_run" "$cfg" "$tmp/f1.json" --out "$tmp/$out" --quiet "${choice[@]}" "$@" 2> "$tmp/err" ||
  { echo "FAIL: run $out: $(cat "$tmp/err")"; exit 1; }; }

run w1 --set nmp.fabric.enabled=true --set nmp.fabric.bytes_per_cycle=1 --set nmp.fabric.latency_cycles=4
run w16 --set nmp.fabric.enabled=true --set nmp.fabric.bytes_per_cycle=16
run off
run off_keys --set nmp.fabric.bytes_per_cycle=2 --set nmp.fabric.latency_cycles=9
all=1; busy=1; cont=1
for t in 0 1 2 3; do
  g="nmp.tle[$t].fabric"
  [ "$(stat "$tmp/w1/stats.csv" "$g.multicast_bytes")" = 1024 ] || { all=0; echo "  tle $t multicast_bytes"; }
  [ "$(stat "$tmp/w1/stats.csv" "$g.load_bytes")" = 256 ] || { all=0; echo "  tle $t load_bytes"; }
  [ "$(stat "$tmp/w1/stats.csv" "$g.store_bytes")" = 1024 ] || { all=0; echo "  tle $t store_bytes"; }
  for j in 0 1 2 3 4 5 6 7; do
    [ "$(stat "$tmp/w1/stats.csv" "$g.port[$j].bytes")" = 1184 ] || { all=0; echo "  tle $t port $j bytes"; }
    b=$(stat "$tmp/w1/stats.csv" "$g.port[$j].busy_cycles")
    # (the 375 MHz cycle is not a whole number of picoseconds: sums of sc_time are off by < 0.01)
    python3 -c "import sys; sys.exit(0 if abs($b - 1184) < 0.01 else 1)" || { busy=0; echo "  tle $t port $j busy $b"; }
  done
  c=$(stat "$tmp/w1/stats.csv" "$g.load_contention_cycles")
  python3 -c "import sys; sys.exit(0 if $c > 0 else 1)" || { cont=0; echo "  tle $t load contention $c"; }
done
ok $all "bytes per TLE and per port = hand counts (1,024 / 256 / 1,024; 1,184 per port)"
ok $busy "at 1 B/cycle every port is busy exactly its 1,184 bytes in cycles"
ok $cont "W loads wait for the multicast on their port (load_contention_cycles > 0 on every TLE)"
c1=$(stat "$tmp/w1/stats.csv" nmp.cycles); c16=$(stat "$tmp/w16/stats.csv" nmp.cycles); c0=$(stat "$tmp/off/stats.csv" nmp.cycles)
echo "  cycles: 1 B/cycle $c1, 16 B/cycle $c16, ideal $c0"
ok "$(python3 -c "print(int($c1 >= 1024 + 32 + 128 and $c1 > $c16 >= $c0))")" "1 B/cycle >= one port's transfers in a row (1,184), slower than 16 B/cycle, not faster than ideal"
ok "$(python3 -c "print(int('$(stat "$tmp/off_keys/stats.csv" nmp.cycles)' == '$c0'))")" "fabric off: other fabric keys change nothing"
ok "$([ "$(has "$tmp/off/stats.csv" fabric)" = 0 ] && echo 1 || echo 0)" "fabric off: no fabric statistics"
e1=$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); c=m["convs"][0]; print(c["estimate"]["t_fabric_s"], c["estimate"]["total_cycles"])' "$tmp/w1/mapping.json")
e16=$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); c=m["convs"][0]; print(c["estimate"]["total_cycles"])' "$tmp/w16/mapping.json")
echo "  estimate: 1 B/cycle t_fabric_s total_cycles = $e1; 16 B/cycle total_cycles = $e16"
ok "$(python3 -c "f,t='$e1'.split(); print(int(float(f) > 0 and float(t) >= 1184 and float(t) > $e16))")" "estimate: fabric term reported, >= one port's transfers, grows as the port narrows"
# The fabric keys in the resolved configuration reproduce the run.
"$vp_run" "$tmp/w1/config.yaml" "$tmp/f1.json" --out "$tmp/again" --quiet 2> "$tmp/err" || { echo "FAIL: rerun: $(cat "$tmp/err")"; exit 1; }
same=$(python3 -c 'import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:3]); print(int(a["stats"]==b["stats"]))' \
  "$tmp/w1/stats.json" "$tmp/again/stats.json")
ok "$same" "config.yaml with the fabric reproduces every statistic"

# Trace: each port's busy signal in the VCD, read by a parser of its own, is high exactly its
# busy_cycles (a regression check: the same model on both sides).
run tr --set nmp.fabric.enabled=true --set nmp.fabric.bytes_per_cycle=2 --trace
vcd_ok=$(python3 - "$tmp/tr" <<'PY'
import json, sys
d = sys.argv[1]
lines = open(d + "/trace.vcd").read().split("\n")
ids, scope = {}, []
for l in lines:
    t = l.split()
    if not t: continue
    if t[0] == "$scope": scope.append(t[2])
    elif t[0] == "$upscope": scope.pop()
    elif t[0] == "$var": ids[t[3]] = ".".join(scope + [t[4]])
    elif t[0] == "$enddefinitions": break
st = json.load(open(d + "/stats.json"))["stats"]["nmp"]
ok = 1
for tle in range(4):
    for port in range(8):
        w = [k for k, v in ids.items() if v.endswith("tle[%d].fabric.port[%d].busy" % (tle, port))]
        if len(w) != 1: ok = 0; continue
        now = val = busy = start = 0
        for l in lines:
            if l.startswith("#"): now = int(l[1:])
            elif l[1:] == w[0] and l[0] in "01":
                v = int(l[0])
                if v == 1 and val == 0: start = now
                if v == 0 and val == 1: busy += now - start
                val = v
        want = st["tle[%d]" % tle]["fabric"]["port[%d]" % port]["busy_cycles"]["value"]
        if abs(busy / (1e6 / 375) - want) > 0.01: ok = 0; print("  tle %d port %d: vcd %.2f stat %.2f" % (tle, port, busy / (1e6 / 375), want), file=sys.stderr)
print(ok)
PY
)
ok "$vcd_ok" "trace: every port's busy signal is high exactly its busy_cycles"
grep -q "fabric.port\[0\].busy" "$tmp/tr/trace.gtkw"; ok "$([ $? = 0 ] && echo 1 || echo 0)" "trace.gtkw lists the port signals"

bad() {  # NAME SUBSTRING ARGS...
  local name=$1 want=$2; shift 2
  err=$("$vp_run" "$cfg" "$tmp/f1.json" --out "$tmp/bad" --quiet "$@" 2>&1 >/dev/null); rc=$?
  ok "$([ $rc = 2 ] && [[ "$err" == *"$want"* ]] && [ ! -e "$tmp/bad" ] && echo 1 || echo 0)" "$name: exit 2 naming the key (got $rc: ${err:0:160})"
}
bad zero_width "nmp.fabric.bytes_per_cycle: expected a port width in [1, 4096]" --set nmp.fabric.bytes_per_cycle=0
bad wide_width "nmp.fabric.bytes_per_cycle" --set nmp.fabric.bytes_per_cycle=5000
bad text_width "nmp.fabric.bytes_per_cycle" --set nmp.fabric.bytes_per_cycle=wide
bad neg_latency "nmp.fabric.latency_cycles: expected a latency in [0, 100000]" --set nmp.fabric.latency_cycles=-1
bad flag "nmp.fabric.enabled" --set nmp.fabric.enabled=maybe
bad unknown "nmp.fabric.width" --set nmp.fabric.width=8
printf 'platform: nmp\nnmp:\n  fabric:\n    enabled: true\n    bytes_per_cycle: 0\n' > "$tmp/bad.yaml"
err=$("$vp_run" "$tmp/bad.yaml" "$tmp/f1.json" --out "$tmp/bad" --quiet 2>&1 >/dev/null); rc=$?
ok "$([ $rc = 2 ] && [[ "$err" == *"bad.yaml"* ]] && [[ "$err" == *"bytes_per_cycle"* ]] && echo 1 || echo 0)" "bad value in a YAML file: exit 2 naming the file and key (got $rc: ${err:0:160})"
exit $fail
