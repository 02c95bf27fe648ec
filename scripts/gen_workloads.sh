#!/usr/bin/env bash
# Generates workloads/<net>.json from the layer-shape tables (CSV header
# name,C,K,H,W,R,S,stride,pad,groups; pad is N or pH/pW). Conv layers only, batch 1.
# Usage: scripts/gen_workloads.sh [SHAPES_DIR] [OUT_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
shapes=${1:-$here/workloads/shapes}
out=${2:-$here/workloads}
precision=${PRECISION:-8}
[ -d "$shapes" ] || { echo "gen_workloads: no shapes folder at $shapes" >&2; exit 2; }
mkdir -p "$out"
for csv in "$shapes"/*.csv; do
  net=$(basename "$csv" .csv)
  awk -F, -v net="$net" -v prec="$precision" -v src="$(basename "$csv")" '
    NR == 1 {
      if ($0 != "name,C,K,H,W,R,S,stride,pad,groups") { print "bad header in " src > "/dev/stderr"; exit 2 }
      printf "{\n  \"name\": \"%s\",\n  \"description\": \"convolution layers of %s (generated from workloads/shapes/%s)\",\n  \"precision\": %d,\n  \"layers\": [\n", net, net, src, prec
      next
    }
    NF == 0 { next }
    {
      if (NF != 10) { print src ":" NR ": expected 10 columns" > "/dev/stderr"; exit 2 }
      pad = $9
      if (index(pad, "/") > 0) { split(pad, pp, "/"); pad = "[" pp[1] ", " pp[2] "]" }
      if (n++) printf ",\n"
      printf "    {\"name\": \"%s\", \"type\": \"conv\", \"C\": %d, \"K\": %d, \"H\": %d, \"W\": %d, \"R\": %d, \"S\": %d, \"stride\": %d, \"pad\": %s, \"groups\": %d}", $1, $2, $3, $4, $5, $6, $7, $8, pad, $10
    }
    END { if (n == 0) exit 2; printf "\n  ]\n}\n" }
  ' "$csv" > "$out/$net.json.tmp"
  mv "$out/$net.json.tmp" "$out/$net.json"
done
echo "gen_workloads: wrote $(ls "$shapes"/*.csv | wc -l) networks to $out"
