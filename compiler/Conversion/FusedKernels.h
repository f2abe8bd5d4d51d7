//===- FusedKernels.h - cavs.fused regions as CPU loop kernels --*- C++ -*-===//
//
// Each cavs.fused kernel becomes a function with a plain C ABI
//
//   void kernel(int64_t rows, const float *in0, int64_t ld0, ...,
//               float *out0, int64_t ldo0, ...);
//
// that runs the region over `rows` vertices: operand i is a row-major
// [rows x width] matrix with leading dimension ld_i (its columns in the
// arena or scratch rows), or a [rows x 1] column for a scalar input, which
// is broadcast. The loops are scf/arith/math on !llvm.ptr, ready for the
// standard lowering to the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_COMPILER_CONVERSION_FUSEDKERNELS_H
#define CAVS_COMPILER_CONVERSION_FUSEDKERNELS_H

#include "dialects/CavsOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace cavs {

/// Appends the kernel of `fused`, named `name`, and its rows form to
/// `target` (a builtin module); returns the kernel. Fails with a diagnostic at
/// an op the CPU backend cannot run.
mlir::FailureOr<mlir::func::FuncOp>
buildFusedKernel(FusedOp fused, mlir::ModuleOp target, llvm::StringRef name);

/// The name of the rows form of kernel `kernel`.
std::string rowsKernelName(llvm::StringRef kernel);
/// The type of a rows form: (i64, i64, !llvm.ptr) -> ().
mlir::FunctionType rowsKernelType(mlir::MLIRContext *context);

/// The attribute that names a cavs.fused op's kernel function.
inline constexpr llvm::StringLiteral kKernelAttrName = "cavs.kernel";

/// Calls `fn` on every cavs.fused op of `model` (F and ∂F of every vertex
/// function) in program order, with the name of its kernel,
/// `<prefix>_<vertex>_k<N>`; stops at the first failure. Every backend names
/// its kernels this way.
mlir::LogicalResult forEachModelKernel(
    ModelOp model, llvm::StringRef prefix,
    llvm::function_ref<mlir::LogicalResult(FusedOp, llvm::StringRef)> fn);

/// Builds the kernels of every cavs.fused op of `model` into `target`, named
/// as forEachModelKernel says, and records each name in the fused op's
/// `cavs.kernel` attribute.
mlir::LogicalResult buildModelKernels(ModelOp model, mlir::ModuleOp target,
                                      llvm::StringRef prefix);

} // namespace cavs

#endif // CAVS_COMPILER_CONVERSION_FUSEDKERNELS_H
