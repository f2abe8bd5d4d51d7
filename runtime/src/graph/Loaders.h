//===- Loaders.h - text formats that load into graph batches --------------===//
//
// One function per input format (see cavs/loaders.h for the formats and
// docs/runtime.md for examples), plus TreeTypes, the vertex-type convention
// shared by the tree and chain loaders.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_GRAPH_LOADERS_H
#define CAVS_RUNTIME_GRAPH_LOADERS_H

#include "cavs/loaders.h"
#include "graph/GraphBatch.h"
#include "graph/Vocab.h"

namespace cavs::runtime {

/// The vertex types a tree or chain loader emits under a cavs_tree_typing.
class TreeTypes {
public:
  /// Checks `typing`; `arity` is the number of child slots of inner vertices.
  static Status create(cavs_tree_typing typing, int32_t arity, TreeTypes &out) {
    if (typing != CAVS_TREE_ONE_TYPE && typing != CAVS_TREE_LEAF_TYPE)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT, "unknown tree typing {}",
                       static_cast<int>(typing));
    out.leafType_ = typing == CAVS_TREE_LEAF_TYPE;
    out.arity_ = arity;
    return Status();
  }
  /// The arity of each type, for GraphBuilder::create.
  std::vector<int32_t> arities() const {
    return leafType_ ? std::vector<int32_t>{0, arity_}
                     : std::vector<int32_t>{arity_};
  }
  /// The type of a vertex with or without children.
  int32_t typeOf(bool hasChildren) const {
    return leafType_ && hasChildren ? 1 : 0;
  }

private:
  bool leafType_ = false;
  int32_t arity_ = 0;
};

/// Binarized PTB-bracket trees, SST style; attributes `word` and `label`.
Status loadSstTrees(const std::string &path, WordMapper &words,
                    cavs_tree_typing typing, GraphBatch &out);

/// Tree-LSTM parent arrays; `arity` 0 means the largest child count.
Status loadParentArrays(const std::string &path, int32_t arity,
                        cavs_tree_typing typing, GraphBatch &out);

/// One chain per line of words; attribute `word`.
Status loadSentenceChains(const std::string &path, WordMapper &words,
                          cavs_tree_typing typing, GraphBatch &out);

/// `numSamples` chains of the given lengths.
Status makeChains(int32_t numSamples, const int32_t *lengths,
                  cavs_tree_typing typing, GraphBatch &out);

/// The cavs edge-list format.
Status loadEdgeList(const std::string &path, GraphBatch &out);

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_GRAPH_LOADERS_H
