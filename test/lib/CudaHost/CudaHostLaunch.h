//===- CudaHostLaunch.h - launching host-compiled CUDA kernels ---*- C++
//-*-===//
//
// What a launch of CUDA source built for the host (CudaHostDevice.h) is
// given and checks: its shape against sm_90's limits, the message of its
// failure, and the entry (KernelEntry) through which a host-compiled
// kernel library is launched. Without the device built-ins, so that tests
// can launch such kernels themselves.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_TEST_LIB_CUDAHOST_CUDAHOSTLAUNCH_H
#define CAVS_TEST_LIB_CUDAHOST_CUDAHOSTLAUNCH_H

#include <cstddef>
#include <cstdint>
#include <cstdio>

namespace cavs_host {

/// threadIdx, blockIdx, blockDim and gridDim (CUDA's uint3 and dim3).
struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

/// The launch limits of an sm_90 GPU (CUDA C Programming Guide, "Technical
/// Specifications per Compute Capability").
inline constexpr unsigned kMaxBlockThreads = 1024;
inline constexpr Dim3 kMaxBlock{1024, 1024, 64};
inline constexpr Dim3 kMaxGrid{2147483647u, 65535, 65535};
/// Static plus dynamic shared memory of a block without the opt-in
/// attribute (cudaFuncAttributeMaxDynamicSharedMemorySize) that raises it
/// to 227 KB; the sources never set it.
inline constexpr size_t kMaxSharedBytes = 48 * 1024;
/// Kernel parameters (CUDA 12.1 and later on Volta and newer).
inline constexpr size_t kMaxParamBytes = 32764;
inline constexpr unsigned kWarp = 32;

/// cudaError_t's values for what a launch can meet (checked against the
/// toolkit's enum in CudaHostRuntime.cpp).
enum Error : int {
  kSuccess = 0,
  kInvalidValue = 1,
  kInvalidConfiguration = 9,
  kLaunchFailure = 719,
};

/// What a launch checks its pointer arguments with: whether `p` lies in
/// device memory. Null: anything goes.
using DeviceMemoryCheck = bool (*)(const void *p);

/// A launch's shape, and where its failure is described.
struct Launch {
  const char *kernel;
  Dim3 grid, block;
  size_t sharedBytes = 0;
  size_t paramBytes = 0;
  DeviceMemoryCheck deviceMemory = nullptr;
  char *message = nullptr;
  size_t messageSize = 0;
};

/// Returns `code`, with the launch's message set from `format`.
template <typename... Args>
int fail(const Launch &launch, int code, const char *format, Args... args) {
  if (launch.message && launch.messageSize) {
    int n = std::snprintf(launch.message, launch.messageSize,
                          "kernel %s: ", launch.kernel);
    if (n >= 0 && size_t(n) < launch.messageSize)
      std::snprintf(launch.message + n, launch.messageSize - size_t(n), format,
                    args...);
  }
  return code;
}

/// The launch shape checks of an sm_90 GPU.
inline int checkShape(const Launch &launch) {
  const Dim3 &g = launch.grid, &b = launch.block;
  if (b.x == 0 || b.y == 0 || b.z == 0 || g.x == 0 || g.y == 0 || g.z == 0)
    return fail(launch, kInvalidConfiguration,
                "empty grid (%u, %u, %u) or block (%u, %u, %u)", g.x, g.y, g.z,
                b.x, b.y, b.z);
  if (b.x > kMaxBlock.x || b.y > kMaxBlock.y || b.z > kMaxBlock.z ||
      uint64_t(b.x) * b.y * b.z > kMaxBlockThreads)
    return fail(launch, kInvalidConfiguration,
                "block (%u, %u, %u) is over sm_90's limits (%u threads, "
                "(%u, %u, %u))",
                b.x, b.y, b.z, kMaxBlockThreads, kMaxBlock.x, kMaxBlock.y,
                kMaxBlock.z);
  if (g.x > kMaxGrid.x || g.y > kMaxGrid.y || g.z > kMaxGrid.z)
    return fail(launch, kInvalidConfiguration,
                "grid (%u, %u, %u) is over sm_90's limits (%u, %u, %u)", g.x,
                g.y, g.z, kMaxGrid.x, kMaxGrid.y, kMaxGrid.z);
  if (launch.sharedBytes > kMaxSharedBytes)
    return fail(launch, kInvalidValue,
                "%zu bytes of dynamic shared memory, over the %zu a block gets "
                "without opting in",
                launch.sharedBytes, kMaxSharedBytes);
  if (launch.paramBytes > kMaxParamBytes)
    return fail(launch, kInvalidValue,
                "%zu bytes of parameters, over the limit of %zu",
                launch.paramBytes, kMaxParamBytes);
  return kSuccess;
}

/// A kernel of a host-compiled CUDA source, as CAVS_HOST_KERNEL exports it:
/// launch() takes the parameters as cudaLaunchKernel does, an array of
/// pointers to their values.
struct KernelEntry {
  const char *name;
  int (*launch)(const Launch &launch, void **params);
};

} // namespace cavs_host

#endif // CAVS_TEST_LIB_CUDAHOST_CUDAHOSTLAUNCH_H
