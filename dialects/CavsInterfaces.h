//===- CavsInterfaces.h - what the passes and backends ask an op -*- C++
//-*-===//
//
// The op interfaces generated from CavsInterfaces.td: gradient, scalar body
// in a fused kernel, reduction identity and cost. CavsOps.h includes this
// before the op classes, which implement them.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_DIALECTS_CAVSINTERFACES_H
#define CAVS_DIALECTS_CAVSINTERFACES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

#include <string>

namespace cavs {
/// What an adjoint rule builds ∂F with (dialects/AdjointContext.h).
class AdjointContext;

/// Floats one vertex's value of `type` occupies in a row: a tensor's
/// elements, 1 for an i32 (stored as int32 bits in a float slot).
int64_t valueWidth(mlir::Type type);
} // namespace cavs

#include "dialects/CavsInterfaces.h.inc"

#endif // CAVS_DIALECTS_CAVSINTERFACES_H
