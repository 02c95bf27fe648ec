#include "mapper/vta/executor.h"

#include <deque>
#include <random>

#include "mapper/common/errors.h"

namespace vp::mapper::vta {

Module route(const Insn& in) {
    if (in.opcode == Opcode::Store) return Module::Store;
    if (in.opcode == Opcode::Load && (in.mem_type == MemId::Inp || in.mem_type == MemId::Wgt)) return Module::Load;
    return Module::Compute;
}

const char* to_string(Module m) {
    switch (m) {
        case Module::Load: return "load";
        case Module::Compute: return "compute";
        case Module::Store: return "store";
    }
    return "?";
}

const char* to_string(TokenQueue q) {
    switch (q) {
        case TokenQueue::L2C: return "l2c";
        case TokenQueue::C2L: return "c2l";
        case TokenQueue::C2S: return "c2s";
        case TokenQueue::S2C: return "s2c";
    }
    return "?";
}

// vta_isa.md §4 table: load pops c2l (next) / pushes l2c (next); compute pops l2c (prev),
// s2c (next), pushes c2l (prev), c2s (next); store pops c2s (prev), pushes s2c (prev).
int pop_queue(Module m, bool prev) {
    switch (m) {
        case Module::Load: return prev ? -1 : int(TokenQueue::C2L);
        case Module::Compute: return prev ? int(TokenQueue::L2C) : int(TokenQueue::S2C);
        case Module::Store: return prev ? int(TokenQueue::C2S) : -1;
    }
    return -1;
}
int push_queue(Module m, bool prev) {
    switch (m) {
        case Module::Load: return prev ? -1 : int(TokenQueue::L2C);
        case Module::Compute: return prev ? int(TokenQueue::C2L) : int(TokenQueue::C2S);
        case Module::Store: return prev ? int(TokenQueue::S2C) : -1;
    }
    return -1;
}

namespace {

class Runner {
public:
    Runner(const CompiledProgram& p, std::vector<std::uint8_t>& dram) : m_p(p), m_dram(dram), m_core(p.cfg) {}

    ExecResult run(const ExecOptions& opt) {
        fetch();
        std::mt19937_64 g(opt.seed);
        bool finished = false;
        while (!finished) {
            bool progress = false;
            const int start = opt.random_order ? int(g() % 3) : 0;
            for (int k = 0; k < 3 && !finished; ++k) {
                const int m = (start + k) % 3;
                while (!m_q[m].empty() && ready(Module(m), m_q[m].front().insn)) {
                    const Entry e = m_q[m].front();
                    m_q[m].pop_front();
                    finished = step(Module(m), e);
                    progress = true;
                    if (finished) break;
                    if (opt.random_order && (g() & 1)) break;  // interleave modules differently
                }
            }
            if (!finished && !progress) deadlock();
        }
        ExecResult r;
        r.counters = m_core.counters();
        for (int i = 0; i < 3; ++i) r.insns[i] = m_done[i];
        for (int i = 0; i < 4; ++i) r.tokens_left[i] = m_tokens[i];
        for (int m = 0; m < 3; ++m)
            if (!m_q[m].empty())
                throw SimulationError(std::string("VTA: FINISH executed with instructions left in the ") + to_string(Module(m)) + " queue");
        return r;
    }

private:
    struct Entry { Insn insn; std::uint32_t index; };

    std::uint8_t* at(std::uint64_t addr, std::uint64_t bytes, const Insn& in) {
        if (addr < m_p.dram_base || addr + bytes > m_p.dram_base + m_dram.size())
            throw SimulationError("VTA: DRAM access [" + std::to_string(addr) + ", +" + std::to_string(bytes) +
                                  ") outside the program image in " + in.to_string());
        return m_dram.data() + (addr - m_p.dram_base);
    }

