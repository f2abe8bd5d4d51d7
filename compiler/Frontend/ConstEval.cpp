//===- ConstEval.cpp - compile-time integer expressions -------------------===//
//
// Recursive evaluation; recursion depth is bounded by the parser's limit on
// expression height.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/ConstEval.h"

#include "cavs/model.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace cavs;
using namespace cavs::checked;
using llvm::cast;

static std::optional<int64_t> evaluateBinary(const BinaryExpr &binary,
                                             int64_t lhs, int64_t rhs,
                                             DiagEngine &diag) {
  std::optional<int64_t> result;
  switch (binary.getOp()) {
  case BinaryOp::Add:
    result = llvm::checkedAdd(lhs, rhs);
    break;
  case BinaryOp::Sub:
    result = llvm::checkedSub(lhs, rhs);
    break;
  case BinaryOp::Mul:
    result = llvm::checkedMul(lhs, rhs);
    break;
  case BinaryOp::Div:
    if (rhs == 0) {
      diag.error(binary.getLoc(),
                 "division by zero in a compile-time integer expression");
      return std::nullopt;
    }
    // INT64_MIN / -1 is the one quotient that does not fit.
    if (!(lhs == INT64_MIN && rhs == -1))
      result = lhs / rhs;
    break;
  case BinaryOp::MatMul:
    llvm_unreachable("'@' is rejected before its operands are evaluated");
  }
  if (!result)
    diag.error(binary.getLoc(),
               "integer overflow in a compile-time integer expression");
  return result;
}

std::optional<int64_t>
cavs::evaluateInt(const Expr &expr, IntNameResolver resolve, DiagEngine &diag) {
  switch (expr.getKind()) {
  case Expr::Kind::Number: {
    const auto &number = cast<NumberExpr>(expr);
    if (number.isInteger())
      return number.getIntValue();
    diag.error(expr.getLoc(),
               "expected an integer, got '" + number.getSpelling() + "'");
    return std::nullopt;
  }
  case Expr::Kind::Name:
    return resolve(cast<NameExpr>(expr));
  case Expr::Kind::Neg: {
    std::optional<int64_t> operand =
        evaluateInt(cast<NegExpr>(expr).getOperand(), resolve, diag);
    if (!operand)
      return std::nullopt;
    if (*operand == INT64_MIN) {
      diag.error(expr.getLoc(),
                 "integer overflow in a compile-time integer expression");
      return std::nullopt;
    }
    return -*operand;
  }
  case Expr::Kind::Binary: {
    const auto &binary = cast<BinaryExpr>(expr);
    if (binary.getOp() == BinaryOp::MatMul) {
      diag.error(expr.getLoc(),
                 "'@' is not allowed in a compile-time integer expression");
      return std::nullopt;
    }
    std::optional<int64_t> lhs = evaluateInt(binary.getLHS(), resolve, diag);
    std::optional<int64_t> rhs = evaluateInt(binary.getRHS(), resolve, diag);
    if (!lhs || !rhs)
      return std::nullopt;
    return evaluateBinary(binary, *lhs, *rhs, diag);
  }
  case Expr::Kind::Index:
  case Expr::Kind::Call:
  case Expr::Kind::Pull:
  case Expr::Kind::Gather:
    diag.error(expr.getLoc(), "expected a compile-time integer expression");
    return std::nullopt;
  }
  llvm_unreachable("unknown expression kind");
}

std::optional<Type> cavs::evaluateType(const TypeSpec &spec,
                                       IntNameResolver resolve,
                                       DiagEngine &diag) {
  if (spec.isI32)
    return Type::i32();
  llvm::SmallVector<int64_t, 2> shape;
  bool ok = true;
  for (const ExprPtr &dim : spec.dims) {
    std::optional<int64_t> extent = evaluateInt(*dim, resolve, diag);
    if (extent && *extent <= 0) {
      diag.error(dim->getLoc(),
                 "dimension must be positive, got " + llvm::Twine(*extent));
      extent = std::nullopt;
    } else if (extent && *extent > CAVS_MAX_DIMENSION) {
      diag.error(dim->getLoc(), "dimension " + llvm::Twine(*extent) +
                                    " exceeds the runtime's limit of " +
                                    llvm::Twine(CAVS_MAX_DIMENSION));
      extent = std::nullopt;
    }
    ok &= extent.has_value();
    if (extent)
      shape.push_back(*extent);
  }
  if (!ok)
    return std::nullopt;
  return Type::f32(shape);
}
