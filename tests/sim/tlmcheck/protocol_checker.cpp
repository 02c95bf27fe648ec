// The TLM-2.0 base-protocol checker against hand-made initiators and targets: one scenario
// per rule that breaks exactly that rule (each must be reported once, naming the rule), and
// one scenario that walks every legal path of the base protocol (nothing may be reported).
// The test initiator and target are scripted from one SC_THREAD per scenario, which drives
// both ends of the binding in a fixed order.
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "models/common/protocol_checker.h"

using namespace sc_core;
using namespace tlm;
using vp::tlmcheck::ProtocolChecker;
using vp::tlmcheck::Rule;

namespace {

DECLARE_EXTENDED_PHASE(BOGUS_PHASE);

std::vector<std::string> g_reports;

void capture(const sc_report& r, const sc_actions& a) {
    if (std::strcmp(r.get_msg_type(), vp::tlmcheck::kMsgType) == 0) {
        g_reports.push_back(r.get_msg());
        return;
    }
    sc_report_handler::default_handler(r, a);
}

using Handler = std::function<tlm_sync_enum(tlm_generic_payload&, tlm_phase&, sc_time&)>;

class TestInitiator : public sc_module, public tlm_bw_transport_if<> {
public:
    tlm_initiator_socket<> socket;
    Handler on_bw;  // default: TLM_ACCEPTED
    std::function<void()> script;

    SC_HAS_PROCESS(TestInitiator);
    explicit TestInitiator(sc_module_name n) : sc_module(n), socket("socket") {
        socket.bind(*this);
        SC_THREAD(run);
    }
    tlm_sync_enum fw(tlm_generic_payload& t, tlm_phase ph, sc_time d = SC_ZERO_TIME) {
        return socket->nb_transport_fw(t, ph, d);
    }
    tlm_sync_enum fw_phase(tlm_generic_payload& t, tlm_phase& ph, sc_time d = SC_ZERO_TIME) {
        return socket->nb_transport_fw(t, ph, d);
    }
    tlm_sync_enum nb_transport_bw(tlm_generic_payload& t, tlm_phase& ph, sc_time& d) override {
        return on_bw ? on_bw(t, ph, d) : TLM_ACCEPTED;
    }
    void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

private:
    void run() {
        if (script) script();
    }
};

class TestTarget : public sc_module, public tlm_fw_transport_if<> {
public:
    tlm_target_socket<> socket;
    Handler on_fw;  // default: BEGIN_REQ -> TLM_UPDATED/END_REQ, END_RESP -> TLM_COMPLETED
    std::function<void(tlm_generic_payload&)> on_b;

