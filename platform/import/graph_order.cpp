#include "platform/import/graph_order.h"

#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "mapper/common/errors.h"

namespace vp::import {

std::string node_label(const onnx::NodeProto& n, int index) {
    return "node \"" + (n.name().empty() ? "#" + std::to_string(index) : n.name()) + "\" (" + n.op_type() + ")";
}

std::vector<int> topo_order(const onnx::GraphProto& g, const std::string& path) {
    const int n = g.node_size();
    std::unordered_set<std::string> available{""};  // "" = an omitted optional input
    for (const auto& i : g.input()) available.insert(i.name());
    for (const auto& t : g.initializer()) available.insert(t.name());
    std::unordered_map<std::string, int> producer;
    for (int k = 0; k < n; ++k)
        for (const auto& o : g.node(k).output()) {
            if (o.empty()) continue;
            if (available.count(o))
                throw InputError(path + ": " + node_label(g.node(k), k) + " writes \"" + o +
                                 "\", which is already a graph input or initializer");
            if (!producer.emplace(o, k).second)
                throw InputError(path + ": tensor \"" + o + "\" is produced twice: by " +
                                 node_label(g.node(producer[o]), producer[o]) + " and " + node_label(g.node(k), k));
        }
    // Dangling inputs first: they are the clearer message when a graph also has a cycle.
    for (int k = 0; k < n; ++k)
        for (const auto& in : g.node(k).input())
            if (!available.count(in) && !producer.count(in))
                throw InputError(path + ": " + node_label(g.node(k), k) + " reads \"" + in +
                                 "\", which no node produces and which is not a graph input or initializer (dangling input)");
    for (const auto& o : g.output())
        if (!available.count(o.name()) && !producer.count(o.name()))
            throw InputError(path + ": graph output \"" + o.name() + "\" is produced by no node");
    std::vector<int> pending(std::size_t(n), 0);
    std::unordered_map<std::string, std::vector<int>> readers;
    for (int k = 0; k < n; ++k) {
        std::unordered_set<std::string> seen;
        for (const auto& in : g.node(k).input())
            if (!available.count(in) && seen.insert(in).second) {
                ++pending[std::size_t(k)];
                readers[in].push_back(k);
            }
    }
    // Ready nodes in file order (a min-heap on the index keeps the order deterministic).
    std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
    for (int k = 0; k < n; ++k)
        if (pending[std::size_t(k)] == 0) ready.push(k);
    std::vector<int> order;
    order.reserve(std::size_t(n));
    while (!ready.empty()) {
        const int k = ready.top();
        ready.pop();
        order.push_back(k);
        for (const auto& o : g.node(k).output()) {
            auto it = readers.find(o);
            if (it == readers.end()) continue;
            for (int r : it->second)
                if (--pending[std::size_t(r)] == 0) ready.push(r);
        }
    }
    if (int(order.size()) != n) {
        std::string names;
        int listed = 0;
        for (int k = 0; k < n && listed < 6; ++k)
            if (pending[std::size_t(k)] > 0) {
                names += (listed++ ? ", " : "") + node_label(g.node(k), k);
            }
        throw InputError(path + ": the graph has a cycle through " + names + " (ONNX graphs are acyclic)");
    }
    return order;
}

}  // namespace vp::import
