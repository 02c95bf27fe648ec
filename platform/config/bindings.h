#pragma once
// bind() functions: the YAML schema of every parameter struct, in one place per struct.
#include "mapper/common/errors.h"
#include "platform/config/binder.h"
#include "platform/config/platform_spec.h"

namespace vp::config {

// The largest int: a key bounded below only (a size, a count).
constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();

template <typename V>
void bind(V& v, SimParams& p) {
    v.field("max_time_ms", p.max_time_ms);
    v.field("progress_s", p.progress_s);
    v.field("threads", p.threads);
    v.field("check_tlm", p.check_tlm);
}

template <typename V>
void bind(V& v, stats::EpochParams& p) {
    v.field("epoch", p.epoch);
    v.field("timeline", p.timeline);
}

template <typename V>
void bind(V& v, trace::TraceParams& p) {
    v.field("enabled", p.enabled);
    v.field("start_ns", p.start_ns);
    v.field("end_ns", p.end_ns);
    v.field("signals", p.signals);
    v.choice("format", p.format, Choices<trace::TraceFormat>{{"vcd", trace::TraceFormat::Vcd}, {"fst", trace::TraceFormat::Fst}});
}

template <typename V>
void bind(V& v, dram::DramTiming& t) {
    v.field("CL", t.CL);
    v.field("CWL", t.CWL);
    v.field("tRCD", t.tRCD);
    v.field("tRP", t.tRP);
    v.field("tRAS", t.tRAS);
    v.field("tRC", t.tRC);
    v.field("tCCD_S", t.tCCD_S);
    v.field("tCCD_L", t.tCCD_L);
    v.field("tRRD_S", t.tRRD_S);
    v.field("tRRD_L", t.tRRD_L);
    v.field("tFAW", t.tFAW);
    v.field("tWR", t.tWR);
    v.field("tWTR_S", t.tWTR_S);
    v.field("tWTR_L", t.tWTR_L);
    v.field("tRTP", t.tRTP);
    v.field("tRTRS", t.tRTRS);
    v.field("tRFC", t.tRFC);
    v.field("tREFI", t.tREFI);
}

template <typename V>
void bind(V& v, dram::DramParams& p) {
    // The preset is read first and resets every other field; explicit keys then override it.
    v.field("preset", p.preset);
    if constexpr (V::kReading) {
        if (v.has("preset")) p = dram::DramParams::from_preset(p.preset, v.node().key("preset"));
    }
    v.field("standard", p.standard);
    v.field("tck_ps", p.tck_ps);
    v.field("bus_width_bits", p.bus_width_bits);
    v.field("burst_length", p.burst_length);
    v.field("channels", p.channels);
    v.field("ranks", p.ranks);
    v.field("bank_groups", p.bank_groups);
    v.field("banks_per_group", p.banks_per_group);
    v.field("rows", p.rows);
    v.field("columns", p.columns);
    v.choice("page_policy", p.page_policy,
             Choices<dram::PagePolicy>{{"open", dram::PagePolicy::Open}, {"closed", dram::PagePolicy::Closed}});
    v.choice("scheduler", p.scheduler,
             Choices<dram::Scheduler>{{"fcfs", dram::Scheduler::Fcfs}, {"frfcfs", dram::Scheduler::FrFcfs}});
    v.field("address_mapping", p.address_mapping);
    v.field("queue_depth", p.queue_depth);
    v.field("frontend_latency_ck", p.frontend_latency_ck);
    v.field("starvation_cap", p.starvation_cap);
    v.field("refresh", p.refresh);
    v.field("reference_scheduler", p.reference_scheduler);
    v.field("max_request_bytes", p.max_request_bytes);
    v.field("check_protocol", p.check_protocol);
    v.field("check_preset", p.check_preset);
    v.field("record_trace", p.record_trace);
    v.field("record_trace_format", p.record_trace_format);
    v.section("timing", [&](auto& s) { bind(s, p.t); });
}

template <typename V>
void bind(V& v, nmp::NmpModelParams& p) {
    auto& a = p.arch;
    // Accepted ranges: mapper/tso/nmp_params.cpp.
    v.field("n_tle", a.n_tle, Accepts{1, 1024});
    v.field("n_tlt", a.n_tlt, Accepts{1, 1024});
    v.field("mb0_bytes", a.mb0_bytes, Accepts{1, kIntMax});
    v.field("mb1_bytes", a.mb1_bytes, Accepts{1, kIntMax});
    v.field("mb2_bytes", a.mb2_bytes, Accepts{1, kIntMax});
    v.field("macs_per_cycle", a.macs_per_cycle, Accepts{1, kIntMax});
    v.field("clock_mhz", a.clock_mhz);
    v.field("burst_bytes", a.burst_bytes, Accepts{1, kIntMax});
    v.field("sw_cycles_per_instr", a.sw_cycles_per_instr, Accepts{0, kIntMax});
    v.field("dma_max_outstanding", a.dma_max_outstanding, Accepts{1, 1024});
    v.field("dma_txn_bytes", a.dma_txn_bytes, Accepts{0, 4096});
    v.field("dram_base", p.dram_base);
    v.section("ring", [&](auto& s) {
        s.field("width_bytes", a.ring.width_bytes, Accepts{1, 4096});
        s.field("hop_cycles", a.ring.hop_cycles, Accepts{0, 100000});
        s.field("packet_flits", a.ring.packet_flits, Accepts{1, 4096});
        s.field("buffer_flits", a.ring.buffer_flits, Accepts{2, 1 << 20});  // at least 2 x packet_flits
    });
    v.section("control", [&](auto& s) {
        s.field("dma_issue_cycles", a.control.dma_issue_cycles, Accepts{0, 100000});
        s.field("sync_cycles", a.control.sync_cycles, Accepts{0, 100000});
        s.field("loop_cycles", a.control.loop_cycles, Accepts{0, 100000});
    });
    v.field("double_buffer", a.double_buffer);
    // Written only when it differs from the defaults (fabric off), so that the resolved
    // configuration and its hash in stats.json stay those of before for runs without it.
    if (V::kReading || !a.fabric.is_default())
        v.section("fabric", [&](auto& s) {
            s.field("enabled", a.fabric.enabled);
            s.field("bytes_per_cycle", a.fabric.bytes_per_cycle, Accepts{1, 4096});
            s.field("latency_cycles", a.fabric.latency_cycles, Accepts{0, 100000});
        });
}

template <typename V>
void bind(V& v, mapper::tso::TsoCoefficients& c) {
    v.field("latency_scale", c.latency_scale);
    v.field("bus_scale", c.bus_scale);
    v.field("contention", c.contention);
    v.field("txn_ns", c.txn_ns);
    v.field("compute_scale", c.compute_scale);
    v.field("sync", c.sync);
    v.field("turnaround_ns", c.turnaround_ns);
    v.field("lockstep_transfers", c.lockstep_transfers);
    v.field("queue_scale", c.queue_scale);
}

template <typename V>
void bind(V& v, TsoConfig& t) {
    v.field("dram_model", t.dram_model);
    v.field("calibration", t.calibration);
    v.section("coefficients", [&](auto& s) { bind(s, t.coefficients); });
    v.field("fixed_slicing", t.fixed_slicing);
    v.field("fixed_schedule", t.fixed_schedule);
    v.field("fixed_tile", t.fixed_tile);
    v.field("fixed_layers", t.fixed_layers);
    v.field("ifm_channel_slicing", t.ifm_channel_slicing);
}

template <typename V>
void bind_nodes(V& v, const char* key, std::vector<mapper::waving::MeshNode>& nodes) {
    std::vector<std::pair<int, int>> tmp;
    for (const auto& n : nodes) tmp.emplace_back(n.x, n.y);
    v.points(key, tmp);
    if constexpr (V::kReading) {
        nodes.clear();
        for (const auto& [x, y] : tmp) nodes.push_back({x, y});
    }
}

template <typename V>
void bind(V& v, mapper::waving::MeshMapParams& m) {
    // Accepted ranges: mapper/waving/mesh_map_params.cpp, and models/noc/noc_params.cpp for what
    // the NoC takes from here (width x height at most 65535 nodes, at most 16 header flits).
    v.field("width", m.width, Accepts{1, 256});
    v.field("height", m.height, Accepts{1, 256});
    bind_nodes(v, "cores", m.cores);
    std::vector<mapper::waving::MeshNode> master{m.master};
    bind_nodes(v, "master", master);
    if constexpr (V::kReading) {
        if (master.size() != 1) v.node().at("master").fail("expected one node [x, y]");
        m.master = master[0];
    }
    bind_nodes(v, "dram_ifs", m.dram_ifs);
    v.field("noc_mhz", m.noc_mhz);
    v.field("flit_weight", m.flit_weight);
    v.section("packet", [&](auto& s) {
        s.field("flit_bits", m.packet.flit_bits, Accepts{8, 4096});
        s.field("header_flits", m.packet.header_flits, Accepts{1, 16});
        s.field("max_payload_bytes", m.packet.max_payload_bytes, Accepts{1, 1 << 20});
        s.field("write_ack", m.packet.write_ack);
    });
}

template <typename V>
void bind(V& v, mapper::tiling::AsipParams& c) {
    // Accepted ranges: mapper/tiling/asip_params.cpp.
    v.field("p_ox", c.p_ox, Accepts{1, 4096});
    v.field("p_of", c.p_of, Accepts{1, 4096});
    v.field("sram_bytes", c.sram_bytes, Accepts{1, std::int64_t(1) << 36});  // at least one word
    v.field("sram_banks", c.sram_banks, Accepts{0, 4096});
    v.field("word_bits", c.word_bits, Accepts{8, 64});
    v.field("dma_setup_cycles", c.dma_setup_cycles, Accepts{0, 1000000});
    v.field("dma_max_outstanding", c.dma_max_outstanding, Accepts{1, 65536});
    v.field("core_mhz", c.core_mhz);
}

template <typename V>
void bind(V& v, mapper::waving::EnergyParams& e) {
    v.field("pj_per_mac", e.pj_per_mac);
    v.field("pj_per_sram_word", e.pj_per_sram_word);
    v.field("pj_per_dram_byte", e.pj_per_dram_byte);
    v.field("pj_per_flit_hop", e.pj_per_flit_hop);
    v.field("active_core_mw", e.active_core_mw);
    v.field("idle_core_mw", e.idle_core_mw);
}

template <typename V>
void bind(V& v, mapper::waving::MeshCoefficients& c) {
    v.field("latency_scale", c.latency_scale);
    v.field("dram_scale", c.dram_scale);
    v.field("conflict", c.conflict);
    v.field("contention", c.contention);
    v.field("shared_scale", c.shared_scale);
    v.field("port_scale", c.port_scale);
    v.field("layer_cycles", c.layer_cycles);
    v.field("wait_scale", c.wait_scale);
    v.field("slot_scale", c.slot_scale);
    v.field("mva_row_miss", c.mva_row_miss);
    v.field("mva_bus_scale", c.mva_bus_scale);
    v.field("mva_stream_scale", c.mva_stream_scale);
    v.field("mva_port_scale", c.mva_port_scale);
    v.field("mva_layer_cycles", c.mva_layer_cycles);
    v.field("ph_turn", c.ph_turn);
    v.field("ph_conflict", c.ph_conflict);
    v.field("ph_port", c.ph_port);
    v.field("ph_stream", c.ph_stream);
    v.field("ph_wait", c.ph_wait);
    v.field("ph_sync", c.ph_sync);
    v.field("ph_layer_cycles", c.ph_layer_cycles);
    v.field("ph_bus", c.ph_bus);
    v.field("ph_tail", c.ph_tail);
    v.field("pg_turn", c.pg_turn);
    v.field("pg_port", c.pg_port);
    v.field("pg_stream", c.pg_stream);
    v.field("pg_wait", c.pg_wait);
    v.field("pg_sync", c.pg_sync);
    v.field("pg_layer_cycles", c.pg_layer_cycles);
    v.field("pg_bus", c.pg_bus);
    v.field("pg_tail", c.pg_tail);
    v.field("pg_collide", c.pg_collide);
    v.field("pg_own", c.pg_own);
    v.field("pg_tail_from", c.pg_tail_from);
    v.field("pg_tail_full", c.pg_tail_full);
    v.field("pg_queue", c.pg_queue);
    v.field("pg_port_packet", c.pg_port_packet);
}

template <typename V>
void bind(V& v, MeshMapperConfig& m) {
    v.field("refine", m.refine, Accepts{0, MeshMapperConfig::kMaxRefine});  // MeshMapperConfig::validate
    v.field("mesh_model", m.mesh_model);
    v.field("calibration", m.calibration);
    v.section("coefficients", [&](auto& s) { bind(s, m.coefficients); });
    v.field("fixed_slices", m.fixed_slices);
    v.field("fixed_layers", m.fixed_layers);
    v.field("near_tie", m.near_tie);
    v.choice("placement", m.placement,
             Choices<mapper::waving::Placement>{{"route-share", mapper::waving::Placement::RouteShare},
                                                {"waving", mapper::waving::Placement::Waving}});
    v.choice("objective", m.objective,
             Choices<mapper::tiling::Objective>{{"min-comp", mapper::tiling::Objective::MinComp},
                                                {"min-dram", mapper::tiling::Objective::MinDram}});
    v.choice("mode", m.mode,
             Choices<mapper::waving::MapMode>{{"waving", mapper::waving::MapMode::Waving},
                                              {"all-cores", mapper::waving::MapMode::AllCores},
                                              {"whole-layer", mapper::waving::MapMode::WholeLayer}});
}

template <typename V>
void bind(V& v, vta::VtaParams& p) {
    auto& c = p.core;
    // Accepted ranges: mapper/vta/vta_config.cpp; the buffers' lower bounds depend on the other
    // log_* values (at least two entries), these are the smallest they can be.
    v.field("log_batch", c.log_batch, Accepts{0, 4});
    v.field("log_block", c.log_block, Accepts{1, 6});
    v.field("log_inp_width", c.log_inp_width, Accepts{3, 3});
    v.field("log_wgt_width", c.log_wgt_width, Accepts{3, 3});
    v.field("log_acc_width", c.log_acc_width, Accepts{5, 5});
    v.field("log_uop_buff_size", c.log_uop_buff_size, Accepts{4, 20});
    v.field("log_inp_buff_size", c.log_inp_buff_size, Accepts{2, 24});
    v.field("log_wgt_buff_size", c.log_wgt_buff_size, Accepts{3, 26});
    v.field("log_acc_buff_size", c.log_acc_buff_size, Accepts{4, 24});
    v.field("alu_mul", c.alu_mul);
    v.field("clock_mhz", p.clock_mhz);
    v.field("dma_bus_bits", p.dma_bus_bits);
    v.field("dma_burst_bytes", p.dma_burst_bytes);
    v.field("dma_outstanding", p.dma_outstanding);
    v.field("cmd_queue_depth", p.cmd_queue_depth);
    v.field("token_queue_depth", p.token_queue_depth);
    v.field("gemm_cycles_per_uop", p.gemm_cycles_per_uop);
    v.field("alu_cycles_per_uop", p.alu_cycles_per_uop);
    v.field("pipeline_latency", p.pipeline_latency);
    v.field("insn_overhead", p.insn_overhead);
    v.field("watchdog_cycles", p.watchdog_cycles);
}

// The mesh size and the flit format come from `mesh` (shared with the mapper), not from here.
template <typename V>
void bind(V& v, noc::NocParams& n) {
    v.field("buffer_depth", n.buffer_depth);
    v.field("num_vcs", n.num_vcs);
    v.field("router_stages", n.router_stages);
    v.field("link_latency", n.link_latency);
    v.field("credit_delay", n.credit_delay);
    v.field("eject_depth", n.eject_depth);
    v.field("inject_depth", n.inject_depth);
    v.field("dram_if_outstanding", n.dram_if_outstanding);
    v.field("routing", n.routing);
    v.field("arbitration", n.arbitration);
    v.field("stepping", n.stepping);
    v.field("message_classes", n.message_classes);
    v.field("request_vcs", n.request_vcs);
    v.field("watchdog_cycles", n.watchdog_cycles);
}

template <typename V>
void bind(V& v, noc::TrafficParams& t) {
    v.field("rate", t.rate);
    v.field("pattern", t.pattern);
    v.field("packet_flits", t.packet_flits);
    v.field("hotspot_fraction", t.hotspot_fraction);
    v.field("hotspot_node", t.hotspot_node);
    v.field("warmup_cycles", t.warmup_cycles);
    v.field("measure_cycles", t.measure_cycles);
    v.field("drain_max_cycles", t.drain_max_cycles);
    v.field("inject_while_draining", t.inject_while_draining);
    v.field("injection", t.injection);
}

template <typename V>
void bind(V& v, mapper::vta::VtaCoefficients& c) {
    v.field("latency_scale", c.latency_scale);
    v.field("bus_scale", c.bus_scale);
    v.field("txn_cycles", c.txn_cycles);
    v.field("insn_cycles", c.insn_cycles);
}

template <typename V>
void bind(V& v, mapper::vta::DriverOptions& o) {
    std::string strategy = o.strategy == 0 ? "auto" : std::to_string(o.strategy);
    v.field("strategy", strategy);
    if constexpr (V::kReading) {
        if (strategy == "auto") o.strategy = 0;
        else if (strategy.size() == 1 && strategy[0] >= '1' && strategy[0] <= '4') o.strategy = strategy[0] - '0';
        else v.node().at("strategy").fail("expected auto, 1, 2, 3 or 4, found \"" + strategy + "\"");
    }
    v.field("double_buffer", o.double_buffer);
    v.choice("conv_lowering", o.conv_lowering,
             Choices<mapper::vta::DriverOptions::ConvLowering>{{"im2row", mapper::vta::DriverOptions::ConvLowering::Im2row},
                                                               {"direct", mapper::vta::DriverOptions::ConvLowering::Direct},
                                                               {"auto", mapper::vta::DriverOptions::ConvLowering::Auto}});
    v.field("host_ns_per_byte", o.host_ns_per_byte);
    v.field("host_ns_per_program", o.host_ns_per_program);
    v.field("estimate_model", o.estimate_model);
    v.field("calibration", o.calibration);
    v.section("coefficients", [&](auto& x) { bind(x, o.coefficients); });
}

template <typename V>
void bind(V& v, PlatformSpec& s) {
    v.choice("platform", s.kind,
             Choices<PlatformKind>{{"dram", PlatformKind::Dram},
                                   {"nmp", PlatformKind::Nmp},
                                   {"mesh", PlatformKind::Mesh},
                                   {"vta", PlatformKind::Vta},
                                   {"noc", PlatformKind::Noc}});
    v.field("name", s.name);
    v.field("seed", s.seed);
    v.section("sim", [&](auto& x) { bind(x, s.sim); });
    v.section("stats", [&](auto& x) { bind(x, s.stats); });
    v.section("trace", [&](auto& x) { bind(x, s.trace); });
    v.section("dram", [&](auto& x) { bind(x, s.dram); });
    v.section("nmp", [&](auto& x) { bind(x, s.nmp); });
    v.section("tso", [&](auto& x) { bind(x, s.tso); });
    v.section("mesh", [&](auto& x) { bind(x, s.mesh); });
    v.section("core", [&](auto& x) { bind(x, s.core); });
    v.section("energy", [&](auto& x) { bind(x, s.energy); });
    v.section("mapper", [&](auto& x) { bind(x, s.mapper); });
    v.section("noc", [&](auto& x) { bind(x, s.noc); });
    v.section("traffic", [&](auto& x) { bind(x, s.traffic); });
    v.section("vta", [&](auto& x) { bind(x, s.vta); });
    v.section("vta_compiler", [&](auto& x) { bind(x, s.vta_compiler); });
}

}  // namespace vp::config
