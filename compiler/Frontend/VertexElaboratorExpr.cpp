//===- VertexElaboratorExpr.cpp - expressions and builtins ----------------===//
//
// The expression half of VertexElaborator: name resolution, arithmetic with
// scalar broadcast, elementwise mapping over compile-time arrays, and the
// builtin functions. Each check reports what was expected and what was found.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/VertexElaborator.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <climits>

using namespace cavs;
using namespace cavs::checked;
using llvm::cast;
using llvm::dyn_cast;

namespace {
/// A builtin function: its instruction and how many arguments it takes.
struct Builtin {
  OpKind kind;
  unsigned minArgs;
  unsigned maxArgs;
};
} // namespace

/// The builtins named after their instructions (getOpKindName); the
/// others expand to several instructions (elaborateCompositeCall).
static const Builtin kBuiltins[] = {
    {OpKind::Sigmoid, 1, 1},       {OpKind::Tanh, 1, 1},
    {OpKind::Relu, 1, 1},          {OpKind::Exp, 1, 1},
    {OpKind::Log, 1, 1},           {OpKind::Sqrt, 1, 1},
    {OpKind::Softplus, 1, 1},      {OpKind::Softmax, 1, 1},
    {OpKind::Concat, 1, UINT_MAX}, {OpKind::Split, 2, 2},
    {OpKind::Slice, 3, 3},         {OpKind::Sum, 1, 1},
    {OpKind::ReduceSum, 1, 1},     {OpKind::ReduceMax, 1, 1},
    {OpKind::Lookup, 2, 2},        {OpKind::SoftmaxCrossEntropy, 2, 2},
};

