//===- ConstEval.h - compile-time integer expressions -----------*- C++ -*-===//
//
// Dims, shapes, loop bounds, indices and arities are int64 expressions
// evaluated at compile time. The arithmetic is overflow-checked, so no input
// reaches signed-overflow UB; names are resolved by the caller, who knows
// which names are visible (dims only at top level; loop variables and
// `arity` inside a vertex function).
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_COMPILER_FRONTEND_CONSTEVAL_H
#define CAVS_COMPILER_FRONTEND_CONSTEVAL_H

#include "compiler/Frontend/AST.h"
#include "compiler/Frontend/Diagnostics.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace cavs {

/// Returns the integer value of a name, or reports why it has none and
/// returns std::nullopt (silently, when the name's own declaration already
/// had an error).
using IntNameResolver =
    llvm::function_ref<std::optional<int64_t>(const NameExpr &)>;

/// Evaluates `expr` as a compile-time integer: literals and names combined
/// with + - * / (truncating) and unary minus. Reports and returns
/// std::nullopt on any other construct, overflow or division by zero.
std::optional<int64_t> evaluateInt(const Expr &expr, IntNameResolver resolve,
                                   DiagEngine &diag);

/// Evaluates a written type: `i32`, or `f32[...]` whose extents must all be
/// positive. Which ranks are allowed is the caller's business.
std::optional<checked::Type>
evaluateType(const TypeSpec &spec, IntNameResolver resolve, DiagEngine &diag);

} // namespace cavs

#endif // CAVS_COMPILER_FRONTEND_CONSTEVAL_H
