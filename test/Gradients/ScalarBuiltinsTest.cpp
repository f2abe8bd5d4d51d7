//===- ScalarBuiltinsTest.cpp - vector→scalar builtins and losses ---------===//
//
// The builtins that make scalars of vectors (x[i], reduce_sum, reduce_max,
// reduce_mean, dot), concat of scalars, sqrt, softplus, log_softmax and the
// losses mse, bce_with_logits and kl_div, compiled from .cavs source through
// the optimization pipeline and run by the reference evaluator: their values
// and gradients must be PyTorch's formulas (docs/language.md) on chosen
// inputs, ties and zeros included, and an attention model built from them
// must pass the finite-difference check on random graphs.
//
//===----------------------------------------------------------------------===//

#include "compiler/Frontend/Frontend.h"
#include "compiler/Frontend/MLIRGen.h"
#include "compiler/Pipelines/Pipelines.h"
#include "dialects/CavsDialect.h"
#include "test/lib/Evaluator/GradientCheck.h"
#include "test/lib/Evaluator/RandomGraph.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace cavs;

namespace {

/// Compiles .cavs source through the frontend and cavs-optimize.
class ScalarBuiltins : public testing::Test {
protected:
  ScalarBuiltins()
      : handler(&context, [](mlir::Diagnostic &diag) {
          ADD_FAILURE() << diag.str();
          return mlir::success();
        }) {
    context.loadDialect<CavsDialect>();
  }

  ModelOp compile(llvm::StringRef source, bool optimized = true) {
    addSourceBuffer(sourceMgr,
                    llvm::MemoryBuffer::getMemBufferCopy(source, "test.cavs"));
    checked = runFrontend(sourceMgr, {});
    if (!checked) {
      ADD_FAILURE() << "the source does not compile";
      return nullptr;
    }
    module = generateMLIR(context, sourceMgr, checked->model);
    OptimizeOptions options;
    options.mergeMatmuls = optimized;
    options.lazyBatching = optimized;
    options.fusion = optimized;
    mlir::PassManager pm(&context);
    buildOptimizePipeline(pm, options);
    if (mlir::failed(pm.run(*module))) {
      ADD_FAILURE() << "the pipeline failed";
      return nullptr;
    }
    return *module->getOps<ModelOp>().begin();
  }

  /// Runs F and ∂F of function `function` on one vertex with these f32
  /// inputs (and no push gradients).
  EvalResult run(ModelOp model, llvm::StringRef function,
                 llvm::StringMap<EvalTensor> inputs) {
    EvalGraph graph;
    graph.vertices.push_back({function.str(), {}, std::move(inputs), {}, {}});
    mlir::FailureOr<EvalResult> result =
        evaluate(model, graph, {}, EvalOptions{/*runBackward=*/true});
    if (mlir::failed(result)) {
      ADD_FAILURE() << "evaluation failed";
      return {};
    }
    return std::move(*result);
  }

