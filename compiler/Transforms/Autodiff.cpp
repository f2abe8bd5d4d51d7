//===- Autodiff.cpp - derive ∂F for every vertex function -----------------===//
//
// Reverse-mode differentiation of a vertex function into its cavs.backward
// region. Gradients flow only between differentiable inputs (parameters,
// f32 pulls, gathers) and outputs (losses, pushes, the scatter); everything
// else is left out of ∂F.
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

namespace cavs {
#define GEN_PASS_DEF_CAVSAUTODIFF
#include "compiler/Transforms/Passes.h.inc"
} // namespace cavs

using namespace mlir;
using namespace cavs;

namespace {
/// Builds the backward region of one vertex function.
class AdjointBuilder {
public:
  explicit AdjointBuilder(VertexOp vertex)
      : vertex(vertex), builder(vertex.getContext()) {}

  LogicalResult run();

private:
  /// Records `gradient` as one contribution to the gradient of `value`
  /// (ignored when `value` does not depend on a differentiable input).
  void accumulate(Value value, Value gradient);
  /// The sum of all contributions to the gradient of `value`, or null.
  Value takeGradient(Value value);
  LogicalResult differentiate(Operation *op);

  // Small builders at the current location.
  Value scalar(float value) {
    auto type = RankedTensorType::get({}, builder.getF32Type());
    return builder.create<ConstantOp>(loc, DenseElementsAttr::get(type, value));
  }
  Value zeros(Type type) {
    return builder.create<ConstantOp>(
        loc, DenseElementsAttr::get(cast<ShapedType>(type), 0.0f));
  }
  template <typename OpTy> Value binary(Value lhs, Value rhs) {
    Type lhsType = lhs.getType(), rhsType = rhs.getType();
    Type result = cast<RankedTensorType>(lhsType).getRank() == 0 ? rhsType
                                                                  : lhsType;
    return builder.create<OpTy>(loc, result, lhs, rhs);
  }
  /// Reduces a gradient to the shape of an operand that was broadcast.
  Value unbroadcast(Value gradient, Type operandType) {
    if (gradient.getType() == operandType)
      return gradient;
    return builder.create<ReduceSumOp>(loc, gradient);
  }
  /// The parameter a matmul or lookup reads its matrix from.
  FailureOr<ParamRefOp> paramOperand(Operation *op, Value matrix) {
    auto ref = matrix.getDefiningOp<ParamRefOp>();
    if (!ref)
      return op->emitOpError("cannot be differentiated: its matrix operand "
                             "is not a parameter");
    return ref;
  }

  VertexOp vertex;
  OpBuilder builder;
  Location loc = UnknownLoc::get(vertex.getContext());
  /// Values that depend on a parameter, an f32 pull or a gather.
  llvm::DenseSet<Value> differentiable;
  llvm::DenseMap<Value, SmallVector<Value, 2>> contributions;
};
} // namespace

void AdjointBuilder::accumulate(Value value, Value gradient) {
  if (differentiable.contains(value))
    contributions[value].push_back(gradient);
}

Value AdjointBuilder::takeGradient(Value value) {
  auto it = contributions.find(value);
  if (it == contributions.end())
    return nullptr;
  SmallVector<Value, 2> parts = std::move(it->second);
  contributions.erase(it);
  if (parts.size() == 1)
    return parts.front();
  return builder.create<SumOp>(loc, parts);
}

LogicalResult AdjointBuilder::run() {
  Block &forward = vertex.getBody().front();
  for (Operation &op : forward) {
    bool source = isa<GatherOp, ParamRefOp>(op) ||
                  (isa<PullOp>(op) && isa<RankedTensorType>(op.getResult(0).getType()));
    bool dependent = llvm::any_of(op.getOperands(), [&](Value operand) {
      return differentiable.contains(operand);
    });
    if (source || dependent)
      differentiable.insert(op.getResults().begin(), op.getResults().end());
  }

  builder.setInsertionPointToEnd(&forward);
  auto backward = builder.create<BackwardOp>(vertex.getLoc());
  builder.setInsertionPointToEnd(&backward.getBody().emplaceBlock());
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(forward))) {
    if (&op == backward.getOperation())
      continue;
    loc = op.getLoc();
    if (failed(differentiate(&op)))
      return failure();
  }
  return success();
}

