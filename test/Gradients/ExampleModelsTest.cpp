//===- ExampleModelsTest.cpp - autodiff of the example models vs. FD ------===//
//
// Each example model, shrunk with -D overrides, goes through the frontend
// and the cavs-optimize pipeline (all optimizations on, and all off); the
// reference evaluator's ∂F must match five-point finite differences of F on
// random chains, trees and DAGs to 1e-6 relative, for every parameter and
// f32 input, with random push gradients. The batched execution order with
// the memory plan must reproduce the vertex-by-vertex results.
//
//===----------------------------------------------------------------------===//

#include "test/lib/Evaluator/GradientCheck.h"
#include "test/lib/Evaluator/RandomGraph.h"
#include "test/support/ExampleModels.h"
#include "test/support/LoadExampleModel.h"
#include "compiler/Frontend/Frontend.h"
#include "compiler/Frontend/MLIRGen.h"
#include "compiler/Pipelines/Pipelines.h"
#include "dialects/CavsDialect.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>

using namespace cavs;

namespace {
struct Case {
  test::ExampleModel model;
  bool optimized;
};

void PrintTo(const Case &value, std::ostream *os) {
  *os << value.model.file << (value.optimized ? " (optimized)" : " (unoptimized)");
}

std::string caseName(const testing::TestParamInfo<Case> &info) {
  return test::getModelStem(info.param.model) +
         (info.param.optimized ? "_optimized" : "_unoptimized");
}

class ExampleModelGradients : public testing::TestWithParam<Case> {
protected:
  void SetUp() override {
    context.loadDialect<CavsDialect>();
    test::loadExampleModel(GetParam().model, context, sourceMgr, checked,
                           module);
    if (HasFatalFailure())
      return;

    OptimizeOptions options;
    options.mergeMatmuls = GetParam().optimized;
    options.lazyBatching = GetParam().optimized;
    options.fusion = GetParam().optimized;
    mlir::PassManager pm(&context);
    buildOptimizePipeline(pm, options);
    ASSERT_TRUE(mlir::succeeded(pm.run(*module)));
  }

  ModelOp model() { return *module->getOps<ModelOp>().begin(); }

  llvm::SourceMgr sourceMgr;
  mlir::MLIRContext context;
  std::unique_ptr<FrontendResult> checked;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

TEST_P(ExampleModelGradients, MatchFiniteDifferences) {
  // Diagnostics from the evaluator would explain a failure; show them.
  mlir::ScopedDiagnosticHandler handler(&context, [](mlir::Diagnostic &diag) {
    ADD_FAILURE() << diag.str();
    return mlir::success();
  });
  for (GraphShape shape : GetParam().model.shapes) {
    for (uint64_t seed : {1, 2}) {
      RandomGraphOptions graphOptions;
      graphOptions.shape = shape;
      graphOptions.numVertices = 7;
      graphOptions.seed = seed;
      mlir::FailureOr<EvalGraph> graph = randomGraph(model(), graphOptions);
      ASSERT_TRUE(mlir::succeeded(graph));
      mlir::FailureOr<GradientCheckReport> report =
          checkGradients(model(), *graph, randomParams(model(), seed));
      ASSERT_TRUE(mlir::succeeded(report));
      std::cout << GetParam().model.file << " shape "
                << static_cast<int>(shape) << " seed " << seed << ": "
                << report->summary() << "\n";
      EXPECT_GT(report->entries.size(), 0u);
      EXPECT_LT(report->maxError, 1e-6)
          << "shape " << static_cast<int>(shape) << ", seed " << seed << ": "
          << report->summary();
    }
  }
}

/// Largest relative difference between two tensors (0 for equal ones).
double relativeDifference(const EvalTensor &a, const EvalTensor &b) {
  double worst = 0;
  for (size_t i = 0; i < a.data.size(); ++i)
    worst = std::max(worst, std::abs(a.data[i] - b.data[i]) /
                                std::max({std::abs(a.data[i]),
                                          std::abs(b.data[i]), 1e-12}));
  return worst;
}

// The batched execution order with every value in its planned slot must
// give the same loss, outputs and gradients as vertex-by-vertex evaluation:
// that checks the batching classes and the memory plan.
TEST_P(ExampleModelGradients, BatchedOrderAndMemoryPlanPreserveResults) {
  mlir::ScopedDiagnosticHandler handler(&context, [](mlir::Diagnostic &diag) {
    ADD_FAILURE() << diag.str();
    return mlir::success();
  });
  for (GraphShape shape : GetParam().model.shapes) {
    RandomGraphOptions graphOptions;
    graphOptions.shape = shape;
    graphOptions.numVertices = 12;
    mlir::FailureOr<EvalGraph> graph = randomGraph(model(), graphOptions);
    ASSERT_TRUE(mlir::succeeded(graph));
    llvm::StringMap<EvalTensor> params = randomParams(model(), 3);
    auto plain = evaluate(model(), *graph, params, {/*runBackward=*/true});
    auto batched = evaluate(model(), *graph, params,
                            {/*runBackward=*/true, /*batchedOrder=*/true});
    ASSERT_TRUE(mlir::succeeded(plain) && mlir::succeeded(batched));
    EXPECT_NEAR(plain->loss, batched->loss, 1e-12 * std::abs(plain->loss));
    for (size_t v = 0; v < graph->vertices.size(); ++v) {
      EXPECT_LE(relativeDifference(plain->states[v], batched->states[v]), 1e-12)
          << "state of vertex " << v;
      for (const auto &push : plain->pushes[v])
        EXPECT_LE(relativeDifference(push.getValue(),
                                     batched->pushes[v].find(push.getKey())
                                         ->getValue()),
                  1e-12)
            << "push " << push.getKey().str() << " of vertex " << v;
    }
    for (const auto &grad : plain->paramGrads)
      EXPECT_LE(relativeDifference(grad.getValue(),
                                   batched->paramGrads.find(grad.getKey())
                                       ->getValue()),
                1e-12)
          << "gradient of @" << grad.getKey().str();
  }
}


std::vector<Case> allCases(const std::vector<test::ExampleModel> &models) {
  std::vector<Case> cases;
  for (const test::ExampleModel &model : models)
    for (bool optimized : {true, false})
      cases.push_back({model, optimized});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Examples, ExampleModelGradients,
                         testing::ValuesIn(allCases(test::exampleModels())),
                         caseName);
INSTANTIATE_TEST_SUITE_P(CornerCases, ExampleModelGradients,
                         testing::ValuesIn(allCases(test::cornerCaseModels())),
                         caseName);
} // namespace
