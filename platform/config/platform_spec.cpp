#include "platform/config/platform_spec.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "mapper/common/errors.h"
#include "mapper/common/input_file.h"
#include "platform/config/bindings.h"
#include "platform/config/platform_keys.h"
#include "platform/config/calibration.h"
#include "platform/config/hw_figures.h"
#include "platform/config/vta_calibration.h"
#include "platform/config/mesh_calibration.h"
#include "platform/config/mesh_figures.h"

namespace vp::config {

const char* to_string(PlatformKind k) {
    switch (k) {
    case PlatformKind::Dram: return "dram";
    case PlatformKind::Nmp: return "nmp";
    case PlatformKind::Mesh: return "mesh";
    case PlatformKind::Vta: return "vta";
    case PlatformKind::Noc: return "noc";
    }
    return "?";
}

void SimParams::validate(const std::string& k) const {
    if (!(max_time_ms >= 0 && max_time_ms <= 1e9)) throw InputError(k + ".max_time_ms: expected 0..1e9 ms");
    if (!(progress_s > 0 && progress_s <= 3600)) throw InputError(k + ".progress_s: expected (0, 3600] s");
    if (threads < 1 || threads > 256) throw InputError(k + ".threads: expected 1..256");
}

namespace {
mapper::tso::Tile parse_tile(const std::string& s, const std::string& what) {
    int v[4] = {0, 0, 0, 0};
    char extra = 0;
    if (std::sscanf(s.c_str(), "%d,%d,%d,%d%c", &v[0], &v[1], &v[2], &v[3], &extra) != 4 || v[0] < 1 || v[1] < 1 ||
        v[2] < 1 || v[3] < 1)
        throw InputError(what + ": expected none or four positive integers \"T_M,T_N,T_R,T_C\", found \"" + s + "\"");
    mapper::tso::Tile t;
    t.t_m = v[0];
    t.t_n = v[1];
    t.t_r = v[2];
    t.t_c = v[3];
    return t;
}
// "LAYER=SLICING/SCHEDULE/T_M,T_N,T_R,T_C;..." (tso.fixed_layers).
std::vector<mapper::tso::TsoOptions::LayerChoice> parse_layer_choices(const std::string& s, const std::string& what) {
    std::vector<mapper::tso::TsoOptions::LayerChoice> out;
    if (s == "none") return out;
    std::istringstream in(s);
    std::string item;
    while (std::getline(in, item, ';')) {
        const auto eq = item.rfind('=');
        const auto s1 = eq == std::string::npos ? eq : item.find('/', eq);
        const auto s2 = s1 == std::string::npos ? s1 : item.find('/', s1 + 1);
        if (eq == 0 || s2 == std::string::npos)
            throw InputError(what + ": expected none or \"LAYER=SLICING/SCHEDULE/T_M,T_N,T_R,T_C\" items separated by "
                             "';', found \"" + item + "\"");
        mapper::tso::TsoOptions::LayerChoice c;
        c.layer = item.substr(0, eq);
        c.slicing = mapper::tso::parse_slicing(item.substr(eq + 1, s1 - eq - 1), what + " (" + c.layer + ")");
        c.schedule = mapper::tso::parse_schedule(item.substr(s1 + 1, s2 - s1 - 1), what + " (" + c.layer + ")");
        c.tile = parse_tile(item.substr(s2 + 1), what + " (" + c.layer + ")");
        out.push_back(c);
    }
    if (out.empty()) throw InputError(what + ": expected none or at least one LAYER=SLICING/SCHEDULE/T_M,T_N,T_R,T_C");
    return out;
}
}  // namespace

void TsoConfig::validate(const std::string& k) const {
    parse_layer_choices(fixed_layers, k + ".fixed_layers");
    mapper::tso::make_time_model(dram_model, coefficients, k + ".dram_model");
    coefficients.validate(k + ".coefficients");
    if (fixed_slicing != "none") mapper::tso::parse_slicing(fixed_slicing, k + ".fixed_slicing");
    if (fixed_schedule != "none") mapper::tso::parse_schedule(fixed_schedule, k + ".fixed_schedule");
    if (fixed_tile != "none") {
        parse_tile(fixed_tile, k + ".fixed_tile");
        if (fixed_slicing == "none" || fixed_schedule == "none")
            throw InputError(k + ".fixed_tile: needs " + k + ".fixed_slicing and " + k + ".fixed_schedule");
    }
}

void MeshMapperConfig::validate(const std::string& k) const {
    if (refine < 0 || refine > kMaxRefine)
        throw InputError(k + ".refine: expected 0 (off) or a number of candidates in [1, " + std::to_string(kMaxRefine) + "]");
    if (!(near_tie >= 0 && near_tie <= 0.1)) throw InputError(k + ".near_tie: expected a fraction in [0, 0.1]");
    mapper::waving::make_mesh_model(mesh_model, coefficients, k + ".mesh_model");
    coefficients.validate(k + ".coefficients");
    fixed();
    fixed_by_layer();
}

std::vector<std::pair<std::string, mapper::waving::SliceChoice>> MeshMapperConfig::fixed_by_layer() const {
    std::vector<std::pair<std::string, mapper::waving::SliceChoice>> out;
    if (fixed_layers == "none") return out;
    std::istringstream in(fixed_layers);
    std::string item;
    while (std::getline(in, item, ';')) {
        const auto eq = item.rfind('=');
        int v[3] = {0, 0, 0};
        char extra = 0;
        if (eq == 0 || eq == std::string::npos ||
            std::sscanf(item.c_str() + eq + 1, "%d,%d,%d%c", &v[0], &v[1], &v[2], &extra) != 3 || v[0] < 1 ||
            v[1] < 1 || v[2] < 1)
            throw InputError("mapper.fixed_layers: expected none or \"LAYER=T_of,T_ox,k\" items separated by ';', "
                             "found \"" + item + "\"");
        mapper::waving::SliceChoice c;
        c.t_of = v[0];
        c.t_ox = v[1];
        c.k = v[2];
        out.emplace_back(item.substr(0, eq), c);
    }
    if (out.empty()) throw InputError("mapper.fixed_layers: expected none or at least one LAYER=T_of,T_ox,k");
    return out;
}

mapper::waving::SliceChoice MeshMapperConfig::fixed() const {
    mapper::waving::SliceChoice c;
    if (fixed_slices == "none") return c;
    int v[3] = {0, 0, 0};
    char extra = 0;
    if (std::sscanf(fixed_slices.c_str(), "%d,%d,%d%c", &v[0], &v[1], &v[2], &extra) != 3 || v[0] < 1 || v[1] < 1 ||
        v[2] < 1)
        throw InputError("mapper.fixed_slices: expected none or three positive integers \"T_of,T_ox,k\", found \"" +
                         fixed_slices + "\"");
    c.t_of = v[0];
    c.t_ox = v[1];
    c.k = v[2];
    return c;
}

mapper::tso::TsoOptions TsoConfig::options(unsigned threads) const {
    mapper::tso::TsoOptions o;
    o.model = mapper::tso::make_time_model(dram_model, coefficients);
    if (fixed_slicing != "none") o.fixed_slicing = mapper::tso::parse_slicing(fixed_slicing, "tso.fixed_slicing");
    if (fixed_schedule != "none") o.fixed_schedule = mapper::tso::parse_schedule(fixed_schedule, "tso.fixed_schedule");
    if (fixed_tile != "none") o.fixed_tile = parse_tile(fixed_tile, "tso.fixed_tile");
    o.fixed_layers = parse_layer_choices(fixed_layers, "tso.fixed_layers");
    o.threads = int(threads);
    o.ifm_channel_slicing = ifm_channel_slicing;
    return o;
}

namespace {
// A file named relative to the config file, as an absolute path (so that the resolved
// configuration, OUT/config.yaml and the children of --refine, finds it from anywhere).
std::string resolve_relative(std::string f, const std::string& config_path) {
    if (!f.empty() && f[0] != '/') {
        const auto slash = config_path.rfind('/');
        f = (slash == std::string::npos ? std::string(".") : config_path.substr(0, slash)) + "/" + f;
    }
    std::error_code ec;
    const auto abs = std::filesystem::absolute(f, ec);
    return ec ? f : abs.lexically_normal().string();
}

// The NoC's checks: its size and flit format are the mesh's (parse_platform copies them), so a
// refusal of one of those names the mesh key the configuration writes.
void validate_noc(const noc::NocParams& n) {
    static const std::pair<std::string, std::string> kFromMesh[] = {{"noc.width:", "mesh.width:"},
                                                                    {"noc.height:", "mesh.height:"},
                                                                    {"noc.flit_width_bits:", "mesh.packet.flit_bits:"},
                                                                    {"noc.header_flits:", "mesh.packet.header_flits:"}};
    try {
        n.validate("noc");
    } catch (const InputError& e) {
        const std::string m = e.what();
        for (const auto& [noc_key, mesh_key] : kFromMesh)
            if (m.rfind(noc_key, 0) == 0) throw InputError(mesh_key + m.substr(noc_key.size()));
        throw;
    }
}

// Adds "file:line:col" to a validation error whose message starts with a key path.
[[noreturn]] void relocate(const InputError& e, const YAML::Node& root, const std::string& file) {
    std::string msg = e.what();
    auto colon = msg.find(':');
    std::string key = colon == std::string::npos ? "" : msg.substr(0, colon);
    YAML::Node n = root;
    std::string loc = file;
    bool found = !key.empty();
    std::size_t start = 0;
    while (found) {
        auto dot = key.find('.', start);
        std::string k = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (!n.IsMap() || !n[k].IsDefined()) {
            found = false;
            break;
        }
        n = n[k];
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    if (found && n.Tag() == "!vp-set") throw InputError("--set " + msg);
    if (found && !n.Mark().is_null())
        loc += ":" + std::to_string(n.Mark().line + 1) + ":" + std::to_string(n.Mark().column + 1);
    throw InputError(loc + ": " + msg);
}

// The values of a coefficient set as YAML scalars by key (for naming the keys an override changed).
template <typename C>
std::map<std::string, std::string> coefficient_texts(C& c) {
    YAML::Emitter out;
    out << YAML::BeginMap;
    YamlWriter w(out);
    bind(w, c);
    out << YAML::EndMap;
    std::map<std::string, std::string> m;
    for (const auto& kv : YAML::Load(out.c_str())) m[kv.first.as<std::string>()] = kv.second.as<std::string>();
    return m;
}

// The mesh models each take one set of `mapper.coefficients`: for a key of another set, the note
// saying so (the value is replaced all the same, and the chosen model does not use it).
std::string mesh_set_note(const std::string& model, const std::string& key) {
    auto set_of = [](const std::string& m) -> std::string {
        if (m == "phased-pages") return "pg_*";
        if (m.rfind("phased", 0) == 0) return "ph_*";
        if (m == "queueing") return "mva_*";
        if (m == "calibrated") return "unprefixed (calibrated)";
        return "no";
    };
    const std::string set = key.rfind("pg_", 0) == 0    ? "pg_*"
                            : key.rfind("ph_", 0) == 0  ? "ph_*"
                            : key.rfind("mva_", 0) == 0 ? "mva_*"
                                                        : "unprefixed (calibrated)";
    if (set == set_of(model)) return "";
    return " (a coefficient of the " + set + " set; mesh_model " + model + " takes the " + set_of(model) + " set)";
}

// The keys of `section.coefficients` written in the configuration (or with --set) override the
// values a calibration file loaded into `c`: a calibrated model with one coefficient changed (a
// sensitivity study, a sweep over it). Each key whose value differs from the file's is reported.
template <typename C>
void override_coefficients(const YAML::Node& root, const std::string& file, const char* section, const std::string& calib,
                           C& c, std::vector<std::string>* warnings, const std::string& mesh_model = "") {
    const YamlCheck top(root, file, "");
    if (!top.has(section)) return;
    const YamlCheck sec = top.at(section);
    if (!sec.is_map() || !sec.has("coefficients")) return;
    const std::map<std::string, std::string> before = coefficient_texts(c);
    YamlReader r(sec.at("coefficients"));
    bind(r, c);
    r.finish();
    try {  // the combination too (pg_tail_full above pg_tail_from: one from the file, one set)
        c.validate(std::string(section) + ".coefficients");
    } catch (const InputError& e) {
        relocate(InputError(std::string(e.what()) + " (the configuration's " + section +
                            ".coefficients over those of the calibration file " + calib + ")"),
                 root, file);
    }
    std::string changed;
    for (const auto& [k, v] : coefficient_texts(c)) {
        const auto it = before.find(k);
        if (it != before.end() && it->second != v)
            changed += (changed.empty() ? "" : "; ") + std::string(section) + ".coefficients." + k + " = " + v +
                       " replaces the file's " + it->second + (mesh_model.empty() ? "" : mesh_set_note(mesh_model, k));
    }
    if (!changed.empty()) warnings->push_back(changed + " (calibration file " + calib + ")");
}
}  // namespace

std::map<std::string, double> clock_periods_ps(const PlatformSpec& spec) {
    const double dram = double(spec.dram.tck_ps);
    switch (spec.kind) {
    case PlatformKind::Dram: return {{"dram", dram}};
    case PlatformKind::Nmp: return {{"core", 1e6 / spec.nmp.arch.clock_mhz}, {"dram", dram}};
    case PlatformKind::Mesh:
        return {{"noc", 1e6 / spec.mesh.noc_mhz}, {"core", 1e6 / spec.core.core_mhz}, {"dram", dram}};
    case PlatformKind::Vta: {
        const double vta = spec.vta.clock_period_ps();
        return {{"vta", vta}, {"core", vta}, {"dram", dram}};
    }
    case PlatformKind::Noc: return {{"noc", 1e6 / spec.mesh.noc_mhz}};
    }
    return {};
}

namespace {
// stats.epoch against the platform's clocks: "N <clock> cycles" of a clock it has, and no epoch
// shorter than its fastest clock's period. Nothing the run samples changes faster: such an epoch
// only multiplies the intervals (1 ps on a 4 us LeNet-5 run on nmp: 4 million of them, each
// statistic written for each, about 10 GB of timeseries.csv).
void check_epoch(const PlatformSpec& spec) {
    const stats::EpochSpec e = stats::parse_epoch(spec.stats.epoch, "stats.epoch");
    if (e.mode != stats::EpochSpec::Mode::Time && e.mode != stats::EpochSpec::Mode::Cycles) return;
    const auto clocks = clock_periods_ps(spec);
    std::string names;
    for (const auto& [name, period] : clocks) names += (names.empty() ? "" : ", ") + name;
    double epoch = e.value;
    if (e.mode == stats::EpochSpec::Mode::Cycles) {
        const auto it = clocks.find(e.clock);
        if (it == clocks.end())
            throw InputError("stats.epoch: \"" + spec.stats.epoch + "\": the " + to_string(spec.kind) + " platform has no \"" +
                             e.clock + "\" clock (its clocks: " + names + ")");
        epoch = e.value * it->second;
    }
    // In whole ps (the kernel's resolution), as the run takes it; beyond 2^62 ps the conversion to
    // an integer would overflow.
    constexpr double kMaxPs = 4611686018427387904.0;  // 2^62 ps, about 53 days
    if (!(std::round(epoch) <= kMaxPs))
        throw InputError("stats.epoch: \"" + spec.stats.epoch + "\" is longer than 2^62 ps (about 53 days of simulated "
                         "time): expected a shorter epoch, or off");
    std::string fastest;  // on a tie the first of this order: the VTA's clock by its own name
    for (const char* c : {"vta", "noc", "core", "dram"})
        if (clocks.count(c) && (fastest.empty() || clocks.at(c) < clocks.at(fastest))) fastest = c;
    const long long min_ps = std::llround(clocks.at(fastest));
    if (std::round(epoch) < double(min_ps))
        throw InputError("stats.epoch: \"" + spec.stats.epoch + "\" is shorter than " + std::to_string(min_ps) +
                         " ps, the period of the " + to_string(spec.kind) + " platform's fastest clock (" + fastest +
                         "): nothing it samples changes faster; expected at least " + std::to_string(min_ps) +
                         " ps (\"1 " + fastest + " cycles\"), or auto");
}
}  // namespace

std::string platform_names() {
    std::string list;
    for (PlatformKind k : {PlatformKind::Dram, PlatformKind::Nmp, PlatformKind::Mesh, PlatformKind::Vta,
                           PlatformKind::Noc})
        list += (list.empty() ? "" : ", ") + std::string(to_string(k));
    return list;
}

PlatformSpec load_platform(const std::string& path, const std::vector<std::string>& overrides,
                           bool allow_unused) {
    return parse_platform(read_input_file(path, "a YAML platform configuration"), path, overrides, allow_unused);
}

namespace {
// Whether the platform reads the calibration key of `section`'s platform: its kind is `section`
// and its time model is one that a calibration file feeds.
bool reads_calibration(const PlatformSpec& s, PlatformKind section) {
    if (s.kind != section) return false;
    switch (section) {
    case PlatformKind::Nmp: return s.tso.dram_model == "calibrated";
    case PlatformKind::Mesh: return s.mapper.mesh_model != "paper";
    case PlatformKind::Vta: return s.vta_compiler.estimate_model == "calibrated";
    default: return false;
    }
}
}  // namespace

std::string calibration_in_use(const PlatformSpec& spec) {
    if (reads_calibration(spec, PlatformKind::Nmp)) return spec.tso.calibration;
    if (reads_calibration(spec, PlatformKind::Mesh)) return spec.mapper.calibration;
    if (reads_calibration(spec, PlatformKind::Vta)) return spec.vta_compiler.calibration;
    return "none";
}

PlatformSpec load_platform_uncalibrated(const std::string& path, const std::vector<std::string>& overrides) {
    return parse_platform(read_input_file(path, "a YAML platform configuration"), path, overrides, false, false);
}

std::string expand_calibration_path(const std::string& value, const std::string& key, const std::string& dram_preset) {
    static const std::string kPreset = "{dram.preset}";
    std::string out;
    for (std::size_t pos = 0; pos < value.size();) {
        const std::size_t open = value.find('{', pos);
        if (open == std::string::npos) {
            out += value.substr(pos);
            break;
        }
        out += value.substr(pos, open - pos);
        if (value.compare(open, kPreset.size(), kPreset) != 0) {
            const std::size_t close = value.find('}', open);
            throw InputError(key + ": \"" + value + "\": unknown placeholder \"" +
                             value.substr(open, close == std::string::npos ? std::string::npos : close - open + 1) +
                             "\" (the only one is {dram.preset}, the configuration's DRAM preset)");
        }
        out += dram_preset;
        pos = open + kPreset.size();
    }
    return out;
}

PlatformSpec parse_platform(const std::string& text, const std::string& path, const std::vector<std::string>& overrides,
                            bool allow_unused, bool calibrations) {
    YAML::Node root = load_yaml_text(text, path);
    if (!root.IsDefined() || root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
    const std::vector<FileSection> sections = file_sections(root);  // as written, before --set
    for (const auto& o : overrides) apply_override(root, o);
    PlatformSpec spec;
    spec.source = path;
    YamlCheck top(root, path, "");
    top.expect_map();
    if (!top.has("platform")) top.fail("missing required key \"platform\" (one of: " + platform_names() + ")");
    YamlReader r(top);
    try {
        bind(r, spec);
        r.finish();
    } catch (const YAML::Exception& e) {
        throw InputError(path + ": malformed configuration: " + e.msg);
    }
    if (!allow_unused) check_overrides_read(spec.kind, path, overrides);
    // One mesh description: the NoC takes its size and flit format from `mesh`.
    spec.noc.width = std::uint32_t(std::max(spec.mesh.width, 0));
    spec.noc.height = std::uint32_t(std::max(spec.mesh.height, 0));
    spec.noc.flit_width_bits = std::uint32_t(std::max(spec.mesh.packet.flit_bits, 0));
    spec.noc.header_flits = std::uint32_t(std::max(spec.mesh.packet.header_flits, 0));
    // One source of hardware figures: the mappers see the DRAM the simulation uses.
    spec.nmp.arch.dram = dram_figures(spec.dram);
    spec.mesh.hw = mesh_figures(spec);
    try {
        spec.sim.validate("sim");
        spec.stats.validate("stats");
        spec.trace.validate("trace");
        spec.dram.validate("dram");
        spec.nmp.validate("nmp");
        spec.tso.validate("tso");
        spec.mapper.validate("mapper");
        spec.core.validate("core");
        spec.energy.validate("energy");
        // The noc platform reads the mesh's size, clock and packet format, not where the mesh
        // platform puts its master, DRAM interfaces and cores (platform_keys.cpp): a 1x4 or 2x1
        // NoC has no room for them and needs none.
        spec.mesh.validate("mesh", spec.kind != PlatformKind::Noc);
        // Every pattern sends a packet to another node than its source (traffic_pattern.h): on one
        // node the run would measure nothing.
        if (spec.kind == PlatformKind::Noc && spec.mesh.width * spec.mesh.height < 2)
            throw InputError("mesh.width: the noc platform needs at least 2 nodes (1x2 or 2x1): on a 1x1 mesh synthetic "
                             "traffic has no destination but its source, and no packet is ever sent");
        validate_noc(spec.noc);
        spec.traffic.validate("traffic", spec.noc);
        spec.vta.validate("vta");
        spec.vta_compiler.validate("vta_compiler");
        check_epoch(spec);  // after the clocks it is measured against
        if (spec.kind == PlatformKind::Mesh) spec.noc.validate_message_classes("noc");
    } catch (const InputError& e) {
        relocate(e, root, path);
    }
    // After validation, so that a bad value is reported as such, not as a mismatch. Calibration
    // paths are relative to the config file and resolved to absolute paths, so that the resolved
    // configuration (OUT/config.yaml, the children of --refine) finds the file from anywhere.
    // A file made for another platform or DRAM preset is an error; any other difference from
    // its made_for section is a warning (calibration.h).
    std::vector<std::string> warnings = unread_sections(spec.kind, sections, path);
    if (!calibrations) spec.vta_compiler.calibration = spec.tso.calibration = spec.mapper.calibration = "none";
    // "{dram.preset}" in a calibration path: the file made for this configuration's preset. A
    // preset without one is named, with the two ways out.
    auto expand = [&](std::string& value, const std::string& key, PlatformKind section) {
        if (value == "none") return;
        const bool used = reads_calibration(spec, section);
        try {
            const std::string file = expand_calibration_path(value, key, spec.dram.preset);
            const bool templated = file != value;
            value = resolve_relative(file, path);
            std::error_code ec;
            if (used && templated && !std::filesystem::exists(value, ec))
                throw InputError(key + ": no calibration file for dram.preset = " + spec.dram.preset + ": " + value +
                                 " does not exist (write it with vp-calibrate " + path + " --set dram.preset=" +
                                 spec.dram.preset + " --out " + value + ", or set " + key +
                                 ": none for the model's default coefficients)");
        } catch (const InputError& e) {
            relocate(e, root, path);
        }
    };
    expand(spec.vta_compiler.calibration, "vta_compiler.calibration", PlatformKind::Vta);
    expand(spec.tso.calibration, "tso.calibration", PlatformKind::Nmp);
    expand(spec.mapper.calibration, "mapper.calibration", PlatformKind::Mesh);
    // Only the file the platform's model reads is loaded (calibration_in_use).
    const std::string file = calibration_in_use(spec);
    if (file != "none" && spec.kind == PlatformKind::Vta) {
        spec.vta_compiler.coefficients = load_vta_calibration(file, spec, &warnings);
        override_coefficients(root, path, "vta_compiler", file, spec.vta_compiler.coefficients, &warnings);
    } else if (file != "none" && spec.kind == PlatformKind::Nmp) {
        spec.tso.coefficients = load_calibration(file, spec, &warnings);
        override_coefficients(root, path, "tso", file, spec.tso.coefficients, &warnings);
    } else if (file != "none" && spec.kind == PlatformKind::Mesh) {
        spec.mapper.coefficients = load_mesh_calibration(file, spec, &warnings);
        override_coefficients(root, path, "mapper", file, spec.mapper.coefficients, &warnings, spec.mapper.mesh_model);
    }
    for (const auto& w : warnings) std::cerr << "warning: " << w << "\n";
    return spec;
}

std::string to_yaml(const PlatformSpec& spec) {
    YAML::Emitter out;
    out << YAML::BeginMap;
    YamlWriter w(out);
    bind(w, const_cast<PlatformSpec&>(spec));
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

}  // namespace vp::config
