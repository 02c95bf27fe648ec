#include "mapper/tso/nmp_params.h"

#include <cmath>
#include <cstdint>
#include <string>

#include "mapper/common/clock_range.h"
#include "mapper/common/errors.h"

namespace vp::mapper::tso {

namespace {

void require(bool ok, const std::string& prefix, const char* field, const std::string& what) {
    if (!ok) throw InputError(prefix + "." + field + ": " + what);
}

}  // namespace

void RingParams::validate(const std::string& p) const {
    require(width_bytes >= 1 && width_bytes <= 4096, p, "width_bytes", "expected a link width in [1, 4096] bytes per cycle");
    require(hop_cycles >= 0 && hop_cycles <= 100000, p, "hop_cycles", "expected a hop latency in [0, 100000] cycles");
    require(packet_flits >= 1 && packet_flits <= 4096, p, "packet_flits", "expected a packet size in [1, 4096] flits");
    require(buffer_flits >= 2 * packet_flits && buffer_flits <= 1 << 20, p, "buffer_flits",
            "expected a buffer depth in flits of at least 2 x packet_flits (" + std::to_string(2 * packet_flits) +
                ", bubble flow control) and at most 1048576");
}

void ControlParams::validate(const std::string& p) const {
    require(dma_issue_cycles >= 0 && dma_issue_cycles <= 100000, p, "dma_issue_cycles",
            "expected a cycle count in [0, 100000]");
    require(sync_cycles >= 0 && sync_cycles <= 100000, p, "sync_cycles", "expected a cycle count in [0, 100000]");
    require(loop_cycles >= 0 && loop_cycles <= 100000, p, "loop_cycles", "expected a cycle count in [0, 100000]");
}

void FabricParams::validate(const std::string& p) const {
    require(bytes_per_cycle >= 1 && bytes_per_cycle <= 4096, p, "bytes_per_cycle",
            "expected a port width in [1, 4096] bytes per cycle");
    require(latency_cycles >= 0 && latency_cycles <= 100000, p, "latency_cycles",
            "expected a latency in [0, 100000] cycles");
}

void NmpParams::validate(const std::string& p) const {
    require(n_tle >= 1 && n_tle <= 1024, p, "n_tle", "expected an integer in [1, 1024] (number of TLEs)");
    require(n_tlt >= 1 && n_tlt <= 1024, p, "n_tlt", "expected an integer in [1, 1024] (TLTs per TLE)");
    // Each TLT is a module of its own (about 40 KB and 1 ms of elaboration each): 65,536 of them take
    // 2.5 GB and a minute on a LeNet; the 1024 x 1024 the two ranges allow would exhaust memory.
    require(std::int64_t(n_tle) * std::int64_t(n_tlt) <= 65536, p, "n_tlt",
            "n_tle x n_tlt = " + std::to_string(std::int64_t(n_tle) * std::int64_t(n_tlt)) +
                " TLTs, expected at most 65536 in all");
    require(mb0_bytes >= 1, p, "mb0_bytes", "expected a positive size in bytes");
    require(mb1_bytes >= 1, p, "mb1_bytes", "expected a positive size in bytes");
    require(mb2_bytes >= 1, p, "mb2_bytes", "expected a positive size in bytes");
    require(macs_per_cycle >= 1, p, "macs_per_cycle", "expected a positive integer");
    require(clock_mhz_ok(clock_mhz), p, "clock_mhz", clock_mhz_expected(clock_mhz));
    require(burst_bytes >= 1, p, "burst_bytes", "expected a positive size in bytes");
    require(sw_cycles_per_instr >= 0, p, "sw_cycles_per_instr", "expected a non-negative cycle count");
    require(dma_max_outstanding >= 1 && dma_max_outstanding <= 1024, p, "dma_max_outstanding",
            "expected an integer in [1, 1024]");
    require(dma_txn_bytes >= 0 && dma_txn_bytes <= 4096, p, "dma_txn_bytes",
            "expected 0 (= burst_bytes) or at most 4096");
    ring.validate(p + ".ring");
    control.validate(p + ".control");
    fabric.validate(p + ".fabric");
    require(!double_buffer || (mb0_bytes >= 2 && mb1_bytes >= 2), p, "double_buffer",
            "needs mb0_bytes and mb1_bytes of at least 2 bytes (two halves)");
    // Filled by the platform from the DRAM section; only a program that forgot it gets here.
    require(dram.valid(), p, "dram", "DRAM figures not set (they come from the dram section)");
}

}  // namespace vp::mapper::tso
