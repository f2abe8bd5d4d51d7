//===- Autodiff.cpp - derive ∂F for every vertex function -----------------===//
//
// Reverse-mode differentiation of a vertex function into its cavs.backward
// region. Gradients flow only between differentiable inputs (parameters,
// f32 pulls, gathers) and outputs (losses, pushes, the scatter); everything
// else is left out of ∂F. The pass walks F backwards and keeps the
// gradients; each op's rule (AdjointOpInterface, in dialects/) says what
// its gradients are.
//
// A push's gradient is zero where the app sets none, a state's where no
// parent reads it (a root), and 0 · ∞ is NaN: a pushed exp(h) that
// overflowed, or a root's scatter(sqrt(h * h)) at h = 0, turned the
// parameter gradients into NaN although no loss reads them. So a zero
// seed contributes nothing, not 0 · f'(x): the pass tracks which
// contributions derive from such seeds alone (their "seeds"), and where
// such a contribution, once a rule has multiplied it, meets another or
// reaches a sink of ∂F (child_grad, pull_grad, param_grad, ...), it is
// masked, per vertex, to zero when those seeds' rows are all zero
// (cavs.relu_grad selects, so the NaN does not pass). A raw seed needs no
// mask, so a pushed or scattered state that a loss also reads costs
// nothing.
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/Passes.h"

#include "dialects/AdjointContext.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

namespace cavs {
#define GEN_PASS_DEF_CAVSAUTODIFF
#include "compiler/Transforms/Passes.h.inc"
} // namespace cavs

using namespace mlir;
using namespace cavs;

namespace {
/// The seed of ∂F that the state gradient is, next to the pushes' (which
/// are named like the pushes: no identifier starts with '<').
constexpr StringLiteral kStateSeed = "<state>";

/// Where a gradient comes from: the seeds (pushes' gradients, kStateSeed)
/// whose values alone it derives from (none: it also derives from a loss),
/// and whether it is still a raw seed (or a sum of them, or their images
/// under rules that only add, move or multiply by parameters), which is
/// zero, never NaN, where the seed is.
struct Origin {
  SmallVector<StringRef, 1> seeds; // sorted, unique
  bool raw = false;

  bool clean() const { return seeds.empty(); }
  /// Whether a zero seed may have become NaN in it.
  bool needsMask() const { return !clean() && !raw; }
};

/// A gradient (or a contribution to one) and its origin.
struct Gradient {
  Value value;
  Origin origin;
};

/// Builds the backward region of one vertex function; each op of F adds
/// its part through its AdjointOpInterface.
class AdjointBuilder : public AdjointContext {
public:
  explicit AdjointBuilder(VertexOp vertex)
      : AdjointContext(vertex.getContext()), vertex(vertex) {}

  LogicalResult run();

  bool isDifferentiable(Value value) const override {
    return differentiable.contains(value);
  }
  void accumulate(Value value, Value gradient) override;

private:
  /// The sum of all contributions to the gradient of `value` (a null
  /// value when there are none).
  Gradient takeGradient(Value value);
  LogicalResult differentiate(Operation *op);
  /// `value`, or zeros in the rows where all of `seeds` are zero.
  Value mask(Value value, ArrayRef<StringRef> seeds);
  /// Masks the float operands of the sinks among `ops` (the ops a rule
  /// built under `current`, a seed origin) that need it.
  void maskSinks(iterator_range<Block::iterator> ops);

  VertexOp vertex;
  /// Values that depend on a parameter, an f32 pull or a gather.
  llvm::DenseSet<Value> differentiable;
  llvm::DenseMap<Value, SmallVector<Gradient, 2>> contributions;
  /// The origin of what the rule being built contributes.
  Origin current;
  /// Each seed's value, and per vertex 1 where its row is not all zero
  /// (else 0), made at the first mask that needs it.
  llvm::StringMap<Value> seedValues, seedGiven;
};
} // namespace

