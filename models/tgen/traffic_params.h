#pragma once
// One traffic stream: an initiator that issues DRAM requests by a pattern.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace vp::tgen {

// Deterministic write data of the generators: depends on the address and the write's sequence number.
inline unsigned char pattern_byte(std::uint64_t addr, std::uint64_t seq) {
    std::uint64_t x = (addr + 0x9E3779B97F4A7C15ull * (seq + 1)) * 0xBF58476D1CE4E5B9ull;
    return static_cast<unsigned char>(x >> 56);
}

enum class Pattern { Sequential, Strided, Random };

struct TrafficParams {
    std::string name = "tgen0";
    Pattern pattern = Pattern::Sequential;
    std::uint64_t requests = 10000;      // transactions to issue
    unsigned bytes = 64;                 // bytes per transaction
    double read_fraction = 1.0;          // probability that a transaction is a read
    std::uint64_t base = 0;              // first address
    std::uint64_t range = 1ull << 26;    // addresses used: [base, base + range)
    std::uint64_t stride = 64;           // strided: address step
    unsigned max_outstanding = 16;       // transactions in flight at once
    double interval_ns = 0.0;            // minimum time between requests (0: as fast as accepted)
    std::uint64_t seed = 1;
    bool verify = true;                  // check read data against the stream's own writes
    // Set by the platform, not read from the workload: the address ranges [first, second) that
    // other streams of the run may write. A read byte inside one is not checked: its value
    // depends on how the controller interleaves the streams, which no stream can know.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> foreign_writes;
    // Throws vp::InputError("<pointer>/<member>: <expected>"): `pointer` names the stream in
    // its workload file as JSON workload errors do ("FILE: at /streams/0").
    void validate(const std::string& pointer, std::uint64_t capacity) const;
};

const char* to_string(Pattern p);

}  // namespace vp::tgen
