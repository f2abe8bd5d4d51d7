//===- Pipelines.h - the cavs pass pipelines --------------------*- C++ -*-===//
//
// The pass pipeline from the frontend's cavs IR to the IR the backends
// compile, with one switch per optimization so the paper's ablations can be
// reproduced. cavsc builds it from its flags; cavs-opt registers it as
// `cavs-optimize`.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_COMPILER_PIPELINES_PIPELINES_H
#define CAVS_COMPILER_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class DialectRegistry;
class OpPassManager;
} // namespace mlir

namespace cavs {

/// Options of the cavs-optimize pipeline. Each optimization can be switched
/// off without changing results, only time and memory.
struct OptimizeOptions : public mlir::PassPipelineOptions<OptimizeOptions> {
  Option<bool> autodiff{*this, "autodiff",
                        llvm::cl::desc("Derive the backward functions"),
                        llvm::cl::init(true)};
  Option<bool> mergeMatmuls{
      *this, "merge-matmuls",
      llvm::cl::desc("Merge matmuls that share their vector"),
      llvm::cl::init(true)};
  Option<bool> lazyBatching{
      *this, "lazy-batching",
      llvm::cl::desc("Batch eager and lazy ops over all vertices"),
      llvm::cl::init(true)};
  Option<bool> fusion{*this, "fusion",
                      llvm::cl::desc("Fuse elementwise ops into kernels"),
                      llvm::cl::init(true)};
};

/// Appends the pipeline to `pm`, which runs on a builtin.module.
void buildOptimizePipeline(mlir::OpPassManager &pm,
                           const OptimizeOptions &options);

/// Options of the lowering from planned cavs IR.
struct LowerOptions : public mlir::PassPipelineOptions<LowerOptions> {
  Option<std::string> device{*this, "device",
                             llvm::cl::desc("cpu or cuda"),
                             llvm::cl::init("cpu")};
};

/// Appends the lowering of the planned cavs.model ops of a builtin.module
/// to phase functions and kernels (cavs-lower-fused, cavs-outline-phases,
/// cavs-lower-to-runtime): func, memref, scf, cf, arith, math and llvm IR.
void buildLowerToRuntimePipeline(mlir::OpPassManager &pm,
                                 const LowerOptions &options);

/// Appends the standard lowering of that IR to the LLVM dialect, math
/// functions approximated by polynomials so that loops using them still
/// vectorize.
void buildLowerToLLVMPipeline(mlir::OpPassManager &pm);

/// Registers the cavs passes and the `cavs-optimize` and `cavs-lower-to-llvm`
/// pipelines.
void registerCavsPipelines();

/// Adds the dialects that cavs IR text is written in (cavs, func, arith)
/// and those of its lowering: what cavs-opt and the IR fuzzer parse.
void registerIRDialects(mlir::DialectRegistry &registry);

} // namespace cavs

#endif // CAVS_COMPILER_PIPELINES_PIPELINES_H
