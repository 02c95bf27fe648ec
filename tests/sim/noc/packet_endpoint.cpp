// A core that speaks packets directly (the ASIP dataflow imitator's path): it attaches a
// PacketSink to its node, sends read/write request packets with a transaction id and no TLM
// payload, and gets one response packet per request from the DRAM interface node, with the
// same transaction id, the right type and the right flit count F(p).
#include <cstdio>
#include <map>

#include "at_helpers.h"
#include "models/common/protocol_checker.h"
#include "models/noc/dram_interface.h"

using namespace vp::noc;
using namespace sc_core;

namespace {
struct PacketCore : sc_module, PacketSink {
    NocSystem& noc;
    unsigned node, dram;
    std::map<std::uint32_t, PacketType> expect;  // txn -> response type
    unsigned ok = 0, bad = 0;
    SC_HAS_PROCESS(PacketCore);
    PacketCore(sc_module_name n, NocSystem& s, unsigned nd, unsigned dr) : sc_module(n), noc(s), node(nd), dram(dr) {
        noc.attach(node, this);
        SC_THREAD(run);
    }
    void run() {
        for (std::uint32_t k = 0; k < 20; ++k) {
            const bool write = k % 3 == 0;
            expect[k] = write ? PacketType::kWriteAck : PacketType::kReadResponse;
            noc.send(node, dram, write ? PacketType::kWriteRequest : PacketType::kReadRequest, 16 + 16 * (k % 4), k,
                     0x40 * k, nullptr);
            wait(5, SC_NS);
        }
    }
    void deliver(unsigned, std::uint32_t, const PacketInfo& info, std::uint64_t) override {
        auto it = expect.find(info.txn_id);
        const std::uint32_t data = info.type == PacketType::kReadResponse ? info.payload_bytes : 0;
        const bool good = it != expect.end() && it->second == info.type && info.src == dram &&
                          info.num_flits == packet_flits(data, noc.network().params().flit_width_bits, 1) &&
                          info.payload_bytes == 16 + 16 * (info.txn_id % 4);
        if (good) {
            ++ok;
            expect.erase(it);
        } else {
            ++bad;
        }
    }
};
}  // namespace

int sc_main(int, char**) {
    NocParams p;
    p.width = 3;
    p.height = 2;
    p.flit_width_bits = 32;
    p.validate("noc");
    NocSystem noc("noc", p, sc_time(1, SC_NS));
    DramInterface di("dram_if", noc, 5);
    noc_test::MemStub mem("mem", sc_time(20, SC_NS), 1 << 12);
    vp::tlmcheck::CheckerSet tlm(true);  // base-protocol checker on the binding
    tlm.bind(di.socket, mem.socket, "tlmcheck_dram_if");
    PacketCore core("core", noc, 0, 5);
    sc_start(100, SC_US);
    noc.check();
    std::printf("responses ok %u, bad %u, missing %zu\n", core.ok, core.bad, core.expect.size());
    int fails = 0;
    fails += noc_test::check(core.ok == 20 && core.bad == 0 && core.expect.empty(), "one correct response per request");
    fails += noc_test::check(di.outstanding() == 0 && noc.idle(), "nothing left in flight");
    return fails ? 1 : 0;
}