    explicit TestTarget(sc_module_name n) : sc_module(n), socket("socket") { socket.bind(*this); }
    tlm_sync_enum bw(tlm_generic_payload& t, tlm_phase ph, sc_time d = SC_ZERO_TIME) {
        return socket->nb_transport_bw(t, ph, d);
    }
    tlm_sync_enum nb_transport_fw(tlm_generic_payload& t, tlm_phase& ph, sc_time& d) override {
        if (on_fw) return on_fw(t, ph, d);
        if (ph == BEGIN_REQ) {
            ph = END_REQ;
            return TLM_UPDATED;
        }
        return ph == END_RESP ? TLM_COMPLETED : TLM_ACCEPTED;
    }
    void b_transport(tlm_generic_payload& t, sc_time&) override {
        if (on_b) on_b(t);
        else t.set_response_status(TLM_OK_RESPONSE);
    }
    bool get_direct_mem_ptr(tlm_generic_payload&, tlm_dmi&) override { return false; }
    unsigned transport_dbg(tlm_generic_payload&) override { return 0; }
};

class NullMm : public tlm_mm_interface {
public:
    void free(tlm_generic_payload*) override { ++freed; }
    int freed = 0;
};

// A well-formed 4-byte read, as an initiator must present it.
struct Payload {
    tlm_generic_payload p;
    unsigned char data[16] = {};
    unsigned char be[4] = {0xff, 0x00, 0xff, 0xff};
    explicit Payload(tlm_mm_interface* mm = nullptr, std::uint64_t addr = 0x40) : p(mm) { fresh(addr); }
    void fresh(std::uint64_t addr = 0x40) {
        p.set_command(TLM_READ_COMMAND);
        p.set_address(addr);
        p.set_data_ptr(data);
        p.set_data_length(4);
        p.set_streaming_width(4);
        p.set_byte_enable_ptr(nullptr);
        p.set_byte_enable_length(0);
        p.set_dmi_allowed(false);
        p.set_response_status(TLM_INCOMPLETE_RESPONSE);
    }
    tlm_generic_payload& operator*() { return p; }
};

struct Scenario {
    std::string name;
    bool clean = false;  // expect no violation at all
    Rule rule = Rule::PhaseSequence;
    std::unique_ptr<TestInitiator> init;
    std::unique_ptr<ProtocolChecker> check;
    std::unique_ptr<TestTarget> tgt;
    std::vector<std::unique_ptr<Payload>> payloads;
    NullMm mm;
    Payload& payload() {
        payloads.push_back(std::make_unique<Payload>());
        return *payloads.back();
    }
};

std::vector<std::unique_ptr<Scenario>> g_all;

Scenario& scenario(const std::string& name, Rule rule, bool clean = false) {
    g_all.push_back(std::make_unique<Scenario>());
    Scenario& s = *g_all.back();
    const std::string id = "s" + std::to_string(g_all.size());
    s.name = name;
    s.rule = rule;
    s.clean = clean;
    s.init = std::make_unique<TestInitiator>((id + "_initiator").c_str());
    s.check = std::make_unique<ProtocolChecker>((id + "_checker").c_str());
    s.tgt = std::make_unique<TestTarget>((id + "_target").c_str());
    s.init->socket.bind(s.check->target);
    s.check->initiator.bind(s.tgt->socket);
    return s;
}

const sc_time ns(1, SC_NS);

// One complete, legal 4-phase transaction on an otherwise idle socket.
void full_transaction(Scenario& s, Payload& x) {
    s.init->fw(*x, BEGIN_REQ);
    wait(ns);
    x.p.set_response_status(TLM_OK_RESPONSE);
    s.tgt->bw(*x, BEGIN_RESP);
    wait(ns);
    s.init->fw(*x, END_RESP);
}

void build_rule_scenarios() {
    {
        Scenario& s = scenario("END_RESP before BEGIN_RESP", Rule::PhaseSequence);
        Payload& a = s.payload();
        s.init->script = [&s, &a] {
            s.init->fw(*a, BEGIN_REQ);
            wait(ns);
            s.init->fw(*a, END_RESP);
        };
    }
    {
        Scenario& s = scenario("END_REQ sent on the forward path", Rule::WrongPath);
        Payload& a = s.payload();
        s.tgt->on_fw = [](tlm_generic_payload&, tlm_phase&, sc_time&) { return TLM_ACCEPTED; };
        s.init->script = [&s, &a] {
            s.init->fw(*a, BEGIN_REQ);
            wait(ns);
            s.init->fw(*a, END_REQ);
        };
    }
    {
        Scenario& s = scenario("a phase outside the base protocol", Rule::UnknownPhase);
        Payload& a = s.payload();
        s.tgt->on_fw = [](tlm_generic_payload&, tlm_phase& ph, sc_time&) {
            if (ph == BEGIN_REQ) {
                ph = END_REQ;
                return TLM_UPDATED;
            }
            return TLM_ACCEPTED;
        };
        s.init->script = [&s, &a] {
            s.init->fw(*a, BEGIN_REQ);
            wait(ns);
            s.init->fw(*a, BOGUS_PHASE);
        };
    }
    {
        Scenario& s = scenario("TLM_UPDATED with END_RESP in reply to BEGIN_REQ", Rule::ReturnValue);
        Payload& a = s.payload();
        s.tgt->on_fw = [](tlm_generic_payload&, tlm_phase& ph, sc_time&) {
            ph = END_RESP;
            return TLM_UPDATED;
        };
        s.init->script = [&s, &a] { s.init->fw(*a, BEGIN_REQ); };
    }
    {
        Scenario& s = scenario("TLM_ACCEPTED with a changed phase in reply to BEGIN_RESP", Rule::ReturnValue);
        Payload& a = s.payload();
        s.init->on_bw = [](tlm_generic_payload&, tlm_phase& ph, sc_time&) {
            if (ph == BEGIN_RESP) ph = END_RESP;  // but claims TLM_ACCEPTED
            return TLM_ACCEPTED;
        };
        s.init->script = [&s, &a] {
            s.init->fw(*a, BEGIN_REQ);
            a.p.set_response_status(TLM_OK_RESPONSE);
            s.tgt->bw(*a, BEGIN_RESP);
        };
    }
    {
        Scenario& s = scenario("TLM_COMPLETED in reply to END_REQ", Rule::ReturnValue);
        Payload& a = s.payload();
        s.tgt->on_fw = [](tlm_generic_payload&, tlm_phase&, sc_time&) { return TLM_ACCEPTED; };
        s.init->on_bw = [](tlm_generic_payload&, tlm_phase&, sc_time&) { return TLM_COMPLETED; };
        s.init->script = [&s, &a] {
            s.init->fw(*a, BEGIN_REQ);
            wait(ns);
            s.tgt->bw(*a, END_REQ);
        };
    }
    {
        Scenario& s = scenario("TLM_UPDATED in reply to END_RESP", Rule::ReturnValue);
        Payload& a = s.payload();
        s.tgt->on_fw = [](tlm_generic_payload&, tlm_phase& ph, sc_time&) {
            if (ph == BEGIN_REQ) {
                ph = END_REQ;
                return TLM_UPDATED;
            }
            return TLM_UPDATED;  // END_RESP answered with TLM_UPDATED
        };
        s.init->script = [&s, &a] { full_transaction(s, a); };
    }
    {
        Scenario& s = scenario("second BEGIN_REQ before END_REQ", Rule::RequestExclusion);
        Payload& a = s.payload();
        Payload& b = s.payload();
        s.tgt->on_fw = [](tlm_generic_payload&, tlm_phase&, sc_time&) { return TLM_ACCEPTED; };
        s.init->script = [&s, &a, &b] {
            s.init->fw(*a, BEGIN_REQ);
            wait(ns);
            s.init->fw(*b, BEGIN_REQ);
        };
    }
    {
        Scenario& s = scenario("second BEGIN_RESP before END_RESP", Rule::ResponseExclusion);
        Payload& a = s.payload();
        Payload& b = s.payload();
        s.init->script = [&s, &a, &b] {
            s.init->fw(*a, BEGIN_REQ);
            s.init->fw(*b, BEGIN_REQ);
            wait(ns);
            a.p.set_response_status(TLM_OK_RESPONSE);
            b.p.set_response_status(TLM_OK_RESPONSE);
            s.tgt->bw(*a, BEGIN_RESP);
            s.tgt->bw(*b, BEGIN_RESP);
        };
    }
    {
        Scenario& s = scenario("BEGIN_RESP without a response status", Rule::ResponseStatus);
        Payload& a = s.payload();
        s.init->script = [&s, &a] {
            s.init->fw(*a, BEGIN_REQ);
            wait(ns);
            s.tgt->bw(*a, BEGIN_RESP);
            wait(ns);
            s.init->fw(*a, END_RESP);
        };
    }
    {
        Scenario& s = scenario("b_transport returns without a response status", Rule::ResponseStatus);
        Payload& a = s.payload();
        s.tgt->on_b = [](tlm_generic_payload&) {};
        s.init->script = [&s, &a] {
            sc_time d = SC_ZERO_TIME;
            s.init->socket->b_transport(*a, d);
        };
    }
    {
        Scenario& s = scenario("TLM_COMPLETED without a response status", Rule::ResponseStatus);
        Payload& a = s.payload();
        s.tgt->on_fw = [](tlm_generic_payload&, tlm_phase&, sc_time&) { return TLM_COMPLETED; };
        s.init->script = [&s, &a] { s.init->fw(*a, BEGIN_REQ); };
    }
    {
        Scenario& s = scenario("request sent with TLM_OK_RESPONSE already set", Rule::InitialStatus);
        Payload& a = s.payload();
        s.init->script = [&s, &a] {
            a.p.set_response_status(TLM_OK_RESPONSE);
            full_transaction(s, a);
        };
    }
    {
        Scenario& s = scenario("command outside READ/WRITE/IGNORE", Rule::Command);
        Payload& a = s.payload();
        s.init->script = [&s, &a] {
            a.p.set_command(tlm_command(3));  // in the enum's value range (0..3), but no command
            full_transaction(s, a);
        };
    }
    {
        Scenario& s = scenario("READ with data length 0", Rule::DataLength);
        Payload& a = s.payload();
        s.init->script = [&s, &a] {
            a.p.set_data_length(0);
            full_transaction(s, a);
        };
    }
    {
        Scenario& s = scenario("WRITE with a null data pointer", Rule::DataPointer);
        Payload& a = s.payload();
        s.init->script = [&s, &a] {
            a.p.set_command(TLM_WRITE_COMMAND);
            a.p.set_data_ptr(nullptr);
            full_transaction(s, a);
        };
    }
    {
        Scenario& s = scenario("streaming width 0", Rule::StreamingWidth);
        Payload& a = s.payload();
        s.init->script = [&s, &a] {
            a.p.set_streaming_width(0);
            full_transaction(s, a);
        };
    }
    {
        Scenario& s = scenario("byte enable 0x0f", Rule::ByteEnable);
        Payload& a = s.payload();
        s.init->script = [&s, &a] {
            a.be[2] = 0x0f;
            a.p.set_byte_enable_ptr(a.be);
            a.p.set_byte_enable_length(4);
            full_transaction(s, a);
        };
    }
    {
        Scenario& s = scenario("byte-enable pointer with length 0", Rule::ByteEnable);
        Payload& a = s.payload();
        s.init->script = [&s, &a] {
            a.p.set_byte_enable_ptr(a.be);
            a.p.set_byte_enable_length(0);
            full_transaction(s, a);
        };
    }
    {
        Scenario& s = scenario("request sent with DMI allowed", Rule::DmiAllowed);
        Payload& a = s.payload();
        s.init->script = [&s, &a] {
            a.p.set_dmi_allowed(true);
            full_transaction(s, a);
        };
    }
    {
        Scenario& s = scenario("target changes the data length before BEGIN_RESP", Rule::AttributeModified);
        Payload& a = s.payload();
        s.init->script = [&s, &a] {
            s.init->fw(*a, BEGIN_REQ);
            wait(ns);
            a.p.set_data_length(2);
            a.p.set_response_status(TLM_OK_RESPONSE);
            s.tgt->bw(*a, BEGIN_RESP);
            wait(ns);
            s.init->fw(*a, END_RESP);
        };
    }
    {
        Scenario& s = scenario("BEGIN_REQ with a payload still in flight", Rule::PayloadReuse);
        Payload& a = s.payload();
        s.init->script = [&s, &a] {
            s.init->fw(*a, BEGIN_REQ);  // END_REQ on the return path: the request phase is over
            wait(ns);
            s.init->fw(*a, BEGIN_REQ);  // but the transaction has not completed
        };
    }
    {
        Scenario& s = scenario("memory-managed payload sent without acquire", Rule::MemoryManager);
        s.payloads.push_back(std::make_unique<Payload>(&s.mm));
        Payload& a = *s.payloads.back();
        s.init->script = [&s, &a] { full_transaction(s, a); };
    }
    {
        Scenario& s = scenario("memory-managed payload released before END_RESP", Rule::MemoryManager);
        s.payloads.push_back(std::make_unique<Payload>(&s.mm));
        Payload& a = *s.payloads.back();
        s.init->script = [&s, &a] {
            a.p.acquire();
            s.init->fw(*a, BEGIN_REQ);
            wait(ns);
            a.p.set_response_status(TLM_OK_RESPONSE);
            s.tgt->bw(*a, BEGIN_RESP);
            a.p.release();  // too early: END_RESP still to come
            wait(ns);
            s.init->fw(*a, END_RESP);
        };
    }
    {
        Scenario& s = scenario("END_REQ timed before BEGIN_REQ", Rule::TimeOrder);
        Payload& a = s.payload();
        s.tgt->on_fw = [](tlm_generic_payload&, tlm_phase& ph, sc_time& d) {
            if (ph == BEGIN_REQ) {
                ph = END_REQ;
                d = SC_ZERO_TIME;  // BEGIN_REQ was annotated +5 ns
                return TLM_UPDATED;
            }
            return TLM_COMPLETED;
        };
        s.init->script = [&s, &a] {
            s.init->fw(*a, BEGIN_REQ, sc_time(5, SC_NS));
            wait(sc_time(10, SC_NS));
            a.p.set_response_status(TLM_OK_RESPONSE);
            s.tgt->bw(*a, BEGIN_RESP);
            wait(ns);
            s.init->fw(*a, END_RESP);
        };
    }
}

// Every legal path: END_REQ backward or on the return, BEGIN_RESP backward or on the return,
// END_REQ skipped, TLM_COMPLETED from either side, pipelined requests answered out of order,
// a response sent from inside END_RESP, payload reuse after completion, b_transport, IGNORE.
void build_clean_scenario() {
    Scenario& s = scenario("every legal base-protocol path", Rule::PhaseSequence, true);
    auto mode = std::make_shared<int>(0);
    auto next_resp = std::make_shared<Payload*>(nullptr);
    Scenario* sp = &s;
    s.tgt->on_fw = [mode, next_resp, sp](tlm_generic_payload& t, tlm_phase& ph, sc_time& d) {
        if (ph == END_RESP) {
            if (*next_resp) {  // the next response goes out from inside END_RESP
                Payload* n = *next_resp;
                *next_resp = nullptr;
                n->p.set_response_status(TLM_OK_RESPONSE);
                sp->tgt->bw(**n, BEGIN_RESP);
            }
            return *mode == 9 ? TLM_ACCEPTED : TLM_COMPLETED;
        }
        switch (*mode) {
            case 0: return TLM_ACCEPTED;  // END_REQ later on the backward path
            case 1: ph = END_REQ; d += sc_time(2, SC_NS); return TLM_UPDATED;
            case 2:
                t.set_response_status(TLM_OK_RESPONSE);
                ph = BEGIN_RESP;
                return TLM_UPDATED;
            case 3: t.set_response_status(TLM_OK_RESPONSE); return TLM_COMPLETED;
            default: ph = END_REQ; return TLM_UPDATED;
        }
    };
    auto ibw = std::make_shared<int>(0);
    s.init->on_bw = [ibw](tlm_generic_payload&, tlm_phase& ph, sc_time&) {
        if (ph != BEGIN_RESP) return TLM_ACCEPTED;
        if (*ibw == 1) {
            ph = END_RESP;
            return TLM_UPDATED;
        }
        return *ibw == 2 ? TLM_COMPLETED : TLM_ACCEPTED;
    };
    Payload& a = s.payload();
    Payload& b = s.payload();
    Payload& c = s.payload();
    s.init->script = [&s, &a, &b, &c, mode, ibw, next_resp] {
        // 4 phases, each on its own call.
        *mode = 0;
        s.init->fw(*a, BEGIN_REQ);
        wait(ns);
        s.tgt->bw(*a, END_REQ);
        a.p.set_response_status(TLM_OK_RESPONSE);
        s.tgt->bw(*a, BEGIN_RESP);
        s.init->fw(*a, END_RESP);
        // END_REQ on the return path (annotated), BEGIN_RESP answered with TLM_UPDATED/END_RESP.
        a.fresh();
        *mode = 1;
        *ibw = 1;
        s.init->fw(*a, BEGIN_REQ, sc_time(1, SC_NS));
        wait(sc_time(5, SC_NS));
        a.p.set_response_status(TLM_OK_RESPONSE);
        s.tgt->bw(*a, BEGIN_RESP);
        // BEGIN_RESP on the return path of BEGIN_REQ (END_REQ implied).
        a.fresh();
        *mode = 2;
        *ibw = 0;
        tlm_phase ph = BEGIN_REQ;
        s.init->fw_phase(*a, ph);
        s.init->fw(*a, END_RESP);
        // TLM_COMPLETED on BEGIN_REQ.
        a.fresh();
        *mode = 3;
        s.init->fw(*a, BEGIN_REQ);
        // BEGIN_RESP without END_REQ, initiator completes it.
        a.fresh();
        *mode = 0;
        *ibw = 2;
        s.init->fw(*a, BEGIN_REQ);
        wait(ns);
        a.p.set_response_status(TLM_GENERIC_ERROR_RESPONSE);
        s.tgt->bw(*a, BEGIN_RESP);
        // Pipelined: three requests accepted, answered c, a, b; b's BEGIN_RESP from inside c's END_RESP.
        a.fresh(0x00);
        b.fresh(0x10);
        c.fresh(0x20);
        *mode = 4;
        *ibw = 0;
        for (Payload* x : {&a, &b, &c}) {
            s.init->fw(**x, BEGIN_REQ);
            wait(ns);
        }
        c.p.set_response_status(TLM_OK_RESPONSE);
        s.tgt->bw(*c, BEGIN_RESP);
        s.init->fw(*c, END_RESP);
        a.p.set_response_status(TLM_OK_RESPONSE);
        s.tgt->bw(*a, BEGIN_RESP);
        *next_resp = &b;
        s.init->fw(*a, END_RESP);  // b's BEGIN_RESP happens inside this call
        wait(ns);
        *mode = 9;  // END_RESP answered with TLM_ACCEPTED
        s.init->fw(*b, END_RESP);
        // Byte enables, a WRITE, an IGNORE with length 0, and b_transport.
        a.fresh();
        a.p.set_command(TLM_WRITE_COMMAND);
        a.p.set_byte_enable_ptr(a.be);
        a.p.set_byte_enable_length(4);
        *mode = 3;
        s.init->fw(*a, BEGIN_REQ);
        a.fresh();
        a.p.set_command(TLM_IGNORE_COMMAND);
        a.p.set_data_length(0);
        s.init->fw(*a, BEGIN_REQ);
        a.fresh();
        sc_time d = SC_ZERO_TIME;
        s.init->socket->b_transport(*a, d);
    };
}

int check(bool ok, const std::string& what) {
    std::printf("%s: %s\n", ok ? "PASS" : "FAIL", what.c_str());
    return ok ? 0 : 1;
}

}  // namespace

