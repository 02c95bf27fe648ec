#!/usr/bin/env bash
# vp-run on the NoC-only platform: synthetic patterns run, the two stepping modes give the
# same statistics, bad NoC keys are input errors.
set -u
vp_run=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cfg=$root/configs/mesh-8x8-synthetic.yaml
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
for p in uniform transpose bit_complement hotspot; do
  "$vp_run" "$cfg" "$root/workloads/traffic/$p.json" --set traffic.rate=0.08 --out "$tmp/$p" --quiet
  ok "$p runs" "[ $? -eq 0 ] && grep -q 'flits_injected' '$tmp/$p/stats.json'"
done
for mode in active all; do
  "$vp_run" "$cfg" "$root/workloads/traffic/uniform.json" --set traffic.rate=0.15 --set noc.stepping=$mode \
    --set traffic.measure_cycles=3000 --out "$tmp/s_$mode" --quiet
done
ok "stepping all == active (statistics)" \
   "diff <(grep -v config_hash '$tmp/s_active/stats.json') <(grep -v config_hash '$tmp/s_all/stats.json') >/dev/null"
"$vp_run" "$cfg" "$root/workloads/traffic/uniform.json" --set noc.routing=diagonal --out "$tmp/x" --quiet 2>"$tmp/err"
ok "unknown routing is exit 2 and lists the known ones" "[ $? -eq 2 ] && grep -q 'known: xy' '$tmp/err'"
"$vp_run" "$cfg" "$root/workloads/traffic/uniform.json" --set noc.num_vcs=0 --out "$tmp/x" --quiet 2>"$tmp/err"
ok "zero VCs is exit 2" "[ $? -eq 2 ] && grep -q 'noc.num_vcs' '$tmp/err'"
"$vp_run" "$cfg" "$root/workloads/traffic/stream.json" --out "$tmp/x" --quiet 2>"$tmp/err"
ok "a DRAM traffic workload on the noc platform is exit 2" "[ $? -eq 2 ]"
# Narrow meshes (tests/data/noc): the NoC runs on any mesh of two nodes or more; the master, DRAM
# interface and core placement are the mesh platform's keys, which the noc platform neither reads
# nor checks (a 1x4 mesh was refused with "mesh.master outside 1x4", a 2x1 one for "no node left for
# a processing core"). One node is refused: its traffic would have nowhere to go.
narrow=$root/tests/data/noc
for m in 1x4 2x1; do
  for p in uniform bit_complement; do
    "$vp_run" "$narrow/noc_$m.yaml" "$root/workloads/traffic/$p.json" --out "$tmp/n$m-$p" --quiet 2>"$tmp/err"
    ok "$m mesh: $p runs and delivers its packets" "[ $? -eq 0 ] && [ ! -s '$tmp/err' ] && /usr/bin/python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))[\"stats\"]
sys.exit(not (s[\"flits_injected\"][\"value\"] > 0 and s[\"measured_packets\"][\"value\"] == s[\"measured_delivered\"][\"value\"] > 0))' '$tmp/n$m-$p/stats.json'"
  done
done
"$vp_run" "$tmp/n1x4-uniform/config.yaml" "$root/workloads/traffic/uniform.json" --out "$tmp/n1x4-again" --quiet
ok "1x4 mesh: OUT/config.yaml reruns to the same statistics" \
   "[ $? -eq 0 ] && /usr/bin/python3 -c 'import json, sys; a, b = (json.load(open(f))[\"stats\"] for f in sys.argv[1:]); sys.exit(a != b)' '$tmp/n1x4-uniform/stats.json' '$tmp/n1x4-again/stats.json'"
"$vp_run" "$narrow/noc_1x1.yaml" "$root/workloads/traffic/uniform.json" --check 2>"$tmp/err"
ok "a 1x1 mesh is exit 2 naming mesh.width and why" \
   "[ $? -eq 2 ] && grep -q 'noc_1x1.yaml:3:10: mesh.width: the noc platform needs at least 2 nodes (1x2 or 2x1)' '$tmp/err'"
"$vp_run" "$narrow/noc_1x4.yaml" "$root/workloads/lenet5.json" --check --set platform=mesh 2>"$tmp/err"
ok "the mesh platform still checks its placement on the same file" "[ $? -eq 2 ] && grep -q 'mesh.master: node (1, 0) is outside the 1x4 mesh' '$tmp/err'"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
