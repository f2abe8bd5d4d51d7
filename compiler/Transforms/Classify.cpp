//===- Classify.cpp - eager / body / lazy classification ------------------===//
//
// Two linear sweeps per block: forward for "depends on the recursion's
// input", backward for "the recursion's output depends on it".
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/Passes.h"

#include "llvm/ADT/DenseSet.h"

namespace cavs {
#define GEN_PASS_DEF_CAVSCLASSIFY
#include "compiler/Transforms/Passes.h.inc"
} // namespace cavs

using namespace mlir;
using namespace cavs;

namespace {
BatchingKind kindOf(Operation *op) {
  auto kind =
      op->getAttrOfType<BatchingKindAttr>(CavsDialect::kBatchingAttrName);
  return kind ? kind.getValue() : BatchingKind::lazy;
}

/// Moves each eager elementwise op whose users all run later (in the body
/// or the lazy phase) into the earliest of those phases. Batching it over
/// every vertex gains nothing: no product gets larger, and the later
/// phase's kernel computes it in the pass it makes anyway. Left eager, each
/// is a pass of its own over the whole arena and its result an arena column
/// written there and read back later (in the N-ary Tree-LSTM's ∂F: the six
/// gate derivatives of an inner vertex, used in the body, 768 floats per
/// vertex, and the four of a leaf, used in the lazy phase). Users first, so
/// a chain of them moves together.
void sinkEagerElementwise(Block &block) {
  MLIRContext *context = block.getParentOp()->getContext();
  for (Operation &op : llvm::reverse(block)) {
    if (op.getNumRegions() != 0 || !isFusible(&op) ||
        kindOf(&op) != BatchingKind::eager || op.use_empty())
      continue;
    BatchingKind earliest = BatchingKind::lazy;
    bool movable = llvm::all_of(op.getUsers(), [&](Operation *user) {
      Operation *ancestor = block.findAncestorOpInBlock(*user);
      if (!ancestor || ancestor->getNumRegions() != 0)
        return false;
      BatchingKind kind = kindOf(ancestor);
      if (kind == BatchingKind::body)
        earliest = BatchingKind::body;
      return kind != BatchingKind::eager;
    });
    if (movable)
      op.setAttr(CavsDialect::kBatchingAttrName,
                 BatchingKindAttr::get(context, earliest));
  }
}

/// Classifies the ops of `block` (F's body or ∂F's region); InputOp reads
/// and OutputOp publishes the recursion's state. With children (arity > 0)
/// both stay in the body whatever their operands and users: only a task
/// knows its vertices' children and state rows (the whole-type phases see
/// them as one block only at level 0), so a gather that only a loss reads,
/// or a scatter of values computed without the children, still runs there.
template <typename InputOp, typename OutputOp>
void classifyBlock(Block &block, int64_t arity, bool lazyBatching) {
  llvm::DenseSet<Operation *> dependsOnInput, neededByOutput;
  for (Operation &op : block) {
    bool dependent = isa<InputOp>(op) ||
                     llvm::any_of(op.getOperands(), [&](Value operand) {
                       return dependsOnInput.contains(operand.getDefiningOp());
                     });
    if (dependent)
      dependsOnInput.insert(&op);
  }
  for (Operation &op : llvm::reverse(block)) {
    bool needed = isa<OutputOp>(op) ||
                  llvm::any_of(op.getUsers(), [&](Operation *user) {
                    return neededByOutput.contains(
                        block.findAncestorOpInBlock(*user));
                  });
    if (needed)
      neededByOutput.insert(&op);
  }

  MLIRContext *context = block.getParentOp()->getContext();
  for (Operation &op : block) {
    if (op.getNumRegions() != 0)
      continue;
    bool taskOrdered = arity > 0 && isa<InputOp, OutputOp>(op);
    BatchingKind kind = !lazyBatching || taskOrdered ? BatchingKind::body
                        : !dependsOnInput.contains(&op) ? BatchingKind::eager
                        : neededByOutput.contains(&op)  ? BatchingKind::body
                                                        : BatchingKind::lazy;
    op.setAttr(CavsDialect::kBatchingAttrName,
               BatchingKindAttr::get(context, kind));
  }
  if (lazyBatching)
    sinkEagerElementwise(block);
}

struct ClassifyPass : public cavs::impl::CavsClassifyBase<ClassifyPass> {
  using CavsClassifyBase::CavsClassifyBase;

  void runOnOperation() override {
    // The kernels and the memory plan are made from the classes: classes
    // changed after them (cavs-optimize run twice) would no longer match.
    for (auto vertex : getOperation().getBody().getOps<VertexOp>())
      if (failed(requireNotOutlined(vertex)))
        return signalPassFailure();
    WalkResult made = getOperation().walk([](Operation *op) {
      if (!isa<FusedOp>(op) && !op->hasAttr(CavsDialect::kSlotsAttrName))
        return WalkResult::advance();
      op->emitOpError("is fused or planned already; cavs-classify runs once, "
                      "before cavs-fuse-elementwise and cavs-plan-memory");
      return WalkResult::interrupt();
    });
    if (made.wasInterrupted())
      return signalPassFailure();
    for (auto vertex : getOperation().getBody().getOps<VertexOp>()) {
      int64_t arity = vertex.getArity();
      classifyBlock<GatherOp, ScatterOp>(vertex.getBody().front(), arity,
                                         lazyBatching);
      if (BackwardOp backward = vertex.getBackward())
        classifyBlock<StateGradOp, ChildGradOp>(backward.getBody().front(),
                                                arity, lazyBatching);
    }
  }
};
} // namespace
