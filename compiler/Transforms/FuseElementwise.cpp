//===- FuseElementwise.cpp - elementwise ops into cavs.fused kernels ------===//
//
// Groups are found with union-find over producer→consumer edges, visiting
// consumers in block order. A merge is refused when it would make the graph
// of groups cyclic: when a path leaves one of the two groups and comes back
// into the other through some third op. Block order is topological and every
// grouped op precedes the consumer being visited, so that search only looks
// at ops before the consumer. It also gives up after kSearchBudget use
// edges and then refuses the merge, so that the pass stays linear in the
// block however tangled it is (vertex functions may unroll to 65,536 ops);
// the example models need at most a few dozen edges per search.
//
// A reduction joins the kernel of the elementwise op that produces its
// operand, as its epilogue; its scalar result leaves the kernel, so an op
// that uses it is outside the kernel: a merge that would put them together
// is refused like a cycle. A reduction without such a producer, like any
// other elementwise op without partners, is a kernel of its own.
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/Passes.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace cavs {
#define GEN_PASS_DEF_CAVSFUSEELEMENTWISE
#include "compiler/Transforms/Passes.h.inc"
} // namespace cavs

using namespace mlir;
using namespace cavs;

namespace {
/// Use edges one acyclicity search may follow before it assumes a cycle.
constexpr unsigned kSearchBudget = 1024;

bool isReduction(Operation *op) {
  return op->hasTrait<cavs::OpTrait::Reduction>();
}

/// The type of the values `op` computes per element in a kernel: its
/// result's, or for a reduction its operand's.
Type iterationType(Operation *op) {
  return isReduction(op) ? op->getOperand(0).getType()
                         : op->getResult(0).getType();
}

bool isSplatConstant(Value value) {
  auto constant = value.getDefiningOp<ConstantOp>();
  auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue())
                        : nullptr;
  return dense && dense.isSplat();
}

/// Rewrites split(e(x, y, ...)) as e(split(x)#k, split(y)#k, ...) for each
/// used part k when the elementwise op e has no other user and shares the
/// split's batching class: the parts then fuse with the ops that use them (the
/// gates of `split(W @ x + b, 3)`, in a cell's kernel) rather than the
/// whole being a kernel of its own, whose result, written per vertex and
/// read back, the split only views. Scalar operands stay whole; the new
/// splits of full-width operands are views too (of a product's result, a
/// parameter, a gathered state) or take the same rewrite (an add of an add).
void splitElementwiseOperands(Block &block) {
  SmallVector<SplitOp> worklist(block.getOps<SplitOp>());
  while (!worklist.empty()) {
    SplitOp split = worklist.pop_back_val();
    Operation *whole = split.getInput().getDefiningOp();
    if (!whole || whole->getBlock() != &block || !isFusible(whole) ||
        isReduction(whole) || whole->getNumResults() != 1 ||
        !whole->hasOneUse() ||
        whole->getAttr(CavsDialect::kBatchingAttrName) !=
            split->getAttr(CavsDialect::kBatchingAttrName) ||
        split->use_empty())
      continue;
    OpBuilder builder(split);
    Type wholeType = whole->getResult(0).getType();
    llvm::SmallDenseMap<Value, SplitOp> splitOf;
    for (Value operand : whole->getOperands()) {
      if (operand.getType() != wholeType || splitOf.count(operand))
        continue;
      auto parts = builder.create<SplitOp>(split.getLoc(),
                                           split.getResultTypes(), operand);
      parts->setAttrs(split->getAttrs());
      splitOf[operand] = parts;
      worklist.push_back(parts);
    }
    for (auto [k, result] : llvm::enumerate(split.getResults())) {
      // An unused part computes nothing (a kernel must have a result).
      if (result.use_empty())
        continue;
      IRMapping parts;
      for (auto [operand, operandParts] : splitOf)
        parts.map(operand, operandParts.getResult(k));
      Operation *part = builder.clone(*whole, parts);
      part->getResult(0).setType(result.getType());
      result.replaceAllUsesWith(part->getResult(0));
    }
    split.erase();
    whole->erase();
  }
}

