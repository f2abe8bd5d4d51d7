//===- FuseElementwise.cpp - elementwise ops into cavs.fused kernels ------===//
//
// Groups are found with union-find over producer→consumer edges; a merge
// that would make the graph of groups cyclic (a path leaving the group and
// coming back through a non-fused op) is undone. Vertex functions are small
// (hundreds of ops), so the acyclicity check simply walks the whole block.
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
bool isFusible(Operation *op) {
  return op->hasTrait<cavs::OpTrait::ElementwiseMath>();
}

bool isSplatConstant(Value value) {
  auto constant = value.getDefiningOp<ConstantOp>();
  auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue())
                        : nullptr;
  return dense && dense.isSplat();
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
  /// The op of this block that `user` is or is nested in.
  Operation *inBlock(Operation *user) {
    return block.findAncestorOpInBlock(*user);
  }
  bool groupsAreAcyclic();
  void tryMerge(Operation *producer, Operation *consumer);
  void materialize(ArrayRef<Operation *> members);

  Block &block;
  bool merge;
  llvm::DenseMap<Operation *, Operation *> parent;
};
} // namespace

bool BlockFuser::groupsAreAcyclic() {
  // Depth-first search over the contracted graph (node = group leader).
  enum class Mark { Unvisited, Active, Done };
  llvm::DenseMap<Operation *, Mark> marks;
  llvm::DenseMap<Operation *, SmallVector<Operation *>> successors;
  for (Operation &op : block)
    for (Operation *user : op.getUsers()) {
      Operation *from = leader(&op), *to = inBlock(user);
      if (to && (to = leader(to)) != from)
        successors[from].push_back(to);
    }
  std::function<bool(Operation *)> visit = [&](Operation *node) {
    Mark &mark = marks[node];
    if (mark == Mark::Active)
      return false;
    if (mark == Mark::Done)
      return true;
    mark = Mark::Active;
    for (Operation *next : successors.lookup(node))
      if (!visit(next))
        return false;
    marks[node] = Mark::Done;
    return true;
  };
  for (Operation &op : block)
    if (!visit(leader(&op)))
      return false;
  return true;
}

void BlockFuser::tryMerge(Operation *producer, Operation *consumer) {
  Operation *a = leader(producer), *b = leader(consumer);
  if (a == b)
    return;
  llvm::DenseMap<Operation *, Operation *> saved = parent;
  parent[a] = b;
  parent.try_emplace(b, b);
  if (!groupsAreAcyclic())
    parent = std::move(saved);
}

void BlockFuser::run() {
  for (Operation &op : block) {
    if (!merge || !isFusible(&op))
      continue;
    for (Value operand : op.getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (producer && producer->getBlock() == &block && isFusible(producer) &&
          producer->getResult(0).getType() == op.getResult(0).getType() &&
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
  for (Value constant : constants)
    builder.clone(*constant.getDefiningOp(), mapping);
  for (Operation *op : members) {
    Operation *copy = builder.clone(*op, mapping);
    copy->removeAttr(CavsDialect::kBatchingAttrName);
  }
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

namespace {
struct FuseElementwisePass
    : public cavs::impl::CavsFuseElementwiseBase<FuseElementwisePass> {
  using CavsFuseElementwiseBase::CavsFuseElementwiseBase;
  void runOnOperation() override {
    for (auto vertex : getOperation().getBody().getOps<VertexOp>()) {
      if (BackwardOp backward = vertex.getBackward())
        BlockFuser(backward.getBody().front(), merge).run();
      BlockFuser(vertex.getBody().front(), merge).run();
    }
  }
};
} // namespace
