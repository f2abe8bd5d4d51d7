//===- Checkpoints.cpp - per-epoch checkpoints and the best one -----------===//
#include "Checkpoints.h"

#include "ArgParser.h"

#include <filesystem>

namespace cavs_examples {

Checkpoints::Checkpoints(std::string path) : path_(std::move(path)) {
  const std::filesystem::path folder =
      std::filesystem::path(path_).parent_path();
  if (!folder.empty() && !std::filesystem::is_directory(folder))
    throw UsageError("--checkpoint " + path_ + ": folder '" + folder.string() +
                     "' does not exist");
}

void Checkpoints::save(cavs::Model &model, const cavs::Optimizer &optimizer,
                       int32_t epoch, double score) {
  if (!enabled())
    return;
  model.save(path_, &optimizer);
  if (bestEpoch_ == 0 || score > bestScore_) {
    bestScore_ = score;
    bestEpoch_ = epoch;
    model.save(bestPath(), &optimizer);
  }
}

} // namespace cavs_examples
