//===- PhaseFunctions.cpp - batched phases of vertex functions ------------===//
//
// A value's buffer is (pointer, leading dimension): its slot's columns in
// the arena or scratch rows, a parameter (ld 0 when a vector is broadcast
// to every row), or a constant array (ld 0). A gather whose rows the
// schedule found contiguous in the state buffer, and a state gradient
// (always contiguous), become views of the state buffers instead of copies
// when only ops of the same body phase read them; split and slice parts of
// a view are views too, and those of a parameter or constant are read in
// place. Values read by a later phase always come from their slots.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/PhaseFunctions.h"

#include "compiler/Conversion/FusedKernels.h"
#include "compiler/Conversion/RuntimeAbi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace cavs;

namespace {
using abi::CallField;
using abi::RuntimeOp;

/// Where a per-vertex value lives during a call.
struct Buffer {
  Value ptr;
  /// i64 elements between rows.
  Value ld;
};

BatchingKind batchingOf(Operation *op) {
  auto attr =
      op->getAttrOfType<BatchingKindAttr>(CavsDialect::kBatchingAttrName);
  return attr ? attr.getValue() : BatchingKind::eager;
}

/// Emits one phase function.
class PhaseEmitter {
public:
  PhaseEmitter(ModuleOp target, VertexOp vertex, const ParamOrder &order,
               int64_t stateWidth, StringRef constantPrefix,
               const CudaKernelIndex *cudaKernels)
      : target(target), vertex(vertex), order(order), stateWidth(stateWidth),
        constantPrefix(constantPrefix.str()), cudaKernels(cudaKernels),
        b(target.getContext()) {
    arenaFloats =
        vertex->getAttrOfType<IntegerAttr>(CavsDialect::kArenaWidthAttrName)
            .getInt();
    scratchFloats =
        vertex->getAttrOfType<IntegerAttr>(CavsDialect::kScratchWidthAttrName)
            .getInt();
  }

  /// Builds `name` from the ops of `block` in class `kind`; returns an
  /// empty name when there is nothing to run.
  FailureOr<std::string> build(Block &block, BatchingKind kind, StringRef name);

private:
  LogicalResult emit(Operation *op);

  // Call fields and tables.
  Value field(CallField index);
  Value tableEntry(CallField table, int64_t index);
  Value param(StringRef symbol, bool gradient) {
    return tableEntry(gradient ? CallField::grads : CallField::params,
                      order.tableIndex.lookup(symbol));
  }

  // Buffers.
  FailureOr<Buffer> buffer(Value value);
  /// A constant as a global array (read with ld 0 by every row).
  Value constantArray(ConstantOp constant);
  Value slotPointer(SlotAttr slot);
  SlotAttr slotOf(Value value);
  /// Whether every reader of `value` (through views) runs in the phase
  /// being built, so it may stay a view.
  bool readOnlyHere(Value value);

  StringRef backendName() const { return cudaKernels ? "CUDA" : "CPU"; }

  // Scalars and addresses.
  Value i64(int64_t v) {
    return b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(v));
  }
  Value i32(int64_t v) {
    return b.create<arith::ConstantOp>(loc, b.getI32IntegerAttr(v));
  }
  Value f32(float v) {
    return b.create<arith::ConstantOp>(loc, b.getF32FloatAttr(v));
  }
  Value offset(Value ptr, Value elements, Type elementType) {
    return b.create<LLVM::GEPOp>(loc, ptrType, elementType, ptr,
                                 ValueRange{elements});
  }
  Value floats(Value ptr, int64_t elements) {
    return elements == 0 ? ptr : offset(ptr, i64(elements), b.getF32Type());
  }
  Value floatsAt(Value ptr, Value elements) {
    return offset(ptr, elements, b.getF32Type());
  }
  Value mul(Value x, Value y) { return b.create<arith::MulIOp>(loc, x, y); }
  /// The state (or state-gradient) row of the call's first vertex.
  Value stateRows(CallField buffer) {
    return floatsAt(field(buffer),
                    mul(field(CallField::state_begin), i64(stateWidth)));
  }
  /// children + k * rows: the child rows of slot k.
  Value childRows(int64_t k) {
    return offset(field(CallField::children),
                  mul(i64(k), field(CallField::rows)), b.getI32Type());
  }

