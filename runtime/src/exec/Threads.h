//===- Threads.h - the process-wide kernel thread count -------------------===//
//
// The CPU ops of the generated code, its fused kernels and matrix products
// included, and the optimizer steps run on the threads of the pool
// (support/ThreadPool.h). Their number is process-wide: $CAVS_NUM_THREADS
// or the number of cores by default, applied at the first instance creation
// or thread call, and changed by cavs_set_num_threads.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_EXEC_THREADS_H
#define CAVS_RUNTIME_EXEC_THREADS_H

#include "support/Status.h"

#include <cstdint>

namespace cavs::runtime {

/// Applies the default thread count to the pool, once per process (later
/// calls return the first one's status); cavs_set_num_threads overrides
/// it. Fails when $CAVS_NUM_THREADS is set but is no integer in [1,
/// CAVS_MAX_THREADS] (the count is then 1) or more threads than the system
/// starts (the count is then the cores', or 1).
Status initKernelThreads();

/// Sets the count (cavs_set_num_threads); at least 1.
Status setKernelThreads(int32_t threads);
/// The count (cavs_num_threads), after applying the default.
int32_t kernelThreads();

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_EXEC_THREADS_H
