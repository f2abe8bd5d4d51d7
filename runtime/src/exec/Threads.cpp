//===- Threads.cpp - the process-wide kernel thread count -----------------===//
//
// The count behind cavs_set_num_threads and cavs_num_threads, and its lazy
// default: a valid $CAVS_NUM_THREADS (a positive decimal integer), else the
// number of cores.
// The count sizes the pool (support/ThreadPool.h) of the ops, which also
// splits the matrix products (the GEMM engines run on the calling thread
// only), and of the optimizer steps.
//
//===----------------------------------------------------------------------===//
#include "exec/Threads.h"
#include "support/ThreadPool.h"

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace cavs::runtime {

namespace {

std::once_flag defaultApplied;
std::atomic<int32_t> currentThreads{1};

/// $CAVS_NUM_THREADS when it is a positive int32, else 0.
int32_t threadsFromEnvironment() {
  const char *text = std::getenv("CAVS_NUM_THREADS");
  if (!text || *text < '0' || *text > '9')
    return 0;
  char *end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text, &end, 10);
  if (errno != 0 || *end != '\0' || value < 1 || value > INT32_MAX)
    return 0;
  return static_cast<int32_t>(value);
}

void applyThreads(int32_t threads) {
  currentThreads = threads;
  setPoolThreads(threads);
}

} // namespace

void initKernelThreads() {
  std::call_once(defaultApplied, [] {
    int32_t threads = threadsFromEnvironment();
    if (threads == 0)
      threads = static_cast<int32_t>(std::thread::hardware_concurrency());
    applyThreads(threads > 0 ? threads : 1);
  });
}

Status setKernelThreads(int32_t threads) {
  if (threads < 1)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "the number of threads must be at least 1, not {}",
                     threads);
  initKernelThreads();
  applyThreads(threads);
  return Status();
}

int32_t kernelThreads() {
  initKernelThreads();
  return currentThreads;
}

} // namespace cavs::runtime
