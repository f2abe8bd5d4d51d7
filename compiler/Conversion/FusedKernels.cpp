//===- FusedKernels.cpp - cavs.fused regions as CPU loop kernels ----------===//
//
// Two nested scf.for loops (rows, then columns) around the region's ops,
// rewritten elementwise on f32 scalars. The inner loop has unit stride over
// every operand, which is what LLVM's loop vectorizer needs. A reduction is
// an accumulator the column loop carries (from 0 for a sum, -inf for a
// maximum), stored after it: the columns are added in order, as the
// reference evaluator does. The rows form offsets each operand to the
// range's first row and calls the kernel, which LLVM inlines into it.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/FusedKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace cavs;

namespace {
/// Emits the scalar computation of one element.
class ElementEmitter {
public:
  ElementEmitter(OpBuilder &builder, Location loc) : b(builder), loc(loc) {}

  /// The f32 value of `op`'s result, given its operands' element values.
  /// A constant is a leaf, like an input; every other op says what it
  /// computes through its ElementwiseOpInterface.
  FailureOr<Value> emit(Operation *op, ArrayRef<Value> x) {
    if (auto constant = dyn_cast<ConstantOp>(op)) {
      if (std::optional<float> splat = constant.getSplatFloat())
        return f32(*splat);
      return constant.emitOpError(
          "only splat constants can be compiled into a CPU kernel");
    }
    auto elementwise = dyn_cast<ElementwiseOpInterface>(op);
    if (!elementwise)
      return op->emitOpError("cannot be compiled into a CPU kernel");
    return elementwise.buildScalar(b, loc, x);
  }

  /// The value a reduction's accumulator starts from.
  Value initial(Operation *reduction) {
    return f32(cast<ReductionOpInterface>(reduction).getIdentity());
  }

private:
  Value f32(float value) {
    return b.create<arith::ConstantOp>(loc, b.getF32FloatAttr(value));
  }

  OpBuilder &b;
  Location loc;
};

/// Appends `kernel`'s rows form (FusedKernels.h) to `target`: it loads
/// each buffer's pointer and leading dimension from the packed operands,
/// moves the pointer to row `begin` and calls the kernel on end - begin
/// rows.
void buildRowsForm(func::FuncOp kernel, unsigned numBuffers, ModuleOp target) {
  MLIRContext *context = target.getContext();
  OpBuilder b(context);
  Location loc = kernel.getLoc();
  Type i64 = b.getI64Type(), ptr = LLVM::LLVMPointerType::get(context);
  Type f32 = b.getF32Type();
  b.setInsertionPointToEnd(target.getBody());
  auto rowsForm = b.create<func::FuncOp>(
      loc, rowsKernelName(kernel.getSymName()), rowsKernelType(context));
  Block *entry = rowsForm.addEntryBlock();
  b.setInsertionPointToStart(entry);
  Value begin = entry->getArgument(0), args = entry->getArgument(2);
  SmallVector<Value> operands = {
      b.create<arith::SubIOp>(loc, entry->getArgument(1), begin)};
  for (unsigned i = 0; i < 2 * numBuffers; i += 2) {
    auto slot = [&](unsigned index) {
      return b.create<LLVM::GEPOp>(loc, ptr, i64, args,
                                   ArrayRef<LLVM::GEPArg>{int32_t(index)});
    };
    Value base = b.create<LLVM::LoadOp>(loc, ptr, slot(i));
    Value ld = b.create<LLVM::LoadOp>(loc, i64, slot(i + 1));
    Value offset = b.create<arith::MulIOp>(loc, begin, ld);
    operands.push_back(
        b.create<LLVM::GEPOp>(loc, ptr, f32, base, ValueRange{offset}));
    operands.push_back(ld);
  }
  b.create<func::CallOp>(loc, kernel, operands);
  b.create<func::ReturnOp>(loc);
}
} // namespace

std::string cavs::rowsKernelName(StringRef kernel) {
  return (kernel + "_rows").str();
}

FunctionType cavs::rowsKernelType(MLIRContext *context) {
  Type i64 = IntegerType::get(context, 64);
  return FunctionType::get(context,
                           {i64, i64, LLVM::LLVMPointerType::get(context)}, {});
}

