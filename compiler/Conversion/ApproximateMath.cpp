//===- ApproximateMath.cpp - the cavs-approximate-math pass ---------------===//
//
// Upstream offers the approximation patterns but registers no pass for
// them outside its tests. Its log clamps its argument to the smallest
// normal float, so every subnormal x gave log(FLT_MIN) = -87.34 (-103.28
// for the smallest): each f32 math.log first scales a subnormal argument
// into the normal range, log(x) = log(x * 2^23) - 23 ln 2.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <limits>

namespace cavs {
#define GEN_PASS_DEF_CAVSAPPROXIMATEMATH
#include "compiler/Conversion/Passes.h.inc"
} // namespace cavs

using namespace mlir;

namespace {
/// A constant `value` of `type`: f32, or a vector of f32.
Value f32Constant(OpBuilder &b, Location loc, Type type, float value) {
  FloatAttr scalar = b.getF32FloatAttr(value);
  if (auto vector = dyn_cast<VectorType>(type))
    return b.create<arith::ConstantOp>(loc,
                                       DenseElementsAttr::get(vector, scalar));
  return b.create<arith::ConstantOp>(loc, scalar);
}

/// log(x) as select(x < FLT_MIN, log(x * 2^23) - 23 ln 2, log(x)): zero,
/// negatives, infinities and NaN take the same path as before.
void scaleSubnormalLogArgument(math::LogOp log) {
  Type type = log.getType();
  if (!getElementTypeOrSelf(type).isF32())
    return;
  OpBuilder b(log);
  Location loc = log.getLoc();
  Value x = log.getOperand();
  Value small = b.create<arith::CmpFOp>(
      loc, arith::CmpFPredicate::OLT, x,
      f32Constant(b, loc, type, std::numeric_limits<float>::min()));
  Value scaled = b.create<arith::MulFOp>(
      loc, x, f32Constant(b, loc, type, 8388608.0f)); // 2^23
  Value argument = b.create<arith::SelectOp>(loc, small, scaled, x);
  log.getOperandMutable().assign(argument);
  b.setInsertionPointAfter(log);
  Value shifted = b.create<arith::SubFOp>(
      loc, log, f32Constant(b, loc, type, 15.942385152878742f)); // 23 ln 2
  Value result = b.create<arith::SelectOp>(loc, small, shifted, log);
  SmallPtrSet<Operation *, 2> readers = {shifted.getDefiningOp(),
                                         result.getDefiningOp()};
  log.getResult().replaceAllUsesExcept(result, readers);
}

struct ApproximateMathPass
    : public cavs::impl::CavsApproximateMathBase<ApproximateMathPass> {
  void runOnOperation() override {
    getOperation().walk(scaleSubnormalLogArgument);
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns);
    if (failed(
            applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
