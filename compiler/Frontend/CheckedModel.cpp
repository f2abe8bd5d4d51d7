//===- CheckedModel.cpp - the checked form of a .cavs model ---------------===//
//
// Names of the enumerations of the checked model, for diagnostics and printers.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/CheckedModel.h"

#include "llvm/Support/ErrorHandling.h"

using namespace cavs::checked;

std::string cavs::checked::shapeToString(llvm::ArrayRef<int64_t> shape) {
  std::string result = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    result += (i ? ", " : "") + std::to_string(shape[i]);
  return result + "]";
}

std::string Type::str() const {
  return isI32() ? "i32" : "f32" + shapeToString(shape);
}

llvm::StringRef cavs::checked::getInitKindName(InitKind kind) {
  switch (kind) {
#define CAVS_INIT_KIND(keyword, NAME, value, args)                             \
  case InitKind::keyword:                                                      \
    return #keyword;
#include "cavs/init_kinds.def"
  }
  llvm_unreachable("unknown initializer kind");
}

unsigned cavs::checked::getInitKindArgs(InitKind kind) {
  switch (kind) {
#define CAVS_INIT_KIND(keyword, NAME, value, args)                             \
  case InitKind::keyword:                                                      \
    return args;
#include "cavs/init_kinds.def"
  }
  llvm_unreachable("unknown initializer kind");
}

llvm::StringRef cavs::checked::getOpKindName(OpKind kind) {
  switch (kind) {
  case OpKind::Pull:
    return "pull";
  case OpKind::Gather:
    return "gather";
  case OpKind::Scatter:
    return "scatter";
  case OpKind::Push:
    return "push";
  case OpKind::Loss:
    return "loss";
  case OpKind::ParamRef:
    return "param";
  case OpKind::Constant:
    return "constant";
  case OpKind::Add:
    return "add";
  case OpKind::Sub:
    return "sub";
  case OpKind::Mul:
    return "mul";
  case OpKind::Div:
    return "div";
  case OpKind::Neg:
    return "neg";
  case OpKind::Sigmoid:
    return "sigmoid";
  case OpKind::Tanh:
    return "tanh";
  case OpKind::Relu:
    return "relu";
  case OpKind::Exp:
    return "exp";
  case OpKind::Log:
    return "log";
  case OpKind::Sqrt:
    return "sqrt";
  case OpKind::Softplus:
    return "softplus";
  case OpKind::Softmax:
    return "softmax";
  case OpKind::MatMul:
    return "matmul";
  case OpKind::Concat:
    return "concat";
  case OpKind::Split:
    return "split";
  case OpKind::Slice:
    return "slice";
  case OpKind::Sum:
    return "sum";
  case OpKind::ReduceSum:
    return "reduce_sum";
  case OpKind::ReduceMax:
    return "reduce_max";
  case OpKind::Lookup:
    return "lookup";
  case OpKind::SoftmaxCrossEntropy:
    return "softmax_cross_entropy";
  }
  llvm_unreachable("unknown instruction kind");
}
