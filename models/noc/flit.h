#pragma once
// Flits and packets of the mesh NoC. A packet is a head flit, optional body flits
// and a tail flit (a one-flit packet is head and tail). The head flit stands for the
// routing and transaction header (src, dst, type, payload length, transaction id); the
// simulator keeps the transaction fields in the packet table (PacketInfo), not in the flits.
#include <cstdint>

namespace vp::noc {

enum class PacketType : std::uint8_t {
    kReadRequest = 0,   // header only; payload_bytes = bytes to read
    kWriteRequest = 1,  // header + write data
    kReadResponse = 2,  // header + read data
    kWriteAck = 3,      // header only
    kSync = 4,          // header only (master-core synchronisation, a posted mailbox write)
    kSynthetic = 5,     // synthetic-traffic packet (size given in flits)
    kPostedWrite = 6    // header + write data, answered by no ack (mesh.packet.write_ack: false)
};
constexpr unsigned kNumPacketTypes = 7;

inline const char* packet_type_name(PacketType t) {
    static const char* const names[kNumPacketTypes] = {"read_request", "write_request", "read_response", "write_ack",
                                                       "sync",         "synthetic",     "posted_write"};
    const unsigned i = unsigned(t);
    return i < kNumPacketTypes ? names[i] : "?";
}

// Whether a packet of this type carries its payload_bytes as data flits.
inline bool carries_data(PacketType t) {
    return t == PacketType::kWriteRequest || t == PacketType::kReadResponse || t == PacketType::kSynthetic ||
           t == PacketType::kPostedWrite;
}

// Message classes (virtual networks, as BookSim2's request/reply classes and Garnet's vnets):
// requests (and syncs, which their receiver always consumes) and responses travel on disjoint
// VC sets when NocParams::message_classes is "separate", so that a request waiting for the
// DRAM interface can never block the response that would free it (protocol deadlock).
// Synthetic packets have no request/response role and may use every VC.
enum class MessageClass : std::uint8_t { kRequest = 0, kResponse = 1, kAny = 2 };

inline MessageClass message_class(PacketType t) {
    switch (t) {
    case PacketType::kReadRequest:
    case PacketType::kWriteRequest:
    case PacketType::kPostedWrite:
    case PacketType::kSync: return MessageClass::kRequest;
    case PacketType::kReadResponse:
    case PacketType::kWriteAck: return MessageClass::kResponse;
    case PacketType::kSynthetic: break;
    }
    return MessageClass::kAny;
}

// F(p), the number of flits of a packet (the term the waving cost (23) of Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect sums):
//   F = header_flits + ceil(8 * data_bytes / flit_width_bits)
// where data_bytes = payload_bytes for packets that carry data (write request, read
// response) and 0 otherwise; a packet has at least one flit.
inline std::uint32_t packet_flits(std::uint32_t data_bytes, std::uint32_t flit_width_bits, std::uint32_t header_flits) {
    const std::uint64_t bits = std::uint64_t(data_bytes) * 8u;
    const std::uint64_t f = header_flits + (bits + flit_width_bits - 1) / flit_width_bits;
    return f == 0 ? 1u : static_cast<std::uint32_t>(f);
}

enum FlitKind : std::uint8_t { kHead = 1, kTail = 2 };

// Only what routers and the ejection side need travels with a flit (12 bytes); the transaction
// header (id, payload length, address) stays in the packet table under `packet`.
struct Flit {
    std::uint32_t packet = 0;     // packet id (index into the network's packet table)
    std::uint16_t src = 0;        // source node
    std::uint16_t dst = 0;        // destination node
    PacketType type = PacketType::kSynthetic;
    std::uint8_t kind = 0;        // FlitKind bits
    std::uint8_t vc = 0;          // virtual channel on the link it travels
    bool head() const { return kind & kHead; }
    bool tail() const { return kind & kTail; }
};

// A flit on a link with the cycle in which it becomes visible at the receiver (DelayLine; the
// router buffers keep bare Flits).
struct TimedFlit {
    Flit flit;
    std::uint64_t ready = 0;
};

struct TimedCredit {
    std::uint8_t vc = 0;
    std::uint64_t ready = 0;
};

}  // namespace vp::noc
