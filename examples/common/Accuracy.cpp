//===- Accuracy.cpp - classification accuracy of a pushed state -----------===//
#include "Accuracy.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace cavs_examples {

namespace {
class SoftmaxLayer {
public:
  SoftmaxLayer(cavs::Model &model, const std::string &output,
               cavs::Span<const float> weights, cavs::Span<const float> bias)
      : hidden_(model.outputWidth(output)), states_(model.output(output)),
        weights_(weights), bias_(bias), logits_(bias_.size()) {
    const int64_t classes = int64_t(bias_.size());
    if (hidden_ <= 0 || int64_t(weights_.size()) != classes * hidden_)
      throw cavs::Error(CAVS_ERROR_INVALID_ARGUMENT,
                        "W_o has " + std::to_string(weights_.size()) +
                            " values; expected " + std::to_string(classes) +
                            " x " + std::to_string(hidden_) +
                            " (classes x width of " + output + ")");
  }

  /// The argmax of W_o h + b_o for vertex `v`; -1 (no class, never
  /// right) when a logit is NaN, as all are once a run diverged:
  /// max_element then answered class 0, a plausible accuracy.
  int32_t predict(int32_t v) {
    const float *state = states_.data() + int64_t(v) * hidden_;
    for (size_t c = 0; c < logits_.size(); ++c) {
      const float *row = weights_.data() + int64_t(c) * hidden_;
      double sum = bias_[c];
      for (int64_t j = 0; j < hidden_; ++j)
        sum += double(row[j]) * double(state[j]);
      if (std::isnan(sum))
        return -1;
      logits_[c] = sum;
    }
    return int32_t(std::max_element(logits_.begin(), logits_.end()) -
                   logits_.begin());
  }

private:
  int64_t hidden_;
  cavs::Span<const float> states_;
  cavs::Span<const float> weights_, bias_;
  std::vector<double> logits_;
};
} // namespace

SoftmaxCopy copySoftmax(cavs::Model &model) {
  const cavs::Span<const float> weights = model.paramValues("W_o");
  const cavs::Span<const float> bias = model.paramValues("b_o");
  return {std::vector<float>(weights.begin(), weights.end()),
          std::vector<float>(bias.begin(), bias.end())};
}

void countPredictions(cavs::Model &model, const cavs::GraphBatch &batch,
                      const std::string &output, Accuracy *roots,
                      Accuracy *all, const SoftmaxCopy *copy) {
  const cavs::Span<const float> weights = model.paramValues("W_o");
  const cavs::Span<const float> bias = model.paramValues("b_o");
  SoftmaxLayer layer =
      copy ? SoftmaxLayer(model, output, copy->weights, copy->bias)
           : SoftmaxLayer(model, output, {weights.data(), weights.size()},
                          {bias.data(), bias.size()});
  cavs::Span<const int32_t> labels = batch.attribute("label");
  auto count = [&](int32_t v, Accuracy &accuracy) {
    if (labels[size_t(v)] < 0)
      return;
    accuracy.correct += layer.predict(v) == labels[size_t(v)];
    ++accuracy.total;
  };
  if (roots)
    for (int32_t root : batch.roots())
      count(root, *roots);
  if (all)
    for (int32_t v = 0; v < batch.numVertices(); ++v)
      count(v, *all);
}

} // namespace cavs_examples
