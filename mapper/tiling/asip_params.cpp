#include "mapper/tiling/asip_params.h"

#include "mapper/common/clock_range.h"
#include "mapper/common/errors.h"

namespace vp::mapper::tiling {

namespace {
[[noreturn]] void fail(const std::string& prefix, const char* field, const std::string& what) {
    throw InputError(prefix + "." + field + ": " + what);
}
}  // namespace

void AsipParams::validate(const std::string& prefix) const {
    if (p_ox < 1 || p_ox > 4096) fail(prefix, "p_ox", "expected an integer in [1, 4096], got " + std::to_string(p_ox));
    if (p_of < 1 || p_of > 4096) fail(prefix, "p_of", "expected an integer in [1, 4096], got " + std::to_string(p_of));
    if (word_bits < 8 || word_bits > 64 || word_bits % 8 != 0)
        fail(prefix, "word_bits", "expected 8, 16, 24, ... 64 (a whole number of bytes), got " + std::to_string(word_bits));
    if (sram_bytes < word_bytes() || sram_bytes > (std::int64_t(1) << 36))
        fail(prefix, "sram_bytes", "expected a size in bytes between one word and 64 GiB, got " + std::to_string(sram_bytes));
    if (sram_banks < 0 || sram_banks > 4096)
        fail(prefix, "sram_banks", "expected 0 (= p_ox) or a bank count in [1, 4096], got " + std::to_string(sram_banks));
    if (dma_setup_cycles < 0 || dma_setup_cycles > 1000000)
        fail(prefix, "dma_setup_cycles", "expected cycles in [0, 1e6], got " + std::to_string(dma_setup_cycles));
    if (dma_max_outstanding < 1 || dma_max_outstanding > 65536)
        fail(prefix, "dma_max_outstanding", "expected an integer in [1, 65536], got " + std::to_string(dma_max_outstanding));
    if (!clock_mhz_ok(core_mhz)) fail(prefix, "core_mhz", clock_mhz_expected(core_mhz));
}

}  // namespace vp::mapper::tiling
