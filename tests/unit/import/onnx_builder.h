#pragma once
// Small ONNX models built in the tests with the ONNX protobuf classes (no exporter involved).
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include <onnx/onnx_pb.h>

namespace test_onnx {

// The folder models are written to: one per process, since CTest runs the test cases of an
// executable in parallel processes and several of them write files of the same name.
inline std::filesystem::path scratch_dir() {
    const auto dir = std::filesystem::temp_directory_path() / ("vp_import_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return dir;
}

using Dims = std::vector<std::int64_t>;

class Model {
public:
    explicit Model(int opset = 13) {
        m.set_ir_version(opset >= 15 ? 8 : 7);
        m.set_producer_name("test");
        auto* op = m.add_opset_import();
        op->set_domain("");
        op->set_version(opset);
        g = m.mutable_graph();
        g->set_name("test");
    }
    // dims < 0 are symbolic ("N").
    Model& input(const std::string& name, const Dims& dims, int type = onnx::TensorProto::FLOAT) {
        set_type(g->add_input(), name, dims, type);
        return *this;
    }
    Model& output(const std::string& name, int type = onnx::TensorProto::FLOAT) {
        auto* v = g->add_output();
        v->set_name(name);
        v->mutable_type()->mutable_tensor_type()->set_elem_type(type);
        return *this;
    }
    // An initializer filled with small pseudo-random values (deterministic), or external data.
    Model& init(const std::string& name, const Dims& dims, int type = onnx::TensorProto::FLOAT, const std::string& external = "") {
        auto* t = g->add_initializer();
        t->set_name(name);
        t->set_data_type(type);
        std::int64_t n = 1;
        for (auto d : dims) {
            t->add_dims(d);
            n *= d;
        }
        if (!external.empty()) {
            t->set_data_location(onnx::TensorProto::EXTERNAL);
            auto* kv = t->add_external_data();
            kv->set_key("location");
            kv->set_value(external);
            return *this;
        }
        std::mt19937 rng(std::uint32_t(n * 7 + g->initializer_size()));
        for (std::int64_t k = 0; k < n; ++k) {
            const int v = int(rng() % 19) - 9;
            if (type == onnx::TensorProto::FLOAT) t->add_float_data(float(v) / 8.0f);
            else if (type == onnx::TensorProto::INT64) t->add_int64_data(v);
            else t->add_int32_data(type == onnx::TensorProto::UINT8 ? v + 128 : v);
        }
        return *this;
    }
    Model& ints(const std::string& name, const std::vector<std::int64_t>& v) {
        auto* t = g->add_initializer();
        t->set_name(name);
        t->set_data_type(onnx::TensorProto::INT64);
        t->add_dims(std::int64_t(v.size()));
        for (auto x : v) t->add_int64_data(x);
        return *this;
    }
    Model& tensor(const std::string& name, const Dims& dims, const std::vector<float>& v) {
        auto* t = g->add_initializer();
        t->set_name(name);
        t->set_data_type(onnx::TensorProto::FLOAT);
        for (auto d : dims) t->add_dims(d);
        for (auto x : v) t->add_float_data(x);
        return *this;
    }
    Model& floats(const std::string& name, const std::vector<float>& v, bool scalar = false) {
        auto* t = g->add_initializer();
        t->set_name(name);
        t->set_data_type(onnx::TensorProto::FLOAT);
        if (!scalar) t->add_dims(std::int64_t(v.size()));
        for (auto x : v) t->add_float_data(x);
        return *this;
    }
    onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& in, const std::vector<std::string>& out,
                          const std::string& name = "") {
        auto* n = g->add_node();
        n->set_op_type(op);
        n->set_name(name.empty() ? out.at(0) + "_node" : name);
        for (const auto& i : in) n->add_input(i);
        for (const auto& o : out) n->add_output(o);
        return *n;
    }
    std::string save(const std::string& file) const {
        const auto dir = scratch_dir();
        const std::string path = (dir / file).string();
        std::ofstream f(path, std::ios::binary);
        f << m.SerializeAsString();
        return path;
    }

    onnx::ModelProto m;
    onnx::GraphProto* g;

private:
    static void set_type(onnx::ValueInfoProto* v, const std::string& name, const Dims& dims, int type) {
        v->set_name(name);
        auto* tt = v->mutable_type()->mutable_tensor_type();
        tt->set_elem_type(type);
        auto* s = tt->mutable_shape();
        for (auto d : dims) {
            auto* dim = s->add_dim();
            if (d < 0) dim->set_dim_param("N");
            else dim->set_dim_value(d);
        }
    }
};

inline void attr(onnx::NodeProto& n, const std::string& name, std::int64_t v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
}
inline void attr(onnx::NodeProto& n, const std::string& name, float v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(v);
}
inline void attr(onnx::NodeProto& n, const std::string& name, const std::string& v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(v);
}
inline void attr(onnx::NodeProto& n, const std::string& name, const std::vector<std::int64_t>& v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (auto x : v) a->add_ints(x);
}

}  // namespace test_onnx