LogicalResult AdjointBuilder::differentiate(Operation *op) {
  // Outputs seed the gradients of what they consume.
  if (auto scatter = dyn_cast<ScatterOp>(op)) {
    if (differentiable.contains(scatter.getValue()))
      accumulate(scatter.getValue(),
                 builder.create<StateGradOp>(loc, scatter.getValue().getType()));
    return success();
  }
  if (auto push = dyn_cast<PushOp>(op)) {
    if (differentiable.contains(push.getValue()))
      accumulate(push.getValue(),
                 builder.create<PushGradOp>(loc, push.getValue().getType(),
                                            push.getName()));
    return success();
  }
  if (auto loss = dyn_cast<LossOp>(op)) {
    accumulate(loss.getValue(), scalar(1.0f));
    return success();
  }

  // Everything else maps result gradients to operand gradients.
  SmallVector<Value> gradients;
  bool any = false;
  for (Value result : op->getResults()) {
    gradients.push_back(takeGradient(result));
    any |= gradients.back() != nullptr;
  }
  if (!any)
    return success();
  Value dy = gradients.front();

  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](PullOp pull) {
        builder.create<PullGradOp>(loc, pull.getName(), dy);
        return success();
      })
      .Case([&](GatherOp gather) {
        builder.create<ChildGradOp>(loc, gather.getIndex(), dy);
        return success();
      })
      .Case([&](ParamRefOp ref) {
        builder.create<ParamGradOp>(loc, ref.getParamAttr(), dy);
        return success();
      })
      .Case([&](AddOp add) {
        accumulate(add.getLhs(), unbroadcast(dy, add.getLhs().getType()));
        accumulate(add.getRhs(), unbroadcast(dy, add.getRhs().getType()));
        return success();
      })
      .Case([&](SubOp sub) {
        accumulate(sub.getLhs(), unbroadcast(dy, sub.getLhs().getType()));
        if (differentiable.contains(sub.getRhs()))
          accumulate(sub.getRhs(),
                     unbroadcast(builder.create<NegOp>(loc, dy),
                                 sub.getRhs().getType()));
        return success();
      })
      .Case([&](MulOp mul) {
        if (differentiable.contains(mul.getLhs()))
          accumulate(mul.getLhs(),
                     unbroadcast(binary<MulOp>(dy, mul.getRhs()),
                                 mul.getLhs().getType()));
        if (differentiable.contains(mul.getRhs()))
          accumulate(mul.getRhs(),
                     unbroadcast(binary<MulOp>(dy, mul.getLhs()),
                                 mul.getRhs().getType()));
        return success();
      })
      .Case([&](DivOp div) {
        // y = a / b: da = dy / b, db = -(dy * y) / b.
        if (differentiable.contains(div.getLhs()))
          accumulate(div.getLhs(),
                     unbroadcast(binary<DivOp>(dy, div.getRhs()),
                                 div.getLhs().getType()));
        if (differentiable.contains(div.getRhs())) {
          Value product = binary<MulOp>(dy, div.getResult());
          Value scaled = binary<DivOp>(product, div.getRhs());
          accumulate(div.getRhs(),
                     unbroadcast(builder.create<NegOp>(loc, scaled),
                                 div.getRhs().getType()));
        }
        return success();
      })
      .Case([&](NegOp neg) {
        accumulate(neg.getOperand(), builder.create<NegOp>(loc, dy));
        return success();
      })
      .Case([&](SigmoidOp sigmoid) {
        // dy * y * (1 - y)
        Value y = sigmoid.getResult();
        Value one = scalar(1.0f);
        Value complement = binary<SubOp>(one, y);
        Value slope = binary<MulOp>(y, complement);
        accumulate(sigmoid.getOperand(), binary<MulOp>(dy, slope));
        return success();
      })
      .Case([&](TanhOp tanh) {
        // dy * (1 - y * y)
        Value y = tanh.getResult();
        Value one = scalar(1.0f);
        Value square = binary<MulOp>(y, y);
        Value slope = binary<SubOp>(one, square);
        accumulate(tanh.getOperand(), binary<MulOp>(dy, slope));
        return success();
      })
      .Case([&](ReluOp relu) {
        accumulate(relu.getOperand(),
                   builder.create<ReluGradOp>(loc, relu.getResult(), dy));
        return success();
      })
      .Case([&](ExpOp exp) {
        accumulate(exp.getOperand(), binary<MulOp>(dy, exp.getResult()));
        return success();
      })
      .Case([&](LogOp log) {
        accumulate(log.getOperand(), binary<DivOp>(dy, log.getOperand()));
        return success();
      })
      .Case([&](SqrtOp sqrt) {
        // dy / (2 y)
        Value twice = binary<MulOp>(scalar(2.0f), sqrt.getResult());
        accumulate(sqrt.getOperand(), binary<DivOp>(dy, twice));
        return success();
      })
      .Case([&](SoftplusOp softplus) {
        Value slope = builder.create<SigmoidOp>(loc, softplus.getOperand());
        accumulate(softplus.getOperand(), binary<MulOp>(dy, slope));
        return success();
      })
      .Case([&](SoftmaxOp softmax) {
        // y * (dy - sum(dy * y))
        Value y = softmax.getResult();
        Value weighted = binary<MulOp>(dy, y);
        Value dot = builder.create<ReduceSumOp>(loc, weighted);
        Value centered = binary<SubOp>(dy, dot);
        accumulate(softmax.getOperand(), binary<MulOp>(y, centered));
        return success();
      })
      .Case([&](MatmulOp matmul) -> LogicalResult {
        Value x = matmul.getRhs();
        bool transposed = matmul.getTransposeLhs();
        if (differentiable.contains(x))
          accumulate(x, builder.create<MatmulOp>(loc, x.getType(),
                                                 matmul.getLhs(), dy,
                                                 /*transpose_lhs=*/!transposed));
        if (!differentiable.contains(matmul.getLhs()))
          return success();
        FailureOr<ParamRefOp> weight = paramOperand(op, matmul.getLhs());
        if (failed(weight))
          return failure();
        // W @ x: dW += dy ⊗ x;  Wᵀ @ x: dW += x ⊗ dy.
        builder.create<ParamGradOuterOp>(loc, weight->getParamAttr(),
                                         transposed ? x : dy,
                                         transposed ? dy : x);
        return success();
      })
      .Case([&](ConcatOp concat) {
        int64_t offset = 0;
        for (Value input : concat.getInputs()) {
          auto type = cast<RankedTensorType>(input.getType());
          if (differentiable.contains(input))
            accumulate(input, builder.create<SliceOp>(loc, type, dy, offset));
          offset += valueWidth(type);
        }
        return success();
      })
      .Case([&](SplitOp split) {
        SmallVector<Value> parts;
        for (auto [result, gradient] :
             llvm::zip_equal(split.getResults(), gradients))
          parts.push_back(gradient ? gradient : zeros(result.getType()));
        accumulate(split.getInput(),
                   builder.create<ConcatOp>(loc, split.getInput().getType(),
                                            parts));
        return success();
      })
      .Case([&](SliceOp slice) {
        accumulate(slice.getInput(),
                   builder.create<PadOp>(loc, slice.getInput().getType(), dy,
                                         slice.getOffset()));
        return success();
      })
      .Case([&](PadOp pad) {
        accumulate(pad.getInput(),
                   builder.create<SliceOp>(loc, pad.getInput().getType(), dy,
                                           pad.getOffset()));
        return success();
      })
      .Case([&](SumOp sum) {
        for (Value input : sum.getInputs())
          accumulate(input, dy);
        return success();
      })
      .Case([&](ReduceSumOp reduce) {
        Type type = reduce.getOperand().getType();
        Value zero = zeros(type);
        accumulate(reduce.getOperand(), binary<AddOp>(zero, dy));
        return success();
      })
      .Case([&](ReduceMaxOp reduce) {
        // dy shared evenly by the maximal elements (as PyTorch's max() and
        // amax() do): dy / count where x == max, 0 elsewhere.
        Value x = reduce.getOperand();
        Value mask = binary<EqualOp>(x, reduce.getResult());
        Value count = builder.create<ReduceSumOp>(loc, mask);
        Value share = binary<DivOp>(dy, count);
        accumulate(x, binary<MulOp>(mask, share));
        return success();
      })
      .Case([&](LookupOp lookup) -> LogicalResult {
        FailureOr<ParamRefOp> table = paramOperand(op, lookup.getTable());
        if (failed(table))
          return failure();
        builder.create<LookupGradOp>(loc, table->getParamAttr(),
                                     lookup.getIndex(), dy);
        return success();
      })
      .Case([&](SoftmaxCrossEntropyOp loss) {
        accumulate(loss.getLogits(),
                   builder.create<SoftmaxCrossEntropyGradOp>(
                       loc, loss.getLogits(), loss.getLabel(), dy));
        return success();
      })
      .Default([&](Operation *op) {
        return op->emitOpError("has no gradient rule");
      });
}

namespace {
struct AutodiffPass : public cavs::impl::CavsAutodiffBase<AutodiffPass> {
  void runOnOperation() override {
    for (auto vertex : getOperation().getBody().getOps<VertexOp>()) {
      if (vertex.getBackward())
        continue;
      if (failed(AdjointBuilder(vertex).run()))
        return signalPassFailure();
    }
  }
};
} // namespace
