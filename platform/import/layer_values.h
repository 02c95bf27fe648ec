#pragma once
// The int8 weights (and int32 biases) of the conv / fc layers for the platforms that compute
// values (VTA). Float weights: batch norms folded in per output channel, then symmetric
// per-tensor quantisation q = round(w / s), s = max|w| / 127 (assumption: no calibration data).
// Integer weights (QLinearConv, ConvInteger, QDQ): w - zero point, clamped to int8. Float
// biases are not converted (their scale depends on activation scales the model does not give
// for float models); QLinearConv's int32 bias is kept.
#include <vector>

#include "platform/import/convert_context.h"

namespace vp::import {

// Throws vp::InputError naming the layer and the missing external data file.
std::vector<LayerValues> extract_values(Ctx& c);

}  // namespace vp::import
