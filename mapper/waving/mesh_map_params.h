#pragma once
// The mesh as the many-core mapper sees it (Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect Section VI): node positions of
// the processing cores, the master core and the DRAM interface block(s), and the NoC
// packet format. Defaults are ASSUMPTIONS (the paper publishes none of these values).
#include <string>
#include <vector>

#include "mapper/waving/mesh_hw_figures.h"

namespace vp::mapper::waving {

struct MeshNode {
    int x = 0, y = 0;
    bool operator==(const MeshNode& o) const { return x == o.x && y == o.y; }
};

inline int hops(const MeshNode& a, const MeshNode& b) {  // XY routing: Manhattan distance
    return (a.x > b.x ? a.x - b.x : b.x - a.x) + (a.y > b.y ? a.y - b.y : b.y - a.y);
}

// Index of the node of `nodes` nearest to n in hops (ties: lower index; 0 when empty).
inline int nearest_of(const std::vector<MeshNode>& nodes, const MeshNode& n) {
    int best = 0;
    for (int i = 1; i < int(nodes.size()); ++i)
        if (hops(n, nodes[std::size_t(i)]) < hops(n, nodes[std::size_t(best)])) best = i;
    return best;
}

// NoC packet format. F(p) = header_flits + ceil(payload_bits / flit_bits) (Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect, Eq. 23).
struct PacketFormat {
    static constexpr int kDefaultFlitBits = 64;           // bits, ASSUMPTION
    static constexpr int kDefaultHeaderFlits = 1;         // flits per packet, ASSUMPTION
    static constexpr int kDefaultMaxPayloadBytes = 64;    // bytes per packet (one DMA burst), ASSUMPTION

    int flit_bits = kDefaultFlitBits;
    int header_flits = kDefaultHeaderFlits;
    int max_payload_bytes = kDefaultMaxPayloadBytes;
    // A read is a header-only request packet plus a response packet carrying the data.
    // A write is a request packet carrying the data plus, if write_ack, a header-only ack.
    bool write_ack = true;  // ASSUMPTION: non-posted writes (the core must know when its drain is done)

    void validate(const std::string& prefix) const;
};

struct MeshMapParams {
    static constexpr int kDefaultWidth = 4;
    static constexpr int kDefaultHeight = 4;
    static constexpr double kDefaultNocMhz = 1000.0;  // MHz, ASSUMPTION (NoC faster than the cores)
    static constexpr double kDefaultFlitWeight = 1.0; // cost units per flit in Eq. 23, ASSUMPTION

    int width = kDefaultWidth;
    int height = kDefaultHeight;
    // Explicit core positions; empty = every node that is neither master nor a DRAM interface.
    std::vector<MeshNode> cores;
    MeshNode master{1, 0};
    std::vector<MeshNode> dram_ifs{MeshNode{0, 0}};
    PacketFormat packet;
    double noc_mhz = kDefaultNocMhz;
    // Eq. 23 adds core cycles and flits; the relative weight is not published.
    double flit_weight = kDefaultFlitWeight;
    // DRAM and NoC figures of the simulated hardware (filled by platform/config; used by the
    // calibrated time model only).
    MeshHwFigures hw;

    // Throws vp::InputError("<prefix>.<field>: ..."). placement: also the master, DRAM interface and
    // core positions, and a node left for a core (the mesh platform's; the NoC under synthetic
    // traffic reads the size, clock and packet format only).
    void validate(const std::string& prefix, bool placement = true) const;
    // Core positions after applying the "empty = all free nodes" rule (row-major order).
    std::vector<MeshNode> resolved_cores() const;
};

}  // namespace vp::mapper::waving
