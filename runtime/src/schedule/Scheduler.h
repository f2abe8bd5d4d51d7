//===- Scheduler.h - the Cavs batching schedule ---------------------------===//
//
// Schedule is the data behind cavs_schedule (see cavs/schedule.h for the
// meaning of every array); buildSchedule computes it from a graph batch.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_SCHEDULE_SCHEDULER_H
#define CAVS_RUNTIME_SCHEDULE_SCHEDULER_H

#include "cavs/schedule.h"
#include "graph/GraphBatch.h"

#include <vector>

namespace cavs::runtime {

/// Tasks and row layout of one batch.
struct Schedule {
  int32_t numLevels = 0;
  std::vector<cavs_task> tasks;
  std::vector<int32_t> childrenRows;
  std::vector<int32_t> childViews;
  std::vector<int32_t> vertexRows;
  std::vector<int32_t> rowVertices;
  std::vector<int32_t> localRows;
  std::vector<int32_t> rowParentCounts;
  /// typeRows[typeRowOffsets[t] + l] is the global row of local row l of
  /// type t; numTypes + 1 offsets.
  std::vector<int32_t> typeRowOffsets;
  std::vector<int32_t> typeRows;

  int32_t numTypes() const {
    return static_cast<int32_t>(typeRowOffsets.size()) - 1;
  }
};

/// Schedules `batch` (validated, so acyclic and non-empty) in time linear in
/// its vertices and child slots.
Schedule buildSchedule(const GraphBatch &batch);

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_SCHEDULE_SCHEDULER_H
