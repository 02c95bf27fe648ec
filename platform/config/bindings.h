#pragma once
// bind() functions: the YAML schema of every parameter struct, in one place per struct.
#include "mapper/common/errors.h"
#include "platform/config/binder.h"
#include "platform/config/platform_spec.h"

namespace vp::config {

template <typename V>
void bind(V& v, SimParams& p) {
    v.field("max_time_ms", p.max_time_ms);
    v.field("progress_s", p.progress_s);
    v.field("threads", p.threads);
}

template <typename V>
void bind(V& v, trace::TraceParams& p) {
    v.field("enabled", p.enabled);
    v.field("start_ns", p.start_ns);
    v.field("end_ns", p.end_ns);
    v.field("signals", p.signals);
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
    v.field("refresh", p.refresh);
    v.field("max_request_bytes", p.max_request_bytes);
    v.section("timing", [&](auto& s) { bind(s, p.t); });
}

template <typename V>
void bind(V& v, PlatformSpec& s) {
    v.choice("platform", s.kind,
             Choices<PlatformKind>{{"dram", PlatformKind::Dram},
                                   {"nmp", PlatformKind::Nmp},
                                   {"mesh", PlatformKind::Mesh},
                                   {"vta", PlatformKind::Vta}});
    v.field("name", s.name);
    v.field("seed", s.seed);
    v.section("sim", [&](auto& x) { bind(x, s.sim); });
    v.section("trace", [&](auto& x) { bind(x, s.trace); });
    v.section("dram", [&](auto& x) { bind(x, s.dram); });
}

}  // namespace vp::config
