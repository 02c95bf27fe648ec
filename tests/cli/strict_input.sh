#!/usr/bin/env bash
# Strict reading of numbers, keys and files (docs/configuration.md, "Numbers"): every case of
# tests/data/strict gives exit code 2 with the file, line/key, value and allowed range; numbers
# are those of the YAML 1.2 core schema (a leading zero is decimal); --seed is checked; a folder
# given as a file, a duplicate key and a missing platform are explained.
set -u
vp_run=$1; root=$2
strict=$root/tests/data/strict
. "$root/tests/cli/lib/expect_input_error.sh"
run_corpus "$strict" "$root/configs/dram-ddr3.yaml" "$root/workloads/traffic/stream.json" 9
cfg=$root/configs/dram-ddr3.yaml; wl=$root/workloads/traffic/stream.json

# Command line.
check seed_negative '--seed: expected an integer 0..18446744073709551615, found "-1"' "$cfg" "$wl" --seed -1
check seed_too_large 'found "18446744073709551616"' "$cfg" "$wl" --seed 18446744073709551616
check seed_text 'found "abc"' "$cfg" "$wl" --seed abc
check set_23_digits '--set dram.queue_depth: value 12345678901234567890123 out of range (expected 0..4294967295)' \
  "$cfg" "$wl" --set dram.queue_depth=12345678901234567890123
check set_float_int 'expected a non-negative integer, found "1.5"' "$cfg" "$wl" --set dram.queue_depth=1.5
check set_duplicate_key '--set dram: scheduler: duplicate key "scheduler"' "$cfg" "$wl" \
  --set 'dram={scheduler: fcfs, scheduler: frfcfs}'
check set_new_section '--set dram.nosuch: unknown key "nosuch"' "$cfg" "$wl" --set dram.nosuch.deeper=1
check set_seed_overflow '--set seed: value 0x10000000000000000 out of range (expected 0..18446744073709551615)' \
  "$cfg" "$wl" --set seed=0x10000000000000000
check set_int_overflow '--set mapper.refine: value 9223372036854775808 out of range (expected 0..64)' \
  "$cfg" "$wl" --set mapper.refine=9223372036854775808 --allow-unused
# Files that are not files.
check workload_folder "$root/workloads: is a folder, expected a JSON workload file" "$cfg" "$root/workloads"
check config_folder "$root/configs: is a folder, expected a YAML platform configuration" "$root/configs" "$wl"
# --out naming an existing file: exit 2, nothing created next to it.
echo keep > "$tmp/file"
err=$(cd "$root" && "$vp_run" "$cfg" "$wl" --out "$tmp/file" --quiet 2>&1 >/dev/null); rc=$?
if [ $rc -eq 2 ] && [[ "$err" == *"--out $tmp/file: exists and is not a folder"* ]] && [ "$(cat "$tmp/file")" = keep ] &&
   ! ls "$tmp" | grep -q incomplete; then pass=$((pass + 1))
else fail=$((fail + 1)); echo "FAIL out_is_file: rc=$rc err=$err; $(ls "$tmp")"; fi

# Numbers that are accepted: YAML 1.2 core schema integers (decimal with a leading zero, 0x, 0o).
for v in "010 10" "0x10 16" "0o10 8" "+12 12"; do
  set -- $v
  "$vp_run" "$cfg" "$wl" --out "$tmp/n$2" --quiet --set dram.queue_depth="$1" --set 'sim.max_time_ms=2.5e+3'; rc=$?
  if [ $rc -eq 0 ] && grep -q "queue_depth: $2\$" "$tmp/n$2/config.yaml" && grep -q "max_time_ms: 2500\$" "$tmp/n$2/config.yaml"
  then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL number $1: rc=$rc, want queue_depth $2"; fi
done
if "$vp_run" "$cfg" "$wl" --check --quiet --seed 18446744073709551615; then pass=$((pass + 1))
else fail=$((fail + 1)); echo "FAIL the largest seed is accepted"; fi
# vp-calibrate's numbers too (it stops before simulating).
calib=$(dirname "$vp_run")/vp-calibrate
for a in "--seed -1" "--seed 1e3" "--jobs -2"; do
  # shellcheck disable=SC2086
  e=$("$calib" "$root/configs/nmp.yaml" $a 2>&1 >/dev/null); rc=$?
  if [ $rc -eq 2 ] && [[ "$e" == *"expected an integer"* ]]; then pass=$((pass + 1))
  else fail=$((fail + 1)); echo "FAIL vp-calibrate $a: rc=$rc: $e"; fi
done

# Stale temporary folders: a dead process's is removed (with a note), a live one's and one
# written on another host are kept.
sleep 0 & dead=$!; wait $dead
mkdir -p "$tmp/runs/old.incomplete-$dead" "$tmp/runs/live.incomplete-$$" "$tmp/runs/remote.incomplete-$dead" "$tmp/runs/x.incomplete-$dead"
echo "some-other-host $dead" > "$tmp/runs/remote.incomplete-$dead/.vp-owner"
echo "$(hostname) $dead" > "$tmp/runs/x.incomplete-$dead/.vp-owner"
err=$("$vp_run" "$cfg" "$wl" --out "$tmp/runs/new" 2>&1 >/dev/null); rc=$?
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
ok "run next to stale folders exits 0" "[ $rc -eq 0 ] && [ -f '$tmp/runs/new/stats.json' ]"
ok "a dead process's folder without owner file is removed" "[ ! -e '$tmp/runs/old.incomplete-$dead' ]"
ok "a dead process's folder of this host is removed" "[ ! -e '$tmp/runs/x.incomplete-$dead' ]"
ok "the removal is reported" "[[ \"\$err\" == *'removed $tmp/runs/old.incomplete-$dead'* ]]"
ok "a live process's folder is kept" "[ -d '$tmp/runs/live.incomplete-$$' ]"
ok "another host's folder is kept" "[ -d '$tmp/runs/remote.incomplete-$dead' ]"
ok "a finished run leaves no owner file" "[ ! -e '$tmp/runs/new/.vp-owner' ]"
# A killed run leaves its folder behind; the next run clears it.
"$vp_run" "$cfg" "$root/workloads/traffic/mixed.json" --out "$tmp/runs/killed" --quiet --set sim.threads=1 &
victim=$!
# Wait (up to 60 s on a loaded machine) until it has created its temporary folder or finished.
for _ in $(seq 1200); do
  { [ -d "$tmp/runs/killed.incomplete-$victim" ] || ! kill -0 $victim 2>/dev/null; } && break; sleep 0.05
done
kill -9 $victim 2>/dev/null; wait $victim 2>/dev/null
ok "a killed run leaves its temporary folder" "[ -d '$tmp/runs/killed.incomplete-$victim' ] || [ -d '$tmp/runs/killed' ]"
"$vp_run" "$cfg" "$wl" --out "$tmp/runs/after" --quiet
ok "the next run removes it" "[ ! -e '$tmp/runs/killed.incomplete-$victim' ] && [ -f '$tmp/runs/after/stats.json' ]"
finish
