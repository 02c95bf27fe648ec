#pragma once
// Physical address -> (channel, rank, bank group, bank, row, column burst) decoding.
// Schemes are chosen by name (an unknown name is an error that lists the known ones); fields are listed LSB first above
// the burst offset. Field sizes are powers of two (validated in DramParams).
#include <cstdint>
#include <string>
#include <vector>

namespace vp::dram {

struct DramParams;

struct DramAddress {
    unsigned channel = 0, rank = 0, bank_group = 0, bank = 0;  // bank: index within the rank (0..banks-1)
    std::uint64_t row = 0;
    std::uint64_t column = 0;  // in bursts within the row
};

class AddressMapper {
public:
    explicit AddressMapper(const DramParams& p);
    DramAddress decode(std::uint64_t addr) const;
    // Inverse of decode for the first byte of a burst (used by tests and generators).
    std::uint64_t encode(const DramAddress& a) const;
    // Address bits that select the bank (channel, rank, bank group and bank) and the row: two
    // addresses are in the same bank iff (a & bank_mask()) is equal, in the same open row iff
    // both masks agree (every field is a contiguous bit range). For cost models that track
    // open rows without decoding (mapper::DramFigures).
    std::uint64_t bank_mask() const;
    std::uint64_t row_mask() const;
    std::uint64_t channel_mask() const;  // 0 with one channel
    // Address bits that select the bank group (with the channel and rank): two bursts whose
    // addresses agree on them are tCCD_L apart at least, others tCCD_S (DDR4 bank groups).
    std::uint64_t group_mask() const;

    static bool is_known(const std::string& name);
    static std::vector<std::string> names();

private:
    enum Field { Col, Chan, Rank, BankGroup, Bank, Row };
    struct Slice {
        Field field;
        unsigned bits;
    };
    template <typename In>
    std::uint64_t mask_of(In in) const;  // the address bits of the fields in(field) selects
    std::vector<Slice> m_order;  // LSB first
    unsigned m_offset_bits;      // log2(burst bytes)
    unsigned m_banks_per_group;
};

}  // namespace vp::dram
