//===- TreeBatches.h - reproducible Tree-LSTM batches for the MPI tests ---===//
//
// Every rank must build the same global batch without communication, so
// batches come from a seeded generator: random binary trees (leaf type 0
// with a word, inner type 1), a label at every vertex.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_TEST_DIST_TREEBATCHES_H
#define CAVS_TEST_DIST_TREEBATCHES_H

#include "cavs/runtime.hpp"

#include <cstdint>
#include <vector>

namespace cavs::test {

/// How the trees of a batch are sized.
enum class TreeSizes {
  /// 1..20 leaves each.
  Small,
  /// SST-like: 2..40 leaves each.
  SstLike,
  /// One tree of 100 leaves among trees of 1..3 leaves: shards of very
  /// different sample counts.
  Uneven,
};

/// `samples` trees drawn from `seed`, words in [0, vocabulary), labels in
/// [0, 5), except that the root of sample `badLabelSample` (if any) gets
/// label 5, which the model rejects.
GraphBatch makeTreeBatch(uint64_t seed, int32_t samples, TreeSizes sizes,
                         int32_t vocabulary, int32_t badLabelSample = -1);

} // namespace cavs::test

#endif // CAVS_TEST_DIST_TREEBATCHES_H
