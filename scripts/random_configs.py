#!/usr/bin/env python3
"""Random platform configurations for vp-run: crash, hang and error-message checks.

For each seed, draws random values (valid ones, boundary ones and some out of range) for the
parameters of one platform (mesh, nmp, vta, dram), runs `vp-run CONFIG WORKLOAD --set ...` with a
time limit and classifies the outcome:

  ok        exit 0 and stats.json / mapping outputs present and parseable
  rejected  exit 2 with a message that names the key (`--set KEY` or the key's path) and says
            what was expected: the drawn value was refused as bad input
  slow      the time limit, after vp-run warned at the start that the drawn `stats.epoch` gives
            millions of epoch intervals over the mapper's estimate (a slow run that was announced,
            listed for review, not a finding)
  protocol  exit 3 on the NoC watchdog with `noc.message_classes: shared` (drawn with one VC), whose
            message names the protocol deadlock that shared request/response VCs allow (docs/noc.md,
            "Message classes"): a modelled outcome, listed for review, not a finding
  FINDING   anything else: exit 1 or 3, a signal, the time limit without that warning, exit 2
            without naming the key, exit 0 without complete outputs, or (--determinism) two runs
            of one draw whose stats.json differ

  scripts/random_configs.py [--vp-run BIN] [--platform mesh|nmp|vta|dram|all] [--seeds A:B]
                            [--timeout S] [--determinism] [--quick] [--out DIR] [--keep]

Exit code 1 when there is a FINDING, else 0. Each FINDING prints the command that reproduces it.
Standard library only; the draws depend only on the seed and the platform.
"""
import argparse
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def pick(rng, *choices):
    return rng.choice(choices)


def node(rng, w, h):
    return [rng.randrange(w), rng.randrange(h)]


def draw_mesh(rng):
    w, h = rng.randint(1, 6), rng.randint(1, 5)
    s = {"mesh.width": w, "mesh.height": h}
    # Place the master and the DRAM interface(s) on distinct nodes when there is room.
    nodes = [[x, y] for y in range(h) for x in range(w)]
    rng.shuffle(nodes)
    n_if = 1 if len(nodes) < 6 or rng.random() < 0.7 else 2
    if len(nodes) >= 2:
        s["mesh.master"] = nodes[0]
        s["mesh.dram_ifs"] = nodes[1:1 + n_if]
    s["noc.buffer_depth"] = pick(rng, 1, 2, 3, 4, 8, 16)
    s["noc.num_vcs"] = pick(rng, 1, 2, 2, 3, 4, 6)
    s["noc.router_stages"] = pick(rng, 1, 2, 3, 4, 5)
    s["noc.link_latency"] = pick(rng, 1, 2, 3)
    s["noc.credit_delay"] = pick(rng, 1, 1, 2, 3)
    s["noc.eject_depth"] = pick(rng, 1, 2, 4, 16, 32)
    s["noc.inject_depth"] = pick(rng, 1, 2, 4, 16, 32)
    s["noc.dram_if_outstanding"] = pick(rng, 1, 2, 4, 16, 64)
    s["noc.routing"] = pick(rng, "xy", "west_first", "odd_even")
    s["noc.stepping"] = pick(rng, "active", "all")
    s["noc.message_classes"] = "shared" if s["noc.num_vcs"] == 1 else pick(rng, "separate", "shared")
    s["mesh.noc_mhz"] = pick(rng, 200, 500, 1000, 1500)
    s["mesh.packet.flit_bits"] = pick(rng, 32, 64, 128, 256)
    s["mesh.packet.header_flits"] = pick(rng, 1, 2)
    s["mesh.packet.max_payload_bytes"] = pick(rng, 16, 32, 64, 128, 256)
    s["mesh.packet.write_ack"] = pick(rng, "true", "false")
    s["core.p_ox"] = pick(rng, 1, 2, 4, 8, 16, 32)
    s["core.p_of"] = pick(rng, 1, 2, 4, 8, 16)
    s["core.sram_bytes"] = pick(rng, 16384, 65536, 262144, 1048576)
    s["core.dma_max_outstanding"] = pick(rng, 1, 2, 4, 16, 32)
    s["core.dma_setup_cycles"] = pick(rng, 0, 2, 10)
    s["core.core_mhz"] = pick(rng, 100, 500, 1000)
    s["mapper.mode"] = pick(rng, "waving", "all-cores", "whole-layer")
    s["mapper.objective"] = pick(rng, "min-comp", "min-dram")
    s["mapper.mesh_model"] = pick(rng, "phased", "phased-serial", "phased-slices", "calibrated", "queueing", "paper",
                                   "phased-engine", "phased-pages")
    return s


