//===- Sema.h - semantic checks of a .cavs model ----------------*- C++ -*-===//
//
// Turns a parsed module into a checked::Model: resolves dims (with -D
// overrides), the state and parameter shapes, then checks and elaborates
// every vertex function (VertexElaborator). All problems are reported through
// the DiagEngine; sema keeps going after an error wherever the rest can still
// be checked meaningfully.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_COMPILER_FRONTEND_SEMA_H
#define CAVS_COMPILER_FRONTEND_SEMA_H

#include "compiler/Frontend/AST.h"
#include "compiler/Frontend/CheckedModel.h"
#include "compiler/Frontend/Diagnostics.h"

#include <optional>
#include <string>

namespace cavs {

/// A `-D NAME=VALUE` command-line override of a dim, already parsed.
struct DimOverride {
  /// The option as written, for diagnostics.
  std::string spelling;
  std::string name;
  int64_t value;
};

/// Checks `module`; returns the checked model, or std::nullopt if any error
/// was reported (here or before).
std::optional<checked::Model> checkModule(const ModuleAST &module,
                                          llvm::ArrayRef<DimOverride> overrides,
                                          DiagEngine &diag);

} // namespace cavs

#endif // CAVS_COMPILER_FRONTEND_SEMA_H
