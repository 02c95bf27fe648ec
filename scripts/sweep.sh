#!/usr/bin/env bash
# Design-space sweep: runs vp-run on the cartesian product of parameter lists, in
# parallel, each point into its own folder, and merges every point's stats.csv row
# (with its parameter values, exit code and error) into one sweep.csv.
#
#   scripts/sweep.sh CONFIG WORKLOAD --param key=v1,v2 [--param key=...]... [-j N] [--out DIR]
#                    [-- extra vp-run arguments]
#
# A failing point is recorded with its exit code and first error line and does not
# stop the others. Rerunning with the same --out skips the points already done.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
usage() { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 2 ] || usage
config=$1; workload=$2; shift 2
jobs=2; out=sweep-out; params=(); extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --param) [ $# -ge 2 ] || usage; params+=("$2"); shift 2 ;;
    -j) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) usage ;;
    *) echo "sweep: unknown argument '$1'" >&2; usage ;;
  esac
done
[ ${#params[@]} -gt 0 ] || { echo "sweep: at least one --param key=v1,v2 is required" >&2; exit 2; }
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "sweep: -j expects a positive integer" >&2; exit 2; }
vp_run=${VP_RUN:-}
if [ -z "$vp_run" ]; then
  for c in "$here/build/platform/vp-run" "$(command -v vp-run 2>/dev/null)"; do
    [ -n "$c" ] && [ -x "$c" ] && { vp_run=$c; break; }
  done
fi
[ -x "${vp_run:-}" ] || { echo "sweep: vp-run not found (build it with scripts/build.sh or set VP_RUN)" >&2; exit 2; }

# Cartesian product: one line per point, "k1=v1<TAB>k2=v2...".
points=("")
keys=()
for p in "${params[@]}"; do
  key=${p%%=*}; vals=${p#*=}
  [ "$key" != "$p" ] && [ -n "$key" ] && [ -n "$vals" ] || { echo "sweep: bad --param '$p' (expected key=v1,v2)" >&2; exit 2; }
  keys+=("$key")
  IFS=',' read -r -a vs <<< "$vals"
  next=()
  for pt in "${points[@]}"; do
    for v in "${vs[@]}"; do next+=("${pt:+$pt$'\t'}$key=$v"); done
  done
  points=("${next[@]}")
done
mkdir -p "$out/points"
list=$out/points.txt
: > "$list"
i=0
for pt in "${points[@]}"; do
  name=$(printf '%04d' "$i"); i=$((i + 1))
  printf '%s\t%s\n' "$name" "$pt" >> "$list"
done
echo "sweep: ${#points[@]} points, $jobs in parallel, into $out/" >&2

run_point() {
  local line=$1 name dir sets=() kv
  name=${line%%$'\t'*}
  dir=$out/points/$name
  [ -f "$dir/done" ] && return 0
  IFS=$'\t' read -r -a kvs <<< "${line#*$'\t'}"
  for kv in "${kvs[@]}"; do sets+=(--set "$kv"); done
  mkdir -p "$dir"
  "$vp_run" "$config" "$workload" --out "$dir/run" --quiet "${sets[@]}" "${extra[@]}" 2> "$dir/stderr"
  local rc=$?
  echo "$rc" > "$dir/exit_code"
  [ "$rc" -eq 0 ] && touch "$dir/done"
  echo "sweep: point $name (${kvs[*]}) exit $rc" >&2
  return 0
}
export -f run_point
export out config workload vp_run
export EXTRA_ARGS="${extra[*]:-}"
# Each line is one point; xargs runs -j of them at once.
tr '\n' '\0' < "$list" | xargs -0 -P "$jobs" -I{} bash -c 'extra=($EXTRA_ARGS); run_point "$1"' _ {}

# Merge: parameter columns, status, then the union of stats columns in first-seen order.
tmp=$out/sweep.csv.tmp
awk -F'\t' -v out="$out" -v keys="$(IFS=,; echo "${keys[*]}")" '
  function csv(s) { if (s ~ /[",\n]/) { gsub(/"/, "\"\"", s); return "\"" s "\"" } return s }
  BEGIN { nk = split(keys, K, ",") }
  {
    name = $1; np++; P[np] = name
    for (i = 2; i <= NF; i++) { split($i, kv, "="); k = kv[1]; v = substr($i, length(k) + 2); V[np, k] = v }
    rcfile = out "/points/" name "/exit_code"; rc = ""
    if ((getline rc < rcfile) > 0) close(rcfile); else rc = "not run"
    RC[np] = rc
    errfile = out "/points/" name "/stderr"; err = ""
    while ((getline l < errfile) > 0) if (l != "" && err == "") err = l
    close(errfile); ERR[np] = err
    sfile = out "/points/" name "/run/stats.csv"
    if (rc == "0" && (getline hdr < sfile) > 0 && (getline row < sfile) > 0) {
      nh = split(hdr, H, ","); split(row, R, ",")
      for (i = 1; i <= nh; i++) { if (!(H[i] in seen)) { seen[H[i]] = 1; C[++nc] = H[i] } S[np, H[i]] = R[i] }
    }
    close(sfile)
  }
  END {
    line = "point"
    for (i = 1; i <= nk; i++) line = line "," csv(K[i])
    line = line ",exit_code,error"
    for (i = 1; i <= nc; i++) line = line "," C[i]
    print line
    for (p = 1; p <= np; p++) {
      line = P[p]
      for (i = 1; i <= nk; i++) line = line "," csv(V[p, K[i]])
      line = line "," RC[p] "," csv(ERR[p])
      for (i = 1; i <= nc; i++) line = line "," S[p, C[i]]
      print line
    }
  }' "$list" > "$tmp" && mv "$tmp" "$out/sweep.csv"
failed=$(awk -F, 'NR > 1 && $0 !~ /^[0-9]+(,[^,]*)*,0,/ {n++} END {print n + 0}' "$out/sweep.csv")
echo "sweep: wrote $out/sweep.csv (${#points[@]} points, $failed failed)" >&2
