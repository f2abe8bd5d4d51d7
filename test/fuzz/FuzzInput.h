//===- FuzzInput.h - a fuzz input as the main buffer of a SourceMgr -*- C++ -*-===//
//
// Every target reads its bytes through a SourceMgr whose diagnostics are
// dropped: they are the expected outcome for most inputs, and printing them
// would slow the fuzzers down to the speed of the terminal.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_TEST_FUZZ_FUZZINPUT_H
#define CAVS_TEST_FUZZ_FUZZINPUT_H

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>
#include <memory>

namespace cavs::fuzz {

/// A copy of the fuzz input named `name`, for `sourceMgr`, whose
/// diagnostics this silences.
inline std::unique_ptr<llvm::MemoryBuffer>
quietInput(llvm::SourceMgr &sourceMgr, const uint8_t *data, size_t size,
           llvm::StringRef name) {
  sourceMgr.setDiagHandler([](const llvm::SMDiagnostic &, void *) {});
  return llvm::MemoryBuffer::getMemBufferCopy(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), name);
}

} // namespace cavs::fuzz

#endif // CAVS_TEST_FUZZ_FUZZINPUT_H
