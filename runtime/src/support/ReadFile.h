//===- ReadFile.h - whole-file reads of the runtime's inputs --------------===//
//
// Every file the runtime reads (loader inputs, vocabularies, checkpoints) is
// read whole through readWholeFile, or streamed (word vectors, which can be
// gigabytes) from openRegularFile; both accept only regular files: a
// directory, FIFO or device such as /dev/zero is refused up front, where
// reading it would fail late, block, or never end.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_SUPPORT_READFILE_H
#define CAVS_RUNTIME_SUPPORT_READFILE_H

#include "support/Status.h"

#include <memory>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace cavs::runtime {

/// What some editors write at the start of a UTF-8 text file; the text
/// loaders skip it.
inline constexpr std::string_view kUtf8ByteOrderMark = "\xEF\xBB\xBF";

/// The bytes of a file.
struct FileBytes {
  std::unique_ptr<unsigned char[]> data;
  size_t size = 0;

  std::string_view text() const {
    return {reinterpret_cast<const char *>(data.get()), size};
  }
};

/// What a file that is not a regular file is, for messages ("a directory",
/// "a FIFO", "a character device", ...).
const char *fileKind(mode_t mode);

/// Reads all of the regular file `path`; `what` names it in messages
/// ("checkpoint"). CAVS_ERROR_IO when it cannot be opened or read, or is
/// not a regular file.
Status readWholeFile(const std::string &path, const char *what, FileBytes &out);

/// Opens the regular file `path` for reading into `fd` (the caller closes
/// it), for readers that stream; errors as readWholeFile's. `size` (if
/// given) receives its size.
Status openRegularFile(const std::string &path, const char *what, int &fd,
                       size_t *size = nullptr);

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_SUPPORT_READFILE_H
