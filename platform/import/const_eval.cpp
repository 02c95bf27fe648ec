#include "platform/import/const_eval.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "mapper/common/errors.h"

namespace vp::import {

using onnx::TensorProto;

const onnx::AttributeProto* find_attr(const onnx::NodeProto& n, const char* name) {
    for (const auto& a : n.attribute())
        if (a.name() == name) return &a;
    return nullptr;
}
std::int64_t attr_int(const onnx::NodeProto& n, const char* name, std::int64_t dflt) {
    const auto* a = find_attr(n, name);
    return a ? a->i() : dflt;
}
float attr_float(const onnx::NodeProto& n, const char* name, float dflt) {
    const auto* a = find_attr(n, name);
    return a ? a->f() : dflt;
}
std::string attr_string(const onnx::NodeProto& n, const char* name, const std::string& dflt) {
    const auto* a = find_attr(n, name);
    return a ? a->s() : dflt;
}
std::vector<std::int64_t> attr_ints(const onnx::NodeProto& n, const char* name) {
    const auto* a = find_attr(n, name);
    if (!a) return {};
    return {a->ints().begin(), a->ints().end()};
}

std::string dims_list(const std::vector<std::int64_t>& d) {
    std::string s = "[";
    for (std::size_t k = 0; k < d.size(); ++k) s += (k ? ", " : "") + std::to_string(d[k]);
    return s + "]";
}

std::vector<std::int64_t> reshape_dims(const std::vector<std::int64_t>& in, const std::vector<std::int64_t>& shape,
                                       bool allowzero, const std::string& where) {
    const std::string at = (where.empty() ? "" : where + ": ") + "Reshape of " + dims_list(in) + " to shape " +
                           dims_list(shape) + ": ";
    constexpr std::int64_t kMax = std::int64_t(1) << 62;
    std::int64_t n = 1;  // the input's count (its dims come from a checked model: within range)
    for (auto d : in) n = d > 0 && n > kMax / d ? kMax : n * d;
    std::vector<std::int64_t> out = shape;
    std::int64_t known = 1;
    int infer = -1;
    for (std::size_t k = 0; k < out.size(); ++k) {
        if (out[k] == 0 && !allowzero) {
            if (k >= in.size())
                throw InputError(at + "the 0 at index " + std::to_string(k) + " copies the input's dimension " +
                                 std::to_string(k) + ", and the input has rank " + std::to_string(in.size()));
            out[k] = in[k];
        }
        if (out[k] == -1) {
            if (infer >= 0) throw InputError(at + "two -1 dimensions (at most one is inferred)");
            infer = int(k);
            continue;
        }
        if (out[k] < -1)
            throw InputError(at + "dimension " + std::to_string(out[k]) + " at index " + std::to_string(k) +
                             " (expected -1, 0 or positive)");
        if (out[k] > 0 && known > kMax / out[k]) throw InputError(at + "a shape of more than 2^62 elements");
        known *= out[k];
    }
    if (infer >= 0) {
        if (known == 0) throw InputError(at + "a -1 beside a zero dimension (allowzero) cannot be inferred");
        if (n % known != 0)
            throw InputError(at + "the input's " + std::to_string(n) + " elements are not a multiple of " +
                             std::to_string(known) + ", the product of the other dimensions (the -1 cannot be inferred)");
        out[std::size_t(infer)] = n / known;
    } else if (known != n) {
        throw InputError(at + "the input has " + std::to_string(n) + " elements and the shape " + std::to_string(known) +
                         " (expected equal element counts)");
    }
    return out;
}

namespace {

using Dims = std::vector<std::int64_t>;

std::int64_t count(const Dims& d) {
    std::int64_t n = 1;
    for (auto x : d) n *= x;
    return n;
}

TensorData like(const TensorData& t, Dims dims) {
    TensorData o;
    o.type = t.type;
    o.dims = std::move(dims);
    return o;
}

void push(TensorData& o, const TensorData& src, std::size_t k) {
    if (o.is_float()) o.f.push_back(src.at(k));
    else o.i.push_back(src.int_at(k));
}

// Numpy broadcasting of two shapes; false when incompatible.
bool broadcast(const Dims& a, const Dims& b, Dims& out) {
    const std::size_t r = std::max(a.size(), b.size());
    out.assign(r, 1);
    for (std::size_t k = 0; k < r; ++k) {
        const std::int64_t x = k < r - a.size() ? 1 : a[k - (r - a.size())];
        const std::int64_t y = k < r - b.size() ? 1 : b[k - (r - b.size())];
        if (x != y && x != 1 && y != 1) return false;
        out[k] = std::max(x, y);
    }
    return true;
}

// Index into a broadcast operand of shape `d` for the flat output index `k` of shape `out`.
std::size_t bindex(const Dims& d, const Dims& out, std::int64_t k) {
    std::size_t idx = 0, stride = 1;
    for (std::size_t ax = out.size(); ax-- > 0;) {
        const std::int64_t coord = k % out[ax];
        k /= out[ax];
        const std::size_t dax = ax + d.size();
        if (dax < out.size()) continue;  // leading broadcast axis
        const std::int64_t dim = d[dax - out.size()];
        if (dim != 1) idx += std::size_t(coord) * stride;
        stride *= std::size_t(dim);
    }
    return idx;
}

// Mod (`fmod` its attribute): fmod 0 takes the divisor's sign (Python's and numpy's %), fmod 1 the
// dividend's (C's fmod), as the ONNX operator specification and its reference implementation.
std::optional<TensorData> binary(const std::string& op, const TensorData& a, const TensorData& b, const std::string& where,
                                 bool fmod = false) {
    Dims out;
    if (!broadcast(a.dims, b.dims, out)) throw InputError(where + ": operand shapes do not broadcast");
    const bool cmp = op == "Equal" || op == "Less" || op == "Greater";
    TensorData o;
    o.type = cmp ? int(TensorProto::BOOL) : (a.is_float() || b.is_float() ? int(TensorProto::FLOAT) : a.type);
    if (!cmp && a.is_float() && a.type != TensorProto::FLOAT) o.type = a.type;
    o.dims = out;
    const std::int64_t n = count(out);
    for (std::int64_t k = 0; k < n; ++k) {
        const double x = a.at(bindex(a.dims, out, k)), y = b.at(bindex(b.dims, out, k));
        if (o.is_float()) {
            double v = op == "Add" ? x + y : op == "Sub" ? x - y : op == "Mul" ? x * y : op == "Div" ? x / y
                     : op == "Min" ? std::min(x, y) : op == "Max" ? std::max(x, y) : op == "Pow" ? std::pow(x, y)
                     : op == "Mod" ? (fmod ? std::fmod(x, y) : x - y * std::floor(x / y)) : 0.0;
            o.f.push_back(v);
        } else if (cmp && (a.is_float() || b.is_float())) {
            o.i.push_back(op == "Equal" ? x == y : op == "Less" ? x < y : x > y);
        } else {
            const std::int64_t xi = a.int_at(bindex(a.dims, out, k)), yi = b.int_at(bindex(b.dims, out, k));
            std::int64_t v = 0;
            // Signed overflow is undefined behaviour in C++ (found by fuzzing): an input error.
            const auto overflow = [&] { throw InputError(where + ": integer overflow in a shape computation (" + op + ")"); };
            if (op == "Add") {
                if (__builtin_add_overflow(xi, yi, &v)) overflow();
            } else if (op == "Sub") {
                if (__builtin_sub_overflow(xi, yi, &v)) overflow();
            } else if (op == "Mul") {
                if (__builtin_mul_overflow(xi, yi, &v)) overflow();
            } else if (op == "Div") {
                if (yi == 0) throw InputError(where + ": integer division by zero in a shape computation");
                if (yi == -1 && xi == std::numeric_limits<std::int64_t>::min()) overflow();
                v = xi / yi;  // C++ truncation, as numpy's int division for the non-negative sizes involved
            } else if (op == "Mod") {
                if (yi == 0) throw InputError(where + ": integer division by zero in a shape computation (Mod)");
                v = yi == -1 ? 0 : xi % yi;  // INT64_MIN % -1 overflows in C++; the remainder is 0
                if (!fmod && v != 0 && (v < 0) != (yi < 0)) v += yi;
            } else if (op == "Min") v = std::min(xi, yi);
            else if (op == "Max") v = std::max(xi, yi);
            else if (op == "Equal") v = xi == yi;
            else if (op == "Less") v = xi < yi;
            else if (op == "Greater") v = xi > yi;
            else return std::nullopt;
            o.i.push_back(v);
        }
    }
    return o;
}

std::int64_t norm_axis(std::int64_t axis, std::size_t rank, const std::string& where) {
    const auto r = std::int64_t(rank);
    if (axis < -r || axis >= std::max<std::int64_t>(r, 1)) throw InputError(where + ": axis " + std::to_string(axis) + " out of range");
    return axis < 0 ? axis + r : axis;
}

// A folded value stored as a 64-bit integer: NaN or a value outside [-2^63, 2^63) is an input error
// (a C++ conversion of it would be undefined behaviour; found by fuzzing).
std::int64_t to_int64(double v, const std::string& where, const std::string& op) {
    if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0))
        throw InputError(where + ": " + op + " gives " + std::to_string(v) + ", which does not fit a 64-bit integer");
    return std::int64_t(v);
}

}  // namespace

