//===- ThreadPool.cpp - the fork-join threads of the CPU work -------------===//
//
// A call publishes its job with one atomic ticket; the caller and the
// workers that see it claim its ranges one by one and count each done in
// `pending_`; the caller, out of ranges to claim, spins until the count is
// zero. Which thread runs a range does not change its results.
//
//===----------------------------------------------------------------------===//
#include "support/ThreadPool.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <system_error>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CAVS_SPIN_PAUSE() _mm_pause()
#else
#define CAVS_SPIN_PAUSE() std::this_thread::yield()
#endif

namespace cavs::runtime {

namespace {

/// How long an idle worker spins before it sleeps: longer than the gap
/// between two ops of a phase, short enough that a pool between passes
/// costs nothing.
constexpr auto kSpinTime = std::chrono::microseconds(200);

/// A ticket's low bits hold the job's number of ranges.
constexpr int kPartBits = 16;
constexpr int64_t kMaxParts = (int64_t(1) << kPartBits) - 1;

/// The thread a pool call runs on is busy: a nested call runs inline.
thread_local bool insideJob = false;

/// The default of minParallelFloats: a split costs a few microseconds
/// (waking the workers and waiting for the slowest), the time of about
/// this many floats of a copy or an elementwise kernel.
constexpr int64_t kDefaultMinParallelFloats = 16384;

int64_t minParallelFloatsFromEnvironment() {
  const char *text = std::getenv("CAVS_MIN_PARALLEL_FLOATS");
  if (!text || *text < '0' || *text > '9')
    return kDefaultMinParallelFloats;
  char *end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text, &end, 10);
  if (errno != 0 || *end != '\0')
    return kDefaultMinParallelFloats;
  return value;
}

/// Range `part` of [begin, end) cut into `parts` near-equal ranges.
int64_t boundary(int64_t begin, int64_t end, int64_t parts, int64_t part) {
  return begin + (end - begin) * part / parts;
}

} // namespace

ThreadPool::ThreadPool(int32_t threads) { start(threads); }

ThreadPool::~ThreadPool() { stop(); }

void ThreadPool::resize(int32_t threads) {
  std::lock_guard<std::mutex> lock(busy_);
  const int32_t previous = size();
  if (threads == previous)
    return;
  stop();
  try {
    start(threads);
  } catch (const std::system_error &) {
    stop();
    start(previous);
    throw;
  }
}

void ThreadPool::start(int32_t threads) {
  stopping_ = false;
  // Each worker starts from the current ticket, so it cannot miss a job
  // published before it first runs.
  const uint64_t seen = ticket_.load();
  for (int32_t i = 1; i < threads; ++i)
    workers_.emplace_back([this, seen] { work(seen); });
}

void ThreadPool::stop() {
  stopping_ = true;
  {
    std::lock_guard<std::mutex> lock(sleep_);
    wake_.notify_all();
  }
  for (std::thread &worker : workers_)
    worker.join();
  workers_.clear();
}

void ThreadPool::run(int64_t begin, int64_t end, int64_t parts, Body body,
                     const void *context) {
  parts = std::min<int64_t>({parts, size(), end - begin, kMaxParts});
  // insideJob first: the caller of a job holds busy_, and must not try to
  // lock it again.
  if (parts <= 1 || insideJob) {
    body(context, begin, end);
    return;
  }
  std::unique_lock<std::mutex> lock(busy_, std::try_to_lock);
  if (!lock.owns_lock()) {
    body(context, begin, end);
    return;
  }
  body_ = body;
  context_ = context;
  begin_ = begin;
  end_ = end;
  pending_.store(parts, std::memory_order_relaxed);
  const uint64_t job =
      (ticket_.load(std::memory_order_relaxed) >> kPartBits) + 1;
  claim_.store(job << kPartBits, std::memory_order_relaxed);
  // Sequentially consistent, like the sleepers' count below: either a
  // worker about to sleep is counted, or it sees the new ticket.
  ticket_.store(job << kPartBits | uint64_t(parts));
  if (sleepers_.load() > 0) {
    std::lock_guard<std::mutex> sleeping(sleep_);
    wake_.notify_all();
  }
  insideJob = true;
  while (runRange(job, parts)) {
  }
  insideJob = false;
  for (unsigned spins = 0; pending_.load(std::memory_order_acquire) != 0;
       ++spins) {
    // A worker may have been descheduled (more threads than cores).
    if (spins % 1024 == 1023)
      std::this_thread::yield();
    else
      CAVS_SPIN_PAUSE();
  }
}

bool ThreadPool::runRange(uint64_t job, int64_t parts) {
  uint64_t claim = claim_.load(std::memory_order_acquire);
  for (;;) {
    const int64_t range = int64_t(claim & kMaxParts);
    if ((claim >> kPartBits) != job || range >= parts)
      return false;
    if (claim_.compare_exchange_weak(claim, claim + 1,
                                     std::memory_order_acq_rel))
      break;
  }
  const int64_t range = int64_t(claim & kMaxParts);
  body_(context_, boundary(begin_, end_, parts, range),
        boundary(begin_, end_, parts, range + 1));
  pending_.fetch_sub(1, std::memory_order_release);
  return true;
}

void ThreadPool::work(uint64_t seen) {
  insideJob = true;
  for (;;) {
    uint64_t ticket = ticket_.load(std::memory_order_acquire);
    const auto spinUntil = std::chrono::steady_clock::now() + kSpinTime;
    for (unsigned spins = 0; ticket == seen && !stopping_; ++spins) {
      if (spins % 64 == 63 && std::chrono::steady_clock::now() > spinUntil) {
        std::unique_lock<std::mutex> lock(sleep_);
        ++sleepers_;
        wake_.wait(lock, [&] { return ticket_.load() != seen || stopping_; });
        --sleepers_;
      }
      CAVS_SPIN_PAUSE();
      ticket = ticket_.load(std::memory_order_acquire);
    }
    if (stopping_)
      return;
    seen = ticket;
    while (runRange(ticket >> kPartBits, int64_t(ticket & kMaxParts))) {
    }
  }
}

ThreadPool &opPool() {
  // Never destroyed: ops may run from static destructors of other objects,
  // and joining threads at exit is not needed.
  static ThreadPool *pool = new ThreadPool(1);
  return *pool;
}

void setPoolThreads(int32_t threads) { opPool().resize(threads); }

int64_t minParallelFloats() {
  static const int64_t floats = minParallelFloatsFromEnvironment();
  return floats;
}

int64_t partsFor(int64_t count, int64_t floats) {
  if (floats < minParallelFloats())
    return 1;
  return std::min<int64_t>(count, opPool().size());
}

} // namespace cavs::runtime
