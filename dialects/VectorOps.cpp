//===- VectorOps.cpp - gradients and costs of the ops on whole vectors ----===//
//
// The ops that are not elementwise: matmul and embedding lookup, softmax
// and its cross entropy, the views that cut vectors up and put them
// together, and fused kernels. Their gradient rules and costs; views move
// no data and cost nothing.
//
//===----------------------------------------------------------------------===//

#include "dialects/AdjointContext.h"

using namespace mlir;
using namespace cavs;

//===----------------------------------------------------------------------===//
// Matmul and lookup
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::buildAdjoint(AdjointContext &c, ArrayRef<Value> dys) {
  Value dy = dys.front();
  Value x = getRhs();
  bool transposed = getTransposeLhs();
  if (c.isDifferentiable(x))
    c.accumulate(x, c.create<MatmulOp>(x.getType(), getLhs(), dy,
                                       /*transpose_lhs=*/!transposed));
  if (!c.isDifferentiable(getLhs()))
    return success();
  FailureOr<ParamRefOp> weight = c.paramOperand(*this, getLhs());
  if (failed(weight))
    return failure();
  // W @ x: dW += dy ⊗ x;  Wᵀ @ x: dW += x ⊗ dy.
  c.create<ParamGradOuterOp>(weight->getParamAttr(), transposed ? x : dy,
                             transposed ? dy : x);
  return success();
}
int64_t MatmulOp::getFlops() { return 2 * valueWidth(getLhs().getType()); }

int64_t ParamGradOuterOp::getFlops() {
  return 2 * valueWidth(getDy().getType()) * valueWidth(getX().getType());
}

LogicalResult LookupOp::buildAdjoint(AdjointContext &c, ArrayRef<Value> dys) {
  FailureOr<ParamRefOp> table = c.paramOperand(*this, getTable());
  if (failed(table))
    return failure();
  c.create<LookupGradOp>(table->getParamAttr(), getIndex(), dys.front());
  return success();
}

//===----------------------------------------------------------------------===//
// Softmax and cross entropy: about 4 FLOPs per element (max, exp, sum,
// scale)
//===----------------------------------------------------------------------===//

LogicalResult SoftmaxOp::buildAdjoint(AdjointContext &c, ArrayRef<Value> dys) {
  // y * (dy - sum(dy * y))
  Value dy = dys.front();
  Value y = getResult();
  Value weighted = c.binary<MulOp>(dy, y);
  Value dot = c.create<ReduceSumOp>(weighted);
  Value centered = c.binary<SubOp>(dy, dot);
  c.accumulate(getOperand(), c.binary<MulOp>(y, centered));
  return success();
}
int64_t SoftmaxOp::getFlops() { return 4 * valueWidth(getOperand().getType()); }

LogicalResult SoftmaxCrossEntropyOp::buildAdjoint(AdjointContext &c,
                                                  ArrayRef<Value> dys) {
  c.accumulate(getLogits(), c.create<SoftmaxCrossEntropyGradOp>(
                                getLogits(), getLabel(), dys.front()));
  return success();
}
int64_t SoftmaxCrossEntropyOp::getFlops() {
  return 4 * valueWidth(getLogits().getType());
}

int64_t SoftmaxCrossEntropyGradOp::getFlops() {
  return 4 * valueWidth(getLogits().getType());
}

//===----------------------------------------------------------------------===//
// Views: concat, split, slice and pad are each other's adjoints
//===----------------------------------------------------------------------===//

LogicalResult ConcatOp::buildAdjoint(AdjointContext &c, ArrayRef<Value> dys) {
  int64_t offset = 0;
  for (Value input : getInputs()) {
    auto type = cast<RankedTensorType>(input.getType());
    if (c.isDifferentiable(input))
      c.accumulate(input, c.create<SliceOp>(type, dys.front(), offset));
    offset += valueWidth(type);
  }
  return success();
}

LogicalResult SplitOp::buildAdjoint(AdjointContext &c, ArrayRef<Value> dys) {
  // Parts without a gradient contribute zeros.
  SmallVector<Value> parts;
  for (auto [result, gradient] : llvm::zip_equal(getResults(), dys))
    parts.push_back(gradient ? gradient : c.zeros(result.getType()));
  c.accumulate(getInput(), c.create<ConcatOp>(getInput().getType(), parts));
  return success();
}

LogicalResult SliceOp::buildAdjoint(AdjointContext &c, ArrayRef<Value> dys) {
  c.accumulate(getInput(),
               c.create<PadOp>(getInput().getType(), dys.front(), getOffset()));
  return success();
}

LogicalResult PadOp::buildAdjoint(AdjointContext &c, ArrayRef<Value> dys) {
  c.accumulate(getInput(), c.create<SliceOp>(getInput().getType(), dys.front(),
                                             getOffset()));
  return success();
}

//===----------------------------------------------------------------------===//
// Fused kernels: the sum of their ops
//===----------------------------------------------------------------------===//

int64_t FusedOp::getFlops() {
  int64_t flops = 0;
  for (Operation &inner : getBody().front().without_terminator())
    if (auto cost = dyn_cast<CostOpInterface>(inner))
      flops += cost.getFlops();
  return flops;
}
