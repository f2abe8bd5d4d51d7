//===- ElementwiseOps.cpp - what each elementwise op means ----------------===//
//
// Everything the compiler needs of an elementwise op, one op after another:
// its scalar body for the CPU loop kernels (f32 arith/math ops), the same
// as CUDA C text, its gradient rule and, where it is not one FLOP per
// element, its cost. Reductions are here too: in a fused kernel they are an
// elementwise step folding each element into an accumulator. A new
// elementwise op is declared in CavsOps.td and defined here (see
// docs/dialect.md, "Adding an op").
//
//===----------------------------------------------------------------------===//

#include "dialects/AdjointContext.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace mlir;
using namespace cavs;

namespace {
/// Builds f32 scalar ops at one place of a kernel.
struct ScalarBuilder {
  OpBuilder &b;
  Location loc;

  Value f32(float value) {
    return b.create<arith::ConstantOp>(loc, b.getF32FloatAttr(value));
  }
  template <typename OpTy, typename... Args> Value value(Args... args) {
    return b.create<OpTy>(loc, args...);
  }
};

/// `x0 + x1` for an infix operator.
std::string cudaInfix(ArrayRef<std::string> x, StringRef symbol) {
  return x[0] + " " + symbol.str() + " " + x[1];
}

/// `f(x0)` for a CUDA math function.
std::string cudaCall(StringRef function, ArrayRef<std::string> x) {
  return function.str() + "(" + x[0] + ")";
}
} // namespace

//===----------------------------------------------------------------------===//
// Binary arithmetic
//===----------------------------------------------------------------------===//

Value AddOp::buildScalar(OpBuilder &b, Location loc, ArrayRef<Value> x) {
  return ScalarBuilder{b, loc}.value<arith::AddFOp>(x[0], x[1]);
}
std::string AddOp::getCudaExpression(ArrayRef<std::string> x) {
  return cudaInfix(x, "+");
}
LogicalResult AddOp::buildAdjoint(AdjointContext &c, ArrayRef<Value> dys) {
  Value dy = dys.front();
  c.accumulate(getLhs(), c.unbroadcast(dy, getLhs().getType()));
  c.accumulate(getRhs(), c.unbroadcast(dy, getRhs().getType()));
  return success();
}

Value SubOp::buildScalar(OpBuilder &b, Location loc, ArrayRef<Value> x) {
  return ScalarBuilder{b, loc}.value<arith::SubFOp>(x[0], x[1]);
}
std::string SubOp::getCudaExpression(ArrayRef<std::string> x) {
  return cudaInfix(x, "-");
}
LogicalResult SubOp::buildAdjoint(AdjointContext &c, ArrayRef<Value> dys) {
  Value dy = dys.front();
  c.accumulate(getLhs(), c.unbroadcast(dy, getLhs().getType()));
  if (c.isDifferentiable(getRhs()))
    c.accumulate(getRhs(),
                 c.unbroadcast(c.create<NegOp>(dy), getRhs().getType()));
  return success();
}

Value MulOp::buildScalar(OpBuilder &b, Location loc, ArrayRef<Value> x) {
  return ScalarBuilder{b, loc}.value<arith::MulFOp>(x[0], x[1]);
}
std::string MulOp::getCudaExpression(ArrayRef<std::string> x) {
  return cudaInfix(x, "*");
}
LogicalResult MulOp::buildAdjoint(AdjointContext &c, ArrayRef<Value> dys) {
  Value dy = dys.front();
  if (c.isDifferentiable(getLhs()))
    c.accumulate(getLhs(), c.unbroadcast(c.binary<MulOp>(dy, getRhs()),
                                         getLhs().getType()));
  if (c.isDifferentiable(getRhs()))
    c.accumulate(getRhs(), c.unbroadcast(c.binary<MulOp>(dy, getLhs()),
                                         getRhs().getType()));
  return success();
}

Value DivOp::buildScalar(OpBuilder &b, Location loc, ArrayRef<Value> x) {
  return ScalarBuilder{b, loc}.value<arith::DivFOp>(x[0], x[1]);
}
std::string DivOp::getCudaExpression(ArrayRef<std::string> x) {
  return cudaInfix(x, "/");
}
LogicalResult DivOp::buildAdjoint(AdjointContext &c, ArrayRef<Value> dys) {
  // y = a / b: da = dy / b, db = -(dy * y) / b.
  Value dy = dys.front();
  if (c.isDifferentiable(getLhs()))
    c.accumulate(getLhs(), c.unbroadcast(c.binary<DivOp>(dy, getRhs()),
                                         getLhs().getType()));
  if (c.isDifferentiable(getRhs())) {
    Value product = c.binary<MulOp>(dy, getResult());
    Value scaled = c.binary<DivOp>(product, getRhs());
    c.accumulate(getRhs(),
                 c.unbroadcast(c.create<NegOp>(scaled), getRhs().getType()));
  }
  return success();
}

