#!/usr/bin/env bash
# DRAM request traces: dram.record_trace writes DRAMSys STL (.stl) or Ramulator 2
# LoadStoreTrace (.trace) files; a "dram_trace" workload replays them; a replayed STL
# recording reproduces the DRAM statistics of the recorded run; malformed lines exit 2
# naming the file and the line.
set -u
vp_run=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cfg=$root/configs/dram-ddr3.yaml
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
# The DRAM statistics of a run, one "name value" per line.
dram_stats() { awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) h[i] = $i} NR == 2 {for (i = 1; i <= NF; i++) if (h[i] ~ /^dram\./) print h[i], $i}' "$1/stats.csv"; }

cat > "$tmp/mix.json" <<'JSON'
{"kind": "traffic", "name": "mix", "streams": [
 {"name": "dma", "pattern": "sequential", "requests": 3000, "bytes": 64, "range": 1048576, "max_outstanding": 16, "seed": 3},
 {"name": "cpu", "pattern": "random", "requests": 3000, "bytes": 128, "read_fraction": 0.7, "base": 536870912,
  "range": 16777216, "max_outstanding": 8, "seed": 4}]}
JSON

"$vp_run" "$cfg" "$tmp/mix.json" --out "$tmp/rec" --quiet --set dram.record_trace=mix.stl
ok "recording an STL trace exits 0" "[ $? -eq 0 ]"
ok "the relative trace path lands in the output folder" "[ -s '$tmp/rec/mix.stl' ]"
ok "one STL line per request after the comment" "[ \$(grep -vc '^#' '$tmp/rec/mix.stl') -eq 6000 ]"
ok "STL lines are '<cycle>: [(<length>)] read|write 0x<address>'" \
   "[ \$(grep -v '^#' '$tmp/rec/mix.stl' | grep -Evc '^[0-9]+:	(\(128\)	)?(read|write)	0x[0-9a-f]+$') -eq 0 ]"
ok "128-byte requests carry their length" "grep -q '(128)' '$tmp/rec/mix.stl'"
"$vp_run" "$cfg" "$tmp/mix.json" --out "$tmp/rec2" --quiet --set dram.record_trace=mix.stl
ok "recording is deterministic" "cmp -s '$tmp/rec/mix.stl' '$tmp/rec2/mix.stl'"

"$vp_run" "$cfg" "$tmp/mix.json" --out "$tmp/recl" --quiet --set dram.record_trace="$tmp/mix.trace"
ok "recording a LoadStoreTrace to an absolute path exits 0" "[ $? -eq 0 ] && [ -s '$tmp/mix.trace' ]"
ok "one LD/ST line per 64-byte burst" "[ \$(wc -l < '$tmp/mix.trace') -eq 9000 ]"
ok "LoadStoreTrace lines are 'LD|ST 0x<address>'" "[ \$(grep -Evc '^(LD|ST) 0x[0-9a-f]+$' '$tmp/mix.trace') -eq 0 ]"

cp "$tmp/rec/mix.stl" "$tmp/mix.stl"
echo '{"kind": "dram_trace", "name": "replay", "file": "mix.stl"}' > "$tmp/replay.json"
"$vp_run" "$cfg" "$tmp/replay.json" --out "$tmp/rep" --quiet
ok "replaying the STL recording exits 0" "[ $? -eq 0 ]"
ok "the timed STL replay reproduces every DRAM statistic of the recorded run" \
   "diff <(dram_stats '$tmp/rec') <(dram_stats '$tmp/rep')"
echo '{"kind": "dram_trace", "name": "replay", "file": "mix.trace", "max_outstanding": 24}' > "$tmp/replay_ls.json"
"$vp_run" "$cfg" "$tmp/replay_ls.json" --out "$tmp/repl" --quiet --set dram.check_protocol=true
ok "replaying the LoadStoreTrace exits 0" "[ $? -eq 0 ]"
ok "the LoadStoreTrace replay moves every byte" \
   "[ \"\$(dram_stats '$tmp/repl' | awk '\$1 == \"dram.bytes_read\" || \$1 == \"dram.bytes_written\" {s += \$2} END {print s}')\" = 576000 ]"

# Requests of several initiators in one cycle are recorded in the order the channels took them
# (the controller's turns between ports at a tie), and a paced stream ends with its last response,
# not an interval later: the replay of both reproduces every DRAM statistic. (Before: two streams
# of one outstanding request each on 2 channels and 2 ranks replayed with other bus turnarounds
# and queue occupancy; the paced stream's bandwidth was over an interval too long.)
cat > "$tmp/ties.json" <<'JSON'
{"kind": "traffic", "name": "ties", "streams": [
 {"name": "a", "pattern": "random", "requests": 1500, "bytes": 64, "range": 1048576, "max_outstanding": 1, "seed": 12},
 {"name": "b", "pattern": "random", "requests": 850, "bytes": 64, "read_fraction": 0.5, "base": 16777216,
  "range": 1048576, "max_outstanding": 1, "seed": 13},
 {"name": "c", "pattern": "sequential", "requests": 600, "bytes": 256, "read_fraction": 0, "base": 33554432,
  "range": 1048576, "max_outstanding": 1, "interval_ns": 50, "seed": 14}]}