  // Calls: every runtime op goes through the device's op table.
  template <RuntimeOp Op, typename... Values> Value call(Values... arguments) {
    return abi::callRuntimeOp<Op>(b, loc, field(CallField::device),
                                  arguments...);
  }
  /// Calls a runtime op returning cavs_status; returns on failure.
  template <RuntimeOp Op, typename... Values>
  void callChecked(Values... arguments) {
    returnOnFailure(call<Op>(arguments...));
  }
  void returnOnFailure(Value status);

  LogicalResult emitGather(GatherOp gather);
  LogicalResult emitStateGrad(StateGradOp stateGrad);
  LogicalResult emitMatmul(MatmulOp matmul);
  LogicalResult emitFused(FusedOp fused);
  LogicalResult emitKernelLaunch(FusedOp fused, ValueRange operands);

  int64_t pullIndex(StringRef name) { return indexIn(vertex.getPulls(), name); }
  int64_t pushIndex(StringRef name) {
    return indexIn(vertex.getPushes(), name);
  }
  static int64_t indexIn(DictionaryAttr dict, StringRef name) {
    for (auto [i, entry] : llvm::enumerate(dict))
      if (entry.getName() == name)
        return i;
    return -1;
  }

  ModuleOp target;
  VertexOp vertex;
  const ParamOrder &order;
  int64_t stateWidth;
  int64_t arenaFloats = 0, scratchFloats = 0;
  std::string constantPrefix;
  /// The CUDA image's kernel numbers when emitting CUDA phase functions,
  /// which run on device pointers and launch their fused kernels through
  /// the device's op table; null for CPU code, which calls them directly.
  const CudaKernelIndex *cudaKernels;
  unsigned numConstants = 0;
  OpBuilder b;
  Location loc = b.getUnknownLoc();
  Type ptrType = LLVM::LLVMPointerType::get(b.getContext());

  // Per function.
  Value callArg;
  Block *exitBlock = nullptr;
  Block *phaseBlock = nullptr;
  BatchingKind phaseKind = BatchingKind::eager;
  llvm::DenseMap<Value, Buffer> views;
  llvm::DenseMap<int32_t, Value> fields;
};
} // namespace

//===----------------------------------------------------------------------===//
// Fields, buffers
//===----------------------------------------------------------------------===//

Value PhaseEmitter::field(CallField index) {
  // Loaded once in the entry block so that every later block sees them.
  auto it = fields.find(int32_t(index));
  if (it != fields.end())
    return it->second;
  OpBuilder::InsertionGuard guard(b);
  Block *entry = callArg.getParentBlock();
  b.setInsertionPoint(entry->getTerminator());
  Value address = b.create<LLVM::GEPOp>(loc, ptrType, b.getI64Type(), callArg,
                                        ArrayRef<LLVM::GEPArg>{int32_t(index)});
  Value value = b.create<LLVM::LoadOp>(
      loc, abi::callFieldType(index, b.getContext()), address);
  fields[int32_t(index)] = value;
  return value;
}

Value PhaseEmitter::tableEntry(CallField table, int64_t index) {
  Value address = b.create<LLVM::GEPOp>(loc, ptrType, ptrType, field(table),
                                        ArrayRef<LLVM::GEPArg>{int32_t(index)});
  return b.create<LLVM::LoadOp>(loc, ptrType, address);
}

SlotAttr PhaseEmitter::slotOf(Value value) {
  auto result = dyn_cast<OpResult>(value);
  if (!result)
    return nullptr;
  auto slots =
      result.getOwner()->getAttrOfType<ArrayAttr>(CavsDialect::kSlotsAttrName);
  if (!slots || slots.size() <= result.getResultNumber())
    return nullptr;
  return dyn_cast<SlotAttr>(slots[result.getResultNumber()]);
}

Value PhaseEmitter::slotPointer(SlotAttr slot) {
  bool arena = slot.getSpace() == SlotSpace::arena;
  return floats(field(arena ? CallField::arena : CallField::scratch),
                slot.getOffset());
}

