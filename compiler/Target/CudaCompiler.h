//===- CudaCompiler.h - CUDA C to CUBIN and PTX with NVRTC ------*- C++ -*-===//
//
// Compiles the CUDA C source of a model's kernels (CudaKernels.h) in-process
// with NVRTC, a compiler library that needs neither a GPU nor a driver: to a
// CUBIN (an ELF image of sm_90 machine code) and to compute_90 PTX, which
// the driver compiles for sm_90 and newer GPUs. In a cavsc built without
// CUDA the functions exist but fail.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_COMPILER_TARGET_CUDACOMPILER_H
#define CAVS_COMPILER_TARGET_CUDACOMPILER_H

#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace cavs {

/// The compute capability (times ten) the CUBIN is for and the PTX's
/// virtual architecture: sm_90 and compute_90. Model libraries record it
/// (cavs_cuda_desc::arch), so the runtime knows which image a GPU can load.
inline constexpr int kCudaArch = 90;

/// What NVRTC compiles CUDA source to.
enum class CudaBinary {
  /// Machine code for sm_90, an ELF image.
  Cubin,
  /// PTX text for the virtual architecture compute_90.
  Ptx,
};

/// Compiles the CUDA C `source` to `kind` into `output`; `name` names the
/// program in NVRTC's messages (e.g. `treelstm.cu`). On failure `error` says
/// why: NVRTC's log for a compile error, or that this cavsc was built
/// without CUDA.
mlir::LogicalResult compileCuda(llvm::StringRef source, llvm::StringRef name,
                                CudaBinary kind, std::string &output,
                                std::string &error);

} // namespace cavs

#endif // CAVS_COMPILER_TARGET_CUDACOMPILER_H
