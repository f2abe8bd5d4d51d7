//===- InputFile.cpp - reading the tools' source files --------------------===//
//
// The kind and size of a named file come from its status before it is
// opened; standard input, whose size cannot be known, is read in chunks up
// to the limit.
//
//===----------------------------------------------------------------------===//
#include "compiler/Support/InputFile.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"

using namespace llvm;

namespace cavs {

namespace {

const char *kindOf(sys::fs::file_type type) {
  switch (type) {
  case sys::fs::file_type::directory_file:
    return "a directory";
  case sys::fs::file_type::fifo_file:
    return "a FIFO";
  case sys::fs::file_type::character_file:
    return "a character device";
  case sys::fs::file_type::block_file:
    return "a block device";
  case sys::fs::file_type::socket_file:
    return "a socket";
  default:
    return "a special file";
  }
}

std::string tooLarge(StringRef name) {
  return ("cannot read " + name + ": it is larger than " +
          Twine(kMaxInputBytes >> 20) + " MiB, the most the tools read")
      .str();
}

std::unique_ptr<MemoryBuffer> readStandardInput(std::string &error) {
  SmallVector<char, 0> text;
  constexpr size_t kChunk = size_t(1) << 16;
  for (;;) {
    const size_t size = text.size();
    text.resize_for_overwrite(size + kChunk);
    Expected<size_t> read = sys::fs::readNativeFile(
        sys::fs::getStdinHandle(), MutableArrayRef(text.data() + size, kChunk));
    if (!read) {
      error = "cannot read standard input: " + toString(read.takeError());
      return nullptr;
    }
    text.truncate(size + *read);
    if (*read == 0)
      break;
    if (text.size() > kMaxInputBytes) {
      error = tooLarge("standard input");
      return nullptr;
    }
  }
  return MemoryBuffer::getMemBufferCopy(StringRef(text.data(), text.size()),
                                        "<stdin>");
}

} // namespace

std::unique_ptr<MemoryBuffer> readInputFile(StringRef path,
                                            std::string &error) {
  if (path == "-")
    return readStandardInput(error);
  const std::string name = ("'" + path + "'").str();
  sys::fs::file_status status;
  if (std::error_code code = sys::fs::status(path, status)) {
    error = "cannot open " + name + ": " + code.message();
    return nullptr;
  }
  if (status.type() != sys::fs::file_type::regular_file) {
    error = "cannot read " + name + ": it is " + kindOf(status.type()) +
            ", not a regular file";
    return nullptr;
  }
  if (status.getSize() > kMaxInputBytes) {
    error = tooLarge(name);
    return nullptr;
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/true);
  if (!buffer) {
    error = "cannot open " + name + ": " + buffer.getError().message();
    return nullptr;
  }
  return std::move(*buffer);
}

} // namespace cavs
