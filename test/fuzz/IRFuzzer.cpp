//===- IRFuzzer.cpp - libFuzzer target for cavs IR text -------------------===//
//
// Arbitrary bytes read as cavs-opt reads its input: the limits check, then
// the MLIR parser and verifier on a large stack; IR that verifies goes
// through the optimization pipeline. Passes may reject what they cannot
// handle, but must not crash or leave invalid IR.
//
//===----------------------------------------------------------------------===//

#include "FuzzInput.h"
#include "FuzzPipeline.h"

#include "compiler/Support/IRLimits.h"
#include "compiler/Support/LargeStack.h"

#include "mlir/IR/AsmState.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      cavs::fuzz::quietInput(sourceMgr, data, size, "fuzz.mlir"), llvm::SMLoc());
  if (failed(cavs::checkIRLimits(sourceMgr)))
    return 0;
  // No exhaustion report here: a sanitizer should see a stack overflow.
  cavs::runOnLargeStack([&] {
    std::unique_ptr<mlir::MLIRContext> context = cavs::fuzz::makeQuietContext();
    mlir::ParserConfig config(context.get());
    // Like cavs-opt, top-level ops without a module get an implicit one;
    // parsing verifies.
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, config);
    if (module)
      cavs::fuzz::runOptimizePipeline(*module);
  });
  return 0;
}
