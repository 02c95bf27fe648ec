// check_queues (mapper/vta/queue_check.h) on hand-made instruction streams whose outcome follows
// from the queue rules by hand, and on the compiler's programs (which complete with the default
// depths and, with one token per queue, only when the fetch can reach the consumer).
#include <catch2/catch.hpp>

#include "mapper/vta/queue_check.h"

using namespace vp::mapper::vta;

namespace {
Insn gemm(bool push_c2l = false, bool pop_l2c = false) {
    Insn in;
    in.opcode = Opcode::Gemm;
    in.dep.push_prev = push_c2l;  // compute's prev is load: push_prev -> c2l, pop_prev <- l2c
    in.dep.pop_prev = pop_l2c;
    return in;
}
Insn load_inp(bool pop_c2l = false, bool push_l2c = false) {
    Insn in;
    in.opcode = Opcode::Load;
    in.mem_type = MemId::Inp;
    in.dep.pop_next = pop_c2l;  // load's next is compute: pop_next <- c2l, push_next -> l2c
    in.dep.push_next = push_l2c;
    return in;
}
}  // namespace

TEST_CASE("queue check: a full token queue whose consumer waits behind a full command queue", "[vta][queues]") {
    // C0 and C1 push a token into c2l each, C2 and C3 push nothing, then L0 pops one c2l token.
    // Token depth 1: C0 pushes, C1 waits to push. Command depth 1: C2 fills the compute queue,
    // C3 cannot be dispatched, and fetch never reaches L0, the only consumer: no completion.
    // Command depth 2 holds C2 and C3, so fetch dispatches L0, which pops and lets C1 push;
    // token depth 2 lets C1 push at once.
    const std::vector<Insn> p = {gemm(true), gemm(true), gemm(), gemm(), load_inp(true)};
    const QueueCheck stuck = check_queues(p, 1, 1);
    CHECK_FALSE(stuck.completes);
    CHECK(stuck.full_queue);
    CHECK(stuck.state.find("instruction #1") != std::string::npos);
    CHECK(stuck.state.find("push a token into c2l (full)") != std::string::npos);
    CHECK(stuck.state.find("fetch: instruction #3 waits for room in the compute command queue") != std::string::npos);
    CHECK(check_queues(p, 2, 1).completes);  // C2, C3 queued; L0 dispatched, pops, C1 pushes
    CHECK(check_queues(p, 1, 2).completes);  // C1 pushes the second token
    CHECK(check_queues(p, 8, 8).completes);

    // One more compute instruction before L0: command depth 2 is now short by one.
    const std::vector<Insn> q = {gemm(true), gemm(true), gemm(), gemm(), gemm(), load_inp(true)};
    CHECK_FALSE(check_queues(q, 2, 1).completes);
    CHECK(check_queues(q, 3, 1).completes);
    CHECK(check_queues(q, 1, 2).completes);
}

TEST_CASE("queue check: a pop no instruction pushes is a stall without a full queue", "[vta][queues]") {
    const std::vector<Insn> p = {load_inp(), gemm(false, true)};  // GEMM pops l2c, nothing pushes it
    const QueueCheck r = check_queues(p, 8, 8);
    CHECK_FALSE(r.completes);
    CHECK_FALSE(r.full_queue);
    CHECK(r.state.find("for a token in l2c") != std::string::npos);
    // With the push it completes, in either order of dispatch.
    CHECK(check_queues({load_inp(false, true), gemm(false, true)}, 1, 1).completes);
    CHECK(check_queues({gemm(true), load_inp(true, true), gemm(false, true)}, 1, 1).completes);
}
