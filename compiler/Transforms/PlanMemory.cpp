//===- PlanMemory.cpp - slots for every per-vertex value ------------------===//
//
// Lifetime intervals over the execution order (phase, then program order),
// then first-fit packing of the intervals into columns, separately for the
// arena and the task scratch. Split and slice results alias their input;
// those of a parameter or constant are read in place and take no slot
// (leading dimension 0: every row reads the same values), except where a
// product reads them: a gemm needs a leading dimension of at least a row,
// so an identity kernel copies them into a slot first. The value F
// scatters is computed in the vertices' state rows where every phase can
// address them (see stateResident).
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/Passes.h"
#include "dialects/ArenaLayout.h"

#include "cavs/model.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

#include <limits>
#include <map>
#include <optional>
#include <queue>

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
  /// Its columns lie in another owner's slot (a concat's).
  bool placed = false;
};

using OwnerMap = llvm::DenseMap<Value, std::pair<unsigned, int64_t>>;

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
  void placeConcatInputs(std::vector<Interval> &owners, OwnerMap &ownerOf);
  std::optional<unsigned> stateResident(const std::vector<Interval> &owners,
                                        const OwnerMap &ownerOf);

  VertexOp vertex;
  Block *forward = nullptr, *backward = nullptr;
  /// Ops of F and ∂F in execution order, with their positions and phases.
  SmallVector<Operation *> sequence;
  llvm::DenseMap<Operation *, unsigned> position, phase;
  unsigned phaseStart[kNumPhases] = {}, phaseEnd[kNumPhases] = {};
};
} // namespace

/// Whether `value` is a parameter or constant, or a part of one: read in
/// place with no slot.
static bool readInPlace(Value value) {
  Operation *op = value.getDefiningOp();
  while (op && isa<SplitOp, SliceOp>(op))
    op = op->getOperand(0).getDefiningOp();
  return op && isa<ParamRefOp, ConstantOp>(op);
}

/// Gives each row operand of a product (`W @ b` with `b` a parameter
/// vector, and the weight gradient that reads it) that is read in place a
/// copy in every row: a kernel that yields its input, in the product's
/// batching class. BLAS refuses a leading dimension of 0, and the product
/// read what the arena held instead.
static void copyInPlaceProductOperands(Block &block) {
  for (Operation &op : block) {
    SmallVector<OpOperand *, 2> rowOperands;
    if (auto matmul = dyn_cast<MatmulOp>(op))
      rowOperands.push_back(&matmul.getRhsMutable());
    else if (auto outer = dyn_cast<ParamGradOuterOp>(op))
      rowOperands.append({&outer.getDyMutable(), &outer.getXMutable()});
    // (An op without a class is reported by order().)
    Attribute batching = op.getAttr(CavsDialect::kBatchingAttrName);
    for (OpOperand *operand : rowOperands) {
      Value value = operand->get();
      if (!batching || !readInPlace(value))
        continue;
      OpBuilder builder(&op);
      auto copy = builder.create<FusedOp>(op.getLoc(), value.getType(),
                                          ValueRange{value});
      copy->setAttr(CavsDialect::kBatchingAttrName, batching);
      Block *body = builder.createBlock(&copy.getBody());
      builder.create<YieldOp>(
          op.getLoc(), body->addArgument(value.getType(), value.getLoc()));
      operand->set(copy.getResult(0));
    }
  }
}

