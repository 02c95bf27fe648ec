#pragma once
// Models of opsets 1 to 6 of the default ONNX domain (PyTorch 0.3/0.4, Caffe2 and other early
// exporters, the classic model zoo) rewritten in memory into their opset-7 form, so that the
// rest of the importer (and libonnx's shape inference, whose opset-6 Gemm inference reads past a
// rank-1 operand) only ever sees opsets 7 to 17. What changed up to opset 7, per the ONNX
// operator changelog:
//   - Add, Sub, Mul, Div, Pow, And, Or, Xor, Equal, Greater, Less: `broadcast` / `axis` (B aligned
//     at `axis` of A) become numpy broadcasting; B gets trailing 1-dims (an Unsqueeze) when it ends
//     before A's last axis;
//   - Gemm: `broadcast` dropped (C broadcasts unidirectionally in 7);
//   - BatchNormalization, Dropout: `is_test` dropped (7 decides the mode by the outputs);
//   - `consumed_inputs` (opsets 1-5 of many operators) dropped;
//   - Reshape 1-4: the `shape` attribute becomes the shape input;
//   - Concat 1-3: a missing `axis` is 1;
//   - Pad 1: `paddings` is `pads`;
//   - Upsample 1: `height_scale` / `width_scale` become `scales`;
//   - Cast 1-5: `to` by name becomes the type number;
//   - Split 1: a constant `split` input becomes the attribute.
// Conv, pools, Gemm's other attributes, Flatten, Softmax, Transpose, Squeeze, Unsqueeze, Slice,
// Gather and the activations mean the same at 1-6 and 7.
#include <string>

#include "platform/import/onnx_model.h"

namespace vp::import {

// Rewrites m (opset 1..6) into opset 7 and sets its default-domain opset import to 7; returns the
// number of nodes changed. The nodes must be in topological order (checked before). Throws
// vp::InputError naming the node when a rewrite needs a rank that cannot be known (a legacy
// broadcast with `axis` on tensors of unknown rank) or an attribute is malformed.
int upgrade_to_opset7(LoadedModel& m);

}  // namespace vp::import
