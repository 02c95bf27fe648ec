#include "models/common/protocol_checker.h"

#include <sstream>

namespace vp::tlmcheck {

using namespace sc_core;
using namespace tlm;

namespace {
constexpr std::uint64_t kNoId = ~std::uint64_t(0);

const char* phase_name(const tlm_phase& ph) {
    if (ph == BEGIN_REQ) return "BEGIN_REQ";
    if (ph == END_REQ) return "END_REQ";
    if (ph == BEGIN_RESP) return "BEGIN_RESP";
    if (ph == END_RESP) return "END_RESP";
    return ph.get_name();
}
}  // namespace

const char* to_string(Rule r) {
    switch (r) {
        case Rule::PhaseSequence: return "phase-sequence";
        case Rule::WrongPath: return "wrong-path";
        case Rule::UnknownPhase: return "unknown-phase";
        case Rule::ReturnValue: return "return-value";
        case Rule::RequestExclusion: return "request-exclusion";
        case Rule::ResponseExclusion: return "response-exclusion";
        case Rule::ResponseStatus: return "response-status";
        case Rule::InitialStatus: return "initial-status";
        case Rule::Command: return "command";
        case Rule::DataLength: return "data-length";
        case Rule::DataPointer: return "data-pointer";
        case Rule::StreamingWidth: return "streaming-width";
        case Rule::ByteEnable: return "byte-enable";
        case Rule::DmiAllowed: return "dmi-allowed";
        case Rule::AttributeModified: return "attribute-modified";
        case Rule::PayloadReuse: return "payload-reuse";
        case Rule::MemoryManager: return "memory-manager";
        case Rule::TimeOrder: return "time-order";
        case Rule::kCount: break;
    }
    return "?";
}

ProtocolChecker::ProtocolChecker(sc_module_name name) : sc_module(name), target("target"), initiator("initiator") {
    target.bind(*this);
    initiator.bind(*this);
}

std::size_t ProtocolChecker::home(const tlm_generic_payload* t) const {
    const std::uint64_t h = (std::uint64_t(reinterpret_cast<std::uintptr_t>(t)) >> 4) * 0x9E3779B97F4A7C15ull;
    return std::size_t(h >> 32) & (m_table.size() - 1);
}

ProtocolChecker::Txn* ProtocolChecker::find(const tlm_generic_payload* t) {
    const std::size_t mask = m_table.size() - 1;
    for (std::size_t i = home(t);; i = (i + 1) & mask) {  // ends: the table always has a free slot
        if (m_table[i].t == t) return &m_table[i];
        if (!m_table[i].t) return nullptr;
    }
}

ProtocolChecker::Txn& ProtocolChecker::open(tlm_generic_payload& t, const sc_time& at) {
    Txn x;
    x.t = &t;
    x.id = m_next_id++;
    x.attrs = Attrs{t.get_command(),    t.get_data_ptr(),         t.get_data_length(),
                    t.get_byte_enable_ptr(), t.get_byte_enable_length(), t.get_streaming_width()};
    x.mm_held = t.has_mm() && t.get_ref_count() > 0;
    x.last = at;
    if (2 * (m_count + 1) > m_table.size()) {  // keep the table at most half full
        std::vector<Txn> old(2 * m_table.size());
        old.swap(m_table);
        for (const Txn& o : old)
            if (o.t) {
                std::size_t i = home(o.t);
                while (m_table[i].t) i = (i + 1) & (m_table.size() - 1);
                m_table[i] = o;
            }
    }
    const std::size_t mask = m_table.size() - 1;
    std::size_t i = home(&t);
    while (m_table[i].t) i = (i + 1) & mask;
    m_table[i] = x;
    ++m_count;
    return m_table[i];
}

void ProtocolChecker::close(const tlm_generic_payload* t) {
    if (m_req == t) m_req = nullptr;
    if (m_resp == t) m_resp = nullptr;
    Txn* x = find(t);
    if (!x) return;
    // Backward-shift deletion: later entries of the probe run move into the hole when their
    // home slot does not lie cyclically in (hole, entry].
    const std::size_t mask = m_table.size() - 1;
    std::size_t hole = std::size_t(x - m_table.data());
    m_table[hole].t = nullptr;
    --m_count;
    for (std::size_t j = (hole + 1) & mask; m_table[j].t; j = (j + 1) & mask) {
        const std::size_t h = home(m_table[j].t);
        const bool stays = hole < j ? (h > hole && h <= j) : (h > hole || h <= j);
        if (!stays) {
            m_table[hole] = m_table[j];
            m_table[j].t = nullptr;
            hole = j;
        }
    }
}

void ProtocolChecker::violation(Rule r, const std::string& what, const tlm_generic_payload* t, std::uint64_t id) {
    ++m_violations;
    ++m_by_rule[std::size_t(r)];
    std::ostringstream s;
    s << name() << ": [" << to_string(r) << "] " << what;
    if (t) {
        s << "; transaction ";
        if (id != kNoId) s << '#' << id << ' ';
        const tlm_command cmd = t->get_command();
        if (cmd == TLM_READ_COMMAND) s << "READ";
        else if (cmd == TLM_WRITE_COMMAND) s << "WRITE";
        else if (cmd == TLM_IGNORE_COMMAND) s << "IGNORE";
        else s << "command " << int(cmd);
        s << " address 0x" << std::hex
          << t->get_address() << std::dec << " length " << t->get_data_length();
    }
    s << " at " << sc_time_stamp();
    m_last = s.str();
    SC_REPORT_ERROR(kMsgType, m_last.c_str());
}

// Generic payload attributes an initiator must set before the first call (clause 14).
void ProtocolChecker::check_initial(const tlm_generic_payload& t, std::uint64_t id) {
    const tlm_command cmd = t.get_command();
    if (cmd != TLM_READ_COMMAND && cmd != TLM_WRITE_COMMAND && cmd != TLM_IGNORE_COMMAND)
        violation(Rule::Command, "command " + std::to_string(int(cmd)) + " is not READ, WRITE or IGNORE", &t, id);
    if (t.get_response_status() != TLM_INCOMPLETE_RESPONSE)
        violation(Rule::InitialStatus,
                  std::string("request sent with response status ") + t.get_response_string() +
                      " (the initiator must set TLM_INCOMPLETE_RESPONSE)",
                  &t, id);
    if (cmd != TLM_IGNORE_COMMAND) {
        if (t.get_data_length() == 0) violation(Rule::DataLength, "READ/WRITE with data length 0", &t, id);
        if (!t.get_data_ptr()) violation(Rule::DataPointer, "READ/WRITE with a null data pointer", &t, id);
    }
    if (t.get_streaming_width() == 0) violation(Rule::StreamingWidth, "streaming width 0", &t, id);
    if (const unsigned char* be = t.get_byte_enable_ptr()) {
        const unsigned n = t.get_byte_enable_length();
        if (n == 0) violation(Rule::ByteEnable, "byte-enable pointer set with byte-enable length 0", &t, id);
        for (unsigned i = 0; i < n; ++i)
            if (be[i] != TLM_BYTE_DISABLED && be[i] != TLM_BYTE_ENABLED) {
                violation(Rule::ByteEnable,
                          "byte enable [" + std::to_string(i) + "] = " + std::to_string(unsigned(be[i])) +
                              " (only 0x00 and 0xff are allowed)",
                          &t, id);
                break;
            }
    }
    if (t.is_dmi_allowed()) violation(Rule::DmiAllowed, "request sent with the DMI-allowed hint set", &t, id);
    if (t.has_mm() && t.get_ref_count() == 0)
        violation(Rule::MemoryManager, "payload with a memory manager sent with reference count 0 (not acquired)",
                  &t, id);
}

// Reports each change once (the snapshot then follows the payload).
void ProtocolChecker::check_unchanged(Txn& x, const char* phase) {
    const tlm_generic_payload& t = *x.t;
    const Attrs& a = x.attrs;
    const char* what = nullptr;
    if (t.get_command() != a.cmd) what = "command";
    else if (t.get_data_ptr() != a.data) what = "data pointer";
    else if (t.get_data_length() != a.length) what = "data length";
    else if (t.get_byte_enable_ptr() != a.be) what = "byte-enable pointer";
    else if (t.get_byte_enable_length() != a.be_length) what = "byte-enable length";
    else if (t.get_streaming_width() != a.streaming) what = "streaming width";
    if (what) {
        x.attrs = Attrs{t.get_command(),        t.get_data_ptr(),           t.get_data_length(),
                        t.get_byte_enable_ptr(), t.get_byte_enable_length(), t.get_streaming_width()};
        violation(Rule::AttributeModified, std::string(what) + " changed between BEGIN_REQ and " + phase, &t, x.id);
    }
    if (x.mm_held && t.get_ref_count() == 0) {
        x.mm_held = false;
        violation(Rule::MemoryManager, std::string("payload released to its memory manager before ") + phase, &t,
                  x.id);
    }
}

void ProtocolChecker::check_time(Txn& x, const sc_time& at, const char* phase) {
    if (at < x.last) {
        std::ostringstream s;
        s << phase << " timed at " << at << ", before the transaction's previous phase at " << x.last;
        violation(Rule::TimeOrder, s.str(), x.t, x.id);
    } else {
        x.last = at;
    }
}

void ProtocolChecker::end_request(Txn& x) {
    x.stage = Stage::AwaitResponse;
    if (m_req == x.t) m_req = nullptr;
}

void ProtocolChecker::begin_response(Txn& x, const sc_time& at, const char* how) {
    if (m_resp && m_resp != x.t) {
        const Txn* o = find(m_resp);
        violation(Rule::ResponseExclusion,
                  std::string(how) + " before END_RESP of transaction #" + std::to_string(o ? o->id : kNoId), x.t,
                  x.id);
    }
    if (x.stage == Stage::Request) end_request(x);  // BEGIN_RESP implies END_REQ
    if (x.t->get_response_status() == TLM_INCOMPLETE_RESPONSE)
        violation(Rule::ResponseStatus, std::string(how) + " with TLM_INCOMPLETE_RESPONSE (the target must set it)",
                  x.t, x.id);
    check_unchanged(x, "BEGIN_RESP");
    check_time(x, at, "BEGIN_RESP");
    x.stage = Stage::Response;
    m_resp = x.t;
}

void ProtocolChecker::complete(Txn& x, const char* how) {
    if (x.t->get_response_status() == TLM_INCOMPLETE_RESPONSE)
        violation(Rule::ResponseStatus, std::string(how) + " with TLM_INCOMPLETE_RESPONSE (the target must set it)",
                  x.t, x.id);
    check_unchanged(x, how);
    close(x.t);
}

tlm_sync_enum ProtocolChecker::nb_transport_fw(tlm_generic_payload& t, tlm_phase& ph, sc_time& d) {
    const tlm_phase sent = ph;
    const sc_time at = sc_time_stamp() + d;
    bool resp_ended = false;  // a legal END_RESP: the transaction ends with this call
    std::uint64_t ended_id = kNoId;
    if (sent == BEGIN_REQ) {
        if (const Txn* old = find(&t)) {
            violation(Rule::PayloadReuse, "BEGIN_REQ with a payload still in flight as transaction #" + std::to_string(old->id),
                      &t, old->id);
            close(&t);
        }
        if (m_req) {
            const Txn* o = find(m_req);
            violation(Rule::RequestExclusion,
                      "BEGIN_REQ before the request phase of transaction #" + std::to_string(o ? o->id : kNoId) +
                          " ended",
                      &t, m_next_id);
        }
        const std::uint64_t id = open(t, at).id;
        m_req = &t;
        check_initial(t, id);
    } else if (sent == END_RESP) {
        Txn* x = find(&t);
        if (!x) {
            violation(Rule::PhaseSequence, "END_RESP for a transaction not in flight on this socket", &t, kNoId);
        } else if (x->stage != Stage::Response) {
            violation(Rule::PhaseSequence, "END_RESP before BEGIN_RESP", &t, x->id);
        } else {
            check_unchanged(*x, "END_RESP");
            check_time(*x, at, "END_RESP");
            ended_id = x->id;
            close(&t);  // the response phase ends with this call (the target may answer the next one in it)
            resp_ended = true;
        }
    } else if (sent == END_REQ || sent == BEGIN_RESP) {
        const Txn* x = find(&t);
        violation(Rule::WrongPath, std::string(phase_name(sent)) + " on the forward path", &t, x ? x->id : kNoId);
    } else {
        const Txn* x = find(&t);
        violation(Rule::UnknownPhase, std::string("phase ") + phase_name(sent) + " on the forward path", &t,
                  x ? x->id : kNoId);
    }

    const tlm_sync_enum r = initiator->nb_transport_fw(t, ph, d);

    if (resp_ended) {
        if (r == TLM_UPDATED)
            violation(Rule::ReturnValue, "TLM_UPDATED in reply to END_RESP (no phase follows END_RESP)", &t, ended_id);
        return r;
    }
    if (sent != BEGIN_REQ) return r;
    Txn* x = find(&t);
    if (!x) return r;  // completed during the call
    const sc_time after = sc_time_stamp() + d;
    switch (r) {
        case TLM_ACCEPTED:
            if (ph != BEGIN_REQ)
                violation(Rule::ReturnValue,
                          std::string("TLM_ACCEPTED in reply to BEGIN_REQ with the phase changed to ") + phase_name(ph),
                          &t, x->id);
            break;
        case TLM_UPDATED:
            if (ph == END_REQ) {
                if (x->stage != Stage::Request) {
                    violation(Rule::PhaseSequence, "END_REQ (TLM_UPDATED) after the request phase ended", &t, x->id);
                } else {
                    check_unchanged(*x, "END_REQ");
                    check_time(*x, after, "END_REQ");
                    end_request(*x);
                }
            } else if (ph == BEGIN_RESP) {
                begin_response(*x, after, "BEGIN_RESP (TLM_UPDATED in reply to BEGIN_REQ)");
            } else {
                violation(Rule::ReturnValue,
                          std::string("TLM_UPDATED in reply to BEGIN_REQ with phase ") + phase_name(ph) +
                              " (expected END_REQ or BEGIN_RESP)",
                          &t, x->id);
            }
            break;
        case TLM_COMPLETED: complete(*x, "TLM_COMPLETED in reply to BEGIN_REQ"); break;
    }
    return r;
}

tlm_sync_enum ProtocolChecker::nb_transport_bw(tlm_generic_payload& t, tlm_phase& ph, sc_time& d) {
    const tlm_phase sent = ph;
    const sc_time at = sc_time_stamp() + d;
    Txn* x = find(&t);
    const std::uint64_t id = x ? x->id : kNoId;
    bool legal = false;
    if (sent == END_REQ) {
        if (!x) violation(Rule::PhaseSequence, "END_REQ for a transaction not in flight on this socket", &t, id);
        else if (x->stage != Stage::Request) violation(Rule::PhaseSequence, "END_REQ after the request phase ended", &t, id);
        else {
            check_unchanged(*x, "END_REQ");
            check_time(*x, at, "END_REQ");
            end_request(*x);
            legal = true;
        }
    } else if (sent == BEGIN_RESP) {
        if (!x) violation(Rule::PhaseSequence, "BEGIN_RESP for a transaction not in flight on this socket", &t, id);
        else if (x->stage == Stage::Response) violation(Rule::PhaseSequence, "a second BEGIN_RESP", &t, id);
        else {
            begin_response(*x, at, "BEGIN_RESP");
            legal = true;
        }
    } else if (sent == BEGIN_REQ || sent == END_RESP) {
        violation(Rule::WrongPath, std::string(phase_name(sent)) + " on the backward path", &t, id);
    } else {
        violation(Rule::UnknownPhase, std::string("phase ") + phase_name(sent) + " on the backward path", &t, id);
    }

    const tlm_sync_enum r = target->nb_transport_bw(t, ph, d);

    if (!legal) return r;
    if (sent == END_REQ) {
        if (r == TLM_UPDATED)
            violation(Rule::ReturnValue, "TLM_UPDATED in reply to END_REQ (BEGIN_RESP is the target's phase)", &t, id);
        else if (r == TLM_COMPLETED)
            violation(Rule::ReturnValue, "TLM_COMPLETED in reply to END_REQ (the target has not responded)", &t, id);
        else if (ph != END_REQ)
            violation(Rule::ReturnValue,
                      std::string("TLM_ACCEPTED in reply to END_REQ with the phase changed to ") + phase_name(ph), &t,
                      id);
        return r;
    }
    x = find(&t);
    if (!x || x->stage != Stage::Response) return r;
    switch (r) {
        case TLM_ACCEPTED:
            if (ph != BEGIN_RESP)
                violation(Rule::ReturnValue,
                          std::string("TLM_ACCEPTED in reply to BEGIN_RESP with the phase changed to ") + phase_name(ph),
                          &t, id);
            break;
        case TLM_UPDATED:
            if (ph == END_RESP) {
                check_time(*x, sc_time_stamp() + d, "END_RESP (TLM_UPDATED)");
                close(&t);
            } else {
                violation(Rule::ReturnValue,
                          std::string("TLM_UPDATED in reply to BEGIN_RESP with phase ") + phase_name(ph) +
                              " (expected END_RESP)",
                          &t, id);
            }
            break;
        case TLM_COMPLETED: close(&t); break;
    }
    return r;
}

void ProtocolChecker::b_transport(tlm_generic_payload& t, sc_time& d) {
    if (const Txn* old = find(&t))
        violation(Rule::PayloadReuse,
                  "b_transport with a payload in flight on the non-blocking path as transaction #" +
                      std::to_string(old->id),
                  &t, old->id);
    const std::uint64_t id = m_next_id++;
    check_initial(t, id);
    Txn x;
    x.t = &t;
    x.id = id;
    x.mm_held = t.has_mm() && t.get_ref_count() > 0;
    x.attrs = Attrs{t.get_command(),    t.get_data_ptr(),         t.get_data_length(),
                    t.get_byte_enable_ptr(), t.get_byte_enable_length(), t.get_streaming_width()};
    initiator->b_transport(t, d);
    if (t.get_response_status() == TLM_INCOMPLETE_RESPONSE)
        violation(Rule::ResponseStatus, "b_transport returned with TLM_INCOMPLETE_RESPONSE (the target must set it)",
                  &t, id);
    check_unchanged(x, "the return of b_transport");
}

bool ProtocolChecker::get_direct_mem_ptr(tlm_generic_payload& t, tlm_dmi& dmi) {
    return initiator->get_direct_mem_ptr(t, dmi);
}

unsigned ProtocolChecker::transport_dbg(tlm_generic_payload& t) { return initiator->transport_dbg(t); }

void ProtocolChecker::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
    target->invalidate_direct_mem_ptr(start, end);
}

}  // namespace vp::tlmcheck
