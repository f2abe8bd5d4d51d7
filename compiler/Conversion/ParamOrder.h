//===- ParamOrder.h - the runtime's order of a model's parameters -*- C++ -*-===//
//
// The runtime stores a parameter pack as its members back to back, so the
// model descriptor must list each pack's members consecutively. This is the
// one place that decides that order; the descriptor and the generated phase
// functions (which index the runtime's parameter table) both use it.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_COMPILER_CONVERSION_PARAMORDER_H
#define CAVS_COMPILER_CONVERSION_PARAMORDER_H

#include "dialects/CavsOps.h"

#include "llvm/ADT/StringMap.h"

#include <vector>

namespace cavs {

/// Parameters in descriptor order: declaration order, except that the
/// members of a pack follow each other (in the pack's order) from the
/// position of its first declared member.
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
