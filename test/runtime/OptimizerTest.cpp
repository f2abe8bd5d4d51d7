//===- OptimizerTest.cpp - SGD, Adagrad and Adam against hand computation -===//
//
// Each rule runs three steps on a 3-element vector with changing gradients;
// the expected values were computed by hand (in double precision) from the
// formulas of docs/runtime.md. Also: clipping, sparse (lazy) rows, padding,
// frozen parameters, option validation and model checks.
//
//===----------------------------------------------------------------------===//
#include "ModelFixtures.h"
#include "TestSupport.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <string>

namespace cavs::test {
namespace {

using Rows = std::vector<std::vector<float>>;

/// The gradients of the three steps.
const Rows kGrads = {
    {0.5f, -1.0f, 2.0f}, {-0.25f, 0.5f, 1.0f}, {1.0f, 1.0f, -1.0f}};

/// A model with the single vector parameter "w" = {1, -2, 0.5}.
ModelSpec vectorModel() {
  ModelSpec spec;
  spec.name = "vec";
  spec.params = {vectorParam("w", 3)};
  return spec;
}

/// Runs kGrads through an optimizer with `options` and checks the parameter
/// after every step against `expected`.
void expectSteps(const cavs_optimizer_options &options, const Rows &expected) {
  ParamStore params(vectorModel().desc(), 0);
  assign(params.values(0), {1.0f, -2.0f, 0.5f});
  GradStore grads(params);
  Optimizer optimizer(params, options);
  for (size_t step = 0; step < expected.size(); ++step) {
    assign(grads.values(0), kGrads[step]);
    optimizer.step(params, grads);
    EXPECT_EQ(optimizer.stepCount(), int64_t(step + 1));
    for (size_t i = 0; i < 3; ++i)
      EXPECT_NEAR(params.values(0)[i], expected[step][i],
                  2e-6 * std::max(1.0f, std::fabs(expected[step][i])))
          << "step " << step + 1 << ", element " << i;
  }
}

cavs_optimizer_options options(OptimizerKind kind, double learningRate,
                               double weightDecay = 0) {
  cavs_optimizer_options result = Optimizer::defaults(kind);
  result.learning_rate = learningRate;
  result.weight_decay = weightDecay;
  return result;
}

// Tests plain SGD: p -= lr * g.
TEST(Optimizer, SgdPlain) {
  expectSteps(
      options(OptimizerKind::Sgd, 0.1),
      {{0.95f, -1.9f, 0.3f}, {0.975f, -1.95f, 0.2f}, {0.875f, -2.05f, 0.3f}});
}

// Tests SGD with momentum 0.9 and L2 weight decay 0.1.
TEST(Optimizer, SgdMomentumWeightDecay) {
  cavs_optimizer_options o = options(OptimizerKind::Sgd, 0.1, 0.1);
  o.momentum = 0.9;
  expectSteps(o, {{0.94f, -1.88f, 0.295f},
                  {0.9016f, -1.8032f, 0.00755f},
                  {0.758024f, -1.816048f, -0.1512305f}});
}

// Tests SGD with Nesterov momentum 0.9 and weight decay 0.1.
TEST(Optimizer, SgdNesterov) {
  cavs_optimizer_options o = options(OptimizerKind::Sgd, 0.1, 0.1);
  o.momentum = 0.9;
  o.nesterov = 1;
  expectSteps(o, {{0.886f, -1.772f, 0.1105f},
                  {0.868066f, -1.736132f, -0.2476495f},
                  {0.630906146f, -1.83181229f, -0.284284209f}});
}

// Tests Adagrad (epsilon 1e-10) with L2 weight decay 0.1.
TEST(Optimizer, AdagradWeightDecay) {
  expectSteps(options(OptimizerKind::Adagrad, 0.5, 0.1),
              {{0.5f, -1.5f, 0.0f},
               {0.658113883f, -1.64f, -0.219211816f},
               {0.228120999f, -1.91796363f, -0.0147756119f}});
}

// Tests Adam with bias correction and decoupled weight decay 0.1.
TEST(Optimizer, AdamBiasCorrectionDecoupledDecay) {
  expectSteps(options(OptimizerKind::Adam, 0.1, 0.1),
              {{0.890000002f, -1.88f, 0.395000001f},
               {0.854466299f, -1.8345663f, 0.297832037f},
               {0.780110477f, -1.84349031f, 0.255183193f}});
}

// Tests that a weight that gets no gradient decays to zero, not into
// subnormals (products with those took microcode assists: the SST apps'
// Tree-GRU and TreeLSTM-2Type trained 6-10x slower), for every kind.
TEST(Optimizer, DecayEndsAtZeroNotInSubnormals) {
  for (OptimizerKind kind :
       {OptimizerKind::Sgd, OptimizerKind::Adagrad, OptimizerKind::Adam}) {
    SCOPED_TRACE(int(kind));
    cavs_optimizer_options o = options(kind, 0.5, 1.0);
    if (kind == OptimizerKind::Sgd)
      o.momentum = 0.5;
    ParamStore params(vectorModel().desc(), 0);
    assign(params.values(0), {1e-36f, -1e-36f, 1.0f});
    GradStore grads(params);
    Optimizer optimizer(params, o);
    bool reachedZero = false;
    for (int step = 0; step < 400 && !reachedZero; ++step) {
      optimizer.step(params, grads);
      for (float value : params.values(0))
        ASSERT_NE(std::fpclassify(value), FP_SUBNORMAL) << "step " << step;
      reachedZero = params.values(0)[0] == 0 && params.values(0)[1] == 0;
    }
    EXPECT_TRUE(reachedZero);
  }
}

// Tests Adam's first step from zero moments, lr * g / (|g| + eps) whatever
// the betas: with 1 - beta2 taken in float it was 6.4e-6 too large.
TEST(Optimizer, AdamFirstStepIsTheLearningRate) {
  ParamStore params(vectorModel().desc(), 0);
  GradStore grads(params);
  assign(grads.values(0), {0.5f, -3.0f, 2.0f});
  Optimizer optimizer(params, options(OptimizerKind::Adam, 1.0));
  optimizer.step(params, grads);
  const float expected[] = {-1.0f, 1.0f, -1.0f};
  for (size_t i = 0; i < 3; ++i)
    EXPECT_NEAR(params.values(0)[i], expected[i], 1.2e-7) << "element " << i;
}

// Tests global-norm clipping: gradients of norm 5 scaled to norm 1, across
// two parameters; below the threshold nothing changes.
TEST(Optimizer, ClipsGlobalNorm) {
  ModelSpec spec;
  spec.params = {vectorParam("a", 1), vectorParam("b", 2)};
  ParamStore params(spec.desc(), 0);
  GradStore grads(params);
  assign(grads.values(0), {3.0f});
  assign(grads.values(1), {0.0f, 4.0f});
  cavs_optimizer_options o = options(OptimizerKind::Sgd, 1.0);
  o.clip_norm = 1.0;
  Optimizer optimizer(params, o);
  optimizer.step(params, grads);
  EXPECT_NEAR(params.values(0)[0], -0.6f, 1e-7);
  EXPECT_NEAR(params.values(1)[1], -0.8f, 1e-7);
  // The gradient store itself is not scaled.
  EXPECT_EQ(grads.values(0)[0], 3.0f);

  o.clip_norm = 10.0;
  Optimizer loose(params, o);
  loose.step(params, grads);
  EXPECT_NEAR(params.values(0)[0], -3.6f, 1e-6);
  EXPECT_NEAR(params.values(1)[1], -4.8f, 1e-6);
}

// Tests that clipping happens before weight decay: the decay term is not
// scaled.
TEST(Optimizer, ClipsBeforeWeightDecay) {
  ModelSpec spec;
  spec.params = {vectorParam("w", 1)};
  ParamStore params(spec.desc(), 0);
  assign(params.values(0), {2.0f});
  GradStore grads(params);
  assign(grads.values(0), {10.0f});
  cavs_optimizer_options o = options(OptimizerKind::Sgd, 0.1, 0.5);
  o.clip_norm = 1.0;
  Optimizer optimizer(params, o);
  optimizer.step(params, grads);
  // d = 10 * (1 / 10) + 0.5 * 2 = 2; p = 2 - 0.1 * 2.
  EXPECT_NEAR(params.values(0)[0], 1.8f, 1e-6);
}

/// A model with a tracked 4 x 2 embedding table "E" and a dense vector "b".
ModelSpec sparseModel() {
  ModelSpec spec;
  spec.name = "sparse";
  spec.params = {matrixParam("E", 4, 2, CAVS_INIT_ONES),
                 vectorParam("b", 2, CAVS_INIT_ONES)};
  return spec;
}

// Tests lazy sparse updates for each optimizer kind: rows never touched keep
// their values exactly (no weight decay, no momentum), touched rows move,
// and state of a row is not decayed while the row is untouched.
TEST(Optimizer, SparseRowsAreLazy) {
  for (OptimizerKind kind :
       {OptimizerKind::Sgd, OptimizerKind::Adagrad, OptimizerKind::Adam}) {
    SCOPED_TRACE(static_cast<int>(kind));
    ParamStore params(sparseModel().desc(), 0);
    GradStore grads(params);
    grads.trackRows(0);
    cavs_optimizer_options o = options(kind, 0.1, 0.5);
    o.momentum = kind == OptimizerKind::Sgd ? 0.9 : 0.0;
    Optimizer optimizer(params, o);

    // Step 1 touches row 1 only.
    grads.markRows(0, {1});
    assign(grads.values(0), {0, 0, 1, -1, 0, 0, 0, 0});
    assign(grads.values(1), {0.5f, 0.5f});
    optimizer.step(params, grads);
    std::vector<float> afterFirst = toVector(params.values(0));
    for (int32_t i : {0, 1, 4, 5, 6, 7})
      EXPECT_EQ(afterFirst[i], 1.0f) << "untouched element " << i;
    EXPECT_NE(afterFirst[2], 1.0f);
    EXPECT_NE(afterFirst[3], 1.0f);
    EXPECT_NE(params.values(1)[0], 1.0f) << "dense parameters still move";

    // Step 2 touches row 3 only: row 1 keeps its value although SGD has
    // velocity and Adam has moments for it (lazy semantics).
    grads.zero();
    grads.markRows(0, {3});
    Span<float> g = grads.values(0);
    g[6] = 2.0f;
    g[7] = 2.0f;
    optimizer.step(params, grads);
    std::vector<float> afterSecond = toVector(params.values(0));
    EXPECT_EQ(afterSecond[2], afterFirst[2]);
    EXPECT_EQ(afterSecond[3], afterFirst[3]);
    EXPECT_EQ(afterSecond[0], 1.0f);
    EXPECT_NE(afterSecond[6], 1.0f);
  }
}

// Tests that a sparse update of a touched row equals the dense update of
// the same row (same rule, just fewer rows).
TEST(Optimizer, SparseRowMatchesDense) {
  ParamStore sparse(sparseModel().desc(), 0), dense(sparseModel().desc(), 0);
  GradStore sparseGrads(sparse), denseGrads(dense);
  sparseGrads.trackRows(0);
  cavs_optimizer_options o = options(OptimizerKind::Adam, 0.01, 0.1);
  o.clip_norm = 0.5;
  Optimizer sparseOptimizer(sparse, o), denseOptimizer(dense, o);
  for (int step = 0; step < 3; ++step) {
    sparseGrads.zero();
    denseGrads.zero();
    sparseGrads.markRows(0, {2});
    for (GradStore *grads : {&sparseGrads, &denseGrads}) {
      grads->values(0)[4] = 0.3f * float(step + 1);
      grads->values(0)[5] = -0.7f;
      grads->values(1)[0] = 0.2f;
    }
    sparseOptimizer.step(sparse, sparseGrads);
    denseOptimizer.step(dense, denseGrads);
  }
  EXPECT_FLOAT_EQ(sparse.values(0)[4], dense.values(0)[4]);
  EXPECT_FLOAT_EQ(sparse.values(0)[5], dense.values(0)[5]);
  EXPECT_FLOAT_EQ(sparse.values(1)[0], dense.values(1)[0]);
  // Dense updates decay the untouched rows; sparse ones leave them.
  EXPECT_EQ(sparse.values(0)[0], 1.0f);
  EXPECT_LT(dense.values(0)[0], 1.0f);
}

// Tests that padding stays zero through updates with weight decay.
TEST(Optimizer, PaddingStaysZero) {
  for (OptimizerKind kind :
       {OptimizerKind::Sgd, OptimizerKind::Adagrad, OptimizerKind::Adam}) {
    ParamStore params(tinyModel().desc(), 5);
    GradStore grads(params);
    for (int32_t i = 0; i < params.numParams(); ++i)
      for (float &g : grads.values(i))
        g = 0.5f;
    Optimizer optimizer(params, options(kind, 0.1, 0.1));
    optimizer.step(params, grads);
    Span<float> data = params.data();
    for (int64_t i : {40, 47, 80 + 5, 95})
      EXPECT_EQ(data[i], 0.0f) << "padding element " << i;
  }
}

/// Large enough that zeroing and every rule split over 2 or 3 threads at
/// the default threshold (16384 floats touched): a tracked table "E" with
/// half its rows touched, dense "W" and "b" and a frozen "F" between them.
ModelSpec splitModel() {
  ModelSpec spec;
  spec.name = "split";
  spec.params = {matrixParam("E", 300, 64, CAVS_INIT_UNIFORM, -0.5, 0.5),
                 matrixParam("W", 130, 129, CAVS_INIT_XAVIER),
                 matrixParam("F", 20, 20, CAVS_INIT_ONES),
                 vectorParam("b", 37, CAVS_INIT_CONSTANT, 0.25)};
  return spec;
}

/// The parameters after three clipped steps of `o` on 1 thread of the
/// CPU work (cavs_set_num_threads), or `threads`.
std::vector<float> stepsOnThreads(const cavs_optimizer_options &o,
                                  int32_t threads) {
  EXPECT_EQ(cavs_set_num_threads(threads), CAVS_OK);
  ParamStore params(splitModel().desc(), 7);
  params.setFrozen(2);
  GradStore grads(params);
  grads.trackRows(0);
  Optimizer optimizer(params, o);
  for (int step = 0; step < 3; ++step) {
    std::vector<int32_t> rows;
    for (int32_t row = step; row < 300; row += 2)
      rows.push_back((row * 7) % 300); // scattered, as a batch's words
    grads.markRows(0, rows);
    Span<float> g = grads.data();
    for (int32_t row : rows)
      for (int64_t i = 0; i < 64; ++i)
        g[row * 64 + i] = std::sin(0.37f * float(row * 64 + i + step));
    for (int32_t p = 1; p < params.numParams(); ++p) {
      Span<float> values = grads.values(p);
      for (size_t i = 0; i < values.size(); ++i)
        values[i] = std::cos(0.11f * float(i) + float(p + step));
    }
    optimizer.step(params, grads);
    grads.zero();
    for (float value : grads.data())
      EXPECT_EQ(value, 0.0f) << "a gradient left after zero()";
  }
  return toVector(params.data());
}

// Tests that zeroing and updates split over threads (params/RangeSlices.h)
// compute what one thread computes, bit for bit, for each kind: clipped,
// with weight decay, momentum, touched rows and a frozen parameter.
TEST(Optimizer, SameOnAnyThreadCount) {
  const int32_t original = cavs_num_threads();
  for (OptimizerKind kind :
       {OptimizerKind::Sgd, OptimizerKind::Adagrad, OptimizerKind::Adam}) {
    SCOPED_TRACE(static_cast<int>(kind));
    cavs_optimizer_options o = options(kind, 0.05, 0.01);
    o.momentum = kind == OptimizerKind::Sgd ? 0.9 : 0.0;
    o.nesterov = kind == OptimizerKind::Sgd;
    o.clip_norm = 10.0;
    const std::vector<float> oneThread = stepsOnThreads(o, 1);
    for (int32_t threads : {2, 3}) {
      SCOPED_TRACE(std::to_string(threads) + " threads");
      const std::vector<float> split = stepsOnThreads(o, threads);
      ASSERT_EQ(split.size(), oneThread.size());
      EXPECT_EQ(std::memcmp(split.data(), oneThread.data(),
                            split.size() * sizeof(float)),
                0);
    }
  }
  ASSERT_EQ(cavs_set_num_threads(original), CAVS_OK);
}

// Tests option defaults and accessors.
TEST(Optimizer, DefaultsAndAccessors) {
  const cavs_optimizer_options adam = Optimizer::defaults(OptimizerKind::Adam);
  EXPECT_EQ(adam.kind, CAVS_OPTIMIZER_ADAM);
  EXPECT_EQ(adam.learning_rate, 1e-3);
  EXPECT_EQ(adam.beta1, 0.9);
  EXPECT_EQ(adam.beta2, 0.999);
  EXPECT_EQ(adam.epsilon, 1e-8);
  EXPECT_EQ(adam.weight_decay, 0.0);
  EXPECT_EQ(adam.clip_norm, 0.0);
  const cavs_optimizer_options adagrad =
      Optimizer::defaults(OptimizerKind::Adagrad);
  EXPECT_EQ(adagrad.learning_rate, 1e-2);
  EXPECT_EQ(adagrad.epsilon, 1e-10);
  const cavs_optimizer_options sgd = Optimizer::defaults(OptimizerKind::Sgd);
  EXPECT_EQ(sgd.learning_rate, 1e-2);
  EXPECT_EQ(sgd.momentum, 0.0);
  EXPECT_EQ(sgd.nesterov, 0);

  ParamStore params(vectorModel().desc(), 0);
  Optimizer optimizer(params, adam);
  EXPECT_EQ(optimizer.stepCount(), 0);
  optimizer.setLearningRate(0.5);
  EXPECT_EQ(optimizer.options().learning_rate, 0.5);
  expectError([&] { optimizer.setLearningRate(-1); },
              CAVS_ERROR_INVALID_ARGUMENT,
              {"the learning rate must be finite and >= 0, not -1"});
  EXPECT_EQ(optimizer.options().learning_rate, 0.5);
  EXPECT_EQ(cavs_optimizer_options_of(nullptr), nullptr);
  EXPECT_EQ(cavs_optimizer_step_count(nullptr), 0);
  cavs_optimizer_destroy(nullptr);
}

// Tests every option error, each with its message.
TEST(Optimizer, OptionErrors) {
  struct Case {
    OptimizerKind kind;
    std::function<void(cavs_optimizer_options &)> change;
    std::string message;
  };
  const Case cases[] = {
      {OptimizerKind::Sgd, [](auto &o) { o.learning_rate = NAN; },
       "the learning rate must be finite and >= 0, not nan"},
      {OptimizerKind::Adam, [](auto &o) { o.weight_decay = -0.1; },
       "Adam: the weight decay must be finite and >= 0, not -0.1"},
      {OptimizerKind::Adagrad, [](auto &o) { o.clip_norm = HUGE_VAL; },
       "Adagrad: the clipping norm must be finite and >= 0 (0 disables "
       "clipping), not inf"},
      {OptimizerKind::Sgd, [](auto &o) { o.momentum = 1.0; },
       "SGD: the momentum must be in [0, 1), not 1"},
      {OptimizerKind::Sgd, [](auto &o) { o.nesterov = 1; },
       "SGD: Nesterov momentum needs a momentum > 0"},
      {OptimizerKind::Sgd,
       [](auto &o) {
         o.momentum = 0.5;
         o.nesterov = 2;
       },
       "SGD: nesterov must be 0 or 1, not 2"},
      {OptimizerKind::Adam, [](auto &o) { o.beta1 = -0.1; },
       "Adam: beta1 must be in [0, 1), not -0.1"},
      {OptimizerKind::Adam, [](auto &o) { o.beta2 = 1.0; },
       "Adam: beta2 must be in [0, 1), not 1"},
      {OptimizerKind::Adagrad, [](auto &o) { o.epsilon = 0; },
       "Adagrad: epsilon must be finite and > 0, not 0"},
      {OptimizerKind::Adam, [](auto &o) { o.epsilon = HUGE_VAL; },
       "Adam: epsilon must be finite and > 0, not inf"},
      {OptimizerKind::Adam, [](auto &o) { o.kind = cavs_optimizer_kind(0); },
       "unknown optimizer kind 0; expected 1 (SGD), 2 (Adagrad) or 3 (Adam)"},
  };
  ParamStore params(vectorModel().desc(), 0);
  for (const Case &c : cases) {
    SCOPED_TRACE(c.message);
    cavs_optimizer_options o = Optimizer::defaults(c.kind);
    c.change(o);
    expectError([&] { Optimizer(params, o); }, CAVS_ERROR_INVALID_ARGUMENT,
                {c.message});
  }
  // Fields another kind uses are ignored.
  cavs_optimizer_options sgd = Optimizer::defaults(OptimizerKind::Sgd);
  sgd.beta1 = 7;
  sgd.epsilon = -1;
  Optimizer ignored(params, sgd);
  cavs_optimizer_options out;
  EXPECT_EQ(cavs_optimizer_options_init(cavs_optimizer_kind(4), &out),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(cavs_last_error_message(),
               "unknown optimizer kind 4; expected 1 (SGD), 2 (Adagrad) or 3 "
               "(Adam)");
}

/// Dense "a", "f", "c" around a tracked table "E" (index 3), all ones.
ModelSpec freezeModel() {
  ModelSpec spec;
  spec.name = "frozen";
  spec.params = {vectorParam("a", 2, CAVS_INIT_ONES),
                 vectorParam("f", 2, CAVS_INIT_ONES),
                 vectorParam("c", 2, CAVS_INIT_ONES),
                 matrixParam("E", 4, 2, CAVS_INIT_ONES)};
  return spec;
}

// Tests freezing for each kind: a frozen dense parameter between two
// others, and a frozen table with touched rows, keep their values through
// steps with weight decay and momentum while their neighbours move.
TEST(Optimizer, FrozenParametersStay) {
  for (OptimizerKind kind :
       {OptimizerKind::Sgd, OptimizerKind::Adagrad, OptimizerKind::Adam}) {
    SCOPED_TRACE(static_cast<int>(kind));
    ParamStore params(freezeModel().desc(), 0);
    GradStore grads(params);
    grads.trackRows(3);
    params.setFrozen(1);
    params.setFrozen(3);
    EXPECT_TRUE(params.frozen(1));
    EXPECT_FALSE(params.frozen(2));
    cavs_optimizer_options o = options(kind, 0.1, 0.5);
    o.momentum = kind == OptimizerKind::Sgd ? 0.9 : 0.0;
    Optimizer optimizer(params, o);
    for (int step = 0; step < 3; ++step) {
      for (int32_t p = 0; p < 3; ++p)
        assign(grads.values(p), {0.5f, -1.0f});
      grads.markRows(3, {0, 2});
      for (float &g : grads.values(3))
        g = 1.0f;
      optimizer.step(params, grads);
      grads.zero();
    }
    EXPECT_EQ(toVector(params.values(1)), (std::vector<float>{1, 1}));
    EXPECT_EQ(toVector(params.values(3)), std::vector<float>(8, 1.0f));
    EXPECT_NE(params.values(0)[0], 1.0f);
    EXPECT_NE(params.values(2)[1], 1.0f);
  }
}

// Tests that a frozen parameter's optimizer state does not move: unfrozen
// after steps, its first update is that of a fresh SGD momentum state.
TEST(Optimizer, FrozenStateStays) {
  ParamStore params(freezeModel().desc(), 0);
  GradStore grads(params);
  params.setFrozen(1);
  cavs_optimizer_options o = options(OptimizerKind::Sgd, 0.1, 0.5);
  o.momentum = 0.9;
  Optimizer optimizer(params, o);
  for (int step = 0; step < 3; ++step) {
    assign(grads.values(1), {2.0f, 2.0f});
    optimizer.step(params, grads);
  }
  params.setFrozen(1, false);
  optimizer.step(params, grads);
  // v = 0.9 * 0 + (2 + 0.5 * 1); p = 1 - 0.1 * 2.5.
  EXPECT_NEAR(params.values(1)[0], 0.75f, 1e-6);
}

// Tests that frozen gradients do not count towards the clipping norm: a
// huge gradient of a frozen parameter changes nothing else.
TEST(Optimizer, FrozenGradientsAreNotClipped) {
  ParamStore quiet(freezeModel().desc(), 0), loud(freezeModel().desc(), 0);
  GradStore quietGrads(quiet), loudGrads(loud);
  for (ParamStore *params : {&quiet, &loud})
    params->setFrozen(1);
  for (GradStore *grads : {&quietGrads, &loudGrads}) {
    assign(grads->values(0), {3.0f, 0.0f});
    assign(grads->values(2), {0.0f, 4.0f});
  }
  assign(loudGrads.values(1), {1000.0f, 1000.0f});
  cavs_optimizer_options o = options(OptimizerKind::Sgd, 1.0);
  o.clip_norm = 1.0;
  Optimizer(quiet, o).step(quiet, quietGrads);
  Optimizer(loud, o).step(loud, loudGrads);
  EXPECT_NEAR(quiet.values(0)[0], 1.0f - 0.6f, 1e-6);
  EXPECT_EQ(toVector(loud.values(0)), toVector(quiet.values(0)));
  EXPECT_EQ(toVector(loud.values(2)), toVector(quiet.values(2)));
}

// Tests the C ABI of the frozen flags.
TEST(Optimizer, FrozenFlagsFromC) {
  ParamStore params(freezeModel().desc(), 0);
  EXPECT_EQ(cavs_param_store_set_frozen(params.get(), 4, 1),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(cavs_last_error_message(),
               "parameter index 4 is out of range; model 'frozen' has 4 "
               "parameters");
  EXPECT_EQ(cavs_param_store_set_frozen(nullptr, 0, 1),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(cavs_param_store_set_frozen(params.get(), 2, 7), CAVS_OK);
  EXPECT_EQ(cavs_param_store_frozen(params.get(), 2), 1);
  EXPECT_EQ(cavs_param_store_frozen(params.get(), 0), 0);
  EXPECT_EQ(cavs_param_store_frozen(params.get(), -1), 0);
  EXPECT_EQ(cavs_param_store_frozen(nullptr, 0), 0);
}

// Tests that parameters and gradients must belong to the optimizer's model
// and that a failed step changes nothing.
TEST(Optimizer, RejectsOtherModels) {
  ParamStore params(vectorModel().desc(), 0);
  ModelSpec otherSpec = vectorModel();
  otherSpec.name = "other";
  otherSpec.signature = 0x77;
  ParamStore other(otherSpec.desc(), 0);
  GradStore grads(params), otherGrads(other);
  Optimizer optimizer(params, Optimizer::defaults(OptimizerKind::Sgd));
  expectError([&] { optimizer.step(other, grads); },
              CAVS_ERROR_INVALID_ARGUMENT,
              {"the parameter store belongs to model 'other' (signature "
               "0x0000000000000077), not to model 'vec' (signature "
               "0x5eed5eed0000cafe)"});
  expectError([&] { optimizer.step(params, otherGrads); },
              CAVS_ERROR_INVALID_ARGUMENT,
              {"the gradient store belongs to model 'other'"});
  // Another build of the model (same name and signature, another layout)
  // is named as such: "belongs to model 'vec', not to model 'vec'" said
  // nothing.
  ModelSpec wider = vectorModel();
  wider.params.push_back(vectorParam("extra", 2));
  ParamStore build(wider.desc(), 0);
  expectError([&] { optimizer.step(build, grads); },
              CAVS_ERROR_INVALID_ARGUMENT,
              {"the parameter store belongs to another build of model 'vec' "
               "(signature 0x5eed5eed0000cafe) whose parameters are laid out "
               "differently"});
  EXPECT_EQ(optimizer.stepCount(), 0);
  // Another instance of the same model is fine.
  ParamStore twin(vectorModel().desc(), 9);
  optimizer.step(twin, grads);
  EXPECT_EQ(optimizer.stepCount(), 1);
  EXPECT_EQ(cavs_optimizer_step(nullptr, params.get(), grads.get()),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(cavs_last_error_message(), "optimizer must not be NULL");
}

} // namespace
} // namespace cavs::test