FailureOr<Buffer> PhaseEmitter::buffer(Value value) {
  if (auto view = views.find(value); view != views.end())
    return view->second;
  Operation *definer = value.getDefiningOp();
  if (auto ref = dyn_cast_or_null<ParamRefOp>(definer)) {
    auto type = cast<RankedTensorType>(ref.getType());
    int64_t ld = type.getRank() == 2 ? type.getDimSize(1) : 0;
    return Buffer{param(ref.getParam(), /*gradient=*/false), i64(ld)};
  }
  if (auto constant = dyn_cast_or_null<ConstantOp>(definer))
    return Buffer{constantArray(constant), i64(0)};
  SlotAttr slot = slotOf(value);
  // A part of a parameter or constant is read in place.
  if (!slot && isa_and_nonnull<SplitOp, SliceOp>(definer)) {
    FailureOr<Buffer> whole = buffer(definer->getOperand(0));
    if (failed(whole))
      return failure();
    int64_t start = 0;
    if (auto slice = dyn_cast<SliceOp>(definer))
      start = slice.getOffset();
    for (Value part : definer->getResults()) {
      if (part == value)
        break;
      start += valueWidth(part.getType());
    }
    return Buffer{floats(whole->ptr, start), whole->ld};
  }
  if (!slot) {
    if (definer)
      return definer->emitOpError(
          "has no memory slot for its result; run cavs-plan-memory first");
    return emitError(value.getLoc(), "a block argument has no memory slot");
  }
  bool arena = slot.getSpace() == SlotSpace::arena;
  return Buffer{slotPointer(slot), i64(arena ? arenaFloats : scratchFloats)};
}

Value PhaseEmitter::constantArray(ConstantOp constant) {
  auto values = cast<DenseElementsAttr>(constant.getValue());
  auto flat = RankedTensorType::get({values.getNumElements()}, b.getF32Type());
  auto type = LLVM::LLVMArrayType::get(b.getF32Type(), flat.getNumElements());
  std::string name = constantPrefix + "_c" + std::to_string(numConstants++);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(target.getBody());
    b.create<LLVM::GlobalOp>(loc, type, /*isConstant=*/true,
                             LLVM::Linkage::Internal, name,
                             values.reshape(flat));
  }
  Value address = b.create<LLVM::AddressOfOp>(loc, ptrType, name);
  return call<RuntimeOp::constant>(address, i64(flat.getNumElements()));
}

