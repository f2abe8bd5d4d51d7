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
#include "support/Status.h"

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

/// Fails with CAVS_ERROR_INVALID_ARGUMENT for a value that is no policy.
Status checkSchedulePolicy(cavs_schedule_policy policy);

/// Schedules `batch` (validated, so acyclic and non-empty) with `policy`
/// (a valid cavs_schedule_policy) in time linear in its vertices and child
/// slots (times the number of types, for the fewest-tasks policy).
Schedule buildSchedule(const GraphBatch &batch,
                       cavs_schedule_policy policy = CAVS_SCHEDULE_LEVELS);

} // namespace cavs::runtime

/// The opaque C handle: this object, which the C ABI (api/) unwraps.
struct cavs_schedule {
  cavs::runtime::Schedule impl;
};

#endif // CAVS_RUNTIME_SCHEDULE_SCHEDULER_H
