#include "mapper/waving/mapping_report.h"

#include <cstdio>
#include <string>

namespace vp::mapper::waving {

namespace {

nlohmann::json tiling_json(const tiling::Tiling& t, const tiling::TilingCost& c, const tiling::ConvShape& s) {
    return nlohmann::json{{"T_of", t.t_of},
                          {"T_if", t.t_if},
                          {"T_ox", t.t_ox},
                          {"T_ix", t.t_ix(s.sx, s.wkx())},
                          {"S_of", c.s_of},
                          {"S_if", c.s_if},
                          {"S_ox", c.s_ox},
                          {"sram_words", c.sram_words_used},
                          {"n_dram_init_words", c.n_dram_init},
                          {"n_dram_par_words", c.n_dram_par},
                          {"c_comp", c.c_comp},
                          {"c_pfetch", c.c_pfetch},
                          {"c_dram_par", c.c_dram_par},
                          {"c_outer_loop", c.c_outer_loop},
                          {"c_inner_loop", c.c_inner_loop},
                          {"c_total", c.c_total}};
}

}  // namespace

nlohmann::json to_json(const LayerMapping& m) {
    nlohmann::json j;
    j["name"] = m.name;
    j["mapped"] = m.mapped;
    if (!m.mapped) {
        j["skip_reason"] = m.skip_reason;
        return j;
    }
    const auto& s = m.shape;
    j["shape"] = {{"groups", s.groups}, {"N_of", s.n_of}, {"N_if", s.n_if}, {"N_ox", s.Q}, {"N_oy", s.P},
                  {"N_kx", s.kx},       {"N_ky", s.ky},   {"s_x", s.sx},    {"s_y", s.sy}};
    if (s.dx != 1 || s.dy != 1) j["shape"]["dilation"] = {s.dy, s.dx};
    j["slices"] = {{"T_of", m.t_of}, {"T_ox", m.t_ox}, {"S_of", m.s_of}, {"S_ox", m.s_ox}, {"count", m.n_slices}};
    j["tiling"] = tiling_json(m.tiling_full, m.cost_full, s);
    if (m.has_rem_of) j["tiling_last_of_slice"] = tiling_json(m.tiling_rem, m.cost_rem, s);
    j["k"] = m.k;
    j["placement"] = m.placed_by_share ? "route-share" : "waving";
    j["cost_eq23"] = m.cost;
    nlohmann::json cores = nlohmann::json::array();
    for (const CoreWork& w : m.cores) {
        nlohmann::json runs = nlohmann::json::array();
        for (std::size_t i = 0; i < w.runs.size(); ++i) {
            const auto& r = w.runs[i];
            runs.push_back({{"group", r.group},
                            {"of", {r.of_begin, r.of_end}},
                            {"ox", {r.ox_begin, r.ox_end}},
                            {"ox_chunk", r.ox_chunk},
                            {"T_of", w.run_tilings[i].t_of},
                            {"T_if", w.run_tilings[i].t_if},
                            {"T_ox", w.run_tilings[i].t_ox}});
        }
        cores.push_back({{"core", w.core},
                         {"x", w.node.x},
                         {"y", w.node.y},
                         {"dram_if", w.dram_if},
                         {"hops", w.hops},
                         {"slices", {w.first_slice, w.end_slice}},
                         {"runs", runs},
                         {"cycles_wo_dram", w.totals.compute_cycles()},
                         {"cycles_with_dram", w.cycles_with_dram},
                         {"macs", w.totals.macs},
                         {"flits", w.totals.noc.flits},
                         {"packets", w.totals.noc.packets},
                         {"dram_bytes", w.totals.dram_bytes()}});
    }
    j["cores"] = cores;
    j["estimate"] = {{"cycles", m.est_cycles},
                     {"bank_factor", m.bank_factor},
                     {"max_core_cycles_wo_dram", m.max_core_cycles_wo_dram},
                     {"flits", m.flits},
                     {"packets", m.packets},
                     {"flit_hops", m.flit_hops},
                     {"dram_bytes", m.dram_bytes},
                     {"dram_init_bytes", m.dram_init_bytes},
                     {"dram_read_bytes", m.dram_read_bytes},
                     {"dram_write_bytes", m.dram_write_bytes},
                     {"macs", m.macs},
                     {"sram_words", m.sram_words}};
    j["energy_pj"] = {{"mac", m.energy.mac_pj},   {"sram", m.energy.sram_pj},     {"dram", m.energy.dram_pj},
                      {"noc", m.energy.noc_pj},   {"static", m.energy.static_pj}, {"total", m.energy.total_pj()}};
    j["search"] = {{"slice_sets", m.slice_sets}, {"tilings_evaluated", m.tilings_evaluated}};
    if (m.runner_up.k > 0)
        j["runner_up"] = {{"T_of", m.runner_up.t_of}, {"T_ox", m.runner_up.t_ox}, {"k", m.runner_up.k},
                          {"score", m.runner_up_score},
                          {"score_over_pick", m.runner_up_over_pick()},
                          {"near_tie", m.near_tie()}};
    if (m.ranked.size() > 1) {
        nlohmann::json r = nlohmann::json::array();
        for (const auto& c : m.ranked)
            r.push_back({{"T_of", c.choice.t_of}, {"T_ox", c.choice.t_ox}, {"k", c.choice.k}, {"score", c.score},
                         {"estimated_cycles", c.est_cycles}});
        j["ranked"] = r;
    }
    return j;
}

nlohmann::json to_json(const NetworkMapping& n) {
    nlohmann::json j;
    j["mapper"] = "tiling+waving";
    j["network"] = n.network;
    j["objective"] = tiling::to_string(n.objective);
    j["mode"] = to_string(n.mode);
    j["time_model"] = n.model;
    j["cores"] = n.n_cores;
    j["core_mhz"] = n.core_mhz;
    j["noc_mhz"] = n.noc_mhz;
    nlohmann::json layers = nlohmann::json::array();
    for (const auto& l : n.layers) layers.push_back(to_json(l));
    j["layers"] = layers;
    j["totals"] = {{"est_cycles", n.total_est_cycles()},
                   {"flits", n.total_flits()},
                   {"dram_bytes", n.total_dram_bytes()},
                   {"energy_pj", n.total_energy_pj()}};
    return j;
}

void print_table(std::ostream& os, const NetworkMapping& n) {
    char buf[320];
    os << "mesh mapping of " << n.network << " (" << tiling::to_string(n.objective) << ", " << to_string(n.mode)
       << ", " << n.n_cores << " cores, " << n.model << " time model)\n";
    std::snprintf(buf, sizeof buf, "%-12s %5s %5s %6s %5s %5s %5s %4s %14s %14s %12s %14s %12s\n", "layer", "T_of",
                  "T_ox", "slices", "T'of", "T'if", "T'ox", "k", "est_cycles", "cyc_wo_dram", "flits", "dram_bytes",
                  "energy_uJ");
    os << buf;
    for (const auto& l : n.layers) {
        if (!l.mapped) {
            std::snprintf(buf, sizeof buf, "%-12s (skipped: %s)\n", l.name.c_str(), l.skip_reason.c_str());
            os << buf;
            continue;
        }
        std::snprintf(buf, sizeof buf, "%-12s %5d %5d %6d %5d %5d %5d %4d %14.0f %14llu %12llu %14llu %12.2f\n",
                      l.name.c_str(), l.t_of, l.t_ox, l.n_slices, l.tiling_full.t_of, l.tiling_full.t_if,
                      l.tiling_full.t_ox, l.k, l.est_cycles, (unsigned long long)l.max_core_cycles_wo_dram,
                      (unsigned long long)l.flits, (unsigned long long)l.dram_bytes, l.energy.total_pj() * 1e-6);
        os << buf;
    }
    std::snprintf(buf, sizeof buf, "%-12s %57.0f %27llu %14llu %12.2f\n", "total", n.total_est_cycles(),
                  (unsigned long long)n.total_flits(), (unsigned long long)n.total_dram_bytes(),
                  n.total_energy_pj() * 1e-6);
    os << buf;
    if (const std::string nt = near_tie_text(n); !nt.empty()) os << "near ties: " << nt;
}

std::string near_tie_text(const NetworkMapping& n) {
    std::size_t mapped = 0;
    for (const auto& l : n.layers) mapped += l.mapped;
    return mapper::near_tie_text(n.near_tied(), mapped);
}

}  // namespace vp::mapper::waving
