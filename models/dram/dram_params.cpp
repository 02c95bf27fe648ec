#include "models/dram/dram_params.h"

#include "mapper/common/errors.h"
#include "models/dram/address_mapper.h"

namespace vp::dram {

namespace {
bool is_pow2(std::uint64_t v) { return v && !(v & (v - 1)); }
void require(bool ok, const std::string& key, const std::string& what) {
    if (!ok) throw InputError(key + ": " + what);
}
}  // namespace

const char* to_string(PagePolicy p) { return p == PagePolicy::Open ? "open" : "closed"; }
const char* to_string(Scheduler s) { return s == Scheduler::Fcfs ? "fcfs" : "frfcfs"; }

std::vector<std::string> DramParams::preset_names() { return {"ddr3-1600", "ddr4-2400"}; }

DramParams DramParams::from_preset(const std::string& name, const std::string& key) {
    DramParams p;
    p.preset = name;
    if (name == "ddr3-1600") {
        // MICRON_1Gb_DDR3-1600_8bit_G x8 devices, 8 per rank (shared/specs/dram.md §8).
        return p;
    }
    if (name == "ddr4-2400") {
        // DDR4_2400R + DDR4_4Gb_x8 (shared/specs/dram.md §2): 16-16-16, 4 bank groups x 4 banks.
        p.tck_ps = 833;
        p.bank_groups = 4;
        p.banks_per_group = 4;
        p.rows = 32768;
        p.columns = 1024;
        p.t.CL = 16;
        p.t.CWL = 12;
        p.t.tRCD = 16;
        p.t.tRP = 16;
        p.t.tRAS = 39;
        p.t.tRC = 55;
        p.t.tCCD_S = 4;
        p.t.tCCD_L = 6;
        p.t.tRRD_S = 4;
        p.t.tRRD_L = 6;
        p.t.tFAW = 26;
        p.t.tWR = 18;
        p.t.tWTR_S = 3;
        p.t.tWTR_L = 9;
        p.t.tRTP = 9;
        p.t.tRTRS = 1;
        p.t.tRFC = 312;
        p.t.tREFI = 9360;
        return p;
    }
    std::string list;
    for (const auto& n : preset_names()) list += (list.empty() ? "" : ", ") + n;
    throw InputError(key + ": unknown DRAM preset \"" + name + "\" (known presets: " + list + ")");
}

void DramParams::validate(const std::string& k) const {
    require(tck_ps >= 100 && tck_ps <= 100000, k + ".tck_ps", "expected 100..100000 ps");
    require(bus_width_bits >= 8 && bus_width_bits <= 1024 && is_pow2(bus_width_bits), k + ".bus_width_bits",
            "expected a power of two in 8..1024");
    require(burst_length >= 2 && burst_length <= 32 && is_pow2(burst_length), k + ".burst_length",
            "expected a power of two in 2..32");
    require(channels >= 1 && channels <= 64 && is_pow2(channels), k + ".channels", "expected a power of two in 1..64");
    require(ranks >= 1 && ranks <= 16 && is_pow2(ranks), k + ".ranks", "expected a power of two in 1..16");
    require(bank_groups >= 1 && bank_groups <= 16 && is_pow2(bank_groups), k + ".bank_groups",
            "expected a power of two in 1..16");
    require(banks_per_group >= 1 && banks_per_group <= 64 && is_pow2(banks_per_group), k + ".banks_per_group",
            "expected a power of two in 1..64");
    require(rows >= 2 && rows <= (1u << 24) && is_pow2(rows), k + ".rows", "expected a power of two in 2..2^24");
    require(columns >= burst_length && columns <= (1u << 16) && is_pow2(columns), k + ".columns",
            "expected a power of two, at least burst_length, at most 65536");
    require(queue_depth >= 1 && queue_depth <= 4096, k + ".queue_depth", "expected 1..4096");
    require(max_request_bytes >= 1 && max_request_bytes <= (1u << 20), k + ".max_request_bytes",
            "expected 1..1048576");
    require(frontend_latency_ck <= 1000, k + ".frontend_latency_ck", "expected 0..1000");
    const DramTiming& x = t;
    require(x.CL >= 1 && x.CL <= 100, k + ".timing.CL", "expected 1..100 tCK");
    require(x.CWL >= 1 && x.CWL <= 100, k + ".timing.CWL", "expected 1..100 tCK");
    require(x.tRCD >= 1 && x.tRCD <= 200, k + ".timing.tRCD", "expected 1..200 tCK");
    require(x.tRP >= 1 && x.tRP <= 200, k + ".timing.tRP", "expected 1..200 tCK");
    require(x.tRAS >= 1 && x.tRAS <= 500, k + ".timing.tRAS", "expected 1..500 tCK");
    require(x.tRC >= x.tRAS && x.tRC <= 1000, k + ".timing.tRC", "expected tRAS..1000 tCK");
    require(x.tCCD_S >= 1 && x.tCCD_S <= 64, k + ".timing.tCCD_S", "expected 1..64 tCK");
    require(x.tCCD_L >= x.tCCD_S && x.tCCD_L <= 64, k + ".timing.tCCD_L", "expected tCCD_S..64 tCK");
    require(x.tRRD_S >= 1 && x.tRRD_S <= 64, k + ".timing.tRRD_S", "expected 1..64 tCK");
    require(x.tRRD_L >= x.tRRD_S && x.tRRD_L <= 64, k + ".timing.tRRD_L", "expected tRRD_S..64 tCK");
    require(x.tFAW <= 500, k + ".timing.tFAW", "expected 0..500 tCK");
    require(x.tWR <= 200, k + ".timing.tWR", "expected 0..200 tCK");
    require(x.tWTR_S <= 100 && x.tWTR_L >= x.tWTR_S && x.tWTR_L <= 100, k + ".timing.tWTR_L",
            "expected tWTR_S <= tWTR_L <= 100 tCK");
    require(x.tRTP <= 100, k + ".timing.tRTP", "expected 0..100 tCK");
    require(x.tRTRS <= 100, k + ".timing.tRTRS", "expected 0..100 tCK");
    require(x.tRFC >= 1 && x.tRFC <= 10000, k + ".timing.tRFC", "expected 1..10000 tCK");
    require(x.tREFI > x.tRFC + x.tRP && x.tREFI <= 1000000, k + ".timing.tREFI", "expected tRFC+tRP < tREFI <= 1e6 tCK");
    if (!AddressMapper::is_known(address_mapping)) {
        std::string list;
        for (const auto& n : AddressMapper::names()) list += (list.empty() ? "" : ", ") + n;
        throw InputError(k + ".address_mapping: unknown scheme \"" + address_mapping + "\" (known: " + list + ")");
    }
}

}  // namespace vp::dram
