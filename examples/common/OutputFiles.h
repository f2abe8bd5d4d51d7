//===- OutputFiles.h - checks of the files a run will write -----*- C++ -*-===//
//
// A training run writes its checkpoints and --metrics file only after
// work has been done, so what would make those writes fail or destroy
// something (a missing or read-only folder, a FIFO or device in the way,
// two outputs on one file) is checked before training, without creating
// or changing any file.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_OUTPUTFILES_H
#define CAVS_EXAMPLES_OUTPUTFILES_H

#include "TrainOptions.h"

#include <string>
#include <vector>

namespace cavs_examples {

/// Throws UsageError, naming `flag` and its `value`, unless `path` (the
/// value or a file derived from it) can be written: its folder exists and
/// is writable, and `path` is absent or a regular file (a device, FIFO or
/// directory would block, or be replaced by, a write).
void requireWritableFile(const std::string &flag, const std::string &value,
                         const std::string &path);

/// Throws UsageError when --metrics names a file the run also writes or
/// reads as a checkpoint (--checkpoint, --resume and their .best files):
/// one would overwrite the other.
void requireSeparateOutputs(const TrainOptions &options);

/// A file the run reads, and the flag that names it (or its folder).
struct InputFile {
  std::string flag;
  std::string path;
};

/// Throws UsageError when --checkpoint, its .best file or --metrics is one
/// of `inputs` (a data split, the word vectors): a save would overwrite
/// what the run reads.
void requireOutputsSpareInputs(const TrainOptions &options,
                               const std::vector<InputFile> &inputs);

/// Whether `a` and `b` name one file: the same file when both exist (links
/// and hard links included), else the same resolved path.
bool sameFile(const std::string &a, const std::string &b);

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_OUTPUTFILES_H
