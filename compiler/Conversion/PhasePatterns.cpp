//===- PhasePatterns.cpp - one conversion pattern per op of a phase -------===//
//
// Each op of a phase becomes runtime calls (cavs/ops.h) on the buffers of
// its operands and results; its results are replaced by their buffers. A
// gather whose rows the schedule found contiguous in the state buffer, and
// a state gradient (always contiguous), become views of the state buffers
// instead of copies when no later phase reads them; split and slice parts
// are subviews of their input.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/FusedKernels.h"
#include "compiler/Conversion/RuntimeLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace cavs;

namespace {
int64_t width(Value value) { return valueWidth(value.getType()); }

/// The buffer behind a converted operand. Values of earlier phases come in
/// as their buffer behind an unrealized cast.
Value bufferOf(Value operand) {
  if (auto cast = operand.getDefiningOp<UnrealizedConversionCastOp>())
    if (cast->getNumOperands() == 1 &&
        isa<MemRefType>(cast->getOperand(0).getType()))
      return cast->getOperand(0);
  return operand;
}

/// A pattern with the phase's lowering state and buffer helpers.
template <typename OpTy>
struct PhasePattern : public OpConversionPattern<OpTy> {
  PhasePattern(BufferTypeConverter &converter, PhaseLowering &lowering)
      : OpConversionPattern<OpTy>(converter, lowering.vertex.getContext()),
        lowering(lowering) {}

  Value ptr(OpBuilder &b, Value operand) const {
    return lowering.pointerOf(b, operand.getLoc(), bufferOf(operand));
  }
  Value ld(OpBuilder &b, Value operand) const {
    return lowering.leadingDimension(b, operand.getLoc(), bufferOf(operand));
  }
  Value i64(OpBuilder &b, Location loc, int64_t v) const {
    return lowering.i64(b, loc, v);
  }
  Value i32(OpBuilder &b, Location loc, int64_t v) const {
    return lowering.i32(b, loc, v);
  }
  Value rows(OpBuilder &b) const { return lowering.rows(b); }

