#include "platform/run/dram_fit.h"

#include <string>

#include "mapper/common/errors.h"
#include "mapper/tso/conv_shape.h"
#include "mapper/tso/dma_box.h"
#include "mapper/vta/net_graph.h"
#include "mapper/vta/vta_config.h"

namespace vp::run {

namespace {

using u128 = unsigned __int128;

constexpr u128 kAlign = 4096;  // the mesh's layout (layout_tensors) aligns every tensor
u128 align_up(u128 v) { return (v + kAlign - 1) / kAlign * kAlign; }

std::string text(u128 v) {
    if (v == 0) return "0";
    std::string s;
    for (; v > 0; v /= 10) s.insert(s.begin(), char('0' + int(v % 10)));
    return s;
}

struct Tensor {
    const char* name;
    u128 bytes;  // as laid out (rounded up where the platform aligns)
};

// Throws when the tensors, placed one after the other from `base`, end past `capacity`;
// names the first tensor that crosses it.
void check_layer(const workload::Workload& wl, const std::string& layer, const char* platform, std::uint64_t base,
                 std::initializer_list<Tensor> tensors, std::uint64_t capacity, const std::string& limit = "") {
    u128 end = base, total = 0;
    const char* first = nullptr;
    for (const Tensor& t : tensors) {
        end += t.bytes;
        total += t.bytes;
        if (!first && end > capacity) first = t.name;
    }
    if (!first) return;
    std::string parts;
    for (const Tensor& t : tensors) parts += (parts.empty() ? "" : " + ") + std::string(t.name) + " " + text(t.bytes);
    throw InputError(wl.path + ": layer \"" + layer + "\": its tensors do not fit the DRAM: " + parts + " = " + text(total) +
                     " bytes as the " + platform + " platform lays them out" +
                     (base ? " from byte " + std::to_string(base) : std::string()) + "; the " +
                     (limit.empty() ? "capacity of " + std::to_string(capacity) + " bytes" : limit) + " ends within the " + first +
                     (limit.empty() ? " (see dram.*: a preset, or rows, ranks or channels, with more capacity; or a smaller layer)"
                                    : " (a larger DRAM does not help: a smaller layer)"));
}

void check_nmp(const config::PlatformSpec& spec, const workload::Workload& wl, std::uint64_t capacity) {
    const mapper::Network& net = wl.network;
    for (const mapper::Layer& l : net.layers) {
        if (!mapper::tso::is_tso_layer(l)) continue;
        mapper::tso::ConvShape c;
        try {
            c = mapper::tso::make_conv_shape(l, net.bytes_per_elem());
        } catch (const InputError&) {
            continue;  // the mapper reports the layer in its words
        }
        // mapper::tso::layer_addresses' layout, in 128 bits.
        const mapper::tso::TensorBytes<u128> b = mapper::tso::tensor_bytes<u128>(c);
        check_layer(wl, l.name, "nmp", spec.nmp.dram_base,
                    {{"input", mapper::tso::align_tensor(b.in)}, {"weights", mapper::tso::align_tensor(b.w)}, {"output", b.out}},
                    capacity);
    }
}

void check_mesh(const workload::Workload& wl, std::uint64_t word_bytes, std::uint64_t capacity) {
    for (const mapper::Layer& l : wl.network.layers) {
        mapper::tiling::ConvShape s;
        if (!mapper::tiling::ConvShape::from_layer(l, &s)) continue;  // not mapped onto the cores
        const MeshTensorBytes b = mesh_tensor_bytes(s, word_bytes);
        check_layer(wl, l.name, "mesh", 0, {{"input", b.ifm}, {"weights", b.weights}, {"output", b.ofm}}, capacity);
    }
}

void check_vta(const config::PlatformSpec& spec, const workload::Workload& wl, std::uint64_t capacity) {
    // The VTA reaches DRAM through 32-bit element addresses: the micro-ops (4-byte elements) that
    // follow a program's data end below 2^32 x 4 bytes (mapper/vta/compiler.cpp), so a larger DRAM
    // adds nothing. Also bounds what the host allocates per layer.
    constexpr std::uint64_t kReach = (std::uint64_t(1) << 32) * mapper::vta::VtaConfig::kUopBytes;
    std::string limit;
    if (capacity > kReach) {
        limit = std::to_string(kReach) + " bytes the VTA's 32-bit element addresses reach (of the DRAM's " +
                std::to_string(capacity) + ")";
        capacity = kReach;
    }
    for (const mapper::Layer& l : wl.network.layers) {  // int8: one byte per element (the VTA runs precision 8)
        if (l.kind == mapper::LayerKind::Conv && l.groups < 1) continue;  // the driver reports it
        check_layer(wl, l.name, "vta", spec.vta_compiler.dram_base,
                    {{"input", mapper::vta::layer_in_elems(l)}, {"weights", l.weight_elems()}, {"output", mapper::vta::layer_out_elems(l)}},
                    capacity, limit);
    }
}

}  // namespace

MeshTensorBytes mesh_tensor_bytes(const mapper::tiling::ConvShape& s, std::uint64_t word_bytes) {
    const u128 wb = word_bytes;
    MeshTensorBytes b;
    b.ifm = align_up(u128(s.C) * u128(s.padded_h) * u128(s.padded_w) * wb);
    b.weights = align_up(u128(s.K) * u128(s.n_if) * u128(s.kx) * u128(s.ky) * wb);
    b.ofm = align_up(u128(s.K) * u128(s.P) * u128(s.Q) * wb);
    return b;
}

void check_tensors_fit_dram(const config::PlatformSpec& spec, const workload::Workload& wl) {
    if (wl.kind != workload::WorkloadKind::Network) return;
    const std::uint64_t capacity = spec.dram.capacity_bytes();
    switch (spec.kind) {
    case config::PlatformKind::Nmp: check_nmp(spec, wl, capacity); break;
    case config::PlatformKind::Mesh: check_mesh(wl, std::uint64_t(spec.core.word_bytes()), capacity); break;
    case config::PlatformKind::Vta: check_vta(spec, wl, capacity); break;
    default: break;
    }
}

}  // namespace vp::run
