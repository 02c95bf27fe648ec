// Cost of the TLM-2.0 base-protocol checker (models/common/protocol_checker.h): a minimal AT
// initiator and target (END_REQ on the return path, BEGIN_RESP 1 ns later through a peq,
// TLM_COMPLETED in reply to BEGIN_RESP) exchange N transactions with K in flight, once bound
// directly and once through a ProtocolChecker. Prints wall nanoseconds per transaction; run it
// several times and quote medians (the figures depend on the machine and its load).
//     build/bench/bench_tlmcheck [N]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>

#include "models/common/protocol_checker.h"

using namespace sc_core;
using namespace tlm;

namespace {

class Target : public sc_module, public tlm_fw_transport_if<> {
public:
    tlm_target_socket<> socket;
    explicit Target(sc_module_name n) : sc_module(n), socket("socket"), m_peq(this, &Target::respond) {
        socket.bind(*this);
    }
    tlm_sync_enum nb_transport_fw(tlm_generic_payload& t, tlm_phase& ph, sc_time& d) override {
        if (ph == BEGIN_REQ) {
            m_peq.notify(t, BEGIN_RESP, d + sc_time(1, SC_NS));
            ph = END_REQ;
            return TLM_UPDATED;
        }
        return TLM_COMPLETED;  // END_RESP
    }
    void b_transport(tlm_generic_payload& t, sc_time&) override { t.set_response_status(TLM_OK_RESPONSE); }
    bool get_direct_mem_ptr(tlm_generic_payload&, tlm_dmi&) override { return false; }
    unsigned transport_dbg(tlm_generic_payload&) override { return 0; }

private:
    void respond(tlm_generic_payload& t, const tlm_phase&) {
        t.set_response_status(TLM_OK_RESPONSE);
        tlm_phase ph = BEGIN_RESP;
        sc_time d = SC_ZERO_TIME;
        socket->nb_transport_bw(t, ph, d);  // the initiator completes it
    }
    tlm_utils::peq_with_cb_and_phase<Target> m_peq;
};

class Initiator : public sc_module, public tlm_bw_transport_if<> {
public:
    tlm_initiator_socket<> socket;
    double ns_per_txn = 0;

    SC_HAS_PROCESS(Initiator);
    Initiator(sc_module_name n, unsigned count, unsigned in_flight, sc_event* start, sc_event* done)
        : sc_module(n), socket("socket"), m_count(count), m_slots(in_flight), m_start(start), m_done(done) {
        socket.bind(*this);
        for (auto& s : m_slots) s.busy = false;
        SC_THREAD(run);
    }
    tlm_sync_enum nb_transport_bw(tlm_generic_payload& t, tlm_phase&, sc_time&) override {
        static_cast<Slot&>(t).busy = false;  // BEGIN_RESP: done
        --m_outstanding;
        m_free.notify();
        return TLM_COMPLETED;
    }
    void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

private:
    struct Slot : tlm_generic_payload {
        unsigned char data[64] = {};
        bool busy = false;
    };
    void run() {
        if (m_start) wait(*m_start);
        const auto t0 = std::chrono::steady_clock::now();
        for (unsigned i = 0; i < m_count; ++i) {
            while (m_outstanding >= m_slots.size()) wait(m_free);
            Slot* s = nullptr;
            for (auto& c : m_slots)
                if (!c.busy) {
                    s = &c;
                    break;
                }
            s->busy = true;
            s->set_command(i % 3 ? TLM_READ_COMMAND : TLM_WRITE_COMMAND);
            s->set_address(64ull * i);
            s->set_data_ptr(s->data);
            s->set_data_length(64);
            s->set_streaming_width(64);
            s->set_byte_enable_ptr(nullptr);
            s->set_dmi_allowed(false);
            s->set_response_status(TLM_INCOMPLETE_RESPONSE);
            ++m_outstanding;
            tlm_phase ph = BEGIN_REQ;
            sc_time d = SC_ZERO_TIME;
            socket->nb_transport_fw(*s, ph, d);  // END_REQ on the return path
        }
        while (m_outstanding > 0) wait(m_free);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        ns_per_txn = s * 1e9 / m_count;
        m_done->notify(SC_ZERO_TIME);
    }
    unsigned m_count;
    std::vector<Slot> m_slots;
    std::size_t m_outstanding = 0;
    sc_event m_free;
    sc_event* m_start;
    sc_event* m_done;
};

}  // namespace

int sc_main(int argc, char** argv) {
    const unsigned n = argc > 1 ? unsigned(std::strtoul(argv[1], nullptr, 10)) : 1000000u;
    const unsigned in_flight[] = {1, 16, 64};
    // Runs one after the other: plain K=1, checked K=1, plain K=16, ...
    std::vector<std::unique_ptr<sc_event>> ev;
    std::vector<std::unique_ptr<Initiator>> init;
    std::vector<std::unique_ptr<Target>> tgt;
    std::vector<std::unique_ptr<vp::tlmcheck::ProtocolChecker>> chk;
    ev.push_back(std::make_unique<sc_event>("start"));
    for (unsigned k : in_flight)
        for (int checked = 0; checked < 2; ++checked) {
            const std::string id = std::string(checked ? "checked" : "plain") + std::to_string(k);
            sc_event* start = ev.back().get();
            ev.push_back(std::make_unique<sc_event>((id + "_done").c_str()));
            init.push_back(std::make_unique<Initiator>((id + "_init").c_str(), n, k, start, ev.back().get()));
            tgt.push_back(std::make_unique<Target>((id + "_tgt").c_str()));
            if (checked) {
                chk.push_back(std::make_unique<vp::tlmcheck::ProtocolChecker>((id + "_chk").c_str()));
                init.back()->socket.bind(chk.back()->target);
                chk.back()->initiator.bind(tgt.back()->socket);
            } else {
                init.back()->socket.bind(tgt.back()->socket);
            }
        }
    struct Kick : sc_module {
        SC_HAS_PROCESS(Kick);
        sc_event& e;
        Kick(sc_module_name nm, sc_event& ev0) : sc_module(nm), e(ev0) { SC_THREAD(go); }
        void go() { e.notify(SC_ZERO_TIME); }
    } kick("kick", *ev.front());
    sc_start();
    std::printf("transactions per run: %u (4 phases each, 64 B)\n", n);
    std::printf("%-10s %14s %14s %14s\n", "in flight", "plain ns/txn", "checked ns/txn", "overhead");
    for (std::size_t i = 0; i < std::size(in_flight); ++i) {
        const double a = init[2 * i]->ns_per_txn, b = init[2 * i + 1]->ns_per_txn;
        std::printf("%-10u %14.1f %14.1f %10.1f ns (%+.0f %%)\n", in_flight[i], a, b, b - a, 100.0 * (b - a) / a);
    }
    std::uint64_t v = 0;
    for (const auto& c : chk) v += c->violations();
    std::printf("violations reported: %llu\n", static_cast<unsigned long long>(v));
    return 0;
}