  PhaseLowering &lowering;
};

#define PATTERN(Name, OpTy)                                                    \
  struct Name : public PhasePattern<OpTy> {                                    \
    using PhasePattern::PhasePattern;                                          \
    LogicalResult                                                              \
    matchAndRewrite(OpTy op, OpAdaptor adaptor,                                \
                    ConversionPatternRewriter &rewriter) const override;       \
  };                                                                           \
  LogicalResult Name::matchAndRewrite(                                         \
      OpTy op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const

//===----------------------------------------------------------------------===//
// Values outside the slots
//===----------------------------------------------------------------------===//

PATTERN(ParamRefLowering, ParamRefOp) {
  auto type = cast<RankedTensorType>(op.getType());
  Location loc = op.getLoc();
  // A vector parameter is broadcast to every row (leading dimension 0).
  int64_t ld = type.getRank() == 2 ? type.getDimSize(1) : 0;
  Value param = lowering.param(rewriter, loc, op.getParam(), false);
  rewriter.replaceOp(
      op, lowering.buffer(rewriter, loc, param, i64(rewriter, loc, ld), type));
  return success();
}

PATTERN(ConstantLowering, ConstantOp) {
  Location loc = op.getLoc();
  Value values = lowering.constantArray(rewriter, loc,
                                        cast<DenseElementsAttr>(op.getValue()));
  rewriter.replaceOp(op, lowering.buffer(rewriter, loc, values,
                                         i64(rewriter, loc, 0), op.getType()));
  return success();
}

PATTERN(PartLowering, SplitOp) {
  // Parts are column ranges of their input, wherever it lives.
  Value input = bufferOf(adaptor.getInput());
  SmallVector<Value> parts;
  int64_t start = 0;
  for (Value result : op.getResults()) {
    parts.push_back(lowering.columns(rewriter, op.getLoc(), input, start,
                                     result.getType()));
    start += width(result);
  }
  rewriter.replaceOp(op, parts);
  return success();
}

PATTERN(SliceLowering, SliceOp) {
  rewriter.replaceOp(op, lowering.columns(rewriter, op.getLoc(),
                                          bufferOf(adaptor.getInput()),
                                          op.getOffset(), op.getType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Primitives
//===----------------------------------------------------------------------===//

/// gather_rows of an external input (pull) or output gradient (push_grad).
template <typename OpTy>
LogicalResult lowerRead(const PhasePattern<OpTy> &p, OpTy op, CallField table,
                        int64_t index, ConversionPatternRewriter &rewriter) {
  FailureOr<Value> dst = p.lowering.slotBuffer(rewriter, op.getResult());
  if (failed(dst))
    return failure();
  Location loc = op.getLoc();
  p.lowering.template call<RuntimeOp::gather_rows>(
      rewriter, loc, p.rows(rewriter),
      p.lowering.field(rewriter, CallField::vertices),
      p.lowering.tableEntry(rewriter, loc, table, index),
      p.i64(rewriter, loc, width(op.getResult())), p.ptr(rewriter, *dst),
      p.ld(rewriter, *dst));
  rewriter.replaceOp(op, *dst);
  return success();
}

/// scatter_rows of an external output (push) or input gradient (pull_grad).
template <typename OpTy>
LogicalResult lowerWrite(const PhasePattern<OpTy> &p, OpTy op, Value src,
                         CallField table, int64_t index, bool accumulate,
                         ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  p.lowering.template call<RuntimeOp::scatter_rows>(
      rewriter, loc, p.rows(rewriter),
      p.lowering.field(rewriter, CallField::vertices), p.ptr(rewriter, src),
      p.ld(rewriter, src), p.lowering.tableEntry(rewriter, loc, table, index),
      p.i64(rewriter, loc, width(op.getValue())),
      p.i32(rewriter, loc, accumulate));
  rewriter.eraseOp(op);
  return success();
}

int64_t indexIn(DictionaryAttr dict, StringRef name) {
  for (auto [i, entry] : llvm::enumerate(dict))
    if (entry.getName() == name)
      return i;
  return -1;
}

PATTERN(PullLowering, PullOp) {
  return lowerRead(*this, op, CallField::pulls,
                   indexIn(lowering.vertex.getPulls(), op.getName()), rewriter);
}

PATTERN(PushGradLowering, PushGradOp) {
  return lowerRead(*this, op, CallField::push_grads,
                   indexIn(lowering.vertex.getPushes(), op.getName()),
                   rewriter);
}

PATTERN(PushLowering, PushOp) {
  return lowerWrite(*this, op, adaptor.getValue(), CallField::pushes,
                    indexIn(lowering.vertex.getPushes(), op.getName()),
                    /*accumulate=*/false, rewriter);
}

PATTERN(PullGradLowering, PullGradOp) {
  return lowerWrite(*this, op, adaptor.getValue(), CallField::pull_grads,
                    indexIn(lowering.vertex.getPulls(), op.getName()),
                    /*accumulate=*/true, rewriter);
}

PATTERN(GatherLowering, GatherOp) {
  FailureOr<Value> slot = lowering.slotBuffer(rewriter, op.getResult());
  if (failed(slot))
    return failure();
  Location loc = op.getLoc();
  int64_t k = op.getIndex();
  int64_t stateWidth = lowering.stateWidth;
  auto copy = [&](OpBuilder &b) {
    lowering.call<RuntimeOp::gather>(
        b, loc, rows(b), i64(b, loc, 0), i64(b, loc, 1),
        lowering.childRows(b, loc, k), lowering.field(b, CallField::state),
        i64(b, loc, stateWidth), ptr(b, *slot), ld(b, *slot));
  };
  if (readLater(op.getResult())) {
    copy(rewriter);
    rewriter.replaceOp(op, *slot);
    return success();
  }
  // Read the children's state rows in place when the schedule found them
  // contiguous; copy them into the slot otherwise.
  Value viewAddress = rewriter.create<LLVM::GEPOp>(
      loc, LLVM::LLVMPointerType::get(getContext()), rewriter.getI32Type(),
      lowering.field(rewriter, CallField::child_views),
      ValueRange{i64(rewriter, loc, k)});
  Value viewRow = rewriter.create<arith::ExtSIOp>(
      loc, rewriter.getI64Type(),
      rewriter.create<LLVM::LoadOp>(loc, rewriter.getI32Type(), viewAddress));
  Value isView = rewriter.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge,
                                                viewRow, i64(rewriter, loc, 0));
  auto choice = rewriter.create<scf::IfOp>(
      loc, isView,
      [&](OpBuilder &b, Location loc) {
        Value first =
            b.create<arith::MulIOp>(loc, viewRow, i64(b, loc, stateWidth));
        Value rowsPtr =
            lowering.floats(b, loc, lowering.field(b, CallField::state), first);
        b.create<scf::YieldOp>(loc, lowering.buffer(b, loc, rowsPtr,
                                                    i64(b, loc, stateWidth),
                                                    op.getType()));
      },
      [&](OpBuilder &b, Location loc) {
        copy(b);
        b.create<scf::YieldOp>(loc, *slot);
      });
  rewriter.replaceOp(op, choice.getResult(0));
  return success();
}

PATTERN(ScatterLowering, ScatterOp) {
  // cavs-plan-memory computed the value in the state rows: nothing to copy.
  SlotAttr slot = PhaseLowering::slotOf(op.getValue());
  if (slot && slot.getSpace() == SlotSpace::state) {
    rewriter.eraseOp(op);
    return success();
  }
  Location loc = op.getLoc();
  Value src = adaptor.getValue();
  lowering.call<RuntimeOp::scatter>(
      rewriter, loc, rows(rewriter), ptr(rewriter, src), ld(rewriter, src),
      lowering.stateRows(rewriter, loc, CallField::state),
      i64(rewriter, loc, lowering.stateWidth));
  rewriter.eraseOp(op);
  return success();
}

PATTERN(StateGradLowering, StateGradOp) {
  Location loc = op.getLoc();
  Value stateRows = lowering.stateRows(rewriter, loc, CallField::state_grad);
  Value stateWidth = i64(rewriter, loc, lowering.stateWidth);
  if (!readLater(op.getResult())) {
    rewriter.replaceOp(op, lowering.buffer(rewriter, loc, stateRows, stateWidth,
                                           op.getType()));
    return success();
  }
  FailureOr<Value> dst = lowering.slotBuffer(rewriter, op.getResult());
  if (failed(dst))
    return failure();
  lowering.call<RuntimeOp::copy_rows>(rewriter, loc, rows(rewriter), stateWidth,
                                      stateRows, stateWidth,
                                      ptr(rewriter, *dst), ld(rewriter, *dst));
  rewriter.replaceOp(op, *dst);
  return success();
}

PATTERN(ChildGradLowering, ChildGradOp) {
  Location loc = op.getLoc();
  Value src = adaptor.getValue();
  lowering.call<RuntimeOp::child_grad>(
      rewriter, loc, rows(rewriter), i64(rewriter, loc, 0),
      i64(rewriter, loc, 1), lowering.childRows(rewriter, loc, op.getIndex()),
      ptr(rewriter, src), ld(rewriter, src),
      lowering.field(rewriter, CallField::state_grad),
      i64(rewriter, loc, lowering.stateWidth));
  rewriter.eraseOp(op);
  return success();
}

//===----------------------------------------------------------------------===//
// Row copies
//===----------------------------------------------------------------------===//

PATTERN(ConcatLowering, ConcatOp) {
  FailureOr<Value> dst = lowering.slotBuffer(rewriter, op.getResult());
  if (failed(dst))
    return failure();
  Location loc = op.getLoc();
  Value dstPtr = ptr(rewriter, *dst), dstLd = ld(rewriter, *dst);
  SlotAttr slot = PhaseLowering::slotOf(op.getResult());
  int64_t column = 0;
  for (auto [input, src] : llvm::zip(op.getInputs(), adaptor.getInputs())) {
    // cavs-plan-memory placed the input in the concat's columns.
    SlotAttr from = PhaseLowering::slotOf(input);
    if (slot && from && from.getSpace() == slot.getSpace() &&
        from.getOffset() == slot.getOffset() + column) {
      column += width(input);
      continue;
    }
    lowering.call<RuntimeOp::copy_rows>(
        rewriter, loc, rows(rewriter), i64(rewriter, loc, width(input)),
        ptr(rewriter, src), ld(rewriter, src),
        lowering.floats(rewriter, loc, dstPtr, i64(rewriter, loc, column)),
        dstLd);
    column += width(input);
  }
  rewriter.replaceOp(op, *dst);
  return success();
}

PATTERN(PadLowering, PadOp) {
  FailureOr<Value> dst = lowering.slotBuffer(rewriter, op.getResult());
  if (failed(dst))
    return failure();
  Location loc = op.getLoc();
  Value src = adaptor.getInput();
  Value dstPtr = ptr(rewriter, *dst), dstLd = ld(rewriter, *dst);
  lowering.call<RuntimeOp::zero_rows>(rewriter, loc, rows(rewriter),
                                      i64(rewriter, loc, width(op.getResult())),
                                      dstPtr, dstLd);
  lowering.call<RuntimeOp::copy_rows>(
      rewriter, loc, rows(rewriter), i64(rewriter, loc, width(op.getInput())),
      ptr(rewriter, src), ld(rewriter, src),
      lowering.floats(rewriter, loc, dstPtr,
                      i64(rewriter, loc, op.getOffset())),
      dstLd);
  rewriter.replaceOp(op, *dst);
  return success();
}

//===----------------------------------------------------------------------===//
// Kernels and products
//===----------------------------------------------------------------------===//

/// The operands of a fused kernel as an array of 8-byte values on the stack
/// of the phase function, the form launch and run_rows take.
Value packOperands(OpBuilder &b, Location loc, PhaseLowering &lowering,
                   ArrayRef<Value> operands) {
  Type ptrType = LLVM::LLVMPointerType::get(b.getContext());
  Type i64Type = b.getI64Type();
  Value args = b.create<LLVM::AllocaOp>(loc, ptrType, i64Type,
                                        lowering.i64(b, loc, operands.size()));
  for (auto [i, operand] : llvm::enumerate(operands)) {
    Value bits = isa<LLVM::LLVMPointerType>(operand.getType())
                     ? b.create<LLVM::PtrToIntOp>(loc, i64Type, operand)
                     : operand;
    Value slot = b.create<LLVM::GEPOp>(loc, ptrType, i64Type, args,
                                       ValueRange{lowering.i64(b, loc, i)});
    b.create<LLVM::StoreOp>(loc, bits, slot);
  }
  return args;
}

PATTERN(FusedLowering, FusedOp) {
  Location loc = op.getLoc();
  SmallVector<Value> buffers;
  for (Value input : adaptor.getInputs())
    buffers.push_back(input);
  for (Value result : op.getResults()) {
    FailureOr<Value> slot = lowering.slotBuffer(rewriter, result);
    if (failed(slot))
      return failure();
    buffers.push_back(*slot);
  }
  SmallVector<Value> operands;
  for (Value buffer : buffers)
    operands.append({ptr(rewriter, buffer), ld(rewriter, buffer)});
  Attribute kernel = op->getAttr(kKernelAttrName);
  Value iteration = i64(rewriter, loc, op.getIterationType().getNumElements());
  Value numArgs = i32(rewriter, loc, operands.size());
  if (lowering.device == Device::CPU) {
    auto symbol = dyn_cast_or_null<FlatSymbolRefAttr>(kernel);
    if (!symbol)
      return op.emitOpError("has no CPU kernel; run cavs-lower-fused first");
    // run_rows calls the kernel's rows form on ranges of the rows; its
    // address is a function-typed value until func-to-llvm makes it a
    // pointer, which the cast stands for until then.
    auto rowsForm =
        FlatSymbolRefAttr::get(getContext(), rowsKernelName(symbol.getValue()));
    Value function = rewriter.create<func::ConstantOp>(
        loc, rowsKernelType(getContext()), rowsForm);
    Value address =
        rewriter
            .create<UnrealizedConversionCastOp>(
                loc, LLVM::LLVMPointerType::get(getContext()), function)
            .getResult(0);
    lowering.call<RuntimeOp::run_rows>(
        rewriter, loc, address, rows(rewriter), iteration,
        packOperands(rewriter, loc, lowering, operands), numArgs);
  } else {
    auto number = dyn_cast_or_null<IntegerAttr>(kernel);
    if (!number)
      return op.emitOpError("has no CUDA kernel number; run "
                            "cavs-lower-fused{device=cuda} first");
    lowering.call<RuntimeOp::launch>(
        rewriter, loc, i32(rewriter, loc, number.getInt()), rows(rewriter),
        iteration, packOperands(rewriter, loc, lowering, operands), numArgs);
  }
  rewriter.replaceOp(
      op, ArrayRef<Value>(buffers).drop_front(adaptor.getInputs().size()));
  return success();
}

PATTERN(MatmulLowering, MatmulOp) {
  auto ref = op.getLhs().getDefiningOp<ParamRefOp>();
  if (!ref)
    return op.emitOpError("with a per-vertex matrix is not supported by the ")
           << (lowering.device == Device::CPU ? "CPU" : "CUDA") << " backend";
  FailureOr<Value> y = lowering.slotBuffer(rewriter, op.getResult());
  if (failed(y))
    return failure();
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(ref.getType());
  int64_t m = type.getDimSize(0), k = type.getDimSize(1);
  Value x = adaptor.getRhs();
  bool transposed = op.getTransposeLhs();
  Value weights = lowering.param(rewriter, loc, ref.getParam(), false);
  // Y = X Wᵀ (rows × m), or DX = DY W (rows × k) for the transposed product.
  lowering.call<RuntimeOp::gemm>(
      rewriter, loc, i32(rewriter, loc, 0),
      i32(rewriter, loc, transposed ? 0 : 1), rows(rewriter),
      i64(rewriter, loc, transposed ? k : m),
      i64(rewriter, loc, transposed ? m : k), lowering.f32(rewriter, loc, 1),
      ptr(rewriter, x), ld(rewriter, x), weights, i64(rewriter, loc, k),
      lowering.f32(rewriter, loc, 0), ptr(rewriter, *y), ld(rewriter, *y));
  rewriter.replaceOp(op, *y);
  return success();
}

PATTERN(ParamGradLowering, ParamGradOp) {
  Location loc = op.getLoc();
  Value src = adaptor.getValue();
  lowering.call<RuntimeOp::column_sum>(
      rewriter, loc, rows(rewriter), i64(rewriter, loc, width(op.getValue())),
      ptr(rewriter, src), ld(rewriter, src),
      lowering.param(rewriter, loc, op.getParam(), true));
  rewriter.eraseOp(op);
  return success();
}

PATTERN(ParamGradOuterLowering, ParamGradOuterOp) {
  Location loc = op.getLoc();
  Value dy = adaptor.getDy(), x = adaptor.getX();
  int64_t m = width(op.getDy()), k = width(op.getX());
  // dW[m×k] += DYᵀ X over the call's rows.
  lowering.call<RuntimeOp::gemm>(
      rewriter, loc, i32(rewriter, loc, 1), i32(rewriter, loc, 0),
      i64(rewriter, loc, m), i64(rewriter, loc, k), rows(rewriter),
      lowering.f32(rewriter, loc, 1), ptr(rewriter, dy), ld(rewriter, dy),
      ptr(rewriter, x), ld(rewriter, x), lowering.f32(rewriter, loc, 1),
      lowering.param(rewriter, loc, op.getParam(), true),
      i64(rewriter, loc, k));
  rewriter.eraseOp(op);
  return success();
}

//===----------------------------------------------------------------------===//
// Lookups, softmax, losses
//===----------------------------------------------------------------------===//

PATTERN(LookupLowering, LookupOp) {
  FailureOr<Value> dst = lowering.slotBuffer(rewriter, op.getResult());
  if (failed(dst))
    return failure();
  Location loc = op.getLoc();
  Value index = adaptor.getIndex(), table = adaptor.getTable();
  auto type = cast<RankedTensorType>(op.getTable().getType());
  lowering.callChecked<RuntimeOp::lookup>(
      rewriter, loc, rows(rewriter), ptr(rewriter, index), ld(rewriter, index),
      ptr(rewriter, table), i64(rewriter, loc, type.getDimSize(0)),
      i64(rewriter, loc, type.getDimSize(1)), ptr(rewriter, *dst),
      ld(rewriter, *dst));
  rewriter.replaceOp(op, *dst);
  return success();
}

PATTERN(LookupGradLowering, LookupGradOp) {
  Location loc = op.getLoc();
  Value index = adaptor.getIndex(), src = adaptor.getValue();
  StringRef table = op.getParam();
  int32_t param = lowering.order.paramIndex(table);
  auto type = ParamOp(lowering.order.params[param]).getType();
  Value indexPtr = ptr(rewriter, index), indexLd = ld(rewriter, index);
  lowering.callChecked<RuntimeOp::lookup_grad>(
      rewriter, loc, rows(rewriter), indexPtr, indexLd, ptr(rewriter, src),
      ld(rewriter, src), lowering.param(rewriter, loc, table, true),
      i64(rewriter, loc, type.getDimSize(0)),
      i64(rewriter, loc, type.getDimSize(1)));
  lowering.callChecked<RuntimeOp::mark_rows>(
      rewriter, loc, lowering.field(rewriter, CallField::grad_store),
      i32(rewriter, loc, param), rows(rewriter), indexPtr, indexLd);
  rewriter.eraseOp(op);
  return success();
}

PATTERN(SoftmaxLowering, SoftmaxOp) {
  FailureOr<Value> dst = lowering.slotBuffer(rewriter, op.getResult());
  if (failed(dst))
    return failure();
  Location loc = op.getLoc();
  Value src = adaptor.getOperand();
  lowering.call<RuntimeOp::softmax>(rewriter, loc, rows(rewriter),
                                    i64(rewriter, loc, width(op.getResult())),
                                    ptr(rewriter, src), ld(rewriter, src),
                                    ptr(rewriter, *dst), ld(rewriter, *dst));
  rewriter.replaceOp(op, *dst);
  return success();
}

PATTERN(CrossEntropyLowering, SoftmaxCrossEntropyOp) {
  FailureOr<Value> dst = lowering.slotBuffer(rewriter, op.getResult());
  if (failed(dst))
    return failure();
  Location loc = op.getLoc();
  Value logits = adaptor.getLogits(), labels = adaptor.getLabel();
  lowering.callChecked<RuntimeOp::softmax_cross_entropy>(
      rewriter, loc, rows(rewriter), i64(rewriter, loc, width(op.getLogits())),
      ptr(rewriter, logits), ld(rewriter, logits), ptr(rewriter, labels),
      ld(rewriter, labels), ptr(rewriter, *dst), ld(rewriter, *dst));
  rewriter.replaceOp(op, *dst);
  return success();
}

PATTERN(CrossEntropyGradLowering, SoftmaxCrossEntropyGradOp) {
  FailureOr<Value> dst = lowering.slotBuffer(rewriter, op.getResult());
  if (failed(dst))
    return failure();
  Location loc = op.getLoc();
  Value logits = adaptor.getLogits(), labels = adaptor.getLabel();
  Value seed = adaptor.getGrad();
  lowering.callChecked<RuntimeOp::softmax_cross_entropy_grad>(
      rewriter, loc, rows(rewriter), i64(rewriter, loc, width(op.getLogits())),
      ptr(rewriter, logits), ld(rewriter, logits), ptr(rewriter, labels),
      ld(rewriter, labels), ptr(rewriter, seed), ld(rewriter, seed),
      ptr(rewriter, *dst), ld(rewriter, *dst));
  rewriter.replaceOp(op, *dst);
  return success();
}

PATTERN(LossLowering, LossOp) {
  // The device adds the rows' sum into the pass's loss (device memory on
  // a GPU).
  Location loc = op.getLoc();
  Value src = adaptor.getValue();
  lowering.call<RuntimeOp::loss_sum>(rewriter, loc, rows(rewriter),
                                     ptr(rewriter, src), ld(rewriter, src),
                                     lowering.field(rewriter, CallField::loss));
  rewriter.eraseOp(op);
  return success();
}

PATTERN(PhaseEndLowering, YieldOp) {
  // The phase's values are in their slots: the function succeeded.
  rewriter.replaceOpWithNewOp<cf::BranchOp>(
      op, lowering.exitBlock(), ValueRange{i32(rewriter, op.getLoc(), 0)});
  return success();
}
#undef PATTERN
} // namespace

void cavs::populatePhaseLoweringPatterns(RewritePatternSet &patterns,
                                         BufferTypeConverter &converter,
                                         PhaseLowering &lowering) {
  patterns.add<ParamRefLowering, ConstantLowering, PartLowering, SliceLowering,
               PullLowering, PushGradLowering, PushLowering, PullGradLowering,
               GatherLowering, ScatterLowering, StateGradLowering,
               ChildGradLowering, ConcatLowering, PadLowering, FusedLowering,
               MatmulLowering, ParamGradLowering, ParamGradOuterLowering,
               LookupLowering, LookupGradLowering, SoftmaxLowering,
               CrossEntropyLowering, CrossEntropyGradLowering, LossLowering,
               PhaseEndLowering>(converter, lowering);
}
