//===- VertexElaboratorReductions.cpp - reductions, dot and losses --------===//
//
// The builtins that reduce vectors to scalars, and the losses on f32
// targets. reduce_sum and reduce_max are instructions of their own; the
// builtins here expand to several instructions, so that autodiff, fusion and
// both backends need nothing new for them. docs/language.md gives each
// one's formula, which is PyTorch's: users check models against it.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/VertexElaborator.h"

#include <cfloat>

using namespace cavs;
using namespace cavs::checked;

namespace {
enum class Composite { ReduceMean, LogSoftmax, Dot, Loss };

/// A builtin that expands to several instructions.
struct CompositeBuiltin {
  llvm::StringLiteral name;
  Composite kind;
  unsigned numArgs;
};

const CompositeBuiltin kComposites[] = {
    {"reduce_mean", Composite::ReduceMean, 1},
    {"log_softmax", Composite::LogSoftmax, 1},
    {"dot", Composite::Dot, 2},
    {"mse", Composite::Loss, 2},
    {"bce_with_logits", Composite::Loss, 2},
    {"kl_div", Composite::Loss, 2},
};
} // namespace

std::optional<VertexElaborator::Operand>
VertexElaborator::elaborateCompositeCall(const CallExpr &call) {
  const CompositeBuiltin *builtin =
      llvm::find_if(kComposites, [&](const CompositeBuiltin &b) {
        return b.name == call.getCallee();
      });
  if (builtin == std::end(kComposites))
    return std::nullopt;
  if (!checkArgCount(call, builtin->numArgs, builtin->numArgs))
    return Operand();
  llvm::SMLoc loc = call.getLoc();
  switch (builtin->kind) {
  case Composite::ReduceMean:
    return mapVectors(call, [&](ValueId x) { return emitMean(loc, x); });
  case Composite::LogSoftmax:
    return mapVectors(call, [&](ValueId x) { return emitLogSoftmax(loc, x); });
  case Composite::Dot:
    return elaborateDot(call);
  case Composite::Loss:
    return elaborateLoss(call);
  }
  llvm_unreachable("unknown composite builtin");
}

VertexElaborator::Operand
VertexElaborator::mapVectors(const CallExpr &call,
                             llvm::function_ref<ValueId(ValueId)> fn) {
  const Expr &arg = *call.getArgs().front();
  return mapElements(
      elaborate(arg), [&](ValueId value) -> std::optional<ValueId> {
        if (!checkF32(value, arg))
          return std::nullopt;
        if (!typeOf(value).isF32Vector()) {
          diag.error(arg.getLoc(), "'" + call.getCallee() +
                                       "' expects an f32 vector, got " +
                                       typeOf(value).str());
          return std::nullopt;
        }
        return fn(value);
      });
}

VertexElaborator::Operand VertexElaborator::elaborateDot(const CallExpr &call) {
  llvm::ArrayRef<ExprPtr> args = call.getArgs();
  Operand lhs = elaborate(*args[0]);
  Operand rhs = elaborate(*args[1]);
  llvm::SMLoc loc = call.getLoc();
  return zipElements(
      lhs, rhs, loc, "dot",
      [&](ValueId a, ValueId b) -> std::optional<ValueId> {
        bool aOk = checkF32(a, *args[0]);
        bool bOk = checkF32(b, *args[1]);
        if (!aOk || !bOk)
          return std::nullopt;
        Type type = typeOf(a);
        if (!type.isF32Vector() || typeOf(b) != type) {
          diag.error(loc,
                     "'dot' expects two f32 vectors of the same length, got " +
                         type.str() + " and " + typeOf(b).str());
          return std::nullopt;
        }
        ValueId product = emitValue(OpKind::Mul, loc, {a, b}, type);
        return emitValue(OpKind::ReduceSum, loc, product, Type::f32({}));
      });
}

