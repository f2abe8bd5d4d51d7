//===- Initializers.h - initial values of parameters ----------------------===//
//
// Fills one parameter according to its initializer kind, drawing from the
// parameter's own stream (see Random.h).
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_PARAMS_INITIALIZERS_H
#define CAVS_RUNTIME_PARAMS_INITIALIZERS_H

#include "params/ModelLayout.h"

namespace cavs::runtime {

/// Writes the initial values of parameter `info` (initializer `init`,
/// validated) to `values`, its `info.size` floats, from store seed `seed`.
void initializeParam(const cavs_param_info &info, const ParamInit &init,
                     uint64_t seed, float *values);

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_PARAMS_INITIALIZERS_H
