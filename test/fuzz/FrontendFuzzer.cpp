//===- FrontendFuzzer.cpp - libFuzzer target for the .cavs frontend --------===//
//
// Feeds arbitrary bytes to the lexer, parser and checker. The frontend must
// reject bad input with diagnostics and never crash, hang or leak; ASan and
// UBSan turn any violation into a fuzzer failure.
//
//===----------------------------------------------------------------------===//

#include "FuzzInput.h"

#include "compiler/Frontend/Frontend.h"

#include "llvm/Support/SourceMgr.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::SourceMgr sourceMgr;
  cavs::addSourceBuffer(
      sourceMgr, cavs::fuzz::quietInput(sourceMgr, data, size, "fuzz.cavs"));
  (void)cavs::runFrontend(sourceMgr, {});
  return 0;
}
