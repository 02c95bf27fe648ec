#!/usr/bin/env bash
# Random platform configurations (scripts/random_configs.py --quick): for seeds 1-24 on every platform
# (mesh, nmp, vta, dram), vp-run with random valid, boundary and out-of-range parameters either
# succeeds with complete outputs (and, with --determinism, byte-identical stats.json on a second
# run) or refuses the input with exit 2 naming the key; never exit 1/3, a signal or a hang.
# Plus the case it found: a VTA core with one token per queue and short command queues used to
# stall for good on the double-buffered programs (exit 3); the compiler now checks its programs
# against the queue depths and falls back (docs/vta.md, "Queue depths").
#   tests/cli/random_configs.sh VP_RUN ROOT
set -euo pipefail
vp_run=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 "$root/scripts/random_configs.py" --vp-run "$vp_run" --seeds 1:25 --timeout 120 --determinism --quick --out "$tmp/rc"
for w in lenet5 lenet_caffe; do
  "$vp_run" "$root/configs/vta.yaml" "$root/workloads/$w.json" --out "$tmp/q_$w" --quiet \
    --set vta.cmd_queue_depth=4 --set vta.token_queue_depth=1 2> "$tmp/err" ||
    { echo "FAIL: $w with cmd_queue_depth 4, token_queue_depth 1 (exit $?):"; cat "$tmp/err"; exit 1; }
done
# A request with more parts in a DRAM channel than the queue holds (row_col_bank interleaves the
# 2 channels burst by burst: a 512-B request is 4 parts per channel) was never admitted with
# queue_depth 1 or 2 (the run stopped as a deadlock); now it is, into an empty queue. Every byte
# moves, and the independent protocol checker sees legal commands.
cat > "$tmp/t512.json" <<'JSON'
{"kind": "traffic", "name": "t", "streams": [{"name": "s", "pattern": "sequential", "range": 1048576, "requests": 500, "bytes": 512, "read_fraction": 0.7, "max_outstanding": 4}]}
JSON
for q in 1 2 4; do
  "$vp_run" "$root/configs/dram-ddr3.yaml" "$tmp/t512.json" --out "$tmp/d$q" --quiet --set dram.address_mapping=row_col_bank \
    --set dram.channels=2 --set dram.queue_depth=$q --set dram.check_protocol=true 2> "$tmp/err" ||
    { echo "FAIL: 512-B requests, 2 channels, queue_depth $q (exit $?):"; cat "$tmp/err"; exit 1; }
  moved=$(python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['stats']['dram']; print(int(s['bytes_read']['value'] + s['bytes_written']['value']))" "$tmp/d$q/stats.json")
  [ "$moved" = 256000 ] || { echo "FAIL: queue_depth $q moved $moved bytes, expected 500 x 512"; exit 1; }
done
echo "random_configs: ok"
