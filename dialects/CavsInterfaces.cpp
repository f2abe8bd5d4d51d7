//===- CavsInterfaces.cpp - the op interfaces and the adjoint context -----===//
//
// The generated interface code, and the builders AdjointContext gives every
// gradient rule.
//
//===----------------------------------------------------------------------===//

#include "dialects/AdjointContext.h"

using namespace mlir;
using namespace cavs;

#include "dialects/CavsInterfaces.cpp.inc"

AdjointContext::~AdjointContext() = default;

Value AdjointContext::scalar(float value) {
  auto type = RankedTensorType::get({}, builder.getF32Type());
  return create<ConstantOp>(DenseElementsAttr::get(type, value));
}

Value AdjointContext::zeros(Type type) {
  return create<ConstantOp>(
      DenseElementsAttr::get(cast<ShapedType>(type), 0.0f));
}

Value AdjointContext::unbroadcast(Value gradient, Type operandType) {
  if (gradient.getType() == operandType)
    return gradient;
  return create<ReduceSumOp>(gradient);
}

FailureOr<ParamRefOp> AdjointContext::paramOperand(Operation *op,
                                                   Value matrix) {
  auto ref = matrix.getDefiningOp<ParamRefOp>();
  if (!ref)
    return op->emitOpError("cannot be differentiated: its matrix operand "
                           "is not a parameter");
  return ref;
}