/// Fuses the elementwise ops of one block (F's body or ∂F's region).
class BlockFuser {
public:
  BlockFuser(Block &block, bool merge) : block(block), merge(merge) {}
  void run();

private:
  Operation *leader(Operation *op) {
    auto it = parent.find(op);
    if (it == parent.end() || it->second == op)
      return op;
    Operation *root = leader(it->second);
    it->second = root;
    return root;
  }
  size_t groupSize(Operation *leader) {
    auto it = groupMembers.find(leader);
    return it == groupMembers.end() ? 1 : it->second.size();
  }
  template <typename Fn> void forEachMember(Operation *leader, Fn fn) {
    auto it = groupMembers.find(leader);
    if (it == groupMembers.end())
      return fn(leader);
    for (Operation *member : it->second)
      fn(member);
  }
  /// The op of this block that `user` is or is nested in.
  Operation *inBlock(Operation *user) {
    return block.findAncestorOpInBlock(*user);
  }
  bool reachesThroughOthers(Operation *from, Operation *to, unsigned bound);
  void tryMerge(Operation *producer, Operation *consumer);
  void materialize(ArrayRef<Operation *> members);

  Block &block;
  bool merge;
  llvm::DenseMap<Operation *, unsigned> position;
  llvm::DenseMap<Operation *, Operation *> parent;
  /// The members of each group of two or more ops, keyed by its leader.
  llvm::DenseMap<Operation *, SmallVector<Operation *>> groupMembers;
};
} // namespace

/// Whether a path leads from group `from` to group `to` through an op of
/// neither, or directly from a reduction of `from` (or the search ran out
/// of budget). Only ops before position `bound` can lie on such a path:
/// every grouped op does, and uses follow definitions in the block.
bool BlockFuser::reachesThroughOthers(Operation *from, Operation *to,
                                      unsigned bound) {
  llvm::SmallPtrSet<Operation *, 16> visited;
  SmallVector<Operation *> worklist;
  unsigned budget = kSearchBudget;
  bool reductionUsedByTo = false;
  auto pushUsers = [&](Operation *group) {
    forEachMember(group, [&](Operation *member) {
      for (Operation *user : member->getUsers()) {
        if (budget == 0)
          return;
        --budget;
        Operation *next = inBlock(user);
        if (!next || position.lookup(next) >= bound)
          continue;
        next = leader(next);
        if (group == from && next == to && isReduction(member))
          reductionUsedByTo = true;
        if (next != from && visited.insert(next).second)
          worklist.push_back(next);
      }
    });
  };
  pushUsers(from);
  if (reductionUsedByTo)
    return true;
  visited.erase(to); // a direct edge into `to` is the merge itself
  worklist.erase(std::remove(worklist.begin(), worklist.end(), to),
                 worklist.end());
  while (!worklist.empty() && budget) {
    Operation *group = worklist.pop_back_val();
    if (group == to)
      return true;
    pushUsers(group);
  }
  return budget == 0;
}

void BlockFuser::tryMerge(Operation *producer, Operation *consumer) {
  Operation *a = leader(producer), *b = leader(consumer);
  if (a == b)
    return;
  const unsigned bound = position.lookup(consumer) + 1;
  if (reachesThroughOthers(a, b, bound) || reachesThroughOthers(b, a, bound))
    return;
  // Appending the smaller group to the larger keeps all merges linear.
  if (groupSize(a) > groupSize(b))
    std::swap(a, b);
  SmallVector<Operation *> moved = groupMembers.lookup(a);
  if (moved.empty())
    moved.push_back(a);
  groupMembers.erase(a);
  SmallVector<Operation *> &into = groupMembers[b];
  if (into.empty())
    into.push_back(b);
  into.append(moved);
  parent[a] = b;
  parent.try_emplace(b, b);
}

void BlockFuser::run() {
  if (merge)
    splitElementwiseOperands(block);
  for (Operation &op : block)
    position[&op] = position.size();
  for (Operation &op : block) {
    if (!merge || !isFusible(&op))
      continue;
    for (Value operand : op.getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (producer && producer->getBlock() == &block && isFusible(producer) &&
          !isReduction(producer) &&
          producer->getResult(0).getType() == iterationType(&op) &&
          producer->getAttr(CavsDialect::kBatchingAttrName) ==
              op.getAttr(CavsDialect::kBatchingAttrName))
        tryMerge(producer, &op);
    }
  }

  llvm::MapVector<Operation *, SmallVector<Operation *>> groups;
  for (Operation &op : block)
    if (isFusible(&op))
      groups[leader(&op)].push_back(&op);
  for (auto &group : groups)
    materialize(group.second);

  // Outside users of early group members may now precede their kernel.
  Operation *backward = block.empty() ? nullptr : &block.back();
  sortTopologically(&block);
  if (backward && isa<BackwardOp>(backward))
    backward->moveBefore(&block, block.end());
  for (Operation &op : llvm::make_early_inc_range(block))
    if (isa<ConstantOp>(op) && op.use_empty())
      op.erase();
}

