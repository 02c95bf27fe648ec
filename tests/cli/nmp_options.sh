#!/usr/bin/env bash
# NMP options against hand counts, on one conv (32 -> 64 channels, 16 x 16, 3 x 3, 16 bit) with
# a forced choice: IFM-CH / OS, tile T_M 8, T_N 8, T_R 4, T_C 16, i.e. per TLT 4 OUT tiles,
# each with one IN load (multicast), one W load, one nmp_conv2d and one store (or ring send).
#  * control: nmp.control.loop_cycles = 4, sync_cycles = 3: every TLT spends
#    4 x (16 + 4) + 3 x 11 = 113 control cycles (11 = 4 x 3 DMA completions, the last store's
#    after its last nmp_conv2d);
#  * double buffering: with T_N 2 (four channel chunks per OUT tile; IN 432 B, W 288 B, within
#    half of MB0/MB1) the loads of the next chunk overlap the compute: faster than
#    single-buffered, and no faster than its busiest MAC unit; a tile that fits MB0 but not half
#    of it is rejected (exit 2). (With one chunk per OUT tile the store, which waits for the
#    single-buffered MB2, leaves nothing to overlap.)
set -u
vp_run=$1; root=$2
cfg=$root/configs/nmp.yaml
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
cat > "$tmp/c1.json" <<'JSON'
{"name": "c1", "precision": 16, "layers": [
 {"name": "c1", "type": "conv", "C": 32, "K": 64, "H": 16, "W": 16, "R": 3, "S": 3, "stride": 1, "pad": 1}]}
JSON
fail=0
ok() { if [ "$1" = 1 ]; then echo "PASS: $2"; else echo "FAIL: $2"; fail=1; fi; }
stat() { python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1]))); print(dict(zip(r[0],r[1]))[sys.argv[2]])' "$1" "$2"; }
choice=(--set "tso.fixed_layers=c1=IFM-CH/OS/8,8,4,16")

"$vp_run" "$cfg" "$tmp/c1.json" --out "$tmp/ctl" --quiet "${choice[@]}" \
  --set nmp.control.loop_cycles=4 --set nmp.control.sync_cycles=3 || { echo "FAIL: control run"; exit 1; }
all=1
for t in 0 1 2 3; do for j in 0 7; do
  v=$(stat "$tmp/ctl/stats.csv" "nmp.tle[$t].tlt[$j].sw_cycles")
  [ "$v" = 113 ] || { all=0; echo "  tle $t tlt $j: sw_cycles $v, want 113"; }
done; done
ok $all "control cycles per TLT = 4 x (16 + 4) + 3 x 11"

# Four channel chunks per OUT tile (T_N 2): the next chunk's loads can overlap the compute.
choice=(--set "tso.fixed_layers=c1=IFM-CH/OS/8,2,4,16")
"$vp_run" "$cfg" "$tmp/c1.json" --out "$tmp/sb" --quiet "${choice[@]}" || { echo "FAIL: single-buffered run"; exit 1; }
"$vp_run" "$cfg" "$tmp/c1.json" --out "$tmp/db" --quiet "${choice[@]}" --set nmp.double_buffer=true 2> "$tmp/err" ||
  { echo "FAIL: double-buffered run: $(cat "$tmp/err")"; exit 1; }
sb=$(stat "$tmp/sb/stats.csv" nmp.cycles); db=$(stat "$tmp/db/stats.csv" nmp.cycles)
busy=0
for t in 0 1 2 3; do for j in 0 1 2 3 4 5 6 7; do
  b=$(stat "$tmp/db/stats.csv" "nmp.tle[$t].tlt[$j].busy_cycles"); [ "$b" -gt "$busy" ] && busy=$b
done; done
echo "  single-buffered $sb cycles, double-buffered $db cycles, busiest MAC unit $busy cycles"
ok "$(python3 -c "print(int($db < $sb))")" "double buffering is faster on this layer"
ok "$(python3 -c "print(int($db >= $busy))")" "and no faster than the busiest MAC unit"
# KS (every TLE has all 32 channels), T_N 24: IN tile 24 x 6 x 18 x 2 B = 5,184 B, between half of
# MB0 (4,096) and MB0 (8,192).
"$vp_run" "$cfg" "$tmp/c1.json" --out "$tmp/fit" --quiet --set "tso.fixed_layers=c1=KS/OS/2,24,4,16" > /dev/null 2>&1
ok "$([ $? = 0 ] && echo 1 || echo 0)" "a 5,184-B IN tile fits the whole MB0"
"$vp_run" "$cfg" "$tmp/c1.json" --out "$tmp/nofit" --quiet --set "tso.fixed_layers=c1=KS/OS/2,24,4,16" \
  --set nmp.double_buffer=true 2> "$tmp/err"
rc=$?
ok "$([ $rc = 2 ] && grep -q "does not fit" "$tmp/err" && echo 1 || echo 0)" "but not half of it: exit 2 (got $rc: $(head -c 200 "$tmp/err"))"
exit $fail
