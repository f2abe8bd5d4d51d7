//===- MLIRGen.h - checked .cavs model to the cavs dialect ------*- C++ -*-===//
//
// Translates the frontend's checked model (checked::Model) into a
// builtin.module holding one cavs.model. The model is already checked, so this
// is a 1:1 mapping of instructions to ops; source positions become
// FileLineColLoc locations and user-named values get NameLoc locations.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_COMPILER_FRONTEND_MLIRGEN_H
#define CAVS_COMPILER_FRONTEND_MLIRGEN_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace cavs {
namespace checked {
struct Model;
} // namespace checked

/// Builds the cavs dialect form of `model`, whose source positions refer
/// to buffers of `sourceMgr`. The cavs dialect must be loaded in `context`.
mlir::OwningOpRef<mlir::ModuleOp> generateMLIR(mlir::MLIRContext &context,
                                               const llvm::SourceMgr &sourceMgr,
                                               const checked::Model &model);
} // namespace cavs

#endif // CAVS_COMPILER_FRONTEND_MLIRGEN_H
