#pragma once
// Run control shared by the initiators of a platform: when the last active initiator
// has finished, the end time is recorded and the kernel stops one picosecond later,
// so that every zero-delay handshake of that instant (END_RESP, credits) completes.
// Progress (layers or requests done) is reported through counters that vp-run reads.
#include <cstdint>
#include <functional>
#include <string>

#include <systemc>

namespace vp {

class SimControl : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(SimControl);
    explicit SimControl(sc_core::sc_module_name name = "sim_control") : sc_core::sc_module(name) {
        SC_METHOD(stop);
        sensitive << m_stop_ev;
        dont_initialize();
    }
    void begin() { ++m_active; }
    void end() {
        if (m_active > 0 && --m_active == 0) {
            m_end_time = sc_core::sc_time_stamp();
            m_stop_ev.notify(sc_core::sc_time(1, sc_core::SC_PS));
        }
    }
    unsigned active() const { return m_active; }
    // Time at which the last initiator finished.
    const sc_core::sc_time& end_time() const { return m_end_time; }
    // A run stopped before every initiator finished (a failure, an interrupt): its outputs end at t.
    void set_end_time(const sc_core::sc_time& t) { m_end_time = t; }
    // Work units for the progress line (layers, requests ...).
    void add_total(std::uint64_t n) { m_total += n; }
    // A done unit of a mapped network is a finished layer: the listener (epoch statistics)
    // is told at that instant.
    void add_done(std::uint64_t n = 1) {
        m_done += n;
        if (m_on_done) m_on_done();
    }
    void set_done_listener(std::function<void()> f) { m_on_done = std::move(f); }
    std::uint64_t total() const { return m_total; }
    std::uint64_t done() const { return m_done; }
    void set_unit(std::string u) { m_unit = std::move(u); }
    const std::string& unit() const { return m_unit; }

private:
    void stop() { sc_core::sc_stop(); }
    sc_core::sc_event m_stop_ev;
    unsigned m_active = 0;
    sc_core::sc_time m_end_time;
    std::uint64_t m_total = 0, m_done = 0;
    std::string m_unit = "units";
    std::function<void()> m_on_done;
};

}  // namespace vp
