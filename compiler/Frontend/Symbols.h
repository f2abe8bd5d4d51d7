//===- Symbols.h - module-level names seen by sema --------------*- C++ -*-===//
//
// Dims and parameters share one namespace. A declaration that had an error
// stays in the table with its value missing, so its uses resolve silently
// instead of cascading into "undeclared name" errors.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_COMPILER_FRONTEND_SYMBOLS_H
#define CAVS_COMPILER_FRONTEND_SYMBOLS_H

#include "compiler/Frontend/AST.h"
#include "compiler/Frontend/Diagnostics.h"

#include "llvm/ADT/StringMap.h"

#include <optional>

namespace cavs {

/// A dim or parameter declaration.
struct ModuleSymbol {
  enum class Kind { Dim, Param };
  Kind kind = Kind::Dim;
  /// The declared name.
  llvm::SMLoc loc;
  /// Dim: its value, once evaluated; empty after an error.
  std::optional<int64_t> dimValue;
  /// Param: its index in checked::Model::params; empty after an error.
  std::optional<unsigned> param;

  /// "dim" or "parameter", for diagnostics.
  llvm::StringRef describeKind() const {
    return kind == Kind::Dim ? "dim" : "parameter";
  }
};

/// The dims and parameters of a module by name.
class ModuleSymbols {
public:
  /// Adds a symbol declared at `loc`; on a clash reports a redefinition and
  /// returns null.
  ModuleSymbol *declare(llvm::StringRef name, ModuleSymbol::Kind kind,
                        llvm::SMLoc loc, DiagEngine &diag);

  const ModuleSymbol *lookup(llvm::StringRef name) const {
    auto it = symbols.find(name);
    return it == symbols.end() ? nullptr : &it->second;
  }
  ModuleSymbol *lookup(llvm::StringRef name) {
    auto it = symbols.find(name);
    return it == symbols.end() ? nullptr : &it->second;
  }

  /// Resolves a name in a compile-time integer expression outside vertex
  /// functions: only dims have integer values.
  std::optional<int64_t> resolveInt(const NameExpr &name,
                                    DiagEngine &diag) const;

private:
  llvm::StringMap<ModuleSymbol> symbols;
};

} // namespace cavs

#endif // CAVS_COMPILER_FRONTEND_SYMBOLS_H
