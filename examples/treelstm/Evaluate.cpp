//===- Evaluate.cpp - fine-grained root accuracy --------------------------===//
#include "Evaluate.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

namespace treelstm {

void countRoots(cavs::Model &model, const cavs::GraphBatch &batch,
                Accuracy &accuracy) {
  const int64_t hidden = model.outputWidth("h_new");
  cavs::Span<const float> h = model.output("h_new");
  cavs::Span<float> weights = model.param("W_o");
  cavs::Span<float> bias = model.param("b_o");
  const int64_t classes = int64_t(bias.size());
  if (hidden <= 0 || int64_t(weights.size()) != classes * hidden)
    throw cavs::Error(CAVS_ERROR_INVALID_ARGUMENT,
                      "W_o has " + std::to_string(weights.size()) +
                          " values; expected " + std::to_string(classes) +
                          " x " + std::to_string(hidden) +
                          " (classes x width of h_new)");
  cavs::Span<const int32_t> labels = batch.attribute("label");
  std::vector<double> logits(static_cast<size_t>(classes));
  for (int32_t root : batch.roots()) {
    const float *state = h.data() + int64_t(root) * hidden;
    for (int64_t c = 0; c < classes; ++c) {
      const float *row = weights.data() + c * hidden;
      double sum = bias[size_t(c)];
      for (int64_t j = 0; j < hidden; ++j)
        sum += double(row[j]) * double(state[j]);
      logits[size_t(c)] = sum;
    }
    const int64_t predicted =
        std::max_element(logits.begin(), logits.end()) - logits.begin();
    accuracy.correct += predicted == labels[size_t(root)];
    ++accuracy.total;
  }
}

Accuracy evaluate(cavs::Model &model, const TreeSet &set, int32_t batchSize) {
  Accuracy accuracy;
  std::vector<int32_t> ids(size_t(set.size()));
  std::iota(ids.begin(), ids.end(), 0);
  for (int32_t first = 0; first < set.size(); first += batchSize) {
    const int32_t count = std::min(batchSize, set.size() - first);
    cavs::GraphBatch batch = set.batch(ids.data() + first, count);
    accuracy.loss += model.infer(batch);
    countRoots(model, batch, accuracy);
  }
  return accuracy;
}

} // namespace treelstm
