// Requests that reach the DRAM controller at one instant on different socket ports are queued
// in port order, whatever order the kernel delivers them in. Each case sends two requests that
// arrive at the same time, once with port 0's call first and once with port 1's first (the
// controller's PEQ then hands them over in that order), and checks from outside the controller
// what port order implies:
//   - two reads to different rows of one closed bank: FR-FCFS serves the older one first, so
//     port 0's response comes first, at the same times in both call orders;
//   - a write on port 0 and a read of the same bytes on port 1: the read returns the written
//     data in both call orders (read-after-write in queue order).
//   - ports take turns at ties (round robin): a second pair of reads, 200 ns later, has port 1's
//     answered first.
// The controller once queued them in delivery order: the second call order served port 1 first
// and the read returned the old bytes. Both the per-bank and the reference scheduler are run.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "models/common/payload_pool.h"
#include "models/common/stats.h"
#include "models/dram/address_mapper.h"
#include "models/dram/dram_controller.h"

using namespace vp;
using namespace sc_core;
using namespace tlm;

namespace {

// One AT initiator per port: sends what it is given, records END_REQ and BEGIN_RESP.
struct Port : sc_module, tlm_bw_transport_if<> {
    tlm_initiator_socket<> socket;
    sc_time resp_at = SC_ZERO_TIME;  // the first response
    std::vector<sc_time> resps;      // every response
    std::vector<unsigned char> data;
    bool got_resp = false;
    explicit Port(sc_module_name n) : sc_module(n), socket("socket") { socket.bind(*this); }
    void send(tlm_generic_payload& t, const sc_time& at) {
        tlm_phase ph = BEGIN_REQ;
        sc_time d = at - sc_time_stamp();
        socket->nb_transport_fw(t, ph, d);
    }
    tlm_sync_enum nb_transport_bw(tlm_generic_payload& t, tlm_phase& ph, sc_time&) override {
        if (ph == BEGIN_RESP) {
            if (!got_resp) resp_at = sc_time_stamp();
            resps.push_back(sc_time_stamp());
            got_resp = true;
            data.assign(t.get_data_ptr(), t.get_data_ptr() + t.get_data_length());
            ph = END_RESP;
            return TLM_COMPLETED;
        }
        return TLM_ACCEPTED;  // END_REQ
    }
    void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
};

struct Case {
    std::string name;
    bool raw = false;          // write on port 0, read of the same bytes on port 1
    bool port1_first = false;  // call order at the PEQ
    bool reference = false;
    std::unique_ptr<dram::DramController> dram;
    std::unique_ptr<Port> p0, p1;
    tlm_generic_payload* t0 = nullptr;
    tlm_generic_payload* t1 = nullptr;
    tlm_generic_payload* u0 = nullptr;  // the second pair (bank cases)
    tlm_generic_payload* u1 = nullptr;
};

struct Driver : sc_module {
    std::vector<Case>* cases;
    PayloadPool* pool;
    std::uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;  // same bank, four different rows
    SC_HAS_PROCESS(Driver);
    Driver(sc_module_name n, std::vector<Case>& c, PayloadPool& p) : sc_module(n), cases(&c), pool(&p) {
        SC_THREAD(run);
    }
    // Both requests arrive at `at`; the case decides whose call reaches the controller first.
    static void send_pair(Case& c, tlm_generic_payload& on0, tlm_generic_payload& on1, const sc_time& at) {
        if (c.port1_first) {
            c.p1->send(on1, at);
            c.p0->send(on0, at);
        } else {
            c.p0->send(on0, at);
            c.p1->send(on1, at);
        }
    }
    void run() {
        const sc_time at(10, SC_NS);
        for (Case& c : *cases) {
            if (c.raw) {
                c.t0 = pool->acquire(TLM_WRITE_COMMAND, a0, 64);
                std::memset(c.t0->get_data_ptr(), 0xAB, 64);
                c.t1 = pool->acquire(TLM_READ_COMMAND, a0, 64);
            } else {
                c.t0 = pool->acquire(TLM_READ_COMMAND, a0, 64);
                c.t1 = pool->acquire(TLM_READ_COMMAND, a1, 64);
            }
            send_pair(c, *c.t0, *c.t1, at);
        }
        // The second tie: two more rows, so that each read again needs a PRE and an ACT.
        wait(100, SC_NS);
        const sc_time later(200, SC_NS);
        for (Case& c : *cases) {
            if (c.raw) continue;
            c.u0 = pool->acquire(TLM_READ_COMMAND, a2, 64);
            c.u1 = pool->acquire(TLM_READ_COMMAND, a3, 64);
            send_pair(c, *c.u0, *c.u1, later);
        }
    }
};

}  // namespace

