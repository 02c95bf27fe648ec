#!/usr/bin/env bash
# vp-run --out DIR replaces DIR only when nothing of the user's goes with it: DIR is empty or an
# earlier run's output folder holding only what that run wrote (run.json "outputs"). A folder
# with other files, the working folder, a folder above it and a folder holding an input are
# refused with exit code 2 before anything is written, and everything in them is left as it was.
# (vp-run used to delete the folder whatever it held: `--out workloads` deleted the workloads,
# `--out .` every file of the working folder.)
# Args: $1 = vp-run, $2 = source root, $3 = folder of the tools.
set -u
vp_run=$(readlink -f "$1"); root=$(readlink -f "$2"); bindir=$(readlink -f "$3")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cfg=$root/configs/nmp.yaml
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
# refused NAME SUBSTRING DIR-TO-KEEP CMD...: exit 2 with SUBSTRING, the folder's listing and
# contents unchanged, no temporary folder left next to it.
refused() {
  local name=$1 want=$2 keep=$3; shift 3
  local before after err rc
  before=$(cd "$keep" && find . -type f -exec md5sum {} + | sort; find . | sort)
  err=$("$@" --quiet 2>&1 >/dev/null); rc=$?
  after=$(cd "$keep" && find . -type f -exec md5sum {} + | sort; find . | sort)
  if [ "$rc" -eq 2 ] && [[ "$err" == *"$want"* ]] && [ "$before" = "$after" ] &&
     ! ls "$keep/.." | grep -q incomplete; then pass=$((pass + 1))
  else fail=$((fail + 1)); echo "FAIL $name: rc=$rc, want 2 and \"$want\"; got: $err"; fi
}

# The folder that holds the workload.
mkdir -p "$tmp/proj/workloads" && cp "$root/workloads/lenet5.json" "$root/workloads/alexnet.json" "$tmp/proj/workloads/"
refused "--out the workload's folder" "--out workloads: holds the input workloads/lenet5.json" "$tmp/proj/workloads" \
  bash -c "cd '$tmp/proj' && exec '$vp_run' '$cfg' workloads/lenet5.json --out workloads \"\$@\"" _
refused "--out a folder of other files" "--out $tmp/proj/workloads: exists and is not a vp-run output folder (it holds alexnet.json, lenet5.json)" \
  "$tmp/proj/workloads" "$vp_run" "$cfg" "$root/workloads/lenet5.json" --out "$tmp/proj/workloads"
# The working folder and its parents, with files or empty.
mkdir -p "$tmp/proj/sub" && echo important > "$tmp/proj/thesis.tex" && echo x > "$tmp/proj/sub/data.csv"
refused "--out ." "--out .: is the working folder" "$tmp/proj" \
  bash -c "cd '$tmp/proj' && exec '$vp_run' '$cfg' '$root/workloads/lenet5.json' --out . \"\$@\"" _
mkdir -p "$tmp/empty/inner"
refused "--out . (empty)" "--out .: is the working folder" "$tmp/empty" \
  bash -c "cd '$tmp/empty/inner' && exec '$vp_run' '$cfg' '$root/workloads/lenet5.json' --out . \"\$@\"" _
refused "--out .." "--out ..: holds the working folder" "$tmp/empty" \
  bash -c "cd '$tmp/empty/inner' && exec '$vp_run' '$cfg' '$root/workloads/lenet5.json' --out .. \"\$@\"" _

# An empty folder and an earlier output folder are replaced.
mkdir "$tmp/o"
"$vp_run" "$cfg" "$root/workloads/lenet5.json" --out "$tmp/o" --quiet; ok "an empty folder is used" "[ $? -eq 0 ] && [ -f '$tmp/o/stats.json' ]"
ok "run.json lists the outputs" "grep -q '\"stats.json\"' '$tmp/o/run.json' && grep -q '\"report.html\"' '$tmp/o/run.json'"
"$vp_run" "$cfg" "$root/workloads/lenet5.json" --out "$tmp/o" --quiet --seed 5
ok "an earlier output folder is replaced" "[ $? -eq 0 ] && grep -q '^seed: 5' '$tmp/o/config.yaml'"
"$vp_run" "$cfg" "$root/workloads/lenet5.json" --out "$tmp/o" --quiet --timeline && "$bindir/vp-report" "$tmp/o" >/dev/null 2>&1
ok "vp-report regenerates the report of a run with a timeline" "[ $? -eq 0 ] && [ -f '$tmp/o/timeline.json' ]"
"$vp_run" "$cfg" "$root/workloads/lenet5.json" --out "$tmp/o" --quiet
ok "... and the folder is replaced" "[ $? -eq 0 ] && [ ! -e '$tmp/o/timeline.json' ]"
# ... but not with a file of the user's in it, at the top or in a subfolder.
echo notes > "$tmp/o/mynotes.txt"
refused "an output folder with a user file" "holds files that vp-run did not write (mynotes.txt)" "$tmp/o" \
  "$vp_run" "$cfg" "$root/workloads/lenet5.json" --out "$tmp/o"
