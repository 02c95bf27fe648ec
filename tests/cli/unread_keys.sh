#!/usr/bin/env bash
# vp-run refuses --set of a key the platform does not read (exit 2, naming the platform and
# the keys it reads), and the refusal is right: with --allow-unused, changing any of those
# keys leaves every statistic of the run unchanged, while changing a key the platform reads
# changes them. The lists below are written from the platforms' behaviour, not taken from
# platform/config/platform_keys.cpp, so the run results check the table.
set -u
vp_run=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
cat > "$tmp/traffic.json" <<'JSON'
{"kind": "traffic", "name": "tiny", "streams": [
  {"name": "s", "pattern": "random", "requests": 500, "read_fraction": 0.7, "range": 1048576}]}
JSON
same_stats() {  # same_stats A B: the "stats" objects of two stats.json files are equal
  /usr/bin/python3 -c 'import json, sys; a, b = (json.load(open(f))["stats"] for f in sys.argv[1:]); sys.exit(a != b)' \
    "$1/stats.json" "$2/stats.json"
}
# One value per section that passes validation on every platform.
declare -A sample=(
  [seed]="seed=7" [nmp]="nmp.n_tle=2" [tso]="tso.dram_model=noburst" [mesh]="mesh.flit_weight=2.5"
  [core]="core.p_of=4" [energy]="energy.pj_per_mac=9" [mapper]="mapper.objective=min-dram"
  [noc]="noc.buffer_depth=8" [traffic]="traffic.warmup_cycles=7" [vta]="vta.clock_mhz=50"
  [vta_compiler]="vta_compiler.strategy=2" [dram]="dram.scheduler=fcfs"
)
# The nmp and vta configs' calibration files are made for their own DRAM and nmp / vta sections
# (another section is a warning): those cases run without them.
sed 's|^\( *calibration:\).*|\1 none|' "$root/configs/nmp.yaml" > "$tmp/nmp.yaml"
sed 's|^\( *calibration:\).*|\1 none|' "$root/configs/vta.yaml" > "$tmp/vta.yaml"
# Likewise the mesh config's (made for its DRAM, NoC timing, packet format and core).
sed 's|^\( *calibration:\).*|\1 none|' "$root/configs/mesh-4x4.yaml" > "$tmp/mesh.yaml"
# platform|config|workload|unread sections|keys it reads whose change must change the statistics
cases=(
  "dram|configs/dram-ddr3.yaml|$tmp/traffic.json|nmp tso mesh core energy mapper noc traffic vta vta_compiler|dram.scheduler=fcfs seed=7"
  "nmp|$tmp/nmp.yaml|workloads/lenet5.json|seed mesh core energy mapper noc traffic vta vta_compiler|nmp.n_tle=2 tso.dram_model=noburst dram.preset=ddr4-2400"
  "mesh|$tmp/mesh.yaml|workloads/lenet5.json|seed nmp tso traffic vta vta_compiler|mesh.noc_mhz=500 core.p_of=4 energy.pj_per_mac=9 mapper.mode=whole-layer noc.router_stages=2 dram.preset=ddr4-2400"
  "noc|configs/mesh-8x8-synthetic.yaml|workloads/traffic/uniform.json|dram nmp tso core energy mapper vta vta_compiler mesh|seed=7 mesh.width=4 noc.buffer_depth=8 traffic.rate=0.2"
  "vta|$tmp/vta.yaml|workloads/lenet5.json|nmp tso mesh core energy mapper noc traffic|vta.clock_mhz=50 vta_compiler.host_ns_per_byte=5 dram.preset=ddr4-2400"
)
for c in "${cases[@]}"; do
  IFS='|' read -r plat cfg wl unread reads <<< "$c"
  cd "$root"
  base=$tmp/$plat-base
  "$vp_run" "$cfg" "$wl" --out "$base" --quiet
  ok "$plat: baseline runs" "[ -f '$base/stats.json' ]"
  for s in $unread; do
    kv=${sample[$s]}
    err=$("$vp_run" "$cfg" "$wl" --out "$tmp/x" --quiet --set "$kv" 2>&1 >/dev/null); rc=$?
    ok "$plat: --set $kv is refused with exit 2" "[ $rc -eq 2 ] && [[ \"\$err\" == *'the $plat platform'*'does not read'*'it reads:'* ]]"
    d=$tmp/$plat-$s
    "$vp_run" "$cfg" "$wl" --out "$d" --quiet --set "$kv" --allow-unused
    ok "$plat: --set $kv --allow-unused changes no statistic" "same_stats '$base' '$d'"
    leaf=${kv%%=*}; leaf=${leaf##*.}
    ok "$plat: ... and lands in config.yaml" "grep -Eq '^ *$leaf: \"?${kv#*=}\"?\$' '$d/config.yaml'"
  done
  for kv in $reads; do
    d=$tmp/$plat-read-${kv%%=*}
    "$vp_run" "$cfg" "$wl" --out "$d" --quiet --set "$kv"
    ok "$plat: --set $kv is accepted and changes the statistics" "[ -f '$d/stats.json' ] && ! same_stats '$base' '$d'"
  done
done
# The VTA seed draws the int8 inputs and weights: it changes the outputs, not the timing.
"$vp_run" configs/vta.yaml workloads/lenet5.json --out "$tmp/vta-seed" --quiet --set seed=7
ok "vta: --set seed=7 changes the outputs" "! diff -rq '$tmp/vta-base/outputs' '$tmp/vta-seed/outputs' >/dev/null"
# Keys a workload makes void.
err=$("$vp_run" configs/vta.yaml workloads/vta/add_36x16.json --out "$tmp/x" --set vta_compiler.strategy=2 2>&1); rc=$?
ok "vta: vta_compiler.* with a VTA IR program is refused" "[ $rc -eq 2 ] && [[ \"\$err\" == *'VTA IR program'* ]]"
err=$("$vp_run" configs/mesh-8x8-synthetic.yaml workloads/traffic/uniform.json --out "$tmp/x" --set traffic.pattern=transpose 2>&1); rc=$?
ok "noc: traffic.pattern shadowed by the workload is refused" "[ $rc -eq 2 ] && [[ \"\$err\" == *'sets \"pattern\" itself'* ]]"
"$vp_run" configs/mesh-8x8-synthetic.yaml workloads/traffic/uniform.json --out "$tmp/y" --quiet --set traffic.pattern=transpose --allow-unused
ok "noc: ... and indeed changes nothing" "same_stats '$tmp/noc-base' '$tmp/y'"
ok "--check validates without simulating" "'$vp_run' configs/nmp.yaml workloads/lenet5.json --check --out '$tmp/c' | grep -q 'inputs ok' && [ ! -e '$tmp/c' ]"
err=$("$vp_run" configs/nmp.yaml workloads/traffic/stream.json --check 2>&1); rc=$?
ok "--check rejects a workload the platform does not run" "[ $rc -eq 2 ] && [[ \"\$err\" == *'runs network workloads'* ]]"
# A section of the config file that the chosen platform does not read is a warning on stderr naming
# the file, its line, the section and the platform, once, under --check too (it was ignored without
# a word); the run goes on, since one file may serve several platforms through --set platform=.
err=$("$vp_run" "$root/tests/data/unread/mesh_with_nmp.yaml" workloads/lenet5.json --check 2>&1 >/dev/null); rc=$?
ok "a mesh config's nmp section: one warning, exit 0" "[ $rc -eq 0 ] && [ \"\$err\" = 'warning: $root/tests/data/unread/mesh_with_nmp.yaml:2: section \"nmp\" is not read by platform \"mesh\" (it reads: sim, stats, trace, mesh, core, energy, mapper, noc, dram)' ]"
err=$("$vp_run" configs/nmp.yaml workloads/lenet5.json --check --set platform=mesh 2>&1 >/dev/null); rc=$?
ok "nmp.yaml with --set platform=mesh: its nmp and tso sections named, once each" \
   "[ $rc -eq 0 ] && [ \$(printf '%s\n' \"\$err\" | wc -l) -eq 2 ] && [[ \"\$err\" == *'configs/nmp.yaml:8: section \"nmp\" is not read by platform \"mesh\"'* ]] && [[ \"\$err\" == *'configs/nmp.yaml:39: section \"tso\" is not read'* ]]"
# The shipped configs, and the resolved OUT/config.yaml of each baseline run above, warn about nothing.
for c in configs/*.yaml; do
  case $c in *dram*) wl=$tmp/traffic.json;; *synthetic*|*booksim*) wl=workloads/traffic/uniform.json;; *) wl=workloads/lenet5.json;; esac
  err=$("$vp_run" "$c" "$wl" --check 2>&1 >/dev/null)
  ok "$c: no warning" "[ -z \"\$err\" ]"
done
for c in "${cases[@]}"; do
  IFS='|' read -r plat cfg wl unread reads <<< "$c"
  err=$("$vp_run" "$tmp/$plat-base/config.yaml" "$wl" --check 2>&1 >/dev/null)
  ok "$plat: the resolved config.yaml reruns without a warning" "[ -z \"\$err\" ]"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
