//===- Threads.cpp - the process-wide kernel thread count -----------------===//
//
// The count behind cavs_set_num_threads and cavs_num_threads, and its lazy
// default: $CAVS_NUM_THREADS (a decimal integer in [1, CAVS_MAX_THREADS])
// when it is set, else the number of cores (1 when the system cannot start
// them). A $CAVS_NUM_THREADS that is not such an integer, or asks for more
// threads than the system starts, fails instance creation, as a bad
// $CAVS_GEMM does.
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
#include <string>
#include <system_error>
#include <thread>

namespace cavs::runtime {

namespace {

std::once_flag defaultApplied;
/// Why $CAVS_NUM_THREADS was not applied, reported by instance creation
/// until cavs_set_num_threads sets a count; guarded by statusMutex.
Status defaultStatus;
std::mutex statusMutex;
std::atomic<int32_t> currentThreads{1};

/// Resizes the pool, then records the count (the pool keeps its size when
/// it cannot start the threads, and so does the count).
void applyThreads(int32_t threads) {
  setPoolThreads(threads);
  currentThreads = threads;
}

/// The number of cores, in [1, CAVS_MAX_THREADS].
int32_t coreCount() {
  return std::clamp<int32_t>(
      static_cast<int32_t>(std::thread::hardware_concurrency()), 1,
      CAVS_MAX_THREADS);
}

/// Applies `threads`; false, with the system's reason in `error` when
/// given, when they cannot be started.
bool tryApply(int32_t threads, std::string *error) {
  try {
    applyThreads(threads);
    return true;
  } catch (const std::system_error &failure) {
    if (error)
      *error = failure.code().message();
    return false;
  }
}

/// The default from $CAVS_NUM_THREADS (`text`, set), or why it cannot be.
Status applyFromEnvironment(const char *text) {
  char *end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text, &end, 10);
  if (*text < '0' || *text > '9' || errno != 0 || *end != '\0' || value < 1 ||
      value > CAVS_MAX_THREADS) {
    tryApply(coreCount(), nullptr);
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "$CAVS_NUM_THREADS is '{}'; expected an integer in "
                     "[1, {}]",
                     text, CAVS_MAX_THREADS);
  }
  std::string error;
  if (tryApply(static_cast<int32_t>(value), &error))
    return Status();
  tryApply(coreCount(), nullptr);
  return makeError(CAVS_ERROR_OUT_OF_MEMORY,
                   "$CAVS_NUM_THREADS: cannot start {} kernel threads: {}; "
                   "the count is {}",
                   value, error, currentThreads.load());
}

} // namespace

Status initKernelThreads() {
  std::call_once(defaultApplied, [] {
    // Like $CAVS_GEMM, a value that cannot be applied is an error, not a
    // count silently other than the one asked for (the cores' is kept).
    const char *text = std::getenv("CAVS_NUM_THREADS");
    if (!text || !*text) {
      tryApply(coreCount(), nullptr); // else the count stays 1
      return;
    }
    Status status = applyFromEnvironment(text);
    std::lock_guard<std::mutex> lock(statusMutex);
    defaultStatus = std::move(status);
  });
  std::lock_guard<std::mutex> lock(statusMutex);
  return defaultStatus;
}

Status setKernelThreads(int32_t threads) {
  if (threads < 1 || threads > CAVS_MAX_THREADS)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "the number of threads must be in [1, {}], not {}",
                     CAVS_MAX_THREADS, threads);
  (void)initKernelThreads(); // a failed default is overridden here
  try {
    applyThreads(threads);
  } catch (const std::system_error &error) {
    return makeError(CAVS_ERROR_OUT_OF_MEMORY,
                     "cannot start {} kernel threads: {}; the count stays {}",
                     threads, error.code().message(), currentThreads.load());
  }
  std::lock_guard<std::mutex> lock(statusMutex);
  defaultStatus = Status();
  return Status();
}

int32_t kernelThreads() {
  (void)initKernelThreads(); // instance creation reports a failed default
  return currentThreads;
}

} // namespace cavs::runtime
