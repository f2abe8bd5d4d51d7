//===- ApproximateMath.cpp - the cavs-approximate-math pass ---------------===//
//
// Upstream offers the approximation patterns but registers no pass for
// them outside its tests.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace cavs {
#define GEN_PASS_DEF_CAVSAPPROXIMATEMATH
#include "compiler/Conversion/Passes.h.inc"
} // namespace cavs

using namespace mlir;

namespace {
struct ApproximateMathPass
    : public cavs::impl::CavsApproximateMathBase<ApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns);
    if (failed(
            applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
