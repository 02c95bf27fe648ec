#pragma once
// End-of-run conservation laws. A platform records
// every law that holds by design as expected vs actual figure, with the scope it applies to
// (a layer, a node, the whole run); throw_if_broken() turns the broken ones into one
// vp::SimulationError (exit 3) that names each law, its scope and both figures.
#include <cstdint>
#include <string>
#include <vector>

namespace vp {

class InvariantCheck {
public:
    struct Violation {
        std::string law, scope;
        std::uint64_t expected = 0, actual = 0;
    };
    // A deliberate error for tests of the reporting path: the first recorded check whose law
    // contains `law` and whose scope equals `scope` gets `delta` added to its actual figure.
    struct Fault {
        std::string law, scope;
        std::int64_t delta = 0;
    };

    // Records the law "<law>" for <scope> (e.g. "layer conv1", "core_1_2", "run").
    void equal(const std::string& law, const std::string& scope, std::uint64_t expected, std::uint64_t actual);
    // Shorthand for "nothing left": expected 0.
    void none_left(const std::string& what, const std::string& scope, std::uint64_t left) {
        equal(what, scope, 0, left);
    }

    void set_fault(const Fault& f) { m_fault = f; }

    std::size_t checked() const { return m_checked; }
    const std::vector<Violation>& violations() const { return m_violations; }
    bool ok() const { return m_violations.empty(); }
    // One line per violation (at most kMaxListed, then a count of the rest).
    std::string report() const;
    // Throws vp::SimulationError(report()) if any law is broken.
    void throw_if_broken() const;

    static constexpr std::size_t kMaxListed = 20;

private:
    std::vector<Violation> m_violations;
    std::size_t m_checked = 0;
    Fault m_fault;
    bool m_fault_used = false;
};

}  // namespace vp
