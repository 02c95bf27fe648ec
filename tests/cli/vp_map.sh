#!/usr/bin/env bash
# vp-map: the mappers alone (no SystemC kernel), their outputs and their input errors.
set -u
vp_run=$1; root=$2; bindir=$3
vp_map=$bindir/vp-map
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
"$vp_map" "$root/configs/nmp.yaml" "$root/workloads/inception_v3.json" --out "$tmp/m1.json" > "$tmp/t1"
ok "nmp mapping of InceptionV3 exits 0" "[ $? -eq 0 ] && [ -s '$tmp/m1.json' ]"
ok "the table lists all 94 convs" "grep -q 'total: 94 convs' '$tmp/t1'"
"$vp_map" "$root/configs/nmp.yaml" "$root/workloads/inception_v3.json" --out "$tmp/m2.json" --quiet --set sim.threads=1
ok "1 and 2 threads give the same mapping" "diff <(grep -v '\"threads\"' '$tmp/m1.json') <(grep -v '\"threads\"' '$tmp/m2.json') >/dev/null"
"$vp_map" "$root/configs/nmp.yaml" "$root/workloads/inception_v3.json" --out "$tmp/m3.json" --quiet --set tso.dram_model=noburst
ok "noburst mapping differs" "[ $? -eq 0 ] && ! cmp -s '$tmp/m1.json' '$tmp/m3.json'"
"$vp_map" "$root/configs/mesh-8x8.yaml" "$root/workloads/alexnet.json" --out "$tmp/w.json" --quiet
ok "mesh waving mapping of AlexNet exits 0" "[ $? -eq 0 ] && [ -s '$tmp/w.json' ]"
"$vp_map" "$root/configs/dram-ddr3.yaml" "$root/workloads/alexnet.json" --out "$tmp/x.json" 2>"$tmp/err"
ok "no mapper for the dram platform: exit 2" "[ $? -eq 2 ] && [ ! -e '$tmp/x.json' ]"
"$vp_map" "$root/configs/nmp.yaml" "$root/workloads/alexnet.json" --out "$tmp/x.json" --set nmp.n_tle=0 2>"$tmp/err"
ok "0 TLEs: exit 2 naming nmp.n_tle" "[ $? -eq 2 ] && grep -q 'nmp.n_tle' '$tmp/err'"
"$vp_map" "$root/configs/mesh-4x4.yaml" "$root/workloads/traffic/stream.json" --out "$tmp/x.json" 2>"$tmp/err"
ok "traffic workload on the mesh mapper: exit 2" "[ $? -eq 2 ]"
# A layer the NMP's TLT memories cannot hold (scripts/random_networks.py --large): the message
# names the workload file as vp-run's does (vp-map's named only the JSON pointer).
echo '{"name": "bigk", "precision": 16, "layers": [{"name": "c", "type": "conv", "C": 3, "K": 52, "H": 76, "W": 76, "R": 76, "S": 78, "pad": 1}]}' > "$tmp/bigk.json"
"$vp_map" "$root/configs/nmp.yaml" "$tmp/bigk.json" --out "$tmp/x.json" 2>"$tmp/err"
ok "a kernel beyond the TLT memories: exit 2 naming the file and the layer" \
  "[ $? -eq 2 ] && grep -q 'bigk.json: at /layers/0: layer \"c\": no TLT tile fits' '$tmp/err'"
# A network without a conv or fc layer: nothing to map (an empty mapping and exit 0 before), the
# same message as vp-run's.
echo '{"name": "pools", "precision": 8, "layers": [{"name": "p", "type": "pool", "op": "max", "C": 4, "H": 8, "W": 8, "R": 2, "S": 2, "stride": 2}]}' > "$tmp/pools.json"
for c in nmp mesh-4x4; do
  "$vp_map" "$root/configs/$c.yaml" "$tmp/pools.json" --out "$tmp/x.json" 2>"$tmp/err"
  ok "$c: a network without conv or fc: exit 2, no mapping" \
    "[ $? -eq 2 ] && [ ! -e '$tmp/x.json' ] && grep -q 'pools.json: the network has no conv or fc layer' '$tmp/err'"
  "$vp_run" "$root/configs/$c.yaml" "$tmp/pools.json" --check 2>"$tmp/err_run"
  ok "$c: vp-run --check gives the same message" "[ $? -eq 2 ] && diff <(sed 's/^vp-run/vp-map/' '$tmp/err_run') '$tmp/err' >/dev/null"
done
# --refine: every value that is not an integer 1..64 gets the same message (99999999999 got
# program_options' generic "invalid argument").
for k in 99999999999 abc 0 65 1.5; do
  "$vp_map" "$root/configs/nmp.yaml" "$root/workloads/lenet5.json" --out "$tmp/x.json" --refine "$k" 2>"$tmp/err"
  ok "vp-map --refine $k: exit 2 naming the value" \
    "[ $? -eq 2 ] && grep -q 'error: --refine: expected a number of candidates K >= 1, at most 64, found \"$k\"' '$tmp/err'"
  "$vp_run" "$root/configs/nmp.yaml" "$root/workloads/lenet5.json" --check --refine "$k" 2>"$tmp/err"
  ok "vp-run --refine $k: exit 2 naming the value" \
    "[ $? -eq 2 ] && grep -q 'error: --refine: expected a number of candidates K >= 1, at most 64, found \"$k\"' '$tmp/err'"
done
"$vp_map" --help | grep -q "usage: vp-map"; ok "--help" "[ $? -eq 0 ]"
ok "vp-map does not link SystemC" "! ldd '$vp_map' | grep -qi systemc"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
