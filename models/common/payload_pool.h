#pragma once
// Memory-managed generic payloads (TLM-2.0 base protocol, tlm_mm_interface).
// acquire() hands out a payload with reference count 1 whose data buffer can hold
// `bytes`; the last release() returns it to the free list. No allocation in steady state.
#include <cstddef>
#include <memory>
#include <vector>

#include <tlm>

namespace vp {

class PayloadPool final : public tlm::tlm_mm_interface {
public:
    PayloadPool() = default;
    ~PayloadPool() override;
    PayloadPool(const PayloadPool&) = delete;
    PayloadPool& operator=(const PayloadPool&) = delete;

    // A fresh payload: command, address and length set; data pointer sized to `bytes`.
    tlm::tlm_generic_payload* acquire(tlm::tlm_command cmd, std::uint64_t addr, unsigned bytes);
    void free(tlm::tlm_generic_payload* trans) override;

    std::size_t in_use() const { return m_in_use; }
    std::size_t allocated() const { return m_all.size(); }

private:
    struct Entry : tlm::tlm_generic_payload {
        std::vector<unsigned char> data;
        explicit Entry(tlm::tlm_mm_interface* mm) : tlm::tlm_generic_payload(mm) {}
    };
    std::vector<std::unique_ptr<Entry>> m_all;
    std::vector<Entry*> m_free;
    std::size_t m_in_use = 0;
};

}  // namespace vp