LogicalResult Planner::order() {
  if (failed(requireNotOutlined(vertex)))
    return failure();
  forward = &vertex.getBody().front();
  if (BackwardOp op = vertex.getBackward())
    backward = &op.getBody().front();
  for (Block *block : {forward, backward})
    if (block)
      copyInPlaceProductOperands(*block);
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

/// A slot of whole cache lines (16 floats, one AVX-512 register) starts on
/// one; other sizes pack anywhere, as padding them would cost more memory
/// traffic than aligning saves.
static int64_t alignmentOf(int64_t size) { return size % 16 == 0 ? 16 : 1; }

int64_t Planner::pack(MutableArrayRef<Interval *> intervals) {
  llvm::stable_sort(
      intervals, [](Interval *a, Interval *b) { return a->start < b->start; });
  // First fit over the free gaps (offset → length) between the slots of the
  // live intervals; the last gap is unbounded. Searching gaps rather than
  // live slots skips runs of long-lived values at once, which keeps large
  // vertex functions near-linear.
  constexpr int64_t kUnbounded = std::numeric_limits<int64_t>::max();
  std::map<int64_t, int64_t> gaps = {{0, kUnbounded}};
  auto byEnd = [](Interval *a, Interval *b) { return a->end > b->end; };
  std::priority_queue<Interval *, std::vector<Interval *>, decltype(byEnd)>
      live(byEnd);
  auto release = [&](Interval *interval) {
    int64_t offset = interval->offset, length = interval->size;
    auto next = gaps.find(offset + length);
    if (next != gaps.end()) {
      length = next->second == kUnbounded ? kUnbounded : length + next->second;
      gaps.erase(next);
    }
    auto inserted = gaps.emplace(offset, length).first;
    if (inserted != gaps.begin()) {
      auto previous = std::prev(inserted);
      if (previous->first + previous->second == offset) {
        previous->second =
            length == kUnbounded ? kUnbounded : previous->second + length;
        gaps.erase(inserted);
      }
    }
  };
  int64_t width = 0, widthAlign = 1;
  for (Interval *interval : intervals) {
    while (!live.empty() && live.top()->end < interval->start) {
      release(live.top());
      live.pop();
    }
    interval->offset = 0;
    if (interval->size == 0)
      continue;
    const int64_t align = alignmentOf(interval->size);
    auto alignUp = [&](int64_t offset) {
      return static_cast<int64_t>(llvm::alignTo(offset, align));
    };
    auto fits = [&](const std::pair<const int64_t, int64_t> &gap) {
      return gap.second == kUnbounded ||
             alignUp(gap.first) + interval->size <= gap.first + gap.second;
    };
    auto gap = llvm::find_if(gaps, fits);
    auto [start, length] = *gap;
    gaps.erase(gap);
    const int64_t offset = alignUp(start);
    if (offset != start)
      gaps.emplace(start, offset - start);
    const int64_t end = offset + interval->size;
    if (length == kUnbounded)
      gaps.emplace(end, kUnbounded);
    else if (start + length != end)
      gaps.emplace(end, start + length - end);
    interval->offset = offset;
    width = std::max(width, end);
    widthAlign = std::max(widthAlign, align);
    live.push(interval);
  }
  return llvm::alignTo(width, widthAlign);
}

/// Gives an input of a concat its columns of the concat's slot when an op
/// of the same block computes it there: a fused kernel, a product or an
/// inner concat. The concat then copies nothing for it (the lowering skips
/// a copy whose source is its destination). In the N-ary Tree-LSTM's ∂F the
/// packed gates' gradient (640 floats per vertex, the weight gradient's
/// operand) was a copy of five kernel results. Inner concats come first in
/// a block, so a chain of them ends in the outermost one's slot; values are
/// redirected once at the end, which keeps the planning near-linear.
void Planner::placeConcatInputs(std::vector<Interval> &owners,
                                OwnerMap &ownerOf) {
  // Per owner: the owner it was placed in and its first column there.
  std::vector<std::pair<unsigned, int64_t>> placedIn(owners.size());
  auto writesInPlace = [&](Value input, Block *block) {
    Operation *definer = input.getDefiningOp();
    if (!definer || definer->getBlock() != block ||
        !(isa<FusedOp, MatmulOp, ConcatOp>(definer) || isFusible(definer)) ||
        !ownerOf.count(input))
      return false;
    auto [owner, delta] = ownerOf.lookup(input);
    return delta == 0 && owners[owner].value == input && !owners[owner].placed;
  };
  for (Block *block : {forward, backward}) {
    if (!block)
      continue;
    for (auto concat : block->getOps<ConcatOp>()) {
      if (!ownerOf.count(concat.getResult()))
        continue;
      auto [target, base] = ownerOf.lookup(concat.getResult());
      int64_t column = base;
      for (Value input : concat.getInputs()) {
        if (writesInPlace(input, block)) {
          unsigned source = ownerOf.lookup(input).first;
          placedIn[source] = {target, column};
          Interval &from = owners[source], &to = owners[target];
          if (from.start < to.start) {
            to.start = from.start;
            to.definedPhase = from.definedPhase;
          }
          from.placed = true;
        }
        column += valueWidth(input.getType());
      }
    }
  }
  // A concat's owner comes after its inputs' (same block, block order), so
  // from the last owner back each placement can point at its chain's end.
  for (unsigned owner = owners.size(); owner-- > 0;)
    if (owners[owner].placed) {
      auto &[target, column] = placedIn[owner];
      if (owners[target].placed)
        placedIn[owner] = {placedIn[target].first,
                           placedIn[target].second + column};
    }
  for (auto &[value, where] : ownerOf)
    if (owners[where.first].placed) {
      auto [target, column] = placedIn[where.first];
      where = {target, column + where.second};
    }
}

/// The owner F's cavs.scatter publishes, when it can live in the state rows
/// (a state slot): then the ops that compute it write the state, and the
/// scatter copies nothing (at H = 512 a Tree-LSTM leaf's (c, h), 4 KiB per
/// vertex). A phase sees its vertices' state rows at one stride when they
/// are consecutive: a body task's always are, and a whole-type phase's only
/// for arity 0 (cavs_call::state_begin). The value must be a slot owner that
/// an op computes in place (not a view of a gather's or state gradient's
/// rows, which may be read where they are).
std::optional<unsigned>
Planner::stateResident(const std::vector<Interval> &owners,
                       const OwnerMap &ownerOf) {
  auto scatters = forward->getOps<ScatterOp>();
  if (!llvm::hasSingleElement(scatters))
    return std::nullopt;
  Value value = (*scatters.begin()).getValue();
  Operation *definer = value.getDefiningOp();
  if (!definer || !ownerOf.count(value) ||
      !(isa<FusedOp, MatmulOp, ConcatOp>(definer) || isFusible(definer)))
    return std::nullopt;
  auto [owner, delta] = ownerOf.lookup(value);
  if (delta != 0 || owners[owner].value != value)
    return std::nullopt;
  if (vertex.getArity() == 0)
    return owner;
  auto inBody = [&](Operation *op) {
    return isBodyPhase(phase.lookup(executed(op)));
  };
  for (auto &[part, where] : ownerOf) {
    if (where.first != owner)
      continue;
    if (Operation *op = part.getDefiningOp(); op && !inBody(op))
      return std::nullopt;
    if (!llvm::all_of(part.getUsers(), inBody))
      return std::nullopt;
  }
  return owner;
}

LogicalResult Planner::run() {
  if (failed(order()))
    return failure();

  // Slot owners and the views into them.
  std::vector<Interval> owners;
  OwnerMap ownerOf; // value → (owner index, column delta)
  for (Block *block : {forward, backward}) {
    if (!block)
      continue;
    for (Operation &op : *block) {
      if (!isBatchedOp(&op))
        continue;
      if (isa<SplitOp, SliceOp>(op)) {
        // Parts of a parameter or constant (which has no slot) need none.
        if (!ownerOf.count(op.getOperand(0)))
          continue;
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

  placeConcatInputs(owners, ownerOf);

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
  const std::optional<unsigned> inState = stateResident(owners, ownerOf);
  SmallVector<Interval *> arena, scratch;
  for (auto [index, owner] : llvm::enumerate(owners)) {
    if (owner.placed)
      continue;
    if (index == inState) {
      owner.space = SlotSpace::state;
      continue;
    }
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
    if (!isBatchedOp(op) || op->getNumResults() == 0 ||
        !ownerOf.count(op->getResult(0)))
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
  // The arena is stored block by block (dialects/ArenaLayout.h), which
  // needs a few more floats where blocks are padded or start on a line.
  arenaWidth = std::max(arenaWidth, arenaBlockFloats(arenaBlocks(vertex)));
  for (auto [what, width] : {std::pair("arena", arenaWidth),
                             std::pair("scratch", scratchWidth)})
    if (width > CAVS_MAX_VERTEX_FLOATS)
      return vertex.emitError("needs ")
             << width << " floats per vertex in its " << what
             << ", past the runtime's limit of " << CAVS_MAX_VERTEX_FLOATS;
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
