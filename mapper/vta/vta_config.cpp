#include "mapper/vta/vta_config.h"

#include "mapper/common/errors.h"
#include "mapper/vta/isa.h"

namespace vp::mapper::vta {

namespace {
void require(bool ok, const std::string& key, const std::string& what) {
    if (!ok) throw InputError(key + ": " + what);
}
}  // namespace

void VtaConfig::validate(const std::string& p) const {
    require(log_batch >= 0 && log_batch <= 4, p + ".log_batch", "expected an integer in [0, 4]");
    require(log_block >= 1 && log_block <= 6, p + ".log_block", "expected an integer in [1, 6]");
    // The functional model stores int8 inputs/weights/outputs and int32 accumulators (Application-Level Validation of Accelerator Designs Using a Formal Software/Hardware Interface:
    // "operating on 8-bit integer data"); other widths are encodable but not executable.
    require(log_inp_width == 3, p + ".log_inp_width", "expected 3 (int8 inputs)");
    require(log_wgt_width == 3, p + ".log_wgt_width", "expected 3 (int8 weights)");
    require(log_acc_width == 5, p + ".log_acc_width", "expected 5 (int32 accumulators)");
    require(log_uop_buff_size >= 4 && log_uop_buff_size <= 20, p + ".log_uop_buff_size", "expected an integer in [4, 20]");
    require(log_inp_depth() >= 1 && log_inp_buff_size <= 24, p + ".log_inp_buff_size",
            "expected room for at least 2 input entries and at most 16 MiB");
    // Every index field is a named C bit-field in hw_spec.h, which cannot have width 0.
    require(log_wgt_depth() >= 1 && log_wgt_buff_size <= 26, p + ".log_wgt_buff_size",
            "expected room for at least 2 weight blocks and at most 64 MiB");
    require(log_acc_depth() >= 1 && log_acc_buff_size <= 24, p + ".log_acc_buff_size",
            "expected room for at least 2 accumulator entries and at most 16 MiB");
    // Instruction and micro-op fields must fit 128 / 32 bits as a C compiler packs hw_spec.h's bit-fields.
    const InsnLayout layout(*this);
    std::string why;
    if (!layout.fits(&why)) throw InputError(p + ": configuration gives an instruction layout that does not fit: " + why);
}

}  // namespace vp::mapper::vta
