//===- OutputFile.cpp - replacing the tools' output files -----------------===//
#include "compiler/Support/OutputFile.h"

#include "llvm/Support/FileSystem.h"

namespace cavs {

std::error_code keepPermissions(llvm::StringRef output,
                                llvm::StringRef replacement) {
  llvm::sys::fs::file_status status;
  if (std::error_code error = llvm::sys::fs::status(output, status))
    return error == std::errc::no_such_file_or_directory ? std::error_code()
                                                         : error;
  return llvm::sys::fs::setPermissions(replacement, status.permissions());
}

} // namespace cavs