int sc_main(int, char**) {
    sc_set_time_resolution(1, SC_PS);
    stats::Registry reg;
    PayloadPool pool;
    std::vector<Case> cases;
    const dram::DramParams base = dram::DramParams::from_preset("ddr3-1600", "dram.preset");
    for (bool reference : {false, true})
        for (bool raw : {false, true})
            for (bool port1_first : {false, true}) {
                Case c;
                c.name = std::string(raw ? "raw" : "bank") + (port1_first ? "_p1first" : "_p0first") +
                         (reference ? "_ref" : "_fast");
                c.raw = raw;
                c.port1_first = port1_first;
                c.reference = reference;
                dram::DramParams p = base;
                p.reference_scheduler = reference;
                p.refresh = false;
                c.dram = std::make_unique<dram::DramController>((c.name + "_dram").c_str(), p, reg);
                c.p0 = std::make_unique<Port>((c.name + "_p0").c_str());
                c.p1 = std::make_unique<Port>((c.name + "_p1").c_str());
                c.p0->socket.bind(c.dram->socket);  // port 0
                c.p1->socket.bind(c.dram->socket);  // port 1
                cases.push_back(std::move(c));
            }
    Driver drv("driver", cases, pool);
    const dram::AddressMapper& map = cases.front().dram->mapper();
    const dram::DramAddress first = map.decode(0);
    std::vector<std::uint64_t> rows{first.row};
    std::vector<std::uint64_t*> want{&drv.a1, &drv.a2, &drv.a3};
    for (std::uint64_t a = 64; rows.size() < 4; a += 64) {
        const dram::DramAddress d = map.decode(a);
        if (d.rank == first.rank && d.bank_group == first.bank_group && d.bank == first.bank &&
            std::find(rows.begin(), rows.end(), d.row) == rows.end()) {
            *want[rows.size() - 1] = a;
            rows.push_back(d.row);
        }
    }

    sc_start();

    int failures = 0;
    auto fail = [&](const Case& c, const char* what) {
        std::printf("FAIL %s: %s\n", c.name.c_str(), what);
        ++failures;
    };
    for (Case& c : cases) {
        c.dram->finish(sc_time_stamp());
        if (!c.p0->got_resp || !c.p1->got_resp) {
            fail(c, "a response is missing");
            continue;
        }
        if (c.raw) {
            bool ok = true;
            for (unsigned char b : c.p1->data) ok = ok && b == 0xAB;
            if (!ok) fail(c, "the read of port 1 did not return port 0's write of the same instant");
        } else if (!(c.p0->resp_at < c.p1->resp_at)) {
            fail(c, "port 1's read was served before port 0's (same instant, same bank)");
        } else if (c.p0->resps.size() != 2 || c.p1->resps.size() != 2) {
            fail(c, "a response of the second pair is missing");
        } else if (!(c.p1->resps[1] < c.p0->resps[1])) {
            fail(c, "at the second tie port 0 went first again (no round robin)");
        }
        std::printf("%s: port 0 response at %s, port 1 at %s\n", c.name.c_str(), c.p0->resp_at.to_string().c_str(),
                    c.p1->resp_at.to_string().c_str());
    }
    // The call order must not show in the timing.
    for (std::size_t i = 0; i + 1 < cases.size(); i += 2)
        if (cases[i].p0->resps != cases[i + 1].p0->resps || cases[i].p1->resps != cases[i + 1].p1->resps)
            fail(cases[i + 1], "response times depend on the order the requests were delivered in");
    std::printf("%zu cases, %d failures\n", cases.size(), failures);
    return failures == 0 ? 0 : 1;
}
