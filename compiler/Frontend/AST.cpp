//===- AST.cpp - syntax tree of a .cavs model -----------------------------===//
//
// Small helpers shared by the parser, the printer and sema.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/AST.h"

#include "llvm/Support/ErrorHandling.h"

using namespace cavs;

llvm::StringRef cavs::getBinaryOpSpelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add:
    return "+";
  case BinaryOp::Sub:
    return "-";
  case BinaryOp::Mul:
    return "*";
  case BinaryOp::Div:
    return "/";
  case BinaryOp::MatMul:
    return "@";
  }
  llvm_unreachable("unknown binary operator");
}

unsigned cavs::heightAbove(llvm::ArrayRef<ExprPtr> exprs) {
  unsigned height = 0;
  for (const ExprPtr &expr : exprs)
    height = std::max(height, expr->getHeight());
  return height + 1;
}
