//===- ModelStats.h - what a compiled model does per vertex -----*- C++ -*-===//
//
// Counts, for every vertex function of an optimized model, the ops, fused
// kernels, GEMMs, floating-point operations and bytes copied in and out of
// the state buffers (gather, scatter and their gradients) of each batching
// phase of F and ∂F, and its memory plan. `cavsc --emit=stats` prints it;
// it is how the effect of each optimization is read off the IR. The model
// descriptor records the FLOPs and bytes so that the runtime and cavs-bench
// can report achieved GFLOP/s.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_COMPILER_ANALYSIS_MODELSTATS_H
#define CAVS_COMPILER_ANALYSIS_MODELSTATS_H

#include "dialects/CavsOps.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <array>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace cavs {

/// What one phase of a vertex function does for one vertex.
struct PhaseStats {
  unsigned ops = 0, kernels = 0, gemms = 0;
  /// Multiply-adds count 2; an elementwise op 1 per element (a
  /// transcendental function too); reductions 1 per element.
  int64_t flops = 0;
  /// Bytes gathered from or scattered to the state and state-gradient
  /// buffers (per vertex, assuming every child is present).
  int64_t copyBytes = 0;
  /// Parameters or packs whose gradient the phase adds to, in op order
  /// (repeats possible).
  llvm::SmallVector<llvm::StringRef> gradParams;
  /// Whether an op of the phase sums over the vertices of a call: the loss
  /// or a parameter gradient. Without one, the phase's work on a vertex
  /// touches only that vertex's rows and its children's state rows, and a
  /// call can be cut into calls over fewer rows (cavs_function_desc).
  bool sumsOverRows = false;
};

/// The stats of F eager, body, lazy, then ∂F eager, body, lazy (the order
/// of cavs_phase). Ops without a batching class count as body.
std::array<PhaseStats, 6> vertexPhaseStats(VertexOp vertex);

/// Prints the per-phase stats of every vertex function of `model` as a
/// table.
void printModelStats(ModelOp model, llvm::raw_ostream &os);

} // namespace cavs

#endif // CAVS_COMPILER_ANALYSIS_MODELSTATS_H
