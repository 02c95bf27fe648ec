#include "mapper/vta/binary_program.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "mapper/common/errors.h"
#include "mapper/common/input_file.h"
#include "mapper/common/json_check.h"
#include "mapper/common/json_text.h"
#include "mapper/vta/compiler.h"

namespace vp::mapper::vta {

namespace {

namespace fs = std::filesystem;

constexpr const char* kFormat =
    "VTA runtime layout: 128-bit instructions (hw_spec.h), 32-bit micro-ops, int8 INP/WGT/OUT, int32 ACC, little-endian";

// The configuration fields a binary program depends on (instruction layout, buffer depths).
struct ConfigField {
    const char* key;
    int VtaConfig::*member;
};
constexpr ConfigField kConfigFields[] = {
    {"log_batch", &VtaConfig::log_batch},           {"log_block", &VtaConfig::log_block},
    {"log_inp_width", &VtaConfig::log_inp_width},   {"log_wgt_width", &VtaConfig::log_wgt_width},
    {"log_acc_width", &VtaConfig::log_acc_width},   {"log_uop_buff_size", &VtaConfig::log_uop_buff_size},
    {"log_inp_buff_size", &VtaConfig::log_inp_buff_size}, {"log_wgt_buff_size", &VtaConfig::log_wgt_buff_size},
    {"log_acc_buff_size", &VtaConfig::log_acc_buff_size},
};

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Rows of C that STORE writes, as [start, count] runs.
nlohmann::json row_runs(const std::vector<std::int64_t>& rows) {
    nlohmann::json a = nlohmann::json::array();
    for (std::size_t i = 0; i < rows.size();) {
        std::size_t j = i + 1;
        while (j < rows.size() && rows[j] == rows[j - 1] + 1) ++j;
        a.push_back({rows[i], std::int64_t(j - i)});
        i = j;
    }
    return a;
}

std::uint64_t sram_depth(const VtaConfig& c, MemId id) {
    switch (id) {
        case MemId::Uop: return std::uint64_t(c.uop_depth());
        case MemId::Wgt: return std::uint64_t(c.wgt_depth());
        case MemId::Inp: return std::uint64_t(c.inp_depth());
        case MemId::Acc:
        case MemId::Acc8Bit: return std::uint64_t(c.acc_depth());
        case MemId::Out: return std::uint64_t(c.out_depth());
    }
    return 0;
}

}  // namespace

nlohmann::json binary_manifest(const CompiledProgram& p) {
    nlohmann::json vta = nlohmann::json::object();
    for (const auto& f : kConfigFields) vta[f.key] = p.cfg.*(f.member);
    vta["alu_mul"] = p.cfg.alu_mul;
    nlohmann::json data = nlohmann::json::array();
    nlohmann::json insns, uops;
    for (const DramRegion& r : p.regions) {
        if (r.name == "INSN") insns = {{"file", "insn.bin"}, {"addr", r.addr}};
        else if (r.name == "UOP") uops = {{"file", "uop.bin"}, {"addr", r.addr}};
        else data.push_back({{"name", r.name}, {"file", lower(r.name) + ".bin"}, {"addr", r.addr}});
    }
    nlohmann::json out = {{"addr", p.out_addr},
                          {"rows", p.out_rows},
                          {"cols", p.out_cols},
                          {"row_vectors", p.out_row_vectors},
                          {"stored_rows", row_runs(p.stored_rows)}};
    if (p.out_blocked) out["layout"] = "blocked";  // [row_vectors][rows][BLOCK] (direct convolution)
    return {{"kind", "vta_binary"},
            {"name", p.name},
            {"format", kFormat},
            {"vta", vta},
            {"instructions", insns},
            {"micro_ops", uops},
            {"data", data},
            {"output", out}};
}

void write_binary_program(const CompiledProgram& p, const std::string& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw std::runtime_error(dir + ": cannot create folder: " + ec.message());
    auto put = [&](const std::string& name, const std::uint8_t* d, std::size_t n) {
        std::ofstream f(dir + "/" + name, std::ios::binary);
        f.write(reinterpret_cast<const char*>(d), std::streamsize(n));
        if (!f) throw std::runtime_error(dir + "/" + name + ": write error");
    };
    for (const DramRegion& r : p.regions) {
        const std::uint8_t* d = p.image.data() + (r.addr - p.dram_base);
        const std::string file = r.name == "INSN" ? "insn.bin" : r.name == "UOP" ? "uop.bin" : lower(r.name) + ".bin";
        put(file, d, r.bytes);
    }
    const std::string m = json_output_text(binary_manifest(p), 2) + "\n";
    put("program.json", reinterpret_cast<const std::uint8_t*>(m.data()), m.size());
}

CompiledProgram parse_binary_program(const nlohmann::json& manifest, const std::string& source, const BlobReader& read,
                                     const VtaConfig& cfg) {
    JsonCheck root(manifest, source);
    root.expect_object();
    root.allow_only({"kind", "name", "format", "vta", "instructions", "micro_ops", "data", "output"});
    if (root.at("kind").as_string() != "vta_binary") root.at("kind").fail("expected \"vta_binary\"");
    CompiledProgram p;
    p.cfg = cfg;
    p.name = root.get_string("name", "vta_binary");
    // The configuration the program was built for must be the platform's: every field and
    // buffer index of the stream depends on it.
    const JsonCheck v = root.at("vta");
    v.expect_object();
    std::vector<std::string> known;
    for (const auto& f : kConfigFields) known.push_back(f.key);
    known.push_back("alu_mul");
    v.allow_only(known);
    for (const auto& f : kConfigFields) {
        const std::int64_t want = cfg.*(f.member);
        const std::int64_t got = v.at(f.key).as_int(0, 64);
        if (got != want)
            v.at(f.key).fail("the program was built for " + std::string(f.key) + " " + std::to_string(got) +
                             ", the platform has vta." + f.key + " " + std::to_string(want));
    }
    if (v.has("alu_mul") && v.at("alu_mul").as_bool() && !cfg.alu_mul)
        v.at("alu_mul").fail("the program was built for a core with ALU MUL, the platform has vta.alu_mul false");

    // Regions: physical byte addresses below 2^32 (the 32-bit DRAM element address field).
    struct Blob { std::string name, file, bytes; std::uint64_t addr; };
    std::vector<Blob> blobs;
    auto region = [&](const JsonCheck& r, const std::string& name, std::uint64_t align) {
        r.expect_object();
        r.allow_only({"name", "file", "addr"});
        Blob b{name, r.at("file").as_string(), "", std::uint64_t(r.at("addr").as_int(0, 0xFFFFFFFFll))};
        if (b.addr % align != 0) r.at("addr").fail("expected a multiple of " + std::to_string(align) + " bytes");
        b.bytes = read(b.file);
        if (b.addr + b.bytes.size() > 0x100000000ull) r.fail(b.file + ": ends beyond the 4 GiB physical address space");
        blobs.push_back(std::move(b));
    };
    region(root.at("instructions"), "INSN", VtaConfig::kInsnBytes);
    region(root.at("micro_ops"), "UOP", VtaConfig::kUopBytes);
    const JsonCheck data = root.at("data");
    data.expect_array();
    for (std::size_t i = 0; i < data.size(); ++i) {
        const JsonCheck d = data.at(i);
        d.expect_object();
        region(d, d.at("name").as_string(), 1);
    }
    const Blob& ib = blobs[0];
    const Blob& ub = blobs[1];
    const std::string ifile = source + ": " + ib.file;
    if (ib.bytes.size() % VtaConfig::kInsnBytes != 0)
        throw InputError(ifile + ": " + std::to_string(ib.bytes.size()) + " bytes is not a whole number of 16-byte instructions: instruction " +
                         std::to_string(ib.bytes.size() / VtaConfig::kInsnBytes) + " is truncated (" +
                         std::to_string(ib.bytes.size() % VtaConfig::kInsnBytes) + " of 16 bytes)");
    if (ib.bytes.empty()) throw InputError(ifile + ": no instruction (expected at least FINISH)");
    if (ub.bytes.size() % VtaConfig::kUopBytes != 0)
        throw InputError(source + ": " + ub.file + ": " + std::to_string(ub.bytes.size()) +
                         " bytes is not a whole number of 4-byte micro-ops");

    // The host image: every region, from the lowest page to the end of the highest region.
    std::uint64_t lo = ~0ull, hi = 0;
    for (const Blob& b : blobs) {
        if (b.bytes.empty()) continue;
        lo = std::min(lo, b.addr);
        hi = std::max(hi, b.addr + b.bytes.size());
    }
    // Whole pages, as the compiler allocates them (the host's copy time depends on the size).
    lo = lo / CompileOptions::kPageBytes * CompileOptions::kPageBytes;
    hi = (hi + CompileOptions::kPageBytes - 1) / CompileOptions::kPageBytes * CompileOptions::kPageBytes;
    if (hi - lo > kMaxBinarySpanBytes)
        throw InputError(source + ": the regions span " + std::to_string(hi - lo) + " bytes of address space, more than " +
                         std::to_string(kMaxBinarySpanBytes) + " (keep them together)");
    std::vector<std::pair<std::uint64_t, std::size_t>> order;  // (addr, blob) of the non-empty regions
    for (std::size_t i = 0; i < blobs.size(); ++i)
        if (!blobs[i].bytes.empty()) order.emplace_back(blobs[i].addr, i);
    std::sort(order.begin(), order.end());
    for (std::size_t k = 1; k < order.size(); ++k) {
        const Blob& a = blobs[order[k - 1].second];
        const Blob& b = blobs[order[k].second];
        if (a.addr + a.bytes.size() > b.addr)
            throw InputError(source + ": regions " + a.name + " (" + a.file + ") and " + b.name + " (" + b.file + ") overlap");
    }
    p.dram_base = lo;
    p.image.assign(std::size_t(hi - lo), 0);
    for (const Blob& b : blobs) {
        std::copy(b.bytes.begin(), b.bytes.end(), p.image.begin() + std::ptrdiff_t(b.addr - lo));
        p.regions.push_back(DramRegion{b.name, b.addr, b.bytes.size()});
    }

    // Instructions: decode and check every field against the buffers.
    std::string why;
    const InsnLayout layout(cfg);
    if (!layout.fits(&why)) throw InputError(source + ": vta: " + why);
    const std::size_t n = ib.bytes.size() / VtaConfig::kInsnBytes;
    p.insns.reserve(n);
    const auto* raw = reinterpret_cast<const std::uint8_t*>(ib.bytes.data());
    const std::uint64_t uop_depth = std::uint64_t(cfg.uop_depth());
    for (std::size_t i = 0; i < n; ++i) {
        InsnWord w;
        for (int h = 0; h < 2; ++h)
            for (int b = 0; b < 8; ++b) w.w[std::size_t(h)] |= std::uint64_t(raw[16 * i + std::size_t(8 * h + b)]) << (8 * b);
        const std::string at = ifile + ": instruction " + std::to_string(i) + " (byte " + std::to_string(16 * i) + ")";
        Insn in;
        try {
            in = layout.decode(w);
        } catch (const InputError& e) {
            throw InputError(at + ": " + e.what());
        }
        if (in.opcode == Opcode::Gemm || in.opcode == Opcode::Alu) {
            if (in.uop_bgn >= in.uop_end || in.uop_end > uop_depth)
                throw InputError(at + ": micro-op range [" + std::to_string(in.uop_bgn) + ", " + std::to_string(in.uop_end) +
                                 ") outside the UOP buffer of " + std::to_string(uop_depth) + " micro-ops (" + in.to_string() + ")");
        } else if (in.opcode == Opcode::Load || in.opcode == Opcode::Store) {
            const bool store = in.opcode == Opcode::Store;
            if (store ? in.mem_type != MemId::Out : (in.mem_type == MemId::Out || in.mem_type == MemId::Acc8Bit))
                throw InputError(at + ": " + std::string(store ? "STORE" : "LOAD") + " of memory " + to_string(in.mem_type) +
                                 " (" + in.to_string() + ")");
            const std::uint64_t rows = std::uint64_t(in.y_pad0) + in.y_size + in.y_pad1;
            const std::uint64_t cols = std::uint64_t(in.x_pad0) + in.x_size + in.x_pad1;
            const std::uint64_t depth = sram_depth(cfg, in.mem_type);
            if (in.x_size > 0 && in.y_size > 0 && std::uint64_t(in.sram_base) + rows * cols > depth)
                throw InputError(at + ": " + std::string(to_string(in.mem_type)) + " entries [" + std::to_string(in.sram_base) +
                                 ", " + std::to_string(std::uint64_t(in.sram_base) + rows * cols) + ") outside the buffer of " +
                                 std::to_string(depth) + " (" + in.to_string() + ")");
        }
        p.insns.push_back(in);
    }
    if (p.insns.back().opcode != Opcode::Finish)
        throw InputError(ifile + ": the last instruction is " + p.insns.back().to_string() + ", expected FINISH");
    p.insn_addr = ib.addr;
    p.insn_count = std::uint32_t(n);
    p.stats = count_program(p.insns, cfg);
    p.stats.uops = ub.bytes.size() / VtaConfig::kUopBytes;

    // Output: the int8 rows STORE writes (out_addr, rows of row_vectors vectors of BLOCK; layout
    // "blocked": row_vectors column blocks of rows vectors, the direct convolution's output).
    const JsonCheck o = root.at("output");
    o.expect_object();
    o.allow_only({"addr", "rows", "cols", "row_vectors", "stored_rows", "layout"});
    if (o.has("layout")) p.out_blocked = o.at("layout").as_enum({"rows", "blocked"}) == "blocked";
    p.out_addr = std::uint64_t(o.at("addr").as_int(0, 0xFFFFFFFFll));
    p.out_rows = int(o.at("rows").as_int(0, 1 << 24));
    p.out_cols = int(o.at("cols").as_int(0, 1 << 24));
    p.out_row_vectors = int(o.at("row_vectors").as_int(0, 1 << 24));
    if (std::int64_t(p.out_row_vectors) * cfg.block() < p.out_cols)
        o.at("row_vectors").fail("expected at least cols / BLOCK = " + std::to_string((p.out_cols + cfg.block() - 1) / cfg.block()));
    const std::uint64_t out_bytes = std::uint64_t(p.out_rows) * std::uint64_t(p.out_row_vectors) * std::uint64_t(cfg.block());
    if (p.out_addr < p.dram_base || p.out_addr + out_bytes > p.end_addr())
        o.at("addr").fail("the output [" + std::to_string(p.out_addr) + ", +" + std::to_string(out_bytes) +
                          ") is not inside the program's regions");
    const JsonCheck sr = o.at("stored_rows");
    sr.expect_array();
    for (std::size_t i = 0; i < sr.size(); ++i) {
        const JsonCheck r = sr.at(i);
        if (r.size() != 2) r.fail("expected [first row, count]");
        const std::int64_t s = r.at(0).as_int(0, p.out_rows), c = r.at(1).as_int(0, p.out_rows - s);
        for (std::int64_t k = 0; k < c; ++k) p.stored_rows.push_back(s + k);
    }
    return p;
}

CompiledProgram load_binary_program(const std::string& manifest_path, const VtaConfig& cfg) {
    const nlohmann::json doc = parse_json_text(read_input_file(manifest_path, "a binary VTA program (program.json)"), manifest_path);
    const fs::path dir = fs::path(manifest_path).parent_path();
    auto read = [&](const std::string& file) {
        if (file.empty() || fs::path(file).is_absolute() || file.find("..") != std::string::npos)
            throw InputError(manifest_path + ": \"" + file + "\": expected a file name next to the manifest");
        return read_input_file((dir / file).string(), "a binary file of the program");
    };
    return parse_binary_program(doc, manifest_path, read, cfg);
}

}  // namespace vp::mapper::vta
