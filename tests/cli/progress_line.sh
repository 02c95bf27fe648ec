#!/usr/bin/env bash
# vp-run's progress line on a terminal (a pseudo-terminal from script(1)): each line during the run
# says how far the simulated time is through the mapper's estimate for the whole run, the share
# checked against layers.json's estimated cycles and clocks (not the platform's own sum); the
# last line has no forecast; nothing without a terminal or with --quiet.
# Args: $1 = vp-run, $2 = source root, $3 = folder of the tools.
set -u
vp_run=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
cmd="'$vp_run' '$root/configs/mesh-4x4.yaml' '$root/workloads/alexnet.json' --set sim.progress_s=0.05 --out '$tmp/run'"
script -qfec "$cmd" /dev/null > "$tmp/tty.txt" 2>&1
ok "run on a terminal exits 0" "[ $? -eq 0 ]"
tr '\r' '\n' < "$tmp/tty.txt" | grep '^\[vp-run\] sim' | sed 's/ *$//' > "$tmp/lines"
ok "progress lines were printed" "[ \$(wc -l < '$tmp/lines') -ge 3 ]"
/usr/bin/python3 - "$tmp/lines" "$tmp/run/layers.json" > "$tmp/check" 2>&1 <<'PY'
import json, re, sys
lines = open(sys.argv[1]).read().splitlines()
doc = json.load(open(sys.argv[2]))
est_ps = sum(l["est_cycles"] * doc["clocks_ps"][l["cycle_clock"]] for l in doc["layers"])
bad, seen = [], 0
for ln in lines[:-1]:
    m = re.match(r"\[vp-run\] sim ([0-9.]+) us \| .* \| wall [0-9.]+ s \| ([0-9]+) % of the estimated time, ~[0-9.]+ (s|min) left$", ln)
    if not m:
        if not re.search(r"\| past the estimated time$", ln):
            bad.append("no forecast: " + ln)
        continue
    seen += 1
    want = 100.0 * float(m.group(1)) * 1e6 / est_ps
    if abs(float(m.group(2)) - want) > 0.51:
        bad.append("%s: %s %% printed, %.2f %% from layers.json" % (ln, m.group(2), want))
if not lines or "estimated time" in lines[-1]:
    bad.append("the last line forecasts: " + (lines[-1] if lines else "(none)"))
if seen == 0:
    bad.append("no line with a share of the estimate")
print("\n".join(bad) if bad else "ok: %d lines checked" % seen)
sys.exit(1 if bad else 0)
PY
ok "each line's share of the estimate equals layers.json's" "grep -q '^ok' '$tmp/check' || { cat '$tmp/check'; cat '$tmp/lines'; false; }"
script -qfec "$cmd --quiet" /dev/null > "$tmp/quiet.txt" 2>&1
ok "--quiet on a terminal: no progress line" "! grep -q 'vp-run\] sim' '$tmp/quiet.txt'"
"$vp_run" "$root/configs/mesh-4x4.yaml" "$root/workloads/alexnet.json" --set sim.progress_s=0.05 --out "$tmp/run2" > "$tmp/pipe.txt" 2>&1
ok "stderr not a terminal: no progress line" "! grep -q 'vp-run\] sim' '$tmp/pipe.txt'"
echo "progress_line: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
