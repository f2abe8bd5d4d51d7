//===- Checkpoints.cpp - per-epoch checkpoints and the best one -----------===//
#include "Checkpoints.h"

#include "ArgParser.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <unistd.h>

namespace cavs_examples {

namespace {
/// What `path` (its links followed) is when it exists and is no regular
/// file; null otherwise.
const char *nonRegularKind(const std::string &path) {
  using std::filesystem::file_type;
  std::error_code error;
  switch (std::filesystem::status(path, error).type()) {
  case file_type::not_found:
  case file_type::regular:
  case file_type::none:
    return nullptr;
  case file_type::directory:
    return "a directory";
  case file_type::fifo:
    return "a FIFO";
  case file_type::character:
    return "a character device";
  case file_type::block:
    return "a block device";
  case file_type::socket:
    return "a socket";
  default:
    return "a special file";
  }
}
} // namespace

Checkpoints::Checkpoints(std::string path, bool writer)
    : path_(std::move(path)), bestPath_(path_ + ".best"), writer_(writer) {
  if (!enabled() || !writer)
    return;
  // The first save comes after an epoch of training: check now what would
  // make it fail, without creating anything.
  const std::filesystem::path parent =
      std::filesystem::path(path_).parent_path();
  const std::string folder = parent.empty() ? "." : parent.string();
  const std::string flag = "--checkpoint " + path_ + ": ";
  if (!std::filesystem::is_directory(folder))
    throw UsageError(flag + "folder '" + folder + "' does not exist");
  if (::access(folder.c_str(), W_OK) != 0)
    throw UsageError(flag + "cannot write in folder '" + folder +
                     "': " + std::strerror(errno));
  // A save renames a new file over its target, which must not replace a
  // device, FIFO or directory (the runtime refuses them too, but only
  // after the first epoch).
  for (const std::string &file : {path_, bestPath_})
    if (const char *kind = nonRegularKind(file))
      throw UsageError(flag + "'" + file + "' is " + kind +
                       ", not a regular file");
}

void Checkpoints::resume(const RunState &state,
                         const std::string &resumePath) {
  bestEpoch_ = state.bestEpoch;
  bestScore_ = state.bestScore;
  if (!enabled() || !writer_)
    return;
  bestPath_ = resumePath + ".best";
  if (!std::filesystem::is_regular_file(bestPath_))
    throw std::runtime_error(
        "--resume " + resumePath + ": its best checkpoint '" + bestPath_ +
        "' (epoch " + std::to_string(bestEpoch_) +
        ") is missing or not a regular file; a run resumes with the best "
        "epoch it recorded");
}

void Checkpoints::save(cavs::Model &model, const cavs::Optimizer &optimizer,
                       RunState state, double score,
                       cavs::dist::Trainer *dist) {
  if (!enabled())
    return;
  // A diverged epoch's score (NaN) ranks below every other: a later epoch
  // that scores can still become the best, and the training state never
  // holds a NaN, which --resume refuses as a damaged file.
  if (std::isnan(score))
    score = -std::numeric_limits<double>::infinity();
  const bool best = bestEpoch_ == 0 || score > bestScore_;
  if (best) {
    bestScore_ = score;
    bestEpoch_ = state.epoch;
  }
  state.bestEpoch = bestEpoch_;
  state.bestScore = bestScore_;
  const cavs::TrainState record = toRecord(state);
  auto write = [&](const std::string &path) {
    if (dist)
      dist->save(path, &record);
    else
      model.save(path, &optimizer, &record);
  };
  if (best) {
    bestPath_ = path_ + ".best";
    write(bestPath_);
  }
  write(path_);
}

} // namespace cavs_examples
