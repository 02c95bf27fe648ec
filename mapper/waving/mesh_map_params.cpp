#include "mapper/waving/mesh_map_params.h"

#include <set>
#include <utility>

#include "mapper/common/clock_range.h"
#include "mapper/common/errors.h"

namespace vp::mapper::waving {

namespace {

[[noreturn]] void fail(const std::string& prefix, const std::string& field, const std::string& what) {
    throw InputError(prefix + "." + field + ": " + what);
}

std::string pos(const MeshNode& n) { return "(" + std::to_string(n.x) + ", " + std::to_string(n.y) + ")"; }

}  // namespace

void PacketFormat::validate(const std::string& prefix) const {
    if (flit_bits < 8 || flit_bits > 4096)
        fail(prefix, "flit_bits", "expected a flit width in bits in [8, 4096], got " + std::to_string(flit_bits));
    if (header_flits < 1 || header_flits > 64)
        fail(prefix, "header_flits", "expected 1..64 header flits per packet, got " + std::to_string(header_flits));
    if (max_payload_bytes < 1 || max_payload_bytes > (1 << 20))
        fail(prefix, "max_payload_bytes", "expected 1..1048576 bytes, got " + std::to_string(max_payload_bytes));
}

void MeshMapParams::validate(const std::string& prefix, bool placement) const {
    if (width < 1 || width > 256) fail(prefix, "width", "expected 1..256 columns, got " + std::to_string(width));
    if (height < 1 || height > 256) fail(prefix, "height", "expected 1..256 rows, got " + std::to_string(height));
    packet.validate(prefix + ".packet");
    if (!clock_mhz_ok(noc_mhz)) fail(prefix, "noc_mhz", clock_mhz_expected(noc_mhz));
    if (!(flit_weight >= 0.0) || flit_weight > 1.0e9)
        fail(prefix, "flit_weight", "expected a weight >= 0, got " + std::to_string(flit_weight));
    if (!placement) return;
    // Every core is a SystemC thread with a stack of its own, each stack memory-mapped with a guard
    // page: 65,280 of them (256 x 255) exceed Linux's default vm.max_map_count (65,530) and
    // SystemC's stack setup fails; 32,512 (256 x 127) still elaborated. 128 x 128 takes 2.4 GB.
    if (long(width) * height > 16384)
        fail(prefix, "width", "the " + std::to_string(width) + "x" + std::to_string(height) + " mesh has " +
                                  std::to_string(long(width) * height) +
                                  " nodes, at most 16384 (128 x 128) for the mesh platform, whose every core is a "
                                  "SystemC thread with its own stack (the synthetic NoC, platform noc, takes up to 65535)");
    auto inside = [&](const MeshNode& n) { return n.x >= 0 && n.x < width && n.y >= 0 && n.y < height; };
    const std::string dims = std::to_string(width) + "x" + std::to_string(height);
    std::set<std::pair<int, int>> used;
    if (!inside(master)) fail(prefix, "master", "node " + pos(master) + " is outside the " + dims + " mesh");
    used.insert({master.x, master.y});
    if (dram_ifs.empty()) fail(prefix, "dram_ifs", "at least one DRAM interface position is required");
    for (std::size_t i = 0; i < dram_ifs.size(); ++i) {
        const std::string f = "dram_ifs[" + std::to_string(i) + "]";
        if (!inside(dram_ifs[i]))
            fail(prefix, f, "DRAM interface " + pos(dram_ifs[i]) + " is outside the " + dims + " mesh (x in [0, " +
                                std::to_string(width - 1) + "], y in [0, " + std::to_string(height - 1) + "])");
        if (!used.insert({dram_ifs[i].x, dram_ifs[i].y}).second)
            fail(prefix, f, "node " + pos(dram_ifs[i]) + " is already taken by the master or another DRAM interface");
    }
    const long free_nodes = long(width) * height - long(used.size());
    if (!cores.empty() && long(cores.size()) > free_nodes)
        fail(prefix, "cores", std::to_string(cores.size()) + " cores named but the " + dims + " mesh has only " +
                                  std::to_string(free_nodes) + " nodes left after the master and DRAM interface(s)");
    for (std::size_t i = 0; i < cores.size(); ++i) {
        const std::string f = "cores[" + std::to_string(i) + "]";
        if (!inside(cores[i])) fail(prefix, f, "core " + pos(cores[i]) + " is outside the " + dims + " mesh");
        if (!used.insert({cores[i].x, cores[i].y}).second)
            fail(prefix, f, "node " + pos(cores[i]) + " is already taken (master, DRAM interface or another core)");
    }
    if (cores.empty() && free_nodes < 1)
        fail(prefix, "width", "the " + dims + " mesh has no node left for a processing core");
}

std::vector<MeshNode> MeshMapParams::resolved_cores() const {
    if (!cores.empty()) return cores;
    std::vector<MeshNode> out;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            MeshNode n{x, y};
            if (n == master) continue;
            bool is_dram = false;
            for (const auto& d : dram_ifs) is_dram = is_dram || d == n;
            if (!is_dram) out.push_back(n);
        }
    return out;
}

}  // namespace vp::mapper::waving
