//===- Evaluate.h - fine-grained root accuracy ------------------*- C++ -*-===//
//
// SST fine-grained accuracy is measured at the root of each sentence: the
// model pushes every vertex's hidden state `h_new`, and the app applies the
// model's softmax layer (W_o h + b_o, parameters "W_o" [C, H] and "b_o" [C])
// to the roots and compares the argmax with the root's `label`.
//
//===----------------------------------------------------------------------===//
#ifndef TREELSTM_EVALUATE_H
#define TREELSTM_EVALUATE_H

#include "TreeSet.h"

#include "cavs/runtime.hpp"

#include <cstdint>

namespace treelstm {

struct Accuracy {
  int64_t correct = 0;
  int64_t total = 0;
  /// Summed loss over every labelled vertex.
  double loss = 0;
  double percent() const { return total ? 100.0 * double(correct) / double(total) : 0; }
};

/// Adds the roots of the last forward pass over `batch` to `accuracy`.
void countRoots(cavs::Model &model, const cavs::GraphBatch &batch,
                Accuracy &accuracy);

/// Runs inference over `set` in batches of `batchSize` trees.
Accuracy evaluate(cavs::Model &model, const TreeSet &set, int32_t batchSize);

} // namespace treelstm

#endif // TREELSTM_EVALUATE_H
