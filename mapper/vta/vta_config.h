#pragma once
// VTA hardware configuration (vta_isa.md §1, tvm-vta config/vta_config.json) and every
// quantity derived from it. Field widths and buffer depths are computed from the LOG_*
// values exactly as hw_spec_const.h does; nothing downstream hard-codes a bit position.
#include <cstdint>
#include <string>

namespace vp::mapper::vta {

struct VtaConfig {
    // Defaults = apache/tvm-vta config/vta_config.json (FOUND, vta_isa.md §1).
    static constexpr int kLogBatch = 0;          // BATCH = 1
    static constexpr int kLogBlock = 4;          // BLOCK_IN = BLOCK_OUT = 16
    static constexpr int kLogInpWidth = 3;       // int8 inputs
    static constexpr int kLogWgtWidth = 3;       // int8 weights
    static constexpr int kLogAccWidth = 5;       // int32 accumulators
    static constexpr int kLogUopBuffSize = 15;   // bytes: 32 KiB micro-op buffer
    static constexpr int kLogInpBuffSize = 15;   // bytes: 32 KiB input buffer
    static constexpr int kLogWgtBuffSize = 18;   // bytes: 256 KiB weight buffer
    static constexpr int kLogAccBuffSize = 17;   // bytes: 128 KiB accumulator buffer

    int log_batch = kLogBatch;
    int log_block = kLogBlock;
    int log_inp_width = kLogInpWidth;
    int log_wgt_width = kLogWgtWidth;
    int log_acc_width = kLogAccWidth;
    int log_uop_buff_size = kLogUopBuffSize;
    int log_inp_buff_size = kLogInpBuffSize;
    int log_wgt_buff_size = kLogWgtBuffSize;
    int log_acc_buff_size = kLogAccBuffSize;
    // ALU MUL (opcode 4) exists in fsim/hw_spec_const.h only (vta_isa.md §7 item 2); the
    // requantisation sequence of Compilation and Execution of an Embeddable YOLO-NAS on the VTA needs it, so it is on by default (fsim behaviour).
    bool alu_mul = true;

    // Throws vp::InputError("<prefix>.<field>: ...") on a configuration that the
    // functional model cannot represent or whose instruction fields do not fit 64-bit words.
    void validate(const std::string& key_prefix) const;

    // --- derived (hw_spec_const.h) ---
    int batch() const { return 1 << log_batch; }
    int block() const { return 1 << log_block; }  // BLOCK_IN = BLOCK_OUT
    int inp_bits() const { return 1 << log_inp_width; }
    int wgt_bits() const { return 1 << log_wgt_width; }
    int acc_bits() const { return 1 << log_acc_width; }
    int log_out_width() const { return log_inp_width; }
    int out_bits() const { return 1 << log_out_width(); }
    int log_out_buff_size() const { return log_acc_buff_size + log_out_width() - log_acc_width; }
    // Bytes of one buffer entry ("element").
    int inp_elem_bytes() const { return batch() * block() * inp_bits() / 8; }
    int wgt_elem_bytes() const { return block() * block() * wgt_bits() / 8; }
    int acc_elem_bytes() const { return batch() * block() * acc_bits() / 8; }
    int out_elem_bytes() const { return batch() * block() * out_bits() / 8; }
    static constexpr int kUopBytes = 4;
    static constexpr int kInsnBytes = 16;
    // log2 of buffer depths in entries.
    int log_uop_depth() const { return log_uop_buff_size - 2; }
    int log_inp_depth() const { return log_inp_buff_size - log_batch - log_block - log_inp_width + 3; }
    int log_wgt_depth() const { return log_wgt_buff_size - 2 * log_block - log_wgt_width + 3; }
    int log_acc_depth() const { return log_acc_buff_size - log_batch - log_block - log_acc_width + 3; }
    int uop_depth() const { return 1 << log_uop_depth(); }
    int inp_depth() const { return 1 << log_inp_depth(); }
    int wgt_depth() const { return 1 << log_wgt_depth(); }
    int acc_depth() const { return 1 << log_acc_depth(); }
    int out_depth() const { return acc_depth(); }  // OUT is indexed with ACC indices
    std::uint64_t macs_per_gemm_uop() const { return std::uint64_t(batch()) * block() * block(); }
};

}  // namespace vp::mapper::vta
