//===- NcclGroup.cpp - NCCL loaded on demand, polled against a deadline ---===//
//
// Only the handful of NCCL entry points the trainer needs are looked up.
// Sums run on a stream of their own, which waits for the work queued so
// far, so the backward kernels queued after a sum overlap it.
//
//===----------------------------------------------------------------------===//
#include "cuda/NcclGroup.h"

#include "support/Deadline.h"

#include <fmt/format.h>
#include <nccl.h>

#include <dlfcn.h>

#include <chrono>
#include <cstring>
#include <thread>

namespace cavs::runtime::cuda {

namespace {

/// The NCCL entry points, from libnccl.so.2.
struct NcclApi {
  decltype(&ncclGetUniqueId) getUniqueId;
  decltype(&ncclCommInitRankConfig) initRankConfig;
  decltype(&ncclCommGetAsyncError) getAsyncError;
  decltype(&ncclAllReduce) allReduce;
  decltype(&ncclCommAbort) abort;
  decltype(&ncclGetErrorString) errorString;
};

/// Loads NCCL once: the system's libnccl.so.2, else the one the build
/// found (CAVS_NCCL_LIBRARY).
Status loadNccl(const NcclApi *&out) {
  static NcclApi api{};
  static std::string failure = [] {
    void *library = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
#ifdef CAVS_NCCL_LIBRARY
    if (!library)
      library = dlopen(CAVS_NCCL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
#endif
    if (!library)
      return fmt::format("NCCL is not available ({}); install NCCL (it "
                         "ships with the CUDA toolkit) or let the trainer "
                         "sum on the host over MPI",
                         dlerror());
    const auto find = [&](auto &entry, const char *name) {
      entry = reinterpret_cast<std::remove_reference_t<decltype(entry)>>(
          dlsym(library, name));
      return entry != nullptr;
    };
    if (!find(api.getUniqueId, "ncclGetUniqueId") ||
        !find(api.initRankConfig, "ncclCommInitRankConfig") ||
        !find(api.getAsyncError, "ncclCommGetAsyncError") ||
        !find(api.allReduce, "ncclAllReduce") ||
        !find(api.abort, "ncclCommAbort") ||
        !find(api.errorString, "ncclGetErrorString"))
      return std::string("the NCCL library lacks entry points this runtime "
                         "needs (NCCL 2.14 or newer)");
    return std::string();
  }();
  if (!failure.empty())
    return Status(CAVS_ERROR_UNSUPPORTED, failure);
  out = &api;
  return Status();
}

using Clock = std::chrono::steady_clock;

class NcclGroup final : public plugin::Collectives {
public:
  NcclGroup(const NcclApi &nccl, int32_t rank, int32_t size, double timeout,
            OrderAfterQueuedWork order)
      : nccl_(nccl), rank_(rank), size_(size), timeoutSeconds_(timeout),
        order_(std::move(order)) {}

  ~NcclGroup() override {
    // Abort rather than destroy: it never blocks (the trainer waited for
    // its sums, or they failed), on a non-blocking communicator neither.
    if (comm_)
      nccl_.abort(comm_);
    if (stream_)
      cudaStreamDestroy(stream_);
  }

  Status init(const ncclUniqueId &id) {
    if (cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking) !=
        cudaSuccess) {
      (void)cudaGetLastError();
      return Status(CAVS_ERROR_OUT_OF_MEMORY,
                    "could not create the stream of the NCCL sums");
    }
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = 0;
    CAVS_RETURN_IF_ERROR(check(
        nccl_.initRankConfig(&comm_, size_, id, rank_, &config),
        "joining the NCCL group"));
    return settle(deadline(), "joining the NCCL group");
  }

  Status postAllreduceSum(float *data, int64_t count) override {
    CAVS_RETURN_IF_ERROR(healthy());
    order_(stream_);
    CAVS_RETURN_IF_ERROR(check(
        nccl_.allReduce(data, data, static_cast<size_t>(count), ncclFloat32,
                        ncclSum, comm_, stream_),
        "queuing a gradient sum"));
    return settle(deadline(), "queuing a gradient sum");
  }

  Status wait(std::string_view what) override {
    CAVS_RETURN_IF_ERROR(healthy());
    const Clock::time_point end = deadline();
    for (int polls = 0;; ++polls) {
      const cudaError_t done = cudaStreamQuery(stream_);
      if (done == cudaSuccess)
        return Status();
      if (done != cudaErrorNotReady) {
        (void)cudaGetLastError();
        return fail(CAVS_ERROR_INTERNAL,
                    fmt::format("{} failed on the GPU: {}", what,
                                cudaGetErrorString(done)));
      }
      ncclResult_t state = ncclSuccess;
      nccl_.getAsyncError(comm_, &state);
      if (state != ncclSuccess && state != ncclInProgress)
        return fail(CAVS_ERROR_IO, fmt::format("{} failed: {}", what,
                                               nccl_.errorString(state)));
      if (Clock::now() >= end)
        return timedOut(what);
      if (polls < 1000)
        std::this_thread::yield();
      else
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }

private:
  Clock::time_point deadline() const { return deadlineAfter(timeoutSeconds_); }
  Status healthy() const {
    if (failed_)
      return Status(CAVS_ERROR_IO,
                    "distributed training: the NCCL group failed earlier "
                    "and was aborted");
    return Status();
  }
  Status check(ncclResult_t result, std::string_view what) {
    if (result == ncclSuccess || result == ncclInProgress)
      return Status();
    return fail(CAVS_ERROR_IO,
                fmt::format("{} failed: {}", what, nccl_.errorString(result)));
  }
  /// A non-blocking call returns before it is done; the next may only be
  /// made once the communicator left ncclInProgress.
  Status settle(Clock::time_point end, std::string_view what) {
    for (;;) {
      ncclResult_t state = ncclSuccess;
      nccl_.getAsyncError(comm_, &state);
      if (state == ncclSuccess)
        return Status();
      if (state != ncclInProgress)
        return fail(CAVS_ERROR_IO, fmt::format("{} failed: {}", what,
                                               nccl_.errorString(state)));
      if (Clock::now() >= end)
        return timedOut(what);
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }
  Status timedOut(std::string_view what) {
    return fail(CAVS_ERROR_IO,
                fmt::format("{} did not complete within {} s: another rank "
                            "died or hangs (the limit is "
                            "cavs_dist_options::timeout_seconds or "
                            "$CAVS_DIST_TIMEOUT)",
                            what, timeoutSeconds_));
  }
  Status fail(cavs_status code, const std::string &message) {
    failed_ = true;
    return makeError(code, "distributed training: rank {} of {} (NCCL): {}",
                     rank_, size_, message);
  }

  const NcclApi &nccl_;
  int32_t rank_, size_;
  double timeoutSeconds_;
  OrderAfterQueuedWork order_;
  ncclComm_t comm_ = nullptr;
  cudaStream_t stream_ = nullptr;
  bool failed_ = false;
};

} // namespace

Status ncclGroupId(std::string *id) {
  const NcclApi *nccl = nullptr;
  CAVS_RETURN_IF_ERROR(loadNccl(nccl));
  if (!id)
    return Status();
  ncclUniqueId unique;
  if (ncclResult_t result = nccl->getUniqueId(&unique); result != ncclSuccess)
    return makeError(CAVS_ERROR_IO, "ncclGetUniqueId failed: {}",
                     nccl->errorString(result));
  id->assign(unique.internal, sizeof(unique.internal));
  return Status();
}

Status joinNcclGroup(const std::string &id, int32_t rank, int32_t size,
                     double timeoutSeconds, OrderAfterQueuedWork order,
                     std::unique_ptr<plugin::Collectives> &out) {
  const NcclApi *nccl = nullptr;
  CAVS_RETURN_IF_ERROR(loadNccl(nccl));
  ncclUniqueId unique;
  if (id.size() != sizeof(unique.internal))
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "an NCCL group id has {} bytes, got {}",
                     sizeof(unique.internal), id.size());
  std::memcpy(unique.internal, id.data(), id.size());
  auto group = std::make_unique<NcclGroup>(*nccl, rank, size, timeoutSeconds,
                                           std::move(order));
  CAVS_RETURN_IF_ERROR(group->init(unique));
  out = std::move(group);
  return Status();
}

} // namespace cavs::runtime::cuda