  llvm::SourceMgr sourceMgr;
  mlir::MLIRContext context;
  mlir::ScopedDiagnosticHandler handler;
  std::unique_ptr<FrontendResult> checked;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

EvalTensor vec(std::vector<double> values) {
  int64_t size = values.size();
  return EvalTensor{{size}, std::move(values)};
}

void expectValues(const EvalTensor &actual, llvm::ArrayRef<double> expected,
                  const std::string &what) {
  ASSERT_EQ(actual.data.size(), expected.size()) << what;
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_NEAR(actual.data[i], expected[i],
                1e-12 * std::max(1.0, std::abs(expected[i])))
        << what << " element " << i;
}

double softplus(double x) { return std::log1p(std::exp(x)); }
double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

std::vector<double> logSoftmax(llvm::ArrayRef<double> x) {
  double sum = 0;
  for (double v : x)
    sum += std::exp(v);
  std::vector<double> result;
  for (double v : x)
    result.push_back(v - std::log(sum));
  return result;
}

// Every builtin's value, as a push of a vertex function without losses.
TEST_F(ScalarBuiltins, ValuesAreTheirFormulas) {
  ModelOp model = compile(R"cavs(
model m;
param b : f32[2] = constant(0.25);
vertex v(arity = 0) {
  x = pull f32[4];
  t = pull f32[4];
  s = pull f32[];
  push(e = x[2]);
  push(bias = b[1]);
  push(rs = reduce_sum(x));
  push(rm = reduce_max(x));
  push(mean = reduce_mean(x));
  push(d = dot(x, t));
  push(c = concat(s, x, x[0]));
  push(sp = softplus(x));
  push(ls = log_softmax(x));
  push(cosine = dot(x, t) / sqrt(dot(x, x) * dot(t, t)));
}
)cavs");
  ASSERT_TRUE(model);
  std::vector<double> x = {0.5, -30, 30, 0}, t = {1, 2, -1, 0.5};
  mlir::FailureOr<EvalResult> result = [&] {
    EvalGraph graph;
    graph.vertices.push_back(
        {"v", {}, {{"x", vec(x)}, {"t", vec(t)}, {"s", EvalTensor::scalar(7)}},
         {}, {}});
    llvm::StringMap<EvalTensor> params;
    params["b"] = vec({0.25, 0.75});
    return evaluate(model, graph, params, {});
  }();
  ASSERT_TRUE(mlir::succeeded(result));
  const llvm::StringMap<EvalTensor> &pushes = result->pushes[0];
  expectValues(pushes.lookup("e"), {30}, "x[2]");
  expectValues(pushes.lookup("bias"), {0.75}, "b[1]");
  expectValues(pushes.lookup("rs"), {0.5}, "reduce_sum");
  expectValues(pushes.lookup("rm"), {30}, "reduce_max");
  expectValues(pushes.lookup("mean"), {0.125}, "reduce_mean");
  expectValues(pushes.lookup("d"), {0.5 - 60 - 30 + 0}, "dot");
  expectValues(pushes.lookup("c"), {7, 0.5, -30, 30, 0, 0.5}, "concat");
  expectValues(pushes.lookup("sp"),
               {softplus(0.5), softplus(-30), softplus(30), std::log(2.0)},
               "softplus");
  expectValues(pushes.lookup("ls"), logSoftmax(x), "log_softmax");
  expectValues(pushes.lookup("cosine"),
               {(0.5 - 60 - 30) / std::sqrt((0.25 + 900 + 900) * 6.25)},
               "cosine");
}

// Each loss's value and gradients (with respect to both arguments) are
// PyTorch's: F.mse_loss, F.binary_cross_entropy_with_logits (reduction
// 'mean') and F.kl_div(F.log_softmax(x), t, reduction='sum').
TEST_F(ScalarBuiltins, LossesAndTheirGradientsArePyTorchs) {
  ModelOp model = compile(R"cavs(
model m;
vertex mse_v(arity = 0) { x = pull f32[4]; t = pull f32[4]; loss mse(x, t); }
vertex mse_s(arity = 0) { xs = pull f32[]; ts = pull f32[]; loss mse(xs, ts); }
vertex bce_v(arity = 0) { x = pull f32[4]; t = pull f32[4]; loss bce_with_logits(x, t); }
vertex bce_s(arity = 0) { xs = pull f32[]; ts = pull f32[]; loss bce_with_logits(xs, ts); }
vertex kl(arity = 0) { x = pull f32[4]; t = pull f32[4]; loss kl_div(x, t); }
)cavs");
  ASSERT_TRUE(model);

  {
    std::vector<double> x = {1, -2, 0.5, 3}, t = {0.5, 1, 0.5, 3};
    EvalResult r = run(model, "mse_v", {{"x", vec(x)}, {"t", vec(t)}});
    EXPECT_NEAR(r.loss, (0.25 + 9 + 0 + 0) / 4, 1e-12);
    expectValues(r.pullGrads[0].lookup("x"), {2 * 0.5 / 4, 2 * -3.0 / 4, 0, 0},
                 "d mse / dx");
    expectValues(r.pullGrads[0].lookup("t"), {-2 * 0.5 / 4, 2 * 3.0 / 4, 0, 0},
                 "d mse / dt");
  }
  {
    EvalResult r = run(model, "mse_s",
                       {{"xs", EvalTensor::scalar(1.5)},
                        {"ts", EvalTensor::scalar(-0.5)}});
    EXPECT_NEAR(r.loss, 4, 1e-12);
    expectValues(r.pullGrads[0].lookup("xs"), {4}, "d mse / dx");
    expectValues(r.pullGrads[0].lookup("ts"), {-4}, "d mse / dt");
  }
  {
    // Zero logits (a zero-initialized output layer) and saturated ones.
    std::vector<double> x = {0, 2, -40, 40}, t = {1, 0.25, 1, 0};
    EvalResult r = run(model, "bce_v", {{"x", vec(x)}, {"t", vec(t)}});
    double loss = 0;
    std::vector<double> dx, dt;
    for (size_t i = 0; i < x.size(); ++i) {
      loss += (softplus(x[i]) - x[i] * t[i]) / 4;
      dx.push_back((sigmoid(x[i]) - t[i]) / 4);
      dt.push_back(-x[i] / 4);
    }
    EXPECT_NEAR(r.loss, loss, 1e-12);
    expectValues(r.pullGrads[0].lookup("x"), dx, "d bce / dx");
    expectValues(r.pullGrads[0].lookup("t"), dt, "d bce / dt");
  }
  {
    EvalResult r = run(model, "bce_s",
                       {{"xs", EvalTensor::scalar(0)},
                        {"ts", EvalTensor::scalar(0.25)}});
    EXPECT_NEAR(r.loss, std::log(2.0), 1e-12);
    expectValues(r.pullGrads[0].lookup("xs"), {0.25}, "d bce / dx at 0");
    expectValues(r.pullGrads[0].lookup("ts"), {0}, "d bce / dt at 0");
  }
  {
    // A target with a zero element: 0·log 0 counts as 0. Ties in the
    // logits (their maximum) do not matter.
    std::vector<double> x = {1, 3, 3, -2}, t = {0.5, 0, 0.3, 0.2};
    EvalResult r = run(model, "kl", {{"x", vec(x)}, {"t", vec(t)}});
    std::vector<double> lq = logSoftmax(x);
    double loss = 0;
    std::vector<double> dx;
    for (size_t i = 0; i < x.size(); ++i) {
      if (t[i] > 0)
        loss += t[i] * (std::log(t[i]) - lq[i]);
      dx.push_back(std::exp(lq[i]) * 1.0 - t[i]);
    }
    EXPECT_NEAR(r.loss, loss, 1e-12);
    expectValues(r.pullGrads[0].lookup("x"), dx, "d kl / dx");
    const EvalTensor &dt = r.pullGrads[0].lookup("t");
    for (size_t i : {0, 2, 3})
      EXPECT_NEAR(dt.data[i], std::log(t[i]) + 1 - lq[i], 1e-12)
          << "d kl / dt element " << i;
  }
}

// Gradients of the reductions at their edges: the maximum's is shared by
// tied elements (as PyTorch's max() and amax()), an element's goes to that
// element only, a mean's is 1/n, dot's is the other vector.
TEST_F(ScalarBuiltins, ReductionGradients) {
  ModelOp model = compile(R"cavs(
model m;
vertex max(arity = 0) { x = pull f32[4]; loss reduce_max(x); }
vertex element(arity = 0) { x = pull f32[4]; loss 3 * x[1]; }
vertex mean(arity = 0) { x = pull f32[4]; loss reduce_mean(x) + reduce_sum(x); }
vertex dot(arity = 0) { x = pull f32[4]; t = pull f32[4]; loss dot(x, t); }
vertex pair(arity = 0) { x = pull f32[4]; loss reduce_max(concat(x[3], x[0])); }
vertex root(arity = 0) { x = pull f32[4]; loss sqrt(x[1]); }
)cavs");
  ASSERT_TRUE(model);
  std::vector<double> x = {1, 3, 3, 0}, t = {2, -1, 0.5, 4};
  EvalResult r = run(model, "max", {{"x", vec(x)}});
  EXPECT_EQ(r.loss, 3);
  expectValues(r.pullGrads[0].lookup("x"), {0, 0.5, 0.5, 0}, "max ties");
  r = run(model, "element", {{"x", vec(x)}});
  expectValues(r.pullGrads[0].lookup("x"), {0, 3, 0, 0}, "x[1]");
  r = run(model, "mean", {{"x", vec(x)}});
  expectValues(r.pullGrads[0].lookup("x"), {1.25, 1.25, 1.25, 1.25}, "mean");
  r = run(model, "dot", {{"x", vec(x)}, {"t", vec(t)}});
  expectValues(r.pullGrads[0].lookup("x"), t, "dot / dx");
  expectValues(r.pullGrads[0].lookup("t"), x, "dot / dt");
  r = run(model, "pair", {{"x", vec(x)}});
  expectValues(r.pullGrads[0].lookup("x"), {1, 0, 0, 0}, "max of a concat");
  r = run(model, "root", {{"x", vec(x)}});
  expectValues(r.pullGrads[0].lookup("x"), {0, 0.5 / std::sqrt(3.0), 0, 0},
               "sqrt");
}

// Attention over the children (absent ones read as zeros) and every loss
// and reduction, checked against finite differences on random graphs, with
// and without the optimizations; the batched order with the memory plan
// reproduces the vertex-by-vertex results.
constexpr const char *kAttention = R"cavs(
model attention;
dim H = 4;  dim C = 3;
state f32[H];
param W : f32[H, H] = xavier;   param b : f32[H] = zeros;
param q : f32[H] = uniform(-0.5, 0.5);
param W_o : f32[C, H] = xavier; param b_o : f32[C] = zeros;
vertex leaf(arity = 0) {
  x = pull f32[H];
  target = pull f32[C];
  h = tanh(W @ x + b);
  scatter(h);
  loss bce_with_logits(W_o @ h + b_o, target);
}
vertex node(arity = 3) {
  y = pull f32[];
  dist = pull f32[C];
  for k in 0..arity { c[k] = gather(k); }
  score = dot(q, tanh(W @ c + b));
  alpha = softmax(concat(score));
  for k in 0..arity { weighted[k] = alpha[k] * c[k]; }
  cosine = dot(c[0], c[1]) / sqrt(1 + dot(c[0], c[0]) * dot(c[1], c[1]));
  h = tanh(sum(weighted) + reduce_max(c[0]) - reduce_mean(c[1]) * cosine);
  scatter(h);
  push(alpha);
  push(ls = log_softmax(h));
  logits = W_o @ h + b_o;
  loss kl_div(logits, softplus(dist));
  loss mse(dot(q, h) + b[1], y);
  loss mse(logits, dist) * h[0];
}
)cavs";

class ScalarBuiltinsGradients : public ScalarBuiltins,
                                public testing::WithParamInterface<bool> {};

TEST_P(ScalarBuiltinsGradients, AttentionModelMatchesFiniteDifferences) {
  ModelOp model = compile(kAttention, /*optimized=*/GetParam());
  ASSERT_TRUE(model);
  for (GraphShape shape : {GraphShape::Chain, GraphShape::Tree,
                           GraphShape::Dag}) {
    for (uint64_t seed : {1, 2, 3}) {
      RandomGraphOptions options;
      options.shape = shape;
      options.seed = seed;
      mlir::FailureOr<EvalGraph> graph = randomGraph(model, options);
      ASSERT_TRUE(mlir::succeeded(graph));
      mlir::FailureOr<GradientCheckReport> report =
          checkGradients(model, *graph, randomParams(model, seed));
      ASSERT_TRUE(mlir::succeeded(report));
      EXPECT_GT(report->entries.size(), 0u);
      EXPECT_LT(report->maxError, 1e-6)
          << "shape " << static_cast<int>(shape) << ", seed " << seed << ": "
          << report->summary();

      llvm::StringMap<EvalTensor> params = randomParams(model, seed);
      auto plain = evaluate(model, *graph, params, {/*runBackward=*/true});
      auto batched = evaluate(model, *graph, params,
                              {/*runBackward=*/true, /*batchedOrder=*/true});
      ASSERT_TRUE(mlir::succeeded(plain) && mlir::succeeded(batched));
      EXPECT_NEAR(plain->loss, batched->loss, 1e-12 * std::abs(plain->loss));
      for (const auto &grad : plain->paramGrads) {
        const EvalTensor &other = batched->paramGrads.find(grad.getKey())->second;
        for (size_t i = 0; i < grad.getValue().data.size(); ++i)
          EXPECT_NEAR(grad.getValue().data[i], other.data[i],
                      1e-12 * std::max(1.0, std::abs(other.data[i])))
              << "@" << grad.getKey().str() << "[" << i << "]";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Optimized, ScalarBuiltinsGradients, testing::Bool(),
                         [](const testing::TestParamInfo<bool> &info) {
                           return info.param ? "optimized" : "unoptimized";
                         });

} // namespace