static const Builtin *lookupBuiltin(llvm::StringRef name) {
  for (const Builtin &builtin : kBuiltins)
    if (getOpKindName(builtin.kind) == name)
      return &builtin;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

std::string VertexElaborator::describe(const Operand &operand) const {
  if (operand.isArray())
    return "an array of " + std::to_string(operand.elements.size()) + " values";
  return typeOf(operand.value).str();
}

std::optional<ValueId>
VertexElaborator::expectValue(const Operand &operand, llvm::SMLoc where,
                              const llvm::Twine &expectation,
                              llvm::function_ref<bool(const Type &)> pred) {
  if (operand.isError())
    return std::nullopt;
  if (!operand.isArray() && pred(typeOf(operand.value)))
    return operand.value;
  diag.error(where, expectation + ", got " + describe(operand));
  return std::nullopt;
}

void VertexElaborator::reportMisplacedPull(llvm::SMLoc loc) {
  diag.error(loc, "'pull' must be the whole right side of an assignment to a "
                  "single name");
}

bool VertexElaborator::checkF32(ValueId value, const Expr &where) {
  if (typeOf(value).isF32())
    return true;
  const std::string &name = function.values[value].name;
  diag.error(where.getLoc(),
             "i32 value" + (name.empty() ? "" : " '" + name + "'") +
                 " can only be the index of 'lookup' or the label of "
                 "'softmax_cross_entropy'");
  return false;
}

bool VertexElaborator::checkArgCount(const CallExpr &call, unsigned min,
                                     unsigned max) {
  size_t count = call.getArgs().size();
  if (count >= min && count <= max)
    return true;
  std::string expected = (min == max ? "" : "at least ") + std::to_string(min) +
                         (min == 1 ? " argument" : " arguments");
  diag.error(call.getLoc(), "'" + call.getCallee() + "' expects " + expected +
                                ", got " + llvm::Twine(count));
  return false;
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

VertexElaborator::Operand VertexElaborator::elaborate(const Expr &expr) {
  switch (expr.getKind()) {
  case Expr::Kind::Number:
    return Operand::single(
        emitConstant(expr.getLoc(), cast<NumberExpr>(expr).getFloatValue()));
  case Expr::Kind::Name:
    return elaborateName(cast<NameExpr>(expr).getName(), expr.getLoc());
  case Expr::Kind::Neg:
    return elaborateNeg(cast<NegExpr>(expr));
  case Expr::Kind::Binary:
    return elaborateBinary(cast<BinaryExpr>(expr));
  case Expr::Kind::Index:
    return elaborateIndex(cast<IndexExpr>(expr));
  case Expr::Kind::Call:
    return elaborateCall(cast<CallExpr>(expr));
  case Expr::Kind::Pull:
    reportMisplacedPull(expr.getLoc());
    return Operand();
  case Expr::Kind::Gather:
    return elaborateGather(cast<GatherExpr>(expr));
  }
  llvm_unreachable("unknown expression kind");
}

/// Names resolve innermost-first: locals, then `arity`, then dims (as f32
/// constants) and parameters. Integers used as values become f32 scalars.
VertexElaborator::Operand VertexElaborator::elaborateName(llvm::StringRef name,
                                                          llvm::SMLoc loc) {
  if (Local *local = lookupLocal(name)) {
    switch (local->kind) {
    case Local::Kind::Value:
      return Operand::single(local->value);
    case Local::Kind::LoopVar:
      return Operand::single(
          emitConstant(loc, static_cast<float>(local->loopValue)));
    case Local::Kind::Array:
      return elaborateWholeArray(name, *local, loc);
    case Local::Kind::Poison:
      return Operand();
    }
  }
  if (name == "arity")
    return Operand::single(emitConstant(loc, static_cast<float>(arity)));
  const ModuleSymbol *symbol = symbols.lookup(name);
  if (!symbol) {
    if (auto empty = arraysOfEmptyLoops.find(name);
        empty != arraysOfEmptyLoops.end()) {
      diag.errorOnce(loc, "array '" + name +
                              "' has no elements: the loop that assigns "
                              "them runs no iteration");
      diag.note(empty->second, "this loop runs no iteration");
      return Operand();
    }
    diag.errorOnce(loc, "use of undeclared name '" + name + "'");
    return Operand();
  }
  if (symbol->kind == ModuleSymbol::Kind::Dim)
    return symbol->dimValue ? Operand::single(emitConstant(
                                  loc, static_cast<float>(*symbol->dimValue)))
                            : Operand();
  if (!symbol->param)
    return Operand();
  unsigned index = *symbol->param;
  const Param &param = model.params[index];
  if (param.shape.size() != 1) {
    diag.error(loc, "rank-2 parameter '" + name +
                        "' can only be used on the left of '@' or as the "
                        "table of 'lookup'");
    return Operand();
  }
  auto [it, inserted] = paramRefs.try_emplace(index);
  if (inserted) {
    Instruction &inst = emit(OpKind::ParamRef, loc, {}, Type::f32(param.shape));
    inst.param = index;
    it->second = inst.results.front();
    nameValue(it->second, name);
  }
  return Operand::single(it->second);
}

/// Using an array as a whole needs elements 0..n-1 and fixes its length n.
VertexElaborator::Operand
VertexElaborator::elaborateWholeArray(llvm::StringRef name, Local &local,
                                      llvm::SMLoc loc) {
  // Charged like instructions: a loop using a large array as a whole would
  // otherwise do quadratic work without emitting much.
  if (local.incomplete || !charge(loc, local.elements.size()))
    return Operand();
  llvm::SmallVector<ValueId, 4> values;
  int64_t expected = 0;
  bool poisoned = false;
  for (const auto &[index, element] : local.elements) {
    if (index != expected) {
      diag.error(loc, "array '" + name + "' is used before '" + name + "[" +
                          llvm::Twine(expected) + "]' is assigned");
      return Operand();
    }
    ++expected;
    if (element.value)
      values.push_back(*element.value);
    else
      poisoned = true;
  }
  if (!local.wholeUseLoc.isValid())
    local.wholeUseLoc = loc;
  return poisoned ? Operand() : Operand::array(values);
}

VertexElaborator::Operand VertexElaborator::elaborateNeg(const NegExpr &neg) {
  // A negated literal is one constant, not a constant and a negation.
  if (const auto *number = dyn_cast<NumberExpr>(&neg.getOperand()))
    return Operand::single(
        emitConstant(neg.getLoc(), -number->getFloatValue()));
  return mapUnary(OpKind::Neg, neg.getLoc(), elaborate(neg.getOperand()),
                  neg.getOperand());
}

VertexElaborator::Operand
VertexElaborator::elaborateBinary(const BinaryExpr &binary) {
  if (binary.getOp() == BinaryOp::MatMul)
    return elaborateMatMul(binary);
  Operand lhs = elaborate(binary.getLHS());
  Operand rhs = elaborate(binary.getRHS());
  return mapBinary(binary, lhs, rhs);
}

VertexElaborator::Operand VertexElaborator::mapBinary(const BinaryExpr &binary,
                                                      const Operand &lhs,
                                                      const Operand &rhs) {
  return zipElements(
      lhs, rhs, binary.getLoc(), getBinaryOpSpelling(binary.getOp()),
      [&](ValueId l, ValueId r) { return binaryValues(binary, l, r); });
}

VertexElaborator::Operand VertexElaborator::zipElements(
    const Operand &lhs, const Operand &rhs, llvm::SMLoc loc,
    llvm::StringRef what,
    llvm::function_ref<std::optional<ValueId>(ValueId, ValueId)> fn) {
  if (lhs.isError() || rhs.isError())
    return Operand();
  if (!lhs.isArray() && !rhs.isArray()) {
    std::optional<ValueId> result = fn(lhs.value, rhs.value);
    return result ? Operand::single(*result) : Operand();
  }
  if (lhs.isArray() && rhs.isArray() &&
      lhs.elements.size() != rhs.elements.size()) {
    diag.error(loc, "'" + what + "' expects arrays of the same length, got " +
                        llvm::Twine(lhs.elements.size()) + " and " +
                        llvm::Twine(rhs.elements.size()));
    return Operand();
  }
  size_t length = lhs.isArray() ? lhs.elements.size() : rhs.elements.size();
  llvm::SmallVector<ValueId, 4> results;
  for (size_t i = 0; i < length; ++i) {
    std::optional<ValueId> result =
        fn(lhs.isArray() ? lhs.elements[i] : lhs.value,
           rhs.isArray() ? rhs.elements[i] : rhs.value);
    if (!result)
      return Operand();
    results.push_back(*result);
  }
  return Operand::array(results);
}

std::optional<ValueId> VertexElaborator::binaryValues(const BinaryExpr &binary,
                                                      ValueId lhs,
                                                      ValueId rhs) {
  bool lhsOk = checkF32(lhs, binary.getLHS());
  bool rhsOk = checkF32(rhs, binary.getRHS());
  if (!lhsOk || !rhsOk)
    return std::nullopt;
  Type lhsType = typeOf(lhs), rhsType = typeOf(rhs);
  if (lhsType != rhsType && !lhsType.isF32Scalar() && !rhsType.isF32Scalar()) {
    // An f32[1] is a vector; the user may have meant its element.
    bool oneElement = lhsType.shape == llvm::ArrayRef<int64_t>(1) ||
                      rhsType.shape == llvm::ArrayRef<int64_t>(1);
    diag.error(binary.getLoc(),
               "'" + getBinaryOpSpelling(binary.getOp()) +
                   "' expects operands of the same shape or a scalar, got " +
                   lhsType.str() + " and " + rhsType.str() +
                   (oneElement ? " (x[0] is the scalar of an f32[1] x)" : ""));
    return std::nullopt;
  }
  auto kindOf = [](BinaryOp op) {
    switch (op) {
    case BinaryOp::Add:
      return OpKind::Add;
    case BinaryOp::Sub:
      return OpKind::Sub;
    case BinaryOp::Mul:
      return OpKind::Mul;
    case BinaryOp::Div:
      return OpKind::Div;
    case BinaryOp::MatMul:
      break;
    }
    llvm_unreachable("'@' is elaborated by elaborateMatMul");
  };
  return emitValue(kindOf(binary.getOp()), binary.getLoc(), {lhs, rhs},
                   lhsType.isF32Scalar() ? rhsType : lhsType);
}

VertexElaborator::Operand
VertexElaborator::elaborateMatMul(const BinaryExpr &binary) {
  std::optional<unsigned> param = resolveMatrix(
      binary.getLHS(), "'@' expects a rank-2 parameter on the left");
  Operand rhs = elaborate(binary.getRHS());
  if (!param)
    return Operand();
  return mapElements(
      rhs, [&](ValueId value) { return matMulValue(binary, *param, value); });
}

std::optional<ValueId> VertexElaborator::matMulValue(const BinaryExpr &binary,
                                                     unsigned param,
                                                     ValueId rhs) {
  if (!checkF32(rhs, binary.getRHS()))
    return std::nullopt;
  llvm::ArrayRef<int64_t> shape = model.params[param].shape;
  const Type &type = typeOf(rhs);
  if (!type.isF32Vector() || type.shape.front() != shape[1]) {
    diag.error(binary.getLoc(), "'@' expects " + shapeToString(shape[1]) +
                                    " on the right, got " +
                                    shapeToString(type.shape));
    return std::nullopt;
  }
  Instruction &inst =
      emit(OpKind::MatMul, binary.getLoc(), rhs, Type::f32(shape[0]));
  inst.param = param;
  return inst.results.front();
}

std::optional<unsigned>
VertexElaborator::resolveMatrix(const Expr &expr, llvm::StringRef expectation) {
  const auto *name = dyn_cast<NameExpr>(&expr);
  if (name && !lookupLocal(name->getName())) {
    const ModuleSymbol *symbol = symbols.lookup(name->getName());
    if (symbol && symbol->kind == ModuleSymbol::Kind::Param) {
      if (!symbol->param)
        return std::nullopt;
      if (model.params[*symbol->param].shape.size() == 2)
        return *symbol->param;
    }
  }
  // Elaborate it anyway: that reports undeclared names and tells what it is.
  Operand operand = elaborate(expr);
  if (!operand.isError())
    diag.error(expr.getLoc(), expectation + ", got " + describe(operand));
  return std::nullopt;
}

VertexElaborator::Operand
VertexElaborator::elaborateIndex(const IndexExpr &index) {
  std::optional<int64_t> position = evaluateInt(index.getIndex());
  // Reading one element of a named array does not need the others, so a
  // chain can compute h[1] from h[0] before h[2] exists.
  if (const auto *name = dyn_cast<NameExpr>(&index.getBase())) {
    Local *local = lookupLocal(name->getName());
    if (local && local->kind == Local::Kind::Array) {
      if (!position)
        return Operand();
      auto it = local->elements.find(*position);
      if (it != local->elements.end())
        return it->second.value ? Operand::single(*it->second.value)
                                : Operand();
      if (local->incomplete)
        return Operand();
      if (local->wholeUseLoc.isValid())
        diag.error(index.getIndex().getLoc(),
                   "index " + llvm::Twine(*position) +
                       " out of range for array '" + name->getName() +
                       "' of length " + llvm::Twine(local->elements.size()));
      else
        diag.error(name->getLoc(), "'" + name->getName() + "[" +
                                       llvm::Twine(*position) +
                                       "]' is used before it is assigned");
      return Operand();
    }
  }
  Operand base = elaborate(index.getBase());
  if (base.isError() || !position)
    return Operand();
  if (!base.isArray())
    return extractElement(index, base.value, *position);
  if (*position < 0 ||
      static_cast<uint64_t>(*position) >= base.elements.size()) {
    diag.error(index.getIndex().getLoc(),
               "index " + llvm::Twine(*position) +
                   " out of range for an array of length " +
                   llvm::Twine(base.elements.size()));
    return Operand();
  }
  return Operand::single(base.elements[*position]);
}

VertexElaborator::Operand
VertexElaborator::elaborateGather(const GatherExpr &gather) {
  std::optional<int64_t> child = evaluateInt(gather.getIndex());
  if (!model.state) {
    // A state declaration with an error was reported already.
    if (!stateDeclared)
      diag.error(gather.getLoc(), "'gather' needs a 'state' declaration");
    return Operand();
  }
  if (!child)
    return Operand();
  if (*child < 0 || *child >= arity) {
    diag.error(gather.getIndex().getLoc(),
               "gather index " + llvm::Twine(*child) +
                   " out of range for arity " + llvm::Twine(arity));
    return Operand();
  }
  Instruction &inst = emit(OpKind::Gather, gather.getLoc(), {}, *model.state);
  inst.index = *child;
  return Operand::single(inst.results.front());
}

//===----------------------------------------------------------------------===//
// Builtins
//===----------------------------------------------------------------------===//

VertexElaborator::Operand
VertexElaborator::elaborateCall(const CallExpr &call) {
  const Builtin *builtin = lookupBuiltin(call.getCallee());
  if (!builtin) {
    if (std::optional<Operand> result = elaborateCompositeCall(call))
      return *result;
    diag.errorOnce(call.getLoc(),
                   "unknown function '" + call.getCallee() + "'");
    return Operand();
  }
  if (!checkArgCount(call, builtin->minArgs, builtin->maxArgs))
    return Operand();
  const Expr &first = *call.getArgs().front();
  switch (builtin->kind) {
  case OpKind::Sigmoid:
  case OpKind::Tanh:
  case OpKind::Relu:
  case OpKind::Exp:
  case OpKind::Log:
  case OpKind::Sqrt:
  case OpKind::Softplus:
  case OpKind::Softmax:
    return mapUnary(builtin->kind, call.getLoc(), elaborate(first), first);
  case OpKind::ReduceSum:
  case OpKind::ReduceMax:
    return mapVectors(call, [&](ValueId vector) {
      return emitValue(builtin->kind, call.getLoc(), vector, Type::f32({}));
    });
  case OpKind::Concat:
    return elaborateConcat(call);
  case OpKind::Split:
    diag.error(call.getLoc(),
               "'split' must be the whole right side of an assignment");
    return Operand();
  case OpKind::Slice:
    return elaborateSlice(call);
  case OpKind::Sum:
    return elaborateSum(call);
  case OpKind::Lookup:
    return elaborateLookup(call);
  case OpKind::SoftmaxCrossEntropy:
    return elaborateSoftmaxCrossEntropy(call);
  default:
    llvm_unreachable("not a builtin function");
  }
}

VertexElaborator::Operand VertexElaborator::mapElements(
    const Operand &operand,
    llvm::function_ref<std::optional<ValueId>(ValueId)> fn) {
  if (operand.isError())
    return Operand();
  if (!operand.isArray()) {
    std::optional<ValueId> result = fn(operand.value);
    return result ? Operand::single(*result) : Operand();
  }
  llvm::SmallVector<ValueId, 4> results;
  for (ValueId element : operand.elements) {
    std::optional<ValueId> result = fn(element);
    if (!result)
      return Operand();
    results.push_back(*result);
  }
  return Operand::array(results);
}

VertexElaborator::Operand VertexElaborator::mapUnary(OpKind kind,
                                                     llvm::SMLoc loc,
                                                     const Operand &operand,
                                                     const Expr &operandExpr) {
  return mapElements(operand, [&](ValueId value) -> std::optional<ValueId> {
    if (!checkF32(value, operandExpr))
      return std::nullopt;
    Type type = typeOf(value);
    if (kind == OpKind::Softmax && !type.isF32Vector()) {
      diag.error(operandExpr.getLoc(),
                 "'softmax' expects an f32 vector, got " + type.str());
      return std::nullopt;
    }
    return emitValue(kind, loc, value, type);
  });
}

/// Arguments that are arrays contribute all their elements, in order; a
/// scalar contributes one element.
VertexElaborator::Operand
VertexElaborator::elaborateConcat(const CallExpr &call) {
  llvm::SmallVector<ValueId, 4> parts;
  int64_t size = 0;
  bool ok = true;
  for (const ExprPtr &arg : call.getArgs()) {
    Operand operand = elaborate(*arg);
    if (operand.isError()) {
      ok = false;
      continue;
    }
    llvm::ArrayRef<ValueId> values =
        operand.isArray() ? llvm::ArrayRef<ValueId>(operand.elements)
                          : llvm::ArrayRef<ValueId>(operand.value);
    for (ValueId value : values) {
      const Type &type = typeOf(value);
      if (!type.isF32Vector() && !type.isF32Scalar()) {
        diag.error(arg->getLoc(),
                   "'concat' expects f32 vectors or scalars, got " +
                       type.str());
        ok = false;
        continue;
      }
      std::optional<int64_t> total =
          llvm::checkedAdd(size, type.isF32Scalar() ? 1 : type.shape[0]);
      if (!total) {
        diag.error(call.getLoc(), "'concat' result is too large");
        return Operand();
      }
      size = *total;
      parts.push_back(value);
    }
  }
  if (!ok)
    return Operand();
  return Operand::single(
      emitValue(OpKind::Concat, call.getLoc(), parts, Type::f32(size)));
}

VertexElaborator::Operand
VertexElaborator::elaborateSlice(const CallExpr &call) {
  llvm::ArrayRef<ExprPtr> args = call.getArgs();
  Operand input = elaborate(*args[0]);
  std::optional<int64_t> start = evaluateInt(*args[1]);
  std::optional<int64_t> size = evaluateInt(*args[2]);
  std::optional<ValueId> vector =
      expectValue(input, args[0]->getLoc(), "'slice' expects an f32 vector",
                  [](const Type &type) { return type.isF32Vector(); });
  if (!vector || !start || !size)
    return Operand();
  if (*size <= 0) {
    diag.error(args[2]->getLoc(),
               "'slice' size must be positive, got " + llvm::Twine(*size));
    return Operand();
  }
  int64_t length = typeOf(*vector).shape.front();
  if (*start < 0 || *start > length || *size > length - *start) {
    diag.error(call.getLoc(), "'slice' of " + llvm::Twine(*size) +
                                  " elements at offset " + llvm::Twine(*start) +
                                  " is out of bounds for " +
                                  typeOf(*vector).str());
    return Operand();
  }
  Instruction &inst =
      emit(OpKind::Slice, call.getLoc(), *vector, Type::f32(*size));
  inst.index = *start;
  inst.size = *size;
  return Operand::single(inst.results.front());
}

VertexElaborator::Operand
VertexElaborator::extractElement(const IndexExpr &index, ValueId vector,
                                 int64_t position) {
  if (!checkF32(vector, index.getBase()))
    return Operand();
  const Type &type = typeOf(vector);
  if (!type.isF32Vector()) {
    diag.error(index.getLoc(), "only arrays and f32 vectors can be indexed, "
                               "got " +
                                   type.str());
    return Operand();
  }
  if (position < 0 || position >= type.shape.front()) {
    diag.error(index.getIndex().getLoc(), "index " + llvm::Twine(position) +
                                              " out of range for " +
                                              type.str());
    return Operand();
  }
  Instruction &inst =
      emit(OpKind::Slice, index.getLoc(), vector, Type::f32({}));
  inst.index = position;
  inst.size = 1;
  return Operand::single(inst.results.front());
}

VertexElaborator::Operand VertexElaborator::elaborateSum(const CallExpr &call) {
  const Expr &arg = *call.getArgs().front();
  Operand input = elaborate(arg);
  if (input.isError())
    return Operand();
  if (!input.isArray()) {
    diag.error(arg.getLoc(), "'sum' expects an array, got " + describe(input) +
                                 " (the sum of a vector's elements is "
                                 "'reduce_sum')");
    return Operand();
  }
  Type type = typeOf(input.elements.front());
  for (ValueId element : input.elements) {
    if (!checkF32(element, arg))
      return Operand();
    if (typeOf(element) != type) {
      diag.error(arg.getLoc(),
                 "'sum' expects array elements of one type, got " + type.str() +
                     " and " + typeOf(element).str());
      return Operand();
    }
  }
  return Operand::single(
      emitValue(OpKind::Sum, call.getLoc(), input.elements, type));
}

VertexElaborator::Operand
VertexElaborator::elaborateLookup(const CallExpr &call) {
  llvm::ArrayRef<ExprPtr> args = call.getArgs();
  std::optional<unsigned> table = resolveMatrix(
      *args[0], "'lookup' expects a rank-2 parameter as its table");
  std::optional<ValueId> index = expectValue(
      elaborate(*args[1]), args[1]->getLoc(), "'lookup' expects an i32 index",
      [](const Type &type) { return type.isI32(); });
  if (!table || !index)
    return Operand();
  Instruction &inst = emit(OpKind::Lookup, call.getLoc(), *index,
                           Type::f32(model.params[*table].shape[1]));
  inst.param = *table;
  return Operand::single(inst.results.front());
}

VertexElaborator::Operand
VertexElaborator::elaborateSoftmaxCrossEntropy(const CallExpr &call) {
  llvm::ArrayRef<ExprPtr> args = call.getArgs();
  std::optional<ValueId> logits =
      expectValue(elaborate(*args[0]), args[0]->getLoc(),
                  "'softmax_cross_entropy' expects f32 vector logits",
                  [](const Type &type) { return type.isF32Vector(); });
  std::optional<ValueId> label =
      expectValue(elaborate(*args[1]), args[1]->getLoc(),
                  "'softmax_cross_entropy' expects an i32 label",
                  [](const Type &type) { return type.isI32(); });
  if (!logits || !label)
    return Operand();
  return Operand::single(emitValue(OpKind::SoftmaxCrossEntropy, call.getLoc(),
                                   {*logits, *label}, Type::f32({})));
}

//===----------------------------------------------------------------------===//
// Emission helpers
//===----------------------------------------------------------------------===//

ValueId VertexElaborator::emitConstant(llvm::SMLoc loc, float value) {
  Instruction &inst = emit(OpKind::Constant, loc, {}, Type::f32({}));
  inst.constant = value;
  return inst.results.front();
}
