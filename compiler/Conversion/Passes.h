//===- Passes.h - the lowering passes of planned cavs IR --------*- C++ -*-===//
//
// Declarations generated from Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_COMPILER_CONVERSION_PASSES_H
#define CAVS_COMPILER_CONVERSION_PASSES_H

#include "dialects/CavsOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace cavs {
#define GEN_PASS_DECL
#include "compiler/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Conversion/Passes.h.inc"
} // namespace cavs

#endif // CAVS_COMPILER_CONVERSION_PASSES_H
