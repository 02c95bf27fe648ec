#pragma once
// Glue between a DRAM channel's command stream and the independent protocol checker
// (models/dram/check): translates each CommandRecord into the checker's own command
// type and hands it the preset's raw timing numbers. This file is the only place that
// sees both sides; the checker itself includes nothing from models/dram.
#include <cstdint>
#include <functional>
#include <string>

#include "models/dram/check/protocol_checker.h"
#include "models/dram/dram_command.h"
#include "models/dram/dram_params.h"

namespace vp::dram {

class ProtocolMonitor : public CommandObserver {
public:
    // `on_violation` runs once, at the first violation (the controller stops the kernel).
    ProtocolMonitor(const DramParams& p, std::function<void()> on_violation = {});
    void on_command(const CommandRecord& r) override;
    // The end of the run: checks the refresh debt; false if any rule was broken.
    bool finish(std::uint64_t end_cycle);
    bool ok() const { return m_checker.ok(); }
    const dramcheck::Violation& first() const { return m_checker.first(); }
    std::uint64_t commands() const { return m_checker.commands(); }
    std::uint64_t violations() const { return m_checker.violations(); }

    // The checker's parameters for a controller configuration (raw preset numbers).
    static dramcheck::JedecParams jedec_params(const DramParams& p);

private:
    dramcheck::ProtocolChecker m_checker;
    std::function<void()> m_on_violation;
    bool m_reported = false;
};

}  // namespace vp::dram
