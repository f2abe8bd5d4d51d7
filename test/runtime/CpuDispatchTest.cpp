//===- CpuDispatchTest.cpp - the dispatched loops round like the baseline -===//
//
// Column sums, rows added into indexed rows and the optimizers' updates are
// also compiled for AVX2 and AVX-512, and the loader runs the copy for this
// CPU (runtime/src/support/CpuDispatch.h). Whichever copy runs here must give
// the bits of plain float loops in the same order, as the baseline copy
// does: no fused multiply-add, no reordered sum. This file is compiled
// without contraction too, so its reference loops round like the baseline.
//
//===----------------------------------------------------------------------===//
#include "ModelFixtures.h"
#include "TestSupport.h"

#include "cavs/ops.h"

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace cavs::test {
namespace {

std::vector<float> randomValues(std::mt19937 &rng, size_t count) {
  std::uniform_real_distribution<float> value(-2.0f, 2.0f);
  std::vector<float> values(count);
  for (float &v : values)
    v = value(rng);
  return values;
}

void expectSameBits(const std::vector<float> &actual,
                    const std::vector<float> &expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i)
    ASSERT_EQ(std::memcmp(&actual[i], &expected[i], sizeof(float)), 0)
        << "element " << i << ": " << actual[i] << " != " << expected[i];
}

// Row counts around the four-row sweeps of the column sum, and a width
// that is no multiple of any vector.
TEST(CpuDispatch, ColumnSumAddsRowsInOrder) {
  std::mt19937 rng(3);
  const int64_t width = 45, ld = 51;
  for (int64_t rows : {0, 1, 3, 4, 5, 8, 37}) {
    SCOPED_TRACE(rows);
    const std::vector<float> src = randomValues(rng, size_t(rows * ld));
    std::vector<float> dst = randomValues(rng, width), expected = dst;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < width; ++c)
        expected[c] += src[r * ld + c];
    cavs_op_column_sum(rows, width, src.data(), ld, dst.data());
    expectSameBits(dst, expected);
  }
}

// Children repeat (a DAG) and are absent (-1): each row of the state
// gradient adds its contributions in row order.
TEST(CpuDispatch, ChildGradAddsRowsInOrder) {
  std::mt19937 rng(4);
  const int64_t rows = 29, width = 37, ld = 40, arity = 2, stateRows = 7;
  std::uniform_int_distribution<int32_t> child(-1, int32_t(stateRows - 1));
  std::vector<int32_t> children(rows * arity);
  for (int32_t &c : children)
    c = child(rng);
  const std::vector<float> src = randomValues(rng, size_t(rows * ld));
  std::vector<float> grad = randomValues(rng, size_t(stateRows * width));
  std::vector<float> expected = grad;
  for (int64_t r = 0; r < rows; ++r)
    if (int32_t c = children[r * arity + 1]; c >= 0)
      for (int64_t i = 0; i < width; ++i)
        expected[c * width + i] += src[r * ld + i];
  cavs_op_child_grad(rows, 1, arity, children.data(), src.data(), ld,
                     grad.data(), width);
  expectSameBits(grad, expected);
}

/// Three steps of `kind` on a 37-element vector against `rule`, which
/// updates one element (parameter, gradient, state slots) as the runtime's
/// loop does.
template <typename Rule>
void expectUpdatesLike(OptimizerKind kind, const Rule &rule) {
  std::mt19937 rng(5);
  const int64_t size = 37;
  ModelSpec spec;
  spec.name = "vec";
  spec.params = {vectorParam("w", size)};
  ParamStore params(spec.desc(), 0);
  std::vector<float> expected = randomValues(rng, size);
  assign(params.values(0), expected);
  GradStore grads(params);
  cavs_optimizer_options options = Optimizer::defaults(kind);
  options.learning_rate = 0.05;
  options.weight_decay = 0.01;
  options.momentum = 0.9;
  Optimizer optimizer(params, options);
  std::vector<float> slots(size, 0.0f);
  for (int step = 0; step < 3; ++step) {
    const std::vector<float> g = randomValues(rng, size);
    assign(grads.values(0), g);
    optimizer.step(params, grads);
    for (int64_t i = 0; i < size; ++i)
      rule(expected[i], g[i], slots[i]);
    std::vector<float> actual(params.values(0).begin(),
                              params.values(0).end());
    expectSameBits(actual, expected);
  }
}

TEST(CpuDispatch, AdagradRoundsLikeAPlainLoop) {
  const float lr = 0.05f, decay = 0.01f;
  const float epsilon =
      float(Optimizer::defaults(OptimizerKind::Adagrad).epsilon);
  expectUpdatesLike(OptimizerKind::Adagrad, [&](float &p, float g, float &s) {
    const float d = g + decay * p;
    s += d * d;
    p -= lr * d / (std::sqrt(s) + epsilon);
  });
}

TEST(CpuDispatch, SgdMomentumRoundsLikeAPlainLoop) {
  const float lr = 0.05f, decay = 0.01f, mu = 0.9f;
  expectUpdatesLike(OptimizerKind::Sgd, [&](float &p, float g, float &v) {
    v = mu * v + g + decay * p;
    p -= lr * v;
  });
}

} // namespace
} // namespace cavs::test
