#include "models/dram/dram_params.h"

#include "mapper/common/errors.h"
#include "models/dram/address_mapper.h"
#include "models/dram/dram_presets.h"
#include "models/dram/timing_table.h"

namespace vp::dram {

namespace {
bool is_pow2(std::uint64_t v) { return v && !(v & (v - 1)); }
void require(bool ok, const std::string& key, const std::string& what) {
    if (!ok) throw InputError(key + ": " + what);
}
}  // namespace

const char* to_string(PagePolicy p) { return p == PagePolicy::Open ? "open" : "closed"; }
const char* to_string(Scheduler s) { return s == Scheduler::Fcfs ? "fcfs" : "frfcfs"; }

std::vector<std::string> DramParams::preset_names() { return vp::dram::preset_names(); }

DramParams DramParams::from_preset(const std::string& name, const std::string& key) {
    const DramPreset* d = find_preset(name);
    if (!d) {
        std::string list;
        for (const auto& n : preset_names()) list += (list.empty() ? "" : ", ") + n;
        throw InputError(key + ": unknown DRAM preset \"" + name + "\" (known presets: " + list + ")");
    }
    DramParams p;
    p.preset = d->name;
    p.standard = d->standard;
    p.tck_ps = d->tck_ps;
    p.bus_width_bits = d->bus_width_bits;
    p.burst_length = d->burst_length;
    p.bank_groups = d->bank_groups;
    p.banks_per_group = d->banks_per_group;
    p.rows = d->rows;
    p.columns = d->columns;
    p.t = d->t;
    return p;
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
    require(starvation_cap <= 1000000, k + ".starvation_cap", "expected 0 (no cap)..1000000 row hits");
    if (!TimingTable::find_standard(standard)) {
        std::string list;
        for (const auto& n : TimingTable::standard_names()) list += (list.empty() ? "" : ", ") + n;
        throw InputError(k + ".standard: unknown DRAM standard \"" + standard + "\" (known: " + list + ")");
    }
    require(standard != "ddr3" || bank_groups == 1, k + ".bank_groups", "DDR3 has no bank groups: expected 1");
    require(record_trace_format == "auto" || record_trace_format == "stl" || record_trace_format == "loadstore",
            k + ".record_trace_format", "expected auto, stl or loadstore");
    if (!check_preset.empty() && !find_preset(check_preset)) {
        std::string list;
        for (const auto& n : preset_names()) list += (list.empty() ? "" : ", ") + n;
        throw InputError(k + ".check_preset: unknown DRAM preset \"" + check_preset + "\" (known presets: " + list + ")");
    }
    if (!record_trace.empty() && record_trace_format == "auto") {
        auto ends = [&](const char* e) {
            const std::string x(e);
            return record_trace.size() > x.size() && record_trace.compare(record_trace.size() - x.size(), x.size(), x) == 0;
        };
        require(ends(".stl") || ends(".trace"), k + ".record_trace",
                "cannot tell the format of \"" + record_trace +
                    "\" from its extension: use .stl (DRAMSys STL) or .trace (Ramulator 2 LoadStoreTrace), or set " + k +
                    ".record_trace_format");
    }
    const DramTiming& x = t;
    require(x.CL >= 1 && x.CL <= 100, k + ".timing.CL", "expected 1..100 tCK");
    require(x.CWL >= 1 && x.CWL <= 100, k + ".timing.CWL", "expected 1..100 tCK");
    require(x.tRCD >= 1 && x.tRCD <= 200, k + ".timing.tRCD", "expected 1..200 tCK");
    require(x.tRP >= 1 && x.tRP <= 200, k + ".timing.tRP", "expected 1..200 tCK");
    require(x.tRAS >= 1 && x.tRAS <= 500, k + ".timing.tRAS", "expected 1..500 tCK");
    require(x.tRC >= x.tRAS && x.tRC <= 1000, k + ".timing.tRC", "expected tRAS..1000 tCK");
    require(x.tCCD_S >= 1 && x.tCCD_S <= 64, k + ".timing.tCCD_S", "expected 1..64 tCK");
    const auto n = [](unsigned v) { return std::to_string(v); };
    require(x.tCCD_L >= x.tCCD_S && x.tCCD_L <= 64, k + ".timing.tCCD_L",
            "expected tCCD_S (" + n(x.tCCD_S) + ")..64 tCK, got " + n(x.tCCD_L));
    require(x.tRRD_S >= 1 && x.tRRD_S <= 64, k + ".timing.tRRD_S", "expected 1..64 tCK");
    require(x.tRRD_L >= x.tRRD_S && x.tRRD_L <= 64, k + ".timing.tRRD_L",
            "expected tRRD_S (" + n(x.tRRD_S) + ")..64 tCK, got " + n(x.tRRD_L));
    require(x.tFAW <= 500, k + ".timing.tFAW", "expected 0..500 tCK");
    require(x.tWR <= 200, k + ".timing.tWR", "expected 0..200 tCK");
    require(x.tWTR_S <= 100 && x.tWTR_L >= x.tWTR_S && x.tWTR_L <= 100, k + ".timing.tWTR_L",
            "expected tWTR_S (" + n(x.tWTR_S) + ") <= tWTR_L <= 100 tCK, got " + n(x.tWTR_L));
    if (standard == "ddr3") {
        // DDR3 has no bank groups: one tCCD, tRRD and tWTR, which the _S and _L keys both name.
        const struct { const char* base; unsigned s, l; } one[] = {
            {"tCCD", x.tCCD_S, x.tCCD_L}, {"tRRD", x.tRRD_S, x.tRRD_L}, {"tWTR", x.tWTR_S, x.tWTR_L}};
        for (const auto& o : one)
            require(o.s == o.l, k + ".timing." + o.base + "_L",
                    std::string("DDR3 has one ") + o.base + " (no bank groups): expected " + o.base + "_S and " +
                        o.base + "_L equal, got " + n(o.s) + " and " + n(o.l) + " (set both)");
    }
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
