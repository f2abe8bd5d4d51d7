//===- ObjectEmitter.h - LLVM dialect to object files and .so ---*- C++ -*-===//
//
// The last steps of the CPU backend: lower the generated loops (scf, arith,
// math on !llvm.ptr) to the LLVM dialect, translate to LLVM IR, optimize
// for a target CPU, emit an object file in-process, and link shared objects
// with the system C compiler.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_COMPILER_TARGET_OBJECTEMITTER_H
#define CAVS_COMPILER_TARGET_OBJECTEMITTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace cavs {

/// What code is generated for.
struct CpuTarget {
  /// An LLVM CPU name (`x86-64-v3`, `znver4`, ...) or `native` for the
  /// machine cavsc runs on.
  std::string cpu = "native";
  /// LLVM optimization level, 0 to 3.
  unsigned optLevel = 3;
};

/// Checks that `target.cpu` names a CPU LLVM can generate code for; `error`
/// says why not.
mlir::LogicalResult verifyCpuTarget(const CpuTarget &target,
                                    std::string &error);

/// Lowers `module` (func, scf, arith, math and llvm ops) to the LLVM
/// dialect. Transcendental functions become polynomial approximations so
/// that loops that use them still vectorize.
mlir::LogicalResult lowerToLLVMDialect(mlir::ModuleOp module);

/// Translates an LLVM-dialect `module` to LLVM IR, optimizes it for
/// `target` and writes it to `os` as LLVM IR text (`object` false) or as an
/// object file. Errors are reported at the module's location.
mlir::LogicalResult emitLLVM(mlir::ModuleOp module, const CpuTarget &target,
                             llvm::raw_ostream &os, bool object);

/// Links `objects` into the shared object `output` with the system C
/// compiler (`cc`, or $CC), adding `libraries` (e.g. `-lcavs_runtime`).
/// `error` receives the compiler's message on failure.
mlir::LogicalResult linkSharedObject(const std::vector<std::string> &objects,
                                     llvm::StringRef output,
                                     const std::vector<std::string> &libraries,
                                     std::string &error);

} // namespace cavs

#endif // CAVS_COMPILER_TARGET_OBJECTEMITTER_H
