#include "mapper/waving/packet_format_ops.h"

namespace vp::mapper::waving {

FlitCount op_flits(const tiling::Op& op, const PacketFormat& f) {
    FlitCount c;
    if (!op.is_dma() || op.n_segs == 0 || op.seg_bytes == 0) return c;
    const std::uint64_t maxp = std::uint64_t(f.max_payload_bytes);
    const std::uint64_t full = op.seg_bytes / maxp, rem = op.seg_bytes % maxp;
    const std::uint64_t per_seg_transfers = full + (rem ? 1 : 0);
    const std::uint64_t payload_flits = full * (packet_flits(f, maxp) - f.header_flits) +
                                        (rem ? packet_flits(f, rem) - f.header_flits : 0);
    const std::uint64_t hdr = std::uint64_t(f.header_flits);
    // Per transfer: read = request (header) + response (header + data);
    //               write = request (header + data) [+ ack (header)].
    const std::uint64_t packets_per_transfer = op.is_load() ? 2 : (f.write_ack ? 2 : 1);
    const std::uint64_t n = std::uint64_t(op.n_segs);
    c.packets = n * per_seg_transfers * packets_per_transfer;
    c.flits = n * (payload_flits + per_seg_transfers * packets_per_transfer * hdr);
    return c;
}

}  // namespace vp::mapper::waving
