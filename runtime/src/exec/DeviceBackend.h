//===- DeviceBackend.h - what the executor needs from a GPU ---------------===//
//
// A model instance created on a GPU runs the CUDA phase functions of its
// library on device buffers. DeviceBackend is all the executor sees of the
// GPU: device memory, copies, the op table of cavs_call::device, the
// streams of the phases and the end of a pass. The CUDA implementation
// lives in libcavs_runtime_cuda.so (src/cuda), which openCudaDevice loads
// on first use, so libcavs_runtime itself never links CUDA and runs on
// machines without a GPU, a driver or the CUDA libraries.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_EXEC_DEVICEBACKEND_H
#define CAVS_RUNTIME_EXEC_DEVICEBACKEND_H

#include "cavs/device_ops.h"
#include "cavs/program.h"
#include "support/Status.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace cavs::runtime {

/// The batching class of a phase (cavs_phase % 3).
enum class PhaseClass { Eager = 0, Body = 1, Lazy = 2 };

/// Sums over the ranks of a job in device memory (NCCL), for the
/// distributed trainer's dense gradients.
class DeviceCollectives {
public:
  virtual ~DeviceCollectives() = default;
  /// Queues an in-place sum over the ranks of device data[0, count), after
  /// all work queued on the device so far.
  virtual Status postAllreduceSum(float *data, int64_t count) = 0;
  /// Waits for every queued sum, at most the group's timeout; `what` names
  /// them in a failure. After a failure (a rank died or hangs, an NCCL
  /// error) the group is aborted and every later call fails at once.
  virtual Status wait(std::string_view what) = 0;
};

/// One GPU, used by one model instance.
class DeviceBackend {
public:
  virtual ~DeviceBackend() = default;

  /// "cuda:0 (NVIDIA H200, sm_90)".
  virtual const std::string &description() const = 0;

  /// `bytes` of device memory; CAVS_ERROR_OUT_OF_MEMORY when the device
  /// has no room.
  virtual Status allocate(int64_t bytes, void *&out) = 0;
  virtual void release(void *pointer) noexcept = 0;
  /// Queues dst[0, bytes) = 0 on the current stream.
  virtual void zero(void *dst, int64_t bytes) = 0;
  /// Queues a copy of host `src` to device `dst`; `src` may change as soon
  /// as this returns (it is staged in pinned memory).
  virtual void upload(void *dst, const void *src, int64_t bytes) = 0;
  /// Copies device `src` to host `dst` after all queued work (blocking).
  virtual Status download(void *dst, const void *src, int64_t bytes) = 0;

  /// What the phase calls get as cavs_call::device.
  virtual cavs_device_ops *ops() = 0;
  /// Called around every phase call (`function`: its vertex function,
  /// `stateWriter`: whether its whole-type phases may write the state,
  /// i.e. arity 0); selects the stream the call's ops queue on.
  virtual void beginPhase(PhaseClass kind, bool backward, int32_t function,
                          bool stateWriter) = 0;
  virtual void endPhase(PhaseClass kind, bool backward, int32_t function) = 0;

  /// Called with the indices of every mark_rows of a pass.
  using MarkRows = std::function<Status(cavs_grad_store *grads, int32_t param,
                                        const int32_t *rows, int64_t count)>;
  /// Waits for everything queued, then reports the pass's first failure (a
  /// checked op's fault with the CPU op's message, or a CUDA error) and
  /// hands the staged mark_rows indices to `mark`.
  virtual Status finishPass(const MarkRows &mark) = 0;

  /// Makes `*id`, the bytes rank 0 hands every rank to join one collective
  /// group (ncclGetUniqueId); with a null `id` only checks that this
  /// device could join one. CAVS_ERROR_UNSUPPORTED, saying what is
  /// missing, when it cannot (no NCCL).
  virtual Status collectiveGroupId(std::string *id) = 0;
  /// Joins the group `id` as `rank` of `size` ranks, waiting at most
  /// `timeoutSeconds` for the others (collective over the ranks). The
  /// group must not outlive this backend.
  virtual Status joinCollectiveGroup(const std::string &id, int32_t rank,
                                     int32_t size, double timeoutSeconds,
                                     std::unique_ptr<DeviceCollectives> &out) = 0;
};

/// Opens GPU `ordinal` for a model whose library has CUDA code `cuda`:
/// loads libcavs_runtime_cuda.so (next to libcavs_runtime) on first use,
/// then the device, its streams, cuBLAS and the model's kernels. Fails with
/// CAVS_ERROR_UNSUPPORTED and a message saying what is missing (a runtime
/// built without CUDA, the CUDA libraries, a driver, a GPU).
Status openCudaDevice(const cavs_cuda_desc &cuda, int32_t ordinal,
                      bool allowTf32, std::unique_ptr<DeviceBackend> &out);

/// The number of CUDA GPUs, failing like openCudaDevice when there is no
/// usable one.
Status cudaDeviceCount(int32_t &count);

/// The C entry points of libcavs_runtime_cuda.so (dlsym names below).
using CudaOpenFn = cavs_status (*)(const cavs_cuda_desc *cuda, int32_t ordinal,
                                   int32_t allowTf32, DeviceBackend **out,
                                   std::string *error);
using CudaCountFn = cavs_status (*)(int32_t *count, std::string *error);
inline constexpr const char *kCudaOpenSymbol = "cavs_cuda_backend_open";
inline constexpr const char *kCudaCountSymbol = "cavs_cuda_backend_count";

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_EXEC_DEVICEBACKEND_H