def draw_dram(rng, s):
    preset = pick(rng, "ddr3-1600", "ddr4-2400")
    s["dram.preset"] = preset
    s["dram.scheduler"] = pick(rng, "fcfs", "frfcfs")
    s["dram.page_policy"] = pick(rng, "open", "closed")
    s["dram.address_mapping"] = pick(rng, "row_bank_col", "bank_row_col", "row_col_bank")
    s["dram.queue_depth"] = pick(rng, 1, 2, 8, 32, 64)
    s["dram.refresh"] = pick(rng, "true", "false")
    s["dram.channels"] = pick(rng, 1, 1, 2)
    s["dram.ranks"] = pick(rng, 1, 1, 2, 4)
    # Below a platform's largest request now and then: exit 2 naming both keys.
    s["dram.max_request_bytes"] = pick(rng, 4096, 4096, 4096, 4096, 64, 256)
    # The independent JEDEC checker on half the draws (a violation is exit 3: a finding).
    if rng.random() < 0.5:
        s["dram.check_protocol"] = "true"
    if rng.random() < 0.3:
        draw_timing(rng, s, preset)
    # The organisation now and then: smaller rows (a request may span two rows of a bank), other
    # bank counts. A network that no longer fits the capacity is exit 2 naming it.
    if rng.random() < 0.2:
        s["dram.columns"] = pick(rng, 16, 64, 256, 1024)
        s["dram.banks_per_group"] = pick(rng, 1, 2, 4, 8, 16)
        if preset.startswith("ddr4"):
            s["dram.bank_groups"] = pick(rng, 1, 2, 4)
    return preset


def draw_traffic(rng):
    """A traffic workload of 1-4 streams whose ranges may overlap (streams that write into each
    other's ranges check their reads outside those ranges only)."""
    streams = []
    for i in range(rng.randint(1, 4)):
        streams.append({"name": f"s{i}", "pattern": pick(rng, "sequential", "random", "strided"),
                        "requests": rng.randint(100, 2000), "bytes": pick(rng, 16, 32, 64, 128, 256),
                        "read_fraction": pick(rng, 0.0, 0.3, 0.7, 1.0), "base": rng.randint(0, 3) * 65536,
                        "range": pick(rng, 65536, 262144, 1048576), "stride": pick(rng, 256, 4096),
                        "max_outstanding": pick(rng, 1, 4, 16, 64), "seed": rng.randint(1, 1000)})
    return {"kind": "traffic", "name": "drawn", "streams": streams}


def draw_timing(rng, s, preset):
    """A timing set of its own, within every range and ordering DramParams::validate asks for
    (tRC from tRAS up, below tRAS + tRP too; DDR3: one value per _S / _L pair)."""
    t = {"CL": rng.randint(5, 24), "CWL": rng.randint(4, 20), "tRCD": rng.randint(3, 24),
         "tRP": rng.randint(3, 24), "tRAS": rng.randint(8, 50), "tCCD_S": rng.randint(1, 8),
         "tRRD_S": rng.randint(1, 8), "tFAW": rng.randint(0, 50), "tWR": rng.randint(0, 24),
         "tWTR_S": rng.randint(0, 8), "tRTP": rng.randint(0, 12), "tRTRS": rng.randint(0, 4),
         "tRFC": rng.randint(20, 400)}
    t["tRC"] = t["tRAS"] + rng.randint(0, 30)
    ddr3 = preset.startswith("ddr3")
    for k in ("tCCD", "tRRD", "tWTR"):
        t[k + "_L"] = t[k + "_S"] + (0 if ddr3 else rng.randint(0, 4))
    t["tREFI"] = t["tRFC"] + t["tRP"] + rng.randint(200, 9000)
    for k, v in t.items():
        s["dram.timing." + k] = v


