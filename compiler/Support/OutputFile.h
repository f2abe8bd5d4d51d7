//===- OutputFile.h - replacing the tools' output files ---------*- C++ -*-===//
//
// cavsc and cavs-opt write each output to a temporary file beside it and
// rename that onto the output, so that a failed run leaves the old file
// whole; an output that is the input is refused before anything is read
// or written (opening it first emptied the input under the parser: a bus
// error, and the input gone). A rename also replaces the file's
// permissions with the new file's (from the umask), where writing into the
// file would keep them: a private output (0600) became readable by
// everyone. The replacement takes the old file's permission bits first.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_COMPILER_SUPPORT_OUTPUTFILE_H
#define CAVS_COMPILER_SUPPORT_OUTPUTFILE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/LogicalResult.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <system_error>

namespace cavs {

/// Gives `replacement` the permission bits of `output` when `output`
/// exists; nothing to do (success) when it does not.
std::error_code keepPermissions(llvm::StringRef output,
                                llvm::StringRef replacement);

/// Whether `path` is a regular file or does not exist (not a device, FIFO
/// or directory, which a rename would replace).
bool isRegularOrMissing(llvm::StringRef path);

/// `path` with its symbolic links followed: the file that writing through
/// the link would change. Outputs are renamed onto it, not onto the link,
/// which would replace the link (-o link.mlir, or -o /dev/stdout
/// redirected to a file). A dangling link gives the path it names.
std::string followLinks(const std::string &path);

/// The error when `output` is the file `input` names ("-": standard
/// input), through links and hard links; empty otherwise.
std::string outputIsInputError(llvm::StringRef input, llvm::StringRef output);

/// Runs `write` on `output` ("-": standard output): a regular or missing
/// file through a temporary file renamed onto it when `write` and the
/// write succeed, a device or pipe directly. Failures are reported through
/// `report` ("cannot write 'x': ...").
llvm::LogicalResult writeOutputFile(
    llvm::StringRef output,
    llvm::function_ref<llvm::LogicalResult(llvm::raw_ostream &)> write,
    llvm::function_ref<void(const llvm::Twine &)> report);

} // namespace cavs

#endif // CAVS_COMPILER_SUPPORT_OUTPUTFILE_H