    void fetch() {
        const InsnLayout& l = m_core.layout();
        for (std::uint32_t n = 0; n < m_p.insn_count; ++n) {
            const std::uint8_t* b = at(m_p.insn_addr + 16ull * n, 16, Insn{});
            InsnWord w;
            for (int h = 0; h < 2; ++h)
                for (int k = 0; k < 8; ++k) w.w[std::size_t(h)] |= std::uint64_t(b[8 * h + k]) << (8 * k);
            const Insn in = l.decode(w);
            m_q[int(route(in))].push_back(Entry{in, n});
        }
    }

    bool ready(Module m, const Insn& in) const {
        for (bool prev : {true, false}) {
            if (!(prev ? in.dep.pop_prev : in.dep.pop_next)) continue;
            const int q = pop_queue(m, prev);
            if (q < 0) continue;  // flag unused by this module (HLS ignores it)
            if (m_tokens[q] == 0) return false;
        }
        return true;
    }

    bool step(Module m, const Entry& e) {
        const Insn& in = e.insn;
        for (bool prev : {true, false}) {
            const int q = pop_queue(m, prev);
            if (q >= 0 && (prev ? in.dep.pop_prev : in.dep.pop_next)) --m_tokens[q];
        }
        bool finish = false;
        switch (in.opcode) {
            case Opcode::Load: {
                const int eb = in.mem_type == MemId::Acc8Bit ? m_p.cfg.batch() * m_p.cfg.block() : m_core.elem_bytes(in.mem_type);
                m_core.plan_load(in, [&](std::uint64_t addr, std::uint32_t sram, std::uint32_t n) {
                    m_core.write_elems(in.mem_type, sram, at(addr, std::uint64_t(n) * eb, in), n);
                });
                break;
            }
            case Opcode::Store: {
                const int eb = m_core.elem_bytes(MemId::Out);
                m_core.plan_store(in, [&](std::uint64_t addr, std::uint32_t sram, std::uint32_t n) {
                    m_core.read_out_elems(sram, at(addr, std::uint64_t(n) * eb, in), n);
                });
                break;
            }
            case Opcode::Gemm: m_core.gemm(in); break;
            case Opcode::Alu: m_core.alu(in); break;
            case Opcode::Finish: finish = true; break;
        }
        for (bool prev : {true, false}) {
            const int q = push_queue(m, prev);
            if (q >= 0 && (prev ? in.dep.push_prev : in.dep.push_next)) ++m_tokens[q];
        }
        ++m_done[int(m)];
        return finish;
    }

    [[noreturn]] void deadlock() const {
        std::string msg = "VTA deadlock: no module can progress before FINISH;";
        for (int m = 0; m < 3; ++m) {
            msg += std::string(" ") + to_string(Module(m)) + ": ";
            if (m_q[m].empty()) {
                msg += "idle;";
                continue;
            }
            const Entry& e = m_q[m].front();
            msg += "insn #" + std::to_string(e.index) + " " + e.insn.to_string() + " waits on";
            for (bool prev : {true, false}) {
                const int q = pop_queue(Module(m), prev);
                if (q >= 0 && (prev ? e.insn.dep.pop_prev : e.insn.dep.pop_next) && m_tokens[q] == 0)
                    msg += std::string(" ") + to_string(TokenQueue(q));
            }
            msg += ";";
        }
        throw SimulationError(msg);
    }

    const CompiledProgram& m_p;
    std::vector<std::uint8_t>& m_dram;
    FunctionalCore m_core;
    std::deque<Entry> m_q[3];
    std::uint64_t m_tokens[4] = {0, 0, 0, 0};
    std::uint64_t m_done[3] = {0, 0, 0};
};

}  // namespace

ExecResult execute(const CompiledProgram& p, std::vector<std::uint8_t>& dram, const ExecOptions& opt) {
    Runner r(p, dram);
    return r.run(opt);
}

std::vector<std::int8_t> run_functional(const CompiledProgram& p, const ExecOptions& opt, ExecResult* res) {
    std::vector<std::uint8_t> dram = p.image;
    ExecResult r = execute(p, dram, opt);
    if (res) *res = r;
    return p.extract_output(dram.data());
}

}  // namespace vp::mapper::vta
