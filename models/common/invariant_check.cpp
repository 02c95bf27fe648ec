#include "models/common/invariant_check.h"

#include "mapper/common/errors.h"

namespace vp {

void InvariantCheck::equal(const std::string& law, const std::string& scope, std::uint64_t expected,
                           std::uint64_t actual) {
    ++m_checked;
    if (!m_fault_used && !m_fault.law.empty() && scope == m_fault.scope && law.find(m_fault.law) != std::string::npos) {
        m_fault_used = true;
        actual = std::uint64_t(std::int64_t(actual) + m_fault.delta);
    }
    if (expected != actual) m_violations.push_back({law, scope, expected, actual});
}

std::string InvariantCheck::report() const {
    if (ok()) return {};
    std::string s = std::to_string(m_violations.size()) + " of " + std::to_string(m_checked) +
                    " end-of-run invariants broken:";
    for (std::size_t i = 0; i < m_violations.size() && i < kMaxListed; ++i) {
        const Violation& v = m_violations[i];
        s += "\n  invariant \"" + v.law + "\" broken in " + v.scope + ": expected " + std::to_string(v.expected) +
             ", actual " + std::to_string(v.actual);
    }
    if (m_violations.size() > kMaxListed)
        s += "\n  ... and " + std::to_string(m_violations.size() - kMaxListed) + " more";
    return s;
}

void InvariantCheck::throw_if_broken() const {
    if (!ok()) throw SimulationError(report());
}

}  // namespace vp
