//===- RuntimeLowering.cpp - buffers, call fields and runtime calls -------===//
//
// Buffers are built from raw pointers as LLVM memref descriptors behind an
// unrealized cast, and read back with the memref dialect's metadata ops:
// both sides fold away in the lowering to LLVM, so the printed IR can speak
// of strided memrefs at no run-time cost.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/RuntimeLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace cavs;

MemRefType cavs::bufferType(Type valueType) {
  MLIRContext *context = valueType.getContext();
  Type element =
      valueType.isInteger(32) ? valueType : Type(Float32Type::get(context));
  auto layout = StridedLayoutAttr::get(context, ShapedType::kDynamic,
                                       {ShapedType::kDynamic, 1});
  return MemRefType::get({ShapedType::kDynamic, valueWidth(valueType)}, element,
                         layout);
}

BufferTypeConverter::BufferTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion([](RankedTensorType type) -> Type { return bufferType(type); });
  addConversion([](IntegerType type) -> std::optional<Type> {
    if (type.isInteger(32))
      return Type(bufferType(type));
    return std::nullopt;
  });
}

FailureOr<Device> cavs::parseDevice(ModuleOp module, StringRef name) {
  if (name == "cpu")
    return Device::CPU;
  if (name == "cuda")
    return Device::CUDA;
  return module.emitError("unknown device '") << name << "' (cpu or cuda)";
}

bool cavs::readLater(Value value) {
  for (Operation *user : value.getUsers()) {
    if (isa<YieldOp>(user))
      return true;
    if (isa<SplitOp, SliceOp>(user) &&
        llvm::any_of(user->getResults(), readLater))
      return true;
  }
  return false;
}

PhaseLowering::PhaseLowering(ModuleOp module, VertexOp vertex,
                             const ParamOrder &order, Device device,
                             StringRef symbolPrefix)
    : device(device), vertex(vertex), order(order), module(module),
      symbolPrefix(symbolPrefix.str()) {
  RankedTensorType state = vertex.getModel().getStateType();
  stateWidth = state ? state.getNumElements() : 0;
  arenaBlocks = cavs::arenaBlocks(vertex);
  scratchFloats =
      vertex->getAttrOfType<IntegerAttr>(CavsDialect::kScratchWidthAttrName)
          .getInt();
}

void PhaseLowering::begin(func::FuncOp function, Block *exit) {
  callArg = function.getArgument(0);
  this->exit = exit;
  fields.clear();
  spaces.clear();
  blockBuffers.assign(arenaBlocks.size(), Value());
}

std::string cavs::phaseFunctionName(StringRef prefix, VertexOp vertex,
                                    unsigned phase) {
  return (prefix + "_" + vertex.getSymName() + "_" + kPhaseNames[phase]).str();
}

//===----------------------------------------------------------------------===//
// Scalars, fields
//===----------------------------------------------------------------------===//

Value PhaseLowering::i64(OpBuilder &b, Location loc, int64_t v) {
  return b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(v));
}

Value PhaseLowering::i32(OpBuilder &b, Location loc, int64_t v) {
  return b.create<arith::ConstantOp>(loc, b.getI32IntegerAttr(v));
}

Value PhaseLowering::f32(OpBuilder &b, Location loc, float v) {
  return b.create<arith::ConstantOp>(loc, b.getF32FloatAttr(v));
}

Value PhaseLowering::floats(OpBuilder &b, Location loc, Value ptr,
                            Value elements) {
  return b.create<LLVM::GEPOp>(loc, LLVM::LLVMPointerType::get(b.getContext()),
                               b.getF32Type(), ptr, ValueRange{elements});
}

Value PhaseLowering::field(OpBuilder &b, CallField index) {
  // Loaded once in the entry block, so that every later block sees them.
  int32_t key = static_cast<int32_t>(index);
  if (Value cached = fields.lookup(key))
    return cached;
  OpBuilder::InsertionGuard guard(b);
  Block *entry = callArg.getParentBlock();
  b.setInsertionPoint(entry->getTerminator());
  Location loc = callArg.getLoc();
  Value address = b.create<LLVM::GEPOp>(
      loc, LLVM::LLVMPointerType::get(b.getContext()), b.getI64Type(), callArg,
      ArrayRef<LLVM::GEPArg>{key});
  Value value = b.create<LLVM::LoadOp>(
      loc, abi::callFieldType(index, b.getContext()), address);
  fields[key] = value;
  return value;
}

Value PhaseLowering::tableEntry(OpBuilder &b, Location loc, CallField table,
                                int64_t index) {
  Type ptrType = LLVM::LLVMPointerType::get(b.getContext());
  Value address = b.create<LLVM::GEPOp>(loc, ptrType, ptrType, field(b, table),
                                        ArrayRef<LLVM::GEPArg>{int32_t(index)});
  return b.create<LLVM::LoadOp>(loc, ptrType, address);
}

