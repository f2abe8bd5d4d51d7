//===- CavsOps.h - operations of the cavs dialect ---------------*- C++ -*-===//
//
// The op classes generated from CavsOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_DIALECTS_CAVSOPS_H
#define CAVS_DIALECTS_CAVSOPS_H

#include "dialects/CavsDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "dialects/CavsOps.h.inc"

#endif // CAVS_DIALECTS_CAVSOPS_H
