//===- ExampleModelsTest.cpp - autodiff of the example models vs. FD ------===//
//
// Each example model, shrunk with -D overrides, goes through the frontend
// and the cavs-optimize pipeline (all optimizations on, and all off); the
// reference evaluator's ∂F must match five-point finite differences of F on
// random chains, trees and DAGs to 1e-6 relative, for every parameter and
// f32 input, with random push gradients.
//
//===----------------------------------------------------------------------===//

#include "compiler/Evaluator/GradientCheck.h"
#include "compiler/Evaluator/RandomGraph.h"
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

#include <iostream>

using namespace cavs;

namespace {
struct ModelCase {
  const char *file;
  std::vector<std::string> defines;
  std::vector<GraphShape> shapes;
};

struct Case {
  ModelCase model;
  bool optimized;
};

std::string caseName(const testing::TestParamInfo<Case> &info) {
  std::string name = info.param.model.file;
  name = name.substr(0, name.find('.'));
  return name + (info.param.optimized ? "_optimized" : "_unoptimized");
}

class ExampleModelGradients : public testing::TestWithParam<Case> {
protected:
  void SetUp() override {
    context.loadDialect<CavsDialect>();
    std::string path =
        std::string(CAVS_EXAMPLES_DIR) + "/" + GetParam().model.file;
    auto buffer = llvm::MemoryBuffer::getFile(path);
    ASSERT_TRUE(buffer) << "cannot read " << path;
    sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
    checked = runFrontend(sourceMgr, GetParam().model.defines);
    ASSERT_TRUE(checked) << path << " does not compile";
    module = generateMLIR(context, sourceMgr, checked->program);
    ASSERT_TRUE(module);

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
  std::unique_ptr<CheckedModule> checked;
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

const std::vector<ModelCase> kModels = {
    {"treelstm.cavs",
     {"V=20", "E=6", "H=5", "C=3"},
     {GraphShape::Tree, GraphShape::Dag}},
    {"treefc.cavs", {"V=20", "H=6", "C=3"}, {GraphShape::Tree}},
    {"chainlstm.cavs", {"V=20", "E=6", "H=5"}, {GraphShape::Chain}},
    {"treegru.cavs", {"V=20", "E=6", "H=5", "C=3"}, {GraphShape::Tree}},
    {"twotype.cavs", {"V=20", "E=6", "H=5", "C=3"}, {GraphShape::Tree}},
    {"dag.cavs", {"F=4", "H=5", "C=3"}, {GraphShape::Dag}},
};

std::vector<Case> allCases() {
  std::vector<Case> cases;
  for (const ModelCase &model : kModels)
    for (bool optimized : {true, false})
      cases.push_back({model, optimized});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Examples, ExampleModelGradients,
                         testing::ValuesIn(allCases()), caseName);
} // namespace
