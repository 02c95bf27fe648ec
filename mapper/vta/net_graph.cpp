#include "mapper/vta/net_graph.h"

#include <filesystem>

#include "mapper/common/errors.h"
#include "mapper/common/json_check.h"

namespace vp::mapper::vta {

std::uint64_t layer_in_elems(const Layer& l) {
    return l.kind == LayerKind::FullyConnected ? std::uint64_t(l.C) : l.consumed_elems();  // a transposed conv: without the zeros
}
std::uint64_t layer_out_elems(const Layer& l) {
    return l.kind == LayerKind::FullyConnected ? std::uint64_t(l.K) : std::uint64_t(l.K) * l.P() * l.Q();
}

namespace {
// Does the output of `prev` feed layer `l` (same C,H,W, or same element count for fc)?
bool chains(const Layer& prev, const Layer& l) {
    if (l.kind == LayerKind::FullyConnected) return layer_out_elems(prev) == layer_in_elems(l);
    if (prev.kind == LayerKind::FullyConnected) return l.H == 1 && l.W == 1 && l.C == prev.K;
    return prev.K == l.C && prev.P() == (l.H - 1) / l.zero_insert_h + 1 && prev.Q() == (l.W - 1) / l.zero_insert_w + 1;
}
}  // namespace

NetGraph chain_graph(const Network& net, const std::string& source) {
    NetGraph g;
    g.net = net;
    g.source = source;
    const std::size_t n = net.layers.size();
    g.inputs.resize(n);
    g.weight_files.assign(n, "");
    g.bias_files.assign(n, "");
    if (net.has_graph()) {  // producers given (an imported model): the second operand of a one-producer
        for (std::size_t i = 0; i < n; ++i) {  // eltwise layer is a constant of the model, generated here
            for (int s : net.layers[i].inputs) g.inputs[i].push_back(s < 0 ? NetGraph::kNetInput : s);
            if (net.layers[i].kind == LayerKind::Eltwise && g.inputs[i].size() == 1) g.inputs[i].push_back(NetGraph::kGenerated);
        }
        return g;
    }
    for (std::size_t i = 0; i < n; ++i) {
        const Layer& l = net.layers[i];
        const int first = i == 0 ? NetGraph::kNetInput : chains(net.layers[i - 1], l) ? int(i - 1) : NetGraph::kGenerated;
        g.inputs[i].push_back(first);
        if (l.kind == LayerKind::Eltwise) g.inputs[i].push_back(NetGraph::kGenerated);
    }
    return g;
}

NetGraph parse_vta_network(const nlohmann::json& doc, const std::string& path) {
    JsonCheck root(doc, path);
    root.expect_object();
    root.allow_only({"kind", "name", "precision", "layers", "description", "input_file"});
    if (root.at("kind").as_enum({"vta_network"}) != "vta_network") root.at("kind").fail("expected \"vta_network\"");
    nlohmann::json plain = doc;
    plain.erase("kind");
    plain.erase("input_file");
    auto layers = root.at("layers");
    for (std::size_t i = 0; i < layers.size(); ++i) {
        layers.at(i).expect_object();  // a layer is an object (before its keys are removed)
        for (const char* k : {"inputs", "weights", "bias"}) plain["layers"][i].erase(k);
    }
    NetGraph g;
    g.source = path;
    g.net = parse_network(plain, path);
    if (g.net.precision_bits != 8) root.at("precision").fail("the VTA runs 8-bit networks (precision 8)");
    const auto dir = std::filesystem::path(path).parent_path();
    auto resolve = [&](const JsonCheck& j) {
        const std::string f = j.as_string();
        const auto p = std::filesystem::path(f).is_absolute() ? std::filesystem::path(f) : dir / f;
        if (!std::filesystem::exists(p)) j.fail("data file \"" + p.string() + "\" does not exist");
        return p.string();
    };
    if (root.has("input_file")) g.input_file = resolve(root.at("input_file"));
    const std::size_t n = g.net.layers.size();
    g.inputs.resize(n);
    g.weight_files.assign(n, "");
    g.bias_files.assign(n, "");
    for (std::size_t i = 0; i < n; ++i) {
        const Layer& l = g.net.layers[i];
        auto lj = layers.at(i);
        const std::size_t want = l.kind == LayerKind::Eltwise ? 2 : 1;
        if (lj.has("inputs")) {
            auto in = lj.at("inputs");
            if (in.size() != want)
                in.fail("layer \"" + l.name + "\" takes " + std::to_string(want) + " input(s), got " + std::to_string(in.size()));
            for (std::size_t k = 0; k < in.size(); ++k) {
                const std::string name = in.at(k).as_string();
                int src = -3;
                if (name == "input") src = NetGraph::kNetInput;
                for (std::size_t j = 0; j < i; ++j)
                    if (g.net.layers[j].name == name) src = int(j);
                if (src == -3) {
                    std::vector<std::string> cands{"input"};
                    for (std::size_t j = 0; j < i; ++j) cands.push_back(g.net.layers[j].name);
                    std::string near = nearest_name(name, cands);
                    in.at(k).fail("unknown or later layer \"" + name + "\" (inputs name earlier layers or \"input\")" +
                                  (near.empty() ? "" : "; did you mean \"" + near + "\"?"));
                }
                const std::uint64_t have = src >= 0 ? layer_out_elems(g.net.layers[std::size_t(src)]) : 0;
                if (src >= 0 && have != layer_in_elems(l))
                    in.at(k).fail("layer \"" + name + "\" produces " + std::to_string(have) + " elements but \"" + l.name +
                                  "\" expects " + std::to_string(layer_in_elems(l)));
                if (src >= 0 && l.kind != LayerKind::FullyConnected) {
                    const Layer& p = g.net.layers[std::size_t(src)];
                    if (p.kind != LayerKind::FullyConnected && (p.K != l.C || p.P() != l.H || p.Q() != l.W))
                        in.at(k).fail("shape mismatch: \"" + name + "\" produces " + std::to_string(p.K) + "x" + std::to_string(p.P()) +
                                      "x" + std::to_string(p.Q()) + " but \"" + l.name + "\" expects " + std::to_string(l.C) + "x" +
                                      std::to_string(l.H) + "x" + std::to_string(l.W));
                }
                g.inputs[i].push_back(src);
            }
        } else {
            if (want == 2) lj.fail("an eltwise layer needs \"inputs\": [a, b]");
            g.inputs[i].push_back(i == 0 ? NetGraph::kNetInput : int(i - 1));
            if (i > 0 && layer_out_elems(g.net.layers[i - 1]) != layer_in_elems(l))
                lj.fail("layer \"" + l.name + "\" does not chain from \"" + g.net.layers[i - 1].name + "\" (give \"inputs\")");
        }
        if (lj.has("weights")) g.weight_files[i] = resolve(lj.at("weights"));
        if (lj.has("bias")) g.bias_files[i] = resolve(lj.at("bias"));
        if ((lj.has("weights") || lj.has("bias")) && l.kind != LayerKind::Conv && l.kind != LayerKind::FullyConnected)
            lj.fail("only conv and fc layers take \"weights\"/\"bias\"");
    }
    return g;
}

}  // namespace vp::mapper::vta
