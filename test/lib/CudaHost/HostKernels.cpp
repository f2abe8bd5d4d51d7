//===- HostKernels.cpp - a CUDA source built for the host, for the tests --===//
//
// The source goes into kernels.cu as it is; a wrapper includes the shim,
// then kernels.cu, then exports every kernel. -O1 keeps the build short
// (about a second for an example model's kernels).
//
//===----------------------------------------------------------------------===//
#include "HostKernels.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>

using namespace cavs::test;

namespace {

/// Writes `text` to `path`.
bool writeFile(const std::string &path, llvm::StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream file(path, ec);
  EXPECT_FALSE(ec) << path << ": " << ec.message();
  file << text;
  return !ec;
}

} // namespace

HostKernels::~HostKernels() {
  if (!dir_.empty())
    llvm::sys::fs::remove_directories(dir_);
}

void HostKernels::build(llvm::StringRef source,
                        llvm::ArrayRef<std::string> kernels) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cavs-host-kernels", dir));
  dir_ = std::string(dir);
  const std::string cu = dir_ + "/kernels.cu", cpp = dir_ + "/exports.cpp",
                    library = dir_ + "/libkernels.so",
                    log = dir_ + "/errors.txt";
  std::string exports =
      "#include \"CudaHostDevice.h\"\n#include \"" + cu + "\"\n";
  for (const std::string &kernel : kernels)
    exports += "CAVS_HOST_KERNEL(" + kernel + ")\n";
  ASSERT_TRUE(writeFile(cu, source));
  ASSERT_TRUE(writeFile(cpp, exports));

  llvm::ErrorOr<std::string> compiler = llvm::sys::findProgramByName("c++");
  ASSERT_TRUE(compiler) << "no host C++ compiler (c++) on the PATH";
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, log, log};
  const int status = llvm::sys::ExecuteAndWait(
      *compiler,
      {*compiler, "-std=c++20", "-O1", "-shared", "-fPIC",
       "-fvisibility=hidden", "-I", CAVS_CUDA_HOST_INCLUDE_DIR, "-o", library,
       cpp},
      std::nullopt, redirects);
  if (status != 0) {
    auto errors = llvm::MemoryBuffer::getFile(log);
    FAIL() << "the host C++ compiler rejects the CUDA source:\n"
           << (errors ? (*errors)->getBuffer().str() : std::string());
  }
  library_ = library;
}

void HostKernels::buildForHostCudaLibrary(llvm::StringRef source,
                                          llvm::ArrayRef<std::string> kernels) {
#ifdef CAVS_HOST_CUDA_LIBRARY
  const char *loaded = std::getenv("CAVS_CUDA_LIBRARY");
  if (!loaded || llvm::StringRef(loaded) != CAVS_HOST_CUDA_LIBRARY)
    return;
  build(source, kernels);
  if (!library_.empty())
    setenv("CAVS_HOST_CUDA_KERNELS", library_.c_str(), 1);
#else
  (void)source, (void)kernels;
#endif
}
