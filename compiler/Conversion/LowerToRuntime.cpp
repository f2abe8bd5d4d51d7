//===- LowerToRuntime.cpp - the cavs-lower-to-runtime pass ----------------===//
//
// Each phase is copied into a new function and converted there, so that
// the model keeps verifying until the end of the pass. A value of an
// earlier phase enters the copy as the buffer of its memory slot; parameter
// references and constants are copied in with the ops that read them.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/Passes.h"
#include "compiler/Conversion/RuntimeLowering.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace cavs {
#define GEN_PASS_DEF_CAVSLOWERTORUNTIME
#include "compiler/Conversion/Passes.h.inc"
} // namespace cavs

using namespace mlir;
using namespace cavs;

namespace {
/// Checks what the patterns cannot say well: only a task knows its vertices'
/// children, and a whole-type call's state rows are contiguous only for
/// arity 0 (one task at level 0; see cavs_call::state_begin). cavs-classify
/// keeps these ops in the body; hand-written IR may not.
LogicalResult checkStateAccess(PhaseOp phase, VertexOp vertex) {
  if (phase.getKind() == BatchingKind::body || vertex.getArity() == 0)
    return success();
  for (Operation &op : phase.getBody().front())
    if (isa<GatherOp, ScatterOp, StateGradOp, ChildGradOp>(op))
      return op.emitOpError("reads or writes the state outside the task "
                            "order, in vertex function '")
             << vertex.getSymName() << "' (arity " << vertex.getArity()
             << "); only its body phase may";
  return success();
}

class PhaseBuilder {
public:
  PhaseBuilder(PhaseLowering &lowering, PhaseOp phase, Block *code)
      : lowering(lowering), phase(phase), b(code, code->begin()) {}

  /// The copy of `value` (used by the phase) in the function.
  FailureOr<Value> lookup(Value value) {
    if (Value mapped = mapping.lookupOrNull(value))
      return mapped;
    FailureOr<Value> copy = bring(value);
    if (succeeded(copy))
      mapping.map(value, *copy);
    return copy;
  }

  LogicalResult copyOps() {
    for (Operation &op : phase.getBody().front()) {
      for (Value operand : op.getOperands())
        if (failed(lookup(operand)))
          return failure();
      b.clone(op, mapping);
    }
    return success();
  }

private:
  /// A value defined outside the phase, brought into the function.
  FailureOr<Value> bring(Value value) {
    // A value of another phase: its definition there.
    if (auto result = dyn_cast<OpResult>(value))
      if (auto other = dyn_cast<PhaseOp>(result.getOwner()))
        value = other.getYield().getValues()[result.getResultNumber()];
    Operation *definer = value.getDefiningOp();
    if (isa_and_nonnull<ParamRefOp, ConstantOp>(definer))
      return b.clone(*definer)->getResult(0);
    if (isa_and_nonnull<SplitOp, SliceOp>(definer) &&
        !definer->hasAttr(CavsDialect::kSlotsAttrName)) {
      // A part of a parameter or constant is read in place.
      IRMapping partMapping;
      FailureOr<Value> whole = lookup(definer->getOperand(0));
      if (failed(whole))
        return failure();
      partMapping.map(definer->getOperand(0), *whole);
      Operation *part = b.clone(*definer, partMapping);
      return part->getResult(cast<OpResult>(value).getResultNumber());
    }
    FailureOr<Value> slot = lowering.slotBuffer(b, value);
    if (failed(slot))
      return failure();
    return b
        .create<UnrealizedConversionCastOp>(value.getLoc(), value.getType(),
                                            *slot)
        .getResult(0);
  }

  PhaseLowering &lowering;
  PhaseOp phase;
  OpBuilder b;
  IRMapping mapping;
};

struct LowerToRuntimePass
    : public cavs::impl::CavsLowerToRuntimeBase<LowerToRuntimePass> {
  using CavsLowerToRuntimeBase::CavsLowerToRuntimeBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<Device> target = parseDevice(module, device);
    if (failed(target))
      return signalPassFailure();
    for (auto model : llvm::to_vector(module.getOps<ModelOp>())) {
      if (failed(lowerModel(model, *target)))
        return signalPassFailure();
      model.erase();
    }
  }