def draw_nmp(rng):
    s = {
        "nmp.n_tle": pick(rng, 1, 2, 3, 4, 5, 8),
        "nmp.n_tlt": pick(rng, 1, 2, 3, 8, 16),
        "nmp.mb0_bytes": pick(rng, 1024, 4096, 8192, 65536),
        "nmp.mb1_bytes": pick(rng, 1024, 4096, 8192, 65536),
        "nmp.mb2_bytes": pick(rng, 1024, 4096, 8192, 65536),
        "nmp.macs_per_cycle": pick(rng, 1, 4, 16, 64),
        "nmp.clock_mhz": pick(rng, 100, 375, 1000),
        "nmp.burst_bytes": pick(rng, 32, 64, 128, 256),
        "nmp.dma_max_outstanding": pick(rng, 1, 2, 8, 32),
        "nmp.dma_txn_bytes": pick(rng, 0, 64, 128, 256),
        "nmp.double_buffer": pick(rng, "true", "false"),
        "nmp.ring.width_bytes": pick(rng, 4, 16, 64),
        "nmp.ring.hop_cycles": pick(rng, 1, 2, 5),
        "nmp.control.dma_issue_cycles": pick(rng, 0, 4),
        "nmp.control.sync_cycles": pick(rng, 0, 3),
        "nmp.control.loop_cycles": pick(rng, 0, 2),
        "tso.dram_model": pick(rng, "calibrated", "burst", "noburst"),
        "tso.ifm_channel_slicing": pick(rng, "true", "false"),
    }
    if rng.random() < 0.3:
        s["tso.fixed_slicing"] = pick(rng, "KS", "KS&OFM", "OFM", "IFM-CH")
    if rng.random() < 0.3:
        s["tso.fixed_schedule"] = pick(rng, "IS", "OS", "WS")
    return s


def draw_vta(rng):
    return {
        "vta.log_block": pick(rng, 3, 4, 4, 5),
        "vta.log_batch": pick(rng, 0, 0, 0, 0, 1),
        "vta.log_inp_buff_size": pick(rng, 13, 14, 15),
        "vta.log_wgt_buff_size": pick(rng, 16, 17, 18),
        "vta.log_acc_buff_size": pick(rng, 15, 16, 17),
        "vta.log_uop_buff_size": pick(rng, 12, 14, 15),
        "vta.clock_mhz": pick(rng, 100, 200, 500),
        "vta.dma_bus_bits": pick(rng, 32, 64, 128),
        "vta.dma_burst_bytes": pick(rng, 64, 256, 1024),
        "vta.dma_outstanding": pick(rng, 1, 2, 8, 32),
        "vta.cmd_queue_depth": pick(rng, 1, 2, 8, 64),
        "vta.token_queue_depth": pick(rng, 1, 2, 8),
        "vta.gemm_cycles_per_uop": pick(rng, 1, 2),
        "vta.alu_cycles_per_uop": pick(rng, 1, 2, 4),
        "vta.pipeline_latency": pick(rng, 0, 4, 10),
        "vta_compiler.strategy": pick(rng, "auto", 1, 2, 3, 4),
        "vta_compiler.double_buffer": pick(rng, "true", "false"),
        "vta_compiler.conv_lowering": pick(rng, "auto", "im2row", "direct"),
        "vta_compiler.estimate_model": pick(rng, "calibrated", "serial"),
    }


PLATFORMS = {
    # platform: (config, workloads to draw from)
    "mesh": ("configs/mesh-4x4.yaml", ["workloads/lenet5.json", "workloads/lenet_caffe.json", "workloads/lenet5.json",
                                       "workloads/resnet20.json"]),
    "nmp": ("configs/nmp.yaml", ["workloads/lenet5.json", "workloads/lenet5_full.json", "workloads/resnet20.json",
                                 "workloads/squeezenet1_1.json"]),
    "vta": ("configs/vta.yaml", ["workloads/lenet5.json", "workloads/lenet_caffe.json", "workloads/lenet5.json",
                                 "workloads/resnet20.json"]),
    "dram": ("configs/dram-ddr3.yaml", ["workloads/traffic/mixed.json", "workloads/traffic/random.json"]),
}


