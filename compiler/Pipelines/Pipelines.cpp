//===- Pipelines.cpp - the cavs pass pipelines ----------------------------===//
//
// Order matters: matmuls are merged before autodiff (so ∂F inherits one
// GEMM per pack), the IR is cleaned before classification, fusion needs the
// classes, and memory planning sees the final ops.
//
//===----------------------------------------------------------------------===//

#include "compiler/Pipelines/Pipelines.h"

#include "compiler/Conversion/Passes.h"
#include "compiler/Transforms/Passes.h"
#include "dialects/CavsDialect.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
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

void cavs::buildLowerToRuntimePipeline(OpPassManager &pm,
                                       const LowerOptions &options) {
  // Kernels are named and numbered in the planned IR's program order, before
  // the phases regroup the ops.
  pm.addPass(createCavsLowerFused({/*symbolPrefix=*/"", options.device,
                                   /*firstKernel=*/0}));
  pm.nest<ModelOp>().addPass(createCavsOutlinePhases());
  pm.addPass(createCavsLowerToRuntime({/*symbolPrefix=*/"", options.device}));
  // The patterns materialize constants and buffer metadata per use.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void cavs::buildLowerToLLVMPipeline(OpPassManager &pm) {
  pm.addPass(createCavsApproximateMath());
  pm.addPass(createConvertSCFToCFPass());
  // Subviews become offset arithmetic (affine, then arith).
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void cavs::registerCavsPipelines() {
  registerCavsPasses();
  registerCavsConversionPasses();
  PassPipelineRegistration<OptimizeOptions>(
      "cavs-optimize",
      "From frontend cavs IR to backend-ready IR: merge matmuls, autodiff, "
      "canonicalize, classify, fuse, plan memory",
      buildOptimizePipeline);
  PassPipelineRegistration<LowerOptions>(
      "cavs-lower-to-llvm",
      "From planned cavs IR to the LLVM dialect: fused kernels, phases, "
      "phase functions calling the runtime, then the standard conversions",
      [](OpPassManager &pm, const LowerOptions &options) {
        buildLowerToRuntimePipeline(pm, options);
        buildLowerToLLVMPipeline(pm);
      });
}

void cavs::registerIRDialects(DialectRegistry &registry) {
  registry.insert<CavsDialect, arith::ArithDialect, cf::ControlFlowDialect,
                  func::FuncDialect, LLVM::LLVMDialect, math::MathDialect,
                  memref::MemRefDialect, scf::SCFDialect>();
}
