#!/usr/bin/env bash
# VTA waveforms (--trace) on a partitioned GEMM with two virtual threads: per module a state
# signal (idle, busy, wait_<queue>, full_<queue>; fetch: idle, busy, full_ld/cp/st), the four
# token-queue depths and the three command-queue depths, named under statistics groups of
# stats.json and listed in the .gtkw. Checked from the VCD alone: only known states; depths
# within vta.token_queue_depth / cmd_queue_depth and back to 0 at the end; the compute module
# waits on l2c and the load module on c2l (the double-buffered handshake); and the time each
# module spends busy / waiting / idle in the VCD equals its vta.<module>.state statistic.
set -u
vp_run=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$vp_run" "$root/configs/vta.yaml" "$root/workloads/vta/partition_gemm_s2.json" --out "$tmp/t" --quiet --trace || { echo "FAIL: traced run exited with $?"; exit 1; }
/usr/bin/python3 - "$tmp/t" <<'PY'
import json, sys, yaml
out = sys.argv[1]
stats = json.load(open(out + "/stats.json"))["stats"]
cfg = yaml.safe_load(open(out + "/config.yaml"))["vta"]
sim_ps = json.load(open(out + "/stats.json"))["meta"]["sim_time_ns"] * 1000
scopes, sig, width = [], {}, {}
changes = {}
t = 0
with open(out + "/trace.vcd") as f:
    for line in f:
        w = line.split()
        if not w: continue
        if w[0] == "$scope": scopes.append(w[2])
        elif w[0] == "$upscope": scopes.pop()
        elif w[0] == "$var": sig[w[3]] = ".".join(scopes + [w[4]]); width[w[3]] = int(w[2])
        elif w[0].startswith("#"): t = int(w[0][1:])
        elif w[0][0] == "b" and w[1] in sig:
            v = int(w[0][1:], 2)
            if width[w[1]] == 64: v = v.to_bytes(8, "big").lstrip(b"\0").decode()
            changes.setdefault(sig[w[1]], []).append((t, v))
fails = []
def check(ok, what):
    if not ok: fails.append(what)
mods = ["load", "compute", "store"]
want = ["vta.%s.state" % m for m in mods + ["fetch"]] + ["vta.tokens_" + q for q in ["l2c", "c2l", "c2s", "s2c"]] + \
       ["vta.%s.cmd_queue" % m for m in mods]
gtkw = open(out + "/trace.gtkw").read()
for n in want:
    check(n in changes, n + " not in the VCD")
    check(n in gtkw, n + " not in the .gtkw")
    node = stats
    for p in n.split(".")[:-1]: node = node.get(p, {}) if isinstance(node, dict) else {}
    check(bool(node), n + ": no statistics group " + ".".join(n.split(".")[:-1]))
states = {"idle", "busy"} | {p + "_" + q for p in ["wait", "full"] for q in ["l2c", "c2l", "c2s", "s2c"]}
for m in mods:
    seen = {v for _, v in changes.get("vta.%s.state" % m, [])}
    check(seen <= states, "%s: unknown states %s" % (m, seen - states))
fseen = {v for _, v in changes.get("vta.fetch.state", [])}
check(fseen <= {"idle", "busy", "full_ld", "full_cp", "full_st"}, "fetch: unknown states %s" % fseen)
check("wait_l2c" in {v for _, v in changes["vta.compute.state"]}, "compute never waits on l2c")
check("wait_c2l" in {v for _, v in changes["vta.load.state"]}, "load never waits on c2l")
for q in ["l2c", "c2l", "c2s", "s2c"]:
    v = changes["vta.tokens_" + q]
    check(max(x for _, x in v) <= cfg["token_queue_depth"] and v[-1][1] == 0, q + ": depth beyond the queue or left non-zero")
for m in mods:
    v = changes["vta.%s.cmd_queue" % m]
    check(max(x for _, x in v) <= cfg["cmd_queue_depth"] and v[-1][1] == 0, m + ": command queue beyond its depth or left non-zero")
# Time per state from the VCD against the StateTime statistic (idle / wait_token / busy).
for m in mods:
    v = changes["vta.%s.state" % m] + [(sim_ps, None)]
    acc = {"idle": 0, "wait_token": 0, "busy": 0}
    for (t0, s), (t1, _) in zip(v, v[1:]):
        acc["busy" if s == "busy" else "idle" if s == "idle" else "wait_token"] += t1 - t0
    st = stats["vta"][m]["state"]["value"]
    for k in acc:
        check(abs(acc[k] - st[k]) <= 1, "%s %s: %d ps in the VCD, %s in stats.json" % (m, k, acc[k], st[k]))
print("vta trace: %d signals checked, compute states %s" % (len(want), sorted({v for _, v in changes["vta.compute.state"]})))
for f in fails: print("FAIL:", f)
sys.exit(1 if fails else 0)
PY