SMALL = {"workloads/lenet5.json", "workloads/lenet_caffe.json", "workloads/lenet5_full.json",
         "workloads/traffic/mixed.json", "workloads/traffic/random.json"}


def draw(platform, seed, quick=False):
    rng = random.Random(f"{platform}:{seed}")
    if platform == "mesh":
        s = draw_mesh(rng)
    elif platform == "nmp":
        s = draw_nmp(rng)
    elif platform == "vta":
        s = draw_vta(rng)
    else:
        s = {}
    preset = draw_dram(rng, s) if platform == "dram" or rng.random() < 0.5 else None
    # The shipped configs name a calibration file per DRAM preset (both presets have one); most
    # DDR4 draws drop it anyway, so that the model's default coefficients run on that DRAM too.
    if preset and preset != "ddr3-1600" and rng.random() < 0.8:
        if platform == "mesh":
            s["mapper.calibration"] = "none"
        elif platform == "vta":
            s["vta_compiler.calibration"] = "none"
        elif platform == "nmp":
            s["tso.calibration"] = "none"
    # A few draws take one key out of range on purpose (must be exit 2 naming it).
    if s and rng.random() < 0.15:
        k = rng.choice(sorted(s))
        s[k] = pick(rng, -1, 0, 10**12, "x")
    # Outputs beyond the statistics: epochs, waveforms (VCD or FST), the timeline.
    flags = []
    if rng.random() < 0.4:
        clock = {"mesh": pick(rng, "noc", "core"), "nmp": "core", "vta": "vta", "dram": "dram"}[platform]
        s["stats.epoch"] = pick(rng, "auto", "off", "100ns", "1us", f"1000 {clock} cycles", f"7 {clock} cycles")
    if rng.random() < 0.25:
        flags.append("--trace")
        if rng.random() < 0.3:
            s["trace.format"] = "fst"
    if rng.random() < 0.25:
        flags.append("--timeline")
    cfg, workloads = PLATFORMS[platform]
    wl = rng.choice(workloads)
    if quick and wl not in SMALL:
        wl = workloads[0]  # --quick: the small networks only (the draw of everything else is kept)
    if platform == "dram" and rng.random() < 0.5:
        wl = draw_traffic(rng)  # written next to the run folder by main()
    return cfg, wl, s, flags


def fmt(v):
    if isinstance(v, list):
        return json.dumps(v).replace(" ", "")
    return str(v)


