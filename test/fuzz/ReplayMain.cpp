//===- ReplayMain.cpp - run a fuzz target's entry point on saved inputs ---===//
//
// `<target>-replay <file or folder>...` calls the target's
// LLVMFuzzerTestOneInput once per file (a folder: every file in it), as the
// libFuzzer binary does when given files, but without libFuzzer: the normal
// build replays the seed corpus and the crash reproducers in every test run.
// A crash ends the run like it would the fuzzer; otherwise it prints how
// many inputs ran and the slowest one.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {
/// Appends `path`, or the files directly inside it if it is a folder,
/// sorted so runs are repeatable; false if it does not exist.
bool collectInputs(llvm::StringRef path, std::vector<std::string> &inputs) {
  if (!llvm::sys::fs::is_directory(path)) {
    if (!llvm::sys::fs::exists(path))
      return false;
    inputs.push_back(path.str());
    return true;
  }
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(path, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::fs::is_regular_file(it->path()))
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  inputs.insert(inputs.end(), files.begin(), files.end());
  return !ec;
}
} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i)
    if (!collectInputs(argv[i], inputs)) {
      llvm::errs() << argv[0] << ": error: cannot read '" << argv[i] << "'\n";
      return 1;
    }
  if (inputs.empty()) {
    llvm::errs() << argv[0] << ": error: no inputs to replay\n";
    return 1;
  }
  double slowestSeconds = 0;
  std::string slowest;
  for (const std::string &input : inputs) {
    auto buffer = llvm::MemoryBuffer::getFile(input, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer) {
      llvm::errs() << argv[0] << ": error: cannot read '" << input
                   << "': " << buffer.getError().message() << "\n";
      return 1;
    }
    // An exact-size copy, as libFuzzer passes: reading past the end is then
    // a heap overflow that a sanitizer build reports.
    llvm::StringRef bytes = (*buffer)->getBuffer();
    std::unique_ptr<uint8_t[]> data(new uint8_t[bytes.size()]);
    std::copy(bytes.begin(), bytes.end(), data.get());
    // Named first, so a crash's output says which input caused it.
    llvm::outs() << "replaying " << input << "\n";
    llvm::outs().flush();
    auto start = std::chrono::steady_clock::now();
    LLVMFuzzerTestOneInput(data.get(), bytes.size());
    std::chrono::duration<double> seconds =
        std::chrono::steady_clock::now() - start;
    if (seconds.count() > slowestSeconds) {
      slowestSeconds = seconds.count();
      slowest = input;
    }
  }
  llvm::outs() << "replayed " << inputs.size()
               << " inputs; slowest: " << slowest << " ("
               << llvm::format("%.3f", slowestSeconds) << " s)\n";
  return 0;
}
