# Shared by the bad-input CLI tests (sourced; needs $vp_run and $root set).
# check NAME SUBSTRING ARGS...: vp-run ARGS must exit 2 with SUBSTRING in its error and write no OUT.
# run_corpus DIR CONFIG WORKLOAD MIN: every "file|substring" line of DIR/expect.txt; cfg_* files run
#   with WORKLOAD, wl_* files with CONFIG; fails when the list has fewer than MIN cases.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
check() {
  local name=$1 want=$2; shift 2
  local err rc
  err=$(cd "$root" && timeout 60 "$vp_run" "$@" --out "$tmp/out" --quiet 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq 2 ] && [[ "$err" == *"$want"* ]] && [ ! -e "$tmp/out" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL $name: rc=$rc, want 2 and \"$want\"; got: $err"
  fi
}
run_corpus() {
  local dir=$1 cfg=$2 wl=$3 min=$4 n=0 file want
  while IFS='|' read -r file want; do
    case "$file" in ''|'#'*) continue ;; esac
    n=$((n + 1))
    case "$file" in
      cfg_*) check "$file" "$want" "$dir/$file" "$wl" ;;
      wl_*)  check "$file" "$want" "$cfg" "$dir/$file" ;;
    esac
  done < "$dir/expect.txt"
  [ "$n" -ge "$min" ] || { echo "FAIL: $dir/expect.txt lists only $n cases"; fail=$((fail + 1)); }
}
finish() {
  echo "$pass passed, $fail failed"
  [ "$fail" -eq 0 ]
}
