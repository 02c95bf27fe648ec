#include "platform/run/input_check.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "mapper/common/errors.h"
#include "mapper/tso/conv_shape.h"
#include "mapper/tso/tso.h"
#include "mapper/waving/waving_mapper.h"
#include "mapper/vta/network_driver.h"
#include "mapper/vta/vta_timing.h"
#include "models/dram/dram_trace_io.h"
#include "platform/config/platform_keys.h"
#include "platform/refine/mesh_refine.h"
#include "platform/refine/vta_refine.h"
#include "platform/run/dram_fit.h"
#include "platform/run/vta_workload.h"
#include "vp_version.h"

namespace fs = std::filesystem;

namespace vp::run {

namespace {
const char* kind_name(workload::WorkloadKind k) {
    switch (k) {
    case workload::WorkloadKind::Network: return "network";
    case workload::WorkloadKind::Traffic: return "traffic";
    case workload::WorkloadKind::VtaIr: return "vta_ir";
    case workload::WorkloadKind::VtaBinary: return "vta_binary";
    case workload::WorkloadKind::NocTraffic: return "noc_traffic";
    case workload::WorkloadKind::DramTrace: return "dram_trace";
    }
    return "?";
}

// A first pass over a trace file: every line parses, every request fits the DRAM. Returns the
// number of requests; throws InputError naming the file and line.
std::uint64_t check_dram_trace(const tgen::TracePlayerParams& t, const dram::DramParams& d) {
    const dram::TraceFormat f = dram::resolve_trace_format(t.path, t.format, t.path + ": format");
    dram::TraceReader reader(t.path, f, t.bytes);
    dram::TraceRequest r;
    std::uint64_t n = 0;
    while (reader.next(r)) {
        const std::string where = t.path + ":" + std::to_string(reader.line()) + ": ";
        if (r.bytes > d.max_request_bytes)
            throw InputError(where + "request of " + std::to_string(r.bytes) + " bytes exceeds dram.max_request_bytes = " +
                             std::to_string(d.max_request_bytes));
        if (r.addr + r.bytes > d.capacity_bytes())
            throw InputError(where + "address " + std::to_string(r.addr) + " + " + std::to_string(r.bytes) +
                             " bytes exceeds the DRAM capacity of " + std::to_string(d.capacity_bytes()) + " bytes");
        ++n;
    }
    if (n == 0) throw InputError(t.path + ": the trace holds no request");
    return n;
}

// The dram platform: streams and traces within the DRAM.
void check_dram_workload(const config::PlatformSpec& spec, const workload::Workload& wl, CheckedInputs& found) {
    const std::uint64_t capacity = spec.dram.capacity_bytes();
    for (std::size_t i = 0; i < wl.streams.size(); ++i)
        wl.streams[i].validate(wl.path + ": at /streams/" + std::to_string(i), capacity);
    if (wl.kind == workload::WorkloadKind::DramTrace) found.dram_trace_requests = check_dram_trace(wl.dram_trace, spec.dram);
}

// The vta platform: what its builder does before the simulation, to the same errors.
void check_vta_workload(const config::PlatformSpec& spec, const workload::Workload& wl) {
    namespace mv = mapper::vta;
    const mv::DriverOptions opt = refine::vta_driver_options(spec);
    if (spec.mapper.refine > 0 && wl.kind != workload::WorkloadKind::Network)
        throw InputError(wl.path + ": mapper.refine: the vta platform refines the partitioning strategy per layer of a "
                         "network; a VTA IR program names its STRATEGY itself, a binary program is already compiled");
    if (wl.kind != workload::WorkloadKind::Network) {
        (void)vta_program(spec, wl, opt);
        return;
    }
    if (spec.mapper.refine > 0) refine::check_vta_refine_k(spec.mapper.refine, opt);
    // The driver's checks: a layer the VTA does not run, a weight file of the wrong size, a
    // compiler setting no layer compiles with (exit 2 naming the file and the layer).
    const mv::NetworkDriver driver(vta_graph(wl), spec.vta.core, opt);
    if (driver.programs_total() == 0)
        throw InputError(wl.path + ": the network gives the VTA no program to run: the host runs every layer of it "
                         "(the VTA runs conv, fc, pool and eltwise add layers)");
}
}  // namespace

void check_mapped_layers(const config::PlatformSpec& spec, const workload::Workload& wl) {
    for (const mapper::Layer& l : wl.network.layers)
        if (mapper::tso::is_tso_layer(l)) return;
    throw InputError(wl.path + ": the network has no conv or fc layer for the " +
                     (spec.kind == config::PlatformKind::Nmp ? std::string("NMP") : std::string("mesh")) + " to run");
}

void check_workload_kind(const config::PlatformSpec& spec, const workload::Workload& wl) {
    using config::PlatformKind;
    using workload::WorkloadKind;
    const WorkloadKind k = wl.kind;
    const char* wants = nullptr;
    switch (spec.kind) {
    case PlatformKind::Dram:
        if (k != WorkloadKind::Traffic && k != WorkloadKind::DramTrace)
            wants = "traffic workloads (\"kind\": \"traffic\") and DRAM traces (\"kind\": \"dram_trace\")";
        break;
    case PlatformKind::Nmp:
    case PlatformKind::Mesh:
        if (k != WorkloadKind::Network) wants = "network workloads (a \"layers\" list)";
        break;
    case PlatformKind::Noc:
        if (k != WorkloadKind::NocTraffic) wants = "synthetic traffic workloads (\"kind\": \"noc_traffic\")";
        break;
    case PlatformKind::Vta:
        if (k != WorkloadKind::Network && k != WorkloadKind::VtaIr && k != WorkloadKind::VtaBinary)
            wants = "networks, VTA IR programs and binary VTA programs (\"kind\": \"network\" | \"vta_ir\" | \"vta_binary\")";
        break;
    }
    if (wants)
        throw InputError(wl.path + ": the " + config::to_string(spec.kind) + " platform runs " + wants + ", not a " +
                         kind_name(k) + " workload; " + spec.source + " selects platform: " +
                         config::to_string(spec.kind));
    // The noc platform merges the workload's fields over the config's traffic section.
    if (spec.kind == PlatformKind::Noc) (void)workload::noc_traffic(wl, spec.traffic, spec.noc, spec.seed, spec.source);
}

void check_overrides_for_workload(const config::PlatformSpec& spec, const workload::Workload& wl,
                                  const std::vector<std::string>& overrides) {
    for (const std::string& o : overrides) {
        const std::string key = config::override_key(o);
        if (spec.kind == config::PlatformKind::Vta &&
            (wl.kind == workload::WorkloadKind::VtaIr || wl.kind == workload::WorkloadKind::VtaBinary) &&
            config::key_within(key, "vta_compiler"))
            throw InputError("--set " + key + ": " + wl.path + " is a " +
                             (wl.kind == workload::WorkloadKind::VtaIr ? "VTA IR" : "binary VTA") + " program, which runs as written: vta_compiler settings apply to "
                             "networks only (--allow-unused sets it anyway)");
        if (spec.kind == config::PlatformKind::Noc && wl.kind == workload::WorkloadKind::NocTraffic) {
            for (const auto& [field, value] : wl.doc.items()) {
                if (!config::key_within(key, "traffic." + field)) continue;
                throw InputError("--set " + key + ": " + wl.path + " sets \"" + field +
                                 "\" itself, and the workload's value wins over the config's traffic section " +
                                 "(--allow-unused sets it anyway)");
            }
        }
    }
}

// Every DRAM request a platform's initiators issue fits dram.max_request_bytes (the controller
// answers a longer one with an error response, which no initiator can recover from).
void check_request_size(const config::PlatformSpec& spec, const workload::Workload& wl) {
    const unsigned most = spec.dram.max_request_bytes;
    auto refuse = [&](const std::string& who, std::uint64_t bytes) {
        throw InputError(spec.source + ": dram.max_request_bytes: " + std::to_string(most) + " bytes is less than the " +
                         std::to_string(bytes) + "-byte DRAM requests of " + who +
                         " (the controller would answer them with errors): expected at least " + std::to_string(bytes));
    };
    switch (spec.kind) {
    case config::PlatformKind::Dram:
        for (std::size_t i = 0; i < wl.streams.size(); ++i)
            if (wl.streams[i].bytes > most)
                throw InputError(wl.path + ": at /streams/" + std::to_string(i) + "/bytes: " +
                                 std::to_string(wl.streams[i].bytes) + " bytes exceeds dram.max_request_bytes = " +
                                 std::to_string(most) + " (" + spec.source + ")");
        break;
    case config::PlatformKind::Nmp: {
        const std::uint64_t txn = spec.nmp.arch.txn_bytes();
        if (txn > most) refuse(spec.nmp.arch.dma_txn_bytes ? "nmp.dma_txn_bytes" : "nmp.burst_bytes", txn);
        break;
    }
    case config::PlatformKind::Mesh:
        if (unsigned(spec.mesh.packet.max_payload_bytes) > most)
            refuse("mesh.packet.max_payload_bytes", unsigned(spec.mesh.packet.max_payload_bytes));
        break;
    case config::PlatformKind::Vta: {
        // The DMA cuts rows into chunks of whole elements, at most dma_burst_bytes, but never less
        // than one element (a weight block of 32 x 32 int8 is 1 KiB): the largest chunk of any
        // element kind the core moves.
        namespace mv = mapper::vta;
        const mv::VtaConfig& c = spec.vta.core;
        unsigned chunk = 0;
        for (int e : {mv::VtaConfig::kInsnBytes, mv::VtaConfig::kUopBytes, c.inp_elem_bytes(), c.wgt_elem_bytes(),
                      c.acc_elem_bytes(), c.out_elem_bytes(), c.batch() * c.block()})
            chunk = std::max(chunk, mv::dma_chunk_bytes(spec.vta.dma_burst_bytes, unsigned(e)));
        if (chunk > most)
            refuse(chunk > spec.vta.dma_burst_bytes
                       ? "the VTA's DMA (an element is moved whole, and at vta.log_block = " +
                             std::to_string(c.log_block) + " one is larger than vta.dma_burst_bytes)"
                       : std::string("vta.dma_burst_bytes"),
                   chunk);
        break;
    }
    case config::PlatformKind::Noc: break;
    }
}

CheckedInputs check_run_inputs(const config::PlatformSpec& spec, const workload::Workload& wl,
                               const std::vector<std::string>& overrides, bool allow_unused) {
    CheckedInputs found;
    // The waveforms as FST: GTKWave's vcd2fst converts them at the end (fst.h); without it, the
    // whole run would be for nothing.
    if (spec.trace.enabled && spec.trace.format == trace::TraceFormat::Fst &&
        std::system("command -v vcd2fst >/dev/null 2>&1") != 0)
        throw InputError("trace.format: fst needs vcd2fst (Debian package gtkwave), which is not installed");
    check_workload_kind(spec, wl);
    if (!allow_unused) check_overrides_for_workload(spec, wl, overrides);
    check_request_size(spec, wl);
    switch (spec.kind) {
    case config::PlatformKind::Dram: check_dram_workload(spec, wl, found); break;
    case config::PlatformKind::Nmp:
    case config::PlatformKind::Mesh: check_mapped_layers(spec, wl); break;
    case config::PlatformKind::Vta: check_vta_workload(spec, wl); break;
    case config::PlatformKind::Noc: break;  // check_workload_kind merged and checked the traffic
    }
    return found;
}

void check_mapping_fits(const config::PlatformSpec& spec, const workload::Workload& wl) {
    check_tensors_fit_dram(spec, wl);
    if (spec.kind == config::PlatformKind::Nmp) {
        try {  // a layer no TLT tile fits: what run_tso() would throw, without its search
            mapper::tso::check_mappable(wl.network, spec.nmp.arch, spec.tso.options(spec.sim.threads));
        } catch (const InputError& e) {  // as the builder names the file (nmp_platform.cpp)
            const std::string m = e.what();
            if (m.rfind("at /layers/", 0) == 0) throw InputError(wl.path + ": " + m);
            throw;
        }
    } else if (spec.kind == config::PlatformKind::Mesh) {
        try {  // a layer whose smallest tile exceeds a core's SRAM: what map_network() would throw
            mapper::waving::check_mappable(wl.network, spec.core, spec.mesh, spec.energy, refine::mesh_mapper_options(spec));
        } catch (const InputError& e) {  // as the builder names the file (mesh_platform.cpp)
            throw InputError(wl.path + ": " + e.what());
        }
    }
}

std::string find_data_file(const std::string& path) {
    std::error_code ec;
    if (path.empty() || fs::exists(path, ec) || fs::path(path).is_absolute()) return path;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return path;
    const fs::path installed = exe.parent_path().parent_path() / VP_DATA_SUBDIR / path;
    return fs::exists(installed, ec) ? installed.string() : path;
}

}  // namespace vp::run
