#!/usr/bin/env bash
# Binary VTA programs (mapper/vta/binary_program.h) end to end through vp-run:
#  * round trip: a VTA IR program runs (two virtual threads, and single-buffered), vp-run writes
#    it as OUT/program/ (program.json + insn.bin, uop.bin, data .bin files); running that
#    program.json gives byte-identical outputs and the same simulated core cycles, and writes
#    the same binary files again;
#  * bad input: a truncated instruction, an unknown opcode, a micro-op range beyond the UOP
#    buffer and a program built for another configuration are exit 2 naming the file and the
#    instruction; a token pop that can never be satisfied is exit 3 (deadlock) naming it.
# Args: $1 = vp-run, $2 = source root.
set -u
vp_run=$1; root=$2
cfg=$root/configs/vta.yaml
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
err() { echo "FAIL: $*"; fail=$((fail + 1)); }
cycles() { jq '[.programs[].simulated_cycles] | add' "$1/mapping.json"; }
# The DRAM refreshes every tREFI from time 0, idle or not, and the host readies the data for
# a network run at other instants than the loads of a binary run (a few hundred ns apart): a
# refresh may fall at another point of the program. The cycle comparisons run without refresh.
norefresh=(--set dram.refresh=false)
for mode in vt single; do
  extra=("${norefresh[@]}"); [ $mode = single ] && extra+=(--allow-unused --set vta_compiler.double_buffer=false)
  a=$tmp/$mode-a; b=$tmp/$mode-b
  "$vp_run" "$cfg" "$root/workloads/vta/partition_gemm_s2.json" --out "$a" --quiet "${extra[@]}" || err "$mode: IR run exited with $?"
  [ -s "$a/program/program.json" ] && [ -s "$a/program/insn.bin" ] && [ -s "$a/program/uop.bin" ] || { err "$mode: no OUT/program/"; continue; }
  "$vp_run" "$cfg" "$a/program/program.json" --out "$b" --quiet "${norefresh[@]}" || err "$mode: binary run exited with $?"
  for f in "$a"/outputs/*.bin; do cmp -s "$f" "$b/outputs/$(basename "$f")" || err "$mode: $(basename "$f") differs after the round trip"; done
  ca=$(cycles "$a"); cb=$(cycles "$b")
  [ -n "$ca" ] && [ "$ca" = "$cb" ] || err "$mode: simulated cycles $ca (IR) vs $cb (binary)"
  for f in "$a"/program/*.bin; do cmp -s "$f" "$b/program/$(basename "$f")" || err "$mode: re-written $(basename "$f") differs"; done
  echo "$mode: round trip $ca cycles, outputs identical"
done
[ "$(jq '.programs[0].virtual_threads' "$tmp/vt-a/mapping.json")" = 2 ] || err "default run is not double-buffered"
[ "$(jq '.programs[0].virtual_threads' "$tmp/single-a/mapping.json")" = 1 ] || err "double_buffer=false run is not single-buffered"

src=$tmp/vt-a/program
# expect CODE PATTERN NAME: runs the corrupted copy in $tmp/NAME
expect() {
  local code=$1 pat=$2 name=$3
  "$vp_run" "$cfg" "$tmp/$name/program.json" --out "$tmp/$name-out" --quiet > "$tmp/$name.log" 2>&1; local rc=$?
  [ $rc = "$code" ] || err "$name: exit $rc, expected $code ($(tail -2 "$tmp/$name.log"))"
  grep -q -- "$pat" "$tmp/$name.log" || err "$name: message lacks \"$pat\": $(tail -2 "$tmp/$name.log")"
  echo "$name: exit $rc: $(grep -m1 -- "$pat" "$tmp/$name.log")"
}
corrupt() {  # NAME PYTHON-CODE (on bytearray b of insn.bin; helpers: insn(i) -> int, put(i, v))
  cp -r "$src" "$tmp/$1"
  /usr/bin/python3 - "$tmp/$1/insn.bin" <<PY
import sys
p = sys.argv[1]; b = bytearray(open(p, 'rb').read())
insn = lambda i: int.from_bytes(b[16 * i:16 * i + 16], 'little')
def put(i, v): b[16 * i:16 * i + 16] = v.to_bytes(16, 'little')
$2
open(p, 'wb').write(b)
PY
}
corrupt truncated 'b = b[:-8]'
expect 2 "instruction .* is truncated" truncated
corrupt opcode 'put(3, (insn(3) & ~7) | 7)'
expect 2 "instruction 3 (byte 48): .*unknown opcode 7" opcode
# Default layout (hw_spec.h): opcode bits 0-2, flags 3-6, reset 7, uop_bgn 8-20, uop_end 21-34.
corrupt uop_range 'g = next(i for i in range(len(b) // 16) if insn(i) & 7 == 2 and not insn(i) >> 7 & 1)
put(g, insn(g) & ~(((1 << 14) - 1) << 21) | (9000 << 21))'
expect 2 "micro-op range .* outside the UOP buffer of 8192" uop_range
# The first compute instruction pops s2g (pop_next, bit 4) before any store has run: the store
# waits for a g2s token from compute, compute for an s2g token from the store.
corrupt never_pushed 'c = next(i for i in range(len(b) // 16) if (insn(i) & 7 == 0 and (insn(i) >> 7) & 7 in (0, 3)) or insn(i) & 7 in (2, 4))
put(c, insn(c) | (1 << 4))'
expect 3 "deadlock" never_pushed
"$vp_run" "$cfg" "$src/program.json" --out "$tmp/cfg-out" --quiet --set vta.log_acc_buff_size=16 > "$tmp/cfg.log" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "log_acc_buff_size" "$tmp/cfg.log" || err "other configuration: exit $rc: $(tail -1 "$tmp/cfg.log")"
# Direct convolution (no host im2row): a one-conv network (stride 2, padding 1, C = 20, K = 24)
# compiled with vta_compiler.conv_lowering=direct writes its program as OUT/program/ too; the
# binary run stores the same bytes ([P*Q, K] rows; the network output is its CHW transpose) in the
# same simulated cycles, in both buffering modes.
cat > "$tmp/conv.json" <<'JSON'
{"name": "conv", "precision": 8, "layers": [
 {"name": "c", "type": "conv", "C": 20, "K": 24, "H": 9, "W": 11, "R": 3, "S": 3, "stride": 2, "pad": 1, "groups": 1, "relu": true}]}
JSON
for db in true false; do
  a=$tmp/direct-$db-a; b=$tmp/direct-$db-b
  "$vp_run" "$cfg" "$tmp/conv.json" --out "$a" --quiet --set vta_compiler.conv_lowering=direct --set vta_compiler.double_buffer=$db \
    "${norefresh[@]}" || err "direct $db: network run exited with $?"
  jq -r '.programs[0].partition' "$a/mapping.json" | grep -q '^direct' || err "direct $db: the program is not a direct convolution"
  [ "$(jq -r '.output.layout' "$a/program/program.json")" = blocked ] || err "direct $db: program.json lacks the blocked output layout"
  "$vp_run" "$cfg" "$a/program/program.json" --out "$b" --quiet "${norefresh[@]}" || err "direct $db: binary run exited with $?"
  /usr/bin/python3 - "$a/outputs" "$b/outputs" <<'PY' || err "direct $db: outputs differ after the round trip"
import json, sys
na, nb = (json.load(open(d + "/manifest.json"))["outputs"][0] for d in sys.argv[1:3])
a = open(sys.argv[1] + "/" + na["file"], "rb").read(); b = open(sys.argv[2] + "/" + nb["file"], "rb").read()
K, P, Q = na["shape"]; rows, cols = nb["shape"]
assert (rows, cols) == (P * Q, K), (na["shape"], nb["shape"])
assert all(a[k * P * Q + r] == b[r * K + k] for r in range(rows) for k in range(K))
PY
  ca=$(cycles "$a"); cb=$(cycles "$b")
  [ -n "$ca" ] && [ "$ca" = "$cb" ] || err "direct $db: simulated cycles $ca (network) vs $cb (binary)"
  echo "direct double_buffer=$db: round trip $ca cycles, outputs identical"
done
"$vp_run" "$cfg" "$tmp/conv.json" --out "$tmp/bad-low" --quiet --set vta_compiler.conv_lowering=im2col > "$tmp/bad-low.log" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "conv_lowering" "$tmp/bad-low.log" || err "unknown conv_lowering: exit $rc: $(tail -1 "$tmp/bad-low.log")"
[ $fail -eq 0 ] && echo "vta binary: all checks passed"
[ $fail -eq 0 ]
