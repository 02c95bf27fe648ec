#pragma once
// Random VTA IR programs (JSON) of every operation kind, for differential tests.
#include <random>
#include <string>

#include <nlohmann/json.hpp>

namespace vta_test {

enum class Kind { Gemm, GemmBias, GemmX, Scalar, AddAcc, AluOnly };

inline nlohmann::json range_json(long s, long st, long n) { return nlohmann::json::array({nlohmann::json::array({s, st}), n}); }

// Immediate ALU ops on all rows (allowed after a partitioned GEMM) and, when `vv`, vector-vector ops.
inline nlohmann::json random_alu(std::mt19937_64& g, int rows, bool vv, bool with_requant) {
    nlohmann::json ops = nlohmann::json::array();
    const char* imm_names[] = {"MIN_IMM", "MAX_IMM", "ADD_IMM", "SHR_IMM", "MUL_IMM"};
    const char* vv_names[] = {"MIN", "MAX", "ADD", "SHR", "MUL"};
    const int n = int(g() % 4);
    for (int i = 0; i < n; ++i) {
        const int op = int(g() % 5);
        long imm = op == 3 ? long(g() % 40) - 8 : long(g() % 600) - 300;
        if (vv && (g() & 1) && rows > 1) {
            const long cnt = 1 + long(g() % (rows - 1));
            const long d = long(g() % (rows - cnt + 1));
            ops.push_back({vv_names[op], {nlohmann::json::array({d, 1}), nlohmann::json::array({long(g() % rows), 0}), cnt}});
        } else {
            const long step = long(g() % 3);
            const long cnt = step == 0 ? 1 + long(g() % 3) : 1 + long(g() % ((rows - 1) / step + 1));
            const long d = step == 0 ? long(g() % rows) : long(g() % (rows - (cnt - 1) * step));
            ops.push_back({imm_names[op], {nlohmann::json::array({d, step}), imm, cnt}});
        }
    }
    if (with_requant) {  // Compilation and Execution of an Embeddable YOLO-NAS on the VTA QLinearConv requantisation sequence
        ops.push_back({"MUL_IMM", {nlohmann::json::array({0, 1}), 77, rows}});
        ops.push_back({"ADD_IMM", {nlohmann::json::array({0, 1}), 1 << 12, rows}});
        ops.push_back({"SHR_IMM", {nlohmann::json::array({0, 1}), 13, rows}});
        ops.push_back({"MAX_IMM", {nlohmann::json::array({0, 1}), -128, rows}});
        ops.push_back({"MIN_IMM", {nlohmann::json::array({0, 1}), 127, rows}});
    }
    return ops;
}

inline nlohmann::json random_program(std::mt19937_64& g, Kind k, int m, int kk, int n, bool vv, int strategy) {
    nlohmann::json j;
    j["NAME"] = "rand";
    j["MATRICES"] = nlohmann::json::object();
    nlohmann::json& M = j["MATRICES"];
    M["C"] = {m, n, "output"};
    switch (k) {
        case Kind::Gemm:
        case Kind::GemmBias:
        case Kind::GemmX:
            M["A"] = {m, kk, "input"};
            M["B"] = {kk, n, "input"};
            j["LOAD"] = {{"INP", {"A"}}, {"WGT", {"B"}}};
            if (k != Kind::Gemm) {
                M["X"] = {k == Kind::GemmBias ? 1 : m, n, "input"};
                j["LOAD"]["ACC"] = {"X"};
            }
            j["GEMM"] = {"C", "A", "B"};
            break;
        case Kind::Scalar:
            M["A"] = {m, n, "input"};
            j["LOAD"] = {{"INP", {"A"}}};
            j["GEMM"] = {"C", "A", long(g() % 256) - 128};
            break;
        case Kind::AddAcc:
            M["X"] = {m, n, "input"};
            M["Y"] = {m, n, "input"};
            j["LOAD"] = {{"ACC", {"X", "Y"}}};
            break;
        case Kind::AluOnly:
            M["X"] = {m, n, "input"};
            j["LOAD"] = {{"ACC", {"X"}}};
            break;
    }
    nlohmann::json ops = random_alu(g, m, vv, g() % 3 == 0);
    if (k == Kind::AddAcc) ops.insert(ops.begin(), nlohmann::json::array({"ADD_ACC", {"X", "Y"}}));
    if (k == Kind::AluOnly && ops.empty()) ops.push_back({"MAX_IMM", {nlohmann::json::array({0, 1}), 0, m}});
    if (!ops.empty()) j["ALU"] = {{"C", ops}};
    if (g() % 3 == 0 && m > 2) {
        j["STORE"] = {{"C", nlohmann::json::array({range_json(0, 1, 1 + long(g() % (m - 1))), range_json(m - 1, -1, 1)})}};
    } else {
        j["STORE"] = {{"C", {"C"}}};
    }
    if (strategy) j["STRATEGY"] = strategy;
    return j;
}

}  // namespace vta_test
