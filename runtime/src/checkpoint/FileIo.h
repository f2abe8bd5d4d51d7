//===- FileIo.h - atomic writes of checkpoint files -----------------------===//
//
// Checkpoints are written through a temporary file that is synced and
// renamed over the target, so the target never holds a partial file. (They
// are read whole with support/ReadFile.h, so they can be validated
// completely before anything is changed.)
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_CHECKPOINT_FILEIO_H
#define CAVS_RUNTIME_CHECKPOINT_FILEIO_H

#include "support/Status.h"

#include <string>
#include <vector>

namespace cavs::runtime {

/// Writes `<path>.tmp.<pid>` and, on commit(), syncs it and renames it over
/// `path`. Unless committed, the destructor removes the temporary file.
class AtomicFileWriter {
public:
  /// `what` names the file in messages ("checkpoint").
  AtomicFileWriter(std::string path, const char *what);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter &) = delete;
  AtomicFileWriter &operator=(const AtomicFileWriter &) = delete;

  /// Removes the temporary files that killed writers of the same path left
  /// (`<path>.tmp.<pid>` of pids that no longer exist), then creates this
  /// writer's.
  Status open();
  /// Appends `size` bytes (buffered).
  Status write(const void *data, size_t size);
  /// Flushes, fsyncs and closes the temporary file, renames it to the
  /// final path and syncs the directory.
  Status commit();

private:
  Status flush();
  Status writeAll(const unsigned char *data, size_t size);
  Status ioError(const char *action) const;

  std::string path_, tempPath_;
  const char *what_;
  int fd_ = -1;
  bool created_ = false;
  bool committed_ = false;
  std::vector<unsigned char> buffer_;
};

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_CHECKPOINT_FILEIO_H
