#include "models/dram/backing_store.h"

#include <algorithm>
#include <cstring>

namespace vp::dram {

void BackingStore::write(std::uint64_t addr, const unsigned char* src, std::uint64_t n) {
    while (n) {
        std::uint64_t page = addr / kPageBytes, off = addr % kPageBytes;
        std::uint64_t len = std::min(n, kPageBytes - off);
        Page& p = m_pages[page];
        if (!p) {
            p.reset(new unsigned char[kPageBytes]);
            std::memset(p.get(), 0, kPageBytes);
        }
        std::memcpy(p.get() + off, src, len);
        addr += len;
        src += len;
        n -= len;
    }
}

void BackingStore::read(std::uint64_t addr, unsigned char* dst, std::uint64_t n) const {
    while (n) {
        std::uint64_t page = addr / kPageBytes, off = addr % kPageBytes;
        std::uint64_t len = std::min(n, kPageBytes - off);
        auto it = m_pages.find(page);
        if (it == m_pages.end()) std::memset(dst, 0, len);
        else std::memcpy(dst, it->second.get() + off, len);
        addr += len;
        dst += len;
        n -= len;
    }
}

}  // namespace vp::dram
