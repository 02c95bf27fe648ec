#!/usr/bin/env python3
"""Replays a LoadStoreTrace file (written by dram.record_trace) in Ramulator 2.1 with the
configuration matched to our ddr3-1600 preset, and prints one CSV row:
simulator,trace,requests,reads,writes,cycles,bandwidth_GBps,mean_read_latency_ns

    PYTHONPATH=<ramulator2>/python /usr/bin/python3 bench/dram/ramulator_replay.py [--speed] TRACE

--speed adds a column wall_s: the wall time of Simulation.run() alone (the trace is read when the
simulation is built, before it), and writes no stats file (bench/dram/speed_peers.sh).

Matched to configs/dram-ddr3.yaml (see ramulator_ddr3_1600.json): DDR3_1600J timing on
DDR3_1Gb_x8 devices (10-10-10, tRFC 110 ns, tREFI 7.8 us, 8 banks, 1 KiB device page, x64),
one channel and rank, FR-FCFS, open page, all-bank refresh, RoBaRaCoCh address mapping (row,
bank, column from the MSB: our row_bank_col for one channel and rank), DRAM-clock frontend
(one request offered per tCK, as fast as the read/write buffers accept). The run ends when the
frontend has sent the last line (Ramulator's LoadStoreTrace), so the last few reads are not
in the latency mean."""
import json
import os
import sys
import time

import ramulator

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    args = sys.argv[1:]
    speed = "--speed" in args
    args = [a for a in args if a != "--speed"]
    if len(args) != 1:
        sys.exit("usage: ramulator_replay.py [--speed] TRACE")
    trace = args[0]
    m = json.load(open(os.path.join(HERE, "ramulator_ddr3_1600.json")))
    frontend = ramulator.frontend.LoadStoreTrace(clock_ratio=1, path=trace)
    dram = ramulator.dram.DDR3(org_preset=m["org_preset"], timing_preset=m["timing_preset"], **m["overrides"])
    ctrl = ramulator.controller.GenericDDR(
        dram=dram,
        scheduler=ramulator.scheduler.FRFCFS(),
        refresh_manager=ramulator.refresh_manager.AllBank(),
        row_policy=ramulator.row_policy.Open(),
        addr_mapper=ramulator.addr_mapper.RoBaRaCoCh(),
        read_buffer_size=m["read_buffer_size"],
        write_buffer_size=m["write_buffer_size"],
    )
    mem = ramulator.memory_system.GenericDRAM(
        clock_ratio=1, controllers=[ctrl], channel_mapper=ramulator.channel_mapper.CacheLineInterleave()
    )
    sim = ramulator.Simulation(frontend, mem)
    t0 = time.perf_counter()
    sim.run()
    wall = time.perf_counter() - t0
    s = sim.stats
    if not speed:
        json.dump(s, open(os.path.splitext(os.path.basename(trace))[0] + "_ramulator_stats.json", "w"), indent=1, default=str)

    def find(d, key):
        if isinstance(d, dict):
            if key in d:
                return d[key]
            for v in d.values():
                r = find(v, key)
                if r is not None:
                    return r
        return None

    tck_ns = m["tck_ps"] / 1000.0
    cycles = float(find(s, "cycles"))
    reads = float(find(s, "num_read_reqs"))
    writes = float(find(s, "num_write_reqs"))
    lat_ck = float(find(s, "avg_read_latency"))
    gbps = float(find(s, "total_throughput_MBps")) / 1000.0  # served bytes per us -> GB/s
    print("simulator,trace,requests,reads,writes,cycles,bandwidth_GBps,mean_read_latency_ns" + (",wall_s" if speed else ""))
    print(f"ramulator2.1,{os.path.basename(trace)},{int(reads + writes)},{int(reads)},{int(writes)},{int(cycles)},"
          f"{gbps:.4f},{lat_ck * tck_ns:.3f}" + (f",{wall:.6f}" if speed else ""))


if __name__ == "__main__":
    main()
