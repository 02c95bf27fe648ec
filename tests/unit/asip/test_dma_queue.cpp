// DmaQueue: the transfers of a DMA op cover exactly its bytes, in packet-sized pieces whose
// count is the packet count of the mapper's flit term (op_flits / 2 for reads and acked writes);
// completion bookkeeping of the replay contract (loop_nest.h). References: brute-force byte
// coverage and hand-worked examples.
#include <catch2/catch.hpp>

#include <map>
#include <vector>

#include "mapper/waving/packet_format_ops.h"
#include "models/asip/dma_queue.h"

using vp::asip::DmaQueue;
using vp::asip::DmaTransfer;
using vp::mapper::tiling::Op;
using vp::mapper::tiling::OpKind;

namespace {
Op dma(OpKind k, bool wait, std::uint64_t addr, std::uint64_t seg, std::uint32_t n, std::uint64_t stride) {
    Op o;
    o.kind = k;
    o.wait = wait;
    o.dram_addr = addr;
    o.seg_bytes = seg;
    o.n_segs = n;
    o.seg_stride = stride;
    return o;
}
}  // namespace

TEST_CASE("DmaQueue transfers cover every byte once, in max-payload pieces", "[asip]") {
    for (std::uint32_t maxp : {8u, 64u, 100u}) {
        for (std::uint64_t seg : {1ull, 63ull, 64ull, 65ull, 200ull}) {
            for (std::uint32_t n : {1u, 3u}) {
                DmaQueue q(maxp, 4);
                const Op op = dma(OpKind::LoadIfmap, false, 1000, seg, n, 4096);
                q.push(op);
                std::map<std::uint64_t, int> covered;
                std::uint64_t count = 0;
                while (q.has_transfer()) {
                    const DmaTransfer t = q.next_transfer();
                    REQUIRE(t.bytes >= 1);
                    REQUIRE(t.bytes <= maxp);
                    REQUIRE_FALSE(t.write);
                    for (std::uint64_t b = 0; b < t.bytes; ++b) ++covered[t.addr + b];
                    q.pop_transfer();
                    ++count;
                }
                // Brute force: every byte of every segment exactly once, nothing else.
                REQUIRE(covered.size() == seg * n);
                for (std::uint32_t s = 0; s < n; ++s)
                    for (std::uint64_t b = 0; b < seg; ++b) REQUIRE(covered[1000 + s * 4096 + b] == 1);
                // The mapper counts a request and a response packet per transfer.
                vp::mapper::waving::PacketFormat f;
                f.max_payload_bytes = int(maxp);
                REQUIRE(vp::mapper::waving::op_flits(op, f).packets == 2 * count);
            }
        }
    }
}

TEST_CASE("DmaQueue completion: ops, loads and stores done up to a sequence number", "[asip]") {
    DmaQueue q(64, 8);
    const auto s1 = q.push(dma(OpKind::LoadFilter, true, 0, 128, 1, 0));   // 2 transfers
    const auto s2 = q.push(dma(OpKind::StorePsum, false, 4096, 64, 2, 256));  // 2 transfers
    const auto s3 = q.push(dma(OpKind::LoadIfmap, false, 8192, 10, 1, 0));  // 1 transfer
    REQUIRE(s1 == 1);
    REQUIRE(s2 == 2);
    REQUIRE(s3 == 3);
    std::vector<DmaTransfer> tr;
    while (q.has_transfer()) {
        tr.push_back(q.next_transfer());
        q.pop_transfer();
    }
    REQUIRE(tr.size() == 5);
    REQUIRE(tr[2].write);
    REQUIRE(tr[2].addr == 4096);
    REQUIRE(tr[3].addr == 4096 + 256);
    REQUIRE_FALSE(q.loads_done_upto(1));
    REQUIRE(q.loads_done_upto(0));
    // Complete out of order: the ifmap load first.
    REQUIRE(q.complete(tr[4].slot));
    REQUIRE(q.op_done(s3));
    REQUIRE_FALSE(q.loads_done_upto(3));  // the filter load (seq 1) is still open
    REQUIRE_FALSE(q.complete(tr[0].slot));
    REQUIRE(q.complete(tr[1].slot));
    REQUIRE(q.loads_done_upto(3));
    REQUIRE_FALSE(q.stores_done_upto(2));
    REQUIRE(q.stores_done_upto(1));
    REQUIRE_FALSE(q.complete(tr[2].slot));
    REQUIRE(q.complete(tr[3].slot));
    REQUIRE(q.stores_done_upto(3));
    REQUIRE(q.empty());
    REQUIRE(q.transfers_issued() == 5);
    REQUIRE(q.transfers_completed() == 5);
}

TEST_CASE("DmaQueue capacity and empty operations", "[asip]") {
    DmaQueue q(64, 2);
    q.push(dma(OpKind::LoadPsum, false, 0, 64, 1, 0));
    q.push(dma(OpKind::LoadPsum, false, 64, 0, 1, 0));  // no bytes: complete at once
    REQUIRE(q.full());
    REQUIRE(q.op_done(2));
    REQUIRE_THROWS(q.push(dma(OpKind::LoadPsum, false, 0, 64, 1, 0)));
    const DmaTransfer t = q.next_transfer();
    q.pop_transfer();
    REQUIRE_FALSE(q.has_transfer());
    REQUIRE(q.complete(t.slot));
    REQUIRE(q.empty());
    REQUIRE_THROWS(DmaQueue(0, 4));
}
