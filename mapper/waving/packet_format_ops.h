#pragma once
// Splits the DMA operations of the loop nest into NoC packets and counts their flits:
// F(p) = header_flits + ceil(payload_bits / flit_bits) (Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect, Eq. 23). A segment of
// B bytes becomes ceil(B / max_payload_bytes) packets; a read is a header-only request
// plus a response carrying the data, a write carries the data (plus an optional ack).
// The mapper's flit term and the core model's packet formation both use these functions.
#include <cstdint>

#include "mapper/tiling/loop_nest.h"
#include "mapper/waving/mesh_map_params.h"

namespace vp::mapper::waving {

struct FlitCount {
    std::uint64_t packets = 0;  // all packets: requests, responses, acks
    std::uint64_t flits = 0;
    FlitCount& operator+=(const FlitCount& o) {
        packets += o.packets;
        flits += o.flits;
        return *this;
    }
};

// Flits of one packet with `payload_bytes` of data (0 = header only).
inline std::uint64_t packet_flits(const PacketFormat& f, std::uint64_t payload_bytes) {
    const std::uint64_t fb = std::uint64_t(f.flit_bits);
    return std::uint64_t(f.header_flits) + (payload_bytes * 8 + fb - 1) / fb;
}

// All packets (both directions) caused by one DMA operation; zero for Compute.
FlitCount op_flits(const tiling::Op& op, const PacketFormat& f);

// Calls fn(addr, payload_bytes) for every data-carrying transfer of a DMA op, in issue
// order (segment by segment, max_payload_bytes at a time). For the core model.
template <class F>
void for_each_transfer(const tiling::Op& op, const PacketFormat& f, F&& fn) {
    const std::uint64_t maxp = std::uint64_t(f.max_payload_bytes);
    for (std::uint32_t s = 0; s < op.n_segs; ++s) {
        const std::uint64_t base = op.dram_addr + std::uint64_t(s) * op.seg_stride;
        for (std::uint64_t off = 0; off < op.seg_bytes; off += maxp) {
            const std::uint64_t b = op.seg_bytes - off < maxp ? op.seg_bytes - off : maxp;
            fn(base + off, b);
        }
    }
}

}  // namespace vp::mapper::waving
