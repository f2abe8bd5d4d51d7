//===- ModelStats.h - what a compiled model does per vertex -----*- C++ -*-===//
//
// Counts, for every vertex function of an optimized model, the ops, fused
// kernels and GEMMs of each batching phase of F and ∂F, and its memory plan.
// `cavsc --emit=stats` prints it; it is how the effect of each optimization
// is read off the IR.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_COMPILER_ANALYSIS_MODELSTATS_H
#define CAVS_COMPILER_ANALYSIS_MODELSTATS_H

#include "dialects/CavsOps.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace cavs {

/// Prints the per-phase counts of every vertex function of `model` as a
/// table. Ops without a batching class (an unclassified model) are counted
/// in the body rows.
void printModelStats(ModelOp model, llvm::raw_ostream &os);

} // namespace cavs

#endif // CAVS_COMPILER_ANALYSIS_MODELSTATS_H
