#pragma once
// The paper's CalcDataTransfer models (Tensor Slicing and Optimization for Multicore NPUs, Algorithm 14) as time models:
// TSO-burst (bursts x CAS + bytes / BW) and TSO-noburst (bytes / BW), each added to
// T_MAC + T_SW (Eq. 6). CAS = CL x tCK and BW = the peak of the DRAM preset.
#include "mapper/tso/time_model.h"

namespace vp::mapper::tso {

class PaperBurstModel final : public TimeModel {
public:
    const char* name() const override { return "burst"; }
    CostTimes screen(const CostCounts& k, const NmpParams& hw) const override;
};

class PaperNoBurstModel final : public TimeModel {
public:
    const char* name() const override { return "noburst"; }
    CostTimes screen(const CostCounts& k, const NmpParams& hw) const override;
};

}  // namespace vp::mapper::tso
