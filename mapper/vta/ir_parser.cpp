#include "mapper/vta/ir_parser.h"

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "mapper/common/errors.h"
#include "mapper/common/json_check.h"
#include "mapper/workload/network.h"

namespace vp::mapper::vta {

std::vector<std::int64_t> Program::stored_rows() const {
    std::vector<std::int64_t> rows;
    if (store_rows.empty()) {
        for (int r = 0; r < C().rows; ++r) rows.push_back(r);
    } else {
        for (const auto& rr : store_rows)
            for (std::int64_t i = 0; i < rr.count; ++i) rows.push_back(rr.row(i));
    }
    return rows;
}

namespace {

constexpr std::int64_t kMaxDim = 1 << 24;

RowRange parse_range(const JsonCheck& j, std::int64_t rows, const std::string& what) {
    // [[start, step], count]
    if (!j.value().is_array() || j.size() != 2 || !j.value()[0].is_array())
        j.fail("expected a row range [[start, step], count]");
    JsonCheck sp = j.at(0);
    if (sp.size() != 2) sp.fail("expected [start, step]");
    RowRange r;
    r.start = sp.at(0).as_int(0, kMaxDim);
    r.step = sp.at(1).as_int(-kMaxDim, kMaxDim);
    r.count = j.at(1).as_int(1, kMaxDim);
    const std::int64_t last = r.row(r.count - 1);
    if (r.start >= rows || last < 0 || last >= rows)
        j.fail("row range [[" + std::to_string(r.start) + "," + std::to_string(r.step) + "]," +
               std::to_string(r.count) + "] reaches row " + std::to_string(r.start >= rows ? r.start : last) +
               ", outside " + what + " (rows 0.." + std::to_string(rows - 1) + ")");
    return r;
}

int find_matrix(const Program& p, const JsonCheck& j) {
    const std::string n = j.as_string();
    std::vector<std::string> names;
    for (std::size_t i = 0; i < p.matrices.size(); ++i) {
        if (p.matrices[i].name == n) return int(i);
        names.push_back(p.matrices[i].name);
    }
    std::string msg = "unknown matrix \"" + n + "\" (not declared in MATRICES)";
    const std::string near = nearest_name(n, names);
    if (!near.empty()) msg += "; did you mean \"" + near + "\"?";
    j.fail(msg);
}

void read_data(Matrix& m, int elem_bytes, const JsonCheck& where) {
    const std::size_t n = std::size_t(m.rows) * std::size_t(m.cols);
    // A folder opens as a stream on Linux and throws on the first read: name it instead.
    std::error_code ec;
    if (std::filesystem::is_directory(m.path, ec))
        where.fail("data file \"" + m.path + "\" of matrix " + m.name + " is a folder, expected a file of raw bytes");
    std::ifstream in(m.path, std::ios::binary);
    if (!in) where.fail("cannot open data file \"" + m.path + "\" of matrix " + m.name);
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) where.fail("read error in data file \"" + m.path + "\" of matrix " + m.name);
    const std::string raw = ss.str();
    const std::vector<unsigned char> bytes(raw.begin(), raw.end());
    const std::size_t want = n * std::size_t(elem_bytes);
    if (bytes.size() != want)
        where.fail("data file \"" + m.path + "\" of matrix " + m.name + " [" + std::to_string(m.rows) + "x" +
                   std::to_string(m.cols) + "] holds " + std::to_string(bytes.size()) + " bytes, expected " +
                   std::to_string(want) + " (" + (elem_bytes == 1 ? "int8" : "int32 little-endian") + ", row-major)");
    m.data.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (elem_bytes == 1) {
            m.data[i] = std::int8_t(bytes[i]);
        } else {
            const std::uint32_t u = std::uint32_t(bytes[4 * i]) | (std::uint32_t(bytes[4 * i + 1]) << 8) |
                                    (std::uint32_t(bytes[4 * i + 2]) << 16) | (std::uint32_t(bytes[4 * i + 3]) << 24);
            m.data[i] = std::int32_t(u);
        }
    }
}

void generate_data(Matrix& m, bool int8, std::uint64_t seed, int role) {
    std::mt19937_64 g(seed * 0x9E3779B97F4A7C15ull + std::uint64_t(role) * 0x632BE59BD9B4E019ull + 1);
    m.data.resize(std::size_t(m.rows) * std::size_t(m.cols));
    for (auto& v : m.data) {
        if (int8) v = std::int32_t(g() % 256) - 128;
        else v = std::int32_t(g() % (2 * IrParseOptions::kAccInputRange + 1)) - IrParseOptions::kAccInputRange;
    }
}

