#include "platform/import/layer_values.h"

#include <algorithm>
#include <cmath>

#include "mapper/common/errors.h"
#include "platform/import/const_eval.h"

namespace vp::import {

using mapper::Layer;
using mapper::LayerKind;

namespace {

// Reorders weights to K x (C/groups) x R x S (fc: K x C) from the layout of the source node.
std::vector<double> reorder(const TensorData& w, const Layer& l, WeightSource::Layout layout) {
    const std::size_t n = w.size();
    std::vector<double> out(n);
    if (layout == WeightSource::Layout::CK) {  // [C, K] -> [K, C]
        const std::size_t C = std::size_t(l.C), K = std::size_t(l.K);
        for (std::size_t c = 0; c < C; ++c)
            for (std::size_t k = 0; k < K; ++k) out[k * C + c] = w.at(c * K + k);
    } else {
        for (std::size_t k = 0; k < n; ++k) out[k] = w.at(k);
    }
    return out;
}

}  // namespace

std::vector<LayerValues> extract_values(Ctx& c) {
    std::vector<LayerValues> vals(c.net.layers.size());
    for (std::size_t i = 0; i < c.net.layers.size(); ++i) {
        const Layer& l = c.net.layers[i];
        if (l.kind != LayerKind::Conv && l.kind != LayerKind::FullyConnected) continue;
        const WeightSource& ws = c.info[i].w;
        const std::string where = c.m.path + ": layer \"" + l.name + "\" (" + c.info[i].node_label + ")";
        if (ws.layout == WeightSource::Layout::CKRS) continue;  // transposed convolution: no value path
        if (!ws.weight || ws.weight_computed)
            throw InputError(where + ": the weights are computed by nodes the importer does not evaluate; "
                             "their values are not available for a platform that computes values");
        const TensorData w = read_tensor(*ws.weight, c.m.dir, where);
        if (w.size() != std::size_t(l.weight_elems()))
            throw InputError(where + ": the weights hold " + std::to_string(w.size()) + " values, the layer needs " +
                             std::to_string(l.weight_elems()));
        std::vector<double> v = reorder(w, l, ws.layout);
        const std::size_t per_k = v.size() / std::size_t(l.K);
        LayerValues& out = vals[i];
        out.weights.resize(v.size());
        if (w.is_float()) {
            for (const onnx::NodeProto* bn : ws.batchnorms) {
                auto param = [&](int k) {
                    auto it = bn->input_size() > k ? c.inits.find(bn->input(k)) : c.inits.end();
                    if (it == c.inits.end())
                        throw InputError(where + ": batch norm "" + bn->name() + "" has a parameter that is not an initializer");
                    return read_tensor(*it->second, c.m.dir, where);
                };
                const TensorData gamma = param(1), var = param(4);
                const double eps = attr_float(*bn, "epsilon", 1e-5f);
                if (gamma.size() != std::size_t(l.K) || var.size() != std::size_t(l.K))
                    throw InputError(where + ": batch norm parameters of the wrong size");
                for (std::size_t k = 0; k < std::size_t(l.K); ++k) {
                    const double f = gamma.at(k) / std::sqrt(var.at(k) + eps);
                    for (std::size_t j = 0; j < per_k; ++j) v[k * per_k + j] *= f;
                }
            }
            double m = 0;
            for (double x : v) m = std::max(m, std::fabs(x));
            const double s = m > 0 ? m / 127.0 : 1.0;
            for (std::size_t k = 0; k < v.size(); ++k)
                out.weights[k] = std::int8_t(std::clamp(std::lround(v[k] / s), -127L, 127L));
        } else {
            TensorData zp;
            if (ws.weight_zp) zp = read_tensor(*ws.weight_zp, c.m.dir, where);
            for (std::size_t k = 0; k < v.size(); ++k) {
                const std::size_t ch = k / per_k;
                const double z = zp.size() == 0 ? 0.0 : zp.size() == 1 ? zp.at(0) : zp.at(std::min(ch, zp.size() - 1));
                out.weights[k] = std::int8_t(std::clamp(std::lround(v[k] - z), -128L, 127L));
            }
        }
        if (ws.bias) {
            const TensorData b = read_tensor(*ws.bias, c.m.dir, where);
            if (b.size() != std::size_t(l.K)) throw InputError(where + ": the bias holds " + std::to_string(b.size()) + " values");
            for (std::size_t k = 0; k < b.size(); ++k) out.bias.push_back(std::int32_t(b.int_at(k)));
        }
    }
    return vals;
}

}  // namespace vp::import