// Only gradients use equal (to find the maximal elements), so it has no
// gradient rule itself.
Value EqualOp::buildScalar(OpBuilder &b, Location loc, ArrayRef<Value> x) {
  ScalarBuilder s{b, loc};
  Value equal =
      b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OEQ, x[0], x[1]);
  return b.create<arith::SelectOp>(loc, equal, s.f32(1), s.f32(0));
}
std::string EqualOp::getCudaExpression(ArrayRef<std::string> x) {
  return x[0] + " == " + x[1] + " ? 1.0f : 0.0f";
}

//===----------------------------------------------------------------------===//
// Unary functions
//===----------------------------------------------------------------------===//

Value NegOp::buildScalar(OpBuilder &b, Location loc, ArrayRef<Value> x) {
  return ScalarBuilder{b, loc}.value<arith::NegFOp>(x[0]);
}
std::string NegOp::getCudaExpression(ArrayRef<std::string> x) {
  return "-" + x[0];
}
LogicalResult NegOp::buildAdjoint(AdjointContext &c, ArrayRef<Value> dys) {
  c.accumulate(getOperand(), c.create<NegOp>(dys.front()));
  return success();
}

Value SigmoidOp::buildScalar(OpBuilder &b, Location loc, ArrayRef<Value> x) {
  // 1 / (1 + exp(-x))
  ScalarBuilder s{b, loc};
  Value e = s.value<math::ExpOp>(s.value<arith::NegFOp>(x[0]));
  return s.value<arith::DivFOp>(s.f32(1), s.value<arith::AddFOp>(s.f32(1), e));
}
std::string SigmoidOp::getCudaExpression(ArrayRef<std::string> x) {
  return "1.0f / (1.0f + expf(-" + x[0] + "))";
}
LogicalResult SigmoidOp::buildAdjoint(AdjointContext &c, ArrayRef<Value> dys) {
  // dy * y * (1 - y)
  Value y = getResult();
  Value one = c.scalar(1.0f);
  Value complement = c.binary<SubOp>(one, y);
  Value slope = c.binary<MulOp>(y, complement);
  c.accumulate(getOperand(), c.binary<MulOp>(dys.front(), slope));
  return success();
}

Value TanhOp::buildScalar(OpBuilder &b, Location loc, ArrayRef<Value> x) {
  return ScalarBuilder{b, loc}.value<math::TanhOp>(x[0]);
}
std::string TanhOp::getCudaExpression(ArrayRef<std::string> x) {
  return cudaCall("tanhf", x);
}
LogicalResult TanhOp::buildAdjoint(AdjointContext &c, ArrayRef<Value> dys) {
  // dy * (1 - y * y)
  Value y = getResult();
  Value one = c.scalar(1.0f);
  Value square = c.binary<MulOp>(y, y);
  Value slope = c.binary<SubOp>(one, square);
  c.accumulate(getOperand(), c.binary<MulOp>(dys.front(), slope));
  return success();
}

Value ReluOp::buildScalar(OpBuilder &b, Location loc, ArrayRef<Value> x) {
  ScalarBuilder s{b, loc};
  return s.value<arith::MaximumFOp>(x[0], s.f32(0));
}
std::string ReluOp::getCudaExpression(ArrayRef<std::string> x) {
  return "fmaxf(" + x[0] + ", 0.0f)";
}
LogicalResult ReluOp::buildAdjoint(AdjointContext &c, ArrayRef<Value> dys) {
  c.accumulate(getOperand(), c.create<ReluGradOp>(getResult(), dys.front()));
  return success();
}

// relu_grad is itself a gradient: it has no gradient rule.
Value ReluGradOp::buildScalar(OpBuilder &b, Location loc, ArrayRef<Value> x) {
  ScalarBuilder s{b, loc};
  Value positive =
      b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OGT, x[0], s.f32(0));
  return b.create<arith::SelectOp>(loc, positive, x[1], s.f32(0));
}
std::string ReluGradOp::getCudaExpression(ArrayRef<std::string> x) {
  return x[0] + " > 0.0f ? " + x[1] + " : 0.0f";
}

Value ExpOp::buildScalar(OpBuilder &b, Location loc, ArrayRef<Value> x) {
  return ScalarBuilder{b, loc}.value<math::ExpOp>(x[0]);
}
std::string ExpOp::getCudaExpression(ArrayRef<std::string> x) {
  return cudaCall("expf", x);
}
LogicalResult ExpOp::buildAdjoint(AdjointContext &c, ArrayRef<Value> dys) {
  c.accumulate(getOperand(), c.binary<MulOp>(dys.front(), getResult()));
  return success();
}

Value LogOp::buildScalar(OpBuilder &b, Location loc, ArrayRef<Value> x) {
  return ScalarBuilder{b, loc}.value<math::LogOp>(x[0]);
}
std::string LogOp::getCudaExpression(ArrayRef<std::string> x) {
  return cudaCall("logf", x);
}
LogicalResult LogOp::buildAdjoint(AdjointContext &c, ArrayRef<Value> dys) {
  c.accumulate(getOperand(), c.binary<DivOp>(dys.front(), getOperand()));
  return success();
}

