//===- Handles.h - the structs behind the opaque C ABI handles ------------===//
//
// Each opaque handle of the C ABI wraps one internal object, always named
// `impl`; other parts of the runtime (the executor) include this header to
// unwrap the handles they receive.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_API_HANDLES_H
#define CAVS_RUNTIME_API_HANDLES_H

#include "graph/GraphBatch.h"
#include "graph/Vocab.h"
#include "optim/Optimizer.h"
#include "params/GradStore.h"
#include "params/ParamStore.h"
#include "schedule/Scheduler.h"

#include <vector>

struct cavs_graph_builder {
  cavs::runtime::GraphBuilder impl;
};

struct cavs_graph_batch {
  cavs::runtime::GraphBatch impl;
};

struct cavs_vocab {
  cavs::runtime::Vocab impl;
};

struct cavs_schedule {
  cavs::runtime::Schedule impl;
};

struct cavs_param_store {
  cavs::runtime::ParamStore impl;
};

struct cavs_grad_store {
  cavs::runtime::GradStore impl;
};

struct cavs_optimizer {
  cavs::runtime::Optimizer impl;
};

/// The data of the array `member` of the object behind `handle`, or NULL for
/// a NULL handle; shared by the array accessors of the C ABI.
template <typename Handle, typename Object, typename T>
const T *arrayOf(const Handle *handle, const std::vector<T> Object::*member) {
  return handle ? (handle->impl.*member).data() : nullptr;
}

#endif // CAVS_RUNTIME_API_HANDLES_H