std::optional<std::vector<TensorData>> eval_const(const onnx::NodeProto& node, const std::vector<const TensorData*>& in,
                                                  int opset, const std::string& where) {
    const std::string& op = node.op_type();
    if (!node.domain().empty() && node.domain() != "ai.onnx") return std::nullopt;
    for (const auto* t : in)
        if (t && count(t->dims) > kMaxFoldElements) return std::nullopt;
    auto input = [&](std::size_t k) -> const TensorData* { return k < in.size() ? in[k] : nullptr; };
    if (in.empty() || !input(0)) return std::nullopt;
    const TensorData& x = *input(0);
    for (std::size_t k = 1; k < in.size(); ++k)
        if (!in[k] && !(op == "Slice" || op == "Clip" || op == "Squeeze" || op == "Unsqueeze")) return std::nullopt;
    const std::int64_t n = count(x.dims);

    if (op == "Identity") return std::vector<TensorData>{x};
    if (op == "Cast") {
        TensorData o = like(x, x.dims);
        o.type = int(attr_int(node, "to", TensorProto::FLOAT));
        if (type_bits(o.type) == 0) return std::nullopt;
        for (std::int64_t k = 0; k < n; ++k) {
            if (o.is_float()) o.f.push_back(x.at(std::size_t(k)));
            else o.i.push_back(o.type == TensorProto::BOOL ? x.at(std::size_t(k)) != 0 : to_int64(x.at(std::size_t(k)), where, op));
        }
        return std::vector<TensorData>{o};
    }
    if (op == "Reshape") {
        if (!input(1)) return std::nullopt;
        TensorData o = x;
        o.dims = reshape_dims(x.dims, Dims(input(1)->i.begin(), input(1)->i.end()),
                              attr_int(node, "allowzero", 0) != 0, where);
        return std::vector<TensorData>{o};
    }
    if (op == "Flatten") {
        const std::int64_t axis = norm_axis(attr_int(node, "axis", 1), x.dims.size() + 1, where);
        std::int64_t a = 1;
        for (std::int64_t k = 0; k < axis; ++k) a *= x.dims[std::size_t(k)];
        TensorData o = x;
        o.dims = {a, a ? n / a : 0};
        return std::vector<TensorData>{o};
    }
    if (op == "Squeeze" || op == "Unsqueeze") {
        Dims axes = opset >= 13 ? (input(1) ? Dims(input(1)->i.begin(), input(1)->i.end()) : Dims{}) : attr_ints(node, "axes");
        TensorData o = x;
        if (op == "Squeeze") {
            Dims d;
            for (std::size_t k = 0; k < x.dims.size(); ++k) {
                bool drop = axes.empty() ? x.dims[k] == 1 : false;
                for (auto a : axes) drop = drop || norm_axis(a, x.dims.size(), where) == std::int64_t(k);
                if (!drop) d.push_back(x.dims[k]);
            }
            o.dims = d;
        } else {
            const std::size_t r = x.dims.size() + axes.size();
            std::vector<bool> ins(r, false);
            for (auto a : axes) ins[std::size_t(norm_axis(a, r, where))] = true;
            Dims d;
            std::size_t src = 0;
            for (std::size_t k = 0; k < r; ++k) d.push_back(ins[k] ? 1 : x.dims[src++]);
            o.dims = d;
        }
        return std::vector<TensorData>{o};
    }
    if (op == "Concat") {
        const std::int64_t axis = norm_axis(attr_int(node, "axis", 0), x.dims.size(), where);
        if (x.dims.empty()) return std::nullopt;
        Dims d = x.dims;
        d[std::size_t(axis)] = 0;
        for (const auto* t : in) {
            if (t->dims.size() != x.dims.size()) throw InputError(where + ": Concat of tensors of different rank");
            d[std::size_t(axis)] += t->dims[std::size_t(axis)];
        }
        TensorData o = like(x, d);
        if (std::any_of(in.begin(), in.end(), [](const TensorData* t) { return t->is_float(); })) o.type = TensorProto::FLOAT;
        std::int64_t outer = 1;
        for (std::int64_t k = 0; k < axis; ++k) outer *= d[std::size_t(k)];
        for (std::int64_t b = 0; b < outer; ++b)
            for (const auto* t : in) {
                const std::int64_t chunk = count(t->dims) / std::max<std::int64_t>(outer, 1);
                for (std::int64_t k = 0; k < chunk; ++k) push(o, *t, std::size_t(b * chunk + k));
            }
        return std::vector<TensorData>{o};
    }
    if (op == "Gather") {
        if (!input(1) || x.dims.empty()) return std::nullopt;
        const TensorData& idx = *input(1);
        const std::int64_t axis = norm_axis(attr_int(node, "axis", 0), x.dims.size(), where);
        Dims d;
        for (std::int64_t k = 0; k < axis; ++k) d.push_back(x.dims[std::size_t(k)]);
        for (auto v : idx.dims) d.push_back(v);
        for (std::size_t k = std::size_t(axis) + 1; k < x.dims.size(); ++k) d.push_back(x.dims[k]);
        TensorData o = like(x, d);
        std::int64_t outer = 1, inner = 1;
        for (std::int64_t k = 0; k < axis; ++k) outer *= x.dims[std::size_t(k)];
        for (std::size_t k = std::size_t(axis) + 1; k < x.dims.size(); ++k) inner *= x.dims[k];
        const std::int64_t len = x.dims[std::size_t(axis)];
        for (std::int64_t b = 0; b < outer; ++b)
            for (std::size_t j = 0; j < idx.size(); ++j) {
                std::int64_t g = idx.int_at(j);
                if (g < 0) g += len;
                if (g < 0 || g >= len) throw InputError(where + ": Gather index " + std::to_string(idx.int_at(j)) + " out of range");
                for (std::int64_t k = 0; k < inner; ++k) push(o, x, std::size_t((b * len + g) * inner + k));
            }
        return std::vector<TensorData>{o};
    }
    if (op == "Transpose") {
        const std::size_t r = x.dims.size();
        Dims perm = attr_ints(node, "perm");
        if (perm.empty())
            for (std::size_t k = r; k-- > 0;) perm.push_back(std::int64_t(k));  // ONNX's default: the axes reversed
        if (perm.size() != r)
            throw InputError(where + ": Transpose perm has " + std::to_string(perm.size()) + " entries for an input of rank " +
                             std::to_string(r));
        std::vector<bool> seen(r, false);
        for (const std::int64_t p : perm) {
            if (p < 0 || p >= std::int64_t(r) || seen[std::size_t(p)])
                throw InputError(where + ": Transpose perm is not a permutation of the input's axes");
            seen[std::size_t(p)] = true;
        }
        Dims d(r), in_stride(r, 1);
        for (std::size_t k = r; k-- > 1;) in_stride[k - 1] = in_stride[k] * x.dims[k];
        for (std::size_t k = 0; k < r; ++k) d[k] = x.dims[std::size_t(perm[k])];
        TensorData o = like(x, d);
        // Output element k (row-major): its coordinate on output axis ax is its coordinate on input axis perm[ax].
        for (std::int64_t k = 0; k < n; ++k) {
            std::int64_t rem = k, src = 0;
            for (std::size_t ax = r; ax-- > 0;) {
                src += (rem % d[ax]) * in_stride[std::size_t(perm[ax])];
                rem /= d[ax];
            }
            push(o, x, std::size_t(src));
        }
        return std::vector<TensorData>{o};
    }
    if (op == "Slice") {
        if (x.dims.empty()) return std::nullopt;
        Dims starts, ends, axes, steps;
        if (opset >= 10) {
            if (!input(1) || !input(2)) return std::nullopt;
            starts.assign(input(1)->i.begin(), input(1)->i.end());
            ends.assign(input(2)->i.begin(), input(2)->i.end());
            if (input(3)) axes.assign(input(3)->i.begin(), input(3)->i.end());
            if (input(4)) steps.assign(input(4)->i.begin(), input(4)->i.end());
        } else {
            starts = attr_ints(node, "starts");
            ends = attr_ints(node, "ends");
            axes = attr_ints(node, "axes");
        }
        if (axes.empty())
            for (std::size_t k = 0; k < starts.size(); ++k) axes.push_back(std::int64_t(k));
        if (steps.empty()) steps.assign(starts.size(), 1);
        if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
            throw InputError(where + ": Slice starts/ends/axes/steps of different lengths");
        const std::size_t r = x.dims.size();
        Dims b(r, 0), e(x.dims), s(r, 1);
        for (std::size_t k = 0; k < starts.size(); ++k) {
            const auto ax = std::size_t(norm_axis(axes[k], r, where));
            const std::int64_t dim = x.dims[ax], st = steps[k];
            if (st == 0) throw InputError(where + ": Slice step 0");
            auto clampi = [&](std::int64_t v, bool is_end) {
                if (v < 0) v += dim;
                if (st > 0) return std::clamp<std::int64_t>(v, 0, dim);
                return std::clamp<std::int64_t>(v, is_end ? -1 : 0, dim - 1);
            };
            b[ax] = clampi(starts[k], false);
            e[ax] = clampi(ends[k], true);
            s[ax] = st;
        }
        Dims d(r);
        for (std::size_t k = 0; k < r; ++k) {
            const std::int64_t len = s[k] > 0 ? (e[k] - b[k] + s[k] - 1) / s[k] : (b[k] - e[k] - s[k] - 1) / -s[k];
            d[k] = std::max<std::int64_t>(0, len);
        }
        TensorData o = like(x, d);
        const std::int64_t m = count(d);
        for (std::int64_t k = 0; k < m; ++k) {
            std::int64_t rem = k, src = 0, stride = 1;
            for (std::size_t ax = r; ax-- > 0;) {
                const std::int64_t c = rem % d[ax];
                rem /= d[ax];
                src += (b[ax] + c * s[ax]) * stride;
                stride *= x.dims[ax];
            }
            push(o, x, std::size_t(src));
        }
        return std::vector<TensorData>{o};
    }
    if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || op == "Min" || op == "Max" || op == "Equal" ||
        op == "Less" || op == "Greater" || op == "Pow" || op == "Mod") {
        if (in.size() != 2 || !input(1)) return std::nullopt;
        auto o = binary(op, x, *input(1), where, attr_int(node, "fmod", 0) != 0);
        if (!o) return std::nullopt;
        return std::vector<TensorData>{*o};
    }
    if (op == "Neg" || op == "Abs" || op == "Floor" || op == "Ceil" || op == "Sqrt" || op == "Not") {
        TensorData o = like(x, x.dims);
        for (std::int64_t k = 0; k < n; ++k) {
            const double v = x.at(std::size_t(k));
            const double r = op == "Neg" ? -v : op == "Abs" ? std::fabs(v) : op == "Floor" ? std::floor(v)
                           : op == "Ceil" ? std::ceil(v) : op == "Sqrt" ? std::sqrt(v) : double(v == 0);
            if (o.is_float()) o.f.push_back(r);
            else o.i.push_back(std::int64_t(r));
        }
        return std::vector<TensorData>{o};
    }
    if (op == "Where") {
        if (in.size() != 3) return std::nullopt;
        Dims d1, out;
        if (!broadcast(x.dims, input(1)->dims, d1) || !broadcast(d1, input(2)->dims, out))
            throw InputError(where + ": Where operands do not broadcast");
        TensorData o = like(*input(1), out);
        for (std::int64_t k = 0; k < count(out); ++k) {
            const bool c = x.at(bindex(x.dims, out, k)) != 0;
            const TensorData& src = c ? *input(1) : *input(2);
            push(o, src, bindex(src.dims, out, k));
        }
        return std::vector<TensorData>{o};
    }
    if (op == "ConstantOfShape") {
        Dims d(x.i.begin(), x.i.end());
        if (element_count(d, where) > kMaxFoldElements) return std::nullopt;
        TensorData o;
        o.type = TensorProto::FLOAT;
        o.dims = d;
        double v = 0;
        if (const auto* a = find_attr(node, "value"); a && a->has_t()) {
            const TensorData val = read_tensor(a->t(), ".", where);
            o.type = val.type;
            if (val.size() > 0) v = val.at(0);
        }
        for (std::int64_t k = 0; k < count(d); ++k) {
            if (o.is_float()) o.f.push_back(v);
            else o.i.push_back(std::int64_t(v));
        }
        return std::vector<TensorData>{o};
    }
    if (op == "Range") {
        if (in.size() != 3) return std::nullopt;
        const double s = x.at(0), lim = input(1)->at(0), d = input(2)->at(0);
        if (d == 0) throw InputError(where + ": Range with delta 0");
        const double steps = std::max(0.0, std::ceil((lim - s) / d));
        if (!(steps <= double(kMaxFoldElements))) return std::nullopt;  // also NaN
        const auto len = std::int64_t(steps);
        TensorData o = like(x, {len});
        if (o.is_float()) {
            for (std::int64_t k = 0; k < len; ++k) o.f.push_back(s + double(k) * d);
        } else if (len > 0) {
            const std::int64_t si = to_int64(s, where, op), di = to_int64(d, where, op);
            for (std::int64_t k = 0; k < len; ++k) {
                std::int64_t v;
                if (__builtin_mul_overflow(k, di, &v) || __builtin_add_overflow(v, si, &v))
                    throw InputError(where + ": Range overflows a 64-bit integer");
                o.i.push_back(v);
            }
        }
        return std::vector<TensorData>{o};
    }
    if (op == "ReduceProd" || op == "ReduceSum") {
        if (!attr_ints(node, "axes").empty() || in.size() > 1) return std::nullopt;  // full reduction only
        TensorData o = like(x, attr_int(node, "keepdims", 1) ? Dims(x.dims.size(), 1) : Dims{});
        double acc = op == "ReduceProd" ? 1 : 0;
        for (std::int64_t k = 0; k < n; ++k) acc = op == "ReduceProd" ? acc * x.at(std::size_t(k)) : acc + x.at(std::size_t(k));
        if (o.is_float()) o.f.push_back(acc);
        else o.i.push_back(to_int64(acc, where, op));
        return std::vector<TensorData>{o};
    }
    return std::nullopt;
}

}  // namespace vp::import
