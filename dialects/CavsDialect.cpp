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

Operation *CavsDialect::materializeConstant(OpBuilder &builder,
                                            Attribute value, Type type,
                                            Location loc) {
  auto elements = dyn_cast<DenseElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return builder.create<ConstantOp>(loc, elements);
}

LogicalResult CavsDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attribute) {
  if (attribute.getName() != kBatchingAttrName)
    return success();
  if (!isa<BatchingKindAttr>(attribute.getValue()))
    return op->emitOpError("expects '")
           << kBatchingAttrName << "' to be a #cavs.batching, got "
           << attribute.getValue();
  if (!isa_and_nonnull<VertexOp, BackwardOp>(op->getParentOp()))
    return op->emitOpError("may not carry '")
           << kBatchingAttrName << "': only ops of F and ∂F have a class";
  // Classification is all or nothing: a lowering must never guess a class.
  Block *block = op->getBlock();
  auto vertex = op->getParentOfType<VertexOp>();
  auto unclassified = [&](Block &ops) -> Operation * {
    for (Operation &other : ops)
      if (isBatchedOp(&other) && !other.hasAttr(kBatchingAttrName))
        return &other;
    return nullptr;
  };
  // Checked once per block, at its first classified op.
  for (Operation &other : *block) {
    if (&other != op && other.hasAttr(kBatchingAttrName))
      return success();
    if (&other == op)
      break;
  }
  SmallVector<Block *, 2> blocks = {&vertex.getBody().front()};
  if (BackwardOp backward = vertex.getBackward())
    blocks.push_back(&backward.getBody().front());
  for (Block *ops : blocks)
    if (Operation *other = unclassified(*ops))
      return other->emitOpError("has no '")
             << kBatchingAttrName << "' while other ops of vertex function '"
             << vertex.getSymName() << "' have one";
  return success();
}
