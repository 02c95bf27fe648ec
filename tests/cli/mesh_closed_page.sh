#!/usr/bin/env bash
# The mesh's default time model (phased-pages) with a closed page: one activation per request at
# the shared activation price, not a serial tRP + tRCD per request (docs/mesh.md, "A closed page").
# LeNet-5 and ResNet-20 on mesh-4x4, unrefined: median |sim/est - 1| <= 8 %, worst <= 30 %
# (measured 3.0 / 3.6 % and 2.4 / 16.7 %; before the change 34.8 / 42.4 % and 27.3 / 75.1 %). The
# simulation shares no code with the estimate.
#   tests/cli/mesh_closed_page.sh VP_RUN ROOT
set -u
vp_run=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
for w in lenet5 resnet20; do
  "$vp_run" "$root/configs/mesh-4x4.yaml" "$root/workloads/$w.json" --out "$tmp/$w" --quiet \
    --set dram.page_policy=closed 2> "$tmp/err" || { echo "FAIL: $w exited with $?"; cat "$tmp/err"; fail=1; continue; }
  /usr/bin/python3 - "$tmp/$w/mapping.json" "$w" <<'PY' || fail=1
import json, sys
t = json.load(open(sys.argv[1]))["trust"]
med, worst = t["median_abs_sim_over_est_minus_1"], t["worst_abs_sim_over_est_minus_1"]
ok = med <= 0.08 and worst <= 0.30
print(f"{sys.argv[2]} closed page: median {100 * med:.1f} %, worst {100 * worst:.1f} % ({'ok' if ok else 'FAIL'})")
sys.exit(0 if ok else 1)
PY
done
[ "$fail" -eq 0 ]
