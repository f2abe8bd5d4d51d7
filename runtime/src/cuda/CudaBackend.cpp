//===- CudaBackend.cpp - one GPU behind the device interface --------------===//
//
// The entry point of libcavs_runtime_cuda.so: the C table of
// exec/DeviceInterface.h over CudaBackend (exec/DevicePlugin.h). A
// CudaBackend owns one model instance's side of a GPU: the CudaDevice its
// ops run on, the
// model's kernels (the CUBIN when the GPU is the image's architecture,
// else the PTX, which the driver compiles), pinned staging for uploads and
// the streams:
// - the forward eager phase of each vertex function queues on its own
//   stream, so the eager work of different functions overlaps;
// - body and lazy phases queue on the main stream, which first waits for
//   the eager work they depend on (their own function's, and that of
//   functions of arity 0, whose eager phases may write the state);
// - backward eager phases run on the main stream: they add into shared
//   parameter gradients.
// It links the CUDA runtime statically, which loads the driver itself, so
// a missing driver is an error from cudaGetDeviceCount, not from the
// dynamic loader.
//
//===----------------------------------------------------------------------===//
#include "cuda/CudaDevice.h"
#ifdef CAVS_HAVE_NCCL
#include "cuda/NcclGroup.h"
#endif
#include "exec/DevicePlugin.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace cavs::runtime::cuda {

using plugin::PhaseClass;

namespace {

/// "what: CUDA message (code)".
std::string cudaMessage(const char *what, cudaError_t error) {
  return fmt::format("{}: {} ({})", what, cudaGetErrorString(error),
                     cudaGetErrorName(error));
}

/// Pinned host memory uploads are staged in, so the caller's memory may
/// change as soon as an upload is queued. Blocks are reused once the
/// stream they were copied on has synchronized (reset()).
class PinnedStaging {
public:
  PinnedStaging() = default;
  PinnedStaging(const PinnedStaging &) = delete;
  PinnedStaging &operator=(const PinnedStaging &) = delete;
  ~PinnedStaging() {
    for (Block &block : blocks_)
      cudaFreeHost(block.data);
    // Runs after ~CudaBackend's body: keep a failure here from surfacing as
    // the thread's last error in another instance's launch check.
    (void)cudaGetLastError();
  }

  /// Room for `bytes`, or null when pinned memory ran out.
  void *take(int64_t bytes) {
    const int64_t aligned = (bytes + 255) / 256 * 256;
    for (Block &block : blocks_)
      if (block.capacity - block.used >= aligned) {
        void *data = static_cast<char *>(block.data) + block.used;
        block.used += aligned;
        return data;
      }
    Block block;
    block.capacity = std::max<int64_t>(aligned, int64_t(8) << 20);
    if (cudaMallocHost(&block.data, block.capacity) != cudaSuccess) {
      // upload() falls back to a blocking copy; the failure must not stay
      // the thread's last error, or the next launch check fails the pass.
      (void)cudaGetLastError();
      return nullptr;
    }
    block.used = aligned;
    blocks_.push_back(block);
    return block.data;
  }
  void reset() {
    for (Block &block : blocks_)
      block.used = 0;
  }

private:
  struct Block {
    void *data = nullptr;
    int64_t capacity = 0;
    int64_t used = 0;
  };
  std::vector<Block> blocks_;
};

class CudaBackend final : public plugin::Device {
public:
  CudaBackend(int32_t ordinal) : ordinal_(ordinal) {}
  ~CudaBackend() override;

  /// Sets up the device, its streams, cuBLAS and `cuda`'s kernels.
  Status open(const cavs_cuda_desc &cuda, bool allowTf32);