bool PhaseEmitter::readOnlyHere(Value value) {
  for (Operation *user : value.getUsers()) {
    if (user->getBlock() != phaseBlock || batchingOf(user) != phaseKind)
      return false;
    if (isa<SplitOp, SliceOp>(user))
      for (Value part : user->getResults())
        if (!readOnlyHere(part))
          return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

void PhaseEmitter::returnOnFailure(Value status) {
  Value failed =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, status, i32(0));
  Block *current = b.getInsertionBlock();
  Block *next = current->splitBlock(b.getInsertionPoint());
  b.setInsertionPointToEnd(current);
  b.create<cf::CondBranchOp>(loc, failed, exitBlock, ValueRange{status}, next,
                             ValueRange{});
  b.setInsertionPointToStart(next);
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

LogicalResult PhaseEmitter::emitGather(GatherOp gather) {
  FailureOr<Buffer> slot = buffer(gather.getResult());
  if (failed(slot))
    return failure();
  int64_t k = gather.getIndex();
  Value rows = field(CallField::rows);
  auto copy = [&] {
    call<RuntimeOp::gather>(rows, i64(0), i64(1), childRows(k),
                            field(CallField::state), i64(stateWidth), slot->ptr,
                            slot->ld);
  };
  if (!readOnlyHere(gather.getResult())) {
    copy();
    return success();
  }
  // Read the children's state rows in place when the schedule found them
  // contiguous; copy them into the slot otherwise.
  Value viewAddress =
      offset(field(CallField::child_views), i64(k), b.getI32Type());
  Value viewRow = b.create<arith::ExtSIOp>(
      loc, b.getI64Type(),
      b.create<LLVM::LoadOp>(loc, b.getI32Type(), viewAddress));
  Value isView =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, viewRow, i64(0));
  Block *current = b.getInsertionBlock();
  Block *join = current->splitBlock(b.getInsertionPoint());
  join->addArgument(ptrType, loc);
  join->addArgument(b.getI64Type(), loc);
  Block *copyBlock = b.createBlock(join);
  b.setInsertionPointToEnd(current);
  Value viewPtr =
      floatsAt(field(CallField::state), mul(viewRow, i64(stateWidth)));
  b.create<cf::CondBranchOp>(loc, isView, join,
                             ValueRange{viewPtr, i64(stateWidth)}, copyBlock,
                             ValueRange{});
  b.setInsertionPointToEnd(copyBlock);
  copy();
  b.create<cf::BranchOp>(loc, join, ValueRange{slot->ptr, slot->ld});
  b.setInsertionPointToStart(join);
  views[gather.getResult()] = {join->getArgument(0), join->getArgument(1)};
  return success();
}

LogicalResult PhaseEmitter::emitStateGrad(StateGradOp stateGrad) {
  Value rows = stateRows(CallField::state_grad);
  if (readOnlyHere(stateGrad.getResult())) {
    views[stateGrad.getResult()] = {rows, i64(stateWidth)};
    return success();
  }
  FailureOr<Buffer> dst = buffer(stateGrad.getResult());
  if (failed(dst))
    return failure();
  call<RuntimeOp::copy_rows>(field(CallField::rows), i64(stateWidth), rows,
                             i64(stateWidth), dst->ptr, dst->ld);
  return success();
}

LogicalResult PhaseEmitter::emitMatmul(MatmulOp matmul) {
  auto ref = matmul.getLhs().getDefiningOp<ParamRefOp>();
  if (!ref)
    return matmul.emitOpError("with a per-vertex matrix is not supported by "
                              "the ")
           << backendName() << " backend";
  auto type = cast<RankedTensorType>(ref.getType());
  int64_t m = type.getDimSize(0), k = type.getDimSize(1);
  FailureOr<Buffer> x = buffer(matmul.getRhs());
  FailureOr<Buffer> y = buffer(matmul.getResult());
  if (failed(x) || failed(y))
    return failure();
  Value weights = param(ref.getParam(), /*gradient=*/false);
  bool transposed = matmul.getTransposeLhs();
  // Y = X Wᵀ (rows × m), or DX = DY W (rows × k) for the transposed product.
  call<RuntimeOp::gemm>(i32(0), i32(transposed ? 0 : 1), field(CallField::rows),
                        i64(transposed ? k : m), i64(transposed ? m : k),
                        f32(1), x->ptr, x->ld, weights, i64(k), f32(0), y->ptr,
                        y->ld);
  return success();
}

LogicalResult PhaseEmitter::emitFused(FusedOp fused) {
  SmallVector<Value> operands;
  SmallVector<Value> buffers(fused.getInputs());
  llvm::append_range(buffers, fused.getResults());
  for (Value value : buffers) {
    FailureOr<Buffer> operand = buffer(value);
    if (failed(operand))
      return failure();
    operands.append({operand->ptr, operand->ld});
  }
  if (cudaKernels)
    return emitKernelLaunch(fused, operands);
  auto kernel = fused->getAttrOfType<FlatSymbolRefAttr>(kKernelAttrName);
  if (!kernel)
    return fused.emitOpError("has no kernel; build the kernels first");
  SmallVector<Value> arguments = {field(CallField::rows)};
  llvm::append_range(arguments, operands);
  b.create<func::CallOp>(loc, kernel.getValue(), TypeRange{}, arguments);
  return success();
}

LogicalResult PhaseEmitter::emitKernelLaunch(FusedOp fused,
                                             ValueRange operands) {
  auto number = cudaKernels->find(fused.getOperation());
  if (number == cudaKernels->end())
    return fused.emitOpError("has no CUDA kernel");
  // The operands go to the launch as an array of 8-byte values on the
  // stack of the phase function.
  Value args = b.create<LLVM::AllocaOp>(loc, ptrType, b.getI64Type(),
                                        i64(operands.size()));
  for (auto [i, operand] : llvm::enumerate(operands)) {
    Value bits = isa<LLVM::LLVMPointerType>(operand.getType())
                     ? b.create<LLVM::PtrToIntOp>(loc, b.getI64Type(), operand)
                     : operand;
    b.create<LLVM::StoreOp>(loc, bits, offset(args, i64(i), b.getI64Type()));
  }
  int64_t width = fused.getIterationType().getNumElements();
  call<RuntimeOp::launch>(i32(number->second), field(CallField::rows),
                          i64(width), args, i32(operands.size()));
  return success();
}

LogicalResult PhaseEmitter::emit(Operation *op) {
  loc = op->getLoc();
  // A whole-type call's state rows are contiguous only for arity 0 (one
  // task at level 0); see cavs_call::state_begin.
  if (isa<ScatterOp, StateGradOp>(op) && phaseKind != BatchingKind::body &&
      vertex.getArity() != 0)
    return op->emitOpError("runs outside the task order because vertex "
                           "function '")
           << vertex.getSymName() << "' never gathers; declare it with "
           << "arity 0";
  Value rows = field(CallField::rows);
  auto width = [](Value value) { return valueWidth(value.getType()); };
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](PullOp pull) -> LogicalResult {
        auto dst = buffer(pull.getResult());
        if (failed(dst))
          return failure();
        call<RuntimeOp::gather_rows>(
            rows, field(CallField::vertices),
            tableEntry(CallField::pulls, pullIndex(pull.getName())),
            i64(width(pull.getResult())), dst->ptr, dst->ld);
        return success();
      })
      .Case([&](PushOp push) -> LogicalResult {
        auto src = buffer(push.getValue());
        if (failed(src))
          return failure();
        call<RuntimeOp::scatter_rows>(
            rows, field(CallField::vertices), src->ptr, src->ld,
            tableEntry(CallField::pushes, pushIndex(push.getName())),
            i64(width(push.getValue())), i32(0));
        return success();
      })
      .Case([&](PushGradOp pushGrad) -> LogicalResult {
        auto dst = buffer(pushGrad.getResult());
        if (failed(dst))
          return failure();
        call<RuntimeOp::gather_rows>(
            rows, field(CallField::vertices),
            tableEntry(CallField::push_grads, pushIndex(pushGrad.getName())),
            i64(width(pushGrad.getResult())), dst->ptr, dst->ld);
        return success();
      })
      .Case([&](PullGradOp pullGrad) -> LogicalResult {
        auto src = buffer(pullGrad.getValue());
        if (failed(src))
          return failure();
        call<RuntimeOp::scatter_rows>(
            rows, field(CallField::vertices), src->ptr, src->ld,
            tableEntry(CallField::pull_grads, pullIndex(pullGrad.getName())),
            i64(width(pullGrad.getValue())), i32(1));
        return success();
      })
      .Case([&](GatherOp gather) { return emitGather(gather); })
      .Case([&](ScatterOp scatter) -> LogicalResult {
        auto src = buffer(scatter.getValue());
        if (failed(src))
          return failure();
        call<RuntimeOp::scatter>(rows, src->ptr, src->ld,
                                 stateRows(CallField::state), i64(stateWidth));
        return success();
      })
      .Case([&](StateGradOp stateGrad) { return emitStateGrad(stateGrad); })
      .Case([&](ChildGradOp childGrad) -> LogicalResult {
        auto src = buffer(childGrad.getValue());
        if (failed(src))
          return failure();
        call<RuntimeOp::child_grad>(
            rows, i64(0), i64(1), childRows(childGrad.getIndex()), src->ptr,
            src->ld, field(CallField::state_grad), i64(stateWidth));
        return success();
      })
      .Case<SplitOp, SliceOp>([&](Operation *part) -> LogicalResult {
        // Parts are views of their input; only a view input needs work.
        Value input = part->getOperand(0);
        auto view = views.find(input);
        if (view == views.end())
          return success();
        SlotAttr inputSlot = slotOf(input);
        for (Value result : part->getResults()) {
          SlotAttr resultSlot = slotOf(result);
          if (!inputSlot || !resultSlot)
            return part->emitOpError("has no memory slot");
          views[result] = {floats(view->second.ptr, resultSlot.getOffset() -
                                                        inputSlot.getOffset()),
                           view->second.ld};
        }
        return success();
      })
      .Case([&](ConcatOp concat) -> LogicalResult {
        auto dst = buffer(concat.getResult());
        if (failed(dst))
          return failure();
        int64_t column = 0;
        for (Value input : concat.getInputs()) {
          auto src = buffer(input);
          if (failed(src))
            return failure();
          call<RuntimeOp::copy_rows>(rows, i64(width(input)), src->ptr, src->ld,
                                     floats(dst->ptr, column), dst->ld);
          column += width(input);
        }
        return success();
      })
      .Case([&](PadOp pad) -> LogicalResult {
        auto src = buffer(pad.getInput());
        auto dst = buffer(pad.getResult());
        if (failed(src) || failed(dst))
          return failure();
        call<RuntimeOp::zero_rows>(rows, i64(width(pad.getResult())), dst->ptr,
                                   dst->ld);
        call<RuntimeOp::copy_rows>(rows, i64(width(pad.getInput())), src->ptr,
                                   src->ld, floats(dst->ptr, pad.getOffset()),
                                   dst->ld);
        return success();
      })
      .Case([&](FusedOp fused) { return emitFused(fused); })
      .Case([&](MatmulOp matmul) { return emitMatmul(matmul); })
      .Case([&](ParamGradOp paramGrad) -> LogicalResult {
        auto src = buffer(paramGrad.getValue());
        if (failed(src))
          return failure();
        call<RuntimeOp::column_sum>(
            rows, i64(width(paramGrad.getValue())), src->ptr, src->ld,
            param(paramGrad.getParam(), /*gradient=*/true));
        return success();
      })
      .Case([&](ParamGradOuterOp outer) -> LogicalResult {
        auto dy = buffer(outer.getDy());
        auto x = buffer(outer.getX());
        if (failed(dy) || failed(x))
          return failure();
        int64_t m = width(outer.getDy()), k = width(outer.getX());
        // dW[m×k] += DYᵀ X over the call's rows.
        call<RuntimeOp::gemm>(i32(1), i32(0), i64(m), i64(k), rows, f32(1),
                              dy->ptr, dy->ld, x->ptr, x->ld, f32(1),
                              param(outer.getParam(), /*gradient=*/true),
                              i64(k));
        return success();
      })
      .Case([&](LookupOp lookup) -> LogicalResult {
        auto index = buffer(lookup.getIndex());
        auto table = buffer(lookup.getTable());
        auto dst = buffer(lookup.getResult());
        if (failed(index) || failed(table) || failed(dst))
          return failure();
        auto type = cast<RankedTensorType>(lookup.getTable().getType());
        callChecked<RuntimeOp::lookup>(
            rows, index->ptr, index->ld, table->ptr, i64(type.getDimSize(0)),
            i64(type.getDimSize(1)), dst->ptr, dst->ld);
        return success();
      })
      .Case([&](LookupGradOp lookupGrad) -> LogicalResult {
        auto index = buffer(lookupGrad.getIndex());
        auto src = buffer(lookupGrad.getValue());
        if (failed(index) || failed(src))
          return failure();
        StringRef table = lookupGrad.getParam();
        ParamOp tableParam = order.params[order.paramIndex(table)];
        auto type = tableParam.getType();
        callChecked<RuntimeOp::lookup_grad>(
            rows, index->ptr, index->ld, src->ptr, src->ld,
            param(table, /*gradient=*/true), i64(type.getDimSize(0)),
            i64(type.getDimSize(1)));
        callChecked<RuntimeOp::mark_rows>(field(CallField::grad_store),
                                          i32(order.paramIndex(table)), rows,
                                          index->ptr, index->ld);
        return success();
      })
      .Case([&](SoftmaxOp softmax) -> LogicalResult {
        auto src = buffer(softmax.getOperand());
        auto dst = buffer(softmax.getResult());
        if (failed(src) || failed(dst))
          return failure();
        call<RuntimeOp::softmax>(rows, i64(width(softmax.getResult())),
                                 src->ptr, src->ld, dst->ptr, dst->ld);
        return success();
      })
      .Case([&](SoftmaxCrossEntropyOp loss) -> LogicalResult {
        auto logits = buffer(loss.getLogits());
        auto labels = buffer(loss.getLabel());
        auto dst = buffer(loss.getResult());
        if (failed(logits) || failed(labels) || failed(dst))
          return failure();
        callChecked<RuntimeOp::softmax_cross_entropy>(
            rows, i64(width(loss.getLogits())), logits->ptr, logits->ld,
            labels->ptr, labels->ld, dst->ptr, dst->ld);
        return success();
      })
      .Case([&](SoftmaxCrossEntropyGradOp grad) -> LogicalResult {
        auto logits = buffer(grad.getLogits());
        auto labels = buffer(grad.getLabel());
        auto seed = buffer(grad.getGrad());
        auto dst = buffer(grad.getResult());
        if (failed(logits) || failed(labels) || failed(seed) || failed(dst))
          return failure();
        callChecked<RuntimeOp::softmax_cross_entropy_grad>(
            rows, i64(width(grad.getLogits())), logits->ptr, logits->ld,
            labels->ptr, labels->ld, seed->ptr, seed->ld, dst->ptr, dst->ld);
        return success();
      })
      .Case([&](LossOp loss) -> LogicalResult {
        auto src = buffer(loss.getValue());
        if (failed(src))
          return failure();
        call<RuntimeOp::loss_sum>(rows, src->ptr, src->ld,
                                  field(CallField::loss));
        return success();
      })
      .Default([&](Operation *other) -> LogicalResult {
        return other->emitOpError("cannot be compiled by the ")
               << backendName() << " backend";
      });
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

