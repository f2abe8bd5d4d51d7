//===- Replica.cpp - the start-of-training agreement between ranks --------===//
//
// One all-gather of a small identity record catches ranks that loaded
// another model or optimizer (a wrong -D dim, a stale library) with a clear
// message, instead of sums of mismatched buffers; then broadcasts from
// rank 0, so replicas created with different seeds, or resumed from
// different checkpoints, still start identical.
//
//===----------------------------------------------------------------------===//
#include "distributed/Replica.h"

#include <cstring>
#include <vector>

namespace cavs::runtime {

namespace {

/// What must be equal on every rank.
struct Identity {
  uint64_t signature;
  int64_t paramFloats;
  int32_t optimizerKind;
  int32_t numTables;
  int32_t numSlots;
  int32_t numFrozen;
  /// FNV-1a of the frozen parameters' indices: the ranks plan their
  /// gradient exchange without them, so they must freeze the same ones.
  uint64_t frozenHash;
};

} // namespace

Status checkSameReplica(Communicator &comm, const ParamStore &params,
                        const Optimizer &optimizer, int32_t numTables) {
  Identity mine{};
  mine.signature = params.layout().signature();
  mine.paramFloats = params.layout().size();
  mine.optimizerKind = optimizer.options().kind;
  mine.numTables = numTables;
  mine.numSlots = static_cast<int32_t>(optimizer.slots().size());
  mine.numFrozen = 0;
  mine.frozenHash = 1469598103934665603ull;
  for (int32_t p = 0; p < params.layout().numParams(); ++p)
    if (params.frozen(p)) {
      ++mine.numFrozen;
      mine.frozenHash = (mine.frozenHash ^ uint32_t(p)) * 1099511628211ull;
    }
  std::vector<Identity> all(comm.size());
  CAVS_RETURN_IF_ERROR(comm.postAllgather(&mine, sizeof(Identity), all.data()));
  CAVS_RETURN_IF_ERROR(comm.wait("comparing the ranks' models"));
  for (int r = 1; r < comm.size(); ++r) {
    const Identity &a = all[0], &b = all[r];
    if (a.signature != b.signature || a.paramFloats != b.paramFloats ||
        a.numTables != b.numTables)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "distributed training: rank {} runs another model "
                       "than rank 0 (signature {:#x}, {} parameter floats, "
                       "{} embedding tables; rank 0: {:#x}, {}, {})",
                       r, b.signature, b.paramFloats, b.numTables, a.signature,
                       a.paramFloats, a.numTables);
    if (a.optimizerKind != b.optimizerKind || a.numSlots != b.numSlots)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "distributed training: rank {} uses optimizer kind {} "
                       "with {} state arrays but rank 0 uses kind {} with {}",
                       r, b.optimizerKind, b.numSlots, a.optimizerKind,
                       a.numSlots);
    if (a.numFrozen != b.numFrozen || a.frozenHash != b.frozenHash)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "distributed training: rank {} freezes other "
                       "parameters than rank 0 ({} frozen; rank 0: {}); "
                       "every rank must freeze the same ones before creating "
                       "the trainer",
                       r, b.numFrozen, a.numFrozen);
  }
  return Status();
}

Status broadcastReplica(Communicator &comm, ParamStore &params,
                        Optimizer &optimizer) {
  const int64_t floats = params.layout().size();
  CAVS_RETURN_IF_ERROR(comm.postBroadcast(
      params.data(), floats * int64_t(sizeof(float)), /*root=*/0));

  // The optimizer's state arrives in fresh buffers and replaces the old
  // state at once (restore), as a checkpoint load does.
  cavs_optimizer_options options = optimizer.options();
  int64_t stepCount = optimizer.stepCount();
  std::vector<AlignedBuffer> slots;
  for (const AlignedBuffer &slot : optimizer.slots()) {
    slots.emplace_back(slot.size());
    if (comm.rank() == 0 && slot.size() > 0)
      std::memcpy(slots.back().data(), slot.data(),
                  size_t(slot.size()) * sizeof(float));
  }
  CAVS_RETURN_IF_ERROR(comm.postBroadcast(&options, sizeof(options), 0));
  CAVS_RETURN_IF_ERROR(comm.postBroadcast(&stepCount, sizeof(stepCount), 0));
  for (AlignedBuffer &slot : slots)
    CAVS_RETURN_IF_ERROR(comm.postBroadcast(
        slot.data(), slot.size() * int64_t(sizeof(float)), 0));
  CAVS_RETURN_IF_ERROR(comm.wait("broadcasting rank 0's parameters"));
  optimizer.restore(options, stepCount, std::move(slots));
  return Status();
}

} // namespace cavs::runtime