  const std::string &description() const override { return description_; }
  Status allocate(int64_t bytes, void *&out) override;
  void release(void *pointer) noexcept override;
  void zero(void *dst, int64_t bytes) override;
  void upload(void *dst, const void *src, int64_t bytes) override;
  Status download(void *dst, const void *src, int64_t bytes) override;
  cavs_device_ops *ops() override { return &device_.ops; }
  void beginPhase(PhaseClass kind, bool backward, int32_t function,
                  bool stateWriter) override;
  void endPhase(PhaseClass kind, bool backward, int32_t function) override;
  Status finishPass(const MarkRows &mark) override;
  Status collectiveGroupId(std::string *id) override;
  Status
  joinCollectiveGroup(const std::string &id, int32_t rank, int32_t size,
                      double timeoutSeconds,
                      std::unique_ptr<plugin::Collectives> &out) override;

private:
  /// One vertex function's forward eager stream and its completion.
  struct EagerStream {
    cudaStream_t stream = nullptr;
    cudaEvent_t done = nullptr;
    /// Recorded in this pass and not yet waited for by the main stream.
    bool pending = false;
    /// Its eager phase may write the state (arity 0).
    bool stateWriter = false;
  };

  void bind() { record(cudaSetDevice(ordinal_)); }
  /// Like DeviceOps.cu's record: keeps the pass's first error and clears
  /// the thread's last error, so that a later launch check (maybe of
  /// another instance on this thread) does not report it again.
  void record(cudaError_t error) {
    if (error == cudaSuccess)
      return;
    (void)cudaGetLastError();
    if (device_.firstError == cudaSuccess)
      device_.firstError = error;
  }
  void waitForEager(int32_t function);
  /// Makes the main stream wait for every eager stream's pending work.
  void joinEagerStreams();
  Status loadKernels(const cavs_cuda_desc &cuda, int major, int minor);

