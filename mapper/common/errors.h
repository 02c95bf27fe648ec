#pragma once
// Error types shared by every layer of the project. InputError is bad user input
// (config, workload, command line: exit code 2); SimulationError is a run that
// cannot complete (deadlock, broken invariant: exit code 3).
#include <stdexcept>
#include <string>

namespace vp {

class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class SimulationError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace vp
