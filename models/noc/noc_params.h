#pragma once
// Parameters of the cycle-accurate 2-D mesh network-on-chip.
// Timing convention (router.h, network.h): a head flit needs router_stages - 1 + link_latency
// cycles per hop at zero load (4 with the defaults). BookSim2's defaults (4 stages, channel latency 1,
// credit_delay 0, vc_buf_size credits at the ejection port) are reproduced exactly by link_latency 2,
// credit_delay 2, eject_depth = buffer_depth: 5 cycles per hop (measured side by side, docs/noc.md).
#include <cstdint>
#include <string>

#include "models/noc/flit.h"

namespace vp::noc {

struct NocParams {
    // Defaults. Values marked ASSUMPTION are not published for the mesh platform of Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect
    // (the paper does not publish flit width, buffer depths, VCs or routing).
    static constexpr std::uint32_t kDefaultWidth = 4;            // routers in x
    static constexpr std::uint32_t kDefaultHeight = 4;           // routers in y
    static constexpr std::uint32_t kDefaultBufferDepth = 4;      // flits per input VC (ASSUMPTION, BookSim2 default 8)
    static constexpr std::uint32_t kDefaultNumVcs = 2;           // virtual channels per port (ASSUMPTION: one per message class)
    static constexpr std::uint32_t kDefaultFlitWidthBits = 64;   // bits per flit (ASSUMPTION)
    static constexpr std::uint32_t kDefaultHeaderFlits = 1;      // header flits per packet (ASSUMPTION)
    static constexpr std::uint32_t kDefaultRouterStages = 4;     // RC, VA, SA, ST (BookSim2 IQ router default delays 1,1,1,1)
    static constexpr std::uint32_t kDefaultLinkLatency = 1;      // cycles from ST to receive (= BookSim2 channel latency + 1)
    static constexpr std::uint32_t kDefaultCreditDelay = 1;      // cycles from SA grant to upstream credit use (= BookSim2 credit channel latency + 1 + credit_delay)
    static constexpr std::uint32_t kDefaultEjectDepth = 16;      // flits of the ejection queue per node
    static constexpr std::uint32_t kDefaultInjectDepth = 16;     // packets of the injection queue per node (TLM NIs)
    static constexpr std::uint32_t kDefaultDramIfOutstanding = 16;  // requests a DRAM interface accepts (ASSUMPTION)
    static constexpr std::uint64_t kDefaultWatchdogCycles = 10000;  // cycles without flit movement -> deadlock

    std::uint32_t width = kDefaultWidth;
    std::uint32_t height = kDefaultHeight;
    std::uint32_t buffer_depth = kDefaultBufferDepth;
    std::uint32_t num_vcs = kDefaultNumVcs;
    std::uint32_t flit_width_bits = kDefaultFlitWidthBits;
    std::uint32_t header_flits = kDefaultHeaderFlits;
    std::uint32_t router_stages = kDefaultRouterStages;
    std::uint32_t link_latency = kDefaultLinkLatency;
    std::uint32_t credit_delay = kDefaultCreditDelay;
    std::uint32_t eject_depth = kDefaultEjectDepth;
    std::uint32_t inject_depth = kDefaultInjectDepth;
    // Requests a DRAM interface block holds at a time (raised to core.dma_max_outstanding when
    // that is larger, so that one core's DMA engine alone is never capped below its own limit).
    std::uint32_t dram_if_outstanding = kDefaultDramIfOutstanding;
    std::string routing = "xy";              // name in the routing registry (routing.h)
    std::string arbitration = "round_robin"; // only round-robin switch/VC allocation is implemented
    std::string stepping = "active";         // "active": skip idle routers; "all": step every router
    // "separate": requests (and syncs) on VCs [0, request_vcs), responses on [request_vcs, num_vcs):
    // no protocol deadlock whatever the routing or the DRAM interface's place (needs num_vcs >= 2).
    // "shared": every packet may use every VC (protocol deadlock possible with adaptive routing or
    // a DRAM interface that is not in a corner). Synthetic traffic has no classes and uses every VC.
    std::string message_classes = "separate";
    std::uint32_t request_vcs = 0;           // VCs of the request class; 0: ceil(num_vcs / 2)
    std::uint64_t watchdog_cycles = kDefaultWatchdogCycles;  // 0 disables the watchdog

    std::uint32_t num_nodes() const { return width * height; }
    std::uint32_t flit_bytes() const { return flit_width_bits / 8; }

    bool separate_classes() const { return message_classes == "separate"; }
    // VCs a packet of class c may use (bit v = VC v). Every VC when the classes are shared, for
    // synthetic traffic, or with a single VC.
    std::uint32_t class_vc_mask(MessageClass c) const;

    // Throws vp::InputError("<prefix>.<field>: <expected>") on bad values.
    void validate(const std::string& key_prefix) const;
    // For request/response traffic (network interfaces, DRAM interfaces): "separate" classes need
    // a VC for each class. Throws vp::InputError naming <prefix>.num_vcs.
    void validate_message_classes(const std::string& key_prefix) const;
};

}  // namespace vp::noc