JSON
ties=(--set dram.channels=2 --set dram.ranks=2 --set dram.page_policy=closed --set dram.queue_depth=8)
"$vp_run" "$root/configs/dram-ddr4.yaml" "$tmp/ties.json" --out "$tmp/tie" --quiet --set dram.record_trace=t.stl "${ties[@]}"
ok "recording three streams exits 0" "[ $? -eq 0 ]"
ok "no request of the recording was held back by a full queue" \
   "[ \"\$(dram_stats '$tmp/tie' | awk '\$1 == \"dram.backpressure_events\" {print \$2}')\" = 0 ]"
cp "$tmp/tie/t.stl" "$tmp/t.stl"
echo '{"kind": "dram_trace", "name": "replay", "file": "t.stl"}' > "$tmp/replay_t.json"
"$vp_run" "$root/configs/dram-ddr4.yaml" "$tmp/replay_t.json" --out "$tmp/tier" --quiet "${ties[@]}"
# (The latency counts from the arrival instant; the paced stream arrives inside a tCK, which an STL
# cycle does not keep.)
ok "the replay of three streams reproduces every DRAM statistic but the latency" \
   "diff <(dram_stats '$tmp/tie' | grep -v '^dram.latency') <(dram_stats '$tmp/tier' | grep -v '^dram.latency')"

# Malformed traces and bad keys: exit 2, naming the file and line.
bad() {  # NAME FILE-CONTENT EXTENSION EXPECTED-SUBSTRING
  printf '%b' "$2" > "$tmp/bad.$3"
  echo "{\"kind\": \"dram_trace\", \"file\": \"bad.$3\"}" > "$tmp/bad_$3.json"
  local err; err=$("$vp_run" "$cfg" "$tmp/bad_$3.json" --out "$tmp/badout" --quiet 2>&1); local rc=$?
  ok "$1 (rc=$rc: $err)" "[ $rc -eq 2 ] && [[ \"\$err\" == *'$4'* ]] && [ ! -e '$tmp/badout' ]"
}
bad "STL: unknown command" '# c\n0: read 0x0\n12: reed 0x40\n' stl "bad.stl:3: unknown command \"reed\""
bad "STL: bad address" '5: write 0xZZ\n' stl "bad.stl:1: bad address"
bad "STL: time going backwards" '10: read 0x0\n9: read 0x40\n' stl "bad.stl:2: time stamp 9 is before"
bad "STL: bad time stamp" 'x: read 0x0\n' stl "bad.stl:1: bad time stamp"
bad "STL: bad length" '0: (0) read 0x0\n' stl "bad.stl:1: bad length"
bad "STL: address beyond the DRAM" '0: read 0x0\n1: read 0x40000000\n' stl "bad.stl:2: address 1073741824 + 64 bytes exceeds"
bad "LoadStore: unknown type" 'LD 0x40\nLOAD 0x80\n' trace "bad.trace:2: unknown request type \"LOAD\""
bad "LoadStore: three fields" 'ST 0x40 7\n' trace "bad.trace:1: expected \"LD|ST <address>\""
bad "LoadStore: bad address" 'LD 12x\n' trace "bad.trace:1: bad address"
bad "empty trace" '# nothing\n' stl "holds no request"
err=$("$vp_run" "$cfg" "$tmp/mix.json" --out "$tmp/x" --quiet --set dram.record_trace=out.txt 2>&1)
ok "record_trace with an unknown extension exits 2 naming the key" "[ $? -eq 2 ] && [[ \"\$err\" == *dram.record_trace* ]]"
echo '{"kind": "dram_trace", "file": "missing.stl"}' > "$tmp/missing.json"
err=$("$vp_run" "$cfg" "$tmp/missing.json" --out "$tmp/x" --quiet 2>&1)
ok "a missing trace file exits 2" "[ $? -eq 2 ] && [[ \"\$err\" == *missing.stl* ]]"
echo '{"kind": "dram_trace", "file": "mix.stl", "speed": 2}' > "$tmp/unknown_key.json"
err=$("$vp_run" "$cfg" "$tmp/unknown_key.json" --out "$tmp/x" --quiet 2>&1)
ok "an unknown workload key exits 2" "[ $? -eq 2 ] && [[ \"\$err\" == *speed* ]]"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
