#pragma once
// Timed SystemC model of one VTA core (vta_isa.md §4-5): fetch, load, compute and store
// processes connected by command FIFOs and the four dependency token queues (l2c, c2l,
// c2s, s2c) with the hardware pop/push rule (an instruction starts only when every queue
// it pops holds a token; it pushes after it completes). Data semantics are those of
// mapper::vta::FunctionalCore (fsim); DMA goes through four AT initiator ports (VtaDma).
// A watchdog turns a token deadlock into an error naming the stuck instructions.
// With tracing on, the VCD shows per module its state (idle, busy, wait_<queue> for a token it
// pops, full_<queue> for a token queue it pushes into; fetch: idle, busy, full_ld/cp/st for a
// full command queue) and the depths of the four token queues and three command queues.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "mapper/vta/executor.h"
#include "mapper/vta/functional_core.h"
#include "models/common/payload_pool.h"
#include "models/common/sim_control.h"
#include "models/common/stats.h"
#include "models/common/trace.h"
#include "models/vta/vta_dma.h"
#include "models/vta/vta_params.h"

namespace vp::vta {

class VtaCore : public sc_core::sc_module {
public:
    // DMA ports; bind each `socket` to the DRAM target (e.g. vp::dram::DramController::socket).
    VtaDma fetch_dma, load_dma, compute_dma, store_dma;

    SC_HAS_PROCESS(VtaCore);
    VtaCore(sc_core::sc_module_name name, const VtaParams& p, stats::Group& parent, SimControl* ctrl = nullptr,
            trace::Tracer* tracer = nullptr);

    // Starts executing `count` instructions at byte address `insn_addr` (before or during sc_start).
    void launch(std::uint64_t insn_addr, std::uint32_t count);

    bool finished() const { return m_finished; }
    // Non-empty after a deadlock or a failed instruction; check() throws it as vp::SimulationError.
    const std::string& error() const { return m_error; }
    void check() const;
    const sc_core::sc_event& done_event() const { return m_done_ev; }
    std::uint64_t cycles() const { return m_cycles; }  // launch to FINISH
    const mapper::vta::FunctionalCore& functional() const { return m_core; }

private:
    enum class State : std::uint8_t { Idle, WaitToken, Busy };
    struct Cmd {
        mapper::vta::Insn insn;
        std::uint32_t index = 0;
    };
    friend std::ostream& operator<<(std::ostream& os, const Cmd& c) { return os << c.index; }
    struct Tokens {
        unsigned n = 0;
        sc_core::sc_event ev;
    };

    void fetch_thread();
    void module_thread(int m);
    void watchdog_thread();
    void exec_load_store(int m, const mapper::vta::Insn& in, VtaDma& dma);
    void pop_tokens(int m, const mapper::vta::Insn& in);
    void push_tokens(int m, const mapper::vta::Insn& in);
    void wait_cycles(std::uint64_t n) { if (n) wait(sc_core::sc_time::from_value(m_clk.value() * n)); }
    void fail(const std::string& msg);
    // Module m (0 load, 1 compute, 2 store) changes state: the run loop's view and its statistic.
    // `queue`: the token queue a WaitToken state waits on (`full`: to push into, else to pop).
    void set_state(int m, State s, int queue = -1, bool full = false);
    void set_fetch_state(unsigned s, int cmd_queue = -1);  // 0 idle, 1 busy, 2 queue_full (of cmd_queue)
    void trace_token(int q) { if (m_sig_tok[q]) m_sig_tok[q]->set(m_tok[q].n, now_ps()); }
    void trace_cmdq(int m) { if (m_sig_cmdq[m]) m_sig_cmdq[m]->set(m_cmdq_n[m], now_ps()); }
    static std::uint64_t now_ps() { return sc_core::sc_time_stamp().value() / sc_core::sc_time(1, sc_core::SC_PS).value(); }

    VtaParams m_p;
    SimControl* m_ctrl;
    PayloadPool m_pool;
    sc_core::sc_time m_clk;
    mapper::vta::FunctionalCore m_core;
    std::vector<std::unique_ptr<sc_core::sc_fifo<Cmd>>> m_cmd;  // load, compute, store
    Tokens m_tok[4];
    State m_state[3] = {State::Idle, State::Idle, State::Idle};
    int m_wait_queue[3] = {-1, -1, -1};       // the token queue of a WaitToken state (set_state)
    bool m_wait_full[3] = {false, false, false};  // ... to push into (full), else to pop from
    int m_fetch_full = -1;                    // the command queue fetch waits on (-1: none)
    std::uint32_t m_fetch_index = 0;          // the instruction fetch dispatches
    Cmd m_current[3];
    std::uint64_t m_progress = 0;
    std::uint64_t m_insn_addr = 0;
    std::uint32_t m_insn_count = 0;
    bool m_launch_pending = false, m_finished = false;
    std::uint64_t m_progress_at_launch = 0, m_launches = 0;
    std::string m_error;
    sc_core::sc_event m_launch_ev, m_done_ev;
    sc_core::sc_time m_start;
    std::uint64_t m_cycles = 0;
    std::vector<VtaDma::Row> m_rows[3];       // reused per instruction: no allocation per transaction
    std::vector<std::uint32_t> m_row_sram[3];  // SRAM element index of each transaction
    std::vector<std::uint32_t> m_row_elems[3];

    stats::Group m_stats;
    stats::Counter m_cycles_stat, m_fetch_busy, m_load_busy, m_compute_busy, m_store_busy;
    stats::Counter m_load_token_wait, m_compute_token_wait, m_store_token_wait;
    stats::Counter m_gemm_uops, m_alu_uops;
    stats::ScheduledCounter m_macs;  // booked over each GEMM's micro-op cycles (epoch samples)
    stats::Counter m_inp_bytes, m_wgt_bytes, m_acc_bytes, m_uop_bytes, m_out_bytes, m_insn_bytes;
    stats::Counter m_n_load, m_n_store, m_n_gemm, m_n_alu, m_n_finish;
    stats::Formula m_gemm_util;
    // vta.<module>.state: time idle / waiting for a dependency token / busy (fetch: idle / busy /
    // blocked on a full command queue).
    std::vector<std::unique_ptr<stats::Group>> m_mod_groups;
    std::vector<std::unique_ptr<stats::StateTime>> m_mod_state;  // load, compute, store, fetch
    // VCD signals (nullptr when tracing is off or filtered out).
    trace::Signal* m_sig_state[4] = {nullptr, nullptr, nullptr, nullptr};  // load, compute, store, fetch
    trace::Signal* m_sig_tok[4] = {nullptr, nullptr, nullptr, nullptr};    // l2c, c2l, c2s, s2c
    trace::Signal* m_sig_cmdq[3] = {nullptr, nullptr, nullptr};            // load, compute, store
    unsigned m_cmdq_n[3] = {0, 0, 0};
};

}  // namespace vp::vta
