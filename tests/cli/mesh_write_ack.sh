#!/usr/bin/env bash
# mesh.packet.write_ack reaches the simulation, not only the mapper: with write_ack false the NoC
# carries no write acks and exactly the flits the mapper counts (the summary's two figures are
# equal, exit 0); with acks both figures include them. One VC is accepted when the message
# classes share it (the mesh calibration file is made for acknowledged writes and 2 VCs, so these runs
# use mapper.calibration=none). $1 = vp-run, $2 = source root.
set -u
vp_run=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cfg=$root/configs/mesh-4x4.yaml; wl=$root/workloads/lenet5.json
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
col() { awk -F, -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i } NR == 2 { print $c }' "$1"; }
for ack in false true; do
  "$vp_run" "$cfg" "$wl" --set mesh.packet.write_ack=$ack --set mapper.calibration=none --out "$tmp/$ack" > "$tmp/$ack.txt" 2>&1
  ok "write_ack=$ack runs (exit 0)" "[ $? -eq 0 ]"
  line=$(grep -o 'NoC [0-9]* flits (mapper: [0-9]*)' "$tmp/$ack.txt")
  sim=$(echo "$line" | awk '{print $2}'); map=$(echo "$line" | awk '{print $5}' | tr -d ')')
  ok "write_ack=$ack: NoC flits $sim == mapper $map" "[ -n '$sim' ] && [ '$sim' = '$map' ]"
  eval "flits_$ack=$sim"
done
ok "no write acks with write_ack=false" "[ '$(col "$tmp/false/stats.csv" noc.packet_types.write_ack)' = 0 ]"
ok "posted writes instead" "[ '$(col "$tmp/false/stats.csv" noc.packet_types.posted_write)' -gt 0 ]"
ok "one ack per write with write_ack=true" \
   "[ '$(col "$tmp/true/stats.csv" noc.packet_types.write_ack)' = '$(col "$tmp/true/stats.csv" noc.packet_types.write_request)' ]"
ok "acks cost flits ($flits_false < $flits_true)" "[ '$flits_false' -lt '$flits_true' ]"
"$vp_run" "$cfg" "$wl" --set noc.num_vcs=1 --set noc.message_classes=shared --set mapper.calibration=none --out "$tmp/one" --quiet
ok "one shared VC runs" "[ $? -eq 0 ]"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
