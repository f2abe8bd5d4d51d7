//===- TreeSet.h - SST trees kept per sample for minibatching ---*- C++ -*-===//
//
// The runtime loads a whole SST split into one graph batch. Training needs
// the trees regrouped into shuffled minibatches every epoch, so a TreeSet
// keeps the loaded split as flat per-tree arrays (sample-local children,
// words, labels) and assembles any selection of trees into a new batch with
// the graph builder: linear in the vertices of the selection.
//
//===----------------------------------------------------------------------===//
#ifndef TREELSTM_TREESET_H
#define TREELSTM_TREESET_H

#include "cavs/runtime.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace treelstm {

class TreeSet {
public:
  /// Loads `path` (one binarized SST tree per line); words are mapped
  /// through `vocab` according to `words`. Leaves get type 0 (arity 0),
  /// inner vertices type 1 (arity 2).
  static TreeSet load(const std::string &path, cavs::Vocab &vocab,
                      cavs::WordPolicy words);

  int32_t size() const { return int32_t(offsets_.size()) - 1; }
  int64_t numVertices() const { return offsets_.back(); }
  int32_t numVertices(int32_t tree) const {
    return offsets_[tree + 1] - offsets_[tree];
  }
  /// Keeps only the first `count` trees.
  void truncate(int32_t count);

  /// A batch of the trees `ids`, in that order (sample s is tree ids[s]),
  /// with the attributes `word` and `label`.
  cavs::GraphBatch batch(const int32_t *ids, int32_t count) const;

private:
  std::vector<int32_t> offsets_{0}; // first vertex of each tree, + total
  std::vector<int32_t> types_;      // per vertex: 0 leaf, 1 inner
  std::vector<int32_t> children_;   // 2 per vertex, tree-local or -1
  std::vector<int32_t> words_;
  std::vector<int32_t> labels_;
};

} // namespace treelstm

#endif // TREELSTM_TREESET_H
