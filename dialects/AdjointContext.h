//===- AdjointContext.h - what an op's gradient rule builds with -*- C++
//-*-===//
//
// The side of cavs-autodiff that an op's AdjointOpInterface::buildAdjoint
// sees: a builder placed in ∂F, which values carry gradients, and where to
// send an operand's gradient. The pass (compiler/Transforms/Autodiff.cpp)
// implements it; the small builders below are shared by all rules.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_DIALECTS_ADJOINTCONTEXT_H
#define CAVS_DIALECTS_ADJOINTCONTEXT_H

#include "dialects/CavsOps.h"

#include "mlir/IR/Builders.h"

namespace cavs {

class AdjointContext {
public:
  virtual ~AdjointContext();

  /// Whether `value` depends on a parameter, an f32 pull or a gather: only
  /// such values take gradients, so a rule may skip building the others'.
  virtual bool isDifferentiable(mlir::Value value) const = 0;
  /// Adds `gradient` to the gradient of `value` (dropped unless `value` is
  /// differentiable).
  virtual void accumulate(mlir::Value value, mlir::Value gradient) = 0;

  /// Creates an op of ∂F at the location of the op being differentiated.
  template <typename OpTy, typename... Args> OpTy create(Args &&...args) {
    return builder.create<OpTy>(loc, std::forward<Args>(args)...);
  }
  /// An f32 scalar constant.
  mlir::Value scalar(float value);
  /// A zero constant of `type`.
  mlir::Value zeros(mlir::Type type);
  /// An elementwise binary op whose result has the shape of the non-scalar
  /// side (a rank-0 side is broadcast).
  template <typename OpTy>
  mlir::Value binary(mlir::Value lhs, mlir::Value rhs) {
    mlir::Type lhsType = lhs.getType(), rhsType = rhs.getType();
    mlir::Type result =
        llvm::cast<mlir::RankedTensorType>(lhsType).getRank() == 0 ? rhsType
                                                                   : lhsType;
    return create<OpTy>(result, lhs, rhs);
  }
  /// Reduces a gradient to the shape of an operand that was broadcast.
  mlir::Value unbroadcast(mlir::Value gradient, mlir::Type operandType);
  /// The parameter a matmul or lookup `op` reads its matrix from; an error
  /// on `op` when the matrix is computed.
  mlir::FailureOr<ParamRefOp> paramOperand(mlir::Operation *op,
                                           mlir::Value matrix);

protected:
  explicit AdjointContext(mlir::MLIRContext *context)
      : builder(context), loc(mlir::UnknownLoc::get(context)) {}

  mlir::OpBuilder builder;
  /// The location of the op being differentiated, given to what it builds.
  mlir::Location loc;
};

} // namespace cavs

#endif // CAVS_DIALECTS_ADJOINTCONTEXT_H
