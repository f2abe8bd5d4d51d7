//===- FrontendFuzzer.cpp - libFuzzer target for the .cavs frontend --------===//
//
// Feeds arbitrary bytes to the lexer, parser and checker. The frontend must
// reject bad input with diagnostics and never crash, hang or leak; ASan and
// UBSan turn any violation into a fuzzer failure.
//
//===----------------------------------------------------------------------===//

#include "compiler/Frontend/Frontend.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::SourceMgr sourceMgr;
  // Diagnostics are the expected outcome for most inputs; keep them quiet so
  // the fuzzer runs at full speed.
  sourceMgr.setDiagHandler([](const llvm::SMDiagnostic &, void *) {});
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.cavs"),
      llvm::SMLoc());
  (void)cavs::runFrontend(sourceMgr, {});
  return 0;
}