FailureOr<func::FuncOp> cavs::buildFusedKernel(FusedOp fused, ModuleOp target,
                                               StringRef name) {
  MLIRContext *context = target.getContext();
  OpBuilder b(context);
  Location loc = fused.getLoc();
  Type i64 = b.getI64Type(), ptr = LLVM::LLVMPointerType::get(context);
  Type f32 = b.getF32Type();

  // Signature: rows, then (pointer, leading dimension) per input and output.
  SmallVector<Type> arguments = {i64};
  unsigned numBuffers = fused.getInputs().size() + fused.getNumResults();
  for (unsigned i = 0; i < numBuffers; ++i)
    arguments.append({ptr, i64});
  b.setInsertionPointToEnd(target.getBody());
  auto kernel = b.create<func::FuncOp>(loc, name,
                                       b.getFunctionType(arguments, {}));
  for (unsigned i = 0; i < numBuffers; ++i)
    kernel.setArgAttr(1 + 2 * i, LLVM::LLVMDialect::getNoAliasAttrName(),
                      b.getUnitAttr());
  Block *entry = kernel.addEntryBlock();
  b.setInsertionPointToStart(entry);

  int64_t width = fused.getIterationType().getNumElements();
  auto index = [&](Value v) {
    return b.create<arith::IndexCastOp>(loc, b.getIndexType(), v).getResult();
  };
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  Value rows = index(entry->getArgument(0));
  Value columns = b.create<arith::ConstantIndexOp>(loc, width);
  auto rowLoop = b.create<scf::ForOp>(loc, zero, rows, one);
  b.setInsertionPointToStart(rowLoop.getBody());
  Value row = rowLoop.getInductionVar();

  Block &body = fused.getBody().front();
  ElementEmitter emitter(b, loc);
  SmallVector<Operation *> reductions;
  SmallVector<Value> initials;
  for (Operation &op : body)
    if (op.hasTrait<cavs::OpTrait::Reduction>()) {
      reductions.push_back(&op);
      initials.push_back(emitter.initial(&op));
    }
  auto colLoop = b.create<scf::ForOp>(loc, zero, columns, one, initials);
  b.setInsertionPointToStart(colLoop.getBody());
  Value column = colLoop.getInductionVar();

  // The address of element (row, column) of buffer i; a scalar input's
  // column is always 0.
  auto element = [&](unsigned buffer, bool scalar) {
    Value base = entry->getArgument(1 + 2 * buffer);
    Value ld = index(entry->getArgument(2 + 2 * buffer));
    Value offset = b.create<arith::MulIOp>(loc, row, ld);
    if (!scalar)
      offset = b.create<arith::AddIOp>(loc, offset, column);
    Value offset64 = b.create<arith::IndexCastOp>(loc, i64, offset);
    return b.create<LLVM::GEPOp>(loc, ptr, f32, base, ValueRange{offset64})
        .getResult();
  };

  llvm::DenseMap<Value, Value> elementOf;
  for (auto [i, argument] : llvm::enumerate(body.getArguments())) {
    bool scalar = cast<RankedTensorType>(argument.getType()).getRank() == 0 &&
                  width != 1;
    elementOf[argument] = b.create<LLVM::LoadOp>(loc, f32, element(i, scalar));
  }
  SmallVector<Value> accumulated;
  for (Operation &op : body.without_terminator()) {
    SmallVector<Value> operands;
    if (op.hasTrait<cavs::OpTrait::Reduction>())
      operands.push_back(colLoop.getRegionIterArg(accumulated.size()));
    for (Value operand : op.getOperands())
      operands.push_back(elementOf.lookup(operand));
    FailureOr<Value> result = emitter.emit(&op, operands);
    if (failed(result)) {
      kernel.erase();
      return failure();
    }
    if (op.hasTrait<cavs::OpTrait::Reduction>())
      accumulated.push_back(*result);
    else
      elementOf[op.getResult(0)] = *result;
  }
  unsigned firstOutput = fused.getInputs().size();
  for (auto [i, yielded] :
       llvm::enumerate(body.getTerminator()->getOperands()))
    if (Value value = elementOf.lookup(yielded))
      b.create<LLVM::StoreOp>(loc, value,
                              element(firstOutput + i, /*scalar=*/false));
  // Without accumulators the loop already ends in its scf.yield.
  if (!reductions.empty())
    b.create<scf::YieldOp>(loc, accumulated);

  // The reductions' results: one column per row.
  b.setInsertionPointAfter(colLoop);
  for (auto [i, yielded] :
       llvm::enumerate(body.getTerminator()->getOperands())) {
    auto *position = llvm::find(reductions, yielded.getDefiningOp());
    if (position != reductions.end())
      b.create<LLVM::StoreOp>(
          loc, colLoop.getResult(position - reductions.begin()),
          element(firstOutput + i, /*scalar=*/true));
  }

  b.setInsertionPointToEnd(entry);
  b.create<func::ReturnOp>(loc);
  buildRowsForm(kernel, numBuffers, target);
  return kernel;
}

LogicalResult
cavs::forEachModelKernel(ModelOp model, StringRef prefix,
                         function_ref<LogicalResult(FusedOp, StringRef)> fn) {
  for (auto vertex : model.getBody().getOps<VertexOp>()) {
    unsigned count = 0;
    WalkResult walk = vertex.walk([&](FusedOp fused) {
      std::string name =
          (prefix + "_" + vertex.getSymName() + "_k" + Twine(count++)).str();
      return failed(fn(fused, name)) ? WalkResult::interrupt()
                                     : WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
  }
  return success();
}

LogicalResult cavs::buildModelKernels(ModelOp model, ModuleOp target,
                                      StringRef prefix) {
  return forEachModelKernel(model, prefix, [&](FusedOp fused, StringRef name) {
    if (failed(buildFusedKernel(fused, target, name)))
      return failure();
    fused->setAttr(kKernelAttrName,
                   FlatSymbolRefAttr::get(fused.getContext(), name));
    return success();
  });
}
