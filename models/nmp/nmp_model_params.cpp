#include "models/nmp/nmp_model_params.h"

#include "mapper/common/errors.h"

namespace vp::nmp {

void NmpModelParams::validate(const std::string& p) const {
    arch.validate(p);
    if (dma_max_outstanding < 1 || dma_max_outstanding > 1024)
        throw InputError(p + ".dma_max_outstanding: expected an integer in [1, 1024]");
    if (dma_txn_bytes > 4096) throw InputError(p + ".dma_txn_bytes: expected 0 (= burst_bytes) or at most 4096");
}

}  // namespace vp::nmp
