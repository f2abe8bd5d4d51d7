//===- RandomBatches.h - reproducible batches for the MPI tests ----------===//
//
// Every rank must build the same global batch without communication, so
// batches come from a seeded generator: random binary trees (leaf type 0
// with a word, inner type 1) with a label at every vertex, for the
// Tree-LSTM, or word chains with the next word to predict, for language
// models.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_TEST_DIST_RANDOMBATCHES_H
#define CAVS_TEST_DIST_RANDOMBATCHES_H

#include "cavs/runtime.hpp"

#include <cstdint>
#include <vector>

namespace cavs::test {

/// How the graphs of a batch are sized (a tree by its leaves, a chain by
/// its words).
enum class TreeSizes {
  /// 1..20 each.
  Small,
  /// SST-like: 2..40 each.
  SstLike,
  /// One graph of 100 among graphs of 1..3: shards of very different
  /// sample counts.
  Uneven,
};

/// `samples` trees drawn from `seed`, words in [0, vocabulary), labels in
/// [0, 5), except that the root of sample `badLabelSample` (if any) gets
/// label 5, which the model rejects.
GraphBatch makeTreeBatch(uint64_t seed, int32_t samples, TreeSizes sizes,
                         int32_t vocabulary, int32_t badLabelSample = -1);

/// `samples` chains drawn from `seed` (one type of arity 1, a vertex's
/// child is the word before it): attribute `word` in [0, vocabulary),
/// `next` the following word, -1 at the end; except that the last word of
/// sample `badNextSample` (if any) predicts `vocabulary`, which the model
/// rejects.
GraphBatch makeChainBatch(uint64_t seed, int32_t samples, TreeSizes sizes,
                          int32_t vocabulary, int32_t badNextSample = -1);

} // namespace cavs::test

#endif // CAVS_TEST_DIST_RANDOMBATCHES_H
