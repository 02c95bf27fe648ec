#pragma once
// Sparse byte-addressable storage: 4 KiB pages allocated on first write; reads of
// never-written bytes return zero. Lets functional models (VTA) keep data in DRAM.
#include <cstdint>
#include <memory>
#include <unordered_map>

namespace vp::dram {

class BackingStore {
public:
    static constexpr std::uint64_t kPageBytes = 4096;
    void write(std::uint64_t addr, const unsigned char* src, std::uint64_t n);
    void read(std::uint64_t addr, unsigned char* dst, std::uint64_t n) const;
    std::size_t pages() const { return m_pages.size(); }

private:
    using Page = std::unique_ptr<unsigned char[]>;
    std::unordered_map<std::uint64_t, Page> m_pages;
};

}  // namespace vp::dram
