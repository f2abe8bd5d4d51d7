//===- PlanMemory.cpp - slots for every per-vertex value ------------------===//
//
// Lifetime intervals over the execution order (phase, then program order),
// then first-fit packing of the intervals into columns, separately for the
// arena and the task scratch. Split and slice results alias their input.
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace cavs {
#define GEN_PASS_DEF_CAVSPLANMEMORY
#include "compiler/Transforms/Passes.h.inc"
} // namespace cavs

using namespace mlir;
using namespace cavs;

namespace {
/// Phases in execution order: F eager, body, lazy, then the same for ∂F.
constexpr unsigned kNumPhases = 6;
bool isBodyPhase(unsigned phase) { return phase % 3 == 1; }

/// A value that owns its slot (aliases resolve to one of these).
struct Interval {
  Value value;
  unsigned definedPhase;
  unsigned start, end; // positions in the execution order, inclusive
  int64_t size;
  SlotSpace space = SlotSpace::arena;
  int64_t offset = 0;
};

/// Plans one vertex function.
class Planner {
public:
  explicit Planner(VertexOp vertex) : vertex(vertex) {}
  LogicalResult run();

private:
  LogicalResult order();
  /// The op of F or ∂F that `op` is or is nested in.
  Operation *executed(Operation *op) {
    while (op->getBlock() != forward && op->getBlock() != backward)
      op = op->getParentOp();
    return op;
  }
  static int64_t pack(MutableArrayRef<Interval *> intervals);

  VertexOp vertex;
  Block *forward = nullptr, *backward = nullptr;
  /// Ops of F and ∂F in execution order, with their positions and phases.
  SmallVector<Operation *> sequence;
  llvm::DenseMap<Operation *, unsigned> position, phase;
  unsigned phaseStart[kNumPhases] = {}, phaseEnd[kNumPhases] = {};
};
} // namespace

LogicalResult Planner::order() {
  forward = &vertex.getBody().front();
  if (BackwardOp op = vertex.getBackward())
    backward = &op.getBody().front();
  SmallVector<Operation *> byPhase[kNumPhases];
  for (auto [block, base] : {std::pair(forward, 0u), std::pair(backward, 3u)}) {
    if (!block)
      continue;
    for (Operation &op : *block) {
      if (isa<BackwardOp>(op))
        continue;
      auto kind =
          op.getAttrOfType<BatchingKindAttr>(CavsDialect::kBatchingAttrName);
      if (!kind)
        return op.emitOpError("has no batching class; run cavs-classify "
                              "before cavs-plan-memory");
      unsigned p = base + static_cast<unsigned>(kind.getValue());
      phase[&op] = p;
      byPhase[p].push_back(&op);
    }
  }
  for (unsigned p = 0; p < kNumPhases; ++p) {
    phaseStart[p] = sequence.size();
    for (Operation *op : byPhase[p]) {
      position[op] = sequence.size();
      sequence.push_back(op);
    }
    // Only used for phases that define or use a value, hence not empty.
    phaseEnd[p] = sequence.empty() ? 0 : sequence.size() - 1;
  }
  return success();
}

int64_t Planner::pack(MutableArrayRef<Interval *> intervals) {
  llvm::stable_sort(
      intervals, [](Interval *a, Interval *b) { return a->start < b->start; });
  SmallVector<Interval *> active;
  int64_t width = 0;
  for (Interval *interval : intervals) {
    llvm::erase_if(
        active, [&](Interval *other) { return other->end < interval->start; });
    llvm::sort(active,
               [](Interval *a, Interval *b) { return a->offset < b->offset; });
    int64_t offset = 0;
    for (Interval *other : active) {
      if (other->offset - offset >= interval->size)
        break;
      offset = std::max(offset, other->offset + other->size);
    }
    interval->offset = offset;
    width = std::max(width, offset + interval->size);
    active.push_back(interval);
  }
  return width;
}

LogicalResult Planner::run() {
  if (failed(order()))
    return failure();

  // Slot owners and the views into them.
  std::vector<Interval> owners;
  llvm::DenseMap<Value, std::pair<unsigned, int64_t>> ownerOf; // index, delta
  for (Block *block : {forward, backward}) {
    if (!block)
      continue;
    for (Operation &op : *block) {
      if (!isBatchedOp(&op))
        continue;
      // Views need an input with a slot (not a parameter or constant).
      if (isa<SplitOp, SliceOp>(op) && ownerOf.count(op.getOperand(0))) {
        auto [owner, delta] = ownerOf.lookup(op.getOperand(0));
        if (auto slice = dyn_cast<SliceOp>(op))
          delta += slice.getOffset();
        for (Value result : op.getResults()) {
          ownerOf[result] = {owner, delta};
          delta += valueWidth(result.getType());
        }
        continue;
      }
      for (Value result : op.getResults()) {
        unsigned at = position.lookup(&op);
        ownerOf[result] = {static_cast<unsigned>(owners.size()), 0};
        owners.push_back(
            {result, phase.lookup(&op), at, at, valueWidth(result.getType())});
      }
    }
  }

  // Last uses, through views.
  SmallVector<unsigned> lastUsePhase(owners.size());
  for (auto [index, owner] : llvm::enumerate(owners))
    lastUsePhase[index] = owner.definedPhase;
  for (auto &[value, where] : ownerOf)
    for (Operation *user : value.getUsers()) {
      Operation *op = executed(user);
      Interval &owner = owners[where.first];
      if (position.lookup(op) > owner.end) {
        owner.end = position.lookup(op);
        lastUsePhase[where.first] = phase.lookup(op);
      }
    }

  // Spaces and whole-phase lifetimes.
  SmallVector<Interval *> arena, scratch;
  for (auto [index, owner] : llvm::enumerate(owners)) {
    unsigned first = owner.definedPhase, last = lastUsePhase[index];
    if (first == last && isBodyPhase(first)) {
      owner.space = SlotSpace::scratch;
      scratch.push_back(&owner);
      continue;
    }
    if (isBodyPhase(first))
      owner.start = phaseStart[first];
    if (isBodyPhase(last))
      owner.end = phaseEnd[last];
    arena.push_back(&owner);
  }
  int64_t arenaWidth = pack(arena), scratchWidth = pack(scratch);

  MLIRContext *context = vertex.getContext();
  for (Operation *op : sequence) {
    if (!isBatchedOp(op) || op->getNumResults() == 0)
      continue;
    SmallVector<Attribute> slots;
    for (Value result : op->getResults()) {
      auto [index, delta] = ownerOf.lookup(result);
      const Interval &owner = owners[index];
      slots.push_back(SlotAttr::get(context, owner.space, owner.offset + delta,
                                    valueWidth(result.getType())));
    }
    op->setAttr(CavsDialect::kSlotsAttrName, ArrayAttr::get(context, slots));
  }
  OpBuilder builder(context);
  vertex->setAttr(CavsDialect::kArenaWidthAttrName,
                  builder.getI64IntegerAttr(arenaWidth));
  vertex->setAttr(CavsDialect::kScratchWidthAttrName,
                  builder.getI64IntegerAttr(scratchWidth));
  return success();
}

namespace {
struct PlanMemoryPass : public cavs::impl::CavsPlanMemoryBase<PlanMemoryPass> {
  void runOnOperation() override {
    for (auto vertex : getOperation().getBody().getOps<VertexOp>())
      if (failed(Planner(vertex).run()))
        return signalPassFailure();
  }
};
} // namespace
