// The table of keys each platform reads (platform/config/platform_keys.h) and the strict
// --set check built on it. Regression tests of the table's logic; tests/cli/unread_keys.sh
// checks the table against what the platforms actually do.
#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

#include "mapper/common/errors.h"
#include "platform/config/platform_keys.h"
#include "platform/config/platform_spec.h"

using namespace vp::config;

namespace {
const std::string kRoot = VP_SOURCE_DIR;

std::string error_of(const std::string& cfg, const std::vector<std::string>& sets) {
    try {
        load_platform(kRoot + "/configs/" + cfg, sets);
    } catch (const vp::InputError& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST_CASE("reads_key: inside a read section, containing a read key, or neither") {
    CHECK(reads_key(PlatformKind::Dram, "dram"));
    CHECK(reads_key(PlatformKind::Dram, "dram.timing.tRCD"));
    CHECK_FALSE(reads_key(PlatformKind::Dram, "nmp.n_tle"));
    CHECK_FALSE(reads_key(PlatformKind::Dram, "dramx"));  // a prefix is not a section
    CHECK_FALSE(reads_key(PlatformKind::Nmp, "seed"));
    CHECK(reads_key(PlatformKind::Noc, "mesh.width"));
    CHECK(reads_key(PlatformKind::Noc, "mesh"));           // contains mesh.width
    CHECK(reads_key(PlatformKind::Noc, "mesh.packet"));    // contains mesh.packet.flit_bits
    CHECK_FALSE(reads_key(PlatformKind::Noc, "mesh.cores"));
    CHECK_FALSE(reads_key(PlatformKind::Noc, "mesh.packet.write_ack"));
    for (PlatformKind k : {PlatformKind::Dram, PlatformKind::Nmp, PlatformKind::Mesh, PlatformKind::Vta,
                           PlatformKind::Noc}) {
        CHECK(reads_key(k, "platform"));
        CHECK(reads_key(k, "sim.threads"));
        CHECK(reads_key(k, "trace.enabled"));
    }
}

// One shipped config per platform.
const std::pair<PlatformKind, const char*> kShippedConfigs[] = {{PlatformKind::Dram, "dram-ddr3.yaml"},
                                                                {PlatformKind::Nmp, "nmp.yaml"},
                                                                {PlatformKind::Mesh, "mesh-4x4.yaml"},
                                                                {PlatformKind::Vta, "vta.yaml"},
                                                                {PlatformKind::Noc, "mesh-8x8-synthetic.yaml"}};

TEST_CASE("every key of the table exists in the schema (the resolved config.yaml)") {
    for (const auto& [kind, cfg] : kShippedConfigs) {
        const PlatformSpec spec = load_platform(kRoot + "/configs/" + cfg, {});
        REQUIRE(spec.kind == kind);
        const YAML::Node resolved = YAML::Load(to_yaml(spec));
        for (const std::string& key : read_keys(kind)) {
            YAML::Node n;
            n.reset(resolved);
            std::size_t start = 0;
            while (true) {
                const auto dot = key.find('.', start);
                const std::string part = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
                INFO(cfg << ": " << key);
                REQUIRE(n.IsMap());
                REQUIRE(n[part].IsDefined());
                n.reset(n[part]);  // rebinds (operator= would assign into the tree)
                if (dot == std::string::npos) break;
                start = dot + 1;
            }
        }
    }
}

TEST_CASE("an override of an unread key is refused, naming the platform and what it reads") {
    const std::string e = error_of("dram-ddr3.yaml", {"nmp.n_tle=8"});
    CHECK(e.find("--set nmp.n_tle") != std::string::npos);
    CHECK(e.find("dram platform") != std::string::npos);
    CHECK(e.find("it reads: platform, name, sim, stats, trace, seed, dram") != std::string::npos);
    CHECK(e.find("--allow-unused") != std::string::npos);
    CHECK(error_of("mesh-8x8-synthetic.yaml", {"mesh.cores=[[1,1]]"}).find("noc platform") != std::string::npos);
    CHECK(error_of("nmp.yaml", {"seed=3"}).find("nmp platform") != std::string::npos);
}

TEST_CASE("read keys pass, and --allow-unused accepts an unread key and keeps its value") {
    CHECK(error_of("dram-ddr3.yaml", {"dram.scheduler=fcfs", "seed=4", "sim.threads=1"}).empty());
    CHECK(error_of("mesh-8x8-synthetic.yaml", {"mesh.width=4", "traffic.rate=0.1"}).empty());
    const PlatformSpec spec = load_platform(kRoot + "/configs/dram-ddr3.yaml", {"nmp.n_tle=8"}, true);
    CHECK(spec.nmp.arch.n_tle == 8);
}

TEST_CASE("an unknown key is still an unknown key, with or without --allow-unused") {
    CHECK(error_of("dram-ddr3.yaml", {"nmp.bogus=1"}).find("unknown key") != std::string::npos);
    CHECK_THROWS_AS(load_platform(kRoot + "/configs/dram-ddr3.yaml", {"nmp.bogus=1"}, true), vp::InputError);
}

TEST_CASE("a section the platform does not read is named once, with the file, its line and the platform") {
    const auto warn = [](const std::string& text, PlatformKind kind) {
        return unread_sections(kind, file_sections(YAML::Load(text)), "cfg.yaml");
    };
    const auto w = warn("platform: mesh\nseed: 3\nnmp:\n  n_tle: 4\nmesh:\n  width: 4\n", PlatformKind::Mesh);
    REQUIRE(w.size() == 1);  // not seed (a scalar), not mesh (read)
    CHECK(w[0] == "cfg.yaml:3: section \"nmp\" is not read by platform \"mesh\" (it reads: sim, stats, trace, mesh, core, "
                  "energy, mapper, noc, dram)");
    // Partly read sections are read: the noc platform reads mesh.width, nmp mapper.refine.
    CHECK(warn("platform: noc\nmesh:\n  master: [0, 0]\n", PlatformKind::Noc).empty());
    CHECK(warn("platform: nmp\nmapper:\n  objective: min-dram\n", PlatformKind::Nmp).empty());
    // One file for several platforms (--set platform=): the sections of the others are named.
    CHECK(warn("platform: nmp\nnmp:\n  n_tle: 2\nvta:\n  clock_mhz: 50\n", PlatformKind::Vta).size() == 1);
    CHECK(warn("platform: nmp\nnmp:\n  n_tle: 2\nvta:\n  clock_mhz: 50\n", PlatformKind::Dram).size() == 2);
    // A key outside the schema is left to the binding's "unknown key" error (it threw InvalidNode
    // here, read before the binding: found by the config_yaml replay of a calibration file).
    CHECK(warn("platform: mesh\nmodel: x\n", PlatformKind::Mesh).empty());
}

TEST_CASE("the resolved configuration of every shipped config names no section (OUT/config.yaml reruns quietly)") {
    for (const auto& [kind, cfg] : kShippedConfigs) {
        INFO(cfg);
        const PlatformSpec spec = load_platform(kRoot + "/configs/" + cfg, {});
        const YAML::Node file = YAML::LoadFile(kRoot + "/configs/" + cfg);
        CHECK(unread_sections(kind, file_sections(file), cfg).empty());
        CHECK(unread_sections(kind, file_sections(YAML::Load(to_yaml(spec))), cfg).empty());
    }
    // In the resolved configuration of configs/nmp.yaml --set platform=mesh, a section that differs
    // from its defaults is still named (tso: the calibration file); the nmp section, whose values
    // in configs/nmp.yaml are the defaults, is written like any untouched one.
    const PlatformSpec moved = load_platform(kRoot + "/configs/nmp.yaml", {"platform=mesh"});
    const auto w = unread_sections(PlatformKind::Mesh, file_sections(YAML::Load(to_yaml(moved))), "config.yaml");
    REQUIRE(w.size() == 1);
    CHECK(w[0].find("section \"tso\"") != std::string::npos);
}
