//===- NcclGroup.h - gradient sums between GPUs over NCCL -----------------===//
//
// The plugin::Collectives of libcavs_runtime_cuda.so. NCCL is loaded with
// dlopen when a trainer first joins a group, so the CUDA library still
// loads, and single-GPU training still runs, where NCCL is not installed.
// The communicator is non-blocking: every call and every wait is polled
// against the group's deadline, and a group whose peer died or hangs is
// aborted (ncclCommAbort) instead of hanging the process.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_CUDA_NCCLGROUP_H
#define CAVS_RUNTIME_CUDA_NCCLGROUP_H

#include "exec/DevicePlugin.h"

#include <cuda_runtime.h>

#include <functional>

namespace cavs::runtime::cuda {

/// Makes `stream` wait for everything queued on the model's streams.
using OrderAfterQueuedWork = std::function<void(cudaStream_t stream)>;

/// Loads NCCL; with `id`, rank 0's ncclGetUniqueId as bytes (which also
/// starts NCCL's bootstrap root, so only rank 0 asks for one).
Status ncclGroupId(std::string *id);

/// Joins NCCL group `id` on the current CUDA device (collective).
Status joinNcclGroup(const std::string &id, int32_t rank, int32_t size,
                     double timeoutSeconds, OrderAfterQueuedWork order,
                     std::unique_ptr<plugin::Collectives> &out);

} // namespace cavs::runtime::cuda

#endif // CAVS_RUNTIME_CUDA_NCCLGROUP_H
