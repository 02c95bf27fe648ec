// Fuzz target: a DRAM request trace replayed by the dram_trace workload. The first byte picks
// the format (bit 0: DRAMSys STL or Ramulator 2 LoadStoreTrace); the rest is the file.
#include "fuzz/fuzz_target.h"
#include "models/dram/dram_trace_io.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace vp;
    if (size == 0) return 0;
    const auto format = (data[0] & 1) ? dram::TraceFormat::LoadStore : dram::TraceFormat::Stl;
    const std::string path = fuzz::scratch_file("trace", fuzz::text(data + 1, size - 1));
    fuzz::expect_clean([&] {
        dram::TraceReader reader(path, format, 64);
        dram::TraceRequest r;
        std::uint64_t n = 0;
        while (reader.next(r)) {
            if (r.bytes == 0 || r.bytes > (1u << 20))
                fuzz::violated("request of " + std::to_string(r.bytes) + " bytes");
            ++n;
        }
        if (n > size) fuzz::violated("more requests than bytes in the file");
    });
    return 0;
}
