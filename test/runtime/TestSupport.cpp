//===- TestSupport.cpp - shared helpers of the runtime tests --------------===//
//
// checkSchedule recomputes everything from the batch with the simplest code
// that works, so that it shares no logic with the scheduler it checks.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include <algorithm>
#include <fstream>
#include <numeric>
#include <unistd.h>

namespace cavs::test {

void TempDirTest::SetUp() {
  const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
  dir = std::filesystem::temp_directory_path() /
        (std::string("cavs-runtime-") + info->test_suite_name() + "-" +
         info->name() + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
}

void TempDirTest::TearDown() { std::filesystem::remove_all(dir); }

std::string TempDirTest::writeFile(const std::string &name,
                                   const std::string &text) {
  const std::filesystem::path path = dir / name;
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

std::vector<int32_t> referenceHeights(const GraphBatch &batch) {
  std::vector<int32_t> heights(batch.numVertices(), 0);
  for (bool changed = true; changed;) {
    changed = false;
    for (int32_t v = 0; v < batch.numVertices(); ++v)
      for (int32_t child : batch.children(v))
        if (child != CAVS_NO_CHILD && heights[child] + 1 > heights[v]) {
          heights[v] = heights[child] + 1;
          changed = true;
        }
  }
  return heights;
}

void checkSchedule(const GraphBatch &batch, const Schedule &schedule,
                   bool byLevels) {
  const int32_t n = batch.numVertices();
  ASSERT_EQ(schedule.numRows(), n);
  ASSERT_EQ(schedule.numTypes(), batch.numTypes());
  Span<const cavs_task> tasks = schedule.tasks();
  Span<const int32_t> rowVertices = schedule.rowVertices();
  Span<const int32_t> vertexRows = schedule.vertexRows();
  Span<const int32_t> localRows = schedule.localRows();

  // Rows are a permutation of the vertices, and vertexRows its inverse.
  std::vector<int32_t> seen(n, 0);
  for (int32_t r = 0; r < n; ++r) {
    ASSERT_GE(rowVertices[r], 0);
    ASSERT_LT(rowVertices[r], n);
    ++seen[rowVertices[r]];
    EXPECT_EQ(vertexRows[rowVertices[r]], r);
  }
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int32_t count) {
    return count == 1;
  })) << "some vertex is not scheduled exactly once";

  // Tasks tile the rows in order, sorted by (level, type) without repeats;
  // each holds one type in increasing vertex id, at the level of its height
  // (by levels) or at its own index (the greedy order).
  const std::vector<int32_t> heights = referenceHeights(batch);
  const int32_t depth = *std::max_element(heights.begin(), heights.end()) + 1;
  EXPECT_EQ(schedule.numLevels(), depth);
  EXPECT_GE(int32_t(tasks.size()), depth);
  std::vector<int32_t> rowLevels(n, -1), typeRowsUsed(batch.numTypes(), 0);
  int32_t nextRow = 0;
  for (size_t t = 0; t < tasks.size(); ++t) {
    const cavs_task &task = tasks[t];
    ASSERT_EQ(task.global_begin, nextRow) << "task " << t;
    ASSERT_GT(task.count, 0) << "task " << t;
    EXPECT_EQ(task.arity, batch.arity(task.type)) << "task " << t;
    if (!byLevels) {
      EXPECT_EQ(task.level, int32_t(t));
    } else if (t > 0) {
      EXPECT_LT(std::make_pair(tasks[t - 1].level, tasks[t - 1].type),
                std::make_pair(task.level, task.type))
          << "task " << t;
    }
    EXPECT_EQ(task.local_begin, typeRowsUsed[task.type]) << "task " << t;
    typeRowsUsed[task.type] += task.count;
    for (int32_t i = 0; i < task.count; ++i) {
      const int32_t r = task.global_begin + i, v = rowVertices[r];
      rowLevels[r] = task.level;
      EXPECT_EQ(batch.types()[v], task.type) << "vertex " << v;
      if (byLevels) {
        EXPECT_EQ(heights[v], task.level)
            << "vertex " << v << " is not batched as early as possible";
      }
      if (i > 0) {
        EXPECT_LT(rowVertices[r - 1], v) << "task " << t << " out of order";
      }
      EXPECT_EQ(localRows[v], task.local_begin + i) << "vertex " << v;
      EXPECT_EQ(schedule.typeRows(task.type)[task.local_begin + i], r);
    }
    nextRow += task.count;
  }
  ASSERT_EQ(nextRow, n);
  for (int32_t type = 0; type < batch.numTypes(); ++type)
    EXPECT_EQ(int32_t(schedule.typeRows(type).size()), typeRowsUsed[type]);

  // Children rows name the children, which live in earlier levels; a view
  // is reported exactly when a slot's rows are one ascending run.
  for (const cavs_task &task : tasks)
    for (int32_t k = 0; k < task.arity; ++k) {
      Span<const int32_t> rows = schedule.childRows(task, k);
      bool contiguous = true;
      for (int32_t i = 0; i < task.count; ++i) {
        const int32_t v = rowVertices[task.global_begin + i];
        const int32_t child = batch.children(v)[k];
        if (child == CAVS_NO_CHILD) {
          EXPECT_EQ(rows[i], CAVS_NO_CHILD);
          contiguous = false;
          continue;
        }
        EXPECT_EQ(rows[i], vertexRows[child]);
        EXPECT_LT(rowLevels[rows[i]], task.level);
        contiguous = contiguous && rows[i] == rows[0] + i;
      }
      EXPECT_EQ(schedule.childView(task, k), contiguous ? rows[0] : -1)
          << "task at level " << task.level << ", slot " << k;
    }

  // Parent counts count child slots; the row copy is in row order.
  std::vector<int32_t> parents(n, 0);
  for (int32_t v = 0; v < n; ++v)
    for (int32_t child : batch.children(v))
      if (child != CAVS_NO_CHILD)
        ++parents[child];
  for (int32_t v = 0; v < n; ++v) {
    EXPECT_EQ(batch.parentCounts()[v], parents[v]) << "vertex " << v;
    EXPECT_EQ(schedule.rowParentCounts()[vertexRows[v]], parents[v]);
  }

  // Backward replay: in reverse task order every vertex has received the
  // gradients of all its parents before its own task runs.
  std::vector<int32_t> pending(schedule.rowParentCounts().begin(),
                               schedule.rowParentCounts().end());
  for (size_t t = tasks.size(); t-- > 0;) {
    const cavs_task &task = tasks[t];
    for (int32_t i = 0; i < task.count; ++i)
      EXPECT_EQ(pending[task.global_begin + i], 0)
          << "row " << task.global_begin + i << " replayed too early";
    for (int32_t k = 0; k < task.arity; ++k)
      for (int32_t row : schedule.childRows(task, k))
        if (row != CAVS_NO_CHILD)
          --pending[row];
  }
  EXPECT_TRUE(std::all_of(pending.begin(), pending.end(),
                          [](int32_t count) { return count == 0; }));
}

} // namespace cavs::test
