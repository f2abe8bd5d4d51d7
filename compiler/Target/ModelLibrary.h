//===- ModelLibrary.h - a .cavs model as a shared object --------*- C++ -*-===//
//
// From the frontend's cavs IR to a model library. The model is optimized
// twice, for training (F and ∂F) and for inference (F alone, whose memory
// plan keeps no activations for backward). For the CPU, both programs'
// kernels and phase functions go into one LLVM module; for CUDA, the fused
// kernels become one CUDA C source, compiled by NVRTC and embedded in the
// library, and the CUDA phase functions (host code) join the LLVM module.
// The module is compiled in-process and linked with the generated
// descriptor (C) against the cavs runtime.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_COMPILER_TARGET_MODELLIBRARY_H
#define CAVS_COMPILER_TARGET_MODELLIBRARY_H

#include "compiler/Pipelines/Pipelines.h"
#include "compiler/Target/ModelDescriptor.h"
#include "compiler/Target/ObjectEmitter.h"

#include "mlir/IR/OwningOpRef.h"

#include <optional>

namespace cavs {

/// The devices a model library has code for (cavsc --target).
struct Targets {
  bool cpu = true;
  bool cuda = false;
};

/// The CUDA half of a model's code.
struct CudaCode {
  /// CUDA C of the fused kernels of both programs (emitCudaKernels).
  std::string source;
  /// Their names, by the launch index of the phase functions.
  std::vector<std::string> kernels;
  /// The CUDA phase functions of the two programs.
  CompiledProgram train, infer;
};

/// The generated code of one model.
struct ModelCode {
  /// The optimized IR of the two programs (one cavs.model each).
  mlir::OwningOpRef<mlir::ModuleOp> trainIR, inferIR;
  /// The CPU phase functions; without a CPU target, only the vertex
  /// functions (every phase symbol empty).
  CompiledProgram train, infer;
  ParamOrder order;
  /// Kernels and phase functions of both programs (func, scf, arith, math,
  /// cf and llvm ops, ready for lowerToLLVMDialect).
  mlir::OwningOpRef<mlir::ModuleOp> code;
  /// With a CUDA target.
  std::optional<CudaCode> cuda;
};

/// A copy of `frontend` optimized (cavs-optimize) with or without ∂F.
mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
optimizeModel(mlir::ModuleOp frontend, const OptimizationSwitches &sw,
              bool autodiff);

/// Optimizes the single cavs.model of `frontend` (left unchanged) both ways
/// and generates its code for `targets`; diagnostics go to the context.
mlir::FailureOr<ModelCode> generateModelCode(mlir::ModuleOp frontend,
                                             const OptimizationSwitches &sw,
                                             const Targets &targets);

/// Where the runtime a model library links against lives.
struct RuntimeLocation {
  /// Holds libcavs_runtime.so (linked, and the library's rpath).
  std::string libraryDir;
  /// Holds cavs/instance.h.
  std::string includeDir;
};

/// Compiles `code` (consumed) for `target` and links the shared object
/// `output`; `sourceName` is quoted in the generated source. `error` says
/// what failed outside MLIR diagnostics (temporary files, NVRTC, the
/// linker).
mlir::LogicalResult writeModelLibrary(ModelCode &code, const CpuTarget &target,
                                      const RuntimeLocation &runtime,
                                      llvm::StringRef sourceName,
                                      llvm::StringRef output,
                                      std::string &error);

} // namespace cavs

#endif // CAVS_COMPILER_TARGET_MODELLIBRARY_H
