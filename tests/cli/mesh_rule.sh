#!/usr/bin/env bash
# bench/mesh/rule.py, the mesh time model's acceptance rule, on small trust and random-network
# files written here, whose verdicts are worked out by hand: each clause at its threshold and just
# past it, the first failing clause named, unchecked clauses (exit 3) and unreadable input (exit 2).
#   tests/cli/mesh_rule.sh VP_RUN ROOT
set -uo pipefail
root=$2
rule="python3 $root/bench/mesh/rule.py"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
check() {  # check NAME EXPECTED_RC PATTERN -- ARGS...
  local name=$1 want=$2 pat=$3; shift 4
  $rule "$@" > "$tmp/out" 2>&1; local rc=$?
  if [ "$rc" -ne "$want" ] || ! grep -q -- "$pat" "$tmp/out"; then
    echo "FAIL: $name: exit $rc (expected $want), output (expected /$pat/):"; cat "$tmp/out"; fails=$((fails + 1))
  else echo "ok: $name"; fi
}
hdr="config,network,mode,refine_k,layers,median_abs_err_pct,worst_abs_err_pct,spearman_rho,rho_candidates,sim_cycles,est_cycles,wall_s,network_kept,changed_layers_slower,refined_network_sims"
trust() {  # trust FILE "ROW" ...: each ROW "network median worst rho sim_cycles" on mesh-4x4
  local f=$1; shift
  { echo "$hdr"
    for row in "$@"; do
      read -r n med wor rho sim <<< "$row"
      echo "mesh-4x4,$n,phased-pages,-,10,$med,$wor,$rho,10,$sim,$sim,1,-,-,-"
      echo "mesh-4x4,$n,refined,4,10,0,0,1,10,1,1,1,1,0,1"   # refined rows are ignored
    done; } > "$f"
}
# Base: 2 networks, triples met 3 + 1 = 4 (b misses its median and worst).
trust "$tmp/base.csv" "a 4.0 14.0 0.95 1000" "b 6.0 16.0 0.91 2000"
# Same triples, one traded for another (4 -> 4), b 0.5 % slower exactly: holds.
trust "$tmp/trade.csv" "a 4.0 15.5 0.95 1000" "b 5.0 16.0 0.91 2010"
# One triple fewer (a's rho lost): clause 1 fails first even though clause 3 fails too.
trust "$tmp/lose.csv" "a 4.0 14.0 0.89 1000" "b 6.0 16.0 0.91 2011"
# Triples kept, b 0.55 % slower: clause 3 fails.
trust "$tmp/slow.csv" "a 4.0 14.0 0.95 999" "b 6.0 16.0 0.91 2011"
# rho undefined (one layer: "null" from trust.sh) counts as not met.
trust "$tmp/null_a.csv" "a 4.0 14.0 null 1000" "b 6.0 16.0 0.91 2000"
# A row missing from the candidate.
trust "$tmp/short.csv" "a 4.0 14.0 0.95 1000"
# Random networks: median of |x| over 5 layers; base median 3.00 %, 1 layer above 15 %.
rnd() { { echo "seed,layer,k,est_cycles,sim_cycles,sim_over_est_minus_1"; i=0
          for x in "$@"; do echo "7,l$i,2,100,100,$x"; i=$((i + 1)); done; } ; }
rnd 0.01 -0.02 0.03 0.04 -0.20 > "$tmp/r_base.csv"
rnd 0.01 -0.02 0.0325 0.04 -0.20 > "$tmp/r_025.csv"     # median 3.25: +0.25 holds
rnd 0.01 -0.02 0.0326 0.04 -0.20 > "$tmp/r_026.csv"     # median 3.26: +0.26 fails
rnd 0.01 -0.02 0.03 0.16 -0.20 > "$tmp/r_two.csv"       # 2 above 15 %: +1 allowed (at least one layer)
rnd 0.01 -0.02 0.16 0.17 -0.20 > "$tmp/r_three.csv"     # 3 above 15 %: fails (median 16 % too)

check "identical, every clause" 0 "verdict: adopted" -- "$tmp/base.csv" "$tmp/base.csv" \
  --random "$tmp/r_base.csv" "$tmp/r_base.csv" --in-sample 2.0 0.999
check "a triple traded for another, +0.50 %" 0 "1. bench/mesh: 4 -> 4 of 6 triples met: holds" -- \
  "$tmp/base.csv" "$tmp/trade.csv" --random "$tmp/r_base.csv" "$tmp/r_025.csv" --in-sample 5.0 0.99
check "median +0.25 points holds" 0 "median 3.00 -> 3.25 % (at most +0.25).*holds" -- \
  "$tmp/base.csv" "$tmp/base.csv" --random "$tmp/r_base.csv" "$tmp/r_025.csv" --in-sample 2.0 0.999
check "median +0.26 points fails" 1 "rejected (clause 2 is" -- \
  "$tmp/base.csv" "$tmp/base.csv" --random "$tmp/r_base.csv" "$tmp/r_026.csv" --in-sample 2.0 0.999
check "one more layer above 15 % holds" 0 "above 15 %: 1 -> 2 (at most 2): holds" -- \
  "$tmp/base.csv" "$tmp/base.csv" --random "$tmp/r_base.csv" "$tmp/r_two.csv" --in-sample 2.0 0.999
check "two more layers above 15 % fail" 1 "above 15 %: 1 -> 3 (at most 2): FAILS" -- \
  "$tmp/base.csv" "$tmp/base.csv" --random "$tmp/r_base.csv" "$tmp/r_three.csv" --in-sample 2.0 0.999
check "a triple lost: clause 1 first" 1 "rejected (clause 1 is" -- "$tmp/base.csv" "$tmp/lose.csv" \
  --random "$tmp/r_base.csv" "$tmp/r_base.csv" --in-sample 2.0 0.999
check "the lost triple named" 1 "mesh-4x4 a rho >= 0.9: 0.950 -> 0.890 (lost)" -- "$tmp/base.csv" "$tmp/lose.csv"
check "+0.55 % fails clause 3" 1 "mesh-4x4 b: 2000 -> 2011 cycles (+0.55 %)" -- "$tmp/base.csv" "$tmp/slow.csv" \
  --random "$tmp/r_base.csv" "$tmp/r_base.csv" --in-sample 2.0 0.999
check "in-sample rho 0.989 fails" 1 "rejected (clause 4 is" -- "$tmp/base.csv" "$tmp/base.csv" \
  --random "$tmp/r_base.csv" "$tmp/r_base.csv" --in-sample 2.0 0.989
check "an undefined rho is not met" 1 "mesh-4x4 a rho >= 0.9: 0.950 -> undefined (lost)" -- "$tmp/base.csv" "$tmp/null_a.csv"
check "a rho defined again is gained" 3 "3 -> 4 of 6 triples met: holds" -- "$tmp/null_a.csv" "$tmp/base.csv"
check "unchecked clauses: exit 3" 3 "not every clause was checked" -- "$tmp/base.csv" "$tmp/base.csv"
check "different rows: exit 2" 2 "different (mesh, network) rows: mesh-4x4 b" -- "$tmp/base.csv" "$tmp/short.csv"
check "missing file: exit 2" 2 "rule.py: $tmp/none.csv" -- "$tmp/base.csv" "$tmp/none.csv"
echo "config,network" > "$tmp/cols.csv"; echo "mesh-4x4,a" >> "$tmp/cols.csv"
check "missing columns: exit 2" 2 "expected columns" -- "$tmp/base.csv" "$tmp/cols.csv"
[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
