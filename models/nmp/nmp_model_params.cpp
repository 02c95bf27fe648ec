#include "models/nmp/nmp_model_params.h"

#include "mapper/common/errors.h"

namespace vp::nmp {

void NmpModelParams::validate(const std::string& p) const {
    arch.validate(p);
}

}  // namespace vp::nmp
