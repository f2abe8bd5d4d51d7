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
