//===- Accuracy.h - classification accuracy of a pushed state ---*- C++ -*-===//
//
// The classifier models (treelstm, treegru, treelstm2type, treefc) push each
// vertex's hidden state and end in the same softmax layer, W_o h + b_o
// (parameters "W_o" [C, H] and "b_o" [C]); the loss is computed inside the
// model, the prediction is not. The app applies that layer to the pushed
// states after a forward pass and compares the argmax with the `label`
// attribute: at the roots (sentence-level accuracy, as reported for SST)
// and over every labelled vertex.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_ACCURACY_H
#define CAVS_EXAMPLES_ACCURACY_H

#include "cavs/runtime.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cavs_examples {

struct Accuracy {
  int64_t correct = 0;
  int64_t total = 0;
  double percent() const {
    return total ? 100.0 * double(correct) / double(total) : 0;
  }
};

/// A copy of the softmax layer, W_o and b_o. The distributed trainer runs
/// forward, backward and the update in one call, so an app that counts
/// training predictions copies the layer before each step: it then
/// classifies with the parameters of the forward pass, as one process does.
struct SoftmaxCopy {
  std::vector<float> weights, bias;
};

/// The model's current W_o and b_o.
SoftmaxCopy copySoftmax(cavs::Model &model);

/// Adds the predictions of the last forward pass over `batch` (hidden
/// states pushed as `output`) to `roots` (labelled roots) and `all` (every
/// labelled vertex); either may be null. Classifies with `copy` when
/// given, else with the model's W_o and b_o.
void countPredictions(cavs::Model &model, const cavs::GraphBatch &batch,
                      const std::string &output, Accuracy *roots,
                      Accuracy *all, const SoftmaxCopy *copy = nullptr);

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_ACCURACY_H