FailureOr<std::string> PhaseEmitter::build(Block &block, BatchingKind kind,
                                           StringRef name) {
  SmallVector<Operation *> ops;
  for (Operation &op : block)
    if (isBatchedOp(&op) && batchingOf(&op) == kind)
      ops.push_back(&op);
  if (ops.empty())
    return std::string();

  phaseBlock = &block;
  phaseKind = kind;
  views.clear();
  fields.clear();
  b.setInsertionPointToEnd(target.getBody());
  auto function = b.create<func::FuncOp>(
      vertex.getLoc(), name, b.getFunctionType({ptrType}, {b.getI32Type()}));
  Block *entry = function.addEntryBlock();
  callArg = entry->getArgument(0);
  exitBlock = new Block();
  exitBlock->addArgument(b.getI32Type(), vertex.getLoc());
  function.getBody().push_back(exitBlock);
  b.setInsertionPointToEnd(exitBlock);
  b.create<func::ReturnOp>(vertex.getLoc(), exitBlock->getArgument(0));

  // The entry block only loads the call's fields, then jumps to the code.
  Block *code = b.createBlock(exitBlock);
  b.setInsertionPointToEnd(entry);
  b.create<cf::BranchOp>(vertex.getLoc(), code);
  b.setInsertionPointToEnd(code);
  for (Operation *op : ops)
    if (failed(emit(op))) {
      function.erase();
      return failure();
    }
  b.create<cf::BranchOp>(vertex.getLoc(), exitBlock, ValueRange{i32(0)});
  return name.str();
}

