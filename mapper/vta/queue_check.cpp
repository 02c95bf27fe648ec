#include "mapper/vta/queue_check.h"

#include <deque>

#include "mapper/vta/executor.h"

namespace vp::mapper::vta {

QueueCheck check_queues(const std::vector<Insn>& insns, unsigned cmd_queue_depth, unsigned token_queue_depth) {
    const std::size_t n = insns.size();
    std::size_t fetched = 0, done = 0;
    std::deque<std::size_t> cmd[3];
    long current[3] = {-1, -1, -1};  // the instruction a module executes (-1: waits for a command)
    int step[3] = {0, 0, 0};         // its next action: 0 pop prev, 1 pop next, 2 push prev, 3 push next
    unsigned tokens[4] = {0, 0, 0, 0};
    for (bool progress = true; progress && done < n;) {
        progress = false;
        while (fetched < n) {
            const int m = int(route(insns[fetched]));
            if (cmd[m].size() >= cmd_queue_depth) break;
            cmd[m].push_back(fetched++);
            progress = true;
        }
        for (int m = 0; m < 3; ++m) {
            for (;;) {
                if (current[m] < 0) {
                    if (cmd[m].empty()) break;
                    current[m] = long(cmd[m].front());
                    cmd[m].pop_front();
                    step[m] = 0;
                    progress = true;
                }
                const Insn& in = insns[std::size_t(current[m])];
                for (; step[m] < 4; ++step[m], progress = true) {
                    const bool prev = step[m] % 2 == 0, push = step[m] >= 2;
                    const int q = push ? push_queue(Module(m), prev) : pop_queue(Module(m), prev);
                    const bool used = push ? (prev ? in.dep.push_prev : in.dep.push_next)
                                           : (prev ? in.dep.pop_prev : in.dep.pop_next);
                    if (q < 0 || !used) continue;
                    if (push ? tokens[q] >= token_queue_depth : tokens[q] == 0) break;  // it waits
                    if (push) ++tokens[q];
                    else --tokens[q];
                }
                if (step[m] < 4) break;
                current[m] = -1;
                ++done;
            }
        }
    }
    QueueCheck r;
    if (done == n) return r;
    r.completes = false;
    for (int m = 0; m < 3; ++m) {
        r.state += std::string(r.state.empty() ? "" : "; ") + to_string(Module(m)) + ": ";
        if (current[m] < 0) {
            r.state += "waits for an instruction";
            continue;
        }
        const Insn& in = insns[std::size_t(current[m])];
        const bool pushing = step[m] >= 2;
        const int q = pushing ? push_queue(Module(m), step[m] == 2) : pop_queue(Module(m), step[m] == 0);
        r.state += "instruction #" + std::to_string(current[m]) + " (" + in.to_string() + ") waits " +
                   (pushing ? "to push a token into " : "for a token in ") + to_string(TokenQueue(q));
        if (pushing) {
            r.state += " (full)";
            r.full_queue = true;
        }
    }
    r.state += "; fetch: ";
    if (fetched < n) {
        r.state += "instruction #" + std::to_string(fetched) + " waits for room in the " +
                   to_string(route(insns[fetched])) + " command queue (full)";
        r.full_queue = true;
    } else {
        r.state += "done";
    }
    return r;
}

}  // namespace vp::mapper::vta
