#pragma once
// The in-flight transactions of a DRAM initiator (traffic generator, trace player): at most
// max_outstanding slots, each with its transaction, its issue time and the data a read must
// return. A free slot is taken from a stack; a response finds its slot by the transaction.
#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>

namespace vp::tgen {

class IssueSlots {
public:
    struct Slot {
        tlm::tlm_generic_payload* trans = nullptr;
        std::uint64_t issue_ps = 0;
        std::vector<unsigned char> expected;
    };
    explicit IssueSlots(unsigned n) : m_slots(n), m_free(n) {
        for (unsigned i = 0; i < n; ++i) m_free[i] = n - 1 - i;  // slot 0 is taken first
    }
    // A free slot for t (the caller keeps fewer than n transactions in flight).
    Slot& take(tlm::tlm_generic_payload* t, std::uint64_t issue_ps) {
        Slot& s = m_slots[m_free.back()];
        m_free.pop_back();
        s.trans = t;
        s.issue_ps = issue_ps;
        return s;
    }
    // The slot of in-flight transaction t.
    Slot& of(const tlm::tlm_generic_payload& t) {
        std::size_t i = 0;
        while (m_slots[i].trans != &t) ++i;
        return m_slots[i];
    }
    void release(Slot& s) {
        s.trans = nullptr;
        m_free.push_back(unsigned(&s - m_slots.data()));
    }

private:
    std::vector<Slot> m_slots;
    std::vector<unsigned> m_free;  // indices of the slots without a transaction
};

// The gate of an issuing method's activation (traffic generator, trace player), after its own
// waits: after the last request (`done`) it waits for the last response and then ends the run
// (no trigger set: the method is not run again); before it, it waits for a response while all
// max_outstanding slots are taken. True when the method may issue a request now.
template <class Control>
bool may_issue(bool done, unsigned outstanding, unsigned max_outstanding, const sc_core::sc_event& response,
               Control& ctrl) {
    if (outstanding > 0 && (done || outstanding >= max_outstanding)) {
        sc_core::next_trigger(response);
        return false;
    }
    if (done) {
        ctrl.end();
        return false;
    }
    return true;
}

}  // namespace vp::tgen
