#include "models/vta/vta_core.h"

#include <cstdio>

#include "mapper/common/errors.h"

namespace vp::vta {

using namespace sc_core;
using mapper::vta::Insn;
using mapper::vta::MemId;
using mapper::vta::Module;
using mapper::vta::Opcode;

namespace {
// Eight ASCII characters packed into a VCD value (trace::Display::Ascii).
std::uint64_t text(const char* s) {
    std::uint64_t v = 0;
    for (unsigned i = 0; s[i] && i < 8; ++i) v = (v << 8) | static_cast<unsigned char>(s[i]);
    return v;
}
const char* const kQueueNames[4] = {"l2c", "c2l", "c2s", "s2c"};
std::uint64_t loop_uops(const Insn& in) { return std::uint64_t(in.iter_out) * in.iter_in * (in.uop_end - in.uop_bgn); }
}  // namespace

VtaCore::VtaCore(sc_module_name name, const VtaParams& p, stats::Group& parent, SimControl* ctrl, trace::Tracer* tracer)
    : sc_module(name),
      fetch_dma("fetch_dma", m_pool, p.dma_burst_bytes, p.dma_outstanding, p.dma_bus_bits / 8, sc_time(p.clock_period_ps(), SC_PS)),
      load_dma("load_dma", m_pool, p.dma_burst_bytes, p.dma_outstanding, p.dma_bus_bits / 8, sc_time(p.clock_period_ps(), SC_PS)),
      compute_dma("compute_dma", m_pool, p.dma_burst_bytes, p.dma_outstanding, p.dma_bus_bits / 8, sc_time(p.clock_period_ps(), SC_PS)),
      store_dma("store_dma", m_pool, p.dma_burst_bytes, p.dma_outstanding, p.dma_bus_bits / 8, sc_time(p.clock_period_ps(), SC_PS)),
      m_p(p), m_ctrl(ctrl), m_clk(p.clock_period_ps(), SC_PS), m_core(p.core),
      m_stats(parent, basename()),
      m_cycles_stat(m_stats, "cycles", "core cycles from launch to FINISH, summed over programs", "cycles"),
      m_fetch_busy(m_stats, "fetch_busy_cycles", "cycles the fetch module spends fetching/decoding", "cycles"),
      m_load_busy(m_stats, "load_busy_cycles", "cycles the load module executes instructions", "cycles"),
      m_compute_busy(m_stats, "compute_busy_cycles", "cycles the compute module executes instructions", "cycles"),
      m_store_busy(m_stats, "store_busy_cycles", "cycles the store module executes instructions", "cycles"),
      m_load_token_wait(m_stats, "load_token_wait_cycles", "cycles the load module waits for a dependency token", "cycles"),
      m_compute_token_wait(m_stats, "compute_token_wait_cycles", "cycles the compute module waits for a dependency token", "cycles"),
      m_store_token_wait(m_stats, "store_token_wait_cycles", "cycles the store module waits for a dependency token", "cycles"),
      m_gemm_uops(m_stats, "gemm_uops", "GEMM micro-op executions (reset excluded, fsim gemm_counter)", "uops"),
      m_alu_uops(m_stats, "alu_uops", "ALU micro-op executions (fsim alu_counter)", "uops"),
      m_macs(m_stats, "macs", "multiply-accumulates (gemm_uops * BATCH * BLOCK^2); epoch samples spread each GEMM over its micro-op cycles",
             "MACs"),
      m_inp_bytes(m_stats, "inp_load_bytes", "bytes loaded into the INP buffer", "bytes"),
      m_wgt_bytes(m_stats, "wgt_load_bytes", "bytes loaded into the WGT buffer", "bytes"),
      m_acc_bytes(m_stats, "acc_load_bytes", "bytes loaded into the ACC buffer", "bytes"),
      m_uop_bytes(m_stats, "uop_load_bytes", "bytes loaded into the UOP buffer", "bytes"),
      m_out_bytes(m_stats, "out_store_bytes", "bytes stored from the OUT buffer", "bytes"),
      m_insn_bytes(m_stats, "insn_fetch_bytes", "instruction bytes fetched", "bytes"),
      m_n_load(m_stats, "insn_load", "LOAD instructions executed", "insns"),
      m_n_store(m_stats, "insn_store", "STORE instructions executed", "insns"),
      m_n_gemm(m_stats, "insn_gemm", "GEMM instructions executed", "insns"),
      m_n_alu(m_stats, "insn_alu", "ALU instructions executed", "insns"),
      m_n_finish(m_stats, "insn_finish", "FINISH instructions executed", "insns"),
      m_gemm_util(m_stats, "gemm_utilisation", "GEMM micro-ops per core cycle", "ratio", [this] {
          return m_cycles_stat.value() ? double(m_gemm_uops.value()) / double(m_cycles_stat.value()) : 0.0;
      }) {
    for (int i = 0; i < 3; ++i) m_cmd.push_back(std::make_unique<sc_fifo<Cmd>>(int(p.cmd_queue_depth)));
    for (const char* mod : {"load", "compute", "store", "fetch"}) {
        m_mod_groups.push_back(std::make_unique<stats::Group>(m_stats, mod));
        const bool fetch = std::string(mod) == "fetch";
        m_mod_state.push_back(std::make_unique<stats::StateTime>(
            *m_mod_groups.back(), "state",
            fetch ? "time the fetch module is idle, fetching/decoding, or blocked on a full command queue"
                  : "time the module is idle (no command), waits for a dependency token, or executes",
            fetch ? std::vector<std::string>{"idle", "busy", "queue_full"}
                  : std::vector<std::string>{"idle", "wait_token", "busy"}));
    }
    // The module states and the MACs are sampled per epoch: a GEMM lasts up to thousands of
    // cycles, so its MACs are booked over its micro-op cycles (ScheduledCounter), not at its end.
    // The other counters are added when an instruction ends.
    if (tracer && tracer->enabled()) {
        const std::string n = basename();
        const char* mods[4] = {"load", "compute", "store", "fetch"};
        for (int m = 0; m < 4; ++m) {
            m_sig_state[m] = tracer->add(n + "." + mods[m] + ".state", 64, trace::Display::Ascii);
            if (m_sig_state[m]) m_sig_state[m]->set(text("idle"), 0);
        }
        // Named under the statistics groups (vta, vta.<module>), as every signal of the VCD.
        for (int q = 0; q < 4; ++q) m_sig_tok[q] = tracer->add(n + ".tokens_" + kQueueNames[q], 16);
        for (int m = 0; m < 3; ++m) m_sig_cmdq[m] = tracer->add(n + "." + mods[m] + ".cmd_queue", 16);
    }
    SC_THREAD(fetch_thread);
    sc_spawn_options o;
    for (int m = 0; m < 3; ++m) sc_spawn([this, m] { module_thread(m); }, sc_gen_unique_name("module"), &o);
    SC_THREAD(watchdog_thread);
}

void VtaCore::set_state(int m, State s, int queue, bool full) {
    m_state[m] = s;
    m_wait_queue[m] = queue;
    m_wait_full[m] = full;
    m_mod_state[std::size_t(m)]->set(unsigned(s), now_ps());
    if (!m_sig_state[m]) return;
    char buf[9] = "idle";
    if (s == State::Busy) std::snprintf(buf, sizeof buf, "busy");
    else if (s == State::WaitToken) std::snprintf(buf, sizeof buf, "%s_%s", full ? "full" : "wait", queue >= 0 ? kQueueNames[queue] : "?");
    m_sig_state[m]->set(text(buf), now_ps());
}

void VtaCore::set_fetch_state(unsigned s, int cmd_queue) {
    m_fetch_full = s == 2 ? cmd_queue : -1;
    m_mod_state[3]->set(s, now_ps());
    if (!m_sig_state[3]) return;
    const char* full[3] = {"full_ld", "full_cp", "full_st"};
    m_sig_state[3]->set(text(s == 0 ? "idle" : s == 1 ? "busy" : cmd_queue >= 0 ? full[cmd_queue] : "full"), now_ps());
}

void VtaCore::launch(std::uint64_t insn_addr, std::uint32_t count) {
    m_insn_addr = insn_addr;
    m_insn_count = count;
    m_launch_pending = true;
    ++m_launches;
    m_finished = false;
    m_progress_at_launch = m_progress;
    m_start = sc_time_stamp();
    if (m_ctrl) m_ctrl->begin();
    m_launch_ev.notify(SC_ZERO_TIME);
}

void VtaCore::check() const {
    if (!m_error.empty()) throw SimulationError(m_error);
}

void VtaCore::fail(const std::string& msg) {
    if (m_error.empty()) m_error = std::string(name()) + ": " + msg;
    sc_stop();
}

void VtaCore::fetch_thread() {
    const unsigned per = fetch_dma.max_chunk(mapper::vta::VtaConfig::kInsnBytes);
    std::vector<unsigned char> buf(per);
    std::vector<VtaDma::Row> row(1);
    for (;;) {
        set_fetch_state(0);
        while (!m_launch_pending) wait(m_launch_ev);
        m_launch_pending = false;
        set_fetch_state(1);
        for (std::uint32_t n = 0; n < m_insn_count;) {
            const std::uint32_t k = std::min<std::uint32_t>(per / 16, m_insn_count - n);
            const sc_time t0 = sc_time_stamp();
            row[0] = VtaDma::Row{m_insn_addr + 16ull * n, 16 * k};
            fetch_dma.read(row, 16, [&](std::uint32_t, unsigned char* d, unsigned b) { std::copy(d, d + b, buf.begin()); });
            m_insn_bytes += 16ull * k;
            m_fetch_busy += std::uint64_t((sc_time_stamp() - t0) / m_clk + 0.5);
            for (std::uint32_t i = 0; i < k; ++i, ++n) {
                mapper::vta::InsnWord w;
                for (int h = 0; h < 2; ++h)
                    for (int b = 0; b < 8; ++b) w.w[std::size_t(h)] |= std::uint64_t(buf[16 * i + 8 * h + b]) << (8 * b);
                Cmd c;
                try {
                    c.insn = m_core.layout().decode(w);
                } catch (const std::exception& e) {
                    fail(std::string("fetch: instruction #") + std::to_string(n) + ": " + e.what());
                    return;
                }
                c.index = n;
                m_fetch_index = n;
                wait_cycles(1);  // decode II = 1
                ++m_fetch_busy;
                const int qi = int(mapper::vta::route(c.insn));
                auto& q = *m_cmd[qi];
                if (q.num_free() == 0) set_fetch_state(2, qi);
                q.write(c);  // stalls while the queue is full
                ++m_cmdq_n[qi];
                trace_cmdq(qi);
                set_fetch_state(1);
            }
        }
    }
}

void VtaCore::pop_tokens(int m, const Insn& in) {
    stats::Counter* waits[3] = {&m_load_token_wait, &m_compute_token_wait, &m_store_token_wait};
    for (bool prev : {true, false}) {
        const int q = mapper::vta::pop_queue(Module(m), prev);
        if (q < 0 || !(prev ? in.dep.pop_prev : in.dep.pop_next)) continue;
        const sc_time t0 = sc_time_stamp();
        set_state(m, State::WaitToken, q);
        while (m_tok[q].n == 0) wait(m_tok[q].ev);
        --m_tok[q].n;
        trace_token(q);
        m_tok[q].ev.notify(SC_ZERO_TIME);  // wakes a pusher blocked on a full queue
        *waits[m] += std::uint64_t((sc_time_stamp() - t0) / m_clk + 0.5);
    }
}

void VtaCore::push_tokens(int m, const Insn& in) {
    for (bool prev : {true, false}) {
        const int q = mapper::vta::push_queue(Module(m), prev);
        if (q < 0 || !(prev ? in.dep.push_prev : in.dep.push_next)) continue;
        while (m_tok[q].n >= m_p.token_queue_depth) {
            set_state(m, State::WaitToken, q, true);
            wait(m_tok[q].ev);
        }
        ++m_tok[q].n;
        trace_token(q);
        m_tok[q].ev.notify(SC_ZERO_TIME);
    }
}

void VtaCore::exec_load_store(int m, const Insn& in, VtaDma& dma) {
    auto& rows = m_rows[m];
    auto& srams = m_row_sram[m];
    auto& elems = m_row_elems[m];
    rows.clear();
    srams.clear();
    elems.clear();
    const bool store = in.opcode == Opcode::Store;
    const MemId id = in.mem_type;
    const unsigned eb = unsigned(id == MemId::Acc8Bit ? m_p.core.batch() * m_p.core.block() : m_core.elem_bytes(id));
    const unsigned per = dma.max_chunk(eb) / eb;  // elements per transaction
    auto split = [&](std::uint64_t addr, std::uint32_t sram, std::uint32_t n) {
        for (std::uint32_t o = 0; o < n; o += per) {
            const std::uint32_t k = std::min<std::uint32_t>(per, n - o);
            rows.push_back(VtaDma::Row{addr + std::uint64_t(o) * eb, k * eb});
            srams.push_back(sram + o);
            elems.push_back(k);
        }
    };
    if (store) {
        m_core.plan_store(in, split);
        dma.write(rows, eb, [&](std::uint32_t tag, unsigned char* d, unsigned) { m_core.read_out_elems(srams[tag], d, elems[tag]); });
    } else {
        m_core.plan_load(in, split);  // zero-fills padding now; data rows are written as they arrive
        if (const std::uint64_t pad = mapper::vta::load_pad_elems(in)) wait_cycles(pad);  // one padding entry per cycle
        dma.read(rows, eb, [&](std::uint32_t tag, unsigned char* d, unsigned) { m_core.write_elems(id, srams[tag], d, elems[tag]); });
    }
}

void VtaCore::module_thread(int m) {
    stats::Counter* busy[3] = {&m_load_busy, &m_compute_busy, &m_store_busy};
    VtaDma* dma[3] = {&load_dma, &compute_dma, &store_dma};
    for (;;) {
        set_state(m, State::Idle);
        const Cmd c = m_cmd[m]->read();
        --m_cmdq_n[m];
        trace_cmdq(m);
        m_current[m] = c;
        const Insn& in = c.insn;
        pop_tokens(m, in);
        set_state(m, State::Busy);
        const sc_time t0 = sc_time_stamp();
        try {
            wait_cycles(m_p.insn_overhead);
            switch (in.opcode) {
                case Opcode::Load:
                    exec_load_store(m, in, *dma[m]);
                    ++m_n_load;
                    break;
                case Opcode::Store:
                    exec_load_store(m, in, *dma[m]);
                    ++m_n_store;
                    break;
                case Opcode::Gemm: {
                    m_core.gemm(in);  // values change atomically; tokens order every reader after it
                    const std::uint64_t u = loop_uops(in);
                    if (!in.reset && u) {
                        const std::uint64_t t = now_ps();
                        m_macs.add(u * m_p.core.macs_per_gemm_uop(), t, t, t + u * m_p.gemm_cycles_per_uop * std::uint64_t(m_clk.value() / sc_time(1, SC_PS).value()));
                    }
                    wait_cycles(u * m_p.gemm_cycles_per_uop + (u ? m_p.pipeline_latency : 0));
                    ++m_n_gemm;
                    if (!in.reset) m_gemm_uops += u;
                    break;
                }
                case Opcode::Alu: {
                    m_core.alu(in);
                    const std::uint64_t u = loop_uops(in);
                    wait_cycles(u * m_p.alu_cycles_per_uop + (u ? m_p.pipeline_latency : 0));
                    ++m_n_alu;
                    m_alu_uops += u;
                    break;
                }
                case Opcode::Finish: break;
            }
        } catch (const std::exception& e) {
            fail(std::string(mapper::vta::to_string(Module(m))) + ": instruction #" + std::to_string(c.index) + " " +
                 in.to_string() + ": " + e.what());
            return;
        }
        *busy[m] += std::uint64_t((sc_time_stamp() - t0) / m_clk + 0.5);
        push_tokens(m, in);
        ++m_progress;
        if (in.opcode == Opcode::Finish) {
            ++m_n_finish;
            m_finished = true;
            m_cycles = std::uint64_t((sc_time_stamp() - m_start) / m_clk + 0.5);
            m_cycles_stat += m_cycles;  // summed over launches (a network runs many programs)
            const auto& k = m_core.counters();
            m_inp_bytes.set(k.inp_load_bytes);
            m_wgt_bytes.set(k.wgt_load_bytes);
            m_acc_bytes.set(k.acc_load_bytes);
            m_uop_bytes.set(k.uop_load_bytes);
            m_out_bytes.set(k.out_store_bytes);
            m_done_ev.notify(SC_ZERO_TIME);
            if (m_ctrl) m_ctrl->end();
        }
    }
}

void VtaCore::watchdog_thread() {
    const sc_time period = m_clk * double(m_p.watchdog_cycles);
    std::uint64_t seen = 0;
    for (;;) {
    while (m_launches == seen) wait(m_launch_ev);
    seen = m_launches;
    std::uint64_t last = ~0ull;
    while (!m_finished) {
        wait(period, m_done_ev);
        if (m_finished) break;
        const bool busy = m_state[0] == State::Busy || m_state[1] == State::Busy || m_state[2] == State::Busy;
        if (!busy && m_progress == last) {
            std::string msg = "deadlock: no progress for " + std::to_string(m_p.watchdog_cycles) + " cycles before FINISH;";
            int full_token_queue = -1;
            for (int m = 0; m < 3; ++m) {
                msg += std::string(" ") + mapper::vta::to_string(Module(m)) + ": ";
                if (m_state[m] != State::WaitToken) {
                    msg += "idle (waits for an instruction);";
                    continue;
                }
                const Insn& in = m_current[m].insn;
                msg += "insn #" + std::to_string(m_current[m].index) + " " + in.to_string();
                const int q = m_wait_queue[m];
                const char* qn = q >= 0 ? kQueueNames[q] : "?";
                if (m_wait_full[m]) {
                    msg += std::string(" waits to push a token into ") + qn + " (full: token_queue_depth " +
                           std::to_string(m_p.token_queue_depth) + ");";
                    full_token_queue = q;
                } else {
                    msg += std::string(" waits for a token in ") + qn + ";";
                }
            }
            msg += " fetch: ";
            if (m_fetch_full >= 0)
                msg += "insn #" + std::to_string(m_fetch_index) + " waits for room in the " +
                       mapper::vta::to_string(Module(m_fetch_full)) + " command queue (full: cmd_queue_depth " +
                       std::to_string(m_p.cmd_queue_depth) + ")";
            else
                msg += "not blocked";
            if (full_token_queue >= 0 && m_fetch_full >= 0)
                msg += std::string(". The program keeps more tokens in ") + kQueueNames[full_token_queue] +
                       " than vta.token_queue_depth allows while the instruction that would take one waits behind "
                       "a full command queue: raise vta.token_queue_depth or vta.cmd_queue_depth";
            fail(msg);
            return;
        }
        last = m_progress;
    }
    }
}

}  // namespace vp::vta
