//===- CavsDialect.cpp - registration of the cavs dialect -----------------===//
//
// Registers the ops and attributes of the dialect and pulls in the
// generated enum and attribute code.
//
//===----------------------------------------------------------------------===//

#include "dialects/CavsDialect.h"
#include "dialects/CavsOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace cavs;

#include "dialects/CavsDialect.cpp.inc"
#include "dialects/CavsEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/CavsAttributes.cpp.inc"

void CavsDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/CavsAttributes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialects/CavsOps.cpp.inc"
      >();
}

Operation *CavsDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  auto elements = dyn_cast<DenseElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return builder.create<ConstantOp>(loc, elements);
}

/// The memory plan's attributes: a lowering trusts them to address memory.
static LogicalResult verifyPlanAttribute(Operation *op,
                                         NamedAttribute attribute) {
  StringRef name = attribute.getName();
  if (name == CavsDialect::kArenaWidthAttrName ||
      name == CavsDialect::kScratchWidthAttrName) {
    auto width = dyn_cast<IntegerAttr>(attribute.getValue());
    if (!isa<VertexOp>(op) || !width || width.getInt() < 0)
      return op->emitOpError("expects '")
             << name << "' to be a non-negative integer on a cavs.vertex";
    return success();
  }
  auto slots = dyn_cast<ArrayAttr>(attribute.getValue());
  if (!slots || slots.size() != op->getNumResults())
    return op->emitOpError("expects '")
           << name << "' to list one #cavs.slot per result";
  auto vertex = op->getParentOfType<VertexOp>();
  for (auto [slotAttr, result] : llvm::zip(slots, op->getResults())) {
    auto slot = dyn_cast<SlotAttr>(slotAttr);
    if (!slot || slot.getOffset() < 0 ||
        slot.getSize() != valueWidth(result.getType()))
      return op->emitOpError("expects a #cavs.slot of ")
             << valueWidth(result.getType())
             << " columns at a non-negative offset for each result, got "
             << slotAttr;
    int64_t width = -1;
    if (slot.getSpace() == SlotSpace::state) {
      RankedTensorType state =
          vertex ? vertex.getModel().getStateType() : nullptr;
      width = state ? state.getNumElements() : 0;
    } else if (vertex) {
      StringRef widthName = slot.getSpace() == SlotSpace::arena
                                ? CavsDialect::kArenaWidthAttrName
                                : CavsDialect::kScratchWidthAttrName;
      if (auto attr = vertex->getAttrOfType<IntegerAttr>(widthName))
        width = attr.getInt();
    }
    if (width >= 0 && !rangeFits(slot.getOffset(), slot.getSize(), width))
      return op->emitOpError("has a slot ")
             << slot << " past the " << width << " columns of its "
             << stringifySlotSpace(slot.getSpace());
  }
  return success();
}

LogicalResult CavsDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attribute) {
  if (attribute.getName() == kSlotsAttrName ||
      attribute.getName() == kArenaWidthAttrName ||
      attribute.getName() == kScratchWidthAttrName)
    return verifyPlanAttribute(op, attribute);
  if (attribute.getName() != kBatchingAttrName)
    return success();
  if (!isa<BatchingKindAttr>(attribute.getValue()))
    return op->emitOpError("expects '")
           << kBatchingAttrName << "' to be a #cavs.batching, got "
           << attribute.getValue();
  if (!isa_and_nonnull<VertexOp, BackwardOp>(op->getParentOp()))
    return op->emitOpError("may not carry '")
           << kBatchingAttrName << "': only ops of F and ∂F have a class";
  return success();
}
