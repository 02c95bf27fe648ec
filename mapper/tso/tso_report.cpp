#include "mapper/tso/tso_report.h"

#include <cstdio>
#include <string>

namespace vp::mapper::tso {

using nlohmann::json;

json to_json(const NmpParams& hw) {
    return json{{"n_tle", hw.n_tle},
                {"n_tlt", hw.n_tlt},
                {"mb0_bytes", hw.mb0_bytes},
                {"mb1_bytes", hw.mb1_bytes},
                {"mb2_bytes", hw.mb2_bytes},
                {"macs_per_cycle", hw.macs_per_cycle},
                {"clock_mhz", hw.clock_mhz},
                {"burst_bytes", hw.burst_bytes},
                {"sw_cycles_per_instr", hw.sw_cycles_per_instr},
                {"dma_max_outstanding", hw.dma_max_outstanding},
                {"dma_txn_bytes", hw.txn_bytes()},
                {"ring", {{"width_bytes", hw.ring.width_bytes}, {"hop_cycles", hw.ring.hop_cycles},
                          {"packet_flits", hw.ring.packet_flits}, {"buffer_flits", hw.ring.buffer_flits}}},
                {"dram", {{"preset", hw.dram.preset}, {"tck_ns", hw.dram.tck_ns}, {"burst_bytes", hw.dram.burst_bytes},
                          {"cas_ns", hw.dram.cas_ns()}, {"peak_bw_bytes_per_s", hw.dram.peak_bw_bytes_per_s},
                          {"banks", hw.dram.banks}, {"row_bytes", hw.dram.row_bytes}}}};
}

namespace {

json range_json(const Range& r) { return json::array({r.begin, r.count}); }

}  // namespace

json to_json(const ConvMapping& m) {
    const ConvShape& c = m.conv;
    const ChoiceCost& b = m.best;
    json tles = json::array();
    for (std::size_t t = 0; t < m.tle.size(); ++t) {
        json tlts = json::array();
        for (const auto& f : m.tlt[t]) tlts.push_back(range_json(f));
        tles.push_back(json{{"tle", t}, {"rows", range_json(m.tle[t].rows)}, {"filters", range_json(m.tle[t].filters)},
                            {"tlt_filters", tlts}});
    }
    json cand = json::object();
    for (TleSlicing p : kAllSlicingsExt)
        for (TltSchedule q : kAllSchedules) {
            const double v = m.candidates_s[int(p)][int(q)];
            if (p == TleSlicing::IFM_CH && v < 0) continue;  // not searched (tso.ifm_channel_slicing off)
            cand[std::string(to_string(p)) + "/" + to_string(q)] = v < 0 ? json(nullptr) : json(v);
        }
    const CostCounts& k = b.counts;
    const CostTimes& t = b.times;
    json j{{"layer", m.layer_name},
           {"index", m.layer_index},
           {"shape", {{"groups", c.groups}, {"N", c.N}, {"M", c.M}, {"H", c.H}, {"W", c.W}, {"R", c.R}, {"S", c.S},
                      {"stride", {c.stride_h, c.stride_w}}, {"pad_top_left", {c.pad_top, c.pad_left}},
                      {"P", c.P}, {"Q", c.Q}, {"elem_bytes", c.elem_bytes}}},
           {"slicing", to_string(b.slicing)},
           {"schedule", to_string(b.schedule)},
           {"tile", {{"T_M", b.tile.t_m}, {"T_N", b.tile.t_n}, {"T_R", b.tile.t_r}, {"T_C", b.tile.t_c},
                     {"T_H", b.tile.t_h}, {"T_L", b.tile.t_l}}},
           {"tle", tles},
           {"alpha", {{"in", k.in_loads}, {"w", k.w_loads}, {"out", k.out_stores}}},
           {"bursts", {{"in", k.in_bursts}, {"w", k.w_bursts}, {"out", k.out_bursts}, {"total", k.bursts()}}},
           {"bytes", {{"in", k.in_bytes}, {"w", k.w_bytes}, {"out", k.out_bytes}, {"total", k.bytes()}}},
           {"macs", k.macs},
           {"mac_cycles", k.mac_cycles},
           {"sw_instr", k.sw_instr},
           {"estimate", {{"t_mac_s", t.t_mac_s}, {"t_dram_s", t.t_dram_s}, {"t_dram_cas_s", t.t_dram_cas_s},
                         {"t_sw_s", t.t_sw_s}, {"total_s", t.total_s}, {"total_cycles", t.total_cycles}}},
           {"candidates_s", cand},
           {"fallback", m.fallback}};
    if (c.dilation_h != 1 || c.dilation_w != 1) j["shape"]["dilation"] = {c.dilation_h, c.dilation_w};
    if (b.slicing == TleSlicing::IFM_CH) {
        for (std::size_t t = 0; t < m.tle.size(); ++t) j["tle"][t]["chans"] = range_json(m.tle[t].chans);
        j["ring"] = {{"bytes", k.ring_bytes},
                     {"busiest_link_bytes", k.ring_link_bytes_max},
                     {"critical_tle_sent_bytes", k.tle_ring_bytes},
                     {"critical_tle_messages", k.tle_ring_msgs},
                     {"reduce_cycles", k.reduce_cycles}};
        j["estimate"]["t_ring_s"] = t.t_ring_s;
    }
    if (k.port_load_bytes + k.port_store_bytes > 0 && t.t_fabric_s > 0) {  // nmp.fabric.enabled
        j["fabric"] = {{"busiest_port_load_bytes", k.port_load_bytes},
                       {"busiest_port_store_bytes", k.port_store_bytes},
                       {"busiest_port_transfers", k.tlt_syncs}};
        j["estimate"]["t_fabric_s"] = t.t_fabric_s;
    }
    if (!m.shared_with.empty()) j["shared_with"] = m.shared_with;
    return j;
}

json to_json(const TsoResult& r) {
    json convs = json::array();
    double t_mac = 0, t_dram = 0, t_sw = 0;
    std::uint64_t bursts = 0, bytes = 0;
    for (const auto& c : r.convs) {
        convs.push_back(to_json(c));
        t_mac += c.best.times.t_mac_s;
        t_dram += c.best.times.t_dram_s;
        t_sw += c.best.times.t_sw_s;
        bursts += c.best.counts.bursts();
        bytes += c.best.counts.bytes();
    }
    return json{{"mapper", "tso"},
                {"network", r.network},
                {"precision_bits", r.precision_bits},
                {"dram_model", model_of(r.options)->name()},
                {"fixed_slicing", r.options.fixed_slicing ? json(to_string(*r.options.fixed_slicing)) : json(nullptr)},
                {"fixed_schedule", r.options.fixed_schedule ? json(to_string(*r.options.fixed_schedule)) : json(nullptr)},
                {"threads", r.options.threads},
                {"nmp", to_json(r.hw)},
                {"unique_shapes", r.unique_shapes},
                {"convs", convs},
                {"skipped", r.skipped},
                {"totals", {{"convs", r.convs.size()}, {"macs", r.total_macs()}, {"t_mac_s", t_mac},
                            {"t_dram_s", t_dram}, {"t_sw_s", t_sw}, {"total_s", r.total_s()},
                            {"bursts", bursts}, {"bytes", bytes}}}};
}

void print_table(std::ostream& os, const TsoResult& r) {
    char line[512];
    std::snprintf(line, sizeof line, "TSO mapping of %s (%d-bit, time model %s, %d TLE x %d TLT)\n", r.network.c_str(),
                  r.precision_bits, model_of(r.options)->name(), r.hw.n_tle, r.hw.n_tlt);
    os << line;
    std::snprintf(line, sizeof line, "%-28s %-7s %-3s %5s %5s %4s %4s %10s %10s %12s %10s %10s %10s\n", "layer",
                  "slicing", "sch", "T_M", "T_N", "T_R", "T_C", "bursts", "kbytes", "MACs", "T_MAC us", "T_DRAM us",
                  "total us");
    os << line;
    for (const auto& c : r.convs) {
        const auto& b = c.best;
        std::string name = c.layer_name.size() > 28 ? c.layer_name.substr(0, 25) + "..." : c.layer_name;
        std::snprintf(line, sizeof line, "%-28s %-7s %-3s %5d %5d %4d %4d %10llu %10.1f %12llu %10.2f %10.2f %10.2f%s\n",
                      name.c_str(), to_string(b.slicing), to_string(b.schedule), b.tile.t_m, b.tile.t_n, b.tile.t_r,
                      b.tile.t_c, (unsigned long long)b.counts.bursts(), double(b.counts.bytes()) / 1e3,
                      (unsigned long long)b.counts.macs, b.times.t_mac_s * 1e6, b.times.t_dram_s * 1e6,
                      b.times.total_s * 1e6, c.fallback ? " (fallback)" : "");
        os << line;
    }
    std::snprintf(line, sizeof line, "total: %zu convs (%d distinct shapes), %llu MACs, %.3f ms estimated\n",
                  r.convs.size(), r.unique_shapes, (unsigned long long)r.total_macs(), r.total_s() * 1e3);
    os << line;
}

}  // namespace vp::mapper::tso