int sc_main(int, char**) {
    sc_report_handler::set_handler(capture);
    sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
    build_rule_scenarios();
    build_clean_scenario();
    sc_start();

    int fails = 0;
    std::vector<bool> covered(std::size_t(Rule::kCount), false);
    for (const auto& sp : g_all) {
        const Scenario& s = *sp;
        const ProtocolChecker& c = *s.check;
        if (s.clean) {
            fails += check(c.violations() == 0 && c.in_flight() == 0 && c.transactions() == 11,
                           s.name + ": no violation, " + std::to_string(c.transactions()) +
                               " transactions, none left in flight" +
                               (c.violations() ? " (got: " + c.last_violation() + ")" : ""));
            continue;
        }
        const std::string tag = std::string("[") + vp::tlmcheck::to_string(s.rule) + "]";
        const bool ok = c.violations() == 1 && c.violations(s.rule) == 1 &&
                        c.last_violation().find(tag) != std::string::npos &&
                        c.last_violation().find(c.name()) != std::string::npos;
        fails += check(ok, s.name + " -> " + tag + " reported once" +
                               (c.violations() ? " (" + std::to_string(c.violations()) + ": " + c.last_violation() + ")"
                                               : " (nothing reported)"));
        covered[std::size_t(s.rule)] = true;
    }
    for (std::size_t r = 0; r < covered.size(); ++r)
        fails += check(covered[r], std::string("rule ") + vp::tlmcheck::to_string(Rule(r)) + " has a violating scenario");
    std::uint64_t total = 0;
    for (const auto& sp : g_all) total += sp->check->violations();
    fails += check(g_reports.size() == total, "every violation went through SC_REPORT_ERROR (" +
                                                   std::to_string(g_reports.size()) + " reports)");
    std::printf("%s\n", fails ? "FAILED" : "ALL PASSED");
    return fails ? 1 : 0;
}
