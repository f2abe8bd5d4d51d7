//===- ArenaLayout.h - how an arena stores its slots ----------------------===//
//
// A vertex function's arena holds one row of columns per vertex of its
// type (cavs-plan-memory's slots give each value its columns). It is
// stored block by block: a block is the smallest column range that holds
// every slot overlapping it, and a block of the whole type's rows is one
// matrix, so a value's rows lie its block's stride apart (a few hundred
// floats) instead of a whole arena row (kilobytes). The fused kernels and
// row ops then stream through memory the hardware prefetchers follow; the
// lowering (compiler/Conversion/RuntimeLowering.cpp) addresses this layout
// and cavs-plan-memory sizes the arena for it.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_DIALECTS_ARENALAYOUT_H
#define CAVS_DIALECTS_ARENALAYOUT_H

#include "dialects/CavsOps.h"

#include "llvm/ADT/SmallVector.h"

namespace cavs {

/// One block of an arena.
struct ArenaBlock {
  /// The arena columns [first, first + width) it holds.
  int64_t first = 0, width = 0;
  /// Floats from one vertex's row of the block to the next: the width,
  /// plus a cache line when it is a multiple of 1 KiB (such strides map a
  /// GEMM operand's rows to few cache sets: the N-ary Tree-LSTM at H = 512
  /// trained 2 % slower). Other widths are not padded, as in an arena
  /// row (docs/passes.md, "Memory planning").
  int64_t stride = 0;
  /// Floats per vertex of the blocks before it: the block starts
  /// `offset * rows` floats into an arena of `rows` vertices.
  int64_t offset = 0;
};

/// The blocks of `vertex`'s arena, by first column, from the `cavs.slots`
/// of its ops (none before cavs-plan-memory).
llvm::SmallVector<ArenaBlock> arenaBlocks(VertexOp vertex);

/// Floats per vertex of an arena stored as `blocks`.
int64_t arenaBlockFloats(llvm::ArrayRef<ArenaBlock> blocks);

} // namespace cavs

#endif // CAVS_DIALECTS_ARENALAYOUT_H
