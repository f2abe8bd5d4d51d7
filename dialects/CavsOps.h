//===- CavsOps.h - operations of the cavs dialect ---------------*- C++ -*-===//
//
// The op classes generated from CavsOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_DIALECTS_CAVSOPS_H
#define CAVS_DIALECTS_CAVSOPS_H

#include "dialects/CavsDialect.h"
#include "dialects/CavsInterfaces.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace cavs::OpTrait {
/// Marks elementwise math ops (see Cavs_ElementwiseMath in CavsBase.td).
template <typename ConcreteType>
class ElementwiseMath
    : public mlir::OpTrait::TraitBase<ConcreteType, ElementwiseMath> {};
/// Marks vector-to-scalar reductions (see Cavs_Reduction in CavsBase.td).
template <typename ConcreteType>
class Reduction : public mlir::OpTrait::TraitBase<ConcreteType, Reduction> {};
} // namespace cavs::OpTrait

#define GET_OP_CLASSES
#include "dialects/CavsOps.h.inc"

namespace cavs {
/// Formats a shape as the language and the verifiers print it: `[150]`,
/// `[450, 300]`, `[]` for a scalar.
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// Whether cavs-fuse-elementwise may put `op` into a kernel: elementwise
/// math and vector-to-scalar reductions.
bool isFusible(mlir::Operation *op);

/// Whether `op`, an op of F or ∂F, does per-vertex work: everything but
/// parameter references, constants and the backward region itself.
bool isBatchedOp(mlir::Operation *op);

/// Whether [offset, offset + width) lies in [0, size), computed without
/// overflow: an offset near 2^63 must not wrap around into range.
bool rangeFits(int64_t offset, int64_t width, int64_t size);

/// The memory slot cavs-plan-memory gave `value` (its defining op's
/// `cavs.slots` entry), or null: a block argument, or no plan yet.
SlotAttr slotOf(mlir::Value value);

/// Fails, at its first cavs.phase, when cavs-outline-phases has outlined
/// `vertex` already: the passes before it (classify, fuse, plan-memory)
/// check this first, as their other checks would name a wrong cause.
mlir::LogicalResult requireNotOutlined(VertexOp vertex);
} // namespace cavs

#endif // CAVS_DIALECTS_CAVSOPS_H
