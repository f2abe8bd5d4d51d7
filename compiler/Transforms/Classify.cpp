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

/// Moves eager elementwise ops whose users all run in the body into the
/// body. Batching them over every vertex gains nothing: no product gets
/// larger, and the body's kernel would compute them in the pass it makes
/// anyway. Left eager, each is a pass of its own over the whole arena and
/// its result an arena column written there and read back in the body (in
/// the N-ary Tree-LSTM's ∂F: the six gate derivatives, 768 floats per
/// vertex). Users first, so a chain of them moves together.
void sinkEagerElementwiseIntoBody(Block &block) {
  MLIRContext *context = block.getParentOp()->getContext();
  for (Operation &op : llvm::reverse(block)) {
    if (op.getNumRegions() != 0 || !isFusible(&op) ||
        kindOf(&op) != BatchingKind::eager || op.use_empty())
      continue;
    bool onlyBody = llvm::all_of(op.getUsers(), [&](Operation *user) {
      Operation *ancestor = block.findAncestorOpInBlock(*user);
      return ancestor && ancestor->getNumRegions() == 0 &&
             kindOf(ancestor) == BatchingKind::body;
    });
    if (onlyBody)
      op.setAttr(CavsDialect::kBatchingAttrName,
                 BatchingKindAttr::get(context, BatchingKind::body));
  }
}

/// Classifies the ops of `block` (F's body or ∂F's region); InputOp reads
/// and OutputOp publishes the recursion's state.
template <typename InputOp, typename OutputOp>
void classifyBlock(Block &block, bool lazyBatching) {
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
    BatchingKind kind = !lazyBatching ? BatchingKind::body
                        : !dependsOnInput.contains(&op) ? BatchingKind::eager
                        : neededByOutput.contains(&op)  ? BatchingKind::body
                                                        : BatchingKind::lazy;
    op.setAttr(CavsDialect::kBatchingAttrName,
               BatchingKindAttr::get(context, kind));
  }
  if (lazyBatching)
    sinkEagerElementwiseIntoBody(block);
}

struct ClassifyPass : public cavs::impl::CavsClassifyBase<ClassifyPass> {
  using CavsClassifyBase::CavsClassifyBase;

  void runOnOperation() override {
    for (auto vertex : getOperation().getBody().getOps<VertexOp>()) {
      classifyBlock<GatherOp, ScatterOp>(vertex.getBody().front(),
                                         lazyBatching);
      if (BackwardOp backward = vertex.getBackward())
        classifyBlock<StateGradOp, ChildGradOp>(backward.getBody().front(),
                                                lazyBatching);
    }
  }
};
} // namespace