void AdjointBuilder::accumulate(Value value, Value gradient) {
  if (differentiable.contains(value))
    contributions[value].push_back({gradient, current});
}

Value AdjointBuilder::mask(Value value, ArrayRef<StringRef> seeds) {
  Value given;
  for (StringRef name : seeds) {
    Value &flag = seedGiven[name];
    if (!flag) {
      // 1 - (g == 0), at most 1: 1 in a row with a nonzero (or NaN) element.
      Value g = seedValues.lookup(name);
      Value nonzero =
          binary<SubOp>(scalar(1.0f), binary<EqualOp>(g, scalar(0.0f)));
      flag = cast<RankedTensorType>(g.getType()).getRank() == 0
                 ? nonzero
                 : create<ReduceMaxOp>(nonzero).getResult();
    }
    given = given ? binary<AddOp>(given, flag) : flag;
  }
  if (given.getType() != value.getType())
    given = binary<AddOp>(given, zeros(value.getType()));
  return create<ReluGradOp>(given, value);
}

Gradient AdjointBuilder::takeGradient(Value value) {
  auto it = contributions.find(value);
  if (it == contributions.end())
    return {};
  SmallVector<Gradient, 2> parts = std::move(it->second);
  contributions.erase(it);
  if (parts.size() == 1)
    return parts.front();
  // Parts of one origin are summed as they are; otherwise each part that a
  // zero seed may have made NaN is masked first.
  const bool sameOrigin = llvm::all_of(parts, [&](const Gradient &part) {
    return part.origin.seeds == parts.front().origin.seeds;
  });
  Origin merged;
  merged.raw =
      llvm::all_of(parts, [](const Gradient &part) { return part.origin.raw; });
  const bool anyClean = llvm::any_of(
      parts, [](const Gradient &part) { return part.origin.clean(); });
  SmallVector<Value, 2> values;
  for (Gradient &part : parts) {
    if (!sameOrigin && part.origin.needsMask())
      part.value = mask(part.value, part.origin.seeds);
    values.push_back(part.value);
    if (!anyClean)
      merged.seeds.append(part.origin.seeds);
  }
  if (anyClean) {
    merged.raw = false;
  } else {
    llvm::sort(merged.seeds);
    merged.seeds.erase(std::unique(merged.seeds.begin(), merged.seeds.end()),
                       merged.seeds.end());
  }
  return {builder.create<SumOp>(loc, values), merged};
}

void AdjointBuilder::maskSinks(iterator_range<Block::iterator> ops) {
  for (Operation &op : llvm::make_early_inc_range(ops)) {
    // A raw gradient only needs a mask where a sink multiplies it by a
    // forward value (an outer product: 0 · ∞ is NaN).
    if (!hasEffect<MemoryEffects::Write>(&op) ||
        (current.raw && !isa<ParamGradOuterOp>(op)))
      continue;
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(&op);
    for (OpOperand &operand : op.getOpOperands()) {
      auto type = dyn_cast<RankedTensorType>(operand.get().getType());
      if (type && type.getElementType().isF32())
        operand.set(mask(operand.get(), current.seeds));
    }
  }
}

