//===- OutlinePhases.cpp - batching classes as cavs.phase ops -------------===//
//
// The classes say when an op runs; moving each class into a region of its
// own lets the lowering take a phase as a unit and makes a missing or
// misplaced class a verifier error instead of a lowering's guess.
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace cavs {
#define GEN_PASS_DEF_CAVSOUTLINEPHASES
#include "compiler/Transforms/Passes.h.inc"
} // namespace cavs

using namespace mlir;
using namespace cavs;

namespace {
/// Moves the classified ops of `block` into phases before `end` (the
/// block's cavs.backward, or its end).
LogicalResult outlineBlock(Block &block) {
  SmallVector<SmallVector<Operation *>, 3> classes(3);
  for (Operation &op : block) {
    if (!isBatchedOp(&op)) {
      // Every phase reads it: it has no class of its own any more.
      op.removeAttr(CavsDialect::kBatchingAttrName);
      continue;
    }
    auto kind =
        op.getAttrOfType<BatchingKindAttr>(CavsDialect::kBatchingAttrName);
    if (!kind)
      return op.emitOpError("has no batching class; run cavs-classify first");
    // Phases run in class order (eager, body, lazy): an op cannot read a
    // value of a later class, which hand-written or stale classes may say.
    for (Value operand : op.getOperands()) {
      Operation *producer = operand.getDefiningOp();
      auto produced =
          producer && producer->getBlock() == &block
              ? producer->getAttrOfType<BatchingKindAttr>(
                    CavsDialect::kBatchingAttrName)
              : nullptr;
      if (produced && produced.getValue() > kind.getValue())
        return op.emitOpError("is ")
               << stringifyBatchingKind(kind.getValue())
               << " but reads a value of the later class "
               << stringifyBatchingKind(produced.getValue())
               << "; the classes are inconsistent (run cavs-classify)";
    }
    classes[static_cast<unsigned>(kind.getValue())].push_back(&op);
  }

  MLIRContext *context = block.getParentOp()->getContext();
  OpBuilder b(context);
  Operation *backward = block.empty() ? nullptr : &block.back();
  if (backward && !isa<BackwardOp>(backward))
    backward = nullptr;
  for (auto [index, ops] : llvm::enumerate(classes)) {
    if (ops.empty())
      continue;
    llvm::SmallPtrSet<Operation *, 32> members(ops.begin(), ops.end());
    // The values read outside the phase (later phases, ∂F) are its results.
    SmallVector<Value> escaping;
    for (Operation *op : ops)
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUsers(), [&](Operation *user) {
              return !members.contains(block.findAncestorOpInBlock(*user));
            }))
          escaping.push_back(result);

    if (backward)
      b.setInsertionPoint(backward);
    else
      b.setInsertionPointToEnd(&block);
    auto kind =
        BatchingKindAttr::get(context, static_cast<BatchingKind>(index));
    auto phase = b.create<PhaseOp>(ops.front()->getLoc(),
                                   ValueRange(escaping).getTypes(), kind);
    Block *body = b.createBlock(&phase.getBody());
    b.setInsertionPointToEnd(body);
    auto yield = b.create<YieldOp>(phase.getLoc(), escaping);
    for (Operation *op : ops) {
      op->moveBefore(yield);
      op->removeAttr(CavsDialect::kBatchingAttrName);
    }
    for (auto [value, result] : llvm::zip(escaping, phase.getResults()))
      value.replaceUsesWithIf(result, [&](OpOperand &use) {
        return use.getOwner() != yield.getOperation() &&
               !phase->isAncestor(use.getOwner());
      });
  }
  return success();
}

struct OutlinePhasesPass
    : public cavs::impl::CavsOutlinePhasesBase<OutlinePhasesPass> {
  void runOnOperation() override {
    for (auto vertex : getOperation().getBody().getOps<VertexOp>()) {
      if (failed(outlineBlock(vertex.getBody().front())))
        return signalPassFailure();
      if (BackwardOp backward = vertex.getBackward())
        if (failed(outlineBlock(backward.getBody().front())))
          return signalPassFailure();
    }
  }
};
} // namespace
