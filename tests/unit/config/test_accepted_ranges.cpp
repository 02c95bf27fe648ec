// The accepted ranges that platform/config/bindings.h gives signed integer keys (Accepts) are
// the ranges the structs' validate() accept: both bounds load, one beyond either is refused, and
// a value the reader cannot store (not an integer, beyond the member's type) is refused quoting
// the accepted range, not the type's.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "mapper/common/errors.h"
#include "platform/config/bindings.h"
#include "platform/config/platform_spec.h"

using namespace vp::config;

// A named namespace: the unit build joins this file with the area's others.
namespace accepts_test {
const std::string kRoot = VP_SOURCE_DIR;

// Lists the keys that bind() gives an accepted range, as a reader visits them (every section,
// the nmp fabric included, which the writer leaves out at its defaults).
class AcceptsLister {
public:
    static constexpr bool kReading = true;
    AcceptsLister(std::map<std::string, Accepts>& out, std::string prefix = "")
        : m_out(out), m_prefix(std::move(prefix)), m_node(YAML::Node(), "", "") {}
    bool has(const std::string&) const { return false; }
    const YamlCheck& node() const { return m_node; }
    template <typename T>
    void field(const char*, T&) {}
    template <typename T>
    void field(const char* k, T&, Accepts a) {
        m_out.emplace(m_prefix + k, a);
    }
    template <typename E>
    void choice(const char*, E&, const Choices<E>&) {}
    void points(const char*, std::vector<std::pair<int, int>>&) {}
    template <typename F>
    void section(const char* k, F&& fn) {
        AcceptsLister sub(m_out, m_prefix + k + ".");
        fn(sub);
    }
    void finish() const {}

private:
    std::map<std::string, Accepts>& m_out;
    std::string m_prefix;
    YamlCheck m_node;
};

// The configuration whose platform reads the key's section, without calibration files.
std::string config_for(const std::string& key) {
    if (key.rfind("nmp.", 0) == 0) return "nmp.yaml";
    if (key.rfind("vta.", 0) == 0) return "vta.yaml";
    return "mesh-4x4.yaml";  // mesh, core, mapper
}
const std::vector<std::string> kNoCalibration{"tso.calibration=none", "mapper.calibration=none",
                                              "vta_compiler.calibration=none"};

// Keys whose bound holds only with other keys set accordingly.
const std::map<std::string, std::vector<std::string>> kWithBound{
    {"nmp.mb0_bytes=1", {"nmp.double_buffer=false"}},
    {"nmp.mb1_bytes=1", {"nmp.double_buffer=false"}},
    {"nmp.ring.buffer_flits=2", {"nmp.ring.packet_flits=1"}},
    {"nmp.ring.packet_flits=4096", {"nmp.ring.buffer_flits=8192"}},
    {"mesh.width=1", {"mesh.master=[0,0]", "mesh.dram_ifs=[[0,1]]", "mesh.cores=[]"}},
    {"mesh.height=1", {"mesh.master=[0,0]", "mesh.dram_ifs=[[1,0]]", "mesh.cores=[]"}},
    {"mesh.width=256", {"mesh.cores=[]"}},
    {"mesh.height=256", {"mesh.cores=[]"}},
    {"core.sram_bytes=1", {"core.word_bits=8"}},
    // The VTA's instruction fields grow with the buffers' depths (mapper/vta/vta_config.cpp):
    // a bound fits 128 bits with the other buffers made small.
    {"vta.log_block=1", {"vta.log_inp_buff_size=2", "vta.log_wgt_buff_size=3", "vta.log_acc_buff_size=4", "vta.log_uop_buff_size=4"}},
    {"vta.log_inp_buff_size=2", {"vta.log_block=1", "vta.log_wgt_buff_size=3", "vta.log_acc_buff_size=4", "vta.log_uop_buff_size=4"}},
    {"vta.log_wgt_buff_size=3", {"vta.log_block=1", "vta.log_inp_buff_size=2", "vta.log_acc_buff_size=4", "vta.log_uop_buff_size=4"}},
    {"vta.log_acc_buff_size=4", {"vta.log_block=1", "vta.log_inp_buff_size=2", "vta.log_wgt_buff_size=3", "vta.log_uop_buff_size=4"}},
    {"vta.log_inp_buff_size=24", {"vta.log_block=6", "vta.log_uop_buff_size=4", "vta.log_acc_buff_size=12", "vta.log_wgt_buff_size=16"}},
    {"vta.log_wgt_buff_size=26", {"vta.log_block=6"}},
    {"vta.log_acc_buff_size=24", {"vta.log_block=6", "vta.log_batch=4", "vta.log_uop_buff_size=4"}},
    {"vta.log_uop_buff_size=20", {"vta.log_block=6", "vta.log_inp_buff_size=12", "vta.log_acc_buff_size=12", "vta.log_wgt_buff_size=16"}},
};

std::string load_error(const std::string& key, const std::string& value) {
    std::vector<std::string> sets = kNoCalibration;
    const std::string set = key + "=" + value;
    sets.push_back(set);
    if (const auto it = kWithBound.find(set); it != kWithBound.end()) sets.insert(sets.end(), it->second.begin(), it->second.end());
    try {
        load_platform(kRoot + "/configs/" + config_for(key), sets, true);
    } catch (const vp::InputError& e) {
        return e.what();
    }
    return "";
}
}  // namespace accepts_test

TEST_CASE("an integer key's accepted range is what its validate() accepts, and errors quote it") {
    std::map<std::string, Accepts> keys;
    accepts_test::AcceptsLister lister(keys);
    PlatformSpec spec;
    bind(lister, spec);
    REQUIRE(keys.size() >= 30);
    for (const auto& [key, a] : keys) {
        INFO(key << " accepts " << a.min << ".." << a.max);
        CHECK(accepts_test::load_error(key, std::to_string(a.min)) == "");
        CHECK(accepts_test::load_error(key, std::to_string(a.max)) == "");
        CHECK_THAT(accepts_test::load_error(key, std::to_string(a.min - 1)), Catch::Contains("--set " + key));
        CHECK_THAT(accepts_test::load_error(key, std::to_string(a.max + 1)), Catch::Contains("--set " + key));
        const std::string quoted =
            "(expected " + std::to_string(a.min) + (a.min == a.max ? "" : ".." + std::to_string(a.max)) + ")";
        CHECK_THAT(accepts_test::load_error(key, "x"), Catch::Contains("--set " + key + ": expected an integer " + quoted));
        CHECK_THAT(accepts_test::load_error(key, "99999999999999999999"),
                   Catch::Contains("--set " + key + ": value 99999999999999999999 out of range " + quoted));
    }
}
