//===- ToyReference.cpp - batches and references for the toy models -------===//
//
// Graph generators for the executor tests and a direct evaluation of each
// toy model: forward in increasing height (children first), backward in
// decreasing height, where each vertex's gradient is complete because all
// its parents are higher.
//
//===----------------------------------------------------------------------===//
#include "ToyReference.h"

#include "TestSupport.h"
#include "ToyModels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cavs::test {

namespace {

/// Sample-local children (max arity slots per vertex) of a random tree:
/// each vertex but the root hangs in a free slot of an earlier one.
std::vector<int32_t> randomTree(std::mt19937 &rng, int32_t n, int32_t arity) {
  std::vector<int32_t> children(size_t(n) * arity, CAVS_NO_CHILD);
  std::vector<int32_t> open = {0};
  for (int32_t v = 1; v < n; ++v) {
    const size_t pick =
        std::uniform_int_distribution<size_t>(0, open.size() - 1)(rng);
    const int32_t parent = open[pick];
    std::vector<int32_t> freeSlots;
    for (int32_t k = 0; k < arity; ++k)
      if (children[size_t(parent) * arity + k] == CAVS_NO_CHILD)
        freeSlots.push_back(k);
    const int32_t slot = freeSlots[std::uniform_int_distribution<size_t>(
        0, freeSlots.size() - 1)(rng)];
    children[size_t(parent) * arity + slot] = v;
    if (freeSlots.size() == 1)
      open.erase(open.begin() + pick);
    open.push_back(v);
  }
  return children;
}

/// Children of a random DAG: each slot refers to a later vertex (so no
/// cycle) with probability 0.7, which makes shared and repeated children.
std::vector<int32_t> randomDag(std::mt19937 &rng, int32_t n, int32_t arity) {
  std::vector<int32_t> children(size_t(n) * arity, CAVS_NO_CHILD);
  std::bernoulli_distribution present(0.7);
  for (int32_t v = 0; v + 1 < n; ++v)
    for (int32_t k = 0; k < arity; ++k)
      if (present(rng))
        children[size_t(v) * arity + k] =
            std::uniform_int_distribution<int32_t>(v + 1, n - 1)(rng);
  return children;
}

/// Vertex ids in increasing height.
std::vector<int32_t> heightOrder(const GraphBatch &batch) {
  const std::vector<int32_t> heights = referenceHeights(batch);
  std::vector<int32_t> order(batch.numVertices());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    return heights[a] < heights[b];
  });
  return order;
}

double at(const std::vector<float> &values, size_t i) {
  return values.empty() ? 0.0 : values[i];
}

} // namespace

GraphBatch randomBatch(std::mt19937 &rng, int32_t samples, int32_t maxVertices,
                       const BatchShape &shape) {
  const int32_t arity = shape.arity;
  std::vector<int32_t> arities = {arity};
  if (shape.leafTyping)
    arities = {0, arity};
  GraphBuilder builder(arities);
  if (shape.words)
    builder.addAttribute("word");
  for (int32_t s = 0; s < samples; ++s) {
    const int32_t n =
        std::uniform_int_distribution<int32_t>(1, maxVertices)(rng);
    const std::vector<int32_t> children =
        shape.dag ? randomDag(rng, n, arity) : randomTree(rng, n, arity);
    std::vector<int32_t> types(n, 0);
    if (shape.leafTyping)
      for (int32_t v = 0; v < n; ++v)
        types[v] = std::any_of(children.begin() + size_t(v) * arity,
                               children.begin() + size_t(v + 1) * arity,
                               [](int32_t c) { return c != CAVS_NO_CHILD; });
    std::vector<int32_t> words(n);
    for (int32_t &word : words)
      word = std::uniform_int_distribution<int32_t>(-1, kEmbedRows - 1)(rng);
    if (shape.words)
      builder.addSample(types, children, {words});
    else
      builder.addSample(types, children);
  }
  return builder.finalize();
}

GraphBatch chainBatch(const std::vector<int32_t> &lengths, int32_t arity) {
  GraphBuilder builder({arity});
  for (int32_t n : lengths) {
    std::vector<int32_t> children(size_t(n) * arity, CAVS_NO_CHILD);
    for (int32_t v = 1; v < n; ++v)
      children[size_t(v) * arity] = v - 1;
    builder.addSample(std::vector<int32_t>(n, 0), children);
  }
  return builder.finalize();
}

std::vector<float> randomFloats(std::mt19937 &rng, int64_t count, float lo) {
  std::uniform_real_distribution<float> value(lo, 1.0f);
  std::vector<float> values(count);
  for (float &v : values)
    v = value(rng);
  return values;
}

ScalarReference scalarReference(const GraphBatch &batch,
                                const std::vector<float> &x, double w,
                                bool leafBias, double b,
                                const std::vector<float> &dy) {
  const int32_t n = batch.numVertices();
  const std::vector<int32_t> order = heightOrder(batch);
  ScalarReference ref;
  ref.h.assign(n, 0.0);
  ref.dx.assign(n, 0.0);
  for (int32_t v : order) {
    double h = w * x[v];
    if (leafBias && batch.types()[v] == 0)
      h += b;
    for (int32_t child : batch.children(v))
      if (child != CAVS_NO_CHILD)
        h += ref.h[child];
    ref.h[v] = h;
    ref.loss += h;
  }
  std::vector<double> dh(n, 0.0);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const int32_t v = *it;
    dh[v] += 1.0 + at(dy, v);
    for (int32_t child : batch.children(v))
      if (child != CAVS_NO_CHILD)
        dh[child] += dh[v];
    ref.dx[v] = w * dh[v];
    ref.dw += x[v] * dh[v];
    if (leafBias && batch.types()[v] == 0)
      ref.db += dh[v];
  }
  return ref;
}

EmbedReference embedReference(const GraphBatch &batch,
                              const std::vector<float> &embed,
                              const std::vector<float> &dy) {
  const int32_t n = batch.numVertices();
  Span<const int32_t> words = batch.attribute("word");
  const std::vector<int32_t> order = heightOrder(batch);
  EmbedReference ref;
  ref.h.assign(size_t(n) * 2, 0.0);
  ref.dEmbed.assign(size_t(kEmbedRows) * 2, 0.0);
  for (int32_t v : order)
    for (int32_t j = 0; j < 2; ++j) {
      double h = words[v] >= 0 ? embed[size_t(words[v]) * 2 + j] : 0.0;
      for (int32_t child : batch.children(v))
        if (child != CAVS_NO_CHILD)
          h += ref.h[size_t(child) * 2 + j];
      ref.h[size_t(v) * 2 + j] = h;
      ref.loss += h;
    }
  std::vector<double> dh(size_t(n) * 2, 0.0);
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    for (int32_t j = 0; j < 2; ++j) {
      const size_t i = size_t(*it) * 2 + j;
      dh[i] += 1.0 + at(dy, i);
      for (int32_t child : batch.children(*it))
        if (child != CAVS_NO_CHILD)
          dh[size_t(child) * 2 + j] += dh[i];
      if (words[*it] >= 0)
        ref.dEmbed[size_t(words[*it]) * 2 + j] += dh[i];
    }
  return ref;
}

void expectClose(double actual, double expected, const char *what) {
  EXPECT_NEAR(actual, expected, 1e-5 * std::max(1.0, std::abs(expected)))
      << what;
}

void expectClose(Span<const float> actual, const std::vector<double> &expected,
                 const char *what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i],
                1e-5 * std::max(1.0, std::abs(expected[i])))
        << what << "[" << i << "]";
}

} // namespace cavs::test
