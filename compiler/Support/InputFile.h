//===- InputFile.h - reading the tools' source files ------------*- C++ -*-===//
//
// cavsc and cavs-opt read their input whole. A named input must be a regular
// file: a FIFO would block the compiler until some writer comes, and a
// device such as /dev/zero never ends, so it would take all memory. Any
// input, standard input included, is read only up to kMaxInputBytes.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_COMPILER_SUPPORT_INPUTFILE_H
#define CAVS_COMPILER_SUPPORT_INPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstddef>
#include <memory>
#include <string>

namespace cavs {

/// The largest input read: far above any model or IR the tools handle
/// (the frontend's limit of 65,536 operations fits in a few MiB).
constexpr size_t kMaxInputBytes = size_t(256) << 20;

/// Reads `path` ("-": standard input) whole. On failure returns null and
/// sets `error` to a message naming the file ("cannot read 'in.fifo': it is
/// a FIFO, not a regular file").
std::unique_ptr<llvm::MemoryBuffer> readInputFile(llvm::StringRef path,
                                                  std::string &error);

} // namespace cavs

#endif // CAVS_COMPILER_SUPPORT_INPUTFILE_H
