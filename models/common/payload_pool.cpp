#include "models/common/payload_pool.h"

namespace vp {

PayloadPool::~PayloadPool() {
    // Extensions on payloads still in flight at shutdown belong to the modules that set
    // them (and may already be gone): detach them without freeing.
    for (auto& e : m_all)
        for (unsigned i = 0; i < tlm::max_num_extensions(); ++i) e->set_extension(i, nullptr);
}

tlm::tlm_generic_payload* PayloadPool::acquire(tlm::tlm_command cmd, std::uint64_t addr, unsigned bytes) {
    Entry* e;
    if (m_free.empty()) {
        m_all.push_back(std::make_unique<Entry>(this));
        e = m_all.back().get();
    } else {
        e = m_free.back();
        m_free.pop_back();
    }
    if (e->data.size() < bytes) e->data.resize(bytes);
    tlm::tlm_generic_payload& p = *e;
    p.set_command(cmd);
    p.set_address(addr);
    p.set_data_length(bytes);
    p.set_data_ptr(e->data.data());
    p.set_streaming_width(bytes);
    p.set_byte_enable_ptr(nullptr);
    p.set_byte_enable_length(0);
    p.set_dmi_allowed(false);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    p.acquire();
    ++m_in_use;
    return e;
}

void PayloadPool::free(tlm::tlm_generic_payload* trans) {
    auto* e = static_cast<Entry*>(trans);  // every payload of this pool is an Entry
    trans->reset();  // drops extensions
    m_free.push_back(e);
    --m_in_use;
}

}  // namespace vp
