//===- PrimitiveOps.cpp - gradients and costs of the Cavs primitives ------===//
//
// The four primitives, parameter references and the loss: their gradient
// rules (the outputs seed ∂F, the inputs end it in their adjoint ops) and
// the bytes the state copies move. The adjoint ops' own costs are here too.
//
//===----------------------------------------------------------------------===//

#include "dialects/AdjointContext.h"

using namespace mlir;
using namespace cavs;

//===----------------------------------------------------------------------===//
// Outputs: they seed the gradients of what they consume
//===----------------------------------------------------------------------===//

LogicalResult ScatterOp::buildAdjoint(AdjointContext &c, ArrayRef<Value>) {
  if (c.isDifferentiable(getValue()))
    c.accumulate(getValue(), c.create<StateGradOp>(getValue().getType()));
  return success();
}
int64_t ScatterOp::getCopyBytes() {
  // A value cavs-plan-memory computed in the state rows is not copied.
  SlotAttr slot = slotOf(getValue());
  if (slot && slot.getSpace() == SlotSpace::state)
    return 0;
  return 4 * valueWidth(getValue().getType());
}

LogicalResult PushOp::buildAdjoint(AdjointContext &c, ArrayRef<Value>) {
  if (c.isDifferentiable(getValue()))
    c.accumulate(getValue(),
                 c.create<PushGradOp>(getValue().getType(), getName()));
  return success();
}

LogicalResult LossOp::buildAdjoint(AdjointContext &c, ArrayRef<Value>) {
  c.accumulate(getValue(), c.scalar(1.0f));
  return success();
}

//===----------------------------------------------------------------------===//
// Inputs: their gradients leave ∂F
//===----------------------------------------------------------------------===//

LogicalResult PullOp::buildAdjoint(AdjointContext &c, ArrayRef<Value> dys) {
  c.create<PullGradOp>(getName(), dys.front());
  return success();
}

LogicalResult GatherOp::buildAdjoint(AdjointContext &c, ArrayRef<Value> dys) {
  c.create<ChildGradOp>(getIndex(), dys.front());
  return success();
}
int64_t GatherOp::getFlops() { return 0; }
int64_t GatherOp::getCopyBytes() { return 4 * valueWidth(getType()); }

LogicalResult ParamRefOp::buildAdjoint(AdjointContext &c, ArrayRef<Value> dys) {
  c.create<ParamGradOp>(getParamAttr(), dys.front());
  return success();
}

//===----------------------------------------------------------------------===//
// Costs of the adjoint ops
//===----------------------------------------------------------------------===//

int64_t StateGradOp::getFlops() { return 0; }
int64_t StateGradOp::getCopyBytes() { return 4 * valueWidth(getType()); }

int64_t ChildGradOp::getCopyBytes() {
  return 4 * valueWidth(getValue().getType());
}

/// One addition per element into the parameter gradient.
int64_t ParamGradOp::getFlops() { return valueWidth(getValue().getType()); }
