//===- CudaDevice.h - one GPU's op table, stream and staging --------------===//
//
// CudaDevice is what cavs_call::device points at on a GPU: the op table of
// cavs/device_ops.h (first, so the generated code's table pointer is the
// device) followed by what the ops need: the stream they queue on, the
// cuBLAS handle, the fused kernels of the model's CUDA image, a fault word
// the checked ops report into, device copies of constant arrays and the
// staging of touched embedding rows. Part of the runtime's CUDA library
// (libcavs_runtime_cuda.so), which libcavs_runtime loads on demand.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_CUDA_CUDADEVICE_H
#define CAVS_RUNTIME_CUDA_CUDADEVICE_H

#include "cavs/device_ops.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace cavs::runtime::cuda {

/// What failed in a checked op; 0 is no failure.
enum FaultCode : int32_t {
  kNoFault = 0,
  /// A lookup or lookup_grad index ≥ the table's rows.
  kLookupIndex = 1,
  /// A cross-entropy label ≥ the number of classes.
  kCrossEntropyLabel = 2,
};

/// The first failure of a checked op, in device memory. The first kernel
/// to fail claims `code` with atomicCAS, then writes the rest.
struct DeviceFault {
  int32_t code;
  int32_t unused;
  /// The failing row, the bad value and the bound it broke.
  long long row;
  long long value;
  long long limit;
};

/// One mark_rows call, staged until its pass ends.
struct StagedMarks {
  cavs_grad_store *grads;
  int32_t param;
  /// The indices, in pinned host memory (valid after the stream synced).
  const int32_t *rows;
  int64_t count;
};

/// The indices of mark_rows calls on their way to the host: pinned blocks
/// that are reused from pass to pass, never freed before the device.
class MarkStaging {
public:
  MarkStaging() = default;
  MarkStaging(const MarkStaging &) = delete;
  MarkStaging &operator=(const MarkStaging &) = delete;
  ~MarkStaging();

  /// Queues, on `stream`, a copy of index[r * index_ld] for r < rows to
  /// pinned memory, and records it for `grads` and `param`.
  cudaError_t add(cudaStream_t stream, cavs_grad_store *grads, int32_t param,
                  int64_t rows, const int32_t *index, int64_t index_ld);
  /// The calls staged since the last clear(), in order; read them only
  /// after the stream synchronized.
  const std::vector<StagedMarks> &staged() const { return staged_; }
  /// Forgets the staged calls and reuses their memory.
  void clear();

private:
  struct Block {
    int32_t *host = nullptr;   // pinned
    int32_t *device = nullptr; // compacted indices before the copy
    int64_t capacity = 0;
    int64_t used = 0;
  };
  std::vector<Block> blocks_;
  std::vector<StagedMarks> staged_;
};

/// The device side of one model instance on one GPU.
struct CudaDevice {
  /// Must stay the first member: the generated code gets &ops.
  cavs_device_ops ops{};
  /// The stream the ops queue on now (the executor switches it per phase).
  cudaStream_t stream = nullptr;
  cublasHandle_t blas = nullptr;
  /// The fused kernels, by cavs_device_ops::launch's `kernel` index.
  std::vector<cudaKernel_t> kernels;
  /// Device memory, reset by the executor before each pass.
  DeviceFault *fault = nullptr;
  /// The first CUDA error an op met (a failed launch or copy); ops cannot
  /// return it, so the executor reports it when the pass ends.
  cudaError_t firstError = cudaSuccess;
  /// Device copies of the library's constant arrays, by host address.
  std::unordered_map<const float *, float *> constants;
  MarkStaging marks;
};

/// The CudaDevice behind the table the generated code passes back.
inline CudaDevice &deviceOf(cavs_device_ops *ops) {
  return *reinterpret_cast<CudaDevice *>(ops);
}

/// Sets every entry of `ops` (DeviceOps.cu).
void fillDeviceOps(cavs_device_ops &ops);

#ifdef __CUDACC__
/// kernel<<<grid, block, 0, stream>>>(args...), the one launch syntax of
/// these sources: their host build (test/lib/CudaHost/CudaHostRuntime.h)
/// defines a launchKernel of its own that runs the grid on the host.
template <typename... Params, typename... Args>
void launchKernel(void (*kernel)(Params...), dim3 grid, dim3 block,
                  cudaStream_t stream, Args... args) {
  kernel<<<grid, block, 0, stream>>>(args...);
}
#endif

} // namespace cavs::runtime::cuda

#endif // CAVS_RUNTIME_CUDA_CUDADEVICE_H
