//===- CudaHostRuntime.h - the runtime's CUDA sources, built for the host -===//
//
// Included first (-include) into every source of libcavs_runtime_cuda.so
// when the host C++ compiler builds them into the host device
// (cavs_host_cuda, test/lib/CudaHost/CMakeLists.txt): the toolkit's headers
// declare the CUDA runtime and cuBLAS, which CudaHostRuntime.cpp implements
// on the host; CudaHostDevice.h then supplies the device built-ins, and
// launchKernel stands for the `<<<>>>` launches of runtime/src/cuda.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_TEST_LIB_CUDAHOST_CUDAHOSTRUNTIME_H
#define CAVS_TEST_LIB_CUDAHOST_CUDAHOSTRUNTIME_H

#include <cublas_v2.h>
#include <cuda_runtime.h>

// After the toolkit's headers, which define the qualifiers as nothing.
#include "CudaHostDevice.h"

namespace cavs_host {

/// Whether `p` lies in memory of cudaMalloc or cudaMallocHost.
bool isDeviceMemory(const void *p);
/// Whether `stream` is null (the legacy stream) or a live stream.
bool isStream(cudaStream_t stream);
/// Makes `error` the thread's last error (cudaGetLastError), with
/// `message` as its description for cudaGetErrorString.
void setLastError(cudaError_t error, const char *message);

} // namespace cavs_host

namespace cavs_host {

/// kernel<<<grid, block, 0, stream>>>(args...) of runtime/src/cuda: runs
/// the grid at once, with a failed launch as the thread's last error.
template <typename... Params, typename... Args>
void launchNamedKernel(const char *name, void (*kernel)(Params...), dim3 grid,
                       dim3 block, cudaStream_t stream, Args... args) {
  char message[512] = "";
  cavs_host::Launch launch{
      name, {grid.x, grid.y, grid.z}, {block.x, block.y, block.z}};
  launch.deviceMemory = cavs_host::isDeviceMemory;
  launch.message = message;
  launch.messageSize = sizeof(message);
  int error = cavs_host::isStream(stream)
                  ? cavs_host::runKernel(launch, kernel, args...)
                  : cavs_host::fail(launch, cudaErrorInvalidResourceHandle,
                                    "launched on a destroyed stream");
  if (error != cudaSuccess)
    cavs_host::setLastError(cudaError_t(error), message);
}

} // namespace cavs_host

/// CudaDevice.h's launchKernel, which says what it launched.
#define launchKernel(kernel, ...)                                              \
  cavs_host::launchNamedKernel(#kernel, kernel, __VA_ARGS__)

#endif // CAVS_TEST_LIB_CUDAHOST_CUDAHOSTRUNTIME_H
