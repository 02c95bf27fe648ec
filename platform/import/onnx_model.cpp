#include "platform/import/onnx_model.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <unistd.h>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>

#include "mapper/common/errors.h"
#include "mapper/common/json_text.h"

namespace vp::import {

namespace fs = std::filesystem;
using onnx::TensorProto;

namespace {

constexpr std::int64_t kMaxElements = std::int64_t(1) << 31;  // per tensor: far above any CNN weight
constexpr std::uintmax_t kMaxFileBytes = (std::uintmax_t(1) << 31) - 1;  // protobuf's 2 GiB message limit

// Parses the file straight from its descriptor (no copy of the whole file in memory).
void parse_file(const std::string& path, onnx::ModelProto& model) {
    std::error_code ec;
    if (!fs::exists(path, ec)) throw InputError(path + ": cannot open file (no such file)");
    if (!fs::is_regular_file(path, ec)) throw InputError(path + ": cannot open file (not a regular file)");
    const auto size = fs::file_size(path, ec);
    if (ec) throw InputError(path + ": cannot read file size");
    if (size == 0) throw InputError(path + ": empty file (expected an ONNX model)");
    if (size > kMaxFileBytes) throw InputError(path + ": larger than 2 GiB (store the weights as external data)");
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) throw InputError(path + ": cannot open file");
    bool ok;
    {
        google::protobuf::io::FileInputStream fis(fd);
        google::protobuf::io::CodedInputStream cis(&fis);
        cis.SetTotalBytesLimit(int(kMaxFileBytes));
        ok = model.ParseFromCodedStream(&cis) && cis.ConsumedEntireMessage();
    }
    ::close(fd);
    if (!ok) throw InputError(path + ": not a valid ONNX model (the protobuf message does not parse: truncated or not ONNX)");
}

float half_to_float(std::uint16_t h) {
    const std::uint32_t sign = std::uint32_t(h >> 15) << 31, exp = (h >> 10) & 0x1F, man = h & 0x3FF;
    std::uint32_t bits;
    if (exp == 0) {
        if (man == 0) {
            bits = sign;
        } else {  // subnormal
            int e = -1;
            std::uint32_t m = man;
            do {
                ++e;
                m <<= 1;
            } while ((m & 0x400) == 0);
            bits = sign | std::uint32_t(127 - 15 - e) << 23 | (m & 0x3FF) << 13;
        }
    } else if (exp == 31) {
        bits = sign | 0x7F800000u | man << 13;
    } else {
        bits = sign | (exp + 127 - 15) << 23 | man << 13;
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

// Decodes little-endian raw bytes of `n` elements of type `type` into d.
void decode_raw(const unsigned char* p, std::size_t n, int type, TensorData& d) {
    auto u = [&](std::size_t k, int bytes) {
        std::uint64_t v = 0;
        for (int b = 0; b < bytes; ++b) v |= std::uint64_t(p[k * std::size_t(bytes) + std::size_t(b)]) << (8 * b);
        return v;
    };
    if (d.is_float()) d.f.resize(n);
    else d.i.resize(n);
    for (std::size_t k = 0; k < n; ++k) switch (type) {
            case TensorProto::FLOAT: {
                const std::uint32_t b = std::uint32_t(u(k, 4));
                float f;
                std::memcpy(&f, &b, 4);
                d.f[k] = f;
                break;
            }
            case TensorProto::DOUBLE: {
                const std::uint64_t b = u(k, 8);
                double f;
                std::memcpy(&f, &b, 8);
                d.f[k] = f;
                break;
            }
            case TensorProto::FLOAT16: d.f[k] = half_to_float(std::uint16_t(u(k, 2))); break;
            case TensorProto::BFLOAT16: {
                const std::uint32_t b = std::uint32_t(u(k, 2)) << 16;
                float f;
                std::memcpy(&f, &b, 4);
                d.f[k] = f;
                break;
            }
            case TensorProto::INT8: d.i[k] = std::int8_t(u(k, 1)); break;
            case TensorProto::UINT8:
            case TensorProto::BOOL: d.i[k] = std::int64_t(u(k, 1)); break;
            case TensorProto::INT16: d.i[k] = std::int16_t(u(k, 2)); break;
            case TensorProto::UINT16: d.i[k] = std::int64_t(u(k, 2)); break;
            case TensorProto::INT32: d.i[k] = std::int32_t(u(k, 4)); break;
            case TensorProto::UINT32: d.i[k] = std::int64_t(u(k, 4)); break;
            case TensorProto::INT64:
            case TensorProto::UINT64: d.i[k] = std::int64_t(u(k, 8)); break;
            default: break;
        }
}

}  // namespace

bool is_float_type(int t) {
    return t == TensorProto::FLOAT || t == TensorProto::DOUBLE || t == TensorProto::FLOAT16 || t == TensorProto::BFLOAT16;
}

bool is_integer_type(int t) {
    switch (t) {
        case TensorProto::INT8: case TensorProto::UINT8: case TensorProto::INT16: case TensorProto::UINT16:
        case TensorProto::INT32: case TensorProto::UINT32: case TensorProto::INT64: case TensorProto::UINT64:
        case TensorProto::BOOL: return true;
        default: return false;
    }
}

int type_bits(int t) {
    switch (t) {
        case TensorProto::INT8: case TensorProto::UINT8: case TensorProto::BOOL: return 8;
        case TensorProto::INT16: case TensorProto::UINT16: case TensorProto::FLOAT16: case TensorProto::BFLOAT16: return 16;
        case TensorProto::INT32: case TensorProto::UINT32: case TensorProto::FLOAT: return 32;
        case TensorProto::INT64: case TensorProto::UINT64: case TensorProto::DOUBLE: return 64;
        default: return 0;
    }
}

const char* type_name(int t) {
    if (t >= 0 && TensorProto::DataType_IsValid(t)) {
        static thread_local std::string n;
        n = TensorProto::DataType_Name(TensorProto::DataType(t));
        return n.c_str();
    }
    return "UNKNOWN";
}

bool TensorData::is_float() const { return is_float_type(type); }

std::int64_t element_count(const std::vector<std::int64_t>& dims, const std::string& what) {
    std::int64_t n = 1;
    for (std::int64_t d : dims) {
        if (d < 0) throw InputError(what + ": negative dimension " + std::to_string(d));
        if (d != 0 && n > kMaxElements / d) throw InputError(what + ": more than 2^31 elements");
        n *= d;
    }
    return n;
}

bool is_external(const TensorProto& t) { return t.data_location() == TensorProto::EXTERNAL; }

std::string external_file(const TensorProto& t, const std::string& dir) {
    if (!is_external(t)) return "";
    for (const auto& kv : t.external_data())
        if (kv.key() == "location") return (fs::path(dir) / kv.value()).lexically_normal().string();
    return "";
}

LoadedModel load_model(const std::string& path) {
    LoadedModel m;
    m.path = path;
    m.dir = fs::path(path).parent_path().string();
    if (m.dir.empty()) m.dir = ".";
    parse_file(path, m.model);
    if (!m.model.has_graph() || m.model.ir_version() <= 0 || m.model.opset_import_size() == 0)
        throw InputError(path + ": not an ONNX model (no graph, IR version or opset import)");
    bool found = false;
    for (const auto& op : m.model.opset_import())
        if (op.domain().empty() || op.domain() == "ai.onnx") {
            m.opset = int(op.version());
            found = true;
        }
    if (!found) throw InputError(path + ": the model imports no opset of the default ONNX domain");
    m.source_opset = m.opset;
    if (m.opset < kMinLegacyOpset || m.opset > kMaxRecentOpset)
        throw InputError(path + ": opset " + std::to_string(m.opset) + " is out of the supported range " +
                         std::to_string(kMinLegacyOpset) + ".." + std::to_string(kMaxRecentOpset) +
                         (m.opset > kMaxRecentOpset ? " (export the model at that opset or lower)" : ""));
    // Names end up in the workload document (JSON, which is UTF-8 only) and in messages.
    auto check_text = [&](const std::string& text, const std::string& what) {
        const std::size_t at = invalid_utf8_at(text);
        if (at == std::string::npos) return;
        char byte[8];
        std::snprintf(byte, sizeof byte, "0x%02X", unsigned(static_cast<unsigned char>(text[at])));
        throw InputError(path + ": " + what + " is not valid UTF-8 (byte " + byte + " at offset " + std::to_string(at) +
                         ")");
    };
    const auto& g = m.model.graph();
    check_text(m.model.producer_name(), "the producer name");
    check_text(m.model.producer_version(), "the producer version");
    check_text(g.name(), "the graph name");
    for (int i = 0; i < g.node_size(); ++i) {
        const auto& n = g.node(i);
        const std::string what = "node #" + std::to_string(i);
        check_text(n.name(), "the name of " + what);
        check_text(n.op_type(), "the operator type of " + what);
        check_text(n.domain(), "the operator domain of " + what);
        for (const auto& x : n.input()) check_text(x, "an input name of " + what);
        for (const auto& x : n.output()) check_text(x, "an output name of " + what);
    }
    for (const auto& t : g.initializer()) check_text(t.name(), "an initializer name");
    for (const auto& v : g.input()) check_text(v.name(), "a graph input name");
    for (const auto& v : g.output()) check_text(v.name(), "a graph output name");
    // External data must stay inside the model's folder (a model must not read arbitrary files).
    const fs::path base = fs::weakly_canonical(fs::absolute(m.dir));
    auto check_ext = [&](const TensorProto& t, const std::string& what) {
        if (!is_external(t)) return;
        std::string loc;
        for (const auto& kv : t.external_data())
            if (kv.key() == "location") loc = kv.value();
        if (loc.empty()) throw InputError(path + ": " + what + " \"" + t.name() + "\" has external data without a location");
        const fs::path lp(loc);
        const fs::path full = fs::weakly_canonical(base / lp);
        const auto rel = full.lexically_relative(base);
        if (lp.is_absolute() || rel.empty() || *rel.begin() == "..")
            throw InputError(path + ": " + what + " \"" + t.name() + "\" refers to external data \"" + loc +
                             "\" outside the model's folder");
    };
    for (const auto& t : m.model.graph().initializer()) check_ext(t, "initializer");
    for (const auto& n : m.model.graph().node())
        for (const auto& a : n.attribute())
            if (a.has_t()) check_ext(a.t(), "node \"" + n.name() + "\" (" + n.op_type() + ") attribute");
    return m;
}

TensorData read_tensor(const TensorProto& t, const std::string& dir, const std::string& what) {
    TensorData d;
    d.type = t.data_type();
    d.dims.assign(t.dims().begin(), t.dims().end());
    const std::int64_t n = element_count(d.dims, what + ": tensor \"" + t.name() + "\"");
    const int bits = type_bits(d.type);
    if (bits == 0) throw InputError(what + ": tensor \"" + t.name() + "\" has an unsupported element type " + type_name(d.type));
    const std::size_t bytes = std::size_t(n) * std::size_t(bits / 8);
    if (is_external(t)) {
        std::string loc;
        std::int64_t offset = 0, length = -1;
        for (const auto& kv : t.external_data()) {
            try {
                if (kv.key() == "location") loc = kv.value();
                if (kv.key() == "offset") offset = std::stoll(kv.value());
                if (kv.key() == "length") length = std::stoll(kv.value());
            } catch (const std::exception&) {
                throw InputError(what + ": tensor \"" + t.name() + "\": bad external data " + kv.key() + " \"" + kv.value() + "\"");
            }
        }
        const std::string file = (fs::path(dir) / loc).lexically_normal().string();
        std::error_code ec;
        if (fs::is_directory(file, ec))
            throw InputError(what + ": the external data file \"" + file + "\" of \"" + t.name() + "\" is a folder");
        std::ifstream in(file, std::ios::binary);
        if (!in)
            throw InputError(what + ": the values of \"" + t.name() + "\" are in the external data file \"" + file +
                             "\", which does not exist (the weights were stripped; this platform computes values)");
        if (offset < 0 || (length >= 0 && std::size_t(length) != bytes))
            throw InputError(file + ": external data of \"" + t.name() + "\" has offset " + std::to_string(offset) +
                             " / length " + std::to_string(length) + ", expected " + std::to_string(bytes) + " bytes");
        in.seekg(0, std::ios::end);
        const auto fsize = std::int64_t(in.tellg());
        if (offset + std::int64_t(bytes) > fsize)
            throw InputError(file + ": too short for \"" + t.name() + "\" (" + std::to_string(fsize) + " bytes, needs " +
                             std::to_string(offset + std::int64_t(bytes)) + ")");
        std::string buf(bytes, '\0');
        in.seekg(offset);
        in.read(buf.data(), std::streamsize(bytes));
        decode_raw(reinterpret_cast<const unsigned char*>(buf.data()), std::size_t(n), d.type, d);
        return d;
    }
    if (t.has_raw_data()) {
        if (t.raw_data().size() != bytes)
            throw InputError(what + ": tensor \"" + t.name() + "\" has " + std::to_string(t.raw_data().size()) +
                             " bytes of raw data, expected " + std::to_string(bytes));
        decode_raw(reinterpret_cast<const unsigned char*>(t.raw_data().data()), std::size_t(n), d.type, d);
        return d;
    }
    auto fail_count = [&](std::size_t have) {
        throw InputError(what + ": tensor \"" + t.name() + "\" holds " + std::to_string(have) + " values, its dims give " +
                         std::to_string(n));
    };
    switch (d.type) {
        case TensorProto::FLOAT:
            if (std::size_t(t.float_data_size()) != std::size_t(n)) fail_count(std::size_t(t.float_data_size()));
            d.f.assign(t.float_data().begin(), t.float_data().end());
            break;
        case TensorProto::DOUBLE:
            if (std::size_t(t.double_data_size()) != std::size_t(n)) fail_count(std::size_t(t.double_data_size()));
            d.f.assign(t.double_data().begin(), t.double_data().end());
            break;
        case TensorProto::INT64:
            if (std::size_t(t.int64_data_size()) != std::size_t(n)) fail_count(std::size_t(t.int64_data_size()));
            d.i.assign(t.int64_data().begin(), t.int64_data().end());
            break;
        case TensorProto::UINT32:
        case TensorProto::UINT64:
            if (std::size_t(t.uint64_data_size()) != std::size_t(n)) fail_count(std::size_t(t.uint64_data_size()));
            for (auto v : t.uint64_data()) d.i.push_back(std::int64_t(v));
            break;
        case TensorProto::FLOAT16:
        case TensorProto::BFLOAT16:
            if (std::size_t(t.int32_data_size()) != std::size_t(n)) fail_count(std::size_t(t.int32_data_size()));
            for (auto v : t.int32_data())
                d.f.push_back(d.type == TensorProto::FLOAT16 ? double(half_to_float(std::uint16_t(v)))
                                                             : [&] {
                                                                   const std::uint32_t b = std::uint32_t(v) << 16;
                                                                   float f;
                                                                   std::memcpy(&f, &b, 4);
                                                                   return double(f);
                                                               }());
            break;
        default:  // int8/16/32, uint8/16, bool: int32_data
            if (std::size_t(t.int32_data_size()) != std::size_t(n)) fail_count(std::size_t(t.int32_data_size()));
            d.i.assign(t.int32_data().begin(), t.int32_data().end());
            break;
    }
    return d;
}

TensorProto make_tensor(const std::string& name, const TensorData& d) {
    TensorProto t;
    t.set_name(name);
    for (auto x : d.dims) t.add_dims(x);
    switch (d.type) {
        case TensorProto::DOUBLE:
            t.set_data_type(TensorProto::DOUBLE);
            for (double v : d.f) t.add_double_data(v);
            break;
        case TensorProto::INT64:
            t.set_data_type(TensorProto::INT64);
            for (auto v : d.i) t.add_int64_data(v);
            break;
        case TensorProto::INT32: case TensorProto::INT16: case TensorProto::INT8: case TensorProto::UINT16:
        case TensorProto::UINT8: case TensorProto::BOOL:
            t.set_data_type(d.type);
            for (auto v : d.i) t.add_int32_data(std::int32_t(v));
            break;
        default:
            if (d.is_float()) {
                t.set_data_type(TensorProto::FLOAT);
                for (double v : d.f) t.add_float_data(float(v));
            } else {
                t.set_data_type(TensorProto::INT64);
                for (auto v : d.i) t.add_int64_data(v);
            }
    }
    return t;
}

bool remove_attr(onnx::NodeProto& n, const std::string& name) {
    auto* attrs = n.mutable_attribute();
    for (int i = 0; i < attrs->size(); ++i)
        if (attrs->Get(i).name() == name) {
            attrs->DeleteSubrange(i, 1);
            return true;
        }
    return false;
}

}  // namespace vp::import
