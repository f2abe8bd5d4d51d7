//===- OutputFile.cpp - replacing the tools' output files -----------------===//
#include "compiler/Support/OutputFile.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"

#include <filesystem>

using namespace llvm;

namespace cavs {

std::error_code keepPermissions(StringRef output, StringRef replacement) {
  sys::fs::file_status status;
  if (std::error_code error = sys::fs::status(output, status))
    return error == std::errc::no_such_file_or_directory ? std::error_code()
                                                         : error;
  return sys::fs::setPermissions(replacement, status.permissions());
}

bool isRegularOrMissing(StringRef path) {
  sys::fs::file_status status;
  return sys::fs::status(path, status) ||
         status.type() == sys::fs::file_type::regular_file;
}

std::string followLinks(const std::string &path) {
  namespace fs = std::filesystem;
  fs::path current(path);
  for (int hop = 0; hop < 40; ++hop) { // Linux's limit of links in a row
    std::error_code error;
    if (!fs::is_symlink(current, error))
      break;
    fs::path target = fs::read_symlink(current, error);
    if (error)
      break;
    current = target.is_absolute() ? target : current.parent_path() / target;
  }
  return current.string();
}

std::string outputIsInputError(StringRef input, StringRef output) {
  if (output == "-" || !sys::fs::exists(output))
    return "";
  bool same = false;
  if (input == "-") {
    sys::fs::file_status in, out;
    same = !sys::fs::status(0, in) && !sys::fs::status(output, out) &&
           in.getUniqueID() == out.getUniqueID();
  } else if (sys::fs::equivalent(input, output, same)) {
    return "";
  }
  if (!same)
    return "";
  return ("output file '" + output +
          "' is the input file; refusing to overwrite it")
      .str();
}

namespace {

/// Runs `write` on `os` and flushes it; a failed write (a full disk or
/// device, a closed pipe) is reported and cleared, where the stream would
/// otherwise end the process with a fatal error when destroyed.
LogicalResult writeAndCheck(raw_fd_ostream &os, StringRef name,
                            function_ref<LogicalResult(raw_ostream &)> write,
                            function_ref<void(const Twine &)> report) {
  const bool written = succeeded(write(os));
  os.flush();
  if (!os.has_error())
    return success(written);
  report("cannot write '" + name + "': " + os.error().message());
  os.clear_error();
  return failure();
}

} // namespace

LogicalResult writeOutputFile(StringRef output,
                              function_ref<LogicalResult(raw_ostream &)> write,
                              function_ref<void(const Twine &)> report) {
  if (output == "-")
    return writeAndCheck(outs(), "<stdout>", write, report);
  if (!isRegularOrMissing(output)) {
    // A device or a pipe (-o /dev/null) cannot be replaced by renaming.
    std::error_code error;
    raw_fd_ostream os(output, error);
    if (error) {
      report("cannot write '" + output + "': " + error.message());
      return failure();
    }
    return writeAndCheck(os, output, write, report);
  }
  const std::string path = followLinks(output.str());
  Expected<sys::fs::TempFile> temp =
      sys::fs::TempFile::create(path + ".tmp-%%%%%%");
  if (!temp) {
    report("cannot write '" + output + "': " + toString(temp.takeError()));
    return failure();
  }
  bool written;
  {
    raw_fd_ostream os(temp->FD, /*shouldClose=*/false);
    written = succeeded(writeAndCheck(os, output, write, report));
  }
  if (!written) {
    consumeError(temp->discard());
    return failure();
  }
  if (std::error_code error = keepPermissions(path, temp->TmpName)) {
    consumeError(temp->discard());
    report("cannot write '" + output + "': " + error.message());
    return failure();
  }
  if (Error error = temp->keep(path)) {
    report("cannot write '" + output + "': " + toString(std::move(error)));
    return failure();
  }
  return success();
}

} // namespace cavs
