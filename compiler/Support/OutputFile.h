//===- OutputFile.h - replacing the tools' output files ---------*- C++ -*-===//
//
// cavsc writes each output to a temporary file beside it and renames that
// onto the output, so that a failed compile leaves the old file whole. A
// rename also replaces the file's permissions with the new file's (from the
// umask), where writing into the file would keep them: a private output
// (0600) became readable by everyone. The replacement takes the old file's
// permission bits first.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_COMPILER_SUPPORT_OUTPUTFILE_H
#define CAVS_COMPILER_SUPPORT_OUTPUTFILE_H

#include "llvm/ADT/StringRef.h"

#include <system_error>

namespace cavs {

/// Gives `replacement` the permission bits of `output` when `output`
/// exists; nothing to do (success) when it does not.
std::error_code keepPermissions(llvm::StringRef output,
                                llvm::StringRef replacement);

} // namespace cavs

#endif // CAVS_COMPILER_SUPPORT_OUTPUTFILE_H
