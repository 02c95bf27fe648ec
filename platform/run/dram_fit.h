#pragma once
// Do a network's tensors fit the DRAM? Checked before any mapping, compilation or simulation
// (vp-run, vp-run --check, vp-map and every builder), so that a layer too large for the DRAM is
// an input error naming the layer and the tensor, not a long mapping, error responses from the
// DRAM controller or a host allocation that fails.
#include <cstdint>

#include "mapper/tiling/conv_shape.h"
#include "platform/config/platform_spec.h"
#include "platform/workload/workload.h"

namespace vp::run {

// Bytes of one layer's tensors in the mesh's DRAM layout (platform/builders/mesh_platform.cpp,
// layout_tensors): IFM (padded), weights and OFM, each rounded up to 4 KiB. 128-bit: the
// product of the largest dimensions a workload allows overflows 64 bits.
struct MeshTensorBytes {
    unsigned __int128 ifm = 0, weights = 0, ofm = 0;
    unsigned __int128 total() const { return ifm + weights + ofm; }
};
MeshTensorBytes mesh_tensor_bytes(const mapper::tiling::ConvShape& s, std::uint64_t word_bytes);

// Throws InputError ("WORKLOAD: layer "L": its tensors do not fit the DRAM ...", see dram.*)
// for the first layer whose tensors, laid out as the platform lays them out, end past
// spec.dram.capacity_bytes(). The condition is necessary for a run, never stricter than the
// platform's layout:
//   nmp   every layer at nmp dram_base: IN, W, OUT at 4-KiB-aligned addresses
//         (mapper/tso/dma_box.h, layer_addresses); the last OUT byte is always stored.
//   mesh  every mapped layer's IFM + W + OFM in one region (layout_tensors).
//   vta   the host holds each layer's input, weights and output in the DRAM it shares with the
//         VTA (as VTA's driver allocates its buffers), from vta_compiler.dram_base; int8; at most
//         the 16 GiB the VTA's 32-bit micro-op element addresses reach.
// Other platforms and workload kinds (traffic, VTA IR and binary programs): nothing to check.
void check_tensors_fit_dram(const config::PlatformSpec& spec, const workload::Workload& wl);

}  // namespace vp::run
