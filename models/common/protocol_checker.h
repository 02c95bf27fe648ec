#pragma once
// A TLM-2.0 base-protocol checker: a passthrough module placed on one AT binding, between an
// initiator (bound to `target`) and a target (bound from `initiator`). Every call and every
// return value is forwarded unchanged, so a checked run is timed exactly as an unchecked one.
// It checks the rules of the generic payload and of the base protocol (IEEE Std 1666-2011,
// SystemC LRM, clause 14 "TLM-2.0 generic payload" and clause 15 "TLM-2.0 base protocol and
// phases") as seen on this one hop, and reports each broken rule with
//     SC_REPORT_ERROR(vp::tlmcheck::kMsgType, "<checker>: [<rule>] <what>; <transaction>")
// (an exception under SystemC's default actions; vp-run turns it into exit code 3).
//
// Cost: one lookup in a small open-addressing table of the transactions in flight per phase,
// no allocation once the largest number in flight has been seen, strings only on a violation
// (bench/bench_tlmcheck.cpp measures it).
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

namespace vp::tlmcheck {

inline constexpr const char* kMsgType = "vp/tlmcheck";

enum class Rule : std::uint8_t {
    PhaseSequence,      // a phase that does not follow the transaction's previous phase
    WrongPath,          // END_REQ / BEGIN_RESP on the forward path, BEGIN_REQ / END_RESP on the backward path
    UnknownPhase,       // not one of the four base-protocol phases
    ReturnValue,        // TLM_ACCEPTED with a changed phase, TLM_UPDATED with an illegal next phase
    RequestExclusion,   // BEGIN_REQ before the previous request phase ended on this socket
    ResponseExclusion,  // BEGIN_RESP before the previous response phase ended on this socket
    ResponseStatus,     // BEGIN_RESP or completion with TLM_INCOMPLETE_RESPONSE (target did not set it)
    InitialStatus,      // BEGIN_REQ whose response status is not TLM_INCOMPLETE_RESPONSE
    Command,            // not READ, WRITE or IGNORE
    DataLength,         // READ/WRITE with data length 0
    DataPointer,        // READ/WRITE with a null data pointer
    StreamingWidth,     // streaming width 0
    ByteEnable,         // byte-enable pointer with length 0, or an element other than 0x00 / 0xff
    DmiAllowed,         // BEGIN_REQ with the DMI-allowed hint already set
    AttributeModified,  // command, data pointer/length, byte enables or streaming width changed in flight
    PayloadReuse,       // BEGIN_REQ (or b_transport) with a payload still in flight on this socket
    MemoryManager,      // a payload with a memory manager sent with reference count 0
    TimeOrder,          // a phase timed (time + annotation) before the transaction's previous phase
    kCount
};
const char* to_string(Rule r);

class ProtocolChecker : public sc_core::sc_module,
                        public tlm::tlm_fw_transport_if<>,
                        public tlm::tlm_bw_transport_if<> {
public:
    tlm::tlm_target_socket<> target;        // the initiator binds to this
    tlm::tlm_initiator_socket<> initiator;  // bind this to the target

    explicit ProtocolChecker(sc_core::sc_module_name name);

    std::uint64_t violations() const { return m_violations; }
    std::uint64_t violations(Rule r) const { return m_by_rule[std::size_t(r)]; }
    const std::string& last_violation() const { return m_last; }
    std::uint64_t transactions() const { return m_next_id; }  // BEGIN_REQ and b_transport calls seen
    std::size_t in_flight() const { return m_count; }

    // Forward path (from the initiator).
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) override;
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& d) override;
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& t, tlm::tlm_dmi& dmi) override;
    unsigned transport_dbg(tlm::tlm_generic_payload& t) override;
    // Backward path (from the target).
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) override;
    void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) override;

private:
    enum class Stage : std::uint8_t { Request, AwaitResponse, Response };
    // The attributes that neither interconnect nor target may change while a transaction is in flight.
    struct Attrs {
        tlm::tlm_command cmd = tlm::TLM_IGNORE_COMMAND;
        unsigned char* data = nullptr;
        unsigned length = 0;
        unsigned char* be = nullptr;
        unsigned be_length = 0;
        unsigned streaming = 0;
    };
    struct Txn {
        tlm::tlm_generic_payload* t = nullptr;
        std::uint64_t id = 0;
        Stage stage = Stage::Request;
        bool mm_held = false;  // memory-managed and acquired at BEGIN_REQ: must stay acquired
        Attrs attrs;
        sc_core::sc_time last;  // time + annotation of the latest phase
    };

    std::size_t home(const tlm::tlm_generic_payload* t) const;
    Txn* find(const tlm::tlm_generic_payload* t);
    Txn& open(tlm::tlm_generic_payload& t, const sc_core::sc_time& at);
    void close(const tlm::tlm_generic_payload* t);
    void check_initial(const tlm::tlm_generic_payload& t, std::uint64_t id);
    void check_unchanged(Txn& x, const char* phase);
    void check_time(Txn& x, const sc_core::sc_time& at, const char* phase);
    void end_request(Txn& x);
    void begin_response(Txn& x, const sc_core::sc_time& at, const char* how);
    void complete(Txn& x, const char* how);
    void violation(Rule r, const std::string& what, const tlm::tlm_generic_payload* t, std::uint64_t id);

    // Transactions in flight on this socket: open addressing on the payload pointer with linear
    // probing (t == nullptr: free slot), a power-of-two size at most half full.
    std::vector<Txn> m_table = std::vector<Txn>(16);
    std::size_t m_count = 0;
    const tlm::tlm_generic_payload* m_req = nullptr;    // the transaction in its request phase
    const tlm::tlm_generic_payload* m_resp = nullptr;   // the transaction in its response phase
    std::uint64_t m_next_id = 0;
    std::uint64_t m_violations = 0;
    std::array<std::uint64_t, std::size_t(Rule::kCount)> m_by_rule{};
    std::string m_last;
};

// The checkers of one platform or test. bind() connects an initiator socket to a target
// socket directly when checking is off, or through a new ProtocolChecker named `name` (a
// top-level module name: unique, no dots) when it is on.
class CheckerSet {
public:
    explicit CheckerSet(bool enabled) : m_enabled(enabled) {}

    template <typename InitiatorSocket, typename TargetSocket>
    void bind(InitiatorSocket& from, TargetSocket& to, const std::string& name) {
        if (!m_enabled) {
            from.bind(to);
            return;
        }
        m_checkers.push_back(std::make_unique<ProtocolChecker>(name.c_str()));
        from.bind(m_checkers.back()->target);
        m_checkers.back()->initiator.bind(to);
    }

    bool enabled() const { return m_enabled; }
    std::size_t size() const { return m_checkers.size(); }
    const ProtocolChecker& operator[](std::size_t i) const { return *m_checkers[i]; }
    std::uint64_t violations() const {
        std::uint64_t n = 0;
        for (const auto& c : m_checkers) n += c->violations();
        return n;
    }
    std::uint64_t transactions() const {
        std::uint64_t n = 0;
        for (const auto& c : m_checkers) n += c->transactions();
        return n;
    }

private:
    bool m_enabled;
    std::vector<std::unique_ptr<ProtocolChecker>> m_checkers;
};

}  // namespace vp::tlmcheck
