//===- Replica.h - making the model replicas of all ranks equal -----------===//
//
// Data parallelism needs every rank to start from the same parameters and
// optimizer state, and to run the same model: both are settled once, when
// the trainer is created.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_DISTRIBUTED_REPLICA_H
#define CAVS_RUNTIME_DISTRIBUTED_REPLICA_H

#include "distributed/MpiComm.h"
#include "optim/Optimizer.h"
#include "params/ParamStore.h"

namespace cavs::runtime {

/// Fails on every rank unless all ranks run the model, optimizer kind,
/// row-tracking tables and frozen parameters of rank 0 (the message names
/// the first that does not).
Status checkSameReplica(Communicator &comm, const ParamStore &params,
                        const Optimizer &optimizer, int32_t numTables);

/// Copies rank 0's parameters, optimizer hyperparameters, step count and
/// state to every rank.
Status broadcastReplica(Communicator &comm, ParamStore &params,
                        Optimizer &optimizer);

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_DISTRIBUTED_REPLICA_H