Value SqrtOp::buildScalar(OpBuilder &b, Location loc, ArrayRef<Value> x) {
  return ScalarBuilder{b, loc}.value<math::SqrtOp>(x[0]);
}
std::string SqrtOp::getCudaExpression(ArrayRef<std::string> x) {
  return cudaCall("sqrtf", x);
}
LogicalResult SqrtOp::buildAdjoint(AdjointContext &c, ArrayRef<Value> dys) {
  // dy / (2 y)
  Value twice = c.binary<MulOp>(c.scalar(2.0f), getResult());
  c.accumulate(getOperand(), c.binary<DivOp>(dys.front(), twice));
  return success();
}

Value SoftplusOp::buildScalar(OpBuilder &b, Location loc, ArrayRef<Value> x) {
  // max(x, 0) + log(1 + exp(-|x|))
  ScalarBuilder s{b, loc};
  Value e =
      s.value<math::ExpOp>(s.value<arith::NegFOp>(s.value<math::AbsFOp>(x[0])));
  return s.value<arith::AddFOp>(s.value<arith::MaximumFOp>(x[0], s.f32(0)),
                                s.value<math::Log1pOp>(e));
}
std::string SoftplusOp::getCudaExpression(ArrayRef<std::string> x) {
  return "fmaxf(" + x[0] + ", 0.0f) + log1pf(expf(-fabsf(" + x[0] + ")))";
}
LogicalResult SoftplusOp::buildAdjoint(AdjointContext &c, ArrayRef<Value> dys) {
  Value slope = c.create<SigmoidOp>(getOperand());
  c.accumulate(getOperand(), c.binary<MulOp>(dys.front(), slope));
  return success();
}

//===----------------------------------------------------------------------===//
// Sum of several values
//===----------------------------------------------------------------------===//

Value SumOp::buildScalar(OpBuilder &b, Location loc, ArrayRef<Value> x) {
  ScalarBuilder s{b, loc};
  Value sum = x[0];
  for (Value term : x.drop_front())
    sum = s.value<arith::AddFOp>(sum, term);
  return sum;
}
std::string SumOp::getCudaExpression(ArrayRef<std::string> x) {
  return llvm::join(x, " + ");
}
LogicalResult SumOp::buildAdjoint(AdjointContext &c, ArrayRef<Value> dys) {
  for (Value input : getInputs())
    c.accumulate(input, dys.front());
  return success();
}
int64_t SumOp::getFlops() {
  return (int64_t(getInputs().size()) - 1) * valueWidth(getType());
}

//===----------------------------------------------------------------------===//
// Reductions: x[0] is the accumulator, x[1] the element
//===----------------------------------------------------------------------===//

Value ReduceSumOp::buildScalar(OpBuilder &b, Location loc, ArrayRef<Value> x) {
  return ScalarBuilder{b, loc}.value<arith::AddFOp>(x[0], x[1]);
}
std::string ReduceSumOp::getCudaExpression(ArrayRef<std::string> x) {
  return cudaInfix(x, "+");
}
float ReduceSumOp::getIdentity() { return 0.0f; }
LogicalResult ReduceSumOp::buildAdjoint(AdjointContext &c,
                                        ArrayRef<Value> dys) {
  Value zero = c.zeros(getOperand().getType());
  c.accumulate(getOperand(), c.binary<AddOp>(zero, dys.front()));
  return success();
}
int64_t ReduceSumOp::getFlops() { return valueWidth(getOperand().getType()); }

Value ReduceMaxOp::buildScalar(OpBuilder &b, Location loc, ArrayRef<Value> x) {
  return ScalarBuilder{b, loc}.value<arith::MaximumFOp>(x[0], x[1]);
}
std::string ReduceMaxOp::getCudaExpression(ArrayRef<std::string> x) {
  // A NaN makes the maximum NaN, as arith.maximumf does on the CPU (fmaxf
  // would skip it).
  const std::string &acc = x[0], &value = x[1];
  return value + " > " + acc + " || " + value + " != " + value + " ? " + value +
         " : " + acc;
}
float ReduceMaxOp::getIdentity() { return -INFINITY; }
LogicalResult ReduceMaxOp::buildAdjoint(AdjointContext &c,
                                        ArrayRef<Value> dys) {
  // dy shared evenly by the maximal elements (as PyTorch's max() and
  // amax() do): dy / count where x == max, 0 elsewhere.
  Value x = getOperand();
  Value mask = c.binary<EqualOp>(x, getResult());
  Value count = c.create<ReduceSumOp>(mask);
  Value share = c.binary<DivOp>(dys.front(), count);
  c.accumulate(x, c.binary<MulOp>(mask, share));
  return success();
}
int64_t ReduceMaxOp::getFlops() { return valueWidth(getOperand().getType()); }
