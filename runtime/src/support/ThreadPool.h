//===- ThreadPool.h - the fork-join threads of the CPU work ---------------===//
//
// One process-wide pool runs the CPU ops (and the fused kernels, through
// run_rows), the optimizers' updates and the zeroing of gradients on the
// kernel threads (cavs_set_num_threads): an op splits its rows, columns or
// blocks of a product into contiguous ranges, one per thread, which the
// calling thread and the workers claim and run. Between
// calls the workers spin briefly (the next op usually follows within
// microseconds), then sleep, so an idle pool costs nothing.
//
// Only work that touches enough floats is split (minParallelFloats): below
// that, waking the workers costs more than it saves. The ops split so that
// every element is computed by one thread in the same order whatever the
// thread count, which keeps results bitwise identical for any count (for
// products, where the engine computes a block of C as the whole product:
// docs/runtime.md, "Timing, threads and determinism").
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_SUPPORT_THREADPOOL_H
#define CAVS_RUNTIME_SUPPORT_THREADPOOL_H

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace cavs::runtime {

class ThreadPool {
public:
  /// A range body: fn(context, begin, end).
  using Body = void (*)(const void *context, int64_t begin, int64_t end);

  /// A pool of `threads` participants, the caller included (>= 1).
  explicit ThreadPool(int32_t threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  /// Participants, the caller included.
  int32_t size() const { return int32_t(workers_.size()) + 1; }
  /// Stops the workers and starts `threads` - 1 new ones; waits for a call
  /// in progress. When the system cannot start them all, restarts the
  /// previous number and throws the std::system_error.
  void resize(int32_t threads);

  /// Runs fn(begin', end') over [begin, end) cut into at most `parts`
  /// contiguous, non-empty ranges (at most size()), which the caller and
  /// the workers claim, and returns when all are done. fn must not throw. A
  /// call made while the pool is busy (from a worker, or from another thread)
  /// runs fn(begin, end) inline.
  template <typename Fn>
  void parallelFor(int64_t begin, int64_t end, int64_t parts, const Fn &fn) {
    run(
        begin, end, parts,
        [](const void *context, int64_t b, int64_t e) {
          (*static_cast<const Fn *>(context))(b, e);
        },
        &fn);
  }

private:
  void run(int64_t begin, int64_t end, int64_t parts, Body body,
           const void *context);
  /// Claims and runs one unclaimed range of job `job` (of `parts`);
  /// false when the job has none left.
  bool runRange(uint64_t job, int64_t parts);
  void start(int32_t threads);
  void stop();
  void work(uint64_t seen);

  /// Held by the calling thread during a call and by resize.
  std::mutex busy_;
  std::vector<std::thread> workers_;

  // The job: written by the caller before it publishes the job's ticket,
  // read by the threads that claim a range of it.
  Body body_ = nullptr;
  const void *context_ = nullptr;
  int64_t begin_ = 0, end_ = 0;
  /// (job number << 16) | parts: a worker learns both with one load.
  std::atomic<uint64_t> ticket_{0};
  /// (job number << 16) | the next range to claim. Ranges are claimed, not
  /// assigned: the caller runs those no worker has started (a worker may
  /// be asleep, or descheduled when cores are shared), and a late worker
  /// cannot claim a range of a later job, whose number differs.
  std::atomic<uint64_t> claim_{0};
  /// Ranges of the job not yet done.
  std::atomic<int64_t> pending_{0};
  std::atomic<bool> stopping_{false};

  // Sleeping workers wait on `wake_`.
  std::mutex sleep_;
  std::condition_variable wake_;
  std::atomic<int32_t> sleepers_{0};
};

/// The pool of the CPU ops, sized by setPoolThreads (1 until then).
ThreadPool &opPool();
/// Resizes it (exec/Threads.cpp, for cavs_set_num_threads).
void setPoolThreads(int32_t threads);

/// The floats an op must touch (read or write) before it is split:
/// $CAVS_MIN_PARALLEL_FLOATS when it is a non-negative integer (tests set
/// 1 or 0 so that every op splits), else a default measured on the models'
/// ops (docs/runtime.md).
int64_t minParallelFloats();

/// How many parts work of `floats` floats over `count` rows (or columns,
/// or blocks) is cut into: 1 below minParallelFloats, else up to one per
/// thread of the pool, never more than `count`.
int64_t partsFor(int64_t count, int64_t floats);

/// fn(begin, end) over [0, count), in partsFor(count, floats) ranges of the
/// pool.
template <typename Fn>
void parallelRanges(int64_t count, int64_t floats, const Fn &fn) {
  const int64_t parts = partsFor(count, floats);
  if (parts <= 1) {
    fn(int64_t(0), count);
    return;
  }
  opPool().parallelFor(0, count, parts, fn);
}

/// fn(first, last) over the columns [0, width) of an accumulation, split
/// like parallelRanges at multiples of a cache line (16 floats), so that
/// no two threads write the same line.
template <typename Fn>
void parallelColumns(int64_t width, int64_t floats, const Fn &fn) {
  constexpr int64_t kLine = 16;
  parallelRanges((width + kLine - 1) / kLine, floats,
                 [&](int64_t begin, int64_t end) {
                   fn(begin * kLine, std::min(end * kLine, width));
                 });
}

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_SUPPORT_THREADPOOL_H
