//===- PipelineFuzzer.cpp - libFuzzer target for .cavs to optimized IR ----===//
//
// Whatever the frontend accepts must become cavs IR that verifies and go
// through the optimization pipeline (cavsc --emit=mlir-optimized and
// --emit=stats) without a crash, a sanitizer report or invalid IR.
//
//===----------------------------------------------------------------------===//

#include "FuzzInput.h"
#include "FuzzPipeline.h"

#include "compiler/Frontend/Frontend.h"
#include "compiler/Frontend/MLIRGen.h"

#include "llvm/Support/SourceMgr.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::SourceMgr sourceMgr;
  cavs::addSourceBuffer(
      sourceMgr, cavs::fuzz::quietInput(sourceMgr, data, size, "fuzz.cavs"));
  std::unique_ptr<cavs::FrontendResult> checked =
      cavs::runFrontend(sourceMgr, {});
  if (!checked)
    return 0;
  std::unique_ptr<mlir::MLIRContext> context = cavs::fuzz::makeQuietContext();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      cavs::generateMLIR(*context, sourceMgr, checked->model);
  if (!module)
    return 0;
  // The frontend checked the model, so its IR must verify (cavsc would
  // print an internal error otherwise).
  cavs::fuzz::verifyOrDie(*module, "the frontend's IR does not verify");
  cavs::fuzz::runOptimizePipeline(*module);
  return 0;
}
