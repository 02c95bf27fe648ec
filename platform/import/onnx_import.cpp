#include "platform/import/onnx_import.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iomanip>
#include <sstream>
#include <unordered_set>

#include "mapper/common/errors.h"
#include "platform/import/convert_context.h"
#include "platform/import/graph_order.h"
#include "platform/import/legacy_opset.h"
#include "platform/import/layer_values.h"
#include "platform/import/onnx_model.h"
#include "platform/import/recent_opset.h"
#include "platform/import/shape_folding.h"

namespace vp::import {

namespace fs = std::filesystem;
using mapper::Layer;

namespace {

constexpr std::size_t kMaxNodes = 1 << 20;
constexpr std::int64_t kMaxBatch = 1 << 10;

std::string dims_text(const std::vector<std::int64_t>& d) {
    std::string s;
    for (std::size_t k = 0; k < d.size(); ++k) s += (k ? "x" : "") + std::to_string(d[k]);
    return s;
}

// The model's data inputs (graph inputs without an initializer of the same name).
std::vector<onnx::ValueInfoProto*> data_inputs(onnx::GraphProto& g) {
    std::vector<onnx::ValueInfoProto*> in;
    for (auto& v : *g.mutable_input()) {
        bool init = false;
        for (const auto& t : g.initializer()) init = init || t.name() == v.name();
        if (!init) in.push_back(&v);
    }
    return in;
}

// --input-shape / --batch, then every data input must have a static shape.
void apply_input_shapes(LoadedModel& m, const ImportOptions& opt) {
    auto inputs = data_inputs(*m.model.mutable_graph());
    if (inputs.empty()) throw InputError(m.path + ": the model has no data input");
    for (const auto& [name, dims] : opt.input_shapes) {
        const std::string& wanted = name;  // C++17: a lambda cannot capture a structured binding
        auto it = std::find_if(inputs.begin(), inputs.end(),
                               [&](const onnx::ValueInfoProto* v) { return v->name() == wanted; });
        if (it == inputs.end()) {
            std::string names;
            for (const auto* v : inputs) names += (names.empty() ? "" : ", ") + v->name();
            throw InputError(m.path + ": --input-shape names \"" + name + "\", which is not an input of the model (inputs: " + names + ")");
        }
        auto* shape = (*it)->mutable_type()->mutable_tensor_type()->mutable_shape();
        if (shape->dim_size() != 0 && shape->dim_size() != int(dims.size()))
            throw InputError(m.path + ": --input-shape " + name + "=" + dims_text(dims) + " has rank " + std::to_string(dims.size()) +
                             ", the input has rank " + std::to_string(shape->dim_size()));
        shape->clear_dim();
        for (auto d : dims) shape->add_dim()->set_dim_value(d);
    }
    if (!opt.input_shapes.empty() || opt.batch > 0) {
        // The shapes the exporter recorded for the other tensors assumed the old input shapes:
        // shape inference recomputes them.
        auto& g = *m.model.mutable_graph();
        g.clear_value_info();
        for (auto& o : *g.mutable_output())
            if (o.type().has_tensor_type()) o.mutable_type()->mutable_tensor_type()->clear_shape();
    }
    for (auto* v : inputs) {
        if (!v->type().has_tensor_type()) throw InputError(m.path + ": input \"" + v->name() + "\" is not a tensor");
        auto* shape = v->mutable_type()->mutable_tensor_type()->mutable_shape();
        if (opt.batch > 0 && shape->dim_size() > 0) {
            auto* d0 = shape->mutable_dim(0);
            if (opt.input_shapes.count(v->name()) && d0->dim_value() != opt.batch)
                throw InputError(m.path + ": --batch " + std::to_string(opt.batch) + " contradicts --input-shape " + v->name());
            d0->set_dim_value(opt.batch);
        }
        if (!v->type().tensor_type().has_shape())
            throw InputError(m.path + ": input \"" + v->name() + "\" has no shape: give --input-shape " + v->name() + "=1x3x224x224");
        for (int k = 0; k < shape->dim_size(); ++k) {
            const auto& d = shape->dim(k);
            if (!d.has_dim_value() || d.dim_value() < 1) {
                const std::string what = d.has_dim_param()   ? "a dynamic dimension \"" + d.dim_param() + "\""
                                         : !d.has_dim_value() ? std::string("an unknown dimension")
                                         : d.dim_value() == 0 ? std::string("a zero dimension")
                                                              : "a negative dimension " + std::to_string(d.dim_value());
                throw InputError(m.path + ": input \"" + v->name() + "\" has " + what + " (dim " + std::to_string(k) +
                                 "): give --input-shape " + v->name() + "=1x3x224x224" + (k == 0 ? " or --batch N" : ""));
            }
            if (d.dim_value() > (std::int64_t(1) << 24))
                throw InputError(m.path + ": input \"" + v->name() + "\" dimension " + std::to_string(d.dim_value()) + " is too large");
        }
    }
}

std::string input_label(const onnx::NodeProto& n, int k) { return node_label(n, k); }

}  // namespace

std::pair<std::string, std::vector<std::int64_t>> parse_input_shape(const std::string& arg) {
    const auto eq = arg.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == arg.size())
        throw InputError("--input-shape " + arg + ": expected NAME=DIMS, e.g. input=1x3x224x224");
    std::vector<std::int64_t> dims;
    const std::string text = arg.substr(eq + 1);
    std::size_t from = 0;
    for (;;) {
        const std::size_t x = text.find('x', from);
        const std::string tok = text.substr(from, x == std::string::npos ? std::string::npos : x - from);
        std::size_t used = 0;
        long long v = 0;
        try {
            v = std::stoll(tok, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != tok.size() || tok.empty() || v < 1 || v > (1 << 24))
            throw InputError("--input-shape " + arg + ": \"" + tok + "\" is not a dimension (1..16777216)");
        dims.push_back(v);
        if (x == std::string::npos) break;
        from = x + 1;
    }
    if (dims.empty() || dims.size() > 8) throw InputError("--input-shape " + arg + ": expected 1 to 8 dimensions");
    return {arg.substr(0, eq), dims};
}

std::map<std::string, std::vector<std::int64_t>> parse_input_shapes(const std::vector<std::string>& args) {
    std::map<std::string, std::vector<std::int64_t>> shapes;
    std::map<std::string, std::string> given;  // input name -> the argument that named it
    for (const std::string& a : args) {
        auto [name, dims] = parse_input_shape(a);
        const auto [it, fresh] = given.emplace(name, a);
        if (!fresh)
            throw InputError("--input-shape names input \"" + name + "\" twice (" + it->second + " and " + a +
                             "): give each input once");
        shapes[name] = std::move(dims);
    }
    return shapes;
}

bool is_onnx_path(const std::string& path) {
    std::string ext = fs::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
    return ext == ".onnx";
}

namespace {
// The imported network passes the checks of a JSON workload file (vp-run on vp-import's output
// would apply them): dimensions within the supported ranges (an --input-shape of 100000 x 100000
// is not simulated, and its layers are not allocated), consistent shapes. The error names the
// layer as the model does.
void check_like_a_workload_file(const mapper::Network& net, const std::string& path) {
    const nlohmann::json doc = nlohmann::json::parse(mapper::network_to_json(net).dump());
    try {
        (void)mapper::parse_network(doc, path + " (the imported network)");
    } catch (const InputError& e) {
        std::string msg = e.what();
        const auto at = msg.find("/layers/");
        if (at != std::string::npos) {
            std::size_t i = 0, end = at + 8;
            while (end < msg.size() && std::isdigit(static_cast<unsigned char>(msg[end]))) i = i * 10 + std::size_t(msg[end++] - '0');
            if (end > at + 8 && i < net.layers.size()) msg += " (layer \"" + net.layers[i].name + "\")";
        }
        throw InputError(msg);
    }
}
}  // namespace

ImportResult import_onnx(const std::string& path, const ImportOptions& opt) {
    if (opt.batch < 0 || opt.batch > kMaxBatch) throw InputError("--batch " + std::to_string(opt.batch) + ": expected 1..1024");
    if (opt.precision != 0 && opt.precision != 8 && opt.precision != 16)
        throw InputError("--precision " + std::to_string(opt.precision) + ": expected 8 or 16");
    LoadedModel m = load_model(path);
    onnx::GraphProto& g = *m.model.mutable_graph();
    if (std::size_t(g.node_size()) > kMaxNodes) throw InputError(path + ": more than 2^20 nodes");
    topo_order(g, path);  // structural errors before anything else reads the graph
    apply_input_shapes(m, opt);
    const std::size_t nodes = std::size_t(g.node_size());  // the file's (before a legacy upgrade adds any)
    int upgraded = -1;
    if (m.opset < kMinOpset) {
        upgraded = upgrade_to_opset7(m);
        m.opset = kMinOpset;
    } else if (m.opset > kMaxOpset) {
        upgraded = downgrade_to_opset17(m);
        m.opset = kMaxOpset;
    }
    ImportResult res;
    res.source = path;
    const std::size_t folded = infer_and_fold(m);

    Ctx c(m, opt);
    c.stats.opset = m.source_opset;
    c.stats.upgraded_nodes = upgraded;
    c.stats.read_as_opset = m.opset;
    c.stats.producer = m.model.producer_name() + (m.model.producer_version().empty() ? "" : " " + m.model.producer_version());
    c.stats.nodes = nodes;
    c.stats.folded = folded;
    c.types = tensor_types(g);
    for (const auto& t : g.initializer()) c.inits[t.name()] = &t;
    for (int k = 0; k < g.node_size(); ++k)
        for (int i = 0; i < g.node(k).input_size(); ++i) {
            const std::string& name = g.node(k).input(i);
            if (name.empty()) continue;
            ++c.uses[name];
            c.readers[name].push_back({k, i});
        }
    for (const auto& o : g.output()) ++c.uses[o.name()];
    // Values of the graph inputs and initializers.
    for (const auto& t : g.initializer()) {
        Value v;
        v.kind = ValueKind::Constant;
        v.init = &t;
        v.type = t.data_type();
        v.dims.assign(t.dims().begin(), t.dims().end());
        c.values[t.name()] = v;
    }
    bool first = true;
    for (auto* in : data_inputs(g)) {
        Value v;
        v.kind = ValueKind::Activation;
        v.producer = Layer::kNetInput;
        v.dims = *static_dims(in->type());
        v.type = in->type().tensor_type().elem_type();
        if (first && v.dims.size() >= 2) c.batch = v.dims[0];
        first = false;
        c.stats.data_inputs.push_back(in->name() + " " + dims_text(v.dims));
        c.values[in->name()] = v;
    }

    std::vector<SkippedNode> unsupported;
    std::unordered_set<std::string> unknown_shape;  // outputs of skipped nodes that shape inference could not size
    for (int k : topo_order(g, path)) {
        if (c.absorbed.count(k)) continue;
        const onnx::NodeProto& n = g.node(k);
        const std::string label = input_label(n, k);
        bool act = false, side = false;
        const Value* first_act = nullptr;
        std::string unknown_input;
        for (int i = 0; i < n.input_size(); ++i) {
            if (n.input(i).empty()) continue;
            const Value& v = c.values.at(n.input(i));
            if (v.kind == ValueKind::Activation) {
                act = true;
                if (!first_act) first_act = &v;
            }
            side = side || v.kind == ValueKind::Side;
            if (unknown_shape.count(n.input(i))) unknown_input = n.input(i);
        }
        const bool default_domain = n.domain().empty() || n.domain() == "ai.onnx";
        if (!act && default_domain) {
            // Constant data (weights through DequantizeLinear, Transpose, ...) or side values.
            Value v;
            v.kind = side ? ValueKind::Side : ValueKind::Constant;
            const std::string& op = n.op_type();
            const bool same_values = op == "DequantizeLinear" || op == "QuantizeLinear" || op == "Identity" ||
                                     op == "Reshape" || op == "Flatten" || op == "Squeeze" || op == "Unsqueeze";
            if (op == "DequantizeLinear" && n.input_size() > 0) c.note_quant_type(c.type_of(n.input(0)));
            if (op == "QuantizeLinear") c.note_quant_type(n.input_size() > 2 ? c.type_of(n.input(2)) : int(onnx::TensorProto::UINT8));
            if (!side && same_values && n.input_size() > 0 && !n.input(0).empty()) {
                v = c.values.at(n.input(0));
                if (op == "DequantizeLinear" || op == "QuantizeLinear") v.type = c.values.at(n.input(0)).type;
            } else {
                v.computed = true;
            }
            for (const auto& o : n.output())
                if (!o.empty()) {
                    c.values[o] = v;
                    if (v.kind == ValueKind::Constant && !c.types.count(o)) c.values[o].dims.clear();
                }
            continue;
        }
        std::string reason;
        const Converter conv = default_domain ? find_converter(n.op_type()) : nullptr;
        if (!default_domain) reason = "operator of the domain \"" + n.domain() + "\"";
        else if (!conv) reason = "operator not modelled";
        else if (!unknown_input.empty()) reason = "follows a skipped node: the shape of \"" + unknown_input + "\" is unknown";
        else {
            try {
                conv(c, n, k, label);
            } catch (const Unsupported& e) {
                reason = e.what();
            }
        }
        if (!reason.empty()) {
            unsupported.push_back({n.name().empty() ? "#" + std::to_string(k) : n.name(), n.op_type(), reason,
                                   default_domain && conv && !unknown_input.empty()});
            // Skipped (with --allow-unsupported): outputs of the same size pass the data on,
            // others come from outside the network.
            for (const auto& o : n.output()) {
                if (o.empty() || c.values.count(o)) continue;
                Value v;
                v.kind = ValueKind::Activation;
                v.producer = Layer::kNetInput;
                auto it = c.types.find(o);
                const auto od = it != c.types.end() ? static_dims(*it->second) : std::nullopt;
                if (!od) unknown_shape.insert(o);
                if (first_act && od) {
                    std::uint64_t a = 1, b = 1;
                    for (auto d : first_act->dims) a *= std::uint64_t(d);
                    v.dims = *od;
                    for (auto d : *od) b *= std::uint64_t(d);
                    if (a == b) v.producer = first_act->producer;
                }
                c.values[o] = v;
            }
        }
        for (const auto& o : n.output())
            if (!o.empty() && !c.values.count(o)) {
                Value v;
                v.kind = ValueKind::Side;
                c.values[o] = v;
            }
    }
    if (!unsupported.empty() && !opt.allow_unsupported) {
        std::size_t roots = 0, after = 0;
        for (const auto& u : unsupported) (u.follows_skipped ? after : roots) += 1;
        std::string msg = path + ": " + std::to_string(roots) + " unsupported node(s) (--allow-unsupported skips them):";
        for (const auto& u : unsupported)
            if (!u.follows_skipped) msg += "\n  node \"" + u.name + "\" (" + u.op_type + "): " + u.reason;
        if (after > 0)
            msg += "\n  and " + std::to_string(after) + " node(s) after them whose input shapes are unknown without them";
        throw InputError(msg);
    }
    if (c.net.layers.empty()) throw InputError(path + ": the model has no layer the mappers use (no conv, fc, pool, ... node)");

    // Precision: quantized types decide; float models take --precision (default 8).
    c.stats.quantized = c.quant_bits > 0;
    if (c.quant_bits > 0) {
        if (opt.precision != 0 && opt.precision != c.quant_bits)
            throw InputError(path + ": the model is quantized to " + std::to_string(c.quant_bits) + "-bit tensors; --precision " +
                             std::to_string(opt.precision) + " contradicts it");
        c.net.precision_bits = c.quant_bits;
    } else {
        c.net.precision_bits = opt.precision != 0 ? opt.precision : 8;
    }
    if (c.batch < 1 || c.batch > kMaxBatch) throw InputError(path + ": batch " + std::to_string(c.batch) + " out of range 1..1024");
    c.net.batch = int(c.batch);
    c.net.name = fs::path(path).stem().string();
    bool external = false, missing = false;
    for (const auto& t : g.initializer())
        if (is_external(t)) {
            external = true;
            std::error_code ec;
            missing = missing || !fs::exists(external_file(t, m.dir), ec);
        }
    c.stats.values_present = !missing;
    (void)external;
    check_like_a_workload_file(c.net, path);
    if (opt.need_values) res.values = extract_values(c);
    res.net = std::move(c.net);
    res.skipped = std::move(unsupported);
    res.stats = c.stats;
    return res;
}

namespace {
// The workload format has one network input ("input"): what a model with several becomes.
std::string several_inputs(const std::vector<std::string>& inputs) {
    std::string s = std::to_string(inputs.size()) + " data inputs (";
    for (std::size_t i = 0; i < inputs.size(); ++i) s += (i ? ", " : "") + inputs[i];
    return s + "): each layer that reads one of them reads the network input (\"input\") in its own shape; the VTA runs "
               "the network only when they are all of one size, with one input tensor for all";
}
}  // namespace

nlohmann::ordered_json ImportResult::workload_json() const {
    nlohmann::ordered_json net = mapper::network_to_json(this->net);
    nlohmann::ordered_json doc;
    doc["name"] = net["name"];
    doc["description"] = "imported from " + fs::path(source).filename().string() + " (opset " + std::to_string(stats.opset) +
                         (stats.upgraded_nodes >= 0 ? " read as opset " + std::to_string(stats.read_as_opset) : "") + (stats.producer.empty() ? "" : ", " + stats.producer) + ") by vp-import" +
                         (stats.data_inputs.size() > 1 ? "; " + several_inputs(stats.data_inputs) : "");
    for (auto it = net.begin(); it != net.end(); ++it)
        if (it.key() != "name") doc[it.key()] = it.value();
    if (!skipped.empty()) {
        nlohmann::ordered_json s = nlohmann::ordered_json::array();
        for (const auto& k : skipped) {
            nlohmann::ordered_json e;
            e["node"] = k.name;
            e["op"] = k.op_type;
            e["reason"] = k.reason;
            s.push_back(e);
        }
        doc["skipped"] = s;
    }
    return doc;
}

std::string ImportResult::summary() const {
    std::map<std::string, int> kinds;
    for (const auto& l : net.layers) ++kinds[mapper::to_string(l.kind)];
    std::ostringstream os;
    os << "imported " << source << " (opset " << stats.opset
       << (stats.upgraded_nodes >= 0 ? " read as opset " + std::to_string(stats.read_as_opset) + ", " + std::to_string(stats.upgraded_nodes) + " nodes rewritten" : "")
       << (stats.producer.empty() ? "" : ", " + stats.producer) << "): "
       << stats.nodes << " nodes -> " << net.layers.size() << " layers (";
    bool first = true;
    for (const auto& [k, n] : kinds) {
        os << (first ? "" : ", ") << n << " " << k;
        first = false;
    }
    os << ")\n  " << net.total_macs() << " MACs (" << std::fixed << std::setprecision(4) << double(net.total_macs()) * 1e-9
       << " G) per inference, batch " << net.batch << ", precision "
       << net.precision_bits << " bit" << (stats.quantized ? " (from the quantized tensor types)" : " (float model)") << "\n"
       << "  folded " << stats.folded << " constant/shape nodes; fused " << stats.fused_bn << " batch norms, " << stats.fused_act
       << " activations, " << stats.fused_bias << " bias/scale nodes, " << stats.fused_pad << " pads; removed " << stats.layout
       << " layout-only nodes\n";
    if (!stats.values_present) os << "  weights: external data absent (shapes only: fine for timing)\n";
    if (stats.data_inputs.size() > 1) os << "  " << several_inputs(stats.data_inputs) << "\n";
    for (const auto& s : skipped) os << "  skipped node \"" << s.name << "\" (" << s.op_type << "): " << s.reason << "\n";
    return os.str();
}

}  // namespace vp::import
