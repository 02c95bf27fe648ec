# Cases of `--refine` that random networks (scripts/random_networks.py) broke, shared by
# tests/cli/nmp_refine.sh and mesh_refine.sh (sourced after their ok/bad helpers and $tmp, $cfg,
# $vp_run, $vp_map): K beyond a layer's candidates was exit 2 for the whole network; a graph
# whose layers name producers that the single-layer children lack; a batch; a network without
# conv/fc layers (vp-map: nothing to refine).
#   refine_random_cases LAYERS_KEY FC_JSON K FC_CANDIDATES
# LAYERS_KEY: the mapping.json list of refined layers (.convs, .layers); FC_JSON: a small fc layer
# with fewer than K candidates (FC_CANDIDATES of them) on this platform.
refine_random_cases() {
  local key=$1 fc=$2 k=$3 n_fc=$4
  # K beyond one layer's count: that layer has all of its candidates simulated, the conv K; K
  # beyond every layer's count (a typo such as 40 for 4) is exit 2 naming the largest.
  echo "{\"name\": \"mixed\", \"precision\": 8, \"layers\": [{\"name\": \"c1\", \"type\": \"conv\", \"C\": 3, \"K\": 16, \"H\": 16, \"W\": 16, \"R\": 3, \"S\": 3, \"pad\": 1}, $fc]}" > "$tmp/mixed.json"
  echo "{\"name\": \"tiny\", \"precision\": 8, \"layers\": [$fc]}" > "$tmp/tiny_fc.json"
  "$vp_run" "$cfg" "$tmp/mixed.json" --out "$tmp/kmix" --refine "$k" --quiet 2> "$tmp/e"
  ok "K beyond one layer's candidates: exit 0 (got $?)" '[ -s "$tmp/kmix/mapping.json" ]'
  ok "K beyond one layer's candidates: the conv has K, the fc all of its $n_fc" \
    "[ \"\$(jq -c \"[$key[].refine.candidates | length]\" \"$tmp/kmix/mapping.json\")\" = \"[$k,$n_fc]\" ]"
  bad "K beyond every layer's candidates" "beyond every layer's" "$vp_run" "$cfg" "$tmp/tiny_fc.json" --out "$tmp/x" --refine 40
  cat > "$tmp/graph.json" <<'JSON'
{"name": "graph", "precision": 8, "batch": 2, "layers": [
  {"name": "p0", "type": "pool", "op": "max", "C": 3, "H": 12, "W": 12, "R": 2, "S": 2, "stride": 2, "inputs": ["input"]},
  {"name": "c1", "type": "conv", "C": 3, "K": 8, "H": 6, "W": 6, "R": 3, "S": 3, "pad": 1, "inputs": ["p0"]},
  {"name": "c2", "type": "conv", "C": 8, "K": 8, "H": 6, "W": 6, "R": 1, "S": 1, "inputs": ["c1"]},
  {"name": "a3", "type": "eltwise", "op": "add", "C": 8, "H": 6, "W": 6, "inputs": ["c2", "c1"]},
  {"name": "f4", "type": "fc", "in": 288, "out": 10, "inputs": ["a3"]}]}
JSON
  "$vp_run" "$cfg" "$tmp/graph.json" --out "$tmp/graph" --refine 2 --quiet 2> "$tmp/e"
  ok "graph with producers and batch 2, --refine 2: exit 0 (got $?: $(tail -1 "$tmp/e"))" '[ -s "$tmp/graph/mapping.json" ]'
  ok "graph: the batch copies are refined and checked in the network" \
    "[ \"\$(jq \"[$key[] | select(.refine.network_cycles != null)] | length\" \"$tmp/graph/mapping.json\")\" -eq 6 ]"
  echo '{"name": "nomacs", "layers": [{"name": "p", "type": "pool", "op": "max", "C": 2, "H": 4, "W": 4, "R": 2, "S": 2, "stride": 2}]}' > "$tmp/nomacs.json"
  bad "vp-map --refine, no conv/fc layer (nothing to map, as vp-run)" "no conv or fc layer" "$vp_map" "$cfg" "$tmp/nomacs.json" --out "$tmp/nomacs_map.json" --refine 2
  bad "vp-run --refine, no conv/fc layer" "no conv or fc layer" "$vp_run" "$cfg" "$tmp/nomacs.json" --out "$tmp/x" --refine 2
}