rm "$tmp/o/mynotes.txt"
vta_wl=$root/workloads/vta/$(cd "$root/workloads/vta" && ls *.json | head -1)
"$vp_run" "$root/configs/vta.yaml" "$vta_wl" --out "$tmp/v" --quiet && "$vp_run" "$root/configs/vta.yaml" "$vta_wl" --out "$tmp/v" --quiet
ok "a vta output folder (outputs/, program/) is replaced" "[ $? -eq 0 ] && [ -d '$tmp/v/outputs' ] && [ -d '$tmp/v/program' ]"
echo x > "$tmp/v/outputs/mine.bin"
refused "a user file in a subfolder of an output folder" "(outputs/mine.bin)" "$tmp/v" \
  "$vp_run" "$root/configs/vta.yaml" "$vta_wl" --out "$tmp/v"
# An input inside an output folder (here the config of an earlier run): refused.
mkdir "$tmp/w" && cp "$tmp/o/config.yaml" "$tmp/w/" && cp "$root/workloads/lenet5.json" "$tmp/w/workload.json"
refused "a folder holding the config" "holds the input $tmp/w/config.yaml" "$tmp/w" \
  "$vp_run" "$tmp/w/config.yaml" "$root/workloads/lenet5.json" --out "$tmp/w"

# An output folder of a version that did not list its outputs: replaced when it holds only
# names vp-run writes.
mkdir "$tmp/old" && cp "$tmp/o/stats.json" "$tmp/o/config.yaml" "$tmp/o/report.html" "$tmp/old/"
echo '{"wall_time_s": 1}' > "$tmp/old/run.json"
"$vp_run" "$cfg" "$root/workloads/lenet5.json" --out "$tmp/old" --quiet
ok "an earlier version's output folder is replaced" "[ $? -eq 0 ] && grep -q '\"outputs\"' '$tmp/old/run.json'"
mkdir "$tmp/old2" && cp "$tmp/old/stats.json" "$tmp/old2/" && echo '{"wall_time_s": 1}' > "$tmp/old2/run.json" &&
  echo x > "$tmp/old2/thesis.tex"
refused "an earlier version's output folder with a user file" "holds files that vp-run did not write (thesis.tex)" \
  "$tmp/old2" "$vp_run" "$cfg" "$root/workloads/lenet5.json" --out "$tmp/old2"

# A failed run still leaves an earlier output folder as it was.
cp -r "$tmp/o" "$tmp/o_kept"
"$vp_run" "$cfg" "$root/workloads/lenet5.json" --out "$tmp/o" --quiet --set sim.max_time_ms=0.000001 2>/dev/null
ok "a failed run (exit 3) keeps the earlier folder" "[ $? -eq 3 ] && diff -r '$tmp/o' '$tmp/o_kept' >/dev/null"
# A symbolic link to a folder (say, on a larger disk) is followed: the run's outputs go into its
# target, the link stays; an earlier run's outputs there are replaced as above. (The link used to
# be removed and a folder of its name created next to it.)
mkdir "$tmp/disk"
ln -s disk "$tmp/lnk"
"$vp_run" "$cfg" "$root/workloads/lenet5.json" --out "$tmp/lnk" --quiet
ok "--out a link to a folder: exit 0" "[ $? -eq 0 ]"
ok "--out a link to a folder: the link stays, the outputs are in its target" \
   "[ -L '$tmp/lnk' ] && [ -f '$tmp/disk/stats.json' ] && [ -f '$tmp/lnk/run.json' ]"
"$vp_run" "$cfg" "$root/workloads/lenet5.json" --out "$tmp/lnk/" --quiet
ok "--out the link again (with a slash): replaces the earlier outputs in its target" \
   "[ $? -eq 0 ] && [ -L '$tmp/lnk' ] && [ -f '$tmp/disk/stats.json' ] && [ -z \"\$(ls '$tmp' | grep incomplete)\" ]"
ln -s "$tmp/fresh" "$tmp/lnk_new"  # a link to a folder that does not exist yet
"$vp_run" "$cfg" "$root/workloads/lenet5.json" --out "$tmp/lnk_new" --quiet
ok "--out a link to a folder not there yet: created as the link's target" "[ $? -eq 0 ] && [ -L '$tmp/lnk_new' ] && [ -f '$tmp/fresh/stats.json' ]"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