namespace {
/// The phase functions of every vertex function of `model`, for the CPU
/// (cudaKernels null) or CUDA.
FailureOr<std::vector<VertexFunctionSymbols>>
buildPhases(ModelOp model, const ParamOrder &order, ModuleOp target,
            StringRef prefix, const CudaKernelIndex *cudaKernels) {
  RankedTensorType state = model.getStateType();
  int64_t stateWidth = state ? state.getNumElements() : 0;

  std::vector<VertexFunctionSymbols> symbols;
  for (auto vertex : model.getBody().getOps<VertexOp>()) {
    if (!vertex->hasAttr(CavsDialect::kArenaWidthAttrName))
      return vertex.emitOpError(
          "has no memory plan; run cavs-plan-memory first");
    std::string base = (prefix + "_" + vertex.getSymName()).str();
    PhaseEmitter emitter(target, vertex, order, stateWidth, base, cudaKernels);
    VertexFunctionSymbols entry{vertex, {}};
    BackwardOp backward = vertex.getBackward();
    for (auto [i, phase] : llvm::enumerate(kPhaseNames)) {
      bool isBackward = i >= 3;
      if (isBackward && !backward)
        continue;
      Block &block =
          isBackward ? backward.getBody().front() : vertex.getBody().front();
      auto kind = static_cast<BatchingKind>(i % 3);
      FailureOr<std::string> name =
          emitter.build(block, kind, base + "_" + phase.str());
      if (failed(name))
        return failure();
      entry.phases[i] = *name;
    }
    symbols.push_back(std::move(entry));
  }
  return symbols;
}
} // namespace

static void loadCodeDialects(MLIRContext *context) {
  context->loadDialect<arith::ArithDialect, cf::ControlFlowDialect,
                       func::FuncDialect, LLVM::LLVMDialect, math::MathDialect,
                       scf::SCFDialect>();
}

FailureOr<std::vector<VertexFunctionSymbols>>
cavs::buildPhaseFunctions(ModelOp model, const ParamOrder &order,
                          ModuleOp target, StringRef prefix) {
  loadCodeDialects(target.getContext());
  if (failed(buildModelKernels(model, target, prefix)))
    return failure();
  return buildPhases(model, order, target, prefix, /*cudaKernels=*/nullptr);
}

FailureOr<std::vector<VertexFunctionSymbols>>
cavs::buildCudaPhaseFunctions(ModelOp model, const ParamOrder &order,
                              ModuleOp target, StringRef prefix,
                              const CudaKernelIndex &kernels) {
  loadCodeDialects(target.getContext());
  return buildPhases(model, order, target, prefix, &kernels);
}