VertexElaborator::Operand
VertexElaborator::elaborateLoss(const CallExpr &call) {
  llvm::StringRef name = call.getCallee();
  llvm::ArrayRef<ExprPtr> args = call.getArgs();
  // kl_div compares distributions; the others also take scalars.
  bool vectorsOnly = name == "kl_div";
  auto accepted = [&](const Type &type) {
    return type.isF32Vector() || (!vectorsOnly && type.isF32Scalar());
  };
  std::string kinds = vectorsOnly ? "an f32 vector" : "an f32 scalar or vector";
  std::optional<ValueId> prediction =
      expectValue(elaborate(*args[0]), args[0]->getLoc(),
                  "'" + name + "' expects " + kinds, accepted);
  std::optional<ValueId> target =
      expectValue(elaborate(*args[1]), args[1]->getLoc(),
                  "'" + name + "' expects " + kinds + " target", accepted);
  if (!prediction || !target)
    return Operand();
  Type type = typeOf(*prediction);
  if (typeOf(*target) != type) {
    diag.error(args[1]->getLoc(), "'" + name + "' expects a target of type " +
                                      type.str() + ", got " +
                                      typeOf(*target).str());
    return Operand();
  }

  llvm::SMLoc loc = call.getLoc();
  auto emit2 = [&](OpKind kind, ValueId a, ValueId b) {
    return emitValue(kind, loc, {a, b},
                     typeOf(a).isF32Scalar() ? typeOf(b) : typeOf(a));
  };
  ValueId x = *prediction, t = *target;
  if (name == "kl_div") {
    // Σ t·(log t − log_softmax(x)), with 0·log 0 = 0: log reads
    // max(t, FLT_MIN), written relu(t − FLT_MIN) + FLT_MIN, which is t for
    // every t ≥ 1e-30 and keeps t·log t finite and 0 at t = 0.
    ValueId tiny = emitConstant(loc, FLT_MIN);
    ValueId clamped = emit2(
        OpKind::Add,
        emitValue(OpKind::Relu, loc, emit2(OpKind::Sub, t, tiny), type), tiny);
    ValueId entropy =
        emit2(OpKind::Mul, t, emitValue(OpKind::Log, loc, clamped, type));
    ValueId cross = emit2(OpKind::Mul, t, emitLogSoftmax(loc, x));
    return Operand::single(emitValue(OpKind::ReduceSum, loc,
                                     emit2(OpKind::Sub, entropy, cross),
                                     Type::f32({})));
  }
  ValueId elements;
  if (name == "mse") {
    ValueId difference = emit2(OpKind::Sub, x, t);
    elements = emit2(OpKind::Mul, difference, difference);
  } else {
    // bce_with_logits: log(1 + exp(x)) − x·t, PyTorch's stable form of
    // −t·log σ(x) − (1 − t)·log(1 − σ(x)).
    elements = emit2(OpKind::Sub, emitValue(OpKind::Softplus, loc, x, type),
                     emit2(OpKind::Mul, x, t));
  }
  return Operand::single(type.isF32Scalar() ? elements
                                            : emitMean(loc, elements));
}

ValueId VertexElaborator::emitMean(llvm::SMLoc loc, ValueId vector) {
  ValueId sum = emitValue(OpKind::ReduceSum, loc, vector, Type::f32({}));
  ValueId count =
      emitConstant(loc, static_cast<float>(typeOf(vector).shape.front()));
  return emitValue(OpKind::Div, loc, {sum, count}, Type::f32({}));
}

ValueId VertexElaborator::emitLogSoftmax(llvm::SMLoc loc, ValueId vector) {
  // x − max(x) − log Σ exp(x − max(x)): no exp can overflow.
  Type type = typeOf(vector);
  ValueId max = emitValue(OpKind::ReduceMax, loc, vector, Type::f32({}));
  ValueId shifted = emitValue(OpKind::Sub, loc, {vector, max}, type);
  ValueId sum =
      emitValue(OpKind::ReduceSum, loc,
                emitValue(OpKind::Exp, loc, shifted, type), Type::f32({}));
  ValueId logSum = emitValue(OpKind::Log, loc, sum, Type::f32({}));
  return emitValue(OpKind::Sub, loc, {shifted, logSum}, type);
}
