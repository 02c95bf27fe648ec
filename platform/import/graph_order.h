#pragma once
// Topological order of an ONNX graph's nodes (Kahn's algorithm), with the structural errors a
// hand-edited or truncated model shows: an input no node produces, a cycle, a tensor produced
// twice, a graph output nobody produces.
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

namespace vp::import {

// Node indices in an order where every node follows the producers of its inputs (the file's
// order where it is valid). Throws vp::InputError naming the node and tensor.
std::vector<int> topo_order(const onnx::GraphProto& g, const std::string& path);

// "name" (OpType), or "#index" when the node has no name: how messages name a node.
std::string node_label(const onnx::NodeProto& n, int index);

}  // namespace vp::import
