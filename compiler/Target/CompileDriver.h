//===- CompileDriver.h - from cavs IR to what cavsc writes ------*- C++ -*-===//
//
// The one place that knows the order of the compiler's stages after the
// frontend: optimization, the CPU and CUDA lowerings, LLVM, NVRTC and the
// link. cavsc parses its flags into a CompileRequest and calls
// compileModel; tests and other drivers can do the same.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_COMPILER_TARGET_COMPILEDRIVER_H
#define CAVS_COMPILER_TARGET_COMPILEDRIVER_H

#include "compiler/Target/ModelLibrary.h"

namespace cavs {

/// What a compilation produces (cavsc --emit). AST and MLIR stop in the
/// frontend, before the driver.
enum class Emit {
  AST,
  MLIR,
  OptimizedMLIR,
  Stats,
  LLVM,
  Object,
  Header,
  SO,
  Cuda,
  Ptx,
  Cubin
};

struct CompileRequest {
  Emit emit = Emit::SO;
  OptimizationSwitches switches;
  /// The devices to generate code for; the CUDA outputs add CUDA.
  Targets targets;
  CpuTarget cpu;
  /// The runtime a shared object links against.
  RuntimeLocation runtime;
  /// The .cavs file's name, quoted in generated sources.
  std::string sourceName;
  /// A shared object's path (it is linked, not streamed).
  std::string output;
};

/// Compiles `frontend` (the frontend's cavs IR, left unchanged) to
/// `request.emit` and writes it to `os` (a shared object to
/// `request.output`). MLIR diagnostics go to the context; `error` says what
/// failed outside them (temporary files, NVRTC, the linker).
mlir::LogicalResult compileModel(mlir::ModuleOp frontend,
                                 const CompileRequest &request,
                                 llvm::raw_ostream &os, std::string &error);

} // namespace cavs

#endif // CAVS_COMPILER_TARGET_COMPILEDRIVER_H