def run(vp_run, cfg, wl, sets, flags, out, timeout):
    cmd = [vp_run, os.path.join(ROOT, cfg), os.path.join(ROOT, wl), "--out", out, "--quiet", *flags]
    for k, v in sets.items():
        cmd += ["--set", f"{k}={fmt(v)}"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return cmd, p.returncode, p.stderr
    except subprocess.TimeoutExpired as e:
        err = e.stderr or b""  # what was written before the limit (bytes, even with text=True)
        return cmd, "timeout", err.decode(errors="replace") if isinstance(err, bytes) else err


def classify(rc, err, out, sets, flags):
    if rc == 0:
        wanted = ["stats.json", "config.yaml", "run.json", "report.html"]
        if sets.get("stats.epoch", "auto") != "off":
            wanted.append("timeseries.csv")
        if "--trace" in flags:
            wanted.append("trace.fst" if sets.get("trace.format") == "fst" else "trace.vcd")
        if "--timeline" in flags:
            wanted.append("timeline.json")
        for f in wanted:
            path = os.path.join(out, f)
            if not os.path.isfile(path) or os.path.getsize(path) == 0:
                return "FINDING", f"exit 0 but {f} missing or empty"
        for f in ("stats.json", "run.json", "timeline.json"):
            if f in wanted:
                try:
                    with open(os.path.join(out, f)) as fh:
                        json.load(fh)
                except (OSError, ValueError) as e:
                    return "FINDING", f"exit 0 but {f} unreadable: {e}"
        return "ok", ""
    if rc == 2:
        lines = [l for l in err.strip().splitlines() if "error:" in l]
        first = lines[0] if lines else ""
        # The message names the key (a drawn one, or the one of the file it conflicts with) or the
        # workload's offending member.
        named = bool(re.search(r"\b[a-z_]+(\.[a-z_0-9]+)+\b", first)) or "/layers/" in first or "/streams/" in first
        if not first or not named:
            return "FINDING", f"exit 2 without naming the key: {first!r}"
        return "rejected", first
    if rc == 3 and "noc.message_classes is shared" in err:
        return "protocol", "protocol deadlock of requests and responses on shared VCs, reported as such"
    if rc == "timeout":
        warned = re.search(r"warning: .*stats\.epoch: .* M epoch intervals", err)
        if warned:
            return "slow", "time limit after the epoch-interval warning: " + warned.group(0)[:160]
        return "FINDING", "time limit"
    tail = err.strip().splitlines()[-1] if err.strip() else ""
    return "FINDING", f"exit {rc}: {tail}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--vp-run", default=os.path.join(ROOT, "build/platform/vp-run"))
    ap.add_argument("--platform", default="all", choices=["all", *PLATFORMS])
    ap.add_argument("--seeds", default="1:20", help="A:B, the seeds A..B-1")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--determinism", action="store_true", help="run each accepted draw twice and compare stats.json")
    ap.add_argument("--out", default=None, help="folder for the run folders (default: a temporary one, removed)")
    ap.add_argument("--keep", action="store_true", help="keep the run folders of findings")
    ap.add_argument("--quick", action="store_true", help="small networks only (LeNets, short traffic)")
    a = ap.parse_args()
    try:
        lo, hi = (int(x) for x in a.seeds.split(":"))
    except ValueError:
        print(f"random_configs: --seeds: expected A:B (integers), found {a.seeds!r}", file=sys.stderr)
        return 2
    if not os.access(a.vp_run, os.X_OK):
        print(f"random_configs: {a.vp_run}: not an executable (build first or pass --vp-run)", file=sys.stderr)
        return 2
    base = a.out or tempfile.mkdtemp(prefix="random_configs.")
    os.makedirs(base, exist_ok=True)
    platforms = list(PLATFORMS) if a.platform == "all" else [a.platform]
    counts, findings = {}, 0
    for platform in platforms:
        for seed in range(lo, hi):
            cfg, wl, sets, flags = draw(platform, seed, a.quick)
            out = os.path.join(base, f"{platform}_{seed}")
            if isinstance(wl, dict):
                path = out + ".workload.json"
                with open(path, "w") as fh:
                    json.dump(wl, fh)
                wl = path
            shutil.rmtree(out, ignore_errors=True)
            cmd, rc, err = run(a.vp_run, cfg, wl, sets, flags, out, a.timeout)
            kind, why = classify(rc, err, out, sets, flags)
            if kind == "ok" and a.determinism:
                out2 = out + "_again"
                shutil.rmtree(out2, ignore_errors=True)
                _, rc2, _ = run(a.vp_run, cfg, wl, sets, flags, out2, a.timeout)
                same = rc2 == 0 and open(os.path.join(out, "stats.json"), "rb").read() == open(
                    os.path.join(out2, "stats.json"), "rb").read()
                if not same:
                    kind, why = "FINDING", "two runs of the same draw differ (stats.json)"
                shutil.rmtree(out2, ignore_errors=True)
            counts[(platform, kind)] = counts.get((platform, kind), 0) + 1
            line = f"{platform:5s} seed {seed:4d} {kind:8s} {why}"
            print(line, flush=True)
            if kind == "FINDING":
                findings += 1
                print("   reproduce: " + " ".join(shlex.quote(c) for c in cmd), flush=True)
            if kind != "FINDING" or not a.keep:
                shutil.rmtree(out, ignore_errors=True)
                if wl.endswith(".workload.json"):
                    os.remove(wl)
    print("summary: " + ", ".join(f"{p} {k} {n}" for (p, k), n in sorted(counts.items())))
    if not a.out and not (a.keep and findings):
        shutil.rmtree(base, ignore_errors=True)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
