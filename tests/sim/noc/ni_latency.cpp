// One core reads and then writes through the NoC to a fixed-latency memory at the far
// corner of a 3x3 mesh; BEGIN_RESP times must equal the analytic end-to-end latency:
// request packet T0 + memory latency + response packet T0, with the clock crossings
// rounding up to the next NoC edge (requests, responses created by the memory side)
// and to the next core edge (BEGIN_RESP). NoC 1 GHz, core 500 MHz.
#include <cstdio>

#include "at_helpers.h"
#include "models/common/protocol_checker.h"
#include "models/noc/dram_interface.h"
#include "models/noc/network_interface.h"

using namespace vp::noc;
using namespace sc_core;

namespace {
std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }
}  // namespace

int sc_main(int, char**) {
    NocParams p;
    p.width = p.height = 3;
    p.flit_width_bits = 64;
    p.router_stages = 4;
    p.link_latency = 1;
    p.buffer_depth = 8;
    p.validate("noc");
    const sc_time tn(1, SC_NS), tc(2, SC_NS), mem_lat(10500, SC_PS);
    NocSystem noc("noc", p, tn);
    AddressMap map;
    map.default_node = 8;
    NetworkInterface ni("ni0", noc, 0, tc, map);
    DramInterface di("dram_if", noc, 8);
    noc_test::MemStub mem("mem", mem_lat, 1 << 16);
    noc_test::Core core("core", tc);
    vp::tlmcheck::CheckerSet tlm(true);  // base-protocol checker on every binding
    tlm.bind(core.socket, ni.socket, "tlmcheck_core");
    tlm.bind(di.socket, mem.socket, "tlmcheck_dram_if");
    std::vector<unsigned char> pattern(32);
    for (unsigned i = 0; i < 32; ++i) pattern[i] = static_cast<unsigned char>(3 * i + 1);
    for (unsigned i = 0; i < 32; ++i) mem.mem[0x100 + i] = pattern[i];
    core.ops.push_back({false, 0x100, pattern});                             // read 32 B
    core.ops.push_back({true, 0x200, std::vector<unsigned char>(32, 0x5a)});  // write 32 B
    sc_start(10, SC_US);
    noc.check();

    int fails = 0;
    fails += noc_test::check(core.done == 2 && core.errors == 0, "both transactions complete with correct data");
    fails += noc_test::check(mem.mem[0x200] == 0x5a && mem.mem[0x21f] == 0x5a, "write data reached memory");
    // Analytic timeline (ps). H = 4 hops, P = 4, L = 1.
    const std::uint64_t H = 4, P = 4, L = 1, TN = 1000, TC = 2000, MEM = 10500;
    auto t0 = [&](std::uint64_t flits) { return L + (H + 1) * (P - 1 + L) + (flits - 1); };
    const std::uint64_t f_hdr = 1, f_data = 1 + 32 * 8 / 64;
    for (int k = 0; k < 2; ++k) {
        const bool write = k == 1;
        const std::uint64_t start = core.begin_req[k].value();
        const std::uint64_t c0 = ceil_div(start, TN);
        const std::uint64_t c1 = c0 + t0(write ? f_data : f_hdr);    // request drained at the DRAM node
        const std::uint64_t resp_at = c1 * TN + MEM;                 // memory BEGIN_RESP
        const std::uint64_t c2 = ceil_div(resp_at, TN);              // response packet created
        const std::uint64_t c3 = c2 + t0(write ? f_hdr : f_data);    // response drained at the core's NI
        const std::uint64_t expect = ceil_div(c3 * TN, TC) * TC;     // next core edge
        std::printf("%s: BEGIN_REQ %llu ps, BEGIN_RESP %llu ps, expected %llu ps\n", write ? "write" : "read",
                    (unsigned long long)start, (unsigned long long)core.begin_resp[k].value(),
                    (unsigned long long)expect);
        fails += noc_test::check(core.begin_resp[k].value() == expect, "BEGIN_RESP at the analytic time");
    }
    const auto& tot = noc.network().totals();
    fails += noc_test::check(tot.term.flits_ejected == tot.flits_created && noc.idle(), "network drained");
    fails += noc_test::check(tot.flits_created == f_hdr + f_data + f_data + f_hdr, "flit counts F(p)");
    return fails ? 1 : 0;
}
