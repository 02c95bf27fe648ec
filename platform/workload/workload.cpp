#include "platform/workload/workload.h"

#include <cctype>

#include "mapper/common/errors.h"
#include "mapper/common/input_file.h"
#include "mapper/common/json_check.h"
#include "mapper/common/json_text.h"
#include "mapper/vta/net_graph.h"

namespace vp::workload {

namespace {
std::vector<tgen::TrafficParams> parse_traffic(const JsonCheck& root) {
    root.allow_only({"kind", "name", "description", "streams"});
    auto streams = root.at("streams");
    if (streams.size() == 0) streams.fail("the stream list is empty");
    if (streams.size() > 64) streams.fail("at most 64 streams");
    std::vector<tgen::TrafficParams> out;
    for (std::size_t i = 0; i < streams.size(); ++i) {
        auto s = streams.at(i);
        s.allow_only({"name", "pattern", "requests", "bytes", "read_fraction", "base", "range", "stride",
                      "max_outstanding", "interval_ns", "seed", "verify"});
        tgen::TrafficParams p;
        p.name = s.get_string("name", "tgen" + std::to_string(i));
        // The name becomes a statistics / signal path component (tgen.<name>.reads).
        bool ident = !p.name.empty() && p.name.size() <= 64;
        for (char c : p.name) ident = ident && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-');
        if (!ident)
            s.at("name").fail("a stream name is 1-64 characters of letters, digits, '_' and '-' (got \"" + p.name + "\")");
        if (s.has("pattern")) {
            std::string pat = s.at("pattern").as_enum({"sequential", "strided", "random"});
            p.pattern = pat == "sequential" ? tgen::Pattern::Sequential
                        : pat == "strided"  ? tgen::Pattern::Strided
                                            : tgen::Pattern::Random;
        }
        p.requests = std::uint64_t(s.get_int("requests", 1, std::int64_t(1) << 40, std::int64_t(p.requests)));
        p.bytes = unsigned(s.get_int("bytes", 1, 4096, p.bytes));
        if (s.has("read_fraction")) p.read_fraction = s.at("read_fraction").as_number(0.0, 1.0);
        p.base = std::uint64_t(s.get_int("base", 0, std::int64_t(1) << 50, 0));
        p.range = std::uint64_t(s.get_int("range", 1, std::int64_t(1) << 50, std::int64_t(p.range)));
        p.stride = std::uint64_t(s.get_int("stride", 1, std::int64_t(1) << 40, std::int64_t(p.stride)));
        p.max_outstanding = unsigned(s.get_int("max_outstanding", 1, 1024, p.max_outstanding));
        if (s.has("interval_ns")) p.interval_ns = s.at("interval_ns").as_number(0.0, 1e9);
        p.seed = std::uint64_t(s.get_int("seed", 0, INT64_MAX, std::int64_t(i + 1)));
        if (s.has("verify")) p.verify = s.at("verify").as_bool();
        for (const auto& o : out)
            if (o.name == p.name) s.at("name").fail("duplicate stream name \"" + p.name + "\"");
        out.push_back(p);
    }
    return out;
}

// {"kind": "dram_trace", "file": "x.stl", ...}: the trace path is relative to the workload file.
tgen::TracePlayerParams parse_dram_trace(const JsonCheck& root, const std::string& path, const std::string& name) {
    root.allow_only({"kind", "name", "description", "file", "format", "bytes", "clock_ps", "timed", "max_outstanding",
                     "verify"});
    tgen::TracePlayerParams t;
    t.name = name;
    std::string file = root.get_string("file", "");
    if (file.empty()) root.fail("missing required key \"file\" (the DRAM trace to replay)");
    if (file[0] != '/') {
        const auto slash = path.rfind('/');
        if (slash != std::string::npos) file = path.substr(0, slash + 1) + file;
    }
    t.path = file;
    if (root.has("format")) t.format = root.at("format").as_enum({"auto", "stl", "loadstore"});
    t.bytes = unsigned(root.get_int("bytes", 1, 4096, t.bytes));
    t.clock_ps = std::uint64_t(root.get_int("clock_ps", 0, 1000000, 0));  // trace_player_params.cpp
    if (root.has("timed")) t.timed = root.at("timed").as_bool();
    t.max_outstanding = unsigned(root.get_int("max_outstanding", 1, 1024, t.max_outstanding));
    if (root.has("verify")) t.verify = root.at("verify").as_bool();
    t.validate(path);
    return t;
}

// Batch copies of the per-layer values follow expand_batch's layer order.
template <class T>
std::vector<T> repeat(const std::vector<T>& v, int batch) {
    std::vector<T> out;
    if (v.empty()) return out;
    for (int b = 0; b < batch; ++b) out.insert(out.end(), v.begin(), v.end());
    return out;
}

Workload load_onnx(const std::string& path, const import::ImportOptions& opt) {
    Workload w;
    w.path = path;
    w.kind = WorkloadKind::Network;
    w.imported = true;
    import::ImportResult r = import::import_onnx(path, opt);
    w.workload_text = mapper::network_json_text(r.workload_json());
    w.doc = nlohmann::json::parse(w.workload_text);
    w.import_summary = r.summary();
    for (const auto& v : r.values) {
        w.weight_values.push_back(v.weights);
        w.bias_values.push_back(v.bias);
    }
    w.weight_values = repeat(w.weight_values, r.net.batch);
    w.bias_values = repeat(w.bias_values, r.net.batch);
    w.network = mapper::expand_batch(r.net);
    w.name = w.network.name;
    return w;
}
}  // namespace

Workload load_workload(const std::string& path, const import::ImportOptions& onnx) {
    if (import::is_onnx_path(path)) return load_onnx(path, onnx);
    return parse_workload(read_input_file(path, "a JSON workload file or an .onnx model"), path);
}

noc::TrafficParams noc_traffic(const Workload& wl, const noc::TrafficParams& config_traffic, const noc::NocParams& noc,
                               std::uint64_t seed, const std::string& config_source) {
    JsonCheck j(wl.doc, wl.path);
    j.allow_only({"kind", "name", "description", "rate", "pattern", "packet_flits", "hotspot_fraction", "hotspot_node",
                  "warmup_cycles", "measure_cycles", "drain_max_cycles", "inject_while_draining", "injection"});
    noc::TrafficParams t = config_traffic;
    if (j.has("rate")) t.rate = j.at("rate").as_number(0.0, 1.0);
    if (j.has("pattern")) t.pattern = j.at("pattern").as_string();
    t.packet_flits = std::uint32_t(j.get_int("packet_flits", 1, 65535, t.packet_flits));
    if (j.has("hotspot_fraction")) t.hotspot_fraction = j.at("hotspot_fraction").as_number(0.0, 1.0);
    t.hotspot_node = std::uint32_t(j.get_int("hotspot_node", 0, 1 << 20, t.hotspot_node));
    t.warmup_cycles = std::uint64_t(j.get_int("warmup_cycles", 0, std::int64_t(1) << 40, std::int64_t(t.warmup_cycles)));
    t.measure_cycles = std::uint64_t(j.get_int("measure_cycles", 1, std::int64_t(1) << 40, std::int64_t(t.measure_cycles)));
    t.drain_max_cycles =
        std::uint64_t(j.get_int("drain_max_cycles", 0, std::int64_t(1) << 40, std::int64_t(t.drain_max_cycles)));
    if (j.has("inject_while_draining")) t.inject_while_draining = j.at("inject_while_draining").as_bool();
    if (j.has("injection")) t.injection = j.at("injection").as_string();
    t.seed = seed;
    try {
        t.validate("traffic", noc);
    } catch (const InputError& e) {
        throw InputError(wl.path + " (merged with " + config_source + "): " + e.what());
    }
    return t;
}

Workload parse_workload(const std::string& text, const std::string& path) {
    Workload w;
    w.path = path;
    w.doc = parse_json_text(text, path);
    JsonCheck root(w.doc, path);
    root.expect_object();
    std::string kind;
    if (root.has("kind")) kind = root.at("kind").as_enum({"network", "traffic", "dram_trace", "vta_ir", "vta_binary", "vta_network", "noc_traffic"});
    else if (root.has("MATRICES")) kind = "vta_ir";
    else kind = "network";
    if (kind == "traffic") {
        w.kind = WorkloadKind::Traffic;
        w.name = root.get_string("name", "traffic");
        w.streams = parse_traffic(root);
    } else if (kind == "dram_trace") {
        w.kind = WorkloadKind::DramTrace;
        w.name = root.get_string("name", "dram_trace");
        w.dram_trace = parse_dram_trace(root, path, "trace");
    } else if (kind == "noc_traffic") {
        // Fields are checked by the noc platform, which merges them over the config's `traffic`.
        w.kind = WorkloadKind::NocTraffic;
        w.name = root.get_string("name", "noc_traffic");
    } else if (kind == "vta_network") {
        // A network with explicit skip connections and optional weight files (workloads/vta/README.md).
        w.kind = WorkloadKind::Network;
        w.network = mapper::vta::parse_vta_network(w.doc, path).net;
        w.name = w.network.name;
    } else if (kind == "vta_binary") {
        // Checked and read with its .bin files by the vta platform (mapper/vta/binary_program.h).
        w.kind = WorkloadKind::VtaBinary;
        w.name = root.has("name") && root.at("name").value().is_string() ? root.at("name").as_string() : "vta_binary";
    } else if (kind == "vta_ir") {
        w.kind = WorkloadKind::VtaIr;
        w.name = root.has("NAME") && root.at("NAME").value().is_string() ? root.at("NAME").as_string() : "vta_program";
    } else {
        w.kind = WorkloadKind::Network;
        nlohmann::json copy = w.doc;
        copy.erase("kind");
        w.network = mapper::expand_batch(mapper::parse_network(copy, path));
        w.name = w.network.name;
    }
    return w;
}

}  // namespace vp::workload
