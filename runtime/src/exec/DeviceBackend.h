//===- DeviceBackend.h - what the executor needs from a GPU ---------------===//
//
// A model instance created on a GPU runs the CUDA phase functions of its
// library on device buffers. DeviceBackend is all the executor sees of the
// GPU: device memory, copies, the op table of cavs_call::device, the
// streams of the phases and the end of a pass. It calls a device library
// through the C table of exec/DeviceInterface.h: the CUDA one is
// libcavs_runtime_cuda.so (src/cuda), which openCudaDevice loads on first
// use, so libcavs_runtime itself never links CUDA and runs on machines
// without a GPU, a driver or the CUDA libraries.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_EXEC_DEVICEBACKEND_H
#define CAVS_RUNTIME_EXEC_DEVICEBACKEND_H

#include "exec/DeviceInterface.h"
#include "support/Status.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace cavs::runtime {

/// Sums over the ranks of a job in device memory (NCCL), for the
/// distributed trainer's dense gradients.
class DeviceCollectives {
public:
  DeviceCollectives(const cavs_device_interface &library,
                    cavs_device_group *group)
      : library_(library), group_(group) {}
  DeviceCollectives(const DeviceCollectives &) = delete;
  DeviceCollectives &operator=(const DeviceCollectives &) = delete;
  ~DeviceCollectives() { library_.group_close(group_); }

  /// Queues an in-place sum over the ranks of device data[0, count), after
  /// all work queued on the device so far.
  Status postAllreduceSum(float *data, int64_t count);
  /// Waits for every queued sum, at most the group's timeout; `what` names
  /// them in a failure. After a failure (a rank died or hangs, an NCCL
  /// error) the group is aborted and every later call fails at once.
  Status wait(std::string_view what);

private:
  const cavs_device_interface &library_;
  cavs_device_group *group_;
};

/// One GPU, used by one model instance: a device of a device library,
/// called through its C table.
class DeviceBackend {
public:
  DeviceBackend(const cavs_device_interface &library, cavs_device *device)
      : library_(library), device_(device),
        description_(library.description(device)), ops_(library.ops(device)) {}
  DeviceBackend(const DeviceBackend &) = delete;
  DeviceBackend &operator=(const DeviceBackend &) = delete;
  ~DeviceBackend() { library_.close(device_); }

  /// "cuda:0 (NVIDIA H200, sm_90)".
  const std::string &description() const { return description_; }

  /// `bytes` of device memory; CAVS_ERROR_OUT_OF_MEMORY when the device
  /// has no room.
  Status allocate(int64_t bytes, void *&out);
  void release(void *pointer) noexcept { library_.release(device_, pointer); }
  /// Queues dst[0, bytes) = 0 on the current stream.
  void zero(void *dst, int64_t bytes) { library_.zero(device_, dst, bytes); }
  /// Queues a copy of host `src` to device `dst`; `src` may change as soon
  /// as this returns (it is staged in pinned memory).
  void upload(void *dst, const void *src, int64_t bytes) {
    library_.upload(device_, dst, src, bytes);
  }
  /// Copies device `src` to host `dst` after all queued work (blocking).
  Status download(void *dst, const void *src, int64_t bytes);

  /// What the phase calls get as cavs_call::device.
  cavs_device_ops *ops() { return ops_; }
  /// Called around every phase call (`function`: its vertex function,
  /// `stateWriter`: whether its whole-type phases may write the state,
  /// i.e. arity 0); selects the stream the call's ops queue on.
  void beginPhase(cavs_phase phase, int32_t function, bool stateWriter) {
    library_.begin_phase(device_, phase, function, stateWriter);
  }
  void endPhase(cavs_phase phase, int32_t function) {
    library_.end_phase(device_, phase, function);
  }

  /// Called with the indices of every mark_rows of a pass.
  using MarkRows = std::function<Status(cavs_grad_store *grads, int32_t param,
                                        const int32_t *rows, int64_t count)>;
  /// Waits for everything queued, then reports the pass's first failure (a
  /// checked op's fault with the CPU op's message, or a CUDA error) and
  /// hands the staged mark_rows indices to `mark`.
  Status finishPass(const MarkRows &mark);

  /// Makes `*id`, the bytes rank 0 hands every rank to join one collective
  /// group (ncclGetUniqueId); with a null `id` only checks that this
  /// device could join one. CAVS_ERROR_UNSUPPORTED, saying what is
  /// missing, when it cannot (no NCCL).
  Status collectiveGroupId(std::string *id);
  /// Joins the group `id` as `rank` of `size` ranks, waiting at most
  /// `timeoutSeconds` for the others (collective over the ranks). The
  /// group must not outlive this backend.
  Status joinCollectiveGroup(const std::string &id, int32_t rank, int32_t size,
                             double timeoutSeconds,
                             std::unique_ptr<DeviceCollectives> &out);

private:
  const cavs_device_interface &library_;
  cavs_device *device_;
  std::string description_;
  cavs_device_ops *ops_;
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

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_EXEC_DEVICEBACKEND_H
