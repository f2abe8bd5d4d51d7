//===- PhaseFunctions.h - batched phases of vertex functions ----*- C++ -*-===//
//
// The code of one vertex function is six phase functions (F and ∂F ×
// eager, body, lazy; cavs/program.h) with the C signature
//
//   cavs_status phase(const cavs_call *call);
//
// Each runs its ops once over `call->rows` vertices: fused kernels and
// runtime ops (cavs/ops.h: GEMMs, gathers, scatters, lookups, losses) on
// pointers into the arena, the task scratch and the state buffers, taken
// from the memory plan's slots. The executor in the runtime calls them.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_COMPILER_CONVERSION_PHASEFUNCTIONS_H
#define CAVS_COMPILER_CONVERSION_PHASEFUNCTIONS_H

#include "compiler/Conversion/CudaKernels.h"
#include "compiler/Conversion/ParamOrder.h"
#include "dialects/CavsOps.h"

#include "mlir/IR/BuiltinOps.h"

#include <array>
#include <string>
#include <vector>

namespace cavs {

/// The phases, in execution order (cavs_phase of the runtime).
inline constexpr std::array<llvm::StringLiteral, 6> kPhaseNames = {
    "forward_eager",  "forward_body",  "forward_lazy",
    "backward_eager", "backward_body", "backward_lazy"};

/// The generated functions of one vertex function.
struct VertexFunctionSymbols {
  VertexOp vertex;
  /// Symbol of each phase (kPhaseNames order); empty for a phase without
  /// ops.
  std::array<std::string, 6> phases;
};

/// Builds the fused kernels and the phase functions of every vertex
/// function of `model` (optimized, planned IR) into `target`, with symbols
/// `<prefix>_<vertex>_<phase>` and `<prefix>_<vertex>_k<N>`. Fails with a
/// diagnostic at an op the CPU backend cannot run.
mlir::FailureOr<std::vector<VertexFunctionSymbols>>
buildPhaseFunctions(ModelOp model, const ParamOrder &order,
                    mlir::ModuleOp target, llvm::StringRef prefix);

/// Builds the CUDA phase functions of `model` into `target`, with symbols
/// `<prefix>_<vertex>_<phase>`: host code with the same structure as the
/// CPU phases, on device pointers, that calls the runtime through the op
/// table of cavs_call::device (cavs/device_ops.h) and launches the fused
/// ops' kernels of the CUDA image by their number in `kernels`.
mlir::FailureOr<std::vector<VertexFunctionSymbols>>
buildCudaPhaseFunctions(ModelOp model, const ParamOrder &order,
                        mlir::ModuleOp target, llvm::StringRef prefix,
                        const CudaKernelIndex &kernels);

} // namespace cavs

#endif // CAVS_COMPILER_CONVERSION_PHASEFUNCTIONS_H
