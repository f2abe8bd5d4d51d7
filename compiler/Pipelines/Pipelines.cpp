//===- Pipelines.cpp - the cavs pass pipelines ----------------------------===//
//
// Order matters: matmuls are merged before autodiff (so ∂F inherits one
// GEMM per pack), the IR is cleaned before classification, fusion needs the
// classes, and memory planning sees the final ops.
//
//===----------------------------------------------------------------------===//

#include "compiler/Pipelines/Pipelines.h"

#include "compiler/Transforms/Passes.h"
#include "dialects/CavsDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void cavs::buildOptimizePipeline(OpPassManager &pm,
                                 const OptimizeOptions &options) {
  OpPassManager &model = pm.nest<ModelOp>();
  model.addPass(createCSEPass());
  if (options.mergeMatmuls)
    model.addPass(createCavsMergeMatmuls());
  if (options.autodiff)
    model.addPass(createCavsAutodiff());
  model.addPass(createCanonicalizerPass());
  model.addPass(createCSEPass());
  model.addPass(createCavsClassify({options.lazyBatching}));
  // Without fusion every elementwise op still becomes a (one-op) kernel.
  model.addPass(createCavsFuseElementwise({options.fusion}));
  model.addPass(createCavsPlanMemory());
}

void cavs::registerCavsPipelines() {
  registerCavsPasses();
  PassPipelineRegistration<OptimizeOptions>(
      "cavs-optimize",
      "From frontend cavs IR to backend-ready IR: merge matmuls, autodiff, "
      "canonicalize, classify, fuse, plan memory",
      buildOptimizePipeline);
}

void cavs::registerIRDialects(DialectRegistry &registry) {
  registry.insert<CavsDialect, arith::ArithDialect, func::FuncDialect>();
}
