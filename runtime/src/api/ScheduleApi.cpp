//===- ScheduleApi.cpp - C ABI of batching schedules ----------------------===//
//
// Thin adapters from cavs/schedule.h onto buildSchedule and Schedule;
// accessors are NULL-safe.
//
//===----------------------------------------------------------------------===//
#include "api/Handles.h"
#include "cavs/schedule.h"
#include "support/Guard.h"

#include <memory>

using namespace cavs::runtime;

namespace {

bool hasType(const cavs_schedule *schedule, int32_t type) {
  return schedule && type >= 0 && type < schedule->impl.numTypes();
}

} // namespace

extern "C" {

cavs_status cavs_schedule_create(const cavs_graph_batch *batch,
                                 cavs_schedule **out_schedule) {
  return cavs_schedule_create_with_policy(batch, CAVS_SCHEDULE_LEVELS,
                                          out_schedule);
}

cavs_status cavs_schedule_create_with_policy(const cavs_graph_batch *batch,
                                             cavs_schedule_policy policy,
                                             cavs_schedule **out_schedule) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(batch, "batch"));
    CAVS_RETURN_IF_ERROR(requireNonNull(out_schedule, "out_schedule"));
    CAVS_RETURN_IF_ERROR(checkSchedulePolicy(policy));
    auto handle = std::make_unique<cavs_schedule>();
    handle->impl = buildSchedule(batch->impl, policy);
    *out_schedule = handle.release();
    return Status();
  });
}

void cavs_schedule_destroy(cavs_schedule *schedule) { delete schedule; }

int32_t cavs_schedule_num_tasks(const cavs_schedule *schedule) {
  return schedule ? static_cast<int32_t>(schedule->impl.tasks.size()) : 0;
}

const cavs_task *cavs_schedule_tasks(const cavs_schedule *schedule) {
  return arrayOf(schedule, &Schedule::tasks);
}

int32_t cavs_schedule_num_levels(const cavs_schedule *schedule) {
  return schedule ? schedule->impl.numLevels : 0;
}

int32_t cavs_schedule_num_rows(const cavs_schedule *schedule) {
  return schedule ? static_cast<int32_t>(schedule->impl.rowVertices.size()) : 0;
}

int32_t cavs_schedule_num_types(const cavs_schedule *schedule) {
  return schedule ? schedule->impl.numTypes() : 0;
}

const int32_t *cavs_schedule_children_rows(const cavs_schedule *schedule) {
  return arrayOf(schedule, &Schedule::childrenRows);
}

const int32_t *cavs_schedule_child_views(const cavs_schedule *schedule) {
  return arrayOf(schedule, &Schedule::childViews);
}

const int32_t *cavs_schedule_vertex_rows(const cavs_schedule *schedule) {
  return arrayOf(schedule, &Schedule::vertexRows);
}

const int32_t *cavs_schedule_row_vertices(const cavs_schedule *schedule) {
  return arrayOf(schedule, &Schedule::rowVertices);
}

const int32_t *cavs_schedule_local_rows(const cavs_schedule *schedule) {
  return arrayOf(schedule, &Schedule::localRows);
}

const int32_t *cavs_schedule_row_parent_counts(const cavs_schedule *schedule) {
  return arrayOf(schedule, &Schedule::rowParentCounts);
}

int32_t cavs_schedule_type_num_rows(const cavs_schedule *schedule,
                                    int32_t type) {
  if (!hasType(schedule, type))
    return 0;
  const std::vector<int32_t> &offsets = schedule->impl.typeRowOffsets;
  return offsets[type + 1] - offsets[type];
}

const int32_t *cavs_schedule_type_rows(const cavs_schedule *schedule,
                                       int32_t type) {
  if (!hasType(schedule, type))
    return nullptr;
  const Schedule &s = schedule->impl;
  return s.typeRows.data() + s.typeRowOffsets[type];
}

} // extern "C"
