#!/usr/bin/env bash
# The cost per packet of a one-core stream on the mesh platform (docs/mesh.md, "Tried: the cost per
# packet of a one-core stream"), simulated with vp-run. Two single layers on one core that differ only
# in the number of packets per row: writes, C 1 and K 64 / 128 (K output rows of T_ox words per input
# row); reads, K 1 and C 64 / 128. T_ox = 4 (F - 1) words of 2 B, so every data packet has F flits of
# 64 bits (1 header). The NoC runs at 250 MHz (the cores at 500), so that neither the DRAM (a burst per
# request, 5 ns) nor the core's issue rate binds; the difference of the two runs' cycles over the
# 64 x rows extra transfers is the steady cost of one data packet, in NoC cycles (extra_packets: the
# difference of mapping.json's packet counts, both directions, the larger filter's included). The last
# column is the formula
#   F + g + min(H, floor((F - 1) / B)) * max(0, g - (B - (1 + L + credit_delay)))
# of bench_noc stream, g = router_stages - 2, for the core's hops H to the DRAM interface.
#   bench/mesh/stream.sh OUT.csv   (VP_RUN, CONFIG = configs/mesh-4x4.yaml)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: bench/mesh/stream.sh OUT.csv}
vp_run=${VP_RUN:-$here/build/platform/vp-run}
config=${CONFIG:-$here/configs/mesh-4x4.yaml}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
rows=4
echo "direction,buffer_depth,flits,hops,extra_packets,cycles_a,cycles_b,noc_cycles_per_packet,formula" > "$out"
for depth in 4 8; do for dir in write read; do for flits in 2 3 4 5 6 7 8 9; do
  tox=$(( 4 * (flits - 1) ))
  res=()
  for n in 64 128; do
    if [ "$dir" = write ]; then c=1; k=$n; else c=$n; k=1; fi
    echo "{\"name\":\"stream\",\"layers\":[{\"name\":\"s\",\"type\":\"conv\",\"C\":$c,\"K\":$k,\"H\":$rows,\"W\":$tox,\"R\":1,\"S\":1,\"stride\":1,\"pad\":0}]}" > "$tmp/l.json"
    rm -rf "$tmp/run"
    "$vp_run" "$config" "$tmp/l.json" --out "$tmp/run" --quiet --set mapper.fixed_slices=$k,$tox,1 \
      --set mesh.noc_mhz=250 --set noc.buffer_depth=$depth > /dev/null 2> "$tmp/err" \
      || { cat "$tmp/err" >&2; exit 1; }  # (the calibration file's advisory about noc_mhz is expected)
    res+=("$(jq -r '[.layers[0].simulation.cycles, .layers[0].cores[0].packets, .layers[0].cores[0].hops]
                    | map(tostring) | join(" ")' "$tmp/run/mapping.json")")
  done
  read -r ca pa hops <<< "${res[0]}"; read -r cb pb _ <<< "${res[1]}"
  key() { grep -E "^\s*$1:" "$tmp/run/config.yaml" | awk '{print $2}' | head -1; }  # the resolved configuration
  stages=$(key router_stages); link=$(key link_latency); credit=$(key credit_delay); core_mhz=$(key core_mhz)
  g=$(( stages - 2 )); slack=$(( depth - (1 + link + credit) )); stall=$(( g - slack > 0 ? g - slack : 0 ))
  lv=$(( (flits - 1) / depth )); [ $lv -gt "$hops" ] && lv=$hops
  echo "$dir,$depth,$flits,$hops,$((pb - pa)),$ca,$cb,$(echo "scale=3; ($cb - $ca) * 250 / $core_mhz / (64 * $rows)" | bc),$(( flits + g + lv * stall ))" >> "$out"
done; done; done