void BlockFuser::materialize(ArrayRef<Operation *> members) {
  llvm::SmallPtrSet<Operation *, 8> inGroup(members.begin(), members.end());
  llvm::SetVector<Value> inputs, constants;
  SmallVector<Value> outputs;
  SmallVector<Location> locations;
  for (Operation *op : members) {
    locations.push_back(op->getLoc());
    for (Value operand : op->getOperands()) {
      if (inGroup.contains(operand.getDefiningOp()))
        continue;
      (isSplatConstant(operand) ? constants : inputs).insert(operand);
    }
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !inGroup.contains(user);
          }))
        outputs.push_back(result);
  }

  // Nothing outside reads the group (dead ops, which canonicalization would
  // have removed): a kernel without results is invalid, and the ops are
  // pure, so they go.
  if (outputs.empty()) {
    for (Operation *op : llvm::reverse(members))
      op->erase();
    return;
  }

  OpBuilder builder(members.back()->getContext());
  builder.setInsertionPointAfter(members.back());
  auto fused = builder.create<FusedOp>(
      FusedLoc::get(builder.getContext(), locations),
      ValueRange(outputs).getTypes(), inputs.getArrayRef());
  if (Attribute batching =
          members.front()->getAttr(CavsDialect::kBatchingAttrName))
    fused->setAttr(CavsDialect::kBatchingAttrName, batching);

  Block *body = builder.createBlock(&fused.getBody());
  IRMapping mapping;
  for (Value input : inputs)
    mapping.map(input, body->addArgument(input.getType(), input.getLoc()));
  // Inside a kernel an op runs when the kernel does: no class of its own.
  for (Value constant : constants)
    builder.clone(*constant.getDefiningOp(), mapping)
        ->removeAttr(CavsDialect::kBatchingAttrName);
  for (Operation *op : members)
    builder.clone(*op, mapping)->removeAttr(CavsDialect::kBatchingAttrName);
  SmallVector<Value> yielded;
  for (Value output : outputs)
    yielded.push_back(mapping.lookup(output));
  builder.create<YieldOp>(fused.getLoc(), yielded);

  for (auto [output, result] : llvm::zip_equal(outputs, fused.getResults()))
    output.replaceUsesWithIf(result, [&](OpOperand &use) {
      return !inGroup.contains(use.getOwner());
    });
  for (Operation *op : llvm::reverse(members))
    op->erase();
}

/// A kernel never mixes batching classes, so every op needs one; and the
/// memory plan assigns each value its slot, which a kernel would change,
/// so fusion comes before it.
static LogicalResult checkClassified(VertexOp vertex) {
  if (failed(requireNotOutlined(vertex)))
    return failure();
  WalkResult result = vertex.getBody().walk([](Operation *op) {
    if (op->hasAttr(CavsDialect::kSlotsAttrName)) {
      op->emitOpError("has a memory slot: the memory plan is made already, "
                      "and cavs-fuse-elementwise comes before "
                      "cavs-plan-memory, once");
      return WalkResult::interrupt();
    }
    if (isa<BackwardOp>(op) || isa<FusedOp>(op->getParentOp()) ||
        op->hasAttr(CavsDialect::kBatchingAttrName))
      return WalkResult::advance();
    op->emitOpError("has no batching class; run cavs-classify before "
                    "cavs-fuse-elementwise");
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

namespace {
struct FuseElementwisePass
    : public cavs::impl::CavsFuseElementwiseBase<FuseElementwisePass> {
  using CavsFuseElementwiseBase::CavsFuseElementwiseBase;
  void runOnOperation() override {
    for (auto vertex : getOperation().getBody().getOps<VertexOp>()) {
      if (failed(checkClassified(vertex)))
        return signalPassFailure();
      if (BackwardOp backward = vertex.getBackward())
        BlockFuser(backward.getBody().front(), merge).run();
      BlockFuser(vertex.getBody().front(), merge).run();
    }
  }
};
} // namespace
