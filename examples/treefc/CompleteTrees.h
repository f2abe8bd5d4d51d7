//===- CompleteTrees.h - labelled complete binary trees ---------*- C++ -*-===//
//
// The TF Fold / Cavs Tree-FC benchmark runs on complete binary trees of 256
// leaves (511 vertices). To make the trees something to learn, not only to
// time, every word of the vocabulary gets a hidden polarity in -2..2 (60%
// neutral) and every vertex the label 2 + the summed polarity of the leaves
// below it, clamped to 0..4 (as the synthetic SST sample): leaves and low
// vertices have fine-grained labels, high ones mostly the sign of the sum.
// Words are seeded and drawn in the order of the trees, so a set of trees
// depends only on the seed.
//
//===----------------------------------------------------------------------===//
#ifndef TREEFC_COMPLETETREES_H
#define TREEFC_COMPLETETREES_H

#include "cavs/sample_set.hpp"

#include <cstdint>

namespace treefc {

struct TreeShape {
  int32_t leaves = 256;
  /// Word ids are in [0, vocabulary).
  int32_t vocabulary = 1000;
};

/// treefc.cavs's vertex types: `leaf` (arity 0) and `node` (arity 2).
inline constexpr int32_t kLeaf = 0, kNode = 1;

/// Generates `train` and then `test` trees of one language (polarities)
/// from `seed`, the test trees from a stream of their own (the same
/// whatever `train` is): leaves of type kLeaf and inner vertices of type
/// kNode, in post-order, attributes `word` (-1 above the leaves) and
/// `label`.
void generateTrees(const TreeShape &shape, uint64_t seed, int32_t train,
                   int32_t test, cavs::SampleSet &trainSet,
                   cavs::SampleSet &testSet);

} // namespace treefc

#endif // TREEFC_COMPLETETREES_H
