#pragma once
// Whether a compiled VTA program can run to FINISH with bounded queues: fetch dispatches the
// instructions in program order into command queues of cmd_queue_depth entries (it waits while
// the target queue is full); each module takes its next command, pops its tokens (prev, then
// next; it waits while a queue is empty), executes, and pushes its tokens (prev, then next; it
// waits while a queue holds token_queue_depth tokens), as the timed core (models/vta/vta_core)
// does. Every process reads and writes its queues in an order fixed by the program and waits
// only on a queue, so whether the run completes does not depend on the timing (a Kahn process
// network, with the bounded queues as pairs of channels): an untimed run decides it.
#include <cstdint>
#include <string>
#include <vector>

#include "mapper/vta/isa.h"

namespace vp::mapper::vta {

struct QueueCheck {
    bool completes = true;
    // When it does not complete: whether a full queue is part of the stall (fetch waits for room
    // in a command queue or a module waits to push into a full token queue), and the state, in
    // the words of the timed core's deadlock report.
    bool full_queue = false;
    std::string state;
};

QueueCheck check_queues(const std::vector<Insn>& insns, unsigned cmd_queue_depth, unsigned token_queue_depth);

}  // namespace vp::mapper::vta
