#!/usr/bin/env bash
# Output paths that cannot be written are refused before any work, with exit code 2 and the
# option named: vp-calibrate --out / --row-conflicts, vp-map --out and vp-import --output given a
# folder or a file in a folder that does not exist. (vp-calibrate used to run every calibration
# simulation and then fail to rename its result over the folder, exit 1.) Also an output path
# that is one of the inputs.
# Args: $1 = vp-run, $2 = source root, $3 = folder of the tools.
# Also a device, FIFO or socket as the output path (refused) and a symbolic link (followed).
set -u
root=$2; bindir=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/folder"
pass=0; fail=0
bad() {  # bad NAME SUBSTRING CMD...: exit 2 within 10 s, SUBSTRING in stderr, nothing written next to the target
  local name=$1 want=$2; shift 2
  local err rc
  err=$(cd "$tmp" && timeout 10 "$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq 2 ] && [[ "$err" == *"$want"* ]] && [ -z "$(ls "$tmp" | grep -v '^folder$')" ] &&
     [ -z "$(ls "$tmp/folder")" ]; then pass=$((pass + 1))
  else fail=$((fail + 1)); echo "FAIL $name: rc=$rc, want 2 and \"$want\"; got: $err"; ls "$tmp" "$tmp/folder"; fi
}
bad calibrate_folder "--out folder: is a folder, expected a file path" "$bindir/vp-calibrate" "$root/configs/nmp.yaml" --out folder
bad calibrate_no_parent "--out missing/c.yaml: the folder missing does not exist" "$bindir/vp-calibrate" "$root/configs/mesh-4x4.yaml" --out missing/c.yaml
bad calibrate_row_conflicts "--row-conflicts folder: is a folder" "$bindir/vp-calibrate" "$root/configs/mesh-4x4.yaml" --out folder/c.yaml --row-conflicts folder
bad map_folder "--out folder: is a folder" "$bindir/vp-map" "$root/configs/nmp.yaml" "$root/workloads/lenet5.json" --out folder
bad map_no_parent "the folder missing does not exist" "$bindir/vp-map" "$root/configs/nmp.yaml" "$root/workloads/lenet5.json" --out missing/m.json
bad import_folder "--output folder: is a folder" "$bindir/vp-import" "$root/tests/data/onnx/alexnet.onnx" -o folder
bad import_no_parent "the folder missing does not exist" "$bindir/vp-import" "$root/tests/data/onnx/alexnet.onnx" -o missing/a.json
# An output path that is an input file (under its own or another name): refused, the input
# left as it was. (vp-import self.onnx -o self.onnx replaced the model with the workload, and
# vp-map CONFIG wl.json --out wl.json the workload with the mapping.)
mkdir "$tmp/in"
cp "$root/tests/data/onnx/alexnet.onnx" "$tmp/in/self.onnx"; cp "$root/workloads/lenet5.json" "$tmp/in/wl.json"
sed "s|calibration: calibration/|calibration: $root/configs/calibration/|" "$root/configs/nmp.yaml" > "$tmp/in/nmp.yaml"
ln -s wl.json "$tmp/in/link.json"
sums=$(cd "$tmp/in" && md5sum self.onnx wl.json nmp.yaml)
kept() {  # kept NAME SUBSTRING CMD...: exit 2 with SUBSTRING, every input unchanged
  local name=$1 want=$2; shift 2
  local err rc
  err=$(cd "$tmp/in" && timeout 10 "$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq 2 ] && [[ "$err" == *"$want"* ]] && [ "$(cd "$tmp/in" && md5sum self.onnx wl.json nmp.yaml)" = "$sums" ] &&
     [ "$(ls "$tmp/in" | wc -l)" -eq 4 ]; then pass=$((pass + 1))
  else fail=$((fail + 1)); echo "FAIL $name: rc=$rc, want 2 and \"$want\"; got: $err"; ls -l "$tmp/in"; fi
}
kept import_self "--output self.onnx: is the input file self.onnx" "$bindir/vp-import" self.onnx -o self.onnx
kept map_workload "--out wl.json: is the input file wl.json" "$bindir/vp-map" nmp.yaml wl.json --out wl.json
kept map_workload_link "--out link.json (a link to wl.json): is the input file wl.json" "$bindir/vp-map" nmp.yaml wl.json --out link.json
kept map_config "--out ./nmp.yaml: is the input file nmp.yaml" "$bindir/vp-map" nmp.yaml wl.json --out ./nmp.yaml
kept calibrate_config "--out nmp.yaml: is the input file nmp.yaml" "$bindir/vp-calibrate" nmp.yaml --out nmp.yaml
# Outputs are written to a temporary file and renamed over the path: a device or FIFO there would
# be replaced by a plain file (as root, /dev/null too), a symbolic link by the file instead of its
# target. The first are refused, a link is followed.
mkdir "$tmp/sp"
mkfifo "$tmp/sp/fifo"
special() {  # special NAME CMD...: exit 2 naming the path, the FIFO still a FIFO, nothing else written
  local name=$1; shift
  local err rc
  err=$(cd "$tmp/sp" && timeout 10 "$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq 2 ] && [[ "$err" == *"fifo: exists and is not a regular file (a device, FIFO or socket)"* ]] &&
     [ -p "$tmp/sp/fifo" ] && [ "$(ls "$tmp/sp" | wc -l)" -eq 1 ]; then pass=$((pass + 1))
  else fail=$((fail + 1)); echo "FAIL $name: rc=$rc; got: $err"; ls -l "$tmp/sp"; fi
}
special import_fifo "$bindir/vp-import" "$root/tests/data/onnx/alexnet.onnx" -o fifo
special map_fifo "$bindir/vp-map" "$root/configs/nmp.yaml" "$root/workloads/lenet5.json" --out fifo
special calibrate_fifo "$bindir/vp-calibrate" "$root/configs/nmp.yaml" --out fifo
"$1" "$root/configs/dram-ddr3.yaml" "$root/workloads/traffic/mixed.json" --out "$tmp/run" --quiet \
  --set dram.queue_depth=16 >/dev/null 2>&1
special compare_csv_fifo "$bindir/vp-report" --compare "$tmp/run" "$tmp/run" --csv fifo
mkdir "$tmp/ln"
ln -s target.json "$tmp/ln/out.json"   # a link to a file that does not exist yet
(cd "$tmp/ln" && "$bindir/vp-map" "$root/configs/nmp.yaml" "$root/workloads/lenet5.json" --out out.json --quiet)
ok=$?
if [ "$ok" -eq 0 ] && [ -L "$tmp/ln/out.json" ] && [ -f "$tmp/ln/target.json" ] && grep -q '"convs"' "$tmp/ln/target.json"
then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL map_through_link: rc=$ok"; ls -l "$tmp/ln"; fi
ln -s loop_b "$tmp/ln/loop_a"; ln -s loop_a "$tmp/ln/loop_b"
err=$(cd "$tmp/ln" && "$bindir/vp-map" "$root/configs/nmp.yaml" "$root/workloads/lenet5.json" --out loop_a 2>&1); rc=$?
if [ "$rc" -eq 2 ] && [[ "$err" == *"--out loop_a: too many levels of symbolic links"* ]]; then pass=$((pass + 1))
else fail=$((fail + 1)); echo "FAIL map_link_loop: rc=$rc; got: $err"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -eq 18 ]
