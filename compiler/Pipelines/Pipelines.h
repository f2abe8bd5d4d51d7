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

/// Which optimizations run (the paper's ablations), one field per entry of
/// Optimizations.def, all on by default. Each can be switched off without
/// changing results, only time and memory.
struct OptimizationSwitches {
#define CAVS_OPTIMIZATION(FIELD, FLAG, DESCRIPTION, NOUN, TAG)                 \
  bool FIELD = true;
#include "compiler/Pipelines/Optimizations.def"
};

/// Options of the cavs-optimize pipeline: whether to derive ∂F, and one
/// option per optimization switch.
struct OptimizeOptions : public mlir::PassPipelineOptions<OptimizeOptions> {
  Option<bool> autodiff{*this, "autodiff",
                        llvm::cl::desc("Derive the backward functions"),
                        llvm::cl::init(true)};
#define CAVS_OPTIMIZATION(FIELD, FLAG, DESCRIPTION, NOUN, TAG)                 \
  Option<bool> FIELD{*this, FLAG, llvm::cl::desc(DESCRIPTION),                 \
                     llvm::cl::init(true)};
#include "compiler/Pipelines/Optimizations.def"

  /// Sets every optimization option from `switches`.
  void setSwitches(const OptimizationSwitches &switches) {
#define CAVS_OPTIMIZATION(FIELD, FLAG, DESCRIPTION, NOUN, TAG)                 \
  FIELD = switches.FIELD;
#include "compiler/Pipelines/Optimizations.def"
  }
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
