//===- FuzzPipeline.cpp - the pipeline under the fuzzers ------------------===//
//
// The pass manager's own verifier is replaced by an instrumentation: it
// would report invalid IR after a pass as an ordinary pipeline failure,
// indistinguishable from a pass refusing its input.
//
//===----------------------------------------------------------------------===//
#include "FuzzPipeline.h"

#include "compiler/Analysis/ModelStats.h"
#include "compiler/Pipelines/Pipelines.h"
#include "dialects/CavsDialect.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {
/// Verifies the IR after every pass that succeeded.
struct VerifyAfterEachPass : public PassInstrumentation {
  void runAfterPass(Pass *pass, Operation *op) override {
    cavs::fuzz::verifyOrDie(
        op, ("pass '" + pass->getArgument() + "' produced invalid IR").str());
  }
};
} // namespace

std::unique_ptr<MLIRContext> cavs::fuzz::makeQuietContext() {
  DialectRegistry registry;
  registerIRDialects(registry);
  auto context =
      std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
  context->loadAllAvailableDialects();
  context->printOpOnDiagnostic(false);
  context->getDiagEngine().registerHandler(
      [](Diagnostic &) { return success(); });
  return context;
}

void cavs::fuzz::verifyOrDie(Operation *op, llvm::StringRef what) {
  // Collect the verifier's message for the report, in place of the quiet
  // handler.
  std::string complaint;
  ScopedDiagnosticHandler capture(op->getContext(), [&](Diagnostic &diag) {
    if (complaint.empty())
      complaint = diag.str();
    return success();
  });
  if (succeeded(verify(op)))
    return;
  llvm::report_fatal_error(llvm::Twine(what) + ": " + complaint);
}

void cavs::fuzz::runOptimizePipeline(ModuleOp module) {
  unsigned ops = 0;
  module.walk([&](Operation *) { ++ops; });
  if (ops > kMaxOptimizedOps)
    return;
  PassManager pm(module.getContext());
  pm.enableVerifier(false);
  pm.addInstrumentation(std::make_unique<VerifyAfterEachPass>());
  buildOptimizePipeline(pm, OptimizeOptions());
  if (failed(pm.run(module)))
    return;
  module.print(llvm::nulls());
  for (auto model : module.getOps<ModelOp>())
    printModelStats(model, llvm::nulls());
}
