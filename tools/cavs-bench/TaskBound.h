//===- TaskBound.h - the fewest batched tasks a batch allows ----*- C++ -*-===//
//
// A batched task runs one vertex function over vertices whose children are
// done, so every task has one type and the vertices of a path need distinct
// tasks. Hence tasks >= sum over types t of the most t-vertices on any path
// of the batch (ED-Batch's bound; the graph depth when there is one type).
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_BENCH_TASKBOUND_H
#define CAVS_BENCH_TASKBOUND_H

#include "cavs/runtime.hpp"

#include <cstdint>

namespace cavs::bench {

/// The lower bound above for `batch` (acyclic, as the builder guarantees).
int64_t taskLowerBound(const cavs::GraphBatch &batch);

} // namespace cavs::bench

#endif // CAVS_BENCH_TASKBOUND_H
