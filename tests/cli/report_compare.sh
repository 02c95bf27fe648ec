#!/usr/bin/env bash
# vp-report --compare BASE OTHER: the configuration keys that differ, and every statistic and layer
# of its CSV checked against the two folders' own stats.csv, stats.json and layers.json, read by a separate
# checker (Python's json module, not the report code); a run compared with itself shows no
# difference; bad folders, options and CSV paths are exit 2 with a message, print no partial
# summary and leave no CSV; a stats.json nested 100,000 levels deep is one of them, not a crash.
# Args: $1 = vp-run, $2 = source root, $3 = folder of the tools.
set -u
vp_run=$1; root=$2; bin=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
"$vp_run" "$root/configs/nmp.yaml" "$root/workloads/lenet5.json" --out "$tmp/a" --quiet
ok "base run" "[ $? -eq 0 ]"
"$vp_run" "$root/configs/nmp.yaml" "$root/workloads/lenet5.json" --out "$tmp/b" --quiet --set nmp.n_tle=2 --set dram.preset=ddr4-2400
ok "other run" "[ $? -eq 0 ]"
"$bin/vp-report" --compare "$tmp/a" "$tmp/b" --csv "$tmp/c.csv" --top 50 > "$tmp/out" 2> "$tmp/err"
ok "compare exits 0" "[ $? -eq 0 ]"
ok "the changed keys are named with both values" "grep -Eq 'nmp\.n_tle +4 +-> +2' '$tmp/out' && grep -Eq 'dram\.preset +ddr3-1600 +-> +ddr4-2400' '$tmp/out'"
ok "the summary names the CSV" "grep -q 'csv .*c.csv' '$tmp/out'"
ok "no temporary CSV left" "[ -z \"\$(ls '$tmp' | grep incomplete)\" ]"
/usr/bin/python3 - "$tmp/a" "$tmp/b" "$tmp/c.csv" > "$tmp/check" 2>&1 <<'PY'
import csv, json, sys
a, b, path = sys.argv[1:4]
def leaves(node, prefix, out):
    for k, v in node.items():
        if not isinstance(v, dict):
            continue
        name = prefix + "." + k if prefix else k
        if isinstance(v.get("value"), (int, float)) and not isinstance(v.get("value"), bool):
            out[name] = float(v["value"])
        else:
            leaves(v, name, out)
def stats(d):
    # stats.csv (every statistic flattened, distributions and state times included) from
    # sim_time_ns on; the scalars must agree with stats.json
    hdr, row = list(csv.reader(open(d + "/stats.csv")))[:2]
    i0 = hdr.index("sim_time_ns")
    out = {}
    for n, v in zip(hdr[i0:], row[i0:]):
        try:
            out[n] = float(v)
        except ValueError:
            pass
    doc = json.load(open(d + "/stats.json"))
    scal = {"sim_time_ns": float(doc["meta"]["sim_time_ns"])}
    leaves(doc["stats"], "", scal)
    for n, v in scal.items():
        if n not in out or out[n] != v:
            bad.append("stats.csv and stats.json disagree on %s" % n)
    return out
def layers(d):
    return {l["name"]: (l["end_ns"] - l["begin_ns"], l["sim_cycles"], l["est_cycles"]) for l in json.load(open(d + "/layers.json"))["layers"]}
bad = []
sa, sb, la, lb = stats(a), stats(b), layers(a), layers(b)
rows = list(csv.DictReader(open(path)))
if not any(n.endswith(".p99") for n in sa):
    bad.append("no distribution column (.p99) among the statistics")
def close(x, y):
    return abs(x - y) <= 1e-9 * max(1.0, abs(x), abs(y))
def num(s):
    return None if s == "" else float(s)
got_stats = {r["name"]: r for r in rows if r["kind"] == "stat"}
if set(got_stats) != set(sa) | set(sb):
    bad.append("stat rows %d, statistics in the two folders %d" % (len(got_stats), len(set(sa) | set(sb))))
for n, r in got_stats.items():
    x, y = num(r["base"]), num(r["other"])
    if (x is None) != (n not in sa) or (x is not None and not close(x, sa[n])):
        bad.append("stat %s base %s, stats.json %s" % (n, r["base"], sa.get(n)))
    if (y is None) != (n not in sb) or (y is not None and not close(y, sb[n])):
        bad.append("stat %s other %s, stats.json %s" % (n, r["other"], sb.get(n)))
    if x not in (None, 0) and y is not None and not close(float(r["other_over_base_minus_1"]), y / x - 1):
        bad.append("stat %s change %s" % (n, r["other_over_base_minus_1"]))
for kind, i in (("layer_time", 0), ("layer_sim_cycles", 1), ("layer_est_cycles", 2)):
    got = {r["name"]: r for r in rows if r["kind"] == kind}
    if set(got) != set(la) | set(lb):
        bad.append("%s rows %d, layers %d" % (kind, len(got), len(set(la) | set(lb))))
    for n, r in got.items():
        if n in la and not close(num(r["base"]), la[n][i]):
            bad.append("%s %s base %s, layers.json %s" % (kind, n, r["base"], la[n][i]))
        if n in lb and not close(num(r["other"]), lb[n][i]):
            bad.append("%s %s other %s, layers.json %s" % (kind, n, r["other"], lb[n][i]))
