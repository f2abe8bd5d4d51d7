//===- Passes.h - the cavs compiler passes ----------------------*- C++ -*-===//
//
// Declarations generated from Passes.td: pass constructors, option structs
// and registration.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_COMPILER_TRANSFORMS_PASSES_H
#define CAVS_COMPILER_TRANSFORMS_PASSES_H

#include "dialects/CavsOps.h"

#include "mlir/Pass/Pass.h"

namespace cavs {

#define GEN_PASS_DECL
#include "compiler/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/Passes.h.inc"

} // namespace cavs

#endif // CAVS_COMPILER_TRANSFORMS_PASSES_H