  int32_t ordinal_;
  std::string description_;
  CudaDevice device_;
  cudaStream_t main_ = nullptr;
  cudaEvent_t passStart_ = nullptr;
  /// Recorded on the main stream for the NCCL stream to wait on.
  cudaEvent_t queuedWork_ = nullptr;
  std::vector<EagerStream> eager_;
  cudaLibrary_t library_ = nullptr;
  PinnedStaging staging_;
};

CudaBackend::~CudaBackend() {
  bind();
  // Every stream, not just main: a pass that ended early (no finishPass)
  // may have left eager work that still reads or writes what is freed
  // below, including the pinned staging and mark blocks freed afterwards.
  if (main_)
    cudaStreamSynchronize(main_);
  for (EagerStream &eager : eager_)
    if (eager.stream)
      cudaStreamSynchronize(eager.stream);
  // Before the streams: the handle may still be set to an eager stream.
  if (device_.blas)
    cublasDestroy(device_.blas);
  for (auto &[host, copy] : device_.constants)
    cudaFree(copy);
  // eager_ has an entry (null handles) for every function below the
  // highest one with an eager phase; destroying a null handle is an error.
  for (EagerStream &eager : eager_) {
    if (eager.stream)
      cudaStreamDestroy(eager.stream);
    if (eager.done)
      cudaEventDestroy(eager.done);
  }
  if (device_.fault)
    cudaFree(device_.fault);
  if (library_)
    cudaLibraryUnload(library_);
  if (passStart_)
    cudaEventDestroy(passStart_);
  if (queuedWork_)
    cudaEventDestroy(queuedWork_);
  if (main_)
    cudaStreamDestroy(main_);
  // A failure above, or of a failed open(), must not become the last error
  // another instance's launch check on this thread reports.
  (void)cudaGetLastError();
}

Status CudaBackend::open(const cavs_cuda_desc &cuda, bool allowTf32) {
  const cavs_status unsupported = CAVS_ERROR_UNSUPPORTED;
  int count = 0;
  if (cudaError_t error = cudaGetDeviceCount(&count); error != cudaSuccess)
    return Status(unsupported, "cannot use a GPU: " +
                                   cudaMessage("no CUDA driver or GPU", error));
  if (ordinal_ >= count)
    return makeError(unsupported,
                     "cannot use a GPU: CUDA device {} does not exist: this machine has {} "
                     "GPU(s)",
                     ordinal_, count);
  cudaDeviceProp props{};
  if (cudaError_t error = cudaSetDevice(ordinal_); error != cudaSuccess)
    return Status(unsupported, cudaMessage("cannot use the GPU", error));
  if (cudaError_t error = cudaGetDeviceProperties(&props, ordinal_);
      error != cudaSuccess)
    return Status(unsupported, cudaMessage("cannot query the GPU", error));
  description_ = fmt::format("cuda:{} ({}, sm_{}{})", ordinal_, props.name,
                             props.major, props.minor);
  if (props.major * 10 + props.minor < cuda.arch)
    return makeError(unsupported,
                     "{} is older than the model's kernels need (sm_{})",
                     description_, cuda.arch);
  auto check = [&](const char *what, cudaError_t error) {
    return error == cudaSuccess
               ? Status()
               : Status(CAVS_ERROR_INTERNAL,
                        description_ + ": " + cudaMessage(what, error));
  };
  CAVS_RETURN_IF_ERROR(check(
      "cannot create a stream",
      cudaStreamCreateWithFlags(&main_, cudaStreamNonBlocking)));
  CAVS_RETURN_IF_ERROR(
      check("cannot create an event",
            cudaEventCreateWithFlags(&passStart_, cudaEventDisableTiming)));
  CAVS_RETURN_IF_ERROR(check("cannot allocate the fault word",
                             cudaMalloc(reinterpret_cast<void **>(
                                            &device_.fault),
                                        sizeof(DeviceFault))));
  // On main_, not with cudaMemset: that is queued on the legacy default
  // stream, which the non-blocking streams of the passes do not wait for.
  CAVS_RETURN_IF_ERROR(check(
      "cannot clear the fault word",
      cudaMemsetAsync(device_.fault, 0, sizeof(DeviceFault), main_)));
  if (cublasCreate(&device_.blas) != CUBLAS_STATUS_SUCCESS)
    return Status(CAVS_ERROR_INTERNAL,
                  description_ + ": cannot create a cuBLAS handle");
  // FP32 products stay FP32 unless TF32 was asked for explicitly.
  cublasSetMathMode(device_.blas, allowTf32 ? CUBLAS_TF32_TENSOR_OP_MATH
                                            : CUBLAS_DEFAULT_MATH);
  CAVS_RETURN_IF_ERROR(loadKernels(cuda, props.major, props.minor));
  fillDeviceOps(device_.ops);
  device_.stream = main_;
  return Status();
}

Status CudaBackend::loadKernels(const cavs_cuda_desc &cuda, int major,
                                int minor) {
  // The CUBIN runs only on its own architecture; newer GPUs JIT the PTX.
  const bool native = major * 10 + minor == cuda.arch;
  const void *image = native ? static_cast<const void *>(cuda.cubin)
                             : static_cast<const void *>(cuda.ptx);
  if (cudaError_t error = cudaLibraryLoadData(&library_, image, nullptr,
                                              nullptr, 0, nullptr, nullptr, 0);
      error != cudaSuccess)
    return Status(CAVS_ERROR_INTERNAL,
                  description_ + ": " +
                      cudaMessage(native ? "cannot load the model's CUBIN"
                                         : "cannot JIT the model's PTX",
                                  error));
  device_.kernels.resize(cuda.num_kernels);
  for (int32_t k = 0; k < cuda.num_kernels; ++k)
    if (cudaError_t error = cudaLibraryGetKernel(&device_.kernels[k], library_,
                                                 cuda.kernels[k]);
        error != cudaSuccess)
      return Status(CAVS_ERROR_INTERNAL,
                    fmt::format("{}: kernel '{}': {}", description_,
                                cuda.kernels[k],
                                cudaMessage("not in the image", error)));
  return Status();
}

Status CudaBackend::allocate(int64_t bytes, void *&out) {
  bind();
  if (cudaError_t error = cudaMalloc(&out, static_cast<size_t>(bytes));
      error != cudaSuccess) {
    cudaGetLastError();
    return Status(CAVS_ERROR_OUT_OF_MEMORY,
                  fmt::format("{}: cannot allocate {} bytes: {}", description_,
                              bytes, cudaGetErrorString(error)));
  }
  return Status();
}

void CudaBackend::release(void *pointer) noexcept {
  bind();
  record(cudaFree(pointer));
}

void CudaBackend::zero(void *dst, int64_t bytes) {
  bind();
  record(cudaMemsetAsync(dst, 0, static_cast<size_t>(bytes), main_));
}

void CudaBackend::upload(void *dst, const void *src, int64_t bytes) {
  bind();
  void *pinned = staging_.take(bytes);
  if (!pinned) {
    // Out of pinned memory: a blocking copy is slower but just as right.
    // It must still be ordered on main_ (plain cudaMemcpy goes to the
    // legacy stream, unordered with main_, and may return before the data
    // lands); the synchronization lets `src` change on return.
    record(cudaMemcpyAsync(dst, src, static_cast<size_t>(bytes),
                           cudaMemcpyHostToDevice, main_));
    record(cudaStreamSynchronize(main_));
    return;
  }
  std::memcpy(pinned, src, static_cast<size_t>(bytes));
  record(cudaMemcpyAsync(dst, pinned, static_cast<size_t>(bytes),
                         cudaMemcpyHostToDevice, main_));
}

void CudaBackend::joinEagerStreams() {
  for (EagerStream &eager : eager_)
    if (eager.pending) {
      record(cudaStreamWaitEvent(main_, eager.done, 0));
      eager.pending = false;
    }
}

Status CudaBackend::download(void *dst, const void *src, int64_t bytes) {
  bind();
  joinEagerStreams();
  cudaError_t error = cudaMemcpyAsync(dst, src, static_cast<size_t>(bytes),
                                      cudaMemcpyDeviceToHost, main_);
  // Synchronize even when the copy failed: finishPass reuses the staging
  // after this returns, so no queued upload may still be in flight.
  const cudaError_t synced = cudaStreamSynchronize(main_);
  if (error == cudaSuccess)
    error = synced;
  if (error != cudaSuccess) {
    (void)cudaGetLastError();
    return Status(CAVS_ERROR_INTERNAL,
                  description_ + ": " +
                      cudaMessage("copying results back failed", error));
  }
  return Status();
}

void CudaBackend::waitForEager(int32_t function) {
  for (size_t g = 0; g < eager_.size(); ++g) {
    EagerStream &eager = eager_[g];
    if (eager.pending && (int32_t(g) == function || eager.stateWriter)) {
      record(cudaStreamWaitEvent(main_, eager.done, 0));
      eager.pending = false;
    }
  }
}

void CudaBackend::beginPhase(PhaseClass kind, bool backward, int32_t function,
                             bool stateWriter) {
  bind();
  if (kind != PhaseClass::Eager || backward) {
    waitForEager(function);
    device_.stream = main_;
    return;
  }
  // Everything queued so far (uploads, zeroing) precedes the eager work.
  // Recorded for every eager phase rather than once per pass: nothing else
  // is queued on main_ meanwhile, and a once-per-pass flag stays set when a
  // pass ends early without finishPass, so the next pass's eager streams
  // would wait for a stale event and race its uploads.
  record(cudaEventRecord(passStart_, main_));
  if (size_t(function) >= eager_.size())
    eager_.resize(function + 1);
  EagerStream &eager = eager_[function];
  if (!eager.stream) {
    cudaStream_t stream = nullptr;
    cudaEvent_t done = nullptr;
    cudaError_t error =
        cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    if (error == cudaSuccess)
      error = cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
    if (error != cudaSuccess) {
      // Run the phase on main_ (ordered, only not overlapped) rather than
      // on the legacy default stream a null handle would mean.
      record(error);
      if (stream)
        cudaStreamDestroy(stream);
      device_.stream = main_;
      return;
    }
    eager.stream = stream;
    eager.done = done;
  }
  eager.stateWriter = stateWriter;
  record(cudaStreamWaitEvent(eager.stream, passStart_, 0));
  device_.stream = eager.stream;
}

void CudaBackend::endPhase(PhaseClass kind, bool backward, int32_t function) {
  bind();
  // device_.stream is main_ when beginPhase fell back to it.
  if (kind == PhaseClass::Eager && !backward && device_.stream != main_) {
    EagerStream &eager = eager_[function];
    record(cudaEventRecord(eager.done, eager.stream));
    eager.pending = true;
  }
  device_.stream = main_;
}

Status CudaBackend::finishPass(const MarkRows &mark) {
  bind();
  DeviceFault fault{};
  // download() waits for every stream of the pass first.
  Status copied = download(&fault, device_.fault, sizeof(fault));
  const bool faultRead = copied.ok(); // `copied` is moved from below
  staging_.reset();
  record(cudaGetLastError());
  Status status;
  if (!copied.ok()) {
    status = std::move(copied);
  } else if (device_.firstError != cudaSuccess) {
    status = Status(CAVS_ERROR_INTERNAL,
                    description_ + ": " +
                        cudaMessage("a kernel failed", device_.firstError));
  } else if (fault.code != kNoFault) {
    status = makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "{} {} is out of range [0, {}) at row {}",
                       fault.code == kLookupIndex ? "lookup index"
                                                  : "cross-entropy label",
                       fault.value, fault.limit, fault.row);
  }
  device_.firstError = cudaSuccess;
  // Reset after firstError, so a failure is reported by the next pass
  // instead of dropped; on main_ (a plain cudaMemset would go to the legacy
  // stream, unordered with the next pass's kernels). When the copy failed
  // the word's state is unknown: reset it anyway.
  if (!faultRead || fault.code != kNoFault)
    record(cudaMemsetAsync(device_.fault, 0, sizeof(DeviceFault), main_));
  for (const StagedMarks &staged : device_.marks.staged())
    if (status.ok())
      status = mark(staged.grads, staged.param, staged.rows, staged.count);
  device_.marks.clear();
  return status;
}

