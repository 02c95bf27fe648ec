#include "mapper/vta/pipeline_estimate.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "mapper/common/errors.h"
#include "mapper/vta/executor.h"

namespace vp::mapper::vta {

void VtaCoefficients::validate(const std::string& k) const {
    auto in = [&](double v, double lo, double hi, const char* name) {
        if (!(v >= lo && v <= hi))
            throw InputError(k + "." + name + ": expected a number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    };
    in(latency_scale, 0, 20, "latency_scale");
    in(bus_scale, 0.1, 10, "bus_scale");
    in(txn_cycles, -100, 100, "txn_cycles");
    in(insn_cycles, -100, 100, "insn_cycles");
}

namespace {

// One DMA port moving one instruction's transactions (VtaDma): at most `outstanding` in
// flight, each served by the DRAM after its latency and no earlier than the DRAM data bus
// frees, then its data beats on the port's bus, one response after the other.
class PortModel {
public:
    PortModel(const VtaFigures& hw, const VtaCoefficients& c) : m_c(c), m_ring(std::max(1u, hw.vta.dma_outstanding)) {
        const DramFigures& d = hw.dram;
        const double ck = d.tck_ns * hw.vta.clock_mhz * 1e-3;  // core cycles per DRAM clock
        // Accepted in cycle t, schedulable from t + 1 + frontend; half a DRAM clock of alignment.
        // Refresh: a request meets a refresh with probability tRFC / tREFI and then waits tRFC / 2
        // on average (expected delay tRFC^2 / (2 tREFI)).
        const double refresh = d.refresh && d.tREFI > 0 ? double(d.tRFC) * d.tRFC / (2.0 * d.tREFI) : 0.0;
        m_lat_rd = (double(d.frontend_latency_ck) + 1.5 + d.CL + refresh) * ck;
        m_lat_wr = (double(d.frontend_latency_ck) + 1.5 + d.CWL + refresh) * ck;
        m_burst = double(d.burst_cycles) * ck;
        m_burst_bytes = d.burst_bytes;
        m_bus_bytes = hw.vta.dma_bus_bytes();
        m_chunk = hw.vta.dma_burst_bytes;
    }
    // Duration [core cycles] of `rows` rows of `elems` elements of `eb` bytes.
    double transfer(std::uint64_t rows, std::uint64_t elems, unsigned eb, bool write, std::uint64_t& txns) {
        if (rows == 0 || elems == 0) return 0;
        const std::uint64_t per = dma_chunk_bytes(m_chunk, eb) / eb;
        const std::uint64_t full = elems / per, rem = elems % per;
        std::fill(m_ring.begin(), m_ring.end(), 0.0);
        m_n = 0;
        m_issue = m_dram_free = m_end = 0;
        m_write = write;
        for (std::uint64_t r = 0; r < rows; ++r) {
            for (std::uint64_t k = 0; k < full; ++k) txn(per * eb);
            if (rem) txn(rem * eb);
        }
        txns += m_n;
        return m_end;
    }

private:
    void txn(std::uint64_t bytes) {
        double& slot = m_ring[m_n % m_ring.size()];  // completion of the transaction O before
        const double issue = std::max(m_issue, slot);
        const double bursts = double((bytes + m_burst_bytes - 1) / m_burst_bytes);
        const double ready = std::max(issue + m_c.latency_scale * ((m_write ? m_lat_wr : m_lat_rd) + bursts * m_burst),
                                      m_dram_free + bursts * m_burst);
        const double beats = double((bytes + m_bus_bytes - 1) / m_bus_bytes);
        m_end = std::max(ready, m_end) + beats * m_c.bus_scale + m_c.txn_cycles;
        slot = m_end;
        m_issue = issue;
        m_dram_free = ready;
        ++m_n;
    }

    const VtaCoefficients& m_c;
    std::vector<double> m_ring;
    double m_lat_rd = 0, m_lat_wr = 0, m_burst = 0;
    unsigned m_burst_bytes = 64, m_bus_bytes = 8, m_chunk = 256;
    std::uint64_t m_n = 0;
    double m_issue = 0, m_dram_free = 0, m_end = 0;
    bool m_write = false;
};

unsigned elem_bytes(const VtaConfig& cfg, MemId id) {
    switch (id) {
        case MemId::Uop: return VtaConfig::kUopBytes;
        case MemId::Wgt: return unsigned(cfg.wgt_elem_bytes());
        case MemId::Inp: return unsigned(cfg.inp_elem_bytes());
        case MemId::Acc: return unsigned(cfg.acc_elem_bytes());
        case MemId::Out: return unsigned(cfg.out_elem_bytes());
        case MemId::Acc8Bit: return unsigned(cfg.batch() * cfg.block());
    }
    return 1;
}

}  // namespace

PipelineTimes pipelined_estimate(const CompiledProgram& p, const VtaFigures& hw, const VtaCoefficients& c) {
    if (!hw.valid()) throw std::invalid_argument("VTA pipelined estimate: the DRAM / VTA figures were not filled");
    PipelineTimes t;
    PortModel port(hw, c);
    const VtaTiming& v = hw.vta;
    const std::size_t depth = std::max(1u, v.cmd_queue_depth);
    // Per module: the times its last `depth` commands were read (ring), for the fetch stall.
    std::array<std::vector<double>, 3> reads;
    std::array<std::uint64_t, 3> routed{0, 0, 0};
    for (auto& r : reads) r.assign(depth, 0.0);
    std::array<std::vector<double>, 4> pushes;  // push times per token queue
    std::array<std::size_t, 4> popped{0, 0, 0, 0};
    std::array<double, 3> free_at{0, 0, 0};
    double* busy[3] = {&t.load, &t.compute, &t.store};
    const unsigned per_fetch = dma_chunk_bytes(v.dma_burst_bytes, VtaConfig::kInsnBytes) / VtaConfig::kInsnBytes;
    double fetch = 0;
    const std::size_t n = p.insns.size();
    for (std::size_t i = 0; i < n; ++i) {
        const Insn& in = p.insns[i];
        if (i % per_fetch == 0) {  // the next chunk of instructions: one DMA read
            const std::uint64_t k = std::min<std::uint64_t>(per_fetch, n - i);
            const double d = port.transfer(1, k, VtaConfig::kInsnBytes, false, t.transactions);
            fetch += d;
            t.fetch += d;
        }
        fetch += 1;  // decode, II = 1
        t.fetch += 1;
        const int m = int(route(in));
        const std::size_t slot = std::size_t(routed[std::size_t(m)] % depth);
        if (routed[std::size_t(m)] >= depth) fetch = std::max(fetch, reads[std::size_t(m)][slot]);  // queue full
        ++routed[std::size_t(m)];
        const double read = std::max(fetch, free_at[std::size_t(m)]);
        reads[std::size_t(m)][slot] = read;
        double start = read;
        for (bool prev : {true, false}) {
            const int q = pop_queue(Module(m), prev);
            if (q < 0 || !(prev ? in.dep.pop_prev : in.dep.pop_next)) continue;
            auto& pq = pushes[std::size_t(q)];
            if (popped[std::size_t(q)] >= pq.size())
                throw SimulationError("VTA estimate: instruction #" + std::to_string(i) +
                                      " pops a token that no earlier instruction pushes");
            start = std::max(start, pq[popped[std::size_t(q)]++]);
        }
        double d = double(v.insn_overhead) + c.insn_cycles;
        const std::uint64_t uops = std::uint64_t(in.iter_out) * in.iter_in * (in.uop_end - in.uop_bgn);
        switch (in.opcode) {
            case Opcode::Load:
            case Opcode::Store:
                d += port.transfer(in.y_size, in.x_size, elem_bytes(p.cfg, in.mem_type), in.opcode == Opcode::Store,
                                   t.transactions);
                d += double(load_pad_elems(in));  // the padding's zero writes, one entry per cycle
                break;
            case Opcode::Gemm: d += double(uops * v.gemm_cycles_per_uop + (uops ? v.pipeline_latency : 0)); break;
            case Opcode::Alu: d += double(uops * v.alu_cycles_per_uop + (uops ? v.pipeline_latency : 0)); break;
            case Opcode::Finish: break;
        }
        const double end = start + d;
        *busy[m] += d;
        free_at[std::size_t(m)] = end;
        for (bool prev : {true, false}) {
            const int q = push_queue(Module(m), prev);
            if (q >= 0 && (prev ? in.dep.push_prev : in.dep.push_next)) pushes[std::size_t(q)].push_back(end);
        }
        if (in.opcode == Opcode::Finish) t.total = std::max(t.total, end);
    }
    return t;
}

}  // namespace vp::mapper::vta
