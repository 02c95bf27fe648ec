#include "models/dram/address_mapper.h"

#include <algorithm>

#include "models/dram/dram_params.h"

namespace vp::dram {

namespace {
unsigned log2u(std::uint64_t v) {
    unsigned b = 0;
    while ((std::uint64_t(1) << b) < v) ++b;
    return b;
}
struct Scheme {
    const char* name;
    const char* desc;
};
// LSB-first field orders. "row_bank_col" keeps a whole row of consecutive addresses in
// one bank (DRAMSys rbc, Ramulator RoBaRaCoCh): best for long sequential DMA streams.
// "bank_row_col" puts the bank at the MSBs (DRAMSys brc). "row_col_bank" interleaves
// consecutive bursts over channels and banks (gem5 RoCoRaBaCh-like): best for random traffic.
constexpr Scheme kSchemes[] = {
    {"row_bank_col", "col, channel, bank group, bank, rank, row"},
    {"bank_row_col", "col, row, bank, bank group, rank, channel"},
    {"row_col_bank", "channel, bank group, bank, col, rank, row"},
};
}  // namespace

bool AddressMapper::is_known(const std::string& name) {
    return std::any_of(std::begin(kSchemes), std::end(kSchemes), [&](const Scheme& s) { return name == s.name; });
}

std::vector<std::string> AddressMapper::names() {
    std::vector<std::string> n;
    for (const auto& s : kSchemes) n.emplace_back(s.name);
    return n;
}

AddressMapper::AddressMapper(const DramParams& p)
    : m_offset_bits(log2u(p.burst_bytes())), m_banks_per_group(p.banks_per_group) {
    const unsigned col = log2u(p.columns / p.burst_length), ch = log2u(p.channels), rk = log2u(p.ranks),
                   bg = log2u(p.bank_groups), bk = log2u(p.banks_per_group), row = log2u(p.rows);
    if (p.address_mapping == "row_bank_col")
        m_order = {{Col, col}, {Chan, ch}, {BankGroup, bg}, {Bank, bk}, {Rank, rk}, {Row, row}};
    else if (p.address_mapping == "bank_row_col")
        m_order = {{Col, col}, {Row, row}, {Bank, bk}, {BankGroup, bg}, {Rank, rk}, {Chan, ch}};
    else
        m_order = {{Chan, ch}, {BankGroup, bg}, {Bank, bk}, {Col, col}, {Rank, rk}, {Row, row}};
}

DramAddress AddressMapper::decode(std::uint64_t addr) const {
    DramAddress a;
    std::uint64_t v = addr >> m_offset_bits;
    unsigned bank_in_group = 0;
    for (const Slice& s : m_order) {
        std::uint64_t f = v & ((std::uint64_t(1) << s.bits) - 1);
        v >>= s.bits;
        switch (s.field) {
        case Col: a.column = f; break;
        case Chan: a.channel = unsigned(f); break;
        case Rank: a.rank = unsigned(f); break;
        case BankGroup: a.bank_group = unsigned(f); break;
        case Bank: bank_in_group = unsigned(f); break;
        case Row: a.row = f; break;
        }
    }
    a.bank = a.bank_group * m_banks_per_group + bank_in_group;
    return a;
}

std::uint64_t AddressMapper::encode(const DramAddress& a) const {
    std::uint64_t v = 0;
    unsigned shift = 0;
    for (const Slice& s : m_order) {
        std::uint64_t f = 0;
        switch (s.field) {
        case Col: f = a.column; break;
        case Chan: f = a.channel; break;
        case Rank: f = a.rank; break;
        case BankGroup: f = a.bank_group; break;
        case Bank: f = a.bank % m_banks_per_group; break;
        case Row: f = a.row; break;
        }
        v |= (f & ((std::uint64_t(1) << s.bits) - 1)) << shift;
        shift += s.bits;
    }
    return v << m_offset_bits;
}

template <typename In>
std::uint64_t AddressMapper::mask_of(In in) const {
    std::uint64_t m = 0;
    unsigned shift = m_offset_bits;
    for (const Slice& s : m_order) {
        if (in(s.field)) m |= ((std::uint64_t(1) << s.bits) - 1) << shift;
        shift += s.bits;
    }
    return m;
}

std::uint64_t AddressMapper::bank_mask() const {
    return mask_of([](Field f) { return f != Col && f != Row; });
}

std::uint64_t AddressMapper::group_mask() const {
    return mask_of([](Field f) { return f == Chan || f == Rank || f == BankGroup; });
}

std::uint64_t AddressMapper::channel_mask() const {
    return mask_of([](Field f) { return f == Chan; });
}

std::uint64_t AddressMapper::row_mask() const {
    return mask_of([](Field f) { return f == Row; });
}

}  // namespace vp::dram
