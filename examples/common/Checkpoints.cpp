//===- Checkpoints.cpp - per-epoch checkpoints and the best one -----------===//
#include "Checkpoints.h"

#include "ArgParser.h"

#include <filesystem>

namespace cavs_examples {

Checkpoints::Checkpoints(std::string path, bool writer)
    : path_(std::move(path)) {
  const std::filesystem::path folder =
      std::filesystem::path(path_).parent_path();
  if (writer && !folder.empty() && !std::filesystem::is_directory(folder))
    throw UsageError("--checkpoint " + path_ + ": folder '" + folder.string() +
                     "' does not exist");
}

void Checkpoints::save(cavs::Model &model, const cavs::Optimizer &optimizer,
                       int32_t epoch, double score,
                       cavs::dist::Trainer *dist) {
  if (!enabled())
    return;
  auto write = [&](const std::string &path) {
    if (dist)
      dist->save(path);
    else
      model.save(path, &optimizer);
  };
  write(path_);
  if (bestEpoch_ == 0 || score > bestScore_) {
    bestScore_ = score;
    bestEpoch_ = epoch;
    write(bestPath());
  }
}

} // namespace cavs_examples
