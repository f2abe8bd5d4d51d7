//===- Checkpoints.cpp - per-epoch checkpoints and the best one -----------===//
#include "Checkpoints.h"

#include "ArgParser.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <unistd.h>

namespace cavs_examples {

Checkpoints::Checkpoints(std::string path, bool writer)
    : path_(std::move(path)) {
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
  for (const std::string &file : {path_, bestPath()})
    if (std::filesystem::is_directory(file))
      throw UsageError(flag + "'" + file + "' is a directory");
}

void Checkpoints::resume(const RunState &state) {
  bestEpoch_ = state.bestEpoch;
  bestScore_ = state.bestScore;
}

void Checkpoints::save(cavs::Model &model, const cavs::Optimizer &optimizer,
                       RunState state, double score,
                       cavs::dist::Trainer *dist) {
  if (!enabled())
    return;
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
  write(path_);
  if (best)
    write(bestPath());
}

} // namespace cavs_examples
