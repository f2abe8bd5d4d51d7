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
