//===- Autodiff.cpp - derive ∂F for every vertex function -----------------===//
//
// Reverse-mode differentiation of a vertex function into its cavs.backward
// region. Gradients flow only between differentiable inputs (parameters,
// f32 pulls, gathers) and outputs (losses, pushes, the scatter); everything
// else is left out of ∂F. The pass walks F backwards and keeps the
// gradients; each op's rule (AdjointOpInterface, in dialects/) says what
// its gradients are.
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/Passes.h"

#include "dialects/AdjointContext.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace cavs {
#define GEN_PASS_DEF_CAVSAUTODIFF
#include "compiler/Transforms/Passes.h.inc"
} // namespace cavs

using namespace mlir;
using namespace cavs;

namespace {
/// Builds the backward region of one vertex function; each op of F adds
/// its part through its AdjointOpInterface.
class AdjointBuilder : public AdjointContext {
public:
  explicit AdjointBuilder(VertexOp vertex)
      : AdjointContext(vertex.getContext()), vertex(vertex) {}

  LogicalResult run();

  bool isDifferentiable(Value value) const override {
    return differentiable.contains(value);
  }
  void accumulate(Value value, Value gradient) override;

private:
  /// The sum of all contributions to the gradient of `value`, or null.
  Value takeGradient(Value value);
  LogicalResult differentiate(Operation *op);

  VertexOp vertex;
  /// Values that depend on a parameter, an f32 pull or a gather.
  llvm::DenseSet<Value> differentiable;
  llvm::DenseMap<Value, SmallVector<Value, 2>> contributions;
};
} // namespace

void AdjointBuilder::accumulate(Value value, Value gradient) {
  if (differentiable.contains(value))
    contributions[value].push_back(gradient);
}

Value AdjointBuilder::takeGradient(Value value) {
  auto it = contributions.find(value);
  if (it == contributions.end())
    return nullptr;
  SmallVector<Value, 2> parts = std::move(it->second);
  contributions.erase(it);
  if (parts.size() == 1)
    return parts.front();
  return builder.create<SumOp>(loc, parts);
}

LogicalResult AdjointBuilder::run() {
  Block &forward = vertex.getBody().front();
  for (Operation &op : forward) {
    bool source = isa<GatherOp, ParamRefOp>(op) ||
                  (isa<PullOp>(op) && isa<RankedTensorType>(op.getResult(0).getType()));
    auto isDifferentiable = [&](Value operand) {
      return differentiable.contains(operand);
    };
    // An op with regions (scf.if) depends on the values its regions use
    // from above too; none has a gradient rule, so one on a differentiated
    // path is an error rather than a gradient silently dropped.
    bool dependent =
        llvm::any_of(op.getOperands(), isDifferentiable) ||
        (op.getNumRegions() != 0 &&
         op.walk([&](Operation *inner) {
             return llvm::any_of(inner->getOperands(), isDifferentiable)
                        ? WalkResult::interrupt()
                        : WalkResult::advance();
           }).wasInterrupted());
    if (source || dependent)
      differentiable.insert(op.getResults().begin(), op.getResults().end());
  }

  builder.setInsertionPointToEnd(&forward);
  auto backward = builder.create<BackwardOp>(vertex.getLoc());
  builder.setInsertionPointToEnd(&backward.getBody().emplaceBlock());
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(forward))) {
    if (&op == backward.getOperation())
      continue;
    loc = op.getLoc();
    if (failed(differentiate(&op)))
      return failure();
  }
  return success();
}

LogicalResult AdjointBuilder::differentiate(Operation *op) {
  SmallVector<Value> gradients;
  bool any = false;
  for (Value result : op->getResults()) {
    gradients.push_back(takeGradient(result));
    any |= gradients.back() != nullptr;
  }
  // An op with results takes part only when one of them has a gradient;
  // outputs (scatter, push, loss) have none and seed the gradients.
  auto adjoint = dyn_cast<AdjointOpInterface>(op);
  if (!any && (!adjoint || op->getNumResults() != 0))
    return success();
  if (!adjoint)
    return op->emitOpError("has no gradient rule");
  return adjoint.buildAdjoint(*this, gradients);
}

namespace {
struct AutodiffPass : public cavs::impl::CavsAutodiffBase<AutodiffPass> {
  void runOnOperation() override {
    for (auto vertex : getOperation().getBody().getOps<VertexOp>()) {
      if (vertex.getBackward())
        continue;
      if (failed(AdjointBuilder(vertex).run()))
        return signalPassFailure();
    }
  }
};
} // namespace
