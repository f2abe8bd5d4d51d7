//===- Symbols.cpp - module-level names seen by sema ----------------------===//
//
// Declaration and integer resolution of dims and parameters.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/Symbols.h"

using namespace cavs;

ModuleSymbol *ModuleSymbols::declare(llvm::StringRef name,
                                     ModuleSymbol::Kind kind, llvm::SMLoc loc,
                                     DiagEngine &diag) {
  auto [it, inserted] = symbols.try_emplace(name);
  if (inserted) {
    it->second.kind = kind;
    it->second.loc = loc;
    return &it->second;
  }
  diag.error(loc, "redefinition of '" + name + "'");
  diag.note(it->second.loc, "previous definition is here");
  return nullptr;
}

std::optional<int64_t> ModuleSymbols::resolveInt(const NameExpr &name,
                                                 DiagEngine &diag) const {
  llvm::StringRef spelling = name.getName();
  if (spelling == "arity") {
    diag.error(name.getLoc(),
               "'arity' can only be used inside a vertex function");
    return std::nullopt;
  }
  const ModuleSymbol *symbol = lookup(spelling);
  if (!symbol) {
    diag.errorOnce(name.getLoc(), "use of undeclared name '" + spelling + "'");
    return std::nullopt;
  }
  if (symbol->kind == ModuleSymbol::Kind::Param) {
    diag.error(name.getLoc(), "'" + spelling +
                                  "' is a parameter, not a compile-time "
                                  "integer");
    return std::nullopt;
  }
  return symbol->dimValue;
}