Value PhaseLowering::stateRows(OpBuilder &b, Location loc, CallField buffer) {
  Value begin = b.create<arith::MulIOp>(loc, field(b, CallField::state_begin),
                                        i64(b, loc, stateWidth));
  return floats(b, loc, field(b, buffer), begin);
}

Value PhaseLowering::childRows(OpBuilder &b, Location loc, int64_t k) {
  Value offset = b.create<arith::MulIOp>(loc, i64(b, loc, k), rows(b));
  return b.create<LLVM::GEPOp>(loc, LLVM::LLVMPointerType::get(b.getContext()),
                               b.getI32Type(), field(b, CallField::children),
                               ValueRange{offset});
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

Value PhaseLowering::buffer(OpBuilder &b, Location loc, Value pointer, Value ld,
                            Type valueType) {
  return buffer(b, loc, pointer, ld, valueWidth(valueType),
                bufferType(valueType));
}

Value PhaseLowering::buffer(OpBuilder &b, Location loc, Value pointer, Value ld,
                            int64_t columns, MemRefType type) {
  // The LLVM form of a 2-D strided memref: allocated and aligned pointer,
  // offset, sizes, strides.
  MLIRContext *context = b.getContext();
  Type i64Type = b.getI64Type();
  auto array = LLVM::LLVMArrayType::get(i64Type, 2);
  Type ptrType = LLVM::LLVMPointerType::get(context);
  auto descriptorType = LLVM::LLVMStructType::getLiteral(
      context, {ptrType, ptrType, i64Type, array, array});
  Value descriptor = b.create<LLVM::UndefOp>(loc, descriptorType);
  auto insert = [&](Value value, ArrayRef<int64_t> position) {
    descriptor =
        b.create<LLVM::InsertValueOp>(loc, descriptor, value, position);
  };
  insert(pointer, {0});
  insert(pointer, {1});
  insert(i64(b, loc, 0), {2});
  insert(rows(b), {3, 0});
  insert(i64(b, loc, columns), {3, 1});
  insert(ld, {4, 0});
  insert(i64(b, loc, 1), {4, 1});
  return b.create<UnrealizedConversionCastOp>(loc, type, descriptor)
      .getResult(0);
}

Value PhaseLowering::spaceBuffer(OpBuilder &b, SlotSpace space) {
  // Built once in the entry block, like the fields.
  int64_t key = static_cast<int64_t>(space);
  if (Value cached = spaces.lookup(key))
    return cached;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(callArg.getParentBlock()->getTerminator());
  Location loc = callArg.getLoc();
  int64_t width = 0;
  Value rows;
  switch (space) {
  case SlotSpace::arena:
    llvm_unreachable("arena slots are in arena blocks");
  case SlotSpace::scratch:
    width = scratchFloats;
    rows = field(b, CallField::scratch);
    break;
  case SlotSpace::state:
    width = stateWidth;
    rows = stateRows(b, loc, CallField::state);
    break;
  }
  // The layout stays dynamic, like every buffer's, so that subviews of it
  // have the buffer type.
  auto f32 = RankedTensorType::get({width}, b.getF32Type());
  Value value = buffer(b, loc, rows, i64(b, loc, width), f32);
  spaces[key] = value;
  return value;
}

Value PhaseLowering::arenaBlockBuffer(OpBuilder &b, size_t index) {
  // Built once in the entry block, like the fields.
  if (Value cached = blockBuffers[index])
    return cached;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(callArg.getParentBlock()->getTerminator());
  Location loc = callArg.getLoc();
  const ArenaBlock &block = arenaBlocks[index];
  // The block's matrix starts `offset` floats per vertex of the type into
  // the arena; the call's rows start `arena_row` of its rows into that.
  Value blockBegin = b.create<arith::MulIOp>(
      loc, field(b, CallField::arena_rows), i64(b, loc, block.offset));
  Value rowBegin = b.create<arith::MulIOp>(
      loc, field(b, CallField::arena_row), i64(b, loc, block.stride));
  Value pointer =
      floats(b, loc, field(b, CallField::arena),
             b.create<arith::AddIOp>(loc, blockBegin, rowBegin));
  auto f32 = RankedTensorType::get({block.width}, b.getF32Type());
  Value value = buffer(b, loc, pointer, i64(b, loc, block.stride), f32);
  blockBuffers[index] = value;
  return value;
}

Value PhaseLowering::columns(OpBuilder &b, Location loc, Value buffer,
                             int64_t start, Type valueType) {
  Value rowCount = b.create<arith::IndexCastOp>(loc, b.getIndexType(), rows(b));
  return b.create<memref::SubViewOp>(
      loc, bufferType(valueType), buffer,
      ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(start)},
      ArrayRef<OpFoldResult>{rowCount, b.getIndexAttr(valueWidth(valueType))},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
}

SlotAttr PhaseLowering::slotOf(Value value) {
  auto result = dyn_cast<OpResult>(value);
  if (!result)
    return nullptr;
  if (auto phase = dyn_cast<PhaseOp>(result.getOwner()))
    return slotOf(phase.getYield().getValues()[result.getResultNumber()]);
  return cavs::slotOf(value);
}

FailureOr<Value> PhaseLowering::slotBuffer(OpBuilder &b, Value value) {
  return slotBuffer(b, value, slotOf(value));
}

FailureOr<Value> PhaseLowering::slotBuffer(OpBuilder &b, Value value,
                                           SlotAttr slot) {
  if (!slot) {
    if (Operation *definer = value.getDefiningOp())
      return definer->emitOpError(
          "has no memory slot for its result; run cavs-plan-memory first");
    return emitError(value.getLoc(), "a block argument has no memory slot");
  }
  Location loc = value.getLoc();
  // The slot's columns of its space, or of its arena block.
  Value space;
  int64_t start = slot.getOffset();
  if (slot.getSpace() == SlotSpace::arena) {
    const ArenaBlock *block = llvm::upper_bound(
        arenaBlocks, start, [](int64_t column, const ArenaBlock &block) {
          return column < block.first;
        });
    // Every arena slot of the vertex is in a block (arenaBlocks).
    assert(block != arenaBlocks.begin() && "an arena slot in no block");
    --block;
    space = arenaBlockBuffer(b, block - arenaBlocks.begin());
    start -= block->first;
  } else {
    space = spaceBuffer(b, slot.getSpace());
  }
  if (!value.getType().isInteger(32))
    return columns(b, loc, space, start, value.getType());
  // An i32 value (an id or label) lives in a float column.
  Value pointer = floats(b, loc, pointerOf(b, loc, space), i64(b, loc, start));
  return buffer(b, loc, pointer, leadingDimension(b, loc, space),
                value.getType());
}

Value PhaseLowering::pointerOf(OpBuilder &b, Location loc, Value buffer) {
  auto metadata = b.create<memref::ExtractStridedMetadataOp>(loc, buffer);
  Value aligned = b.create<memref::ExtractAlignedPointerAsIndexOp>(loc, buffer);
  Type ptrType = LLVM::LLVMPointerType::get(b.getContext());
  Value pointer = b.create<LLVM::IntToPtrOp>(
      loc, ptrType, b.create<arith::IndexCastOp>(loc, b.getI64Type(), aligned));
  Value offset =
      b.create<arith::IndexCastOp>(loc, b.getI64Type(), metadata.getOffset());
  Type element = cast<MemRefType>(buffer.getType()).getElementType();
  return b.create<LLVM::GEPOp>(loc, ptrType, element, pointer,
                               ValueRange{offset});
}

Value PhaseLowering::leadingDimension(OpBuilder &b, Location loc,
                                      Value buffer) {
  auto metadata = b.create<memref::ExtractStridedMetadataOp>(loc, buffer);
  return b.create<arith::IndexCastOp>(loc, b.getI64Type(),
                                      metadata.getStrides()[0]);
}

Value PhaseLowering::constantArray(OpBuilder &b, Location loc,
                                   DenseElementsAttr values) {
  auto flat = RankedTensorType::get({values.getNumElements()}, b.getF32Type());
  auto type = LLVM::LLVMArrayType::get(b.getF32Type(), flat.getNumElements());
  std::string name = symbolPrefix + "_" + vertex.getSymName().str() + "_c" +
                     std::to_string(numConstants++);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    b.create<LLVM::GlobalOp>(loc, type, /*isConstant=*/true,
                             LLVM::Linkage::Internal, name,
                             values.reshape(flat));
  }
  Type ptrType = LLVM::LLVMPointerType::get(b.getContext());
  Value address = b.create<LLVM::AddressOfOp>(loc, ptrType, name);
  // The device's copy (the array itself on the CPU).
  return call<RuntimeOp::constant>(b, loc, address,
                                   i64(b, loc, flat.getNumElements()));
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

void PhaseLowering::returnOnFailure(ConversionPatternRewriter &rewriter,
                                    Location loc, Value status) {
  Value failed = rewriter.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne,
                                                status, i32(rewriter, loc, 0));
  Block *current = rewriter.getInsertionBlock();
  Block *next = rewriter.splitBlock(current, rewriter.getInsertionPoint());
  rewriter.setInsertionPointToEnd(current);
  rewriter.create<cf::CondBranchOp>(loc, failed, exit, ValueRange{status}, next,
                                    ValueRange{});
  rewriter.setInsertionPointToStart(next);
}
