//===- Scheduler.cpp - the Cavs batching schedule -------------------------===//
//
// Taking every ready vertex at each step (CAVS_SCHEDULE_LEVELS) puts vertex
// v at step height(v), so instead of simulating the steps the scheduler
// computes heights directly (an iterative DFS: linear, no recursion), cuts
// each level into one task per type present, and places the vertices of
// each task in increasing id. Where every child precedes its parents in id
// order (the loaders' trees), heights take one pass in id order instead.
// CAVS_SCHEDULE_FEWEST_TASKS also simulates the greedy one-type-per-step order
// (n log n, a heap picks the type) when some level holds several types, and
// keeps it when it needs fewer tasks. Every pass over vertices runs in id order
// so the batch's arrays stream through the cache; nothing is allocated per
// vertex.
//
//===----------------------------------------------------------------------===//
#include "schedule/Scheduler.h"

#include <algorithm>
#include <numeric>
#include <queue>
#include <utility>

namespace cavs::runtime {

namespace {

/// The levels in one pass in id order, when every child comes before its
/// parents (as the loaders write trees); false otherwise.
bool levelsInIdOrder(const GraphBatch &batch, std::vector<int32_t> &levels,
                     int32_t &maxLevel) {
  const int32_t n = batch.numVertices();
  levels.resize(n);
  maxLevel = 0;
  for (int32_t v = 0; v < n; ++v) {
    int32_t level = 0;
    for (int32_t k = batch.childOffsets[v]; k < batch.childOffsets[v + 1];
         ++k) {
      const int32_t child = batch.children[k];
      if (child >= v)
        return false;
      if (child != -1)
        level = std::max(level, levels[child] + 1);
    }
    levels[v] = level;
    maxLevel = std::max(maxLevel, level);
  }
  return true;
}

/// levels[v] = 0 for a vertex without children, else 1 + the largest level
/// of its children. Returns the number of levels.
int32_t computeLevels(const GraphBatch &batch, std::vector<int32_t> &levels) {
  int32_t maxLevel = 0;
  if (levelsInIdOrder(batch, levels, maxLevel))
    return maxLevel + 1;
  const int32_t n = batch.numVertices();
  levels.assign(n, -1);
  maxLevel = 0;
  // (vertex, next child slot); holds one path, so at most depth entries.
  std::vector<std::pair<int32_t, int32_t>> stack;
  for (int32_t root = 0; root < n; ++root) {
    if (levels[root] >= 0)
      continue;
    stack.emplace_back(root, batch.childOffsets[root]);
    while (!stack.empty()) {
      auto &[v, slot] = stack.back();
      const int32_t end = batch.childOffsets[v + 1];
      while (slot < end &&
             (batch.children[slot] == -1 || levels[batch.children[slot]] >= 0))
        ++slot;
      if (slot < end) {
        const int32_t child = batch.children[slot];
        stack.emplace_back(child, batch.childOffsets[child]);
        continue;
      }
      int32_t level = 0;
      for (int32_t k = batch.childOffsets[v]; k < end; ++k)
        if (batch.children[k] != -1)
          level = std::max(level, levels[batch.children[k]] + 1);
      levels[v] = level;
      maxLevel = std::max(maxLevel, level);
      stack.pop_back();
    }
  }
  return maxLevel + 1;
}

/// The tasks in execution order (type and step of each) and the task of
/// every vertex.
struct TaskAssignment {
  std::vector<int32_t> taskTypes;
  /// cavs_task::level: the level, or the task's index in the greedy order.
  std::vector<int32_t> taskSteps;
  std::vector<int32_t> vertexTasks;
};

/// CAVS_SCHEDULE_LEVELS: one task per (level, type) present, sorted by
/// level then type. The vertices are bucketed by level, and each level
/// numbers the types it holds, so the work and memory are linear in
/// vertices, levels and types (a table of levels x types took 2.3 GB for a
/// 200,000-vertex chain of 3,000 types).
TaskAssignment levelTasks(const GraphBatch &batch,
                          const std::vector<int32_t> &levels,
                          int32_t numLevels) {
  const int32_t n = batch.numVertices();
  std::vector<int32_t> levelBegin(size_t(numLevels) + 1, 0);
  for (int32_t v = 0; v < n; ++v)
    ++levelBegin[levels[v] + 1];
  std::partial_sum(levelBegin.begin(), levelBegin.end(), levelBegin.begin());
  std::vector<int32_t> byLevel(n);
  {
    std::vector<int32_t> fill(levelBegin.begin(), levelBegin.end() - 1);
    for (int32_t v = 0; v < n; ++v)
      byLevel[fill[levels[v]]++] = v;
  }
  constexpr int32_t kAbsent = -1, kPresent = -2;
  std::vector<int32_t> typeTask(batch.numTypes(), kAbsent);
  std::vector<int32_t> present;
  TaskAssignment out;
  out.vertexTasks.resize(n);
  for (int32_t level = 0; level < numLevels; ++level) {
    const auto first = byLevel.begin() + levelBegin[level],
               last = byLevel.begin() + levelBegin[level + 1];
    present.clear();
    for (auto v = first; v != last; ++v)
      if (int32_t &task = typeTask[batch.types[*v]]; task == kAbsent) {
        task = kPresent;
        present.push_back(batch.types[*v]);
      }
    std::sort(present.begin(), present.end());
    for (int32_t type : present) {
      typeTask[type] = static_cast<int32_t>(out.taskTypes.size());
      out.taskTypes.push_back(type);
      out.taskSteps.push_back(level);
    }
    for (auto v = first; v != last; ++v)
      out.vertexTasks[*v] = typeTask[batch.types[*v]];
    for (int32_t type : present)
      typeTask[type] = kAbsent;
  }
  return out;
}

/// CAVS_SCHEDULE_FEWEST_TASKS' candidate: at each step, the ready vertices
/// of the one type with the most of them; the other types' ready sets keep
/// growing meanwhile, so they run later in fewer, larger tasks.
TaskAssignment typeGreedyTasks(const GraphBatch &batch) {
  const int32_t n = batch.numVertices(), types = batch.numTypes();
  // Parents of every vertex (once per child slot), as offsets + list.
  std::vector<int32_t> parentOffsets(n + 1, 0), parents(batch.children.size());
  for (int32_t v = 0; v < n; ++v)
    parentOffsets[v + 1] = parentOffsets[v] + batch.parentCounts[v];
  std::vector<int32_t> pending(n, 0);
  {
    std::vector<int32_t> fill(parentOffsets.begin(), parentOffsets.end() - 1);
    for (int32_t v = 0; v < n; ++v)
      for (int32_t k = batch.childOffsets[v]; k < batch.childOffsets[v + 1];
           ++k)
        if (const int32_t child = batch.children[k]; child != -1) {
          parents[fill[child]++] = v;
          ++pending[v];
        }
  }
  std::vector<std::vector<int32_t>> ready(types);
  // The type with the most ready vertices (the lowest id among equals)
  // comes from a heap of (count, -type) entries, one pushed whenever a
  // type's count grows; an entry whose count is no longer its type's is
  // stale and skipped. Scanning every type per step took steps x types.
  std::priority_queue<std::pair<int32_t, int32_t>> largest;
  auto makeReady = [&](int32_t v) {
    std::vector<int32_t> &list = ready[batch.types[v]];
    list.push_back(v);
    largest.emplace(static_cast<int32_t>(list.size()), -batch.types[v]);
  };
  for (int32_t v = 0; v < n; ++v)
    if (pending[v] == 0)
      makeReady(v);
  TaskAssignment out;
  out.vertexTasks.resize(n);
  std::vector<int32_t> running;
  for (int32_t done = 0; done < n;) {
    while (size_t(largest.top().first) != ready[-largest.top().second].size())
      largest.pop();
    const int32_t type = -largest.top().second;
    const int32_t task = static_cast<int32_t>(out.taskTypes.size());
    out.taskTypes.push_back(type);
    out.taskSteps.push_back(task);
    running.swap(ready[type]);
    ready[type].clear();
    for (int32_t v : running) {
      out.vertexTasks[v] = task;
      for (int32_t p = parentOffsets[v]; p < parentOffsets[v + 1]; ++p)
        if (--pending[parents[p]] == 0)
          makeReady(parents[p]);
    }
    done += static_cast<int32_t>(running.size());
  }
  return out;
}

/// Lays the tasks out: counts, rows in task order (global and per type),
/// child-row and view offsets.
void makeTasks(const GraphBatch &batch, const TaskAssignment &assignment,
               Schedule &out) {
  const size_t numTasks = assignment.taskTypes.size();
  std::vector<int32_t> counts(numTasks, 0);
  for (int32_t task : assignment.vertexTasks)
    ++counts[task];
  std::vector<int32_t> typeRows(batch.numTypes(), 0); // arena rows so far
  int32_t row = 0, childrenBegin = 0, viewsBegin = 0;
  out.tasks.clear();
  for (size_t t = 0; t < numTasks; ++t) {
    const int32_t type = assignment.taskTypes[t], count = counts[t];
    const int32_t arity = batch.arities[type];
    out.tasks.push_back({type, assignment.taskSteps[t], count, row,
                         typeRows[type], arity, childrenBegin, viewsBegin});
    row += count;
    typeRows[type] += count;
    childrenBegin += count * arity;
    viewsBegin += arity;
  }
  out.typeRowOffsets.assign(batch.numTypes() + 1, 0);
  for (int32_t type = 0; type < batch.numTypes(); ++type)
    out.typeRowOffsets[type + 1] = out.typeRowOffsets[type] + typeRows[type];
}

/// Gives every vertex its rows and fills the tasks' children rows. Both
/// passes walk the vertices in id order, so the batch's arrays are read
/// sequentially and the vertices of a task come in increasing id.
void placeVertices(const GraphBatch &batch,
                   const std::vector<int32_t> &vertexTasks, Schedule &out) {
  const int32_t n = batch.numVertices();
  out.rowVertices.resize(n);
  out.vertexRows.resize(n);
  out.localRows.resize(n);
  out.rowParentCounts.resize(n);
  out.typeRows.resize(n);
  std::vector<int32_t> placed(out.tasks.size(), 0);
  for (int32_t v = 0; v < n; ++v) {
    const cavs_task &task = out.tasks[vertexTasks[v]];
    const int32_t position = placed[vertexTasks[v]]++;
    const int32_t row = task.global_begin + position;
    const int32_t local = task.local_begin + position;
    out.rowVertices[row] = v;
    out.vertexRows[v] = row;
    out.localRows[v] = local;
    out.rowParentCounts[row] = batch.parentCounts[v];
    out.typeRows[out.typeRowOffsets[task.type] + local] = row;
  }

  // Children may come after their parents in id order, so this needs all
  // rows placed first.
  out.childrenRows.resize(batch.children.size());
  for (int32_t v = 0; v < n; ++v) {
    const cavs_task &task = out.tasks[vertexTasks[v]];
    const int32_t *children = batch.children.data() + batch.childOffsets[v];
    int32_t *rows = out.childrenRows.data() + task.children_begin +
                    (out.vertexRows[v] - task.global_begin);
    for (int32_t k = 0; k < task.arity; ++k)
      rows[k * task.count] =
          children[k] == -1 ? -1 : out.vertexRows[children[k]];
  }
}

/// Decides which child slots of each task can be gathered as views.
void findChildViews(Schedule &out) {
  const cavs_task &last = out.tasks.back();
  out.childViews.resize(last.views_begin + last.arity);
  for (const cavs_task &task : out.tasks)
    for (int32_t k = 0; k < task.arity; ++k) {
      const int32_t *rows =
          out.childrenRows.data() + task.children_begin + k * task.count;
      bool contiguous = rows[0] != -1;
      for (int32_t i = 1; contiguous && i < task.count; ++i)
        contiguous = rows[i] == rows[0] + i;
      out.childViews[task.views_begin + k] = contiguous ? rows[0] : -1;
    }
}

} // namespace

Status checkSchedulePolicy(cavs_schedule_policy policy) {
  if (policy == CAVS_SCHEDULE_LEVELS || policy == CAVS_SCHEDULE_FEWEST_TASKS)
    return Status();
  return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                   "unknown schedule policy {} (expected "
                   "CAVS_SCHEDULE_LEVELS or CAVS_SCHEDULE_FEWEST_TASKS)",
                   static_cast<int>(policy));
}

Schedule buildSchedule(const GraphBatch &batch, cavs_schedule_policy policy) {
  Schedule schedule;
  std::vector<int32_t> levels;
  schedule.numLevels = computeLevels(batch, levels);
  TaskAssignment assignment = levelTasks(batch, levels, schedule.numLevels);
  if (policy == CAVS_SCHEDULE_FEWEST_TASKS &&
      assignment.taskTypes.size() > size_t(schedule.numLevels)) {
    // Levels holding several types: the greedy order may need fewer tasks.
    TaskAssignment greedy = typeGreedyTasks(batch);
    if (greedy.taskTypes.size() < assignment.taskTypes.size())
      assignment = std::move(greedy);
  }
  makeTasks(batch, assignment, schedule);
  placeVertices(batch, assignment.vertexTasks, schedule);
  findChildViews(schedule);
  return schedule;
}

} // namespace cavs::runtime