if not any(r["kind"] == "config" and r["name"] == "nmp.n_tle" and r["base"] == "4" and r["other"] == "2" for r in rows):
    bad.append("no config row nmp.n_tle 4 -> 2")
print("\n".join(bad) if bad else "ok: %d stat rows, %d layers" % (len(got_stats), len(la)))
sys.exit(1 if bad else 0)
PY
ok "every CSV row equals the folders' stats.json and layers.json" "grep -q '^ok' '$tmp/check' || { cat '$tmp/check'; false; }"

"$bin/vp-report" --compare "$tmp/a" "$tmp/a" > "$tmp/same" 2>&1
ok "a run compared with itself: exit 0" "[ $? -eq 0 ]"
ok "a run compared with itself: nothing differs" "grep -q 'config   the same' '$tmp/same' && grep -Eq 'statistics 0 of [0-9]+ differ' '$tmp/same' && grep -Eq 'layers +[0-9]+ in both, 0 with another time' '$tmp/same'"

bad() {  # bad NAME SUBSTRING ARGS...: exit 2, SUBSTRING on stderr, nothing on stdout
  local name=$1 want=$2 err rc; shift 2
  "$bin/vp-report" "$@" > "$tmp/bad_out" 2> "$tmp/bad_err"; rc=$?; err=$(cat "$tmp/bad_err")
  if [ "$rc" -eq 2 ] && [[ "$err" == *"$want"* ]] && [ ! -s "$tmp/bad_out" ]; then pass=$((pass + 1))
  else fail=$((fail + 1)); echo "FAIL $name: rc=$rc, want 2, \"$want\" and no output; got: $err $(head -c 200 "$tmp/bad_out")"; fi
}
bad one_folder "--compare needs two run folders (BASE OTHER), got 1" --compare "$tmp/a"
bad three_folders "got 3" --compare "$tmp/a" "$tmp/b" "$tmp/a"
bad missing "$tmp/none: no such folder" --compare "$tmp/a" "$tmp/none"
mkdir -p "$tmp/empty"
bad not_a_run "$tmp/empty: not a run folder (no stats.json)" --compare "$tmp/empty" "$tmp/a"
bad regex "--stats: not a valid regular expression" --compare "$tmp/a" "$tmp/b" --stats "("
bad top "--top 0: expected a row count" --compare "$tmp/a" "$tmp/b" --top 0
bad csv_without_compare "--csv and --top apply to --compare" "$tmp/a" --csv "$tmp/x.csv"
bad pareto "--pareto applies to a sweep folder" --compare "$tmp/a" "$tmp/b" --pareto a,b
bad csv_path "--csv $tmp/no/c.csv: the folder $tmp/no does not exist" --compare "$tmp/a" "$tmp/b" --csv "$tmp/no/c.csv"
bad csv_in_run "--csv $tmp/b/stats.csv: inside the run folder $tmp/b" --compare "$tmp/a" "$tmp/b" --csv "$tmp/b/stats.csv"
ok "the run folder's stats.csv is untouched" "[ \"\$(head -c 9 '$tmp/b/stats.csv')\" = 'platform,' ]"
cp -r "$tmp/b" "$tmp/d"; echo '{"layers": [{"name": 5}]}' > "$tmp/d/layers.json"
bad damaged_layers "$tmp/d: a file of the folder does not hold what vp-run writes" --compare "$tmp/a" "$tmp/d" --csv "$tmp/d.csv"
ok "no CSV after a failed comparison" "[ ! -e '$tmp/d.csv' ] && [ -z \"\$(ls '$tmp' | grep incomplete)\" ]"
cp "$tmp/b/layers.json" "$tmp/d/layers.json"; printf 'a,b\n1,2\n3,4\n' > "$tmp/d/stats.csv"
bad two_row_csv "$tmp/d/stats.csv: more than one row" --compare "$tmp/a" "$tmp/d"
printf 'a,sim_time_ns\n1\n' > "$tmp/d/stats.csv"
bad short_row_csv "$tmp/d/stats.csv: the row has 1 fields, the header 2" --compare "$tmp/a" "$tmp/d"
rm "$tmp/d/stats.csv"
"$bin/vp-report" --compare "$tmp/a" "$tmp/d" --stats 'sim_time_ns' > "$tmp/nocsv" 2>&1
ok "without stats.csv: the statistics of stats.json" "grep -Eq '^    sim_time_ns +ns ' '$tmp/nocsv'"
: > "$tmp/d/stats.json"
bad empty_stats "$tmp/d/stats.json: empty file (0 bytes)" --compare "$tmp/a" "$tmp/d"
/usr/bin/python3 -c "import sys; d = 100000; open(sys.argv[1], 'w').write('{\"meta\": {\"platform\": \"nmp\"}, \"stats\": ' + '{\"a\": ' * d + '{}' + '}' * d + '}')" "$tmp/d/stats.json"
bad deep_stats "statistics nested more than 64 levels deep" --compare "$tmp/a" "$tmp/d"

echo "report_compare: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
