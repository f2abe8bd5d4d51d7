//===- Scheduler.cpp - the Cavs batching schedule -------------------------===//
//
// Taking every ready vertex at each step puts vertex v at step height(v), so
// instead of simulating the steps the scheduler computes heights directly
// (an iterative DFS: linear, no recursion), cuts each level into one task
// per type present, and places the vertices of each task in increasing id.
// Every pass is linear in vertices plus child slots (times the log of the
// number of types at a level), and the passes over vertices run in id order
// so the batch's arrays stream through the cache. All arrays are sized once;
// nothing is allocated per vertex.
//
//===----------------------------------------------------------------------===//
#include "schedule/Scheduler.h"

#include <algorithm>
#include <utility>

namespace cavs::runtime {

namespace {

/// levels[v] = 0 for a vertex without children, else 1 + the largest level
/// of its children. Returns the number of levels.
int32_t computeLevels(const GraphBatch &batch, std::vector<int32_t> &levels) {
  const int32_t n = batch.numVertices();
  levels.assign(n, -1);
  int32_t maxLevel = 0;
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

/// Cuts the vertices into tasks, one per (level, type) present, sorted by
/// level then type; `levelTasks[l]` is the first task of level l. Only the
/// vertices' types are moved around (a counting sort by level), so the
/// types present at a level are found by scanning its slice.
void makeTasks(const GraphBatch &batch, const std::vector<int32_t> &levels,
               Schedule &out, std::vector<int32_t> &levelTasks) {
  const int32_t n = batch.numVertices();
  std::vector<int32_t> levelBegins(out.numLevels + 1, 0);
  for (int32_t level : levels)
    ++levelBegins[level + 1];
  for (int32_t l = 0; l < out.numLevels; ++l)
    levelBegins[l + 1] += levelBegins[l];
  std::vector<int32_t> levelTypes(n);
  {
    std::vector<int32_t> fill(levelBegins.begin(), levelBegins.end() - 1);
    for (int32_t v = 0; v < n; ++v)
      levelTypes[fill[levels[v]]++] = batch.types[v];
  }

  std::vector<int32_t> typeCounts(batch.numTypes(), 0);
  std::vector<int32_t> typeRows(batch.numTypes(), 0); // arena rows so far
  std::vector<int32_t> present;
  int32_t row = 0, childrenBegin = 0, viewsBegin = 0;
  levelTasks.assign(out.numLevels + 1, 0);
  for (int32_t l = 0; l < out.numLevels; ++l) {
    present.clear();
    for (int32_t i = levelBegins[l]; i < levelBegins[l + 1]; ++i)
      if (typeCounts[levelTypes[i]]++ == 0)
        present.push_back(levelTypes[i]);
    std::sort(present.begin(), present.end());
    for (int32_t type : present) {
      const int32_t count = typeCounts[type], arity = batch.arities[type];
      out.tasks.push_back({type, l, count, row, typeRows[type], arity,
                           childrenBegin, viewsBegin});
      row += count;
      typeRows[type] += count;
      childrenBegin += count * arity;
      viewsBegin += arity;
      typeCounts[type] = 0;
    }
    levelTasks[l + 1] = static_cast<int32_t>(out.tasks.size());
  }

  out.typeRowOffsets.assign(batch.numTypes() + 1, 0);
  for (int32_t type = 0; type < batch.numTypes(); ++type)
    out.typeRowOffsets[type + 1] = out.typeRowOffsets[type] + typeRows[type];
}

/// Gives every vertex its rows and fills the tasks' children rows. Both
/// passes walk the vertices in id order, so the batch's arrays are read
/// sequentially; a vertex's task is found among the few of its level.
void placeVertices(const GraphBatch &batch, const std::vector<int32_t> &levels,
                   const std::vector<int32_t> &levelTasks, Schedule &out) {
  const int32_t n = batch.numVertices();
  auto taskOf = [&](int32_t v) -> const cavs_task & {
    const cavs_task *first = out.tasks.data() + levelTasks[levels[v]];
    const cavs_task *last = out.tasks.data() + levelTasks[levels[v] + 1];
    return *std::lower_bound(
        first, last, batch.types[v],
        [](const cavs_task &task, int32_t type) { return task.type < type; });
  };

  out.rowVertices.resize(n);
  out.vertexRows.resize(n);
  out.localRows.resize(n);
  out.rowParentCounts.resize(n);
  out.typeRows.resize(n);
  std::vector<int32_t> placed(out.tasks.size(), 0);
  for (int32_t v = 0; v < n; ++v) {
    const cavs_task &task = taskOf(v);
    const int32_t position = placed[&task - out.tasks.data()]++;
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
    const cavs_task &task = taskOf(v);
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

Schedule buildSchedule(const GraphBatch &batch) {
  Schedule schedule;
  std::vector<int32_t> levels, levelTasks;
  schedule.numLevels = computeLevels(batch, levels);
  makeTasks(batch, levels, schedule, levelTasks);
  placeVertices(batch, levels, levelTasks, schedule);
  findChildViews(schedule);
  return schedule;
}

} // namespace cavs::runtime
