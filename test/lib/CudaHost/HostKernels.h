//===- HostKernels.h - a CUDA source built for the host, for the tests ----===//
//
// Builds CUDA C (the model's kernels, as NVRTC gets them) with the host C++
// compiler and CudaHostDevice.h into a shared object that exports each
// kernel as a cavs_host::KernelEntry (CAVS_HOST_KERNEL). The host build of
// the runtime's CUDA library (cavs_host_cuda) loads it in place of the
// CUBIN through $CAVS_HOST_CUDA_KERNELS; tests may also dlopen it and
// launch the entries themselves. Failures are gtest failures; the object
// is removed with its owner.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_TEST_LIB_CUDAHOST_HOSTKERNELS_H
#define CAVS_TEST_LIB_CUDAHOST_HOSTKERNELS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace cavs::test {

class HostKernels {
public:
  HostKernels() = default;
  HostKernels(const HostKernels &) = delete;
  HostKernels &operator=(const HostKernels &) = delete;
  ~HostKernels();

  /// Builds `source`, whose kernels are `kernels`; the object's path is
  /// path() once it succeeded.
  void build(llvm::StringRef source, llvm::ArrayRef<std::string> kernels);
  /// Builds the kernels and points $CAVS_HOST_CUDA_KERNELS at them when
  /// $CAVS_CUDA_LIBRARY names the host build of the runtime's CUDA library
  /// (so that a model created on "cuda" runs this source); else nothing.
  void buildForHostCudaLibrary(llvm::StringRef source,
                               llvm::ArrayRef<std::string> kernels);
  const std::string &path() const { return library_; }

private:
  std::string dir_, library_;
};

} // namespace cavs::test

#endif // CAVS_TEST_LIB_CUDAHOST_HOSTKERNELS_H
