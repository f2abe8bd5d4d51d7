//===- ToyReference.h - batches and reference results for the toy models --===//
//
// Random batches (trees, DAGs with shared children, chains) and the results
// of the toy models of ToyModels.h computed directly over the graph in
// double, by a vertex order of increasing height, so they share nothing
// with the scheduler or the executor.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_TEST_RUNTIME_TOYREFERENCE_H
#define CAVS_TEST_RUNTIME_TOYREFERENCE_H

#include "cavs/runtime.hpp"

#include <random>
#include <vector>

namespace cavs::test {

/// What randomBatch generates.
struct BatchShape {
  int32_t arity = 2;
  /// Vertices may have several parents and repeat a child; else trees.
  bool dag = false;
  /// Type 0 (arity 0) for vertices without children, type 1 for the others;
  /// else one type.
  bool leafTyping = false;
  /// An attribute "word" with ids in [-1, kEmbedRows).
  bool words = false;
};

/// `samples` random graphs of 1 to `maxVertices` vertices each.
GraphBatch randomBatch(std::mt19937 &rng, int32_t samples, int32_t maxVertices,
                       const BatchShape &shape);

/// Chains of the given lengths, one type of arity `arity` whose slot 0 holds
/// the previous vertex (so equal lengths give child views).
GraphBatch chainBatch(const std::vector<int32_t> &lengths, int32_t arity);

/// `count` random floats in [lo, 1).
std::vector<float> randomFloats(std::mt19937 &rng, int64_t count,
                                float lo = -1.0f);

/// sumtree and leafsum: h = w·x (+ b on type-0 vertices when leafBias) + Σ
/// children's h; loss Σ h. The gradients are those of Σ h + Σ dy·h, as
/// the backward pass computes them for output gradients dy (empty: zero).
struct ScalarReference {
  std::vector<double> h;
  double loss = 0;
  std::vector<double> dx;
  double dw = 0;
  double db = 0;
};
ScalarReference scalarReference(const GraphBatch &batch,
                                const std::vector<float> &x, double w,
                                bool leafBias, double b,
                                const std::vector<float> &dy);

/// embedchain: h = embed[word] + child's h (2 floats); loss Σ h, gradients
/// of Σ h + Σ dy·h.
struct EmbedReference {
  std::vector<double> h;
  double loss = 0;
  /// The gradient of the table ([kEmbedRows, 2]).
  std::vector<double> dEmbed;
};
EmbedReference embedReference(const GraphBatch &batch,
                              const std::vector<float> &embed,
                              const std::vector<float> &dy);

/// Expects actual[i] ≈ expected[i] (relative tolerance 1e-5).
void expectClose(Span<const float> actual, const std::vector<double> &expected,
                 const char *what);
inline void expectClose(Span<float> actual, const std::vector<double> &expected,
                        const char *what) {
  expectClose(Span<const float>(actual.data(), actual.size()), expected, what);
}
void expectClose(double actual, double expected, const char *what);

} // namespace cavs::test

#endif // CAVS_TEST_RUNTIME_TOYREFERENCE_H
