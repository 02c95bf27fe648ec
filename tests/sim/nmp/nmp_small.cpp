// The NMP model replays TSO mappings of a small network against the shared DDR3-1600
// controller. Checks: simulated MACs == workload MACs; DMA transactions == the mapper's
// CalBurstCount bursts (one transaction per burst when dma_txn_bytes = burst_bytes);
// bytes loaded/stored == the mapper's IN+W / OUT bytes == DRAM bytes requested == served;
// nothing in flight at the end; every layer takes at least its critical TLT's compute time;
// the tiles that reach the TLTs through their TLM sockets add up to the mapper's W / OUT bytes
// (each W and OUT tile belongs to one TLT) and to at least its IN bytes (an IN tile is
// multicast). A TLT's target socket on its own: MB0 / MB1 writes and MB2 reads counted, the
// ring mark, command and address errors, a tile larger than its memory.
#include <cstdio>
#include <exception>
#include <vector>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "mapper/common/errors.h"
#include "tests/sim/nmp/nmp_rig.h"

using namespace sc_core;
using namespace vp::mapper;

namespace {

int check(bool ok, const char* what) {
    std::printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
    return ok ? 0 : 1;
}

Network small_net() {
    nlohmann::json doc = {
        {"name", "nmp_small"},
        {"precision", 16},
        {"layers",
         {{{"name", "c1"}, {"type", "conv"}, {"C", 3}, {"K", 16}, {"H", 24}, {"W", 24}, {"R", 3}, {"S", 3},
           {"stride", 1}, {"pad", 1}},
          {{"name", "c2"}, {"type", "conv"}, {"C", 16}, {"K", 40}, {"H", 24}, {"W", 24}, {"R", 3}, {"S", 3},
           {"stride", 2}, {"pad", 1}},
          {{"name", "dw"}, {"type", "conv"}, {"C", 40}, {"K", 40}, {"H", 12}, {"W", 12}, {"R", 3}, {"S", 3},
           {"pad", 1}, {"groups", 40}},
          {{"name", "pw"}, {"type", "conv"}, {"C", 40}, {"K", 70}, {"H", 12}, {"W", 12}, {"R", 1}, {"S", 1}},
          {{"name", "fc"}, {"type", "fc"}, {"in", 300}, {"out", 10}}}}};
    return parse_network(doc, "nmp_small.json");
}

}  // namespace

