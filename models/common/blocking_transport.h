#pragma once
// One blocking TLM-2.0 transaction (b_transport, no delay) of `bytes` at `addr` for models that
// carry no data values: the data array is a scratch buffer grown to fit. `ext` (may be null) is
// attached while the transaction is transported and detached after it, also when the target
// throws: a payload frees every extension it still holds when it is destroyed, and `ext` is
// owned by the caller. Returns the response status.
#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>

namespace vp {

template <typename Socket, typename Ext>
tlm::tlm_response_status blocking_transport(Socket& socket, tlm::tlm_generic_payload& t, tlm::tlm_command cmd,
                                            std::uint64_t addr, std::uint64_t bytes,
                                            std::vector<unsigned char>& scratch, Ext* ext) {
    if (scratch.size() < bytes) scratch.resize(bytes);
    t.set_command(cmd);
    t.set_address(addr);
    t.set_data_ptr(scratch.data());
    t.set_data_length(unsigned(bytes));
    t.set_streaming_width(unsigned(bytes));
    t.set_byte_enable_ptr(nullptr);
    t.set_dmi_allowed(false);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    if (ext) t.set_extension(ext);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    try {
        socket->b_transport(t, delay);
    } catch (...) {
        if (ext) t.clear_extension(ext);
        throw;
    }
    if (ext) t.clear_extension(ext);
    return t.get_response_status();
}

}  // namespace vp
