#!/usr/bin/env bash
# `cmake --install` into a temporary prefix, then vp-run, vp-map, vp-sweep and vp-report from
# there with the source tree and the build folder out of reach (hidden under empty tmpfs
# mounts in a private mount namespace when unshare is permitted, as for root); configs and
# workloads are found in PREFIX/share/cnn-vp. The Debian package (cpack) is built, holds the
# same files, and its extracted tree runs a sweep as well.
set -u
build=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
. "$root/tests/cli/lib/sweep_csv.sh"
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" > "$tmp/install.log" 2>&1
ok "cmake --install exits 0" "[ $? -eq 0 ]"
for f in bin/vp-run bin/vp-map bin/vp-sweep bin/vp-report share/cnn-vp/python/vpsweep/cli.py \
         share/cnn-vp/configs/nmp.yaml share/cnn-vp/workloads/alexnet.json share/doc/cnn-vp/sweeps.md; do
  ok "installed $f" "[ -e '$prefix/$f' ]"
done
cat > "$tmp/sweep.yaml" <<'YAML'
config: configs/dram-ddr3.yaml
workload: workloads/traffic/stream.json
params:
  dram.scheduler: [fcfs, frfcfs]
  dram.page_policy: "open,closed"
YAML
# What runs without the source tree: a run, a mapping, a sweep from a sweep file, its report.
cat > "$tmp/use.sh" <<EOF
set -u
cd "$tmp"
bin=\$1; out=\$2
"\$bin/vp-run" configs/nmp.yaml workloads/lenet5.json --out "\$out/run" --quiet || exit 11
"\$bin/vp-map" configs/nmp.yaml workloads/lenet5.json --out "\$out/map.json" --quiet || exit 12
"\$bin/vp-sweep" --file "$tmp/sweep.yaml" -j 2 --out "\$out/sweep" 2>"\$out/sweep.log" || exit 13
"\$bin/vp-report" "\$out/sweep" --pareto sim_time_ns,max:dram.bandwidth 2>/dev/null || exit 14
EOF
hidden=""
if unshare -m --propagation private true 2>/dev/null; then
  hide="mount -t tmpfs none '$root'"
  case "$build" in "$root"/*) ;; *) hide="$hide && mount -t tmpfs none '$build'" ;; esac
  unshare -m --propagation private bash -c "$hide && [ -z \"\$(ls -A '$root')\" ] && bash '$tmp/use.sh' '$prefix/bin' '$tmp/a'"
  rc=$?; hidden=" (source tree hidden)"
else
  echo "note: unshare is not permitted here: the source tree stays visible, the run uses only the prefix"
  bash "$tmp/use.sh" "$prefix/bin" "$tmp/a"; rc=$?
fi
ok "vp-run, vp-map, vp-sweep and vp-report run from the prefix$hidden (rc=$rc)" "[ $rc -eq 0 ]"
ok "the sweep ran 4 points" "grep -q '4 points: 4 done' '$tmp/a/sweep.log'"
ok "points.csv names the files as given" "grep -q ',configs/dram-ddr3.yaml,workloads/traffic/stream.json,' '$tmp/a/sweep/points.csv'"
ok "the report, the Pareto front and the points' reports were written" "[ -s '$tmp/a/sweep/report.html' ] && [ -s '$tmp/a/sweep/pareto.csv' ] && [ \$(ls '$tmp'/a/sweep/points/*/run/report.html | wc -l) -eq 4 ]"
# The same sweep from the source tree gives the same point ids and statistics.
(cd "$root" && "$build/platform/vp-sweep" --file "$tmp/sweep.yaml" -j 2 --out "$tmp/src" 2>/dev/null)
ok "the source tree's vp-sweep gives the same sweep.csv apart from wall_s" \
   "cmp -s <(no_wall '$tmp/a/sweep/sweep.csv') <(no_wall '$tmp/src/sweep.csv')"

# The Debian package.
(cd "$tmp" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/deb" > "$tmp/cpack.log" 2>&1)
deb=$(ls "$tmp"/deb/*.deb 2>/dev/null | head -1)
ok "cpack builds a .deb" "[ -n '$deb' ]"
if [ -n "$deb" ]; then
  ok "the package depends on python3-yaml and libsystemc" "dpkg-deb -f '$deb' Depends | grep -q 'python3-yaml' && dpkg-deb -f '$deb' Depends | grep -q libsystemc"
  dpkg-deb -x "$deb" "$tmp/debroot"
  ok "it installs into /usr" "[ -x '$tmp/debroot/usr/bin/vp-sweep' ] && [ -f '$tmp/debroot/usr/share/cnn-vp/configs/nmp.yaml' ]"
  bash "$tmp/use.sh" "$tmp/debroot/usr/bin" "$tmp/b"
  ok "the extracted package runs the same (rc=$?)" "[ -s '$tmp/b/sweep/pareto.csv' ] && [ -s '$tmp/b/sweep/report.html' ]"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
