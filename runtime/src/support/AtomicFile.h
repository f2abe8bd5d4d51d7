//===- AtomicFile.h - files replaced whole, never partly ------*- C++ -*-===//
//
// Checkpoints, safetensors files and vocabularies are written through a
// temporary file that is synced and renamed over the target, so the target
// never holds a partial file, and takes the replaced file's permission
// bits. A symbolic link is followed to the file it names (the link stays); a
// target that is no regular file (a device such as /dev/null, a FIFO, a
// directory) is refused, where a rename would replace it. (Checkpoints are read
// whole with support/ReadFile.h, so they can be validated completely before
// anything is changed.)
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_SUPPORT_ATOMICFILE_H
#define CAVS_RUNTIME_SUPPORT_ATOMICFILE_H

#include "support/Status.h"

#include <string>
#include <vector>

namespace cavs::runtime {

/// Writes `<target>.tmp.<pid>.<n>` (n numbers the process's saves, so that
/// threads saving one path at once do not share it) and, on commit(), syncs
/// it and renames it over the target: `path`, or the file its symbolic
/// links lead to. Unless committed, the destructor removes the temporary
/// file.
class AtomicFileWriter {
public:
  /// `what` names the file in messages ("checkpoint").
  AtomicFileWriter(std::string path, const char *what);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter &) = delete;
  AtomicFileWriter &operator=(const AtomicFileWriter &) = delete;

  /// Resolves the target (CAVS_ERROR_IO when it exists and is no regular
  /// file), removes the temporary files that killed writers of it left
  /// (`<target>.tmp.<pid>[.<n>]` of pids that no longer exist), then creates
  /// this writer's.
  Status open();
  /// Appends `size` bytes (buffered).
  Status write(const void *data, size_t size);
  /// Flushes, fsyncs and closes the temporary file, renames it to the
  /// final path and syncs the directory.
  Status commit();

private:
  /// Follows symbolic links from `path_` into `target_`; refuses a target
  /// that exists and is no regular file.
  Status resolveTarget();
  Status flush();
  Status writeAll(const unsigned char *data, size_t size);
  Status ioError(const char *action) const;

  std::string path_, target_, tempPath_;
  const char *what_;
  int fd_ = -1;
  bool created_ = false;
  bool committed_ = false;
  std::vector<unsigned char> buffer_;
};

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_SUPPORT_ATOMICFILE_H
