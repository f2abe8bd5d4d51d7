//===- PipelineFuzzer.cpp - libFuzzer target for .cavs to optimized IR ----===//
//
// Whatever the frontend accepts must become cavs IR that verifies and go
// through the optimization pipeline (cavsc --emit=mlir-optimized and
// --emit=stats) without a crash, a sanitizer report or invalid IR.
//
//===----------------------------------------------------------------------===//

#include "FuzzPipeline.h"

#include "compiler/Frontend/Frontend.h"
#include "compiler/Frontend/MLIRGen.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.setDiagHandler([](const llvm::SMDiagnostic &, void *) {});
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.cavs"),
      llvm::SMLoc());
  std::unique_ptr<cavs::CheckedModule> checked =
      cavs::runFrontend(sourceMgr, {});
  if (!checked)
    return 0;
  std::unique_ptr<mlir::MLIRContext> context = cavs::fuzz::makeQuietContext();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      cavs::generateMLIR(*context, sourceMgr, checked->program);
  if (!module)
    return 0;
  // The frontend checked the program, so its IR must verify (cavsc would
  // print an internal error otherwise).
  cavs::fuzz::verifyOrDie(*module, "the frontend's IR does not verify");
  cavs::fuzz::runOptimizePipeline(*module);
  return 0;
}
