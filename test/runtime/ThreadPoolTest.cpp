//===- ThreadPoolTest.cpp - the fork-join pool of the CPU ops -------------===//
//
// Ranges cover the work exactly once, the caller and the workers share
// them, nested and concurrent calls run inline instead of deadlocking, and
// resizing between calls (and a pool whose workers have gone to sleep)
// keeps working.
//
//===----------------------------------------------------------------------===//
#include "support/ThreadPool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

namespace cavs::test {
namespace {

using runtime::ThreadPool;
using Range = std::pair<int64_t, int64_t>;

/// The ranges one parallelFor call hands out, sorted.
std::set<Range> rangesOf(ThreadPool &pool, int64_t begin, int64_t end,
                         int64_t parts) {
  std::mutex mutex;
  std::set<Range> ranges;
  pool.parallelFor(begin, end, parts, [&](int64_t b, int64_t e) {
    std::lock_guard<std::mutex> lock(mutex);
    ranges.insert({b, e});
  });
  return ranges;
}

/// Expects `ranges` to tile [begin, end) with `count` non-empty ranges.
void expectTiling(const std::set<Range> &ranges, int64_t begin, int64_t end,
                  size_t count) {
  ASSERT_EQ(ranges.size(), count);
  int64_t next = begin;
  for (auto [b, e] : ranges) {
    EXPECT_EQ(b, next);
    EXPECT_LT(b, e);
    next = e;
  }
  EXPECT_EQ(next, end);
}

TEST(ThreadPoolTest, RangesTileTheWorkOncePerParticipant) {
  ThreadPool pool(3);
  EXPECT_EQ(pool.size(), 3);
  expectTiling(rangesOf(pool, 5, 105, 3), 5, 105, 3);
  // At most `parts`, at most one per participant, never an empty one.
  expectTiling(rangesOf(pool, 0, 100, 2), 0, 100, 2);
  expectTiling(rangesOf(pool, 0, 100, 8), 0, 100, 3);
  expectTiling(rangesOf(pool, 0, 2, 3), 0, 2, 2);
  expectTiling(rangesOf(pool, 0, 1, 3), 0, 1, 1);
  EXPECT_EQ(rangesOf(pool, 4, 4, 3), (std::set<Range>{{4, 4}}));
}

TEST(ThreadPoolTest, TheCallerAndTheWorkersShareTheRanges) {
  ThreadPool pool(2);
  std::mutex mutex;
  std::set<std::thread::id> runners;
  // Ranges long enough that the worker claims one while the caller runs
  // the other.
  pool.parallelFor(0, 2, 2, [&](int64_t, int64_t) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::lock_guard<std::mutex> lock(mutex);
    runners.insert(std::this_thread::get_id());
  });
  EXPECT_EQ(runners.size(), 2u);
  EXPECT_EQ(runners.count(std::this_thread::get_id()), 1u);
}

TEST(ThreadPoolTest, NestedCallsRunInline) {
  ThreadPool pool(3);
  std::atomic<int64_t> sum{0};
  pool.parallelFor(0, 3, 3, [&](int64_t b, int64_t e) {
    // From the caller and from the workers alike: one range, this thread.
    const std::thread::id self = std::this_thread::get_id();
    pool.parallelFor(b * 10, e * 10, 3, [&](int64_t ib, int64_t ie) {
      EXPECT_EQ(std::this_thread::get_id(), self);
      EXPECT_EQ(ie - ib, 10);
      for (int64_t i = ib; i < ie; ++i)
        sum += i;
    });
  });
  EXPECT_EQ(sum, 29 * 30 / 2);
}

TEST(ThreadPoolTest, CallsFromTwoThreadsBothComplete) {
  ThreadPool pool(2);
  std::atomic<int64_t> sum{0};
  auto add = [&] {
    for (int i = 0; i < 2000; ++i)
      pool.parallelFor(0, 4, 2, [&](int64_t b, int64_t e) {
        for (int64_t j = b; j < e; ++j)
          sum += j;
      });
  };
  std::thread other(add);
  add();
  other.join();
  EXPECT_EQ(sum, 2 * 2000 * 6);
}

TEST(ThreadPoolTest, ResizingAndSleepingWorkersKeepWorking) {
  ThreadPool pool(1);
  expectTiling(rangesOf(pool, 0, 10, 4), 0, 10, 1);
  for (int32_t threads : {4, 2, 3, 1, 2}) {
    pool.resize(threads);
    EXPECT_EQ(pool.size(), threads);
    expectTiling(rangesOf(pool, 0, 10, 4), 0, 10, size_t(std::min(threads, 4)));
  }
  // Long enough for the workers to stop spinning and sleep.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  expectTiling(rangesOf(pool, 0, 10, 4), 0, 10, 2);
}

TEST(ThreadPoolTest, ManyShortCallsInARow) {
  ThreadPool pool(3);
  std::vector<int64_t> counts(3 * 1000, 0);
  for (int call = 0; call < 1000; ++call)
    pool.parallelFor(0, 3, 3, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i)
        ++counts[call * 3 + i];
    });
  EXPECT_EQ(counts, std::vector<int64_t>(3 * 1000, 1));
}

} // namespace
} // namespace cavs::test