int sc_main(int, char**) {
    int fails = 0;
    try {
        const Network net = small_net();
        const vp::nmp::NmpModelParams p = vp::test::default_nmp();
        tso::TsoOptions opt;
        const tso::TsoResult map = tso::run_tso(net, p.arch, opt);

        vp::test::NmpRig rig(p, map.convs);
        // A TLT of its own, driven by a bare initiator socket (bound before the run elaborates).
        vp::stats::Registry lone_root;
        vp::stats::Group lone_group(lone_root, "lone");
        vp::nmp::Tlt lone("lone_tlt", lone_group, "tlt", p.arch);
        struct Init : sc_module {
            tlm_utils::simple_initiator_socket<Init> socket{"socket"};
            explicit Init(sc_module_name n) : sc_module(n) {}
        } init("lone_init");
        init.socket.bind(lone.socket);
        rig.run();
        auto& root = rig.root;
        auto& dram = rig.dram;
        auto& nmp = rig.nmp;
        auto& pool = rig.pool;

        std::uint64_t bursts = 0, rd = 0, wr = 0, macs = 0;
        for (const auto& c : map.convs) {
            bursts += c.best.counts.bursts();
            rd += c.best.counts.in_bytes + c.best.counts.w_bytes;
            wr += c.best.counts.out_bytes;
            macs += net.layers[std::size_t(c.layer_index)].macs();
        }
        std::uint64_t dma_rd = 0, dma_wr = 0;
        for (int t = 0; t < nmp.n_tle(); ++t) {
            dma_rd += nmp.tle(t).dma().bytes_read();
            dma_wr += nmp.tle(t).dma().bytes_written();
        }
        std::printf("layer      est_cycles   sim_cycles   est/sim\n");
        bool lower_ok = true;
        for (std::size_t i = 0; i < map.convs.size(); ++i) {
            const auto& c = map.convs[i];
            const double sim = (nmp.layer_end()[i] - nmp.layer_start()[i]).to_seconds() / p.arch.cycle_s();
            std::printf("%-8s %12.0f %12.0f %9.3f   %s/%s\n", c.layer_name.c_str(), c.best.times.total_cycles, sim,
                        c.best.times.total_cycles / sim, tso::to_string(c.best.slicing),
                        tso::to_string(c.best.schedule));
            const double compute = double(c.best.counts.mac_cycles) +
                                   double(c.best.counts.sw_instr) * p.arch.sw_cycles_per_instr;
            if (sim + 1 < compute) lower_ok = false;
        }
        fails += check(nmp.done(), "every layer finished");
        fails += check(nmp.macs() == macs && macs == net.total_macs(), "simulated MACs == workload MACs");
        fails += check(nmp.dma_transactions() == bursts, "DMA transactions == mapper bursts (CalBurstCount)");
        fails += check(dma_rd == rd && dma_wr == wr, "DMA bytes == mapper IN+W / OUT bytes");
        fails += check(dram.bytes_requested() == rd + wr && dram.bytes_served() == rd + wr,
                       "DRAM bytes requested == served == DMA bytes");
        fails += check(dram.in_flight() == 0 && pool.in_use() == 0, "nothing left in flight");
        // Statistics: nmp.tle[i].tlt[j].macs add up to the workload MACs.
        const nlohmann::json st = root.to_json();
        std::uint64_t stat_macs = 0;
        for (int t = 0; t < p.arch.n_tle; ++t)
            for (int j = 0; j < p.arch.n_tlt; ++j)
                stat_macs += st.at("nmp").at("tle[" + std::to_string(t) + "]").at("tlt[" + std::to_string(j) + "]")
                                 .at("macs").at("value").get<std::uint64_t>();
        fails += check(stat_macs == macs, "stats nmp.tle[i].tlt[j].macs sum to the workload MACs");
        std::printf("%s\n", st.at("nmp").at("tle[0]").at("tlt[0]").dump().c_str());
        fails += check(lower_ok, "each layer takes at least its critical TLT's compute time");
        std::uint64_t in_bytes = 0, tlt_in = 0, tlt_w = 0, tlt_out = 0;
        for (const auto& c : map.convs) in_bytes += c.best.counts.in_bytes;
        for (int t = 0; t < p.arch.n_tle; ++t)
            for (int j = 0; j < p.arch.n_tlt; ++j) {
                const auto& g = st.at("nmp").at("tle[" + std::to_string(t) + "]").at("tlt[" + std::to_string(j) + "]");
                tlt_in += g.at("bytes_in").at("value").get<std::uint64_t>();
                tlt_w += g.at("bytes_w").at("value").get<std::uint64_t>();
                tlt_out += g.at("bytes_out").at("value").get<std::uint64_t>();
            }
        fails += check(tlt_w == rd - in_bytes && tlt_out == wr, "TLT sockets: W / OUT tile bytes == mapper W / OUT bytes");
        fails += check(tlt_in >= in_bytes && in_bytes > 0, "TLT sockets: IN bytes >= mapper IN bytes (multicast)");

        // The lone TLT's socket.
        std::vector<unsigned char> buf(std::size_t(p.arch.mb2_bytes) + 1);
        auto xfer = [&](tlm::tlm_command cmd, std::uint64_t addr, unsigned len, bool ring = false) {
            tlm::tlm_generic_payload t;
            vp::nmp::RingPartial mark;
            t.set_command(cmd);
            t.set_address(addr);
            t.set_data_ptr(buf.data());
            t.set_data_length(len);
            t.set_streaming_width(len);
            t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
            if (ring) t.set_extension(&mark);
            sc_time d = SC_ZERO_TIME;
            init.socket->b_transport(t, d);
            t.clear_extension(&mark);
            return t.get_response_status();
        };
        using vp::nmp::Tlt;
        fails += check(xfer(tlm::TLM_WRITE_COMMAND, Tlt::kMb0, 100) == tlm::TLM_OK_RESPONSE &&
                           xfer(tlm::TLM_WRITE_COMMAND, Tlt::kMb1, 30) == tlm::TLM_OK_RESPONSE &&
                           xfer(tlm::TLM_READ_COMMAND, Tlt::kMb2, 7) == tlm::TLM_OK_RESPONSE &&
                           xfer(tlm::TLM_READ_COMMAND, Tlt::kMb2, 5, true) == tlm::TLM_OK_RESPONSE,
                       "lone TLT: MB0/MB1 writes and MB2 reads answered OK");
        const nlohmann::json ls = lone_root.to_json().at("lone").at("tlt");
        auto v = [&](const char* k) { return ls.at(k).at("value").get<std::uint64_t>(); };
        fails += check(v("bytes_in") == 100 && v("bytes_w") == 30 && v("bytes_out") == 7 && v("bytes_ring") == 5,
                       "lone TLT: bytes_in 100, bytes_w 30, bytes_out 7, bytes_ring 5 (the ring mark)");
        fails += check(xfer(tlm::TLM_READ_COMMAND, Tlt::kMb0, 4) == tlm::TLM_COMMAND_ERROR_RESPONSE &&
                           xfer(tlm::TLM_WRITE_COMMAND, Tlt::kMb2, 4) == tlm::TLM_COMMAND_ERROR_RESPONSE,
                       "lone TLT: reading MB0 or writing MB2 is a command error");
        fails += check(xfer(tlm::TLM_WRITE_COMMAND, Tlt::kMb0 + 8, 4) == tlm::TLM_ADDRESS_ERROR_RESPONSE &&
                           xfer(tlm::TLM_WRITE_COMMAND, 3 * Tlt::kRegion, 4) == tlm::TLM_ADDRESS_ERROR_RESPONSE,
                       "lone TLT: an address inside a memory or outside the map is an address error");
        fails += check(v("bytes_in") == 100 && v("bytes_out") == 7, "lone TLT: errors count no bytes");
        bool too_big = false;
        try {
            xfer(tlm::TLM_READ_COMMAND, Tlt::kMb2, unsigned(p.arch.mb2_bytes) + 1);
        } catch (const vp::SimulationError& e) {
            too_big = std::string(e.what()).find("lone.tlt") != std::string::npos &&
                      std::string(e.what()).find("does not fit MB2") != std::string::npos;
        }
        fails += check(too_big, "lone TLT: an OUT tile larger than MB2 is an error naming the TLT");
        std::printf("simulated %.3f us, estimated %.3f us, DMA transactions %llu\n",
                    sc_time_stamp().to_seconds() * 1e6, map.total_s() * 1e6,
                    (unsigned long long)nmp.dma_transactions());
    } catch (const std::exception& e) {
        std::printf("FAIL: exception: %s\n", e.what());
        return 1;
    }
    return fails ? 1 : 0;
}
