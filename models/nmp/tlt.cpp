#include "models/nmp/tlt.h"

#include "mapper/common/errors.h"

namespace vp::nmp {

using namespace sc_core;

Tlt::Tlt(sc_module_name name, stats::Group& parent, const std::string& stats_name, const mapper::tso::NmpParams& arch)
    : sc_module(name),
      socket("socket"),
      m_arch(arch),
      m_period(arch.cycle_s(), SC_SEC),
      m_stats(parent, stats_name),
      m_macs(m_stats, "macs", "multiply-accumulates executed", "MAC"),
      m_sw(m_stats, "sw_cycles", "RISC-V control cycles (nmp_conv2d issue, loop, DMA syncs; T_SW)", "cycles"),
      m_busy(m_stats, "busy_cycles", "cycles the MAC unit runs nmp_conv2d (incl. T_SW)", "cycles"),
      m_instr(m_stats, "instructions", "nmp_conv2d instructions", "count"),
      m_bytes_in(m_stats, "bytes_in", "IN tile bytes received in MB0 (multicast)", "B"),
      m_bytes_w(m_stats, "bytes_w", "W tile bytes loaded into MB1", "B"),
      m_bytes_out(m_stats, "bytes_out", "OUT tile bytes stored from MB2", "B"),
      m_idle(m_stats, "idle_cycles", "cycles of the run the MAC unit is not busy", "cycles"),
      m_reduce(m_stats, "reduce_cycles", "cycles adding the other TLEs' partial OUT tiles (IFM-channel slicing)",
               "cycles"),
      m_bytes_sent(m_stats, "bytes_ring", "partial OUT tile bytes sent from MB2 over the ring", "B"),
      m_state(m_stats, "state", "time per TLT state (load/store: its DMA transfer runs)",
              {"idle", "load", "compute", "store"}) {
    socket.register_b_transport(this, &Tlt::b_transport);
}

void Tlt::b_transport(tlm::tlm_generic_payload& t, sc_time&) {
    const std::uint64_t bytes = t.get_data_length();
    const std::uint64_t region = t.get_address() / kRegion * kRegion;
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    if (t.get_address() != region) {
        t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    } else if (t.is_write() && region == kMb0) {
        check_fit(bytes, m_arch.in_tile_bytes(), m_arch.double_buffer ? "half of MB0" : "MB0");
        m_bytes_in += bytes;
    } else if (t.is_write() && region == kMb1) {
        check_fit(bytes, m_arch.w_tile_bytes(), m_arch.double_buffer ? "half of MB1" : "MB1");
        m_bytes_w += bytes;
    } else if (t.is_read() && region == kMb2) {
        check_fit(bytes, m_arch.mb2_bytes, "MB2");
        if (t.get_extension<RingPartial>()) m_bytes_sent += bytes;
        else m_bytes_out += bytes;
    } else if (region == kMb0 || region == kMb1 || region == kMb2) {
        t.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);  // the DMA writes MB0/MB1 and reads MB2
    } else {
        t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    }
}

void Tlt::compute(const mapper::tso::TileOp& op) {
    const std::uint64_t sw = std::uint64_t(m_arch.conv_sw_cycles()) +
                             m_pending_syncs * std::uint64_t(m_arch.control.sync_cycles);
    m_pending_syncs = 0;
    m_sw += sw;
    const std::uint64_t cycles = op.mac_cycles + sw;
    sc_time start = m_busy_until > sc_time_stamp() ? m_busy_until : sc_time_stamp();
    if (m_ready > start) start = m_ready;
    if (start > m_busy_until || m_busy_until == SC_ZERO_TIME) m_busy_from = start;
    m_busy_until = start + sc_time(double(cycles) * m_arch.cycle_s(), SC_SEC);
    const std::uint64_t ps = sc_time(1, SC_PS).value();
    m_state.set_until(2, start.value() / ps, m_busy_until.value() / ps);  // TltState::Compute
    m_macs.add(op.macs, sc_time_stamp().value() / ps, start.value() / ps, m_busy_until.value() / ps);
    m_busy += cycles;
    ++m_instr;
}

void Tlt::reduce(std::uint64_t elems, std::uint64_t partials) {
    const std::uint64_t mpc = std::uint64_t(m_arch.macs_per_cycle);
    const std::uint64_t cycles = partials * ((elems + mpc - 1) / mpc);
    if (cycles == 0) return;
    const sc_time start = m_busy_until > sc_time_stamp() ? m_busy_until : sc_time_stamp();
    if (start > m_busy_until || m_busy_until == SC_ZERO_TIME) m_busy_from = start;
    m_busy_until = start + sc_time(double(cycles) * m_arch.cycle_s(), SC_SEC);
    const std::uint64_t ps = sc_time(1, SC_PS).value();
    m_state.set_until(2, start.value() / ps, m_busy_until.value() / ps);  // TltState::Compute
    m_busy += cycles;
    m_reduce += cycles;
}

void Tlt::check_fit(std::uint64_t bytes, int capacity, const char* mem) const {
    if (bytes > std::uint64_t(capacity))
        throw SimulationError(m_stats.path() + ": a tile of " + std::to_string(bytes) + " B does not fit " + mem +
                              " (" + std::to_string(capacity) + " B)");
}

void Tlt::finish(const sc_time& span) {
    const std::uint64_t total = std::uint64_t(span.to_seconds() / m_arch.cycle_s() + 0.5);
    m_idle.set(total > m_busy.value() ? total - m_busy.value() : 0);
}

}  // namespace vp::nmp
