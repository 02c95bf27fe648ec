#pragma once
// Models of opsets 18 to 22 of the default ONNX domain (PyTorch 2.x's exporters, recent model
// zoos) rewritten in memory into their opset-17 form, which libonnx 1.12 and the rest of the
// importer read. What changed after opset 17 in the operators a CNN uses, per the ONNX operator
// changelog, and what the rewrite does:
//   - ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceL1, ReduceL2, ReduceLogSum,
//     ReduceLogSumExp, ReduceSumSquare (18): `axes` is an input instead of an attribute; a
//     constant one (an initializer or a Constant node) becomes the attribute again. Axes computed
//     at run time, and `noop_with_empty_axes` = 1 without axes (an identity), are refused;
//   - Split (18): `num_outputs` is dropped (opset 13 splits into as many equal parts as there are
//     outputs; a dimension that does not divide is then a shape error naming the node);
//   - Resize (18, 19): `antialias` = 1, `axes`, `keep_aspect_ratio_policy` other than "stretch" and
//     the mode "half_pixel_symmetric" are refused; the defaults are dropped;
//   - Pad (18, 19): an `axes` input and the mode "wrap" are refused;
//   - AveragePool (19): `dilations` other than 1 are refused, 1s dropped;
//   - Cast, CastLike, QuantizeLinear (19): `saturate` (float 8 only) is dropped;
//   - QuantizeLinear, DequantizeLinear (21): `block_size` other than 0 is refused;
//     QuantizeLinear's `output_dtype` becomes a zero-point input of that type when there is none;
//   - Gelu (20) becomes the decomposition PyTorch writes at lower opsets: (x (1 + erf(x / sqrt 2)))
//     0.5, or with `approximate` = "tanh", (x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x x x)))) 0.5;
//   - everything else changed only in the element types it allows (bfloat16, float 8, int4).
// Operators new after opset 17 (GroupNormalization, CenterCropPad, Col2Im, ...) stay as they are
// and are listed as unsupported, as before.
#include "platform/import/onnx_model.h"

namespace vp::import {

// Rewrites m (opset 18..kMaxRecentOpset) into opset 17 and sets its default-domain opset import to
// 17; returns the number of nodes changed (a Gelu counts once). Throws vp::InputError naming the
// node and the attribute or input for what opset 17 cannot express.
int downgrade_to_opset17(LoadedModel& m);

}  // namespace vp::import