  LogicalResult lowerModel(ModelOp model, Device target) {
    std::string prefix =
        symbolPrefix.empty() ? model.getSymName().str() : symbolPrefix;
    ParamOrder order = ParamOrder::compute(model);
    for (auto vertex : model.getBody().getOps<VertexOp>()) {
      if (!vertex->hasAttr(CavsDialect::kArenaWidthAttrName) ||
          !vertex->hasAttr(CavsDialect::kScratchWidthAttrName))
        return vertex.emitOpError(
            "has no memory plan; run cavs-plan-memory first");
      PhaseLowering lowering(getOperation(), vertex, order, target, prefix);
      SmallVector<PhaseOp> phases;
      SmallVector<Block *, 2> blocks = {&vertex.getBody().front()};
      if (BackwardOp backward = vertex.getBackward())
        blocks.push_back(&backward.getBody().front());
      for (Block *block : blocks)
        for (Operation &op : *block) {
          if (auto phase = dyn_cast<PhaseOp>(op))
            phases.push_back(phase);
          else if (isBatchedOp(&op))
            return op.emitOpError("is outside the phases; run "
                                  "cavs-outline-phases first");
        }
      for (PhaseOp phase : phases)
        if (failed(checkStateAccess(phase, vertex)))
          return failure();
      // Elementwise ops are lowered only as kernels (cavs.fused); one
      // outside a kernel failed as an illegal op, naming no cause.
      for (PhaseOp phase : phases)
        for (Operation &op : phase.getBody().front())
          if (isFusible(&op))
            return op.emitOpError("is outside a kernel; run "
                                  "cavs-fuse-elementwise before "
                                  "cavs-plan-memory");
      for (PhaseOp phase : phases)
        if (failed(lowerPhase(
                phase, lowering,
                phaseFunctionName(prefix, vertex, phase.getPhaseNumber()))))
          return failure();
    }
    return success();
  }

  LogicalResult lowerPhase(PhaseOp phase, PhaseLowering &lowering,
                           StringRef name) {
    MLIRContext *context = &getContext();
    ModuleOp module = getOperation();
    OpBuilder b(context);
    Location loc = phase.getLoc();
    Type ptrType = LLVM::LLVMPointerType::get(context);
    b.setInsertionPointToEnd(module.getBody());
    auto function = b.create<func::FuncOp>(
        loc, name, b.getFunctionType({ptrType}, {b.getI32Type()}));
    // entry: loads the call's fields; code: the phase; exit: returns.
    Block *entry = function.addEntryBlock();
    Block *code = new Block(), *exit = new Block();
    function.getBody().push_back(code);
    function.getBody().push_back(exit);
    exit->addArgument(b.getI32Type(), loc);
    b.setInsertionPointToEnd(exit);
    b.create<func::ReturnOp>(loc, exit->getArgument(0));
    b.setInsertionPointToEnd(entry);
    b.create<cf::BranchOp>(loc, code);

    lowering.begin(function, exit);
    PhaseBuilder builder(lowering, phase, code);
    if (failed(builder.copyOps())) {
      function.erase();
      return failure();
    }

    BufferTypeConverter converter;
    RewritePatternSet patterns(context);
    populatePhaseLoweringPatterns(patterns, converter, lowering);
    ConversionTarget target(*context);
    target.addIllegalDialect<CavsDialect>();
    target.addLegalDialect<arith::ArithDialect, cf::ControlFlowDialect,
                           func::FuncDialect, LLVM::LLVMDialect,
                           memref::MemRefDialect, scf::SCFDialect>();
    target.addLegalOp<UnrealizedConversionCastOp>();
    if (failed(applyPartialConversion(function, target, std::move(patterns))))
      return failure();
    // Values of earlier phases were cast to tensors for the copied ops.
    function.walk([](UnrealizedConversionCastOp cast) {
      if (cast->use_empty())
        cast->erase();
    });
    lowerIfsToBranches(function);
    return success();
  }

  /// Lowers the phase function's scf.if ops (a gather's choice between its
  /// children's rows in place and a copy) to branches, last first, so that
  /// each split of the block moves only the ops up to the next if. The
  /// SCF-to-CF conversion goes first to last, moving every op after each
  /// if (and recording each move): time and memory quadratic in the
  /// gathers, 2.4 GB for a function of 1,024 and more than this machine's
  /// memory for 4,096. The branches stay: one block per gather keeps the
  /// blocks that LLVM's code generator schedules small.
  static void lowerIfsToBranches(func::FuncOp function) {
    SmallVector<scf::IfOp> ifs;
    function.walk([&](scf::IfOp op) { ifs.push_back(op); });
    IRRewriter rewriter(function.getContext());
    for (scf::IfOp op : llvm::reverse(ifs)) {
      Location loc = op.getLoc();
      Block *condition = op->getBlock();
      Block *continuation =
          rewriter.splitBlock(condition, std::next(op->getIterator()));
      for (Value result : op.getResults())
        result.replaceAllUsesWith(
            continuation->addArgument(result.getType(), loc));
      auto inlineRegion = [&](Region &region) {
        if (region.empty())
          return continuation;
        Block *first = &region.front();
        Operation *yield = region.back().getTerminator();
        rewriter.setInsertionPoint(yield);
        rewriter.replaceOpWithNewOp<cf::BranchOp>(yield, continuation,
                                                  yield->getOperands());
        rewriter.inlineRegionBefore(region, continuation);
        return first;
      };
      Block *thenBlock = inlineRegion(op.getThenRegion());
      Block *elseBlock = inlineRegion(op.getElseRegion());
      rewriter.setInsertionPointToEnd(condition);
      rewriter.create<cf::CondBranchOp>(loc, op.getCondition(), thenBlock,
                                        elseBlock);
      rewriter.eraseOp(op);
    }
  }
};
} // namespace