Status CudaBackend::collectiveGroupId(std::string *id) {
#ifdef CAVS_HAVE_NCCL
  bind();
  return ncclGroupId(id);
#else
  (void)id;
  return Status(CAVS_ERROR_UNSUPPORTED,
                "this cavs CUDA runtime was built without NCCL (nccl.h was "
                "not found)");
#endif
}

Status
CudaBackend::joinCollectiveGroup(const std::string &id, int32_t rank,
                                 int32_t size, double timeoutSeconds,
                                 std::unique_ptr<plugin::Collectives> &out) {
#ifdef CAVS_HAVE_NCCL
  bind();
  if (!queuedWork_ &&
      cudaEventCreateWithFlags(&queuedWork_, cudaEventDisableTiming) !=
          cudaSuccess) {
    (void)cudaGetLastError();
    return Status(CAVS_ERROR_OUT_OF_MEMORY,
                  description_ + ": could not create a CUDA event");
  }
  return joinNcclGroup(
      id, rank, size, timeoutSeconds,
      [this](cudaStream_t stream) {
        bind();
        joinEagerStreams();
        record(cudaEventRecord(queuedWork_, main_));
        record(cudaStreamWaitEvent(stream, queuedWork_, 0));
      },
      out);
#else
  (void)id, (void)rank, (void)size, (void)timeoutSeconds, (void)out;
  return collectiveGroupId(nullptr);
#endif
}

} // namespace

} // namespace cavs::runtime::cuda

using namespace cavs::runtime;

namespace {

Status openBackend(const cavs_cuda_desc &cuda, int32_t ordinal, bool allowTf32,
                   std::unique_ptr<plugin::Device> &out) {
  auto backend = std::make_unique<cuda::CudaBackend>(ordinal);
  CAVS_RETURN_IF_ERROR(backend->open(cuda, allowTf32));
  out = std::move(backend);
  return Status();
}

Status countDevices(int32_t &count) {
  int devices = 0;
  if (cudaError_t status = cudaGetDeviceCount(&devices); status != cudaSuccess)
    return Status(CAVS_ERROR_UNSUPPORTED,
                  cuda::cudaMessage("no CUDA driver or GPU", status));
  if (devices == 0)
    return Status(CAVS_ERROR_UNSUPPORTED,
                  "no CUDA GPU: the driver reports none");
  count = devices;
  return Status();
}

} // namespace

extern "C" __attribute__((visibility("default"))) const cavs_device_interface *
cavs_get_device_interface() {
  return plugin::pluginInterface<countDevices, openBackend>();
}
