//===- SchedulerTest.cpp - the batching schedule and its row layout -------===//
//
// A hand-checked schedule, then properties on many shapes through
// checkSchedule: chains (contiguous child views), DAGs with shared children,
// two types per level, random DAGs against a direct simulation of the
// paper's policy and 100k-vertex chains; then the fewest-tasks policy
// against a direct simulation of its greedy order.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include <algorithm>
#include <numeric>
#include <random>

namespace cavs::test {
namespace {

std::vector<int32_t> toVector(Span<const int32_t> values) {
  return {values.begin(), values.end()};
}

// Tests every field of a small schedule worked out by hand.
TEST(Scheduler, HandCheckedLayout) {
  // Types leaf (0, arity 0) and internal (1, arity 2). Sample 0 is ((a b) c)
  // with the root first: 0=(1 4), 1=(2 3), leaves 2 3 4; sample 1 is leaf 5.
  GraphBuilder builder({0, 2});
  builder.addSample({1, 1, 0, 0, 0}, {1, 4, 2, 3, -1, -1, -1, -1, -1, -1});
  builder.addSample({0}, {-1, -1});
  GraphBatch batch = builder.finalize();
  Schedule schedule(batch);

  ASSERT_EQ(schedule.tasks().size(), 3u);
  EXPECT_EQ(schedule.numLevels(), 3);
  const cavs_task &leaves = schedule.tasks()[0];
  const cavs_task &inner = schedule.tasks()[1];
  const cavs_task &root = schedule.tasks()[2];
  EXPECT_EQ(leaves.type, 0);
  EXPECT_EQ(leaves.level, 0);
  EXPECT_EQ(leaves.count, 4);
  EXPECT_EQ(leaves.global_begin, 0);
  EXPECT_EQ(leaves.local_begin, 0);
  EXPECT_EQ(leaves.arity, 0);
  EXPECT_EQ(inner.type, 1);
  EXPECT_EQ(inner.global_begin, 4);
  EXPECT_EQ(inner.local_begin, 0);
  EXPECT_EQ(root.global_begin, 5);
  EXPECT_EQ(root.local_begin, 1);

  EXPECT_EQ(toVector(schedule.rowVertices()),
            (std::vector<int32_t>{2, 3, 4, 5, 1, 0}));
  EXPECT_EQ(toVector(schedule.vertexRows()),
            (std::vector<int32_t>{5, 4, 0, 1, 2, 3}));
  EXPECT_EQ(toVector(schedule.localRows()),
            (std::vector<int32_t>{1, 0, 0, 1, 2, 3}));
  EXPECT_EQ(toVector(schedule.typeRows(0)), (std::vector<int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(toVector(schedule.typeRows(1)), (std::vector<int32_t>{4, 5}));
  EXPECT_EQ(toVector(schedule.childRows(inner, 0)), (std::vector<int32_t>{0}));
  EXPECT_EQ(toVector(schedule.childRows(inner, 1)), (std::vector<int32_t>{1}));
  EXPECT_EQ(toVector(schedule.childRows(root, 0)), (std::vector<int32_t>{4}));
  EXPECT_EQ(toVector(schedule.childRows(root, 1)), (std::vector<int32_t>{2}));
  EXPECT_EQ(schedule.childView(root, 1), 2);
  EXPECT_EQ(toVector(schedule.rowParentCounts()),
            (std::vector<int32_t>{1, 1, 1, 0, 1, 0}));
  checkSchedule(batch, schedule);
}

// Tests child views on chains: equal lengths and a shrinking prefix of
// chains give contiguous slots, a gap in the active chains does not.
TEST(Scheduler, ChildViewsOnChains) {
  for (const std::vector<int32_t> &lengths :
       {std::vector<int32_t>{4, 4, 4}, std::vector<int32_t>{2, 4, 4}}) {
    GraphBatch batch = makeChains(lengths);
    Schedule schedule(batch);
    checkSchedule(batch, schedule);
    ASSERT_EQ(schedule.tasks().size(), 4u);
    EXPECT_EQ(schedule.childView(schedule.tasks()[0], 0), -1)
        << "absent children are never a view";
    for (size_t t = 1; t < 4; ++t)
      EXPECT_NE(schedule.childView(schedule.tasks()[t], 0), -1)
          << "level " << t;
  }
  GraphBatch gap = makeChains({4, 2, 4});
  Schedule schedule(gap);
  checkSchedule(gap, schedule);
  EXPECT_EQ(schedule.childView(schedule.tasks()[1], 0),
            schedule.tasks()[0].global_begin);
  EXPECT_EQ(schedule.childView(schedule.tasks()[2], 0), -1);
}

// Tests a DAG: a diamond whose bottom is shared by two parents, and a
// vertex read in both slots of one parent.
TEST(Scheduler, DagWithSharedChildren) {
  GraphBuilder builder({2});
  // 0 = (1 2), 1 = (3 -), 2 = (3 3), 3 leaf.
  builder.addSample({0, 0, 0, 0}, {1, 2, 3, -1, 3, 3, -1, -1});
  GraphBatch batch = builder.finalize();
  EXPECT_EQ(toVector(batch.parentCounts()), (std::vector<int32_t>{0, 1, 1, 3}));
  Schedule schedule(batch);
  checkSchedule(batch, schedule);
  EXPECT_EQ(schedule.tasks().size(), 3u);
  EXPECT_EQ(schedule.rowParentCounts()[schedule.vertexRows()[3]], 3);
  const cavs_task &middle = schedule.tasks()[1];
  EXPECT_EQ(middle.count, 2);
  EXPECT_EQ(toVector(schedule.childRows(middle, 0)),
            (std::vector<int32_t>{0, 0}));
  EXPECT_EQ(schedule.childView(middle, 0), -1);
}

// Tests two vertex types in one level: one task per type, sorted by type,
// each with its own arena.
TEST(Scheduler, TwoTypesPerLevel) {
  // Type 0: unary, type 1: binary. Two leaves of each type, then a unary and
  // a binary vertex both at level 1, then a binary root.
  GraphBuilder builder({1, 2});
  builder.addSample({1, 0, 1, 0, 1, 0, 1},
                    {-1, -1, -1, -1, -1, -1, -1, -1, 0, 1, 2, -1, 4, 5});
  GraphBatch batch = builder.finalize();
  Schedule schedule(batch);
  checkSchedule(batch, schedule);
  ASSERT_EQ(schedule.tasks().size(), 5u);
  EXPECT_EQ(schedule.numLevels(), 3);
  std::vector<std::pair<int32_t, int32_t>> levelTypes;
  for (const cavs_task &task : schedule.tasks())
    levelTypes.emplace_back(task.level, task.type);
  EXPECT_EQ(levelTypes, (std::vector<std::pair<int32_t, int32_t>>{
                            {0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 1}}));
  EXPECT_EQ(toVector(schedule.typeRows(0)).size(), 3u);
  EXPECT_EQ(toVector(schedule.typeRows(1)).size(), 4u);
}

// A random DAG batch with two types, numbered in random order so that
// children are not always before parents, or with `childrenFirst` in
// topological order (the scheduler's one-pass case).
GraphBatch randomDags(uint32_t seed, bool childrenFirst = false) {
  std::mt19937 rng(seed);
  GraphBuilder builder({0, 3});
  for (int s = 0; s < 20; ++s) {
    const int32_t n = 1 + rng() % 40;
    std::vector<int32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    if (!childrenFirst)
      std::shuffle(order.begin(), order.end(), rng);
    // order[i] is the id of the i-th vertex in topological order.
    std::vector<int32_t> types(n), children(size_t(n) * 3, -1);
    for (int32_t i = 0; i < n; ++i) {
      const int32_t v = order[i];
      types[v] = i == 0 || rng() % 4 == 0 ? 0 : 1;
      if (types[v] == 1)
        for (int k = 0; k < 3; ++k)
          if (rng() % 3 != 0)
            children[size_t(v) * 3 + k] = order[rng() % i];
    }
    builder.addSample(types, children);
  }
  return builder.finalize();
}

// Tests the schedule against a direct simulation of the policy: at each
// step, all vertices whose children are done, one task per type; DAGs
// numbered at random and children first.
TEST(Scheduler, MatchesDirectSimulationOnRandomDags) {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE(seed);
    GraphBatch batch = randomDags(seed, /*childrenFirst=*/seed > 20);
    Schedule schedule(batch);
    checkSchedule(batch, schedule);

    std::vector<std::vector<int32_t>> expected; // vertices of each task
    std::vector<bool> done(batch.numVertices(), false);
    for (int32_t remaining = batch.numVertices(); remaining > 0;) {
      std::vector<int32_t> ready;
      for (int32_t v = 0; v < batch.numVertices(); ++v) {
        Span<const int32_t> children = batch.children(v);
        if (!done[v] &&
            std::all_of(children.begin(), children.end(), [&](int32_t c) {
              return c == CAVS_NO_CHILD || done[c];
            }))
          ready.push_back(v);
      }
      for (int32_t type = 0; type < batch.numTypes(); ++type) {
        std::vector<int32_t> task;
        for (int32_t v : ready)
          if (batch.types()[v] == type)
            task.push_back(v);
        if (!task.empty())
          expected.push_back(task);
      }
      for (int32_t v : ready)
        done[v] = true;
      remaining -= static_cast<int32_t>(ready.size());
    }

    ASSERT_EQ(schedule.tasks().size(), expected.size());
    for (size_t t = 0; t < expected.size(); ++t) {
      const cavs_task &task = schedule.tasks()[t];
      Span<const int32_t> rows = schedule.rowVertices();
      EXPECT_EQ(
          std::vector<int32_t>(rows.begin() + task.global_begin,
                               rows.begin() + task.global_begin + task.count),
          expected[t])
          << "task " << t;
    }
  }
}

/// Binary trees whose vertices are type 0 or 1 by a coin flip (both arity
/// 2): every level holds both types, as in TreeLSTM-2Type.
GraphBatch coinFlipTrees(uint32_t seed) {
  std::mt19937 rng(seed);
  GraphBuilder builder({2, 2});
  for (int s = 0; s < 16; ++s) {
    // Vertex i > 0 hangs below a random earlier vertex with a free slot;
    // ids are reversed so children come first.
    const int32_t n = 1 + 2 * int32_t(rng() % 20);
    std::vector<int32_t> children(size_t(n) * 2, -1), types(n);
    std::vector<int32_t> open = {0};
    for (int32_t i = 1; i < n; i += 2) {
      const size_t pick = rng() % open.size();
      const int32_t parent = open[pick];
      open.erase(open.begin() + long(pick));
      children[size_t(n - 1 - parent) * 2] = n - 1 - i;
      children[size_t(n - 1 - parent) * 2 + 1] = n - 1 - (i + 1);
      open.push_back(i);
      open.push_back(i + 1);
    }
    for (int32_t &type : types)
      type = int32_t(rng() % 2);
    builder.addSample(types, children);
  }
  return builder.finalize();
}

/// The tasks of the greedy order, simulated directly: at each step all
/// ready vertices of the type with the most ready ones (the lowest type on
/// ties).
std::vector<std::vector<int32_t>> simulateGreedy(const GraphBatch &batch) {
  std::vector<std::vector<int32_t>> tasks;
  std::vector<bool> done(batch.numVertices(), false);
  for (int32_t remaining = batch.numVertices(); remaining > 0;) {
    std::vector<std::vector<int32_t>> ready(batch.numTypes());
    for (int32_t v = 0; v < batch.numVertices(); ++v) {
      Span<const int32_t> children = batch.children(v);
      if (!done[v] &&
          std::all_of(children.begin(), children.end(), [&](int32_t c) {
            return c == CAVS_NO_CHILD || done[c];
          }))
        ready[batch.types()[v]].push_back(v);
    }
    const auto most = std::max_element(
        ready.begin(), ready.end(),
        [](const auto &a, const auto &b) { return a.size() < b.size(); });
    for (int32_t v : *most)
      done[v] = true;
    remaining -= int32_t(most->size());
    tasks.push_back(*most);
  }
  return tasks;
}

std::vector<std::vector<int32_t>> taskVertices(const Schedule &schedule) {
  std::vector<std::vector<int32_t>> tasks;
  Span<const int32_t> rows = schedule.rowVertices();
  for (const cavs_task &task : schedule.tasks())
    tasks.emplace_back(rows.begin() + task.global_begin,
                       rows.begin() + task.global_begin + task.count);
  return tasks;
}

// Tests the fewest-tasks policy where levels hold two types: it follows the
// greedy order exactly and needs fewer tasks than the levels.
TEST(Scheduler, FewestTasksFollowsGreedyOrderOnTwoTypeTrees) {
  int32_t levelTasks = 0, fewestTasks = 0;
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    SCOPED_TRACE(seed);
    GraphBatch batch = coinFlipTrees(seed);
    Schedule levels(batch), fewest(batch, CAVS_SCHEDULE_FEWEST_TASKS);
    checkSchedule(batch, levels);
    const std::vector<std::vector<int32_t>> greedy = simulateGreedy(batch);
    ASSERT_LE(fewest.tasks().size(), levels.tasks().size());
    if (greedy.size() < levels.tasks().size()) {
      checkSchedule(batch, fewest, /*byLevels=*/false);
      EXPECT_EQ(taskVertices(fewest), greedy);
    } else {
      checkSchedule(batch, fewest);
      EXPECT_EQ(taskVertices(fewest), taskVertices(levels));
    }
    levelTasks += int32_t(levels.tasks().size());
    fewestTasks += int32_t(fewest.tasks().size());
  }
  EXPECT_LT(fewestTasks, levelTasks);
}

// Tests that the fewest-tasks policy never needs more tasks than the levels
// and keeps the level schedule where it would: one type per level, or random
// DAGs whose greedy order is no better.
TEST(Scheduler, FewestTasksNeverWorseThanLevels) {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE(seed);
    GraphBatch batch = randomDags(seed);
    Schedule levels(batch), fewest(batch, CAVS_SCHEDULE_FEWEST_TASKS);
    ASSERT_LE(fewest.tasks().size(), levels.tasks().size());
    const bool greedy = fewest.tasks().size() < levels.tasks().size();
    checkSchedule(batch, fewest, /*byLevels=*/!greedy);
    if (greedy)
      EXPECT_EQ(taskVertices(fewest), simulateGreedy(batch));
    else
      EXPECT_EQ(taskVertices(fewest), taskVertices(levels));
  }
  GraphBatch chains = makeChains({5, 3, 7});
  Schedule levels(chains), fewest(chains, CAVS_SCHEDULE_FEWEST_TASKS);
  EXPECT_EQ(taskVertices(fewest), taskVertices(levels));
}

// Tests that a value that is no policy is refused with a message.
TEST(Scheduler, UnknownPolicyIsRejected) {
  GraphBatch batch = makeChains({3});
  expectError([&] { Schedule schedule(batch, cavs_schedule_policy(7)); },
              CAVS_ERROR_INVALID_ARGUMENT, {"unknown schedule policy 7"});
}

// Tests 100k-vertex chains in both numbering directions: no recursion, one
// task per level.
TEST(Scheduler, HundredThousandVertexChains) {
  constexpr int32_t n = 100000;
  GraphBatch forward = makeChains({n});
  Schedule schedule(forward);
  EXPECT_EQ(schedule.numLevels(), n);
  EXPECT_EQ(schedule.tasks().size(), size_t(n));
  checkSchedule(forward, schedule);

  std::vector<int32_t> types(n, 0), children(n);
  for (int32_t v = 0; v < n; ++v)
    children[v] = v + 1 < n ? v + 1 : -1; // each vertex reads the next one
  GraphBuilder builder({1});
  builder.addSample(types, children);
  GraphBatch backward = builder.finalize();
  Schedule reversed(backward);
  EXPECT_EQ(reversed.numLevels(), n);
  EXPECT_EQ(reversed.rowVertices()[0], n - 1);
  EXPECT_EQ(reversed.rowVertices()[n - 1], 0);
}

// Tests batches of many types: a chain of 100k vertices, each of its own
// type, needs memory linear in vertices and types (a levels x types table
// asked for 40 GB), and 50k one-vertex samples of 50k types take the
// fewest-tasks policy n log n steps (picking the type by scanning all of
// them took 2.5e9).
TEST(Scheduler, ManyTypes) {
  constexpr int32_t n = 100000;
  std::vector<int32_t> arities(n, 1), types(n), children(n);
  arities[0] = 0;
  std::iota(types.begin(), types.end(), 0);
  std::iota(children.begin(), children.end(), -1); // v reads v - 1
  GraphBuilder chainBuilder(arities);
  chainBuilder.addSample(types, children);
  GraphBatch chain = chainBuilder.finalize();
  Schedule levels(chain);
  EXPECT_EQ(levels.numLevels(), n);
  EXPECT_EQ(levels.tasks().size(), size_t(n));
  EXPECT_EQ(levels.tasks()[n - 1].type, n - 1);
  checkSchedule(chain, levels);

  constexpr int32_t m = 50000;
  GraphBuilder leavesBuilder(std::vector<int32_t>(m, 0));
  for (int32_t type = m - 1; type >= 0; --type)
    leavesBuilder.addSample({type}, {});
  GraphBatch leaves = leavesBuilder.finalize();
  Schedule fewest(leaves, CAVS_SCHEDULE_FEWEST_TASKS);
  ASSERT_EQ(fewest.tasks().size(), size_t(m));
  EXPECT_EQ(fewest.tasks()[0].type, 0);
  EXPECT_EQ(fewest.tasks()[m - 1].type, m - 1);
  checkSchedule(leaves, fewest);
}

} // namespace
} // namespace cavs::test
