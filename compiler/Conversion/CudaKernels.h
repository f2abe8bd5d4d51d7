//===- CudaKernels.h - cavs.fused regions as CUDA C kernels -----*- C++ -*-===//
//
// Each cavs.fused kernel becomes a CUDA C kernel with the operand
// conventions of the CPU kernels (FusedKernels.h):
//
//   extern "C" __global__ void kernel(long long rows,
//       const float *__restrict__ in0, long long ld0, ...,
//       float *__restrict__ out0, long long ldo0, ...);
//
// A grid-stride loop runs over the rows * width elements; element e is
// column e % width of row e / width. A scalar input is a [rows x 1] column
// (column 0 of every row) and an operand read with leading dimension 0 is
// broadcast to every row. The source uses only NVRTC's built-in math
// functions, so it compiles without any header.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_COMPILER_CONVERSION_CUDAKERNELS_H
#define CAVS_COMPILER_CONVERSION_CUDAKERNELS_H

#include "dialects/CavsOps.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace cavs {

/// `value` as a CUDA C float expression that reads back exactly: a literal
/// with the fewest digits that round-trip (`2.0f`, `0.1f`, `1e+30f`), or
/// `__int_as_float(0x...)` of its bits for an infinity or NaN.
std::string cudaFloatLiteral(float value);

/// Writes the CUDA C kernel of `fused`, named `name`, to `os`. Fails with a
/// diagnostic at an op the CUDA backend cannot run, writing nothing.
mlir::LogicalResult emitCudaKernel(FusedOp fused, llvm::StringRef name,
                                   llvm::raw_ostream &os);

/// One program whose kernels go into a CUDA translation unit, e.g. the
/// training program of model @m with prefix `m_train`.
struct CudaProgram {
  ModelOp model;
  std::string prefix;
};

/// Writes one CUDA translation unit, after a header comment, with the
/// kernels of every cavs.fused op of `programs`, named and ordered as
/// forEachModelKernel says (the CPU kernels' names). Returns the kernel
/// names in the order of the source.
mlir::FailureOr<std::vector<std::string>>
emitCudaKernels(llvm::ArrayRef<CudaProgram> programs, llvm::raw_ostream &os);

} // namespace cavs

#endif // CAVS_COMPILER_CONVERSION_CUDAKERNELS_H