struct AluName { const char* name; AluOpSpec::Kind kind; AluOp op; };
const AluName kAluNames[] = {
    {"MIN", AluOpSpec::Kind::VectorVector, AluOp::Min},     {"MAX", AluOpSpec::Kind::VectorVector, AluOp::Max},
    {"ADD", AluOpSpec::Kind::VectorVector, AluOp::Add},     {"SHR", AluOpSpec::Kind::VectorVector, AluOp::Shr},
    {"MUL", AluOpSpec::Kind::VectorVector, AluOp::Mul},     {"MIN_IMM", AluOpSpec::Kind::Immediate, AluOp::Min},
    {"MAX_IMM", AluOpSpec::Kind::Immediate, AluOp::Max},    {"ADD_IMM", AluOpSpec::Kind::Immediate, AluOp::Add},
    {"SHR_IMM", AluOpSpec::Kind::Immediate, AluOp::Shr},    {"MUL_IMM", AluOpSpec::Kind::Immediate, AluOp::Mul},
    {"ADD_ACC", AluOpSpec::Kind::AddAcc, AluOp::Add}};

}  // namespace

Program parse_program(const nlohmann::json& doc, const std::string& source, const IrParseOptions& opt) {
    Program p;
    p.source = source;
    JsonCheck root(doc, source);
    root.allow_only({"NAME", "MATRICES", "LOAD", "GEMM", "ALU", "STORE", "STRATEGY"});
    p.name = root.get_string("NAME", "");

    // MATRICES: name -> [rows, cols, source]
    JsonCheck mats = root.at("MATRICES");
    mats.expect_object();
    if (mats.value().empty()) mats.fail("expected at least one matrix");
    for (auto it = mats.value().begin(); it != mats.value().end(); ++it) {
        JsonCheck md = mats.at(it.key());
        if (!md.value().is_array() || md.size() != 3) md.fail("expected [rows, cols, source] for matrix " + it.key());
        Matrix m;
        m.name = it.key();
        m.rows = int(md.at(0).as_int(1, kMaxDim));
        m.cols = int(md.at(1).as_int(1, kMaxDim));
        const std::string s = md.at(2).as_string();
        if (s == "output") m.source = MatrixSource::Output;
        else if (s == "input") m.source = MatrixSource::Input;
        else if (s.empty()) md.at(2).fail("expected a data file path, \"input\" or \"output\"");
        else {
            m.source = MatrixSource::File;
            m.path = (opt.base_dir.empty() || s.front() == '/') ? s : opt.base_dir + "/" + s;
        }
        if (m.source == MatrixSource::Output) {
            if (p.c >= 0) md.at(2).fail("a second \"output\" matrix (" + m.name + "); exactly one matrix is the output, " +
                                        p.C().name + " already is");
            p.c = int(p.matrices.size());
        }
        p.matrices.push_back(std::move(m));
    }
    if (p.c < 0) mats.fail("no matrix has source \"output\" (exactly one output matrix is required)");
    const Matrix& C = p.C();

    // LOAD
    JsonCheck load = root.at("LOAD");
    load.allow_only({"INP", "WGT", "ACC"});
    if (load.value().empty()) load.fail("expected at least one of INP, WGT, ACC");
    auto load_role = [&](const char* buf, int& role, std::vector<RowRange>& rows) {
        if (!load.has(buf)) return;
        JsonCheck l = load.at(buf);
        if (l.size() < 1) l.fail("expected [matrix, optional row ranges]");
        role = find_matrix(p, l.at(0));
        if (role == p.c) l.at(0).fail(std::string("cannot LOAD ") + buf + " from the output matrix " + C.name);
        for (std::size_t i = 1; i < l.size(); ++i)
            rows.push_back(parse_range(l.at(i), p.matrices[std::size_t(role)].rows, "matrix " + p.matrices[std::size_t(role)].name));
    };
    load_role("INP", p.a, p.a_rows);
    load_role("WGT", p.b, p.b_rows);
    if (load.has("ACC")) {
        JsonCheck l = load.at("ACC");
        if (l.size() < 1) l.fail("expected [matrix, optional second matrix or row ranges]");
        p.x = find_matrix(p, l.at(0));
        if (p.x == p.c) l.at(0).fail("cannot LOAD ACC from the output matrix " + C.name);
        if (l.size() >= 2 && l.value()[1].is_string()) {
            if (l.size() != 2) l.fail("expected [X, Y] for two accumulator matrices");
            p.y = find_matrix(p, l.at(1));
            if (p.y == p.c) l.at(1).fail("cannot LOAD ACC from the output matrix " + C.name);
            if (p.y == p.x) l.at(1).fail("the two ACC matrices must differ");
        } else {
            for (std::size_t i = 1; i < l.size(); ++i)
                p.x_rows.push_back(parse_range(l.at(i), p.X().rows, "matrix " + p.X().name));
        }
    }
    {
        const int roles[] = {p.a, p.b, p.x, p.y};
        for (int i = 0; i < 4; ++i)
            for (int j = i + 1; j < 4; ++j)
                if (roles[i] >= 0 && roles[i] == roles[j])
                    load.fail("matrix " + p.matrices[std::size_t(roles[i])].name + " is loaded into two buffers");
    }

    // GEMM
    if (root.has("GEMM")) {
        JsonCheck g = root.at("GEMM");
        if (g.size() != 3) g.fail("expected [output, input, weight] or [output, input, integer]");
        if (find_matrix(p, g.at(0)) != p.c) g.at(0).fail("GEMM must write the output matrix " + C.name);
        const int ga = find_matrix(p, g.at(1));
        if (p.a < 0) load.fail("GEMM needs an INP load (missing member \"INP\")");
        if (ga != p.a) g.at(1).fail("GEMM input must be the INP-loaded matrix " + p.A().name);
        p.has_gemm = true;
        if (g.value()[2].is_number()) {
            p.gemm_scalar = true;
            p.scalar = std::int32_t(g.at(2).as_int(-128, 127));
            if (p.b >= 0) load.at("WGT").fail("WGT is loaded but GEMM multiplies by a scalar");
            if (p.A().rows != C.rows || p.A().cols != C.cols)
                g.fail("shape mismatch: scalar GEMM needs A and C of the same shape, found " + p.A().name + " [" +
                       std::to_string(p.A().rows) + "x" + std::to_string(p.A().cols) + "] and " + C.name + " [" +
                       std::to_string(C.rows) + "x" + std::to_string(C.cols) + "]");
        } else {
            const int gb = find_matrix(p, g.at(2));
            if (p.b < 0) load.fail("GEMM needs a WGT load (missing member \"WGT\")");
            if (gb != p.b) g.at(2).fail("GEMM weight must be the WGT-loaded matrix " + p.B().name);
            const Matrix &A = p.A(), &B = p.B();
            auto dims = [](const Matrix& m) { return m.name + " [" + std::to_string(m.rows) + "x" + std::to_string(m.cols) + "]"; };
            if (A.cols != B.rows) g.fail("shape mismatch: cols(" + A.name + ") != rows(" + B.name + "): " + dims(A) + " x " + dims(B));
            if (A.rows != C.rows) g.fail("shape mismatch: rows(" + A.name + ") != rows(" + C.name + "): " + dims(A) + ", " + dims(C));
            if (B.cols != C.cols) g.fail("shape mismatch: cols(" + B.name + ") != cols(" + C.name + "): " + dims(B) + ", " + dims(C));
        }
    } else {
        if (p.x < 0) load.fail("no ACC loaded: without GEMM the program needs an ACC load");
        if (p.a >= 0) load.at("INP").fail("INP is loaded but there is no GEMM");
        if (p.b >= 0) load.at("WGT").fail("WGT is loaded but there is no GEMM");
    }
    if (p.x >= 0) {
        const Matrix& X = p.X();
        if (X.cols != C.cols || (X.rows != C.rows && X.rows != 1))
            load.at("ACC").fail("shape mismatch: " + X.name + " [" + std::to_string(X.rows) + "x" + std::to_string(X.cols) +
                                "] must have the shape of " + C.name + " [" + std::to_string(C.rows) + "x" +
                                std::to_string(C.cols) + "] or be one row of " + std::to_string(C.cols) + " (bias)");
        if (p.y >= 0 && (p.Y().rows != C.rows || p.Y().cols != C.cols || X.rows != C.rows))
            load.at("ACC").fail("shape mismatch: ADD_ACC needs both ACC matrices of the shape of " + C.name);
    }

    // ALU
    if (root.has("ALU")) {
        JsonCheck alu = root.at("ALU");
        alu.expect_object();
        if (alu.value().size() != 1) alu.fail("expected exactly one member: the output matrix " + C.name);
        const std::string target = alu.value().begin().key();
        if (target != C.name) alu.fail("ALU must target the output matrix " + C.name + ", found \"" + target + "\"");
        JsonCheck ops = alu.at(target);
        if (ops.size() == 0) ops.fail("expected at least one ALU operation");
        for (std::size_t i = 0; i < ops.size(); ++i) {
            JsonCheck o = ops.at(i);
            if (o.size() != 2) o.fail("expected [op_name, arguments]");
            const std::string nm = o.at(0).as_enum({"MIN", "MAX", "ADD", "SHR", "MUL", "MIN_IMM", "MAX_IMM", "ADD_IMM",
                                                    "SHR_IMM", "MUL_IMM", "ADD_ACC"});
            AluOpSpec s;
            for (const auto& n : kAluNames)
                if (nm == n.name) { s.kind = n.kind; s.op = n.op; }
            JsonCheck args = o.at(1);
            if (s.kind == AluOpSpec::Kind::AddAcc) {
                if (i != 0) o.fail("ADD_ACC must be the first ALU operation");
                if (args.size() != 2) args.fail("expected [X, Y]");
                if (p.has_gemm) o.fail("ADD_ACC cannot be combined with GEMM");
                const int ax = find_matrix(p, args.at(0)), ay = find_matrix(p, args.at(1));
                if (p.y < 0) load.fail("ADD_ACC needs two ACC loads: \"ACC\": [X, Y]");
                if (ax != p.x || ay != p.y) args.fail("ADD_ACC operands must be the ACC-loaded matrices [" + p.X().name + ", " + p.Y().name + "]");
                p.alu.push_back(s);
                continue;
            }
            if (args.size() != 3) args.fail("expected [[dst, step], " + std::string(s.kind == AluOpSpec::Kind::Immediate ? "imm" : "[src, step]") + ", count]");
            JsonCheck d = args.at(0);
            if (d.size() != 2) d.fail("expected [dst, step]");
            s.dst = d.at(0).as_int(0, kMaxDim);
            s.dst_step = d.at(1).as_int(-kMaxDim, kMaxDim);
            s.count = args.at(2).as_int(1, kMaxDim);
            if (s.kind == AluOpSpec::Kind::VectorVector) {
                if (!args.value()[1].is_array()) args.at(1).fail("expected [src, step] for vector-vector " + nm + " (use " + nm + "_IMM for a scalar)");
                JsonCheck sr = args.at(1);
                if (sr.size() != 2) sr.fail("expected [src, step]");
                s.src = sr.at(0).as_int(0, kMaxDim);
                s.src_step = sr.at(1).as_int(-kMaxDim, kMaxDim);
            } else {
                s.imm = std::int32_t(args.at(1).as_int(-32768, 32767));  // 16-bit ALU immediate
            }
            auto check_rows = [&](std::int64_t first, std::int64_t last, const char* which) {
                for (std::int64_t r : {first, last})
                    if (r < 0 || r >= C.rows)
                        args.fail(std::string(which) + " row " + std::to_string(r) + " out of range: " + C.name + " has rows 0.." +
                                  std::to_string(C.rows - 1));
            };
            check_rows(s.dst, s.dst_row(s.count - 1), "destination");
            if (s.kind == AluOpSpec::Kind::VectorVector) check_rows(s.src, s.src_row(s.count - 1), "source");
            p.alu.push_back(s);
        }
    }
    if (!p.has_gemm && p.alu.empty()) root.fail("expected a GEMM or an ALU member (or both)");
    if (p.y >= 0 && !p.has_add_acc()) load.at("ACC").fail("a second ACC matrix is loaded but no ADD_ACC uses it");
    if (p.has_add_acc() && !p.x_rows.empty()) load.at("ACC").fail("ADD_ACC does not take row ranges");

    // STORE
    JsonCheck st = root.at("STORE");
    st.expect_object();
    if (st.value().size() != 1) st.fail("expected exactly one member: the output matrix " + C.name);
    if (st.value().begin().key() != C.name)
        st.fail("STORE must target the output matrix " + C.name + ", found \"" + st.value().begin().key() + "\"");
    JsonCheck sl = st.at(C.name);
    if (sl.size() == 0) sl.fail("expected [" + C.name + "] or a list of row ranges");
    if (sl.value()[0].is_string()) {
        if (sl.size() != 1 || find_matrix(p, sl.at(0)) != p.c) sl.fail("expected [" + C.name + "] to store the whole output");
    } else {
        for (std::size_t i = 0; i < sl.size(); ++i) p.store_rows.push_back(parse_range(sl.at(i), C.rows, "matrix " + C.name));
    }

    // STRATEGY
    if (root.has("STRATEGY")) {
        JsonCheck s = root.at("STRATEGY");
        if (s.value().is_string()) {
            if (s.as_string() != "auto") s.fail("expected 1, 2, 3, 4 or \"auto\"");
            p.strategy = 0;
        } else {
            p.strategy = int(s.as_int(1, 4));
        }
    }

    // Data of the loaded matrices.
    auto load_data = [&](int idx, bool int8, int role) {
        if (idx < 0) return;
        Matrix& m = p.matrices[std::size_t(idx)];
        if (m.source == MatrixSource::File) read_data(m, int8 ? 1 : 4, mats.at(m.name).at(2));
        else generate_data(m, int8, opt.seed, role);
    };
    load_data(p.a, true, 0);
    load_data(p.b, true, 1);
    load_data(p.x, false, 2);
    load_data(p.y, false, 3);
    return p;
}

Program load_program(const std::string& path, std::uint64_t seed) {
    IrParseOptions opt;
    opt.seed = seed;
    const auto slash = path.find_last_of('/');
    opt.base_dir = slash == std::string::npos ? "" : path.substr(0, slash);
    return parse_program(read_json_file(path), path, opt);
}

}  // namespace vp::mapper::vta
