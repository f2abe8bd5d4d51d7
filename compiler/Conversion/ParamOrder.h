//===- ParamOrder.h - the runtime's indices of parameters -------*- C++ -*-===//
//
// The descriptor lists the parameters in declaration order whatever the
// optimization flags, so their indices, checkpoints and the signature are
// the same for every build of a model; packs (cavs-merge-matmuls) are a
// layout detail the runtime resolves, storing each pack's members back to
// back. This is the one place that numbers parameters and packs; the
// descriptor and the generated phase functions (which index the runtime's
// parameter table) both use it.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_COMPILER_CONVERSION_PARAMORDER_H
#define CAVS_COMPILER_CONVERSION_PARAMORDER_H

#include "dialects/CavsOps.h"

#include "llvm/ADT/StringMap.h"

#include <vector>

namespace cavs {

/// Parameters in declaration order, then packs in declaration order.
struct ParamOrder {
  std::vector<ParamOp> params;
  std::vector<ParamPackOp> packs;
  /// Parameter or pack symbol -> index in cavs_call::params: parameters
  /// first, then packs.
  llvm::StringMap<int32_t> tableIndex;

  static ParamOrder compute(ModelOp model);

  /// Index of a parameter (not a pack) in `params`.
  int32_t paramIndex(llvm::StringRef name) const {
    return tableIndex.lookup(name);
  }

  /// Indices in `params` of a parameter, or of the members of a pack.
  llvm::SmallVector<int32_t> paramIndices(llvm::StringRef symbol) const;
};

} // namespace cavs

#endif // CAVS_COMPILER_CONVERSION_PARAMORDER_H
