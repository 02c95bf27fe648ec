// Matrix partitioning (Compilation and Execution of an Embeddable YOLO-NAS on the VTA §5-6): the Figure 8 example and the validity invariants.
#include <catch2/catch.hpp>

#include "mapper/common/errors.h"
#include "mapper/vta/partition.h"

using namespace vp::mapper::vta;

TEST_CASE("Compilation and Execution of an Embeddable YOLO-NAS on the VTA, Fig. 8: 4 blocks of C take 4 steps with strategies 1,3,4 and 2 with strategy 2", "[vta][partition]") {
    // Buffer capacity 4 blocks (Compilation and Execution of an Embeddable YOLO-NAS on the VTA, matrix partitioning: the row 2,2,2 / 2,4,4 reproduces the claim).
    const BlockShape s{2, 2, 2};
    const Capacities cap{2, 4, 4, 4};
    for (int st : {1, 3, 4}) {
        const Partition p = partition(OpCase::Gemm, s, cap, st, true);
        CHECK(p.steps.size() == 4);
        CHECK(check_partition(OpCase::Gemm, s, cap, p).empty());
    }
    const Partition p2 = partition(OpCase::Gemm, s, cap, 2, true);
    CHECK(p2.steps.size() == 2);
    CHECK(check_partition(OpCase::Gemm, s, cap, p2).empty());
}

TEST_CASE("No overflow gives a single step, strict < as the paper's compiler", "[vta][partition]") {
    const Capacities cap{128, 1024, 128, 128};
    const Partition p = partition(OpCase::Gemm, BlockShape{4, 8, 4}, cap, 1, false);
    REQUIRE(p.steps.size() == 1);
    CHECK(p.kind == PartitionKind::Fits);
    // nb_A == cap_inp is an overflow
    const Partition q = partition(OpCase::Gemm, BlockShape{1, 128, 1}, cap, 1, true);
    CHECK(q.kind == PartitionKind::Strategy1);  // partitioned (one chunk of 128 k-blocks)
    REQUIRE_THROWS_AS(partition(OpCase::Gemm, BlockShape{1, 128, 1}, cap, 1, false), vp::InputError);
}

TEST_CASE("Every strategy satisfies the validity invariants on many shapes and capacities", "[vta][partition]") {
    int checked = 0;
    for (int a = 1; a <= 7; a += 2)
        for (int l = 1; l <= 9; l += 2)
            for (int b = 1; b <= 7; b += 3)
                for (const Capacities cap : {Capacities{2, 4, 4, 4}, Capacities{3, 5, 2, 2}, Capacities{8, 16, 4, 4},
                                             Capacities{1, 1, 1, 1}, Capacities{5, 3, 7, 6}}) {
                    const BlockShape s{a, l, b};
                    for (int st = 1; st <= 4; ++st) {
                        const Partition p = partition(OpCase::Gemm, s, cap, st, true);
                        INFO("shape " << a << "," << l << "," << b << " strategy " << st);
                        REQUIRE(check_partition(OpCase::Gemm, s, cap, p) == "");
                        ++checked;
                    }
                    for (OpCase op : {OpCase::ScalarGemm, OpCase::AddAcc, OpCase::AluOnly}) {
                        const BlockShape ss{a, b, b};
                        if (op == OpCase::AddAcc && cap.acc < 2) {
                            REQUIRE_THROWS_AS(partition(op, ss, cap, 1, true), vp::InputError);
                            ++checked;
                            continue;
                        }
                        const Partition p = partition(op, ss, cap, 1, true);
                        REQUIRE(check_partition(op, ss, cap, p) == "");
                        ++checked;
                    }
                }
    CHECK(checked == 4 * 5 * 3 * 5 * 7);
}

TEST_CASE("Step counts follow the strategy formulas", "[vta][partition]") {
    const BlockShape s{6, 10, 5};
    const Capacities cap{8, 16, 4, 4};  // b = 4
    const auto cdiv = [](int x, int y) { return (x + y - 1) / y; };
    CHECK(partition(OpCase::Gemm, s, cap, 1, true).steps.size() == std::size_t(6 * 5 * cdiv(10, 4)));
    CHECK(partition(OpCase::Gemm, s, cap, 3, true).steps.size() == std::size_t(cdiv(6, 4) * 5 * 10));
    CHECK(partition(OpCase::Gemm, s, cap, 4, true).steps.size() == std::size_t(6 * cdiv(5, 4) * 10));
    // S2: tile 2x2 (largest divisor of 4 <= 2), tile_k = min(10, 8/2, 16/2) = 4
    CHECK(partition(OpCase::Gemm, s, cap, 2, true).steps.size() == std::size_t(3 * 3 * cdiv(10, 4)));
}

TEST_CASE("ALU-only and ADD_ACC overflow cases", "[vta][partition]") {
    const Capacities cap{8, 16, 4, 4};
    const Partition p = partition(OpCase::AluOnly, BlockShape{3, 6, 6}, cap, 1, false);
    CHECK(p.kind == PartitionKind::AluColumns);
    for (const Step& st : p.steps) CHECK(st.th() == 3);  // whole block columns resident
    CHECK(check_partition(OpCase::AluOnly, BlockShape{3, 6, 6}, cap, p).empty());
    REQUIRE_THROWS_AS(partition(OpCase::AluOnly, BlockShape{5, 2, 2}, cap, 1, false), vp::InputError);
    const Partition q = partition(OpCase::AddAcc, BlockShape{3, 3, 3}, cap, 1, true);
    for (const Step& st : q.steps) CHECK(2 * st.th() * st.tw() <= cap.acc);
    CHECK(partition(OpCase::AddAcc, BlockShape{1, 1, 1}, cap, 1, true).steps.size() == 1);  // 2*1 < 4
}

TEST_CASE("check_partition rejects broken partitions", "[vta][partition]") {
    const BlockShape s{2, 2, 2};
    const Capacities cap{2, 4, 4, 4};
    Partition good = partition(OpCase::Gemm, s, cap, 1, true);
    REQUIRE(check_partition(OpCase::Gemm, s, cap, good).empty());
    Partition dup = good;
    dup.steps.insert(dup.steps.begin() + 1, dup.steps[0]);  // a contribution twice / touched after store
    CHECK_FALSE(check_partition(OpCase::Gemm, s, cap, dup).empty());
    Partition missing = good;
    missing.steps.pop_back();
    CHECK(check_partition(OpCase::Gemm, s, cap, missing).find("never stored") != std::string::npos);
    Partition big = partition(OpCase::Gemm, s, Capacities{8, 8, 8, 8}, 2, true);
    CHECK(check_partition(OpCase::Gemm, s, cap, big).find("exceed") != std::string::npos);
    Partition s3 = partition(OpCase::Gemm, s, cap, 3, true);  // steps k=0, k=1 of the same tile
    std::swap(s3.steps[0], s3.steps[1]);  // store happens before the first contribution's X load
    CHECK_FALSE(check_partition(OpCase::Gemm, s, cap, s3).empty());
}
