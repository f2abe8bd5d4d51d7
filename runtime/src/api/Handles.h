//===- Handles.h - the structs behind the opaque C ABI handles ------------===//
//
// Each opaque handle of the C ABI wraps one internal object, always named
// `impl`, and is defined next to its object's class; the C ABI's files
// include them all from here.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_API_HANDLES_H
#define CAVS_RUNTIME_API_HANDLES_H

#include "checkpoint/TrainState.h"
#include "exec/Instance.h"
#include "graph/GraphBatch.h"
#include "graph/Vocab.h"
#include "optim/Optimizer.h"
#include "params/GradStore.h"
#include "params/ParamStore.h"
#include "schedule/Scheduler.h"

#include <vector>

/// The data of the array `member` of the object behind `handle`, or NULL for
/// a NULL handle; shared by the array accessors of the C ABI.
template <typename Handle, typename Object, typename T>
const T *arrayOf(const Handle *handle, const std::vector<T> Object::*member) {
  return handle ? (handle->impl.*member).data() : nullptr;
}

#endif // CAVS_RUNTIME_API_HANDLES_H
