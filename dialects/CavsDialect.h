//===- CavsDialect.h - the cavs dialect -------------------------*- C++ -*-===//
//
// Declares the dialect class, its enums and attributes. Include CavsOps.h for the ops.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_DIALECTS_CAVSDIALECT_H
#define CAVS_DIALECTS_CAVSDIALECT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Dialect.h"

#include "dialects/CavsEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/CavsAttributes.h.inc"

#include "dialects/CavsDialect.h.inc"

#endif // CAVS_DIALECTS_CAVSDIALECT_H
