//===- Threads.cpp - the process-wide kernel thread count -----------------===//
//
// The count behind cavs_set_num_threads and cavs_num_threads, and its lazy
// default: a valid $CAVS_NUM_THREADS (a decimal integer in [1,
// CAVS_MAX_THREADS]), else the number of cores (1 when the system cannot
// start them).
// The count sizes the pool (support/ThreadPool.h) of the ops, which also
// splits the matrix products (the GEMM engines run on the calling thread
// only), and of the optimizer steps.
//
//===----------------------------------------------------------------------===//
#include "exec/Threads.h"
#include "cavs/instance.h"
#include "support/ThreadPool.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <system_error>
#include <thread>

namespace cavs::runtime {

namespace {

std::once_flag defaultApplied;
std::atomic<int32_t> currentThreads{1};

/// $CAVS_NUM_THREADS when it is an integer in [1, CAVS_MAX_THREADS], else 0.
int32_t threadsFromEnvironment() {
  const char *text = std::getenv("CAVS_NUM_THREADS");
  if (!text || *text < '0' || *text > '9')
    return 0;
  char *end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text, &end, 10);
  if (errno != 0 || *end != '\0' || value < 1 || value > CAVS_MAX_THREADS)
    return 0;
  return static_cast<int32_t>(value);
}

/// Resizes the pool, then records the count (the pool keeps its size when
/// it cannot start the threads, and so does the count).
void applyThreads(int32_t threads) {
  setPoolThreads(threads);
  currentThreads = threads;
}

} // namespace

void initKernelThreads() {
  std::call_once(defaultApplied, [] {
    int32_t threads = threadsFromEnvironment();
    if (threads == 0)
      threads = static_cast<int32_t>(std::thread::hardware_concurrency());
    try {
      applyThreads(std::clamp<int32_t>(threads, 1, CAVS_MAX_THREADS));
    } catch (const std::system_error &) {
      // The pool stays at the calling thread alone, and the count at 1.
    }
  });
}

Status setKernelThreads(int32_t threads) {
  if (threads < 1 || threads > CAVS_MAX_THREADS)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "the number of threads must be in [1, {}], not {}",
                     CAVS_MAX_THREADS, threads);
  initKernelThreads();
  try {
    applyThreads(threads);
  } catch (const std::system_error &error) {
    return makeError(CAVS_ERROR_OUT_OF_MEMORY,
                     "cannot start {} kernel threads: {}; the count stays {}",
                     threads, error.code().message(), currentThreads.load());
  }
  return Status();
}

int32_t kernelThreads() {
  initKernelThreads();
  return currentThreads;
}

} // namespace cavs::runtime