LogicalResult AdjointBuilder::run() {
  Block &forward = vertex.getBody().front();
  for (Operation &op : forward) {
    bool source = isa<GatherOp, ParamRefOp>(op) ||
                  (isa<PullOp>(op) && isa<RankedTensorType>(op.getResult(0).getType()));
    auto isDifferentiable = [&](Value operand) {
      return differentiable.contains(operand);
    };
    // An op with regions (scf.if) depends on the values its regions use
    // from above too; none has a gradient rule, so one on a differentiated
    // path is an error rather than a gradient silently dropped.
    bool dependent =
        llvm::any_of(op.getOperands(), isDifferentiable) ||
        (op.getNumRegions() != 0 &&
         op.walk([&](Operation *inner) {
             return llvm::any_of(inner->getOperands(), isDifferentiable)
                        ? WalkResult::interrupt()
                        : WalkResult::advance();
           }).wasInterrupted());
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
  SmallVector<Gradient> taken;
  for (Value result : op->getResults())
    taken.push_back(takeGradient(result));
  auto present = llvm::make_filter_range(
      taken, [](const Gradient &gradient) { return bool(gradient.value); });
  // An op with results takes part only when one of them has a gradient;
  // outputs (scatter, push, loss) have none and seed the gradients.
  auto adjoint = dyn_cast<AdjointOpInterface>(op);
  if (present.empty() && (!adjoint || op->getNumResults() != 0))
    return success();
  if (!adjoint)
    return op->emitOpError("has no gradient rule");

  // What the rule contributes derives from its results' gradients: from
  // the seeds they share, or, when their origins differ, from clean
  // gradients once the others are masked. A push or a scatter seeds its
  // own, raw; a rule that only adds, moves or multiplies by parameters (or
  // hands the gradient to a sink as it is) keeps a zero gradient zero, so
  // raw stays raw.
  current = Origin();
  if (auto push = dyn_cast<PushOp>(op)) {
    current.seeds = {push.getName()};
    current.raw = true;
  } else if (isa<ScatterOp>(op)) {
    current.seeds = {kStateSeed};
    current.raw = true;
  } else if (!present.empty()) {
    const Origin &first = (*present.begin()).origin;
    const bool sameOrigin = llvm::all_of(present, [&](const Gradient &g) {
      return g.origin.seeds == first.seeds;
    });
    if (sameOrigin) {
      current.seeds = first.seeds;
      current.raw =
          isa<AddOp, SubOp, NegOp, SumOp, SplitOp, ConcatOp, SliceOp, PadOp,
              ReduceSumOp, MatmulOp, LookupOp, GatherOp, PullOp, ParamRefOp>(
              op) &&
          llvm::all_of(present, [](const Gradient &g) { return g.origin.raw; });
    } else {
      for (Gradient &gradient : taken)
        if (gradient.value && gradient.origin.needsMask())
          gradient.value = mask(gradient.value, gradient.origin.seeds);
    }
  }
  SmallVector<Value> gradients;
  for (const Gradient &gradient : taken)
    gradients.push_back(gradient.value);

  Block &block = *builder.getInsertionBlock();
  Operation *last = block.empty() ? nullptr : &block.back();
  if (failed(adjoint.buildAdjoint(*this, gradients)))
    return failure();
  auto built = llvm::make_range(
      last ? std::next(last->getIterator()) : block.begin(), block.end());
  if (isa<PushOp, ScatterOp>(op)) {
    for (Operation &seed : built)
      if (isa<PushGradOp, StateGradOp>(seed))
        seedValues[current.seeds.front()] = seed.getResult(0);
  } else if (!current.clean()) {
    maskSinks(built);
  }
  current = Origin();
  return success();
}

namespace {
struct AutodiffPass : public cavs::impl::CavsAutodiffBase<AutodiffPass> {
  void runOnOperation() override {
    for (auto vertex : getOperation().getBody().getOps<VertexOp>()) {
      if (vertex.getBackward())
        continue;
      // Classes, kernels and phases are made for F and ∂F together: after
      // them, F's ops are out of its walk's reach and ∂F came out empty.
      WalkResult later = vertex.getBody().walk([](Operation *op) {
        if (!isa<FusedOp, PhaseOp>(op) &&
            !op->hasAttr(CavsDialect::kBatchingAttrName))
          return WalkResult::advance();
        op->emitOpError("is classified, fused or outlined already; "
                        "cavs-autodiff runs before cavs-classify");
        return WalkResult::interrupt();
      });
      if (later.wasInterrupted() || failed(AdjointBuilder(vertex).run()))
        return signalPassFailure();
    }
  }
};
} // namespace
