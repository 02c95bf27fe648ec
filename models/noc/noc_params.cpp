#include "models/noc/noc_params.h"

#include <cstdint>
#include <cstdio>
#include <string>

#include "mapper/common/errors.h"
#include "models/noc/flit.h"
#include "models/noc/routing.h"

namespace vp::noc {

namespace {
void require(bool ok, const std::string& prefix, const char* field, const std::string& what) {
    if (!ok) throw vp::InputError(prefix + "." + field + ": " + what);
}
}  // namespace

void NocParams::validate(const std::string& p) const {
    require(width >= 1 && width <= 256, p, "width", "expected an integer in [1, 256]");
    require(height >= 1 && height <= 256, p, "height", "expected an integer in [1, 256]");
    require(width * height >= 1 && width * height <= 65535, p, "width", "width x height must be at most 65535 nodes");
    require(buffer_depth >= 1 && buffer_depth <= 1024, p, "buffer_depth", "expected an integer in [1, 1024] (flits per VC)");
    require(num_vcs >= 1 && num_vcs <= 12, p, "num_vcs", "expected an integer in [1, 12]");
    require(flit_width_bits >= 8 && flit_width_bits % 8 == 0 && flit_width_bits <= 4096, p, "flit_width_bits",
            "expected a multiple of 8 in [8, 4096]");
    require(header_flits <= 16, p, "header_flits", "expected an integer in [0, 16]");
    require(router_stages >= 1 && router_stages <= 64, p, "router_stages", "expected an integer in [1, 64]");
    require(link_latency >= 1 && link_latency <= 1024, p, "link_latency", "expected an integer in [1, 1024] (cycles)");
    require(credit_delay >= 1 && credit_delay <= 1024, p, "credit_delay", "expected an integer in [1, 1024] (cycles)");
    require(eject_depth >= 1 && eject_depth <= 65536, p, "eject_depth", "expected an integer in [1, 65536] (flits)");
    require(inject_depth >= 1 && inject_depth <= 65536, p, "inject_depth", "expected an integer in [1, 65536] (packets)");
    require(dram_if_outstanding >= 1 && dram_if_outstanding <= 65536, p, "dram_if_outstanding",
            "expected an integer in [1, 65536] (requests)");
    require(arbitration == "round_robin", p, "arbitration", "unknown arbitration '" + arbitration + "'; known: round_robin");
    require(stepping == "active" || stepping == "all", p, "stepping",
            "unknown stepping '" + stepping + "'; known: active, all");
    require(message_classes == "separate" || message_classes == "shared", p, "message_classes",
            "unknown message_classes '" + message_classes + "'; known: separate, shared");
    if (separate_classes())
        require(request_vcs < num_vcs, p, "request_vcs",
                "expected 0 (half of the VCs) or an integer in [1, num_vcs - 1] = [1, " + std::to_string(num_vcs - 1) +
                    "] (the other VCs carry responses)");
    else
        require(request_vcs == 0, p, "request_vcs", "only meaningful with message_classes: separate (expected 0)");
    if (!find_routing(routing))
        throw vp::InputError(p + ".routing: unknown routing '" + routing + "'; known: " + known_routings());
    // The network allocates its buffers, ejection slots and link pipelines up front. Each size is
    // within its range, their products with the node count are not: 128 x 128 nodes with 1024-flit
    // buffers on 12 VCs would take some 12 GB and be killed by the kernel (or end in bad_alloc).
    auto pow2 = [](std::uint64_t v) {
        std::uint64_t n = 1;
        while (n < v) n <<= 1;
        return n;
    };
    const std::uint64_t nodes = std::uint64_t(width) * height, ports = kNumPorts;  // + 1 injection link per node
    const std::uint64_t hop = std::uint64_t(router_stages >= 2 ? 1 : 0) + link_latency;
    const std::uint64_t buffers = nodes * ports * num_vcs * pow2(buffer_depth) * sizeof(Flit);
    const std::uint64_t eject = nodes * std::uint64_t(eject_depth) * num_vcs * 8;
    const std::uint64_t links = nodes * (ports + 1) * (pow2(hop + 1) * sizeof(TimedFlit) + pow2(credit_delay + 1) * sizeof(TimedCredit));
    const std::uint64_t total = buffers + eject + links;
    constexpr std::uint64_t kLimit = std::uint64_t(8) << 30;
    if (total > kLimit) {
        auto gib = [](std::uint64_t b) {
            char t[32];
            std::snprintf(t, sizeof t, "%.1f GiB", double(b) / double(std::uint64_t(1) << 30));
            return std::string(t);
        };
        throw vp::InputError(p + ": the " + std::to_string(width) + "x" + std::to_string(height) + " network would allocate " +
                             gib(total) + " up front (router buffers: nodes x 5 ports x num_vcs x buffer_depth = " +
                             gib(buffers) + "; ejection: nodes x eject_depth x num_vcs = " + gib(eject) +
                             "; link pipelines: link_latency, credit_delay = " + gib(links) +
                             "), expected at most 8 GiB: use fewer nodes or smaller buffer_depth, num_vcs, eject_depth, "
                             "link_latency or credit_delay");
    }
}

void NocParams::validate_message_classes(const std::string& p) const {
    require(!separate_classes() || num_vcs >= 2, p, "num_vcs",
            "message_classes 'separate' puts requests and responses on disjoint virtual channels and needs "
            "num_vcs >= 2 (found " + std::to_string(num_vcs) + "); raise num_vcs or set message_classes: shared");
}

std::uint32_t NocParams::class_vc_mask(MessageClass c) const {
    const std::uint32_t all = (std::uint32_t(1) << num_vcs) - 1;
    if (!separate_classes() || num_vcs < 2 || c == MessageClass::kAny) return all;
    const std::uint32_t req = request_vcs ? request_vcs : (num_vcs + 1) / 2;
    const std::uint32_t req_mask = (std::uint32_t(1) << req) - 1;
    return c == MessageClass::kRequest ? req_mask : all & ~req_mask;
}

}  // namespace vp::noc
